// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the state of a Call's RDMA Reads kept with its Receive
 * (srdma_read_get() and srdma_read_put() in svcrdma/read.c).  A Receive
 * keeps one spare: the next Call with Read chunks it brings reuses it,
 * zeroed, if it has room for that Call's pages; else it is freed and a
 * new one, of at least SRDMA_READ_MIN_PAGES pages, is made.  The pages a
 * finished Call was rebuilt in stay with the spare until nfsd releases
 * the Call (srdma_read_drop_pages()).  Each state carries a Read context
 * of its own for its first segment; one whose Reads were posted only in
 * part is kept whole until the drain.  No device is needed: these run on
 * a bare struct srdma_recv and struct srdma_xprt.  kmemleak, in the test kernel, catches a
 * state that was dropped instead of freed; an extra reference on each
 * page shows whether the state gave its own back.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "../svcrdma/server.h"

static struct srdma_recv *rdc_recv(struct kunit *test)
{
	struct srdma_recv *rc;

	rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rc);
	return rc;
}

/* Free what the Receive still holds, as srdma_recv_free() does. */
static void rdc_release(struct srdma_recv *rc)
{
	srdma_read_free(rc->read_spare);
	rc->read_spare = NULL;
}

/*
 * The layout of a Call in @npages pages: one Read chunk to the start of
 * them, and a pad (the pieces beyond those are poison).
 */
static struct srdma_call_layout *rdc_layout(struct kunit *test,
					    unsigned int npages)
{
	struct srdma_call_layout *lo;

	lo = kunit_kmalloc(test, sizeof(*lo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lo);
	memset(lo, 0xa5, sizeof(*lo));
	lo->form = SRDMA_CALL_DATA_ITEM;
	lo->nr_pieces = 2;
	lo->pieces[0] = (struct srdma_piece){
		.src = SRDMA_PIECE_CHUNK, .len = npages * PAGE_SIZE,
	};
	lo->pieces[1] = (struct srdma_piece){
		.src = SRDMA_PIECE_PAD, .pos = npages * PAGE_SIZE, .len = 2,
	};
	lo->len = npages * PAGE_SIZE + 100;
	lo->head_len = 60;
	lo->npages = npages;
	return lo;
}

/*
 * @rd is as a fresh allocation of @max_pages pages would be, with the
 * layout @lo copied in: its scalars and the pieces it uses.
 */
static void rdc_expect_fresh(struct kunit *test, struct srdma_recv *rc,
			     struct srdma_read *rd, unsigned int max_pages,
			     const struct srdma_call_layout *lo)
{
	unsigned int i;

	KUNIT_EXPECT_PTR_EQ(test, rd->rc, rc);
	KUNIT_EXPECT_EQ(test, rd->max_pages, max_pages);
	KUNIT_EXPECT_TRUE(test, list_empty(&rd->rws));
	KUNIT_EXPECT_EQ(test, rd->status, 0);
	KUNIT_EXPECT_EQ(test, rd->bytes, 0U);
	KUNIT_EXPECT_EQ(test, rd->nr_wrs, 0U);
	KUNIT_EXPECT_EQ(test, rd->nr_pages, 0U);
	KUNIT_EXPECT_EQ(test, rd->lo.form, lo->form);
	KUNIT_EXPECT_EQ(test, rd->lo.len, lo->len);
	KUNIT_EXPECT_EQ(test, rd->lo.head_len, lo->head_len);
	KUNIT_EXPECT_EQ(test, rd->lo.npages, lo->npages);
	KUNIT_ASSERT_EQ(test, rd->lo.nr_pieces, lo->nr_pieces);
	/* Every field before the pieces, including any added later. */
	KUNIT_EXPECT_MEMEQ(test, &rd->lo, lo,
			   offsetof(struct srdma_call_layout, pieces));
	KUNIT_EXPECT_MEMEQ(test, rd->lo.pieces, lo->pieces,
			   lo->nr_pieces * sizeof(lo->pieces[0]));
	for (i = 0; i < max_pages; i++)
		KUNIT_EXPECT_NULL(test, rd->pages[i]);
	/* Its own Read context is free for its first segment. */
	KUNIT_EXPECT_TRUE(test, rd->rw.embedded);
	KUNIT_EXPECT_FALSE(test, rd->rw.busy);
}

/* Dirty what a Call's Reads set, as a finished Call leaves it. */
static void rdc_use(struct srdma_read *rd, unsigned int npages)
{
	rd->status = IB_WC_REM_ACCESS_ERR;
	rd->bytes = npages * PAGE_SIZE;
	rd->nr_wrs = npages;
	memset(&rd->lo, 0x5a, sizeof(rd->lo));
}

struct rdc_vec {
	const char *name;
	unsigned int first;	/* pages of the first Call */
	unsigned int second;	/* pages of the next Call on the Receive */
	bool reused;		/* the second reuses the first's state */
	unsigned int max_pages;	/* the second's state has room for */
};

static const struct rdc_vec rdc_vecs[] = {
	{ "4 KiB then 4 KiB: reused",	2,  2,   true,  SRDMA_READ_MIN_PAGES },
	{ "4 KiB then 64 KiB: reused",	2,  SRDMA_READ_MIN_PAGES, true,
	  SRDMA_READ_MIN_PAGES },
	{ "4 KiB then 1 MiB: new",	2,  257, false, 257 },
	{ "1 MiB then 4 KiB: reused",	257, 2,  true,  257 },
	{ "none then one page: reused",	0,  1,   true,  SRDMA_READ_MIN_PAGES },
};

static void rdc_desc(const struct rdc_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rdc, rdc_vecs, rdc_desc);

/* Two Calls in turn on one Receive. */
static void read_cache_reuse_case(struct kunit *test)
{
	const struct rdc_vec *v = test->param_value;
	struct srdma_recv *rc = rdc_recv(test);
	struct srdma_call_layout *lo1 = rdc_layout(test, v->first);
	struct srdma_call_layout *lo2 = rdc_layout(test, v->second);
	struct srdma_read *first, *second;

	first = srdma_read_get(rc, lo1);
	KUNIT_ASSERT_NOT_NULL(test, first);
	rdc_expect_fresh(test, rc, first,
			 max_t(unsigned int, v->first, SRDMA_READ_MIN_PAGES),
			 lo1);
	KUNIT_EXPECT_NULL(test, rc->read_spare);
	rdc_use(first, v->first);
	srdma_read_put(rc, first);
	KUNIT_EXPECT_PTR_EQ(test, rc->read_spare, first);

	second = srdma_read_get(rc, lo2);
	KUNIT_ASSERT_NOT_NULL(test, second);
	KUNIT_EXPECT_NULL(test, rc->read_spare);
	/* When not reused, the first was freed: kmemleak would see it. */
	if (v->reused)
		KUNIT_EXPECT_PTR_EQ(test, second, first);
	rdc_expect_fresh(test, rc, second, v->max_pages, lo2);
	srdma_read_put(rc, second);
	rdc_release(rc);
}

/* A Receive keeps one spare: a second state given back is freed. */
static void read_cache_one_spare_case(struct kunit *test)
{
	struct srdma_recv *rc = rdc_recv(test);
	struct srdma_read *a, *b;

	a = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_PTR_NE(test, a, b);
	srdma_read_put(rc, a);
	srdma_read_put(rc, b);
	KUNIT_EXPECT_PTR_EQ(test, rc->read_spare, a);
	rdc_release(rc);
}

/*
 * Give @rd @n pages, as srdma_read_start() does, each with a second
 * reference of the test's own in @pages.
 */
static void rdc_hold_pages(struct kunit *test, struct srdma_read *rd,
			   struct page **pages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		get_page(pages[i]);
		rd->pages[i] = pages[i];
	}
	rd->nr_pages = n;
}

/* Each of @pages has only the test's reference left; drop it. */
static void rdc_expect_given_back(struct kunit *test, struct page **pages,
				  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, page_ref_count(pages[i]), 1);
		put_page(pages[i]);
	}
}

/*
 * A finished Call's pages stay with the spare (rq_arg points into them)
 * until srdma_read_drop_pages(), which gives each back once and leaves
 * the state as srdma_read_get() needs it.
 */
static void read_cache_pages_kept_case(struct kunit *test)
{
	struct srdma_recv *rc = rdc_recv(test);
	struct page *pages[3];
	struct srdma_read *rd;
	unsigned int i;

	rd = srdma_read_get(rc, rdc_layout(test, 3));
	KUNIT_ASSERT_NOT_NULL(test, rd);
	rdc_hold_pages(test, rd, pages, 3);
	srdma_read_put(rc, rd);
	KUNIT_ASSERT_PTR_EQ(test, rc->read_spare, rd);
	KUNIT_EXPECT_EQ(test, rd->nr_pages, 3U);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_PTR_EQ(test, rd->pages[i], pages[i]);
		KUNIT_EXPECT_EQ(test, page_ref_count(pages[i]), 2);
	}

	srdma_read_drop_pages(rd);
	KUNIT_EXPECT_EQ(test, rd->nr_pages, 0U);
	for (i = 0; i < rd->max_pages; i++)
		KUNIT_EXPECT_NULL(test, rd->pages[i]);
	rdc_expect_given_back(test, pages, 3);
	/* Nothing left to give back: a second drop does nothing. */
	srdma_read_drop_pages(rd);
	KUNIT_EXPECT_EQ(test, rd->nr_pages, 0U);
	rdc_release(rc);
}

/* A state freed because the Receive has a spare gives its pages back. */
static void read_cache_pages_freed_case(struct kunit *test)
{
	struct srdma_recv *rc = rdc_recv(test);
	struct page *pages[2];
	struct srdma_read *a, *b;

	a = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, b);
	rdc_hold_pages(test, b, pages, 2);
	srdma_read_put(rc, a);
	srdma_read_put(rc, b);
	KUNIT_EXPECT_PTR_EQ(test, rc->read_spare, a);
	rdc_expect_given_back(test, pages, 2);
	rdc_release(rc);
}

/* A bare connection: the context free list and the orphan list. */
static struct srdma_xprt *rdc_xprt(struct kunit *test)
{
	struct srdma_xprt *sx;

	sx = kunit_kzalloc(test, sizeof(*sx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sx);
	spin_lock_init(&sx->rw_lock);
	INIT_LIST_HEAD(&sx->rw_free);
	spin_lock_init(&sx->send_lock);
	INIT_LIST_HEAD(&sx->read_orphans);
	sx->max_requests = 4;
	return sx;
}

/*
 * A Call's first Read segment takes its state's own context, without the
 * connection's free list; a second segment of the same Call takes one
 * from the list.  Given back, the own context is free again (never on
 * the list) and serves the next Call that reuses the state.
 */
static void read_cache_own_context_case(struct kunit *test)
{
	struct srdma_xprt *sx = rdc_xprt(test);
	struct srdma_recv *rc = rdc_recv(test);
	struct srdma_rw *rw, *other;
	struct srdma_read *rd;

	rd = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, rd);
	rw = srdma_rw_get(sx, &rd->rw, 1);
	KUNIT_EXPECT_PTR_EQ(test, rw, &rd->rw);
	KUNIT_EXPECT_TRUE(test, rd->rw.busy);
	other = srdma_rw_get(sx, &rd->rw, 1);
	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_EXPECT_PTR_NE(test, other, &rd->rw);
	srdma_rw_put(sx, other);
	srdma_rw_put(sx, rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 1U);
	KUNIT_EXPECT_FALSE(test, rd->rw.busy);

	srdma_read_put(rc, rd);
	rd = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, rd);
	KUNIT_EXPECT_PTR_EQ(test, srdma_rw_get(sx, &rd->rw, 1), &rd->rw);
	srdma_rw_put(sx, &rd->rw);
	KUNIT_EXPECT_EQ(test, sx->rw_free_count, 1U);
	srdma_read_put(rc, rd);
	srdma_rw_cache_destroy(sx);
	rdc_release(rc);
}

/*
 * A state whose Reads were posted only in part stays whole, pages and
 * all, off its Receive, until the drain releases it: then its pages go
 * back and it is freed (kmemleak would see it kept).
 */
static void read_cache_orphan_case(struct kunit *test)
{
	struct srdma_xprt *sx = rdc_xprt(test);
	struct srdma_recv *rc = rdc_recv(test);
	struct page *pages[2];
	struct srdma_read *rd;
	unsigned int i;

	rd = srdma_read_get(rc, rdc_layout(test, 2));
	KUNIT_ASSERT_NOT_NULL(test, rd);
	rdc_hold_pages(test, rd, pages, 2);
	srdma_read_orphan(sx, rd);
	KUNIT_EXPECT_NULL(test, rc->read_spare);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&sx->read_orphans), 1U);
	for (i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, page_ref_count(pages[i]), 2);

	srdma_read_release_orphans(sx);
	KUNIT_EXPECT_TRUE(test, list_empty(&sx->read_orphans));
	rdc_expect_given_back(test, pages, 2);
	rdc_release(rc);
}

static struct kunit_case rpcrdma_server_read_cache_cases[] = {
	KUNIT_CASE_PARAM(read_cache_reuse_case, rdc_gen_params),
	KUNIT_CASE(read_cache_one_spare_case),
	KUNIT_CASE(read_cache_pages_kept_case),
	KUNIT_CASE(read_cache_pages_freed_case),
	KUNIT_CASE(read_cache_own_context_case),
	KUNIT_CASE(read_cache_orphan_case),
	{}
};

static struct kunit_suite rpcrdma_server_read_cache_suite = {
	.name = "rpcrdma_server_read_cache",
	.test_cases = rpcrdma_server_read_cache_cases,
};

kunit_test_suites(&rpcrdma_server_read_cache_suite);
