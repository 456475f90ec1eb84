/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the RPC-over-RDMA client: connection events, marshal
 * decisions, memory registration, replies and errors.
 *
 *   echo 1 > /sys/kernel/tracing/events/xprtrdma/enable
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xprtrdma

#if !defined(_XPRTRDMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _XPRTRDMA_TRACE_H

#include <linux/tracepoint.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>
#include <rpcrdma/wire.h>

DECLARE_EVENT_CLASS(xprtrdma_xprt_class,
	TP_PROTO(const struct rpc_xprt *xprt, long value, const void *ep),
	TP_ARGS(xprt, value, ep),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(port, xprt->address_strings[RPC_DISPLAY_PORT])
		__field(long, value)
		__field(const void *, ep)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(port);
		__entry->value = value;
		__entry->ep = ep;
	),
	TP_printk("peer=[%s]:%s value=%ld ep=%p",
		  __get_str(addr), __get_str(port), __entry->value, __entry->ep)
);

#define DEFINE_XPRT_EVENT(name)						\
	DEFINE_EVENT(xprtrdma_xprt_class, xprtrdma_##name,		\
		TP_PROTO(const struct rpc_xprt *xprt, long value,	\
			 const void *ep),				\
		TP_ARGS(xprt, value, ep))

DEFINE_XPRT_EVENT(connect_done);
DEFINE_XPRT_EVENT(disconnect_ep);
DEFINE_XPRT_EVENT(connect_begin);
DEFINE_XPRT_EVENT(setup_xprt);
DEFINE_XPRT_EVENT(credit_grant);
DEFINE_XPRT_EVENT(cm_evt);
DEFINE_XPRT_EVENT(qp_evt);
DEFINE_XPRT_EVENT(swap);

#define trace_xprtrdma_connect(x, rc, ep)	trace_xprtrdma_connect_done(x, rc, ep)
#define trace_xprtrdma_disconnect(x, ep)	trace_xprtrdma_disconnect_ep(x, 0, ep)
#define trace_xprtrdma_connect_start(x, d)	trace_xprtrdma_connect_begin(x, d, NULL)
#define trace_xprtrdma_setup(x, slots)		trace_xprtrdma_setup_xprt(x, slots, NULL)
#define trace_xprtrdma_credits(x, grant)	trace_xprtrdma_credit_grant(x, grant, NULL)
#define trace_xprtrdma_cm_event(x, e, st)	trace_xprtrdma_cm_evt(x, e, (void *)(long)(st))
#define trace_xprtrdma_qp_event(x, e)		trace_xprtrdma_qp_evt(x, e, NULL)

TRACE_EVENT(xprtrdma_wc_error,
	TP_PROTO(const struct rpc_xprt *xprt, const char *what,
		 enum ib_wc_status status),
	TP_ARGS(xprt, what, status),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__string(what, what)
		__field(unsigned int, status)
	),
	TP_fast_assign(
		__assign_str(addr);
		__assign_str(what);
		__entry->status = status;
	),
	TP_printk("peer=%s %s completion: %s (%u)", __get_str(addr),
		  __get_str(what), ib_wc_status_msg(__entry->status),
		  __entry->status)
);

TRACE_EVENT(xprtrdma_mr_wc_error,
	TP_PROTO(u32 handle, enum ib_wc_status status, enum ib_wc_opcode op),
	TP_ARGS(handle, status, op),
	TP_STRUCT__entry(
		__field(u32, handle)
		__field(unsigned int, status)
		__field(unsigned int, op)
	),
	TP_fast_assign(
		__entry->handle = handle;
		__entry->status = status;
		__entry->op = op;
	),
	TP_printk("handle=0x%08x opcode=%u: %s", __entry->handle, __entry->op,
		  ib_wc_status_msg(__entry->status))
);

TRACE_EVENT(xprtrdma_mr_reg,
	TP_PROTO(__be32 xid, const struct rpcrdma_segment *seg,
		 unsigned int nsg, bool writing),
	TP_ARGS(xid, seg, nsg, writing),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(u32, handle)
		__field(u32, length)
		__field(u64, offset)
		__field(unsigned int, nsg)
		__field(bool, writing)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(xid);
		__entry->handle = seg->handle;
		__entry->length = seg->length;
		__entry->offset = seg->offset;
		__entry->nsg = nsg;
		__entry->writing = writing;
	),
	TP_printk("xid=0x%08x %u@0x%016llx:0x%08x pages=%u %s",
		  __entry->xid, __entry->length, __entry->offset,
		  __entry->handle, __entry->nsg,
		  __entry->writing ? "remote-write" : "remote-read")
);

TRACE_EVENT(xprtrdma_post_error,
	TP_PROTO(__be32 xid, const char *what, int rc),
	TP_ARGS(xid, what, rc),
	TP_STRUCT__entry(
		__field(u32, xid)
		__string(what, what)
		__field(int, rc)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(xid);
		__assign_str(what);
		__entry->rc = rc;
	),
	TP_printk("xid=0x%08x posting %s failed: %d", __entry->xid,
		  __get_str(what), __entry->rc)
);

TRACE_EVENT(xprtrdma_marshal,
	TP_PROTO(const struct rpc_rqst *rqst, char call, char reply,
		 unsigned int hdr_len, unsigned int nr_mrs),
	TP_ARGS(rqst, call, reply, hdr_len, nr_mrs),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(unsigned int, callsize)
		__field(unsigned int, rcvsize)
		__field(char, call)
		__field(char, reply)
		__field(unsigned int, hdr_len)
		__field(unsigned int, nr_mrs)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->callsize = rqst->rq_snd_buf.len;
		__entry->rcvsize = rqst->rq_rcv_buf.buflen;
		__entry->call = call;
		__entry->reply = reply;
		__entry->hdr_len = hdr_len;
		__entry->nr_mrs = nr_mrs;
	),
	TP_printk("xid=0x%08x call=%u/%s reply=%u/%s hdr=%u mrs=%u",
		  __entry->xid, __entry->callsize,
		  __entry->call == 'i' ? "inline" :
		  __entry->call == 'r' ? "read-chunk" : "long-call",
		  __entry->rcvsize,
		  __entry->reply == 'i' ? "inline" :
		  __entry->reply == 'w' ? "write-chunk" : "reply-chunk",
		  __entry->hdr_len, __entry->nr_mrs)
);

DECLARE_EVENT_CLASS(xprtrdma_rqst_class,
	TP_PROTO(const struct rpc_rqst *rqst, int value),
	TP_ARGS(rqst, value),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(int, value)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->value = value;
	),
	TP_printk("xid=0x%08x value=%d", __entry->xid, __entry->value)
);

DEFINE_EVENT(xprtrdma_rqst_class, xprtrdma_marshal_error,
	TP_PROTO(const struct rpc_rqst *rqst, int value),
	TP_ARGS(rqst, value));
DEFINE_EVENT(xprtrdma_rqst_class, xprtrdma_mrs_zap,
	TP_PROTO(const struct rpc_rqst *rqst, int value),
	TP_ARGS(rqst, value));

TRACE_EVENT(xprtrdma_reply_bad,
	TP_PROTO(const struct rpc_rqst *rqst, enum rpcrdma_wire_err err),
	TP_ARGS(rqst, err),
	TP_STRUCT__entry(
		__field(u32, xid)
		__string(err, rpcrdma_wire_err_name(err))
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__assign_str(err);
	),
	TP_printk("xid=0x%08x malformed reply: %s", __entry->xid,
		  __get_str(err))
);

TRACE_EVENT(xprtrdma_reply_dropped,
	TP_PROTO(const struct rpc_xprt *xprt, __be32 xid,
		 enum rpcrdma_wire_err err),
	TP_ARGS(xprt, xid, err),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__field(u32, xid)
		__string(err, rpcrdma_wire_err_name(err))
	),
	TP_fast_assign(
		__assign_str(addr);
		__entry->xid = be32_to_cpu(xid);
		__assign_str(err);
	),
	TP_printk("peer=%s xid=0x%08x dropped (%s)", __get_str(addr),
		  __entry->xid, __get_str(err))
);

TRACE_EVENT(xprtrdma_reply,
	TP_PROTO(const struct rpc_rqst *rqst, u32 proc, int status,
		 bool remote_inv),
	TP_ARGS(rqst, proc, status, remote_inv),
	TP_STRUCT__entry(
		__field(u32, xid)
		__field(u32, proc)
		__field(int, status)
		__field(bool, remote_inv)
	),
	TP_fast_assign(
		__entry->xid = be32_to_cpu(rqst->rq_xid);
		__entry->proc = proc;
		__entry->status = status;
		__entry->remote_inv = remote_inv;
	),
	TP_printk("xid=0x%08x proc=%u status=%d%s", __entry->xid,
		  __entry->proc, __entry->status,
		  __entry->remote_inv ? " remotely-invalidated" : "")
);

DECLARE_EVENT_CLASS(xprtrdma_bc_class,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid, unsigned int len),
	TP_ARGS(xprt, xid, len),
	TP_STRUCT__entry(
		__string(addr, xprt->address_strings[RPC_DISPLAY_ADDR])
		__field(u32, xid)
		__field(unsigned int, len)
	),
	TP_fast_assign(
		__assign_str(addr);
		__entry->xid = xid;
		__entry->len = len;
	),
	TP_printk("peer=%s xid=0x%08x len=%u", __get_str(addr),
		  __entry->xid, __entry->len)
);

DEFINE_EVENT(xprtrdma_bc_class, xprtrdma_bc_call,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid, unsigned int len),
	TP_ARGS(xprt, xid, len));
DEFINE_EVENT(xprtrdma_bc_class, xprtrdma_bc_reply,
	TP_PROTO(const struct rpc_xprt *xprt, u32 xid, unsigned int len),
	TP_ARGS(xprt, xid, len));

#endif /* _XPRTRDMA_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
