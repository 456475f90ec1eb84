// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the pages a connection keeps for its next Read chunks
 * (svcrdma/read_stash.c).
 *
 * A released Call's pages are kept up to the stash's size, but only
 * those no one else holds: a page with another reference goes back to
 * the caller to release.  A Call takes the kept pages first.  A stash
 * that no Call took from for SRDMA_READ_STASH_QUIET gives them all back,
 * and so does a closing connection.  No device is needed: these run on
 * a bare struct srdma_xprt.  kmemleak, in the test kernel, catches a
 * page that was dropped instead of given back.
 */
#include <kunit/test.h>
#include <linux/jiffies.h>
#include <linux/mm.h>

#include "../svcrdma/server.h"

#define RST_MAX		4U

static int rst_init(struct kunit *test)
{
	struct srdma_xprt *sx = kunit_kzalloc(test, sizeof(*sx), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sx);
	srdma_read_stash_init(sx);
	KUNIT_ASSERT_EQ(test, srdma_read_stash_setup(sx, RST_MAX), 0);
	test->priv = sx;
	return 0;
}

static void rst_exit(struct kunit *test)
{
	srdma_read_stash_exit(test->priv);
}

static void rst_alloc(struct kunit *test, struct page **pages, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
}

/*
 * Six pages given to a stash of four, the second one held elsewhere:
 * four are kept, the held one and the one past the room come back, in
 * order, and the next Call takes the four kept.
 */
static void read_stash_give_take_case(struct kunit *test)
{
	struct srdma_xprt *sx = test->priv;
	struct page *pages[6], *given[6], *taken[6] = {};
	unsigned int left;

	KUNIT_EXPECT_EQ(test, srdma_read_stash_take(sx, taken, 6), 0U);
	rst_alloc(test, pages, 6);
	get_page(pages[1]);
	memcpy(given, pages, sizeof(pages));
	left = srdma_read_stash_give(sx, given, 6);
	KUNIT_ASSERT_EQ(test, left, 2U);
	KUNIT_EXPECT_PTR_EQ(test, given[0], pages[1]);
	KUNIT_EXPECT_PTR_EQ(test, given[1], pages[5]);
	KUNIT_EXPECT_EQ(test, sx->read_stash.nr, RST_MAX);
	put_page(pages[1]);
	release_pages(given, left);

	KUNIT_EXPECT_EQ(test, srdma_read_stash_take(sx, taken, 3), 3U);
	KUNIT_EXPECT_EQ(test, srdma_read_stash_take(sx, taken + 3, 3), 1U);
	KUNIT_EXPECT_NULL(test, taken[4]);
	KUNIT_EXPECT_EQ(test, sx->read_stash.nr, 0U);
	release_pages(taken, 4);
}

/*
 * The drain: pages taken a moment ago are kept, and the next look is
 * when the stash would be quiet; once it is, every page goes back and
 * the drain stops.  An empty stash stops it at once.
 */
static void read_stash_quiet_case(struct kunit *test)
{
	struct srdma_xprt *sx = test->priv;
	struct srdma_read_stash *st = &sx->read_stash;
	unsigned long now = jiffies;
	struct page *pages[2];

	KUNIT_EXPECT_EQ(test, srdma_read_stash_check(sx, now), 0UL);
	KUNIT_EXPECT_FALSE(test, st->draining);

	rst_alloc(test, pages, 2);
	KUNIT_ASSERT_EQ(test, srdma_read_stash_give(sx, pages, 2), 0U);
	KUNIT_EXPECT_TRUE(test, st->draining);
	st->last_take = now;
	KUNIT_EXPECT_EQ(test, srdma_read_stash_check(sx, now + 1),
			(unsigned long)SRDMA_READ_STASH_QUIET - 1);
	KUNIT_EXPECT_EQ(test, st->nr, 2U);
	KUNIT_EXPECT_EQ(test, srdma_read_stash_check(sx, now +
						     SRDMA_READ_STASH_QUIET),
			0UL);
	KUNIT_EXPECT_EQ(test, st->nr, 0U);
	KUNIT_EXPECT_FALSE(test, st->draining);
}

/* A stash that could not be set up keeps nothing and gives all back. */
static void read_stash_none_case(struct kunit *test)
{
	struct srdma_xprt *sx = test->priv;
	struct page *pages[2];

	srdma_read_stash_exit(sx);
	rst_alloc(test, pages, 2);
	KUNIT_EXPECT_EQ(test, srdma_read_stash_give(sx, pages, 2), 2U);
	release_pages(pages, 2);
}

static struct kunit_case rpcrdma_server_read_stash_cases[] = {
	KUNIT_CASE(read_stash_give_take_case),
	KUNIT_CASE(read_stash_quiet_case),
	KUNIT_CASE(read_stash_none_case),
	{}
};

static struct kunit_suite rpcrdma_server_read_stash_suite = {
	.name		= "rpcrdma_server_read_stash",
	.init		= rst_init,
	.exit		= rst_exit,
	.test_cases	= rpcrdma_server_read_stash_cases,
};

kunit_test_suites(&rpcrdma_server_read_stash_suite);
