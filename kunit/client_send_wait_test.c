// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: when a client RPC waits for its Send (xprtrdma/sendq.c).
 *
 * A Send that maps memory itself, a page of the upper layer or a kvec
 * outside the slot's premapped buffers (the krb5p tail in rq_enc_pages),
 * is signaled and its RPC completes only after it; a Send from the
 * slot's own buffers alone need not be (xrdma_send_must_wait()).  An RPC
 * released before its reply, a killed task or a soft timeout, waits in
 * ->buf_free until such a Send is retired (xrdma_send_wait()), so that
 * sunrpc and the upper layer cannot free memory the device may still
 * read.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "../xprtrdma/client.h"

struct csw_vec {
	const char *name;
	bool is_bc;
	unsigned int batch;
	unsigned int nr_mapped;	/* SGEs the Send mapped itself */
	bool expect;
};

static const struct csw_vec csw_vecs[] = {
	{ "premapped buffers only",		false, 8, 0, false },
	{ "one SGE mapped per Send",		false, 8, 1, true },
	{ "pages mapped per Send",		false, 8, 3, true },
	{ "Send Queue too small: every Send",	false, 0, 0, true },
	{ "backchannel reply",			true,  8, 1, false },
};

static void csw_desc(const struct csw_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(csw, csw_vecs, csw_desc);

static void csw_must_wait_case(struct kunit *test)
{
	const struct csw_vec *v = test->param_value;
	struct xrdma_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, req);
	req->is_bc = v->is_bc;
	req->sges.nr_mapped = v->nr_mapped;
	KUNIT_EXPECT_EQ(test, xrdma_send_must_wait(req, v->batch), v->expect);
}

/*
 * A call whose head lies in the slot's premapped buffer and whose tail
 * lies elsewhere, as GSS privacy puts it: the builder maps the tail per
 * Send, and the RPC must wait for that Send.
 */
static void csw_kvec_tail_waits(struct kunit *test)
{
	struct xrdma_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct ib_device *device = kunit_kzalloc(test, sizeof(*device),
						 GFP_KERNEL);
	u8 *hdr = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	u8 *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	u8 *enc = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct rpcrdma_send_sges *ss;
	struct xdr_buf *xdr;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA");
	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, device);
	KUNIT_ASSERT_NOT_NULL(test, hdr);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, enc);
	ss = &req->sges;
	xdr = &req->rqst.rq_snd_buf;
	xdr->head[0].iov_base = buf;
	xdr->head[0].iov_len = 200;
	xdr->tail[0].iov_base = enc;
	xdr->tail[0].iov_len = 40;
	xdr->len = 240;
	xdr->buflen = 240;

	rpcrdma_send_sges_init(ss, device, 0x1234, 4);
	rpcrdma_send_sges_premapped_hdr(ss, (uintptr_t)hdr);
	rpcrdma_send_sges_premapped_buf(ss, buf, 512, (uintptr_t)buf);
	KUNIT_ASSERT_EQ(test, rpcrdma_send_sges_build(ss, hdr, PAGE_SIZE, 28,
						      xdr, xdr->len, xdr->len),
			0);
	KUNIT_EXPECT_EQ(test, ss->nr, 3);
	KUNIT_EXPECT_EQ(test, ss->nr_mapped, 1);
	KUNIT_EXPECT_TRUE(test, xrdma_send_must_wait(req, 8));
	rpcrdma_send_sges_unmap(ss);
}

struct csw_waiter {
	struct xrdma_req *req;
	struct completion done;
};

static int csw_waiter_fn(void *data)
{
	struct csw_waiter *w = data;

	xrdma_send_wait(w->req);
	complete(&w->done);
	return 0;
}

/*
 * A released RPC whose signaled Send is still queued: its ->buf_free
 * does not return until a completion (here, the drain after a lost
 * connection) retires the Send.
 */
static void csw_wait_until_retired(struct kunit *test)
{
	struct xrdma_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	struct xrdma_ep *ep = kunit_kzalloc(test, sizeof(*ep), GFP_KERNEL);
	struct csw_waiter *w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	struct task_struct *t;
	bool early;

	KUNIT_ASSERT_NOT_NULL(test, req);
	KUNIT_ASSERT_NOT_NULL(test, ep);
	KUNIT_ASSERT_NOT_NULL(test, w);
	rpcrdma_sendq_init(&ep->sendq);
	kref_init(&req->ref);
	kref_get(&req->ref);		/* the Send's hold on the slot */
	atomic_set(&req->done, 2);	/* no reply came */
	req->send_waits = true;
	req->send_unretired = true;
	spin_lock(&ep->sendq.lock);
	rpcrdma_sendq_add(&ep->sendq, &req->send_entry, true);
	spin_unlock(&ep->sendq.lock);

	w->req = req;
	init_completion(&w->done);
	t = kthread_run(csw_waiter_fn, w, "kunit_csw");
	KUNIT_ASSERT_FALSE(test, IS_ERR(t));
	msleep(200);
	early = completion_done(&w->done);

	xrdma_sendq_retire_all(ep);
	KUNIT_EXPECT_FALSE_MSG(test, early,
			       "returned while its Send was still queued");
	if (!wait_for_completion_timeout(&w->done, 5 * HZ)) {
		KUNIT_FAIL(test, "still waiting after the Send was retired");
		/* Let the thread go before its memory does. */
		xrdma_send_mark_retired(req);
		wait_for_completion(&w->done);
	}
	KUNIT_EXPECT_EQ(test, kref_read(&req->ref), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&req->done), 1);
	/* A reply's RPC, its Send retired, does not wait at all. */
	xrdma_send_wait(req);
}

static struct kunit_case rpcrdma_client_send_wait_cases[] = {
	KUNIT_CASE_PARAM(csw_must_wait_case, csw_gen_params),
	KUNIT_CASE(csw_kvec_tail_waits),
	KUNIT_CASE(csw_wait_until_retired),
	{}
};

static struct kunit_suite rpcrdma_client_send_wait_suite = {
	.name = "rpcrdma_client_send_wait",
	.test_cases = rpcrdma_client_send_wait_cases,
};

kunit_test_suites(&rpcrdma_client_send_wait_suite);
