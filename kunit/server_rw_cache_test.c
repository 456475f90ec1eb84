// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the server's per-connection cache of RDMA Read and Write
 * contexts (svcrdma/rw.c).  A segment of up to SRDMA_RW_INLINE_SGES
 * pieces uses the context's own scatterlist; one of up to
 * SRDMA_RW_KEPT_SGES the table the context keeps from its first such
 * segment on; a longer one a table of its own that goes when the
 * context is given back; given-back contexts
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

enum rwc_table { RWC_INLINE, RWC_KEPT, RWC_OWN };

struct rwc_vec {
	const char *name;
	unsigned int nents;
	enum rwc_table table;
};

static const struct rwc_vec rwc_vecs[] = {
	{ "1 piece: inline",		1,			RWC_INLINE },
	{ "2 pieces: inline",		2,			RWC_INLINE },
	{ "at the inline limit",	SRDMA_RW_INLINE_SGES,	RWC_INLINE },
	{ "one past it: kept table",	SRDMA_RW_INLINE_SGES + 1, RWC_KEPT },
	{ "256 KiB: kept table",	65,			RWC_KEPT },
	{ "at the kept limit",		SRDMA_RW_KEPT_SGES,	RWC_KEPT },
	{ "one past it: own table",	SRDMA_RW_KEPT_SGES + 1,	RWC_OWN },
	{ "a 1 MiB segment: own table",	257,			RWC_OWN },
};

/* Which table @rw's segment uses. */
static enum rwc_table rwc_table_of(const struct srdma_rw *rw)
{
	if (rw->sgt.sgl == rw->inline_sgl)
		return RWC_INLINE;
	if (rw->kept_sgl && rw->sgt.sgl == rw->kept_sgl)
		return RWC_KEPT;
	return RWC_OWN;
}

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
	KUNIT_EXPECT_EQ(test, rwc_table_of(rw), v->table);
	rwc_expect_table(test, rw, v->nents);

	srdma_rw_put(sx, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 1U);

	/* Recycled, with a table of the new size and nothing left over. */
	again = srdma_rw_get(sx, NULL, v->nents);
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_PTR_EQ(test, again, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 0U);
	KUNIT_EXPECT_EQ(test, rwc_table_of(again), v->table);
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

/*
 * The kept table is allocated once and serves every later segment that
 * fits it, of any length, with no entry left over from the one before;
 * a longer segment takes a table of its own and leaves the kept one be.
 * kmemleak sees that the kept table goes with its context.
 */
static void rw_kept_table_case(struct kunit *test)
{
	struct srdma_xprt *sx = rwc_xprt(test, 4);
	struct scatterlist *kept;
	struct srdma_rw *rw;

	rw = srdma_rw_get(sx, NULL, 100);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	kept = rw->kept_sgl;
	KUNIT_ASSERT_NOT_NULL(test, kept);
	KUNIT_EXPECT_PTR_EQ(test, rw->sgt.sgl, kept);
	rwc_expect_table(test, rw, 100);
	srdma_rw_put(sx, rw);

	/* Shorter: the same table, ending where this segment ends. */
	rw = srdma_rw_get(sx, NULL, 20);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_PTR_EQ(test, rw->sgt.sgl, kept);
	rwc_expect_table(test, rw, 20);
	srdma_rw_put(sx, rw);

	/* Longer than it holds: a table of its own, the kept one stays. */
	rw = srdma_rw_get(sx, NULL, SRDMA_RW_KEPT_SGES + 40);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_EQ(test, rwc_table_of(rw), RWC_OWN);
	KUNIT_EXPECT_PTR_EQ(test, rw->kept_sgl, kept);
	rwc_expect_table(test, rw, SRDMA_RW_KEPT_SGES + 40);
	srdma_rw_put(sx, rw);

	/* The whole kept table again, after the own one went. */
	rw = srdma_rw_get(sx, NULL, SRDMA_RW_KEPT_SGES);
	KUNIT_ASSERT_NOT_NULL(test, rw);
	KUNIT_EXPECT_PTR_EQ(test, rw->sgt.sgl, kept);
	rwc_expect_table(test, rw, SRDMA_RW_KEPT_SGES);
	srdma_rw_put(sx, rw);
	srdma_rw_cache_destroy(sx);
}

/* An owner's own context keeps its table too, until its owner frees it. */
static void rw_spare_kept_table_case(struct kunit *test)
{
	struct srdma_xprt *sx = rwc_xprt(test, 4);
	struct scatterlist *kept;
	struct srdma_rw *spare, *rw;

	spare = kunit_kzalloc(test, sizeof(*spare), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, spare);
	srdma_rw_init_embedded(spare);

	rw = srdma_rw_get(sx, spare, 64);
	KUNIT_EXPECT_PTR_EQ(test, rw, spare);
	kept = spare->kept_sgl;
	KUNIT_ASSERT_NOT_NULL(test, kept);
	srdma_rw_put(sx, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 0U);

	rw = srdma_rw_get(sx, spare, 33);
	KUNIT_EXPECT_PTR_EQ(test, rw, spare);
	KUNIT_EXPECT_PTR_EQ(test, rw->sgt.sgl, kept);
	rwc_expect_table(test, rw, 33);
	srdma_rw_put(sx, rw);

	srdma_rw_free_table(spare);
	KUNIT_EXPECT_NULL(test, spare->kept_sgl);
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
	KUNIT_CASE(rw_kept_table_case),
	KUNIT_CASE(rw_spare_kept_table_case),
	KUNIT_CASE(rw_cache_bound_case),
	{}
};

static struct kunit_suite rpcrdma_server_rw_cache_suite = {
	.name = "rpcrdma_server_rw_cache",
	.test_cases = rpcrdma_server_rw_cache_cases,
};

kunit_test_suites(&rpcrdma_server_rw_cache_suite);
