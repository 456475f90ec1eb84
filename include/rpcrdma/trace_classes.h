/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace event classes the client and the server both use, written once
 * so that their formats cannot drift apart.  Each side's trace header
 * (xprtrdma/trace.h, svcrdma/trace.h, both TRACE_SYSTEM rpcrdma)
 * declares a class of its own name from these; a class is local to the
 * trace.o that defines it, so the two cannot share one object.
 */
#ifndef _RPCRDMA_TRACE_CLASSES_H
#define _RPCRDMA_TRACE_CLASSES_H

/*
 * A work completion: the CQ, the ID of what completed (@label names it:
 * "cid", or "mr.id" for an MR's), its status, and the vendor's error
 * code when it failed.
 */
#define RPCRDMA_DECLARE_WC_CLASS(class, label)				\
	DECLARE_EVENT_CLASS(class,					\
		TP_PROTO(const struct ib_wc *wc,			\
			 const struct rpcrdma_cid *cid),		\
		TP_ARGS(wc, cid),					\
		TP_STRUCT__entry(					\
			__field(u32, cq_id)				\
			__field(int, completion_id)			\
			__field(unsigned long, status)			\
			__field(unsigned int, vendor_err)		\
		),							\
		TP_fast_assign(						\
			__entry->cq_id = cid->queue_id;			\
			__entry->completion_id = cid->completion_id;	\
			__entry->status = wc->status;			\
			__entry->vendor_err =				\
				wc->status ? wc->vendor_err : 0;	\
		),							\
		TP_printk("cq.id=%u " label "=%d status=%s (%lu/0x%x)",	\
			  __entry->cq_id, __entry->completion_id,	\
			  ib_wc_status_msg(__entry->status),		\
			  __entry->status, __entry->vendor_err)		\
	)

/* The RDMA device under a connection is being removed. */
#define RPCRDMA_DECLARE_DEVICE_REMOVAL_CLASS(class)			\
	DECLARE_EVENT_CLASS(class,					\
		TP_PROTO(const struct rdma_cm_id *id),			\
		TP_ARGS(id),						\
		TP_STRUCT__entry(					\
			__string(name, id->device->name)		\
			__array(unsigned char, addr,			\
				sizeof(struct sockaddr_in6))		\
		),							\
		TP_fast_assign(						\
			__assign_str(name);				\
			memcpy(__entry->addr, &id->route.addr.dst_addr,	\
			       sizeof(struct sockaddr_in6));		\
		),							\
		TP_printk("device %s is going away: disconnecting %pISpc", \
			  __get_str(name), __entry->addr)		\
	)

/*
 * An RDMA-CM event on a connection, and its status; @peer points into a
 * sockaddr_storage (the transport's peer address).
 */
#define RPCRDMA_DECLARE_CM_EVENT_CLASS(class)				\
	DECLARE_EVENT_CLASS(class,					\
		TP_PROTO(const struct sockaddr *peer, int event,	\
			 int status),					\
		TP_ARGS(peer, event, status),				\
		TP_STRUCT__entry(					\
			__array(unsigned char, peer,			\
				sizeof(struct sockaddr_in6))		\
			__field(int, event)				\
			__field(int, status)				\
		),							\
		TP_fast_assign(						\
			memcpy(__entry->peer, peer,			\
			       sizeof(struct sockaddr_in6));		\
			__entry->event = event;				\
			__entry->status = status;			\
		),							\
		TP_printk("peer=%pISpc event=%s status=%d",		\
			  __entry->peer,				\
			  rdma_event_msg(__entry->event),		\
			  __entry->status)				\
	)

#endif /* _RPCRDMA_TRACE_CLASSES_H */
