// SPDX-License-Identifier: GPL-2.0
/*
 * Server connections: the RDMA-CM listener, connection requests, the
 * accept that sizes and creates a connection's RDMA resources and
 * answers with RFC 8797 private data, and the teardown.
 *
 * A connection request arrives in the CM handler of the listener, which
 * queues a new struct srdma_xprt on the listener and wakes an nfsd
 * thread; that thread calls srdma_accept(), which does the work that may
 * sleep.  Until the sunrpc layer takes the new transport, XPT_BUSY (set
 * by svc_xprt_init()) keeps it from being scheduled.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>
#include <rdma/ib_cm.h>

#include <rpcrdma/queues.h>
#include <rpcrdma/verbs.h>

#include "server.h"
#include "trace.h"

static int srdma_cm_conn_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *event);

static struct srdma_xprt *srdma_xprt_alloc(struct svc_serv *serv,
					   struct net *net,
					   struct svc_xprt_class *class)
{
	struct srdma_xprt *sx = kzalloc(sizeof(*sx), GFP_KERNEL);

	if (!sx)
		return NULL;
	svc_xprt_init(net, class, &sx->xprt, serv);
	spin_lock_init(&sx->accept_lock);
	INIT_LIST_HEAD(&sx->accept_q);
	INIT_LIST_HEAD(&sx->accept_node);
	init_waitqueue_head(&sx->sq_wait);
	spin_lock_init(&sx->rx_lock);
	INIT_LIST_HEAD(&sx->rx_ready);
	INIT_LIST_HEAD(&sx->rx_reading);
	INIT_LIST_HEAD(&sx->rx_read_done);
	INIT_LIST_HEAD(&sx->recv_free);
	srdma_read_budget_init(sx);
	srdma_read_stash_init(sx);
	spin_lock_init(&sx->send_lock);
	init_llist_head(&sx->send_free);
	INIT_LIST_HEAD(&sx->send_orphans);
	rpcrdma_sendq_init(&sx->sendq);
	srdma_send_watch_init(sx);
	INIT_LIST_HEAD(&sx->read_orphans);
	spin_lock_init(&sx->rw_lock);
	INIT_LIST_HEAD(&sx->rw_free);
	rpcrdma_conn_init(&sx->conn);
	/* RPC-over-RDMA has credit-based flow control (NFSv4 needs it). */
	set_bit(XPT_CONG_CTRL, &sx->xprt.xpt_flags);
	return sx;
}

/*
 * Free a transport the sunrpc layer never took (no svc_xprt_put(): that
 * would also drop a module reference this transport does not hold).
 */
static void srdma_xprt_discard(struct srdma_xprt *sx)
{
	put_net_track(sx->xprt.xpt_net, &sx->xprt.ns_tracker);
	kfree(sx);
}

/*
 * This connection's or listener's line in /proc/net/rpcrdma
 * (common/conn_table.c); it is listed from accept or listen to xpo_free.
 */
static void srdma_conn_fill(struct rpcrdma_conn *c,
			    struct rpcrdma_conn_info *info)
{
	struct srdma_xprt *sx = container_of(c, struct srdma_xprt, conn);
	struct svc_xprt *xprt = &sx->xprt;
	bool closing = test_bit(XPT_CLOSE, &xprt->xpt_flags);

	memcpy(&info->local, &xprt->xpt_local, xprt->xpt_locallen);
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags)) {
		info->role = "listener";
		info->state = closing ? "closing" : "listening";
		return;
	}
	info->role = "server";
	info->state = closing ? "closing" : "connected";
	memcpy(&info->peer, &xprt->xpt_remote, xprt->xpt_remotelen);
	info->since = sx->established;
	info->credits = srdma_grant(sx);
	/* Calls nfsd threads hold (XPT_CONG_CTRL counts them). */
	info->in_use = atomic_read(&xprt->xpt_nr_rqsts);
	info->inline_send = sx->inline_send;
	info->inline_recv = sx->recv_size;
	info->ord = sx->ord;
	info->sq_depth = sx->sq_budget;
	info->read_pages = atomic_read(&sx->read_pages);
}

/* A connection request: queue a new transport for srdma_accept(). */
static int srdma_conn_request(struct srdma_xprt *listener,
			      struct rdma_cm_id *id,
			      struct rdma_cm_event *event)
{
	const struct rdma_conn_param *param = &event->param.conn;
	struct srdma_xprt *sx;

	sx = srdma_xprt_alloc(listener->xprt.xpt_server,
			      listener->xprt.xpt_net,
			      listener->xprt.xpt_class);
	if (!sx)
		return -ENOMEM;
	sx->cm_id = id;
	id->context = sx;
	id->event_handler = srdma_cm_conn_handler;
	sx->cm_state = event->event;

	sx->peer_pdata_sent = rpcrdma_cm_pdata_decode(param->private_data,
						      param->private_data_len,
						      &sx->peer_pdata);
	/*
	 * The client's responder resources bound our outstanding Reads.
	 * On the passive side the CM reports them as initiator_depth: the
	 * depth we may initiate (responder_resources is the client's own
	 * initiator depth, which the kernel's client sets to 0).
	 */
	sx->ord = min_t(unsigned int, READ_ONCE(srdma_ord),
			param->initiator_depth);

	svc_xprt_set_remote(&sx->xprt,
			    (struct sockaddr *)&id->route.addr.dst_addr,
			    svc_addr_len((struct sockaddr *)
					 &id->route.addr.dst_addr));
	svc_xprt_set_local(&sx->xprt,
			   (struct sockaddr *)&id->route.addr.src_addr,
			   svc_addr_len((struct sockaddr *)
					&id->route.addr.src_addr));
	trace_svcrdma_conn_request(sx);

	spin_lock(&listener->accept_lock);
	list_add_tail(&sx->accept_node, &listener->accept_q);
	spin_unlock(&listener->accept_lock);
	set_bit(XPT_CONN, &listener->xprt.xpt_flags);
	svc_xprt_enqueue(&listener->xprt);
	return 0;
}

/**
 * srdma_cm_listen_handler - RDMA-CM events of a listener's id
 * @id: the listening id, or a new id for a connection request
 * @event: the event
 *
 * Return: non-zero to have the CM destroy a connection request's new id.
 */
VISIBLE_IF_KUNIT int srdma_cm_listen_handler(struct rdma_cm_id *id,
					     struct rdma_cm_event *event)
{
	struct srdma_xprt *listener = id->context;
	int rc;

	switch (event->event) {
	case RDMA_CM_EVENT_CONNECT_REQUEST:
		/* A non-zero return makes the CM destroy the new id. */
		rc = srdma_conn_request(listener, id, event);
		if (rc)
			trace_svcrdma_listener_event(listener, event->event,
						     rc);
		return rc;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		trace_svcrdma_listener_event(listener, event->event,
					     event->status);
		svc_xprt_deferred_close(&listener->xprt);
		return 0;
	case RDMA_CM_EVENT_ADDR_CHANGE:
		/*
		 * The address moved to another device (bonding failover):
		 * listen again there.  An id cannot be destroyed from its
		 * own handler, so a worker does it, with a reference of its
		 * own.  The listening id lives until srdma_free(), which
		 * runs after the last reference is gone: an event in
		 * between finds none to take (the memory stays until that
		 * destroy has waited for this handler), and a listener on
		 * its way out has nothing to listen again for.
		 */
		trace_svcrdma_listener_event(listener, event->event,
					     event->status);
		if (!kref_get_unless_zero(&listener->xprt.xpt_ref))
			return 0;
		listener->relisten_tries = 0;
		if (!queue_delayed_work(system_long_wq,
					&listener->relisten_work, 0))
			svc_xprt_put(&listener->xprt);
		return 0;
	default:
		trace_svcrdma_listener_event(listener, event->event,
					     event->status);
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(srdma_cm_listen_handler);

/* Events on an accepted (or about to be accepted) connection. */
static int srdma_cm_conn_handler(struct rdma_cm_id *id,
				 struct rdma_cm_event *event)
{
	struct srdma_xprt *sx = id->context;

	sx->cm_state = event->event;
	trace_svcrdma_cm_event((struct sockaddr *)&sx->xprt.xpt_remote,
			       event->event, event->status);
	switch (event->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
		trace_svcrdma_device_removal(id);
		fallthrough;
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_TIMEWAIT_EXIT:
		rpcrdma_conn_why(&sx->conn, RPCRDMA_WHY_CM, event->event, NULL);
		/* XPT_BUSY holds this back until the transport is set up. */
		srdma_close(sx, "disconnected");
		break;
	default:
		break;
	}
	return 0;
}

/* A listening RDMA-CM id on @sa.  Return: the id or an ERR_PTR(). */
static struct rdma_cm_id *srdma_listen_id(struct srdma_xprt *listener,
					  struct sockaddr *sa)
{
	struct rdma_cm_id *id;
	int rc;

	id = rdma_create_id(listener->xprt.xpt_net, srdma_cm_listen_handler,
			    listener, RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id))
		return id;
	if (sa->sa_family == AF_INET6) {
		rc = rdma_set_afonly(id, 1);
		if (rc)
			goto out_id;
	}
	rc = rdma_bind_addr(id, sa);
	if (rc)
		goto out_id;
	rc = rdma_listen(id, SRDMA_LISTEN_BACKLOG);
	if (rc)
		goto out_id;
	return id;

out_id:
	rdma_destroy_id(id);
	return ERR_PTR(rc);
}

static void srdma_relisten_worker(struct work_struct *work)
{
	struct srdma_xprt *listener = container_of(to_delayed_work(work),
						   struct srdma_xprt,
						   relisten_work);
	struct rdma_cm_id *id;

	if (test_bit(XPT_CLOSE, &listener->xprt.xpt_flags))
		goto out;
	/*
	 * The old id still holds the address and port: it must go before
	 * the new one can bind them.  Requests that arrive in between are
	 * refused, and clients try again.  srdma_free() cannot run
	 * meanwhile (this work holds a reference) and skips a NULL id.
	 */
	if (listener->cm_id) {
		rdma_destroy_id(listener->cm_id);
		listener->cm_id = NULL;
	}
	id = srdma_listen_id(listener,
			     (struct sockaddr *)&listener->listen_addr);
	if (IS_ERR(id) && ++listener->relisten_tries < SRDMA_RELISTEN_TRIES) {
		/* Not on the device yet: again in a second, same reference. */
		trace_svcrdma_relisten(listener, -1, PTR_ERR(id));
		queue_delayed_work(system_long_wq, &listener->relisten_work,
				   HZ);
		return;
	}
	if (IS_ERR(id)) {
		pr_warn_ratelimited("svcrdma: cannot listen again on %pISpc after an address change: %ld\n",
				    &listener->listen_addr, PTR_ERR(id));
		trace_svcrdma_relisten(listener, -1, PTR_ERR(id));
		svc_xprt_deferred_close(&listener->xprt);
		goto out;
	}
	listener->cm_id = id;
	trace_svcrdma_relisten(listener, -1, 0);
out:
	svc_xprt_put(&listener->xprt);
}

/**
 * srdma_create_listener - the svc_xprt_ops::xpo_create method
 * @serv: the RPC service (nfsd)
 * @net: network namespace
 * @sa: address and port to listen on
 * @salen: length of @sa
 * @flags: SVC_SOCK_* flags (unused)
 *
 * An IPv6 listener is bound to IPv6 only, so that IPv4 and IPv6
 * listeners on the same port can coexist.
 *
 * Return: the listener, or an ERR_PTR().
 */
struct svc_xprt *srdma_create_listener(struct svc_serv *serv, struct net *net,
				       struct sockaddr *sa, int salen,
				       int flags)
{
	struct srdma_xprt *listener;
	struct rdma_cm_id *id;
	int rc;

	if (sa->sa_family != AF_INET && sa->sa_family != AF_INET6)
		return ERR_PTR(-EAFNOSUPPORT);
	listener = srdma_xprt_alloc(serv, net, &srdma_class);
	if (!listener)
		return ERR_PTR(-ENOMEM);
	set_bit(XPT_LISTENER, &listener->xprt.xpt_flags);
	INIT_DELAYED_WORK(&listener->relisten_work, srdma_relisten_worker);
	memcpy(&listener->listen_addr, sa,
	       min_t(size_t, salen, sizeof(listener->listen_addr)));

	id = srdma_listen_id(listener, sa);
	if (IS_ERR(id)) {
		rc = PTR_ERR(id);
		goto out_free;
	}
	listener->cm_id = id;

	svc_xprt_set_local(&listener->xprt,
			   (struct sockaddr *)&id->route.addr.src_addr,
			   svc_addr_len((struct sockaddr *)
					&id->route.addr.src_addr));
	trace_svcrdma_listen(listener, -1, 0);
	rpcrdma_conn_add(&listener->conn, net, srdma_conn_fill);
	return &listener->xprt;

out_free:
	trace_svcrdma_listen(listener, -1, rc);
	srdma_xprt_discard(listener);
	return ERR_PTR(rc);
}

static void srdma_qp_event(struct ib_event *event, void *context)
{
	struct srdma_xprt *sx = context;

	trace_svcrdma_qp_error(sx, event);
	switch (event->event) {
	case IB_EVENT_COMM_EST:
	case IB_EVENT_SQ_DRAINED:
	case IB_EVENT_QP_LAST_WQE_REACHED:
		break;
	default:
		rpcrdma_conn_why(&sx->conn, RPCRDMA_WHY_QP, event->event, NULL);
		srdma_close(sx, "QP error");
	}
}

/*
 * SGEs per Send Queue entry.  A Send gathers at most the transport
 * header, the reply's head, the pages of the largest inline reply (one
 * more where they start mid-page) and its tail; a reply in more pieces
 * is copied after the header instead (srdma_send_build()).  rdma_rw
 * takes the same limit for the pages of one RDMA Read or Write, so a
 * 1 MiB payload moves in 16 of them, not 43 as with what a Send needs.
 * Every entry of the Send Queue is sized for this many: asking for the
 * device's 32 would double soft-RoCE's Send Queue for every connection.
 */
#define SRDMA_RW_PAGES_PER_WR	16

static unsigned int srdma_send_sges(unsigned int max_size)
{
	unsigned int send = 2 + DIV_ROUND_UP(max_size, PAGE_SIZE) + 1 + 1;

	return max(send, SRDMA_RW_PAGES_PER_WR);
}

/*
 * Size the connection from the tunables, the client and the device
 * (common/queues.c).  Return: 0 or -EOPNOTSUPP.
 */
static int srdma_size(struct srdma_xprt *sx, struct rpcrdma_server_queues *q)
{
	struct rpcrdma_dev_limits lim;
	unsigned int payload_pages, max_size;
	int rc;

	max_size = READ_ONCE(srdma_max_req_size);
	/* A chunk moves at most one whole RPC message. */
	payload_pages = DIV_ROUND_UP(sx->xprt.xpt_server->sv_max_mesg,
				     PAGE_SIZE) + 1;
	rpcrdma_dev_limits_get(sx->device, sx->port_num, payload_pages, &lim);
	rc = rpcrdma_size_server(&lim, READ_ONCE(srdma_max_requests),
				 SRDMA_BC_REQUESTS, sx->ord,
				 srdma_send_sges(max_size), q);
	if (rc)
		return rc;

	/*
	 * Both sizes as the client will decode them (on the 1 KiB grid),
	 * so that we never Send more than we said, nor post a Receive for
	 * more than it may send.
	 */
	rpcrdma_cm_pdata_init(&sx->local_pdata,
			      !!(sx->device->attrs.device_cap_flags &
				 IB_DEVICE_MEM_MGT_EXTENSIONS),
			      max_size, max_size);
	sx->recv_size = rpcrdma_cm_recv_size(sx->local_pdata.recv_size,
					     &sx->peer_pdata,
					     sx->peer_pdata_sent);
	rc = srdma_grant_init(sx, q->max_requests);
	if (rc)
		return rc;
	sx->max_send_sge = q->max_send_sge;
	sx->ord = q->ord;
	sx->sq_budget = q->sq_budget;
	sx->sendq.batch = q->send_batch;
	/* The unsignaled Work Requests' room comes on top of the budget. */
	atomic_set(&sx->sq_avail, sx->sq_budget + q->send_batch - 1);
	sx->sq_progress = jiffies;
	sx->sq_stall_timeout = READ_ONCE(srdma_sq_stall_timeout) * HZ;
	sx->send_timeout = READ_ONCE(srdma_send_timeout) * HZ;
	/* rdma_rw reads at most this many pages with one work request. */
	sx->read_limit = srdma_read_conn_limit(sx->ord,
					       min_t(unsigned int,
						     sx->max_send_sge,
						     sx->device->attrs.max_sge_rd),
					       sx->xprt.xpt_server->sv_max_mesg);
	sx->read_timeout = READ_ONCE(srdma_read_timeout) * HZ;
	/*
	 * What its Reads move at once, at least a largest Call: half its
	 * limit.  Without the room, the stash only keeps nothing.
	 */
	srdma_read_stash_setup(sx, sx->read_limit / 2);
	/* Posted, waiting for nfsd and being served: a window each. */
	sx->recv_limit = 2 * q->recv_posted;
	sx->recv_batch = q->recv_batch;

	sx->local_pdata.recv_size = sx->recv_size;
	sx->inline_send = rpcrdma_inline_threshold(sx->local_pdata.send_size,
						   sx->peer_pdata.recv_size);
	sx->remote_inv = rpcrdma_cm_remote_inv_ok(&sx->local_pdata,
						  &sx->peer_pdata);
	return 0;
}

static int srdma_create_qp(struct srdma_xprt *sx,
			   const struct rpcrdma_server_queues *q)
{
	const struct rpcrdma_ib_attr attr = {
		.send_cqe	= q->send_cqe,
		.recv_cqe	= q->recv_cqe,
		.send_wr	= q->send_wr,
		.recv_wr	= q->recv_wr,
		.send_sge	= sx->max_send_sge,
		.rw_ctxs	= q->rw_ctxs,
		.port_num	= sx->port_num,
		.event_handler	= srdma_qp_event,
		.context	= sx,
	};
	int rc;

	rc = rpcrdma_ib_create(&sx->ib, sx->cm_id, &attr);
	if (rc)
		return rc;
	trace_svcrdma_queues(sx, q);
	/* Receives for the first grant; more as it grows. */
	return srdma_recv_post_initial(sx, q->recv_posted -
				       (sx->max_requests - sx->grant));
}

/*
 * Release what srdma_create_qp() made, after draining the QP.  The
 * contexts go back while the QP exists (their R/W contexts need it);
 * their memory, which completions point to, is freed only once the QP
 * and CQs are gone (rpcrdma_ib_destroy_qp()).
 */
static void srdma_destroy_resources(struct srdma_xprt *sx)
{
	/* No watch to run, no wait for the Read budget. */
	srdma_read_budget_exit(sx);
	srdma_send_watch_exit(sx);
	if (sx->ib.qp) {
		spin_lock(&sx->rx_lock);
		sx->rq_closed = true;
		spin_unlock(&sx->rx_lock);
		ib_drain_qp(sx->ib.qp);
		srdma_sendq_retire_all(sx);
		srdma_read_release_orphans(sx);
		srdma_send_release_orphans(sx);
		srdma_recv_release_reads(sx);
	}
	rpcrdma_ib_destroy_qp(&sx->ib, sx->cm_id);
	srdma_recv_destroy_all(sx);
	srdma_read_stash_exit(sx);
	srdma_send_destroy_all(sx);
	srdma_rw_cache_destroy(sx);
	rpcrdma_ib_destroy(&sx->ib, sx->cm_id);
	/*
	 * The Receive handler is done with the grant; its quiet check is
	 * stopped there, before the last put's kfree().
	 */
	srdma_grant_release(sx);
}

/* Refuse a connection request from outside the CM handler. */
static void srdma_reject(struct rdma_cm_id *id)
{
	rdma_lock_handler(id);
	rdma_reject(id, NULL, 0, IB_CM_REJ_CONSUMER_DEFINED);
	rdma_unlock_handler(id);
}

/* Set up a queued connection and accept it.  Return: 0 or -errno. */
static int srdma_accept_one(struct srdma_xprt *sx)
{
	u8 pdata[RPCRDMA_CM_PDATA_SIZE];
	struct rdma_conn_param param = {};
	struct rpcrdma_server_queues q;
	int rc;

	if (test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
		return -ENOTCONN;
	sx->device = sx->cm_id->device;
	sx->port_num = sx->cm_id->port_num;
	rc = srdma_size(sx, &q);
	if (rc)
		return rc;
	rc = srdma_create_qp(sx, &q);
	if (rc)
		return rc;

	rc = rpcrdma_cm_pdata_encode(pdata, sizeof(pdata), &sx->local_pdata);
	if (rc < 0)
		return rc;
	param.private_data = pdata;
	param.private_data_len = sizeof(pdata);
	param.initiator_depth = sx->ord;
	param.responder_resources = 0;
	/*
	 * The client's QP takes its RNR retry count from us.  A client
	 * that keeps within its credits always finds a Receive posted
	 * (RFC 8166 section 3.3), so an RNR NAK means it sent more than it
	 * was granted: no retry, its connection fails at once instead of
	 * stalling it and hiding the violation.
	 */
	param.rnr_retry_count = 0;
	param.retry_count = 7;
	/* Outside the CM handler, the CM wants its handler lock held. */
	rdma_lock_handler(sx->cm_id);
	rc = rdma_accept(sx->cm_id, &param);
	rdma_unlock_handler(sx->cm_id);
	if (rc)
		return rc;
	trace_svcrdma_accept(sx);
	return 0;
}

/**
 * srdma_accept - the svc_xprt_ops::xpo_accept method
 * @listener: the listening transport (XPT_CONN set)
 *
 * Return: a new connection, or NULL if none could be accepted.
 */
struct svc_xprt *srdma_accept(struct svc_xprt *listener)
{
	struct srdma_xprt *lx = srdma_xprt(listener);
	struct srdma_xprt *sx;
	int rc;

	spin_lock(&lx->accept_lock);
	sx = list_first_entry_or_null(&lx->accept_q, struct srdma_xprt,
				      accept_node);
	if (sx)
		list_del_init(&sx->accept_node);
	if (list_empty(&lx->accept_q))
		clear_bit(XPT_CONN, &listener->xpt_flags);
	spin_unlock(&lx->accept_lock);
	if (!sx)
		return NULL;

	rc = srdma_accept_one(sx);
	if (rc) {
		trace_svcrdma_accept_err(sx, rc);
		pr_warn_ratelimited("svcrdma: cannot accept a connection from %s: %d\n",
				    sx->xprt.xpt_remotebuf, rc);
		if (rc != -ENOTCONN)
			srdma_reject(sx->cm_id);
		srdma_destroy_resources(sx);
		rdma_destroy_id(sx->cm_id);
		srdma_xprt_discard(sx);
		return NULL;
	}
	sx->established = jiffies ?: 1;
	rpcrdma_conn_add(&sx->conn, sx->xprt.xpt_net, srdma_conn_fill);
	return &sx->xprt;
}

/**
 * srdma_detach - the svc_xprt_ops::xpo_detach method
 * @xprt: transport being closed
 *
 * Starts the disconnect; the QP flushes what is still posted.
 */
void srdma_detach(struct svc_xprt *xprt)
{
	struct srdma_xprt *sx = srdma_xprt(xprt);

	if (test_bit(XPT_LISTENER, &xprt->xpt_flags))
		return;
	trace_svcrdma_disconnect(sx);
	rdma_disconnect(sx->cm_id);
	/* XPT_CLOSE is set: replies waiting for Send Queue room give up. */
	wake_up_all(&sx->sq_wait);
}

/**
 * srdma_free - the svc_xprt_ops::xpo_free method
 * @xprt: transport with no references left
 *
 * Drains the QP (every completion handler has run when this returns),
 * then releases the RDMA resources and the CM id.  Connections a
 * listener had queued but not accepted are rejected and freed with it.
 */
void srdma_free(struct svc_xprt *xprt)
{
	struct srdma_xprt *sx = srdma_xprt(xprt), *pending, *next;

	rpcrdma_conn_del(&sx->conn);
	if (test_bit(XPT_LISTENER, &xprt->xpt_flags)) {
		/* No more requests once the listening id is gone. */
		if (sx->cm_id)
			rdma_destroy_id(sx->cm_id);
		list_for_each_entry_safe(pending, next, &sx->accept_q,
					 accept_node) {
			list_del(&pending->accept_node);
			trace_svcrdma_accept_err(pending, -ESHUTDOWN);
			srdma_reject(pending->cm_id);
			rdma_destroy_id(pending->cm_id);
			srdma_xprt_discard(pending);
		}
		kfree(sx);
		return;
	}
	srdma_destroy_resources(sx);
	rdma_destroy_id(sx->cm_id);
	kfree(sx);
}
