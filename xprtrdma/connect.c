// SPDX-License-Identifier: GPL-2.0
/*
 * Client connection management: RDMA-CM address and route resolution,
 * queue pair and completion queues sized from the device and the
 * credits, RFC 8797 private data, and complete teardown.
 */
#include <kunit/visibility.h>
#include <linux/sunrpc/addr.h>
#include <rpcrdma/queues.h>

#include "client.h"
#include "trace.h"

static int xrdma_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct xrdma_ep *ep = id->context;
	struct rpc_xprt *xprt = &ep->rx->xprt;
	int status = 0;

	trace_xprtrdma_cm_event((struct sockaddr *)&xprt->addr, event->event,
				event->status);
	switch (event->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		break;
	case RDMA_CM_EVENT_ADDR_ERROR:
		status = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_ROUTE_ERROR:
		status = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		ep->peer_pdata_sent =
			rpcrdma_cm_pdata_decode(event->param.conn.private_data,
						event->param.conn.private_data_len,
						&ep->peer_pdata);
		if (!ep->peer_pdata_sent)
			rpcrdma_cm_pdata_default(&ep->peer_pdata);
		WRITE_ONCE(ep->connected, true);
		break;
	case RDMA_CM_EVENT_REJECTED:
		ep->fail.iwarp = rdma_protocol_iwarp(id->device, id->port_num);
		status = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
		status = -ENETUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
		status = -ENOTCONN;
		break;
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
	case RDMA_CM_EVENT_DISCONNECTED:
		if (event->event == RDMA_CM_EVENT_DEVICE_REMOVAL)
			trace_xprtrdma_device_removal(id);
		if (READ_ONCE(ep->connected)) {
			WRITE_ONCE(ep->connected, false);
			rpcrdma_conn_why(&ep->rx->conn, RPCRDMA_WHY_CM,
					 event->event, NULL);
			xprt_force_disconnect(xprt);
			return 0;
		}
		status = -ECONNABORTED;
		break;
	default:
		/* TIMEWAIT_EXIT and friends need no action. */
		return 0;
	}
	if (status) {
		/* This event ends the connect attempt: say why (connect_report.c). */
		ep->fail.event = event->event;
		ep->fail.status = event->status;
		ep->fail.detail = event->event == RDMA_CM_EVENT_REJECTED ?
				  rdma_reject_msg(id, event->status) :
				  rdma_event_msg(event->event);
	}
	ep->cm_status = status;
	complete(&ep->cm_done);
	return 0;
}

static void xrdma_qp_event(struct ib_event *event, void *context)
{
	struct xrdma_ep *ep = context;

	trace_xprtrdma_qp_event(&ep->rx->xprt, event->event);
	switch (event->event) {
	case IB_EVENT_QP_FATAL:
	case IB_EVENT_QP_REQ_ERR:
	case IB_EVENT_QP_ACCESS_ERR:
	case IB_EVENT_DEVICE_FATAL:
		if (READ_ONCE(ep->connected)) {
			WRITE_ONCE(ep->connected, false);
			rpcrdma_conn_why(&ep->rx->conn, RPCRDMA_WHY_QP,
					 event->event, NULL);
			xprt_force_disconnect(&ep->rx->xprt);
		}
		break;
	default:
		break;
	}
}

/* Run one RDMA-CM step and wait for the handler to report on it. */
static int xrdma_cm_wait(struct xrdma_ep *ep, int rc, unsigned long timeout)
{
	if (rc)
		return rc;
	if (!wait_for_completion_timeout(&ep->cm_done, timeout))
		return -ETIMEDOUT;
	return ep->cm_status;
}

/*
 * Allocate, map and post the Receive buffers of a new connection, once
 * its connect reply has said how large a message the server sends: a
 * Receive larger than that only holds memory (RFC 8797 section 4).
 * Posting them only now is safe because a server sends nothing but
 * replies to our calls, and backchannel calls on a connection our calls
 * bound to a session; the first call waits for this.
 */
static int xrdma_reps_create(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	unsigned int i;
	int rc;

	ep->rep_size = rpcrdma_cm_recv_size(ep->local_pdata.recv_size,
					    &ep->peer_pdata,
					    ep->peer_pdata_sent);
	ep->reps = kcalloc(ep->nr_reps, sizeof(*ep->reps), GFP_KERNEL);
	if (!ep->reps)
		return -ENOMEM;
	for (i = 0; i < ep->nr_reps; i++) {
		struct xrdma_rep *rep = &ep->reps[i];

		rc = rpcrdma_recv_buf_init(&rep->rb, ep->device, ep->ib.pd,
					   ep->rep_size, xrdma_recv_done,
					   GFP_KERNEL);
		if (rc)
			return rc;
		rep->ep = ep;
		rpcrdma_cid_init(&rep->cid, ep->ib.recv_cq, i);
		rc = xrdma_post_recv(rep);
		if (rc) {
			trace_xprtrdma_post_recvs_err(&ep->rx->xprt, &rep->cid,
						      rc);
			return rc;
		}
	}
	return 0;
}

/* Free the Receive buffers; the Receive Queue is drained. */
static void xrdma_reps_destroy(struct xrdma_ep *ep)
{
	unsigned int i;

	if (!ep->reps)
		return;
	for (i = 0; i < ep->nr_reps; i++)
		rpcrdma_recv_buf_release(&ep->reps[i].rb, ep->device);
	kfree(ep->reps);
	ep->reps = NULL;
}

/*
 * Give every slot a header buffer sized for @ep (xrdma_hdr_buf_size():
 * room for a pulled-up call only if its device may need one), and map
 * it for @ep's device once for the whole connection: a Send then only
 * syncs the bytes it sends.  No Send uses the buffers meanwhile: the
 * last connection's were retired when it was torn down.
 */
static int xrdma_hdrs_map(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	size_t size = xrdma_hdr_buf_size(ep->inline_send, ep->max_send_sge);
	unsigned int i;
	u64 dma;

	ep->hdr_dma = kcalloc(rx->nr_reqs, sizeof(*ep->hdr_dma), GFP_KERNEL);
	if (!ep->hdr_dma)
		return -ENOMEM;
	for (i = 0; i < rx->nr_reqs; i++) {
		struct xrdma_req *req = &rx->reqs[i];

		if (req->hdr_size != size) {
			void *buf = kmalloc(size, GFP_KERNEL);

			if (!buf)
				return -ENOMEM;
			kfree(req->hdr_buf);
			req->hdr_buf = buf;
			req->hdr_size = size;
		}
		dma = ib_dma_map_single(ep->device, req->hdr_buf, size,
					DMA_TO_DEVICE);
		if (ib_dma_mapping_error(ep->device, dma))
			return -EIO;
		ep->hdr_dma[i] = dma;
		ep->nr_hdr_dma = i + 1;
	}
	return 0;
}

/* Undo xrdma_hdrs_map(); no Send of @ep is in flight any more. */
static void xrdma_hdrs_unmap(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	unsigned int i;

	for (i = 0; i < ep->nr_hdr_dma; i++)
		ib_dma_unmap_single(ep->device, ep->hdr_dma[i],
				    rx->reqs[i].hdr_size, DMA_TO_DEVICE);
	kfree(ep->hdr_dma);
	ep->hdr_dma = NULL;
	ep->nr_hdr_dma = 0;
}

/* Unmap the RPC buffers Sends on @ep used; none is in flight any more. */
static void xrdma_reqs_unmap_bufs(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	unsigned int i;

	for (i = 0; i < rx->nr_reqs; i++)
		if (rx->reqs[i].rpc_dma_ep == ep)
			xrdma_rpc_buf_unmap(&rx->reqs[i]);
}

/* Take back every MR a request still holds from @ep. */
static void xrdma_reqs_release_mrs(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	unsigned int i;

	for (i = 0; i < rx->nr_reqs; i++) {
		if (rx->reqs[i].mr_ep == ep)
			xrdma_mrs_recover(&rx->reqs[i]);
		xrdma_mrs_unstash(&rx->reqs[i]);
	}
}

/* Size the queues and pick the limits for @ep from its device. */
static int xrdma_ep_size(struct xrdma_xprt *rx, struct xrdma_ep *ep,
			 struct rpcrdma_client_queues *q)
{
	struct rpcrdma_dev_limits lim;
	int rc;

	rpcrdma_dev_limits_get(ep->device, ep->id->port_num,
			       XRDMA_MAX_DATA_PAGES, &lim);
	rc = rpcrdma_size_client(&lim, rx->nr_reqs, XRDMA_MAX_MRS,
				 XRDMA_BC_MAX_REQS, XRDMA_MAX_DATA_PAGES,
				 RPCRDMA_MAX_SEND_SGES, q);
	if (rc) {
		pr_warn_ratelimited("rpcrdma: device %s cannot carry an RPC (FRWR, SGEs or queue depth)\n",
				    ep->device->name);
		return rc;
	}
	ep->mr_depth = q->mr_depth;
	ep->max_send_sge = q->max_send_sge;
	ep->max_requests = q->max_requests;
	ep->nr_reps = q->recv_posted;
	ep->recv_batch = q->recv_batch;
	ep->sendq.batch = q->send_batch;
	ep->sq_depth = q->send_wr;
	return 0;
}

/* Make an RDMA-CM id for the server's address and resolve its route. */
static int xrdma_ep_resolve(struct xrdma_ep *ep)
{
	struct rpc_xprt *xprt = &ep->rx->xprt;
	unsigned long timeout = msecs_to_jiffies(XRDMA_RESOLVE_TIMEOUT_MS) + HZ;
	struct rdma_cm_id *id;
	int rc;

	id = rdma_create_id(xprt->xprt_net, xrdma_cm_handler, ep, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);

	ep->fail.step = XRDMA_STEP_ADDR;
	rc = rdma_resolve_addr(id, NULL, (struct sockaddr *)&xprt->addr,
			       XRDMA_RESOLVE_TIMEOUT_MS);
	rc = xrdma_cm_wait(ep, rc, timeout);
	if (rc)
		goto out_id;
	reinit_completion(&ep->cm_done);
	ep->fail.step = XRDMA_STEP_ROUTE;
	rc = rdma_resolve_route(id, XRDMA_RESOLVE_TIMEOUT_MS);
	rc = xrdma_cm_wait(ep, rc, timeout);
	if (rc)
		goto out_id;
	ep->id = id;
	ep->device = id->device;
	return 0;

out_id:
	rdma_destroy_id(id);
	return rc;
}

/*
 * Release what xrdma_ep_create_queues() made, once nothing can be posted
 * any more: Receives are flushed first, because their handler posts
 * LocalInvs, which the Send Queue drain must then catch.  Everything
 * else that posts Sends is excluded by XPRT_LOCKED or by ep_rwsem.
 * The QP and CQs go before the MRs, the Send contexts and the Receive
 * buffers their completions point to (rpcrdma_ib_destroy_qp()).
 */
static void xrdma_ep_destroy_queues(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	xrdma_recv_close(rx, ep);
	ib_drain_rq(ep->ib.qp);
	xrdma_recv_orphan_held(rx, ep);
	ib_drain_sq(ep->ib.qp);
	rpcrdma_ib_destroy_qp(&ep->ib, ep->id);
	xrdma_sendq_retire_all(ep);
	xrdma_hdrs_unmap(rx, ep);
	xrdma_reqs_unmap_bufs(rx, ep);
	xrdma_reqs_release_mrs(rx, ep);
	xrdma_mr_pool_destroy(ep);
	rpcrdma_ib_destroy(&ep->ib, ep->id);
	xrdma_reps_destroy(ep);
}

/* PD, CQs and QP sized for the device, and the MRs. */
static int xrdma_ep_create_queues(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	struct rpcrdma_client_queues q;
	struct rpcrdma_ib_attr attr;
	int rc;

	rc = xrdma_ep_size(rx, ep, &q);
	if (rc)
		return rc;
	attr = (struct rpcrdma_ib_attr) {
		.send_cqe	= q.send_cqe,
		.recv_cqe	= q.recv_cqe,
		.send_wr	= q.send_wr,
		.recv_wr	= q.recv_wr,
		.send_sge	= ep->max_send_sge,
		.event_handler	= xrdma_qp_event,
		.context	= ep,
	};
	rc = rpcrdma_ib_create(&ep->ib, ep->id, &attr);
	if (rc)
		return rc;
	rc = xrdma_mr_pool_init(ep);
	if (rc)
		goto out_queues;
	return 0;

out_queues:
	xrdma_ep_destroy_queues(rx, ep);
	return rc;
}

/* Connect with our RFC 8797 private data; size inline from the reply. */
static int xrdma_ep_handshake(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	struct rdma_conn_param param = { };
	u8 pdata[RPCRDMA_CM_PDATA_SIZE];
	int rc;

	/* Sizes on the 1 KiB grid: what the server will decode. */
	rpcrdma_cm_pdata_init(&ep->local_pdata, true, rx->inline_write,
			      rx->inline_read);
	rc = rpcrdma_cm_pdata_encode(pdata, sizeof(pdata), &ep->local_pdata);
	if (rc < 0)
		return rc;
	param.private_data = pdata;
	param.private_data_len = sizeof(pdata);
	param.responder_resources =
		min_t(int, ep->device->attrs.max_qp_rd_atom, U8_MAX);
	ep->ird = param.responder_resources;
	param.initiator_depth = 0;
	param.retry_count = 6;
	param.rnr_retry_count = 0;
	param.flow_control = 0;

	reinit_completion(&ep->cm_done);
	rc = rdma_connect(ep->id, &param);
	rc = xrdma_cm_wait(ep, rc, XRDMA_CONNECT_TIMEOUT);
	if (rc)
		return rc;

	ep->inline_send = rpcrdma_inline_threshold(ep->local_pdata.send_size,
						   ep->peer_pdata.recv_size);
	ep->inline_recv = rpcrdma_inline_threshold(ep->peer_pdata.send_size,
						   ep->local_pdata.recv_size);
	return 0;
}

/*
 * Resolve, create the queues, connect, then size and map the buffers the
 * connect reply sizes, and post the Receives.
 * Return: 0, or -errno and undone.
 */
static int xrdma_ep_open(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	int rc;

	rc = xrdma_ep_resolve(ep);
	if (rc)
		return rc;
	ep->fail.step = XRDMA_STEP_QUEUES;
	rc = xrdma_ep_create_queues(rx, ep);
	if (rc)
		goto out_id;
	ep->fail.step = XRDMA_STEP_CONNECT;
	rc = xrdma_ep_handshake(rx, ep);
	if (rc)
		goto out_queues;
	ep->fail.step = XRDMA_STEP_SETUP;
	rc = xrdma_hdrs_map(rx, ep);
	if (rc)
		goto out_queues;
	rc = xrdma_reps_create(rx, ep);
	if (rc)
		goto out_queues;
	return 0;

out_queues:
	WRITE_ONCE(ep->connected, false);
	rdma_disconnect(ep->id);
	xrdma_ep_destroy_queues(rx, ep);
out_id:
	rdma_destroy_id(ep->id);
	ep->id = NULL;
	return rc;
}

/* Disconnected: release everything @ep holds, and @ep. */
static void xrdma_ep_destroy(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	xrdma_ep_destroy_queues(rx, ep);
	rdma_destroy_id(ep->id);
	kfree(ep);
}

/**
 * xrdma_ep_connect - make a new connection for a transport
 * @rx: transport with no endpoint; the caller holds XPRT_LOCKED
 *
 * Return: 0 when connected, or -errno; nothing is left allocated on
 * failure.
 */
int xrdma_ep_connect(struct xrdma_xprt *rx)
{
	struct rpc_xprt *xprt = &rx->xprt;
	struct xrdma_ep *ep;
	int rc;

	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	if (!ep)
		return -ENOMEM;
	ep->rx = rx;
	ep->fail.event = -1;
	init_completion(&ep->cm_done);
	xrdma_mr_pool_prepare(ep);
	rpcrdma_sendq_init(&ep->sendq);

	xrdma_linkwatch_connecting(rx, ep);
	rc = xrdma_ep_open(rx, ep);
	xrdma_linkwatch_connecting(rx, NULL);
	xrdma_connect_report(rx, &ep->fail, rc);
	if (rc) {
		trace_xprtrdma_connect(xprt, rc, ep->cm_status);
		kfree(ep);
		return rc;
	}

	ep->established = jiffies ?: 1;
	rpcrdma_conn_up(&rx->conn);
	down_write(&rx->ep_rwsem);
	rx->ep = ep;
	up_write(&rx->ep_rwsem);
	xrdma_linkwatch_connected(rx, ep->id->route.addr.dev_addr.bound_dev_if);
	WRITE_ONCE(rx->conn_inline_send, ep->inline_send);
	WRITE_ONCE(rx->conn_inline_recv, ep->inline_recv);

	xprt->max_payload = ep->mr_depth << PAGE_SHIFT;
	spin_lock(&xprt->transport_lock);
	rx->credits = 1;
	xprt->cwnd = RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
	trace_xprtrdma_inline_thresh(ep);
	trace_xprtrdma_connect(xprt, 0, ep->cm_status);
	return 0;
}

/**
 * xrdma_reqs_claim_all - take no reply for any slot until it is posted again
 * @rx: transport whose connection is gone
 *
 * The calls sent on a connection that is gone get no reply from it: a
 * reply with one of their XIDs on the next connection, before the call
 * is sent again there, is not theirs (xrdma_req_open()).  The queue
 * lock orders this against a reply handler on the new connection.
 */
VISIBLE_IF_KUNIT void xrdma_reqs_claim_all(struct xrdma_xprt *rx)
{
	unsigned int i;

	spin_lock(&rx->xprt.queue_lock);
	for (i = 0; i < rx->nr_reqs; i++)
		rx->reqs[i].reply_claimed = true;
	spin_unlock(&rx->xprt.queue_lock);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_reqs_claim_all);

/**
 * xrdma_ep_close - disconnect and free the current endpoint, if any
 * @rx: transport; the caller holds XPRT_LOCKED or is destroying @rx
 *
 * On return, every Send and Receive has completed, every MR is
 * deregistered, and no request holds resources of the old connection.
 */
void xrdma_ep_close(struct xrdma_xprt *rx)
{
	struct xrdma_ep *ep;
	int rc;

	down_write(&rx->ep_rwsem);
	ep = rx->ep;
	rx->ep = NULL;
	if (ep) {
		WRITE_ONCE(ep->connected, false);
		rc = rdma_disconnect(ep->id);
		trace_xprtrdma_disconnect(&rx->xprt, rc, ep->cm_status);
		xrdma_ep_destroy(rx, ep);
		xrdma_reqs_claim_all(rx);
	}
	up_write(&rx->ep_rwsem);
}
