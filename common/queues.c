// SPDX-License-Identifier: GPL-2.0
/*
 * Queue sizing for the client and the server.
 *
 * Every queue must fit the device: a Send or Receive Queue holds at most
 * max_qp_wr entries and a completion queue at most max_cqe.  Each queue
 * keeps one entry for ib_drain_qp(), without which teardown cannot know
 * that the device is done with our memory.  On the server, rdma_rw adds
 * its own Send Queue entries (an RDMA Read or Write per context, plus a
 * FastReg and a LocalInv when it registers memory) to what we ask for
 * when the QP is created, so our request must leave room for them.
 *
 * When a device is too small for the credits wanted, the credits shrink
 * (never the per-RPC resources, which a single RPC may need in full);
 * a device that cannot carry one RPC is refused with -EOPNOTSUPP.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <rdma/ib_verbs.h>
#include <rdma/rw.h>

#include "rpcrdma/queues.h"

/* Receives the client posts beyond its credits and backchannel Calls. */
#define RPCRDMA_CLIENT_RECV_SLACK	2

/* One entry of each queue and completion queue for ib_drain_qp(). */
#define RPCRDMA_DRAIN_WRS		1

/*
 * Full-size payloads of rdma_rw contexts the server sizes its Send Queue
 * for, per credit.  An RPC may carry a Read, a Write and a Reply chunk,
 * but rarely more than one of them is large, and an RPC that needs more
 * than its share waits for room (srdma_sq_reserve()) instead of
 * overflowing the queue.  Three per credit tripled every connection's
 * Send Queue for no measured gain.
 */
#define RPCRDMA_SERVER_PAYLOADS_PER_CREDIT	1

/*
 * The client asks for a Send completion once per this fraction of its
 * slots, and at most once per RPCRDMA_CLIENT_SEND_BATCH_MAX Sends.  A
 * finished RPC whose Send is not signaled keeps its slot until a later
 * signaled Send completes, so at most send_batch - 1 slots wait on a
 * Send that may not come soon: an eighth of them, and the rest serve.
 */
#define RPCRDMA_CLIENT_SEND_BATCH_SHIFT	3
#define RPCRDMA_CLIENT_SEND_BATCH_MAX	16

/*
 * The server asks for a Send completion once per this fraction of its
 * credits, and at least once per RPCRDMA_SERVER_SEND_BATCH_MAX Sends.
 * The Send Queue gets one entry fewer than the batch on top of the rest:
 * the Work Requests posted unsignaled since the last signaled Send hold
 * them until a later one completes.  A post never reserves them, so it
 * never waits for a signaled Send that nobody can post.
 */
#define RPCRDMA_SERVER_SEND_BATCH_SHIFT	3
#define RPCRDMA_SERVER_SEND_BATCH_MAX	16

/*
 * Both roles repost their Receives in batches of this fraction of their
 * credits, at most RPCRDMA_RECV_BATCH_MAX: one ib_post_recv() per batch
 * instead of one per message.  The Receives that wait for the rest of
 * their batch are covered by as many more posted up front (recv_batch -
 * 1), so every credit stays backed by a posted Receive.
 */
#define RPCRDMA_RECV_BATCH_SHIFT	3
#define RPCRDMA_RECV_BATCH_MAX		16

/*
 * The queue entries a batch of @credits >> @shift (at least 1, at most
 * @max) needs beyond one per credit: one fewer than the batch, and no
 * more than the @room the device has left.  The batch is the slack + 1.
 */
static u32 rpcrdma_batch_slack(u32 credits, unsigned int shift, u32 max,
			       u32 room)
{
	return min(clamp(credits >> shift, 1U, max) - 1, room);
}

/**
 * rpcrdma_dev_limits_get - read a device's limits for sizing
 * @device: the device a connection is on
 * @port_num: its port
 * @max_payload_pages: pages of the largest payload one chunk moves
 * @lim: filled in
 */
void rpcrdma_dev_limits_get(struct ib_device *device, u32 port_num,
			    u32 max_payload_pages,
			    struct rpcrdma_dev_limits *lim)
{
	const struct ib_device_attr *attrs = &device->attrs;

	lim->max_qp_wr = attrs->max_qp_wr;
	lim->max_cqe = attrs->max_cqe;
	lim->max_send_sge = attrs->max_send_sge;
	lim->max_init_rd_atom = attrs->max_qp_init_rd_atom;
	lim->max_fr_pages = attrs->device_cap_flags &
			    IB_DEVICE_MEM_MGT_EXTENSIONS ?
			    attrs->max_fast_reg_page_list_len : 0;
	lim->rw_wrs_per_ctx = rdma_rw_max_send_wr(device, port_num, 1, 0);
	lim->rw_mr_factor = rdma_rw_mr_factor(device, port_num,
					      max_payload_pages);
}

/* The most entries one queue and its completion queue may both hold. */
static u32 rpcrdma_queue_limit(const struct rpcrdma_dev_limits *lim)
{
	return min(lim->max_qp_wr, lim->max_cqe);
}

/**
 * rpcrdma_size_client - size a client connection
 * @lim: the device
 * @slots: credits wanted (the transport's RPC slots)
 * @max_mrs: MRs one RPC may register
 * @bc_requests: backchannel Calls the server may have outstanding
 * @max_pages: pages one MR should map at most
 * @max_sges: SGEs per Send the transport can use at most
 * @q: filled in
 *
 * Return: 0, or -EOPNOTSUPP if the device cannot carry one RPC (no
 * FRWR, no Send SGE, or queues too small).
 */
int rpcrdma_size_client(const struct rpcrdma_dev_limits *lim, u32 slots,
			u32 max_mrs, u32 bc_requests, u32 max_pages,
			u32 max_sges, struct rpcrdma_client_queues *q)
{
	u32 per_rpc = RPCRDMA_CLIENT_WRS_PER_RPC(max_mrs);
	u32 limit = rpcrdma_queue_limit(lim);
	u32 rslack;
	u32 fixed_sq = bc_requests + RPCRDMA_DRAIN_WRS;
	u32 fixed_rq = bc_requests + RPCRDMA_CLIENT_RECV_SLACK +
		       RPCRDMA_DRAIN_WRS;

	if (lim->max_fr_pages < 2 || !lim->max_send_sge || !slots)
		return -EOPNOTSUPP;
	if (limit < fixed_sq + per_rpc || limit < fixed_rq + 1)
		return -EOPNOTSUPP;

	q->max_requests = min3(slots, (limit - fixed_sq) / per_rpc,
			       limit - fixed_rq);
	q->send_wr = q->max_requests * per_rpc + fixed_sq;
	q->send_cqe = q->send_wr;
	rslack = rpcrdma_batch_slack(q->max_requests, RPCRDMA_RECV_BATCH_SHIFT,
				     RPCRDMA_RECV_BATCH_MAX,
				     limit - fixed_rq - q->max_requests);
	q->recv_batch = rslack + 1;
	q->recv_posted = q->max_requests + bc_requests +
			 RPCRDMA_CLIENT_RECV_SLACK + rslack;
	q->recv_wr = q->recv_posted + RPCRDMA_DRAIN_WRS;
	q->recv_cqe = q->recv_wr;
	q->mr_depth = min(max_pages, lim->max_fr_pages);
	q->max_send_sge = min(max_sges, lim->max_send_sge);
	/*
	 * Work Requests of a finished RPC stay on the Send Queue until a
	 * later signaled one completes, but never longer than it keeps its
	 * slot.  With a queue sized for every slot that is always room;
	 * with fewer credits than slots, each RPC waits for its Send.
	 */
	q->send_batch = 0;
	if (q->max_requests == slots)
		q->send_batch = clamp(slots >> RPCRDMA_CLIENT_SEND_BATCH_SHIFT,
				      1U, RPCRDMA_CLIENT_SEND_BATCH_MAX);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_size_client);

/*
 * rdma_rw contexts to give up so that a Send Queue of @fixed entries and
 * @ctxs contexts of @per_ctx entries each has at most 2^k - 1 entries,
 * if that costs at most an eighth of them and leaves @min_ctxs.
 */
static u32 rpcrdma_pow2_trim(u32 fixed, u32 ctxs, u32 per_ctx, u32 min_ctxs)
{
	u32 depth = fixed + ctxs * per_ctx;
	u32 below = rounddown_pow_of_two(depth + 1) - 1;
	u32 trim;

	if (below < fixed || depth == below)
		return 0;
	trim = DIV_ROUND_UP(depth - below, per_ctx);
	if (trim > ctxs / 8 || ctxs - trim < min_ctxs)
		return 0;
	return trim;
}

/**
 * rpcrdma_size_server - size a server connection
 * @lim: the device
 * @credits: credits the administrator wants granted
 * @bc_requests: backchannel Calls we may have outstanding
 * @ord: RDMA Reads in flight the client's responder resources and the
 *	administrator allow
 * @max_sges: SGEs per Send the transport can use at most
 * @q: filled in
 *
 * rdma_rw gets contexts for one full-size payload per credit when the
 * Send Queue has room, and at least enough for one such payload.
 * Providers round a queue up to a power of two of entries (soft-RoCE
 * counts one more than asked): a Send Queue just past one would cost
 * nearly twice the memory, so rdma_rw gives up as many as an eighth of
 * its contexts to stay below it.
 *
 * Return: 0, or -EOPNOTSUPP if the device cannot carry one RPC or
 * cannot initiate RDMA Reads.
 */
int rpcrdma_size_server(const struct rpcrdma_dev_limits *lim, u32 credits,
			u32 bc_requests, u32 ord, u32 max_sges,
			struct rpcrdma_server_queues *q)
{
	u32 limit = rpcrdma_queue_limit(lim);
	u32 per_ctx = max(lim->rw_wrs_per_ctx, 1U);
	u32 min_ctxs = max(lim->rw_mr_factor, 1U);
	u32 fixed = bc_requests + RPCRDMA_DRAIN_WRS;
	u32 sends, want_ctxs, room, slack, rslack;

	if (!lim->max_send_sge || !lim->max_init_rd_atom || !credits || !ord)
		return -EOPNOTSUPP;
	if (limit < fixed + 1 + per_ctx * min_ctxs)
		return -EOPNOTSUPP;

	/* Receive Queue: a credit each, the backchannel replies, the drain. */
	q->max_requests = min(credits, limit - fixed);
	/* Send Queue: a Send each for replies and backchannel Calls, and
	 * at least one full payload's worth of rdma_rw entries.
	 */
	q->max_requests = min(q->max_requests,
			      limit - fixed - per_ctx * min_ctxs);

	/* Receives reposted in batches: their slack, if the device has room. */
	rslack = rpcrdma_batch_slack(q->max_requests, RPCRDMA_RECV_BATCH_SHIFT,
				     RPCRDMA_RECV_BATCH_MAX,
				     limit - fixed - q->max_requests);
	q->recv_batch = rslack + 1;
	q->recv_posted = q->max_requests + bc_requests + rslack;
	q->recv_wr = q->recv_posted + RPCRDMA_DRAIN_WRS;
	q->recv_cqe = q->recv_wr;

	/* Room for unsignaled Sends, if the device has it. */
	slack = rpcrdma_batch_slack(q->max_requests,
				    RPCRDMA_SERVER_SEND_BATCH_SHIFT,
				    RPCRDMA_SERVER_SEND_BATCH_MAX,
				    limit - fixed - q->max_requests -
				    per_ctx * min_ctxs);
	q->send_batch = slack + 1;

	sends = q->max_requests + bc_requests + slack;
	room = (limit - sends - RPCRDMA_DRAIN_WRS) / per_ctx;
	want_ctxs = q->max_requests * RPCRDMA_SERVER_PAYLOADS_PER_CREDIT *
		    min_ctxs;
	q->rw_ctxs = min(want_ctxs, room);
	q->send_wr = sends + RPCRDMA_DRAIN_WRS;
	q->rw_ctxs -= rpcrdma_pow2_trim(q->send_wr, q->rw_ctxs, per_ctx,
					min_ctxs);
	q->sq_depth = q->send_wr + q->rw_ctxs * per_ctx;
	q->sq_budget = q->sq_depth - RPCRDMA_DRAIN_WRS - slack;
	q->send_cqe = q->sq_depth;
	q->max_send_sge = min(max_sges, lim->max_send_sge);
	q->ord = min(ord, lim->max_init_rd_atom);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_size_server);
