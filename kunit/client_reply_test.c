// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the client's reply handling against hostile and malformed
 * replies.  Each case builds an RPC receive buffer and the chunks a call
 * offered, encodes a reply with the codec, decodes it as the Receive
 * handler does and checks the outcome xrdma_reply_outcome() decides:
 * the number of bytes placed, or -EIO without touching memory beyond
 * what was offered.  And before a reply is copied into memory an MR of
 * its call maps, that memory is synced for the CPU.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../xprtrdma/client.h"
#include "wire_test.h"

#define CRT_HANDLE	0x1111
#define CRT_OFFSET	0x10000ULL
#define CRT_OFFERED	8192

struct crt {
	struct xrdma_xprt *rx;
	struct xrdma_req *req;
	u8 *rbuf;
	struct page *pages[2];
};

static void crt_free_page(void *page)
{
	__free_page(page);
}

static struct crt *crt_setup(struct kunit *test, unsigned int head,
			     unsigned int page_len, unsigned int tail)
{
	struct crt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct xdr_buf *rb;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	t->rx = kunit_kzalloc(test, sizeof(*t->rx), GFP_KERNEL);
	t->req = kunit_kzalloc(test, sizeof(*t->req), GFP_KERNEL);
	t->rbuf = kunit_kzalloc(test, head + tail + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->rx);
	KUNIT_ASSERT_NOT_NULL(test, t->req);
	KUNIT_ASSERT_NOT_NULL(test, t->rbuf);
	t->rx->xprt.address_strings[RPC_DISPLAY_ADDR] = "192.0.2.1";
	t->req->rx = t->rx;
	for (i = 0; i < ARRAY_SIZE(t->pages); i++) {
		t->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
		KUNIT_ASSERT_NOT_NULL(test, t->pages[i]);
		/* Freed when the test ends, even after a failed assertion. */
		KUNIT_ASSERT_EQ(test,
				kunit_add_action_or_reset(test, crt_free_page,
							  t->pages[i]), 0);
	}

	rb = &t->req->rqst.rq_rcv_buf;
	rb->head[0].iov_base = t->rbuf;
	rb->head[0].iov_len = head;
	rb->pages = t->pages;
	rb->page_base = 0;
	rb->page_len = page_len;
	rb->tail[0].iov_base = t->rbuf + head;
	rb->tail[0].iov_len = tail;
	rb->buflen = head + page_len + tail;
	t->req->rqst.rq_private_buf = *rb;
	rpcrdma_chunk_lists_init(&t->req->offered, t->req->chunks,
				 ARRAY_SIZE(t->req->chunks), t->req->segs,
				 ARRAY_SIZE(t->req->segs));
	return t;
}

static const struct rpcrdma_segment crt_seg = {
	.handle = CRT_HANDLE, .length = CRT_OFFERED, .offset = CRT_OFFSET,
};

static void crt_offer_write(struct kunit *test, struct crt *t)
{
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(&t->req->offered), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(&t->req->offered,
							&crt_seg), 0);
}

static void crt_offer_reply(struct kunit *test, struct crt *t)
{
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(&t->req->offered), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_segment(&t->req->offered,
							&crt_seg), 0);
}

/* Returned lists: storage plus builders, like an encoding responder. */
struct crt_ret {
	struct rpcrdma_chunk_lists cl;
	struct rpcrdma_chunk chunks[4];
	struct rpcrdma_segment segs[8];
};

static struct crt_ret *crt_ret_alloc(struct kunit *test)
{
	struct crt_ret *r = kunit_kzalloc(test, sizeof(*r), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, r);
	rpcrdma_chunk_lists_init(&r->cl, r->chunks, ARRAY_SIZE(r->chunks),
				 r->segs, ARRAY_SIZE(r->segs));
	return r;
}

static void crt_ret_write(struct kunit *test, struct crt_ret *r, u32 handle,
			  u32 len)
{
	struct rpcrdma_segment seg = crt_seg;

	seg.handle = handle;
	seg.length = len;
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(&r->cl), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(&r->cl, &seg), 0);
}

static void crt_ret_reply(struct kunit *test, struct crt_ret *r, u32 len)
{
	struct rpcrdma_segment seg = crt_seg;

	seg.length = len;
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(&r->cl), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_segment(&r->cl, &seg), 0);
}

/* Encode a reply, decode it like the Receive handler, decide. */
static int crt_reply(struct kunit *test, struct crt *t, u32 proc,
		     const struct crt_ret *ret, const u8 *payload,
		     unsigned int plen)
{
	struct wt_hdr *h = wt_hdr_alloc(test, XRDMA_MAX_CHUNKS, XRDMA_MAX_MRS);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	u8 *data;
	__be32 *p;

	data = wt_encode_init(test, &xdr, &buf, 8192);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_fixed(&xdr, XW(WT_XID), 16,
						   proc), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_chunk_lists(&xdr, &ret->cl), 0);
	if (plen) {
		p = xdr_reserve_space(&xdr, plen);
		KUNIT_ASSERT_NOT_NULL(test, p);
		memcpy(p, payload, plen);
	}
	KUNIT_ASSERT_EQ(test, wt_decode(test, data, xdr_stream_pos(&xdr),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_ASSERT_EQ(test, h->hdr.inline_len, plen);
	return xrdma_reply_outcome(t->req, &h->hdr, data + h->hdr.hdr_len);
}

static u8 *crt_payload(struct kunit *test, unsigned int len)
{
	u8 *p = kunit_kmalloc(test, len, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < len; i++)
		p[i] = i * 7 + 3;
	return p;
}

/* What a call offered, and what its reply returns. */
enum crt_chunks { CRT_NONE, CRT_WRITE, CRT_REPLY };

/**
 * struct crt_vec - one reply against one call
 * @name: what the case is about
 * @head: bytes of the call's receive buffer head
 * @page_len: bytes of its page list
 * @tail: bytes of its tail
 * @offered: the chunk the call offered (CRT_OFFERED bytes at CRT_HANDLE)
 * @returned: the chunk the reply returns
 * @ret_handle: its handle
 * @ret_len: its length
 * @proc: the reply's procedure
 * @inline_len: bytes of RPC message inline after the header
 * @expect: what xrdma_reply_outcome() must decide
 * @check: further checks on what was placed, or NULL
 */
struct crt_vec {
	const char *name;
	unsigned int head, page_len, tail;
	enum crt_chunks offered, returned;
	u32 ret_handle, ret_len;
	u32 proc;
	unsigned int inline_len;
	int expect;
	void (*check)(struct kunit *test, struct crt *t, const u8 *pl);
};

static void crt_check_inline(struct kunit *test, struct crt *t, const u8 *pl)
{
	KUNIT_EXPECT_MEMEQ(test, t->rbuf, pl, 100);
}

/* Nothing is written past the 64-byte head. */
static void crt_check_head_untouched(struct kunit *test, struct crt *t,
				     const u8 *pl)
{
	KUNIT_EXPECT_EQ(test, t->rbuf[64], 0);
}

static void crt_check_into_pages(struct kunit *test, struct crt *t,
				 const u8 *pl)
{
	KUNIT_EXPECT_MEMEQ(test, t->rbuf, pl, 16);
	KUNIT_EXPECT_MEMEQ(test, page_address(t->pages[0]), pl + 16, 84);
}

/* The head shrinks to what came inline, in both views. */
static void crt_check_short_head(struct kunit *test, struct crt *t,
				 const u8 *pl)
{
	KUNIT_EXPECT_EQ(test, t->req->rqst.rq_rcv_buf.head[0].iov_len, 40);
	KUNIT_EXPECT_EQ(test, t->req->rqst.rq_private_buf.head[0].iov_len, 40);
	KUNIT_EXPECT_EQ(test, t->req->rqst.rq_rcv_buf.buflen,
			40 + CRT_OFFERED + 64);
}

/* head 64, data 101 + 3 pad, then 8 bytes in the tail after the pad */
static void crt_check_tail(struct kunit *test, struct crt *t, const u8 *pl)
{
	KUNIT_EXPECT_MEMEQ(test, t->rbuf + 64 + 3, pl + 64, 8);
}

/* Nothing is written past the 4-byte tail. */
static void crt_check_tail_untouched(struct kunit *test, struct crt *t,
				     const u8 *pl)
{
	KUNIT_EXPECT_EQ(test, t->rbuf[68], 0);
}

static void crt_check_bad_reply_counted(struct kunit *test, struct crt *t,
					const u8 *pl)
{
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->rx->stats.bad_reply_count),
			1);
}

static const struct crt_vec crt_vecs[] = {
	{ "inline reply fits the head", 256, 0, 0, CRT_NONE, CRT_NONE, 0, 0,
	  RPCRDMA_MSG, 100, 100, crt_check_inline },
	{ "inline reply longer than the buffer", 64, 0, 0, CRT_NONE, CRT_NONE,
	  0, 0, RPCRDMA_MSG, 100, -EIO, crt_check_head_untouched },
	{ "inline reply spills into the pages", 16, 4096, 0, CRT_NONE,
	  CRT_NONE, 0, 0, RPCRDMA_MSG, 100, 100, crt_check_into_pages },
	{ "Write chunk after a short head", 64, CRT_OFFERED, 64, CRT_WRITE,
	  CRT_WRITE, CRT_HANDLE, 100, RPCRDMA_MSG, 40, 40 + 100,
	  crt_check_short_head },
	{ "Write chunk with an unaligned length and a tail", 64, CRT_OFFERED,
	  64, CRT_WRITE, CRT_WRITE, CRT_HANDLE, 101, RPCRDMA_MSG, 72,
	  64 + 104 + 8, crt_check_tail },
	{ "Write chunk whose tail overflows", 64, CRT_OFFERED, 4, CRT_WRITE,
	  CRT_WRITE, CRT_HANDLE, 101, RPCRDMA_MSG, 72, -EIO,
	  crt_check_tail_untouched },
	{ "Write chunk longer than offered", 64, CRT_OFFERED, 64, CRT_WRITE,
	  CRT_WRITE, CRT_HANDLE, CRT_OFFERED + 4, RPCRDMA_MSG, 40, -EIO,
	  crt_check_bad_reply_counted },
	{ "Write chunk with another handle", 64, CRT_OFFERED, 64, CRT_WRITE,
	  CRT_WRITE, CRT_HANDLE + 1, 100, RPCRDMA_MSG, 40, -EIO, NULL },
	{ "Write chunk never offered", 256, 0, 0, CRT_NONE, CRT_WRITE,
	  CRT_HANDLE, 100, RPCRDMA_MSG, 40, -EIO, NULL },
	{ "RDMA_NOMSG with the Reply chunk", 256, 4096, 64, CRT_REPLY,
	  CRT_REPLY, CRT_HANDLE, 300, RPCRDMA_NOMSG, 0, 300, NULL },
	{ "Reply chunk longer than offered", 256, 4096, 64, CRT_REPLY,
	  CRT_REPLY, CRT_HANDLE, CRT_OFFERED + 1, RPCRDMA_NOMSG, 0, -EIO,
	  NULL },
	{ "RDMA_MSG with a used Reply chunk", 256, 4096, 64, CRT_REPLY,
	  CRT_REPLY, CRT_HANDLE, 300, RPCRDMA_MSG, 40, -EIO, NULL },
};

static void crt_vec_desc(const struct crt_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crt, crt_vecs, crt_vec_desc);

static void crt_reply_case(struct kunit *test)
{
	const struct crt_vec *v = test->param_value;
	struct crt *t = crt_setup(test, v->head, v->page_len, v->tail);
	struct crt_ret *r = crt_ret_alloc(test);
	u8 *pl = v->inline_len ? crt_payload(test, v->inline_len) : NULL;

	if (v->offered == CRT_WRITE)
		crt_offer_write(test, t);
	else if (v->offered == CRT_REPLY)
		crt_offer_reply(test, t);
	if (v->returned == CRT_WRITE)
		crt_ret_write(test, r, v->ret_handle, v->ret_len);
	else if (v->returned == CRT_REPLY)
		crt_ret_reply(test, r, v->ret_len);
	KUNIT_EXPECT_EQ(test, crt_reply(test, t, v->proc, r, pl,
					v->inline_len), v->expect);
	if (v->check)
		v->check(test, t, pl);
}

/* The codec already refuses it; the Receive handler then fails the RPC. */
static void crt_nomsg_without_chunk(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, XRDMA_MAX_CHUNKS, XRDMA_MAX_MRS);
	struct crt_ret *r = crt_ret_alloc(test);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	u8 *data;

	data = wt_encode_init(test, &xdr, &buf, 256);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_fixed(&xdr, XW(WT_XID), 16,
						   RPCRDMA_NOMSG), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_chunk_lists(&xdr, &r->cl), 0);
	KUNIT_EXPECT_EQ(test, wt_decode(test, data, xdr_stream_pos(&xdr),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK);
}

static void crt_rdma_error(struct kunit *test)
{
	static const u32 errs[] = { RPCRDMA_ERR_VERS, RPCRDMA_ERR_CHUNK };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errs); i++) {
		struct crt *t = crt_setup(test, 256, 0, 0);
		struct wt_hdr *h = wt_hdr_alloc(test, 4, 8);
		struct xdr_stream xdr;
		struct xdr_buf buf;
		u8 *data;

		data = wt_encode_init(test, &xdr, &buf, 256);
		KUNIT_ASSERT_EQ(test, rpcrdma_encode_error(&xdr, XW(WT_XID), 1,
							   errs[i]), 0);
		KUNIT_ASSERT_EQ(test, wt_decode(test, data,
						xdr_stream_pos(&xdr),
						RPCRDMA_DIR_REPLY, NULL,
						&h->hdr), RPCRDMA_WIRE_OK);
		KUNIT_EXPECT_EQ(test, xrdma_reply_outcome(t->req, &h->hdr,
							  data), -EIO);
	}
}

/*
 * An MR of @t's call over @len bytes at @kaddr, mapped for @dir, as a
 * chunk's registration leaves it; its device is a zeroed one, whose
 * "DMA" is virtual.
 */
static struct xrdma_mr *crt_mr_over(struct kunit *test, struct crt *t,
				    void *kaddr, unsigned int len,
				    enum dma_data_direction dir)
{
	struct xrdma_mr *mr = kunit_kzalloc(test, sizeof(*mr), GFP_KERNEL);
	struct xrdma_ep *ep = kunit_kzalloc(test, sizeof(*ep), GFP_KERNEL);

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA");
	KUNIT_ASSERT_NOT_NULL(test, mr);
	mr->sg = kunit_kzalloc(test, sizeof(*mr->sg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr->sg);
	KUNIT_ASSERT_NOT_NULL(test, ep);
	ep->device = kunit_kzalloc(test, sizeof(*ep->device), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ep->device);
	/* The debug check names the MR by its rkey. */
	mr->ibmr = kunit_kzalloc(test, sizeof(*mr->ibmr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mr->ibmr);
	mr->ep = ep;
	sg_init_table(mr->sg, 1);
	sg_set_page(&mr->sg[0], virt_to_page(kaddr), len,
		    offset_in_page(kaddr));
	mr->nents = 1;
	mr->dir = dir;
	t->req->mrs[t->req->nr_mrs++] = mr;
	return mr;
}

/* Which bytes the debug check (rpcrdma.dma_order_check) finds mapped. */
static void crt_mr_maps_for_device(struct kunit *test)
{
	struct crt *t = crt_setup(test, 256, 0, 0);
	struct page *page = virt_to_page(t->rbuf);
	unsigned int off = offset_in_page(t->rbuf);
	struct xrdma_mr *mr = crt_mr_over(test, t, t->rbuf, 128,
					  DMA_FROM_DEVICE);
	struct xrdma_mr *rd = crt_mr_over(test, t, t->rbuf + 128, 128,
					  DMA_TO_DEVICE);
	struct xrdma_mr *found;

	found = xrdma_mr_maps_for_device(t->req, page, off, 16);
	KUNIT_EXPECT_PTR_EQ(test, found, mr);
	found = xrdma_mr_maps_for_device(t->req, page, off + 120, 16);
	KUNIT_EXPECT_PTR_EQ(test, found, mr);
	/* The server only reads these: the CPU may write them. */
	KUNIT_EXPECT_NULL(test, xrdma_mr_maps_for_device(t->req, page,
							 off + 128, 16));
	KUNIT_EXPECT_NULL(test, xrdma_mr_maps_for_device(t->req,
							 t->pages[0], off, 16));
	xrdma_mrs_sync_for_cpu(t->req);
	KUNIT_EXPECT_TRUE(test, mr->cpu_owns);
	KUNIT_EXPECT_FALSE(test, rd->cpu_owns);
	KUNIT_EXPECT_NULL(test, xrdma_mr_maps_for_device(t->req, page, off,
							 16));
}

/*
 * A reply placed by a copy into memory its call's MRs map: the MRs are
 * handed to the CPU before the copy (so that their unmap, later, does
 * not undo it under swiotlb or on non-coherent DMA).  A Long Reply,
 * copied by nobody, leaves them to the unmap's own sync.
 */
static void crt_placement_syncs_mrs(struct kunit *test)
{
	u8 *pl = crt_payload(test, 100);
	struct xrdma_mr *mr;
	struct crt_ret *r;
	struct crt *t;

	/* Reply chunk offered over the head, the reply inline after all. */
	t = crt_setup(test, 256, 4096, 64);
	crt_offer_reply(test, t);
	mr = crt_mr_over(test, t, t->rbuf, 256, DMA_FROM_DEVICE);
	r = crt_ret_alloc(test);
	KUNIT_EXPECT_EQ(test, crt_reply(test, t, RPCRDMA_MSG, r, pl, 100), 100);
	KUNIT_EXPECT_TRUE(test, mr->cpu_owns);
	KUNIT_EXPECT_MEMEQ(test, t->rbuf, pl, 100);

	/* Write chunk into the pages, the rest of the reply in the head. */
	t = crt_setup(test, 64, CRT_OFFERED, 64);
	crt_offer_write(test, t);
	mr = crt_mr_over(test, t, page_address(t->pages[0]), PAGE_SIZE,
			 DMA_FROM_DEVICE);
	r = crt_ret_alloc(test);
	crt_ret_write(test, r, CRT_HANDLE, 100);
	KUNIT_EXPECT_EQ(test, crt_reply(test, t, RPCRDMA_MSG, r, pl, 40),
			40 + 100);
	KUNIT_EXPECT_TRUE(test, mr->cpu_owns);

	/* RDMA_NOMSG: all of it in the Reply chunk, nothing copied. */
	t = crt_setup(test, 256, 4096, 64);
	crt_offer_reply(test, t);
	mr = crt_mr_over(test, t, t->rbuf, 256, DMA_FROM_DEVICE);
	r = crt_ret_alloc(test);
	crt_ret_reply(test, r, 300);
	KUNIT_EXPECT_EQ(test, crt_reply(test, t, RPCRDMA_NOMSG, r, NULL, 0),
			300);
	KUNIT_EXPECT_FALSE(test, mr->cpu_owns);
}

static struct kunit_case rpcrdma_client_reply_cases[] = {
	KUNIT_CASE_PARAM(crt_reply_case, crt_gen_params),
	KUNIT_CASE(crt_nomsg_without_chunk),
	KUNIT_CASE(crt_rdma_error),
	KUNIT_CASE(crt_mr_maps_for_device),
	KUNIT_CASE(crt_placement_syncs_mrs),
	{}
};

static struct kunit_suite rpcrdma_client_reply_suite = {
	.name = "rpcrdma_client_reply",
	.test_cases = rpcrdma_client_reply_cases,
};

kunit_test_suites(&rpcrdma_client_reply_suite);
