/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RPC-over-RDMA version 1 wire codec, shared by the client (requester)
 * and server (responder) transports.
 *
 * Transport header layout: RFC 8166 (same XDR as RFC 5666 section 4.3).
 * Connection private data: RFC 8797.
 *
 * Decoders read a received header in place through a struct
 * rpcrdma_cursor (every read is bounds checked against the received
 * bytes), never allocate, and store chunk lists in arrays that the
 * caller provides.  Encoders write through xdr_reserve_space(), or
 * straight into a header buffer of its own (rpcrdma_encode_msg_buf()).
 * See Documentation/protocol.rst.
 */
#ifndef _RPCRDMA_WIRE_H
#define _RPCRDMA_WIRE_H

#include <linux/overflow.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/sunrpc/xdr.h>

/*
 * Protocol constants (RFC 8166 / RFC 5666 section 4.3)
 */

/* The only protocol version this codec speaks. */
#define RPCRDMA_VERSION		1

/**
 * enum rpcrdma_msg_type - values of the rdma_proc field
 * @RPCRDMA_MSG: chunk lists, then the RPC message
 * @RPCRDMA_NOMSG: chunk lists only; the RPC message travels in a chunk
 * @RPCRDMA_MSGP: padded message (RFC 5666); no longer supported
 * @RPCRDMA_DONE: Read chunk release (RFC 5666); no longer supported
 * @RPCRDMA_ERROR: transport header error report
 */
enum rpcrdma_msg_type {
	RPCRDMA_MSG	= 0,
	RPCRDMA_NOMSG	= 1,
	RPCRDMA_MSGP	= 2,
	RPCRDMA_DONE	= 3,
	RPCRDMA_ERROR	= 4,
};

/**
 * enum rpcrdma_err_code - values of the rdma_err field of RDMA_ERROR
 * @RPCRDMA_ERR_VERS: version not supported; low and high versions follow
 * @RPCRDMA_ERR_CHUNK: header could not be parsed, or reply does not fit
 */
enum rpcrdma_err_code {
	RPCRDMA_ERR_VERS	= 1,
	RPCRDMA_ERR_CHUNK	= 2,
};

/*
 * Sizes on the wire, in bytes.  A plain segment is handle, length and a
 * 64-bit offset; a Read list entry adds the "present" discriminator and
 * the position; a Write chunk starts with a discriminator and a count.
 */
#define RPCRDMA_FIXED_HDR_SIZE		(4 * XDR_UNIT)	/* xid .. proc */
#define RPCRDMA_HDR_MIN_SIZE		(7 * XDR_UNIT)	/* MSG, no chunks */
#define RPCRDMA_ERR_VERS_HDR_SIZE	(7 * XDR_UNIT)
#define RPCRDMA_ERR_CHUNK_HDR_SIZE	(5 * XDR_UNIT)
#define RPCRDMA_SEGMENT_SIZE		(4 * XDR_UNIT)
#define RPCRDMA_SEGMENT_WORDS		(RPCRDMA_SEGMENT_SIZE / XDR_UNIT)
#define RPCRDMA_READ_ENTRY_SIZE		(2 * XDR_UNIT + RPCRDMA_SEGMENT_SIZE)
#define RPCRDMA_CHUNK_HEAD_SIZE		(2 * XDR_UNIT)	/* present + count */

/*
 * RFC 8797 connection private data
 */
#define RPCRDMA_CM_PDATA_MAGIC		0xf6ab0e18
#define RPCRDMA_CM_PDATA_VERSION	1
#define RPCRDMA_CM_PDATA_SIZE		8
/* The R bit (bit 15 of the second word): remote invalidation supported. */
#define RPCRDMA_CM_PDATA_F_REMOTE_INV	0x01
/* Inline threshold a peer must assume without private data (RFC 8166). */
#define RPCRDMA_V1_DEFAULT_INLINE	1024
/* Range of sizes the Send Size / Receive Size fields can express. */
#define RPCRDMA_CM_SIZE_MIN		1024
#define RPCRDMA_CM_SIZE_MAX		(256 * 1024)

/**
 * enum rpcrdma_wire_err - result of decoding or validating a header
 * @RPCRDMA_WIRE_OK: no error
 * @RPCRDMA_WIRE_ERR_TRUNCATED: the received bytes end inside a field, or a
 *	segment count announces more segments than the remaining bytes hold
 * @RPCRDMA_WIRE_ERR_VERSION: rdma_vers is not RPCRDMA_VERSION
 * @RPCRDMA_WIRE_ERR_BAD_PROC: rdma_proc is not a known message type
 * @RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC: RDMA_MSGP or RDMA_DONE
 * @RPCRDMA_WIRE_ERR_BAD_ERRCODE: RDMA_ERROR carries an unknown rdma_err
 * @RPCRDMA_WIRE_ERR_BAD_DISCRIM: an optional-data discriminator that
 *	introduces a list entry or the Reply chunk is neither 0 nor 1
 * @RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS: more chunks than the caller's limits
 * @RPCRDMA_WIRE_ERR_TOO_MANY_SEGS: more segments than the caller's limits
 * @RPCRDMA_WIRE_ERR_NO_STORAGE: more chunks or segments than the storage
 *	that the caller provided can hold
 * @RPCRDMA_WIRE_ERR_POS_UNALIGNED: Read position not a multiple of four
 * @RPCRDMA_WIRE_ERR_POS_DECREASING: a Read position is lower than the one
 *	of the previous Read segment
 * @RPCRDMA_WIRE_ERR_POS_OVERLAP: a Read chunk starts inside the XDR-rounded
 *	extent of the previous Read chunk
 * @RPCRDMA_WIRE_ERR_POS_RANGE: a Read position lies past the end of the
 *	unreduced call (see Documentation/protocol.rst)
 * @RPCRDMA_WIRE_ERR_ZERO_LENGTH: empty segment where one is not allowed
 * @RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW: the segment lengths of one chunk add
 *	up to more than U32_MAX
 * @RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK: RDMA_NOMSG without a chunk that can
 *	carry the RPC message
 * @RPCRDMA_WIRE_ERR_READ_IN_REPLY: a reply carries a Read list
 * @RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK: a reply returns a Write chunk or a
 *	Reply chunk that the requester did not offer
 * @RPCRDMA_WIRE_ERR_REPLY_EXTRA_SEGS: a returned chunk has more segments
 *	than the offered one
 * @RPCRDMA_WIRE_ERR_REPLY_SEG_TOO_LONG: a returned segment is longer than
 *	the offered one
 * @RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH: a returned segment's handle or
 *	offset differs from the offered one
 * @RPCRDMA_WIRE_ERR_MAX: number of values (not an error)
 */
enum rpcrdma_wire_err {
	RPCRDMA_WIRE_OK = 0,
	RPCRDMA_WIRE_ERR_TRUNCATED,
	RPCRDMA_WIRE_ERR_VERSION,
	RPCRDMA_WIRE_ERR_BAD_PROC,
	RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC,
	RPCRDMA_WIRE_ERR_BAD_ERRCODE,
	RPCRDMA_WIRE_ERR_BAD_DISCRIM,
	RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS,
	RPCRDMA_WIRE_ERR_TOO_MANY_SEGS,
	RPCRDMA_WIRE_ERR_NO_STORAGE,
	RPCRDMA_WIRE_ERR_POS_UNALIGNED,
	RPCRDMA_WIRE_ERR_POS_DECREASING,
	RPCRDMA_WIRE_ERR_POS_OVERLAP,
	RPCRDMA_WIRE_ERR_POS_RANGE,
	RPCRDMA_WIRE_ERR_ZERO_LENGTH,
	RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW,
	RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK,
	RPCRDMA_WIRE_ERR_READ_IN_REPLY,
	RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK,
	RPCRDMA_WIRE_ERR_REPLY_EXTRA_SEGS,
	RPCRDMA_WIRE_ERR_REPLY_SEG_TOO_LONG,
	RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH,
	RPCRDMA_WIRE_ERR_MAX
};

/**
 * enum rpcrdma_msg_dir - which kind of RPC message a header introduces
 * @RPCRDMA_DIR_CALL: an RPC Call (decoded by a responder; this includes
 *	backchannel calls received by the client)
 * @RPCRDMA_DIR_REPLY: an RPC Reply (decoded by a requester)
 *
 * Some rules differ: a reply may return empty (unused) Write segments
 * and must not carry a Read list; Read positions are checked in calls.
 */
enum rpcrdma_msg_dir {
	RPCRDMA_DIR_CALL,
	RPCRDMA_DIR_REPLY,
};

/**
 * struct rpcrdma_segment - one RDMA segment ("plain segment")
 * @handle: steering tag (R_key) of the registered memory
 * @length: length of the memory region, in bytes
 * @offset: offset or address of the memory region
 */
struct rpcrdma_segment {
	u32 handle;
	u32 length;
	u64 offset;
};

/**
 * struct rpcrdma_chunk - a Read chunk, a Write chunk or the Reply chunk
 * @position: XDR position of a Read chunk; zero for Write/Reply chunks
 * @length: sum of the segment lengths (never overflows: checked)
 * @nsegs: number of segments
 * @segs: the segments, inside the segment storage of the owning
 *	struct rpcrdma_chunk_lists
 */
struct rpcrdma_chunk {
	u32 position;
	u32 length;
	u32 nsegs;
	struct rpcrdma_segment *segs;
};

/**
 * struct rpcrdma_chunk_lists - the three chunk lists of a header
 * @chunks: caller storage for Read chunks followed by Write chunks
 * @max_chunks: number of entries in @chunks
 * @segs: caller storage for all segments, in wire order
 * @max_segs: number of entries in @segs
 * @read: first Read chunk (== @chunks)
 * @nr_read_chunks: number of Read chunks (segments sharing a position)
 * @nr_read_segs: number of Read segments
 * @write: first Write chunk (follows the Read chunks in @chunks)
 * @nr_write_chunks: number of Write chunks
 * @nr_write_segs: number of segments in all Write chunks
 * @has_reply: true if a Reply chunk is present
 * @reply: the Reply chunk, valid if @has_reply
 * @used_segs: entries of @segs in use
 *
 * Initialise with rpcrdma_chunk_lists_init().  Entries are always added
 * in wire order: Read segments, then Write chunks, then the Reply chunk.
 */
struct rpcrdma_chunk_lists {
	struct rpcrdma_chunk *chunks;
	unsigned int max_chunks;
	struct rpcrdma_segment *segs;
	unsigned int max_segs;

	struct rpcrdma_chunk *read;
	unsigned int nr_read_chunks;
	unsigned int nr_read_segs;
	struct rpcrdma_chunk *write;
	unsigned int nr_write_chunks;
	unsigned int nr_write_segs;
	bool has_reply;
	struct rpcrdma_chunk reply;
	unsigned int used_segs;
};

/**
 * struct rpcrdma_reply_match - a reply rpcrdma_match_reply() accepted
 * @hdr_len: bytes of its transport header
 * @nr_write_chunks: Write chunks returned (as many as were offered)
 * @written: bytes returned in the first Write chunk
 * @has_reply: the Reply chunk was offered, and so returned
 * @reply_len: bytes returned in the Reply chunk
 */
struct rpcrdma_reply_match {
	unsigned int hdr_len;
	unsigned int nr_write_chunks;
	u32 written;
	bool has_reply;
	u32 reply_len;
};

/**
 * struct rpcrdma_wire_limits - per-message work bounds for decoding
 * @max_read_chunks: Read chunks allowed in the Read list
 * @max_read_segs: Read segments allowed in the Read list
 * @max_write_chunks: Write chunks allowed in the Write list
 * @max_chunk_segs: segments allowed in any one chunk (Read, Write, Reply)
 *
 * A decoder given a NULL limits pointer is bounded only by the storage
 * in struct rpcrdma_chunk_lists and by the received bytes.
 */
struct rpcrdma_wire_limits {
	unsigned int max_read_chunks;
	unsigned int max_read_segs;
	unsigned int max_write_chunks;
	unsigned int max_chunk_segs;
};

/**
 * struct rpcrdma_cursor - where a decoder is in a received header
 * @start: the first received word
 * @p: the next word to decode
 * @end: the word after the last whole received word
 * @len: bytes received (a partial last word is payload, never header)
 */
struct rpcrdma_cursor {
	const __be32 *start;
	const __be32 *p;
	const __be32 *end;
	size_t len;
};

/**
 * rpcrdma_put_fixed - write the four fixed header words
 * @p: XDR-aligned buffer with room for them
 * @xid: rdma_xid, in wire byte order
 * @credits: credits requested (call) or granted (reply)
 * @proc: message type
 *
 * The same words as rpcrdma_encode_fixed(), for a sender that writes its
 * header straight into a buffer of its own.
 *
 * Return: the word after them.
 */
static inline __be32 *rpcrdma_put_fixed(__be32 *p, __be32 xid, u32 credits,
					u32 proc)
{
	p[0] = xid;
	p[1] = cpu_to_be32(RPCRDMA_VERSION);
	p[2] = cpu_to_be32(credits);
	p[3] = cpu_to_be32(proc);
	return p + RPCRDMA_FIXED_HDR_SIZE / XDR_UNIT;
}

/**
 * rpcrdma_put_msg_no_chunks - write an RDMA_MSG header with no chunks
 * @p: XDR-aligned buffer with room for RPCRDMA_HDR_MIN_SIZE bytes
 * @xid: rdma_xid, in wire byte order
 * @credits: credits requested (call) or granted (reply)
 *
 * The header of most calls and replies: the fixed words and three empty
 * lists.
 *
 * Return: its length, RPCRDMA_HDR_MIN_SIZE.
 */
static inline unsigned int rpcrdma_put_msg_no_chunks(__be32 *p, __be32 xid,
						     u32 credits)
{
	p = rpcrdma_put_fixed(p, xid, credits, RPCRDMA_MSG);
	p[0] = xdr_zero;	/* Read list */
	p[1] = xdr_zero;	/* Write list */
	p[2] = xdr_zero;	/* Reply chunk */
	return RPCRDMA_HDR_MIN_SIZE;
}

/**
 * rpcrdma_cursor_init - start decoding received bytes
 * @c: cursor to set up
 * @buf: the received bytes, 4-byte aligned
 * @len: how many were received
 */
static inline void rpcrdma_cursor_init(struct rpcrdma_cursor *c,
				       const void *buf, size_t len)
{
	c->start = buf;
	c->p = buf;
	c->end = c->start + len / XDR_UNIT;
	c->len = len;
}

/**
 * rpcrdma_cursor_take - consume @nwords words
 * @c: the cursor
 * @nwords: words wanted
 *
 * Return: the first of them, or NULL (and nothing consumed) if fewer
 * than @nwords whole words remain.
 */
static inline const __be32 *rpcrdma_cursor_take(struct rpcrdma_cursor *c,
						size_t nwords)
{
	const __be32 *p = c->p;

	if (nwords > (size_t)(c->end - p))
		return NULL;
	c->p = p + nwords;
	return p;
}

/**
 * rpcrdma_cursor_skip_zero - consume the next word if it is zero
 * @c: the cursor
 *
 * An empty list, an absent optional item: the common case of a
 * discriminator, tested without a call into the list decoder.
 *
 * Return: true if a zero word was consumed, false (nothing consumed) if
 * the next word is not zero or none remains.
 */
static inline bool rpcrdma_cursor_skip_zero(struct rpcrdma_cursor *c)
{
	if (c->p >= c->end || *c->p != xdr_zero)
		return false;
	c->p++;
	return true;
}

/**
 * rpcrdma_cursor_pos - bytes consumed so far
 * @c: the cursor
 *
 * Return: offset of the next word from the start.
 */
static inline unsigned int rpcrdma_cursor_pos(const struct rpcrdma_cursor *c)
{
	return (c->p - c->start) * XDR_UNIT;
}

/**
 * rpcrdma_cursor_words_left - whole words not yet consumed
 * @c: the cursor
 *
 * Return: the count.
 */
static inline size_t rpcrdma_cursor_words_left(const struct rpcrdma_cursor *c)
{
	return c->end - c->p;
}

/**
 * struct rpcrdma_hdr - a decoded (or to be encoded) transport header
 * @xid: rdma_xid, in wire byte order like the RPC XID
 * @vers: rdma_vers
 * @credits: rdma_credit (requested in calls, granted in replies)
 * @proc: rdma_proc (enum rpcrdma_msg_type, kept raw: may be unknown)
 * @fixed_valid: @xid, @vers, @credits and @proc were received
 * @err: RDMA_ERROR only: rdma_err (enum rpcrdma_err_code)
 * @vers_low: RDMA_ERROR/ERR_VERS only: lowest version supported
 * @vers_high: RDMA_ERROR/ERR_VERS only: highest version supported
 * @lists: RDMA_MSG and RDMA_NOMSG only: the chunk lists
 * @hdr_len: bytes of transport header decoded
 * @inline_len: bytes that follow the transport header in the received
 *	buffer (the inline part of the Payload stream)
 */
struct rpcrdma_hdr {
	__be32 xid;
	u32 vers;
	u32 credits;
	u32 proc;
	bool fixed_valid;
	u32 err;
	u32 vers_low;
	u32 vers_high;
	struct rpcrdma_chunk_lists lists;
	unsigned int hdr_len;
	unsigned int inline_len;
};

/**
 * struct rpcrdma_cm_pdata - RFC 8797 connection private data, decoded
 * @version: format version (RPCRDMA_CM_PDATA_VERSION)
 * @remote_inv: the sender supports remote invalidation (R bit)
 * @send_size: largest RDMA Send the sender will post, in bytes
 * @recv_size: largest RDMA Receive the sender accepts, in bytes
 */
struct rpcrdma_cm_pdata {
	u8 version;
	bool remote_inv;
	unsigned int send_size;
	unsigned int recv_size;
};

/*
 * Chunk list storage (inline: the client empties a request's lists for
 * every call, and a decoder its header's for every message)
 */

/**
 * rpcrdma_chunk_lists_reset - empty the lists, keeping their storage
 * @cl: lists to empty
 */
static inline void rpcrdma_chunk_lists_reset(struct rpcrdma_chunk_lists *cl)
{
	cl->read = cl->chunks;
	cl->nr_read_chunks = 0;
	cl->nr_read_segs = 0;
	cl->write = cl->chunks;
	cl->nr_write_chunks = 0;
	cl->nr_write_segs = 0;
	cl->has_reply = false;
	memset(&cl->reply, 0, sizeof(cl->reply));
	cl->used_segs = 0;
}

/**
 * rpcrdma_chunk_lists_init - attach storage to chunk lists and empty them
 * @cl: lists to initialise
 * @chunks: storage for Read chunks and Write chunks together
 * @max_chunks: number of entries in @chunks
 * @segs: storage for every segment of the three lists
 * @max_segs: number of entries in @segs
 */
static inline void rpcrdma_chunk_lists_init(struct rpcrdma_chunk_lists *cl,
					    struct rpcrdma_chunk *chunks,
					    unsigned int max_chunks,
					    struct rpcrdma_segment *segs,
					    unsigned int max_segs)
{
	cl->chunks = chunks;
	cl->max_chunks = max_chunks;
	cl->segs = segs;
	cl->max_segs = max_segs;
	rpcrdma_chunk_lists_reset(cl);
}

/**
 * rpcrdma_hdr_init - prepare a header structure for decoding or encoding
 * @hdr: structure to initialise (all fields are cleared)
 * @chunks: storage for Read and Write chunks
 * @max_chunks: number of entries in @chunks
 * @segs: storage for segments
 * @max_segs: number of entries in @segs
 *
 * Once per structure is enough for a decoder: rpcrdma_decode_hdr() sets
 * every field but the storage itself.
 */
static inline void rpcrdma_hdr_init(struct rpcrdma_hdr *hdr,
				    struct rpcrdma_chunk *chunks,
				    unsigned int max_chunks,
				    struct rpcrdma_segment *segs,
				    unsigned int max_segs)
{
	memset(hdr, 0, sizeof(*hdr));
	rpcrdma_chunk_lists_init(&hdr->lists, chunks, max_chunks, segs,
				 max_segs);
}

/*
 * Inline arithmetic (RFC 8166 sections 3.3.2 and 3.5), inline: a few
 * additions that each call and reply plan with.  Sizes saturate at
 * SIZE_MAX instead of wrapping, so absurd counts compare as "does not
 * fit".
 */

/**
 * rpcrdma_read_list_size - encoded size of a Read list
 * @nsegs: number of Read segments (each a list entry of its own)
 *
 * Return: 24 bytes per segment (discriminator, position, segment) plus
 * the 4-byte terminator.
 */
static inline size_t rpcrdma_read_list_size(unsigned int nsegs)
{
	return size_add(size_mul(nsegs, RPCRDMA_READ_ENTRY_SIZE), XDR_UNIT);
}

/**
 * rpcrdma_write_list_size - encoded size of a Write list
 * @nchunks: number of Write chunks
 * @nsegs: number of segments in all of them
 *
 * Return: 8 bytes per chunk (discriminator, count), 16 per segment, plus
 * the 4-byte terminator.
 */
static inline size_t rpcrdma_write_list_size(unsigned int nchunks,
					     unsigned int nsegs)
{
	return size_add(size_add(size_mul(nchunks, RPCRDMA_CHUNK_HEAD_SIZE),
				 size_mul(nsegs, RPCRDMA_SEGMENT_SIZE)),
			XDR_UNIT);
}

/**
 * rpcrdma_reply_chunk_size - encoded size of the Reply chunk field
 * @present: whether a Reply chunk is sent
 * @nsegs: its number of segments
 *
 * Return: 4 bytes if absent, else 8 plus 16 per segment.
 */
static inline size_t rpcrdma_reply_chunk_size(bool present, unsigned int nsegs)
{
	if (!present)
		return XDR_UNIT;
	return size_add(RPCRDMA_CHUNK_HEAD_SIZE,
			size_mul(nsegs, RPCRDMA_SEGMENT_SIZE));
}

/**
 * rpcrdma_hdr_size - encoded size of an RDMA_MSG or RDMA_NOMSG header
 * @read_segs: Read segments
 * @write_chunks: Write chunks
 * @write_segs: segments in all Write chunks
 * @reply: whether a Reply chunk is present
 * @reply_segs: segments in the Reply chunk
 *
 * Return: header size; 28 bytes (7 XDR words) with no chunks.
 */
static inline size_t rpcrdma_hdr_size(unsigned int read_segs,
				      unsigned int write_chunks,
				      unsigned int write_segs, bool reply,
				      unsigned int reply_segs)
{
	size_t size = RPCRDMA_FIXED_HDR_SIZE;

	size = size_add(size, rpcrdma_read_list_size(read_segs));
	size = size_add(size, rpcrdma_write_list_size(write_chunks,
						      write_segs));
	return size_add(size, rpcrdma_reply_chunk_size(reply, reply_segs));
}

/**
 * rpcrdma_fits_inline - does a message fit in one RDMA Send
 * @threshold: inline threshold for the direction
 * @hdr_size: size of the transport header
 * @payload_len: size of the (reduced) Payload stream sent inline
 *
 * Return: true if @hdr_size + @payload_len <= @threshold.
 */
static inline bool rpcrdma_fits_inline(unsigned int threshold,
				       size_t hdr_size, size_t payload_len)
{
	return size_add(hdr_size, payload_len) <= threshold;
}

/**
 * rpcrdma_put_segment - write one plain segment
 * @p: where its four words go
 * @handle: steering tag
 * @length: length in bytes
 * @offset: offset or address
 *
 * Return: the word after the segment.
 */
static inline __be32 *rpcrdma_put_segment(__be32 *p, u32 handle, u32 length,
					  u64 offset)
{
	*p++ = cpu_to_be32(handle);
	*p++ = cpu_to_be32(length);
	*p++ = cpu_to_be32(upper_32_bits(offset));
	*p++ = cpu_to_be32(lower_32_bits(offset));
	return p;
}

/* wire/header.c: errors */
const char *rpcrdma_wire_err_name(enum rpcrdma_wire_err err);
u32 rpcrdma_wire_err_to_rdma_err(enum rpcrdma_wire_err err);

/* wire/header.c: whole headers */
enum rpcrdma_wire_err rpcrdma_decode_fixed(struct rpcrdma_cursor *c,
					   struct rpcrdma_hdr *hdr);
enum rpcrdma_wire_err rpcrdma_decode_hdr(struct rpcrdma_cursor *c,
					 enum rpcrdma_msg_dir dir,
					 const struct rpcrdma_wire_limits *limits,
					 struct rpcrdma_hdr *hdr);
int rpcrdma_encode_fixed(struct xdr_stream *xdr, __be32 xid, u32 credits,
			 u32 proc);
int rpcrdma_encode_hdr(struct xdr_stream *xdr, const struct rpcrdma_hdr *hdr);
int rpcrdma_encode_msg_buf(void *buf, size_t room, __be32 xid, u32 credits,
			   u32 proc, const struct rpcrdma_chunk_lists *cl);
int rpcrdma_encode_error(struct xdr_stream *xdr, __be32 xid, u32 credits,
			 u32 err);

/* wire/chunk.c: chunk list storage and construction */
int rpcrdma_add_read_segment(struct rpcrdma_chunk_lists *cl, u32 position,
			     const struct rpcrdma_segment *seg);
int rpcrdma_add_write_chunk(struct rpcrdma_chunk_lists *cl);
int rpcrdma_add_write_segment(struct rpcrdma_chunk_lists *cl,
			      const struct rpcrdma_segment *seg);
int rpcrdma_add_reply_chunk(struct rpcrdma_chunk_lists *cl);
int rpcrdma_add_reply_segment(struct rpcrdma_chunk_lists *cl,
			      const struct rpcrdma_segment *seg);

/* wire/chunk.c: decoding and validation */
enum rpcrdma_wire_err
rpcrdma_decode_read_list(struct rpcrdma_cursor *c,
			 enum rpcrdma_msg_dir dir,
			 const struct rpcrdma_wire_limits *limits,
			 struct rpcrdma_chunk_lists *cl);
enum rpcrdma_wire_err
rpcrdma_decode_write_list(struct rpcrdma_cursor *c,
			  enum rpcrdma_msg_dir dir,
			  const struct rpcrdma_wire_limits *limits,
			  struct rpcrdma_chunk_lists *cl);
enum rpcrdma_wire_err
rpcrdma_decode_reply_chunk(struct rpcrdma_cursor *c,
			   enum rpcrdma_msg_dir dir,
			   const struct rpcrdma_wire_limits *limits,
			   struct rpcrdma_chunk_lists *cl);
enum rpcrdma_wire_err
rpcrdma_decode_chunk_lists(struct rpcrdma_cursor *c,
			   enum rpcrdma_msg_dir dir,
			   const struct rpcrdma_wire_limits *limits,
			   struct rpcrdma_chunk_lists *cl);
#if IS_ENABLED(CONFIG_KUNIT)
enum rpcrdma_wire_err
rpcrdma_decode_chunk_lists_general(struct rpcrdma_cursor *c,
				   enum rpcrdma_msg_dir dir,
				   const struct rpcrdma_wire_limits *limits,
				   struct rpcrdma_chunk_lists *cl);
#endif
enum rpcrdma_wire_err
rpcrdma_check_read_positions(const struct rpcrdma_chunk_lists *cl, u32 proc,
			     unsigned int inline_len);
enum rpcrdma_wire_err
rpcrdma_check_reply_chunks(const struct rpcrdma_chunk_lists *offered,
			   const struct rpcrdma_chunk_lists *returned);
bool rpcrdma_has_pos0_chunk(const struct rpcrdma_chunk_lists *cl);
bool rpcrdma_match_reply(const __be32 *call, const __be32 *msg,
			 size_t words, struct rpcrdma_reply_match *m);

/**
 * rpcrdma_match_reply_plain - rpcrdma_match_reply() for a plain call
 * @msg: the reply from its fixed header on, version 1 (the caller
 *	checked the version)
 * @words: whole words received from @msg on
 * @m: filled in when the reply matches
 *
 * What rpcrdma_match_reply() decides for a call that offered no Write
 * chunk and no Reply chunk (every call whose reply fits inline), whatever
 * its Read list: the only reply that matches is an RDMA_MSG with three
 * empty lists.  Seven word compares instead of a walk of the call's
 * lists (KUnit compares the two on every vector).
 *
 * Return: true if @msg matches, with @m set.
 */
static inline bool rpcrdma_match_reply_plain(const __be32 *msg, size_t words,
					     struct rpcrdma_reply_match *m)
{
	if (words < RPCRDMA_HDR_MIN_SIZE / XDR_UNIT ||
	    msg[3] != cpu_to_be32(RPCRDMA_MSG) ||
	    (msg[4] | msg[5] | msg[6]) != xdr_zero)
		return false;
	m->hdr_len = RPCRDMA_HDR_MIN_SIZE;
	m->nr_write_chunks = 0;
	m->written = 0;
	m->has_reply = false;
	m->reply_len = 0;
	return true;
}

/* wire/chunk.c: encoding */
int rpcrdma_encode_segment(struct xdr_stream *xdr,
			   const struct rpcrdma_segment *seg);
int rpcrdma_chunk_lists_put(void *buf, size_t room,
			    const struct rpcrdma_chunk_lists *cl);
int rpcrdma_encode_chunk_lists(struct xdr_stream *xdr,
			       const struct rpcrdma_chunk_lists *cl);
int rpcrdma_encode_write_list_written(struct xdr_stream *xdr,
				      const struct rpcrdma_chunk *chunks,
				      unsigned int nchunks, const u32 *written);
int rpcrdma_encode_reply_chunk_written(struct xdr_stream *xdr,
				       const struct rpcrdma_chunk *chunk,
				       u32 written);
int rpcrdma_reply_lists_put(void *buf, size_t room,
			    const struct rpcrdma_chunk *write,
			    unsigned int nwrite, const u32 *written,
			    const struct rpcrdma_chunk *reply,
			    u32 reply_written);

/* wire/private_data.c: RFC 8797 */
u8 rpcrdma_cm_size_encode(unsigned int bytes);
unsigned int rpcrdma_cm_size_decode(u8 val);
int rpcrdma_cm_pdata_encode(void *buf, size_t len,
			    const struct rpcrdma_cm_pdata *pd);
bool rpcrdma_cm_pdata_decode(const void *buf, size_t len,
			     struct rpcrdma_cm_pdata *pd);
void rpcrdma_cm_pdata_default(struct rpcrdma_cm_pdata *pd);
void rpcrdma_cm_pdata_init(struct rpcrdma_cm_pdata *pd, bool remote_inv,
			   unsigned int send_size, unsigned int recv_size);
unsigned int rpcrdma_inline_threshold(unsigned int own_send,
				      unsigned int peer_recv);
unsigned int rpcrdma_cm_recv_size(unsigned int own_max,
				  const struct rpcrdma_cm_pdata *peer,
				  bool peer_sent);
bool rpcrdma_cm_remote_inv_ok(const struct rpcrdma_cm_pdata *local,
			      const struct rpcrdma_cm_pdata *peer);

/* wire/inline.c: inline arithmetic */
size_t rpcrdma_chunk_lists_hdr_size(const struct rpcrdma_chunk_lists *cl);
size_t rpcrdma_reply_hdr_size(const struct rpcrdma_chunk_lists *call,
			      bool long_reply);
size_t rpcrdma_hdr_worst_case(unsigned int nsegs);
size_t rpcrdma_inline_room(unsigned int threshold, size_t hdr_size);
bool rpcrdma_need_long_call(unsigned int call_threshold, size_t hdr_size,
			    size_t reduced_call_len);
bool rpcrdma_need_long_reply(unsigned int reply_threshold,
			     const struct rpcrdma_chunk_lists *call,
			     size_t reduced_reply_len);
unsigned int rpcrdma_max_segs_for_hdr(unsigned int threshold);

#endif /* _RPCRDMA_WIRE_H */
