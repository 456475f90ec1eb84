// SPDX-License-Identifier: GPL-2.0
/*
 * A connection's stash of the pages its Calls with Read chunks are
 * rebuilt in (read.c).
 *
 * Each such Call needs pages of its own, up to a largest Call's, from
 * its Reads' posting until nfsd releases it.  Taking them from the page
 * allocator and giving them back costs the allocation, the release and,
 * where the kernel initialises memory on allocation, a clear of every
 * page, which the Read then overwrites.  A connection that writes keeps
 * taking as many pages as it gave back moments before, so a released
 * Call's pages stay here for the next Call instead:
 *
 * - Only pages no one else holds (a page count of 1) are kept; any
 *   other goes back to the allocator as before.
 * - At most half the connection's limit of pages of Reads in flight
 *   are kept (what its Reads move at once, at least one largest Call's),
 *   so that a writer holds at most that much more memory than it uses:
 *   a stash of one Call's pages would serve one Call of those in flight
 *   and leave the others to the allocator.
 * - A connection that took none for SRDMA_READ_STASH_QUIET gives all of
 *   them back (a delayed work, @drain), and so does a closing one.
 *
 * A kept page still holds the data of this connection's earlier Call.
 * The Call rebuilt in it overwrites what nfsd may read of it (the Read
 * data, the inline pieces and the XDR pads, call_layout.c), and no
 * other connection ever gets it.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "server.h"

/**
 * srdma_read_stash_take - pages for a Call, from the stash first
 * @sx: the connection
 * @pages: where to put them, @n NULL entries
 * @n: pages wanted
 *
 * Return: the pages put at the start of @pages; the caller allocates
 * the rest.
 */
unsigned int srdma_read_stash_take(struct srdma_xprt *sx, struct page **pages,
				   unsigned int n)
{
	struct srdma_read_stash *st = &sx->read_stash;
	unsigned int got;

	if (!READ_ONCE(st->nr))
		return 0;
	spin_lock(&st->lock);
	got = min(n, st->nr);
	st->nr -= got;
	memcpy(pages, st->pages + st->nr, got * sizeof(*pages));
	st->last_take = jiffies;
	spin_unlock(&st->lock);
	return got;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_stash_take);

/**
 * srdma_read_stash_give - keep a released Call's pages for the next
 * @sx: the connection
 * @pages: the pages, each holding one reference of the caller's
 * @n: how many
 *
 * Keeps what the stash has room for of the pages no one else holds;
 * the others are moved to the start of @pages, for the caller to
 * release.
 *
 * Return: the pages left at the start of @pages.
 */
unsigned int srdma_read_stash_give(struct srdma_xprt *sx, struct page **pages,
				   unsigned int n)
{
	struct srdma_read_stash *st = &sx->read_stash;
	unsigned int i, left = 0;
	bool arm = false;

	spin_lock(&st->lock);
	for (i = 0; i < n; i++) {
		struct page *page = pages[i];

		if (st->nr < st->max && page_ref_count(page) == 1)
			st->pages[st->nr++] = page;
		else
			pages[left++] = page;
	}
	if (st->nr && !st->draining) {
		/* Quiet from now on if no Call takes them. */
		st->last_take = jiffies;
		st->draining = true;
		arm = true;
	}
	spin_unlock(&st->lock);
	if (arm)
		srdma_conn_check_start(&st->drain, SRDMA_READ_STASH_QUIET);
	return left;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_stash_give);

/* Give every kept page back to the allocator.  Under the stash's lock. */
static void srdma_read_stash_empty(struct srdma_read_stash *st)
{
	release_pages(st->pages, st->nr);
	st->nr = 0;
}

/**
 * srdma_read_stash_check - give the pages back if the connection is quiet
 * @sx: the connection
 * @now: the time now (jiffies)
 *
 * Return: jiffies until the next look, or 0 once the stash is empty.
 */
VISIBLE_IF_KUNIT unsigned long srdma_read_stash_check(struct srdma_xprt *sx,
						      unsigned long now)
{
	struct srdma_read_stash *st = &sx->read_stash;
	unsigned long quiet_at, next = 0;

	spin_lock(&st->lock);
	quiet_at = st->last_take + SRDMA_READ_STASH_QUIET;
	if (st->nr && time_before(now, quiet_at))
		next = quiet_at - now;
	else
		srdma_read_stash_empty(st);
	if (!next)
		st->draining = false;
	spin_unlock(&st->lock);
	return next;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_stash_check);

/**
 * srdma_read_stash_init - an empty stash that keeps nothing yet
 * @sx: the new connection
 */
void srdma_read_stash_init(struct srdma_xprt *sx)
{
	struct srdma_read_stash *st = &sx->read_stash;

	spin_lock_init(&st->lock);
	srdma_conn_check_init(&st->drain, sx, srdma_read_stash_check);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_stash_init);

/**
 * srdma_read_stash_setup - let the stash keep pages
 * @sx: the connection, before its first Call
 * @max: most pages to keep
 *
 * Return: 0, or -ENOMEM (the stash then keeps nothing, which costs only
 * speed).
 */
int srdma_read_stash_setup(struct srdma_xprt *sx, unsigned int max)
{
	struct srdma_read_stash *st = &sx->read_stash;

	st->pages = kcalloc(max, sizeof(*st->pages), GFP_KERNEL);
	if (!st->pages)
		return -ENOMEM;
	st->max = max;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_stash_setup);

/**
 * srdma_read_stash_exit - give back every kept page, for good
 * @sx: the connection, whose Calls are all released
 *
 * Sleeps.
 */
void srdma_read_stash_exit(struct srdma_xprt *sx)
{
	struct srdma_read_stash *st = &sx->read_stash;

	srdma_conn_check_stop(&st->drain);
	spin_lock(&st->lock);
	srdma_read_stash_empty(st);
	spin_unlock(&st->lock);
	kfree(st->pages);
	st->pages = NULL;
	st->max = 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_stash_exit);
