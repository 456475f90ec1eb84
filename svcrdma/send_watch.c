// SPDX-License-Identifier: GPL-2.0
/*
 * The watch over a connection's Send Queue.
 *
 * A peer that stops posting Receives, having asked for unlimited RNR
 * retries (which its connect request gives our QP on InfiniBand and
 * RoCE), leaves our Sends retrying for as long as it keeps the
 * connection, and one that stops acknowledging leaves them waiting.
 * Each such reply keeps its pages, and the Writes chained before it
 * keep theirs mapped.  A reply that finds no room waits at most
 * sq_stall_timeout (srdma_sq_reserve_wait()), but the Send Queue is
 * sized for a grant of the largest replies: a peer can fill it with
 * stuck replies and no thread ever waits.
 *
 * So a delayed work per connection (@send_watch) runs while a signaled
 * Send is posted and its completion has not come.  The Send Queue
 * completes in posting order, so the oldest such Send is the one the
 * queue is stuck on if it is stuck: once neither it completed nor the
 * queue retired anything for send_timeout, the connection is closed
 * and its drain flushes every Send.  The unsignaled Sends an idle
 * connection leaves on the FIFO owe no completion and are not watched.
 */
#include <kunit/visibility.h>
#include <linux/jiffies.h>

#include "server.h"
#include "trace.h"

/**
 * srdma_send_watch_left - time left before a Send Queue counts as stalled
 * @posted: when the oldest Send whose completion is owed was posted
 * @progress: when the Send Queue last retired an entry
 * @now: the time now
 * @bound: send_timeout
 *
 * Counted from the later of @posted and @progress: a Send posted behind
 * a long queue waits its turn while the queue retires what comes first.
 * All in jiffies; the Reads' watch counts the same way
 * (srdma_read_time_left()).
 *
 * Return: jiffies left, at most @bound; 0 once the bound is reached.
 */
VISIBLE_IF_KUNIT unsigned long srdma_send_watch_left(unsigned long posted,
						     unsigned long progress,
						     unsigned long now,
						     unsigned long bound)
{
	unsigned long since = time_after(progress, posted) ? progress : posted;

	return srdma_read_time_left(since, now, bound);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_watch_left);

/* A Send went send_timeout without completing: close the connection. */
static void srdma_send_stalled(struct srdma_xprt *sx, unsigned long age,
			       unsigned int sends)
{
	if (!test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
		srdma_stat_add(SRDMA_STAT_SQ_STALL, 1);
	trace_svcrdma_send_stall(sx, jiffies_to_msecs(age), sends);
	pr_warn_ratelimited("svcrdma: %s: a Send went %u ms without completing (%u Sends posted): closing the connection\n",
			    sx->xprt.xpt_remotebuf, jiffies_to_msecs(age),
			    sends);
	srdma_close(sx, "Sends not completing");
}

/**
 * srdma_send_watch_check - look at the age of a connection's oldest Send
 * @sx: the connection
 * @now: the time now (jiffies)
 *
 * Closes the connection once the oldest Send whose completion is owed
 * has gone send_timeout without it, the queue retiring nothing
 * meanwhile (srdma_send_watch_left()).  With no such Send, the watch
 * stops until the next signaled Send is posted.
 *
 * Return: jiffies until the next look, or 0 for none (no completion
 * owed, or the connection is closing).
 */
VISIBLE_IF_KUNIT unsigned long srdma_send_watch_check(struct srdma_xprt *sx,
						      unsigned long now)
{
	unsigned long posted, progress = 0, left = 0;
	unsigned int sends = 0;
	bool owed;

	spin_lock(&sx->sendq.lock);
	owed = rpcrdma_sendq_oldest_owed(&sx->sendq, &posted);
	if (owed) {
		progress = READ_ONCE(sx->sq_progress);
		left = srdma_send_watch_left(posted, progress, now,
					     sx->send_timeout);
		if (!left)
			sends = rpcrdma_sendq_length(&sx->sendq);
	} else {
		sx->send_watching = false;
	}
	spin_unlock(&sx->sendq.lock);
	if (!owed || left)
		return left;
	/* @send_watching stays set: a closing connection needs no watch. */
	srdma_send_stalled(sx, now - (time_after(progress, posted) ?
				      progress : posted), sends);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_watch_check);

/**
 * srdma_send_watch_start - start watching a connection's Sends
 * @sx: the connection, whose signaled Send was just queued with
 *	@send_watching set by its poster under @sendq.lock
 */
void srdma_send_watch_start(struct srdma_xprt *sx)
{
	srdma_conn_check_start(&sx->send_watch, sx->send_timeout);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_watch_start);

/**
 * srdma_send_watch_init - a new transport's Send watch
 * @sx: the transport, zeroed
 */
void srdma_send_watch_init(struct srdma_xprt *sx)
{
	srdma_conn_check_init(&sx->send_watch, sx, srdma_send_watch_check);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_watch_init);

/**
 * srdma_send_watch_exit - a connection's Send watch is over
 * @sx: the connection, which no thread posts on any more
 *
 * On return the watch neither runs nor is queued.  Sleeps.
 */
void srdma_send_watch_exit(struct srdma_xprt *sx)
{
	srdma_conn_check_stop(&sx->send_watch);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_watch_exit);
