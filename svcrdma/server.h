/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA version 1 server transport (responder side).
 *
 * One struct srdma_xprt per listener and per connection.  A connection
 * owns its RDMA resources (PD, CQs, QP), its Receive buffers (struct
 * srdma_recv) and its Send contexts (struct srdma_send).  An RPC Call
 * travels: Receive completion -> rx_ready list -> srdma_recvfrom()
 * (decode; a Call with Read chunks has its RDMA Reads posted and waits,
 * with no nfsd thread, until their completion puts it on rx_read_done
 * for a later srdma_recvfrom() to finish) -> nfsd -> srdma_sendto() (RDMA
 * Write of Write and Reply chunks chained before the Send) -> Send
 * completion, which releases the reply's pages.
 */
#ifndef _SVCRDMA_SERVER_H
#define _SVCRDMA_SERVER_H

#include <linux/list.h>
#include <linux/llist.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/percpu.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/svc_xprt.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include <rpcrdma/cid.h>
#include <rpcrdma/compat.h>
#include <rpcrdma/conn_table.h>
#include <rpcrdma/send.h>
#include <rpcrdma/xdr_range.h>
#include <rpcrdma/verbs.h>
#include <rpcrdma/wire.h>

#include "svcrdma.h"

/* Tunables (sysctl.c): defaults and ranges. */
#define SRDMA_DEF_REQUESTS	RPCRDMA_SVC_DEF_REQUESTS	/* compat.h */
#define SRDMA_MIN_REQUESTS	16
#define SRDMA_MAX_REQUESTS	1024
/*
 * 8 KiB: a 4 KiB NFS WRITE from a client that sends that much inline
 * needs no RDMA Read; Receives shrink to what each client sends.
 */
#define SRDMA_DEF_REQ_SIZE	8192
#define SRDMA_MIN_REQ_SIZE	1024
#define SRDMA_MAX_REQ_SIZE	65536
#define SRDMA_DEF_ORD		16
#define SRDMA_MIN_ORD		1
#define SRDMA_MAX_ORD		64

/*
 * A listener whose address moved (RDMA_CM_EVENT_ADDR_CHANGE) tries to
 * listen again this many times, a second apart: the device learns the
 * address's new link-layer identity (its GID) a moment after the event.
 */
#define SRDMA_RELISTEN_TRIES	30

/* Connection requests the CM queues before we accept them. */
#define SRDMA_LISTEN_BACKLOG	64

/*
 * A new connection's grant; it grows by a Receive batch at a time while
 * the client keeps its credits in use, up to max_requests (credits.c).
 */
#define SRDMA_GRANT_FLOOR	8

/* Backchannel (NFSv4.1 callback) requests a connection can carry. */
#define SRDMA_BC_REQUESTS	8

/* Decoding limits for one Call (see struct rpcrdma_wire_limits). */
#define SRDMA_MAX_READ_CHUNKS	8
#define SRDMA_MAX_READ_SEGS	16
#define SRDMA_MAX_WRITE_CHUNKS	4
#define SRDMA_MAX_CHUNK_SEGS	16
#define SRDMA_MAX_CHUNKS	(SRDMA_MAX_READ_CHUNKS + SRDMA_MAX_WRITE_CHUNKS)
#define SRDMA_MAX_SEGS		(SRDMA_MAX_READ_SEGS + \
				 (SRDMA_MAX_WRITE_CHUNKS + 1) * \
				 SRDMA_MAX_CHUNK_SEGS)
/*
 * Storage in each Receive for the lists of the Calls most clients send:
 * a Read chunk or a few Write chunks and a Reply chunk, of a few
 * segments each.  A Call with more is decoded again into storage for
 * the limits above, which the Receive then keeps (srdma_decode()).
 * Sized so that struct srdma_recv fits a 1 KiB allocation.
 */
#define SRDMA_RECV_CHUNKS	4
#define SRDMA_RECV_SEGS		16

/*
 * Seconds a reply may wait for Send Queue room, in all, before the
 * connection is closed (svcrdma/rw.c).  Any working client lets the
 * queue retire entries within milliseconds, even under emulation.
 */
#define SRDMA_DEF_SQ_STALL	10
#define SRDMA_MIN_SQ_STALL	1
#define SRDMA_MAX_SQ_STALL	600
/*
 * Seconds the oldest RDMA Read of a connection may stay unanswered
 * before the connection is closed (svcrdma/read_budget.c).  A working
 * client's adapter answers a Read within milliseconds, even under
 * emulation.
 */
#define SRDMA_DEF_READ_TIMEOUT	10
#define SRDMA_MIN_READ_TIMEOUT	1
#define SRDMA_MAX_READ_TIMEOUT	600
/* Seconds the oldest Send may go without its completion: send_timeout. */
#define SRDMA_DEF_SEND_TIMEOUT	10
#define SRDMA_MIN_SEND_TIMEOUT	1
#define SRDMA_MAX_SEND_TIMEOUT	600
/* Pages of RDMA Reads in flight that all connections may hold together. */
#define SRDMA_MAX_READ_BUDGET	268435456
/* Credits above their floors that all connections may hold together. */
#define SRDMA_MAX_CREDIT_BUDGET	16777216
/*
 * Seconds without a Call after which a connection's grant falls to its
 * floor (credits.c); 0 never.  Long enough to span the pauses of a busy
 * client, short enough that a client that needs credits finds those of
 * quiet ones back in the budget within seconds.
 */
#define SRDMA_DEF_CREDIT_QUIET	5
#define SRDMA_MAX_CREDIT_QUIET	3600
/*
 * The prefix lengths that make a client host's share key (credits.c):
 * an IPv4 host's own address, an IPv6 host's /64 (its interface
 * identifiers are its own to choose, its subnet is not).
 */
#define SRDMA_DEF_SHARE_PREFIX4	32
#define SRDMA_DEF_SHARE_PREFIX6	64

/* Malformed messages a connection may send before it is disconnected. */
#define SRDMA_MAX_PEER_ERRORS	16

/* Largest transport header we send (a NOMSG reply with every chunk). */
#define SRDMA_MAX_HDR_SIZE	1024

/*
 * Inline replies of at most this many bytes are copied after the header
 * into one SGE rather than mapped where nfsd wrote them: a copy of a few
 * hundred bytes costs less than a DMA map and unmap, and the device
 * reads one SGE instead of two.
 */
#define SRDMA_SEND_COPY_MAX	512

extern unsigned int srdma_max_requests;
extern unsigned int srdma_max_req_size;
extern unsigned int srdma_ord;
extern unsigned int srdma_sq_stall_timeout;
extern unsigned int srdma_credit_budget;
extern unsigned int srdma_credit_quiet_timeout;
extern unsigned int srdma_share_prefix4;
extern unsigned int srdma_share_prefix6;
extern unsigned int srdma_read_timeout;
extern unsigned int srdma_send_timeout;
extern unsigned int srdma_read_budget;

/**
 * enum srdma_stat - counters under /proc/sys/sunrpc/svc_rdma/
 * @SRDMA_STAT_READ: RDMA Read chunks pulled
 * @SRDMA_STAT_RECV: RPC-over-RDMA messages received
 * @SRDMA_STAT_WRITE: Write and Reply chunks pushed
 * @SRDMA_STAT_SQ_STARVE: times a reply waited for Send Queue room
 * @SRDMA_STAT_SQ_STALL: connections closed because a reply waited
 *	sq_stall_timeout for Send Queue room without getting it, or a Send
 *	went send_timeout without completing
 * @SRDMA_STAT_RQ_STARVE: times a Receive could not be replenished
 * @SRDMA_STAT_RQ_POLL: Receive completions handled
 * @SRDMA_STAT_RQ_PROD: Receives posted
 * @SRDMA_STAT_SQ_POLL: Send completions handled
 * @SRDMA_STAT_SQ_PROD: Sends posted
 * @SRDMA_STAT_READ_HOLD: Calls whose RDMA Reads were held back because
 *	their pages would have passed the connection's limit or read_budget
 * @SRDMA_STAT_READ_STALL: connections closed because an RDMA Read went
 *	read_timeout unanswered
 * @SRDMA_STAT_MAX: number of counters
 */
enum srdma_stat {
	SRDMA_STAT_READ,
	SRDMA_STAT_RECV,
	SRDMA_STAT_WRITE,
	SRDMA_STAT_SQ_STARVE,
	SRDMA_STAT_SQ_STALL,
	SRDMA_STAT_RQ_STARVE,
	SRDMA_STAT_RQ_POLL,
	SRDMA_STAT_RQ_PROD,
	SRDMA_STAT_SQ_POLL,
	SRDMA_STAT_SQ_PROD,
	SRDMA_STAT_READ_HOLD,
	SRDMA_STAT_READ_STALL,
	SRDMA_STAT_MAX
};

/**
 * struct srdma_stats - the server's counters, one set per CPU
 * @count: indexed by enum srdma_stat
 *
 * Summed when read (sysctl.c): counting is one instruction on the CPU
 * of the moment, with no call, on paths every RPC takes several times.
 */
struct srdma_stats {
	unsigned long count[SRDMA_STAT_MAX];
};

DECLARE_PER_CPU(struct srdma_stats, srdma_stats);

static inline void srdma_stat_add(enum srdma_stat stat, unsigned long n)
{
	this_cpu_add(srdma_stats.count[stat], n);
}

struct srdma_xprt;

/* Looks at a connection at a time (jiffies): jiffies to the next look, or 0. */
typedef unsigned long (*srdma_conn_check_fn)(struct srdma_xprt *sx,
					     unsigned long now);

/**
 * struct srdma_conn_check - a connection's own periodic check
 * @work: runs @check, and queues itself again when it asks to
 * @sx: the connection
 * @check: the look (conn_check.c)
 */
struct srdma_conn_check {
	struct delayed_work work;
	struct srdma_xprt *sx;
	srdma_conn_check_fn check;
};

/* What a share key is made of (struct srdma_share_key). */
enum srdma_share_kind {
	SRDMA_SHARE_INET = 1,	/* an IP prefix: IPv4 as ::ffff:a.b.c.d */
	SRDMA_SHARE_IB_LID,	/* an InfiniBand port's LID */
};

/**
 * struct srdma_share_key - what the credit budget's shares are keyed on
 * @kind: enum srdma_share_kind
 * @plen: for %SRDMA_SHARE_INET, the bits of @addr that count (IPv4 is
 *	96 + its prefix length); else 0
 * @addr: the client's address masked to @plen; for %SRDMA_SHARE_IB_LID,
 *	the LID in its first word
 *
 * A client host as far as the transport can tell it apart from others
 * (credits.c, srdma_share_key_inet() and srdma_share_key_ib()).
 */
struct srdma_share_key {
	u32 kind;
	u32 plen;
	__be32 addr[4];
};

/* Longest text of a share key: an IPv6 prefix and its length. */
#define SRDMA_SHARE_NAME_LEN	(INET6_ADDRSTRLEN + 4)

/**
 * struct srdma_peer - a client host with connections, for the budget
 * @node: entry in the table of peers (credits.c)
 * @net: the network namespace of its connections
 * @key: what its connections have in common (struct srdma_share_key)
 * @name: @key as text, for tracepoints
 * @conns: its connections (under the peers' lock)
 * @lent: credits above their floors its connections hold
 */
struct srdma_peer {
	struct hlist_node node;
	struct net *net;
	struct srdma_share_key key;
	char name[SRDMA_SHARE_NAME_LEN];
	unsigned int conns;
	atomic_t lent;
};

/**
 * struct srdma_grant_view - what decides a grant's next step
 * @grant: the grant now
 * @floor: the smallest grant (SRDMA_GRANT_FLOOR, or less if the queues
 *	are smaller)
 * @max: the largest grant (the queues are sized for it)
 * @batch: credits the grant moves by (a Receive batch)
 * @held: messages received and not yet finished with
 * @peak: the largest @held over the current window of Calls
 * @window_end: this Call ends a window (SRDMA_GRANT_WINDOW grants of Calls)
 * @falling: the grant fell and its Receives are not all given back yet
 * @sharing: the budget is being shared out: a connection whose client
 *	holds no more than its share was refused credits in the last second
 * @peer_lent: credits the connection's client holds (if @sharing)
 * @share: an equal share of the budget per client (if @sharing)
 */
struct srdma_grant_view {
	unsigned int grant;
	unsigned int floor;
	unsigned int max;
	unsigned int batch;
	unsigned int held;
	unsigned int peak;
	bool window_end;
	bool falling;
	bool sharing;
	unsigned int peer_lent;
	unsigned int share;
};

/**
 * enum srdma_grant_step - what srdma_grant_step() decides
 * @SRDMA_GRANT_KEEP: the grant stays
 * @SRDMA_GRANT_GROW: grow by a batch, budget permitting
 * @SRDMA_GRANT_AT_SHARE: it would grow, but its client holds its share
 *	of a budget being shared out
 * @SRDMA_GRANT_IDLE: fall by a batch: a sixth of it or less was held over
 *	a whole window
 * @SRDMA_GRANT_OVER_SHARE: fall by a batch: the budget is being shared
 *	out and its client holds more than its share
 * @SRDMA_GRANT_QUIET: fall to the floor: no Call came for the quiet
 *	period (the connection's quiet check decides it, srdma_grant_quiet(),
 *	not srdma_grant_step())
 */
enum srdma_grant_step {
	SRDMA_GRANT_KEEP,
	SRDMA_GRANT_GROW,
	SRDMA_GRANT_AT_SHARE,
	SRDMA_GRANT_IDLE,
	SRDMA_GRANT_OVER_SHARE,
	SRDMA_GRANT_QUIET,
};

/*
 * A window of Calls, in grants: a connection that held no more than a
 * sixth of its grant over this many grants' worth of Calls falls a batch.
 */
#define SRDMA_GRANT_WINDOW	2

/* A stash that took no page for this long gives them all back. */
#define SRDMA_READ_STASH_QUIET	(2 * HZ)

/**
 * struct srdma_read_stash - pages kept for a connection's next Read chunks
 * @lock: protects the other fields
 * @nr: pages kept, @pages[0] to @pages[@nr - 1]
 * @max: most pages kept: half the connection's @read_limit (0 until
 *	set up)
 * @draining: @drain is queued or running
 * @last_take: when a Call last took pages (jiffies)
 * @pages: the pages kept, each holding one reference of the stash's
 * @drain: gives the pages back once the connection is quiet
 *	(srdma_read_stash_check())
 */
struct srdma_read_stash {
	spinlock_t lock;	/* the stash's fields */
	unsigned int nr;
	unsigned int max;
	bool draining;
	unsigned long last_take;
	struct page **pages;
	struct srdma_conn_check drain;
};

/**
 * struct srdma_xprt - a listener or a connection
 * @xprt: the svc transport (first: see srdma_xprt())
 * @cm_id: RDMA-CM identifier
 * @accept_lock: protects @accept_q (listener)
 * @accept_q: connections waiting for srdma_accept() (listener)
 * @accept_node: entry in the listener's @accept_q (connection)
 * @listen_addr: the address a listener is bound to
 * @relisten_work: makes a listener's RDMA-CM id anew after an address
 *	change (bonding failover) took the old one off its device; holds
 *	a reference to the listener while queued, taken only while the
 *	listener has one left
 * @relisten_tries: attempts of @relisten_work since the address change
 * @device: the RDMA device of the connection
 * @port_num: the port the connection uses
 * @ib: PD, CQs and QP of the connection
 * @peer_pdata: RFC 8797 private data from the client (or the defaults)
 * @peer_pdata_sent: the client sent private data (@peer_pdata is its)
 * @local_pdata: private data we answered with
 * @remote_inv: the client accepts Send With Invalidate
 * @inline_send: largest reply (header included) we may Send inline
 * @recv_size: size of each Receive buffer: max_req_size, or less if
 *	the client said it sends less (rpcrdma_cm_recv_size())
 * @max_requests: the largest grant: the queues are sized for it
 * @grant: credits granted now, from SRDMA_GRANT_FLOOR up to @max_requests;
 *	raised by the Receive completion handler once the Receives for it
 *	are posted, lowered by it or by @grant_work; every change is made
 *	under @sendq.lock, and stamped into each reply as it is posted,
 *	under the same lock (srdma_send_post())
 * @lent: credits above the floor this connection took from the budget
 *	and holds: its grant less the floor, and a rise's credits while
 *	its Receives are being posted (a fall gives its credits back at
 *	once, srdma_grant_fall())
 * @last_call: when the last message came (jiffies; the Receive
 *	completion handler stores it, @grant_work reads it)
 * @grant_quiet: the quiet period (jiffies): a grant above the floor falls
 *	to it once no message came for this long; 0 never
 * @grant_work: checks, while the grant is above its floor, whether the
 *	connection has been quiet (srdma_grant_quiet_check())
 * @peer: its client's entry in the budget's table of peers
 * @calls_in: messages received (the Receive completion handler's count)
 * @calls_done: messages whose Receive buffer is free again
 * @held_peak: most messages held at once in the current window
 * @window_calls: Calls received in the current window
 * @recv_giveback: Receives of a fallen grant still to give back: the
 *	next Calls' Receives are not reposted (srdma_recv_refill())
 * @recv_trim: Receive buffers to free rather than keep, as nfsd releases
 *	them (under @rx_lock)
 * @ord: RDMA Reads we may have outstanding: the client's responder
 *	resources, our tunable and the device's limit, whichever is least
 * @max_send_sge: SGEs per Send work request
 * @sq_budget: Send Queue entries one post may reserve at most (the queue
 *	less the entry ib_drain_qp() needs and the @sendq.batch - 1 that
 *	unsignaled Work Requests may hold)
 * @sq_avail: Send Queue entries not in use
 * @sq_wait: where replies wait for @sq_avail
 * @sq_progress: when the Send Queue last retired an entry (jiffies)
 * @sq_stall_timeout: a reply that waited this long for room in all,
 *	whatever the Send Queue retired meanwhile, closes the connection
 * @sendq: Send contexts posted and not yet retired, oldest first; its
 *	lock is held across each post, so that the FIFO is in posting order
 *	when nfsd threads reply at once.  A Send is signaled once
 *	@sendq.batch - 1 were posted unsignaled (1: always)
 * @send_watching: @send_watch is queued or running, and looks at @sendq
 *	again until no completion is owed; under @sendq.lock
 * @send_timeout: the oldest Send owed a completion may go this long
 *	(jiffies) without it, the queue retiring nothing, before the
 *	connection is closed
 * @send_watch: closes the connection when a Send goes @send_timeout
 *	without completing (srdma_send_watch_check())
 * @rq_closed: the Receive Queue is being drained: post nothing more
 * @rx_lock: protects @rx_ready, @rx_reading, @rx_read_done, @rx_read_wait,
 *	@recv_free, @rq_closed, @read_retry and @read_watching
 * @rx_ready: completed Receives not yet handled by srdma_recvfrom()
 * @rx_reading: Calls whose RDMA Reads are posted and not yet completed,
 *	oldest first
 * @rx_read_done: Calls whose RDMA Reads have completed (or failed), for
 *	srdma_recvfrom() to finish; they come before @rx_ready
 * @rx_read_wait: Calls with Read chunks, decoded, held back until pages
 *	of Reads in flight come back (srdma_read_hold()), oldest first
 * @read_retry: pages came back since a held Call was last refused: the
 *	Calls on @rx_read_wait are to be tried again
 * @read_watching: @read_watch is queued or running, and looks at
 *	@rx_reading again until that is empty
 * @read_pages: pages of this connection's RDMA Reads in flight, from
 *	their allocation to their completion (srdma_read_charge())
 * @read_limit: most pages of RDMA Reads in flight, but one Call's Reads
 *	always go when none are (srdma_read_conn_limit())
 * @read_timeout: the oldest RDMA Read may go unanswered this long
 *	(jiffies) before the connection is closed
 * @read_watch: checks the age of the oldest RDMA Read while any is in
 *	flight (srdma_read_watch_check())
 * @read_stash: pages of released Calls, kept for the next Calls' Reads
 * @read_waiter: entry in the list of connections waiting for room in
 *	read_budget (read_budget.c), or empty
 * @recv_free: Receive buffers not posted
 * @recv_count: Receive buffers allocated (posted, queued or in use)
 * @recv_limit: most Receive buffers this connection may allocate
 * @recv_batch: consumed Receives are reposted this many at a time
 * @recv_owed: Receives consumed since the last batch was reposted (only
 *	the Receive completion handler, one completion at a time, uses it)
 * @recv_deficit: Receives not reposted because @recv_limit was reached;
 *	buffers nfsd releases are posted first while it is not zero
 * @send_lock: serialises the takers of @send_free (llist_del_first()
 *	allows one at a time) and protects @send_orphans and @read_orphans
 * @send_free: Send contexts not in use; added to without a lock
 * @send_orphans: Send contexts whose chain was posted only in part:
 *	their pages and mappings are released after the QP is drained
 * @read_orphans: Read states (struct srdma_read) whose chain was posted
 *	only in part, with their contexts and pages: released after the
 *	drain
 * @rw_lock: protects @rw_free and @rw_free_count
 * @rw_free: RDMA Read and Write contexts not in use
 * @rw_free_count: entries on @rw_free (at most 2 * @max_requests)
 * @peer_errors: malformed messages received on this connection
 * @cm_state: last connection event (RDMA_CM_EVENT_*), for tracing
 * @next_cid: completion IDs handed out on this connection, for tracing
 * @established: jiffies when the connection was accepted (never 0)
 * @conn: this connection's or listener's line in /proc/net/rpcrdma,
 *	from accept (or listen) to xpo_free
 *
 * The NFSv4.1 backchannel of a connection is @xprt.xpt_bc_xprt.
 */
struct srdma_xprt {
	struct svc_xprt xprt;
	struct rdma_cm_id *cm_id;

	spinlock_t accept_lock;	/* protects accept_q */
	struct list_head accept_q;
	struct list_head accept_node;
	struct sockaddr_storage listen_addr;
	struct delayed_work relisten_work;
	unsigned int relisten_tries;

	struct ib_device *device;
	u32 port_num;
	struct rpcrdma_ib ib;

	struct rpcrdma_cm_pdata peer_pdata;
	bool peer_pdata_sent;
	struct rpcrdma_cm_pdata local_pdata;
	bool remote_inv;
	unsigned int inline_send;
	unsigned int recv_size;
	unsigned int max_requests;
	unsigned int grant;
	atomic_t lent;
	struct srdma_peer *peer;
	unsigned int calls_in;
	unsigned long last_call;
	atomic_t calls_done;
	unsigned int held_peak;
	unsigned int window_calls;
	atomic_t recv_giveback;
	unsigned long grant_quiet;
	struct srdma_conn_check grant_work;
	unsigned int ord;
	unsigned int max_send_sge;

	unsigned int sq_budget;
	atomic_t sq_avail;
	wait_queue_head_t sq_wait;
	unsigned long sq_progress;
	unsigned long sq_stall_timeout;

	struct rpcrdma_sendq sendq;
	bool send_watching;
	unsigned long send_timeout;
	struct srdma_conn_check send_watch;

	bool rq_closed;
	spinlock_t rx_lock;	/* protects the Receive lists */
	struct list_head rx_ready;
	struct list_head rx_reading;
	struct list_head rx_read_done;
	struct list_head rx_read_wait;
	bool read_retry;
	bool read_watching;
	atomic_t read_pages;
	unsigned int read_limit;
	unsigned long read_timeout;
	struct srdma_conn_check read_watch;
	struct srdma_read_stash read_stash;
	struct list_head read_waiter;
	struct list_head recv_free;
	unsigned int recv_count;
	unsigned int recv_limit;
	unsigned int recv_batch;
	unsigned int recv_owed;
	unsigned int recv_deficit;
	unsigned int recv_trim;

	spinlock_t send_lock;	/* send_free's takers and the orphans */
	struct llist_head send_free;
	struct list_head send_orphans;
	struct list_head read_orphans;

	spinlock_t rw_lock;	/* protects rw_free */
	struct list_head rw_free;
	unsigned int rw_free_count;

	atomic_t peer_errors;
	int cm_state;
	atomic_t next_cid;
	unsigned long established;
	struct rpcrdma_conn conn;
};

static inline struct srdma_xprt *srdma_xprt(struct svc_xprt *xprt)
{
	return container_of(xprt, struct srdma_xprt, xprt);
}

/**
 * struct srdma_payload - one DDP-eligible result moved by RDMA Write
 * @offset: where the result starts in the reply (rq_res)
 * @length: its length in bytes, without XDR padding
 */
struct srdma_payload {
	unsigned int offset;
	unsigned int length;
};

/**
 * enum srdma_call_form - how a Call with Read chunks is laid out
 * @SRDMA_CALL_DATA_ITEM: one data item read to the start of rq_pages; the
 *	head and tail of the Call stay in the Receive buffer
 * @SRDMA_CALL_ASSEMBLED: the whole Call rebuilt in rq_pages
 */
enum srdma_call_form {
	SRDMA_CALL_DATA_ITEM,
	SRDMA_CALL_ASSEMBLED,
};

/**
 * enum srdma_piece_src - where one piece of a Call comes from
 * @SRDMA_PIECE_INLINE: copied from the inline part, from offset @from
 * @SRDMA_PIECE_CALL: RDMA Read from the position-zero chunk (Long Call),
 *	from offset @from
 * @SRDMA_PIECE_CHUNK: RDMA Read of the whole Read chunk number @chunk
 * @SRDMA_PIECE_PAD: zeroes: the XDR pad after Read chunk number @chunk
 */
enum srdma_piece_src {
	SRDMA_PIECE_INLINE,
	SRDMA_PIECE_CALL,
	SRDMA_PIECE_CHUNK,
	SRDMA_PIECE_PAD,
};

/**
 * struct srdma_piece - one contiguous piece of a Call in rq_pages
 * @src: where its bytes come from
 * @pos: its offset in rq_pages
 * @from: its offset in its source (@src INLINE or CALL)
 * @len: its length
 * @chunk: the Read chunk it belongs to (@src CHUNK or PAD)
 */
struct srdma_piece {
	enum srdma_piece_src src;
	unsigned int pos;
	unsigned int from;
	unsigned int len;
	unsigned int chunk;
};

/**
 * struct srdma_call_layout - where each byte of a Call goes (call_layout.c)
 * @form: data item, or assembled
 * @nr_pieces: entries of @pieces in use
 * @len: bytes of Call in rq_arg
 * @head_len: bytes of rq_arg's head: the Call up to the data item, or
 *	the first page of an assembled Call
 * @npages: pages of rq_pages the Call takes
 * @pieces: what goes in rq_pages, in order; last, so that a copy takes
 *	every other field and the pieces in use in one go
 */
struct srdma_call_layout {
	enum srdma_call_form form;
	unsigned int nr_pieces;
	unsigned int len;
	unsigned int head_len;
	unsigned int npages;
	struct srdma_piece pieces[3 * SRDMA_MAX_READ_CHUNKS + 1];
};

/* The reply message is rq_res minus the DDP payloads: at most this many runs. */
#define SRDMA_MAX_RUNS	(SRDMA_MAX_WRITE_CHUNKS + 1)

/**
 * struct srdma_reply - how one reply is built (reply_plan.c)
 * @used: payload i goes in Write chunk i
 * @written: bytes written into each Write chunk of the Call
 * @runs: the reply message: rq_res without the DDP payloads
 * @nr_runs: entries of @runs in use
 * @msg_len: bytes of reply message
 * @nomsg: the message goes in the Reply chunk (RDMA_NOMSG)
 */
struct srdma_reply {
	bool used[SRDMA_MAX_WRITE_CHUNKS];
	u32 written[SRDMA_MAX_WRITE_CHUNKS];
	struct {
		unsigned int start, end;
	} runs[SRDMA_MAX_RUNS];
	unsigned int nr_runs;
	unsigned int msg_len;
	bool nomsg;
};

/**
 * enum srdma_reply_form - how a reply message travels
 * @SRDMA_REPLY_INLINE: after an RDMA_MSG header in the Send
 * @SRDMA_REPLY_LONG: in the Call's Reply chunk, after an RDMA_NOMSG header
 * @SRDMA_REPLY_TOO_BIG: neither fits: the answer is ERR_CHUNK
 */
enum srdma_reply_form {
	SRDMA_REPLY_INLINE,
	SRDMA_REPLY_LONG,
	SRDMA_REPLY_TOO_BIG,
};

struct srdma_read;

/**
 * struct srdma_hdr_storage - list storage for a Call at the decoding limits
 * @chunks: Read chunks, then Write chunks and the Reply chunk
 * @segs: their segments
 */
struct srdma_hdr_storage {
	struct rpcrdma_chunk chunks[SRDMA_MAX_CHUNKS];
	struct rpcrdma_segment segs[SRDMA_MAX_SEGS];
};

/**
 * struct srdma_recv - one Receive buffer and the Call it carries
 * @node: entry in rx_ready, rx_reading, rx_read_done, rx_read_wait or
 *	recv_free
 * @sx: owning connection
 * @rb: the buffer (@sx->recv_size bytes, DMA mapped while it exists)
 *	and its Receive WR
 * @cid: its completion ID, for the trace
 * @byte_len: bytes received
 * @hdr: the decoded transport header
 * @chunks: storage for @hdr's chunks, unless @big is in use
 * @segs: storage for @hdr's segments, unless @big is in use
 * @big: storage for the largest lists a Call may carry, allocated for
 *	the first Call whose lists do not fit @chunks and @segs and used
 *	for every Call from then on (NULL until then)
 * @payloads: DDP results nfsd reported for the Write chunks, in order
 * @nr_payloads: entries of @payloads in use
 * @read: the RDMA Reads of the Call's chunks while they are in flight or
 *	waiting in rx_read_done; NULL otherwise
 * @read_spare: the state of an earlier Call's Reads, kept for the next
 *	Call with Read chunks this Receive brings (NULL if none): a
 *	connection that writes allocates it once per Receive, not per Call
 */
struct srdma_recv {
	struct list_head node;
	struct srdma_xprt *sx;
	struct rpcrdma_recv_buf rb;
	struct rpcrdma_cid cid;
	unsigned int byte_len;

	struct rpcrdma_hdr hdr;
	struct rpcrdma_chunk chunks[SRDMA_RECV_CHUNKS];
	struct rpcrdma_segment segs[SRDMA_RECV_SEGS];
	struct srdma_hdr_storage *big;

	struct srdma_payload payloads[SRDMA_MAX_WRITE_CHUNKS];
	unsigned int nr_payloads;

	struct srdma_read *read;
	struct srdma_read *read_spare;
};

/* Scatterlist entries a struct srdma_rw carries without an allocation. */
#define SRDMA_RW_INLINE_SGES	16
/* Entries of the table a context keeps once a segment needed one: a page. */
#define SRDMA_RW_KEPT_SGES	(PAGE_SIZE / sizeof(struct scatterlist))

/**
 * struct srdma_rw - one RDMA Read or Write between local memory and one
 *	remote segment
 * @node: entry in the owning Send context's (or Read's) list, or in the
 *	connection's @rw_free
 * @ctx: the rdma_rw context
 * @sgt: local memory: @inline_sgl; @kept_sgl when a segment spans more
 *	than SRDMA_RW_INLINE_SGES pieces and at most SRDMA_RW_KEPT_SGES; or a
 *	table allocated for a longer segment alone
 * @nents: entries of @sgt given to rdma_rw_ctx_init()
 * @dir: DMA_TO_DEVICE (Write) or DMA_FROM_DEVICE (Read)
 * @nr_wrs: work requests the context posts
 * @embedded: the context is part of its owner (the @rw of a struct
 *	srdma_send or srdma_read) and never goes on @rw_free
 * @busy: an embedded context is in use
 * @kept_sgl: SRDMA_RW_KEPT_SGES entries, allocated the first time a
 *	segment needed more than @inline_sgl and kept with the context until
 *	it is freed (srdma_rw_free_table()), so that the reads and writes of
 *	up to half a megabyte allocate nothing either; or NULL
 * @inline_sgl: scatterlist of a segment of at most SRDMA_RW_INLINE_SGES
 *	pieces, the common case (a 4 KiB write, a page-aligned reply)
 *
 * Contexts are recycled through the connection's @rw_free, so a Read or
 * Write of a small segment allocates nothing of ours; a Send context's
 * first Write and a Read state's first Read take the context their owner
 * carries, without that list's lock.
 */
struct srdma_rw {
	struct list_head node;
	struct rdma_rw_ctx ctx;
	struct sg_table sgt;
	unsigned int nents;
	enum dma_data_direction dir;
	unsigned int nr_wrs;
	bool embedded;
	bool busy;
	struct scatterlist *kept_sgl;
	struct scatterlist inline_sgl[SRDMA_RW_INLINE_SGES];
};

/**
 * struct srdma_read - the RDMA Reads of one Call, posted together
 * @cqe: completion of the last (signaled) Read
 * @cid: completion ID of @cqe, for the trace
 * @rc: the Call's Receive
 * @status: the completion's status
 * @posted: when the Reads were posted (only if svcrdma_wc_read is on)
 * @bytes: bytes the Reads move (only if svcrdma_wc_read is on)
 * @nr_wrs: Send Queue entries the Reads hold until they complete
 * @since: when the Reads were posted (jiffies), for srdma_read_watch_check()
 * @charged: pages counted against the connection's limit and read_budget
 *	until the Reads complete (srdma_read_charge()); 0 once given back
 * @rws: the Read contexts
 * @orphan: entry in the connection's @read_orphans if the Reads were
 *	posted only in part
 * @lo: where each byte of the Call goes
 * @rw: a Read context of its own, which the first segment takes
 * @max_pages: entries of @pages allocated (at least @lo.npages)
 * @nr_pages: pages held, at the start of @pages (the rest are NULL)
 * @pages: the pages the Call is rebuilt in (@lo.npages of them): rq_arg
 *	points into them from the Call's finish until nfsd releases it
 *
 * The nfsd thread that receives a Call with Read chunks posts the Reads
 * and goes on to other work; the completion queues the Call on
 * rx_read_done, and the next srdma_recvfrom() on the connection
 * finishes it.  So a few nfsd threads keep many Reads in flight, and no
 * page moves between threads.
 */
struct srdma_read {
	struct ib_cqe cqe;
	struct rpcrdma_cid cid;
	struct srdma_recv *rc;
	enum ib_wc_status status;
	ktime_t posted;
	unsigned int bytes;
	unsigned int nr_wrs;
	unsigned long since;
	unsigned int charged;
	struct list_head rws;
	struct list_head orphan;
	struct srdma_call_layout lo;
	struct srdma_rw rw;
	unsigned int max_pages;
	unsigned int nr_pages;
	struct page *pages[];
};

/* Pages a Read's state is allocated for at least: a Call of 64 KiB. */
#define SRDMA_READ_MIN_PAGES	17

/**
 * struct srdma_send - a Send and the RDMA Writes chained before it
 * @node: entry in send_orphans
 * @free_node: entry in send_free
 * @sx: owning connection
 * @wr: the Send work request
 * @cqe: its completion
 * @cid: its completion ID, for the trace
 * @hdr_buf: transport header, followed by the message where it is copied
 *	rather than gathered (SRDMA_MAX_HDR_SIZE bytes; @sx->inline_send
 *	once a copy has needed more)
 * @hdr_size: size of @hdr_buf
 * @hdr_dma: @hdr_buf's DMA mapping, made with the context and undone
 *	when it is freed (the connection is drained by then)
 * @sges: SGEs of @wr; its limit is the device's for the context's life:
 *	a message that must be copied takes srdma_send_build_copy()
 * @rws: RDMA Writes chained before @wr
 * @rw: a Write context of its own, which the first Write takes
 * @nr_wrs: work requests posted with this Send (Writes included)
 * @sqe: entry in the connection's @sendq while posted, until its
 *	completion or a later one retires it
 * @nr_pages: entries of @pages in use
 * @carries_grant: a reply or RDMA_ERROR: its header's credit field is
 *	stamped with the grant as it is posted (a backchannel Call's is not)
 * @pages: reply pages released when the Send is retired: as many as a
 *	thread's reply may hold, svc_serv_maxpages() of the service
 */
struct srdma_send {
	struct list_head node;
	struct llist_node free_node;
	struct srdma_xprt *sx;
	struct ib_send_wr wr;
	struct ib_cqe cqe;
	struct rpcrdma_cid cid;
	void *hdr_buf;
	unsigned int hdr_size;
	u64 hdr_dma;
	struct rpcrdma_send_sges sges;
	struct list_head rws;
	struct srdma_rw rw;
	unsigned int nr_wrs;
	struct rpcrdma_sendq_entry sqe;
	unsigned int nr_pages;
	bool carries_grant;
	struct page *pages[];
};

/**
 * enum srdma_fault - fault injection points (fault.c)
 * @SRDMA_FAIL_READ_CHUNKS: reading a Call's chunks fails with -ENOMEM
 * @SRDMA_FAIL_SEND: building a reply fails with -ENOMEM
 * @SRDMA_FAIL_MAX: number of points
 */
enum srdma_fault {
	SRDMA_FAIL_READ_CHUNKS,
	SRDMA_FAIL_SEND,
	SRDMA_FAIL_MAX
};

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
bool srdma_should_fail(enum srdma_fault point);
void srdma_fault_init(void);
void srdma_fault_exit(void);
#else
static inline bool srdma_should_fail(enum srdma_fault point)
{
	return false;
}

static inline void srdma_fault_init(void)
{
}

static inline void srdma_fault_exit(void)
{
}
#endif

/* transport.c */
extern struct svc_xprt_class srdma_class;
void srdma_close(struct srdma_xprt *sx, const char *why);
void srdma_requeue(struct srdma_xprt *sx);

/* connect.c */
struct svc_xprt *srdma_create_listener(struct svc_serv *serv, struct net *net,
				       struct sockaddr *sa, int salen,
				       int flags);
struct svc_xprt *srdma_accept(struct svc_xprt *listener);
void srdma_detach(struct svc_xprt *xprt);
void srdma_free(struct svc_xprt *xprt);
#if IS_ENABLED(CONFIG_KUNIT)
int srdma_cm_listen_handler(struct rdma_cm_id *id,
			    struct rdma_cm_event *event);
#endif

/* conn_check.c */
void srdma_conn_check_init(struct srdma_conn_check *c, struct srdma_xprt *sx,
			   srdma_conn_check_fn check);
void srdma_conn_check_start(struct srdma_conn_check *c, unsigned long delay);
void srdma_conn_check_stop(struct srdma_conn_check *c);

/* call_layout.c */
int srdma_call_layout(const struct rpcrdma_chunk_lists *cl, u32 proc,
		      unsigned int inline_len, unsigned int max_mesg,
		      struct srdma_call_layout *lo);
void srdma_call_layout_copy(struct srdma_call_layout *dst,
			    const struct srdma_call_layout *src);

/**
 * srdma_data_item_pages - check a data item against the Call it is in
 * @c: the one Read chunk of an RDMA_MSG (an NFS WRITE's payload)
 * @inline_len: bytes of Payload stream received inline
 * @max_mesg: the largest Call the service takes (sv_max_mesg)
 *
 * Inline: the server's Read path plans an NFS WRITE with this and
 * srdma_layout_data_item() straight into the Read's state.
 *
 * Return: the pages the chunk and its XDR pad take; -EINVAL if its
 * position lies past the inline part; -EMSGSIZE if the Call would be
 * larger than @max_mesg.
 */
static __always_inline int
srdma_data_item_pages(const struct rpcrdma_chunk *c, unsigned int inline_len,
		      unsigned int max_mesg)
{
	u64 len = xdr_align_size((u64)c->length);

	if (c->position > inline_len)
		return -EINVAL;
	if (len + inline_len > max_mesg)
		return -EMSGSIZE;
	return DIV_ROUND_UP((unsigned int)len, PAGE_SIZE);
}

/**
 * srdma_layout_data_item - plan a data item: head and tail stay inline
 * @lo: the plan to write
 * @c: the chunk, checked by srdma_data_item_pages()
 * @inline_len: bytes of Payload stream received inline
 * @npages: what srdma_data_item_pages() returned
 *
 * The chunk is read to the start of the pages and followed by its XDR
 * pad, in zeroes; the Call's head is the inline part up to the chunk's
 * position, its tail the rest.
 */
static __always_inline void
srdma_layout_data_item(struct srdma_call_layout *lo,
		       const struct rpcrdma_chunk *c, unsigned int inline_len,
		       unsigned int npages)
{
	unsigned int pad = xdr_pad_size(c->length);

	lo->form = SRDMA_CALL_DATA_ITEM;
	lo->head_len = c->position;
	lo->len = inline_len + c->length + pad;
	lo->npages = npages;
	lo->nr_pieces = 0;
	if (!c->length)
		return;
	lo->pieces[0] = (struct srdma_piece){
		.src = SRDMA_PIECE_CHUNK, .len = c->length,
	};
	lo->nr_pieces = 1;
	if (pad) {
		lo->pieces[1] = (struct srdma_piece){
			.src = SRDMA_PIECE_PAD, .pos = c->length, .len = pad,
		};
		lo->nr_pieces = 2;
	}
}

/* credits.c */
/**
 * srdma_grant - the credits a reply grants
 * @sx: the connection
 *
 * Return: the grant, whose Receives are posted.
 */
static inline u32 srdma_grant(const struct srdma_xprt *sx)
{
	/* Pairs with the release in srdma_grant_grow(). */
	return smp_load_acquire(&sx->grant);
}

/**
 * srdma_grant_floor - the smallest grant of a connection
 * @sx: the connection
 *
 * Return: SRDMA_GRANT_FLOOR, or less if the queues are sized for less.
 */
static inline unsigned int srdma_grant_floor(const struct srdma_xprt *sx)
{
	return min_t(unsigned int, sx->max_requests, SRDMA_GRANT_FLOOR);
}

extern unsigned long srdma_share_until;

/**
 * srdma_grant_sharing - the spent credit budget is being shared out
 *
 * Return: true for a second after a connection whose client held no
 * more than its share was refused credits (srdma_grant_take()).
 */
static inline bool srdma_grant_sharing(void)
{
	unsigned long until = READ_ONCE(srdma_share_until);

	return until && time_before(jiffies, until);
}

int srdma_grant_init(struct srdma_xprt *sx, unsigned int max);
void srdma_share_key_inet(const struct sockaddr *sap, unsigned int prefix4,
			  unsigned int prefix6, struct srdma_share_key *key);
void srdma_share_key_ib(u32 lid, struct srdma_share_key *key);
void srdma_share_key_name(const struct srdma_share_key *key, char *buf,
			  size_t len);
unsigned int srdma_share_clients(void);
void srdma_grant_share(const struct srdma_xprt *sx,
		       struct srdma_grant_view *v);
bool srdma_grant_take(struct srdma_xprt *sx, unsigned int n);
void srdma_grant_give(struct srdma_xprt *sx, unsigned int n);
unsigned int srdma_grant_fall(struct srdma_xprt *sx, unsigned int by,
			      unsigned int held, enum srdma_grant_step why);
unsigned int srdma_grant_quiet(unsigned long last_call, unsigned long now,
			       unsigned long quiet, unsigned int grant,
			       unsigned int floor);
unsigned long srdma_grant_quiet_check(struct srdma_xprt *sx,
				      unsigned long now);
void srdma_grant_quiet_arm(struct srdma_xprt *sx);
void srdma_grant_release(struct srdma_xprt *sx);
enum srdma_grant_step srdma_grant_step(const struct srdma_grant_view *v);

/* reply_plan.c */
int srdma_reply_plan(const struct rpcrdma_chunk_lists *call,
		     const struct srdma_payload *payloads,
		     unsigned int nr_payloads, unsigned int res_len,
		     struct srdma_reply *rp);
enum srdma_reply_form srdma_reply_form(unsigned int hdr_len,
				       unsigned int msg_len,
				       unsigned int inline_send,
				       const struct rpcrdma_chunk_lists *call);

/**
 * srdma_reply_inv_rkey - the registration a Send With Invalidate retires
 * @remote_inv: the client accepts Send With Invalidate
 * @call: the Call's decoded chunk lists
 * @rkey: set to the handle to invalidate
 *
 * The first Write chunk's, else the Reply chunk's, else the first Read
 * chunk's first segment: a handle the client registered for this Call,
 * which it would otherwise have to invalidate itself.  Inline: every
 * reply asks.
 *
 * Return: true if the Send should invalidate @rkey.
 */
static inline bool srdma_reply_inv_rkey(bool remote_inv,
					const struct rpcrdma_chunk_lists *call,
					u32 *rkey)
{
	const struct rpcrdma_chunk *c = NULL;

	if (!remote_inv)
		return false;
	if (call->nr_write_chunks)
		c = &call->write[0];
	else if (call->has_reply)
		c = &call->reply;
	else if (call->nr_read_chunks)
		c = &call->read[0];
	if (!c || !c->nsegs)
		return false;
	*rkey = c->segs[0].handle;
	return true;
}

/* recv.c */
int srdma_recv_post_initial(struct srdma_xprt *sx, unsigned int count);
void srdma_recv_release_reads(struct srdma_xprt *sx);
void srdma_recv_destroy_all(struct srdma_xprt *sx);
int srdma_recvfrom(struct svc_rqst *rqstp);
void srdma_release_ctxt(struct svc_xprt *xprt, void *ctxt);
void srdma_peer_error(struct srdma_xprt *sx, struct srdma_recv *rc,
		      bool answer, enum rpcrdma_wire_err err);
#if IS_ENABLED(CONFIG_KUNIT)
void srdma_recv_hdr_init(struct srdma_recv *rc);
enum rpcrdma_wire_err srdma_decode(struct srdma_recv *rc);
struct srdma_recv *srdma_next_recv(struct srdma_xprt *sx, bool *held);
#endif

/* read.c */
int srdma_read_start(struct srdma_xprt *sx, struct srdma_recv *rc,
		     bool retried);
int srdma_read_finish(struct srdma_xprt *sx, struct svc_rqst *rqstp,
		      struct srdma_recv *rc);
void srdma_read_release(struct srdma_xprt *sx, struct srdma_read *rd);
void srdma_read_release_orphans(struct srdma_xprt *sx);
void srdma_read_drop_pages(struct srdma_read *rd);
void srdma_read_free(struct srdma_read *rd);
void srdma_read_recycle_pages(struct srdma_xprt *sx, struct srdma_read *rd);
#if IS_ENABLED(CONFIG_KUNIT)
struct srdma_read *srdma_read_get(struct srdma_recv *rc,
				  const struct srdma_call_layout *lo);
void srdma_read_put(struct srdma_recv *rc, struct srdma_read *rd);
void srdma_read_orphan(struct srdma_xprt *sx, struct srdma_read *rd);
void srdma_read_done(struct ib_cq *cq, struct ib_wc *wc);
#endif

/* read_budget.c */
/**
 * enum srdma_read_verdict - whether a Call's RDMA Reads may start
 * @SRDMA_READ_GO: they may: their pages are counted
 * @SRDMA_READ_CONN_FULL: the connection's Reads in flight would pass its
 *	limit (@read_limit): the Call waits for some of them to complete
 * @SRDMA_READ_SERVER_FULL: all connections' Reads in flight would pass
 *	read_budget: the Call waits for Reads of any connection to complete
 * @SRDMA_READ_QUEUED: Calls of the connection are held already: this one
 *	waits behind them, untried
 */
enum srdma_read_verdict {
	SRDMA_READ_GO,
	SRDMA_READ_CONN_FULL,
	SRDMA_READ_SERVER_FULL,
	SRDMA_READ_QUEUED,
};

/**
 * srdma_read_fits - may Reads of @npages pages join those in flight?
 * @npages: pages of the Call's Reads
 * @in_flight: pages of Reads in flight already, without these
 * @limit: most pages in flight
 *
 * A Call whose pages alone pass @limit still goes when nothing else is
 * in flight: else it could never go; one with no pages always goes.
 * Inline: every Call with Read chunks asks, twice.
 *
 * Return: true if the Reads may start.
 */
static inline bool srdma_read_fits(unsigned long npages,
				   unsigned long in_flight,
				   unsigned long limit)
{
	return !npages || !in_flight ||
	       (in_flight < limit && npages <= limit - in_flight);
}

enum srdma_read_verdict srdma_read_admit(unsigned int npages,
					 unsigned int conn_pages,
					 unsigned int conn_limit,
					 unsigned long server_pages,
					 unsigned long server_limit);
unsigned int srdma_read_conn_limit(unsigned int ord, unsigned int read_sges,
				   unsigned int max_mesg);
unsigned long srdma_read_time_left(unsigned long since, unsigned long now,
				   unsigned long bound);
enum srdma_read_verdict srdma_read_charge(struct srdma_xprt *sx,
					  unsigned int npages);
void srdma_read_uncharge(struct srdma_xprt *sx, unsigned int npages);
void srdma_read_hold(struct srdma_xprt *sx, struct srdma_recv *rc,
		     unsigned int npages, enum srdma_read_verdict why,
		     bool retried);
void srdma_read_kick(struct srdma_xprt *sx);
void srdma_read_watch_start(struct srdma_xprt *sx);
void srdma_read_budget_init(struct srdma_xprt *sx);
void srdma_read_budget_exit(struct srdma_xprt *sx);
unsigned long srdma_read_pages_in_flight(void);
#if IS_ENABLED(CONFIG_KUNIT)
unsigned long srdma_read_watch_check(struct srdma_xprt *sx,
				     unsigned long now);
#endif

/* read_stash.c */
void srdma_read_stash_init(struct srdma_xprt *sx);
int srdma_read_stash_setup(struct srdma_xprt *sx, unsigned int max);
unsigned int srdma_read_stash_take(struct srdma_xprt *sx, struct page **pages,
				   unsigned int n);
unsigned int srdma_read_stash_give(struct srdma_xprt *sx, struct page **pages,
				   unsigned int n);
void srdma_read_stash_exit(struct srdma_xprt *sx);
#if IS_ENABLED(CONFIG_KUNIT)
unsigned long srdma_read_stash_check(struct srdma_xprt *sx,
				     unsigned long now);
#endif

/* send_watch.c */
void srdma_send_watch_start(struct srdma_xprt *sx);
void srdma_send_watch_init(struct srdma_xprt *sx);
void srdma_send_watch_exit(struct srdma_xprt *sx);
#if IS_ENABLED(CONFIG_KUNIT)
unsigned long srdma_send_watch_left(unsigned long posted,
				    unsigned long progress,
				    unsigned long now, unsigned long bound);
unsigned long srdma_send_watch_check(struct srdma_xprt *sx,
				     unsigned long now);
#endif

/* rw.c */
int srdma_rw_chunk(struct srdma_xprt *sx, struct list_head *rws,
		   struct srdma_rw *spare, const struct xdr_buf *xdr,
		   unsigned int offset, unsigned int len,
		   const struct rpcrdma_chunk *chunk, unsigned int chunk_off,
		   enum dma_data_direction dir);
void srdma_rw_init_embedded(struct srdma_rw *rw);
void srdma_rw_free_table(struct srdma_rw *rw);
int srdma_rw_segments(struct srdma_xprt *sx, struct list_head *rws,
		      struct srdma_rw *spare, const struct xdr_buf *xdr,
		      struct page **pages, unsigned int offset,
		      unsigned int len, const struct rpcrdma_chunk *chunk,
		      unsigned int chunk_off, enum dma_data_direction dir);

/**
 * srdma_rw_read_pages - prepare reading the segments of a chunk into pages
 * @sx: the connection
 * @rws: list the contexts are added to
 * @spare: the owner's own context (a Read state's), used first while it
 *	is free, or NULL
 * @pages: local memory, a page vector
 * @pos: where the first byte lands, counted from the start of @pages[0]
 * @len: bytes to read
 * @chunk: the remote chunk
 * @chunk_off: bytes of @chunk to skip
 *
 * srdma_rw_chunk() with DMA_FROM_DEVICE, for memory that is pages alone.
 * Inline: every Call with a Read chunk reads through it.
 *
 * Return: 0; -EMSGSIZE if the bytes do not fit in @chunk; or -errno.
 */
static inline int srdma_rw_read_pages(struct srdma_xprt *sx,
				      struct list_head *rws,
				      struct srdma_rw *spare,
				      struct page **pages, unsigned int pos,
				      unsigned int len,
				      const struct rpcrdma_chunk *chunk,
				      unsigned int chunk_off)
{
	return srdma_rw_segments(sx, rws, spare, NULL, pages, pos, len, chunk,
				 chunk_off, DMA_FROM_DEVICE);
}

void __srdma_rw_destroy_list(struct srdma_xprt *sx, struct list_head *rws);

/**
 * srdma_rw_destroy_list - release every context on a list
 * @sx: the connection
 * @rws: list of struct srdma_rw
 *
 * Inline for the empty list of most Send contexts: no call then.
 */
static inline void srdma_rw_destroy_list(struct srdma_xprt *sx,
					 struct list_head *rws)
{
	if (!list_empty(rws))
		__srdma_rw_destroy_list(sx, rws);
}

void srdma_rw_cache_destroy(struct srdma_xprt *sx);
#if IS_ENABLED(CONFIG_KUNIT)
struct srdma_rw *srdma_rw_get(struct srdma_xprt *sx, struct srdma_rw *spare,
			      unsigned int nents);
void srdma_rw_put(struct srdma_xprt *sx, struct srdma_rw *rw);
bool srdma_rw_fill_sg(struct scatterlist *sgl, unsigned int nents,
		      const struct rpcrdma_xdr_part *part, int nparts);
void srdma_rw_fill_pages(struct scatterlist *sgl, struct page **pages,
			 unsigned int pos, unsigned int len);
bool srdma_rw_in_pages(const struct xdr_buf *xdr, unsigned int offset,
		       unsigned int len, unsigned int *pos);
#endif
struct ib_send_wr *srdma_rw_chain(struct srdma_xprt *sx,
				  struct list_head *rws, struct ib_cqe *cqe,
				  struct ib_send_wr *next, unsigned int *nr_wrs);

/**
 * enum srdma_sq_verdict - how a wait for Send Queue room stands
 * @SRDMA_SQ_WAIT: the wait is within its bound: go on waiting
 * @SRDMA_SQ_STALLED: the bound is reached and the queue retired nothing
 *	since the wait began
 * @SRDMA_SQ_SLOW: the bound is reached and the queue retired entries,
 *	too few to leave room
 */
enum srdma_sq_verdict {
	SRDMA_SQ_WAIT,
	SRDMA_SQ_STALLED,
	SRDMA_SQ_SLOW,
};

int srdma_sq_reserve_wait(struct srdma_xprt *sx, unsigned int n,
			  const struct rpcrdma_cid *cid);
#if IS_ENABLED(CONFIG_KUNIT)
enum srdma_sq_verdict srdma_sq_wait_verdict(unsigned long since,
					    unsigned long now,
					    unsigned long last,
					    unsigned long bound);
#endif

/**
 * srdma_sq_release - return Send Queue entries
 * @sx: the connection
 * @n: work requests that completed (or were never posted)
 *
 * Inline: every Read's completion and every batch of Sends returns some.
 */
static inline void srdma_sq_release(struct srdma_xprt *sx, unsigned int n)
{
	unsigned long now = jiffies;

	/* One store per tick at most: the line is shared with posters. */
	if (READ_ONCE(sx->sq_progress) != now)
		WRITE_ONCE(sx->sq_progress, now);
	atomic_add(n, &sx->sq_avail);
	if (wq_has_sleeper(&sx->sq_wait))
		wake_up(&sx->sq_wait);
}

/**
 * srdma_sq_reserve - reserve Send Queue entries
 * @sx: the connection
 * @n: work requests about to be posted
 * @cid: completion ID of the work requests, for the trace
 *
 * Takes @n entries if the queue has them; otherwise waits for them in
 * srdma_sq_reserve_wait(), which says how that wait ends.
 *
 * Return: 0, or -errno from srdma_sq_reserve_wait().
 */
static inline int srdma_sq_reserve(struct srdma_xprt *sx, unsigned int n,
				   const struct rpcrdma_cid *cid)
{
	if (likely(n <= sx->sq_budget &&
		   atomic_sub_return(n, &sx->sq_avail) >= 0))
		return 0;
	return srdma_sq_reserve_wait(sx, n, cid);
}

/* send.c */
struct srdma_send *srdma_send_get(struct srdma_xprt *sx);
void srdma_send_put(struct srdma_send *sc);
void srdma_send_destroy_all(struct srdma_xprt *sx);
void srdma_send_release_orphans(struct srdma_xprt *sx);
void srdma_sendq_retire_all(struct srdma_xprt *sx);
void srdma_send_hdr_stream(struct srdma_send *sc, struct xdr_stream *xdr,
			   struct xdr_buf *hbuf);
int srdma_send_build(struct srdma_send *sc, unsigned int hdr_len,
		     const struct xdr_buf *msg, unsigned int split,
		     unsigned int resume);
int srdma_send_build_copy(struct srdma_send *sc, unsigned int hdr_len,
			  const struct xdr_buf *msg);
int srdma_send_post(struct srdma_send *sc);
int srdma_sendto(struct svc_rqst *rqstp);
int srdma_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			 unsigned int length);
int srdma_send_error(struct srdma_xprt *sx, __be32 xid, u32 err);
#if IS_ENABLED(CONFIG_KUNIT)
int srdma_reply_build_plain(struct srdma_xprt *sx, struct srdma_send *sc,
			    struct srdma_recv *rc, const struct xdr_buf *res,
			    struct srdma_reply *rp);
int srdma_reply_build_chunked(struct srdma_xprt *sx, struct srdma_send *sc,
			      struct srdma_recv *rc,
			      const struct xdr_buf *res,
			      struct srdma_reply *rp);
#endif

/* backchannel.c */
int srdma_bc_register(void);
void srdma_bc_unregister(void);
#if IS_ENABLED(CONFIG_KUNIT)
int srdma_bc_build_call(struct srdma_send *sc, __be32 xid,
			const struct xdr_buf *msg);
#endif

/**
 * srdma_bc_is_reply - does a received message carry a backchannel Reply?
 * @rc: a decoded RDMA_MSG or RDMA_NOMSG
 *
 * Inline: every Call received is asked.
 *
 * Return: true if the inline RPC message is a Reply (msg_type 1).
 */
static inline bool srdma_bc_is_reply(const struct srdma_recv *rc)
{
	const __be32 *p = rc->rb.buf + rc->hdr.hdr_len;

	return rc->hdr.proc == RPCRDMA_MSG &&
	       rc->hdr.inline_len >= 2 * XDR_UNIT && p[1] == rpc_reply;
}

void srdma_bc_receive_reply(struct srdma_xprt *sx, struct srdma_recv *rc);

/* sysctl.c */
int srdma_sysctl_register(void);
void srdma_sysctl_unregister(void);

#endif /* _SVCRDMA_SERVER_H */
