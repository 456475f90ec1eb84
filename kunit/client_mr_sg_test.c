// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: how the client describes a chunk's memory to an MR
 * (xrdma_mr_fill_sg() in xprtrdma/frwr.c).
 *
 * Kernel memory in the direct map (an RPC buffer's head or tail) is
 * physically contiguous: it takes one scatterlist entry for all the
 * pages the MR covers, capped at the MR's depth.  vmalloc memory and a
 * page vector take one entry per page.  The debug check of a reply's
 * placement (xrdma_mr_maps_for_device()) finds a byte anywhere in an
 * entry that spans pages.
 */
#include <kunit/test.h>
#include <linux/vmalloc.h>

#include "../xprtrdma/client.h"

#define MSG_ENTRIES	4

static struct xrdma_mr *msg_mr(struct kunit *test)
{
	struct xrdma_mr *mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, mr);
	mr->sg = kunit_kcalloc(test, MSG_ENTRIES, sizeof(*mr->sg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr->sg);
	sg_init_table(mr->sg, MSG_ENTRIES);
	return mr;
}

/* Three pages of the direct map from 100 bytes into the first. */
static void msg_direct_one_entry(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	struct xrdma_mr *mr = msg_mr(test);
	unsigned int base, len, want;
	void *kaddr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	kaddr = PTR_ALIGN(buf, PAGE_SIZE);
	base = 100;
	len = 2 * PAGE_SIZE;
	want = DIV_ROUND_UP(100 + len, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, want, 3U);
	KUNIT_EXPECT_EQ(test, xrdma_mr_fill_sg(mr, NULL, kaddr, &base, &len,
					       want, true), 1);
	KUNIT_EXPECT_PTR_EQ(test, sg_page(&mr->sg[0]), virt_to_page(kaddr));
	KUNIT_EXPECT_EQ(test, mr->sg[0].offset, 100U);
	KUNIT_EXPECT_EQ(test, mr->sg[0].length, 2 * PAGE_SIZE);
	KUNIT_EXPECT_PTR_EQ(test, sg_virt(&mr->sg[0]), kaddr + 100);
	KUNIT_EXPECT_EQ(test, base, 100 + 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, len, 0U);
}

/* An MR two pages deep: the entry ends at the second page's end. */
static void msg_direct_depth(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	struct xrdma_mr *mr = msg_mr(test);
	unsigned int base = 100, len = 3 * PAGE_SIZE;
	void *kaddr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	kaddr = PTR_ALIGN(buf, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, xrdma_mr_fill_sg(mr, NULL, kaddr, &base, &len,
					       2, false), 1);
	KUNIT_EXPECT_EQ(test, mr->sg[0].offset, 100U);
	KUNIT_EXPECT_EQ(test, mr->sg[0].length, 2 * PAGE_SIZE - 100);
	KUNIT_EXPECT_EQ(test, base, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, len, PAGE_SIZE + 100);
}

static void msg_vfree(void *p)
{
	vfree(p);
}

/* vmalloc memory: one entry per page, each its own page. */
static void msg_vmalloc_per_page(struct kunit *test)
{
	void *kaddr = vmalloc(3 * PAGE_SIZE);
	struct xrdma_mr *mr = msg_mr(test);
	unsigned int base = 100, len = 2 * PAGE_SIZE, i;

	KUNIT_ASSERT_NOT_NULL(test, kaddr);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, msg_vfree,
							kaddr), 0);
	KUNIT_EXPECT_EQ(test, xrdma_mr_fill_sg(mr, NULL, kaddr, &base, &len,
					       3, true), 3);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_PTR_EQ(test, sg_page(&mr->sg[i]),
				    vmalloc_to_page(kaddr + i * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, mr->sg[0].offset, 100U);
	KUNIT_EXPECT_EQ(test, mr->sg[0].length, PAGE_SIZE - 100);
	KUNIT_EXPECT_EQ(test, mr->sg[1].length, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, mr->sg[2].offset, 0U);
	KUNIT_EXPECT_EQ(test, mr->sg[2].length, 100U);
	KUNIT_EXPECT_EQ(test, len, 0U);
}

/* A page vector with a hole the server is to write: a page fills it. */
static void msg_pages_hole(struct kunit *test)
{
	struct page *pages[2] = { alloc_page(GFP_KERNEL), NULL };
	struct xrdma_mr *mr = msg_mr(test);
	unsigned int base = 0, len = 2 * PAGE_SIZE;

	KUNIT_ASSERT_NOT_NULL(test, pages[0]);
	KUNIT_EXPECT_EQ(test, xrdma_mr_fill_sg(mr, pages, NULL, &base, &len,
					       2, true), 2);
	KUNIT_EXPECT_NOT_NULL(test, pages[1]);
	KUNIT_EXPECT_PTR_EQ(test, sg_page(&mr->sg[1]), pages[1]);
	__free_page(pages[0]);
	if (pages[1])
		__free_page(pages[1]);

	/* One the server is to read is an error. */
	pages[1] = NULL;
	pages[0] = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages[0]);
	base = 0;
	len = 2 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, xrdma_mr_fill_sg(mr, pages, NULL, &base, &len,
					       2, false), -EIO);
	__free_page(pages[0]);
}

/* The MR of @req the placement check finds over @len bytes at @p. */
static struct xrdma_mr *msg_maps(struct xrdma_req *req, void *p,
				 unsigned int len)
{
	return xrdma_mr_maps_for_device(req, virt_to_page(p),
					offset_in_page(p), len);
}

/* The placement check sees every page of an entry that spans three. */
static void msg_check_spans_pages(struct kunit *test)
{
	u8 *buf = kunit_kmalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	struct xrdma_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct xrdma_mr *mr = msg_mr(test);
	unsigned int base = 100, len = 2 * PAGE_SIZE;
	u8 *kaddr;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, req);
	kaddr = PTR_ALIGN(buf, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, xrdma_mr_fill_sg(mr, NULL, kaddr, &base, &len,
					       3, true), 1);
	mr->nents = 1;
	mr->dir = DMA_FROM_DEVICE;
	req->mrs[req->nr_mrs++] = mr;

	KUNIT_EXPECT_PTR_EQ(test, msg_maps(req, kaddr + 2 * PAGE_SIZE, 16),
			    mr);
	KUNIT_EXPECT_PTR_EQ(test, msg_maps(req, kaddr + PAGE_SIZE + 2000, 16),
			    mr);
	KUNIT_EXPECT_PTR_EQ(test, msg_maps(req, kaddr + 90, 16), mr);
	/* The bytes on either side of it are not mapped. */
	KUNIT_EXPECT_NULL(test, msg_maps(req, kaddr, 100));
	KUNIT_EXPECT_NULL(test, msg_maps(req, kaddr + 2 * PAGE_SIZE + 100,
					 16));
	/* Nor any once the CPU owns the MR. */
	mr->cpu_owns = true;
	KUNIT_EXPECT_NULL(test, msg_maps(req, kaddr + PAGE_SIZE, 16));
}

static struct kunit_case rpcrdma_client_mr_sg_cases[] = {
	KUNIT_CASE(msg_direct_one_entry),
	KUNIT_CASE(msg_direct_depth),
	KUNIT_CASE(msg_vmalloc_per_page),
	KUNIT_CASE(msg_pages_hole),
	KUNIT_CASE(msg_check_spans_pages),
	{}
};

static struct kunit_suite rpcrdma_client_mr_sg_suite = {
	.name = "rpcrdma_client_mr_sg",
	.test_cases = rpcrdma_client_mr_sg_cases,
};

kunit_test_suites(&rpcrdma_client_mr_sg_suite);
