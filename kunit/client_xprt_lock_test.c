// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the client's release of sunrpc's write lock and congestion
 * slot (xrdma_release_xprt() and xrdma_release_request() in
 * xprtrdma/transport.c).  With nobody on the sending queue they skip
 * sunrpc's search for a task to wake; whatever the queue holds, they
 * must leave the transport as xprt_release_xprt_cong() and
 * xprt_release_rqst_cong() do.  Each vector runs on two transports set
 * up alike, ours on one and sunrpc's on the other, and compares them.
 * A task "on the queue" is counted in its length only: sunrpc's search
 * then finds the lists empty, wakes nobody and does the rest, as ours
 * must then too.  And a release that leaves the lock clear wakes a task
 * that waits on the lock bit itself, as sunrpc's sysfs writes do, and so
 * does the release by a task that does not hold the lock, when sunrpc
 * has cleared it without a wake-up.
 */
#include <kunit/test.h>
#include <linux/kthread.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>

#include "../xprtrdma/client.h"

struct xl_twin {
	struct rpc_xprt *xprt;
	struct rpc_task *task;
	struct xrdma_req *req;
};

struct xl_vec {
	const char *name;
	unsigned int queued;	/* tasks counted on the sending queue */
	bool locked;		/* XPRT_LOCKED held ... */
	bool own_lock;		/* ... by the releasing task */
	bool cwnd_wait;		/* XPRT_CWND_WAIT */
	bool rq_cong;		/* the request holds a congestion slot */
	unsigned long cong;	/* slots in use, in RPC_CWNDSCALE units */
	unsigned long cwnd;
};

static const struct xl_vec xl_vecs[] = {
	{ "idle, own lock",		0, true,  true,  false, true,  1, 4 },
	{ "idle, lock not ours",	0, true,  false, false, true,  2, 4 },
	{ "idle, unlocked",		0, false, false, false, true,  1, 4 },
	{ "idle, no slot held",		0, true,  true,  false, false, 1, 4 },
	{ "window full, waiting flag",	0, true,  true,  true,  true,  4, 4 },
	{ "window over, waiting flag",	0, true,  true,  true,  true,  6, 4 },
	{ "window opens, waiting flag",	0, true,  true,  true,  true,  2, 4 },
	{ "one sender queued",		1, true,  true,  false, true,  1, 4 },
	{ "queued, window full",	2, true,  true,  true,  true,  4, 4 },
	{ "queued, lock not ours",	1, true,  false, true,  true,  4, 4 },
};

static void xl_desc(const struct xl_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(xl, xl_vecs, xl_desc);

static void xl_twin_init(struct kunit *test, struct xl_twin *t,
			 const struct xl_vec *v)
{
	struct xrdma_xprt *rx;
	struct rpc_xprt *xprt;

	rx = kunit_kzalloc(test, sizeof(*rx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rx);
	xrdma_xprt_lock_init(rx);
	t->xprt = &rx->xprt;
	t->task = kunit_kzalloc(test, sizeof(*t->task), GFP_KERNEL);
	t->req = kunit_kzalloc(test, sizeof(*t->req), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->task);
	KUNIT_ASSERT_NOT_NULL(test, t->req);
	xprt = t->xprt;
	spin_lock_init(&xprt->transport_lock);
	rpc_init_wait_queue(&xprt->sending, "kunit_sending");
	xprt->sending.qlen = v->queued;
	if (v->locked) {
		set_bit(XPRT_LOCKED, &xprt->state);
		xprt->snd_task = v->own_lock ? t->task : NULL;
	}
	if (v->cwnd_wait)
		set_bit(XPRT_CWND_WAIT, &xprt->state);
	xprt->cong = v->cong * RPC_CWNDSCALE;
	xprt->cwnd = v->cwnd * RPC_CWNDSCALE;
	t->req->rqst.rq_xprt = xprt;
	t->req->rqst.rq_task = t->task;
	t->req->rqst.rq_cong = v->rq_cong;
	t->task->tk_rqstp = &t->req->rqst;
}

static void xl_twin_fini(struct xl_twin *t)
{
	t->xprt->sending.qlen = 0;
	rpc_destroy_wait_queue(&t->xprt->sending);
}

/* The state either release leaves behind. */
static void xl_expect_same(struct kunit *test, const struct xl_twin *ours,
			   const struct xl_twin *theirs)
{
	const struct rpc_xprt *a = ours->xprt, *b = theirs->xprt;

	KUNIT_EXPECT_EQ(test, test_bit(XPRT_LOCKED, &a->state),
			test_bit(XPRT_LOCKED, &b->state));
	KUNIT_EXPECT_EQ(test, test_bit(XPRT_CWND_WAIT, &a->state),
			test_bit(XPRT_CWND_WAIT, &b->state));
	KUNIT_EXPECT_EQ(test, !a->snd_task, !b->snd_task);
	if (a->snd_task)
		KUNIT_EXPECT_PTR_EQ(test, a->snd_task, ours->task);
	KUNIT_EXPECT_EQ(test, a->cong, b->cong);
	KUNIT_EXPECT_EQ(test, ours->req->rqst.rq_cong,
			theirs->req->rqst.rq_cong);
	KUNIT_EXPECT_EQ(test, a->sending.qlen, b->sending.qlen);
}

/* The write lock, given back after a transmission or with the slot. */
static void release_xprt_case(struct kunit *test)
{
	const struct xl_vec *v = test->param_value;
	struct xl_twin ours, theirs;

	xl_twin_init(test, &ours, v);
	xl_twin_init(test, &theirs, v);
	spin_lock(&ours.xprt->transport_lock);
	xrdma_release_xprt(ours.xprt, ours.task);
	spin_unlock(&ours.xprt->transport_lock);
	spin_lock(&theirs.xprt->transport_lock);
	xprt_release_xprt_cong(theirs.xprt, theirs.task);
	spin_unlock(&theirs.xprt->transport_lock);
	xl_expect_same(test, &ours, &theirs);
	if (v->own_lock)
		KUNIT_EXPECT_FALSE(test,
				   test_bit(XPRT_LOCKED, &ours.xprt->state));
	xl_twin_fini(&ours);
	xl_twin_fini(&theirs);
}

struct xl_bit_waiter {
	struct rpc_xprt *xprt;
	struct completion locked;
};

/* What a sysfs write to the xprt does: rpc_sysfs_xprt_dstaddr_store(). */
static int xl_bit_waiter_fn(void *data)
{
	struct xl_bit_waiter *w = data;

	wait_on_bit_lock(&w->xprt->state, XPRT_LOCKED, TASK_UNINTERRUPTIBLE);
	complete(&w->locked);
	return 0;
}

/*
 * A task sleeping on the XPRT_LOCKED bit itself, not on the sending
 * queue, gets the lock once a release leaves it clear (sunrpc's release
 * on the twin says whether it does): sunrpc's own releases never wake
 * it, which is how a dstaddr write under load slept for good.
 */
static void release_xprt_wakes_case(struct kunit *test)
{
	const struct xl_vec *v = test->param_value;
	struct xl_twin ours, theirs;
	struct xl_bit_waiter *w;
	struct task_struct *k;
	bool early, cleared;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	xl_twin_init(test, &ours, v);
	xl_twin_init(test, &theirs, v);
	w->xprt = ours.xprt;
	init_completion(&w->locked);
	k = kthread_run(xl_bit_waiter_fn, w, "kunit_xl_bit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	early = wait_for_completion_timeout(&w->locked, HZ / 10);
	/* Unlocked, the waiter takes the lock at once: nothing to release. */
	KUNIT_EXPECT_EQ(test, early, !v->locked);
	if (early) {
		xl_twin_fini(&ours);
		xl_twin_fini(&theirs);
		return;
	}

	spin_lock(&theirs.xprt->transport_lock);
	xprt_release_xprt_cong(theirs.xprt, theirs.task);
	spin_unlock(&theirs.xprt->transport_lock);
	cleared = !test_bit(XPRT_LOCKED, &theirs.xprt->state);
	spin_lock(&ours.xprt->transport_lock);
	xrdma_release_xprt(ours.xprt, ours.task);
	spin_unlock(&ours.xprt->transport_lock);

	if (!wait_for_completion_timeout(&w->locked, cleared ? 2 * HZ : 1)) {
		if (cleared)
			KUNIT_FAIL(test, "the lock is free and its waiter sleeps on");
		/* Let the thread go before its memory does. */
		clear_and_wake_up_bit(XPRT_LOCKED, &ours.xprt->state);
		wait_for_completion(&w->locked);
	}
	xl_twin_fini(&ours);
	xl_twin_fini(&theirs);
}

/*
 * sunrpc clears the lock bit without a wake-up where the task that took
 * it cannot use it (xprt_reserve_xprt_cong() with the window full), so
 * a task on the bit sleeps on a clear bit until a release looks.  The
 * release by a task that does not hold the lock, which xprt_release()
 * makes for every RPC, has nothing to give back but still looks.
 */
static void release_xprt_late_wake_case(struct kunit *test)
{
	const struct xl_vec *v = &xl_vecs[1];	/* locked, not by ours */
	struct xl_bit_waiter *w;
	struct task_struct *k;
	struct xl_twin ours;

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	xl_twin_init(test, &ours, v);
	KUNIT_ASSERT_NE(test, ours.xprt->snd_task, ours.task);
	w->xprt = ours.xprt;
	init_completion(&w->locked);
	k = kthread_run(xl_bit_waiter_fn, w, "kunit_xl_bit");
	KUNIT_ASSERT_FALSE(test, IS_ERR(k));
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&w->locked,
							     HZ / 10));
	/* As xprt_clear_locked() does: no wake-up. */
	clear_bit_unlock(XPRT_LOCKED, &ours.xprt->state);
	KUNIT_EXPECT_FALSE(test, wait_for_completion_timeout(&w->locked,
							     HZ / 10));

	spin_lock(&ours.xprt->transport_lock);
	xrdma_release_xprt(ours.xprt, ours.task);
	spin_unlock(&ours.xprt->transport_lock);
	if (!wait_for_completion_timeout(&w->locked, 2 * HZ)) {
		KUNIT_FAIL(test, "the lock is free and its waiter sleeps on");
		clear_and_wake_up_bit(XPRT_LOCKED, &ours.xprt->state);
		wait_for_completion(&w->locked);
	}
	xl_twin_fini(&ours);
}

/* The congestion slot, given back when the RPC is done. */
static void release_request_case(struct kunit *test)
{
	const struct xl_vec *v = test->param_value;
	struct xl_twin ours, theirs;

	xl_twin_init(test, &ours, v);
	xl_twin_init(test, &theirs, v);
	spin_lock(&ours.xprt->transport_lock);
	xrdma_release_request(ours.task);
	spin_unlock(&ours.xprt->transport_lock);
	spin_lock(&theirs.xprt->transport_lock);
	xprt_release_rqst_cong(theirs.task);
	spin_unlock(&theirs.xprt->transport_lock);
	xl_expect_same(test, &ours, &theirs);
	KUNIT_EXPECT_FALSE(test, ours.req->rqst.rq_cong);
	xl_twin_fini(&ours);
	xl_twin_fini(&theirs);
}

static struct kunit_case rpcrdma_client_xprt_lock_cases[] = {
	KUNIT_CASE_PARAM(release_xprt_case, xl_gen_params),
	KUNIT_CASE_PARAM(release_xprt_wakes_case, xl_gen_params),
	KUNIT_CASE(release_xprt_late_wake_case),
	KUNIT_CASE_PARAM(release_request_case, xl_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_xprt_lock_suite = {
	.name = "rpcrdma_client_xprt_lock",
	.test_cases = rpcrdma_client_xprt_lock_cases,
};

kunit_test_suites(&rpcrdma_client_xprt_lock_suite);
