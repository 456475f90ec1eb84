// SPDX-License-Identifier: GPL-2.0
/*
 * RPC-over-RDMA version 1: the Read list, the Write list and the Reply
 * chunk (RFC 8166 section 3.4; XDR in RFC 5666 section 4.3).
 *
 *	segment:	handle, length, offset (64 bits)
 *	Read list:	{ 1, position, segment }* 0
 *	Write list:	{ 1, count, segment[count] }* 0
 *	Reply chunk:	0 | 1, count, segment[count]
 *
 * Consecutive Read segments that share a position form one Read chunk.
 * Decoded lists live in caller storage (struct rpcrdma_chunk_lists);
 * nothing here allocates memory.
 */

#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "rpcrdma/wire.h"

/*
 * Storage handling
 */

static bool rpcrdma_chunk_slot_free(const struct rpcrdma_chunk_lists *cl)
{
	return cl->nr_read_chunks + cl->nr_write_chunks < cl->max_chunks;
}

static bool rpcrdma_seg_slot_free(const struct rpcrdma_chunk_lists *cl)
{
	return cl->used_segs < cl->max_segs;
}

/* Caller checked that a chunk slot is free. */
static struct rpcrdma_chunk *rpcrdma_new_read_chunk(struct rpcrdma_chunk_lists *cl,
						    u32 position)
{
	struct rpcrdma_chunk *chunk = &cl->chunks[cl->nr_read_chunks++];

	chunk->position = position;
	chunk->length = 0;
	chunk->nsegs = 0;
	chunk->segs = &cl->segs[cl->used_segs];
	cl->write = cl->chunks + cl->nr_read_chunks;
	return chunk;
}

/* Caller checked that a chunk slot is free. */
static inline struct rpcrdma_chunk *
rpcrdma_new_write_chunk(struct rpcrdma_chunk_lists *cl)
{
	struct rpcrdma_chunk *chunk = &cl->write[cl->nr_write_chunks++];

	memset(chunk, 0, sizeof(*chunk));
	chunk->segs = &cl->segs[cl->used_segs];
	return chunk;
}

/*
 * Append @seg to @chunk, which must be the chunk most recently started,
 * so that its segments stay contiguous in the storage.  The caller
 * checked that a segment slot is free.  Inline: every segment that is
 * decoded or added goes through it.
 */
static inline enum rpcrdma_wire_err
rpcrdma_append_seg(struct rpcrdma_chunk_lists *cl, struct rpcrdma_chunk *chunk,
		   const struct rpcrdma_segment *seg)
{
	u64 length = (u64)chunk->length + seg->length;

	if (length > U32_MAX)
		return RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW;
	if (!chunk->nsegs)
		chunk->segs = &cl->segs[cl->used_segs];
	cl->segs[cl->used_segs++] = *seg;
	chunk->nsegs++;
	chunk->length = length;
	return RPCRDMA_WIRE_OK;
}

static int rpcrdma_wire_err_to_errno(enum rpcrdma_wire_err err)
{
	switch (err) {
	case RPCRDMA_WIRE_OK:
		return 0;
	case RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW:
		return -EOVERFLOW;
	default:
		return -EINVAL;
	}
}

/*
 * Construction (for the side that sends chunk lists)
 */

/**
 * rpcrdma_add_read_segment - append a segment to the Read list
 * @cl: lists under construction
 * @position: XDR position of the Read chunk (a multiple of four)
 * @seg: the segment
 *
 * A segment with the same position as the previous one extends that
 * Read chunk; a higher position starts a new Read chunk.
 *
 * Return: 0; -EINVAL if Write or Reply chunks were already added, if
 * @position is unaligned or lower than the previous one; -ENOSPC if the
 * storage is full; -EOVERFLOW if the chunk length would exceed U32_MAX.
 */
int rpcrdma_add_read_segment(struct rpcrdma_chunk_lists *cl, u32 position,
			     const struct rpcrdma_segment *seg)
{
	struct rpcrdma_chunk *chunk = NULL;

	if (cl->nr_write_chunks || cl->has_reply || (position & 3))
		return -EINVAL;
	if (cl->nr_read_chunks)
		chunk = &cl->read[cl->nr_read_chunks - 1];
	if (chunk && position < chunk->position)
		return -EINVAL;
	if (chunk && position == chunk->position &&
	    (u64)chunk->length + seg->length > U32_MAX)
		return -EOVERFLOW;
	if (!rpcrdma_seg_slot_free(cl))
		return -ENOSPC;
	if (!chunk || position != chunk->position) {
		if (!rpcrdma_chunk_slot_free(cl))
			return -ENOSPC;
		chunk = rpcrdma_new_read_chunk(cl, position);
	}
	cl->nr_read_segs++;
	return rpcrdma_wire_err_to_errno(rpcrdma_append_seg(cl, chunk, seg));
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_add_read_segment);

/**
 * rpcrdma_add_write_chunk - start a new, empty Write chunk
 * @cl: lists under construction
 *
 * Return: 0; -EINVAL if the Reply chunk was already added; -ENOSPC if
 * the chunk storage is full.
 */
int rpcrdma_add_write_chunk(struct rpcrdma_chunk_lists *cl)
{
	if (cl->has_reply)
		return -EINVAL;
	if (!rpcrdma_chunk_slot_free(cl))
		return -ENOSPC;
	rpcrdma_new_write_chunk(cl);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_add_write_chunk);

/**
 * rpcrdma_add_write_segment - append a segment to the last Write chunk
 * @cl: lists under construction
 * @seg: the segment
 *
 * Return: 0; -EINVAL if there is no Write chunk or the Reply chunk was
 * already added; -ENOSPC if the segment storage is full; -EOVERFLOW if
 * the chunk length would exceed U32_MAX.
 */
int rpcrdma_add_write_segment(struct rpcrdma_chunk_lists *cl,
			      const struct rpcrdma_segment *seg)
{
	enum rpcrdma_wire_err err;

	if (!cl->nr_write_chunks || cl->has_reply)
		return -EINVAL;
	if (!rpcrdma_seg_slot_free(cl))
		return -ENOSPC;
	err = rpcrdma_append_seg(cl, &cl->write[cl->nr_write_chunks - 1], seg);
	if (!err)
		cl->nr_write_segs++;
	return rpcrdma_wire_err_to_errno(err);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_add_write_segment);

/**
 * rpcrdma_add_reply_chunk - add an empty Reply chunk
 * @cl: lists under construction
 *
 * Return: 0, or -EINVAL if there already is a Reply chunk.
 */
int rpcrdma_add_reply_chunk(struct rpcrdma_chunk_lists *cl)
{
	if (cl->has_reply)
		return -EINVAL;
	memset(&cl->reply, 0, sizeof(cl->reply));
	cl->reply.segs = &cl->segs[cl->used_segs];
	cl->has_reply = true;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_add_reply_chunk);

/**
 * rpcrdma_add_reply_segment - append a segment to the Reply chunk
 * @cl: lists under construction
 * @seg: the segment
 *
 * Return: 0; -EINVAL if there is no Reply chunk; -ENOSPC if the segment
 * storage is full; -EOVERFLOW if the chunk length would exceed U32_MAX.
 */
int rpcrdma_add_reply_segment(struct rpcrdma_chunk_lists *cl,
			      const struct rpcrdma_segment *seg)
{
	if (!cl->has_reply)
		return -EINVAL;
	if (!rpcrdma_seg_slot_free(cl))
		return -ENOSPC;
	return rpcrdma_wire_err_to_errno(rpcrdma_append_seg(cl, &cl->reply,
							     seg));
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_add_reply_segment);

/**
 * rpcrdma_has_pos0_chunk - does the Read list start with a position-zero
 *	Read chunk
 * @cl: decoded or constructed lists
 *
 * Return: true if the first Read chunk has position zero (with
 * RDMA_NOMSG, a Long Call: the chunk carries the whole Payload stream).
 */
bool rpcrdma_has_pos0_chunk(const struct rpcrdma_chunk_lists *cl)
{
	return cl->nr_read_chunks && cl->read[0].position == 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_has_pos0_chunk);

/*
 * Decoding
 */

static enum rpcrdma_wire_err rpcrdma_decode_discrim(struct rpcrdma_cursor *c,
						    bool *present)
{
	const __be32 *p;

	p = rpcrdma_cursor_take(c, 1);
	if (!p)
		return RPCRDMA_WIRE_ERR_TRUNCATED;
	if (*p == xdr_zero)
		*present = false;
	else if (*p == xdr_one)
		*present = true;
	else
		return RPCRDMA_WIRE_ERR_BAD_DISCRIM;
	return RPCRDMA_WIRE_OK;
}

static void rpcrdma_xdr_decode_segment(const __be32 *p,
				       struct rpcrdma_segment *seg)
{
	seg->handle = be32_to_cpup(p++);
	seg->length = be32_to_cpup(p++);
	seg->offset = (u64)be32_to_cpup(p++) << 32;
	seg->offset |= be32_to_cpup(p);
}

static enum rpcrdma_wire_err rpcrdma_decode_read_entry(struct rpcrdma_cursor *c,
						       const struct rpcrdma_wire_limits *limits,
						       struct rpcrdma_chunk_lists *cl)
{
	struct rpcrdma_chunk *chunk = NULL;
	struct rpcrdma_segment seg;
	bool new_chunk;
	u32 position;
	const __be32 *p;

	if (limits && cl->nr_read_segs >= limits->max_read_segs)
		return RPCRDMA_WIRE_ERR_TOO_MANY_SEGS;
	p = rpcrdma_cursor_take(c, 1 + RPCRDMA_SEGMENT_WORDS);	/* position */
	if (!p)
		return RPCRDMA_WIRE_ERR_TRUNCATED;
	position = be32_to_cpup(p);
	rpcrdma_xdr_decode_segment(p + 1, &seg);

	if (position & 3)
		return RPCRDMA_WIRE_ERR_POS_UNALIGNED;
	if (cl->nr_read_chunks)
		chunk = &cl->read[cl->nr_read_chunks - 1];
	if (chunk && position < chunk->position)
		return RPCRDMA_WIRE_ERR_POS_DECREASING;
	if (!seg.length)
		return RPCRDMA_WIRE_ERR_ZERO_LENGTH;

	new_chunk = !chunk || position != chunk->position;
	if (limits) {
		if (new_chunk &&
		    cl->nr_read_chunks >= limits->max_read_chunks)
			return RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS;
		if ((new_chunk ? 0 : chunk->nsegs) >= limits->max_chunk_segs)
			return RPCRDMA_WIRE_ERR_TOO_MANY_SEGS;
	}
	if (!rpcrdma_seg_slot_free(cl) ||
	    (new_chunk && !rpcrdma_chunk_slot_free(cl)))
		return RPCRDMA_WIRE_ERR_NO_STORAGE;
	if (!new_chunk && (u64)chunk->length + seg.length > U32_MAX)
		return RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW;

	if (new_chunk)
		chunk = rpcrdma_new_read_chunk(cl, position);
	cl->nr_read_segs++;
	return rpcrdma_append_seg(cl, chunk, &seg);
}

/**
 * rpcrdma_decode_read_list - decode and check the Read list
 * @c: cursor at the Read list
 * @dir: message direction; a reply must have an empty Read list
 * @limits: work bounds (max_read_segs, max_read_chunks, max_chunk_segs),
 *	or NULL
 * @cl: lists to fill; must be empty
 *
 * Each Read segment must have a position that is a multiple of four and
 * not lower than the previous position, and a non-zero length.  Limits
 * and storage are checked before each entry is stored.
 *
 * Return: RPCRDMA_WIRE_OK or the rule broken.
 */
enum rpcrdma_wire_err
rpcrdma_decode_read_list(struct rpcrdma_cursor *c,
			 enum rpcrdma_msg_dir dir,
			 const struct rpcrdma_wire_limits *limits,
			 struct rpcrdma_chunk_lists *cl)
{
	enum rpcrdma_wire_err err;
	bool present;

	for (;;) {
		err = rpcrdma_decode_discrim(c, &present);
		if (err || !present)
			return err;
		if (dir == RPCRDMA_DIR_REPLY)
			return RPCRDMA_WIRE_ERR_READ_IN_REPLY;
		err = rpcrdma_decode_read_entry(c, limits, cl);
		if (err)
			return err;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_read_list);

/*
 * Decode a counted array of segments (a Write chunk or the Reply chunk)
 * into @chunk, which the caller has just started.  The count is checked
 * against the limits, the storage and the received bytes before any
 * segment is read.
 */
static enum rpcrdma_wire_err rpcrdma_decode_segments(struct rpcrdma_cursor *c,
						     enum rpcrdma_msg_dir dir,
						     const struct rpcrdma_wire_limits *limits,
						     struct rpcrdma_chunk_lists *cl,
						     struct rpcrdma_chunk *chunk,
						     unsigned int *nr_segs)
{
	struct rpcrdma_segment seg;
	enum rpcrdma_wire_err err;
	const __be32 *p;
	u32 count, i;

	p = rpcrdma_cursor_take(c, 1);
	if (!p)
		return RPCRDMA_WIRE_ERR_TRUNCATED;
	count = be32_to_cpup(p);
	if (limits && count > limits->max_chunk_segs)
		return RPCRDMA_WIRE_ERR_TOO_MANY_SEGS;
	if (count > cl->max_segs - cl->used_segs)
		return RPCRDMA_WIRE_ERR_NO_STORAGE;
	if (count > rpcrdma_cursor_words_left(c) / RPCRDMA_SEGMENT_WORDS)
		return RPCRDMA_WIRE_ERR_TRUNCATED;

	if (!count)
		return RPCRDMA_WIRE_OK;
	p = rpcrdma_cursor_take(c, count * RPCRDMA_SEGMENT_WORDS);
	if (!p)
		return RPCRDMA_WIRE_ERR_TRUNCATED;
	for (i = 0; i < count; i++, p += RPCRDMA_SEGMENT_WORDS) {
		rpcrdma_xdr_decode_segment(p, &seg);
		if (!seg.length && dir == RPCRDMA_DIR_CALL)
			return RPCRDMA_WIRE_ERR_ZERO_LENGTH;
		err = rpcrdma_append_seg(cl, chunk, &seg);
		if (err)
			return err;
		(*nr_segs)++;
	}
	return RPCRDMA_WIRE_OK;
}

/**
 * rpcrdma_decode_write_list - decode and check the Write list
 * @c: cursor at the Write list
 * @dir: message direction; in a call every segment must be non-empty,
 *	in a reply empty segments mean "unused"
 * @limits: work bounds (max_write_chunks, max_chunk_segs), or NULL
 * @cl: lists to fill; the Read list, if any, is already decoded
 *
 * A Write chunk may have zero segments (an "empty Write chunk").
 *
 * Return: RPCRDMA_WIRE_OK or the rule broken.
 */
enum rpcrdma_wire_err
rpcrdma_decode_write_list(struct rpcrdma_cursor *c,
			  enum rpcrdma_msg_dir dir,
			  const struct rpcrdma_wire_limits *limits,
			  struct rpcrdma_chunk_lists *cl)
{
	struct rpcrdma_chunk *chunk;
	enum rpcrdma_wire_err err;
	bool present;

	for (;;) {
		err = rpcrdma_decode_discrim(c, &present);
		if (err || !present)
			return err;
		if (limits && cl->nr_write_chunks >= limits->max_write_chunks)
			return RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS;
		if (!rpcrdma_chunk_slot_free(cl))
			return RPCRDMA_WIRE_ERR_NO_STORAGE;
		chunk = rpcrdma_new_write_chunk(cl);
		err = rpcrdma_decode_segments(c, dir, limits, cl, chunk,
					      &cl->nr_write_segs);
		if (err)
			return err;
	}
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_write_list);

/**
 * rpcrdma_decode_reply_chunk - decode and check the optional Reply chunk
 * @c: cursor at the Reply chunk discriminator
 * @dir: message direction; in a call every segment must be non-empty
 * @limits: work bounds (max_chunk_segs), or NULL
 * @cl: lists to fill; the Read and Write lists are already decoded
 *
 * Return: RPCRDMA_WIRE_OK or the rule broken.
 */
enum rpcrdma_wire_err
rpcrdma_decode_reply_chunk(struct rpcrdma_cursor *c,
			   enum rpcrdma_msg_dir dir,
			   const struct rpcrdma_wire_limits *limits,
			   struct rpcrdma_chunk_lists *cl)
{
	enum rpcrdma_wire_err err;
	unsigned int nr_segs = 0;
	bool present;

	err = rpcrdma_decode_discrim(c, &present);
	if (err || !present)
		return err;
	rpcrdma_add_reply_chunk(cl);
	return rpcrdma_decode_segments(c, dir, limits, cl, &cl->reply,
				       &nr_segs);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_reply_chunk);

/* Words of a call's lists with one Read segment and nothing else. */
#define RPCRDMA_ONE_READ_WORDS	(2 + RPCRDMA_SEGMENT_WORDS + 3)

/*
 * The lists of an NFS WRITE's call: one Read segment, the end of the
 * Read list, an empty Write list and no Reply chunk.  Stores what
 * rpcrdma_decode_read_list() and the rest would store for them, without
 * their loops, and returns true.  Returns false, with nothing consumed
 * or stored, for any other shape, and for a Read segment whose position,
 * length, limits or storage the general decoder is to judge.
 */
static bool rpcrdma_decode_one_read(struct rpcrdma_cursor *c,
				    enum rpcrdma_msg_dir dir,
				    const struct rpcrdma_wire_limits *limits,
				    struct rpcrdma_chunk_lists *cl)
{
	const __be32 *p = c->p;
	struct rpcrdma_chunk *chunk = cl->chunks;
	u32 position;

	if (rpcrdma_cursor_words_left(c) < RPCRDMA_ONE_READ_WORDS ||
	    p[0] != xdr_one || p[6] != xdr_zero || p[7] != xdr_zero ||
	    p[8] != xdr_zero || dir != RPCRDMA_DIR_CALL)
		return false;
	position = be32_to_cpup(p + 1);
	if ((position & 3) || p[3] == xdr_zero)
		return false;
	if (limits && (!limits->max_read_segs || !limits->max_read_chunks ||
		       !limits->max_chunk_segs))
		return false;
	if (!cl->max_segs || !cl->max_chunks)
		return false;

	rpcrdma_xdr_decode_segment(p + 2, &cl->segs[0]);
	chunk->position = position;
	chunk->length = cl->segs[0].length;
	chunk->nsegs = 1;
	chunk->segs = cl->segs;
	cl->nr_read_chunks = 1;
	cl->nr_read_segs = 1;
	cl->write = cl->chunks + 1;
	cl->used_segs = 1;
	c->p = p + RPCRDMA_ONE_READ_WORDS;
	return true;
}

/*
 * The lists of an NFS READ's call, or of its reply: after the empty Read
 * list, one Write chunk, the end of the Write list and no Reply chunk.
 * Stores what rpcrdma_decode_write_list() and the rest would store for
 * them, without their per-item checks and cursor steps, and returns
 * true.  Returns false, with nothing consumed or stored, for any other
 * shape, and for a chunk whose count, lengths, limits or storage the
 * general decoder is to judge.
 */
static bool rpcrdma_decode_one_write(struct rpcrdma_cursor *c,
				     enum rpcrdma_msg_dir dir,
				     const struct rpcrdma_wire_limits *limits,
				     struct rpcrdma_chunk_lists *cl)
{
	const __be32 *p = c->p, *seg;
	struct rpcrdma_chunk *chunk = cl->chunks;
	size_t left = rpcrdma_cursor_words_left(c);
	u64 length = 0;
	u32 count, i;

	if (left < 4 || p[0] != xdr_one)
		return false;
	count = be32_to_cpup(p + 1);
	if (!count || count > cl->max_segs || !cl->max_chunks ||
	    count > (left - 4) / RPCRDMA_SEGMENT_WORDS)
		return false;
	if (limits && (!limits->max_write_chunks ||
		       count > limits->max_chunk_segs))
		return false;
	seg = p + 2;
	p = seg + count * RPCRDMA_SEGMENT_WORDS;
	if (p[0] != xdr_zero || p[1] != xdr_zero)
		return false;
	for (i = 0; i < count; i++) {
		u32 n = be32_to_cpup(seg + i * RPCRDMA_SEGMENT_WORDS + 1);

		if (!n && dir == RPCRDMA_DIR_CALL)
			return false;
		length += n;
	}
	if (length > U32_MAX)
		return false;
	for (i = 0; i < count; i++)
		rpcrdma_xdr_decode_segment(seg + i * RPCRDMA_SEGMENT_WORDS,
					   &cl->segs[i]);

	chunk->position = 0;
	chunk->length = length;
	chunk->nsegs = count;
	chunk->segs = cl->segs;
	cl->nr_write_chunks = 1;
	cl->nr_write_segs = count;
	cl->used_segs = count;
	c->p = p + 2;
	return true;
}

/*
 * The lists in full, without the shortcuts: every shape and every rule.
 * Not inline, so that rpcrdma_decode_chunk_lists(), which decodes the
 * shapes of most messages itself, stays small enough to need few
 * registers.
 */
static noinline enum rpcrdma_wire_err
rpcrdma_decode_lists_full(struct rpcrdma_cursor *c, enum rpcrdma_msg_dir dir,
			  const struct rpcrdma_wire_limits *limits,
			  struct rpcrdma_chunk_lists *cl)
{
	enum rpcrdma_wire_err err;

	rpcrdma_chunk_lists_reset(cl);
	if (!rpcrdma_cursor_skip_zero(c)) {
		err = rpcrdma_decode_read_list(c, dir, limits, cl);
		if (err)
			return err;
	}
	if (!rpcrdma_cursor_skip_zero(c)) {
		err = rpcrdma_decode_write_list(c, dir, limits, cl);
		if (err)
			return err;
	}
	if (rpcrdma_cursor_skip_zero(c))
		return RPCRDMA_WIRE_OK;
	return rpcrdma_decode_reply_chunk(c, dir, limits, cl);
}

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * rpcrdma_decode_chunk_lists_general - rpcrdma_decode_chunk_lists()
 *	without the shortcuts
 * @c: cursor after the fixed header words
 * @dir: message direction
 * @limits: work bounds, or NULL
 * @cl: lists to fill (emptied first)
 *
 * The list decoders alone: what KUnit compares the shortcuts with.
 *
 * Return: RPCRDMA_WIRE_OK or the first rule broken.
 */
enum rpcrdma_wire_err
rpcrdma_decode_chunk_lists_general(struct rpcrdma_cursor *c,
				   enum rpcrdma_msg_dir dir,
				   const struct rpcrdma_wire_limits *limits,
				   struct rpcrdma_chunk_lists *cl)
{
	return rpcrdma_decode_lists_full(c, dir, limits, cl);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_chunk_lists_general);
#endif

/**
 * rpcrdma_decode_chunk_lists - decode the Read list, Write list and Reply
 *	chunk of an RDMA_MSG or RDMA_NOMSG header
 * @c: cursor after the fixed header words
 * @dir: message direction
 * @limits: work bounds, or NULL
 * @cl: lists to fill (emptied first)
 *
 * The shapes most messages have are decoded here: three empty lists,
 * an NFS WRITE's one Read segment, an NFS READ's one Write chunk.  Any
 * other shape, and any of these that the shortcuts leave to the full
 * decoder, is decoded from the start by rpcrdma_decode_lists_full().
 * Read positions are only checked for alignment and order here; see
 * rpcrdma_check_read_positions() for the checks that need the length of
 * the inline payload.
 *
 * Return: RPCRDMA_WIRE_OK or the first rule broken.
 */
enum rpcrdma_wire_err
rpcrdma_decode_chunk_lists(struct rpcrdma_cursor *c,
			   enum rpcrdma_msg_dir dir,
			   const struct rpcrdma_wire_limits *limits,
			   struct rpcrdma_chunk_lists *cl)
{
	const __be32 *p = c->p;

	rpcrdma_chunk_lists_reset(cl);
	if (rpcrdma_cursor_words_left(c) >= 3 && p[0] == xdr_zero &&
	    p[1] == xdr_zero && p[2] == xdr_zero) {
		c->p = p + 3;
		return RPCRDMA_WIRE_OK;
	}
	if (rpcrdma_decode_one_read(c, dir, limits, cl))
		return RPCRDMA_WIRE_OK;
	if (rpcrdma_cursor_skip_zero(c)) {
		if (rpcrdma_decode_one_write(c, dir, limits, cl))
			return RPCRDMA_WIRE_OK;
		c->p = p;
	}
	return rpcrdma_decode_lists_full(c, dir, limits, cl);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_decode_chunk_lists);

/**
 * rpcrdma_check_read_positions - check Read positions against the call
 * @cl: decoded lists of a call
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 * @inline_len: bytes of Payload stream received inline after the header
 *
 * The reduced Payload stream is the position-zero Read chunk of an
 * RDMA_NOMSG call (Long Call), otherwise the inline payload; call its
 * length L.  Every other Read chunk k, in list order, was removed from
 * the unreduced stream at its position p(k) together with its XDR
 * roundup, so with S(k) the sum of xdr_align_size(length) of the Read
 * chunks before it (not counting a Long Call's position-zero chunk):
 *
 *	p(k) >= p(k-1) + xdr_align_size(length(k-1))	(else POS_OVERLAP)
 *	p(k) <= L + S(k)				(else POS_RANGE)
 *
 * Return: RPCRDMA_WIRE_OK, RPCRDMA_WIRE_ERR_POS_OVERLAP or
 * RPCRDMA_WIRE_ERR_POS_RANGE.
 */
enum rpcrdma_wire_err
rpcrdma_check_read_positions(const struct rpcrdma_chunk_lists *cl, u32 proc,
			     unsigned int inline_len)
{
	u64 reduced_len = inline_len;
	u64 removed = 0, end = 0;
	const struct rpcrdma_chunk *chunk;
	unsigned int i = 0;

	if (proc == RPCRDMA_NOMSG && rpcrdma_has_pos0_chunk(cl)) {
		reduced_len = cl->read[0].length;
		i = 1;
	}
	for (; i < cl->nr_read_chunks; i++) {
		chunk = &cl->read[i];
		if (chunk->position < end)
			return RPCRDMA_WIRE_ERR_POS_OVERLAP;
		if (chunk->position > reduced_len + removed)
			return RPCRDMA_WIRE_ERR_POS_RANGE;
		removed += xdr_align_size(chunk->length);
		end = (u64)chunk->position + xdr_align_size(chunk->length);
	}
	return RPCRDMA_WIRE_OK;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_check_read_positions);

static enum rpcrdma_wire_err
rpcrdma_check_returned_chunk(const struct rpcrdma_chunk *offered,
			     const struct rpcrdma_chunk *returned)
{
	const struct rpcrdma_segment *o, *r;
	u32 i;

	if (returned->nsegs > offered->nsegs)
		return RPCRDMA_WIRE_ERR_REPLY_EXTRA_SEGS;
	for (i = 0; i < returned->nsegs; i++) {
		o = &offered->segs[i];
		r = &returned->segs[i];
		if (r->handle != o->handle || r->offset != o->offset)
			return RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH;
		if (r->length > o->length)
			return RPCRDMA_WIRE_ERR_REPLY_SEG_TOO_LONG;
	}
	return RPCRDMA_WIRE_OK;
}

/**
 * rpcrdma_check_reply_chunks - check a reply's chunks against the call's
 * @offered: the lists the requester sent in its call
 * @returned: the lists decoded from the reply
 *
 * For the requester.  The reply must not have a Read list.  Its Write
 * list may be shorter than the offered one (trailing unused chunks
 * omitted) but not longer; a Reply chunk may only come back if one was
 * offered.  Each returned chunk may have fewer segments than the
 * offered one, but not more, and segment i must have the handle and
 * offset of offered segment i and a length no greater than it.
 *
 * Return: RPCRDMA_WIRE_OK or the rule broken.
 */
enum rpcrdma_wire_err
rpcrdma_check_reply_chunks(const struct rpcrdma_chunk_lists *offered,
			   const struct rpcrdma_chunk_lists *returned)
{
	enum rpcrdma_wire_err err;
	unsigned int i;

	if (returned->nr_read_chunks)
		return RPCRDMA_WIRE_ERR_READ_IN_REPLY;
	if (returned->nr_write_chunks > offered->nr_write_chunks)
		return RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK;
	for (i = 0; i < returned->nr_write_chunks; i++) {
		err = rpcrdma_check_returned_chunk(&offered->write[i],
						   &returned->write[i]);
		if (err)
			return err;
	}
	if (!returned->has_reply)
		return RPCRDMA_WIRE_OK;
	if (!offered->has_reply)
		return RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK;
	return rpcrdma_check_returned_chunk(&offered->reply, &returned->reply);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_check_reply_chunks);

/*
 * One returned Write chunk, or the returned Reply chunk, against the
 * offered one (@o, trusted): the same discriminator, segment count,
 * handles and offsets, and no length above the offered one.  Always
 * inline: out of line, the cursors it moves would live on the stack,
 * behind a stack protector, on every reply.
 */
static __always_inline bool rpcrdma_match_counted(const __be32 **rp,
						  const __be32 **op,
						  const __be32 *end, u32 *sum)
{
	const __be32 *r = *rp, *o = *op;
	u32 i, n = be32_to_cpu(o[1]);

	/* The offer is ours: n is at most our segments per RPC. */
	if (end - r < 2 + (ptrdiff_t)n * RPCRDMA_SEGMENT_WORDS ||
	    r[0] != o[0] || r[1] != o[1])
		return false;
	r += 2;
	o += 2;
	*sum = 0;
	for (i = 0; i < n; i++) {
		if (r[0] != o[0] || r[2] != o[2] || r[3] != o[3] ||
		    be32_to_cpu(r[1]) > be32_to_cpu(o[1]))
			return false;
		*sum += be32_to_cpu(r[1]);
		r += RPCRDMA_SEGMENT_WORDS;
		o += RPCRDMA_SEGMENT_WORDS;
	}
	*rp = r;
	*op = o;
	return true;
}

/**
 * rpcrdma_match_reply - check a reply's chunk lists word for word
 * @call: the chunk lists of the call, as the requester encoded them
 * @msg: the reply from its fixed header on, version 1 (the caller
 *	checked the version)
 * @words: whole words received from @msg on
 * @m: filled in when the reply matches
 *
 * The requester's fast path for the common reply: an empty Read list,
 * every Write chunk the call offered returned with all its segments,
 * each with the offered handle and offset and no more than the offered
 * length, and the Reply chunk returned in the same way if the call
 * offered one, else none; and a message type that goes with them: an
 * RDMA_MSG whose Reply chunk, if any, carries nothing, or an RDMA_NOMSG
 * (a Long Reply) whose Reply chunk carries the reply and with no Write
 * chunk.  A reply of any other shape, valid or not, is left to
 * rpcrdma_decode_hdr() and rpcrdma_check_reply_chunks(), which accept
 * every reply this accepts, with the same header length and chunks
 * (KUnit compares the two on every vector).  @call is trusted: its
 * lists are well formed and within the requester's limits.
 *
 * Return: true if @msg matches, with @m set.
 */
bool rpcrdma_match_reply(const __be32 *call, const __be32 *msg,
			 size_t words, struct rpcrdma_reply_match *m)
{
	const __be32 *r = msg + 4, *end = msg + words;
	bool nomsg;
	u32 sum;

	if (words < RPCRDMA_HDR_MIN_SIZE / XDR_UNIT)
		return false;
	nomsg = msg[3] == cpu_to_be32(RPCRDMA_NOMSG);
	if (!nomsg && msg[3] != cpu_to_be32(RPCRDMA_MSG))
		return false;

	/* Skip the call's Read list: a reply has none. */
	while (*call != xdr_zero)
		call += 2 + RPCRDMA_SEGMENT_WORDS;
	call++;
	if (r == end || *r++ != xdr_zero)
		return false;

	m->nr_write_chunks = 0;
	m->written = 0;
	while (*call != xdr_zero) {
		if (!rpcrdma_match_counted(&r, &call, end, &sum))
			return false;
		if (!m->nr_write_chunks++)
			m->written = sum;
	}
	/* The Write list's terminator, then the Reply chunk's word(s). */
	if (end - r < 2 || r[0] != xdr_zero)
		return false;
	r++;
	call++;
	m->reply_len = 0;
	m->has_reply = *call != xdr_zero;
	if (!m->has_reply) {
		if (*r++ != xdr_zero)
			return false;
	} else if (!rpcrdma_match_counted(&r, &call, end, &m->reply_len)) {
		return false;
	}
	if (nomsg ? !m->reply_len || m->nr_write_chunks : m->reply_len)
		return false;
	m->hdr_len = (r - msg) * XDR_UNIT;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_match_reply);

/*
 * Encoding
 */

/**
 * rpcrdma_encode_segment - encode one plain segment
 * @xdr: stream to encode into
 * @seg: segment to encode
 *
 * Return: 0, or -EMSGSIZE if @xdr has no room.
 */
int rpcrdma_encode_segment(struct xdr_stream *xdr,
			   const struct rpcrdma_segment *seg)
{
	__be32 *p;

	p = xdr_reserve_space(xdr, RPCRDMA_SEGMENT_SIZE);
	if (!p)
		return -EMSGSIZE;
	rpcrdma_put_segment(p, seg->handle, seg->length, seg->offset);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_segment);

static int rpcrdma_encode_word(struct xdr_stream *xdr, __be32 word)
{
	return xdr_stream_encode_be32(xdr, word) < 0 ? -EMSGSIZE : 0;
}

/* The Read list, with its terminator: one entry per segment. */
static __be32 *rpcrdma_put_read_list(__be32 *p,
				     const struct rpcrdma_chunk_lists *cl)
{
	const struct rpcrdma_chunk *chunk;
	const struct rpcrdma_segment *seg;
	unsigned int i, j;

	for (i = 0; i < cl->nr_read_chunks; i++) {
		chunk = &cl->read[i];
		for (j = 0; j < chunk->nsegs; j++) {
			seg = &chunk->segs[j];
			*p++ = xdr_one;
			*p++ = cpu_to_be32(chunk->position);
			p = rpcrdma_put_segment(p, seg->handle, seg->length,
						seg->offset);
		}
	}
	*p++ = xdr_zero;
	return p;
}

/* A counted segment array, lengths as stored. */
static __be32 *rpcrdma_put_counted(__be32 *p,
				   const struct rpcrdma_chunk *chunk)
{
	const struct rpcrdma_segment *seg;
	unsigned int i;

	*p++ = cpu_to_be32(chunk->nsegs);
	for (i = 0; i < chunk->nsegs; i++) {
		seg = &chunk->segs[i];
		p = rpcrdma_put_segment(p, seg->handle, seg->length,
					seg->offset);
	}
	return p;
}

/* Encoded size of the three chunk lists, from what the writer walks. */
static size_t rpcrdma_chunk_lists_len(const struct rpcrdma_chunk_lists *cl)
{
	size_t len = 2 * XDR_UNIT;	/* Read and Write list terminators */
	unsigned int i;

	for (i = 0; i < cl->nr_read_chunks; i++)
		len += cl->read[i].nsegs * RPCRDMA_READ_ENTRY_SIZE;
	for (i = 0; i < cl->nr_write_chunks; i++)
		len += RPCRDMA_CHUNK_HEAD_SIZE +
		       cl->write[i].nsegs * RPCRDMA_SEGMENT_SIZE;
	if (cl->has_reply)
		len += RPCRDMA_CHUNK_HEAD_SIZE +
		       cl->reply.nsegs * RPCRDMA_SEGMENT_SIZE;
	else
		len += XDR_UNIT;
	return len;
}

/* Write the three chunk lists at @p, which has room for all of them. */
static void rpcrdma_put_chunk_lists(__be32 *p,
				    const struct rpcrdma_chunk_lists *cl)
{
	unsigned int i;

	p = rpcrdma_put_read_list(p, cl);
	for (i = 0; i < cl->nr_write_chunks; i++) {
		*p++ = xdr_one;
		p = rpcrdma_put_counted(p, &cl->write[i]);
	}
	*p++ = xdr_zero;
	if (!cl->has_reply) {
		*p = xdr_zero;
		return;
	}
	*p++ = xdr_one;
	rpcrdma_put_counted(p, &cl->reply);
}

/**
 * rpcrdma_chunk_lists_put - encode the three chunk lists into a buffer
 * @buf: XDR-aligned memory, where the Read list starts
 * @room: bytes available at @buf
 * @cl: lists to encode, segment lengths as stored
 *
 * The flat-buffer form of rpcrdma_encode_chunk_lists(), for a header
 * that is built in a buffer of its own: no xdr_stream, one bounds check.
 *
 * Return: bytes written, or -EMSGSIZE if they do not fit in @room.
 */
int rpcrdma_chunk_lists_put(void *buf, size_t room,
			    const struct rpcrdma_chunk_lists *cl)
{
	size_t len = rpcrdma_chunk_lists_len(cl);

	if (len > room)
		return -EMSGSIZE;
	rpcrdma_put_chunk_lists(buf, cl);
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_chunk_lists_put);

/**
 * rpcrdma_encode_chunk_lists - encode the three chunk lists
 * @xdr: stream positioned after the fixed header words
 * @cl: lists to encode
 *
 * Return: 0, or -EMSGSIZE if @xdr has no room.
 */
int rpcrdma_encode_chunk_lists(struct xdr_stream *xdr,
			       const struct rpcrdma_chunk_lists *cl)
{
	size_t len = rpcrdma_chunk_lists_len(cl);
	__be32 *p;

	p = xdr_reserve_space(xdr, len);
	if (!p)
		return -EMSGSIZE;
	rpcrdma_put_chunk_lists(p, cl);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_chunk_lists);

/*
 * A counted segment array returned by a responder, the segment lengths
 * rewritten to describe @written bytes filled in array order.
 */
static __be32 *rpcrdma_put_counted_written(__be32 *p,
					   const struct rpcrdma_chunk *chunk,
					   u32 written)
{
	const struct rpcrdma_segment *seg;
	u32 length, i;

	*p++ = cpu_to_be32(chunk->nsegs);
	for (i = 0; i < chunk->nsegs; i++) {
		seg = &chunk->segs[i];
		length = min(seg->length, written);
		written -= length;
		p = rpcrdma_put_segment(p, seg->handle, length, seg->offset);
	}
	return p;
}

static int rpcrdma_encode_counted(struct xdr_stream *xdr,
				  const struct rpcrdma_chunk *chunk,
				  const u32 *written)
{
	__be32 *p;

	p = xdr_reserve_space(xdr, XDR_UNIT +
			      chunk->nsegs * RPCRDMA_SEGMENT_SIZE);
	if (!p)
		return -EMSGSIZE;
	rpcrdma_put_counted_written(p, chunk, *written);
	return 0;
}

/**
 * rpcrdma_reply_lists_put - write the chunk lists of a reply
 * @buf: XDR-aligned buffer of its own for them
 * @room: bytes available at @buf
 * @write: the Write chunks the call offered
 * @nwrite: how many of them to return (the first @nwrite)
 * @written: bytes written into each of those
 * @reply: the call's Reply chunk if the reply went into it, or NULL
 * @reply_written: bytes written into @reply
 *
 * For the responder, the same words as an empty Read list,
 * rpcrdma_encode_write_list_written() and
 * rpcrdma_encode_reply_chunk_written(), written straight into @buf:
 * one bounds check instead of one per item.
 *
 * Return: bytes written; -EINVAL if a written count exceeds its chunk's
 * length; -EMSGSIZE if they do not fit @room.
 */
int rpcrdma_reply_lists_put(void *buf, size_t room,
			    const struct rpcrdma_chunk *write,
			    unsigned int nwrite, const u32 *written,
			    const struct rpcrdma_chunk *reply,
			    u32 reply_written)
{
	/* Empty Read list, Write list terminator, Reply chunk discriminator. */
	size_t len = 3 * XDR_UNIT;
	__be32 *p = buf;
	unsigned int i;

	for (i = 0; i < nwrite; i++) {
		if (written[i] > write[i].length)
			return -EINVAL;
		len += RPCRDMA_CHUNK_HEAD_SIZE +
		       write[i].nsegs * RPCRDMA_SEGMENT_SIZE;
	}
	if (reply) {
		if (reply_written > reply->length)
			return -EINVAL;
		len += XDR_UNIT + reply->nsegs * RPCRDMA_SEGMENT_SIZE;
	}
	if (len > room)
		return -EMSGSIZE;

	*p++ = xdr_zero;
	for (i = 0; i < nwrite; i++) {
		*p++ = xdr_one;
		p = rpcrdma_put_counted_written(p, &write[i], written[i]);
	}
	*p++ = xdr_zero;
	if (reply) {
		*p++ = xdr_one;
		rpcrdma_put_counted_written(p, reply, reply_written);
	} else {
		*p = xdr_zero;
	}
	return len;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_reply_lists_put);

/**
 * rpcrdma_encode_write_list_written - encode a reply's Write list
 * @xdr: stream to encode into
 * @chunks: the Write chunks offered by the call (the first @nchunks)
 * @nchunks: number of chunks to return
 * @written: bytes written into each chunk
 *
 * For the responder: each chunk is returned with its segment count and
 * segments, the segment lengths rewritten to describe @written[i] bytes
 * placed in segment order (RFC 8166 section 3.4.6); unused segments get
 * length zero.  The list terminator is included.
 *
 * Return: 0; -EINVAL if some @written[i] exceeds the chunk's length;
 * -EMSGSIZE if @xdr has no room.
 */
int rpcrdma_encode_write_list_written(struct xdr_stream *xdr,
				      const struct rpcrdma_chunk *chunks,
				      unsigned int nchunks, const u32 *written)
{
	unsigned int i;
	int ret;

	for (i = 0; i < nchunks; i++) {
		if (written[i] > chunks[i].length)
			return -EINVAL;
		if (rpcrdma_encode_word(xdr, xdr_one))
			return -EMSGSIZE;
		ret = rpcrdma_encode_counted(xdr, &chunks[i], &written[i]);
		if (ret)
			return ret;
	}
	return rpcrdma_encode_word(xdr, xdr_zero);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_write_list_written);

/**
 * rpcrdma_encode_reply_chunk_written - encode a reply's Reply chunk
 * @xdr: stream to encode into
 * @chunk: the Reply chunk offered by the call, or NULL to encode "absent"
 * @written: bytes of RPC Reply written into @chunk
 *
 * Return: 0; -EINVAL if @written exceeds the chunk's length; -EMSGSIZE
 * if @xdr has no room.
 */
int rpcrdma_encode_reply_chunk_written(struct xdr_stream *xdr,
				       const struct rpcrdma_chunk *chunk,
				       u32 written)
{
	if (!chunk)
		return rpcrdma_encode_word(xdr, xdr_zero);
	if (written > chunk->length)
		return -EINVAL;
	if (rpcrdma_encode_word(xdr, xdr_one))
		return -EMSGSIZE;
	return rpcrdma_encode_counted(xdr, chunk, &written);
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_encode_reply_chunk_written);
