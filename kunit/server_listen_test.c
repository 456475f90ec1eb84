// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a listener's RDMA-CM events (svcrdma/connect.c).
 *
 * An address change makes the listener listen again, in a work that
 * holds a reference to it.  The listening id is destroyed only in
 * xpo_free, after the listener's last reference is gone, so the event
 * may come when there is none left: then no reference may be taken and
 * no work queued (the work would run in freed memory).  An event that
 * finds the work queued already gives its reference back.
 *
 * These run on a bare struct srdma_xprt: the relisten work is the
 * test's own, which counts its runs and drops the reference as the
 * real one does, and the listener's "free" only counts.
 */
#include <kunit/test.h>
#include <linux/kref.h>
#include <linux/workqueue.h>

#include "../svcrdma/server.h"

/**
 * struct slt - one test's listener and what its work saw
 * @sx: the bare listener
 * @runs: times the relisten work ran
 * @frees: times the listener's last reference went
 */
struct slt {
	struct srdma_xprt sx;
	unsigned int runs;
	unsigned int frees;
};

static void slt_release(struct kref *ref)
{
	struct slt *t = container_of(ref, struct slt, sx.xprt.xpt_ref);

	t->frees++;
}

/* srdma_relisten_worker()'s part in the count: it drops its reference. */
static void slt_worker(struct work_struct *work)
{
	struct slt *t = container_of(to_delayed_work(work), struct slt,
				     sx.relisten_work);

	t->runs++;
	kref_put(&t->sx.xprt.xpt_ref, slt_release);
}

/**
 * struct slt_vec - an event, the listener's count, and what must follow
 * @name: what it shows
 * @event: the RDMA-CM event
 * @refs: the listener's references when the event comes
 * @pending: the relisten work is queued already (one of @refs is its)
 * @runs: times the work runs in all
 * @refs_after: the listener's references once the work has run
 */
struct slt_vec {
	const char *name;
	enum rdma_cm_event_type event;
	unsigned int refs;
	bool pending;
	unsigned int runs;
	unsigned int refs_after;
};

static const struct slt_vec slt_vecs[] = {
	{ "address change, listener in use: relisten with a reference",
	  RDMA_CM_EVENT_ADDR_CHANGE, 1, false, 1, 1 },
	{ "address change after the last put: no reference, no work",
	  RDMA_CM_EVENT_ADDR_CHANGE, 0, false, 0, 0 },
	{ "address change, relisten queued: the new reference goes back",
	  RDMA_CM_EVENT_ADDR_CHANGE, 2, true, 1, 1 },
	{ "address change while the work is queued and the rest gone",
	  RDMA_CM_EVENT_ADDR_CHANGE, 1, true, 1, 0 },
	{ "another event after the last put: nothing",
	  RDMA_CM_EVENT_ADDR_ERROR, 0, false, 0, 0 },
};

static void slt_desc(const struct slt_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(slt, slt_vecs, slt_desc);

static int slt_init(struct kunit *test)
{
	struct slt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	INIT_DELAYED_WORK(&t->sx.relisten_work, slt_worker);
	test->priv = t;
	return 0;
}

static void slt_exit(struct kunit *test)
{
	struct slt *t = test->priv;

	cancel_delayed_work_sync(&t->sx.relisten_work);
}

static void server_listen_event_case(struct kunit *test)
{
	const struct slt_vec *v = test->param_value;
	struct slt *t = test->priv;
	struct rdma_cm_event ev = { .event = v->event };
	struct rdma_cm_id *id;

	id = kunit_kzalloc(test, sizeof(*id), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, id);
	id->context = &t->sx;
	refcount_set(&t->sx.xprt.xpt_ref.refcount, v->refs);
	/* A relisten queued by an earlier event, still waiting. */
	if (v->pending)
		KUNIT_ASSERT_TRUE(test, queue_delayed_work(system_long_wq,
							   &t->sx.relisten_work,
							   60 * HZ));

	KUNIT_EXPECT_EQ(test, srdma_cm_listen_handler(id, &ev), 0);
	/* Run what is queued now, and wait for it. */
	flush_delayed_work(&t->sx.relisten_work);

	KUNIT_EXPECT_EQ(test, t->runs, v->runs);
	KUNIT_EXPECT_EQ(test, kref_read(&t->sx.xprt.xpt_ref), v->refs_after);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&t->sx.relisten_work));
	/* Only the last reference of a listener in use going frees it. */
	KUNIT_EXPECT_EQ(test, t->frees, v->refs && !v->refs_after ? 1U : 0U);
}

static struct kunit_case rpcrdma_server_listen_cases[] = {
	KUNIT_CASE_PARAM(server_listen_event_case, slt_gen_params),
	{}
};

static struct kunit_suite rpcrdma_server_listen_suite = {
	.name		= "rpcrdma_server_listen",
	.init		= slt_init,
	.exit		= slt_exit,
	.test_cases	= rpcrdma_server_listen_cases,
};

kunit_test_suites(&rpcrdma_server_listen_suite);
