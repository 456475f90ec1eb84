// SPDX-License-Identifier: GPL-2.0
/*
 * Client connection management: RDMA-CM address and route resolution,
 * queue pair and completion queues sized from the device and the
 * credits, RFC 8797 private data, and complete teardown.
 */
#include <linux/sunrpc/addr.h>
#include <rpcrdma/queues.h>

#include "client.h"
#include "trace.h"

static int xrdma_cm_handler(struct rdma_cm_id *id, struct rdma_cm_event *event)
{
	struct xrdma_ep *ep = id->context;
	struct rpc_xprt *xprt = &ep->rx->xprt;
	int status = 0;

	trace_xprtrdma_cm_event(xprt, event->event, event->status);
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
		if (!rpcrdma_cm_pdata_decode(event->param.conn.private_data,
					     event->param.conn.private_data_len,
					     &ep->peer_pdata))
			rpcrdma_cm_pdata_default(&ep->peer_pdata);
		WRITE_ONCE(ep->connected, true);
		break;
	case RDMA_CM_EVENT_REJECTED:
		pr_info_ratelimited("rpcrdma: connection to %s:%s rejected: %s\n",
				    xprt->address_strings[RPC_DISPLAY_ADDR],
				    xprt->address_strings[RPC_DISPLAY_PORT],
				    rdma_reject_msg(id, event->status));
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
			xprt_force_disconnect(xprt);
			return 0;
		}
		status = -ECONNABORTED;
		break;
	default:
		/* TIMEWAIT_EXIT and friends need no action. */
		return 0;
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

static int xrdma_reps_create(struct xrdma_ep *ep)
{
	unsigned int i;

	ep->reps = kcalloc(ep->nr_reps, sizeof(*ep->reps), GFP_KERNEL);
	if (!ep->reps)
		return -ENOMEM;
	for (i = 0; i < ep->nr_reps; i++) {
		struct xrdma_rep *rep = &ep->reps[i];

		rep->buf = kmalloc(ep->rep_size, GFP_KERNEL);
		if (!rep->buf)
			return -ENOMEM;
		rep->dma = ib_dma_map_single(ep->device, rep->buf,
					     ep->rep_size, DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(ep->device, rep->dma)) {
			kfree(rep->buf);
			rep->buf = NULL;
			return -EIO;
		}
		rep->ep = ep;
		rep->cqe.done = xrdma_recv_done;
		rpcrdma_cid_init(&rep->cid, ep->recv_cq, i);
		rep->sge.addr = rep->dma;
		rep->sge.length = ep->rep_size;
		rep->sge.lkey = ep->pd->local_dma_lkey;
		rep->wr.wr_cqe = &rep->cqe;
		rep->wr.sg_list = &rep->sge;
		rep->wr.num_sge = 1;
		rep->wr.next = NULL;
	}
	return 0;
}

static void xrdma_reps_destroy(struct xrdma_ep *ep)
{
	unsigned int i;

	if (!ep->reps)
		return;
	for (i = 0; i < ep->nr_reps; i++) {
		struct xrdma_rep *rep = &ep->reps[i];

		if (!rep->buf)
			continue;
		ib_dma_unmap_single(ep->device, rep->dma, ep->rep_size,
				    DMA_FROM_DEVICE);
		kfree(rep->buf);
	}
	kfree(ep->reps);
	ep->reps = NULL;
}

/* Take back every MR a request still holds from @ep. */
static void xrdma_reqs_release_mrs(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	unsigned int i;

	for (i = 0; i < rx->nr_reqs; i++)
		if (rx->reqs[i].mr_ep == ep)
			xrdma_mrs_release(&rx->reqs[i]);
}

static void xrdma_ep_destroy(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	if (ep->qp) {
		/*
		 * Flush everything; the handlers run for each flushed WR.
		 * Receives first: their handler posts LocalInvs, which the
		 * Send queue drain must then catch.  Everything else that
		 * posts Sends is excluded by XPRT_LOCKED or by ep_rwsem.
		 */
		ib_drain_rq(ep->qp);
		ib_drain_sq(ep->qp);
	}
	xrdma_reqs_release_mrs(rx, ep);
	if (ep->pd)
		xrdma_mr_pool_destroy(ep);
	if (ep->qp)
		rdma_destroy_qp(ep->id);
	xrdma_reps_destroy(ep);
	if (ep->send_cq)
		ib_free_cq(ep->send_cq);
	if (ep->recv_cq)
		ib_free_cq(ep->recv_cq);
	if (ep->pd)
		ib_dealloc_pd(ep->pd);
	if (ep->id)
		rdma_destroy_id(ep->id);
	kfree(ep);
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
	ep->rep_size = rx->inline_read;
	return 0;
}

static int xrdma_ep_open(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	struct rpc_xprt *xprt = &rx->xprt;
	struct rdma_conn_param param = { };
	struct ib_qp_init_attr qp_attr = { };
	struct rpcrdma_client_queues q;
	u8 pdata[RPCRDMA_CM_PDATA_SIZE];
	unsigned int i;
	struct rdma_cm_id *id;
	int rc;

	id = rdma_create_id(xprt->xprt_net, xrdma_cm_handler, ep, RDMA_PS_TCP,
			    IB_QPT_RC);
	if (IS_ERR(id))
		return PTR_ERR(id);
	ep->id = id;

	rc = rdma_resolve_addr(id, NULL, (struct sockaddr *)&xprt->addr,
			       XRDMA_RESOLVE_TIMEOUT_MS);
	rc = xrdma_cm_wait(ep, rc,
			   msecs_to_jiffies(XRDMA_RESOLVE_TIMEOUT_MS) + HZ);
	if (rc)
		return rc;
	reinit_completion(&ep->cm_done);
	rc = rdma_resolve_route(id, XRDMA_RESOLVE_TIMEOUT_MS);
	rc = xrdma_cm_wait(ep, rc,
			   msecs_to_jiffies(XRDMA_RESOLVE_TIMEOUT_MS) + HZ);
	if (rc)
		return rc;
	ep->device = id->device;

	rc = xrdma_ep_size(rx, ep, &q);
	if (rc)
		return rc;
	ep->pd = ib_alloc_pd(ep->device, 0);
	if (IS_ERR(ep->pd)) {
		rc = PTR_ERR(ep->pd);
		ep->pd = NULL;
		return rc;
	}
	ep->send_cq = ib_alloc_cq_any(ep->device, ep, q.send_cqe,
				      IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->send_cq)) {
		rc = PTR_ERR(ep->send_cq);
		ep->send_cq = NULL;
		return rc;
	}
	ep->recv_cq = ib_alloc_cq_any(ep->device, ep, q.recv_cqe,
				      IB_POLL_WORKQUEUE);
	if (IS_ERR(ep->recv_cq)) {
		rc = PTR_ERR(ep->recv_cq);
		ep->recv_cq = NULL;
		return rc;
	}

	qp_attr.event_handler = xrdma_qp_event;
	qp_attr.qp_context = ep;
	qp_attr.send_cq = ep->send_cq;
	qp_attr.recv_cq = ep->recv_cq;
	qp_attr.cap.max_send_wr = q.send_wr;
	qp_attr.cap.max_recv_wr = q.recv_wr;
	qp_attr.cap.max_send_sge = ep->max_send_sge;
	qp_attr.cap.max_recv_sge = 1;
	qp_attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	qp_attr.qp_type = IB_QPT_RC;
	rc = rdma_create_qp(id, ep->pd, &qp_attr);
	if (rc)
		return rc;
	ep->qp = id->qp;

	rc = xrdma_mr_pool_init(ep);
	if (rc)
		return rc;
	rc = xrdma_reps_create(ep);
	if (rc)
		return rc;
	for (i = 0; i < ep->nr_reps; i++) {
		rc = ib_post_recv(ep->qp, &ep->reps[i].wr, NULL);
		if (rc) {
			trace_xprtrdma_post_recvs_err(xprt, &ep->reps[i].cid,
						      rc);
			return rc;
		}
		trace_xprtrdma_post_recv(&ep->reps[i].cid);
	}

	ep->local_pdata.version = RPCRDMA_CM_PDATA_VERSION;
	ep->local_pdata.remote_inv = true;
	ep->local_pdata.send_size = rx->inline_write;
	ep->local_pdata.recv_size = rx->inline_read;
	rc = rpcrdma_cm_pdata_encode(pdata, sizeof(pdata), &ep->local_pdata);
	if (rc < 0)
		return rc;
	param.private_data = pdata;
	param.private_data_len = sizeof(pdata);
	param.responder_resources =
		min_t(int, ep->device->attrs.max_qp_rd_atom, U8_MAX);
	param.initiator_depth = 0;
	param.retry_count = 6;
	param.rnr_retry_count = 0;
	param.flow_control = 0;

	reinit_completion(&ep->cm_done);
	rc = rdma_connect(id, &param);
	rc = xrdma_cm_wait(ep, rc, XRDMA_CONNECT_TIMEOUT);
	if (rc)
		return rc;

	ep->inline_send = rpcrdma_inline_threshold(ep->local_pdata.send_size,
						   ep->peer_pdata.recv_size);
	ep->inline_recv = rpcrdma_inline_threshold(ep->peer_pdata.send_size,
						   ep->local_pdata.recv_size);
	return 0;
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
	init_completion(&ep->cm_done);
	INIT_LIST_HEAD(&ep->mr_all);
	INIT_LIST_HEAD(&ep->mr_free);
	spin_lock_init(&ep->mr_lock);

	rc = xrdma_ep_open(rx, ep);
	if (rc) {
		WRITE_ONCE(ep->connected, false);
		if (ep->qp)
			rdma_disconnect(ep->id);
		trace_xprtrdma_connect(xprt, rc, ep->cm_status);
		xrdma_ep_destroy(rx, ep);
		return rc;
	}

	down_write(&rx->ep_rwsem);
	rx->ep = ep;
	up_write(&rx->ep_rwsem);
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
	}
	up_write(&rx->ep_rwsem);
}
