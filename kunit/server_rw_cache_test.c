// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the server's per-connection cache of RDMA Read and Write
 * contexts (svcrdma/rw.c).  A segment of up to SRDMA_RW_INLINE_SGES
 * pieces uses the context's own scatterlist, a longer one a table of
 * its own that goes when the context is given back; given-back contexts
 * are reused, at most twice the connection's credits of them are kept,
 * and the rest are freed; an owner's own context serves before them.
 * No device is needed: these run on a bare struct srdma_xprt.  kmemleak,
 * in the test kernel, catches a table or a context left behind.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#include "../svcrdma/server.h"

static struct srdma_xprt *rwc_xprt(struct kunit *test,
				   unsigned int max_requests)
{
	struct srdma_xprt *sx;

	sx = kunit_kzalloc(test, sizeof(*sx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sx);
	spin_lock_init(&sx->rw_lock);
	INIT_LIST_HEAD(&sx->rw_free);
	sx->max_requests = max_requests;
	return sx;
}

/* @rw's table has @nents entries, the last one marked as the end. */
static void rwc_expect_table(struct kunit *test, struct srdma_rw *rw,
			     unsigned int nents)
{
	struct scatterlist *sg;
	unsigned int n = 0;

	KUNIT_EXPECT_EQ(test, rw->sgt.orig_nents, nents);
	KUNIT_EXPECT_EQ(test, rw->sgt.nents, nents);
	for (sg = rw->sgt.sgl; sg; sg = sg_next(sg))
		n++;
	KUNIT_EXPECT_EQ(test, n, nents);
}

struct rwc_vec {
	const char *name;
	unsigned int nents;
	bool inline_sgl;
};

static const struct rwc_vec rwc_vecs[] = {
	{ "1 piece: inline",		1,				true },
	{ "2 pieces: inline",		2,				true },
	{ "at the inline limit",	SRDMA_RW_INLINE_SGES,		true },
	{ "one past the limit: table",	SRDMA_RW_INLINE_SGES + 1,	false },
	{ "a 1 MiB segment: table",	257,				false },
};

static void rwc_desc(const struct rwc_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rwc, rwc_vecs, rwc_desc);

/* A new context, then the same one recycled, for each segment size. */
static void rw_get_case(struct kunit *test)
{
	const struct rwc_vec *v = test->param_value;
	struct srdma_xprt *sx = rwc_xprt(test, 4);
	struct srdma_rw *rw, *again;

	rw = srdma_rw_get(sx, NULL, v->nents);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_EQ(test, rw->sgt.sgl == rw->inline_sgl, v->inline_sgl);
	rwc_expect_table(test, rw, v->nents);

	srdma_rw_put(sx, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 1U);

	/* Recycled, with a table of the new size and nothing left over. */
	again = srdma_rw_get(sx, NULL, v->nents);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_PTR_EQ(test, again, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 0U);
	rwc_expect_table(test, again, v->nents);
	srdma_rw_put(sx, again);
	srdma_rw_cache_destroy(sx);
}

/* A context that had a table of its own comes back with an inline one. */
static void rw_table_then_inline_case(struct kunit *test)
{
	struct srdma_xprt *sx = rwc_xprt(test, 4);
	struct srdma_rw *rw;

	rw = srdma_rw_get(sx, NULL, 300);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_PTR_NE(test, rw->sgt.sgl, &rw->inline_sgl[0]);
	srdma_rw_put(sx, rw);

	rw = srdma_rw_get(sx, NULL, 3);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_PTR_EQ(test, rw->sgt.sgl, &rw->inline_sgl[0]);
	rwc_expect_table(test, rw, 3);

	/* And the other way: inline first, then a table. */
	srdma_rw_put(sx, rw);
	rw = srdma_rw_get(sx, NULL, 40);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_PTR_NE(test, rw->sgt.sgl, &rw->inline_sgl[0]);
	rwc_expect_table(test, rw, 40);
	srdma_rw_put(sx, rw);
	srdma_rw_cache_destroy(sx);
}

/*
 * An owner's own context serves first and comes back free, never on the
 * free list; while it is busy, contexts come from the list as before.
 */
static void rw_spare_case(struct kunit *test)
{
	struct srdma_xprt *sx = rwc_xprt(test, 4);
	struct srdma_rw *spare, *rw, *other;

	spare = kunit_kzalloc(test, sizeof(*spare), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, spare);
	srdma_rw_init_embedded(spare);

	rw = srdma_rw_get(sx, spare, 3);
	KUNIT_EXPECT_PTR_EQ(test, rw, spare);
	rwc_expect_table(test, rw, 3);
	other = srdma_rw_get(sx, spare, 40);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_PTR_NE(test, other, spare);
	rwc_expect_table(test, other, 40);

	srdma_rw_put(sx, spare);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 0U);
	srdma_rw_put(sx, other);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 1U);

	/* Free again, with a table of its own this time. */
	rw = srdma_rw_get(sx, spare, 300);
	KUNIT_EXPECT_PTR_EQ(test, rw, spare);
	KUNIT_EXPECT_PTR_NE(test, rw->sgt.sgl, &rw->inline_sgl[0]);
	rwc_expect_table(test, rw, 300);
	srdma_rw_put(sx, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 1U);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&sx->rw_free), 1U);
	srdma_rw_cache_destroy(sx);
}

/* At most twice the credits are kept; destroy empties the cache. */
static void rw_cache_bound_case(struct kunit *test)
{
	struct srdma_xprt *sx = rwc_xprt(test, 3);
	struct srdma_rw *rws[10];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rws); i++) {
		rws[i] = srdma_rw_get(sx, NULL, 1 + i * 5);
		KUNIT_ASSERT_NOT_NULL(test, rws[i]);
	}
	for (i = 0; i < ARRAY_SIZE(rws); i++) {
		srdma_rw_put(sx, rws[i]);
		KUNIT_EXPECT_EQ(test, sx->rw_free_count, min(i + 1, 6U));
	}
	KUNIT_EXPECT_EQ(test, list_count_nodes(&sx->rw_free), 6U);

	srdma_rw_cache_destroy(sx);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 0U);
	KUNIT_EXPECT_TRUE(test, list_empty(&sx->rw_free));
}

static struct kunit_case rpcrdma_server_rw_cache_cases[] = {
	KUNIT_CASE_PARAM(rw_get_case, rwc_gen_params),
	KUNIT_CASE(rw_table_then_inline_case),
	KUNIT_CASE(rw_spare_case),
	KUNIT_CASE(rw_cache_bound_case),
	{}
};

static struct kunit_suite rpcrdma_server_rw_cache_suite = {
	.name = "rpcrdma_server_rw_cache",
	.test_cases = rpcrdma_server_rw_cache_cases,
};

kunit_test_suites(&rpcrdma_server_rw_cache_suite);
