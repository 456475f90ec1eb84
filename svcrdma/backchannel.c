// SPDX-License-Identifier: GPL-2.0
/*
 * Server side of the NFSv4.1+ backchannel (RFC 8167): callbacks from the
 * server to a client travel as RPC Calls on the client's own forward
 * connection.  nfsd creates an rpc_xprt of class XPRT_TRANSPORT_BC_RDMA
 * bound to the svc transport; its Calls go out inline (RFC 8167 allows
 * no chunks in the backchannel), and the client's Replies arrive among
 * the forward Calls, where srdma_recvfrom() hands them here.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sunrpc/xprt.h>

#include "server.h"
#include "trace.h"

static const struct rpc_timeout srdma_bc_timeout = {
	.to_initval	= 60 * HZ,
	.to_maxval	= 60 * HZ,
};

static int srdma_bc_buf_alloc(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	rqst->rq_buffer = kmalloc(rqst->rq_callsize, GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_buffer)
		return -ENOMEM;
	rqst->rq_rbuffer = kmalloc(rqst->rq_rcvsize, GFP_NOIO | __GFP_NOWARN);
	if (!rqst->rq_rbuffer) {
		kfree(rqst->rq_buffer);
		rqst->rq_buffer = NULL;
		return -ENOMEM;
	}
	return 0;
}

static void srdma_bc_buf_free(struct rpc_task *task)
{
	struct rpc_rqst *rqst = task->tk_rqstp;

	kfree(rqst->rq_buffer);
	kfree(rqst->rq_rbuffer);
	rqst->rq_buffer = NULL;
	rqst->rq_rbuffer = NULL;
}

/**
 * srdma_bc_build_call - the Send of one callback
 * @sc: a Send context from srdma_send_get()
 * @xid: the Call's XID
 * @msg: the Call (the rpc_rqst's rq_snd_buf)
 *
 * An RDMA_MSG header without chunks (RFC 8167 allows none in the
 * backchannel), and the Call copied after it, inline.  The copy leaves
 * the context as it was for the replies that take it next: their SGE
 * limit is the device's.
 *
 * Return: 0; -EIO if the header cannot be encoded or header and Call do
 * not fit the connection's inline size; or another -errno.
 */
VISIBLE_IF_KUNIT int srdma_bc_build_call(struct srdma_send *sc, __be32 xid,
					 const struct xdr_buf *msg)
{
	struct xdr_stream xdr;
	struct xdr_buf hbuf;
	__be32 *p;
	int err;

	srdma_send_hdr_stream(sc, &xdr, &hbuf);
	err = rpcrdma_encode_fixed(&xdr, xid, SRDMA_BC_REQUESTS, RPCRDMA_MSG);
	p = xdr_reserve_space(&xdr, 3 * XDR_UNIT);	/* no chunks */
	if (err || !p)
		return -EIO;
	p[0] = xdr_zero;
	p[1] = xdr_zero;
	p[2] = xdr_zero;
	if (xdr_stream_pos(&xdr) + msg->len > sc->sx->inline_send)
		return -EIO;
	return srdma_send_build_copy(sc, xdr_stream_pos(&xdr), msg);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_bc_build_call);

/* Send one callback inline; the Send carries a copy of the Call. */
static int srdma_bc_send_request(struct rpc_rqst *rqst)
{
	struct svc_xprt *sxprt = rqst->rq_xprt->bc_xprt;
	struct srdma_xprt *sx = srdma_xprt(sxprt);
	struct srdma_send *sc;
	int err;

	if (test_bit(XPT_DEAD, &sxprt->xpt_flags) ||
	    test_bit(XPT_CLOSE, &sxprt->xpt_flags))
		return -ENOTCONN;
	sc = srdma_send_get(sx);
	if (!sc)
		return -ENOMEM;
	err = srdma_bc_build_call(sc, rqst->rq_xid, &rqst->rq_snd_buf);
	if (err)
		goto out_put;
	sc->wr.opcode = IB_WR_SEND;
	rqst->rq_xtime = ktime_get();
	trace_svcrdma_bc_call(sx, rqst->rq_xid, rqst->rq_snd_buf.len);
	err = srdma_send_post(sc);
	if (err) {
		svc_xprt_close(sxprt);
		return -ENOTCONN;
	}
	return 0;

out_put:
	srdma_send_put(sc);
	return err;
}

static void srdma_bc_close(struct rpc_xprt *xprt)
{
	xprt_disconnect_done(xprt);
	xprt->cwnd = RPC_CWNDSHIFT;
}

static void srdma_bc_destroy(struct rpc_xprt *xprt)
{
	static const int strs[] = { RPC_DISPLAY_ADDR, RPC_DISPLAY_PORT,
				    RPC_DISPLAY_PROTO, RPC_DISPLAY_NETID };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(strs); i++)
		kfree(xprt->address_strings[strs[i]]);
	xprt_free(xprt);
	module_put(THIS_MODULE);
}

static const struct rpc_xprt_ops srdma_bc_ops = {
	.reserve_xprt		= xprt_reserve_xprt_cong,
	.release_xprt		= xprt_release_xprt_cong,
	.alloc_slot		= xprt_alloc_slot,
	.free_slot		= xprt_free_slot,
	.release_request	= xprt_release_rqst_cong,
	.buf_alloc		= srdma_bc_buf_alloc,
	.buf_free		= srdma_bc_buf_free,
	.send_request		= srdma_bc_send_request,
	.wait_for_reply_request	= xprt_wait_for_reply_request_def,
	.close			= srdma_bc_close,
	.destroy		= srdma_bc_destroy,
};

static void srdma_bc_format_addresses(struct rpc_xprt *xprt)
{
	struct sockaddr *sa = (struct sockaddr *)&xprt->addr;
	char buf[INET6_ADDRSTRLEN + 8];

	snprintf(buf, sizeof(buf), "%pISc", sa);
	xprt->address_strings[RPC_DISPLAY_ADDR] = kstrdup(buf, GFP_KERNEL);
	snprintf(buf, sizeof(buf), "%u", svc_addr_port(sa));
	xprt->address_strings[RPC_DISPLAY_PORT] = kstrdup(buf, GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_PROTO] = kstrdup("rdma", GFP_KERNEL);
	xprt->address_strings[RPC_DISPLAY_NETID] = kstrdup("rdma", GFP_KERNEL);
}

static struct rpc_xprt *srdma_bc_setup(struct xprt_create *args)
{
	struct srdma_xprt *sx;
	struct rpc_xprt *xprt;

	if (!args->bc_xprt || args->addrlen > sizeof(xprt->addr))
		return ERR_PTR(-EBADF);
	sx = srdma_xprt(args->bc_xprt);
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-EIO);
	xprt = xprt_alloc(args->net, sizeof(*xprt), SRDMA_BC_REQUESTS,
			  SRDMA_BC_REQUESTS);
	if (!xprt) {
		module_put(THIS_MODULE);
		return ERR_PTR(-ENOMEM);
	}
	xprt->timeout = &srdma_bc_timeout;
	xprt_set_bound(xprt);
	xprt_set_connected(xprt);
	xprt->bind_timeout = 0;
	xprt->reestablish_timeout = 0;
	xprt->idle_timeout = 0;
	xprt->prot = XPRT_TRANSPORT_BC_RDMA;
	xprt->ops = &srdma_bc_ops;
	memcpy(&xprt->addr, args->dstaddr, args->addrlen);
	xprt->addrlen = args->addrlen;
	srdma_bc_format_addresses(xprt);
	xprt->resvport = 0;
	xprt->max_payload = sx->inline_send - RPCRDMA_HDR_MIN_SIZE;

	/* The svc transport's reference: dropped when it is freed. */
	xprt_get(xprt);
	args->bc_xprt->xpt_bc_xprt = xprt;
	xprt->bc_xprt = args->bc_xprt;
	return xprt;
}

/**
 * srdma_bc_receive_reply - complete a callback with the client's Reply
 * @sx: the connection it arrived on
 * @rc: the Receive holding it (still owned by the caller)
 */
void srdma_bc_receive_reply(struct srdma_xprt *sx, struct srdma_recv *rc)
{
	struct rpc_xprt *xprt = sx->xprt.xpt_bc_xprt;
	const void *msg = rc->rb.buf + rc->hdr.hdr_len;
	unsigned int len = rc->hdr.inline_len;
	struct rpc_rqst *req;
	struct kvec *dst;
	u32 credits;

	if (!xprt) {
		srdma_peer_error(sx, rc, false, RPCRDMA_WIRE_ERR_BAD_PROC);
		return;
	}
	trace_svcrdma_bc_reply(sx, *(const __be32 *)msg, len);

	spin_lock(&xprt->queue_lock);
	req = xprt_lookup_rqst(xprt, *(const __be32 *)msg);
	if (!req)
		goto out_unlock;
	memcpy(&req->rq_private_buf, &req->rq_rcv_buf, sizeof(struct xdr_buf));
	dst = &req->rq_private_buf.head[0];
	if (dst->iov_len < len)
		goto out_unlock;
	memcpy(dst->iov_base, msg, len);
	xprt_pin_rqst(req);
	spin_unlock(&xprt->queue_lock);

	credits = clamp_t(u32, rc->hdr.credits, 1, SRDMA_BC_REQUESTS);
	spin_lock(&xprt->transport_lock);
	xprt->cwnd = credits << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);

	spin_lock(&xprt->queue_lock);
	xprt_complete_rqst(req->rq_task, len);
	xprt_unpin_rqst(req);
out_unlock:
	spin_unlock(&xprt->queue_lock);
}

static struct xprt_class srdma_bc_class = {
	.list	= LIST_HEAD_INIT(srdma_bc_class.list),
	.name	= "rdma backchannel",
	.owner	= THIS_MODULE,
	.ident	= XPRT_TRANSPORT_BC_RDMA,
	.setup	= srdma_bc_setup,
	.netid	= { "" },
};

/**
 * srdma_bc_register - register the backchannel transport class
 *
 * Return: 0 or -errno.
 */
int srdma_bc_register(void)
{
	return xprt_register_transport(&srdma_bc_class);
}

/**
 * srdma_bc_unregister - unregister the backchannel transport class
 */
void srdma_bc_unregister(void)
{
	xprt_unregister_transport(&srdma_bc_class);
}
