// SPDX-License-Identifier: GPL-2.0
/*
 * Client Send Queue: which Sends ask for a completion, and when the
 * resources of a Send (its DMA mappings and its hold on the request
 * slot) come back.
 *
 * A completion costs a CQ poll and, with a workqueue-polled CQ, a
 * context switch, once per RPC if every Send asks for one.  Instead,
 * one Send in ep->sendq.batch is signaled.  Work Requests on a Send
 * Queue complete in the order they were posted, so the completion of a
 * signaled Send (or the flush of any Send) also completes every Send
 * posted before it.  The posted Sends wait on ep->sendq (the FIFO
 * common/send.c keeps for both roles), in posting order, until such a
 * completion retires them.
 *
 * A request's transport header and RPC buffer belong to its slot, and
 * the slot stays held until its Send is retired, so the RPC itself may
 * complete as soon as its reply has been handled.  Only a Send that
 * maps memory itself (pages of the upper layer, or a kvec outside the
 * slot's buffers), which the upper layer may reuse once the RPC
 * completes, is always signaled, and its RPC waits for it; an RPC that
 * ends without its reply waits for such a Send before sunrpc frees that
 * memory (xrdma_send_wait()).  When
 * the Send Queue is too small to hold the Work Requests of every slot
 * (ep->sendq.batch is 0), every Send is signaled and every RPC waits.
 */
#include <kunit/visibility.h>

#include "client.h"
#include "trace.h"

/**
 * xrdma_send_mark_retired - what @req's Send mapped is unmapped: wake waiters
 * @req: slot whose Send had @send_waits set and is now unmapped
 *
 * The other side of xrdma_send_wait().
 */
VISIBLE_IF_KUNIT void xrdma_send_mark_retired(struct xrdma_req *req)
{
	/* The mappings are gone: see xrdma_send_retired(). */
	smp_store_release(&req->send_unretired, false);
	/* Pairs with wait_var_event() setting the task's state. */
	smp_mb();
	wake_up_var(&req->send_unretired);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_send_mark_retired);

/* The device is done with @req's Send: unmap it, let go of the slot. */
static void xrdma_send_retire_one(struct xrdma_req *req)
{
	rpcrdma_send_sges_unmap(&req->sges);
	if (req->send_waits) {
		xrdma_send_mark_retired(req);
		xrdma_req_done(req);
	}
	xrdma_req_put(req);
}

/* Is the last Send of @req that maps memory retired? */
static bool xrdma_send_retired(struct xrdma_req *req)
{
	/* Pairs with xrdma_send_mark_retired(), which unmapped first. */
	return !smp_load_acquire(&req->send_unretired);
}

/**
 * xrdma_send_wait_retire - wait for the retirement of @req's Send
 * @req: slot of an RPC being released (->buf_free), reply or not, whose
 *	Send maps memory of the upper layer and was not retired when
 *	xrdma_send_wait() looked
 *
 * An RPC that ends before its reply (a killed task, a soft timeout)
 * would otherwise let the upper layer free pages and buffers that its
 * Send still maps while the Send waits in the Send Queue.  Only a Send
 * that maps such memory (xrdma_send_must_wait()) is waited for; it is
 * signaled, so its completion, or the flush when the connection goes,
 * retires it.  An RPC that had its reply has nothing to wait for.
 */
void xrdma_send_wait_retire(struct xrdma_req *req)
{
	trace_xprtrdma_send_wait(&req->rqst);
	wait_var_event(&req->send_unretired, xrdma_send_retired(req));
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_send_wait_retire);

/* Retire the Sends posted up to and including @last (all if NULL). */
static void xrdma_sendq_retire(struct xrdma_ep *ep, struct xrdma_req *last)
{
	struct rpcrdma_sendq_entry *e, *next;

	e = rpcrdma_sendq_retire(&ep->sendq, last ? &last->send_entry : NULL);
	for (; e; e = next) {
		next = e->next;
		xrdma_send_retire_one(container_of(e, struct xrdma_req,
						   send_entry));
	}
}

/**
 * xrdma_sendq_retire_all - retire every Send left on a drained queue
 * @ep: endpoint whose Send Queue ib_drain_sq() has drained
 *
 * Unsignaled Sends need not be flushed with a completion of their own;
 * once the drain's own Work Request has completed, none of them can be
 * in use.
 */
void xrdma_sendq_retire_all(struct xrdma_ep *ep)
{
	xrdma_sendq_retire(ep, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_sendq_retire_all);

/**
 * xrdma_send_done - Send completion handler
 * @cq: the Send completion queue (its context is the endpoint)
 * @wc: the completion of a signaled Send, or the flush of any Send
 */
void xrdma_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xrdma_req *req = container_of(wc->wr_cqe, struct xrdma_req,
					     send_cqe);
	struct xrdma_ep *ep = cq->cq_context;

	trace_xprtrdma_wc_send(wc, &req->send_cid);
	if (wc->status != IB_WC_SUCCESS)
		xrdma_wc_failed(ep->rx, wc);
	xrdma_sendq_retire(ep, req);
}

/**
 * xrdma_req_send_init - set up the Send Work Request of a new slot
 * @req: the slot, zeroed
 * @id: its completion ID (its index, or a backchannel request's number)
 *
 * What stays the same for every Send the slot posts is set once; the
 * completion queue's ID comes with each connection (xrdma_send_sges()).
 */
void xrdma_req_send_init(struct xrdma_req *req, u32 id)
{
	req->send_cid.completion_id = id;
	req->send_cqe.done = xrdma_send_done;
	req->send_wr.next = NULL;
	req->send_wr.wr_cqe = &req->send_cqe;
	req->send_wr.sg_list = req->sges.sge;
	req->send_wr.opcode = IB_WR_SEND;
}

