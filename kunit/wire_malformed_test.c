// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the RPC-over-RDMA version 1 decoder on malformed input:
 * truncation at every byte offset, every validation rule, work limits
 * and caller storage, and pseudo-random garbage.
 *
 * Received bytes are always copied into a kmalloc'ed buffer of exactly
 * the received length, so a KASAN kernel reports any read beyond them.
 */

#include "wire_test.h"

/*
 * Truncation: every proper prefix of a valid header must fail with
 * RPCRDMA_WIRE_ERR_TRUNCATED, with and without limits.
 */
static void truncation_walk_case(struct kunit *test)
{
	const struct rpcrdma_wire_limits generous = { 64, 64, 64, 64 };
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	enum rpcrdma_wire_err err;
	unsigned int len;

	for (len = 0; len < v->hdr_len; len++) {
		err = wt_decode(test, v->words, len, v->dir, NULL, &h->hdr);
		KUNIT_EXPECT_EQ_MSG(test, err, RPCRDMA_WIRE_ERR_TRUNCATED,
				    "length %u: %s", len,
				    rpcrdma_wire_err_name(err));
		KUNIT_EXPECT_EQ_MSG(test, h->hdr.fixed_valid, len >= 16,
				    "length %u", len);
		err = wt_decode(test, v->words, len, v->dir, &generous,
				&h->hdr);
		KUNIT_EXPECT_EQ_MSG(test, err, RPCRDMA_WIRE_ERR_TRUNCATED,
				    "length %u with limits: %s", len,
				    rpcrdma_wire_err_name(err));
	}
	/* The whole header (without its payload) is accepted, or refused
	 * only for a reason other than truncation.
	 */
	err = wt_decode(test, v->words, v->hdr_len, v->dir, NULL, &h->hdr);
	KUNIT_EXPECT_NE(test, err, RPCRDMA_WIRE_ERR_TRUNCATED);
}

KUNIT_ARRAY_PARAM(valid_vec, wt_valid_vecs, wt_vec_desc);

/*
 * Decoding @v with the limit at @field lowered by one (when it is in use)
 * must fail with @want.
 */
static void expect_tighter_fails(struct kunit *test, const struct wt_vec *v,
				 const struct rpcrdma_wire_limits *lim,
				 struct rpcrdma_hdr *hdr, size_t field,
				 enum rpcrdma_wire_err want)
{
	struct rpcrdma_wire_limits tight = *lim;
	unsigned int *limit = (unsigned int *)((char *)&tight + field);

	if (!*limit)
		return;
	(*limit)--;
	KUNIT_EXPECT_EQ(test, wt_decode(test, v->words, v->len, v->dir, &tight,
					hdr), want);
}

/*
 * Limits and storage sized exactly for a valid header pass; one less of
 * any of them fails with the matching error.
 */
static void exact_limits_case(struct kunit *test)
{
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_wire_limits lim = { };
	const struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	unsigned int i, nchunks, nsegs;

	KUNIT_ASSERT_EQ(test, wt_decode(test, v->words, v->len, v->dir, NULL,
					&h->hdr), RPCRDMA_WIRE_OK);
	lim.max_read_chunks = cl->nr_read_chunks;
	lim.max_read_segs = cl->nr_read_segs;
	lim.max_write_chunks = cl->nr_write_chunks;
	for (i = 0; i < cl->nr_read_chunks; i++)
		lim.max_chunk_segs = max(lim.max_chunk_segs, cl->read[i].nsegs);
	for (i = 0; i < cl->nr_write_chunks; i++)
		lim.max_chunk_segs = max(lim.max_chunk_segs,
					 cl->write[i].nsegs);
	if (cl->has_reply)
		lim.max_chunk_segs = max(lim.max_chunk_segs, cl->reply.nsegs);
	nchunks = cl->nr_read_chunks + cl->nr_write_chunks;
	nsegs = cl->used_segs;

	h = wt_hdr_alloc(test, nchunks, nsegs);
	KUNIT_EXPECT_EQ(test, wt_decode(test, v->words, v->len, v->dir, &lim,
					&h->hdr), RPCRDMA_WIRE_OK);

	expect_tighter_fails(test, v, &lim, &h->hdr,
			     offsetof(struct rpcrdma_wire_limits, max_read_chunks),
			     RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS);
	expect_tighter_fails(test, v, &lim, &h->hdr,
			     offsetof(struct rpcrdma_wire_limits, max_read_segs),
			     RPCRDMA_WIRE_ERR_TOO_MANY_SEGS);
	expect_tighter_fails(test, v, &lim, &h->hdr,
			     offsetof(struct rpcrdma_wire_limits, max_write_chunks),
			     RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS);
	expect_tighter_fails(test, v, &lim, &h->hdr,
			     offsetof(struct rpcrdma_wire_limits, max_chunk_segs),
			     RPCRDMA_WIRE_ERR_TOO_MANY_SEGS);
	if (nchunks) {
		h = wt_hdr_alloc(test, nchunks - 1, nsegs);
		KUNIT_EXPECT_EQ(test, wt_decode(test, v->words, v->len, v->dir,
						&lim, &h->hdr),
				RPCRDMA_WIRE_ERR_NO_STORAGE);
	}
	if (nsegs) {
		h = wt_hdr_alloc(test, nchunks, nsegs - 1);
		KUNIT_EXPECT_EQ(test, wt_decode(test, v->words, v->len, v->dir,
						&lim, &h->hdr),
				RPCRDMA_WIRE_ERR_NO_STORAGE);
	}
}

/*
 * Malformed headers, one per rule
 */

struct bad_vec {
	const char *desc;
	const __be32 *words;
	size_t len;
	enum rpcrdma_msg_dir dir;
	const struct rpcrdma_wire_limits *limits;
	unsigned int max_chunks;
	unsigned int max_segs;
	enum rpcrdma_wire_err expect;
};

/*
 * Layout: the four fixed words on the first line, then one line per
 * list entry, list terminator or chunk, then the inline payload.
 */

static const __be32 bad_vers0[] = {
	XW(WT_XID), XW(0), XW(32), XW(RPCRDMA_MSG),
	XW(0), XW(0), XW(0),
};

static const __be32 bad_vers_max[] = {
	XW(WT_XID), XW(0xffffffff), XW(32), XW(RPCRDMA_MSG),
};

static const __be32 bad_proc5[] = {
	XW(WT_XID), XW(1), XW(32), XW(5),
	XW(0), XW(0), XW(0),
};

static const __be32 bad_msgp[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSGP),
	XW(4096), XW(1024),			/* rdma_align, rdma_thresh */
	XW(0), XW(0), XW(0),
};

static const __be32 bad_done[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_DONE),
};

static const __be32 bad_errcode[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_ERROR),
	XW(7),
};

static const __be32 bad_read_discrim[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(2), XW(0), XW(1), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_write_discrim[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(0xffffffff),
	XW(0),
};

static const __be32 bad_reply_discrim[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(0),
	XW(2), XW(1), XW(1), XW(4), XW(0), XW(0),
};

static const __be32 bad_list_end_discrim[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(0), XW(1), XW(4), XW(0), XW(0),
	XW(0x100),
	XW(0),
	XW(0),
};

static const __be32 bad_pos_unaligned[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(6), XW(1), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2), XW(3),
};

static const __be32 bad_pos_decreasing[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(20), XW(1), XW(4), XW(0), XW(0),
	XW(1), XW(8), XW(2), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2), XW(3), XW(4), XW(5), XW(6), XW(7),
};

static const __be32 bad_pos_decreasing_in_chunk[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(8), XW(1), XW(4), XW(0), XW(0),
	XW(1), XW(8), XW(2), XW(4), XW(0), XW(0),
	XW(1), XW(4), XW(3), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2), XW(3),
};

static const __be32 bad_pos_overlap[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(8), XW(1), XW(8), XW(0), XW(0),
	XW(1), XW(12), XW(2), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID), XW(0), XW(2), XW(3),
};

/* RDMA_MSG with no inline payload: no non-zero position can be valid. */
static const __be32 bad_pos_range[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(4), XW(1), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_pos_range2[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(0), XW(1), XW(8), XW(0), XW(0),
	XW(1), XW(16), XW(2), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
	XW(WT_XID),
};

/* Long Call: position 2052 is past the 2048-byte position-zero chunk. */
static const __be32 bad_pos_range_long_call[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(1), XW(0), XW(1), XW(2048), XW(0), XW(0),
	XW(1), XW(2052), XW(2), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_read_zero[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(1), XW(0), XW(1), XW(0), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_read_zero_second[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(1), XW(0), XW(1), XW(100), XW(0), XW(0),
	XW(1), XW(0), XW(2), XW(0), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_write_zero_call[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(2),
	       XW(1), XW(4096), XW(0), XW(0),
	       XW(2), XW(0), XW(0), XW(0x1000),
	XW(0),
	XW(0),
	XW(WT_XID),
};

static const __be32 bad_reply_zero_call[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(0),
	XW(1), XW(1), XW(1), XW(0), XW(0), XW(0),
	XW(WT_XID),
};

static const __be32 bad_read_overflow[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(1), XW(0), XW(1), XW(0xffffffff), XW(0), XW(0),
	XW(1), XW(0), XW(2), XW(1), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_write_overflow[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(2),
	       XW(1), XW(0x80000000), XW(0), XW(0),
	       XW(2), XW(0x80000000), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(WT_XID),
};

static const __be32 bad_reply_overflow[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(0),
	XW(1), XW(2),
	       XW(1), XW(0xffffffff), XW(0), XW(0),
	       XW(2), XW(0xffffffff), XW(0), XW(0),
	XW(WT_XID),
};

static const __be32 bad_nomsg_call_empty[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_nomsg_call_pos8[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(1), XW(8), XW(1), XW(64), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_nomsg_call_reply_only[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(0),
	XW(0),
	XW(1), XW(1), XW(1), XW(4096), XW(0), XW(0),
};

static const __be32 bad_nomsg_reply_empty[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_nomsg_reply_unused[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(0),
	XW(0),
	XW(1), XW(2),
	       XW(1), XW(0), XW(0), XW(0),
	       XW(2), XW(0), XW(0), XW(0x1000),
};

static const __be32 bad_nomsg_reply_noseg[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_NOMSG),
	XW(0),
	XW(0),
	XW(1), XW(0),
};

static const __be32 bad_read_in_reply[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(1), XW(0), XW(1), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
	XW(0),
};

/* Segment count 2^32 - 1 with a few bytes after it. */
static const __be32 bad_huge_count[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(0xffffffff),
	       XW(1), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
};

static const __be32 bad_huge_reply_count[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(0),
	XW(1), XW(0x10000000),
};

/* Count 3, two segments received. */
static const __be32 bad_count_past_end[] = {
	XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG),
	XW(0),
	XW(1), XW(3),
	       XW(1), XW(4), XW(0), XW(0),
	       XW(2), XW(4), XW(0), XW(0),
	XW(0),
	XW(0),
};

static const struct rpcrdma_wire_limits lim_16 = { 16, 16, 16, 16 };
static const struct rpcrdma_wire_limits lim_1_write_chunk = { 16, 16, 1, 16 };
static const struct rpcrdma_wire_limits lim_1_read_seg = { 16, 1, 16, 16 };
static const struct rpcrdma_wire_limits lim_1_read_chunk = { 1, 16, 16, 16 };
static const struct rpcrdma_wire_limits lim_1_chunk_seg = { 16, 16, 16, 1 };
static const struct rpcrdma_wire_limits lim_no_chunk_segs = { 16, 16, 16, 0 };

/* BAD(desc, words, dir, limits, error): decoded with full storage */
#define BAD(d, w, dr, l, e) \
	{ d, w, sizeof(w), dr, l, WT_MAX_CHUNKS, WT_MAX_SEGS, e }
/* BADST(desc, words, chunks, segs, error): a call decoded with less storage */
#define BADST(d, w, c, s, e) \
	{ d, w, sizeof(w), RPCRDMA_DIR_CALL, NULL, c, s, e }
#define CALL	RPCRDMA_DIR_CALL
#define REPLY	RPCRDMA_DIR_REPLY

static const struct bad_vec bad_vecs[] = {
	BAD("version 0", bad_vers0, CALL, NULL, RPCRDMA_WIRE_ERR_VERSION),
	BAD("version 0xffffffff", bad_vers_max, REPLY, NULL,
	    RPCRDMA_WIRE_ERR_VERSION),
	BAD("message type 5", bad_proc5, CALL, NULL,
	    RPCRDMA_WIRE_ERR_BAD_PROC),
	BAD("RDMA_MSGP", bad_msgp, CALL, NULL,
	    RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC),
	BAD("RDMA_DONE", bad_done, CALL, NULL,
	    RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC),
	BAD("RDMA_ERROR code 7", bad_errcode, REPLY, NULL,
	    RPCRDMA_WIRE_ERR_BAD_ERRCODE),
	BAD("Read list discriminator 2", bad_read_discrim, CALL, NULL,
	    RPCRDMA_WIRE_ERR_BAD_DISCRIM),
	BAD("Read list terminator 0x100", bad_list_end_discrim, CALL, NULL,
	    RPCRDMA_WIRE_ERR_BAD_DISCRIM),
	BAD("Write list discriminator ~0", bad_write_discrim, CALL, NULL,
	    RPCRDMA_WIRE_ERR_BAD_DISCRIM),
	BAD("Reply chunk discriminator 2", bad_reply_discrim, CALL, NULL,
	    RPCRDMA_WIRE_ERR_BAD_DISCRIM),
	BAD("Read position 6", bad_pos_unaligned, CALL, NULL,
	    RPCRDMA_WIRE_ERR_POS_UNALIGNED),
	BAD("Read positions 20 then 8", bad_pos_decreasing, CALL, NULL,
	    RPCRDMA_WIRE_ERR_POS_DECREASING),
	BAD("Read positions 8, 8 then 4", bad_pos_decreasing_in_chunk, CALL,
	    NULL, RPCRDMA_WIRE_ERR_POS_DECREASING),
	BAD("Read chunk inside the previous one", bad_pos_overlap, CALL, NULL,
	    RPCRDMA_WIRE_ERR_POS_OVERLAP),
	BAD("Read position past an empty payload", bad_pos_range, CALL, NULL,
	    RPCRDMA_WIRE_ERR_POS_RANGE),
	BAD("second Read chunk past the end", bad_pos_range2, CALL, NULL,
	    RPCRDMA_WIRE_ERR_POS_RANGE),
	BAD("Read position past the Long Call", bad_pos_range_long_call, CALL,
	    NULL, RPCRDMA_WIRE_ERR_POS_RANGE),
	BAD("empty Read segment", bad_read_zero, CALL, NULL,
	    RPCRDMA_WIRE_ERR_ZERO_LENGTH),
	BAD("empty second Read segment", bad_read_zero_second, CALL, NULL,
	    RPCRDMA_WIRE_ERR_ZERO_LENGTH),
	BAD("empty Write segment in a call", bad_write_zero_call, CALL, NULL,
	    RPCRDMA_WIRE_ERR_ZERO_LENGTH),
	BAD("empty Reply segment in a call", bad_reply_zero_call, CALL, NULL,
	    RPCRDMA_WIRE_ERR_ZERO_LENGTH),
	BAD("Read chunk longer than 4 GiB", bad_read_overflow, CALL, NULL,
	    RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW),
	BAD("Write chunk of 4 GiB", bad_write_overflow, CALL, NULL,
	    RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW),
	BAD("Write chunk of 4 GiB in a reply", bad_write_overflow, REPLY, NULL,
	    RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW),
	BAD("Reply chunk longer than 4 GiB", bad_reply_overflow, CALL, NULL,
	    RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW),
	BAD("RDMA_NOMSG call without chunks", bad_nomsg_call_empty, CALL,
	    NULL, RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK),
	BAD("RDMA_NOMSG call, Read chunk at position 8", bad_nomsg_call_pos8,
	    CALL, NULL, RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK),
	BAD("RDMA_NOMSG call with only a Reply chunk",
	    bad_nomsg_call_reply_only, CALL, NULL,
	    RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK),
	BAD("RDMA_NOMSG reply without chunks", bad_nomsg_reply_empty, REPLY,
	    NULL, RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK),
	BAD("RDMA_NOMSG reply, Reply chunk unused", bad_nomsg_reply_unused,
	    REPLY, NULL, RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK),
	BAD("RDMA_NOMSG reply, Reply chunk without segments",
	    bad_nomsg_reply_noseg, REPLY, NULL,
	    RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK),
	BAD("Read list in a reply", bad_read_in_reply, REPLY, NULL,
	    RPCRDMA_WIRE_ERR_READ_IN_REPLY),
	BAD("segment count ~0 vs limits", bad_huge_count, CALL, &lim_16,
	    RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BAD("segment count ~0 vs storage", bad_huge_count, CALL, NULL,
	    RPCRDMA_WIRE_ERR_NO_STORAGE),
	BAD("Reply segment count 2^28 vs limits", bad_huge_reply_count, CALL,
	    &lim_16, RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BAD("segment count past the received bytes", bad_count_past_end, CALL,
	    NULL, RPCRDMA_WIRE_ERR_TRUNCATED),
	BAD("two Write chunks, limit 1", wt_msg_write2, CALL,
	    &lim_1_write_chunk, RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS),
	BAD("two Read segments, limit 1", wt_msg_read, CALL, &lim_1_read_seg,
	    RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BAD("two Read chunks, limit 1", wt_msg_read2, CALL, &lim_1_read_chunk,
	    RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS),
	BAD("Read chunk of 2 segments, limit 1", wt_msg_read, CALL,
	    &lim_1_chunk_seg, RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BAD("Write chunk of 2 segments, limit 1", wt_msg_write2, CALL,
	    &lim_1_chunk_seg, RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BAD("Reply chunk of 2 segments, limit 1", wt_msg_reply_chunk, CALL,
	    &lim_1_chunk_seg, RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BAD("Read segment, chunk segment limit 0", wt_msg_all, CALL,
	    &lim_no_chunk_segs, RPCRDMA_WIRE_ERR_TOO_MANY_SEGS),
	BADST("Read segments, storage for 1", wt_msg_read, WT_MAX_CHUNKS, 1,
	      RPCRDMA_WIRE_ERR_NO_STORAGE),
	BADST("Read chunk, no chunk storage", wt_msg_read, 0, WT_MAX_SEGS,
	      RPCRDMA_WIRE_ERR_NO_STORAGE),
	BADST("Write chunks, storage for 1", wt_msg_write2, 1, WT_MAX_SEGS,
	      RPCRDMA_WIRE_ERR_NO_STORAGE),
	BADST("Read and Write chunk, storage for 1", wt_msg_all, 1,
	      WT_MAX_SEGS, RPCRDMA_WIRE_ERR_NO_STORAGE),
	BADST("Reply segments, storage for 1", wt_msg_reply_chunk,
	      WT_MAX_CHUNKS, 1, RPCRDMA_WIRE_ERR_NO_STORAGE),
};

static void bad_vec_desc(const struct bad_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bad_vec, bad_vecs, bad_vec_desc);

static void malformed_vec_case(struct kunit *test)
{
	const struct bad_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, v->max_chunks, v->max_segs);
	enum rpcrdma_wire_err err;
	u32 code;

	err = wt_decode(test, v->words, v->len, v->dir, v->limits, &h->hdr);
	KUNIT_EXPECT_EQ_MSG(test, err, v->expect, "got %s, expected %s",
			    rpcrdma_wire_err_name(err),
			    rpcrdma_wire_err_name(v->expect));
	/* The fixed words were all received: the XID is usable. */
	KUNIT_EXPECT_TRUE(test, h->hdr.fixed_valid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->hdr.xid), WT_XID);
	code = rpcrdma_wire_err_to_rdma_err(err);
	KUNIT_EXPECT_EQ(test, code, v->expect == RPCRDMA_WIRE_ERR_VERSION ?
			(u32)RPCRDMA_ERR_VERS : (u32)RPCRDMA_ERR_CHUNK);
}

/*
 * A segment count that the remaining bytes cannot hold is refused
 * before any segment is read: the stream stops right after the count.
 */
static void count_checked_before_loop_case(struct kunit *test)
{
	static const __be32 words[] = {
		XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSG), XW(0), XW(1), XW(20),
		XW(1), XW(4), XW(0), XW(0), XW(2), XW(4), XW(0), XW(0), XW(0), XW(0),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_cursor c;

	wt_cursor_init(test, &c, words, sizeof(words));
	KUNIT_EXPECT_EQ(test, rpcrdma_decode_hdr(&c, RPCRDMA_DIR_CALL, NULL,
						 &h->hdr),
			RPCRDMA_WIRE_ERR_TRUNCATED);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 28U);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.used_segs, 0U);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.write[0].nsegs, 0U);
}

/*
 * A long Read list stops at the limit: the decoder has read exactly
 * the allowed entries and the discriminator of the next one.
 */
static void read_list_stops_at_limit_case(struct kunit *test)
{
	const struct rpcrdma_wire_limits lim = { 8, 8, 8, 8 };
	const unsigned int entries = 200;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_cursor c;
	__be32 *words, *p;
	size_t len;
	unsigned int i;

	len = 16 + entries * 24 + 12;
	words = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, words);
	p = words;
	*p++ = XW(WT_XID);
	*p++ = XW(1);
	*p++ = XW(32);
	*p++ = XW(RPCRDMA_NOMSG);
	for (i = 0; i < entries; i++) {
		*p++ = xdr_one;
		*p++ = xdr_zero;
		*p++ = XW(i + 1);
		*p++ = XW(4);
		*p++ = xdr_zero;
		*p++ = XW(i * 4);
	}
	wt_cursor_init(test, &c, words, len);
	KUNIT_EXPECT_EQ(test, rpcrdma_decode_hdr(&c, RPCRDMA_DIR_CALL, &lim,
						 &h->hdr),
			RPCRDMA_WIRE_ERR_TOO_MANY_SEGS);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 16U + 8 * 24 + 4);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.nr_read_segs, 8U);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.read[0].length, 32U);
}

/* Without limits, the same list is bounded by the segment storage. */
static void read_list_stops_at_storage_case(struct kunit *test)
{
	const unsigned int entries = 100;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	__be32 *words, *p;
	size_t len;
	unsigned int i;

	len = 16 + entries * 24 + 12;
	words = kunit_kzalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, words);
	p = words;
	*p++ = XW(WT_XID);
	*p++ = XW(1);
	*p++ = XW(32);
	*p++ = XW(RPCRDMA_NOMSG);
	for (i = 0; i < entries; i++) {
		*p++ = xdr_one;
		*p++ = xdr_zero;
		*p++ = XW(i + 1);
		*p++ = XW(4);
		*p++ = xdr_zero;
		*p++ = XW(i * 4);
	}
	KUNIT_EXPECT_EQ(test, wt_decode(test, words, len, RPCRDMA_DIR_CALL,
					NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_NO_STORAGE);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.nr_read_segs, WT_MAX_SEGS);
}

/* Headers whose length is not a multiple of four are handled too. */
static void unaligned_length_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	/* One to three bytes of payload after a complete header. */
	KUNIT_EXPECT_EQ(test, wt_decode(test, wt_msg_plain, 29,
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.inline_len, 1U);
	KUNIT_EXPECT_EQ(test, wt_decode(test, wt_msg_plain, 31,
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.inline_len, 3U);
	/* A header cut inside its last word. */
	KUNIT_EXPECT_EQ(test, wt_decode(test, wt_msg_plain, 27,
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_TRUNCATED);
}

/*
 * Pseudo-random garbage, biased towards small words and valid message
 * types so that decoding gets deep into the lists: every buffer gets a
 * defined verdict and the decoder never passes the received bytes.
 */
static u32 garbage_next(u32 *state)
{
	*state = *state * 1664525 + 1013904223;
	return *state;
}

static void garbage_case(struct kunit *test)
{
	const struct rpcrdma_wire_limits lim = { 4, 8, 4, 4 };
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	enum rpcrdma_wire_err err;
	u32 state = 0x5eed;
	unsigned int seen[RPCRDMA_WIRE_ERR_MAX] = { };
	unsigned int round, i, len, kinds = 0;
	__be32 words[40];
	u32 r;

	for (round = 0; round < 2000; round++) {
		len = garbage_next(&state) % (sizeof(words) + 1);
		for (i = 0; i < ARRAY_SIZE(words); i++) {
			r = garbage_next(&state) >> 8;
			switch (r % 8) {
			case 0:
				words[i] = xdr_zero;
				break;
			case 1:
			case 2:
				words[i] = xdr_one;
				break;
			case 3:
				words[i] = XW(r % 5);
				break;
			case 4:
				words[i] = XW((r % 64) * 4);
				break;
			default:
				words[i] = XW(r);
				break;
			}
		}
		words[1] = XW(1);
		words[3] = XW(garbage_next(&state) % 6);
		err = wt_decode(test, words, len,
				round & 1 ? RPCRDMA_DIR_REPLY : RPCRDMA_DIR_CALL,
				round & 2 ? &lim : NULL, &h->hdr);
		KUNIT_ASSERT_LT(test, (int)err, RPCRDMA_WIRE_ERR_MAX);
		seen[err]++;
	}
	for (i = 0; i < RPCRDMA_WIRE_ERR_MAX; i++)
		kinds += !!seen[i];
	/* Garbage exercises many distinct paths, including success. */
	KUNIT_EXPECT_GE(test, kinds, 8U);
	KUNIT_EXPECT_GT(test, seen[RPCRDMA_WIRE_ERR_TRUNCATED], 0U);
}

static struct kunit_case rpcrdma_wire_malformed_cases[] = {
	KUNIT_CASE_PARAM(truncation_walk_case, valid_vec_gen_params),
	KUNIT_CASE_PARAM(exact_limits_case, valid_vec_gen_params),
	KUNIT_CASE_PARAM(malformed_vec_case, bad_vec_gen_params),
	KUNIT_CASE(count_checked_before_loop_case),
	KUNIT_CASE(read_list_stops_at_limit_case),
	KUNIT_CASE(read_list_stops_at_storage_case),
	KUNIT_CASE(unaligned_length_case),
	KUNIT_CASE(garbage_case),
	{}
};

static struct kunit_suite rpcrdma_wire_malformed_suite = {
	.name		= "rpcrdma_wire_malformed",
	.test_cases	= rpcrdma_wire_malformed_cases,
};

kunit_test_suites(&rpcrdma_wire_malformed_suite);
