// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the RPC-over-RDMA version 1 header codec: the fixed
 * part, the message types and whole-header decode/encode round trips.
 */

#include <rpcrdma/compat.h>

#include "wire_test.h"

/*
 * Every valid vector decodes to the expected fixed fields, list counts
 * and lengths, and leaves the stream at the inline Payload stream.
 */
static void decode_valid_vec_case(struct kunit *test)
{
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_hdr *hdr = &h->hdr;
	enum rpcrdma_wire_err err;

	err = wt_decode(test, v->words, v->len, v->dir, NULL, hdr);
	KUNIT_ASSERT_EQ_MSG(test, err, RPCRDMA_WIRE_OK, "%s",
			    rpcrdma_wire_err_name(err));
	KUNIT_EXPECT_TRUE(test, hdr->fixed_valid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(hdr->xid), WT_XID);
	KUNIT_EXPECT_EQ(test, hdr->vers, RPCRDMA_VERSION);
	KUNIT_EXPECT_EQ(test, hdr->credits, v->credits);
	KUNIT_EXPECT_EQ(test, hdr->proc, v->proc);
	KUNIT_EXPECT_EQ(test, hdr->hdr_len, v->hdr_len);
	KUNIT_EXPECT_EQ(test, hdr->inline_len, v->len - v->hdr_len);
	KUNIT_EXPECT_EQ(test, hdr->lists.nr_read_chunks, v->nr_read_chunks);
	KUNIT_EXPECT_EQ(test, hdr->lists.nr_read_segs, v->nr_read_segs);
	KUNIT_EXPECT_EQ(test, hdr->lists.nr_write_chunks, v->nr_write_chunks);
	KUNIT_EXPECT_EQ(test, hdr->lists.nr_write_segs, v->nr_write_segs);
	KUNIT_EXPECT_EQ(test, hdr->lists.has_reply, v->has_reply);
	if (v->has_reply)
		KUNIT_EXPECT_EQ(test, hdr->lists.reply.length, v->reply_len);
	KUNIT_EXPECT_EQ(test, hdr->lists.used_segs,
			v->nr_read_segs + v->nr_write_segs +
			(v->has_reply ? hdr->lists.reply.nsegs : 0));
}

/* Decode, re-encode: the encoder reproduces the header byte for byte. */
static void roundtrip_valid_vec_case(struct kunit *test)
{
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	KUNIT_ASSERT_EQ(test, wt_decode(test, v->words, v->len, v->dir, NULL,
					&h->hdr), RPCRDMA_WIRE_OK);
	out = wt_encode_init(test, &xdr, &buf, 512);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr), 0);
	KUNIT_ASSERT_EQ(test, buf.len, v->hdr_len);
	KUNIT_EXPECT_MEMEQ(test, out, v->words, v->hdr_len);
}

KUNIT_ARRAY_PARAM(valid_vec, wt_valid_vecs, wt_vec_desc);

/* The valid vectors that are RDMA_MSG or RDMA_NOMSG headers. */
static const void *msg_vec_gen_params(RPCRDMA_KUNIT_GEN_ARGS)
{
	const struct wt_vec *v = prev ? (const struct wt_vec *)prev + 1 :
					wt_valid_vecs;

	for (; v < wt_valid_vecs + ARRAY_SIZE(wt_valid_vecs); v++) {
		if (v->proc == RPCRDMA_MSG || v->proc == RPCRDMA_NOMSG) {
			wt_vec_desc(v, desc);
			return v;
		}
	}
	return NULL;
}

/*
 * The flat-buffer encoder writes the same bytes as the stream encoder,
 * into a buffer of exactly that size (KASAN sees any byte beyond it),
 * and refuses a buffer one word short without writing past it.
 */
static void msg_buf_valid_vec_case(struct kunit *test)
{
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_hdr *hdr = &h->hdr;
	void *out, *shorter;

	KUNIT_ASSERT_EQ(test, wt_decode(test, v->words, v->len, v->dir, NULL,
					hdr), RPCRDMA_WIRE_OK);
	out = kunit_kzalloc(test, v->hdr_len, GFP_KERNEL);
	shorter = kunit_kzalloc(test, v->hdr_len - XDR_UNIT, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_NOT_NULL(test, shorter);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_msg_buf(out, v->hdr_len, hdr->xid,
						     hdr->credits, hdr->proc,
						     &hdr->lists),
			(int)v->hdr_len);
	KUNIT_EXPECT_MEMEQ(test, out, v->words, v->hdr_len);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_msg_buf(shorter,
						     v->hdr_len - XDR_UNIT,
						     hdr->xid, hdr->credits,
						     hdr->proc, &hdr->lists),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_msg_buf(shorter,
						     RPCRDMA_FIXED_HDR_SIZE -
						     XDR_UNIT, hdr->xid,
						     hdr->credits, hdr->proc,
						     &hdr->lists),
			-EMSGSIZE);
}

/* After a successful decode the cursor points at the RPC message. */
static void decode_leaves_payload_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_cursor c;
	const __be32 *p;

	wt_cursor_init(test, &c, wt_msg_read, sizeof(wt_msg_read));
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_hdr(&c, RPCRDMA_DIR_CALL, NULL,
						 &h->hdr), RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 76U);
	p = rpcrdma_cursor_take(&c, 2);
	KUNIT_ASSERT_NOT_NULL(test, p);
	/* The RPC XID, then CALL (0). */
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p[0]), WT_XID);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(p[1]), 0U);
}

/* rdma_xid is kept in wire order, like rq_xid, never byte-swapped. */
static void xid_wire_order_case(struct kunit *test)
{
	static const u8 bytes[] = {
		0x01, 0x02, 0x03, 0x04,		/* xid */
		0x00, 0x00, 0x00, 0x01,		/* vers */
		0x00, 0x00, 0x00, 0x80,		/* credits 128 */
		0x00, 0x00, 0x00, 0x00,		/* RDMA_MSG */
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00,
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_ASSERT_EQ(test, wt_decode(test, bytes, sizeof(bytes),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_MEMEQ(test, &h->hdr.xid, bytes, 4);
	KUNIT_EXPECT_EQ(test, h->hdr.credits, 128U);
	KUNIT_EXPECT_EQ(test, h->hdr.inline_len, 0U);
}

static void decode_fixed_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_cursor c;

	wt_cursor_init(test, &c, wt_msg_plain, 16);
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_fixed(&c, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_TRUE(test, h->hdr.fixed_valid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->hdr.xid), WT_XID);
	KUNIT_EXPECT_EQ(test, h->hdr.vers, 1U);
	KUNIT_EXPECT_EQ(test, h->hdr.credits, 32U);
	KUNIT_EXPECT_EQ(test, h->hdr.proc, (u32)RPCRDMA_MSG);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 16U);
}

static void decode_fixed_short_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_cursor c;

	wt_cursor_init(test, &c, wt_msg_plain, 15);
	KUNIT_EXPECT_EQ(test, rpcrdma_decode_fixed(&c, &h->hdr),
			RPCRDMA_WIRE_ERR_TRUNCATED);
	KUNIT_EXPECT_FALSE(test, h->hdr.fixed_valid);
}

/* A version we do not speak: ERR_VERS, but the XID is still usable. */
static void decode_bad_version_case(struct kunit *test)
{
	static const __be32 v2[] = {
		XW(WT_XID), XW(2), XW(32), XW(RPCRDMA_MSG),
		XW(0), XW(0), XW(0),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	enum rpcrdma_wire_err err;

	err = wt_decode(test, v2, sizeof(v2), RPCRDMA_DIR_CALL, NULL,
			&h->hdr);
	KUNIT_EXPECT_EQ(test, err, RPCRDMA_WIRE_ERR_VERSION);
	KUNIT_EXPECT_TRUE(test, h->hdr.fixed_valid);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(h->hdr.xid), WT_XID);
	KUNIT_EXPECT_EQ(test, h->hdr.vers, 2U);
	KUNIT_EXPECT_EQ(test, rpcrdma_wire_err_to_rdma_err(err),
			(u32)RPCRDMA_ERR_VERS);
}

/* The version is checked before the type: version 0 + RDMA_DONE. */
static void decode_version_before_proc_case(struct kunit *test)
{
	static const __be32 v0[] = {
		XW(WT_XID), XW(0), XW(32), XW(RPCRDMA_DONE),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_EXPECT_EQ(test, wt_decode(test, v0, sizeof(v0),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_VERSION);
}

/*
 * RDMA_MSGP and RDMA_DONE are recognised and refused without parsing:
 * the result does not depend on what follows the fixed words.
 */
static void decode_msgp_case(struct kunit *test)
{
	static const __be32 msgp[] = {
		XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_MSGP),
		XW(64), XW(1024),		/* rdma_align, rdma_thresh */
		XW(0), XW(0), XW(0),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	enum rpcrdma_wire_err err;

	err = wt_decode(test, msgp, sizeof(msgp), RPCRDMA_DIR_CALL, NULL,
			&h->hdr);
	KUNIT_EXPECT_EQ(test, err, RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC);
	KUNIT_EXPECT_EQ(test, h->hdr.proc, (u32)RPCRDMA_MSGP);
	KUNIT_EXPECT_EQ(test, rpcrdma_wire_err_to_rdma_err(err),
			(u32)RPCRDMA_ERR_CHUNK);
	/* Same verdict with the fixed words alone. */
	KUNIT_EXPECT_EQ(test, wt_decode(test, msgp, 16, RPCRDMA_DIR_CALL,
					NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC);
}

static void decode_done_case(struct kunit *test)
{
	static const __be32 done[] = {
		XW(WT_XID), XW(1), XW(32), XW(RPCRDMA_DONE),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_EXPECT_EQ(test, wt_decode(test, done, sizeof(done),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC);
	KUNIT_EXPECT_EQ(test, h->hdr.proc, (u32)RPCRDMA_DONE);
	KUNIT_EXPECT_EQ(test, h->hdr.hdr_len, 0U);
}

static void decode_unknown_proc_case(struct kunit *test)
{
	static const __be32 p5[] = {
		XW(WT_XID), XW(1), XW(32), XW(5), XW(0), XW(0), XW(0),
	};
	static const __be32 pmax[] = {
		XW(WT_XID), XW(1), XW(32), XW(0xffffffff),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_EXPECT_EQ(test, wt_decode(test, p5, sizeof(p5),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_BAD_PROC);
	KUNIT_EXPECT_EQ(test, wt_decode(test, pmax, sizeof(pmax),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_BAD_PROC);
	KUNIT_EXPECT_EQ(test, h->hdr.proc, 0xffffffffU);
}

static void decode_err_vers_case(struct kunit *test)
{
	static const __be32 range[] = {
		XW(WT_XID), XW(1), XW(1), XW(RPCRDMA_ERROR),
		XW(RPCRDMA_ERR_VERS), XW(1), XW(3),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_err_vers, sizeof(wt_err_vers),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.err, (u32)RPCRDMA_ERR_VERS);
	KUNIT_EXPECT_EQ(test, h->hdr.vers_low, 1U);
	KUNIT_EXPECT_EQ(test, h->hdr.vers_high, 1U);

	KUNIT_ASSERT_EQ(test, wt_decode(test, range, sizeof(range),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.vers_low, 1U);
	KUNIT_EXPECT_EQ(test, h->hdr.vers_high, 3U);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.nr_read_chunks, 0U);
}

static void decode_err_chunk_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_err_chunk,
					sizeof(wt_err_chunk),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.err, (u32)RPCRDMA_ERR_CHUNK);
	KUNIT_EXPECT_EQ(test, h->hdr.vers_low, 0U);
	KUNIT_EXPECT_EQ(test, h->hdr.hdr_len, RPCRDMA_ERR_CHUNK_HDR_SIZE);
}

static void decode_err_unknown_code_case(struct kunit *test)
{
	static const __be32 e3[] = {
		XW(WT_XID), XW(1), XW(1), XW(RPCRDMA_ERROR), XW(3),
		XW(0), XW(0), XW(0), XW(0), XW(0), XW(0), XW(0), XW(0),
	};
	static const __be32 e0[] = {
		XW(WT_XID), XW(1), XW(1), XW(RPCRDMA_ERROR), XW(0),
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_EXPECT_EQ(test, wt_decode(test, e3, sizeof(e3),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_BAD_ERRCODE);
	KUNIT_EXPECT_EQ(test, h->hdr.err, 3U);
	KUNIT_EXPECT_EQ(test, wt_decode(test, e0, sizeof(e0),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_ERR_BAD_ERRCODE);
}

/* A second decode into the same structure forgets the first one. */
static void decode_resets_hdr_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_msg_all, sizeof(wt_msg_all),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_err_vers, sizeof(wt_err_vers),
					RPCRDMA_DIR_REPLY, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.nr_read_chunks, 0U);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.nr_write_chunks, 0U);
	KUNIT_EXPECT_FALSE(test, h->hdr.lists.has_reply);
	KUNIT_EXPECT_EQ(test, h->hdr.lists.used_segs, 0U);
	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_msg_plain,
					sizeof(wt_msg_plain),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, h->hdr.err, 0U);
	KUNIT_EXPECT_EQ(test, h->hdr.vers_high, 0U);
}

/*
 * A receiver attaches storage once and decodes every message into the
 * same structure: a decode into a structure full of garbage gives what a
 * decode into a fresh one gives, for each valid header whole and cut
 * short at every word.
 */
static void decode_sets_every_field_case(struct kunit *test)
{
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *fresh, *reused;
	size_t len;

	reused = kunit_kmalloc(test, sizeof(*reused), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, reused);
	for (len = 0; ; len = min(len + XDR_UNIT, v->len)) {
		enum rpcrdma_wire_err err_fresh, err_reused;

		fresh = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
		memset(reused, 0xa5, sizeof(*reused));
		reused->hdr.lists.chunks = reused->chunks;
		reused->hdr.lists.max_chunks = WT_MAX_CHUNKS;
		reused->hdr.lists.segs = reused->segs;
		reused->hdr.lists.max_segs = WT_MAX_SEGS;

		err_fresh = wt_decode(test, v->words, len, v->dir, NULL,
				      &fresh->hdr);
		err_reused = wt_decode(test, v->words, len, v->dir, NULL,
				       &reused->hdr);
		KUNIT_EXPECT_EQ_MSG(test, err_fresh, err_reused, "%zu bytes",
				    len);
		wt_expect_same_hdr(test, &fresh->hdr, &reused->hdr);
		if (len == v->len)
			break;
	}
}

static void encode_fixed_case(struct kunit *test)
{
	static const __be32 expect[] = {
		XW(0x11223344), XW(1), XW(128), XW(RPCRDMA_NOMSG),
	};
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	out = wt_encode_init(test, &xdr, &buf, 64);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_fixed(&xdr, XW(0x11223344), 128,
						   RPCRDMA_NOMSG), 0);
	KUNIT_EXPECT_EQ(test, buf.len, 16U);
	KUNIT_EXPECT_MEMEQ(test, out, expect, sizeof(expect));
}

static void encode_msg_no_chunks_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	h->hdr.xid = XW(WT_XID);
	h->hdr.credits = 32;
	h->hdr.proc = RPCRDMA_MSG;
	out = wt_encode_init(test, &xdr, &buf, 64);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr), 0);
	KUNIT_EXPECT_EQ(test, buf.len, RPCRDMA_HDR_MIN_SIZE);
	KUNIT_EXPECT_MEMEQ(test, out, wt_msg_plain, RPCRDMA_HDR_MIN_SIZE);
}

static void encode_err_vers_case(struct kunit *test)
{
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	out = wt_encode_init(test, &xdr, &buf, 64);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_error(&xdr, XW(WT_XID), 1,
						   RPCRDMA_ERR_VERS), 0);
	KUNIT_EXPECT_EQ(test, buf.len, RPCRDMA_ERR_VERS_HDR_SIZE);
	KUNIT_EXPECT_MEMEQ(test, out, wt_err_vers, sizeof(wt_err_vers));
}

static void encode_err_chunk_case(struct kunit *test)
{
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	out = wt_encode_init(test, &xdr, &buf, 64);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_error(&xdr, XW(WT_XID), 1,
						   RPCRDMA_ERR_CHUNK), 0);
	KUNIT_EXPECT_EQ(test, buf.len, RPCRDMA_ERR_CHUNK_HDR_SIZE);
	KUNIT_EXPECT_MEMEQ(test, out, wt_err_chunk, sizeof(wt_err_chunk));
}

static void encode_refuses_case(struct kunit *test)
{
	static const u32 procs[] = { RPCRDMA_MSGP, RPCRDMA_DONE, 5, 0xffff };
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(procs); i++) {
		wt_encode_init(test, &xdr, &buf, 64);
		h->hdr.proc = procs[i];
		KUNIT_EXPECT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, buf.len, 0U);
	}
	wt_encode_init(test, &xdr, &buf, 64);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_error(&xdr, XW(1), 1, 3),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_error(&xdr, XW(1), 1, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, buf.len, 0U);
}

static void encode_no_room_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct xdr_stream xdr;
	struct xdr_buf buf;

	wt_encode_init(test, &xdr, &buf, 12);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_fixed(&xdr, XW(1), 1, 0),
			-EMSGSIZE);
	/* Room for the fixed words but not the error code. */
	wt_encode_init(test, &xdr, &buf, 16);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_error(&xdr, XW(1), 1,
						   RPCRDMA_ERR_CHUNK),
			-EMSGSIZE);
	/* Room for all but the Reply chunk discriminator. */
	h->hdr.proc = RPCRDMA_MSG;
	wt_encode_init(test, &xdr, &buf, 24);
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr), -EMSGSIZE);
}

/* Every error has a distinct, non-empty name. */
static void err_names_case(struct kunit *test)
{
	const char *a, *b;
	int i, j;

	for (i = 0; i < RPCRDMA_WIRE_ERR_MAX; i++) {
		a = rpcrdma_wire_err_name(i);
		KUNIT_ASSERT_NOT_NULL(test, a);
		KUNIT_EXPECT_GT(test, strlen(a), 0UL);
		KUNIT_EXPECT_STRNEQ(test, a, "unknown");
		for (j = 0; j < i; j++) {
			b = rpcrdma_wire_err_name(j);
			KUNIT_EXPECT_STRNEQ(test, a, b);
		}
	}
	KUNIT_EXPECT_STREQ(test, rpcrdma_wire_err_name(RPCRDMA_WIRE_OK), "ok");
	KUNIT_EXPECT_STREQ(test,
			   rpcrdma_wire_err_name(RPCRDMA_WIRE_ERR_TRUNCATED),
			   "truncated");
	KUNIT_EXPECT_STREQ(test, rpcrdma_wire_err_name(RPCRDMA_WIRE_ERR_MAX),
			   "unknown");
	KUNIT_EXPECT_STREQ(test, rpcrdma_wire_err_name(1000), "unknown");
}

/* ERR_VERS only for a version mismatch, ERR_CHUNK for everything else. */
static void err_to_rdma_err_case(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_EQ(test, rpcrdma_wire_err_to_rdma_err(RPCRDMA_WIRE_OK),
			0U);
	for (i = 1; i < RPCRDMA_WIRE_ERR_MAX; i++) {
		u32 code = rpcrdma_wire_err_to_rdma_err(i);

		if (i == RPCRDMA_WIRE_ERR_VERSION)
			KUNIT_EXPECT_EQ(test, code, (u32)RPCRDMA_ERR_VERS);
		else
			KUNIT_EXPECT_EQ_MSG(test, code, (u32)RPCRDMA_ERR_CHUNK,
					    "%s", rpcrdma_wire_err_name(i));
	}
}

static struct kunit_case rpcrdma_wire_header_cases[] = {
	KUNIT_CASE_PARAM(decode_valid_vec_case, valid_vec_gen_params),
	KUNIT_CASE_PARAM(roundtrip_valid_vec_case, valid_vec_gen_params),
	KUNIT_CASE_PARAM(msg_buf_valid_vec_case, msg_vec_gen_params),
	KUNIT_CASE(decode_leaves_payload_case),
	KUNIT_CASE(xid_wire_order_case),
	KUNIT_CASE(decode_fixed_case),
	KUNIT_CASE(decode_fixed_short_case),
	KUNIT_CASE(decode_bad_version_case),
	KUNIT_CASE(decode_version_before_proc_case),
	KUNIT_CASE(decode_msgp_case),
	KUNIT_CASE(decode_done_case),
	KUNIT_CASE(decode_unknown_proc_case),
	KUNIT_CASE(decode_err_vers_case),
	KUNIT_CASE(decode_err_chunk_case),
	KUNIT_CASE(decode_err_unknown_code_case),
	KUNIT_CASE(decode_resets_hdr_case),
	KUNIT_CASE_PARAM(decode_sets_every_field_case, valid_vec_gen_params),
	KUNIT_CASE(encode_fixed_case),
	KUNIT_CASE(encode_msg_no_chunks_case),
	KUNIT_CASE(encode_err_vers_case),
	KUNIT_CASE(encode_err_chunk_case),
	KUNIT_CASE(encode_refuses_case),
	KUNIT_CASE(encode_no_room_case),
	KUNIT_CASE(err_names_case),
	KUNIT_CASE(err_to_rdma_err_case),
	{}
};

static struct kunit_suite rpcrdma_wire_header_suite = {
	.name		= "rpcrdma_wire_header",
	.test_cases	= rpcrdma_wire_header_cases,
};

kunit_test_suites(&rpcrdma_wire_header_suite);
