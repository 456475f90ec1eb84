// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA version 1: the transport header as a whole.
 *
 * Fixed part (RFC 8166 section 4.2; RFC 5666 section 4.1):
 *
 *	rdma_xid, rdma_vers, rdma_credit, rdma_proc
 *
 * then, by rdma_proc: the three chunk lists for RDMA_MSG and RDMA_NOMSG
 * (see chunk.c), rdma_err (+ version range) for RDMA_ERROR.  RDMA_MSGP
 * and RDMA_DONE are recognised but not parsed: RFC 8166 removed them.
 */

#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "rpcrdma/wire.h"

/* The protocol's numbers (RFC 8166 section 4.2): checked when compiling. */
static_assert(RPCRDMA_VERSION == 1);
static_assert(RPCRDMA_MSG == 0 && RPCRDMA_NOMSG == 1 && RPCRDMA_MSGP == 2 &&
	      RPCRDMA_DONE == 3 && RPCRDMA_ERROR == 4);
static_assert(RPCRDMA_ERR_VERS == 1 && RPCRDMA_ERR_CHUNK == 2);
/* xid, vers, credit, proc and three empty chunk lists */
static_assert(RPCRDMA_HDR_MIN_SIZE == 7 * 4);

static const char * const rpcrdma_wire_err_names[RPCRDMA_WIRE_ERR_MAX] = {
	[RPCRDMA_WIRE_OK]			= "ok",
	[RPCRDMA_WIRE_ERR_TRUNCATED]		= "truncated",
	[RPCRDMA_WIRE_ERR_VERSION]		= "bad-version",
	[RPCRDMA_WIRE_ERR_BAD_PROC]		= "bad-proc",
	[RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC]	= "unsupported-proc",
	[RPCRDMA_WIRE_ERR_BAD_ERRCODE]		= "bad-errcode",
	[RPCRDMA_WIRE_ERR_BAD_DISCRIM]		= "bad-discriminator",
	[RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS]	= "too-many-chunks",
	[RPCRDMA_WIRE_ERR_TOO_MANY_SEGS]	= "too-many-segments",
	[RPCRDMA_WIRE_ERR_NO_STORAGE]		= "no-storage",
	[RPCRDMA_WIRE_ERR_POS_UNALIGNED]	= "position-unaligned",
	[RPCRDMA_WIRE_ERR_POS_DECREASING]	= "position-decreasing",
	[RPCRDMA_WIRE_ERR_POS_OVERLAP]		= "position-overlap",
	[RPCRDMA_WIRE_ERR_POS_RANGE]		= "position-range",
	[RPCRDMA_WIRE_ERR_ZERO_LENGTH]		= "zero-length-segment",
	[RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW]	= "length-overflow",
	[RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK]	= "nomsg-without-chunk",
	[RPCRDMA_WIRE_ERR_READ_IN_REPLY]	= "read-list-in-reply",
	[RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK]	= "reply-extra-chunk",
	[RPCRDMA_WIRE_ERR_REPLY_EXTRA_SEGS]	= "reply-extra-segments",
	[RPCRDMA_WIRE_ERR_REPLY_SEG_TOO_LONG]	= "reply-segment-too-long",
	[RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH]	= "reply-segment-mismatch",
};

/**
 * rpcrdma_wire_err_name - short name of a codec error
 * @err: value to name
 *
 * Return: a static string for log messages and tracepoints; "unknown"
 * for a value outside the enum.
 */
const char *rpcrdma_wire_err_name(enum rpcrdma_wire_err err)
{
	if ((unsigned int)err >= RPCRDMA_WIRE_ERR_MAX)
		return "unknown";
	return rpcrdma_wire_err_names[err];
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_wire_err_name);

/**
 * rpcrdma_wire_err_to_rdma_err - RDMA_ERROR code a responder sends
 * @err: result of decoding a received call
 *
 * A header whose version is not supported is answered with ERR_VERS;
 * every other header that cannot be processed (including RDMA_MSGP and
 * RDMA_DONE) with ERR_CHUNK (RFC 8166 section 4.5).
 *
 * Return: RPCRDMA_ERR_VERS or RPCRDMA_ERR_CHUNK, or 0 for RPCRDMA_WIRE_OK.
 */
u32 rpcrdma_wire_err_to_rdma_err(enum rpcrdma_wire_err err)
{
	switch (err) {
	case RPCRDMA_WIRE_OK:
		return 0;
	case RPCRDMA_WIRE_ERR_VERSION:
		return RPCRDMA_ERR_VERS;
	default:
		return RPCRDMA_ERR_CHUNK;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_wire_err_to_rdma_err);

/**
 * rpcrdma_decode_fixed - decode the four fixed header words
 * @c: cursor at the start of a transport header
 * @hdr: receives xid, vers, credits and proc (all zero, and fixed_valid
 *	false, if the header is too short); fixed_valid is set on success
 *
 * No field is validated here: a responder needs the XID even of a header
 * it rejects, to address its RDMA_ERROR reply.
 *
 * Return: RPCRDMA_WIRE_OK, or RPCRDMA_WIRE_ERR_TRUNCATED if fewer than 16
 * bytes were received.
 */
__always_inline enum rpcrdma_wire_err
rpcrdma_decode_fixed(struct rpcrdma_cursor *c, struct rpcrdma_hdr *hdr)
{
	const __be32 *p;

	p = rpcrdma_cursor_take(c, RPCRDMA_FIXED_HDR_SIZE / XDR_UNIT);
	if (!p) {
		hdr->xid = 0;
		hdr->vers = 0;
		hdr->credits = 0;
		hdr->proc = 0;
		hdr->fixed_valid = false;
		return RPCRDMA_WIRE_ERR_TRUNCATED;
	}
	hdr->xid = p[0];
	hdr->vers = be32_to_cpu(p[1]);
	hdr->credits = be32_to_cpu(p[2]);
	hdr->proc = be32_to_cpu(p[3]);
	hdr->fixed_valid = true;
	return RPCRDMA_WIRE_OK;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_fixed);

static enum rpcrdma_wire_err
rpcrdma_decode_error_body(struct rpcrdma_cursor *c, struct rpcrdma_hdr *hdr)
{
	const __be32 *p;

	p = rpcrdma_cursor_take(c, 1);
	if (!p)
		return RPCRDMA_WIRE_ERR_TRUNCATED;
	hdr->err = be32_to_cpup(p);
	switch (hdr->err) {
	case RPCRDMA_ERR_VERS:
		p = rpcrdma_cursor_take(c, 2);
		if (!p)
			return RPCRDMA_WIRE_ERR_TRUNCATED;
		hdr->vers_low = be32_to_cpu(p[0]);
		hdr->vers_high = be32_to_cpu(p[1]);
		return RPCRDMA_WIRE_OK;
	case RPCRDMA_ERR_CHUNK:
		return RPCRDMA_WIRE_OK;
	default:
		return RPCRDMA_WIRE_ERR_BAD_ERRCODE;
	}
}

/* Header and inline payload lengths, once @c is past the header. */
static void rpcrdma_decode_set_lens(const struct rpcrdma_cursor *c,
				    struct rpcrdma_hdr *hdr)
{
	hdr->hdr_len = rpcrdma_cursor_pos(c);
	hdr->inline_len = c->len - hdr->hdr_len;
}

/*
 * RDMA_NOMSG carries no inline RPC message, so some chunk must: in a
 * call the position-zero Read chunk (Long Call), in a reply a non-empty
 * Reply chunk (Long Reply).
 */
static bool rpcrdma_nomsg_has_chunk(const struct rpcrdma_chunk_lists *cl,
				    enum rpcrdma_msg_dir dir)
{
	if (dir == RPCRDMA_DIR_CALL)
		return rpcrdma_has_pos0_chunk(cl);
	return cl->has_reply && cl->reply.length;
}

static enum rpcrdma_wire_err rpcrdma_decode_msg_body(struct rpcrdma_cursor *c,
						     enum rpcrdma_msg_dir dir,
						     const struct rpcrdma_wire_limits *limits,
						     struct rpcrdma_hdr *hdr)
{
	enum rpcrdma_wire_err err;

	err = rpcrdma_decode_chunk_lists(c, dir, limits, &hdr->lists);
	if (err)
		return err;
	rpcrdma_decode_set_lens(c, hdr);

	if (hdr->proc == RPCRDMA_NOMSG &&
	    !rpcrdma_nomsg_has_chunk(&hdr->lists, dir))
		return RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK;
	if (dir != RPCRDMA_DIR_CALL || !hdr->lists.nr_read_chunks)
		return RPCRDMA_WIRE_OK;
	/*
	 * An NFS WRITE's one data item: what the check of every position
	 * finds for it, without the call.
	 */
	if (hdr->proc == RPCRDMA_MSG && hdr->lists.nr_read_chunks == 1)
		return hdr->lists.read[0].position > hdr->inline_len ?
		       RPCRDMA_WIRE_ERR_POS_RANGE : RPCRDMA_WIRE_OK;
	return rpcrdma_check_read_positions(&hdr->lists, hdr->proc,
					    hdr->inline_len);
}

/**
 * rpcrdma_decode_hdr - decode and validate a whole transport header
 * @c: cursor over the received bytes, at their start (see
 *	rpcrdma_cursor_init()); the header is read where it was received
 * @dir: whether the header introduces an RPC Call or an RPC Reply
 * @limits: per-message work bounds, or NULL for storage bounds only
 * @hdr: result; hdr->lists must have storage (see rpcrdma_hdr_init())
 *
 * Every field of @hdr except the list storage is set here, whatever the
 * outcome: a receiver attaches the storage once and decodes each message
 * into the same structure without clearing it.  The fixed part is
 * decoded first; if it was received, hdr->fixed_valid is set whatever
 * the outcome.  The version is checked before the message type.
 * RDMA_MSGP and RDMA_DONE are reported as unsupported without reading
 * further.  For RDMA_MSG and RDMA_NOMSG the three chunk lists are decoded
 * and validated; on success @c is left at the first byte of the inline
 * Payload stream, which is hdr->hdr_len bytes from the start and
 * hdr->inline_len bytes long.
 *
 * Return: RPCRDMA_WIRE_OK or the first rule the header breaks.
 */
enum rpcrdma_wire_err rpcrdma_decode_hdr(struct rpcrdma_cursor *c,
					 enum rpcrdma_msg_dir dir,
					 const struct rpcrdma_wire_limits *limits,
					 struct rpcrdma_hdr *hdr)
{
	enum rpcrdma_wire_err err;

	hdr->fixed_valid = false;
	hdr->err = 0;
	hdr->vers_low = 0;
	hdr->vers_high = 0;
	hdr->hdr_len = 0;
	hdr->inline_len = 0;

	err = rpcrdma_decode_fixed(c, hdr);
	if (!err && hdr->vers != RPCRDMA_VERSION)
		err = RPCRDMA_WIRE_ERR_VERSION;
	/* The list decoder empties the lists itself. */
	if (!err && (hdr->proc == RPCRDMA_MSG || hdr->proc == RPCRDMA_NOMSG))
		return rpcrdma_decode_msg_body(c, dir, limits, hdr);
	rpcrdma_chunk_lists_reset(&hdr->lists);
	if (err)
		return err;

	switch (hdr->proc) {
	case RPCRDMA_ERROR:
		err = rpcrdma_decode_error_body(c, hdr);
		if (err)
			return err;
		rpcrdma_decode_set_lens(c, hdr);
		return RPCRDMA_WIRE_OK;
	case RPCRDMA_MSGP:
	case RPCRDMA_DONE:
		return RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC;
	default:
		return RPCRDMA_WIRE_ERR_BAD_PROC;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_hdr);

/**
 * rpcrdma_encode_fixed - encode the four fixed header words
 * @xdr: stream to encode into
 * @xid: rdma_xid, in wire byte order
 * @credits: credits requested (call) or granted (reply)
 * @proc: message type
 *
 * rdma_vers is always RPCRDMA_VERSION.
 *
 * Return: 0, or -EMSGSIZE if @xdr has no room.
 */
int rpcrdma_encode_fixed(struct xdr_stream *xdr, __be32 xid, u32 credits,
			 u32 proc)
{
	__be32 *p;

	p = xdr_reserve_space(xdr, RPCRDMA_FIXED_HDR_SIZE);
	if (!p)
		return -EMSGSIZE;
	*p++ = xid;
	*p++ = cpu_to_be32(RPCRDMA_VERSION);
	*p++ = cpu_to_be32(credits);
	*p = cpu_to_be32(proc);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_fixed);

/**
 * rpcrdma_encode_msg_buf - encode an RDMA_MSG or RDMA_NOMSG header
 * @buf: XDR-aligned buffer of its own for the header
 * @room: bytes available at @buf
 * @xid: rdma_xid, in wire byte order
 * @credits: credits requested (call) or granted (reply)
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 * @cl: the chunk lists, segment lengths as stored
 *
 * The same bytes as rpcrdma_encode_hdr() for that header, written
 * straight into @buf: a requester builds one per RPC, in a buffer that
 * holds nothing else.
 *
 * Return: bytes written, or -EMSGSIZE if the header does not fit @room.
 */
int rpcrdma_encode_msg_buf(void *buf, size_t room, __be32 xid, u32 credits,
			   u32 proc, const struct rpcrdma_chunk_lists *cl)
{
	__be32 *p = buf;
	int len;

	if (room < RPCRDMA_FIXED_HDR_SIZE)
		return -EMSGSIZE;
	len = rpcrdma_chunk_lists_put(p + 4, room - RPCRDMA_FIXED_HDR_SIZE,
				      cl);
	if (len < 0)
		return len;
	rpcrdma_put_fixed(p, xid, credits, proc);
	return RPCRDMA_FIXED_HDR_SIZE + len;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_msg_buf);

/**
 * rpcrdma_encode_error - encode a whole RDMA_ERROR header
 * @xdr: stream to encode into
 * @xid: XID of the message being answered, in wire byte order
 * @credits: credits granted
 * @err: RPCRDMA_ERR_VERS (the supported range 1..1 follows) or
 *	RPCRDMA_ERR_CHUNK
 *
 * Return: 0, -EINVAL for another @err, or -EMSGSIZE if @xdr has no room.
 */
int rpcrdma_encode_error(struct xdr_stream *xdr, __be32 xid, u32 credits,
			 u32 err)
{
	size_t len;
	__be32 *p;

	switch (err) {
	case RPCRDMA_ERR_VERS:
		len = 3 * XDR_UNIT;
		break;
	case RPCRDMA_ERR_CHUNK:
		len = XDR_UNIT;
		break;
	default:
		return -EINVAL;
	}
	if (rpcrdma_encode_fixed(xdr, xid, credits, RPCRDMA_ERROR))
		return -EMSGSIZE;
	p = xdr_reserve_space(xdr, len);
	if (!p)
		return -EMSGSIZE;
	*p++ = cpu_to_be32(err);
	if (err == RPCRDMA_ERR_VERS) {
		*p++ = cpu_to_be32(RPCRDMA_VERSION);
		*p = cpu_to_be32(RPCRDMA_VERSION);
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_error);

/**
 * rpcrdma_encode_hdr - encode a whole transport header
 * @xdr: stream to encode into
 * @hdr: xid, credits and proc; for RDMA_MSG and RDMA_NOMSG the chunk
 *	lists in hdr->lists; for RDMA_ERROR the code in hdr->err
 *
 * rdma_vers is always RPCRDMA_VERSION, and an ERR_VERS error always
 * announces the range 1..1.  Nothing is validated: the caller builds
 * the lists it means to send.
 *
 * Return: 0; -EINVAL for RDMA_MSGP, RDMA_DONE, an unknown type or an
 * unknown error code; -EMSGSIZE if @xdr has no room.
 */
int rpcrdma_encode_hdr(struct xdr_stream *xdr, const struct rpcrdma_hdr *hdr)
{
	switch (hdr->proc) {
	case RPCRDMA_MSG:
	case RPCRDMA_NOMSG:
		if (rpcrdma_encode_fixed(xdr, hdr->xid, hdr->credits,
					 hdr->proc))
			return -EMSGSIZE;
		return rpcrdma_encode_chunk_lists(xdr, &hdr->lists);
	case RPCRDMA_ERROR:
		return rpcrdma_encode_error(xdr, hdr->xid, hdr->credits,
					    hdr->err);
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_hdr);
