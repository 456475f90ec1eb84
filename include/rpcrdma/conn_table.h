/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/net/rpcrdma: one line per connection of either role.
 *
 * Each client transport and each server connection or listener embeds a
 * struct rpcrdma_conn for its life, from set-up to just before it is
 * freed.  The table (common/conn_table.c) owns the list; the role owns
 * the counters' meaning and fills in a struct rpcrdma_conn_info when the
 * file is read.
 */
#ifndef _RPCRDMA_CONN_TABLE_H
#define _RPCRDMA_CONN_TABLE_H

#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/socket.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

struct net;
struct rpcrdma_conn;

/**
 * struct rpcrdma_conn_info - what one line shows besides the counters
 * @role: "client", "server" or "listener"
 * @state: "connected", "connecting", "idle", "listening" or "closing"
 * @local: local address and port (AF_UNSPEC: not known)
 * @peer: peer address and port (AF_UNSPEC: none)
 * @since: jiffies when the current connection was established, 0 if
 *	there is none
 * @credits: credits granted (server) or granted to us (client)
 * @in_use: credits in use: calls sent and not answered (client), calls
 *	received and not yet answered (server)
 * @inline_send: largest message sent with RDMA Send
 * @inline_recv: largest message received with RDMA Send
 * @ord: RDMA Reads this side may have in flight (initiator depth)
 * @ird: RDMA Reads the peer may have in flight against us
 * @sq_depth: Send Queue work requests this side uses
 * @reconnects: connections after the first (client), -1 when the role
 *	has none (server)
 * @read_pages: pages of RDMA Reads in flight (server), -1 when the role
 *	has none (client, listener)
 */
struct rpcrdma_conn_info {
	const char *role;
	const char *state;
	struct sockaddr_storage local;
	struct sockaddr_storage peer;
	unsigned long since;
	unsigned int credits;
	unsigned int in_use;
	unsigned int inline_send;
	unsigned int inline_recv;
	unsigned int ord;
	unsigned int ird;
	unsigned int sq_depth;
	long reconnects;
	long read_pages;
};

/**
 * enum rpcrdma_conn_why - what the reason for a disconnect names
 * @RPCRDMA_WHY_NONE: no disconnect yet
 * @RPCRDMA_WHY_CM: an RDMA-CM event (@code: RDMA_CM_EVENT_*)
 * @RPCRDMA_WHY_WC: a work completion's status (@code: IB_WC_*)
 * @RPCRDMA_WHY_QP: an asynchronous event of the queue pair (@code:
 *	IB_EVENT_*)
 * @RPCRDMA_WHY_LOCAL: this side's own decision (@text says which)
 */
enum rpcrdma_conn_why {
	RPCRDMA_WHY_NONE,
	RPCRDMA_WHY_CM,
	RPCRDMA_WHY_WC,
	RPCRDMA_WHY_QP,
	RPCRDMA_WHY_LOCAL,
};

/**
 * struct rpcrdma_conn - a connection as /proc/net/rpcrdma sees it
 * @node: entry in the table (under the table's mutex)
 * @net: network namespace whose file lists it
 * @fill: fills in @info; called under the table's mutex, may sleep, must
 *	not wait for anything that waits for the table
 * @sq_waits: times a sender waited for Send Queue room
 * @rnr_errs: completions with IB_WC_RNR_RETRY_EXC_ERR
 * @retry_errs: completions with IB_WC_RETRY_EXC_ERR
 * @flushed: completions flushed (IB_WC_WR_FLUSH_ERR)
 * @why_lock: protects the four fields below
 * @why_armed: no cause noted since the connection came up
 * @why: what the first cause of the last disconnect names
 * @why_code: the RDMA-CM event, completion status or QP event
 * @why_text: for RPCRDMA_WHY_LOCAL, the reason (static storage)
 */
struct rpcrdma_conn {
	struct list_head node;
	struct net *net;
	void (*fill)(struct rpcrdma_conn *c, struct rpcrdma_conn_info *info);
	atomic_long_t sq_waits;
	atomic_long_t rnr_errs;
	atomic_long_t retry_errs;
	atomic_long_t flushed;
	spinlock_t why_lock;	/* @why_armed, @why, @why_code, @why_text */
	bool why_armed;
	enum rpcrdma_conn_why why;
	int why_code;
	const char *why_text;
};

void rpcrdma_conn_init(struct rpcrdma_conn *c);
void rpcrdma_conn_add(struct rpcrdma_conn *c, struct net *net,
		      void (*fill)(struct rpcrdma_conn *c,
				   struct rpcrdma_conn_info *info));
void rpcrdma_conn_del(struct rpcrdma_conn *c);
void rpcrdma_conn_why(struct rpcrdma_conn *c, enum rpcrdma_conn_why why,
		      int code, const char *text);
void rpcrdma_conn_up(struct rpcrdma_conn *c);
int rpcrdma_conn_table_init(void);
void rpcrdma_conn_table_exit(void);

/**
 * rpcrdma_conn_wc - count a failed completion
 * @c: the connection it belongs to
 * @wc: the completion; its status is not IB_WC_SUCCESS
 *
 * A flushed completion only counts: the disconnect had another cause.
 */
static inline void rpcrdma_conn_wc(struct rpcrdma_conn *c,
				   const struct ib_wc *wc)
{
	switch (wc->status) {
	case IB_WC_WR_FLUSH_ERR:
		atomic_long_inc(&c->flushed);
		return;
	case IB_WC_RNR_RETRY_EXC_ERR:
		atomic_long_inc(&c->rnr_errs);
		break;
	case IB_WC_RETRY_EXC_ERR:
		atomic_long_inc(&c->retry_errs);
		break;
	default:
		break;
	}
	rpcrdma_conn_why(c, RPCRDMA_WHY_WC, wc->status, NULL);
}

#endif /* _RPCRDMA_CONN_TABLE_H */
