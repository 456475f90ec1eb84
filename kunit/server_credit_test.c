// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a server connection's grant (svcrdma/credits.c).
 *
 * Four things are checked.  srdma_grant_step()'s decisions, and
 * srdma_grant_quiet()'s (how far a connection that sent nothing for a
 * while falls), vector by vector.  The rule that lets a fallen grant's
 * Receives go (the next Calls' Receives are not reposted, and each reply
 * carries the grant of the moment it is posted), against a model of a
 * client that keeps to RFC 8166 section 3.3.1 (it never has more Calls
 * outstanding than the last reply it read granted): whatever the order
 * of Calls, replies, rises and falls, quiet falls to the floor among
 * them, even while an earlier fall's Receives are being given back or a
 * rise's are being posted, every credit the client believes it has is
 * backed by a posted Receive, and once the load stops changing every
 * fallen credit's Receive has been given back.  And the budget shared
 * per client: a client with many connections that took it all must give
 * way to a client with one, and a client whose connections went quiet
 * must give the budget back at once; and what the shares are keyed on:
 * a host's addresses within its key's prefix are one client.
 */
#include <kunit/test.h>
#include <linux/inet.h>
#include <linux/prandom.h>

#include "../svcrdma/server.h"

/* One srdma_grant_step() vector. */
struct gs_vec {
	const char *name;
	struct srdma_grant_view v;
	enum srdma_grant_step want;
};

#define GS(g, h) .grant = (g), .floor = 8, .max = 64, .batch = 8, .held = (h)

static const struct gs_vec gs_vecs[] = {
	{ "floor, a quarter held", { GS(8, 2) }, SRDMA_GRANT_KEEP },
	{ "floor, a third held", { GS(8, 3) }, SRDMA_GRANT_GROW },
	{ "at max, all held", { GS(64, 64) }, SRDMA_GRANT_KEEP },
	{ "near max, grows by what is left",
	  { GS(60, 30), .sharing = true, .peer_lent = 24,
	    .share = 28 }, SRDMA_GRANT_GROW },
	{ "a third held exactly stays", { GS(24, 8) }, SRDMA_GRANT_KEEP },
	{ "window ends, a sixth held at peak",
	  { GS(64, 1), .peak = 10, .window_end = true }, SRDMA_GRANT_IDLE },
	{ "window ends, more than a sixth at peak",
	  { GS(64, 1), .peak = 11, .window_end = true }, SRDMA_GRANT_KEEP },
	{ "window ends at the floor", { GS(8, 0), .window_end = true },
	  SRDMA_GRANT_KEEP },
	{ "idle, window not over", { GS(64, 0) }, SRDMA_GRANT_KEEP },
	{ "falling: no growth", { GS(32, 30), .falling = true },
	  SRDMA_GRANT_KEEP },
	{ "falling: no second fall",
	  { GS(32, 0), .window_end = true, .falling = true },
	  SRDMA_GRANT_KEEP },
	{ "falling, over its share",
	  { GS(32, 0), .falling = true, .sharing = true, .peer_lent = 40,
	    .share = 16 }, SRDMA_GRANT_KEEP },
	{ "sharing, client over its share, busy",
	  { GS(32, 30), .sharing = true, .peer_lent = 40, .share = 16 },
	  SRDMA_GRANT_OVER_SHARE },
	{ "sharing, client over its share, connection at floor",
	  { GS(8, 8), .sharing = true, .peer_lent = 40, .share = 16 },
	  SRDMA_GRANT_AT_SHARE },
	{ "sharing, growth reaches the share exactly",
	  { GS(16, 8), .sharing = true, .peer_lent = 8, .share = 16 },
	  SRDMA_GRANT_GROW },
	{ "sharing, growth passes the share",
	  { GS(16, 8), .sharing = true, .peer_lent = 9, .share = 16 },
	  SRDMA_GRANT_AT_SHARE },
	{ "not sharing, large client grows",
	  { GS(16, 8), .peer_lent = 900, .share = 16 }, SRDMA_GRANT_GROW },
};

static void gs_vec_desc(const struct gs_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gs, gs_vecs, gs_vec_desc);

static void grant_step_case(struct kunit *test)
{
	const struct gs_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, srdma_grant_step(&v->v), v->want);
}

/* One srdma_grant_quiet() vector: times in jiffies. */
struct gq_vec {
	const char *name;
	unsigned long last_call;
	unsigned long now;
	unsigned long quiet;
	unsigned int grant;
	unsigned int floor;
	unsigned int want;
};

#define GQ_T0	1000UL
#define GQ_Q	(5UL * HZ)

static const struct gq_vec gq_vecs[] = {
	{ "quiet for the period exactly: down to the floor",
	  GQ_T0, GQ_T0 + GQ_Q, GQ_Q, 64, 8, 56 },
	{ "a tick short of the period: stays",
	  GQ_T0, GQ_T0 + GQ_Q - 1, GQ_Q, 64, 8, 0 },
	{ "a Call just now: stays", GQ_T0, GQ_T0, GQ_Q, 64, 8, 0 },
	{ "a NULL a minute: quiet since the last one",
	  GQ_T0, GQ_T0 + 60 * HZ, GQ_Q, 64, 8, 56 },
	{ "a batch above the floor", GQ_T0, GQ_T0 + GQ_Q, GQ_Q, 16, 8, 8 },
	{ "at the floor", GQ_T0, GQ_T0 + 3600 * HZ, GQ_Q, 8, 8, 0 },
	{ "queues smaller than the floor, at their grant",
	  GQ_T0, GQ_T0 + 3600 * HZ, GQ_Q, 4, 4, 0 },
	{ "quiet falls turned off", GQ_T0, GQ_T0 + 3600 * HZ, 0, 64, 8, 0 },
	{ "a Call after the clock was read",
	  GQ_T0 + 1, GQ_T0, GQ_Q, 64, 8, 0 },
	{ "jiffies wrapped since the last Call",
	  ULONG_MAX - HZ, ULONG_MAX - HZ + GQ_Q, GQ_Q, 64, 8, 56 },
	{ "an hour's period, an hour quiet",
	  GQ_T0, GQ_T0 + 3600 * HZ, 3600 * HZ, 40, 8, 32 },
	{ "an hour's period, a minute quiet",
	  GQ_T0, GQ_T0 + 60 * HZ, 3600 * HZ, 40, 8, 0 },
};

static void gq_vec_desc(const struct gq_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(gq, gq_vecs, gq_vec_desc);

static void grant_quiet_case(struct kunit *test)
{
	const struct gq_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, srdma_grant_quiet(v->last_call, v->now,
						v->quiet, v->grant, v->floor),
			v->want);
}

/*
 * The model: a server whose Receives are reposted as each Call consumes
 * one, unless a fallen grant still has Receives to give back; nfsd
 * threads that encode replies in one order and post them in another; a
 * client that reads replies in the order they were posted.
 */
#define LM_MAX	256

struct lm {
	u32 grant;		/* the server's grant */
	u32 posted;		/* Receives posted */
	u32 giveback;		/* Receives of a fall still to give back */
	u32 fallen;		/* credits fallen, over the run */
	u32 given;		/* Receives given back, over the run */
	u32 held;		/* Calls received, no reply encoded */
	u32 encoded[LM_MAX];	/* replies encoded, not posted: grant read */
	u32 nr_encoded;
	u32 outstanding;	/* the client's Calls without a reply read */
	u32 client_grant;	/* what the last reply it read granted */
	u32 flight[LM_MAX];	/* replies posted, not yet read */
	u32 head, tail;
	u32 call_pct;		/* how busy the client is */
	u32 rising;		/* a rise whose Receives are posted, not yet
				 * added to the grant
				 */
	u32 rise_base;		/* the grant the rise was decided at */
	bool stamp_at_encode;	/* the broken server of lm_broken_case */
	bool rise_on_base;	/* a server that adds a rise to rise_base */
};

static void lm_init(struct lm *m, u32 grant, u32 call_pct)
{
	memset(m, 0, sizeof(*m));
	m->grant = grant;
	m->posted = grant;
	m->client_grant = grant;
	m->call_pct = call_pct;
}

/*
 * Every credit the client believes it has is backed by a Receive; the
 * grant and the Receives still to give back are backed too, and never
 * exceed the largest grant (64) between them.
 */
static bool lm_backed(const struct lm *m)
{
	if (m->posted < m->grant + m->giveback ||
	    m->grant + m->giveback + m->rising > 64)
		return false;
	return m->client_grant <= m->outstanding ||
	       m->posted >= m->client_grant - m->outstanding;
}

/* A Call arrives and consumes a Receive (srdma_recv_refill()). */
static void lm_call(struct lm *m)
{
	m->outstanding++;
	m->posted--;
	m->held++;
	if (m->giveback) {
		m->giveback--;
		m->given++;
	} else {
		m->posted++;
	}
}

static void lm_encode(struct lm *m)
{
	m->held--;
	m->encoded[m->nr_encoded++] = m->grant;
}

/* Encoded reply @i is posted (srdma_send_post()). */
static void lm_post(struct lm *m, u32 i)
{
	u32 grant = m->stamp_at_encode ? m->encoded[i] : m->grant;

	m->encoded[i] = m->encoded[--m->nr_encoded];
	m->flight[m->tail++ % LM_MAX] = grant;
}

static void lm_read(struct lm *m)
{
	m->outstanding--;
	m->client_grant = m->flight[m->head++ % LM_MAX];
}

static void lm_fall(struct lm *m, u32 by)
{
	m->fallen += by;
	m->grant -= by;
	m->giveback += by;
}

/* A rise: its Receives are posted (srdma_grant_grow()) ... */
static void lm_grow_post(struct lm *m, u32 by)
{
	m->posted += by;
	m->rising = by;
	m->rise_base = m->grant;
}

/* ... then added to the grant of the moment (or, broken, to rise_base). */
static void lm_grow_publish(struct lm *m)
{
	m->grant = (m->rise_on_base ? m->rise_base : m->grant) + m->rising;
	m->rising = 0;
}

/*
 * One random step of the model.  Return: false if a credit the client
 * believes it has was left without a Receive.
 */
static bool lm_step(struct lm *m, struct rnd_state *rnd, bool change)
{
	u32 r = prandom_u32_state(rnd) % 100;

	if (r < m->call_pct) {
		if (m->outstanding < m->client_grant) {
			if (!m->posted)
				return false;
			lm_call(m);
		}
	} else if (r < 60) {
		if (m->held)
			lm_encode(m);
		if (m->nr_encoded && prandom_u32_state(rnd) % 2)
			lm_post(m, prandom_u32_state(rnd) % m->nr_encoded);
	} else if (r < 95) {
		if (m->head != m->tail)
			lm_read(m);
	} else if (change && m->rising && r < 97) {
		lm_grow_publish(m);
	} else if (change && r == 99 && m->grant > 8) {
		/* Quiet: to the floor, whatever falls or rise are pending. */
		lm_fall(m, m->grant - 8);
	} else if (change && !m->giveback && !m->rising) {
		if (r < 98 && m->grant > 8)
			lm_fall(m, min(8U, m->grant - 8));
		else if (m->grant < 64)
			lm_grow_post(m, 8);
	}
	return lm_backed(m);
}

/* Run @steps of changes, then enough steady busy load to settle. */
static bool lm_run(struct lm *m, u64 seed, unsigned int steps)
{
	struct rnd_state rnd;
	unsigned int i;

	prandom_seed_state(&rnd, seed);
	for (i = 0; i < steps; i++)
		if (!lm_step(m, &rnd, true))
			return false;
	if (m->rising) {
		lm_grow_publish(m);
		if (!lm_backed(m))
			return false;
	}
	m->call_pct = 30;
	for (i = 0; i < 4000; i++)
		if (!lm_step(m, &rnd, false))
			return false;
	return true;
}

static const u32 lm_loads[] = { 30, 15, 5 };

static void grant_model_case(struct kunit *test)
{
	struct lm *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int seed, falls = 0;

	KUNIT_ASSERT_NOT_NULL(test, m);
	for (seed = 1; seed <= 300; seed++) {
		lm_init(m, 8 * (1 + seed % 8), lm_loads[seed % 3]);
		KUNIT_ASSERT_TRUE_MSG(test, lm_run(m, seed, 3000),
				      "seed %u: a credit without a Receive (grant %u, posted %u, client grant %u, outstanding %u)",
				      seed, m->grant, m->posted,
				      m->client_grant, m->outstanding);
		/* Settled: every fallen credit's Receive went, no more. */
		KUNIT_EXPECT_EQ_MSG(test, m->given, m->fallen, "seed %u", seed);
		KUNIT_EXPECT_EQ_MSG(test, m->posted, m->grant, "seed %u", seed);
		falls += m->fallen;
	}
	/* The runs did exercise falls. */
	KUNIT_EXPECT_GT(test, falls, 1000U);
}

/* A server that stamps the grant when it encodes a reply is caught. */
static void grant_model_broken_case(struct kunit *test)
{
	struct lm *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int seed, caught = 0;

	KUNIT_ASSERT_NOT_NULL(test, m);
	for (seed = 1; seed <= 300; seed++) {
		lm_init(m, 64, lm_loads[seed % 3]);
		m->stamp_at_encode = true;
		if (!lm_run(m, seed, 3000))
			caught++;
	}
	KUNIT_EXPECT_GT(test, caught, 0U);
}

/*
 * By hand: a reply encoded before a fall from 16 to 8 and posted after
 * the Calls that took the fall's Receives.  Stamped when posted, it
 * grants 8 and the client stays within the Receives; stamped when
 * encoded, it grants 16 to a client with 8 Receives behind it.
 */
static void grant_fall_order(struct kunit *test, bool at_encode, bool want)
{
	struct lm *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	lm_init(m, 16, 0);
	m->stamp_at_encode = at_encode;
	lm_call(m);
	lm_encode(m);			/* reads 16 */
	lm_fall(m, 8);
	for (i = 0; i < 8; i++)
		lm_call(m);		/* take the fall's Receives */
	KUNIT_EXPECT_EQ(test, m->posted, 8U);
	for (i = 0; i < 8; i++) {
		lm_encode(m);
		lm_post(m, m->nr_encoded - 1);
	}
	lm_post(m, 0);			/* the first reply, last */
	while (m->head != m->tail)
		lm_read(m);
	KUNIT_EXPECT_EQ(test, m->outstanding, 0U);
	KUNIT_EXPECT_EQ(test, lm_backed(m), want);
}

static void grant_fall_order_case(struct kunit *test)
{
	grant_fall_order(test, false, true);
	grant_fall_order(test, true, false);
}

/*
 * By hand: a connection at 32, with nothing to give back, decides a rise
 * of a batch and posts its Receives; before the rise is added to the
 * grant, the connection's quiet check takes the grant down to 8.  Added
 * to the grant of that moment, the rise makes 16, and the Receives back
 * every credit whatever the client does with the 32 it was last told;
 * added to the grant it was decided at (@on_base), it makes 40 with 16
 * Receives behind it once the quiet fall's are given back.
 */
static void grant_quiet_stack(struct kunit *test, bool on_base, bool want)
{
	struct lm *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	bool backed;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, m);
	lm_init(m, 32, 0);
	m->rise_on_base = on_base;
	lm_grow_post(m, 8);
	lm_fall(m, m->grant - 8);	/* quiet */
	lm_grow_publish(m);
	backed = lm_backed(m);
	/* The client uses the 32 it was told... */
	for (i = 0; i < 32; i++) {
		lm_call(m);
		lm_encode(m);
		lm_post(m, 0);
		backed &= lm_backed(m);
	}
	/* ... then keeps as many Calls out as each reply it reads grants. */
	for (i = 0; i < 200 && backed; i++) {
		lm_read(m);
		while (backed && m->outstanding < m->client_grant) {
			if (!m->posted) {
				backed = false;
				break;
			}
			lm_call(m);
			lm_encode(m);
			lm_post(m, 0);
			backed &= lm_backed(m);
		}
	}
	KUNIT_EXPECT_EQ(test, backed, want);
	if (!want)
		return;
	KUNIT_EXPECT_EQ(test, m->client_grant, 16U);
	KUNIT_EXPECT_EQ(test, m->given, 24U);
	KUNIT_EXPECT_EQ(test, m->giveback, 0U);
	KUNIT_EXPECT_EQ(test, m->posted, m->grant);
}

static void grant_quiet_stack_case(struct kunit *test)
{
	grant_quiet_stack(test, false, true);
	grant_quiet_stack(test, true, false);
}

/* A server that adds a rise to the grant it was decided at is caught. */
static void grant_model_rise_on_base_case(struct kunit *test)
{
	struct lm *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);
	unsigned int seed, caught = 0;

	KUNIT_ASSERT_NOT_NULL(test, m);
	for (seed = 1; seed <= 300; seed++) {
		lm_init(m, 8 * (1 + seed % 8), lm_loads[seed % 3]);
		m->rise_on_base = true;
		if (!lm_run(m, seed, 3000))
			caught++;
	}
	KUNIT_EXPECT_GT(test, caught, 0U);
}

/* Bare connections from two clients, for the budget's shares. */
#define CS_CONNS	5

struct cs {
	struct srdma_xprt *sx[CS_CONNS];
	unsigned int budget;	/* srdma_credit_budget to restore */
};

static struct srdma_xprt *cs_conn(struct kunit *test, const char *addr)
{
	struct srdma_xprt *sx = kunit_kzalloc(test, sizeof(*sx), GFP_KERNEL);
	struct sockaddr_in *sin;

	KUNIT_ASSERT_NOT_NULL(test, sx);
	sin = (struct sockaddr_in *)&sx->xprt.xpt_remote;
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = in_aton(addr);
	sx->xprt.xpt_net = &init_net;
	rpcrdma_sendq_init(&sx->sendq);
	KUNIT_ASSERT_EQ(test, srdma_grant_init(sx, 64), 0);
	return sx;
}

static int cs_init(struct kunit *test)
{
	struct cs *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, c);
	c->budget = srdma_credit_budget;
	/* Four connections of 192.0.2.2, then one of 192.0.2.12. */
	for (i = 0; i < CS_CONNS - 1; i++)
		c->sx[i] = cs_conn(test, "192.0.2.2");
	c->sx[i] = cs_conn(test, "192.0.2.12");
	test->priv = c;
	return 0;
}

static void cs_exit(struct kunit *test)
{
	struct cs *c = test->priv;
	unsigned int i;

	for (i = 0; i < CS_CONNS; i++)
		srdma_grant_release(c->sx[i]);
	srdma_credit_budget = c->budget;
}

static void cs_view(struct srdma_xprt *sx, struct srdma_grant_view *v,
		    unsigned int held)
{
	*v = (struct srdma_grant_view){
		.grant = 8 + atomic_read(&sx->lent), .floor = 8, .max = 64,
		.batch = 8, .held = held,
	};
	srdma_grant_share(sx, v);
}

static void budget_share_case(struct kunit *test)
{
	struct cs *c = test->priv;
	struct srdma_xprt *one = c->sx[CS_CONNS - 1];
	struct srdma_grant_view v;
	unsigned int i;

	srdma_credit_budget = 32;
	/* The four connections of one client take the whole budget. */
	for (i = 0; i < CS_CONNS - 1; i++)
		KUNIT_EXPECT_TRUE(test, srdma_grant_take(c->sx[i], 8));
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(c->sx[0], 8));

	/* The other client is refused, and the budget is shared out. */
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(one, 8));
	cs_view(one, &v, 8);
	KUNIT_EXPECT_TRUE(test, v.sharing);
	KUNIT_EXPECT_EQ(test, v.share, 16U);
	KUNIT_EXPECT_EQ(test, v.peer_lent, 0U);

	/* The first client's connections are over its share: they fall. */
	cs_view(c->sx[0], &v, 0);
	KUNIT_EXPECT_EQ(test, v.peer_lent, 32U);
	KUNIT_EXPECT_EQ(test, srdma_grant_step(&v), SRDMA_GRANT_OVER_SHARE);
	srdma_grant_give(c->sx[0], 8);
	srdma_grant_give(c->sx[1], 8);
	cs_view(c->sx[2], &v, 12);
	KUNIT_EXPECT_EQ(test, srdma_grant_step(&v), SRDMA_GRANT_AT_SHARE);

	/* Now the client with one connection grows to its share. */
	cs_view(one, &v, 8);
	KUNIT_EXPECT_EQ(test, srdma_grant_step(&v), SRDMA_GRANT_GROW);
	KUNIT_EXPECT_TRUE(test, srdma_grant_take(one, 8));
	KUNIT_EXPECT_TRUE(test, srdma_grant_take(one, 8));
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(one, 8));
	cs_view(one, &v, 16);
	KUNIT_EXPECT_EQ(test, srdma_grant_step(&v), SRDMA_GRANT_AT_SHARE);
}

/* A connection grows by @n credits from the budget, as recv.c does. */
static void cs_grow(struct kunit *test, struct srdma_xprt *sx, unsigned int n)
{
	KUNIT_ASSERT_TRUE(test, srdma_grant_take(sx, n));
	sx->grant += n;
}

/*
 * The client with four connections took the whole budget, then three of
 * them went quiet: their quiet checks take them down to the floor, and
 * the budget has their credits back at once, before a single Receive is
 * given back, for the client with one connection.  The fourth, whose last
 * Call is recent, keeps its grant until it would be quiet.
 */
static void budget_quiet_case(struct kunit *test)
{
	struct cs *c = test->priv;
	struct srdma_xprt *one = c->sx[CS_CONNS - 1], *sx;
	unsigned long now = jiffies;
	unsigned int i;

	srdma_credit_budget = 32;
	for (i = 0; i < CS_CONNS - 1; i++) {
		sx = c->sx[i];
		cs_grow(test, sx, 8);
		sx->grant_quiet = 5 * HZ;
		/* Three quiet for 10 s, the last for 1 s. */
		sx->last_call = now - (i < CS_CONNS - 2 ? 10 : 1) * HZ;
	}
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(one, 8));

	for (i = 0; i < CS_CONNS - 2; i++) {
		sx = c->sx[i];
		KUNIT_EXPECT_EQ(test, srdma_grant_quiet_check(sx, now), 0UL);
		KUNIT_EXPECT_EQ(test, sx->grant, 8U);
		KUNIT_EXPECT_EQ(test, atomic_read(&sx->lent), 0);
		KUNIT_EXPECT_EQ(test, atomic_read(&sx->recv_giveback), 8);
	}
	sx = c->sx[CS_CONNS - 2];
	KUNIT_EXPECT_EQ(test, srdma_grant_quiet_check(sx, now), 4UL * HZ);
	KUNIT_EXPECT_EQ(test, sx->grant, 16U);
	KUNIT_EXPECT_EQ(test, atomic_read(&sx->recv_giveback), 0);

	/* 24 credits are back, though no Receive was given back yet. */
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, srdma_grant_take(one, 8));
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(one, 8));

	/* At the floor there is nothing more to check, however long. */
	KUNIT_EXPECT_EQ(test, srdma_grant_quiet_check(c->sx[0], now + 3600 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, c->sx[0]->grant, 8U);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sx[0]->recv_giveback), 8);

	/* A quiet period of 0: no fall, no check. */
	sx = c->sx[CS_CONNS - 2];
	sx->grant_quiet = 0;
	KUNIT_EXPECT_EQ(test, srdma_grant_quiet_check(sx, now + 3600 * HZ),
			0UL);
	KUNIT_EXPECT_EQ(test, sx->grant, 16U);
}

/* Whatever was taken goes back when the connections are freed. */
static void budget_release_case(struct kunit *test)
{
	struct cs *c = test->priv;
	unsigned int i;

	srdma_credit_budget = 40;
	for (i = 0; i < CS_CONNS; i++)
		KUNIT_EXPECT_TRUE(test, srdma_grant_take(c->sx[i], 8));
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(c->sx[0], 1));
	for (i = 0; i < CS_CONNS - 1; i++)
		srdma_grant_release(c->sx[i]);
	KUNIT_EXPECT_TRUE(test, srdma_grant_take(c->sx[CS_CONNS - 1], 32));
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(c->sx[CS_CONNS - 1], 1));
	KUNIT_EXPECT_EQ(test, atomic_read(&c->sx[CS_CONNS - 1]->lent), 40);
}

/* One pair of client addresses and what their share keys must say. */
struct sk_vec {
	const char *name;
	const char *a, *b;	/* IPv4 or IPv6 text */
	unsigned int prefix4, prefix6;
	bool same;		/* one key for both */
	const char *key;	/* @a's key as text */
};

static const struct sk_vec sk_vecs[] = {
	{ "IPv4, two hosts", "192.0.2.2", "192.0.2.12", 32, 64, false,
	  "192.0.2.2/32" },
	{ "IPv4, one host", "192.0.2.2", "192.0.2.2", 32, 64, true,
	  "192.0.2.2/32" },
	{ "IPv4 in one /28 by the sysctl", "192.0.2.2", "192.0.2.12", 28, 64,
	  true, "192.0.2.0/28" },
	{ "IPv4 across a /28", "192.0.2.2", "192.0.2.18", 28, 64, false,
	  "192.0.2.0/28" },
	{ "IPv6 addresses of one /64", "2001:db8::1", "2001:db8::ffff:1:2",
	  32, 64, true, "2001:db8::/64" },
	{ "IPv6 in two /64s", "2001:db8::1", "2001:db8:0:1::1", 32, 64, false,
	  "2001:db8::/64" },
	{ "IPv6 whole by the sysctl", "2001:db8::1", "2001:db8::2", 32, 128,
	  false, "2001:db8::1/128" },
	{ "IPv4-mapped IPv6 is IPv4", "::ffff:192.0.2.2", "192.0.2.2", 32, 64,
	  true, "192.0.2.2/32" },
	{ "IPv4-mapped is not its /64", "::ffff:192.0.2.2", "::ffff:192.0.2.3",
	  32, 64, false, "192.0.2.2/32" },
	{ "IPv4 and IPv6 stay apart", "192.0.2.2", "::c000:202", 32, 128,
	  false, "192.0.2.2/32" },
	{ "every address, prefix 0", "2001:db8::1", "2001:db8:ffff::1", 0, 0,
	  true, "::/0" },
};

static void sk_desc(const struct sk_vec *t, char *desc)
{
	strscpy(desc, t->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sk, sk_vecs, sk_desc);

static void sk_addr(struct kunit *test, const char *text,
		    struct sockaddr_storage *ss)
{
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	if (in4_pton(text, -1, (u8 *)&sin->sin_addr, -1, NULL)) {
		sin->sin_family = AF_INET;
		return;
	}
	KUNIT_ASSERT_EQ(test, in6_pton(text, -1, sin6->sin6_addr.s6_addr, -1,
				       NULL), 1);
	sin6->sin6_family = AF_INET6;
}

/*
 * Two client addresses have one share key exactly when the prefix
 * lengths make them one host, and the key reads as the prefix.  The
 * ports differ, and never count.
 */
static void share_key_case(struct kunit *test)
{
	const struct sk_vec *t = test->param_value;
	struct srdma_share_key ka, kb;
	struct sockaddr_storage a, b;
	char name[SRDMA_SHARE_NAME_LEN];

	sk_addr(test, t->a, &a);
	sk_addr(test, t->b, &b);
	((struct sockaddr_in *)&a)->sin_port = htons(700);
	((struct sockaddr_in *)&b)->sin_port = htons(20049);
	srdma_share_key_inet((struct sockaddr *)&a, t->prefix4, t->prefix6,
			     &ka);
	srdma_share_key_inet((struct sockaddr *)&b, t->prefix4, t->prefix6,
			     &kb);
	KUNIT_EXPECT_EQ(test, !memcmp(&ka, &kb, sizeof(ka)), t->same);
	srdma_share_key_name(&ka, name, sizeof(name));
	KUNIT_EXPECT_STREQ(test, name, t->key);
}

/* An InfiniBand client is its LID, whatever address it wrote. */
static void share_key_ib_case(struct kunit *test)
{
	struct srdma_share_key a, b, inet;
	char name[SRDMA_SHARE_NAME_LEN];
	struct sockaddr_storage ss;

	srdma_share_key_ib(0x1f, &a);
	srdma_share_key_ib(0x1f, &b);
	KUNIT_EXPECT_EQ(test, memcmp(&a, &b, sizeof(a)), 0);
	srdma_share_key_ib(0x20, &b);
	KUNIT_EXPECT_NE(test, memcmp(&a, &b, sizeof(a)), 0);
	srdma_share_key_name(&a, name, sizeof(name));
	KUNIT_EXPECT_STREQ(test, name, "lid 0x1f");
	/* Nor is a LID ever an address's key: 0.0.0.31 is not LID 31. */
	sk_addr(test, "0.0.0.31", &ss);
	srdma_share_key_inet((struct sockaddr *)&ss, 32, 64, &inet);
	KUNIT_EXPECT_NE(test, memcmp(&a, &inet, sizeof(a)), 0);
}

/*
 * A host that shows eight IPv6 addresses of its /64, one connection
 * each, and took the whole budget, is one client for the shares: a
 * host with one connection from another /64 is owed half the budget,
 * not a ninth, and the eight are over their one share.
 */
static void budget_share_v6_case(struct kunit *test)
{
	struct srdma_xprt *sx[9];
	struct srdma_grant_view v;
	unsigned int i;
	char addr[INET6_ADDRSTRLEN];
	struct cs *c = test->priv;

	/* Without the suite's two IPv4 clients. */
	for (i = 0; i < CS_CONNS; i++)
		srdma_grant_release(c->sx[i]);
	KUNIT_ASSERT_EQ(test, srdma_share_clients(), 0U);
	srdma_credit_budget = 64;
	for (i = 0; i < ARRAY_SIZE(sx); i++) {
		sx[i] = kunit_kzalloc(test, sizeof(*sx[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, sx[i]);
		if (i < 8)
			snprintf(addr, sizeof(addr), "2001:db8::%x:1", i + 1);
		else
			strscpy(addr, "2001:db8:0:1::1", sizeof(addr));
		sk_addr(test, addr, &sx[i]->xprt.xpt_remote);
		sx[i]->xprt.xpt_net = &init_net;
		rpcrdma_sendq_init(&sx[i]->sendq);
		KUNIT_ASSERT_EQ(test, srdma_grant_init(sx[i], 64), 0);
	}
	KUNIT_EXPECT_EQ(test, srdma_share_clients(), 2U);
	KUNIT_EXPECT_STREQ(test, sx[0]->peer->name, "2001:db8::/64");
	KUNIT_EXPECT_PTR_EQ(test, sx[0]->peer, sx[7]->peer);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, srdma_grant_take(sx[i], 8));
	KUNIT_EXPECT_FALSE(test, srdma_grant_take(sx[8], 8));
	cs_view(sx[8], &v, 8);
	KUNIT_EXPECT_TRUE(test, v.sharing);
	KUNIT_EXPECT_EQ(test, v.share, 32U);
	cs_view(sx[0], &v, 0);
	KUNIT_EXPECT_EQ(test, v.peer_lent, 64U);
	KUNIT_EXPECT_EQ(test, srdma_grant_step(&v), SRDMA_GRANT_OVER_SHARE);

	for (i = 0; i < ARRAY_SIZE(sx); i++)
		srdma_grant_release(sx[i]);
	KUNIT_EXPECT_EQ(test, srdma_share_clients(), 0U);
}

static struct kunit_case rpcrdma_server_credit_cases[] = {
	KUNIT_CASE_PARAM(grant_step_case, gs_gen_params),
	KUNIT_CASE_PARAM(grant_quiet_case, gq_gen_params),
	KUNIT_CASE(grant_model_case),
	KUNIT_CASE(grant_model_broken_case),
	KUNIT_CASE(grant_model_rise_on_base_case),
	KUNIT_CASE(grant_fall_order_case),
	KUNIT_CASE(grant_quiet_stack_case),
	{}
};

static struct kunit_suite rpcrdma_server_credit_suite = {
	.name		= "rpcrdma_server_credit",
	.test_cases	= rpcrdma_server_credit_cases,
};

static struct kunit_case rpcrdma_server_budget_cases[] = {
	KUNIT_CASE(budget_share_case),
	KUNIT_CASE(budget_quiet_case),
	KUNIT_CASE(budget_release_case),
	KUNIT_CASE_PARAM(share_key_case, sk_gen_params),
	KUNIT_CASE(share_key_ib_case),
	KUNIT_CASE(budget_share_v6_case),
	{}
};

static struct kunit_suite rpcrdma_server_budget_suite = {
	.name		= "rpcrdma_server_budget",
	.init		= cs_init,
	.exit		= cs_exit,
	.test_cases	= rpcrdma_server_budget_cases,
};

kunit_test_suites(&rpcrdma_server_credit_suite, &rpcrdma_server_budget_suite);
