/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the RPC-over-RDMA server, in the "rpcrdma" trace system
 * that the client's events (xprtrdma/trace.h) share.  Where an event
 * means what an event of the kernel's own rpcrdma module means, it has
 * that event's name and field names, so existing tools keep working;
 * the others are ours, named svcrdma_* in the same style.
 *
 *   echo 1 > /sys/kernel/tracing/events/rpcrdma/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rpcrdma

#if !defined(_SVCRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SVCRDMA_TRACE_H

#include <linux/tracepoint.h>
#include <rpcrdma/cid.h>
#include <rpcrdma/trace_classes.h>
#include <rpcrdma/queues.h>
#include <rpcrdma/wire.h>
#include "server.h"

TRACE_DEFINE_ENUM(RPCRDMA_MSG);
TRACE_DEFINE_ENUM(RPCRDMA_NOMSG);
TRACE_DEFINE_ENUM(RPCRDMA_MSGP);
TRACE_DEFINE_ENUM(RPCRDMA_DONE);
TRACE_DEFINE_ENUM(RPCRDMA_ERROR);

#define srdma_show_proc(p)						\
	__print_symbolic(p,						\
			 { RPCRDMA_MSG, "RDMA_MSG" },			\
			 { RPCRDMA_NOMSG, "RDMA_NOMSG" },		\
			 { RPCRDMA_MSGP, "RDMA_MSGP" },			\
			 { RPCRDMA_DONE, "RDMA_DONE" },			\
			 { RPCRDMA_ERROR, "RDMA_ERROR" })

/*
 * Listeners and connections
 */

DECLARE_EVENT_CLASS(svcrdma_listener_class,
	TP_PROTO(const struct srdma_xprt *listener, int event, long status),
	TP_ARGS(listener, event, status),
	TP_STRUCT__entry(
		__array(unsigned char, addr, sizeof(struct sockaddr_in6))
		__field(int, event)
		__field(long, status)
	),
	TP_fast_assign(
		memcpy(__entry->addr, &listener->listen_addr,
		       sizeof(struct sockaddr_in6));
		__entry->event = event;
		__entry->status = status;
	),
	TP_printk("listener=%pISpc event=%s status=%ld", __entry->addr,
		  __entry->event < 0 ? "none" : rdma_event_msg(__entry->event),
		  __entry->status)
);

#define DEFINE_SVCRDMA_LISTENER_EVENT(name)				\
	DEFINE_EVENT(svcrdma_listener_class, svcrdma_##name,		\
		TP_PROTO(const struct srdma_xprt *listener, int event,	\
			 long status),					\
		TP_ARGS(listener, event, status))

DEFINE_SVCRDMA_LISTENER_EVENT(listen);
DEFINE_SVCRDMA_LISTENER_EVENT(listener_event);
DEFINE_SVCRDMA_LISTENER_EVENT(relisten);

TRACE_EVENT(svcrdma_conn_request,
	TP_PROTO(const struct srdma_xprt *sx),
	TP_ARGS(sx),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, send_size)
		__field(unsigned int, recv_size)
		__field(bool, remote_inv)
		__field(unsigned int, ord)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->send_size = sx->peer_pdata.send_size;
		__entry->recv_size = sx->peer_pdata.recv_size;
		__entry->remote_inv = sx->peer_pdata.remote_inv;
		__entry->ord = sx->ord;
	),
	TP_printk("peer=%s client send=%u recv=%u remote_inv=%d ord=%u",
		  __get_str(peer), __entry->send_size, __entry->recv_size,
		  __entry->remote_inv, __entry->ord)
);

TRACE_EVENT(svcrdma_queues,
	TP_PROTO(const struct srdma_xprt *sx,
		 const struct rpcrdma_server_queues *q),
	TP_ARGS(sx, q),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(u32, credits)
		__field(u32, ord)
		__field(u32, recv_wr)
		__field(u32, send_wr)
		__field(u32, sq_depth)
		__field(u32, rw_ctxs)
		__field(u32, sq_budget)
		__field(u32, send_batch)
		__field(u32, recv_batch)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->credits = q->max_requests;
		__entry->ord = q->ord;
		__entry->recv_wr = q->recv_wr;
		__entry->send_wr = q->send_wr;
		__entry->sq_depth = q->sq_depth;
		__entry->rw_ctxs = q->rw_ctxs;
		__entry->sq_budget = q->sq_budget;
		__entry->send_batch = q->send_batch;
		__entry->recv_batch = q->recv_batch;
	),
	TP_printk("peer=%s credits=%u ord=%u recv_wr=%u send_wr=%u sq_depth=%u rw_ctxs=%u sq_budget=%u send_batch=%u recv_batch=%u",
		  __get_str(peer), __entry->credits, __entry->ord,
		  __entry->recv_wr, __entry->send_wr, __entry->sq_depth,
		  __entry->rw_ctxs, __entry->sq_budget, __entry->send_batch,
		  __entry->recv_batch)
);

TRACE_EVENT(svcrdma_accept,
	TP_PROTO(const struct srdma_xprt *sx),
	TP_ARGS(sx),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(u32, sq_id)
		__field(u32, rq_id)
		__field(unsigned int, credits)
		__field(unsigned int, inline_send)
		__field(unsigned int, recv_size)
		__field(unsigned int, sq_budget)
		__field(unsigned int, ord)
		__field(bool, remote_inv)
		__field(unsigned int, read_limit)
		__string(share, sx->peer ? sx->peer->name : "-")
		__field(unsigned int, clients)
	),
	TP_fast_assign(
		__assign_str(peer);
		__assign_str(share);
		__entry->clients = srdma_share_clients();
		__entry->sq_id = sx->ib.send_cq->res.id;
		__entry->rq_id = sx->ib.recv_cq->res.id;
		__entry->credits = sx->max_requests;
		__entry->inline_send = sx->inline_send;
		__entry->recv_size = sx->recv_size;
		__entry->sq_budget = sx->sq_budget;
		__entry->ord = sx->ord;
		__entry->remote_inv = sx->remote_inv;
		__entry->read_limit = sx->read_limit;
	),
	TP_printk("peer=%s sq.id=%u rq.id=%u credits=%u inline_send=%u recv_size=%u sq_budget=%u ord=%u send_with_inv=%d read_limit=%u share=%s clients=%u",
		  __get_str(peer), __entry->sq_id, __entry->rq_id,
		  __entry->credits, __entry->inline_send, __entry->recv_size,
		  __entry->sq_budget, __entry->ord, __entry->remote_inv,
		  __entry->read_limit, __get_str(share), __entry->clients)
);

/* A connection's step that failed, and its errno. */
DECLARE_EVENT_CLASS(svcrdma_peer_status_class,
	TP_PROTO(const struct srdma_xprt *sx, long status),
	TP_ARGS(sx, status),
	TP_STRUCT__entry(
		__field(long, status)
		__string(addr, sx->xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__entry->status = status;
		__assign_str(addr);
	),
	TP_printk("addr=%s status=%ld", __get_str(addr), __entry->status)
);

DEFINE_EVENT(svcrdma_peer_status_class, svcrdma_accept_err,
	TP_PROTO(const struct srdma_xprt *sx, long status),
	TP_ARGS(sx, status));

RPCRDMA_DECLARE_CM_EVENT_CLASS(svcrdma_cm_event_class);
DEFINE_EVENT(svcrdma_cm_event_class, svcrdma_cm_event,
	TP_PROTO(const struct sockaddr *peer, int event, int status),
	TP_ARGS(peer, event, status));

RPCRDMA_DECLARE_DEVICE_REMOVAL_CLASS(svcrdma_device_removal_class);
DEFINE_EVENT(svcrdma_device_removal_class, svcrdma_device_removal,
	TP_PROTO(const struct rdma_cm_id *id),
	TP_ARGS(id));

TRACE_EVENT(svcrdma_qp_error,
	TP_PROTO(const struct srdma_xprt *sx, const struct ib_event *event),
	TP_ARGS(sx, event),
	TP_STRUCT__entry(
		__field(unsigned int, event)
		__string(device, event->device->name)
		__array(__u8, addr, INET6_ADDRSTRLEN + 10)
	),
	TP_fast_assign(
		__entry->event = event->event;
		__assign_str(device);
		snprintf(__entry->addr, sizeof(__entry->addr), "%pISpc",
			 &sx->xprt.xpt_remote);
	),
	TP_printk("addr=%s dev=%s event=%s (%u)", __entry->addr,
		  __get_str(device), ib_event_msg(__entry->event),
		  __entry->event)
);

TRACE_EVENT(svcrdma_disconnect,
	TP_PROTO(const struct srdma_xprt *sx),
	TP_ARGS(sx),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(int, cm_state)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->cm_state = sx->cm_state;
	),
	TP_printk("peer=%s last CM event=%s", __get_str(peer),
		  rdma_event_msg(__entry->cm_state))
);

TRACE_EVENT(svcrdma_close,
	TP_PROTO(const struct srdma_xprt *sx, const char *why),
	TP_ARGS(sx, why),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__string(why, why)
	),
	TP_fast_assign(
		__assign_str(peer);
		__assign_str(why);
	),
	TP_printk("peer=%s reason=\"%s\"", __get_str(peer), __get_str(why))
);

/*
 * Receives and Calls
 */

DECLARE_EVENT_CLASS(svcrdma_cid_class,
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

DEFINE_EVENT(svcrdma_cid_class, svcrdma_post_recv,
	TP_PROTO(const struct rpcrdma_cid *cid),
	TP_ARGS(cid));
DEFINE_EVENT(svcrdma_cid_class, svcrdma_wc_send,
	TP_PROTO(const struct rpcrdma_cid *cid),
	TP_ARGS(cid));

DEFINE_EVENT(svcrdma_peer_status_class, svcrdma_rq_post_err,
	TP_PROTO(const struct srdma_xprt *sx, long status),
	TP_ARGS(sx, status));

TRACE_EVENT(svcrdma_wc_recv,
	TP_PROTO(const struct ib_wc *wc, const struct rpcrdma_cid *cid),
	TP_ARGS(wc, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, received)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
		__entry->received = wc->byte_len;
	),
	TP_printk("cq.id=%u cid=%d received=%u", __entry->cq_id,
		  __entry->completion_id, __entry->received)
);

/* A failed (or flushed) completion, for every kind of work request. */
RPCRDMA_DECLARE_WC_CLASS(svcrdma_wc_err_class, "cid");

#define DEFINE_SVCRDMA_WC_ERR_EVENT(name)				\
	DEFINE_EVENT(svcrdma_wc_err_class, svcrdma_wc_##name,		\
		TP_PROTO(const struct ib_wc *wc,			\
			 const struct rpcrdma_cid *cid),		\
		TP_ARGS(wc, cid))

DEFINE_SVCRDMA_WC_ERR_EVENT(recv_flush);
DEFINE_SVCRDMA_WC_ERR_EVENT(recv_err);
DEFINE_SVCRDMA_WC_ERR_EVENT(send_flush);
DEFINE_SVCRDMA_WC_ERR_EVENT(send_err);
DEFINE_SVCRDMA_WC_ERR_EVENT(read_flush);
DEFINE_SVCRDMA_WC_ERR_EVENT(read_err);

TRACE_EVENT(svcrdma_rq_starve,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int recv_count),
	TP_ARGS(sx, recv_count),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, recv_count)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->recv_count = recv_count;
	),
	TP_printk("peer=%s no Receive to replace one that completed (%u buffers)",
		  __get_str(peer), __entry->recv_count)
);

TRACE_EVENT(svcrdma_grant,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int old,
		 unsigned int grant, unsigned int held),
	TP_ARGS(sx, old, grant, held),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, old)
		__field(unsigned int, grant)
		__field(unsigned int, held)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->old = old;
		__entry->grant = grant;
		__entry->held = held;
	),
	TP_printk("peer=%s grant %u -> %u (%u messages held)",
		  __get_str(peer), __entry->old, __entry->grant,
		  __entry->held)
);

TRACE_EVENT(svcrdma_grant_budget,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int grant,
		 unsigned int held),
	TP_ARGS(sx, grant, held),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, grant)
		__field(unsigned int, held)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->grant = grant;
		__entry->held = held;
	),
	TP_printk("peer=%s grant stays %u (%u messages held): the credit budget is spent",
		  __get_str(peer), __entry->grant, __entry->held)
);

TRACE_DEFINE_ENUM(SRDMA_GRANT_IDLE);
TRACE_DEFINE_ENUM(SRDMA_GRANT_OVER_SHARE);
TRACE_DEFINE_ENUM(SRDMA_GRANT_QUIET);

TRACE_EVENT(svcrdma_grant_fall,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int old,
		 unsigned int grant, unsigned int held,
		 enum srdma_grant_step why),
	TP_ARGS(sx, old, grant, held, why),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, old)
		__field(unsigned int, grant)
		__field(unsigned int, held)
		__field(unsigned int, why)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->old = old;
		__entry->grant = grant;
		__entry->held = held;
		__entry->why = why;
	),
	TP_printk("peer=%s grant %u -> %u (%u messages held): %s",
		  __get_str(peer), __entry->old, __entry->grant,
		  __entry->held,
		  __print_symbolic(__entry->why,
			{ SRDMA_GRANT_IDLE, "idle" },
			{ SRDMA_GRANT_OVER_SHARE,
			  "its client holds more than its share of the credit budget" },
			{ SRDMA_GRANT_QUIET, "quiet" }))
);

TRACE_EVENT(svcrdma_grant_share,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int grant,
		 unsigned int held, unsigned int lent, unsigned int share),
	TP_ARGS(sx, grant, held, lent, share),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, grant)
		__field(unsigned int, held)
		__field(unsigned int, lent)
		__field(unsigned int, share)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->grant = grant;
		__entry->held = held;
		__entry->lent = lent;
		__entry->share = share;
	),
	TP_printk("peer=%s grant stays %u (%u messages held): its client holds %u credits, its share of the credit budget is %u",
		  __get_str(peer), __entry->grant, __entry->held,
		  __entry->lent, __entry->share)
);

TRACE_EVENT(svcrdma_decode_rqst,
	TP_PROTO(const struct srdma_recv *rc),
	TP_ARGS(rc),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, proc)
		__field(u32, credits)
		__field(unsigned int, hdrlen)
		__field(unsigned int, read_chunks)
		__field(unsigned int, write_chunks)
		__field(bool, reply_chunk)
		__field(unsigned int, inline_len)
	),
	TP_fast_assign(
		__entry->cq_id = rc->cid.queue_id;
		__entry->completion_id = rc->cid.completion_id;
		__entry->xid = be32_to_cpu(rc->hdr.xid);
		__entry->vers = rc->hdr.vers;
		__entry->proc = rc->hdr.proc;
		__entry->credits = rc->hdr.credits;
		__entry->hdrlen = rc->hdr.hdr_len;
		__entry->read_chunks = rc->hdr.lists.nr_read_chunks;
		__entry->write_chunks = rc->hdr.lists.nr_write_chunks;
		__entry->reply_chunk = rc->hdr.lists.has_reply;
		__entry->inline_len = rc->hdr.inline_len;
	),
	TP_printk("cq.id=%u cid=%d xid=0x%08x vers=%u credits=%u proc=%s hdrlen=%u read_chunks=%u write_chunks=%u reply_chunk=%d inline=%u",
		  __entry->cq_id, __entry->completion_id, __entry->xid,
		  __entry->vers, __entry->credits,
		  srdma_show_proc(__entry->proc), __entry->hdrlen,
		  __entry->read_chunks, __entry->write_chunks,
		  __entry->reply_chunk, __entry->inline_len)
);

TRACE_EVENT(svcrdma_decode_short_err,
	TP_PROTO(const struct srdma_recv *rc, enum rpcrdma_wire_err err),
	TP_ARGS(rc, err),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, hdrlen)
		__string(peer, rc->sx->xprt.xpt_remotebuf)
		__string(err, rpcrdma_wire_err_name(err))
	),
	TP_fast_assign(
		__entry->cq_id = rc->cid.queue_id;
		__entry->completion_id = rc->cid.completion_id;
		__entry->hdrlen = rc->byte_len;
		__assign_str(peer);
		__assign_str(err);
	),
	TP_printk("cq.id=%u cid=%d peer=%s hdrlen=%u error=%s",
		  __entry->cq_id, __entry->completion_id, __get_str(peer),
		  __entry->hdrlen, __get_str(err))
);

DECLARE_EVENT_CLASS(svcrdma_bad_call_class,
	TP_PROTO(const struct srdma_recv *rc, enum rpcrdma_wire_err err),
	TP_ARGS(rc, err),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, xid)
		__field(u32, vers)
		__field(u32, proc)
		__field(u32, credits)
		__string(peer, rc->sx->xprt.xpt_remotebuf)
		__string(err, rpcrdma_wire_err_name(err))
	),
	TP_fast_assign(
		__entry->cq_id = rc->cid.queue_id;
		__entry->completion_id = rc->cid.completion_id;
		__entry->xid = be32_to_cpu(rc->hdr.xid);
		__entry->vers = rc->hdr.vers;
		__entry->proc = rc->hdr.proc;
		__entry->credits = rc->hdr.credits;
		__assign_str(peer);
		__assign_str(err);
	),
	TP_printk("cq.id=%u cid=%d peer=%s xid=0x%08x vers=%u credits=%u proc=%u error=%s",
		  __entry->cq_id, __entry->completion_id, __get_str(peer),
		  __entry->xid, __entry->vers, __entry->credits,
		  __entry->proc, __get_str(err))
);

#define DEFINE_SVCRDMA_BAD_CALL_EVENT(name)				\
	DEFINE_EVENT(svcrdma_bad_call_class,				\
		     svcrdma_decode_##name##_err,			\
		TP_PROTO(const struct srdma_recv *rc,			\
			 enum rpcrdma_wire_err err),			\
		TP_ARGS(rc, err))

DEFINE_SVCRDMA_BAD_CALL_EVENT(badvers);
DEFINE_SVCRDMA_BAD_CALL_EVENT(drop);
DEFINE_SVCRDMA_BAD_CALL_EVENT(badproc);
DEFINE_SVCRDMA_BAD_CALL_EVENT(parse);

/* An RDMA_ERROR answer (ERR_VERS or ERR_CHUNK). */
DECLARE_EVENT_CLASS(svcrdma_err_class,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid),
	TP_ARGS(sx, xid),
	TP_STRUCT__entry(
		__field(u32, xid)
		__string(peer, sx->xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(xid);
		__assign_str(peer);
	),
	TP_printk("peer=%s xid=0x%08x", __get_str(peer), __entry->xid)
);

DEFINE_EVENT(svcrdma_err_class, svcrdma_err_vers,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid),
	TP_ARGS(sx, xid));
DEFINE_EVENT(svcrdma_err_class, svcrdma_err_chunk,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid),
	TP_ARGS(sx, xid));

/*
 * RDMA Reads of Read chunks
 */

TRACE_EVENT(svcrdma_post_read_chunk,
	TP_PROTO(const struct rpcrdma_cid *cid, int sqecount),
	TP_ARGS(cid, sqecount),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(int, sqecount)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
		__entry->sqecount = sqecount;
	),
	TP_printk("cq.id=%u cid=%d sqecount=%d", __entry->cq_id,
		  __entry->completion_id, __entry->sqecount)
);

TRACE_EVENT(svcrdma_wc_read,
	TP_PROTO(const struct rpcrdma_cid *cid, unsigned int totalbytes,
		 ktime_t posttime),
	TP_ARGS(cid, totalbytes, posttime),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(s64, read_latency)
		__field(unsigned int, totalbytes)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
		__entry->read_latency = ktime_us_delta(ktime_get(), posttime);
		__entry->totalbytes = totalbytes;
	),
	TP_printk("cq.id=%u cid=%d totalbytes=%u latency-us=%lld",
		  __entry->cq_id, __entry->completion_id, __entry->totalbytes,
		  __entry->read_latency)
);

TRACE_EVENT(svcrdma_read_finished,
	TP_PROTO(const struct srdma_recv *rc, unsigned int bytes),
	TP_ARGS(rc, bytes),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, xid)
		__field(unsigned int, read_chunks)
		__field(unsigned int, bytes)
	),
	TP_fast_assign(
		__entry->cq_id = rc->cid.queue_id;
		__entry->completion_id = rc->cid.completion_id;
		__entry->xid = be32_to_cpu(rc->hdr.xid);
		__entry->read_chunks = rc->hdr.lists.nr_read_chunks;
		__entry->bytes = bytes;
	),
	TP_printk("cq.id=%u cid=%d xid=0x%08x read_chunks=%u bytes=%u",
		  __entry->cq_id, __entry->completion_id, __entry->xid,
		  __entry->read_chunks, __entry->bytes)
);

TRACE_DEFINE_ENUM(SRDMA_READ_CONN_FULL);
TRACE_DEFINE_ENUM(SRDMA_READ_SERVER_FULL);
TRACE_DEFINE_ENUM(SRDMA_READ_QUEUED);

/* A Call held back until pages of RDMA Reads in flight come back. */
TRACE_EVENT(svcrdma_read_hold,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, unsigned int npages,
		 enum srdma_read_verdict why, unsigned long server_pages),
	TP_ARGS(sx, xid, npages, why, server_pages),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(u32, xid)
		__field(unsigned int, npages)
		__field(unsigned long, why)
		__field(unsigned int, pages)
		__field(unsigned int, limit)
		__field(unsigned long, server_pages)
		__field(unsigned int, budget)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->xid = be32_to_cpu(xid);
		__entry->npages = npages;
		__entry->why = why;
		__entry->pages = atomic_read(&sx->read_pages);
		__entry->limit = sx->read_limit;
		__entry->server_pages = server_pages;
		__entry->budget = READ_ONCE(srdma_read_budget);
	),
	TP_printk("peer=%s xid=0x%08x npages=%u held: %s (connection %u of %u pages, server %lu of %u)",
		  __get_str(peer), __entry->xid, __entry->npages,
		  __print_symbolic(__entry->why,
				   { SRDMA_READ_CONN_FULL, "connection limit" },
				   { SRDMA_READ_SERVER_FULL, "read_budget" },
				   { SRDMA_READ_QUEUED, "behind held Calls" }),
		  __entry->pages, __entry->limit, __entry->server_pages,
		  __entry->budget)
);

/* The oldest RDMA Read went read_timeout unanswered: the connection closes. */
TRACE_EVENT(svcrdma_read_stall,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int age_ms,
		 unsigned int reads, unsigned int held),
	TP_ARGS(sx, age_ms, reads, held),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, age_ms)
		__field(unsigned int, reads)
		__field(unsigned int, held)
		__field(unsigned int, pages)
		__field(unsigned int, limit)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->age_ms = age_ms;
		__entry->reads = reads;
		__entry->held = held;
		__entry->pages = atomic_read(&sx->read_pages);
		__entry->limit = sx->read_limit;
	),
	TP_printk("peer=%s oldest RDMA Read unanswered for %u ms: reads=%u pages=%u limit=%u held=%u",
		  __get_str(peer), __entry->age_ms, __entry->reads,
		  __entry->pages, __entry->limit, __entry->held)
);

TRACE_EVENT(svcrdma_send_stall,
	TP_PROTO(const struct srdma_xprt *sx, unsigned int age_ms,
		 unsigned int sends),
	TP_ARGS(sx, age_ms, sends),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(unsigned int, age_ms)
		__field(unsigned int, sends)
		__field(int, avail)
		__field(unsigned int, budget)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->age_ms = age_ms;
		__entry->sends = sends;
		__entry->avail = atomic_read(&sx->sq_avail);
		__entry->budget = sx->sq_budget;
	),
	TP_printk("peer=%s oldest signaled Send not completed for %u ms: sends=%u sq_avail=%d sq_budget=%u",
		  __get_str(peer), __entry->age_ms, __entry->sends,
		  __entry->avail, __entry->budget)
);

/*
 * Replies and Sends
 */

TRACE_EVENT(svcrdma_reply,
	TP_PROTO(const struct srdma_send *sc, __be32 xid, bool nomsg,
		 unsigned int msg_len, unsigned int payloads),
	TP_ARGS(sc, xid, nomsg, msg_len, payloads),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(u32, xid)
		__field(bool, nomsg)
		__field(unsigned int, msg_len)
		__field(unsigned int, payloads)
		__field(bool, swi)
	),
	TP_fast_assign(
		__entry->cq_id = sc->cid.queue_id;
		__entry->completion_id = sc->cid.completion_id;
		__entry->xid = be32_to_cpu(xid);
		__entry->nomsg = nomsg;
		__entry->msg_len = msg_len;
		__entry->payloads = payloads;
		__entry->swi = sc->wr.opcode == IB_WR_SEND_WITH_INV;
	),
	TP_printk("cq.id=%u cid=%d xid=0x%08x %s len=%u write_payloads=%u send_with_inv=%d",
		  __entry->cq_id, __entry->completion_id, __entry->xid,
		  __entry->nomsg ? "NOMSG (Reply chunk)" : "MSG (inline)",
		  __entry->msg_len, __entry->payloads, __entry->swi)
);

TRACE_EVENT(svcrdma_send_grow,
	TP_PROTO(const struct srdma_send *sc),
	TP_ARGS(sc),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, size)
	),
	TP_fast_assign(
		__entry->cq_id = sc->cid.queue_id;
		__entry->completion_id = sc->cid.completion_id;
		__entry->size = sc->hdr_size;
	),
	TP_printk("cq.id=%u cid=%d header buffer grown to %u bytes for a copied message",
		  __entry->cq_id, __entry->completion_id, __entry->size)
);

TRACE_EVENT(svcrdma_post_send,
	TP_PROTO(const struct srdma_send *sc),
	TP_ARGS(sc),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(unsigned int, num_sge)
		__field(u32, inv_rkey)
		__field(unsigned int, nr_wrs)
		__field(bool, signaled)
	),
	TP_fast_assign(
		__entry->cq_id = sc->cid.queue_id;
		__entry->completion_id = sc->cid.completion_id;
		__entry->num_sge = sc->wr.num_sge;
		__entry->inv_rkey = sc->wr.opcode == IB_WR_SEND_WITH_INV ?
				    sc->wr.ex.invalidate_rkey : 0;
		__entry->nr_wrs = sc->nr_wrs;
		__entry->signaled = sc->wr.send_flags & IB_SEND_SIGNALED;
	),
	TP_printk("cq.id=%u cid=%d num_sge=%u inv_rkey=0x%08x wrs=%u%s",
		  __entry->cq_id, __entry->completion_id, __entry->num_sge,
		  __entry->inv_rkey, __entry->nr_wrs,
		  __entry->signaled ? " signaled" : "")
);

DECLARE_EVENT_CLASS(svcrdma_sq_class,
	TP_PROTO(const struct srdma_xprt *sx, const struct rpcrdma_cid *cid),
	TP_ARGS(sx, cid),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(int, avail)
		__field(int, depth)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
		__entry->avail = atomic_read(&sx->sq_avail);
		__entry->depth = sx->sq_budget;
	),
	TP_printk("cq.id=%u cid=%d sq_avail=%d/%d", __entry->cq_id,
		  __entry->completion_id, __entry->avail, __entry->depth)
);

DEFINE_EVENT(svcrdma_sq_class, svcrdma_sq_full,
	TP_PROTO(const struct srdma_xprt *sx, const struct rpcrdma_cid *cid),
	TP_ARGS(sx, cid));
DEFINE_EVENT(svcrdma_sq_class, svcrdma_sq_retry,
	TP_PROTO(const struct srdma_xprt *sx, const struct rpcrdma_cid *cid),
	TP_ARGS(sx, cid));

TRACE_EVENT(svcrdma_sq_post_err,
	TP_PROTO(const struct srdma_xprt *sx, const struct rpcrdma_cid *cid,
		 int status),
	TP_ARGS(sx, cid, status),
	TP_STRUCT__entry(
		__field(u32, cq_id)
		__field(int, completion_id)
		__field(int, avail)
		__field(int, depth)
		__field(int, status)
	),
	TP_fast_assign(
		__entry->cq_id = cid->queue_id;
		__entry->completion_id = cid->completion_id;
		__entry->avail = atomic_read(&sx->sq_avail);
		__entry->depth = sx->sq_budget;
		__entry->status = status;
	),
	TP_printk("cq.id=%u cid=%d sq_avail=%d/%d status=%d", __entry->cq_id,
		  __entry->completion_id, __entry->avail, __entry->depth,
		  __entry->status)
);

/* Errors that end a Call or a reply: they close the connection. */
DECLARE_EVENT_CLASS(svcrdma_xid_status_class,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, int status),
	TP_ARGS(sx, xid, status),
	TP_STRUCT__entry(
		__field(int, status)
		__field(u32, xid)
		__string(addr, sx->xprt.xpt_remotebuf)
	),
	TP_fast_assign(
		__entry->status = status;
		__entry->xid = be32_to_cpu(xid);
		__assign_str(addr);
	),
	TP_printk("addr=%s xid=0x%08x status=%d", __get_str(addr),
		  __entry->xid, __entry->status)
);

DEFINE_EVENT(svcrdma_xid_status_class, svcrdma_send_err,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, int status),
	TP_ARGS(sx, xid, status));
DEFINE_EVENT(svcrdma_xid_status_class, svcrdma_read_error,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, int status),
	TP_ARGS(sx, xid, status));

/* Our events with a peer, an XID and a length. */
DECLARE_EVENT_CLASS(svcrdma_xid_len_class,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, unsigned int len),
	TP_ARGS(sx, xid, len),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(u32, xid)
		__field(unsigned int, len)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->xid = be32_to_cpu(xid);
		__entry->len = len;
	),
	TP_printk("peer=%s xid=0x%08x len=%u", __get_str(peer),
		  __entry->xid, __entry->len)
);

#define DEFINE_SVCRDMA_XID_LEN_EVENT(name)				\
	DEFINE_EVENT(svcrdma_xid_len_class, svcrdma_##name,		\
		TP_PROTO(const struct srdma_xprt *sx, __be32 xid,	\
			 unsigned int len),				\
		TP_ARGS(sx, xid, len))

DEFINE_SVCRDMA_XID_LEN_EVENT(reply_too_big);
DEFINE_SVCRDMA_XID_LEN_EVENT(bc_call);
DEFINE_SVCRDMA_XID_LEN_EVENT(bc_reply);

#endif /* _SVCRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
