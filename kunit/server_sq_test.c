// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a server reply waiting for Send Queue room (svcrdma/rw.c).
 *
 * The wait must end: when room comes back, when the connection closes,
 * or, if the Send Queue retires nothing for the connection's stall
 * timeout, by closing the connection (a client that stops posting
 * Receives must not pin nfsd threads).  A queue that retires entries
 * slowly is not stalled.  A sender that waited must queue the transport
 * again, since Calls were held back while it waited.
 *
 * These run on a bare struct srdma_xprt: a delayed work plays the
 * Send completions, and static stubs stand in for the two calls that
 * need the sunrpc server (closing and queueing the transport).
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/workqueue.h>

#include "../svcrdma/server.h"

/* The stall timeout of these tests, instead of the sq_stall_timeout sysctl. */
#define SQT_STALL_MS	300

/**
 * struct sqt - one test's connection and what the stubs and work saw
 * @sx: the bare connection
 * @work: releases @release entries @repeat times, @interval_ms apart
 * @release: entries returned each time
 * @repeat: times left
 * @interval_ms: between two releases
 * @close: set XPT_CLOSE and wake the waiters instead of releasing
 * @closes: srdma_close() calls
 * @requeues: srdma_requeue() calls
 */
struct sqt {
	struct srdma_xprt *sx;
	struct delayed_work work;
	unsigned int release;
	unsigned int repeat;
	unsigned int interval_ms;
	bool close;
	unsigned int closes;
	unsigned int requeues;
};

static void sqt_fake_close(struct srdma_xprt *sx, const char *why)
{
	struct sqt *t = kunit_get_current_test()->priv;

	t->closes++;
	set_bit(XPT_CLOSE, &sx->xprt.xpt_flags);
}

static void sqt_fake_requeue(struct srdma_xprt *sx)
{
	struct sqt *t = kunit_get_current_test()->priv;

	t->requeues++;
}

/* What the Send completion handler and srdma_detach() do. */
static void sqt_worker(struct work_struct *work)
{
	struct sqt *t = container_of(to_delayed_work(work), struct sqt, work);

	if (t->close) {
		set_bit(XPT_CLOSE, &t->sx->xprt.xpt_flags);
		wake_up_all(&t->sx->sq_wait);
		return;
	}
	srdma_sq_release(t->sx, t->release);
	if (--t->repeat)
		schedule_delayed_work(&t->work,
				      msecs_to_jiffies(t->interval_ms));
}

/* A connection whose Send Queue has @avail of @budget entries free. */
static int sqt_init(struct kunit *test)
{
	struct sqt *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->sx = kunit_kzalloc(test, sizeof(*t->sx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->sx);
	init_waitqueue_head(&t->sx->sq_wait);
	t->sx->sq_budget = 16;
	t->sx->sq_stall_timeout = msecs_to_jiffies(SQT_STALL_MS);
	t->sx->sq_progress = jiffies;
	INIT_DELAYED_WORK(&t->work, sqt_worker);
	test->priv = t;
	kunit_activate_static_stub(test, srdma_close, sqt_fake_close);
	kunit_activate_static_stub(test, srdma_requeue, sqt_fake_requeue);
	return 0;
}

static void sqt_exit(struct kunit *test)
{
	struct sqt *t = test->priv;

	cancel_delayed_work_sync(&t->work);
}

/* Start the work: @repeat releases of @release, the first after @ms. */
static void sqt_start(struct sqt *t, unsigned int release,
		      unsigned int repeat, unsigned int ms)
{
	t->release = release;
	t->repeat = repeat;
	t->interval_ms = ms;
	schedule_delayed_work(&t->work, msecs_to_jiffies(ms));
}

static int sqt_reserve(struct sqt *t, unsigned int n)
{
	const struct rpcrdma_cid cid = {};

	return srdma_sq_reserve(t->sx, n, &cid);
}

/* Room is there: no wait, and nothing to queue again. */
static void sq_room_case(struct kunit *test)
{
	struct sqt *t = test->priv;

	atomic_set(&t->sx->sq_avail, 4);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 4), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->sx->sq_avail), 0);
	KUNIT_EXPECT_EQ(test, t->requeues, 0U);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);
}

/* More than the budget can never fit. */
static void sq_too_big_case(struct kunit *test)
{
	struct sqt *t = test->priv;

	atomic_set(&t->sx->sq_avail, 16);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 17), -E2BIG);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->sx->sq_avail), 16);
}

/*
 * Room comes back: the reservation succeeds, and the transport is
 * queued again (a backchannel sender would otherwise leave the Calls
 * received meanwhile to wait for the next completion).
 */
static void sq_wait_requeue_case(struct kunit *test)
{
	struct sqt *t = test->priv;

	sqt_start(t, 4, 1, SQT_STALL_MS / 4);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 4), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->sx->sq_avail), 0);
	KUNIT_EXPECT_EQ(test, t->requeues, 1U);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);
}

/*
 * Nothing is retired: after the stall timeout the connection is closed
 * and the reservation fails, leaving the count as it was.
 */
static void sq_stall_closes_case(struct kunit *test)
{
	struct sqt *t = test->priv;
	unsigned long start = jiffies;

	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 4), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, t->closes, 1U);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->sx->sq_avail), 0);
	KUNIT_EXPECT_GE(test, jiffies_to_msecs(jiffies - start),
			SQT_STALL_MS - jiffies_to_msecs(1));
}

/*
 * A queue that retires one entry at a time, each well within the stall
 * timeout, makes progress: the reply waits longer than the timeout in
 * all and gets its room.
 */
static void sq_slow_progress_case(struct kunit *test)
{
	struct sqt *t = test->priv;
	unsigned long start = jiffies;

	sqt_start(t, 1, 8, SQT_STALL_MS / 6);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 8), 0);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);
	KUNIT_EXPECT_EQ(test, t->requeues, 1U);
	KUNIT_EXPECT_GT(test, jiffies_to_msecs(jiffies - start), SQT_STALL_MS);
}

/* A queue idle since long before the wait is not stalled at once. */
static void sq_idle_before_case(struct kunit *test)
{
	struct sqt *t = test->priv;

	t->sx->sq_progress = jiffies - 100 * t->sx->sq_stall_timeout;
	sqt_start(t, 2, 1, SQT_STALL_MS / 2);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 2), 0);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);
}

/* The connection closes (srdma_detach(), srdma_close()): waiters give up. */
static void sq_close_wakes_case(struct kunit *test)
{
	struct sqt *t = test->priv;

	t->close = true;
	sqt_start(t, 0, 1, SQT_STALL_MS / 4);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 4), -ENOTCONN);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->sx->sq_avail), 0);
}

static struct kunit_case rpcrdma_server_sq_cases[] = {
	KUNIT_CASE(sq_room_case),
	KUNIT_CASE(sq_too_big_case),
	KUNIT_CASE(sq_wait_requeue_case),
	KUNIT_CASE(sq_stall_closes_case),
	KUNIT_CASE(sq_slow_progress_case),
	KUNIT_CASE(sq_idle_before_case),
	KUNIT_CASE(sq_close_wakes_case),
	{}
};

static struct kunit_suite rpcrdma_server_sq_suite = {
	.name		= "rpcrdma_server_sq",
	.init		= sqt_init,
	.exit		= sqt_exit,
	.test_cases	= rpcrdma_server_sq_cases,
};

kunit_test_suites(&rpcrdma_server_sq_suite);
