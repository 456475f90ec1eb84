// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the client's DMA ownership rules on a device whose DMA bounces.
 *
 * Soft-RoCE and siw never use the DMA API, so the order of a sync, a
 * CPU write and an unmap makes no difference on them; under swiotlb
 * (SEV and TDX guests, swiotlb=force) and on non-coherent DMA it decides
 * what memory holds.  This suite maps memory for a device of its own
 * (a KUnit device, which the test kernel's swiotlb=force makes bounce
 * every mapping), plays the adapter by writing into the bounce buffer,
 * and checks that what the CPU wrote after its sync for the CPU is
 * still there once the memory is unmapped:
 *
 * - a Receive buffer an RPC holds, decoded in place (krb5p decrypts
 *   there), taken from its connection at teardown
 *   (rpcrdma_recv_buf_take(), from xrdma_recv_orphan_held());
 * - a reply's inline part copied into memory a Reply or Write chunk's
 *   MR maps (xrdma_mrs_sync_for_cpu() before the copy, then
 *   xrdma_mrs_release());
 * - and, to show the device bounces, an MR nobody copied into, whose
 *   unmap must bring the device's data to the CPU.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/swiotlb.h>

#include "../xprtrdma/client.h"

#define DBT_LEN		256

struct dbt {
	struct device *dev;
	struct ib_device *ibdev;
};

static struct dbt *dbt_setup(struct kunit *test)
{
	struct dbt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->dev = kunit_device_register(test, "rpcrdma-dma-bounce");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->dev);
	t->dev->coherent_dma_mask = DMA_BIT_MASK(64);
	t->dev->dma_mask = &t->dev->coherent_dma_mask;
	/* Without bouncing this suite would prove nothing: fail, not skip. */
	KUNIT_ASSERT_TRUE_MSG(test, is_swiotlb_force_bounce(t->dev),
			      "the test kernel must boot with swiotlb=force");
	t->ibdev = kunit_kzalloc(test, sizeof(*t->ibdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->ibdev);
	t->ibdev->dma_device = t->dev;
	return t;
}

/* The device's view of the memory at DMA address @addr: its bounce buffer. */
static u8 *dbt_device_view(struct dbt *t, dma_addr_t addr)
{
	return phys_to_virt(dma_to_phys(t->dev, addr));
}

static bool dbt_all(const u8 *p, u8 c, size_t len)
{
	return !memchr_inv(p, c, len);
}

/*
 * A reply received into a Receive buffer is synced for the CPU and
 * decoded in place; the connection goes and hands the buffer, unmapped,
 * to the RPC: the decoded bytes must survive the unmap.
 */
static void dbt_recv_buf_take(struct kunit *test)
{
	struct dbt *t = dbt_setup(test);
	struct rpcrdma_recv_buf rb = {};
	struct ib_pd pd = {};
	u8 *buf;

	KUNIT_ASSERT_EQ(test, rpcrdma_recv_buf_init(&rb, t->ibdev, &pd, DBT_LEN,
						    NULL, GFP_KERNEL), 0);
	KUNIT_ASSERT_PTR_NE(test, (void *)dbt_device_view(t, rb.sge.addr),
			    rb.buf);
	/* The adapter writes the reply; its completion syncs it for the CPU. */
	memset(dbt_device_view(t, rb.sge.addr), 'D', DBT_LEN);
	rpcrdma_recv_buf_sync(&rb, t->ibdev, DBT_LEN);
	KUNIT_EXPECT_TRUE(test, dbt_all(rb.buf, 'D', DBT_LEN));
	/* The RPC decrypts in place, then the connection is torn down. */
	memset(rb.buf, 'C', DBT_LEN);
	buf = rpcrdma_recv_buf_take(&rb, t->ibdev);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_TRUE_MSG(test, dbt_all(buf, 'C', DBT_LEN),
			      "the unmap copied the device's view over the decoded reply");
	KUNIT_EXPECT_NULL(test, rb.buf);
	kfree(buf);
}

/* A call with one MR the server may write, over a page of its own. */
struct dbt_call {
	struct xrdma_req *req;
	struct xrdma_mr *mr;
	struct page *page;
};

/*
 * A call whose MR is mapped for a device of @t, and whose server has
 * written @fill all over it (in the bounce buffer): its Send is here.
 */
static struct dbt_call dbt_call(struct kunit *test, struct dbt *t, u8 fill)
{
	struct dbt_call c = {};
	struct xrdma_ep *ep = kunit_kzalloc(test, sizeof(*ep), GFP_KERNEL);
	struct xrdma_mr *mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);

	c.req = kunit_kzalloc(test, sizeof(*c.req), GFP_KERNEL);
	c.page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, ep);
	KUNIT_ASSERT_NOT_NULL(test, mr);
	mr->sg = kunit_kzalloc(test, sizeof(*mr->sg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr->sg);
	KUNIT_ASSERT_NOT_NULL(test, c.req);
	KUNIT_ASSERT_NOT_NULL(test, c.page);
	ep->device = t->ibdev;
	xrdma_mr_pool_prepare(ep);
	sg_init_table(mr->sg, 1);
	sg_set_page(&mr->sg[0], c.page, PAGE_SIZE, 0);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(t->ibdev, mr->sg, 1,
					    DMA_FROM_DEVICE), 1);
	mr->nents = 1;
	mr->dir = DMA_FROM_DEVICE;
	mr->ep = ep;
	mr->req = c.req;
	c.req->mrs[c.req->nr_mrs++] = mr;
	c.mr = mr;
	memset(dbt_device_view(t, sg_dma_address(&mr->sg[0])), fill, PAGE_SIZE);
	return c;
}

/*
 * A reply whose inline part is copied into memory an MR of its call
 * maps (a Reply chunk the server did not use, or a Write chunk's head):
 * the placement syncs the MR for the CPU, copies, and the MR is
 * released as the RPC ends.  The copy must survive the unmap.
 */
static void dbt_mr_copy_survives_unmap(struct kunit *test)
{
	struct dbt_call c = dbt_call(test, dbt_setup(test), 'W');
	u8 *mem = page_address(c.page);

	xrdma_mrs_sync_for_cpu(c.req);
	KUNIT_EXPECT_TRUE(test, c.mr->cpu_owns);
	memset(mem, 'I', 100);
	xrdma_mrs_release(c.req);

	KUNIT_EXPECT_EQ(test, c.mr->nents, 0);
	KUNIT_EXPECT_FALSE(test, c.mr->cpu_owns);
	KUNIT_EXPECT_TRUE_MSG(test, dbt_all(mem, 'I', 100),
			      "the MR's unmap copied the device's view over the inline reply");
	KUNIT_EXPECT_TRUE(test, dbt_all(mem + 100, 'W', PAGE_SIZE - 100));
	__free_page(c.page);
}

/*
 * A Long Reply: the server wrote the whole reply into the Reply chunk
 * and nothing was copied, so nothing synced the MR; its unmap must bring
 * the device's data to the CPU (the control: this device does bounce).
 */
static void dbt_mr_unmap_brings_data(struct kunit *test)
{
	struct dbt_call c = dbt_call(test, dbt_setup(test), 'X');

	xrdma_mrs_release(c.req);
	KUNIT_EXPECT_TRUE_MSG(test, dbt_all(page_address(c.page), 'X',
					    PAGE_SIZE),
			      "the server's data did not reach the CPU");
	__free_page(c.page);
}

static struct kunit_case rpcrdma_dma_bounce_cases[] = {
	KUNIT_CASE(dbt_recv_buf_take),
	KUNIT_CASE(dbt_mr_copy_survives_unmap),
	KUNIT_CASE(dbt_mr_unmap_brings_data),
	{}
};

static struct kunit_suite rpcrdma_dma_bounce_suite = {
	.name = "rpcrdma_dma_bounce",
	.test_cases = rpcrdma_dma_bounce_cases,
};

kunit_test_suites(&rpcrdma_dma_bounce_suite);
