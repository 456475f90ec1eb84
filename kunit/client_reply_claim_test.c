// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: which replies a request slot takes (xrdma_reply_claim()).  A slot
 * takes one reply, and only while its call is posted on the connection
 * the reply came in on: not before its first Send, not after a failed
 * post, not after the slot was released, and not after the connection
 * that carried the call was torn down until the call is posted again.
 * A hostile server that sends a lost call's reply the moment a new
 * connection comes up (test 75, disconnect-then-reply-on-the-next-
 * connection) reaches the teardown rows when its reply wins the race
 * against the retransmission; here each order is run on purpose.
 *
 * Each vector is a sequence of events on one slot, and the outcome the
 * slot must give each reply in it.
 *
 * And which claimed replies complete their RPC under the lock that
 * claimed them (xrdma_reply_at_once()): only one with nothing left to
 * wait for or to do outside it, no MR, no chunk, a Send that is not
 * waited for, an inline part that fits the head, an unchanged grant.
 */
#include <kunit/test.h>
#include <linux/rbtree.h>
#include <linux/slab.h>

#include "../xprtrdma/client.h"

#define CRC_XID		0x1234abcdU
#define CRC_OTHER_XID	0x5678ef01U

/*
 * Events: P posted (xrdma_post_send() opens the slot), F the post failed,
 * T the connection torn down, D the RPC done and the slot released and
 * reused for a new call with the same XID, R a reply with the call's
 * XID, X a reply with an XID no call has.
 * Outcomes, one per R or X: t taken, a refused (-EALREADY), n no such
 * call (-ENOENT).
 */
struct crc_vec {
	const char *name;
	const char *events;
	const char *outcomes;
};

static const struct crc_vec crc_vecs[] = {
	{ "no reply before the first Send",		"R",	 "a" },
	{ "the posted call's reply",			"PR",	 "t" },
	{ "a second reply to the same call",		"PRR",	 "ta" },
	{ "an XID no call has",				"PX",	 "n" },
	{ "no reply after a failed post",		"PFR",	 "a" },
	{ "a failed post, then posted again",		"PFPR",	 "t" },
	{ "old connection's reply before the resend",	"PTR",	 "a" },
	{ "reply after the resend",			"PTPR",	 "t" },
	{ "reply before, then after the resend",	"PTRPR", "at" },
	{ "two teardowns before the resend",		"PTTR",	 "a" },
	{ "teardown while the reply is handled",	"PRTR",	 "ta" },
	{ "released slot reused, not yet posted",	"PRDR",	 "ta" },
	{ "released slot reused and posted",		"PRDPR", "tt" },
};

static void crc_desc(const struct crc_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(crc, crc_vecs, crc_desc);

struct crc {
	struct xrdma_xprt *rx;
	struct xrdma_req *req;
};

static void crc_destroy(void *arg)
{
	struct xrdma_xprt *rx = arg;

	rpc_destroy_wait_queue(&rx->xprt.backlog);
	xrdma_reqs_destroy(rx);
}

/* The call of @req on the transport's receive queue, as xprt_transmit()
 * puts it there: the only entry, so it is the root.
 */
static void crc_enqueue(struct crc *t)
{
	struct rpc_rqst *rqst = &t->req->rqst;

	rqst->rq_xid = cpu_to_be32(CRC_XID);
	rb_link_node(&rqst->rq_recv, NULL, &t->rx->xprt.recv_queue.rb_node);
	rb_insert_color(&rqst->rq_recv, &t->rx->xprt.recv_queue);
}

static void crc_setup(struct kunit *test, struct crc *t)
{
	t->rx = kunit_kzalloc(test, sizeof(*t->rx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->rx);
	spin_lock_init(&t->rx->xprt.queue_lock);
	t->rx->xprt.recv_queue = RB_ROOT;
	rpc_init_priority_wait_queue(&t->rx->xprt.backlog, "crc backlog");
	spin_lock_init(&t->rx->free_lock);
	KUNIT_ASSERT_EQ(test, xrdma_reqs_create(t->rx, 1), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, crc_destroy,
							t->rx), 0);
	/* xrdma_alloc_slot() takes it off the free list for a task. */
	t->req = xrdma_free_pop(&t->rx->free_reqs);
	KUNIT_ASSERT_PTR_EQ(test, t->req, &t->rx->reqs[0]);
	crc_enqueue(t);
}

/* The RPC completes: its call leaves the receive queue and the task
 * lets go of the slot, which the next task takes for a call of its own.
 */
static void crc_release(struct kunit *test, struct crc *t)
{
	rb_erase(&t->req->rqst.rq_recv, &t->rx->xprt.recv_queue);
	xrdma_req_put(t->req);
	KUNIT_ASSERT_PTR_EQ(test, xrdma_free_pop(&t->rx->free_reqs), t->req);
	crc_enqueue(t);
}

static char crc_reply(struct kunit *test, struct crc *t, u32 xid)
{
	struct rpc_rqst *rqst = &t->req->rqst;
	struct xrdma_req *req = NULL;
	int pins = atomic_read(&rqst->rq_pin);
	int rc;

	rc = xrdma_reply_claim(&t->rx->xprt, cpu_to_be32(xid), NULL, 0, NULL,
			       &req);
	switch (rc) {
	case 0:
		KUNIT_EXPECT_PTR_EQ(test, req, t->req);
		KUNIT_EXPECT_EQ(test, atomic_read(&rqst->rq_pin), pins + 1);
		/* The reply handler unpins once it is done. */
		atomic_set(&rqst->rq_pin, pins);
		return 't';
	case -EALREADY:
		KUNIT_EXPECT_EQ(test, atomic_read(&rqst->rq_pin), pins);
		return 'a';
	case -ENOENT:
		return 'n';
	}
	KUNIT_FAIL(test, "xrdma_reply_claim() returned %d", rc);
	return '?';
}

static void reply_claim_case(struct kunit *test)
{
	const struct crc_vec *v = test->param_value;
	char seen[8] = "";
	unsigned int n = 0;
	const char *e;
	struct crc t;

	crc_setup(test, &t);
	for (e = v->events; *e; e++) {
		KUNIT_ASSERT_LT(test, n, sizeof(seen) - 1);
		switch (*e) {
		case 'P':
			xrdma_req_open(t.req);
			break;
		case 'F':
			xrdma_req_close(t.req);
			break;
		case 'T':
			xrdma_reqs_claim_all(t.rx);
			break;
		case 'D':
			crc_release(test, &t);
			break;
		case 'R':
			seen[n++] = crc_reply(test, &t, CRC_XID);
			break;
		case 'X':
			seen[n++] = crc_reply(test, &t, CRC_OTHER_XID);
			break;
		default:
			KUNIT_FAIL(test, "unknown event %c", *e);
		}
	}
	KUNIT_EXPECT_STREQ(test, seen, v->outcomes);
}

struct cra_vec {
	const char *name;
	unsigned int nr_mrs;
	int done;		/* events still awaited, the reply's included */
	u32 reply_len;		/* a Long Reply's length in its Reply chunk */
	unsigned int nr_write_chunks;
	unsigned int inline_len;	/* the head holds 200 bytes */
	bool grant_same;
	bool at_once;
};

static const struct cra_vec cra_vecs[] = {
	{ "inline reply, nothing else awaited",	0, 1, 0,    0, 120, true,  true },
	{ "fills the head exactly",		0, 1, 0,    0, 200, true,  true },
	{ "longer than the head",		0, 1, 0,    0, 201, true,  false },
	{ "grant changes the window",		0, 1, 0,    0, 120, false, false },
	{ "MRs to invalidate",			1, 1, 0,    0, 120, true,  false },
	{ "its Send still awaited",		0, 2, 0,    0, 120, true,  false },
	{ "a Long Reply",			0, 1, 4000, 0, 0,   true,  false },
	{ "a Write chunk returned",		0, 1, 0,    1, 120, true,  false },
};

static void cra_desc(const struct cra_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(cra, cra_vecs, cra_desc);

static void reply_at_once_case(struct kunit *test)
{
	const struct cra_vec *v = test->param_value;
	struct rpcrdma_reply_match m = {
		.reply_len = v->reply_len,
		.nr_write_chunks = v->nr_write_chunks,
	};
	struct xrdma_req *req;

	req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req);
	req->nr_mrs = v->nr_mrs;
	atomic_set(&req->done, v->done);
	req->rqst.rq_private_buf.head[0].iov_len = 200;
	KUNIT_EXPECT_EQ(test, xrdma_reply_at_once(req, &m, v->inline_len,
						  v->grant_same), v->at_once);
}

static struct kunit_case rpcrdma_client_reply_claim_cases[] = {
	KUNIT_CASE_PARAM(reply_claim_case, crc_gen_params),
	KUNIT_CASE_PARAM(reply_at_once_case, cra_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_reply_claim_suite = {
	.name = "rpcrdma_client_reply_claim",
	.test_cases = rpcrdma_client_reply_claim_cases,
};

kunit_test_suites(&rpcrdma_client_reply_claim_suite);
