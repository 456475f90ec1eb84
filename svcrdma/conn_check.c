// SPDX-License-Identifier: GPL-2.0
/*
 * A connection's own periodic check: a delayed work that looks at the
 * connection and says when to look again.  The quiet check of a grant
 * (credits.c) and the watch over the oldest RDMA Read (read_budget.c)
 * are such checks.
 *
 * A work item, not a timer: the checks take locks that their other
 * users take with softirqs enabled.  It holds no reference on the
 * connection: the connection's teardown stops it first
 * (srdma_conn_check_stop()).
 */
#include <kunit/visibility.h>
#include <linux/workqueue.h>

#include "server.h"

static void srdma_conn_check_worker(struct work_struct *work)
{
	struct srdma_conn_check *c = container_of(to_delayed_work(work),
						  struct srdma_conn_check,
						  work);
	unsigned long next = c->check(c->sx, jiffies);

	if (next)
		queue_delayed_work(system_percpu_wq, &c->work, next);
}

/**
 * srdma_conn_check_init - set up a connection's check
 * @c: the check
 * @sx: the connection it looks at
 * @check: looks at @sx at a time (jiffies), and returns the jiffies until
 *	it is to look again, or 0 to stop until started again
 */
void srdma_conn_check_init(struct srdma_conn_check *c, struct srdma_xprt *sx,
			   srdma_conn_check_fn check)
{
	INIT_DELAYED_WORK(&c->work, srdma_conn_check_worker);
	c->sx = sx;
	c->check = check;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_conn_check_init);

/**
 * srdma_conn_check_start - have a check look after @delay
 * @c: the check
 * @delay: jiffies
 *
 * A check already queued keeps its time: at most one is queued, and it
 * queues the next itself.
 */
void srdma_conn_check_start(struct srdma_conn_check *c, unsigned long delay)
{
	queue_delayed_work(system_percpu_wq, &c->work, delay);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_conn_check_start);

/**
 * srdma_conn_check_stop - neither queued nor running on return
 * @c: the check
 *
 * It may be started again afterwards.  Sleeps.
 */
void srdma_conn_check_stop(struct srdma_conn_check *c)
{
	cancel_delayed_work_sync(&c->work);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_conn_check_stop);
