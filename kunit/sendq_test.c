// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the FIFO of posted Sends that the client and the server share
 * (struct rpcrdma_sendq in common/send.c).
 *
 * Which Sends ask for a completion: one in every batch does; a Send that
 * needs its own completion always does and starts the count again; batch
 * 0 or 1 signals every Send.  The vectors are sequences of Sends, each
 * with its "must" flag, and the signaled pattern expected.
 *
 * Which Sends a completion retires: every Send up to and including the
 * one that completed, oldest first, and none twice; after a drain, all
 * that are left.  A Send whose post failed leaves the FIFO and the count
 * as if it had never been queued.
 *
 * Which Send's completion is owed: the oldest signaled one still on the
 * FIFO, past the unsignaled ones before it; none when only unsignaled
 * Sends are left, as an idle connection leaves them.
 */
#include <kunit/test.h>

#include "rpcrdma/send.h"

#define SENDQ_TEST_MAX	20

struct csq_vec {
	const char *name;
	unsigned int batch;
	const char *must;	/* 'm': must be signaled, '.': may not be */
	const char *expect;	/* 'S': signaled, '-': not */
};

static const struct csq_vec csq_vecs[] = {
	{ "batch 0: every Send",	 0, "......",	"SSSSSS" },
	{ "batch 1: every Send",	 1, "......",	"SSSSSS" },
	{ "batch 2",			 2, "......",	"-S-S-S" },
	{ "batch 4",			 4, "........",	"---S---S" },
	{ "must restarts the count",	 4, "..m.....", "--S---S-" },
	{ "must on every Send",		 4, "mmmm",	"SSSS" },
	{ "must right after a batch's Send", 3, "...m",	"--SS" },
	{ "batch 16",			16, "................", "---------------S" },
};

static void csq_desc(const struct csq_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(csq, csq_vecs, csq_desc);

static bool sendq_test_add(struct rpcrdma_sendq *q,
			   struct rpcrdma_sendq_entry *e, bool must)
{
	bool signal;

	spin_lock(&q->lock);
	signal = rpcrdma_sendq_add(q, e, must);
	spin_unlock(&q->lock);
	return signal;
}

/* The chain from @first as letters: 'a' for e[0], 'b' for e[1]... */
static void sendq_test_order(struct rpcrdma_sendq_entry *e,
			     const struct rpcrdma_sendq_entry *first, char *out)
{
	unsigned int n = 0;

	for (; first && n < SENDQ_TEST_MAX; first = first->next)
		out[n++] = 'a' + (first - e);
	out[n] = '\0';
}

/* The FIFO's length, and that its tail is its last entry's link. */
static unsigned int sendq_test_length(struct kunit *test,
				      struct rpcrdma_sendq *q)
{
	struct rpcrdma_sendq_entry **link = &q->head;
	unsigned int n;

	spin_lock(&q->lock);
	n = rpcrdma_sendq_length(q);
	while (*link)
		link = &(*link)->next;
	KUNIT_EXPECT_PTR_EQ(test, q->tail, link);
	spin_unlock(&q->lock);
	return n;
}

static void sendq_signal_case(struct kunit *test)
{
	const struct csq_vec *v = test->param_value;
	struct rpcrdma_sendq_entry e[SENDQ_TEST_MAX];
	struct rpcrdma_sendq q;
	char got[SENDQ_TEST_MAX + 1] = "";
	unsigned int i;

	KUNIT_ASSERT_EQ(test, strlen(v->must), strlen(v->expect));
	KUNIT_ASSERT_LT(test, strlen(v->must), ARRAY_SIZE(e));
	rpcrdma_sendq_init(&q);
	q.batch = v->batch;
	for (i = 0; v->must[i]; i++) {
		got[i] = sendq_test_add(&q, &e[i], v->must[i] == 'm') ?
			 'S' : '-';
		KUNIT_EXPECT_TRUE(test, e[i].queued);
		/* Never more unsignaled Sends in a row than batch - 1. */
		KUNIT_EXPECT_LT(test, q.unsignaled, max(v->batch, 1U));
	}
	got[i] = '\0';
	KUNIT_EXPECT_STREQ(test, got, v->expect);
	KUNIT_EXPECT_EQ(test, sendq_test_length(test, &q), i);
}

/*
 * Completions of the third and the sixth Send, a late duplicate, the
 * last Send's, a drain, then the FIFO in use again.
 */
static void sendq_retire_case(struct kunit *test)
{
	struct rpcrdma_sendq_entry e[8];
	struct rpcrdma_sendq q;
	char got[SENDQ_TEST_MAX + 1];
	unsigned int i;

	rpcrdma_sendq_init(&q);
	q.batch = 3;
	for (i = 0; i < ARRAY_SIZE(e); i++)
		sendq_test_add(&q, &e[i], false);

	sendq_test_order(e, rpcrdma_sendq_retire(&q, &e[2]), got);
	KUNIT_EXPECT_STREQ(test, got, "abc");
	for (i = 0; i < ARRAY_SIZE(e); i++)
		KUNIT_EXPECT_EQ(test, e[i].queued, i > 2);
	KUNIT_EXPECT_EQ(test, sendq_test_length(test, &q), 5U);

	sendq_test_order(e, rpcrdma_sendq_retire(&q, &e[5]), got);
	KUNIT_EXPECT_STREQ(test, got, "def");

	/* A flush of a Send retired already takes nothing. */
	KUNIT_EXPECT_NULL(test, rpcrdma_sendq_retire(&q, &e[4]));
	sendq_test_order(e, q.head, got);
	KUNIT_EXPECT_STREQ(test, got, "gh");

	/* The last Send's completion empties it; the next add starts it. */
	sendq_test_order(e, rpcrdma_sendq_retire(&q, &e[7]), got);
	KUNIT_EXPECT_STREQ(test, got, "gh");
	KUNIT_EXPECT_EQ(test, sendq_test_length(test, &q), 0U);
	sendq_test_add(&q, &e[0], false);
	sendq_test_add(&q, &e[1], false);
	sendq_test_order(e, q.head, got);
	KUNIT_EXPECT_STREQ(test, got, "ab");

	/* After the drain: everything left. */
	sendq_test_order(e, rpcrdma_sendq_retire(&q, NULL), got);
	KUNIT_EXPECT_STREQ(test, got, "ab");
	KUNIT_EXPECT_NULL(test, q.head);
	KUNIT_EXPECT_FALSE(test, e[1].queued);
	KUNIT_EXPECT_EQ(test, sendq_test_length(test, &q), 0U);

	/* A drained queue that is drained again gives nothing. */
	KUNIT_EXPECT_NULL(test, rpcrdma_sendq_retire(&q, NULL));
	sendq_test_add(&q, &e[2], false);
	sendq_test_order(e, q.head, got);
	KUNIT_EXPECT_STREQ(test, got, "c");
}

/* A Send whose post failed: as if it had never been queued. */
static void sendq_unadd_case(struct kunit *test)
{
	struct rpcrdma_sendq_entry e[6];
	struct rpcrdma_sendq q;
	char got[SENDQ_TEST_MAX + 1];
	char pattern[7] = "";
	unsigned int i;

	rpcrdma_sendq_init(&q);
	q.batch = 4;
	pattern[0] = sendq_test_add(&q, &e[0], false) ? 'S' : '-';
	pattern[1] = sendq_test_add(&q, &e[1], false) ? 'S' : '-';

	/* The third is signaled as the end of a batch, then fails. */
	sendq_test_add(&q, &e[2], false);
	spin_lock(&q.lock);
	rpcrdma_sendq_unadd(&q, &e[2]);
	spin_unlock(&q.lock);
	KUNIT_EXPECT_FALSE(test, e[2].queued);
	KUNIT_EXPECT_EQ(test, q.unsignaled, 2U);

	/* A must-signal Send that fails does not restart the count. */
	sendq_test_add(&q, &e[3], true);
	KUNIT_EXPECT_EQ(test, q.unsignaled, 0U);
	spin_lock(&q.lock);
	rpcrdma_sendq_unadd(&q, &e[3]);
	spin_unlock(&q.lock);
	KUNIT_EXPECT_EQ(test, q.unsignaled, 2U);

	for (i = 2; i < 6; i++)
		pattern[i] = sendq_test_add(&q, &e[i], false) ? 'S' : '-';
	KUNIT_EXPECT_STREQ(test, pattern, "---S--");
	sendq_test_order(e, q.head, got);
	KUNIT_EXPECT_STREQ(test, got, "abcdef");
	KUNIT_EXPECT_EQ(test, sendq_test_length(test, &q), 6U);

	/* A drain may have taken it before its post failed: nothing to do. */
	KUNIT_ASSERT_NOT_NULL(test, rpcrdma_sendq_retire(&q, NULL));
	spin_lock(&q.lock);
	rpcrdma_sendq_unadd(&q, &e[5]);
	spin_unlock(&q.lock);
	KUNIT_EXPECT_NULL(test, q.head);
	KUNIT_EXPECT_EQ(test, sendq_test_length(test, &q), 0U);
}

/*
 * Batch 4: a, b, c unsignaled, d signaled, e unsignaled.  d's completion
 * is owed, with d's post time, until it comes; then only e is left,
 * which owes none.
 */
static void sendq_oldest_owed_case(struct kunit *test)
{
	struct rpcrdma_sendq_entry e[5] = {};
	struct rpcrdma_sendq q;
	unsigned long posted = 0;
	bool owed;
	int i;

	rpcrdma_sendq_init(&q);
	q.batch = 4;
	spin_lock(&q.lock);
	KUNIT_EXPECT_FALSE(test, rpcrdma_sendq_oldest_owed(&q, &posted));
	spin_unlock(&q.lock);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_FALSE(test, sendq_test_add(&q, &e[i], false));
	spin_lock(&q.lock);
	KUNIT_EXPECT_FALSE(test, rpcrdma_sendq_oldest_owed(&q, &posted));
	spin_unlock(&q.lock);

	KUNIT_ASSERT_TRUE(test, sendq_test_add(&q, &e[3], false));
	KUNIT_ASSERT_FALSE(test, sendq_test_add(&q, &e[4], false));
	e[3].posted = 12345;
	spin_lock(&q.lock);
	owed = rpcrdma_sendq_oldest_owed(&q, &posted);
	spin_unlock(&q.lock);
	KUNIT_EXPECT_TRUE(test, owed);
	KUNIT_EXPECT_EQ(test, posted, 12345UL);

	KUNIT_ASSERT_NOT_NULL(test, rpcrdma_sendq_retire(&q, &e[3]));
	spin_lock(&q.lock);
	KUNIT_EXPECT_FALSE(test, rpcrdma_sendq_oldest_owed(&q, &posted));
	spin_unlock(&q.lock);
}

static struct kunit_case rpcrdma_sendq_cases[] = {
	KUNIT_CASE_PARAM(sendq_signal_case, csq_gen_params),
	KUNIT_CASE(sendq_retire_case),
	KUNIT_CASE(sendq_unadd_case),
	KUNIT_CASE(sendq_oldest_owed_case),
	{}
};

static struct kunit_suite rpcrdma_sendq_suite = {
	.name = "rpcrdma_sendq",
	.test_cases = rpcrdma_sendq_cases,
};

kunit_test_suites(&rpcrdma_sendq_suite);
