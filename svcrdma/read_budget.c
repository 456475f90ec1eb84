// SPDX-License-Identifier: GPL-2.0
/*
 * What RDMA Reads of Read chunks may pin, and for how long.
 *
 * A Call with Read chunks gets pages of its own, and its Reads are
 * posted with no nfsd thread waiting for them (read.c): the pages stay
 * until the client's adapter answers.  A client that never answers would
 * otherwise pin up to sv_max_mesg per Call, its whole credit grant of
 * Calls at once, on every connection it opens.  Two bounds apply:
 *
 * - The pages of Reads in flight are counted from their allocation to
 *   their completion, per connection against @read_limit (what the
 *   connection's Read depth can have on the wire, twice over, and at
 *   least two of the largest Calls) and over all connections against the
 *   read_budget sysctl.  A Call that would pass either is held back on
 *   the connection's rx_read_wait, decoded, until pages come back: a
 *   completion of this connection (for its own limit) or of any (for the
 *   budget) has the held Calls tried again, oldest first.  A Call's
 *   Reads always go when none are in flight where it was refused, so a
 *   Call larger than a limit still goes, alone.  A client whose adapter
 *   answers Reads as they come sees its Calls wait the microseconds one
 *   Read takes, no error; the Call is never refused.
 *
 * - A delayed work per connection (@read_watch), queued while Reads are
 *   in flight, looks at the oldest one (rx_reading is in posting order,
 *   and an RC queue completes in that order): once it has gone
 *   read_timeout unanswered, the connection is closed.  The close moves
 *   the QP to the error state, which flushes the Reads; their pages and
 *   mappings go after the drain in srdma_free(), as for any closed
 *   connection, never while a posted work request may still write them.
 *
 * The hot path (one NFS WRITE's Read) takes no lock of its own: two
 * atomic additions when the Reads are posted and two subtractions when
 * they complete; a held Call costs the locks of the slow path below.
 */
#include <kunit/visibility.h>
#include <linux/workqueue.h>

#include "server.h"
#include "trace.h"

/* Pages of RDMA Reads in flight, over every connection. */
static atomic_long_t srdma_read_pages_all = ATOMIC_LONG_INIT(0);

/*
 * Connections with a Call held back for want of room in read_budget:
 * Reads that complete on any connection have them try again.  The lock
 * comes before any connection's rx_lock.
 */
static DEFINE_SPINLOCK(srdma_read_wait_lock);
static LIST_HEAD(srdma_read_waiting);
static atomic_t srdma_read_nr_waiting = ATOMIC_INIT(0);

/**
 * srdma_read_admit - whether a Call's Reads may start
 * @npages: pages of the Call's Reads
 * @conn_pages: pages of the connection's Reads in flight
 * @conn_limit: the connection's limit (@read_limit)
 * @server_pages: pages of all connections' Reads in flight
 * @server_limit: read_budget
 *
 * Return: %SRDMA_READ_GO if the pages fit both (srdma_read_fits()), else
 * which one they do not fit, the connection's first.
 */
enum srdma_read_verdict srdma_read_admit(unsigned int npages,
					 unsigned int conn_pages,
					 unsigned int conn_limit,
					 unsigned long server_pages,
					 unsigned long server_limit)
{
	if (!srdma_read_fits(npages, conn_pages, conn_limit))
		return SRDMA_READ_CONN_FULL;
	if (!srdma_read_fits(npages, server_pages, server_limit))
		return SRDMA_READ_SERVER_FULL;
	return SRDMA_READ_GO;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_admit);

/**
 * srdma_read_conn_limit - a connection's limit of pages of Reads in flight
 * @ord: RDMA Reads the connection may have outstanding on the wire
 * @read_sges: pages one RDMA Read moves at most (the QP's read SGEs)
 * @max_mesg: the largest Call the service takes (sv_max_mesg)
 *
 * Twice what the connection's Read depth can move at once, so that the
 * next Reads are queued while those on the wire complete, and at least
 * two of the largest Calls.  More would only queue behind those on the
 * wire, pinning pages without moving data sooner.
 *
 * Return: the limit, in pages.
 */
unsigned int srdma_read_conn_limit(unsigned int ord, unsigned int read_sges,
				   unsigned int max_mesg)
{
	unsigned int wire = max(ord, 1U) * max(read_sges, 1U);
	unsigned int call = DIV_ROUND_UP(max_mesg, PAGE_SIZE);

	return 2 * max(wire, call);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_conn_limit);

/**
 * srdma_read_time_left - how long the oldest Read may still go unanswered
 * @since: when it was posted (jiffies)
 * @now: the time now (jiffies)
 * @bound: read_timeout, in jiffies
 *
 * A Read posted after @now was read (@since later than @now) has the
 * whole bound left.
 *
 * Return: 0 once @bound has passed since @since; else the jiffies left,
 * at most @bound.
 */
unsigned long srdma_read_time_left(unsigned long since, unsigned long now,
				   unsigned long bound)
{
	if (time_after_eq(now, since + bound))
		return 0;
	return min(since + bound - now, bound);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_time_left);

/**
 * srdma_read_pages_in_flight - pages of RDMA Reads in flight, server-wide
 *
 * Return: what read_budget is compared with.
 */
unsigned long srdma_read_pages_in_flight(void)
{
	return atomic_long_read(&srdma_read_pages_all);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_pages_in_flight);

/**
 * srdma_read_charge - count a Call's Read pages, if they fit
 * @sx: the connection
 * @npages: pages the Call's Reads land in
 *
 * Added first and taken back if they do not fit, so that Calls of one
 * connection started by several nfsd threads at once are counted
 * without a lock.  The caller records @npages in the Read's state
 * (@charged) and gives them back with srdma_read_uncharge() when the
 * Reads complete or are given up.
 *
 * Return: %SRDMA_READ_GO with the pages counted, or why not (nothing
 * counted).
 */
enum srdma_read_verdict srdma_read_charge(struct srdma_xprt *sx,
					  unsigned int npages)
{
	unsigned int conn;
	unsigned long all;

	conn = atomic_add_return(npages, &sx->read_pages);
	if (unlikely(!srdma_read_fits(npages, conn - npages, sx->read_limit))) {
		atomic_sub(npages, &sx->read_pages);
		return SRDMA_READ_CONN_FULL;
	}
	all = atomic_long_add_return(npages, &srdma_read_pages_all);
	if (unlikely(!srdma_read_fits(npages, all - npages,
				      READ_ONCE(srdma_read_budget)))) {
		atomic_long_sub(npages, &srdma_read_pages_all);
		atomic_sub(npages, &sx->read_pages);
		return SRDMA_READ_SERVER_FULL;
	}
	return SRDMA_READ_GO;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_charge);

/* Connections waiting for room in read_budget try their Calls again. */
static noinline void srdma_read_kick_waiting(void)
{
	struct srdma_xprt *sx, *next;

	spin_lock(&srdma_read_wait_lock);
	list_for_each_entry_safe(sx, next, &srdma_read_waiting, read_waiter) {
		list_del_init(&sx->read_waiter);
		atomic_dec(&srdma_read_nr_waiting);
		srdma_read_kick(sx);
	}
	spin_unlock(&srdma_read_wait_lock);
}

/**
 * srdma_read_uncharge - pages of Reads are no longer in flight
 * @sx: the connection
 * @npages: pages srdma_read_charge() counted (0: nothing to do)
 *
 * Connections waiting for room in read_budget try again.  The
 * connection's own held Calls are its caller's to wake: the completion
 * does it under the lock it takes anyway (srdma_read_done()).
 */
void srdma_read_uncharge(struct srdma_xprt *sx, unsigned int npages)
{
	if (!npages)
		return;
	atomic_sub(npages, &sx->read_pages);
	atomic_long_sub(npages, &srdma_read_pages_all);
	/*
	 * Pairs with the barrier in srdma_read_hold(): either a connection
	 * that just listed itself sees these pages back, or it is seen
	 * here.
	 */
	smp_mb__after_atomic();
	if (unlikely(atomic_read(&srdma_read_nr_waiting)))
		srdma_read_kick_waiting();
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_uncharge);

/**
 * srdma_read_kick - have a connection's held Calls tried again
 * @sx: the connection
 *
 * Any context but under a connection's rx_lock.
 */
void srdma_read_kick(struct srdma_xprt *sx)
{
	bool held;

	spin_lock(&sx->rx_lock);
	sx->read_retry = true;
	held = !list_empty(&sx->rx_read_wait);
	if (held)
		set_bit(XPT_DATA, &sx->xprt.xpt_flags);
	spin_unlock(&sx->rx_lock);
	if (held)
		srdma_requeue(sx);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_kick);

/* Wait for room in read_budget: Reads completing anywhere kick @sx. */
static void srdma_read_wait_server(struct srdma_xprt *sx)
{
	spin_lock(&srdma_read_wait_lock);
	if (list_empty(&sx->read_waiter)) {
		list_add_tail(&sx->read_waiter, &srdma_read_waiting);
		atomic_inc(&srdma_read_nr_waiting);
	}
	spin_unlock(&srdma_read_wait_lock);
}

/**
 * srdma_read_hold - hold back a Call until pages of Reads come back
 * @sx: the connection
 * @rc: the Call's Receive, decoded, on no list
 * @npages: pages its Reads need (unused for %SRDMA_READ_QUEUED)
 * @why: what srdma_read_charge() said, or %SRDMA_READ_QUEUED for a Call
 *	that goes behind Calls held already, untried
 * @retried: @rc was held before and came back from rx_read_wait
 *
 * srdma_recvfrom() takes held Calls again, oldest first, once pages come
 * back (@read_retry).  Pages that came back between the refusal and now
 * woke nobody: they are looked at again here, after the Call is listed.
 */
void srdma_read_hold(struct srdma_xprt *sx, struct srdma_recv *rc,
		     unsigned int npages, enum srdma_read_verdict why,
		     bool retried)
{
	bool kick;

	spin_lock(&sx->rx_lock);
	if (retried)
		list_add(&rc->node, &sx->rx_read_wait);
	else
		list_add_tail(&rc->node, &sx->rx_read_wait);
	if (why != SRDMA_READ_QUEUED)
		sx->read_retry = false;
	kick = sx->read_retry;
	spin_unlock(&sx->rx_lock);

	if (!retried) {
		srdma_stat_add(SRDMA_STAT_READ_HOLD, 1);
		trace_svcrdma_read_hold(sx, rc->hdr.xid, npages, why,
					srdma_read_pages_in_flight());
	}
	if (why == SRDMA_READ_QUEUED)
		goto out;
	if (why == SRDMA_READ_SERVER_FULL)
		srdma_read_wait_server(sx);
	/* Pairs with the barrier in srdma_read_uncharge(). */
	smp_mb();
	if (srdma_read_admit(npages, atomic_read(&sx->read_pages),
			     sx->read_limit, srdma_read_pages_in_flight(),
			     READ_ONCE(srdma_read_budget)) == SRDMA_READ_GO)
		kick = true;
out:
	if (kick)
		srdma_read_kick(sx);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_hold);

/* The oldest Read went read_timeout unanswered: close the connection. */
static void srdma_read_stalled(struct srdma_xprt *sx, unsigned long age,
			       unsigned int reads, unsigned int held)
{
	if (!test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
		srdma_stat_add(SRDMA_STAT_READ_STALL, 1);
	trace_svcrdma_read_stall(sx, jiffies_to_msecs(age), reads, held);
	pr_warn_ratelimited("svcrdma: %s: an RDMA Read went %u ms unanswered (%u pages of Reads in flight): closing the connection\n",
			    sx->xprt.xpt_remotebuf, jiffies_to_msecs(age),
			    atomic_read(&sx->read_pages));
	srdma_close(sx, "RDMA Reads not answered");
}

/**
 * srdma_read_watch_check - look at the age of a connection's oldest Read
 * @sx: the connection
 * @now: the time now (jiffies)
 *
 * Closes the connection once its oldest Read in flight has gone
 * read_timeout unanswered (srdma_read_time_left()).  With no Read in
 * flight, the watch stops until the next one is posted.
 *
 * Return: jiffies until the next look, or 0 for none (no Read in flight,
 * or the connection is closing).
 */
VISIBLE_IF_KUNIT unsigned long srdma_read_watch_check(struct srdma_xprt *sx,
						      unsigned long now)
{
	unsigned int reads = 0, held = 0;
	unsigned long since = 0, left = 0;
	struct srdma_recv *rc;

	spin_lock(&sx->rx_lock);
	rc = list_first_entry_or_null(&sx->rx_reading, struct srdma_recv,
				      node);
	if (rc) {
		since = rc->read->since;
		left = srdma_read_time_left(since, now, sx->read_timeout);
		if (!left) {
			reads = list_count_nodes(&sx->rx_reading);
			held = list_count_nodes(&sx->rx_read_wait);
		}
	} else {
		sx->read_watching = false;
	}
	spin_unlock(&sx->rx_lock);
	if (!rc || left)
		return left;
	/* @read_watching stays set: a closing connection needs no watch. */
	srdma_read_stalled(sx, now - since, reads, held);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_watch_check);

/**
 * srdma_read_watch_start - start watching a connection's Reads
 * @sx: the connection, whose first Read in flight was just listed on
 *	rx_reading, @read_watching set by its poster under rx_lock
 */
void srdma_read_watch_start(struct srdma_xprt *sx)
{
	srdma_conn_check_start(&sx->read_watch, sx->read_timeout);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_watch_start);

/**
 * srdma_read_budget_init - a new transport's Read accounting
 * @sx: the transport, zeroed
 */
void srdma_read_budget_init(struct srdma_xprt *sx)
{
	INIT_LIST_HEAD(&sx->rx_read_wait);
	INIT_LIST_HEAD(&sx->read_waiter);
	srdma_conn_check_init(&sx->read_watch, sx, srdma_read_watch_check);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_budget_init);

/**
 * srdma_read_budget_exit - a connection's watch and wait are over
 * @sx: the connection, which no nfsd thread uses any more (it is being
 *	freed), so nothing queues the watch or lists it again
 *
 * On return the watch neither runs nor is queued, and no completion of
 * another connection reaches @sx through the waiting list.
 */
void srdma_read_budget_exit(struct srdma_xprt *sx)
{
	srdma_conn_check_stop(&sx->read_watch);
	spin_lock(&srdma_read_wait_lock);
	if (!list_empty(&sx->read_waiter)) {
		list_del_init(&sx->read_waiter);
		atomic_dec(&srdma_read_nr_waiting);
	}
	spin_unlock(&srdma_read_wait_lock);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_budget_exit);
