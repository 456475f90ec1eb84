// SPDX-License-Identifier: GPL-2.0
/*
 * NFSv4.1 backchannel on the client (RFC 8167): the server sends RPC
 * Calls to us on the same connection, inline, as RDMA_MSG; the NFS
 * callback service processes them and we Send the Replies inline.
 *
 * A backchannel request is a struct xrdma_req with @is_bc set, from a
 * small pool of its own.  Its two pages hold the received Call (copied
 * out of the Receive buffer, so the Receive is reposted at once) and
 * the Reply the callback service encodes (svc code wants a whole page).
 */
#include <linux/lwq.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/bc_xprt.h>
#include <rpcrdma/compat.h>

#include "client.h"
#include "trace.h"

#if !IS_ENABLED(CONFIG_SUNRPC_BACKCHANNEL)
#error "rpcrdma needs CONFIG_SUNRPC_BACKCHANNEL (NFSv4.1 and later)"
#endif

static struct xrdma_req *xrdma_bc_req_get(struct xrdma_xprt *rx)
{
	struct xrdma_req *req;
	size_t hdr_size;
	int id;

	spin_lock(&rx->free_lock);
	req = xrdma_free_pop(&rx->bc_free);
	if (req) {
		spin_unlock(&rx->free_lock);
		return req;
	}
	if (rx->bc_count >= XRDMA_BC_MAX_REQS) {
		spin_unlock(&rx->free_lock);
		return NULL;
	}
	id = rx->nr_reqs + rx->bc_count++;
	spin_unlock(&rx->free_lock);

	/* We run in the Receive completion workqueue, which a swap-out may
	 * be waiting for: no I/O from reclaim.
	 */
	req = kzalloc(sizeof(*req), GFP_NOIO);
	if (!req)
		goto out_undo;
	/* Room for a pull-up whatever the connection: these are few. */
	hdr_size = max_t(size_t, XRDMA_HDR_BUF_SIZE, rx->inline_write);
	req->hdr_buf = kmalloc(hdr_size, GFP_NOIO);
	req->rpc_buf = (void *)__get_free_pages(GFP_NOIO, 1);
	if (!req->hdr_buf || !req->rpc_buf) {
		kfree(req->hdr_buf);
		if (req->rpc_buf)
			free_pages((unsigned long)req->rpc_buf, 1);
		kfree(req);
		goto out_undo;
	}
	req->rpc_buf_size = 2 * PAGE_SIZE;
	req->hdr_size = hdr_size;
	req->rx = rx;
	xrdma_req_send_init(req, id);
	req->is_bc = true;
	init_completion(&req->inv_sync);
	return req;

out_undo:
	spin_lock(&rx->free_lock);
	rx->bc_count--;
	spin_unlock(&rx->free_lock);
	return NULL;
}

/**
 * xrdma_bc_receive_call - hand a backchannel Call to the callback service
 * @rx: transport
 * @hdr: decoded transport header (RDMA_MSG, payload is an RPC Call)
 * @payload: the RPC Call
 *
 * Calls with chunks, calls larger than a page and calls beyond the
 * slots we offered are protocol violations: they reset the connection.
 */
void xrdma_bc_receive_call(struct xrdma_xprt *rx, const struct rpcrdma_hdr *hdr,
			   const u8 *payload)
{
	struct rpc_xprt *xprt = &rx->xprt;
	const struct rpcrdma_chunk_lists *cl = &hdr->lists;
	struct svc_serv *bc_serv = xprt->bc_serv;
	struct rpc_rqst *rqst;
	struct xrdma_req *req;

	if (!bc_serv || cl->nr_read_chunks || cl->nr_write_chunks ||
	    cl->has_reply || hdr->inline_len > PAGE_SIZE) {
		pr_warn_ratelimited("rpcrdma: unexpected backchannel call from %s\n",
				    xprt->address_strings[RPC_DISPLAY_ADDR]);
		xrdma_force_disconnect(rx, "unexpected backchannel call");
		return;
	}
	req = xrdma_bc_req_get(rx);
	if (!req) {
		pr_warn_ratelimited("rpcrdma: backchannel overflow from %s\n",
				    xprt->address_strings[RPC_DISPLAY_ADDR]);
		xrdma_force_disconnect(rx, "backchannel overflow");
		return;
	}
	memcpy(req->rpc_buf, payload, hdr->inline_len);
	kref_init(&req->ref);

	rqst = &req->rqst;
	memset(rqst, 0, sizeof(*rqst));
	rqst->rq_xprt = xprt;
	rqst->rq_xid = *(const __be32 *)payload;
	__set_bit(RPC_BC_PA_IN_USE, &rqst->rq_bc_pa_state);
	rqst->rq_rcv_buf.head[0].iov_base = req->rpc_buf;
	rqst->rq_rcv_buf.head[0].iov_len = hdr->inline_len;
	rqst->rq_rcv_buf.len = hdr->inline_len;
	rqst->rq_rcv_buf.buflen = PAGE_SIZE;
	rqst->rq_private_buf.len = hdr->inline_len;
	xdr_buf_init(&rqst->rq_snd_buf, req->rpc_buf + PAGE_SIZE, PAGE_SIZE);
	trace_xprtrdma_cb_call(xprt, rqst, hdr->inline_len);

	rpcrdma_bc_enqueue(rqst, bc_serv);
}

/**
 * xrdma_bc_send_reply - Send the Reply to a backchannel Call
 * @rx: transport
 * @req: the backchannel request, with rq_snd_buf encoded
 *
 * Return: 0, or a negative errno for the RPC layer.
 */
int xrdma_bc_send_reply(struct xrdma_xprt *rx, struct xrdma_req *req)
{
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpc_rqst *rqst = &req->rqst;
	struct xrdma_ep *ep = rx->ep;
	int rc;

	if (!xprt_connected(xprt) || !ep)
		return -ENOTCONN;
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;

	rpcrdma_chunk_lists_init(&req->offered, req->chunks,
				 ARRAY_SIZE(req->chunks), req->segs,
				 ARRAY_SIZE(req->segs));
	if (xrdma_encode_header(req, XRDMA_BC_MAX_REQS, RPCRDMA_MSG))
		return -EIO;
	if (!rpcrdma_fits_inline(ep->inline_send, req->hdr_len,
				 rqst->rq_snd_buf.len))
		return -EIO;
	rc = xrdma_build_send(req, &rqst->rq_snd_buf, rqst->rq_snd_buf.len,
			      rqst->rq_snd_buf.len);
	if (rc)
		return -EIO;

	rc = xrdma_post_send(req, ep);
	if (rc) {
		xrdma_force_disconnect(rx, "backchannel reply not posted");
		return -ENOTCONN;
	}
	trace_xprtrdma_cb_reply(xprt, rqst, rqst->rq_snd_buf.len);
	return 0;
}

/**
 * xrdma_bc_req_free - return a backchannel request to its pool
 * @req: request whose last reference is gone
 */
void xrdma_bc_req_free(struct xrdma_req *req)
{
	struct xrdma_xprt *rx = req->rx;

	spin_lock(&rx->free_lock);
	xrdma_free_push(&rx->bc_free, req);
	spin_unlock(&rx->free_lock);
}

static void xrdma_bc_req_destroy(struct xrdma_req *req)
{
	kfree(req->hdr_buf);
	free_pages((unsigned long)req->rpc_buf, 1);
	kfree(req);
}

/**
 * xrdma_bc_setup - prepare a transport for backchannel Calls
 * @xprt: transport
 * @min_reqs: slots the upper layer wants (unused)
 *
 * Return: 0.
 */
int xrdma_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs)
{
	/* Requests are made when Calls arrive, up to XRDMA_BC_MAX_REQS. */
	trace_xprtrdma_cb_setup(xprt, XRDMA_BC_MAX_REQS);
	return 0;
}

/**
 * xrdma_bc_maxpayload - largest backchannel message we can take inline
 * @xprt: transport
 *
 * Return: size in bytes of the RPC message.
 */
size_t xrdma_bc_maxpayload(struct rpc_xprt *xprt)
{
	struct xrdma_xprt *rx = xrdma_xprt(xprt);
	unsigned int send, recv;

	/*
	 * Called under rcu_read_lock(), so no ep_rwsem: the sizes of the
	 * last connection are kept in the transport itself, never behind
	 * an endpoint pointer that a reconnect may free.
	 */
	send = READ_ONCE(rx->conn_inline_send) ?: rx->inline_write;
	recv = READ_ONCE(rx->conn_inline_recv) ?: rx->inline_read;
	return min3(send, recv, (unsigned int)PAGE_SIZE) -
	       RPCRDMA_HDR_MIN_SIZE;
}

/**
 * xrdma_bc_num_slots - backchannel slots to offer in CREATE_SESSION
 * @xprt: transport
 *
 * Return: number of slots.
 */
unsigned int xrdma_bc_num_slots(struct rpc_xprt *xprt)
{
	return XRDMA_BC_MAX_REQS;
}

/**
 * xrdma_bc_free_rqst - the callback service is done with a request
 * @rqst: the backchannel request
 */
void xrdma_bc_free_rqst(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;

	xrdma_req_put(xrdma_req(rqst));
	xprt_put(xprt);
}

/**
 * xrdma_bc_destroy_all - free every idle backchannel request
 * @rx: transport
 */
void xrdma_bc_destroy_all(struct xrdma_xprt *rx)
{
	struct xrdma_req *req;

	spin_lock(&rx->free_lock);
	while ((req = xrdma_free_pop(&rx->bc_free))) {
		rx->bc_count--;
		spin_unlock(&rx->free_lock);
		xrdma_bc_req_destroy(req);
		spin_lock(&rx->free_lock);
	}
	spin_unlock(&rx->free_lock);
}

/**
 * xrdma_bc_destroy - the upper layer stops using the backchannel
 * @xprt: transport
 * @max_reqs: unused
 */
void xrdma_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs)
{
	xrdma_bc_destroy_all(xrdma_xprt(xprt));
}
