/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Completion IDs: which completion queue, and which work request context
 * on it, a trace event is about.  The queue ID is the CQ's resource
 * tracking ID, the one "rdma resource show cq" lists; the completion ID
 * tells the Sends (or Receives, MRs, Reads) of that queue apart.
 */
#ifndef _RPCRDMA_CID_H
#define _RPCRDMA_CID_H

#include <rdma/ib_verbs.h>

/**
 * struct rpcrdma_cid - the completion a trace event is about
 * @queue_id: resource tracking ID of the completion queue
 * @completion_id: ID of the work request context on that queue
 */
struct rpcrdma_cid {
	u32 queue_id;
	int completion_id;
};

/**
 * rpcrdma_cid_init - name a work request context for the trace
 * @cid: the completion ID to set
 * @cq: completion queue the context's completions go to
 * @id: ID of the context, unique on @cq
 */
static inline void rpcrdma_cid_init(struct rpcrdma_cid *cid,
				    const struct ib_cq *cq, int id)
{
	cid->queue_id = cq->res.id;
	cid->completion_id = id;
}

#endif /* _RPCRDMA_CID_H */
