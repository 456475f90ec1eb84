// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the header buffer of a server Send context (svcrdma/send.c).
 * It holds a transport header, SRDMA_MAX_HDR_SIZE bytes, and grows to
 * the connection's inline size only when a message has to be copied
 * after the header (the device takes too few SGEs to gather it) and
 * does not fit.  The header encoded so far must move with the buffer,
 * and the Send's one SGE must then carry header and message from the
 * new buffer; a context that grew keeps its buffer.  The reply to a Call
 * without Write and Reply chunks has a builder of its own, which must
 * build what the general one builds.  A callback is copied after its
 * header, and leaves its context as the replies that reuse it need it.
 * Putting a context back drops one reference on each page it took.
 *
 * As in send_sges_test.c, a zeroed struct ib_device has no DMA device:
 * with CONFIG_INFINIBAND_VIRT_DMA a DMA address is the kernel address.
 */
#include <kunit/test.h>
#include <linux/mm.h>

#include "../svcrdma/server.h"

#define SSB_HDR_LEN	92	/* an RDMA_MSG header with a Write list */
#define SSB_HEAD_LEN	100	/* then the message: head, one page */

/**
 * struct ssb_vec - a connection, a message and what building its Send does
 * @name: what it shows
 * @inline_send: the connection's inline size
 * @max_sge: SGEs the device takes per Send
 * @msg_len: bytes of message (@SSB_HEAD_LEN in the head, the rest in a page)
 * @rc: what srdma_send_build() returns
 * @hdr_size: the context's header buffer afterwards
 * @nr: SGEs of the Send (0 on error)
 */
struct ssb_vec {
	const char *name;
	unsigned int inline_send, max_sge, msg_len;
	int rc;
	unsigned int hdr_size, nr;
};

static const struct ssb_vec ssb_vecs[] = {
	{ "gathered: no copy, the buffer stays", 8192, 8, 3000,
	  0, SRDMA_MAX_HDR_SIZE, 3 },
	{ "copied into the buffer as it is", 8192, 1,
	  SRDMA_MAX_HDR_SIZE - SSB_HDR_LEN, 0, SRDMA_MAX_HDR_SIZE, 1 },
	{ "one byte more: grows to the inline size", 8192, 1,
	  SRDMA_MAX_HDR_SIZE - SSB_HDR_LEN + 1, 0, 8192, 1 },
	{ "too few SGEs for head and page: grows", 4096, 2,
	  4096 - SSB_HDR_LEN, 0, 4096, 1 },
	{ "inline size no larger than the buffer: no growth", 1024, 1, 1500,
	  -EMSGSIZE, SRDMA_MAX_HDR_SIZE, 0 },
	{ "larger than the inline size even after growing", 4096, 1,
	  4096 - SSB_HDR_LEN + 1, -EMSGSIZE, 4096, 0 },
};

static void ssb_desc(const struct ssb_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ssb, ssb_vecs, ssb_desc);

/**
 * struct ssb_ctx - a Send context of a connection, as a test builds it
 * @sx: the connection: its device and inline size
 * @sc: the context, with a header buffer as srdma_send_get() leaves it
 * @msg: the message: head and one page
 * @head: the head's bytes
 * @page: the page
 */
struct ssb_ctx {
	struct srdma_xprt *sx;
	struct srdma_send *sc;
	struct xdr_buf msg;
	u8 *head;
	struct page *page;
};

static void ssb_ctx_free(struct ssb_ctx *c)
{
	/* The buffer may have been replaced: it is not the test's. */
	kfree(c->sc->hdr_buf);
	__free_page(c->page);
}

static void ssb_ctx_init(struct kunit *test, struct ssb_ctx *c,
			 unsigned int inline_send, unsigned int max_sge,
			 unsigned int msg_len)
{
	u8 *hdr, *page;
	unsigned int i;

	c->sx = kunit_kzalloc(test, sizeof(*c->sx), GFP_KERNEL);
	c->sc = kunit_kzalloc(test, sizeof(*c->sc), GFP_KERNEL);
	c->head = kunit_kzalloc(test, SSB_HEAD_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->sx);
	KUNIT_ASSERT_NOT_NULL(test, c->sc);
	KUNIT_ASSERT_NOT_NULL(test, c->head);
	c->sx->device = kunit_kzalloc(test, sizeof(*c->sx->device),
				      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->sx->device);
	c->sx->inline_send = inline_send;
	c->page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c->page);

	hdr = kmalloc(SRDMA_MAX_HDR_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hdr);
	c->sc->sx = c->sx;
	c->sc->hdr_buf = hdr;
	c->sc->hdr_size = SRDMA_MAX_HDR_SIZE;
	c->sc->hdr_dma = (uintptr_t)hdr;
	rpcrdma_send_sges_init(&c->sc->sges, c->sx->device, 0x1234, max_sge);
	c->sc->sges.copy_max = SRDMA_SEND_COPY_MAX;	/* as srdma_send_alloc() */
	rpcrdma_send_sges_premapped_hdr(&c->sc->sges, c->sc->hdr_dma);
	for (i = 0; i < SSB_HDR_LEN; i++)
		hdr[i] = 0xa0 + i % 16;

	/* Every byte of the message says where it is. */
	page = page_address(c->page);
	for (i = 0; i < msg_len; i++) {
		u8 *at = i < SSB_HEAD_LEN ? &c->head[i] :
					    &page[i - SSB_HEAD_LEN];

		*at = i * 7 + (i >> 8);
	}
	memset(&c->msg, 0, sizeof(c->msg));
	c->msg.head[0].iov_base = c->head;
	c->msg.head[0].iov_len = min(msg_len, SSB_HEAD_LEN);
	c->msg.pages = &c->page;
	c->msg.page_len = msg_len - c->msg.head[0].iov_len;
	c->msg.len = msg_len;
	c->msg.buflen = msg_len;
}

/* The Send's one SGE carries the header, then the whole message. */
static void ssb_expect_copied(struct kunit *test, const struct ssb_ctx *c,
			      unsigned int msg_len)
{
	const struct ib_sge *sge = &c->sc->sges.sge[0];
	const u8 *sent = (const u8 *)(uintptr_t)sge->addr;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, c->sc->sges.nr, 1);
	KUNIT_EXPECT_PTR_EQ(test, sent, (const u8 *)c->sc->hdr_buf);
	KUNIT_EXPECT_EQ(test, c->sc->hdr_dma, sge->addr);
	KUNIT_ASSERT_EQ(test, sge->length, SSB_HDR_LEN + msg_len);
	for (i = 0; i < SSB_HDR_LEN; i++)
		KUNIT_ASSERT_EQ_MSG(test, sent[i], 0xa0 + i % 16,
				    "header byte %u", i);
	for (i = 0; i < msg_len; i++)
		KUNIT_ASSERT_EQ_MSG(test, sent[SSB_HDR_LEN + i],
				    (u8)(i * 7 + (i >> 8)),
				    "message byte %u", i);
}

/* Build the Send of the vector's message, as the reply path does. */
static void server_send_build_case(struct kunit *test)
{
	const struct ssb_vec *v = test->param_value;
	struct ssb_ctx c;
	int rc;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to read SGEs back");
	ssb_ctx_init(test, &c, v->inline_send, v->max_sge, v->msg_len);
	rc = srdma_send_build(c.sc, SSB_HDR_LEN, &c.msg, v->msg_len,
			      v->msg_len);
	KUNIT_EXPECT_EQ(test, rc, v->rc);
	KUNIT_EXPECT_EQ(test, c.sc->hdr_size, v->hdr_size);
	KUNIT_EXPECT_EQ(test, c.sc->sges.nr, v->nr);
	if (!rc && v->nr == 1)
		ssb_expect_copied(test, &c, v->msg_len);
	if (!rc)
		rpcrdma_send_sges_unmap(&c.sc->sges);
	ssb_ctx_free(&c);
}

/* A context that grew keeps its buffer for the next message. */
static void server_send_grown_kept_case(struct kunit *test)
{
	unsigned int len = 3000;
	struct ssb_ctx c;
	void *grown;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to read SGEs back");
	ssb_ctx_init(test, &c, 8192, 1, len);
	KUNIT_ASSERT_EQ(test, srdma_send_build(c.sc, SSB_HDR_LEN, &c.msg,
					       len, len), 0);
	KUNIT_ASSERT_EQ(test, c.sc->hdr_size, 8192);
	grown = c.sc->hdr_buf;
	/*
	 * What srdma_send_put() leaves for the context's next use: an
	 * empty list, whose header SGE is the grown buffer's mapping.
	 */
	rpcrdma_send_sges_unmap(&c.sc->sges);
	KUNIT_EXPECT_EQ(test, c.sc->sges.nr, 0);
	KUNIT_EXPECT_EQ(test, c.sc->sges.hdr_dma, c.sc->hdr_dma);
	KUNIT_ASSERT_EQ(test, srdma_send_build(c.sc, SSB_HDR_LEN, &c.msg,
					       len, len), 0);
	KUNIT_EXPECT_PTR_EQ(test, c.sc->hdr_buf, grown);
	ssb_expect_copied(test, &c, len);
	rpcrdma_send_sges_unmap(&c.sc->sges);
	ssb_ctx_free(&c);
}

/**
 * struct srb_vec - the reply to a Call that offered no Write or Reply chunk
 * @name: what it shows
 * @inline_send: the connection's inline size
 * @max_sge: SGEs the device takes per Send
 * @msg_len: bytes of reply (@SSB_HEAD_LEN in the head, the rest in a page)
 * @read_chunk: the Call had a Read chunk (it changes nothing in the reply)
 * @rc: what both builders return
 * @nr: SGEs of the Send: one for a reply of up to SRDMA_SEND_COPY_MAX
 *	bytes, copied after the header, else header, head and page
 */
struct srb_vec {
	const char *name;
	unsigned int inline_send, max_sge, msg_len;
	bool read_chunk;
	int rc;
	unsigned int nr;
};

static const struct srb_vec srb_vecs[] = {
	{ "GETATTR-sized, in the head", 4096, 8, 60, false, 0, 1 },
	{ "the head exactly", 4096, 8, SSB_HEAD_LEN, false, 0, 1 },
	{ "head and a page", 4096, 8, 3000, false, 0, 3 },
	{ "exactly the inline size", 4096, 8, 4096 - 28, false, 0, 3 },
	{ "one byte over: ERR_CHUNK", 4096, 8, 4096 - 27, false, -EMSGSIZE },
	{ "reply to a WRITE (the Call had a Read chunk)", 4096, 8, 120, true,
	  0, 1 },
	{ "one SGE: copied after the header", 8192, 1, 3000, false, 0, 1 },
	{ "1 KiB inline size", 1024, 8, 1024 - 28, false, 0, 3 },
	{ "as long as a copy may be: copied", 4096, 8, SRDMA_SEND_COPY_MAX,
	  false, 0, 1 },
	{ "one byte longer: gathered", 4096, 8, SRDMA_SEND_COPY_MAX + 1, false,
	  0, 3 },
};

static void srb_desc(const struct srb_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(srb, srb_vecs, srb_desc);

/* A Call as srdma_decode() leaves it, with or without a Read chunk. */
static struct srdma_recv *srb_call(struct kunit *test, bool read_chunk)
{
	static const struct rpcrdma_segment seg = {
		.handle = 0x5eed, .length = 4096, .offset = 0x10000,
	};
	struct srdma_recv *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rpcrdma_hdr_init(&rc->hdr, rc->chunks, ARRAY_SIZE(rc->chunks),
			 rc->segs, ARRAY_SIZE(rc->segs));
	rc->hdr.xid = cpu_to_be32(0x7e57ab1e);
	if (read_chunk)
		KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(&rc->hdr.lists,
							       120, &seg), 0);
	return rc;
}

/* The bytes the Send of @c would carry, SGE after SGE, into @out. */
static unsigned int srb_sent(const struct ssb_ctx *c, u8 *out,
			     unsigned int room)
{
	unsigned int i, len = 0;

	for (i = 0; i < c->sc->sges.nr; i++) {
		const struct ib_sge *sge = &c->sc->sges.sge[i];

		if (sge->length > room - len)
			return room + 1;
		memcpy(out + len, (const void *)(uintptr_t)sge->addr,
		       sge->length);
		len += sge->length;
	}
	return len;
}

/*
 * The fast path for a Call with no Write chunk and no Reply chunk builds
 * the Send the general builder builds: same outcome, same SGE count,
 * same bytes on the wire, same plan as far as the caller reads it; a
 * short reply is copied after the header, one SGE.
 */
static void server_reply_plain_case(struct kunit *test)
{
	const struct srb_vec *v = test->param_value;
	struct srdma_reply *rp_fast, *rp_gen;
	struct ssb_ctx fast, gen;
	struct srdma_recv *rc;
	unsigned int room = 2 * v->inline_send, len_fast, len_gen;
	u8 *out_fast, *out_gen;
	int rc_fast, rc_gen;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to read SGEs back");
	rc = srb_call(test, v->read_chunk);
	rp_fast = kunit_kmalloc(test, sizeof(*rp_fast), GFP_KERNEL);
	rp_gen = kunit_kmalloc(test, sizeof(*rp_gen), GFP_KERNEL);
	out_fast = kunit_kzalloc(test, room, GFP_KERNEL);
	out_gen = kunit_kzalloc(test, room, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rp_fast);
	KUNIT_ASSERT_NOT_NULL(test, rp_gen);
	KUNIT_ASSERT_NOT_NULL(test, out_fast);
	KUNIT_ASSERT_NOT_NULL(test, out_gen);
	memset(rp_fast, 0xa5, sizeof(*rp_fast));
	memset(rp_gen, 0x5a, sizeof(*rp_gen));
	ssb_ctx_init(test, &fast, v->inline_send, v->max_sge, v->msg_len);
	ssb_ctx_init(test, &gen, v->inline_send, v->max_sge, v->msg_len);
	fast.sx->max_requests = 64;
	gen.sx->max_requests = 64;

	rc_fast = srdma_reply_build_plain(fast.sx, fast.sc, rc, &fast.msg,
					  rp_fast);
	rc_gen = srdma_reply_build_chunked(gen.sx, gen.sc, rc, &gen.msg,
					   rp_gen);
	KUNIT_EXPECT_EQ(test, rc_fast, v->rc);
	KUNIT_EXPECT_EQ(test, rc_gen, v->rc);
	KUNIT_EXPECT_EQ(test, rp_fast->msg_len, rp_gen->msg_len);
	KUNIT_EXPECT_EQ(test, rp_fast->nomsg, rp_gen->nomsg);
	if (!rc_fast && !rc_gen) {
		KUNIT_EXPECT_EQ(test, fast.sc->sges.nr, v->nr);
		KUNIT_EXPECT_EQ(test, fast.sc->sges.nr, gen.sc->sges.nr);
		KUNIT_EXPECT_EQ(test, fast.sc->sges.nr_mapped,
				gen.sc->sges.nr_mapped);
		len_fast = srb_sent(&fast, out_fast, room);
		len_gen = srb_sent(&gen, out_gen, room);
		KUNIT_EXPECT_EQ(test, len_fast, RPCRDMA_HDR_MIN_SIZE + v->msg_len);
		KUNIT_ASSERT_EQ(test, len_fast, len_gen);
		KUNIT_EXPECT_MEMEQ(test, out_fast, out_gen, len_fast);
	}
	if (!rc_fast)
		rpcrdma_send_sges_unmap(&fast.sc->sges);
	if (!rc_gen)
		rpcrdma_send_sges_unmap(&gen.sc->sges);
	ssb_ctx_free(&fast);
	ssb_ctx_free(&gen);
}

/* A callback's transport header: RDMA_MSG with three empty lists. */
#define SBC_HDR_LEN	RPCRDMA_HDR_MIN_SIZE
#define SBC_XID		0xca11bac7

/**
 * struct sbc_vec - a callback Sent on a context from the connection's cache
 * @name: what it shows
 * @inline_send: the connection's inline size
 * @max_sge: SGEs the device takes per Send
 * @msg_len: bytes of Call (@SSB_HEAD_LEN in the head, the rest in a page)
 * @rc: what srdma_bc_build_call() returns
 * @hdr_size: the context's header buffer afterwards
 */
struct sbc_vec {
	const char *name;
	unsigned int inline_send, max_sge, msg_len;
	int rc;
	unsigned int hdr_size;
};

static const struct sbc_vec sbc_vecs[] = {
	{ "a CB_RECALL: copied into the buffer as it is", 4096, 8, 200,
	  0, SRDMA_MAX_HDR_SIZE },
	{ "the buffer exactly", 4096, 8, SRDMA_MAX_HDR_SIZE - SBC_HDR_LEN,
	  0, SRDMA_MAX_HDR_SIZE },
	{ "one byte more: grows to the inline size", 4096, 8,
	  SRDMA_MAX_HDR_SIZE - SBC_HDR_LEN + 1, 0, 4096 },
	{ "exactly the inline size", 4096, 8, 4096 - SBC_HDR_LEN, 0, 4096 },
	{ "one byte over the inline size: refused", 4096, 8,
	  4096 - SBC_HDR_LEN + 1, -EIO, SRDMA_MAX_HDR_SIZE },
	{ "a device of one SGE", 8192, 1, 3000, 0, 8192 },
};

static void sbc_desc(const struct sbc_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sbc, sbc_vecs, sbc_desc);

/* The Send's one SGE: the callback's header, then a copy of the Call. */
static void sbc_expect_sent(struct kunit *test, const struct srdma_send *sc,
			    unsigned int msg_len)
{
	const struct ib_sge *sge = &sc->sges.sge[0];
	const u8 *sent = (const u8 *)(uintptr_t)sge->addr;
	const __be32 *p = (const __be32 *)sent;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sc->sges.nr, 1);
	KUNIT_EXPECT_PTR_EQ(test, sent, (const u8 *)sc->hdr_buf);
	KUNIT_ASSERT_EQ(test, sge->length, SBC_HDR_LEN + msg_len);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p[0]), SBC_XID);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p[2]), SRDMA_BC_REQUESTS);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p[3]), RPCRDMA_MSG);
	for (i = 0; i < msg_len; i++)
		KUNIT_ASSERT_EQ_MSG(test, sent[SBC_HDR_LEN + i],
				    (u8)(i * 7 + (i >> 8)),
				    "Call byte %u", i);
}

/*
 * A callback's Send is a copy of the Call after its header, whatever
 * the device could gather.  The context goes back to the connection's
 * cache, and the reply that takes it next must find the device's SGE
 * limit in it: with one SGE, most replies would miss their gathering
 * fast paths and be copied whole.
 */
static void server_bc_call_case(struct kunit *test)
{
	const struct sbc_vec *v = test->param_value;
	struct srdma_send *sc;
	struct ssb_ctx c;
	int rc;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to read SGEs back");
	ssb_ctx_init(test, &c, v->inline_send, v->max_sge, v->msg_len);
	/* The connection's cache holds the context, as srdma_send_put() left it. */
	c.sx->max_send_sge = v->max_sge;
	spin_lock_init(&c.sx->send_lock);
	init_llist_head(&c.sx->send_free);
	INIT_LIST_HEAD(&c.sc->rws);
	llist_add(&c.sc->free_node, &c.sx->send_free);

	sc = srdma_send_get(c.sx);
	KUNIT_ASSERT_PTR_EQ(test, sc, c.sc);
	rc = srdma_bc_build_call(sc, cpu_to_be32(SBC_XID), &c.msg);
	KUNIT_EXPECT_EQ(test, rc, v->rc);
	KUNIT_EXPECT_EQ(test, sc->hdr_size, v->hdr_size);
	if (!rc)
		sbc_expect_sent(test, sc, v->msg_len);
	srdma_send_put(sc);

	sc = srdma_send_get(c.sx);
	KUNIT_ASSERT_PTR_EQ(test, sc, c.sc);
	KUNIT_EXPECT_EQ(test, sc->sges.max,
			min_t(unsigned int, v->max_sge, RPCRDMA_MAX_SEND_SGES));
	KUNIT_EXPECT_EQ(test, sc->sges.nr, 0);
	ssb_ctx_free(&c);
}

/*
 * Putting a Send context back drops the one reference it holds on each
 * page it took: a page the page cache also holds lives on, one that was
 * the reply's alone is freed (kmemleak would see it kept), a hole the
 * reply left is passed over, and the context, empty, goes on the free
 * list.
 */
static void server_send_put_pages_case(struct kunit *test)
{
	struct srdma_xprt *sx;
	struct srdma_send *sc;
	struct page *cached;

	sx = kunit_kzalloc(test, sizeof(*sx), GFP_KERNEL);
	sc = kunit_kzalloc(test, struct_size(sc, pages, 3), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sx);
	KUNIT_ASSERT_NOT_NULL(test, sc);
	sx->device = kunit_kzalloc(test, sizeof(*sx->device), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sx->device);
	init_llist_head(&sx->send_free);
	sc->sx = sx;
	INIT_LIST_HEAD(&sc->rws);
	rpcrdma_send_sges_init(&sc->sges, sx->device, 0x1234, 2);

	cached = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cached);
	get_page(cached);		/* the reply's; the first, the cache's */
	sc->pages[0] = cached;
	sc->pages[1] = NULL;
	sc->pages[2] = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sc->pages[2]);
	sc->nr_pages = 3;

	srdma_send_put(sc);
	KUNIT_EXPECT_EQ(test, page_ref_count(cached), 1);
	KUNIT_EXPECT_EQ(test, sc->nr_pages, 0);
	KUNIT_EXPECT_PTR_EQ(test, sx->send_free.first, &sc->free_node);
	__free_page(cached);
}

static struct kunit_case rpcrdma_server_send_cases[] = {
	KUNIT_CASE_PARAM(server_send_build_case, ssb_gen_params),
	KUNIT_CASE(server_send_grown_kept_case),
	KUNIT_CASE(server_send_put_pages_case),
	KUNIT_CASE_PARAM(server_reply_plain_case, srb_gen_params),
	KUNIT_CASE_PARAM(server_bc_call_case, sbc_gen_params),
	{}
};

static struct kunit_suite rpcrdma_server_send_suite = {
	.name = "rpcrdma_server_send",
	.test_cases = rpcrdma_server_send_cases,
};

kunit_test_suites(&rpcrdma_server_send_suite);
