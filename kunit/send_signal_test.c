// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: which Sends ask for a completion (rpcrdma_send_signal() in
 * common/send.c, used by the client and the server).  One in every
 * batch does; a Send that needs its
 * own completion always does and starts the count again; batch 0 or 1
 * signals every Send.  The vectors are sequences of Sends, each with
 * its "must" flag, and the signaled pattern expected.
 */
#include <kunit/test.h>

#include "rpcrdma/send.h"

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

static void send_signal_case(struct kunit *test)
{
	const struct csq_vec *v = test->param_value;
	unsigned int unsignaled = 0, i;
	char got[20] = "";

	KUNIT_ASSERT_EQ(test, strlen(v->must), strlen(v->expect));
	KUNIT_ASSERT_LT(test, strlen(v->must), sizeof(got));
	for (i = 0; v->must[i]; i++) {
		got[i] = rpcrdma_send_signal(&unsignaled, v->batch,
					     v->must[i] == 'm') ? 'S' : '-';
		/* Never more unsignaled Sends in a row than batch - 1. */
		KUNIT_EXPECT_LT(test, unsignaled, max(v->batch, 1U));
	}
	got[i] = '\0';
	KUNIT_EXPECT_STREQ(test, got, v->expect);
}

static struct kunit_case rpcrdma_send_signal_cases[] = {
	KUNIT_CASE_PARAM(send_signal_case, csq_gen_params),
	{}
};

static struct kunit_suite rpcrdma_send_signal_suite = {
	.name = "rpcrdma_send_signal",
	.test_cases = rpcrdma_send_signal_cases,
};

kunit_test_suites(&rpcrdma_send_signal_suite);
