// SPDX-License-Identifier: GPL-2.0
/*
 * The client transport class: netids "rdma" and "rdma6", the rpc_xprt
 * operations, request slots and buffers, and the Send path.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sunrpc/addr.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/seq_file.h>

#include "client.h"
#include "trace.h"

static const struct rpc_xprt_ops xrdma_ops;
static struct xprt_class xrdma_class;

/* RDMA timeouts: reconnect handles loss, so wait long, no retries. */
static const struct rpc_timeout xrdma_default_timeout = {
	.to_initval = 60 * HZ,
	.to_maxval = 60 * HZ,
};

/*
 * Request slots
 */

/*
 * xprt_wake_up_backlog(), which searches every priority level of the
 * backlog under its lock: with nobody queued it only clears
 * XPRT_CONGESTED.  A task that queues itself meanwhile (through
 * xprt_throttle_congested(), under another lock) is missed as it would
 * be by a search that came just before it, as with sunrpc's own.
 */
static bool xrdma_wake_up_backlog(struct rpc_xprt *xprt,
				  struct rpc_rqst *rqst)
{
	if (!READ_ONCE(xprt->backlog.qlen)) {
		clear_bit(XPRT_CONGESTED, &xprt->state);
		return false;
	}
	return xprt_wake_up_backlog(xprt, rqst);
}

/**
 * xrdma_req_release - the last reference to a request slot went
 * @ref: the slot's @ref
 *
 * A backchannel request is freed; a forward slot goes to a task waiting
 * in the backlog, or back on the free list.  See xrdma_req_put().
 */
void xrdma_req_release(struct kref *ref)
{
	struct xrdma_req *req = container_of(ref, struct xrdma_req, ref);
	struct xrdma_xprt *rx = req->rx;

	if (req->is_bc) {
		xrdma_bc_req_free(req);
		return;
	}
	/* No reply may be taken for it until its next Send is posted. */
	req->reply_claimed = true;
	spin_lock(&rx->free_lock);
	kref_init(&req->ref);
	/* Hand the slot straight to a waiting task, if there is one. */
	if (!xrdma_wake_up_backlog(&rx->xprt, &req->rqst)) {
		memset(&req->rqst, 0, sizeof(req->rqst));
		xrdma_free_push(&rx->free_reqs, req);
	}
	spin_unlock(&rx->free_lock);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_req_release);

static void xrdma_alloc_slot(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);
	struct xrdma_req *req;

	spin_lock(&rx->free_lock);
	req = xrdma_free_pop(&rx->free_reqs);
	if (req) {
		spin_unlock(&rx->free_lock);
		task->tk_rqstp = &req->rqst;
		task->tk_status = 0;
		return;
	}
	task->tk_status = -EAGAIN;
	xprt_add_backlog(xprt, task);
	spin_unlock(&rx->free_lock);
}

static void xrdma_free_slot(struct rpc_xprt *xprt, struct rpc_rqst *rqst)
{
	xrdma_req_put(xrdma_req(rqst));
}

/*
 * The transport's write lock and congestion window are sunrpc's
 * (xprt_reserve_xprt_cong() and the rest in net/sunrpc/xprt.c).  When
 * sunrpc gives back either, it searches the sending queue for a task to
 * hand it to, under the queue's lock, up to three times per RPC: with
 * the backlog's search (xrdma_wake_up_backlog()), about 450
 * instructions an RPC when nobody waits, the common case.  A task joins
 * that queue only in ->reserve_xprt,
 * under transport_lock, which every caller of the two methods below
 * holds: so with the queue empty there is nobody to hand anything to,
 * and they do only what sunrpc would do besides.  Else, or while a
 * close waits for the lock, sunrpc's own.
 */
static bool xrdma_nobody_sending(struct rpc_xprt *xprt)
{
	lockdep_assert_held(&xprt->transport_lock);
	return !READ_ONCE(xprt->sending.qlen);
}

/**
 * xrdma_xprt_lock_init - find the wait queue of a transport's write lock
 * @rx: new transport
 *
 * Tasks that take XPRT_LOCKED with wait_on_bit_lock() sleep on a wait
 * queue hashed from the bit's address, which never changes: looked up
 * once here, a release need only see whether anyone sleeps on it.
 */
VISIBLE_IF_KUNIT void xrdma_xprt_lock_init(struct xrdma_xprt *rx)
{
	rx->lock_waitq = bit_waitqueue(&rx->xprt.state, XPRT_LOCKED);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_xprt_lock_init);

/* Wake whoever sleeps on the XPRT_LOCKED bit, once it is clear. */
static inline void xrdma_wake_lock_waiters(struct xrdma_xprt *rx)
{
	/*
	 * Lockless: the caller's full barrier orders the bit's clear before
	 * this look, and pairs with the one a waiter's prepare_to_wait()
	 * puts between queueing itself and testing the bit again, so one
	 * of the two sees the other (as wake_up_bit() relies on).
	 */
	if (waitqueue_active(rx->lock_waitq))
		__wake_up_bit(rx->lock_waitq, &rx->xprt.state, XPRT_LOCKED);
}

/*
 * The rpc_xprt_ops::release_xprt method: xprt_release_xprt_cong(), and
 * then a wake-up for whoever sleeps on the XPRT_LOCKED bit itself
 * rather than on the sending queue: in 6.12 the sysfs writes to an
 * xprt (rpc_sysfs_xprt_dstaddr_store() and the others) take the lock
 * with wait_on_bit_lock(), which sunrpc wakes only from connect and
 * autoclose, so on a busy transport such a write could sleep for good.
 * The wake-up looks at the bit's wait queue, found at setup; it is
 * empty unless such a writer waits.  A task that does not hold the lock
 * (xprt_release() calls this for every RPC, long after its transmit let
 * go of it) has nothing to release: sunrpc's method would do nothing
 * but trace that, so it is not called, and only the look for sleepers
 * on a clear bit is left.
 */
VISIBLE_IF_KUNIT void xrdma_release_xprt(struct rpc_xprt *xprt,
					 struct rpc_task *task)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);

	if (xprt->snd_task == task) {
		if (xrdma_nobody_sending(xprt) &&
		    !test_bit(XPRT_CLOSE_WAIT, &xprt->state)) {
			xprt->snd_task = NULL;
			clear_bit_unlock(XPRT_LOCKED, &xprt->state);
			/* Orders the clear before the wait queue is looked at. */
			smp_mb__after_atomic();
			xrdma_wake_lock_waiters(rx);
			return;
		}
		xprt_release_xprt_cong(xprt, task);
	}
	if (!test_bit(XPRT_LOCKED, &xprt->state)) {
		/* Orders sunrpc's clear before the wait queue is looked at. */
		smp_mb();
		xrdma_wake_lock_waiters(rx);
	}
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_release_xprt);

/*
 * The RPC is done with its reply: give back the Receive it may hold
 * before its congestion slot, which another call may take at once and
 * whose reply needs a Receive posted (see reply.c); then the slot, as
 * xprt_release_rqst_cong() does (see above).  Called with
 * transport_lock held.
 */
VISIBLE_IF_KUNIT void xrdma_release_request(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct xrdma_req *req = xrdma_req(rqst);

	if (req->held_rep || unlikely(req->orphan_buf))
		xrdma_rep_return(req);
	if (rqst->rq_cong && xrdma_nobody_sending(xprt)) {
		rqst->rq_cong = 0;
		xprt->cong -= RPC_CWNDSCALE;
		if (!RPCXPRT_CONGESTED(xprt))
			clear_bit(XPRT_CWND_WAIT, &xprt->state);
		return;
	}
	xprt_release_rqst_cong(task);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_release_request);

/**
 * xrdma_reqs_create - allocate a transport's request slots
 * @rx: transport whose @free_reqs and @free_lock are initialized
 * @count: number of slots
 *
 * Each slot goes on the free list, taking no reply until its first
 * Send is posted, with an RPC buffer that fits the calls and replies
 * of most procedures, so that the I/O path allocates none.
 *
 * Return: 0 or -ENOMEM (free what was made with xrdma_reqs_destroy()).
 */
VISIBLE_IF_KUNIT int xrdma_reqs_create(struct xrdma_xprt *rx,
				       unsigned int count)
{
	unsigned int i;

	rx->reqs = kcalloc(count, sizeof(*rx->reqs), GFP_KERNEL);
	if (!rx->reqs)
		return -ENOMEM;
	rx->nr_reqs = count;
	/* The last pushed is taken first: slot 0, then 1... */
	for (i = count; i-- > 0;) {
		struct xrdma_req *req = &rx->reqs[i];

		req->rx = rx;
		req->rpc_buf = kmalloc(XRDMA_RPC_BUF_INITIAL, GFP_KERNEL);
		if (!req->rpc_buf)
			return -ENOMEM;
		req->rpc_buf_size = XRDMA_RPC_BUF_INITIAL;
		xrdma_req_send_init(req, i);
		kref_init(&req->ref);
		init_completion(&req->inv_sync);
		req->reply_claimed = true;
		/* @hdr_buf comes with each connection (xrdma_hdrs_map()). */
		xrdma_free_push(&rx->free_reqs, req);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_reqs_create);

/**
 * xrdma_reqs_destroy - free a transport's request slots and their buffers
 * @rx: transport no task uses any more
 */
VISIBLE_IF_KUNIT void xrdma_reqs_destroy(struct xrdma_xprt *rx)
{
	unsigned int i;

	if (!rx->reqs)
		return;
	for (i = 0; i < rx->nr_reqs; i++) {
		kfree(rx->reqs[i].hdr_buf);
		kfree(rx->reqs[i].rpc_buf);
		kfree(rx->reqs[i].orphan_buf);
	}
	kfree(rx->reqs);
	rx->reqs = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_reqs_destroy);

/*
 * RPC buffers
 */

/*
 * The rpc_xprt_ops::buf_alloc method: the slot's buffer, grown if this
 * RPC's call and reply heads do not fit it (counted as "hardway").
 */
VISIBLE_IF_KUNIT int xrdma_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;
	struct xrdma_req *req = xrdma_req(rqst);
	size_t size = rqst->rq_callsize + rqst->rq_rcvsize;

	/*
	 * Kept between RPCs; kmalloc memory, so it can be registered.  A
	 * buffer that must grow takes the whole of its kmalloc object, so
	 * that calls a little larger again find room.
	 */
	if (unlikely(size > req->rpc_buf_size)) {
		struct xrdma_xprt *rx = req->rx;
		void *buf;

		size = kmalloc_size_roundup(size);
		buf = kmalloc(size, rpc_task_gfp_mask());

		if (!buf)
			return -ENOMEM;
		/* No Send uses the old buffer: the slot was free. */
		down_read(&rx->ep_rwsem);
		xrdma_rpc_buf_unmap(req);
		up_read(&rx->ep_rwsem);
		kfree(req->rpc_buf);
		req->rpc_buf = buf;
		req->rpc_buf_size = size;
		/* The "hard way": a slot's buffer had to grow. */
		atomic_long_add(size, &req->rx->stats.hardway_register_count);
	}
	rqst->rq_buffer = req->rpc_buf;
	rqst->rq_rbuffer = req->rpc_buf + rqst->rq_callsize;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_buf_alloc);

/**
 * xrdma_rpc_buf_premap - keep a slot's RPC buffer mapped for a connection
 * @req: forward-channel request about to be sent; the caller holds
 *	XPRT_LOCKED
 * @ep: the connection it is sent on
 *
 * The first Send from a buffer on a connection maps the whole buffer;
 * later ones only sync the bytes they send.  A failure to map is no
 * error: the Send then maps what it sends itself, as before.
 *
 * Return: true if @req->rpc_dma maps @req->rpc_buf for @ep's device.
 */
bool xrdma_rpc_buf_premap(struct xrdma_req *req, struct xrdma_ep *ep)
{
	u64 dma;

	if (req->rpc_dma_ep == ep)
		return true;
	/* The queues of a connection unmap its buffers before they go. */
	if (WARN_ON_ONCE(req->rpc_dma_ep))
		return false;
	dma = ib_dma_map_single(ep->device, req->rpc_buf, req->rpc_buf_size,
				DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ep->device, dma))
		return false;
	req->rpc_dma = dma;
	req->rpc_dma_ep = ep;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_rpc_buf_premap);

/**
 * xrdma_rpc_buf_unmap - undo xrdma_rpc_buf_premap(), if it was done
 * @req: request whose buffer no Send uses any more; the caller holds
 *	the transport's ep_rwsem
 */
void xrdma_rpc_buf_unmap(struct xrdma_req *req)
{
	if (!req->rpc_dma_ep)
		return;
	ib_dma_unmap_single(req->rpc_dma_ep->device, req->rpc_dma,
			    req->rpc_buf_size, DMA_TO_DEVICE);
	req->rpc_dma_ep = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_rpc_buf_unmap);

static void xrdma_buf_free(struct rpc_task *task)
{
	struct xrdma_req *req = xrdma_req(task->tk_rqstp);
	struct xrdma_xprt *rx = req->rx;

	/* Nor memory its Send still maps: sunrpc frees it next. */
	xrdma_send_wait(req);
	/* An RPC that ends without a reply must not leave rkeys behind. */
	if (!READ_ONCE(req->nr_mrs))
		return;
	down_read(&rx->ep_rwsem);
	if (req->nr_mrs) {
		trace_xprtrdma_mrs_zap(&req->rqst);
		xrdma_mrs_invalidate_sync(req);
	}
	up_read(&rx->ep_rwsem);
}

/**
 * xrdma_disconnect_why - note a reason of our own to close the connection
 * @rx: the transport
 * @why: the reason, for the trace and /proc/net/rpcrdma (static storage)
 */
void xrdma_disconnect_why(struct xrdma_xprt *rx, const char *why)
{
	trace_xprtrdma_force_disconnect(&rx->xprt, why);
	rpcrdma_conn_why(&rx->conn, RPCRDMA_WHY_LOCAL, 0, why);
}

/*
 * Connection management
 */

static void xrdma_connect_worker(struct work_struct *work)
{
	struct xrdma_xprt *rx = container_of(work, struct xrdma_xprt,
					     connect_worker.work);
	struct rpc_xprt *xprt = &rx->xprt;
	bool swapper = atomic_read(&xprt->swapper);
	unsigned int noreclaim = 0, noio;
	int rc;

	/*
	 * Writeback and swap-out may wait for this connection, so what it
	 * allocates must not wait for I/O; for a swap device it must not
	 * reclaim either, and it may use the emergency reserves.
	 */
	noio = memalloc_noio_save();
	if (swapper)
		noreclaim = memalloc_noreclaim_save();
	rc = xrdma_ep_connect(rx);
	if (swapper)
		memalloc_noreclaim_restore(noreclaim);
	memalloc_noio_restore(noio);
	rx->reconnect = true;
	xprt_clear_connecting(xprt);
	if (!rc) {
		xprt->connect_cookie++;
		xprt->stat.connect_count++;
		xprt->stat.connect_time += (long)jiffies -
					   xprt->stat.connect_start;
		xprt_set_connected(xprt);
	}
	xprt_unlock_connect(xprt, rx);
	/* Told as an errno the RPC layer retries (connect_report.c). */
	xprt_wake_pending_tasks(xprt, xrdma_connect_status(rc));
}

static void xrdma_connect(struct rpc_xprt *xprt, struct rpc_task *task)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);
	unsigned long delay = 0;

	WARN_ON_ONCE(!xprt_lock_connect(xprt, task, rx));
	if (rx->reconnect) {
		delay = xprt_reconnect_delay(xprt);
		xprt_reconnect_backoff(xprt, XRDMA_INIT_REEST_TO);
		if (xrdma_link_back(rx)) {
			delay = min_t(unsigned long, delay,
				      XRDMA_LINK_BACK_DELAY);
			xprt->reestablish_timeout = XRDMA_INIT_REEST_TO;
		}
	}
	trace_xprtrdma_op_connect(xprt, delay);
	queue_delayed_work(system_long_wq, &rx->connect_worker, delay);
}

/**
 * xrdma_force_disconnect - close the connection, for a reason of our own
 * @rx: the transport
 * @why: the reason, for the trace and /proc/net/rpcrdma (static storage)
 *
 * Any context.  The RPC layer closes the connection from a worker.
 */
void xrdma_force_disconnect(struct xrdma_xprt *rx, const char *why)
{
	xrdma_disconnect_why(rx, why);
	xprt_force_disconnect(&rx->xprt);
}

/**
 * xrdma_wc_failed - a work request of the connection did not succeed
 * @rx: the transport
 * @wc: its completion, whose status is not IB_WC_SUCCESS
 *
 * Counted for /proc/net/rpcrdma; anything but a flush (the connection
 * is already going) closes the connection.
 */
void xrdma_wc_failed(struct xrdma_xprt *rx, const struct ib_wc *wc)
{
	rpcrdma_conn_wc(&rx->conn, wc);
	if (wc->status != IB_WC_WR_FLUSH_ERR)
		xprt_force_disconnect(&rx->xprt);
}

/**
 * xrdma_close - the rpc_xprt_ops::close method
 * @xprt: the transport, whose connection is closed
 *
 * Also where the Send path (xrdma_send_request()) drops a connection.
 */
void xrdma_close(struct rpc_xprt *xprt)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);

	/* Unless a cause was noted: idle, unmount, a sysfs request. */
	rpcrdma_conn_why(&rx->conn, RPCRDMA_WHY_LOCAL, 0,
			 "closed by the RPC layer");
	xrdma_ep_close(rx);
	xprt->reestablish_timeout = 0;
	++xprt->connect_cookie;
	xprt_disconnect_done(xprt);
}

static void xrdma_timer(struct rpc_xprt *xprt, struct rpc_task *task)
{
	/* A lost reply cannot be retransmitted without a new connection. */
	xrdma_force_disconnect(xrdma_xprt(xprt), "RPC timeout");
}

static void xrdma_inject_disconnect(struct rpc_xprt *xprt)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);

	trace_xprtrdma_op_inject_dsc(xprt);
	if (rx->ep)
		rdma_disconnect(rx->ep->id);
}

static void xrdma_set_connect_timeout(struct rpc_xprt *xprt,
				      unsigned long connect_timeout,
				      unsigned long reconnect_timeout)
{
	trace_xprtrdma_op_set_cto(xprt, connect_timeout, reconnect_timeout);
	spin_lock(&xprt->transport_lock);
	if (connect_timeout < xprt->connect_timeout)
		xprt->connect_timeout = connect_timeout;
	if (reconnect_timeout < xprt->max_reconnect_timeout)
		xprt->max_reconnect_timeout = reconnect_timeout;
	spin_unlock(&xprt->transport_lock);
}

/*
 * Swap.  The RPC layer runs a swapping transport's transmissions with
 * PF_MEMALLOC once xprt->swapper is set; our own allocations on the
 * Send path (MRs, reply pages) are GFP_NOIO, and Receives are posted
 * from buffers made at connect time, so a swap-out never waits for
 * memory that only a swap-out could free.
 */

static int xrdma_enable_swap(struct rpc_xprt *xprt)
{
	atomic_inc(&xprt->swapper);
	trace_xprtrdma_swap(xprt, atomic_read(&xprt->swapper));
	return 0;
}

static void xrdma_disable_swap(struct rpc_xprt *xprt)
{
	if (!WARN_ON_ONCE(atomic_read(&xprt->swapper) <= 0))
		atomic_dec(&xprt->swapper);
	trace_xprtrdma_swap(xprt, atomic_read(&xprt->swapper));
}

/*
 * Addresses
 */

static void xrdma_free_addresses(struct rpc_xprt *xprt)
{
	unsigned int i;

	for (i = 0; i < RPC_DISPLAY_MAX; i++) {
		if (i == RPC_DISPLAY_PROTO || i == RPC_DISPLAY_NETID)
			continue;
		kfree(xprt->address_strings[i]);
		xprt->address_strings[i] = NULL;
	}
}

static void xrdma_format_port(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;

	kfree(xprt->address_strings[RPC_DISPLAY_PORT]);
	kfree(xprt->address_strings[RPC_DISPLAY_HEX_PORT]);
	xprt->address_strings[RPC_DISPLAY_PORT] =
		kasprintf(GFP_KERNEL, "%u", rpc_get_port(sap));
	xprt->address_strings[RPC_DISPLAY_HEX_PORT] =
		kasprintf(GFP_KERNEL, "%4hx", rpc_get_port(sap));
}

static void xrdma_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sap = (struct sockaddr *)&xprt->addr;
	char buf[128];

	rpc_ntop(sap, buf, sizeof(buf));
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	if (sap->sa_family == AF_INET6) {
		xprt->address_strings[RPC_DISPLAY_HEX_ADDR] =
			kasprintf(GFP_KERNEL, "%pi6",
				  &((struct sockaddr_in6 *)sap)->sin6_addr);
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCBIND_NETID_RDMA6;
	} else {
		xprt->address_strings[RPC_DISPLAY_HEX_ADDR] =
			kasprintf(GFP_KERNEL, "%08x",
				  ntohl(((struct sockaddr_in *)sap)->sin_addr.s_addr));
		xprt->address_strings[RPC_DISPLAY_NETID] = RPCBIND_NETID_RDMA;
	}
	xprt->address_strings[RPC_DISPLAY_PROTO] = "rdma";
	xrdma_format_port(xprt);
}

static void xrdma_set_port(struct rpc_xprt *xprt, unsigned short port)
{
	rpc_set_port((struct sockaddr *)&xprt->addr, port);
	xrdma_format_port(xprt);
}

/*
 * Statistics: the "xprt: rdma" line of /proc/self/mountstats.  The
 * field order is an interface (mountstats(8), nfsiostat(8)).
 */
static void xrdma_print_stats(struct rpc_xprt *xprt, struct seq_file *seq)
{
	struct xrdma_stats *s = &xrdma_xprt(xprt)->stats;
	long idle = 0;

	if (xprt_connected(xprt))
		idle = (long)(jiffies - xprt->last_used) / HZ;

	seq_printf(seq, "\txprt:\trdma %u %lu %lu %lu %ld %lu %lu %lu %llu %llu ",
		   0, xprt->stat.bind_count, xprt->stat.connect_count,
		   xprt->stat.connect_time / HZ, idle, xprt->stat.sends,
		   xprt->stat.recvs, xprt->stat.bad_xids, xprt->stat.req_u,
		   xprt->stat.bklog_u);
	seq_printf(seq, "%lu %lu %lu %llu %llu %llu %llu %lu %lu %lu %lu ",
		   atomic_long_read(&s->read_chunk_count),
		   atomic_long_read(&s->write_chunk_count),
		   atomic_long_read(&s->reply_chunk_count),
		   atomic64_read(&s->total_rdma_request),
		   atomic64_read(&s->total_rdma_reply),
		   atomic64_read(&s->pullup_copy_count),
		   atomic64_read(&s->fixup_copy_count),
		   atomic_long_read(&s->hardway_register_count),
		   atomic_long_read(&s->failed_marshal_count),
		   atomic_long_read(&s->bad_reply_count),
		   atomic_long_read(&s->nomsg_call_count));
	seq_printf(seq, "%lu %lu %lu %lu %lu %lu\n",
		   atomic_long_read(&s->mrs_recycled),
		   atomic_long_read(&s->mrs_orphaned),
		   atomic_long_read(&s->mrs_allocated),
		   atomic_long_read(&s->local_inv_needed),
		   atomic_long_read(&s->empty_sendctx_q), 0UL);
}

/*
 * This transport's line in /proc/net/rpcrdma (common/conn_table.c).  The
 * endpoint is only looked at if it can be had at once: a reader does not
 * wait for a connection being torn down.
 */
static void xrdma_conn_fill(struct rpcrdma_conn *c,
			    struct rpcrdma_conn_info *info)
{
	struct xrdma_xprt *rx = container_of(c, struct xrdma_xprt, conn);
	struct rpc_xprt *xprt = &rx->xprt;
	struct xrdma_ep *ep;

	info->role = "client";
	memcpy(&info->peer, &xprt->addr, xprt->addrlen);
	if (xprt_connected(xprt))
		info->state = "connected";
	else if (test_bit(XPRT_CONNECTING, &xprt->state))
		info->state = "connecting";
	else
		info->state = "idle";
	info->credits = READ_ONCE(rx->credits);
	info->in_use = READ_ONCE(xprt->cong) >> RPC_CWNDSHIFT;
	info->reconnects = xprt->stat.connect_count ?
			   xprt->stat.connect_count - 1 : 0;
	if (!down_read_trylock(&rx->ep_rwsem))
		return;
	ep = rx->ep;
	if (ep) {
		info->local = ep->id->route.addr.src_addr;
		info->since = ep->established;
		info->inline_send = ep->inline_send;
		info->inline_recv = ep->inline_recv;
		info->ird = ep->ird;
		info->sq_depth = ep->sq_depth;
	}
	up_read(&rx->ep_rwsem);
}

/*
 * Setup and teardown
 */

static void xrdma_destroy(struct rpc_xprt *xprt)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);

	xrdma_linkwatch_del(rx);
	rpcrdma_conn_del(&rx->conn);
	cancel_delayed_work_sync(&rx->connect_worker);
	xrdma_ep_close(rx);
	xrdma_bc_destroy_all(rx);
	xrdma_reqs_destroy(rx);
	xrdma_free_addresses(xprt);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

static struct rpc_xprt *xrdma_setup(struct xprt_create *args)
{
	unsigned int slots = READ_ONCE(xrdma_slot_table_entries);
	struct xrdma_xprt *rx;
	struct rpc_xprt *xprt;
	int rc;

	if (args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	if (args->dstaddr->sa_family != AF_INET &&
	    args->dstaddr->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);

	xprt = xprt_alloc(args->net, sizeof(*rx), 0, slots);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	rx = xrdma_xprt(xprt);
	xrdma_xprt_lock_init(rx);
	init_rwsem(&rx->ep_rwsem);
	spin_lock_init(&rx->free_lock);
	rx->free_reqs = NULL;
	rx->bc_free = NULL;
	INIT_DELAYED_WORK(&rx->connect_worker, xrdma_connect_worker);
	/* One line per failed attempt, unless they come faster than this. */
	ratelimit_state_init(&rx->connect_ratelimit, 5 * HZ, 5);
	rpcrdma_conn_init(&rx->conn);
	rx->inline_read = READ_ONCE(xrdma_max_inline_read);
	rx->inline_write = READ_ONCE(xrdma_max_inline_write);
	rx->credits = 1;

	xprt->timeout = &xrdma_default_timeout;
	xprt->connect_timeout = xprt->timeout->to_initval;
	xprt->max_reconnect_timeout = XRDMA_MAX_REEST_TO;
	xprt->bind_timeout = XRDMA_BIND_TO;
	xprt->reestablish_timeout = XRDMA_INIT_REEST_TO;
	xprt->idle_timeout = XRDMA_IDLE_DISC_TO;
	xprt->resvport = 0;
	xprt->ops = &xrdma_ops;
	xprt->xprt_class = &xrdma_class;
	/* Side protocols (NLM, callback setup) read this as TCP. */
	xprt->prot = IPPROTO_TCP;
	xprt->addrlen = args->addrlen;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	if (rpc_get_port((struct sockaddr *)&xprt->addr))
		xprt_set_bound(xprt);
	xprt->max_payload = XRDMA_MAX_DATA_PAGES << PAGE_SHIFT;
	xprt->cwnd = RPC_CWNDSHIFT;

	rc = xrdma_reqs_create(rx, slots);
	if (rc) {
		xrdma_reqs_destroy(rx);
		xprt_free(xprt);
		module_put(THIS_MODULE);
		return ERR_PTR(rc);
	}
	xrdma_format_addresses(xprt);
	xrdma_linkwatch_add(rx);
	rpcrdma_conn_add(&rx->conn, xprt->xprt_net, xrdma_conn_fill);
	trace_xprtrdma_op_setup(xprt, slots);
	return xprt;
}

static const struct rpc_xprt_ops xrdma_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xrdma_release_xprt,
	.alloc_slot		= xrdma_alloc_slot,
	.free_slot		= xrdma_free_slot,
	.release_request	= xrdma_release_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.timer			= xrdma_timer,
	.rpcbind		= rpcb_getport_async,
	.set_port		= xrdma_set_port,
	.connect		= xrdma_connect,
	.buf_alloc		= xrdma_buf_alloc,
	.buf_free		= xrdma_buf_free,
	.send_request		= xrdma_send_request,
	.close			= xrdma_close,
	.destroy		= xrdma_destroy,
	.set_connect_timeout	= xrdma_set_connect_timeout,
	.print_stats		= xrdma_print_stats,
	.inject_disconnect	= xrdma_inject_disconnect,
	.enable_swap		= xrdma_enable_swap,
	.disable_swap		= xrdma_disable_swap,
	.bc_setup		= xrdma_bc_setup,
	.bc_maxpayload		= xrdma_bc_maxpayload,
	.bc_num_slots		= xrdma_bc_num_slots,
	.bc_free_rqst		= xrdma_bc_free_rqst,
	.bc_destroy		= xrdma_bc_destroy,
};

static struct xprt_class xrdma_class = {
	.list	= LIST_HEAD_INIT(xrdma_class.list),
	.name	= "rdma",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_RDMA,
	.setup	= xrdma_setup,
	.netid	= { "rdma", "rdma6", "" },
};

/**
 * xrdma_register - register the client transport class and its tunables
 *
 * Return: 0 or -errno.
 */
int xrdma_register(void)
{
	int rc;

	rc = xrdma_sysctl_register();
	if (rc)
		return rc;
	rc = xrdma_linkwatch_register();
	if (rc)
		goto out_sysctl;
	rc = xprt_register_transport(&xrdma_class);
	if (rc)
		goto out_linkwatch;
	return 0;

out_linkwatch:
	xrdma_linkwatch_unregister();
out_sysctl:
	xrdma_sysctl_unregister();
	return rc;
}

/**
 * xrdma_unregister - remove the client transport class
 *
 * The module cannot be unloaded while a transport exists (each holds a
 * module reference), so nothing of ours is in use here.
 */
void xrdma_unregister(void)
{
	xprt_unregister_transport(&xrdma_class);
	xrdma_linkwatch_unregister();
	xrdma_sysctl_unregister();
}
