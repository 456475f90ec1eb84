/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA client (requester) transport: internal interfaces.
 *
 * Ownership, in one place:
 *
 * - struct xrdma_xprt is the rpc_xprt.  It lives from setup to destroy
 *   and owns the request pool (struct xrdma_req) and the tunables that
 *   were in force at setup time.
 * - struct xrdma_ep is one connection attempt: the RDMA-CM id, the
 *   protection domain, both completion queues, the queue pair, the
 *   Receive buffers and the MR pool.  A new one is made for every
 *   connect and torn down completely on close, so nothing the peer was
 *   given (rkeys) survives the queue pair it was given on.
 * - struct xrdma_req is one RPC slot.  It is referenced by the RPC
 *   layer from alloc_slot to free_slot and by its Send until that Send
 *   is known complete (which may be after the RPC is, see sendq.c); it
 *   goes back to the pool when the last reference is dropped.
 * - struct xrdma_mr belongs to an endpoint's pool and is lent to one
 *   request between registration and invalidation.
 */
#ifndef _XPRTRDMA_CLIENT_H
#define _XPRTRDMA_CLIENT_H

#include <linux/jump_label.h>
#include <linux/kref.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/sunrpc/xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

#include <rpcrdma/cid.h>
#include <rpcrdma/conn_table.h>
#include <rpcrdma/send.h>
#include <rpcrdma/xdr_range.h>
#include <rpcrdma/verbs.h>
#include <rpcrdma/wire.h>

#include "xprtrdma.h"

/* Limits of one RPC */
#define XRDMA_MAX_DATA_PAGES	256	/* largest payload: 1 MiB */
#define XRDMA_MAX_MRS		8	/* MRs (segments) per RPC */
#define XRDMA_MAX_CHUNKS	4	/* chunks per RPC */
#define XRDMA_MR_STASH		2	/* MRs a slot keeps between RPCs */
#define XRDMA_HDR_BUF_SIZE	1024	/* transport header buffer */
#define XRDMA_BC_MAX_REQS	16	/* backchannel slots we offer */

/* Tunable ranges (sysctl) */
#define XRDMA_MIN_SLOTS		2
#define XRDMA_DEF_SLOTS		128
#define XRDMA_MAX_SLOTS		256
/*
 * Bytes of RPC buffer (call and reply heads) each slot starts with, as
 * much as the two 2 KiB buffers of the stock client's slots: a kmalloc-4k
 * object, of which nothing is wasted.
 */
#define XRDMA_RPC_BUF_INITIAL	4096
#define XRDMA_MIN_INLINE	RPCRDMA_CM_SIZE_MIN
/*
 * 8 KiB: a 4 KiB READ or WRITE then travels inline to a server that
 * takes that much (ours), with no registration and no RDMA Read or
 * Write; a server that takes less (the stock one: 4 KiB) says so in its
 * private data, and its limit applies.
 */
#define XRDMA_DEF_INLINE	8192
#define XRDMA_MAX_INLINE	65536

/* Timeouts */
#define XRDMA_RESOLVE_TIMEOUT_MS	5000
#define XRDMA_CONNECT_TIMEOUT		(30 * HZ)
#define XRDMA_INIT_REEST_TO		(5 * HZ)
#define XRDMA_MAX_REEST_TO		(30 * HZ)
#define XRDMA_IDLE_DISC_TO		(5 * 60 * HZ)
#define XRDMA_BIND_TO			(60 * HZ)
/* After a link comes back: no backoff for this long (linkwatch.c) ... */
#define XRDMA_LINK_BACK_WINDOW		(10 * HZ)
/* ... and at most this long between connect attempts. */
#define XRDMA_LINK_BACK_DELAY		(HZ / 2)

/**
 * struct xrdma_stats - per-transport counters shown in mountstats
 *
 * The field order is the order of the "xprt: rdma" line, which matches
 * the kernel's own transport so that mountstats(8) and nfsiostat(8)
 * parse it.
 *
 * @read_chunk_count: calls that sent argument data in a Read chunk
 * @write_chunk_count: calls that offered a Write chunk
 * @reply_chunk_count: calls that offered a Reply chunk
 * @total_rdma_request: bytes offered to the server in Read chunks
 * @total_rdma_reply: bytes the server returned in Write/Reply chunks
 * @pullup_copy_count: bytes copied into the Send buffer (too few SGEs)
 * @fixup_copy_count: inline reply bytes copied beyond the head
 * @hardway_register_count: bytes of RPC buffer that had to be allocated
 *	anew because a slot's buffer was too small for a call
 * @failed_marshal_count: calls that could not be marshaled
 * @bad_reply_count: replies that were malformed or contradicted the call
 * @nomsg_call_count: Long Calls (RDMA_NOMSG with a position-zero chunk)
 * @mrs_recycled: MRs recovered: given back with no invalidation completed,
 *	after a failed registration or LocalInv or a lost connection
 * @mrs_orphaned: MRs still lent out when their endpoint was destroyed
 * @mrs_allocated: MRs created
 * @local_inv_needed: MRs we invalidated ourselves (not remotely)
 * @empty_sendctx_q: always 0: every slot owns its Send resources and
 *	the Send Queue is sized for all of them, so no Send ever waits
 */
struct xrdma_stats {
	atomic_long_t read_chunk_count;
	atomic_long_t write_chunk_count;
	atomic_long_t reply_chunk_count;
	atomic64_t total_rdma_request;
	atomic64_t total_rdma_reply;
	atomic64_t pullup_copy_count;
	atomic64_t fixup_copy_count;
	atomic_long_t hardway_register_count;
	atomic_long_t failed_marshal_count;
	atomic_long_t bad_reply_count;
	atomic_long_t nomsg_call_count;
	atomic_long_t mrs_recycled;
	atomic_long_t mrs_orphaned;
	atomic_long_t mrs_allocated;
	atomic_long_t local_inv_needed;
	atomic_long_t empty_sendctx_q;
};

struct xrdma_ep;
struct xrdma_req;

/**
 * enum xrdma_chunktype - how a call or its reply travels (for the trace)
 * @XRDMA_NOCH: inline, the header and the message in one buffer
 * @XRDMA_NOCH_PULLUP: inline, the message copied after the header
 * @XRDMA_NOCH_MAPPED: inline, the message's pages gathered in place
 * @XRDMA_READCH: a Read chunk carries the call's data item
 * @XRDMA_AREADCH: the whole call travels in a position-zero Read chunk
 * @XRDMA_WRITECH: the reply's data item comes in a Write chunk
 * @XRDMA_REPLYCH: the whole reply comes in a Reply chunk
 *
 * The values are those the kernel's own rpcrdma module traces.
 */
enum xrdma_chunktype {
	XRDMA_NOCH = 0,
	XRDMA_NOCH_PULLUP,
	XRDMA_NOCH_MAPPED,
	XRDMA_READCH,
	XRDMA_AREADCH,
	XRDMA_WRITECH,
	XRDMA_REPLYCH,
};

/**
 * struct xrdma_plan - how one RPC call and its reply travel
 * @call: XRDMA_NOCH (inline), XRDMA_READCH (its data item in a Read
 *	chunk) or XRDMA_AREADCH (the whole call in a position-zero Read
 *	chunk, RDMA_NOMSG)
 * @reply: XRDMA_NOCH (inline), XRDMA_WRITECH (its data item in a Write
 *	chunk) or XRDMA_REPLYCH (the whole reply in a Reply chunk)
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 * @csegs: Read segments the call registers
 * @wsegs: Write segments the reply needs
 * @rsegs: Reply chunk segments the reply needs
 * @split: end of the call's first inline part
 * @resume: start of its second inline part (which ends at the call's end)
 */
struct xrdma_plan {
	enum xrdma_chunktype call;
	enum xrdma_chunktype reply;
	u32 proc;
	unsigned int csegs;
	unsigned int wsegs;
	unsigned int rsegs;
	unsigned int split;
	unsigned int resume;
};

/**
 * struct xrdma_mr - one FRWR memory region
 * @node: entry in the endpoint's free list, or in a request
 * @all_node: entry in the endpoint's list of every MR
 * @ibmr: the verbs MR
 * @ep: owning endpoint
 * @req: request this MR is lent to, or NULL
 * @sg: scatterlist of the registered memory: @ep's mr_depth entries, an
 *	allocation of its own, so that both fit their kmalloc objects
 * @nents: entries of @sg in use (0 if not DMA-mapped)
 * @dir: DMA direction of the mapping
 * @reg_wr: FastReg work request
 * @inv_wr: LocalInv work request
 * @cqe: completion of @reg_wr when it fails
 * @li_cqe: completion of @inv_wr when it fails
 * @cid: completion ID of @reg_wr and @inv_wr; its completion_id is the
 *	MR's resource tracking ID (the "mr.id" of the trace)
 * @seg: the segment as advertised to the peer
 * @remote_invalidated: the peer invalidated it with Send With Invalidate
 * @cpu_owns: its memory, mapped DMA_FROM_DEVICE, was synced for the CPU
 *	when the reply arrived (xrdma_mrs_sync_for_cpu()): the reply may be
 *	placed in it, and the unmap does not sync again
 */
struct xrdma_mr {
	struct list_head node;
	struct list_head all_node;
	struct ib_mr *ibmr;
	struct xrdma_ep *ep;
	struct xrdma_req *req;
	int nents;
	enum dma_data_direction dir;
	struct ib_reg_wr reg_wr;
	struct ib_send_wr inv_wr;
	struct ib_cqe cqe;
	struct ib_cqe li_cqe;
	struct rpcrdma_cid cid;
	struct rpcrdma_segment seg;
	bool remote_invalidated;
	bool cpu_owns;
	struct scatterlist *sg;
};

/**
 * struct xrdma_rep - one posted Receive
 * @rb: the buffer, @ep->rep_size bytes, and its Receive WR
 * @cid: completion ID, for the trace
 * @ep: owning endpoint
 */
struct xrdma_rep {
	struct rpcrdma_recv_buf rb;
	struct rpcrdma_cid cid;
	struct xrdma_ep *ep;
};

/**
 * enum xrdma_connect_step - how far a connect attempt got
 * @XRDMA_STEP_ADDR: resolving the server's address to an RDMA device
 * @XRDMA_STEP_ROUTE: resolving the route
 * @XRDMA_STEP_QUEUES: making the PD, CQs, QP and MRs
 * @XRDMA_STEP_CONNECT: the connect request and its reply
 * @XRDMA_STEP_SETUP: the buffers the connect reply sizes
 */
enum xrdma_connect_step {
	XRDMA_STEP_ADDR,
	XRDMA_STEP_ROUTE,
	XRDMA_STEP_QUEUES,
	XRDMA_STEP_CONNECT,
	XRDMA_STEP_SETUP,
};

/**
 * struct xrdma_connect_fail - what a connect attempt saw, to say why it
 *	failed (connect_report.c)
 * @step: how far it got
 * @event: the RDMA-CM event that ended it, or -1
 * @status: that event's status: a negative errno, or for REJECTED on
 *	InfiniBand and RoCE the IB CM's reject reason
 * @iwarp: the device is iWARP (a REJECTED status is then an errno)
 * @detail: the RDMA-CM's words for @event (and a reject's reason)
 * @rc: the attempt's return code
 */
struct xrdma_connect_fail {
	enum xrdma_connect_step step;
	int event;
	int status;
	bool iwarp;
	const char *detail;
	int rc;
};

/**
 * struct xrdma_ep - one RDMA connection and the resources tied to it
 * @rx: the transport that owns this endpoint
 * @id: RDMA-CM identifier
 * @device: the device the route resolved to
 * @ib: PD, CQs and QP of this connection only
 * @cm_done: signalled by the CM handler during connection setup
 * @cm_status: outcome of the last CM step (0 or -errno)
 * @fail: what the connect attempt saw, should it fail
 * @connected: set on ESTABLISHED, cleared on any loss
 * @local_pdata: private data we sent
 * @peer_pdata: private data the server sent (or RFC defaults)
 * @peer_pdata_sent: @peer_pdata came from the server's connect reply
 * @inline_send: largest RDMA Send we may post
 * @inline_recv: largest reply the server may send inline
 * @max_requests: credits we ask for, and Receives we post
 * @max_send_sge: SGEs per Send we use
 * @mr_depth: pages one MR can map
 * @ird: RDMA Reads the server may have in flight against us
 * @sq_depth: Send Queue work requests
 * @established: jiffies when the connection was established (never 0)
 * @mr_lock: protects @mr_free, @mr_nr_free and @mr_all
 * @mr_free: MRs ready for registration
 * @mr_nr_free: entries on @mr_free
 * @mr_all: every MR of this endpoint
 * @mr_refill: makes more MRs, outside the I/O path, when @mr_free runs
 *	low (xrdma_mr_get())
 * @reps: the Receive buffers
 * @nr_reps: entries in @reps
 * @rep_size: size of one Receive buffer: what the server said it sends
 *	at most (rpcrdma_cm_recv_size()), known once the connection is up
 * @recv_batch: consumed Receives are reposted this many at a time
 * @hdr_dma: DMA address of each slot's header buffer (rx->reqs[i]),
 *	mapped for this connection's device for as long as it lives
 * @nr_hdr_dma: entries of @hdr_dma mapped
 * @recv_pending: Receives handled and not yet reposted, linked by their
 *	wr.next (under the transport's transport_lock: the completion
 *	handler and the release of a held Receive both add to it)
 * @nr_recv_pending: entries on @recv_pending
 * @recv_closed: no Receive may be posted any more: the Receive Queue is
 *	being drained (under transport_lock)
 * @recv_post_failed: reposting Receives failed where the connection could
 *	not be closed at once (under transport_lock); the next completion or
 *	Send closes it
 * @sendq: requests whose Send was posted on this connection and not yet
 *	known to be complete, in posting order (see sendq.c); its @batch
 *	is 0 when the Send Queue cannot hold the Sends of every slot: every
 *	Send is then signaled and each RPC waits for its Send to complete
 */
struct xrdma_ep {
	struct xrdma_xprt *rx;
	struct rdma_cm_id *id;
	struct ib_device *device;
	struct rpcrdma_ib ib;

	struct completion cm_done;
	int cm_status;
	struct xrdma_connect_fail fail;
	bool connected;

	struct rpcrdma_cm_pdata local_pdata;
	struct rpcrdma_cm_pdata peer_pdata;
	bool peer_pdata_sent;
	unsigned int inline_send;
	unsigned int inline_recv;
	unsigned int max_requests;
	unsigned int max_send_sge;
	unsigned int mr_depth;
	unsigned int ird;
	unsigned int sq_depth;
	unsigned long established;

	spinlock_t mr_lock;	/* @mr_free, @mr_nr_free, @mr_all */
	struct list_head mr_free;
	unsigned int mr_nr_free;
	struct list_head mr_all;
	struct work_struct mr_refill;

	struct xrdma_rep *reps;
	unsigned int nr_reps;
	unsigned int rep_size;
	unsigned int recv_batch;
	u64 *hdr_dma;
	unsigned int nr_hdr_dma;
	struct xrdma_rep *recv_pending;
	unsigned int nr_recv_pending;
	bool recv_closed;
	bool recv_post_failed;

	struct rpcrdma_sendq sendq;
};

/**
 * struct xrdma_req - one RPC slot and everything its transmission uses
 * @rqst: the RPC layer's request (first: see xrdma_rqst_to_req())
 * @rx: owning transport
 * @free_next: the next idle slot on the transport's free stack
 *	(xrdma_free_push())
 * @ref: slot reference plus one for a Send not yet known complete
 * @done: count of events still needed to complete the reply: the reply
 *	with its invalidation, and the Send's completion if @send_waits
 * @rpc_buf: backing store of rq_buffer and rq_rbuffer
 * @rpc_buf_size: size of @rpc_buf
 * @rpc_dma_ep: the connection @rpc_buf is DMA-mapped for, or NULL; set
 *	by the first Send from it on that connection (XPRT_LOCKED), cleared
 *	when the connection's queues are destroyed or the buffer grows
 *	(both under ep_rwsem held for writing or for reading)
 * @rpc_dma: DMA address of @rpc_buf on @rpc_dma_ep's device
 * @hdr_buf: transport header, followed by pulled-up payload if needed
 * @hdr_size: size of @hdr_buf: room for a pull-up only where the
 *	connection may need one (xrdma_hdr_buf_size())
 * @hdr_len: bytes of transport header encoded in @hdr_buf; a call's
 *	header is the record of the chunks it offered
 * @send_wr: the Send work request
 * @send_cqe: completion of @send_wr
 * @send_cid: completion ID of @send_wr: the slot's number, and the Send
 *	CQ it was last posted to
 * @sges: SGEs of @send_wr and their DMA mappings
 * @send_entry: entry in the endpoint's @sendq while the Send is posted
 * @send_waits: the RPC completes only after its Send does: the Send
 *	maps memory for itself (xrdma_send_must_wait())
 * @send_unretired: a Send with @send_waits is posted and not yet retired:
 *	the RPC may not give back what it maps (xrdma_send_wait())
 * @offered: the chunk lists of @hdr_buf, decoded only for a reply the
 *	fast path leaves to the full decoder (and for a backchannel reply)
 * @chunks: storage for @offered
 * @segs: storage for @offered
 * @mrs: MRs registered for this RPC
 * @mr_stash: MRs of the current connection this slot keeps from one RPC
 *	for its next, out of the pool (no pool lock on the common path);
 *	emptied when the connection's MRs are destroyed
 * @nr_mr_stash: entries of @mr_stash in use
 * @nr_mrs: entries of @mrs in use
 * @mr_ep: endpoint that owns @mrs
 * @inv_cqe: completion of the last LocalInv
 * @inv_cid: completion ID of the last LocalInv (that of its MR)
 * @inv_sync: LocalInv posted by xrdma_buf_free() finished
 * @held_rep: the Receive whose buffer the reply's head points into
 *	(zero-copy inline reply, see reply.c), given back to its connection
 *	when the RPC releases the slot or is sent again (set by the reply
 *	handler, then under transport_lock)
 * @orphan_buf: @held_rep's buffer once its connection has gone: freed,
 *	not reposted, when it is given back (under transport_lock)
 * @reply_len: bytes of RPC reply placed
 * @reply_status: 0, or -errno to fail the RPC with
 * @is_bc: a backchannel request (see backchannel.c)
 * @reply_plain: the call offered no Write chunk and no Reply chunk, so
 *	its reply can only be an RDMA_MSG with empty lists
 *	(rpcrdma_match_reply_plain()); set before the post
 * @reply_claimed: no reply may be taken for the slot: one is being
 *	handled, or the slot's call is not posted on the current connection
 *	(set under the xprt's queue_lock, or where no reply handler can see
 *	the slot; cleared only by xrdma_post_send() just before the post)
 */
struct xrdma_req {
	struct rpc_rqst rqst;
	struct xrdma_xprt *rx;
	struct xrdma_req *free_next;
	struct kref ref;
	atomic_t done;

	void *rpc_buf;
	size_t rpc_buf_size;
	struct xrdma_ep *rpc_dma_ep;
	u64 rpc_dma;
	void *hdr_buf;
	size_t hdr_size;
	unsigned int hdr_len;

	struct ib_send_wr send_wr;
	struct ib_cqe send_cqe;
	struct rpcrdma_cid send_cid;
	struct rpcrdma_send_sges sges;
	struct rpcrdma_sendq_entry send_entry;
	bool send_waits;
	bool send_unretired;

	struct rpcrdma_chunk_lists offered;
	struct rpcrdma_chunk chunks[XRDMA_MAX_CHUNKS];
	struct rpcrdma_segment segs[XRDMA_MAX_MRS];

	struct xrdma_mr *mrs[XRDMA_MAX_MRS];
	struct xrdma_mr *mr_stash[XRDMA_MR_STASH];
	unsigned int nr_mr_stash;
	unsigned int nr_mrs;
	struct xrdma_ep *mr_ep;
	struct ib_cqe inv_cqe;
	struct rpcrdma_cid inv_cid;
	struct completion inv_sync;

	struct xrdma_rep *held_rep;
	void *orphan_buf;
	unsigned int reply_len;
	int reply_status;
	bool reply_plain;
	bool reply_claimed;
	bool is_bc;
};

/**
 * struct xrdma_xprt - the RPC-over-RDMA client transport
 * @xprt: generic RPC transport (first: xprt_alloc() allocates us)
 * @ep: current endpoint, or NULL when not connected.  Changed only with
 *	XPRT_LOCKED held (connect worker, close) and @ep_rwsem held for
 *	writing.
 * @ep_rwsem: lets xrdma_buf_free() use @ep without XPRT_LOCKED
 * @connect_worker: background connect
 * @reqs: all request slots
 * @nr_reqs: entries in @reqs
 * @free_lock: protects @free_reqs and the backlog hand-off
 * @free_reqs: slots not in use, a stack (xrdma_free_push())
 * @bc_free: idle backchannel requests, a stack (under @free_lock)
 * @bc_count: backchannel requests in existence (under @free_lock)
 * @inline_read: our Receive size, from sysctl at setup
 * @inline_write: our Send size, from sysctl at setup
 * @conn_inline_send: inline send size negotiated by the last connection
 *	(0 before the first); read without locks
 * @conn_inline_recv: inline receive size negotiated by the last connection
 * @stats: counters for mountstats
 * @credits: current credit grant
 * @reconnect: a connection was attempted before (back off next time)
 * @watch_node: entry in the list of transports linkwatch.c kicks
 * @connecting: endpoint of the connect attempt under way, if any (under
 *	linkwatch.c's lock): one that began before a link came back is cut
 *	short, as its messages may have been lost while the link was down
 * @link_back: when an interface or RDMA device of this transport's
 *	network namespace last came back (jiffies | 1; 0: never)
 * @link_ifindex: interface the current connection runs over, 0 before
 *	the first (under linkwatch.c's lock)
 * @link_lost: that interface went down under the connection (under
 *	linkwatch.c's lock)
 * @connect_failures: connect attempts failed since the last success
 *	(under XPRT_LOCKED)
 * @connect_ratelimit: limits the lines xrdma_connect_report() logs
 * @conn: this transport's line in /proc/net/rpcrdma
 * @lock_waitq: the hashed wait queue of @xprt.state's XPRT_LOCKED bit,
 *	looked up once (xrdma_xprt_lock_init())
 */
struct xrdma_xprt {
	struct rpc_xprt xprt;
	wait_queue_head_t *lock_waitq;
	struct xrdma_ep *ep;
	struct rw_semaphore ep_rwsem;
	struct delayed_work connect_worker;

	struct xrdma_req *reqs;
	unsigned int nr_reqs;
	spinlock_t free_lock;		/* @free_reqs, @bc_free, backlog */
	struct xrdma_req *free_reqs;
	struct xrdma_req *bc_free;
	unsigned int bc_count;

	unsigned int inline_read;
	unsigned int inline_write;
	unsigned int conn_inline_send;
	unsigned int conn_inline_recv;
	struct xrdma_stats stats;
	unsigned int credits;
	bool reconnect;
	struct list_head watch_node;
	struct xrdma_ep *connecting;
	unsigned long link_back;
	int link_ifindex;
	bool link_lost;
	unsigned int connect_failures;
	struct ratelimit_state connect_ratelimit;
	struct rpcrdma_conn conn;
};

/*
 * Idle slots wait on a stack, linked through each one's @free_next and
 * kept under @free_lock: taking one and giving it back are a load and
 * a store, where a list_head's checks would be calls into the kernel
 * (CONFIG_DEBUG_LIST).  The last slot given back is the next taken.
 */
static inline void xrdma_free_push(struct xrdma_req **top,
				   struct xrdma_req *req)
{
	req->free_next = *top;
	*top = req;
}

static inline struct xrdma_req *xrdma_free_pop(struct xrdma_req **top)
{
	struct xrdma_req *req = *top;

	if (req)
		*top = req->free_next;
	return req;
}

static inline struct xrdma_xprt *xrdma_xprt(struct rpc_xprt *xprt)
{
	return container_of(xprt, struct xrdma_xprt, xprt);
}

static inline struct xrdma_req *xrdma_req(struct rpc_rqst *rqst)
{
	return container_of(rqst, struct xrdma_req, rqst);
}

/**
 * xrdma_hdr_buf_size - size of a header buffer for Sends of this size
 * @inline_send: most bytes one Send carries, header included
 * @max_send_sge: SGEs per Send the connection uses
 *
 * A call goes inline whole or as its head and tail (marshal.c), which
 * rpcrdma_send_sges_worst() bounds: where the device takes that many
 * SGEs no call is ever pulled up, and the buffer holds just a header.
 *
 * Return: XRDMA_HDR_BUF_SIZE, or more for a pulled-up call.
 */
static inline size_t xrdma_hdr_buf_size(unsigned int inline_send,
					unsigned int max_send_sge)
{
	if (rpcrdma_send_sges_worst(inline_send) <= max_send_sge)
		return XRDMA_HDR_BUF_SIZE;
	return max_t(size_t, XRDMA_HDR_BUF_SIZE, inline_send);
}

/* sysctl.c */
extern unsigned int xrdma_slot_table_entries;
extern unsigned int xrdma_max_inline_read;
extern unsigned int xrdma_max_inline_write;
int xrdma_sysctl_register(void);
void xrdma_sysctl_unregister(void);

/* linkwatch.c */
void xrdma_linkwatch_add(struct xrdma_xprt *rx);
void xrdma_linkwatch_del(struct xrdma_xprt *rx);
void xrdma_linkwatch_connecting(struct xrdma_xprt *rx, struct xrdma_ep *ep);
void xrdma_linkwatch_connected(struct xrdma_xprt *rx, int ifindex);
bool xrdma_link_back(struct xrdma_xprt *rx);
int xrdma_linkwatch_register(void);
void xrdma_linkwatch_unregister(void);

/* transport.c */
void xrdma_req_release(struct kref *ref);

/**
 * xrdma_req_put - drop a reference to a request slot
 * @req: the request
 *
 * Inline: every RPC drops two (its Send's and its own).
 */
static inline void xrdma_req_put(struct xrdma_req *req)
{
	kref_put(&req->ref, xrdma_req_release);
}

bool xrdma_rpc_buf_premap(struct xrdma_req *req, struct xrdma_ep *ep);
void xrdma_rpc_buf_unmap(struct xrdma_req *req);

/* connect.c */
int xrdma_ep_connect(struct xrdma_xprt *rx);
void xrdma_ep_close(struct xrdma_xprt *rx);

/* transport.c */
void xrdma_disconnect_why(struct xrdma_xprt *rx, const char *why);
void xrdma_force_disconnect(struct xrdma_xprt *rx, const char *why);
void xrdma_close(struct rpc_xprt *xprt);
void xrdma_wc_failed(struct xrdma_xprt *rx, const struct ib_wc *wc);

/* connect_report.c */
void xrdma_connect_report(struct xrdma_xprt *rx, struct xrdma_connect_fail *f,
			  int rc);
int xrdma_connect_status(int rc);

/* frwr.c */
void xrdma_mr_pool_prepare(struct xrdma_ep *ep);
int xrdma_mr_pool_init(struct xrdma_ep *ep);
void xrdma_mr_pool_destroy(struct xrdma_ep *ep);
int xrdma_register_xdr(struct xrdma_req *req, struct xdr_buf *xdr,
		       unsigned int offset, unsigned int len, bool writing);
void xrdma_mrs_release(struct xrdma_req *req);
void xrdma_mrs_recover(struct xrdma_req *req);
int xrdma_register_part(struct xrdma_req *req, struct page **pages,
			void *kaddr, unsigned int base, unsigned int len,
			bool writing);

/**
 * xrdma_register_pages - register the page vector of an xdr_buf
 * @req: the request that will own the MRs
 * @xdr: the buffer whose page vector (a DDP data item) the server reads
 *	or writes
 * @writing: the server will write (true) or read (false) the memory
 *
 * xrdma_register_xdr() of exactly the page vector, without splitting
 * the buffer by region first: every Read chunk of a WRITE and every
 * Write chunk of a READ registers that.  Inline: one call less on the
 * path of every chunked I/O.
 *
 * Return: number of MRs added, or -errno (see xrdma_register_xdr()).
 */
static inline int xrdma_register_pages(struct xrdma_req *req,
				       struct xdr_buf *xdr, bool writing)
{
	if (!xdr->page_len)
		return -EINVAL;
	return xrdma_register_part(req, xdr->pages, NULL, xdr->page_base,
				   xdr->page_len, writing);
}

void xrdma_mrs_unstash(struct xrdma_req *req);
int xrdma_mrs_invalidate(struct xrdma_req *req, const u32 *remote_rkey);
void xrdma_mrs_sync_for_cpu(struct xrdma_req *req);
void __xrdma_check_cpu_write(struct xrdma_req *req, const struct xdr_buf *xdr,
			     const void *kaddr, unsigned int offset,
			     unsigned int len);
DECLARE_STATIC_KEY_FALSE(xrdma_dma_order_check);

/**
 * xrdma_check_cpu_write - before a reply is copied into its receive buffer
 * @req: request whose reply is being placed
 * @xdr: its receive buffer, or NULL for @len bytes at @kaddr
 * @kaddr: with @xdr NULL, the kernel address about to be written
 * @offset: with @xdr, the first byte of @xdr about to be written
 * @len: bytes about to be written
 *
 * With the module parameter dma_order_check set, warns (once) if an MR
 * of @req still maps any of those bytes for the device: its unmap would
 * then overwrite the copy under swiotlb, or discard it where DMA is not
 * cache-coherent.  A no-op jump otherwise.
 */
static __always_inline void xrdma_check_cpu_write(struct xrdma_req *req,
						  const struct xdr_buf *xdr,
						  const void *kaddr,
						  unsigned int offset,
						  unsigned int len)
{
	if (static_branch_unlikely(&xrdma_dma_order_check))
		__xrdma_check_cpu_write(req, xdr, kaddr, offset, len);
}

void xrdma_mrs_invalidate_sync(struct xrdma_req *req);
struct ib_send_wr *xrdma_mrs_reg_chain(struct xrdma_req *req,
				       struct ib_send_wr *next);

/* marshal.c */
int xrdma_send_request(struct rpc_rqst *rqst);
int xrdma_build_send(struct xrdma_req *req, struct xdr_buf *xdr,
		     unsigned int split, unsigned int resume);
int xrdma_encode_header(struct xrdma_req *req, u32 credits, u32 proc);

/* sendq.c */
int xrdma_post_send(struct xrdma_req *req, struct xrdma_ep *ep);
void xrdma_req_send_init(struct xrdma_req *req, u32 id);
void xrdma_send_done(struct ib_cq *cq, struct ib_wc *wc);
void xrdma_send_wait_retire(struct xrdma_req *req);

/**
 * xrdma_send_wait - wait until the device no longer reads what @req's Send maps
 * @req: slot of an RPC being released (->buf_free), reply or not
 *
 * Inline, as nearly every RPC has nothing to wait for: the wait itself
 * is xrdma_send_wait_retire(), which says why it is needed.
 */
static inline void xrdma_send_wait(struct xrdma_req *req)
{
	/* Pairs with xrdma_send_mark_retired(), which unmapped first. */
	if (likely(!smp_load_acquire(&req->send_unretired)))
		return;
	xrdma_send_wait_retire(req);
}

/**
 * xrdma_send_must_wait - must the RPC of @req wait for its Send to retire?
 * @req: a forward call whose SGEs are built
 * @batch: Sends per signaled one on its connection (0: every one)
 *
 * A Send that maps anything itself (a page of the upper layer, or a
 * kvec outside the slot's premapped buffers, as the krb5p tail in
 * rq_enc_pages) maps memory that the upper layer frees once the RPC is
 * done: the device may still read it until the Send is retired.  Only
 * a Send from the slot's own buffers, which the Send's hold on the slot
 * keeps, may be left unsignaled with its RPC done before it.
 *
 * Return: true if the Send is signaled and the RPC waits for it.
 */
static inline bool xrdma_send_must_wait(const struct xrdma_req *req,
					unsigned int batch)
{
	return !req->is_bc && (!batch || req->sges.nr_mapped);
}

void xrdma_sendq_retire_all(struct xrdma_ep *ep);

/* backchannel.c */
void xrdma_bc_receive_call(struct xrdma_xprt *rx, const struct rpcrdma_hdr *hdr,
			   const u8 *payload);
int xrdma_bc_send_reply(struct xrdma_xprt *rx, struct xrdma_req *req);
void xrdma_bc_req_free(struct xrdma_req *req);
void xrdma_bc_destroy_all(struct xrdma_xprt *rx);
int xrdma_bc_setup(struct rpc_xprt *xprt, unsigned int min_reqs);
size_t xrdma_bc_maxpayload(struct rpc_xprt *xprt);
unsigned int xrdma_bc_num_slots(struct rpc_xprt *xprt);
void xrdma_bc_free_rqst(struct rpc_rqst *rqst);
void xrdma_bc_destroy(struct rpc_xprt *xprt, unsigned int max_reqs);

/* reply.c */
void xrdma_recv_done(struct ib_cq *cq, struct ib_wc *wc);
void xrdma_req_done(struct xrdma_req *req);
int xrdma_post_recv(struct xrdma_rep *rep);
void xrdma_rep_return(struct xrdma_req *req);
void xrdma_recv_close(struct xrdma_xprt *rx, struct xrdma_ep *ep);
void xrdma_recv_orphan_held(struct xrdma_xprt *rx, struct xrdma_ep *ep);
#if IS_ENABLED(CONFIG_KUNIT)
int xrdma_plan_rpc(const struct xrdma_ep *ep, const struct xdr_buf *snd,
		   const struct xdr_buf *rcv, struct xrdma_plan *p);
u32 xrdma_credit_window(u32 grant, bool bc_call, u32 window, u32 max);
int xrdma_reply_outcome(struct xrdma_req *req, struct rpcrdma_hdr *hdr,
			const u8 *payload);
int xrdma_reply_claim(struct rpc_xprt *xprt, __be32 xid, const __be32 *msg,
		      size_t nwords, struct rpcrdma_reply_match *m,
		      struct xrdma_req **reqp);
bool xrdma_reply_at_once(const struct xrdma_req *req,
			 const struct rpcrdma_reply_match *m,
			 unsigned int inline_len, bool grant_same);
void xrdma_req_open(struct xrdma_req *req);
void xrdma_req_close(struct xrdma_req *req);
void xrdma_reqs_claim_all(struct xrdma_xprt *rx);
int xrdma_reqs_create(struct xrdma_xprt *rx, unsigned int count);
void xrdma_reqs_destroy(struct xrdma_xprt *rx);
int xrdma_buf_alloc(struct rpc_task *task);
const char *xrdma_connect_reason(const struct xrdma_connect_fail *f);
void xrdma_xprt_lock_init(struct xrdma_xprt *rx);
void xrdma_release_xprt(struct rpc_xprt *xprt, struct rpc_task *task);
void xrdma_release_request(struct rpc_task *task);
void xrdma_send_mark_retired(struct xrdma_req *req);
struct xrdma_mr *xrdma_mr_maps_for_device(const struct xrdma_req *req,
					  const struct page *page,
					  unsigned int off, unsigned int len);
int xrdma_mr_fill_sg(struct xrdma_mr *mr, struct page **pages, void *kaddr,
		     unsigned int *base, unsigned int *len, unsigned int want,
		     bool writing);
#endif

#endif /* _XPRTRDMA_CLIENT_H */
