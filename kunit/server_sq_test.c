// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a server reply waiting for Send Queue room (svcrdma/rw.c).
 *
 * The wait must end: when room comes back, when the connection closes,
 * or, once the reply has waited the connection's stall timeout in all,
 * by closing the connection (a client that stops posting Receives must
 * not pin nfsd threads, nor one that posts a few now and then).  Entries
 * retired during the wait do not restart the timeout; a queue idle
 * before the wait does not shorten it.  A sender that waited must queue
 * the transport again, since Calls were held back while it waited.
 * srdma_sq_wait_verdict() makes the decision, and is checked apart on
 * vectors of times.
 *
 * The Send watch (svcrdma/send_watch.c) closes a connection whose oldest
 * signaled Send went its send_timeout without completing while the
 * queue retired nothing, with no thread waiting: the Send Queue may hold
 * a whole grant of stuck replies.  Unsignaled Sends, which an idle
 * connection leaves on the FIFO, do not keep it watching.
 * srdma_send_watch_left() is checked apart on vectors of times.
 *
 * These run on a bare struct srdma_xprt: a delayed work plays the
 * Send completions, and static stubs stand in for the two calls that
 * need the sunrpc server (closing and queueing the transport).
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/delay.h>
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
	t->sx->send_timeout = msecs_to_jiffies(SQT_STALL_MS);
	t->sx->sq_progress = jiffies;
	spin_lock_init(&t->sx->conn.why_lock);
	t->sx->conn.why_armed = true;
	rpcrdma_sendq_init(&t->sx->sendq);
	t->sx->sendq.batch = 4;
	srdma_send_watch_init(t->sx);
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
	srdma_send_watch_exit(t->sx);
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
 * A client that lets one entry retire every two thirds of the timeout:
 * the queue never goes a whole timeout without retiring anything, but
 * the reply, which needs eight, would wait eight of those rounds.  The
 * timeout bounds the whole wait: the connection is closed once the
 * reply has waited that long, well before the eighth entry comes.
 */
static void sq_drip_closes_case(struct kunit *test)
{
	struct sqt *t = test->priv;
	unsigned int interval = 2 * SQT_STALL_MS / 3;
	unsigned long start = jiffies;
	unsigned int waited;

	sqt_start(t, 1, 8, interval);
	KUNIT_EXPECT_EQ(test, sqt_reserve(t, 8), -ENOTCONN);
	waited = jiffies_to_msecs(jiffies - start);
	KUNIT_EXPECT_EQ(test, t->closes, 1U);
	KUNIT_EXPECT_EQ(test, t->requeues, 0U);
	KUNIT_EXPECT_GE(test, waited, SQT_STALL_MS - jiffies_to_msecs(1));
	KUNIT_EXPECT_LT(test, waited, 8 * interval);
	/* The reply gave its entries back: what was retired is all there. */
	cancel_delayed_work_sync(&t->work);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->sx->sq_avail),
			(int)(8 - t->repeat));
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

/* The bound of these vectors, in jiffies; SQV_AT(x): x jiffies into a wait. */
#define SQV_BOUND	1000UL
#define SQV_START	(-300UL)	/* the jiffies counter wraps meanwhile */
#define SQV_AT(x)	(SQV_START + (x))

/**
 * struct sqv_vec - a wait's times and what srdma_sq_wait_verdict() says
 * @name: what it shows
 * @since: when the reply began to wait
 * @now: the time now
 * @last: when the Send Queue last retired an entry
 * @verdict: the verdict
 */
struct sqv_vec {
	const char *name;
	unsigned long since, now, last;
	enum srdma_sq_verdict verdict;
};

static const struct sqv_vec sqv_vecs[] = {
	{ "the wait begins",
	  SQV_AT(0), SQV_AT(0), SQV_AT(0), SRDMA_SQ_WAIT },
	{ "a tick short of the bound, nothing retired",
	  SQV_AT(0), SQV_AT(SQV_BOUND - 1), SQV_AT(-5), SRDMA_SQ_WAIT },
	{ "the bound, nothing retired since the wait began",
	  SQV_AT(0), SQV_AT(SQV_BOUND), SQV_AT(-5), SRDMA_SQ_STALLED },
	{ "long past the bound, nothing retired",
	  SQV_AT(0), SQV_AT(50 * SQV_BOUND), SQV_AT(-5), SRDMA_SQ_STALLED },
	{ "retired in the tick the wait began: nothing since",
	  SQV_AT(0), SQV_AT(SQV_BOUND), SQV_AT(0), SRDMA_SQ_STALLED },
	{ "idle long before the wait: the whole bound still",
	  SQV_AT(0), SQV_AT(SQV_BOUND / 2), SQV_AT(-100 * SQV_BOUND),
	  SRDMA_SQ_WAIT },
	{ "retiring, within the bound: wait on",
	  SQV_AT(0), SQV_AT(SQV_BOUND - 1), SQV_AT(SQV_BOUND - 2),
	  SRDMA_SQ_WAIT },
	{ "drip: one retired a tick ago, the wait at its bound",
	  SQV_AT(0), SQV_AT(SQV_BOUND), SQV_AT(SQV_BOUND - 1), SRDMA_SQ_SLOW },
	{ "drip: one every bound - 1 ticks, three rounds",
	  SQV_AT(0), SQV_AT(3 * (SQV_BOUND - 1)), SQV_AT(3 * (SQV_BOUND - 1)),
	  SRDMA_SQ_SLOW },
	{ "drip: one retired a tick after the wait began",
	  SQV_AT(0), SQV_AT(SQV_BOUND), SQV_AT(1), SRDMA_SQ_SLOW },
};

static void sqv_desc(const struct sqv_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sqv, sqv_vecs, sqv_desc);

/*
 * The verdict counts the whole wait: entries retired during it, however
 * recent, do not restart the bound (the drip vectors, which a bound on
 * the time between retirements would keep waiting).
 */
static void sq_verdict_case(struct kunit *test)
{
	const struct sqv_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, srdma_sq_wait_verdict(v->since, v->now, v->last,
						    SQV_BOUND),
			v->verdict);
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

/**
 * struct swl_vec - times and what srdma_send_watch_left() says
 * @name: what it shows
 * @posted: when the oldest Send whose completion is owed was posted
 * @progress: when the Send Queue last retired an entry
 * @now: the time now
 * @left: jiffies left
 */
struct swl_vec {
	const char *name;
	unsigned long posted, progress, now, left;
};

static const struct swl_vec swl_vecs[] = {
	{ "just posted, queue idle long before",
	  SQV_AT(0), SQV_AT(-100 * SQV_BOUND), SQV_AT(0), SQV_BOUND },
	{ "a tick short of the bound",
	  SQV_AT(0), SQV_AT(-5), SQV_AT(SQV_BOUND - 1), 1 },
	{ "the bound: stalled",
	  SQV_AT(0), SQV_AT(-5), SQV_AT(SQV_BOUND), 0 },
	{ "long past the bound: stalled",
	  SQV_AT(0), SQV_AT(-5), SQV_AT(50 * SQV_BOUND), 0 },
	{ "behind a queue that retires: counted from the last retirement",
	  SQV_AT(0), SQV_AT(SQV_BOUND - 1), SQV_AT(SQV_BOUND), SQV_BOUND - 1 },
	{ "retired in the tick it was posted: nothing since",
	  SQV_AT(0), SQV_AT(0), SQV_AT(SQV_BOUND), 0 },
	{ "nothing retired for a bound after the last retirement",
	  SQV_AT(0), SQV_AT(SQV_BOUND / 2), SQV_AT(SQV_BOUND + SQV_BOUND / 2),
	  0 },
};

static void swl_desc(const struct swl_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(swl, swl_vecs, swl_desc);

static void send_watch_left_case(struct kunit *test)
{
	const struct swl_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, srdma_send_watch_left(v->posted, v->progress,
						    v->now, SQV_BOUND),
			v->left);
}

/* Queue a Send on @sx's FIFO as srdma_post() does; true if signaled. */
static bool sqt_post(struct srdma_xprt *sx, struct rpcrdma_sendq_entry *e,
		     bool must)
{
	bool signal;

	spin_lock(&sx->sendq.lock);
	signal = rpcrdma_sendq_add(&sx->sendq, e, must);
	if (signal)
		sx->send_watching = true;
	spin_unlock(&sx->sendq.lock);
	return signal;
}

/*
 * The watch's look: an idle connection's unsignaled Sends stop it; a
 * young signaled Send has it look again when that Send would be
 * overdue; an overdue one closes the connection once, and the watch
 * stays marked so that no post starts it again; its completion stops it.
 */
static void send_watch_check_case(struct kunit *test)
{
	struct sqt *t = test->priv;
	struct srdma_xprt *sx = t->sx;
	struct rpcrdma_sendq_entry e[4] = {};
	unsigned long bound = sx->send_timeout;
	unsigned long now = jiffies;
	int i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_FALSE(test, sqt_post(sx, &e[i], false));
	sx->send_watching = true;
	KUNIT_EXPECT_EQ(test, srdma_send_watch_check(sx, now), 0UL);
	KUNIT_EXPECT_FALSE(test, sx->send_watching);

	KUNIT_ASSERT_TRUE(test, sqt_post(sx, &e[3], false));
	e[3].posted = now;
	sx->sq_progress = now - 10 * bound;
	KUNIT_EXPECT_EQ(test, srdma_send_watch_check(sx, now + bound / 4),
			bound - bound / 4);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);
	KUNIT_EXPECT_TRUE(test, sx->send_watching);

	/* The queue retired something since: counted from then. */
	sx->sq_progress = now + bound / 2;
	KUNIT_EXPECT_EQ(test, srdma_send_watch_check(sx, now + bound),
			bound / 2);
	KUNIT_EXPECT_EQ(test, t->closes, 0U);

	KUNIT_EXPECT_EQ(test, srdma_send_watch_check(sx, now + bound / 2 +
						     bound), 0UL);
	KUNIT_EXPECT_EQ(test, t->closes, 1U);
	KUNIT_EXPECT_TRUE(test, sx->send_watching);

	/* d's completion came: nothing is owed, the watch stops. */
	KUNIT_ASSERT_NOT_NULL(test, rpcrdma_sendq_retire(&sx->sendq, &e[3]));
	KUNIT_EXPECT_EQ(test, srdma_send_watch_check(sx, now + 100 * bound),
			0UL);
	KUNIT_EXPECT_EQ(test, t->closes, 1U);
	KUNIT_EXPECT_FALSE(test, sx->send_watching);
}

/*
 * The watch as a delayed work: it looks again while the owed Send is
 * young and is gone once srdma_send_watch_exit() returns; it closes the
 * connection once that Send is overdue (in a work item the stub is not
 * reached: XPT_CLOSE makes the real srdma_close() only note its reason).
 */
static void send_watch_work_case(struct kunit *test)
{
	struct sqt *t = test->priv;
	struct srdma_xprt *sx = t->sx;
	struct rpcrdma_sendq_entry e = {};

	set_bit(XPT_CLOSE, &sx->xprt.xpt_flags);
	sx->sendq.batch = 1;
	sx->send_timeout = msecs_to_jiffies(20);
	KUNIT_ASSERT_TRUE(test, sqt_post(sx, &e, false));
	/* Posted "later" than any look: never overdue, looked at again. */
	e.posted = jiffies + 3600 * HZ;
	srdma_send_watch_start(sx);
	msleep(200);
	KUNIT_EXPECT_NULL(test, sx->conn.why_text);
	srdma_send_watch_exit(sx);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&sx->send_watch.work));
	msleep(100);
	KUNIT_EXPECT_NULL(test, sx->conn.why_text);

	/* Overdue: closed by the work. */
	e.posted = jiffies - HZ;
	sx->sq_progress = e.posted;
	srdma_send_watch_start(sx);
	msleep(200);
	KUNIT_EXPECT_STREQ(test, sx->conn.why_text ?: "",
			   "Sends not completing");
}

static struct kunit_case rpcrdma_server_sq_cases[] = {
	KUNIT_CASE(sq_room_case),
	KUNIT_CASE(sq_too_big_case),
	KUNIT_CASE(sq_wait_requeue_case),
	KUNIT_CASE(sq_stall_closes_case),
	KUNIT_CASE(sq_drip_closes_case),
	KUNIT_CASE(sq_idle_before_case),
	KUNIT_CASE(sq_close_wakes_case),
	KUNIT_CASE_PARAM(sq_verdict_case, sqv_gen_params),
	KUNIT_CASE_PARAM(send_watch_left_case, swl_gen_params),
	KUNIT_CASE(send_watch_check_case),
	KUNIT_CASE(send_watch_work_case),
	{}
};

static struct kunit_suite rpcrdma_server_sq_suite = {
	.name		= "rpcrdma_server_sq",
	.init		= sqt_init,
	.exit		= sqt_exit,
	.test_cases	= rpcrdma_server_sq_cases,
};

kunit_test_suites(&rpcrdma_server_sq_suite);
