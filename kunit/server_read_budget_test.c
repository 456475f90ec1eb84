// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what RDMA Reads of Read chunks may pin, and for how long
 * (svcrdma/read_budget.c).
 *
 * The decisions are checked on vectors: whether a Call's Reads may
 * start given the pages in flight on its connection and on the server
 * (srdma_read_admit()), a connection's limit (srdma_read_conn_limit())
 * and how long the oldest Read may still go unanswered
 * (srdma_read_time_left()).  Then the accounting, on bare connections
 * through the paths a Call takes: its pages are counted as its Reads
 * start (srdma_read_charge()); a Call they do not fit is held
 * (srdma_read_hold()) and not offered again (srdma_next_recv()) until a
 * Read completes (srdma_read_done()), of its connection for the
 * connection's limit, of any connection for read_budget; Reads whose
 * completion never came, or that were posted only in part, give their
 * pages back at teardown.  Last, the watch: a connection whose oldest
 * Read went read_timeout unanswered is closed, one whose Reads are young
 * is not, and the watch, which queues itself again, is gone once
 * srdma_read_budget_exit() returns.
 *
 * Static stubs stand in for srdma_close() and srdma_requeue(), which
 * need the sunrpc server; XPT_BUSY, set on each bare transport, keeps
 * svc_xprt_enqueue() from queueing it.
 */
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/slab.h>

#include "../svcrdma/server.h"

/* A 1 MiB WRITE's data item, and the limit nfsd's connections get. */
#define RBT_CALL	256U
#define RBT_MAX_MESG	(1024 * 1024 + 4096)
#define RBT_LIMIT	514U

/*
 * srdma_read_admit() vectors.  RBA(n, c, cl, s, sl): a Call of n pages,
 * c of cl in flight on its connection, s of sl on the server.
 */
struct rba_vec {
	const char *name;
	unsigned int npages, conn, conn_limit;
	unsigned long server, server_limit;
	enum srdma_read_verdict want;
};

#define RBA(n, c, cl, s, sl)	.npages = (n), .conn = (c), \
				.conn_limit = (cl), .server = (s), \
				.server_limit = (sl)

static const struct rba_vec rba_vecs[] = {
	{ "nothing in flight", RBA(256, 0, 514, 0, 16384),
	  .want = SRDMA_READ_GO },
	{ "second 1 MiB Call fits the connection",
	  RBA(256, 256, 514, 256, 16384), .want = SRDMA_READ_GO },
	{ "exactly at the connection's limit",
	  RBA(2, 512, 514, 512, 16384), .want = SRDMA_READ_GO },
	{ "third 1 MiB Call waits for the connection",
	  RBA(256, 512, 514, 512, 16384), .want = SRDMA_READ_CONN_FULL },
	{ "one page past the connection's limit",
	  RBA(3, 512, 514, 512, 16384), .want = SRDMA_READ_CONN_FULL },
	{ "limit lowered under Reads in flight",
	  RBA(1, 600, 514, 600, 16384), .want = SRDMA_READ_CONN_FULL },
	{ "a Call larger than the limit goes alone",
	  RBA(600, 0, 514, 0, 16384), .want = SRDMA_READ_GO },
	{ "a Call larger than the budget goes alone",
	  RBA(600, 0, 514, 0, 512), .want = SRDMA_READ_GO },
	{ "idle connection, server budget spent",
	  RBA(256, 0, 514, 16200, 16384), .want = SRDMA_READ_SERVER_FULL },
	{ "idle connection, budget exactly filled",
	  RBA(184, 0, 514, 16200, 16384), .want = SRDMA_READ_GO },
	{ "both full: the connection's limit first",
	  RBA(256, 512, 514, 16384, 16384), .want = SRDMA_READ_CONN_FULL },
	{ "a Call with no pages goes, however full",
	  RBA(0, 600, 514, 20000, 16384), .want = SRDMA_READ_GO },
	{ "budget 0: one Call at a time, server-wide",
	  RBA(1, 0, 514, 1, 0), .want = SRDMA_READ_SERVER_FULL },
	{ "no overflow near the top of the counter",
	  RBA(2, 0, 514, ULONG_MAX - 1, ULONG_MAX),
	  .want = SRDMA_READ_SERVER_FULL },
};

static void rba_desc(const struct rba_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rba, rba_vecs, rba_desc);

static void read_admit_case(struct kunit *test)
{
	const struct rba_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, srdma_read_admit(v->npages, v->conn,
					       v->conn_limit, v->server,
					       v->server_limit),
			v->want);
}

/* srdma_read_conn_limit() vectors. */
struct rbl_vec {
	const char *name;
	unsigned int ord, read_sges, max_mesg;
	unsigned int want;
};

static const struct rbl_vec rbl_vecs[] = {
	{ "rxe, default ORD 16: two 1 MiB Calls", 16, 16, RBT_MAX_MESG, 514 },
	{ "ORD 1 (one Read on the wire)", 1, 16, RBT_MAX_MESG, 514 },
	{ "ORD 64: twice what the wire holds", 64, 16, RBT_MAX_MESG, 2048 },
	{ "siw, one page per Read", 16, 1, RBT_MAX_MESG, 514 },
	{ "no ORD reported counts as 1", 0, 0, RBT_MAX_MESG, 514 },
	{ "small service, deep ORD", 32, 30, 65536 + 4096, 1920 },
	{ "small service, ORD 1", 1, 16, 65536 + 4096, 34 },
};

static void rbl_desc(const struct rbl_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rbl, rbl_vecs, rbl_desc);

static void read_conn_limit_case(struct kunit *test)
{
	const struct rbl_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, srdma_read_conn_limit(v->ord, v->read_sges,
						    v->max_mesg),
			v->want);
}

/* srdma_read_time_left() vectors; RBT_AT(x): x jiffies after the post. */
#define RBT_BOUND	1000UL
#define RBT_START	(-300UL)	/* the jiffies counter wraps meanwhile */
#define RBT_AT(x)	(RBT_START + (x))

struct rbw_vec {
	const char *name;
	unsigned long since, now;
	unsigned long want;
};

static const struct rbw_vec rbw_vecs[] = {
	{ "just posted", RBT_AT(0), RBT_AT(0), RBT_BOUND },
	{ "half the bound", RBT_AT(0), RBT_AT(500), 500 },
	{ "a tick short of the bound", RBT_AT(0), RBT_AT(RBT_BOUND - 1), 1 },
	{ "the bound: overdue", RBT_AT(0), RBT_AT(RBT_BOUND), 0 },
	{ "long past the bound", RBT_AT(0), RBT_AT(40 * RBT_BOUND), 0 },
	{ "posted after now was read", RBT_AT(5), RBT_AT(0), RBT_BOUND },
};

static void rbw_desc(const struct rbw_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rbw, rbw_vecs, rbw_desc);

static void read_time_left_case(struct kunit *test)
{
	const struct rbw_vec *v = test->param_value;
	unsigned long left = srdma_read_time_left(v->since, v->now, RBT_BOUND);

	KUNIT_EXPECT_EQ(test, left, v->want);
}

/*
 * The accounting on bare connections.  struct rbt: the test's
 * connections and what the stubs saw.
 */
#define RBT_CONNS	2

struct rbt {
	struct srdma_xprt *sx[RBT_CONNS];
	unsigned int requeues[RBT_CONNS];
	unsigned int closes[RBT_CONNS];
	unsigned int budget;		/* srdma_read_budget to restore */
	unsigned long base;		/* server-wide pages before the test */
};

static int rbt_index(struct rbt *t, struct srdma_xprt *sx)
{
	int i;

	for (i = 0; i < RBT_CONNS; i++)
		if (t->sx[i] == sx)
			return i;
	return 0;
}

static void rbt_fake_requeue(struct srdma_xprt *sx)
{
	struct rbt *t = kunit_get_current_test()->priv;

	t->requeues[rbt_index(t, sx)]++;
}

static void rbt_fake_close(struct srdma_xprt *sx, const char *why)
{
	struct rbt *t = kunit_get_current_test()->priv;

	t->closes[rbt_index(t, sx)]++;
}

static struct srdma_xprt *rbt_conn(struct kunit *test)
{
	struct srdma_xprt *sx = kunit_kzalloc(test, sizeof(*sx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sx);
	spin_lock_init(&sx->rx_lock);
	INIT_LIST_HEAD(&sx->rx_ready);
	INIT_LIST_HEAD(&sx->rx_reading);
	INIT_LIST_HEAD(&sx->rx_read_done);
	INIT_LIST_HEAD(&sx->recv_free);
	spin_lock_init(&sx->send_lock);
	INIT_LIST_HEAD(&sx->read_orphans);
	spin_lock_init(&sx->rw_lock);
	INIT_LIST_HEAD(&sx->rw_free);
	init_waitqueue_head(&sx->sq_wait);
	spin_lock_init(&sx->conn.why_lock);
	sx->conn.why_armed = true;
	srdma_read_budget_init(sx);
	/* svc_xprt_enqueue() leaves a busy transport alone. */
	set_bit(XPT_BUSY, &sx->xprt.xpt_flags);
	sx->read_limit = RBT_LIMIT;
	sx->read_timeout = HZ;
	return sx;
}

static int rbt_init(struct kunit *test)
{
	struct rbt *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < RBT_CONNS; i++)
		t->sx[i] = rbt_conn(test);
	t->budget = srdma_read_budget;
	t->base = srdma_read_pages_in_flight();
	srdma_read_budget = t->base + 16384;
	test->priv = t;
	kunit_activate_static_stub(test, srdma_requeue, rbt_fake_requeue);
	kunit_activate_static_stub(test, srdma_close, rbt_fake_close);
	return 0;
}

/* Whatever a case left counted or listed goes. */
static void rbt_exit(struct kunit *test)
{
	struct rbt *t = test->priv;
	unsigned int i;

	for (i = 0; i < RBT_CONNS; i++) {
		srdma_read_budget_exit(t->sx[i]);
		srdma_read_uncharge(t->sx[i], atomic_read(&t->sx[i]->read_pages));
	}
	srdma_read_budget = t->budget;
}

/* Pages the test's connections hold, server-wide. */
static unsigned long rbt_server_pages(struct rbt *t)
{
	return srdma_read_pages_in_flight() - t->base;
}

/* A Receive of @sx, not on any list, and its Read state. */
static struct srdma_recv *rbt_recv(struct kunit *test, struct srdma_xprt *sx)
{
	struct srdma_recv *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rc->sx = sx;
	INIT_LIST_HEAD(&rc->node);
	return rc;
}

/*
 * Reads of @npages pages for @rc, counted and listed on rx_reading as
 * srdma_read_start() and srdma_read_post() leave them.  The state stays
 * the Receive's, in flight or as its spare, until rbt_free_read().
 */
static struct srdma_read *rbt_post(struct kunit *test, struct srdma_recv *rc,
				   unsigned int npages)
{
	struct srdma_xprt *sx = rc->sx;
	struct srdma_read *rd;

	KUNIT_ASSERT_EQ(test, srdma_read_charge(sx, npages), SRDMA_READ_GO);
	rd = kzalloc(struct_size(rd, pages, 1), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rd);
	rd->max_pages = 1;
	rd->rc = rc;
	INIT_LIST_HEAD(&rd->rws);
	srdma_rw_init_embedded(&rd->rw);
	rd->charged = npages;
	rd->since = jiffies;
	rc->read = rd;
	spin_lock(&sx->rx_lock);
	list_add_tail(&rc->node, &sx->rx_reading);
	spin_unlock(&sx->rx_lock);
	return rd;
}

/* The completion of @rd's last Read, with @status. */
static void rbt_complete(struct srdma_read *rd, enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_cqe = &rd->cqe,
		.status = status,
	};

	srdma_read_done(NULL, &wc);
}

/* Free the Read state @rc holds, in flight or kept as its spare. */
static void rbt_free_read(struct srdma_recv *rc)
{
	kfree(rc->read);
	kfree(rc->read_spare);
	rc->read = NULL;
	rc->read_spare = NULL;
}

/*
 * A connection's third 1 MiB Call waits for its first two: it is held,
 * not offered again while no Read completed, and comes back (before new
 * Calls, after the finished one) once a Read completes and gives its
 * pages back, and then fits.  Without the count the third Call's Reads
 * would go at once, and 768 pages be pinned for a client that may never
 * answer.
 */
static void read_conn_limit_hold_case(struct kunit *test)
{
	struct rbt *t = test->priv;
	struct srdma_xprt *sx = t->sx[0];
	struct srdma_recv *rc[4], *next;
	struct srdma_read *rd0;
	unsigned int i;
	bool held;

	for (i = 0; i < 4; i++)
		rc[i] = rbt_recv(test, sx);
	rd0 = rbt_post(test, rc[0], RBT_CALL);
	rbt_post(test, rc[1], RBT_CALL);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), 2 * RBT_CALL);
	KUNIT_EXPECT_EQ(test, rbt_server_pages(t), 2UL * RBT_CALL);

	KUNIT_ASSERT_EQ(test, srdma_read_charge(sx, RBT_CALL),
			SRDMA_READ_CONN_FULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), 2 * RBT_CALL);
	KUNIT_EXPECT_EQ(test, rbt_server_pages(t), 2UL * RBT_CALL);
	srdma_read_hold(sx, rc[2], RBT_CALL, SRDMA_READ_CONN_FULL, false);
	/* A later Call goes behind it, untried. */
	srdma_read_hold(sx, rc[3], 0, SRDMA_READ_QUEUED, false);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&sx->rx_read_wait), 2U);
	KUNIT_EXPECT_EQ(test, t->requeues[0], 0U);
	KUNIT_EXPECT_NULL(test, srdma_next_recv(sx, &held));
	KUNIT_EXPECT_FALSE(test, test_bit(XPT_DATA, &sx->xprt.xpt_flags));

	rbt_complete(rd0, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), RBT_CALL);
	KUNIT_EXPECT_EQ(test, rbt_server_pages(t), (unsigned long)RBT_CALL);
	KUNIT_EXPECT_EQ(test, rd0->charged, 0U);
	KUNIT_EXPECT_TRUE(test, test_bit(XPT_DATA, &sx->xprt.xpt_flags));

	next = srdma_next_recv(sx, &held);
	KUNIT_EXPECT_PTR_EQ(test, next, rc[0]);
	KUNIT_EXPECT_FALSE(test, held);
	next = srdma_next_recv(sx, &held);
	KUNIT_EXPECT_PTR_EQ(test, next, rc[2]);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_EQ(test, srdma_read_charge(sx, RBT_CALL), SRDMA_READ_GO);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), 2 * RBT_CALL);
	/* The fourth is next, and finds the connection full again. */
	next = srdma_next_recv(sx, &held);
	KUNIT_EXPECT_PTR_EQ(test, next, rc[3]);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_EQ(test, srdma_read_charge(sx, RBT_CALL),
			SRDMA_READ_CONN_FULL);
	srdma_read_hold(sx, rc[3], RBT_CALL, SRDMA_READ_CONN_FULL, true);
	KUNIT_EXPECT_NULL(test, srdma_next_recv(sx, &held));
	KUNIT_EXPECT_EQ(test, t->requeues[0], 0U);
	rbt_free_read(rc[0]);
	rbt_free_read(rc[1]);
}

/*
 * Pages that came back between a refusal and the hold woke nobody: the
 * hold looks again and has the Call tried at once.
 */
static void read_hold_recheck_case(struct kunit *test)
{
	struct rbt *t = test->priv;
	struct srdma_xprt *sx = t->sx[0];
	struct srdma_recv *rc = rbt_recv(test, sx);
	bool held;

	srdma_read_hold(sx, rc, RBT_CALL, SRDMA_READ_CONN_FULL, false);
	KUNIT_EXPECT_EQ(test, t->requeues[0], 1U);
	KUNIT_EXPECT_TRUE(test, sx->read_retry);
	KUNIT_EXPECT_TRUE(test, test_bit(XPT_DATA, &sx->xprt.xpt_flags));
	KUNIT_EXPECT_PTR_EQ(test, srdma_next_recv(sx, &held), rc);
	KUNIT_EXPECT_TRUE(test, held);
}

/*
 * read_budget is shared: a connection with nothing in flight waits for
 * Reads of another to complete, is kicked when they do, and leaves the
 * waiting list then; a connection torn down while waiting is kicked by
 * nobody.
 */
static void read_server_budget_case(struct kunit *test)
{
	struct rbt *t = test->priv;
	struct srdma_xprt *a = t->sx[0], *b = t->sx[1];
	struct srdma_recv *ra = rbt_recv(test, a), *rb = rbt_recv(test, b);
	struct srdma_read *rd;
	bool held;

	srdma_read_budget = t->base + 2 * RBT_CALL;
	rd = rbt_post(test, ra, 2 * RBT_CALL - 10);
	KUNIT_ASSERT_EQ(test, srdma_read_charge(b, RBT_CALL),
			SRDMA_READ_SERVER_FULL);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->read_pages), 0);
	srdma_read_hold(b, rb, RBT_CALL, SRDMA_READ_SERVER_FULL, false);
	KUNIT_EXPECT_FALSE(test, list_empty(&b->read_waiter));
	KUNIT_EXPECT_EQ(test, t->requeues[1], 0U);
	KUNIT_EXPECT_NULL(test, srdma_next_recv(b, &held));

	rbt_complete(rd, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, rbt_server_pages(t), 0UL);
	KUNIT_EXPECT_EQ(test, t->requeues[1], 1U);
	KUNIT_EXPECT_TRUE(test, list_empty(&b->read_waiter));
	KUNIT_EXPECT_PTR_EQ(test, srdma_next_recv(b, &held), rb);
	KUNIT_EXPECT_TRUE(test, held);
	KUNIT_EXPECT_EQ(test, srdma_read_charge(b, RBT_CALL), SRDMA_READ_GO);
	srdma_read_uncharge(b, RBT_CALL);
	rbt_free_read(ra);

	/* Torn down while waiting: out of the list, never kicked. */
	ra = rbt_recv(test, a);
	rb = rbt_recv(test, b);
	rd = rbt_post(test, ra, 2 * RBT_CALL);
	KUNIT_ASSERT_EQ(test, srdma_read_charge(b, 1), SRDMA_READ_SERVER_FULL);
	srdma_read_hold(b, rb, 1, SRDMA_READ_SERVER_FULL, false);
	srdma_read_budget_exit(b);
	KUNIT_EXPECT_TRUE(test, list_empty(&b->read_waiter));
	rbt_complete(rd, IB_WC_WR_FLUSH_ERR);
	KUNIT_EXPECT_EQ(test, t->requeues[1], 1U);
	KUNIT_EXPECT_EQ(test, rbt_server_pages(t), 0UL);
	rbt_free_read(ra);
}

/*
 * Reads whose completion never came (released after the drain) and
 * Reads posted only in part (orphans) give their pages back when their
 * state is released, once: a late completion gives nothing more.
 */
static void read_teardown_case(struct kunit *test)
{
	struct rbt *t = test->priv;
	struct srdma_xprt *sx = t->sx[0];
	struct srdma_recv *lost = rbt_recv(test, sx);
	struct srdma_recv *orphan = rbt_recv(test, sx);
	struct srdma_read *rd, *od;

	rd = rbt_post(test, lost, RBT_CALL);
	od = rbt_post(test, orphan, 100);
	spin_lock(&sx->rx_lock);
	list_del_init(&orphan->node);
	spin_unlock(&sx->rx_lock);
	orphan->read = NULL;
	srdma_read_orphan(sx, od);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), RBT_CALL + 100);

	srdma_read_release_orphans(sx);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), RBT_CALL);
	srdma_recv_release_reads(sx);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->read_pages), 0);
	KUNIT_EXPECT_EQ(test, rbt_server_pages(t), 0UL);
	KUNIT_EXPECT_NULL(test, lost->read);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&sx->recv_free), 1U);
	/* The state is the Receive's spare now, with nothing counted. */
	KUNIT_ASSERT_PTR_EQ(test, lost->read_spare, rd);
	KUNIT_EXPECT_EQ(test, rd->charged, 0U);
	rbt_free_read(lost);
}

/*
 * The oldest Read went read_timeout unanswered: the connection closes,
 * and the watch stops.  Young Reads: the next look is when the oldest
 * would be overdue.  None: the watch stops, and the next post starts it.
 */
static void read_watch_case(struct kunit *test)
{
	struct rbt *t = test->priv;
	struct srdma_xprt *sx = t->sx[0];
	struct srdma_recv *old = rbt_recv(test, sx);
	struct srdma_recv *young = rbt_recv(test, sx);
	struct srdma_read *rd;
	unsigned long now = jiffies;

	sx->read_watching = true;
	KUNIT_EXPECT_EQ(test, srdma_read_watch_check(sx, now), 0UL);
	KUNIT_EXPECT_FALSE(test, sx->read_watching);

	sx->read_watching = true;
	rd = rbt_post(test, old, RBT_CALL);
	rd->since = now - HZ / 4;
	rbt_post(test, young, RBT_CALL)->since = now;
	KUNIT_EXPECT_EQ(test, srdma_read_watch_check(sx, now),
			(unsigned long)(HZ - HZ / 4));
	KUNIT_EXPECT_EQ(test, t->closes[0], 0U);

	KUNIT_EXPECT_EQ(test, srdma_read_watch_check(sx, now + HZ - HZ / 4),
			0UL);
	KUNIT_EXPECT_EQ(test, t->closes[0], 1U);
	KUNIT_EXPECT_TRUE(test, sx->read_watching);
	/* Left to the drain, as a closing connection's Reads are. */
	srdma_recv_release_reads(sx);
	rbt_free_read(old);
	rbt_free_read(young);
}

/*
 * The watch as a delayed work: it closes a connection whose Read is
 * overdue (the stub does not reach a work item: XPT_CLOSE makes the
 * real srdma_close() only note its reason), and, queueing itself again
 * while the Reads are young, it is gone once srdma_read_budget_exit()
 * returns.
 */
static void read_watch_work_case(struct kunit *test)
{
	struct rbt *t = test->priv;
	struct srdma_xprt *sx = t->sx[0];
	struct srdma_recv *rc = rbt_recv(test, sx);
	struct srdma_read *rd;

	set_bit(XPT_CLOSE, &sx->xprt.xpt_flags);
	sx->read_timeout = msecs_to_jiffies(20);
	rd = rbt_post(test, rc, RBT_CALL);
	/* Posted "later" than any look: never overdue, looked at again. */
	rd->since = jiffies + 3600 * HZ;
	sx->read_watching = true;
	srdma_read_watch_start(sx);
	msleep(200);
	KUNIT_EXPECT_NULL(test, sx->conn.why_text);
	srdma_read_budget_exit(sx);
	KUNIT_EXPECT_FALSE(test, delayed_work_pending(&sx->read_watch.work));
	msleep(100);
	KUNIT_EXPECT_NULL(test, sx->conn.why_text);

	/* Overdue: closed by the work. */
	rd->since = jiffies - HZ;
	srdma_read_watch_start(sx);
	msleep(200);
	KUNIT_EXPECT_STREQ(test, sx->conn.why_text ?: "",
			   "RDMA Reads not answered");
	srdma_read_budget_exit(sx);
	srdma_recv_release_reads(sx);
	rbt_free_read(rc);
}

static struct kunit_case rpcrdma_server_read_budget_cases[] = {
	KUNIT_CASE_PARAM(read_admit_case, rba_gen_params),
	KUNIT_CASE_PARAM(read_conn_limit_case, rbl_gen_params),
	KUNIT_CASE_PARAM(read_time_left_case, rbw_gen_params),
	KUNIT_CASE(read_conn_limit_hold_case),
	KUNIT_CASE(read_hold_recheck_case),
	KUNIT_CASE(read_server_budget_case),
	KUNIT_CASE(read_teardown_case),
	KUNIT_CASE(read_watch_case),
	KUNIT_CASE(read_watch_work_case),
	{}
};

static struct kunit_suite rpcrdma_server_read_budget_suite = {
	.name		= "rpcrdma_server_read_budget",
	.init		= rbt_init,
	.exit		= rbt_exit,
	.test_cases	= rpcrdma_server_read_budget_cases,
};

kunit_test_suites(&rpcrdma_server_read_budget_suite);
