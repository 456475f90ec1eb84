/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers and hand-written RPC-over-RDMA version 1 headers shared by the
 * wire codec KUnit suites.
 *
 * Vectors are XDR words written out from RFC 5666 section 4.3 / RFC 8166:
 *
 *	fixed:		xid, vers, credits, proc
 *	segment:	handle, length, offset high word, offset low word
 *	Read list:	{ 1, position, segment }* 0
 *	Write list:	{ 1, count, segment[count] }* 0
 *	Reply chunk:	0 | 1, count, segment[count]
 */
#ifndef _RPCRDMA_KUNIT_WIRE_TEST_H
#define _RPCRDMA_KUNIT_WIRE_TEST_H

#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sunrpc/xdr.h>

#include "rpcrdma/wire.h"

/* One XDR word, written in host order. */
#define XW(x)			cpu_to_be32(x)

#define WT_XID			0xc0ffee01
#define WT_MAX_CHUNKS		16
#define WT_MAX_SEGS		32

/**
 * struct wt_hdr - a header structure with storage, allocated per test
 * @hdr: the header
 * @chunks: chunk storage
 * @segs: segment storage
 */
struct wt_hdr {
	struct rpcrdma_hdr hdr;
	struct rpcrdma_chunk chunks[WT_MAX_CHUNKS];
	struct rpcrdma_segment segs[WT_MAX_SEGS];
};

static inline struct wt_hdr *wt_hdr_alloc(struct kunit *test,
					  unsigned int max_chunks,
					  unsigned int max_segs)
{
	struct wt_hdr *h = kunit_kzalloc(test, sizeof(*h), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, h);
	rpcrdma_hdr_init(&h->hdr, h->chunks, min(max_chunks, WT_MAX_CHUNKS),
			 h->segs, min(max_segs, WT_MAX_SEGS));
	return h;
}

/*
 * Start decoding a copy of @len bytes of @bytes, held in a kmalloc'ed
 * buffer of exactly @len bytes so that KASAN reports any read past the
 * received bytes.
 */
static inline void *wt_cursor_init(struct kunit *test,
				   struct rpcrdma_cursor *c,
				   const void *bytes, size_t len)
{
	void *data = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, data);
	if (len)
		memcpy(data, bytes, len);
	rpcrdma_cursor_init(c, data, len);
	return data;
}

/* Start encoding into a zeroed buffer of @cap bytes. */
static inline void *wt_encode_init(struct kunit *test, struct xdr_stream *xdr,
				   struct xdr_buf *buf, size_t cap)
{
	void *data = kunit_kzalloc(test, cap, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, data);
	memset(buf, 0, sizeof(*buf));
	xdr_buf_init(buf, data, cap);
	buf->head[0].iov_len = 0;
	buf->len = 0;
	memset(xdr, 0, sizeof(*xdr));
	xdr_init_encode(xdr, buf, NULL, NULL);
	return data;
}

/* Offset of @ch's segments in the storage of @cl, or -1 for none. */
static inline long wt_seg_index(const struct rpcrdma_chunk_lists *cl,
				const struct rpcrdma_chunk *ch)
{
	return ch->segs ? ch->segs - cl->segs : -1;
}

/*
 * @la and @lb, decoded from the same bytes, say the same: counts, every
 * chunk and segment, and where each sits in its own storage (which may
 * be of different sizes).
 */
static inline void wt_expect_same_lists(struct kunit *test,
					const struct rpcrdma_chunk_lists *la,
					const struct rpcrdma_chunk_lists *lb)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, la->read - la->chunks, lb->read - lb->chunks);
	KUNIT_EXPECT_EQ(test, la->write - la->chunks, lb->write - lb->chunks);
	KUNIT_EXPECT_EQ(test, la->nr_read_chunks, lb->nr_read_chunks);
	KUNIT_EXPECT_EQ(test, la->nr_read_segs, lb->nr_read_segs);
	KUNIT_EXPECT_EQ(test, la->nr_write_chunks, lb->nr_write_chunks);
	KUNIT_EXPECT_EQ(test, la->nr_write_segs, lb->nr_write_segs);
	KUNIT_EXPECT_EQ(test, la->has_reply, lb->has_reply);
	KUNIT_EXPECT_EQ(test, la->reply.position, lb->reply.position);
	KUNIT_EXPECT_EQ(test, la->reply.length, lb->reply.length);
	KUNIT_EXPECT_EQ(test, la->reply.nsegs, lb->reply.nsegs);
	KUNIT_EXPECT_EQ(test, wt_seg_index(la, &la->reply),
			wt_seg_index(lb, &lb->reply));
	KUNIT_EXPECT_EQ(test, la->used_segs, lb->used_segs);
	if (la->nr_read_chunks != lb->nr_read_chunks ||
	    la->nr_write_chunks != lb->nr_write_chunks ||
	    la->used_segs != lb->used_segs)
		return;
	for (i = 0; i < la->nr_read_chunks + la->nr_write_chunks; i++) {
		KUNIT_EXPECT_EQ(test, la->chunks[i].position,
				lb->chunks[i].position);
		KUNIT_EXPECT_EQ(test, la->chunks[i].length,
				lb->chunks[i].length);
		KUNIT_EXPECT_EQ(test, la->chunks[i].nsegs, lb->chunks[i].nsegs);
		KUNIT_EXPECT_EQ(test, wt_seg_index(la, &la->chunks[i]),
				wt_seg_index(lb, &lb->chunks[i]));
	}
	KUNIT_EXPECT_MEMEQ(test, la->segs, lb->segs,
			   la->used_segs * sizeof(la->segs[0]));
}

/* @a and @b, decoded from the same bytes, say the same in every field. */
static inline void wt_expect_same_hdr(struct kunit *test,
				      const struct rpcrdma_hdr *a,
				      const struct rpcrdma_hdr *b)
{
	KUNIT_EXPECT_EQ(test, a->xid, b->xid);
	KUNIT_EXPECT_EQ(test, a->vers, b->vers);
	KUNIT_EXPECT_EQ(test, a->credits, b->credits);
	KUNIT_EXPECT_EQ(test, a->proc, b->proc);
	KUNIT_EXPECT_EQ(test, a->fixed_valid, b->fixed_valid);
	KUNIT_EXPECT_EQ(test, a->err, b->err);
	KUNIT_EXPECT_EQ(test, a->vers_low, b->vers_low);
	KUNIT_EXPECT_EQ(test, a->vers_high, b->vers_high);
	KUNIT_EXPECT_EQ(test, a->hdr_len, b->hdr_len);
	KUNIT_EXPECT_EQ(test, a->inline_len, b->inline_len);
	wt_expect_same_lists(test, &a->lists, &b->lists);
}

/*
 * Decode @len bytes of @words as a whole header.  The cursor is checked
 * never to pass the received length.
 */
static inline enum rpcrdma_wire_err
wt_decode(struct kunit *test, const void *words, size_t len,
	  enum rpcrdma_msg_dir dir, const struct rpcrdma_wire_limits *limits,
	  struct rpcrdma_hdr *hdr)
{
	struct rpcrdma_cursor c;
	enum rpcrdma_wire_err err;

	wt_cursor_init(test, &c, words, len);
	err = rpcrdma_decode_hdr(&c, dir, limits, hdr);
	KUNIT_EXPECT_LE(test, rpcrdma_cursor_pos(&c), (unsigned int)len);
	return err;
}

/*
 * The valid headers (defined in wire_vectors.c).  Each is followed by a
 * few words of RPC message (the inline Payload stream) where its type
 * carries one.  The sizes here let the suites use sizeof().
 */

/* RDMA_MSG call, no chunks: a Short Message (RFC 8166 section 3.5.1). */
extern const __be32 wt_msg_plain[13];

/* RDMA_MSG call with one Read chunk of two segments at position 24. */
extern const __be32 wt_msg_read[25];

/* RDMA_MSG call with two Read chunks: position 8 (5 bytes), 20 (10). */
extern const __be32 wt_msg_read2[22];

/* RDMA_MSG call with a Write list of two Write chunks (2 + 1 segs). */
extern const __be32 wt_msg_write2[29];

/* RDMA_MSG call offering a Reply chunk of two segments. */
extern const __be32 wt_msg_reply_chunk[22];

/* RDMA_MSG call with all three lists. */
extern const __be32 wt_msg_all[26];

/* RDMA_MSG call with one empty Write chunk (segment count zero). */
extern const __be32 wt_msg_empty_write[11];

/* RDMA_NOMSG Long Call: position-zero Read chunk of two segments. */
extern const __be32 wt_nomsg_long_call[19];

/* RDMA_NOMSG Long Reply: the Reply chunk holds 3000 bytes. */
extern const __be32 wt_nomsg_long_reply[16];

/* RDMA_MSG reply returning the two Write chunks of wt_msg_write2. */
extern const __be32 wt_reply_write[29];

/* RDMA_ERROR / ERR_VERS, supported versions 1 to 1. */
extern const __be32 wt_err_vers[7];

/* RDMA_ERROR / ERR_CHUNK. */
extern const __be32 wt_err_chunk[5];

/**
 * struct wt_vec - a valid header and what decoding it must give
 * @desc: name of the case
 * @words: the message
 * @len: its length in bytes
 * @dir: call or reply
 * @proc: expected rdma_proc
 * @credits: expected rdma_credit
 * @hdr_len: expected transport header length
 * @nr_read_chunks: expected number of Read chunks
 * @nr_read_segs: expected number of Read segments
 * @nr_write_chunks: expected number of Write chunks
 * @nr_write_segs: expected number of Write segments
 * @has_reply: expected presence of a Reply chunk
 * @reply_len: expected Reply chunk length
 */
struct wt_vec {
	const char *desc;
	const __be32 *words;
	size_t len;
	enum rpcrdma_msg_dir dir;
	u32 proc;
	u32 credits;
	unsigned int hdr_len;
	unsigned int nr_read_chunks;
	unsigned int nr_read_segs;
	unsigned int nr_write_chunks;
	unsigned int nr_write_segs;
	bool has_reply;
	u32 reply_len;
};

#define WT_WORDS(w)	.words = (w), .len = sizeof(w)

extern const struct wt_vec wt_valid_vecs[12];

static inline void wt_vec_desc(const struct wt_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

#endif /* _RPCRDMA_KUNIT_WIRE_TEST_H */
