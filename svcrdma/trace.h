/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the RPC-over-RDMA server: listener and connection
 * events, decode errors, chunk transfers, replies and disconnects.
 *
 *   echo 1 > /sys/kernel/tracing/events/svcrdma/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM svcrdma

#if !defined(_SVCRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SVCRDMA_TRACE_H

#include <linux/tracepoint.h>
#include <rpcrdma/queues.h>
#include <rpcrdma/wire.h>
#include "server.h"

DECLARE_EVENT_CLASS(svcrdma_value_class,
	TP_PROTO(const struct srdma_xprt *sx, long value),
	TP_ARGS(sx, value),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(const void *, sx)
		__field(long, value)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->sx = sx;
		__entry->value = value;
	),
	TP_printk("peer=%s xprt=%p value=%ld",
		  __get_str(peer), __entry->sx, __entry->value)
);

#define DEFINE_SVCRDMA_VALUE_EVENT(name)				\
	DEFINE_EVENT(svcrdma_value_class, svcrdma_##name,		\
		TP_PROTO(const struct srdma_xprt *sx, long value),	\
		TP_ARGS(sx, value))

DEFINE_SVCRDMA_VALUE_EVENT(listen);
DEFINE_SVCRDMA_VALUE_EVENT(listener_event);
DEFINE_SVCRDMA_VALUE_EVENT(accept_error);
DEFINE_SVCRDMA_VALUE_EVENT(disconnect);
DEFINE_SVCRDMA_VALUE_EVENT(qp_event);
DEFINE_SVCRDMA_VALUE_EVENT(sq_full);
DEFINE_SVCRDMA_VALUE_EVENT(rq_starve);
DEFINE_SVCRDMA_VALUE_EVENT(relisten);

#define trace_srdma_listen(sx, rc)		trace_svcrdma_listen(sx, rc)
#define trace_srdma_listener_event(sx, e)	trace_svcrdma_listener_event(sx, e)
#define trace_srdma_accept_err(sx, rc)		trace_svcrdma_accept_error(sx, rc)
#define trace_srdma_disconnect(sx, st)		trace_svcrdma_disconnect(sx, st)
#define trace_srdma_qp_event(sx, e)		trace_svcrdma_qp_event(sx, e)
#define trace_srdma_sq_full(sx, n)		trace_svcrdma_sq_full(sx, n)

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
#define trace_srdma_conn_request(sx)	trace_svcrdma_conn_request(sx)

TRACE_EVENT(svcrdma_accept,
	TP_PROTO(const struct srdma_xprt *sx),
	TP_ARGS(sx),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(const void *, sx)
		__field(unsigned int, credits)
		__field(unsigned int, inline_send)
		__field(unsigned int, recv_size)
		__field(unsigned int, sq_budget)
		__field(unsigned int, ord)
		__field(bool, remote_inv)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->sx = sx;
		__entry->credits = sx->max_requests;
		__entry->inline_send = sx->inline_send;
		__entry->recv_size = sx->recv_size;
		__entry->sq_budget = sx->sq_budget;
		__entry->ord = sx->ord;
		__entry->remote_inv = sx->remote_inv;
	),
	TP_printk("peer=%s xprt=%p credits=%u inline_send=%u recv_size=%u sq_budget=%u ord=%u send_with_inv=%d",
		  __get_str(peer), __entry->sx, __entry->credits,
		  __entry->inline_send, __entry->recv_size, __entry->sq_budget,
		  __entry->ord, __entry->remote_inv)
);
#define trace_srdma_accept(sx)	trace_svcrdma_accept(sx)

TRACE_EVENT(svcrdma_cm_event,
	TP_PROTO(const struct srdma_xprt *sx, int event, int status),
	TP_ARGS(sx, event, status),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(int, event)
		__field(int, status)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->event = event;
		__entry->status = status;
	),
	TP_printk("peer=%s event=%s status=%d", __get_str(peer),
		  rdma_event_msg(__entry->event), __entry->status)
);
#define trace_srdma_cm_event(sx, e, st)	trace_svcrdma_cm_event(sx, e, st)

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
#define trace_srdma_close(sx, why)	trace_svcrdma_close(sx, why)

TRACE_EVENT(svcrdma_wc_error,
	TP_PROTO(const struct srdma_xprt *sx, const char *what, int status,
		 u32 vendor_err),
	TP_ARGS(sx, what, status, vendor_err),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__string(what, what)
		__field(int, status)
		__field(u32, vendor_err)
	),
	TP_fast_assign(
		__assign_str(peer);
		__assign_str(what);
		__entry->status = status;
		__entry->vendor_err = vendor_err;
	),
	TP_printk("peer=%s %s completion: %s (vendor 0x%x)", __get_str(peer),
		  __get_str(what), ib_wc_status_msg(__entry->status),
		  __entry->vendor_err)
);
#define trace_srdma_wc_error(sx, w, st, v)	trace_svcrdma_wc_error(sx, w, st, v)

TRACE_EVENT(svcrdma_decode_err,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid,
		 enum rpcrdma_wire_err err),
	TP_ARGS(sx, xid, err),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(u32, xid)
		__string(err, rpcrdma_wire_err_name(err))
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->xid = be32_to_cpu(xid);
		__assign_str(err);
	),
	TP_printk("peer=%s xid=0x%08x error=%s", __get_str(peer),
		  __entry->xid, __get_str(err))
);
#define trace_srdma_decode_err(sx, xid, e)	trace_svcrdma_decode_err(sx, xid, e)

TRACE_EVENT(svcrdma_recv,
	TP_PROTO(const struct srdma_xprt *sx, const struct rpcrdma_hdr *hdr),
	TP_ARGS(sx, hdr),
	TP_STRUCT__entry(
		__field(const void *, sx)
		__field(u32, xid)
		__field(u32, proc)
		__field(u32, credits)
		__field(unsigned int, reads)
		__field(unsigned int, writes)
		__field(bool, reply)
		__field(unsigned int, inline_len)
	),
	TP_fast_assign(
		__entry->sx = sx;
		__entry->xid = be32_to_cpu(hdr->xid);
		__entry->proc = hdr->proc;
		__entry->credits = hdr->credits;
		__entry->reads = hdr->lists.nr_read_chunks;
		__entry->writes = hdr->lists.nr_write_chunks;
		__entry->reply = hdr->lists.has_reply;
		__entry->inline_len = hdr->inline_len;
	),
	TP_printk("xprt=%p xid=0x%08x proc=%u credits=%u read_chunks=%u write_chunks=%u reply_chunk=%d inline=%u",
		  __entry->sx, __entry->xid, __entry->proc, __entry->credits,
		  __entry->reads, __entry->writes, __entry->reply,
		  __entry->inline_len)
);
#define trace_srdma_recv(sx, hdr)	trace_svcrdma_recv(sx, hdr)

TRACE_EVENT(svcrdma_read,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, unsigned int chunks,
		 unsigned int bytes),
	TP_ARGS(sx, xid, chunks, bytes),
	TP_STRUCT__entry(
		__field(const void *, sx)
		__field(u32, xid)
		__field(unsigned int, chunks)
		__field(unsigned int, bytes)
	),
	TP_fast_assign(
		__entry->sx = sx;
		__entry->xid = be32_to_cpu(xid);
		__entry->chunks = chunks;
		__entry->bytes = bytes;
	),
	TP_printk("xprt=%p xid=0x%08x read_chunks=%u bytes=%u", __entry->sx,
		  __entry->xid, __entry->chunks, __entry->bytes)
);
#define trace_srdma_read(sx, xid, c, b)	trace_svcrdma_read(sx, xid, c, b)

TRACE_EVENT(svcrdma_reply,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, bool nomsg,
		 unsigned int msg_len, unsigned int payloads, bool swi),
	TP_ARGS(sx, xid, nomsg, msg_len, payloads, swi),
	TP_STRUCT__entry(
		__field(const void *, sx)
		__field(u32, xid)
		__field(bool, nomsg)
		__field(unsigned int, msg_len)
		__field(unsigned int, payloads)
		__field(bool, swi)
	),
	TP_fast_assign(
		__entry->sx = sx;
		__entry->xid = be32_to_cpu(xid);
		__entry->nomsg = nomsg;
		__entry->msg_len = msg_len;
		__entry->payloads = payloads;
		__entry->swi = swi;
	),
	TP_printk("xprt=%p xid=0x%08x %s len=%u write_payloads=%u send_with_inv=%d",
		  __entry->sx, __entry->xid,
		  __entry->nomsg ? "NOMSG (Reply chunk)" : "MSG (inline)",
		  __entry->msg_len, __entry->payloads, __entry->swi)
);
#define trace_srdma_reply(sx, xid, n, l, p, s)	trace_svcrdma_reply(sx, xid, n, l, p, s)

DECLARE_EVENT_CLASS(svcrdma_xid_class,
	TP_PROTO(const struct srdma_xprt *sx, __be32 xid, u32 value),
	TP_ARGS(sx, xid, value),
	TP_STRUCT__entry(
		__string(peer, sx->xprt.xpt_remotebuf)
		__field(u32, xid)
		__field(u32, value)
	),
	TP_fast_assign(
		__assign_str(peer);
		__entry->xid = be32_to_cpu(xid);
		__entry->value = value;
	),
	TP_printk("peer=%s xid=0x%08x value=%u", __get_str(peer),
		  __entry->xid, __entry->value)
);

#define DEFINE_SVCRDMA_XID_EVENT(name)					\
	DEFINE_EVENT(svcrdma_xid_class, svcrdma_##name,			\
		TP_PROTO(const struct srdma_xprt *sx, __be32 xid, u32 value),	\
		TP_ARGS(sx, xid, value))

DEFINE_SVCRDMA_XID_EVENT(send_error);
DEFINE_SVCRDMA_XID_EVENT(reply_too_big);
DEFINE_SVCRDMA_XID_EVENT(bc_call);
DEFINE_SVCRDMA_XID_EVENT(bc_reply);
DEFINE_SVCRDMA_XID_EVENT(read_error);
DEFINE_SVCRDMA_XID_EVENT(sendto_error);

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
	),
	TP_printk("peer=%s credits=%u ord=%u recv_wr=%u send_wr=%u sq_depth=%u rw_ctxs=%u sq_budget=%u",
		  __get_str(peer), __entry->credits, __entry->ord,
		  __entry->recv_wr, __entry->send_wr, __entry->sq_depth,
		  __entry->rw_ctxs, __entry->sq_budget)
);

#define trace_srdma_send_error(sx, xid, e)	trace_svcrdma_send_error(sx, xid, e)
#define trace_srdma_reply_too_big(sx, xid, l)	trace_svcrdma_reply_too_big(sx, xid, l)
#define trace_srdma_bc_call(sx, xid, l)		trace_svcrdma_bc_call(sx, xid, l)
#define trace_srdma_bc_reply(sx, xid, l)	trace_svcrdma_bc_reply(sx, xid, l)

#endif /* _SVCRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
