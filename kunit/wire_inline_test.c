// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the RPC-over-RDMA version 1 inline arithmetic: header
 * sizes, inline room, and the Long Call / Long Reply decisions.
 */

#include "wire_test.h"

/* Seven XDR words: xid, vers, credits, proc and three empty lists. */
static void min_hdr_case(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rpcrdma_hdr_size(0, 0, 0, false, 0), 28UL);
	KUNIT_EXPECT_EQ(test, RPCRDMA_HDR_MIN_SIZE, 7 * sizeof(__be32));
	KUNIT_EXPECT_EQ(test, RPCRDMA_FIXED_HDR_SIZE, 16UL);
	KUNIT_EXPECT_EQ(test, RPCRDMA_SEGMENT_SIZE, 16UL);
	KUNIT_EXPECT_EQ(test, RPCRDMA_READ_ENTRY_SIZE, 24UL);
}

static void list_sizes_case(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rpcrdma_read_list_size(0), 4UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_read_list_size(1), 28UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_read_list_size(3), 76UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_write_list_size(0, 0), 4UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_write_list_size(1, 0), 12UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_write_list_size(2, 3), 68UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_chunk_size(false, 0), 4UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_chunk_size(false, 9), 4UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_chunk_size(true, 0), 8UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_chunk_size(true, 2), 40UL);
}

/* Sizes never wrap: absurd counts give huge sizes that do not fit. */
static void size_saturation_case(struct kunit *test)
{
	size_t big = rpcrdma_hdr_size(UINT_MAX, UINT_MAX, UINT_MAX, true,
				      UINT_MAX);

	KUNIT_EXPECT_GE(test, big, (size_t)UINT_MAX * 24);
	KUNIT_EXPECT_FALSE(test, rpcrdma_fits_inline(UINT_MAX, big, 0));
	KUNIT_EXPECT_FALSE(test, rpcrdma_fits_inline(UINT_MAX, 28, SIZE_MAX));
	KUNIT_EXPECT_FALSE(test, rpcrdma_fits_inline(UINT_MAX, SIZE_MAX,
						     SIZE_MAX));
	KUNIT_EXPECT_TRUE(test, rpcrdma_need_long_call(1024, SIZE_MAX, 1));
}

/* The arithmetic agrees with the decoder on every valid vector. */
static void hdr_size_matches_vec_case(struct kunit *test)
{
	const struct wt_vec *v = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	const struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	unsigned int i, empty = 0;

	KUNIT_ASSERT_EQ(test, wt_decode(test, v->words, v->len, v->dir, NULL,
					&h->hdr), RPCRDMA_WIRE_OK);
	if (v->proc == RPCRDMA_ERROR) {
		KUNIT_EXPECT_EQ(test, (size_t)h->hdr.hdr_len,
				h->hdr.err == RPCRDMA_ERR_VERS ?
				RPCRDMA_ERR_VERS_HDR_SIZE :
				RPCRDMA_ERR_CHUNK_HDR_SIZE);
		return;
	}
	KUNIT_EXPECT_EQ(test, rpcrdma_chunk_lists_hdr_size(cl),
			(size_t)v->hdr_len);
	/* Empty Write chunks (8 bytes each) are outside the worst case. */
	for (i = 0; i < cl->nr_write_chunks; i++)
		empty += !cl->write[i].nsegs;
	KUNIT_EXPECT_LE(test, (size_t)v->hdr_len,
			rpcrdma_hdr_worst_case(cl->used_segs) +
			empty * RPCRDMA_CHUNK_HEAD_SIZE);
}

KUNIT_ARRAY_PARAM(valid_vec, wt_valid_vecs, wt_vec_desc);

/*
 * Built lists: the computed header size equals what the encoder writes,
 * and never exceeds the worst case for that many segments.
 */
struct shape {
	const char *desc;
	unsigned int read_segs;		/* all at distinct positions */
	unsigned int write_chunks;
	unsigned int segs_per_write;
	bool reply;
	unsigned int reply_segs;
	size_t expect;
};

static const struct shape shapes[] = {
	{ "no chunks", 0, 0, 0, false, 0, 28 },
	{ "one Read segment", 1, 0, 0, false, 0, 52 },
	{ "eight Read segments", 8, 0, 0, false, 0, 220 },
	{ "one Write chunk of one segment", 0, 1, 1, false, 0, 52 },
	{ "two Write chunks of four segments", 0, 2, 4, false, 0, 172 },
	{ "empty Write chunk", 0, 1, 0, false, 0, 36 },
	{ "Reply chunk of one segment", 0, 0, 0, true, 1, 48 },
	{ "Reply chunk of eight segments", 0, 0, 0, true, 8, 160 },
	{ "everything", 2, 2, 2, true, 2, 28 + 48 + 16 + 64 + 4 + 32 },
};

static void shape_desc(const struct shape *s, char *desc)
{
	strscpy(desc, s->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shape, shapes, shape_desc);

static void hdr_size_matches_encoder_case(struct kunit *test)
{
	const struct shape *s = test->param_value;
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	struct rpcrdma_segment seg = { 1, 4096, 0 };
	struct xdr_stream xdr;
	struct xdr_buf buf;
	unsigned int i, j;
	size_t size;

	for (i = 0; i < s->read_segs; i++)
		KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 8192 * i,
							       &seg), 0);
	for (i = 0; i < s->write_chunks; i++) {
		KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
		for (j = 0; j < s->segs_per_write; j++)
			KUNIT_ASSERT_EQ(test,
					rpcrdma_add_write_segment(cl, &seg), 0);
	}
	if (s->reply) {
		KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(cl), 0);
		for (j = 0; j < s->reply_segs; j++)
			KUNIT_ASSERT_EQ(test,
					rpcrdma_add_reply_segment(cl, &seg), 0);
	}
	h->hdr.proc = RPCRDMA_MSG;
	wt_encode_init(test, &xdr, &buf, 1024);
	KUNIT_ASSERT_EQ(test, rpcrdma_encode_hdr(&xdr, &h->hdr), 0);

	size = rpcrdma_chunk_lists_hdr_size(cl);
	KUNIT_EXPECT_EQ(test, size, s->expect);
	KUNIT_EXPECT_EQ(test, (size_t)buf.len, size);
	KUNIT_EXPECT_EQ(test, size,
			rpcrdma_hdr_size(s->read_segs, s->write_chunks,
					 s->write_chunks * s->segs_per_write,
					 s->reply, s->reply_segs));
	if (s->write_chunks && !s->segs_per_write)
		return;		/* empty Write chunks are outside the bound */
	KUNIT_EXPECT_LE(test, size, rpcrdma_hdr_worst_case(cl->used_segs));
}

static void worst_case_case(struct kunit *test)
{
	unsigned int n;

	KUNIT_EXPECT_EQ(test, rpcrdma_hdr_worst_case(0), 28UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_hdr_worst_case(1), 52UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_hdr_worst_case(41), 1012UL);
	/* Every split of n segments between the lists stays within it. */
	for (n = 0; n <= 8; n++) {
		unsigned int r, w;

		for (r = 0; r <= n; r++)
			for (w = 0; w <= n - r; w++) {
				unsigned int rep = n - r - w;

				KUNIT_EXPECT_LE(test,
						rpcrdma_hdr_size(r, w, w, rep,
								 rep),
						rpcrdma_hdr_worst_case(n));
			}
		/* All as Read segments reaches it exactly. */
		KUNIT_EXPECT_EQ(test, rpcrdma_hdr_size(n, 0, 0, false, 0),
				rpcrdma_hdr_worst_case(n));
	}
}

static void max_segs_for_hdr_case(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(0), 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(27), 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(28), 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(51), 0U);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(52), 1U);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(1024), 41U);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(4096), 169U);
	KUNIT_EXPECT_LE(test,
			rpcrdma_hdr_worst_case(rpcrdma_max_segs_for_hdr(4096)),
			4096UL);
	KUNIT_EXPECT_GT(test,
			rpcrdma_hdr_worst_case(rpcrdma_max_segs_for_hdr(4096) +
					       1), 4096UL);
}

struct room_vec {
	const char *desc;
	unsigned int threshold;
	size_t hdr;
	size_t payload;
	size_t room;
	bool fits;
};

static const struct room_vec room_vecs[] = {
	{ "1 KiB, empty header, 996 bytes", 1024, 28, 996, 996, true },
	{ "1 KiB, empty header, 997 bytes", 1024, 28, 997, 996, false },
	{ "1 KiB, two Read segments", 1024, 76, 948, 948, true },
	{ "1 KiB, two Read segments, one byte more", 1024, 76, 949, 948,
	  false },
	{ "header exactly the threshold", 1024, 1024, 0, 0, true },
	{ "header larger than the threshold", 1024, 1028, 0, 0, false },
	{ "4 KiB, Write list of two chunks", 4096, 92, 4004, 4004, true },
	{ "256 KiB, NFS GETATTR", 262144, 28, 56, 262116, true },
	{ "zero threshold", 0, 28, 0, 0, false },
};

static void room_vec_desc(const struct room_vec *v, char *desc)
{
	strscpy(desc, v->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(room_vec, room_vecs, room_vec_desc);

static void inline_room_case(struct kunit *test)
{
	const struct room_vec *v = test->param_value;

	KUNIT_EXPECT_EQ(test, rpcrdma_inline_room(v->threshold, v->hdr),
			v->room);
	KUNIT_EXPECT_EQ(test, rpcrdma_fits_inline(v->threshold, v->hdr,
						  v->payload), v->fits);
	KUNIT_EXPECT_EQ(test, rpcrdma_need_long_call(v->threshold, v->hdr,
						     v->payload), !v->fits);
}

/*
 * RFC 8166 section 3.5.3 Long Call: an NFSv4 COMPOUND of 1100 bytes with
 * no DDP-eligible data does not fit the default 1 KiB threshold; the
 * Long Call header (position-zero chunk of one segment) does.
 */
static void long_call_decision_case(struct kunit *test)
{
	size_t msg_hdr = rpcrdma_hdr_size(0, 0, 0, false, 0);
	size_t nomsg_hdr = rpcrdma_hdr_size(1, 0, 0, false, 0);

	KUNIT_EXPECT_TRUE(test, rpcrdma_need_long_call(1024, msg_hdr, 1100));
	KUNIT_EXPECT_TRUE(test, rpcrdma_fits_inline(1024, nomsg_hdr, 0));
	KUNIT_EXPECT_FALSE(test, rpcrdma_need_long_call(4096, msg_hdr, 1100));
	/* Reducing a 4 KiB WRITE payload into a Read chunk avoids it. */
	KUNIT_EXPECT_TRUE(test, rpcrdma_need_long_call(1024, msg_hdr,
						       200 + 4096));
	KUNIT_EXPECT_FALSE(test, rpcrdma_need_long_call(1024, nomsg_hdr, 200));
}

/*
 * RFC 8166 section 3.5.3 Long Reply: the inline reply header echoes the
 * call's Write list, so the room for the reply depends on it.
 */
static void long_reply_decision_case(struct kunit *test)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *call = &h->hdr.lists;

	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_msg_all, sizeof(wt_msg_all),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	/* 28 + one Write chunk of one segment (24) = 52 inline, */
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_hdr_size(call, false), 52UL);
	/* plus the Reply chunk (20 more) for a Long Reply. */
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_hdr_size(call, true), 72UL);
	KUNIT_EXPECT_FALSE(test, rpcrdma_need_long_reply(1024, call, 972));
	KUNIT_EXPECT_TRUE(test, rpcrdma_need_long_reply(1024, call, 973));

	/* A call without Write chunks leaves 996 bytes. */
	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_msg_plain,
					sizeof(wt_msg_plain),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_hdr_size(call, true), 28UL);
	KUNIT_EXPECT_FALSE(test, rpcrdma_need_long_reply(1024, call, 996));
	KUNIT_EXPECT_TRUE(test, rpcrdma_need_long_reply(1024, call, 997));

	/* Two Write chunks, three segments: 92-byte reply header. */
	KUNIT_ASSERT_EQ(test, wt_decode(test, wt_msg_write2,
					sizeof(wt_msg_write2),
					RPCRDMA_DIR_CALL, NULL, &h->hdr),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_reply_hdr_size(call, false), 92UL);
	KUNIT_EXPECT_FALSE(test, rpcrdma_need_long_reply(4096, call, 4004));
	KUNIT_EXPECT_TRUE(test, rpcrdma_need_long_reply(4096, call, 4005));
}

/* The thresholds from RFC 8797 private data feed the same arithmetic. */
static void threshold_from_pdata_case(struct kunit *test)
{
	static const u8 server_pd[] = {
		0xf6, 0xab, 0x0e, 0x18, 0x01, 0x00, 0x0f, 0x00,
	};
	struct rpcrdma_cm_pdata pd;
	unsigned int call_threshold;

	KUNIT_ASSERT_TRUE(test, rpcrdma_cm_pdata_decode(server_pd,
							sizeof(server_pd),
							&pd));
	/* The server receives only 1 KiB: 996 bytes of call inline. */
	call_threshold = rpcrdma_inline_threshold(8192, pd.recv_size);
	KUNIT_EXPECT_EQ(test, call_threshold, 1024U);
	KUNIT_EXPECT_EQ(test, rpcrdma_inline_room(call_threshold,
						  RPCRDMA_HDR_MIN_SIZE), 996UL);
	KUNIT_EXPECT_EQ(test, rpcrdma_max_segs_for_hdr(call_threshold), 41U);
}

static struct kunit_case rpcrdma_wire_inline_cases[] = {
	KUNIT_CASE(min_hdr_case),
	KUNIT_CASE(list_sizes_case),
	KUNIT_CASE(size_saturation_case),
	KUNIT_CASE_PARAM(hdr_size_matches_vec_case, valid_vec_gen_params),
	KUNIT_CASE_PARAM(hdr_size_matches_encoder_case, shape_gen_params),
	KUNIT_CASE(worst_case_case),
	KUNIT_CASE(max_segs_for_hdr_case),
	KUNIT_CASE_PARAM(inline_room_case, room_vec_gen_params),
	KUNIT_CASE(long_call_decision_case),
	KUNIT_CASE(long_reply_decision_case),
	KUNIT_CASE(threshold_from_pdata_case),
	{}
};

static struct kunit_suite rpcrdma_wire_inline_suite = {
	.name		= "rpcrdma_wire_inline",
	.test_cases	= rpcrdma_wire_inline_cases,
};

kunit_test_suites(&rpcrdma_wire_inline_suite);
