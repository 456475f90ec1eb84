// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA version 1: inline arithmetic (RFC 8166 sections 3.3.2
 * and 3.5).
 *
 * A message goes in one RDMA Send if its transport header plus the
 * (reduced) Payload stream fit in the inline threshold for that
 * direction; otherwise it is a Long Call (position-zero Read chunk,
 * RDMA_NOMSG) or a Long Reply (Reply chunk, RDMA_NOMSG).
 *
 * Every size is in bytes and saturates at SIZE_MAX instead of wrapping,
 * so absurd counts compare as "does not fit".  The sizes of the three
 * lists and of a header, and the fit test itself, are static inline in
 * rpcrdma/wire.h: each plan of a call or a reply uses them.
 */

#include <kunit/visibility.h>
#include <linux/kernel.h>
#include <linux/overflow.h>

#include "rpcrdma/wire.h"

/**
 * rpcrdma_chunk_lists_hdr_size - encoded size of a header carrying @cl
 * @cl: the chunk lists
 *
 * Return: what rpcrdma_encode_hdr() writes for RDMA_MSG or RDMA_NOMSG
 * with these lists.
 */
size_t rpcrdma_chunk_lists_hdr_size(const struct rpcrdma_chunk_lists *cl)
{
	return rpcrdma_hdr_size(cl->nr_read_segs, cl->nr_write_chunks,
				cl->nr_write_segs, cl->has_reply,
				cl->has_reply ? cl->reply.nsegs : 0);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_chunk_lists_hdr_size);

/**
 * rpcrdma_reply_hdr_size - size of the header of the reply to a call
 * @call: chunk lists of the call
 * @long_reply: true for a Long Reply (the Reply chunk is returned),
 *	false for a reply sent inline (Reply chunk absent)
 *
 * The reply has no Read list and returns every offered Write chunk with
 * all its segments (RFC 8166 section 3.4.6), which is the largest form
 * the responder can send.
 *
 * Return: header size in bytes.
 */
size_t rpcrdma_reply_hdr_size(const struct rpcrdma_chunk_lists *call,
			      bool long_reply)
{
	bool reply = long_reply && call->has_reply;

	return rpcrdma_hdr_size(0, call->nr_write_chunks, call->nr_write_segs,
				reply, reply ? call->reply.nsegs : 0);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_reply_hdr_size);

/**
 * rpcrdma_hdr_worst_case - largest header carrying at most @nsegs segments
 * @nsegs: total segments in all three lists
 *
 * A Read segment or a one-segment Write chunk costs 24 bytes, more than
 * a segment anywhere else, so the worst case is 28 + 24 * @nsegs.  Empty
 * Write chunks (8 bytes, no segment) are not counted: bound them
 * separately with rpcrdma_write_list_size().
 *
 * Return: header size in bytes.
 */
size_t rpcrdma_hdr_worst_case(unsigned int nsegs)
{
	return size_add(RPCRDMA_HDR_MIN_SIZE,
			size_mul(nsegs, RPCRDMA_READ_ENTRY_SIZE));
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_hdr_worst_case);

/**
 * rpcrdma_max_segs_for_hdr - segments that always fit in a header
 * @threshold: bytes available for the header
 *
 * Return: the largest n with rpcrdma_hdr_worst_case(n) <= @threshold
 * (0 if not even an empty header fits).
 */
unsigned int rpcrdma_max_segs_for_hdr(unsigned int threshold)
{
	if (threshold < RPCRDMA_HDR_MIN_SIZE)
		return 0;
	return (threshold - RPCRDMA_HDR_MIN_SIZE) / RPCRDMA_READ_ENTRY_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_max_segs_for_hdr);

/**
 * rpcrdma_inline_room - RPC payload bytes that fit beside a header
 * @threshold: inline threshold (the peer's receive size, bounded by our
 *	send size; see rpcrdma_inline_threshold())
 * @hdr_size: size of the transport header
 *
 * Return: @threshold - @hdr_size, or 0 if the header alone fills it.
 */
size_t rpcrdma_inline_room(unsigned int threshold, size_t hdr_size)
{
	return hdr_size < threshold ? threshold - hdr_size : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_inline_room);

/**
 * rpcrdma_need_long_call - must a call be sent as a Long Call
 * @call_threshold: call inline threshold
 * @hdr_size: size of the RDMA_MSG header the call would carry (with its
 *	Read chunks for DDP-eligible arguments, Write and Reply chunks)
 * @reduced_call_len: call Payload stream after reduction
 *
 * Return: true if the header and the reduced call do not fit inline, so
 * the call must move in a position-zero Read chunk (RDMA_NOMSG).
 */
bool rpcrdma_need_long_call(unsigned int call_threshold, size_t hdr_size,
			    size_t reduced_call_len)
{
	return !rpcrdma_fits_inline(call_threshold, hdr_size,
				    reduced_call_len);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_need_long_call);

/**
 * rpcrdma_need_long_reply - must a reply be sent as a Long Reply
 * @reply_threshold: reply inline threshold
 * @call: chunk lists of the call being answered
 * @reduced_reply_len: reply Payload stream after reduction (or, for a
 *	requester deciding whether to offer a Reply chunk, the largest
 *	reply the procedure can return)
 *
 * The inline reply header echoes the call's Write list and carries no
 * Reply chunk (rpcrdma_reply_hdr_size()).
 *
 * Return: true if that header and the reduced reply do not fit inline,
 * so the reply must go in the Reply chunk (RDMA_NOMSG).
 */
bool rpcrdma_need_long_reply(unsigned int reply_threshold,
			     const struct rpcrdma_chunk_lists *call,
			     size_t reduced_reply_len)
{
	return !rpcrdma_fits_inline(reply_threshold,
				    rpcrdma_reply_hdr_size(call, false),
				    reduced_reply_len);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_need_long_reply);
