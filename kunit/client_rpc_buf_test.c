// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the client's RPC buffers (xrdma_reqs_create() and
 * xrdma_buf_alloc() in xprtrdma/transport.c).  Every slot starts with a
 * buffer the heads of most RPCs fit, so that the I/O path allocates
 * nothing; one that must grow takes the whole kmalloc object, so that a
 * call a little larger again does not grow it a second time.  Each
 * vector is a sequence of RPCs on one slot: the bytes of call and reply
 * head each needs, and the buffer the slot must have after it.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>

#include "../xprtrdma/client.h"

#define RBT_MAX_RPCS	3

struct rbt_rpc {
	unsigned int callsize;
	unsigned int rcvsize;
	size_t buf_size;	/* the slot's buffer after this RPC */
	bool new_buf;		/* a buffer other than the one before */
};

struct rbt_vec {
	const char *name;
	struct rbt_rpc rpcs[RBT_MAX_RPCS];
};

static const struct rbt_vec rbt_vecs[] = {
	{ "small call, small reply",
	  { { 200, 300, XRDMA_RPC_BUF_INITIAL, false } } },
	{ "heads fill the first buffer",
	  { { 2048, 2048, XRDMA_RPC_BUF_INITIAL, false } } },
	{ "one byte over, then the same",
	  { { 2048, 2049, 8192, true }, { 2048, 2049, 8192, false } } },
	{ "grown, then larger within the object",
	  { { 4000, 1000, 8192, true }, { 4000, 4000, 8192, false } } },
	{ "grown, then small",
	  { { 100, 6000, 8192, true }, { 100, 100, 8192, false } } },
	{ "grown twice",
	  { { 100, 6000, 8192, true }, { 8000, 1000, 16384, true },
	    { 200, 200, 16384, false } } },
};

static void rbt_desc(const struct rbt_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rbt, rbt_vecs, rbt_desc);

static void rbt_destroy(void *data)
{
	xrdma_reqs_destroy(data);
}

static void rpc_buf_case(struct kunit *test)
{
	const struct rbt_vec *v = test->param_value;
	long hardway = 0, grown = 0;
	struct rpc_rqst *rqst;
	struct xrdma_xprt *rx;
	struct rpc_task *task;
	struct xrdma_req *req;
	unsigned int i;
	void *before;

	rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);
	task = kunit_kzalloc(test, sizeof(*task), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rx);
	KUNIT_ASSERT_NOT_NULL(test, task);
	init_rwsem(&rx->ep_rwsem);
	spin_lock_init(&rx->free_lock);
	KUNIT_ASSERT_EQ(test, xrdma_reqs_create(rx, 1), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rbt_destroy,
							rx), 0);
	req = &rx->reqs[0];
	rqst = &req->rqst;
	/* A new slot has its buffer before any RPC asks for one. */
	KUNIT_ASSERT_NOT_NULL(test, req->rpc_buf);
	KUNIT_EXPECT_EQ(test, req->rpc_buf_size, XRDMA_RPC_BUF_INITIAL);
	KUNIT_EXPECT_GE(test, ksize(req->rpc_buf), req->rpc_buf_size);
	task->tk_rqstp = rqst;

	for (i = 0; i < RBT_MAX_RPCS && v->rpcs[i].buf_size; i++) {
		const struct rbt_rpc *r = &v->rpcs[i];

		rqst->rq_callsize = r->callsize;
		rqst->rq_rcvsize = r->rcvsize;
		before = req->rpc_buf;
		KUNIT_ASSERT_EQ(test, xrdma_buf_alloc(task), 0);
		KUNIT_EXPECT_EQ_MSG(test, req->rpc_buf_size, r->buf_size,
				    "RPC %u", i);
		KUNIT_EXPECT_EQ_MSG(test, req->rpc_buf != before, r->new_buf,
				    "RPC %u", i);
		/* What the slot says it has, the allocator gave. */
		KUNIT_EXPECT_GE(test, ksize(req->rpc_buf), req->rpc_buf_size);
		KUNIT_EXPECT_PTR_EQ(test, rqst->rq_buffer, req->rpc_buf);
		KUNIT_EXPECT_PTR_EQ(test, rqst->rq_rbuffer,
				    req->rpc_buf + r->callsize);
		KUNIT_EXPECT_LE(test, (size_t)r->callsize + r->rcvsize,
				req->rpc_buf_size);
		if (r->new_buf)
			grown += r->buf_size;
		hardway = atomic_long_read(&rx->stats.hardway_register_count);
		KUNIT_EXPECT_EQ_MSG(test, hardway, grown, "RPC %u", i);
	}
}

static struct kunit_case rpcrdma_client_rpc_buf_cases[] = {
	KUNIT_CASE_PARAM(rpc_buf_case, rbt_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_rpc_buf_suite = {
	.name = "rpcrdma_client_rpc_buf",
	.test_cases = rpcrdma_client_rpc_buf_cases,
};

kunit_test_suites(&rpcrdma_client_rpc_buf_suite);
