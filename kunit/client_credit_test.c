// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the client's credit window (xrdma_credit_window()).  A reply
 * sets it within [1, what we asked for]; a backchannel Call, whose
 * credit field is about the backchannel (RFC 8167), leaves it alone:
 * the kernel's server sends 2 in every CB_RECALL.
 */
#include <kunit/test.h>

#include "../xprtrdma/client.h"

struct ccw_vec {
	const char *name;
	u32 grant;
	bool bc_call;
	u32 window;
	u32 max;
	u32 expect;
};

static const struct ccw_vec ccw_vecs[] = {
	{ "reply grants fewer",		  2, false, 32, 128,   2 },
	{ "reply grants more",		 64, false, 32, 128,  64 },
	{ "reply grants zero",		  0, false, 32, 128,   1 },
	{ "reply grants 65535",	      65535, false, 32, 128, 128 },
	{ "reply grants 2^32-1",     U32_MAX, false, 32, 128, 128 },
	{ "reply grants the maximum",	128, false,  1, 128, 128 },
	{ "CB_RECALL with credit 2",	  2, true,  32, 128,  32 },
	{ "backchannel Call with 0",	  0, true,  32, 128,  32 },
	{ "backchannel Call with 2^32-1", U32_MAX, true, 7, 128, 7 },
};

static void ccw_desc(const struct ccw_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ccw, ccw_vecs, ccw_desc);

static void credit_window_case(struct kunit *test)
{
	const struct ccw_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, xrdma_credit_window(v->grant, v->bc_call,
						  v->window, v->max),
			v->expect);
}

static struct kunit_case rpcrdma_client_credit_cases[] = {
	KUNIT_CASE_PARAM(credit_window_case, ccw_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_credit_suite = {
	.name = "rpcrdma_client_credit",
	.test_cases = rpcrdma_client_credit_cases,
};

kunit_test_suites(&rpcrdma_client_credit_suite);
