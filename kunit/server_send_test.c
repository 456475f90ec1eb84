// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the header buffer of a server Send context (svcrdma/send.c).
 * It holds a transport header, SRDMA_MAX_HDR_SIZE bytes, and grows to
 * the connection's inline size only when a message has to be copied
 * after the header (the device takes too few SGEs to gather it) and
 * does not fit.  The header encoded so far must move with the buffer,
 * and the Send's one SGE must then carry header and message from the
 * new buffer; a context that grew keeps its buffer.
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
	rpcrdma_send_sges_unmap(&c.sc->sges);

	/* What srdma_send_get() does for the context's next use. */
	rpcrdma_send_sges_init(&c.sc->sges, c.sx->device, 0x1234, 1);
	rpcrdma_send_sges_premapped_hdr(&c.sc->sges, c.sc->hdr_dma);
	KUNIT_ASSERT_EQ(test, srdma_send_build(c.sc, SSB_HDR_LEN, &c.msg,
					       len, len), 0);
	KUNIT_EXPECT_PTR_EQ(test, c.sc->hdr_buf, grown);
	ssb_expect_copied(test, &c, len);
	rpcrdma_send_sges_unmap(&c.sc->sges);
	ssb_ctx_free(&c);
}

static struct kunit_case rpcrdma_server_send_cases[] = {
	KUNIT_CASE_PARAM(server_send_build_case, ssb_gen_params),
	KUNIT_CASE(server_send_grown_kept_case),
	{}
};

static struct kunit_suite rpcrdma_server_send_suite = {
	.name = "rpcrdma_server_send",
	.test_cases = rpcrdma_server_send_cases,
};

kunit_test_suites(&rpcrdma_server_send_suite);
