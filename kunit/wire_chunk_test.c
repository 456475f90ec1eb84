// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the RPC-over-RDMA version 1 chunk lists: Read list,
 * Write list and Reply chunk decoding, construction, encoding, and the
 * requester's check of a reply's chunks against the ones it offered.
 */

#include "wire_test.h"

static void expect_seg(struct kunit *test, const struct rpcrdma_segment *seg,
		       u32 handle, u32 length, u64 offset)
{
	KUNIT_EXPECT_EQ(test, seg->handle, handle);
	KUNIT_EXPECT_EQ(test, seg->length, length);
	KUNIT_EXPECT_EQ(test, seg->offset, offset);
}

static struct rpcrdma_hdr *decode_ok(struct kunit *test, const __be32 *words,
				     size_t len, enum rpcrdma_msg_dir dir)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);

	KUNIT_ASSERT_EQ(test, wt_decode(test, words, len, dir, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	return &h->hdr;
}

/* Two Read segments at one position form one Read chunk. */
static void read_one_chunk_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_msg_read,
					    sizeof(wt_msg_read),
					    RPCRDMA_DIR_CALL);
	const struct rpcrdma_chunk *c = &hdr->lists.read[0];

	KUNIT_ASSERT_EQ(test, hdr->lists.nr_read_chunks, 1U);
	KUNIT_EXPECT_EQ(test, c->position, 24U);
	KUNIT_EXPECT_EQ(test, c->nsegs, 2U);
	KUNIT_EXPECT_EQ(test, c->length, 5000U);
	expect_seg(test, &c->segs[0], 0x1001, 4096, 0x20000000);
	expect_seg(test, &c->segs[1], 0x1002, 904, 0x20001000);
	KUNIT_EXPECT_PTR_EQ(test, c->segs, hdr->lists.segs);
	KUNIT_EXPECT_FALSE(test, rpcrdma_has_pos0_chunk(&hdr->lists));
}

static void read_two_chunks_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_msg_read2,
					    sizeof(wt_msg_read2),
					    RPCRDMA_DIR_CALL);

	KUNIT_ASSERT_EQ(test, hdr->lists.nr_read_chunks, 2U);
	KUNIT_EXPECT_EQ(test, hdr->lists.read[0].position, 8U);
	KUNIT_EXPECT_EQ(test, hdr->lists.read[0].length, 5U);
	KUNIT_EXPECT_EQ(test, hdr->lists.read[1].position, 20U);
	KUNIT_EXPECT_EQ(test, hdr->lists.read[1].length, 10U);
	expect_seg(test, &hdr->lists.read[1].segs[0], 0x6002, 10, 0x2000);
	KUNIT_EXPECT_EQ(test, hdr->inline_len, 12U);
}

static void long_call_chunk_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_nomsg_long_call,
					    sizeof(wt_nomsg_long_call),
					    RPCRDMA_DIR_CALL);

	KUNIT_EXPECT_TRUE(test, rpcrdma_has_pos0_chunk(&hdr->lists));
	KUNIT_EXPECT_EQ(test, hdr->lists.read[0].length, 3048U);
	KUNIT_EXPECT_EQ(test, hdr->lists.read[0].nsegs, 2U);
	KUNIT_EXPECT_EQ(test, hdr->inline_len, 0U);
}

/* RFC 5666 shape: a Write list of two Write chunks. */
static void write_two_chunks_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_msg_write2,
					    sizeof(wt_msg_write2),
					    RPCRDMA_DIR_CALL);
	const struct rpcrdma_chunk *w = hdr->lists.write;

	KUNIT_ASSERT_EQ(test, hdr->lists.nr_write_chunks, 2U);
	KUNIT_EXPECT_EQ(test, w[0].nsegs, 2U);
	KUNIT_EXPECT_EQ(test, w[0].length, 16384U);
	KUNIT_EXPECT_EQ(test, w[0].position, 0U);
	expect_seg(test, &w[0].segs[0], 0x2001, 8192, 0x30000000);
	expect_seg(test, &w[0].segs[1], 0x2002, 8192, 0x30002000);
	KUNIT_EXPECT_EQ(test, w[1].nsegs, 1U);
	KUNIT_EXPECT_EQ(test, w[1].length, 4096U);
	/* 64-bit offset: high word first. */
	expect_seg(test, &w[1].segs[0], 0x2003, 4096, 0xffff800000001000ULL);
	KUNIT_EXPECT_PTR_EQ(test, w[1].segs, &hdr->lists.segs[2]);
	KUNIT_EXPECT_FALSE(test, hdr->lists.has_reply);
}

static void reply_chunk_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_msg_reply_chunk,
					    sizeof(wt_msg_reply_chunk),
					    RPCRDMA_DIR_CALL);

	KUNIT_ASSERT_TRUE(test, hdr->lists.has_reply);
	KUNIT_EXPECT_EQ(test, hdr->lists.reply.nsegs, 2U);
	KUNIT_EXPECT_EQ(test, hdr->lists.reply.length, 8192U);
	expect_seg(test, &hdr->lists.reply.segs[0], 0x3001, 4096, 0x40000000);
	expect_seg(test, &hdr->lists.reply.segs[1], 0x3002, 4096, 0x40001000);
}

static void all_lists_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_msg_all,
					    sizeof(wt_msg_all),
					    RPCRDMA_DIR_CALL);
	const struct rpcrdma_chunk_lists *cl = &hdr->lists;

	KUNIT_ASSERT_EQ(test, cl->nr_read_chunks, 1U);
	KUNIT_ASSERT_EQ(test, cl->nr_write_chunks, 1U);
	KUNIT_ASSERT_TRUE(test, cl->has_reply);
	KUNIT_EXPECT_PTR_EQ(test, cl->write, &cl->chunks[1]);
	expect_seg(test, &cl->read[0].segs[0], 0x5001, 100, 0x60000000);
	expect_seg(test, &cl->write[0].segs[0], 0x5002, 4096, 0x61000000);
	expect_seg(test, &cl->reply.segs[0], 0x5003, 1024, 0x62000000);
	KUNIT_EXPECT_EQ(test, cl->used_segs, 3U);
}

static void empty_write_chunk_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_msg_empty_write,
					    sizeof(wt_msg_empty_write),
					    RPCRDMA_DIR_CALL);

	KUNIT_ASSERT_EQ(test, hdr->lists.nr_write_chunks, 1U);
	KUNIT_EXPECT_EQ(test, hdr->lists.write[0].nsegs, 0U);
	KUNIT_EXPECT_EQ(test, hdr->lists.write[0].length, 0U);
	KUNIT_EXPECT_EQ(test, hdr->lists.used_segs, 0U);
}

/* In a reply, empty Write segments mean "unused" and are accepted. */
static void reply_unused_write_segs_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_reply_write,
					    sizeof(wt_reply_write),
					    RPCRDMA_DIR_REPLY);

	KUNIT_EXPECT_EQ(test, hdr->lists.write[0].length, 10000U);
	KUNIT_EXPECT_EQ(test, hdr->lists.write[1].length, 0U);
	KUNIT_EXPECT_EQ(test, hdr->lists.write[1].nsegs, 1U);
	KUNIT_EXPECT_EQ(test, hdr->inline_len, 24U);
}

static void long_reply_chunk_case(struct kunit *test)
{
	struct rpcrdma_hdr *hdr = decode_ok(test, wt_nomsg_long_reply,
					    sizeof(wt_nomsg_long_reply),
					    RPCRDMA_DIR_REPLY);

	KUNIT_EXPECT_EQ(test, hdr->lists.reply.length, 3000U);
	expect_seg(test, &hdr->lists.reply.segs[1], 0x3002, 0, 0x40001000);
}

/* The list decoders work on their own, one after the other. */
static void list_decoders_case(struct kunit *test)
{
	static const __be32 lists[] = {
		XW(1), XW(0), XW(7), XW(64), XW(0), XW(0),	/* Read list */
		XW(0),
		XW(1), XW(1), XW(8), XW(128), XW(1), XW(2),	/* Write list */
		XW(0),
		XW(0),					/* Reply chunk */
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	struct rpcrdma_cursor c;

	wt_cursor_init(test, &c, lists, sizeof(lists));
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_read_list(&c, RPCRDMA_DIR_CALL,
						       NULL, cl),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 28U);
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_write_list(&c, RPCRDMA_DIR_CALL,
							NULL, cl),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 56U);
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_reply_chunk(&c,
							 RPCRDMA_DIR_CALL,
							 NULL, cl),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&c), 60U);
	expect_seg(test, &cl->write[0].segs[0], 8, 128, 0x100000002ULL);
	KUNIT_EXPECT_EQ(test, cl->read[0].length, 64U);
	KUNIT_EXPECT_FALSE(test, cl->has_reply);
}

/*
 * Construction
 */

static struct rpcrdma_chunk_lists *lists_alloc(struct kunit *test,
					       unsigned int max_chunks,
					       unsigned int max_segs)
{
	return &wt_hdr_alloc(test, max_chunks, max_segs)->hdr.lists;
}

static const struct rpcrdma_segment seg_a = { 0x1001, 4096, 0x20000000 };
static const struct rpcrdma_segment seg_b = { 0x1002, 904, 0x20001000 };

static void build_read_merge_case(struct kunit *test)
{
	struct rpcrdma_chunk_lists *cl = lists_alloc(test, 4, 4);

	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 24, &seg_a), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 24, &seg_b), 0);
	KUNIT_EXPECT_EQ(test, cl->nr_read_chunks, 1U);
	KUNIT_EXPECT_EQ(test, cl->nr_read_segs, 2U);
	KUNIT_EXPECT_EQ(test, cl->read[0].length, 5000U);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 128, &seg_a), 0);
	KUNIT_EXPECT_EQ(test, cl->nr_read_chunks, 2U);
	KUNIT_EXPECT_EQ(test, cl->read[1].position, 128U);
	KUNIT_EXPECT_PTR_EQ(test, cl->read[1].segs, &cl->segs[2]);
	KUNIT_EXPECT_PTR_EQ(test, cl->write, &cl->chunks[2]);
}

static void build_read_rules_case(struct kunit *test)
{
	struct rpcrdma_chunk_lists *cl = lists_alloc(test, 2, 3);
	struct rpcrdma_segment big = { 1, U32_MAX, 0 };

	KUNIT_EXPECT_EQ(test, rpcrdma_add_read_segment(cl, 6, &seg_a), -EINVAL);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 16, &seg_a), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_read_segment(cl, 12, &seg_a), -EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_read_segment(cl, 16, &big),
			-EOVERFLOW);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 20, &seg_a), 0);
	/* Chunk storage (2) full: a third position does not fit. */
	KUNIT_EXPECT_EQ(test, rpcrdma_add_read_segment(cl, 32, &seg_a),
			-ENOSPC);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 20, &seg_b), 0);
	/* Segment storage (3) full. */
	KUNIT_EXPECT_EQ(test, rpcrdma_add_read_segment(cl, 20, &seg_b),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, cl->nr_read_chunks, 2U);
	KUNIT_EXPECT_EQ(test, cl->nr_read_segs, 3U);
	KUNIT_EXPECT_EQ(test, cl->read[1].length, 4096U + 904U);
	/* Read segments cannot follow Write chunks. */
	rpcrdma_chunk_lists_reset(cl);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_read_segment(cl, 0, &seg_a), -EINVAL);
}

static void build_write_reply_rules_case(struct kunit *test)
{
	struct rpcrdma_chunk_lists *cl = lists_alloc(test, 1, 2);
	struct rpcrdma_segment big = { 1, U32_MAX, 0 };

	KUNIT_EXPECT_EQ(test, rpcrdma_add_write_segment(cl, &seg_a), -EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_reply_segment(cl, &seg_a), -EINVAL);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_write_chunk(cl), -ENOSPC);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(cl, &seg_a), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_write_segment(cl, &big), -EOVERFLOW);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(cl), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_reply_chunk(cl), -EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_write_chunk(cl), -EINVAL);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_write_segment(cl, &seg_b), -EINVAL);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_segment(cl, &seg_b), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_add_reply_segment(cl, &seg_b), -ENOSPC);
	KUNIT_EXPECT_EQ(test, cl->nr_write_segs, 1U);
	KUNIT_EXPECT_EQ(test, cl->reply.nsegs, 1U);
	KUNIT_EXPECT_PTR_EQ(test, cl->reply.segs, &cl->segs[1]);
	KUNIT_EXPECT_EQ(test, cl->used_segs, 2U);
}

/* Built lists encode to exactly the hand-written RFC-shaped words. */
static void encode_built_read_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	h->hdr.xid = XW(WT_XID);
	h->hdr.credits = 32;
	h->hdr.proc = RPCRDMA_MSG;
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(&h->hdr.lists, 24,
						       &seg_a), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(&h->hdr.lists, 24,
						       &seg_b), 0);
	out = wt_encode_init(test, &xdr, &buf, 256);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr), 0);
	KUNIT_ASSERT_EQ(test, buf.len, 76U);
	KUNIT_EXPECT_MEMEQ(test, out, wt_msg_read, 76);
}

static void encode_built_write_case(struct kunit *test)
{
	static const struct rpcrdma_segment w[] = {
		{ 0x2001, 8192, 0x30000000 },
		{ 0x2002, 8192, 0x30002000 },
		{ 0x2003, 4096, 0xffff800000001000ULL },
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	h->hdr.xid = XW(WT_XID);
	h->hdr.credits = 32;
	h->hdr.proc = RPCRDMA_MSG;
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(cl, &w[0]), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(cl, &w[1]), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(cl, &w[2]), 0);
	out = wt_encode_init(test, &xdr, &buf, 256);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr), 0);
	KUNIT_ASSERT_EQ(test, buf.len, 92U);
	KUNIT_EXPECT_MEMEQ(test, out, wt_msg_write2, 92);
}

static void encode_built_reply_case(struct kunit *test)
{
	static const struct rpcrdma_segment r[] = {
		{ 0x3001, 4096, 0x40000000 },
		{ 0x3002, 4096, 0x40001000 },
	};
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(cl), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_segment(cl, &r[0]), 0);
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_segment(cl, &r[1]), 0);
	out = wt_encode_init(test, &xdr, &buf, 256);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_chunk_lists(&xdr, cl), 0);
	/* The lists of wt_msg_reply_chunk, after its four fixed words. */
	KUNIT_ASSERT_EQ(test, buf.len, 48U);
	KUNIT_EXPECT_MEMEQ(test, out, &wt_msg_reply_chunk[4], 48);
}

static void encode_segment_case(struct kunit *test)
{
	static const __be32 expect[] = {
		XW(0xdeadbeef), XW(0x12345678), XW(0xfedcba98), XW(0x76543210),
	};
	const struct rpcrdma_segment seg = {
		0xdeadbeef, 0x12345678, 0xfedcba9876543210ULL,
	};
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;

	out = wt_encode_init(test, &xdr, &buf, 16);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_segment(&xdr, &seg), 0);
	KUNIT_EXPECT_MEMEQ(test, out, expect, sizeof(expect));
	KUNIT_EXPECT_EQ(test, rpcrdma_encode_segment(&xdr, &seg), -EMSGSIZE);
}

/*
 * The responder returns offered Write chunks with the lengths actually
 * written (RFC 8166 section 3.4.6): the result is wt_reply_write.
 */
static void encode_write_list_written_case(struct kunit *test)
{
	struct rpcrdma_hdr *call = decode_ok(test, wt_msg_write2,
					     sizeof(wt_msg_write2),
					     RPCRDMA_DIR_CALL);
	static const u32 written[] = { 10000, 0 };
	static const u32 too_much[] = { 16385, 0 };
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;
	int ret;

	out = wt_encode_init(test, &xdr, &buf, 256);
	ret = rpcrdma_encode_write_list_written(&xdr, call->lists.write, 2,
						written);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, buf.len, 68U);
	KUNIT_EXPECT_MEMEQ(test, out, &wt_reply_write[5], 68);

	wt_encode_init(test, &xdr, &buf, 256);
	ret = rpcrdma_encode_write_list_written(&xdr, call->lists.write, 2,
						too_much);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
	/* No chunk returned: just the terminator. */
	out = wt_encode_init(test, &xdr, &buf, 256);
	ret = rpcrdma_encode_write_list_written(&xdr, call->lists.write, 0,
						written);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, buf.len, 4U);
	KUNIT_EXPECT_EQ(test, be32_to_cpup(out), 0U);
}

/*
 * A responder's lists written straight into a buffer: the words of
 * wt_reply_write and of wt_nomsg_long_reply after their fixed headers,
 * the same as the stream encoders give, and the same refusals.
 */
static void reply_lists_put_case(struct kunit *test)
{
	struct rpcrdma_hdr *wcall = decode_ok(test, wt_msg_write2,
					      sizeof(wt_msg_write2),
					      RPCRDMA_DIR_CALL);
	struct rpcrdma_hdr *rcall = decode_ok(test, wt_msg_reply_chunk,
					      sizeof(wt_msg_reply_chunk),
					      RPCRDMA_DIR_CALL);
	static const u32 written[] = { 10000, 0 };
	static const u32 too_much[] = { 16385, 0 };
	u8 *buf = kunit_kzalloc(test, 256, GFP_KERNEL);
	int len;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	len = rpcrdma_reply_lists_put(buf, 256, wcall->lists.write, 2, written,
				      NULL, 0);
	KUNIT_ASSERT_EQ(test, len, 76);
	KUNIT_EXPECT_MEMEQ(test, buf, &wt_reply_write[4], 76);
	/* Exactly enough room, then one word short. */
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_lists_put(buf, 76,
						      wcall->lists.write, 2,
						      written, NULL, 0), 76);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_lists_put(buf, 72,
						      wcall->lists.write, 2,
						      written, NULL, 0),
			-EMSGSIZE);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_lists_put(buf, 256,
						      wcall->lists.write, 2,
						      too_much, NULL, 0),
			-EINVAL);

	len = rpcrdma_reply_lists_put(buf, 256, NULL, 0, NULL,
				      &rcall->lists.reply, 3000);
	KUNIT_ASSERT_EQ(test, len, 48);
	KUNIT_EXPECT_MEMEQ(test, buf, &wt_nomsg_long_reply[4], 48);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_lists_put(buf, 256, NULL, 0, NULL,
						      &rcall->lists.reply,
						      8193), -EINVAL);

	/* Nothing returned: three zero words. */
	len = rpcrdma_reply_lists_put(buf, 256, NULL, 0, NULL, NULL, 0);
	KUNIT_ASSERT_EQ(test, len, 12);
	KUNIT_EXPECT_MEMEQ(test, buf, &wt_msg_reply_chunk[4], 8);
	KUNIT_EXPECT_MEMEQ(test, buf + 8, &wt_reply_write[4], 4);
}

static void encode_reply_chunk_written_case(struct kunit *test)
{
	struct rpcrdma_hdr *call = decode_ok(test, wt_msg_reply_chunk,
					     sizeof(wt_msg_reply_chunk),
					     RPCRDMA_DIR_CALL);
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out;
	int ret;

	out = wt_encode_init(test, &xdr, &buf, 256);
	ret = rpcrdma_encode_reply_chunk_written(&xdr, &call->lists.reply,
						 3000);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, buf.len, 40U);
	/* The Reply chunk of wt_nomsg_long_reply. */
	KUNIT_EXPECT_MEMEQ(test, out, &wt_nomsg_long_reply[6], 40);

	out = wt_encode_init(test, &xdr, &buf, 256);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_reply_chunk_written(&xdr, NULL,
								 0), 0);
	KUNIT_EXPECT_EQ(test, buf.len, 4U);
	KUNIT_EXPECT_EQ(test, be32_to_cpup(out), 0U);

	wt_encode_init(test, &xdr, &buf, 256);
	ret = rpcrdma_encode_reply_chunk_written(&xdr, &call->lists.reply,
						 8193);
	KUNIT_EXPECT_EQ(test, ret, -EINVAL);
}

/* Build, encode, decode, re-encode: same structure, same bytes. */
static void build_roundtrip_case(struct kunit *test)
{
	struct wt_hdr *a = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct wt_hdr *b = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *cl = &a->hdr.lists;
	struct rpcrdma_segment seg;
	struct rpcrdma_cursor c;
	struct xdr_stream xdr;
	struct xdr_buf buf;
	void *out, *out2;
	unsigned int i, len;

	a->hdr.xid = XW(0x01020304);
	a->hdr.credits = 128;
	a->hdr.proc = RPCRDMA_MSG;
	for (i = 0; i < 5; i++) {
		seg.handle = 0x100 + i;
		seg.length = 1000 + i;
		seg.offset = 0x100000000ULL * i + 0x1000;
		KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 4 * (i / 2),
							       &seg), 0);
	}
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
		seg.handle = 0x200 + i;
		seg.length = 8192;
		seg.offset = 0xffffffff00000000ULL | i;
		KUNIT_ASSERT_EQ(test, rpcrdma_add_write_segment(cl, &seg), 0);
	}
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(cl), 0);
	seg.handle = 0x300;
	seg.length = 65536;
	seg.offset = 0;
	KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_segment(cl, &seg), 0);

	out = wt_encode_init(test, &xdr, &buf, 512);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &a->hdr), 0);
	len = buf.len;
	KUNIT_EXPECT_EQ(test, (size_t)len, rpcrdma_chunk_lists_hdr_size(cl));

	/* Positions 0, 0, 4, 4, 8: an RDMA_MSG with 8 bytes inline. */
	KUNIT_ASSERT_EQ(test, wt_decode(test, out, len, RPCRDMA_DIR_CALL, NULL,
					&b->hdr), RPCRDMA_WIRE_ERR_POS_OVERLAP);
	/* Decoded without the call-only position checks it round-trips. */
	wt_cursor_init(test, &c, out, len);
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_fixed(&c, &b->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_chunk_lists(&c, RPCRDMA_DIR_CALL,
							 NULL, &b->hdr.lists),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, b->hdr.lists.nr_read_chunks, 3U);
	KUNIT_EXPECT_EQ(test, b->hdr.lists.nr_read_segs, 5U);
	KUNIT_EXPECT_EQ(test, b->hdr.lists.read[1].length, 2005U);
	KUNIT_EXPECT_EQ(test, b->hdr.lists.nr_write_chunks, 3U);
	KUNIT_EXPECT_EQ(test, b->hdr.lists.reply.length, 65536U);
	KUNIT_EXPECT_MEMEQ(test, b->hdr.lists.segs, cl->segs,
			   9 * sizeof(*cl->segs));
	out2 = wt_encode_init(test, &xdr, &buf, 512);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &b->hdr), 0);
	KUNIT_ASSERT_EQ(test, buf.len, len);
	KUNIT_EXPECT_MEMEQ(test, out2, out, len);
}

/*
 * Read positions against the call (rpcrdma_check_read_positions())
 */

struct pos_case {
	const char *desc;
	u32 proc;
	unsigned int inline_len;
	unsigned int n;
	u32 pos[3];
	u32 len[3];
	enum rpcrdma_wire_err expect;
};

static const struct pos_case pos_cases[] = {
	{ "chunk at the end of the inline payload", RPCRDMA_MSG, 100, 1,
	  { 100 }, { 4096 }, RPCRDMA_WIRE_OK },
	{ "chunk one word past the end", RPCRDMA_MSG, 100, 1,
	  { 104 }, { 4096 }, RPCRDMA_WIRE_ERR_POS_RANGE },
	{ "second chunk after the first one's roundup", RPCRDMA_MSG, 12, 2,
	  { 8, 20 }, { 5, 10 }, RPCRDMA_WIRE_OK },
	{ "second chunk past the end", RPCRDMA_MSG, 12, 2,
	  { 8, 24 }, { 5, 10 }, RPCRDMA_WIRE_ERR_POS_RANGE },
	{ "second chunk inside the first one's roundup", RPCRDMA_MSG, 12, 2,
	  { 8, 12 }, { 5, 10 }, RPCRDMA_WIRE_ERR_POS_OVERLAP },
	{ "Long Call: positions within the position-zero chunk",
	  RPCRDMA_NOMSG, 0, 2, { 0, 512 }, { 512, 4096 }, RPCRDMA_WIRE_OK },
	{ "Long Call: position past the position-zero chunk",
	  RPCRDMA_NOMSG, 0, 2, { 0, 516 }, { 512, 4096 },
	  RPCRDMA_WIRE_ERR_POS_RANGE },
	{ "RDMA_MSG: position-zero chunk is ordinary data", RPCRDMA_MSG, 8,
	  2, { 0, 12 }, { 10, 4 }, RPCRDMA_WIRE_OK },
	{ "RDMA_MSG: next chunk inside position-zero data", RPCRDMA_MSG, 8,
	  2, { 0, 8 }, { 10, 4 }, RPCRDMA_WIRE_ERR_POS_OVERLAP },
	{ "chunk end past 4 GiB does not wrap", RPCRDMA_MSG, 0xfffffff8, 2,
	  { 0xfffffff8, 0xfffffffc }, { 0xfffffff0, 4 },
	  RPCRDMA_WIRE_ERR_POS_OVERLAP },
	{ "three chunks back to back", RPCRDMA_MSG, 4, 3,
	  { 4, 12, 16 }, { 7, 4, 1 }, RPCRDMA_WIRE_OK },
	{ "third chunk past the end", RPCRDMA_MSG, 4, 3,
	  { 4, 12, 20 }, { 7, 4, 1 }, RPCRDMA_WIRE_ERR_POS_RANGE },
};

static void pos_case_desc(const struct pos_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pos, pos_cases, pos_case_desc);

static void read_positions_case(struct kunit *test)
{
	const struct pos_case *c = test->param_value;
	struct rpcrdma_chunk_lists *cl = lists_alloc(test, 4, 4);
	struct rpcrdma_segment seg = { 1, 0, 0 };
	unsigned int i;

	for (i = 0; i < c->n; i++) {
		seg.length = c->len[i];
		KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, c->pos[i],
							       &seg), 0);
	}
	KUNIT_EXPECT_EQ(test, rpcrdma_check_read_positions(cl, c->proc,
							   c->inline_len),
			c->expect);
}

/*
 * The requester's check of returned chunks (rpcrdma_check_reply_chunks())
 */

struct ret_case {
	const char *desc;
	const __be32 *words;
	size_t len;
	enum rpcrdma_wire_err expect;
};

/* Offered by the call: wt_msg_all (1 Write chunk, 1 Reply chunk). */
static const __be32 ret_same[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(1), XW(0x5002), XW(4096), XW(0), XW(0x61000000), XW(0),
	XW(1), XW(1), XW(0x5003), XW(1024), XW(0), XW(0x62000000),
};

static const __be32 ret_shorter[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(1), XW(0x5002), XW(17), XW(0), XW(0x61000000), XW(0),
	XW(0),
};

static const __be32 ret_no_write[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0), XW(0), XW(0),
};

static const __be32 ret_fewer_segs[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(0), XW(0),
	XW(0),
};

static const __be32 ret_extra_chunk[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(1), XW(0x5002), XW(4096), XW(0), XW(0x61000000),
	XW(1), XW(1), XW(0x5002), XW(4096), XW(0), XW(0x61000000), XW(0),
	XW(0),
};

static const __be32 ret_extra_segs[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(2), XW(0x5002), XW(4096), XW(0), XW(0x61000000),
		      XW(0x5002), XW(4096), XW(0), XW(0x61001000), XW(0),
	XW(0),
};

static const __be32 ret_too_long[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(1), XW(0x5002), XW(4097), XW(0), XW(0x61000000), XW(0),
	XW(0),
};

static const __be32 ret_bad_handle[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(1), XW(0x5099), XW(4096), XW(0), XW(0x61000000), XW(0),
	XW(0),
};

static const __be32 ret_bad_offset[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_MSG), XW(0),
	XW(1), XW(1), XW(0x5002), XW(4096), XW(1), XW(0x61000000), XW(0),
	XW(0),
};

static const __be32 ret_reply_too_long[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_NOMSG), XW(0), XW(0),
	XW(1), XW(1), XW(0x5003), XW(1025), XW(0), XW(0x62000000),
};

static const __be32 ret_reply_bad_handle[] = {
	XW(WT_XID), XW(1), XW(8), XW(RPCRDMA_NOMSG), XW(0), XW(0),
	XW(1), XW(1), XW(0x5004), XW(1000), XW(0), XW(0x62000000),
};

#define RET_CASE(d, w, e)	{ d, w, sizeof(w), e }

static const struct ret_case ret_cases[] = {
	RET_CASE("everything returned in full", ret_same, RPCRDMA_WIRE_OK),
	RET_CASE("partly used Write chunk, no Reply chunk", ret_shorter,
		 RPCRDMA_WIRE_OK),
	RET_CASE("Write chunk omitted", ret_no_write, RPCRDMA_WIRE_OK),
	RET_CASE("Write chunk returned with no segment", ret_fewer_segs,
		 RPCRDMA_WIRE_OK),
	RET_CASE("more Write chunks than offered", ret_extra_chunk,
		 RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK),
	RET_CASE("more segments than offered", ret_extra_segs,
		 RPCRDMA_WIRE_ERR_REPLY_EXTRA_SEGS),
	RET_CASE("segment longer than offered", ret_too_long,
		 RPCRDMA_WIRE_ERR_REPLY_SEG_TOO_LONG),
	RET_CASE("segment handle differs", ret_bad_handle,
		 RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH),
	RET_CASE("segment offset differs", ret_bad_offset,
		 RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH),
	RET_CASE("Reply chunk longer than offered", ret_reply_too_long,
		 RPCRDMA_WIRE_ERR_REPLY_SEG_TOO_LONG),
	RET_CASE("Reply chunk handle differs", ret_reply_bad_handle,
		 RPCRDMA_WIRE_ERR_REPLY_SEG_MISMATCH),
};

static void ret_case_desc(const struct ret_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ret, ret_cases, ret_case_desc);

static void check_reply_chunks_case(struct kunit *test)
{
	const struct ret_case *c = test->param_value;
	struct rpcrdma_hdr *call, *reply;

	call = decode_ok(test, wt_msg_all, sizeof(wt_msg_all),
			 RPCRDMA_DIR_CALL);
	reply = decode_ok(test, c->words, c->len, RPCRDMA_DIR_REPLY);
	KUNIT_EXPECT_EQ(test, rpcrdma_check_reply_chunks(&call->lists,
							 &reply->lists),
			c->expect);
}

/* A Reply chunk may only come back if the call offered one. */
static void check_reply_chunk_not_offered_case(struct kunit *test)
{
	struct rpcrdma_hdr *call, *reply;

	call = decode_ok(test, wt_msg_plain, sizeof(wt_msg_plain),
			 RPCRDMA_DIR_CALL);
	reply = decode_ok(test, wt_nomsg_long_reply,
			  sizeof(wt_nomsg_long_reply), RPCRDMA_DIR_REPLY);
	KUNIT_EXPECT_EQ(test, rpcrdma_check_reply_chunks(&call->lists,
							 &reply->lists),
			RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK);
	call = decode_ok(test, wt_msg_reply_chunk, sizeof(wt_msg_reply_chunk),
			 RPCRDMA_DIR_CALL);
	KUNIT_EXPECT_EQ(test, rpcrdma_check_reply_chunks(&call->lists,
							 &reply->lists),
			RPCRDMA_WIRE_OK);
}

/* The check also refuses a Read list built into a reply structure. */
static void check_reply_read_list_case(struct kunit *test)
{
	struct rpcrdma_chunk_lists *offered = lists_alloc(test, 2, 2);
	struct rpcrdma_chunk_lists *returned = lists_alloc(test, 2, 2);

	KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(returned, 0, &seg_a), 0);
	KUNIT_EXPECT_EQ(test, rpcrdma_check_reply_chunks(offered, returned),
			RPCRDMA_WIRE_ERR_READ_IN_REPLY);
}

/*
 * Decode @words (@len bytes) with the shortcuts and without, into
 * structures full of stale contents (the decode must set what it
 * reports): the same verdict, @expect, and where both succeed the same
 * words consumed and the same lists.
 */
static void wt_expect_shortcut_same(struct kunit *test, const __be32 *words,
				    size_t len, enum rpcrdma_msg_dir dir,
				    const struct rpcrdma_wire_limits *limits,
				    unsigned int max_chunks,
				    unsigned int max_segs,
				    enum rpcrdma_wire_err expect)
{
	struct wt_hdr *a = wt_hdr_alloc(test, max_chunks, max_segs);
	struct wt_hdr *b = wt_hdr_alloc(test, max_chunks, max_segs);
	struct rpcrdma_chunk_lists *la = &a->hdr.lists, *lb = &b->hdr.lists;
	struct rpcrdma_cursor ca, cb;
	enum rpcrdma_wire_err ea, eb;

	memset(a->chunks, 0xa5, sizeof(a->chunks));
	memset(a->segs, 0xa5, sizeof(a->segs));
	memset(b->chunks, 0xa5, sizeof(b->chunks));
	memset(b->segs, 0xa5, sizeof(b->segs));
	wt_cursor_init(test, &ca, words, len);
	wt_cursor_init(test, &cb, words, len);
	ea = rpcrdma_decode_chunk_lists(&ca, dir, limits, la);
	eb = rpcrdma_decode_chunk_lists_general(&cb, dir, limits, lb);
	KUNIT_EXPECT_EQ(test, ea, expect);
	KUNIT_EXPECT_EQ(test, ea, eb);
	if (ea != RPCRDMA_WIRE_OK || eb != RPCRDMA_WIRE_OK)
		return;
	KUNIT_EXPECT_EQ(test, rpcrdma_cursor_pos(&ca), rpcrdma_cursor_pos(&cb));
	wt_expect_same_lists(test, la, lb);
}

/*
 * The one-Read-segment shortcut of rpcrdma_decode_chunk_lists() against
 * the list decoders it stands in for: each vector is the lists of a
 * call, one Read segment or something close to it, with limits and
 * storage; both decodes must give the same verdict, consume the same
 * words and store the same lists.
 */
struct one_read_case {
	const char *desc;
	u32 pos, len;
	u32 rest[6];
	unsigned int nrest;
	enum rpcrdma_msg_dir dir;
	struct rpcrdma_wire_limits limits;
	bool no_limits;
	unsigned int max_chunks, max_segs;
	enum rpcrdma_wire_err expect;
};

#define OR_LIM		{ 4, 16, 4, 16 }

/* Each vector: a Read segment at pos of len bytes, then rest[]. */
static const struct one_read_case one_read_cases[] = {
	{ "a 4 KiB write", 120, 4096, { 0, 0, 0 }, 3, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "without limits", 120, 4096, { 0, 0, 0 }, 3, RPCRDMA_DIR_CALL, {},
	  true, 8, 16, RPCRDMA_WIRE_OK },
	{ "position zero", 0, 200, { 0, 0, 0 }, 3, RPCRDMA_DIR_CALL, OR_LIM,
	  false, 8, 16, RPCRDMA_WIRE_OK },
	{ "the largest length", 8, 0xffffffff, { 0, 0, 0 }, 3,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "words after the lists", 8, 4096, { 0, 0, 0, 7, 8 }, 5,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "position not a multiple of four", 122, 4096, { 0, 0, 0 }, 3,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_POS_UNALIGNED },
	{ "zero length", 120, 0, { 0, 0, 0 }, 3, RPCRDMA_DIR_CALL, OR_LIM,
	  false, 8, 16, RPCRDMA_WIRE_ERR_ZERO_LENGTH },
	{ "in a reply", 120, 4096, { 0, 0, 0 }, 3, RPCRDMA_DIR_REPLY, OR_LIM,
	  false, 8, 16, RPCRDMA_WIRE_ERR_READ_IN_REPLY },
	{ "no Read segment allowed", 120, 4096, { 0, 0, 0 }, 3,
	  RPCRDMA_DIR_CALL, { 4, 0, 4, 16 }, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS },
	{ "no Read chunk allowed", 120, 4096, { 0, 0, 0 }, 3,
	  RPCRDMA_DIR_CALL, { 0, 16, 4, 16 }, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS },
	{ "no segment per chunk allowed", 120, 4096, { 0, 0, 0 }, 3,
	  RPCRDMA_DIR_CALL, { 4, 16, 4, 0 }, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS },
	{ "no segment storage", 120, 4096, { 0, 0, 0 }, 3, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 0, RPCRDMA_WIRE_ERR_NO_STORAGE },
	{ "no chunk storage", 120, 4096, { 0, 0, 0 }, 3, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 0, 16, RPCRDMA_WIRE_ERR_NO_STORAGE },
	{ "the Reply chunk's word missing", 120, 4096, { 0, 0 }, 2,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TRUNCATED },
	{ "a second Read segment", 120, 4096, { 1, 120, 7, 8, 0, 0 }, 6,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TRUNCATED },
	{ "a Write chunk", 120, 4096, { 0, 1, 0, 0, 0 }, 5, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "a Reply chunk", 120, 4096, { 0, 0, 1, 0 }, 4, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "a bad Read list end", 120, 4096, { 2, 0, 0 }, 3, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_ERR_BAD_DISCRIM },
};

static void one_read_desc(const struct one_read_case *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(one_read, one_read_cases, one_read_desc);

static void one_read_case(struct kunit *test)
{
	const struct one_read_case *v = test->param_value;
	const struct rpcrdma_wire_limits *limits =
		v->no_limits ? NULL : &v->limits;
	size_t len = (6 + v->nrest) * XDR_UNIT;
	__be32 words[12];
	unsigned int i;

	words[0] = xdr_one;
	words[1] = cpu_to_be32(v->pos);
	words[2] = cpu_to_be32(0x5a5a);
	words[3] = cpu_to_be32(v->len);
	words[4] = cpu_to_be32(0x1);
	words[5] = cpu_to_be32(0x2000);
	for (i = 0; i < v->nrest; i++)
		words[6 + i] = cpu_to_be32(v->rest[i]);
	wt_expect_shortcut_same(test, words, len, v->dir, limits,
				v->max_chunks, v->max_segs, v->expect);
}

/*
 * The one-Write-chunk shortcut, the same way: each vector is an empty
 * Read list, a Write chunk of count segments whose first is len bytes,
 * then rest[] (the other segments, then the lists' end).
 */
struct one_write_case {
	const char *desc;
	u32 count, len;
	u32 rest[8];
	unsigned int nrest;
	enum rpcrdma_msg_dir dir;
	struct rpcrdma_wire_limits limits;
	bool no_limits;
	unsigned int max_chunks, max_segs;
	enum rpcrdma_wire_err expect;
};

static const struct one_write_case one_write_cases[] = {
	{ "a 4 KiB read", 1, 4096, { 0, 0 }, 2, RPCRDMA_DIR_CALL, OR_LIM,
	  false, 8, 16, RPCRDMA_WIRE_OK },
	{ "its reply", 1, 4096, { 0, 0 }, 2, RPCRDMA_DIR_REPLY, OR_LIM,
	  false, 8, 16, RPCRDMA_WIRE_OK },
	{ "without limits", 1, 4096, { 0, 0 }, 2, RPCRDMA_DIR_CALL, {},
	  true, 8, 16, RPCRDMA_WIRE_OK },
	{ "the largest length", 1, 0xffffffff, { 0, 0 }, 2, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "words after the lists", 1, 4096, { 0, 0, 7, 8 }, 4,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "zero length in a call", 1, 0, { 0, 0 }, 2, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_ERR_ZERO_LENGTH },
	{ "zero length in a reply", 1, 0, { 0, 0 }, 2, RPCRDMA_DIR_REPLY,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "no Write chunk allowed", 1, 4096, { 0, 0 }, 2, RPCRDMA_DIR_CALL,
	  { 4, 16, 0, 16 }, false, 8, 16, RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS },
	{ "no segment per chunk allowed", 1, 4096, { 0, 0 }, 2,
	  RPCRDMA_DIR_CALL, { 4, 16, 4, 0 }, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS },
	{ "no segment storage", 1, 4096, { 0, 0 }, 2, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 0, RPCRDMA_WIRE_ERR_NO_STORAGE },
	{ "no chunk storage", 1, 4096, { 0, 0 }, 2, RPCRDMA_DIR_CALL, OR_LIM,
	  false, 0, 16, RPCRDMA_WIRE_ERR_NO_STORAGE },
	{ "the Reply chunk's word missing", 1, 4096, { 0 }, 1,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TRUNCATED },
	{ "two segments", 2, 4096, { 7, 100, 0, 8, 0, 0 }, 6,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "two segments, the second empty, in a call", 2, 4096,
	  { 7, 0, 0, 8, 0, 0 }, 6, RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_ZERO_LENGTH },
	{ "two segments, the second empty, in a reply", 2, 4096,
	  { 7, 0, 0, 8, 0, 0 }, 6, RPCRDMA_DIR_REPLY, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_OK },
	{ "two segments past 4 GiB", 2, 0xffffffff, { 7, 1, 0, 8, 0, 0 }, 6,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_LENGTH_OVERFLOW },
	{ "two segments to 4 GiB less one", 2, 0xfffffffe, { 7, 1, 0, 8, 0,
	  0 }, 6, RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "two segments, one allowed", 2, 4096, { 7, 100, 0, 8, 0, 0 }, 6,
	  RPCRDMA_DIR_CALL, { 4, 16, 4, 1 }, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS },
	{ "two segments, storage for one", 2, 4096, { 7, 100, 0, 8, 0, 0 },
	  6, RPCRDMA_DIR_CALL, OR_LIM, false, 8, 1,
	  RPCRDMA_WIRE_ERR_NO_STORAGE },
	{ "two segments, the lists' end missing", 2, 4096, { 7, 100, 0, 8,
	  0 }, 5, RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TRUNCATED },
	{ "a count larger than the words", 0x40000000, 4096, { 0, 0 }, 2,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS },
	{ "a count larger than the words, no limits", 0x40000000, 4096,
	  { 0, 0 }, 2, RPCRDMA_DIR_CALL, {}, true, 8, 16,
	  RPCRDMA_WIRE_ERR_NO_STORAGE },
	{ "a count that lies", 3, 4096, { 7, 100, 0, 8, 0, 0 }, 6,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TRUNCATED },
	{ "no segment", 0, 0, { 0, 0 }, 2, RPCRDMA_DIR_CALL, OR_LIM, false,
	  8, 16, RPCRDMA_WIRE_OK },
	{ "a second Write chunk", 1, 4096, { 1, 1, 7, 100, 0, 8, 0, 0 }, 8,
	  RPCRDMA_DIR_CALL, OR_LIM, false, 8, 16, RPCRDMA_WIRE_OK },
	{ "a second Write chunk too many", 1, 4096, { 1, 1, 7, 100, 0, 8, 0,
	  0 }, 8, RPCRDMA_DIR_CALL, { 4, 16, 1, 16 }, false, 8, 16,
	  RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS },
	{ "a Reply chunk", 1, 4096, { 0, 1, 0 }, 3, RPCRDMA_DIR_CALL, OR_LIM,
	  false, 8, 16, RPCRDMA_WIRE_OK },
	{ "a bad Write list end", 1, 4096, { 2, 0 }, 2, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_ERR_BAD_DISCRIM },
	{ "a bad Reply chunk word", 1, 4096, { 0, 2 }, 2, RPCRDMA_DIR_CALL,
	  OR_LIM, false, 8, 16, RPCRDMA_WIRE_ERR_BAD_DISCRIM },
};

static void one_write_desc(const struct one_write_case *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(one_write, one_write_cases, one_write_desc);

static void one_write_case(struct kunit *test)
{
	const struct one_write_case *v = test->param_value;
	const struct rpcrdma_wire_limits *limits =
		v->no_limits ? NULL : &v->limits;
	size_t len = (3 + (v->count ? 4 : 0) + v->nrest) * XDR_UNIT;
	unsigned int i, n = 0;
	__be32 words[16];

	words[n++] = xdr_zero;
	words[n++] = xdr_one;
	words[n++] = cpu_to_be32(v->count);
	if (v->count) {
		words[n++] = cpu_to_be32(0x5a5a);
		words[n++] = cpu_to_be32(v->len);
		words[n++] = cpu_to_be32(0x1);
		words[n++] = cpu_to_be32(0x2000);
	}
	for (i = 0; i < v->nrest; i++)
		words[n++] = cpu_to_be32(v->rest[i]);
	wt_expect_shortcut_same(test, words, len, v->dir, limits,
				v->max_chunks, v->max_segs, v->expect);
}

static struct kunit_case rpcrdma_wire_chunk_cases[] = {
	KUNIT_CASE_PARAM(one_read_case, one_read_gen_params),
	KUNIT_CASE_PARAM(one_write_case, one_write_gen_params),
	KUNIT_CASE(read_one_chunk_case),
	KUNIT_CASE(read_two_chunks_case),
	KUNIT_CASE(long_call_chunk_case),
	KUNIT_CASE(write_two_chunks_case),
	KUNIT_CASE(reply_chunk_case),
	KUNIT_CASE(all_lists_case),
	KUNIT_CASE(empty_write_chunk_case),
	KUNIT_CASE(reply_unused_write_segs_case),
	KUNIT_CASE(long_reply_chunk_case),
	KUNIT_CASE(list_decoders_case),
	KUNIT_CASE(build_read_merge_case),
	KUNIT_CASE(build_read_rules_case),
	KUNIT_CASE(build_write_reply_rules_case),
	KUNIT_CASE(encode_built_read_case),
	KUNIT_CASE(encode_built_write_case),
	KUNIT_CASE(encode_built_reply_case),
	KUNIT_CASE(encode_segment_case),
	KUNIT_CASE(encode_write_list_written_case),
	KUNIT_CASE(encode_reply_chunk_written_case),
	KUNIT_CASE(reply_lists_put_case),
	KUNIT_CASE(build_roundtrip_case),
	KUNIT_CASE_PARAM(read_positions_case, pos_gen_params),
	KUNIT_CASE_PARAM(check_reply_chunks_case, ret_gen_params),
	KUNIT_CASE(check_reply_chunk_not_offered_case),
	KUNIT_CASE(check_reply_read_list_case),
	{}
};

static struct kunit_suite rpcrdma_wire_chunk_suite = {
	.name		= "rpcrdma_wire_chunk",
	.test_cases	= rpcrdma_wire_chunk_cases,
};

kunit_test_suites(&rpcrdma_wire_chunk_suite);
