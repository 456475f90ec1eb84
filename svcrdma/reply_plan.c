// SPDX-License-Identifier: GPL-2.0
/*
 * How a reply travels, decided before anything is posted: pure
 * functions of the Call's chunk lists, what nfsd reported and the
 * connection's inline size, kept apart from the verbs so that they can
 * be tested on their own.
 *
 * The DDP payloads nfsd reported go, in order, into the Call's Write
 * chunks and are cut out of the reply message, their XDR pad with them
 * (RFC 8166 section 3.4.6); what is left is the message.  It goes inline
 * after an RDMA_MSG header when header and message fit the inline size,
 * otherwise into the Reply chunk after an RDMA_NOMSG header (Long Reply,
 * section 3.5.4), and when the Call offered no Reply chunk large enough
 * the answer is RDMA_ERROR ERR_CHUNK (section 4.5.2).  The Send may
 * invalidate one of the Call's registrations when the client said it
 * accepts Send With Invalidate (RFC 8797).
 */
#include <kunit/visibility.h>
#include <linux/sunrpc/xdr.h>

#include "server.h"

/**
 * srdma_reply_plan - place the DDP payloads and find the reply message
 * @call: the Call's decoded chunk lists
 * @payloads: the DDP-eligible results nfsd reported, in order
 * @nr_payloads: entries of @payloads (at most @call's Write chunks)
 * @res_len: length of the whole reply (rq_res)
 * @rp: the plan: which payloads go in which Write chunk, and the runs of
 *	rq_res that make up the message
 *
 * A payload that is out of order or outside the reply (the encoder
 * rolled back) stays in the message and its Write chunk comes back
 * empty.  @rp is set for the Call's Write chunks only: nothing reads
 * its entries past them.
 *
 * Return: 0, or -EMSGSIZE if a payload is larger than its Write chunk.
 */
int srdma_reply_plan(const struct rpcrdma_chunk_lists *call,
		     const struct srdma_payload *payloads,
		     unsigned int nr_payloads, unsigned int res_len,
		     struct srdma_reply *rp)
{
	unsigned int i, pos = 0;

	rp->nr_runs = 0;
	rp->msg_len = 0;
	rp->nomsg = false;
	for (i = 0; i < call->nr_write_chunks && i < SRDMA_MAX_WRITE_CHUNKS;
	     i++) {
		const struct srdma_payload *p = &payloads[i];

		rp->used[i] = false;
		rp->written[i] = 0;
		if (i >= nr_payloads || p->offset < pos || p->offset > res_len ||
		    p->length > res_len - p->offset)
			continue;
		if (p->length > call->write[i].length)
			return -EMSGSIZE;
		rp->used[i] = true;
		rp->written[i] = p->length;
		rp->runs[rp->nr_runs].start = pos;
		rp->runs[rp->nr_runs].end = p->offset;
		rp->nr_runs++;
		/* The XDR pad, where the encoder put one, goes too. */
		pos = min(p->offset + xdr_align_size(p->length), res_len);
	}
	rp->runs[rp->nr_runs].start = pos;
	rp->runs[rp->nr_runs].end = res_len;
	rp->nr_runs++;

	for (i = 0; i < rp->nr_runs; i++)
		rp->msg_len += rp->runs[i].end - rp->runs[i].start;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_reply_plan);

/**
 * srdma_reply_form - how the reply message travels
 * @hdr_len: length of its RDMA_MSG transport header
 * @msg_len: length of the message (rq_res without the DDP payloads)
 * @inline_send: the largest Send the client takes
 * @call: the Call's decoded chunk lists
 *
 * Return: SRDMA_REPLY_INLINE, SRDMA_REPLY_LONG (in the Reply chunk), or
 * SRDMA_REPLY_TOO_BIG when it fits neither.
 */
enum srdma_reply_form srdma_reply_form(unsigned int hdr_len,
				       unsigned int msg_len,
				       unsigned int inline_send,
				       const struct rpcrdma_chunk_lists *call)
{
	if ((u64)hdr_len + msg_len <= inline_send)
		return SRDMA_REPLY_INLINE;
	if (call->has_reply && msg_len <= call->reply.length)
		return SRDMA_REPLY_LONG;
	return SRDMA_REPLY_TOO_BIG;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_reply_form);
