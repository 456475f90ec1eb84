// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the client's marshal decision (xrdma_plan_rpc()).  Each vector
 * is the shape of a call and of its reply buffer, as the NFS client
 * builds them, on a connection with given inline sizes and MR depth;
 * the plan must say how each travels (RFC 8166 section 3.5), with which
 * procedure, how many segments, and where the inline parts split.
 * Also the life of a slot's RPC buffer mapping, which its Sends use.
 */
#include <kunit/test.h>

#include "../xprtrdma/client.h"

/* Stands for the call and reply buffers: only their addresses are used. */
static u8 cmt_buf[2 * PAGE_SIZE] __aligned(PAGE_SIZE);

/**
 * struct cmt_vec - one call and reply shape, and the plan expected
 * @name: the RPC it looks like
 * @inline_send: the connection's inline send size
 * @inline_recv: its inline receive size
 * @mr_depth: pages per MR
 * @snd: head, page and tail lengths of the call, and XDRBUF_WRITE
 * @rcv: head, page and tail lengths of the reply buffer, and XDRBUF_READ
 * @rc: what xrdma_plan_rpc() returns
 * @call: how the call goes
 * @reply: how the reply comes back
 * @proc: the transport header's procedure
 * @csegs: Read segments
 * @wsegs: Write segments
 * @rsegs: Reply chunk segments
 * @split: end of the call's first inline part
 * @resume: start of its second inline part
 */
struct cmt_vec {
	const char *name;
	unsigned int inline_send, inline_recv, mr_depth;
	struct {
		unsigned int head, pages, tail;
		bool ddp;
	} snd, rcv;
	int rc;
	enum xrdma_chunktype call, reply;
	u32 proc;
	unsigned int csegs, wsegs, rsegs;
	unsigned int split, resume;
};

#define MIB	1048576

static const struct cmt_vec cmt_vecs[] = {
	{ "GETATTR: both inline", 4096, 4096, 256,
	  { 120, 0, 0, false }, { 1000, 0, 0, false },
	  0, XRDMA_NOCH, XRDMA_NOCH, RPCRDMA_MSG, 0, 0, 0, 120, 120 },
	{ "WRITE 1 MiB: data item in a Read chunk", 4096, 4096, 256,
	  { 200, MIB, 0, true }, { 500, 0, 0, false },
	  0, XRDMA_READCH, XRDMA_NOCH, RPCRDMA_MSG, 1, 0, 0,
	  200, 200 + MIB },
	{ "WRITE 1001 bytes at 1 KiB inline: its pad stays out", 1024, 1024,
	  256, { 200, 1001, 3, true }, { 500, 0, 0, false },
	  0, XRDMA_READCH, XRDMA_NOCH, RPCRDMA_MSG, 1, 0, 0,
	  200, 200 + 1001 + 3 },
	{ "WRITE 1001 bytes at 4 KiB inline: all inline", 4096, 4096, 256,
	  { 200, 1001, 3, true }, { 500, 0, 0, false },
	  0, XRDMA_NOCH, XRDMA_NOCH, RPCRDMA_MSG, 0, 0, 0,
	  1204, 1204 },
	{ "READ 1 MiB: data item in a Write chunk", 4096, 4096, 256,
	  { 200, 0, 0, false }, { 200, MIB, 100, true },
	  0, XRDMA_NOCH, XRDMA_WRITECH, RPCRDMA_MSG, 0, 1, 0, 200, 200 },
	{ "READ whose head and tail do not fit inline: Reply chunk", 1024,
	  1024, 256, { 200, 0, 0, false }, { 1000, 8192, 100, true },
	  0, XRDMA_NOCH, XRDMA_REPLYCH, RPCRDMA_MSG, 0, 0, 3, 200, 200 },
	{ "READDIR 32 KiB: Reply chunk", 4096, 4096, 256,
	  { 200, 0, 0, false }, { 200, 32768, 100, false },
	  0, XRDMA_NOCH, XRDMA_REPLYCH, RPCRDMA_MSG, 0, 0, 3, 200, 200 },
	{ "SYMLINK of 4070 bytes: Long Call", 4096, 4096, 256,
	  { 100, 4070, 2, false }, { 500, 0, 0, false },
	  0, XRDMA_AREADCH, XRDMA_NOCH, RPCRDMA_NOMSG, 3, 0, 0,
	  0, 100 + 4070 + 2 },
	{ "SETXATTR of 4000 bytes and a Reply chunk", 4096, 1024, 256,
	  { 4200, 0, 0, false }, { 200, 4096, 0, false },
	  0, XRDMA_AREADCH, XRDMA_REPLYCH, RPCRDMA_NOMSG, 1, 0, 2,
	  0, 4200 },
	{ "WRITE 1 MiB with 2-page MRs: too many registrations", 4096, 4096,
	  2, { 200, MIB, 0, true }, { 500, 0, 0, false },
	  -EMSGSIZE },
};

static void cmt_desc(const struct cmt_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cmt, cmt_vecs, cmt_desc);

/* Head at @base, pages from page 0, tail right after the head. */
static void cmt_xdr(struct xdr_buf *xdr, unsigned int head,
		    unsigned int pages, unsigned int tail, unsigned int flags)
{
	memset(xdr, 0, sizeof(*xdr));
	xdr->head[0].iov_base = cmt_buf;
	xdr->head[0].iov_len = head;
	xdr->page_len = pages;
	xdr->tail[0].iov_base = tail ? cmt_buf + head : NULL;
	xdr->tail[0].iov_len = tail;
	xdr->flags = flags;
	xdr->len = head + pages + tail;
	xdr->buflen = xdr->len;
}

static void plan_case(struct kunit *test)
{
	const struct cmt_vec *v = test->param_value;
	struct xrdma_ep *ep = kunit_kzalloc(test, sizeof(*ep), GFP_KERNEL);
	struct xrdma_plan p = {};
	struct xdr_buf snd, rcv;

	KUNIT_ASSERT_NOT_NULL(test, ep);
	ep->inline_send = v->inline_send;
	ep->inline_recv = v->inline_recv;
	ep->mr_depth = v->mr_depth;
	cmt_xdr(&snd, v->snd.head, v->snd.pages, v->snd.tail,
		v->snd.ddp ? XDRBUF_WRITE : 0);
	cmt_xdr(&rcv, v->rcv.head, v->rcv.pages, v->rcv.tail,
		v->rcv.ddp ? XDRBUF_READ : 0);

	KUNIT_ASSERT_EQ(test, xrdma_plan_rpc(ep, &snd, &rcv, &p), v->rc);
	if (v->rc)
		return;
	KUNIT_EXPECT_EQ(test, p.call, v->call);
	KUNIT_EXPECT_EQ(test, p.reply, v->reply);
	KUNIT_EXPECT_EQ(test, p.proc, v->proc);
	KUNIT_EXPECT_EQ(test, p.csegs, v->csegs);
	KUNIT_EXPECT_EQ(test, p.wsegs, v->wsegs);
	KUNIT_EXPECT_EQ(test, p.rsegs, v->rsegs);
	KUNIT_EXPECT_EQ(test, p.split, v->split);
	KUNIT_EXPECT_EQ(test, p.resume, v->resume);
	/* Never more registrations than one RPC may hold. */
	KUNIT_EXPECT_LE(test, p.csegs + p.wsegs + p.rsegs, XRDMA_MAX_MRS);
}

/*
 * A slot's RPC buffer is mapped by its first Send on a connection and
 * stays mapped for the next ones; unmapping forgets it, and the next
 * Send (on this connection or another) maps it again.
 */
static void rpc_buf_premap_case(struct kunit *test)
{
	struct xrdma_ep *ep1 = kunit_kzalloc(test, sizeof(*ep1), GFP_KERNEL);
	struct xrdma_ep *ep2 = kunit_kzalloc(test, sizeof(*ep2), GFP_KERNEL);
	struct xrdma_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct ib_device *device;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to read the mapping back");
	device = kunit_kzalloc(test, sizeof(*device), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ep1);
	KUNIT_ASSERT_NOT_NULL(test, ep2);
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, device);
	ep1->device = device;
	ep2->device = device;
	req->rpc_buf = cmt_buf;
	req->rpc_buf_size = sizeof(cmt_buf);

	KUNIT_EXPECT_TRUE(test, xrdma_rpc_buf_premap(req, ep1));
	KUNIT_EXPECT_PTR_EQ(test, req->rpc_dma_ep, ep1);
	/* Virtual DMA: the address is the kernel address. */
	KUNIT_EXPECT_EQ(test, req->rpc_dma, (u64)(uintptr_t)cmt_buf);
	req->rpc_dma = 0x5a5a;		/* a second map would overwrite it */
	KUNIT_EXPECT_TRUE(test, xrdma_rpc_buf_premap(req, ep1));
	KUNIT_EXPECT_EQ(test, req->rpc_dma, 0x5a5a);

	xrdma_rpc_buf_unmap(req);
	KUNIT_EXPECT_NULL(test, req->rpc_dma_ep);
	xrdma_rpc_buf_unmap(req);	/* nothing left to unmap */
	KUNIT_EXPECT_NULL(test, req->rpc_dma_ep);

	KUNIT_EXPECT_TRUE(test, xrdma_rpc_buf_premap(req, ep2));
	KUNIT_EXPECT_PTR_EQ(test, req->rpc_dma_ep, ep2);
	KUNIT_EXPECT_EQ(test, req->rpc_dma, (u64)(uintptr_t)cmt_buf);
	xrdma_rpc_buf_unmap(req);
}

/**
 * struct hbs_vec - a connection's sizes and its slots' header buffers
 * @inline_send: negotiated inline send size
 * @max_send_sge: SGEs per Send the connection uses
 * @size: header buffer each slot needs
 */
struct hbs_vec {
	unsigned int inline_send, max_send_sge;
	size_t size;
};

static const struct hbs_vec hbs_vecs[] = {
	/* Enough SGEs for any call of the size: a header alone. */
	{ 8192, 8, XRDMA_HDR_BUF_SIZE },
	{ 8192, 6, XRDMA_HDR_BUF_SIZE },	/* siw */
	{ 4096, 5, XRDMA_HDR_BUF_SIZE },
	{ 16385, 8, XRDMA_HDR_BUF_SIZE },
	{ 1024, 5, XRDMA_HDR_BUF_SIZE },
	/* One SGE short: room for the pulled-up call. */
	{ 8192, 5, 8192 },
	{ 4096, 4, 4096 },
	{ 16386, 8, 16386 },
	{ 32768, 8, 32768 },
	{ 1024, 4, XRDMA_HDR_BUF_SIZE },	/* never smaller than a header */
	{ 65536, 1, 65536 },
};

static void hbs_desc(const struct hbs_vec *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u-byte Sends, %u SGEs",
		 v->inline_send, v->max_send_sge);
}

KUNIT_ARRAY_PARAM(hbs, hbs_vecs, hbs_desc);

/*
 * A slot's header buffer has room for a pulled-up call exactly where the
 * device's SGEs cannot gather every call of the negotiated size.
 */
static void hdr_buf_size_case(struct kunit *test)
{
	const struct hbs_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, xrdma_hdr_buf_size(v->inline_send,
						 v->max_send_sge), v->size);
}

static struct kunit_case rpcrdma_client_marshal_cases[] = {
	KUNIT_CASE_PARAM(plan_case, cmt_gen_params),
	KUNIT_CASE(rpc_buf_premap_case),
	KUNIT_CASE_PARAM(hdr_buf_size_case, hbs_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_marshal_suite = {
	.name = "rpcrdma_client_marshal",
	.test_cases = rpcrdma_client_marshal_cases,
};

kunit_test_suites(&rpcrdma_client_marshal_suite);
