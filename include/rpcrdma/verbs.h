/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verbs objects of one connection, shared by client and server: a
 * protection domain, a Send and a Receive completion queue and the queue
 * pair made with them, and the Receive buffers posted on it.
 *
 * One convention throughout: a pointer here is either a live object or
 * NULL, never an ERR_PTR(), and a create function that fails leaves
 * nothing behind.
 */
#ifndef _RPCRDMA_VERBS_H
#define _RPCRDMA_VERBS_H

#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>

/**
 * struct rpcrdma_ib - the verbs objects one connection owns
 * @pd: protection domain of this connection only
 * @send_cq: completions of Send, RDMA Read/Write, FastReg and LocalInv
 * @recv_cq: completions of Receive
 * @qp: the RC queue pair (also the CM id's qp)
 */
struct rpcrdma_ib {
	struct ib_pd *pd;
	struct ib_cq *send_cq;
	struct ib_cq *recv_cq;
	struct ib_qp *qp;
};

/**
 * struct rpcrdma_ib_attr - how to make the objects of a struct rpcrdma_ib
 * @send_cqe: entries of the Send CQ
 * @recv_cqe: entries of the Receive CQ
 * @send_wr: Send Queue depth, without what rdma_rw adds for @rw_ctxs
 * @recv_wr: Receive Queue depth
 * @send_sge: SGEs per Send WR
 * @rw_ctxs: rdma_rw contexts the QP must carry (0 for none)
 * @port_num: port the rdma_rw contexts use
 * @event_handler: asynchronous QP events
 * @context: passed to @event_handler, and the CQs' context
 */
struct rpcrdma_ib_attr {
	unsigned int send_cqe;
	unsigned int recv_cqe;
	unsigned int send_wr;
	unsigned int recv_wr;
	unsigned int send_sge;
	unsigned int rw_ctxs;
	u32 port_num;
	void (*event_handler)(struct ib_event *event, void *context);
	void *context;
};

int rpcrdma_ib_create(struct rpcrdma_ib *ib, struct rdma_cm_id *id,
		      const struct rpcrdma_ib_attr *attr);
void rpcrdma_ib_destroy_qp(struct rpcrdma_ib *ib, struct rdma_cm_id *id);
void rpcrdma_ib_destroy(struct rpcrdma_ib *ib, struct rdma_cm_id *id);

/**
 * struct rpcrdma_recv_buf - one Receive buffer and its work request
 * @cqe: completion entry; its done handler is the owner's
 * @wr: the Receive WR, one SGE
 * @sge: the whole buffer, DMA mapped from the device
 * @buf: the buffer (NULL when not allocated)
 */
struct rpcrdma_recv_buf {
	struct ib_cqe cqe;
	struct ib_recv_wr wr;
	struct ib_sge sge;
	void *buf;
};

int rpcrdma_recv_buf_init(struct rpcrdma_recv_buf *rb, struct ib_device *device,
			  const struct ib_pd *pd, unsigned int size,
			  void (*done)(struct ib_cq *cq, struct ib_wc *wc),
			  gfp_t gfp);
void *rpcrdma_recv_buf_take(struct rpcrdma_recv_buf *rb,
			    struct ib_device *device);
void rpcrdma_recv_buf_release(struct rpcrdma_recv_buf *rb,
			      struct ib_device *device);
int rpcrdma_recv_buf_post(struct rpcrdma_recv_buf *rb, struct ib_qp *qp);
int rpcrdma_recv_bufs_post(struct rpcrdma_recv_buf *first, struct ib_qp *qp,
			   struct rpcrdma_recv_buf **bad);

/**
 * rpcrdma_recv_buf_sync - make a received message visible to the CPU
 * @rb: a Receive buffer whose Receive completed
 * @device: the device it is mapped for
 * @len: bytes received
 */
static inline void rpcrdma_recv_buf_sync(struct rpcrdma_recv_buf *rb,
					 struct ib_device *device,
					 unsigned int len)
{
	ib_dma_sync_single_for_cpu(device, rb->sge.addr, len,
				   DMA_FROM_DEVICE);
}

#endif /* _RPCRDMA_VERBS_H */
