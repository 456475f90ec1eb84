/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Queue sizing for both transports: pure functions from a device's
 * limits and the wanted credits to the depth of every queue, so that
 * each rule can be checked against the figures of real adapters.
 */
#ifndef _RPCRDMA_QUEUES_H
#define _RPCRDMA_QUEUES_H

#include <linux/types.h>

struct ib_device;

/**
 * struct rpcrdma_dev_limits - what sizing needs to know of a device
 * @max_qp_wr: work requests one queue (Send or Receive) may hold
 * @max_cqe: entries of one completion queue
 * @max_send_sge: SGEs per Send
 * @max_init_rd_atom: RDMA Reads the device may have in flight per QP
 * @max_fr_pages: pages one FRWR MR can map
 * @rw_wrs_per_ctx: Send Queue entries rdma_rw adds per context: 1, or 3
 *	when it registers memory (iWARP Reads, devices that prefer MRs)
 * @rw_mr_factor: rdma_rw contexts one full-size payload needs
 */
struct rpcrdma_dev_limits {
	u32 max_qp_wr;
	u32 max_cqe;
	u32 max_send_sge;
	u32 max_init_rd_atom;
	u32 max_fr_pages;
	u32 rw_wrs_per_ctx;
	u32 rw_mr_factor;
};

/**
 * struct rpcrdma_client_queues - how a client connection is sized
 * @max_requests: credits asked for, and RPCs in flight
 * @send_wr: Send Queue depth: per RPC its FastRegs, LocalInvs and Send,
 *	the backchannel replies, and one for ib_drain_sq()
 * @send_cqe: Send completion queue entries
 * @recv_posted: Receives posted: one per credit, the backchannel Calls,
 *	slack, and the @recv_batch - 1 that may wait for the rest of their
 *	batch
 * @recv_wr: Receive Queue depth: @recv_posted and one for ib_drain_rq()
 * @recv_cqe: Receive completion queue entries
 * @mr_depth: pages one MR maps
 * @max_send_sge: SGEs per Send used
 * @send_batch: one Send in this many asks for a completion, and an RPC
 *	completes without waiting for its own Send's; 0: every Send asks
 *	for one and its RPC waits for it (the Send Queue has no room for
 *	the unsignaled Sends of finished RPCs)
 * @recv_batch: consumed Receives are reposted this many at a time (1:
 *	each at once)
 */
struct rpcrdma_client_queues {
	u32 max_requests;
	u32 send_wr;
	u32 send_cqe;
	u32 recv_posted;
	u32 recv_wr;
	u32 recv_cqe;
	u32 mr_depth;
	u32 max_send_sge;
	u32 send_batch;
	u32 recv_batch;
};

/**
 * struct rpcrdma_server_queues - how a server connection is sized
 * @max_requests: credits granted
 * @recv_posted: Receives posted: credits, backchannel replies, and the
 *	@recv_batch - 1 that may wait for the rest of their batch
 * @recv_wr: Receive Queue depth: @recv_posted and one for the drain
 * @rw_ctxs: rdma_rw contexts (ib_qp_init_attr::cap.max_rdma_ctxs)
 * @send_wr: Send Queue entries asked for ourselves; rdma_rw adds
 *	@rw_ctxs times rw_wrs_per_ctx when the QP is created
 * @sq_depth: the whole Send Queue once rdma_rw has added its share
 * @sq_budget: Send Queue entries one post may reserve at most: @sq_depth
 *	less the drain's and the @send_batch - 1 that unsignaled Sends may
 *	hold while no later Send is signaled
 * @send_cqe: Send completion queue entries
 * @recv_cqe: Receive completion queue entries
 * @max_send_sge: SGEs per Send used
 * @ord: RDMA Reads in flight (initiator depth)
 * @send_batch: a Send asks for a completion once @send_batch - 1 Work
 *	Requests were posted unsignaled since the last one that did (1:
 *	every Send asks)
 * @recv_batch: consumed Receives are reposted this many at a time (1:
 *	each at once)
 */
struct rpcrdma_server_queues {
	u32 max_requests;
	u32 recv_posted;
	u32 recv_wr;
	u32 rw_ctxs;
	u32 send_wr;
	u32 sq_depth;
	u32 sq_budget;
	u32 send_cqe;
	u32 recv_cqe;
	u32 max_send_sge;
	u32 ord;
	u32 send_batch;
	u32 recv_batch;
};

/* Work requests one client RPC may post: its FastRegs, LocalInvs, Send. */
#define RPCRDMA_CLIENT_WRS_PER_RPC(max_mrs)	(2 * (max_mrs) + 1)

void rpcrdma_dev_limits_get(struct ib_device *device, u32 port_num,
			    u32 max_payload_pages,
			    struct rpcrdma_dev_limits *lim);
int rpcrdma_size_client(const struct rpcrdma_dev_limits *lim, u32 slots,
			u32 max_mrs, u32 bc_requests, u32 max_pages,
			u32 max_sges, struct rpcrdma_client_queues *q);
int rpcrdma_size_server(const struct rpcrdma_dev_limits *lim, u32 credits,
			u32 bc_requests, u32 ord, u32 max_sges,
			struct rpcrdma_server_queues *q);

#endif /* _RPCRDMA_QUEUES_H */
