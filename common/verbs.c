// SPDX-License-Identifier: GPL-2.0
/*
 * The verbs objects of a connection, made and released the same way by
 * the client and the server: a protection domain of its own, one CQ for
 * the Send Queue and one for the Receive Queue (both polled from a
 * workqueue), the RC queue pair on the RDMA-CM id, and Receive buffers
 * that stay DMA mapped for the life of the connection.
 *
 * The sizes come from common/queues.c; what the completions mean is
 * left to each side's handlers.
 */
#include <kunit/visibility.h>
#include <linux/slab.h>

#include "rpcrdma/verbs.h"

/**
 * rpcrdma_ib_create - make the PD, CQs and QP of a connection
 * @ib: the objects to make; all NULL on entry
 * @id: RDMA-CM id whose route is resolved (or a connection request's)
 * @attr: sizes, port and event handler
 *
 * Return: 0, or -errno with nothing left allocated and @ib all NULL.
 */
int rpcrdma_ib_create(struct rpcrdma_ib *ib, struct rdma_cm_id *id,
		      const struct rpcrdma_ib_attr *attr)
{
	struct ib_qp_init_attr qp_attr = {};
	struct ib_device *device = id->device;
	struct ib_pd *pd;
	struct ib_cq *send_cq, *recv_cq;
	int rc;

	pd = ib_alloc_pd(device, 0);
	if (IS_ERR(pd))
		return PTR_ERR(pd);
	send_cq = ib_alloc_cq_any(device, attr->context, attr->send_cqe,
				  IB_POLL_WORKQUEUE);
	if (IS_ERR(send_cq)) {
		rc = PTR_ERR(send_cq);
		goto out_pd;
	}
	recv_cq = ib_alloc_cq_any(device, attr->context, attr->recv_cqe,
				  IB_POLL_WORKQUEUE);
	if (IS_ERR(recv_cq)) {
		rc = PTR_ERR(recv_cq);
		goto out_send_cq;
	}

	qp_attr.event_handler = attr->event_handler;
	qp_attr.qp_context = attr->context;
	qp_attr.send_cq = send_cq;
	qp_attr.recv_cq = recv_cq;
	/* rdma_rw adds its own entries for @rw_ctxs to max_send_wr. */
	qp_attr.cap.max_send_wr = attr->send_wr;
	qp_attr.cap.max_recv_wr = attr->recv_wr;
	qp_attr.cap.max_send_sge = attr->send_sge;
	qp_attr.cap.max_recv_sge = 1;
	qp_attr.cap.max_rdma_ctxs = attr->rw_ctxs;
	qp_attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	qp_attr.qp_type = IB_QPT_RC;
	qp_attr.port_num = attr->port_num;
	rc = rdma_create_qp(id, pd, &qp_attr);
	if (rc)
		goto out_recv_cq;

	ib->pd = pd;
	ib->send_cq = send_cq;
	ib->recv_cq = recv_cq;
	ib->qp = id->qp;
	return 0;

out_recv_cq:
	ib_free_cq(recv_cq);
out_send_cq:
	ib_free_cq(send_cq);
out_pd:
	ib_dealloc_pd(pd);
	return rc;
}

/**
 * rpcrdma_ib_destroy_qp - destroy the QP and the CQs of a connection
 * @ib: the objects; the QP and CQs are NULL after, the PD is kept
 * @id: the RDMA-CM id the QP was made on
 *
 * Call once the QP is drained.  The drain waits only for its own work
 * request: a provider that flushes an earlier one behind it (a
 * use-after-free on soft-iWARP showed one) still delivers that
 * completion, so whatever a completion can reach must outlive the CQs.
 * On return, no completion handler of the connection runs or will run.
 * MRs and the PD stay for rpcrdma_ib_destroy().
 */
void rpcrdma_ib_destroy_qp(struct rpcrdma_ib *ib, struct rdma_cm_id *id)
{
	if (ib->qp)
		rdma_destroy_qp(id);
	ib->qp = NULL;
	if (ib->recv_cq)
		ib_free_cq(ib->recv_cq);
	ib->recv_cq = NULL;
	if (ib->send_cq)
		ib_free_cq(ib->send_cq);
	ib->send_cq = NULL;
}

/**
 * rpcrdma_ib_destroy - release what rpcrdma_ib_create() made
 * @ib: the objects; those that are NULL are skipped, all are NULL after
 * @id: the RDMA-CM id the QP was made on
 *
 * The QP must be drained, and every MR of the PD deregistered.
 */
void rpcrdma_ib_destroy(struct rpcrdma_ib *ib, struct rdma_cm_id *id)
{
	rpcrdma_ib_destroy_qp(ib, id);
	if (ib->pd)
		ib_dealloc_pd(ib->pd);
	memset(ib, 0, sizeof(*ib));
}

/**
 * rpcrdma_recv_buf_init - allocate and map a Receive buffer
 * @rb: the buffer to set up (its @buf NULL)
 * @device: device the Receives are posted on
 * @pd: protection domain of the QP
 * @size: bytes the buffer takes (the inline receive size)
 * @done: completion handler of the Receive
 * @gfp: allocation flags
 *
 * Return: 0, or -ENOMEM or -EIO with nothing left allocated.
 */
int rpcrdma_recv_buf_init(struct rpcrdma_recv_buf *rb, struct ib_device *device,
			  const struct ib_pd *pd, unsigned int size,
			  void (*done)(struct ib_cq *cq, struct ib_wc *wc),
			  gfp_t gfp)
{
	u64 addr;

	rb->buf = kmalloc(size, gfp);
	if (!rb->buf)
		return -ENOMEM;
	addr = ib_dma_map_single(device, rb->buf, size, DMA_FROM_DEVICE);
	if (ib_dma_mapping_error(device, addr)) {
		kfree(rb->buf);
		rb->buf = NULL;
		return -EIO;
	}
	rb->sge.addr = addr;
	rb->sge.length = size;
	rb->sge.lkey = pd->local_dma_lkey;
	rb->cqe.done = done;
	rb->wr.next = NULL;
	rb->wr.wr_cqe = &rb->cqe;
	rb->wr.sg_list = &rb->sge;
	rb->wr.num_sge = 1;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_recv_buf_init);

/**
 * rpcrdma_recv_buf_take - unmap a Receive buffer and take its memory
 * @rb: a buffer that is not posted; left without one
 * @device: the device it is mapped for
 *
 * A buffer that is not posted belongs to the CPU: its last completion
 * synced it (rpcrdma_recv_buf_sync()), or nothing in it is read.  It is
 * unmapped without another sync, which would copy the device's view of
 * it (a bounce buffer) over a message the CPU may still be decoding in
 * place, as an RPC that holds the buffer does.
 *
 * Return: the buffer's memory, for the caller to kfree(); NULL if @rb
 * had none.
 */
void *rpcrdma_recv_buf_take(struct rpcrdma_recv_buf *rb,
			    struct ib_device *device)
{
	void *buf = rb->buf;

	if (buf && !ib_uses_virt_dma(device))
		dma_unmap_single_attrs(device->dma_device, rb->sge.addr,
				       rb->sge.length, DMA_FROM_DEVICE,
				       DMA_ATTR_SKIP_CPU_SYNC);
	rb->buf = NULL;
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_recv_buf_take);

/**
 * rpcrdma_recv_buf_release - unmap and free a Receive buffer
 * @rb: a buffer that is not posted; nothing is done if it has none
 * @device: the device it is mapped for
 */
void rpcrdma_recv_buf_release(struct rpcrdma_recv_buf *rb,
			      struct ib_device *device)
{
	kfree(rpcrdma_recv_buf_take(rb, device));
}

/**
 * rpcrdma_recv_bufs_post - hand a chain of Receive buffers to the device
 * @first: first mapped buffer that is not posted; the wr.next of each
 *	buffer links the next one's wr, and the last one's is NULL
 * @qp: the queue pair to post them on
 * @bad: on failure, the first buffer that was not posted: it and every
 *	buffer after it are not, the ones before it are
 *
 * One ib_post_recv() for the whole chain.
 *
 * Return: 0 or the -errno of ib_post_recv().
 */
int rpcrdma_recv_bufs_post(struct rpcrdma_recv_buf *first, struct ib_qp *qp,
			   struct rpcrdma_recv_buf **bad)
{
	const struct ib_recv_wr *bad_wr = NULL;
	struct ib_recv_wr *wr;
	int rc;

	for (wr = &first->wr; wr; wr = wr->next)
		ib_dma_sync_single_for_device(qp->device, wr->sg_list->addr,
					      wr->sg_list->length,
					      DMA_FROM_DEVICE);
	rc = ib_post_recv(qp, &first->wr, &bad_wr);
	if (rc)
		*bad = bad_wr ? container_of(bad_wr, struct rpcrdma_recv_buf,
					     wr) : first;
	return rc;
}

/**
 * rpcrdma_recv_buf_post - hand one Receive buffer back to the device
 * @rb: a mapped buffer that is not posted
 * @qp: the queue pair to post it on
 *
 * Return: 0 or the -errno of ib_post_recv().
 */
int rpcrdma_recv_buf_post(struct rpcrdma_recv_buf *rb, struct ib_qp *qp)
{
	struct rpcrdma_recv_buf *bad;

	rb->wr.next = NULL;
	return rpcrdma_recv_bufs_post(rb, qp, &bad);
}
