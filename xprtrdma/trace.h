/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the RPC-over-RDMA client, in the "rpcrdma" trace system
 * that the server's events (svcrdma/trace.h) share.  Where an event
 * means what an event of the kernel's own rpcrdma module means, it has
 * that event's name and field names, so existing tools keep working;
 * the others are ours, named xprtrdma_* in the same style.
 *
 *   echo 1 > /sys/kernel/tracing/events/rpcrdma/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma

#if !defined(_XPRTRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XPRTRDMA_TRACE_H

#include <linux/tracepoint.h>
#include <linux/sunrpc/clnt.h>
#include <linux/sunrpc/sched.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rpcrdma/cid.h>
#include <rpcrdma/trace_classes.h>
#include <rpcrdma/wire.h>
#include "client.h"

#ifndef _XPRTRDMA_TRACE_HELPERS
#define _XPRTRDMA_TRACE_HELPERS
/* The RPC task of a request, or 0 / -1 when there is none (backchannel). */
static inline unsigned int xrdma_trace_task_id(const struct rpc_rqst *rqst)
{
	return rqst->rq_task ? rqst->rq_task->tk_pid : 0;
}

static inline unsigned int xrdma_trace_client_id(const struct rpc_rqst *rqst)
{
	const struct rpc_task *task = rqst->rq_task;

	return task && task->tk_client ? task->tk_client->cl_clid : -1;
}
#endif

#define XRDMA_TASK_FMT		"task:%08x@%08x"

TRACE_DEFINE_ENUM(XRDMA_NOCH);
TRACE_DEFINE_ENUM(XRDMA_NOCH_PULLUP);
TRACE_DEFINE_ENUM(XRDMA_NOCH_MAPPED);
TRACE_DEFINE_ENUM(XRDMA_READCH);
TRACE_DEFINE_ENUM(XRDMA_AREADCH);
TRACE_DEFINE_ENUM(XRDMA_WRITECH);
TRACE_DEFINE_ENUM(XRDMA_REPLYCH);

#define xrdma_show_chunk(t)						\
	__print_symbolic(t,						\
			 { XRDMA_NOCH, "inline" },			\
			 { XRDMA_NOCH_PULLUP, "pullup" },		\
			 { XRDMA_NOCH_MAPPED, "mapped" },		\
			 { XRDMA_READCH, "read list" },			\
			 { XRDMA_AREADCH, "*read list" },		\
			 { XRDMA_WRITECH, "write list" },		\
			 { XRDMA_REPLYCH, "reply chunk" })

TRACE_DEFINE_ENUM(DMA_BIDIRECTIONAL);
TRACE_DEFINE_ENUM(DMA_TO_DEVICE);
TRACE_DEFINE_ENUM(DMA_FROM_DEVICE);
TRACE_DEFINE_ENUM(DMA_NONE);

#define xrdma_show_dir(d)						\
	__print_symbolic(d,						\
			 { DMA_BIDIRECTIONAL, "BIDIR" },		\
			 { DMA_TO_DEVICE, "TO_DEVICE" },		\
			 { DMA_FROM_DEVICE, "FROM_DEVICE" },		\
			 { DMA_NONE, "NONE" })

/*
 * Transport events: the peer's address and port, and a value
 */

DECLARE_EVENT_CLASS(xprtrdma_peer_class,
	TP_PROTO(const struct rpc_xprt *xprt),
	TP_ARGS(xprt),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
	),
	TP_printk("peer=[%s]:%s", __get_str(addr), __get_str(port))
);

DEFINE_EVENT(xprtrdma_peer_class, xprtrdma_op_inject_dsc,
	TP_PROTO(const struct rpc_xprt *xprt),
	TP_ARGS(xprt));

TRACE_EVENT(xprtrdma_op_setup,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned int slots),
	TP_ARGS(xprt, slots),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(unsigned int, slots)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
		__entry->slots = slots;
	),
	TP_printk("peer=[%s]:%s slots=%u", __get_str(addr), __get_str(port),
		  __entry->slots)
);

TRACE_EVENT(xprtrdma_op_connect,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned long delay),
	TP_ARGS(xprt, delay),
	TP_STRUCT__entry(
		__field(unsigned long, delay)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
	),
	TP_fast_assign(
		__entry->delay = delay;
		__assign_str(addr);
		__assign_str(port);
	),
	TP_printk("peer=[%s]:%s delay=%lu", __get_str(addr), __get_str(port),
		  __entry->delay)
);

TRACE_EVENT(xprtrdma_op_set_cto,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned long connect,
		 unsigned long reconnect),
	TP_ARGS(xprt, connect, reconnect),
	TP_STRUCT__entry(
		__field(unsigned long, connect)
		__field(unsigned long, reconnect)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
	),
	TP_fast_assign(
		__entry->connect = connect;
		__entry->reconnect = reconnect;
		__assign_str(addr);
		__assign_str(port);
	),
	TP_printk("peer=[%s]:%s connect=%lus reconnect=%lus",
		  __get_str(addr), __get_str(port), __entry->connect / HZ,
		  __entry->reconnect / HZ)
);

DECLARE_EVENT_CLASS(xprtrdma_conn_class,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int connect_status),
	TP_ARGS(xprt, rc, connect_status),
	TP_STRUCT__entry(
		__field(int, rc)
		__field(int, connect_status)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
	),
	TP_fast_assign(
		__entry->rc = rc;
		__entry->connect_status = connect_status;
		__assign_str(addr);
		__assign_str(port);
	),
	TP_printk("peer=[%s]:%s rc=%d connect_status=%d", __get_str(addr),
		  __get_str(port), __entry->rc, __entry->connect_status)
);

DEFINE_EVENT(xprtrdma_conn_class, xprtrdma_connect,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int connect_status),
	TP_ARGS(xprt, rc, connect_status));
DEFINE_EVENT(xprtrdma_conn_class, xprtrdma_disconnect,
	TP_PROTO(const struct rpc_xprt *xprt, int rc, int connect_status),
	TP_ARGS(xprt, rc, connect_status));

TRACE_EVENT(xprtrdma_inline_thresh,
	TP_PROTO(const struct xrdma_ep *ep),
	TP_ARGS(ep),
	TP_STRUCT__entry(
		__field(unsigned int, inline_send)
		__field(unsigned int, inline_recv)
		__field(unsigned int, max_send)
		__field(unsigned int, max_recv)
		__field(unsigned int, recv_buf)
		__field(unsigned int, hdr_buf)
		__array(unsigned char, srcaddr, sizeof(struct sockaddr_in6))
		__array(unsigned char, dstaddr, sizeof(struct sockaddr_in6))
	),
	TP_fast_assign(
		__entry->inline_send = ep->inline_send;
		__entry->inline_recv = ep->inline_recv;
		__entry->max_send = ep->local_pdata.send_size;
		__entry->max_recv = ep->local_pdata.recv_size;
		__entry->recv_buf = ep->rep_size;
		__entry->hdr_buf = xrdma_hdr_buf_size(ep->inline_send,
						      ep->max_send_sge);
		memcpy(__entry->srcaddr, &ep->id->route.addr.src_addr,
		       sizeof(struct sockaddr_in6));
		memcpy(__entry->dstaddr, &ep->id->route.addr.dst_addr,
		       sizeof(struct sockaddr_in6));
	),
	TP_printk("%pISpc -> %pISpc inline send/recv=%u/%u, ours send/recv=%u/%u, receive buffers %u, header buffers %u",
		  __entry->srcaddr, __entry->dstaddr, __entry->inline_send,
		  __entry->inline_recv, __entry->max_send, __entry->max_recv,
		  __entry->recv_buf, __entry->hdr_buf)
);

RPCRDMA_DECLARE_DEVICE_REMOVAL_CLASS(xprtrdma_device_removal_class);
DEFINE_EVENT(xprtrdma_device_removal_class, xprtrdma_device_removal,
	TP_PROTO(const struct rdma_cm_id *id),
	TP_ARGS(id));

DECLARE_EVENT_CLASS(xprtrdma_value_class,
	TP_PROTO(const struct rpc_xprt *xprt, long value),
	TP_ARGS(xprt, value),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(long, value)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
		__entry->value = value;
	),
	TP_printk("peer=[%s]:%s value=%ld", __get_str(addr), __get_str(port),
		  __entry->value)
);

DEFINE_EVENT(xprtrdma_value_class, xprtrdma_credits,
	TP_PROTO(const struct rpc_xprt *xprt, long value),
	TP_ARGS(xprt, value));
DEFINE_EVENT(xprtrdma_value_class, xprtrdma_swap,
	TP_PROTO(const struct rpc_xprt *xprt, long value),
	TP_ARGS(xprt, value));

/*
 * New MRs for a connection's pool: when it is set up, by the refill
 * work when few are left, or one in the I/O path, the pool empty.
 */
TRACE_EVENT(xprtrdma_createmrs,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned int count,
		 const char *why),
	TP_ARGS(xprt, count, why),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(unsigned int, count)
		__string(why, why)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
		__entry->count = count;
		__assign_str(why);
	),
	TP_printk("peer=[%s]:%s new MRs=%u (%s)", __get_str(addr),
		  __get_str(port), __entry->count, __get_str(why))
);

TRACE_EVENT(xprtrdma_cb_setup,
	TP_PROTO(const struct rpc_xprt *xprt, unsigned int reqs),
	TP_ARGS(xprt, reqs),
	TP_STRUCT__entry(
		__field(unsigned int, reqs)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
	),
	TP_fast_assign(
		__entry->reqs = reqs;
		__assign_str(addr);
		__assign_str(port);
	),
	TP_printk("peer=[%s]:%s backchannel requests=%u", __get_str(addr),
		  __get_str(port), __entry->reqs)
);

RPCRDMA_DECLARE_CM_EVENT_CLASS(xprtrdma_cm_event_class);
DEFINE_EVENT(xprtrdma_cm_event_class, xprtrdma_cm_event,
	TP_PROTO(const struct sockaddr *peer, int event, int status),
	TP_ARGS(peer, event, status));

TRACE_EVENT(xprtrdma_qp_event,
	TP_PROTO(const struct rpc_xprt *xprt, enum ib_event_type event),
	TP_ARGS(xprt, event),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(unsigned int, event)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
		__entry->event = event;
	),
	TP_printk("peer=[%s]:%s event=%s (%u)", __get_str(addr),
		  __get_str(port), ib_event_msg(__entry->event),
		  __entry->event)
);

DECLARE_EVENT_CLASS(xprtrdma_xprt_why_class,
	TP_PROTO(const struct rpc_xprt *xprt, const char *why),
	TP_ARGS(xprt, why),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__string(why, why)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
		__assign_str(why);
	),
	TP_printk("peer=[%s]:%s reason=\"%s\"", __get_str(addr),
		  __get_str(port), __get_str(why))
);

#define DEFINE_XPRTRDMA_XPRT_WHY_EVENT(name)				\
	DEFINE_EVENT(xprtrdma_xprt_why_class, xprtrdma_##name,		\
		TP_PROTO(const struct rpc_xprt *xprt, const char *why),	\
		TP_ARGS(xprt, why))

DEFINE_XPRTRDMA_XPRT_WHY_EVENT(force_disconnect);
/* A disconnected transport retries at once: @why is what came back. */
DEFINE_XPRTRDMA_XPRT_WHY_EVENT(link_back);

/*
 * Posting work requests
 */

TRACE_EVENT(xprtrdma_post_send,
	TP_PROTO(const struct xrdma_req *req),
	TP_ARGS(req),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(int, num_sge)
		__field(int, signaled)
		__field(u32, xid)
	),
	TP_fast_assign(
		__entry->cq_id = req->send_cid.queue_id;
		__entry->completion_id = req->send_cid.completion_id;
		__entry->task_id = xrdma_trace_task_id(&req->rqst);
		__entry->client_id = xrdma_trace_client_id(&req->rqst);
		__entry->num_sge = req->send_wr.num_sge;
		__entry->signaled = req->send_wr.send_flags & IB_SEND_SIGNALED;
		__entry->xid = be32_to_cpu(req->rqst.rq_xid);
	),
	TP_printk(XRDMA_TASK_FMT " cq.id=%u cid=%d xid=0x%08x sges=%d%s",
		  __entry->task_id, __entry->client_id, __entry->cq_id,
		  __entry->completion_id, __entry->xid, __entry->num_sge,
		  __entry->signaled ? " signaled" : "")
);

TRACE_EVENT(xprtrdma_post_send_err,
	TP_PROTO(const struct xrdma_req *req, int rc),
	TP_ARGS(req, rc),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(int, rc)
		__field(int, completion_id)
		__field(u32, xid)
	),
	TP_fast_assign(
		__entry->cq_id = req->send_cid.queue_id;
		__entry->task_id = xrdma_trace_task_id(&req->rqst);
		__entry->client_id = xrdma_trace_client_id(&req->rqst);
		__entry->rc = rc;
		__entry->completion_id = req->send_cid.completion_id;
		__entry->xid = be32_to_cpu(req->rqst.rq_xid);
	),
	TP_printk(XRDMA_TASK_FMT " cq.id=%u cid=%d xid=0x%08x rc=%d",
		  __entry->task_id, __entry->client_id, __entry->cq_id,
		  __entry->completion_id, __entry->xid, __entry->rc)
);

TRACE_EVENT(xprtrdma_post_recv,
	TP_PROTO(const struct rpcrdma_cid *cid),
	TP_ARGS(cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
	),
	TP_printk("cq.id=%u cid=%d", __entry->cq_id, __entry->completion_id)
);

TRACE_EVENT(xprtrdma_post_recvs,
	TP_PROTO(const struct xrdma_ep *ep, unsigned int count),
	TP_ARGS(ep, count),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(unsigned int, count)
		__field(int, posted)
		__string(addr, ep->rx->xprt.address_strings[RPC_DISPLAY_ADDR])
		__string(port, ep->rx->xprt.address_strings[RPC_DISPLAY_PORT])
	),
	TP_fast_assign(
		__entry->cq_id = ep->ib.recv_cq->res.id;
		__entry->count = count;
		__entry->posted = ep->nr_reps - ep->nr_recv_pending;
		__assign_str(addr);
		__assign_str(port);
	),
	TP_printk("peer=[%s]:%s cq.id=%u %u new recvs, %d active",
		  __get_str(addr), __get_str(port), __entry->cq_id,
		  __entry->count, __entry->posted)
);

TRACE_EVENT(xprtrdma_post_recvs_err,
	TP_PROTO(const struct rpc_xprt *xprt, const struct rpcrdma_cid *cid,
		 int status),
	TP_ARGS(xprt, cid, status),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, status)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(int, completion_id)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->status = status;
		__assign_str(addr);
		__assign_str(port);
		__entry->completion_id = cid->completion_id;
	),
	TP_printk("peer=[%s]:%s cq.id=%u cid=%d rc=%d", __get_str(addr),
		  __get_str(port), __entry->cq_id, __entry->completion_id,
		  __entry->status)
);

TRACE_EVENT(xprtrdma_post_linv_err,
	TP_PROTO(const struct rpc_rqst *rqst, int status),
	TP_ARGS(rqst, status),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(int, status)
		__field(u32, xid)
	),
	TP_fast_assign(
		__entry->task_id = xrdma_trace_task_id(rqst);
		__entry->client_id = xrdma_trace_client_id(rqst);
		__entry->status = status;
		__entry->xid = be32_to_cpu(rqst->rq_xid);
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x status=%d", __entry->task_id,
		  __entry->client_id, __entry->xid, __entry->status)
);

/*
 * Completions
 */

RPCRDMA_DECLARE_WC_CLASS(xprtrdma_wc_class, "cid");

DEFINE_EVENT(xprtrdma_wc_class, xprtrdma_wc_send,
	TP_PROTO(const struct ib_wc *wc, const struct rpcrdma_cid *cid),
	TP_ARGS(wc, cid));

TRACE_EVENT(xprtrdma_wc_receive,
	TP_PROTO(const struct ib_wc *wc, const struct rpcrdma_cid *cid),
	TP_ARGS(wc, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, received)
		__field(unsigned long, status)
		__field(unsigned int, vendor_err)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
		__entry->status = wc->status;
		__entry->received = wc->status ? 0 : wc->byte_len;
		__entry->vendor_err = wc->status ? wc->vendor_err : 0;
	),
	TP_printk("cq.id=%u cid=%d status=%s (%lu/0x%x) received=%u",
		  __entry->cq_id, __entry->completion_id,
		  ib_wc_status_msg(__entry->status), __entry->status,
		  __entry->vendor_err, __entry->received)
);

RPCRDMA_DECLARE_WC_CLASS(xprtrdma_mr_wc_class, "mr.id");

#define DEFINE_XRDMA_MR_WC_EVENT(name)					\
	DEFINE_EVENT(xprtrdma_mr_wc_class, xprtrdma_##name,		\
		TP_PROTO(const struct ib_wc *wc,			\
			 const struct rpcrdma_cid *cid),		\
		TP_ARGS(wc, cid))

DEFINE_XRDMA_MR_WC_EVENT(wc_fastreg);
DEFINE_XRDMA_MR_WC_EVENT(wc_li);
DEFINE_XRDMA_MR_WC_EVENT(wc_li_wake);
DEFINE_XRDMA_MR_WC_EVENT(wc_li_done);

/*
 * Memory registration
 */

DECLARE_EVENT_CLASS(xprtrdma_mr_class,
	TP_PROTO(const struct xrdma_mr *mr),
	TP_ARGS(mr),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(u32, mr_id)
		__field(int, nents)
		__field(u32, handle)
		__field(u32, length)
		__field(u64, offset)
		__field(u32, dir)
		__field(u32, xid)
	),
	TP_fast_assign(
		const struct xrdma_req *req = mr->req;

		__entry->task_id = req ? xrdma_trace_task_id(&req->rqst) : 0;
		__entry->client_id = req ?
				     xrdma_trace_client_id(&req->rqst) : -1;
		__entry->xid = req ? be32_to_cpu(req->rqst.rq_xid) : 0;
		__entry->mr_id = mr->cid.completion_id;
		__entry->nents = mr->nents;
		__entry->handle = mr->seg.handle;
		__entry->length = mr->seg.length;
		__entry->offset = mr->seg.offset;
		__entry->dir = mr->dir;
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x mr.id=%u nents=%d %u@0x%016llx:0x%08x (%s)",
		  __entry->task_id, __entry->client_id, __entry->xid,
		  __entry->mr_id, __entry->nents, __entry->length,
		  __entry->offset, __entry->handle,
		  xrdma_show_dir(__entry->dir))
);

#define DEFINE_XRDMA_MR_EVENT(name)					\
	DEFINE_EVENT(xprtrdma_mr_class, xprtrdma_mr_##name,		\
		TP_PROTO(const struct xrdma_mr *mr),			\
		TP_ARGS(mr))

DEFINE_XRDMA_MR_EVENT(map);
DEFINE_XRDMA_MR_EVENT(fastreg);
DEFINE_XRDMA_MR_EVENT(localinv);
DEFINE_XRDMA_MR_EVENT(reminv);

TRACE_EVENT(xprtrdma_frwr_sgerr,
	TP_PROTO(const struct xrdma_mr *mr, int sg_nents),
	TP_ARGS(mr, sg_nents),
	TP_STRUCT__entry(
		__field(u32, mr_id)
		__field(u64, addr)
		__field(u32, dir)
		__field(int, nents)
	),
	TP_fast_assign(
		__entry->mr_id = mr->cid.completion_id;
		__entry->addr = sg_dma_address(mr->sg);
		__entry->dir = mr->dir;
		__entry->nents = sg_nents;
	),
	TP_printk("mr.id=%u DMA addr=0x%llx (%s) cannot DMA-map %d entries",
		  __entry->mr_id, __entry->addr, xrdma_show_dir(__entry->dir),
		  __entry->nents)
);

TRACE_EVENT(xprtrdma_frwr_maperr,
	TP_PROTO(const struct xrdma_mr *mr, int num_mapped, int nents),
	TP_ARGS(mr, num_mapped, nents),
	TP_STRUCT__entry(
		__field(u32, mr_id)
		__field(u64, addr)
		__field(u32, dir)
		__field(int, num_mapped)
		__field(int, nents)
	),
	TP_fast_assign(
		__entry->mr_id = mr->cid.completion_id;
		__entry->addr = sg_dma_address(mr->sg);
		__entry->dir = mr->dir;
		__entry->num_mapped = num_mapped;
		__entry->nents = nents;
	),
	TP_printk("mr.id=%u DMA addr=0x%llx (%s) registered %d of %d",
		  __entry->mr_id, __entry->addr, xrdma_show_dir(__entry->dir),
		  __entry->num_mapped, __entry->nents)
);

/*
 * Calls
 */

DECLARE_EVENT_CLASS(xprtrdma_rqst_class,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(u32, xid)
	),
	TP_fast_assign(
		__entry->task_id = xrdma_trace_task_id(rqst);
		__entry->client_id = xrdma_trace_client_id(rqst);
		__entry->xid = be32_to_cpu(rqst->rq_xid);
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x", __entry->task_id,
		  __entry->client_id, __entry->xid)
);

DEFINE_EVENT(xprtrdma_rqst_class, xprtrdma_nomrs_err,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst));
DEFINE_EVENT(xprtrdma_rqst_class, xprtrdma_mrs_zap,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst));
/* An RPC that ended before its reply waits for its Send to retire. */
DEFINE_EVENT(xprtrdma_rqst_class, xprtrdma_send_wait,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst));
DEFINE_EVENT(xprtrdma_rqst_class, xprtrdma_err_chunk,
	TP_PROTO(const struct rpc_rqst *rqst),
	TP_ARGS(rqst));

TRACE_EVENT(xprtrdma_marshal,
	TP_PROTO(const struct xrdma_req *req, unsigned int rtype,
		 unsigned int wtype),
	TP_ARGS(req, rtype, wtype),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(u32, xid)
		__field(unsigned int, hdrlen)
		__field(unsigned int, headlen)
		__field(unsigned int, pagelen)
		__field(unsigned int, taillen)
		__field(unsigned int, rtype)
		__field(unsigned int, wtype)
		__field(unsigned int, nr_mrs)
	),
	TP_fast_assign(
		const struct xdr_buf *snd = &req->rqst.rq_snd_buf;

		__entry->task_id = xrdma_trace_task_id(&req->rqst);
		__entry->client_id = xrdma_trace_client_id(&req->rqst);
		__entry->xid = be32_to_cpu(req->rqst.rq_xid);
		__entry->hdrlen = req->hdr_len;
		__entry->headlen = snd->head[0].iov_len;
		__entry->pagelen = snd->page_len;
		__entry->taillen = snd->tail[0].iov_len;
		__entry->rtype = rtype;
		__entry->wtype = wtype;
		__entry->nr_mrs = req->nr_mrs;
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x hdr=%u xdr=%u/%u/%u %s/%s mrs=%u",
		  __entry->task_id, __entry->client_id, __entry->xid,
		  __entry->hdrlen, __entry->headlen, __entry->pagelen,
		  __entry->taillen, xrdma_show_chunk(__entry->rtype),
		  xrdma_show_chunk(__entry->wtype), __entry->nr_mrs)
);

TRACE_EVENT(xprtrdma_marshal_failed,
	TP_PROTO(const struct rpc_rqst *rqst, int ret),
	TP_ARGS(rqst, ret),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(u32, xid)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->task_id = xrdma_trace_task_id(rqst);
		__entry->client_id = xrdma_trace_client_id(rqst);
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->ret = ret;
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x ret=%d", __entry->task_id,
		  __entry->client_id, __entry->xid, __entry->ret)
);

/*
 * Replies
 */

TRACE_EVENT(xprtrdma_reply,
	TP_PROTO(const struct rpc_rqst *rqst, u32 credits, u32 proc,
		 int status, bool remote_inv),
	TP_ARGS(rqst, credits, proc, status, remote_inv),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(u32, xid)
		__field(unsigned int, credits)
		__field(u32, proc)
		__field(int, status)
		__field(bool, remote_inv)
	),
	TP_fast_assign(
		__entry->task_id = xrdma_trace_task_id(rqst);
		__entry->client_id = xrdma_trace_client_id(rqst);
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->credits = credits;
		__entry->proc = proc;
		__entry->status = status;
		__entry->remote_inv = remote_inv;
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x credits=%u proc=%u status=%d%s",
		  __entry->task_id, __entry->client_id, __entry->xid,
		  __entry->credits, __entry->proc, __entry->status,
		  __entry->remote_inv ? " remotely-invalidated" : "")
);

DECLARE_EVENT_CLASS(xprtrdma_bad_reply_class,
	TP_PROTO(const struct rpc_xprt *xprt, const struct rpcrdma_hdr *hdr,
		 enum rpcrdma_wire_err err),
	TP_ARGS(xprt, hdr, err),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(u32, version)
		__field(u32, proc)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__string(err, rpcrdma_wire_err_name(err))
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(hdr->xid);
		__entry->version = hdr->vers;
		__entry->proc = hdr->proc;
		__assign_str(addr);
		__assign_str(port);
		__assign_str(err);
	),
	TP_printk("peer=[%s]:%s xid=0x%08x version=%u proc=%u error=%s",
		  __get_str(addr), __get_str(port), __entry->xid,
		  __entry->version, __entry->proc, __get_str(err))
);

#define DEFINE_XRDMA_BAD_REPLY_EVENT(name)				\
	DEFINE_EVENT(xprtrdma_bad_reply_class,				\
		     xprtrdma_reply_##name##_err,			\
		TP_PROTO(const struct rpc_xprt *xprt,			\
			 const struct rpcrdma_hdr *hdr,			\
			 enum rpcrdma_wire_err err),			\
		TP_ARGS(xprt, hdr, err))

DEFINE_XRDMA_BAD_REPLY_EVENT(short);
DEFINE_XRDMA_BAD_REPLY_EVENT(vers);
DEFINE_XRDMA_BAD_REPLY_EVENT(rqst);
DEFINE_XRDMA_BAD_REPLY_EVENT(hdr);

TRACE_EVENT(xprtrdma_err_vers,
	TP_PROTO(const struct rpc_rqst *rqst, u32 low, u32 high),
	TP_ARGS(rqst, low, high),
	TP_STRUCT__entry(
		__field(unsigned int, task_id)
		__field(unsigned int, client_id)
		__field(u32, xid)
		__field(u32, min)
		__field(u32, max)
	),
	TP_fast_assign(
		__entry->task_id = xrdma_trace_task_id(rqst);
		__entry->client_id = xrdma_trace_client_id(rqst);
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->min = low;
		__entry->max = high;
	),
	TP_printk(XRDMA_TASK_FMT " xid=0x%08x server versions=[%u, %u]",
		  __entry->task_id, __entry->client_id, __entry->xid,
		  __entry->min, __entry->max)
);

/*
 * Backchannel
 */

DECLARE_EVENT_CLASS(xprtrdma_cb_class,
	TP_PROTO(const struct rpc_xprt *xprt, const struct rpc_rqst *rqst,
		 unsigned int len),
	TP_ARGS(xprt, rqst, len),
	TP_STRUCT__entry(
		__field(u32, xid)
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(unsigned int, len)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__assign_str(addr);
		__assign_str(port);
		__entry->len = len;
	),
	TP_printk("peer=[%s]:%s xid=0x%08x len=%u", __get_str(addr),
		  __get_str(port), __entry->xid, __entry->len)
);

DEFINE_EVENT(xprtrdma_cb_class, xprtrdma_cb_call,
	TP_PROTO(const struct rpc_xprt *xprt, const struct rpc_rqst *rqst,
		 unsigned int len),
	TP_ARGS(xprt, rqst, len));
DEFINE_EVENT(xprtrdma_cb_class, xprtrdma_cb_reply,
	TP_PROTO(const struct rpc_xprt *xprt, const struct rpc_rqst *rqst,
		 unsigned int len),
	TP_ARGS(xprt, rqst, len));

#endif /* _XPRTRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
