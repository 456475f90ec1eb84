// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: where the server puts each byte of a Call that came with Read
 * chunks (svcrdma/call_layout.c).  Each vector is a decoded header (the
 * procedure, the Read chunks' positions and lengths, the inline length)
 * and the largest Call the service takes; the plan must name the form,
 * the pieces in order (inline copies, Reads from the Long Call's chunk,
 * whole chunks, XDR pads), the Call's length, its head and its pages,
 * or refuse with -EINVAL or -EMSGSIZE (RFC 8166 sections 3.4.5, 3.5.3).
 */
#include <kunit/test.h>

#include "../svcrdma/server.h"

#define SCT_MAX_CHUNKS	4
#define SCT_MAX_PIECES	8

/* A piece as the vectors write it: source, position, from, length. */
struct sct_piece {
	char src;		/* 'i'nline, 'c'all chunk, 'k' chunk, 'p'ad */
	unsigned int pos, from, len, chunk;
};

/**
 * struct sct_vec - one Call and its expected layout
 * @name: what it looks like
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 * @inline_len: bytes of Payload stream received inline
 * @nr_chunks: Read chunks
 * @chunks: their position and length
 * @max_mesg: sv_max_mesg
 * @rc: what srdma_call_layout() returns
 * @form: the form expected
 * @len: bytes of Call expected in rq_arg
 * @head_len: bytes of rq_arg's head expected
 * @npages: pages expected
 * @nr_pieces: pieces expected
 * @pieces: the pieces expected, in order
 */
struct sct_vec {
	const char *name;
	u32 proc;
	unsigned int inline_len;
	unsigned int nr_chunks;
	struct {
		u32 position, length;
	} chunks[SCT_MAX_CHUNKS];
	unsigned int max_mesg;
	int rc;
	enum srdma_call_form form;
	unsigned int len, head_len, npages, nr_pieces;
	struct sct_piece pieces[SCT_MAX_PIECES];
};

#define MSG	RPCRDMA_MSG
#define NOMSG	RPCRDMA_NOMSG
#define ITEM	SRDMA_CALL_DATA_ITEM
#define BUILT	SRDMA_CALL_ASSEMBLED
#define MAXM	(1048576 + 4096)

static const struct sct_vec sct_vecs[] = {
	{ "NFS WRITE of 1 MiB: data item, no pad", MSG, 200, 1,
	  { { 120, 1048576 } }, MAXM, 0, ITEM, 200 + 1048576, 120, 256, 1,
	  { { 'k', 0, 0, 1048576, 0 } } },
	{ "WRITE of 1301 bytes: three bytes of pad", MSG, 200, 1,
	  { { 120, 1301 } }, MAXM, 0, ITEM, 200 + 1304, 120, 1, 2,
	  { { 'k', 0, 0, 1301, 0 }, { 'p', 1301, 0, 3, 0 } } },
	{ "data item at position 0", MSG, 40, 1, { { 0, 8 } }, MAXM, 0,
	  ITEM, 48, 0, 1, 1, { { 'k', 0, 0, 8, 0 } } },
	{ "data item at the very end of the inline part", MSG, 40, 1,
	  { { 40, 5 } }, MAXM, 0, ITEM, 48, 40, 1, 2,
	  { { 'k', 0, 0, 5, 0 }, { 'p', 5, 0, 3, 0 } } },
	{ "data item past the inline part", MSG, 40, 1, { { 44, 8 } }, MAXM,
	  -EINVAL },
	{ "data item exactly as large as allowed", MSG, 96, 1,
	  { { 96, 4000 } }, 4096, 0, ITEM, 4096, 96, 1, 1,
	  { { 'k', 0, 0, 4000, 0 } } },
	{ "data item one XDR unit too large", MSG, 100, 1,
	  { { 100, 4000 } }, 4096, -EMSGSIZE },
	{ "data item whose pad makes it too large", MSG, 96, 1,
	  { { 96, 3997 } }, 4095, -EMSGSIZE },
	{ "data item of 2^32 - 1 bytes", MSG, 40, 1, { { 40, U32_MAX } },
	  MAXM, -EMSGSIZE },
	{ "two chunks, the first of odd length: pads put back", MSG, 100, 2,
	  { { 60, 1301 }, { 1364, 1500 } }, MAXM, 0, BUILT,
	  100 + 1304 + 1500, 2904, 1, 5,
	  { { 'i', 0, 0, 60, 0 }, { 'k', 60, 0, 1301, 0 },
	    { 'p', 1361, 0, 3, 0 }, { 'k', 1364, 0, 1500, 1 },
	    { 'i', 2864, 60, 40, 0 } } },
	{ "two chunks back to back at the end", MSG, 64, 2,
	  { { 64, 8 }, { 72, 4 } }, MAXM, 0, BUILT, 76, 76, 1, 3,
	  { { 'i', 0, 0, 64, 0 }, { 'k', 64, 0, 8, 0 },
	    { 'k', 72, 0, 4, 1 } } },
	{ "second chunk inside the first's pad", MSG, 64, 2,
	  { { 0, 5 }, { 4, 4 } }, MAXM, -EINVAL },
	{ "second chunk past the inline part", MSG, 64, 2,
	  { { 0, 8 }, { 80, 4 } }, MAXM, -EINVAL },
	{ "two chunks too large together", MSG, 64, 2,
	  { { 0, 2048 }, { 2048, 2048 } }, 4096, -EMSGSIZE },
	{ "Long Call alone", NOMSG, 0, 1, { { 0, 212 } }, MAXM, 0, BUILT,
	  212, 212, 1, 1, { { 'c', 0, 0, 212, 0 } } },
	{ "Long Call of 5000 bytes: the head is one page", NOMSG, 0, 1,
	  { { 0, 5000 } }, MAXM, 0, BUILT, 5000, 4096, 2, 1,
	  { { 'c', 0, 0, 5000, 0 } } },
	{ "Long Call with two data chunks", NOMSG, 0, 3,
	  { { 0, 300 }, { 100, 1301 }, { 1404, 1500 } }, MAXM, 0, BUILT,
	  300 + 1304 + 1500, 3104, 1, 5,
	  { { 'c', 0, 0, 100, 0 }, { 'k', 100, 0, 1301, 1 },
	    { 'p', 1401, 0, 3, 1 }, { 'k', 1404, 0, 1500, 2 },
	    { 'c', 2904, 100, 200, 0 } } },
	{ "Long Call whose data chunk lies past its stream", NOMSG, 0, 2,
	  { { 0, 100 }, { 104, 8 } }, MAXM, -EINVAL },
	{ "Long Call too large", NOMSG, 0, 1, { { 0, 8192 } }, 4096,
	  -EMSGSIZE },
};

static void sct_desc(const struct sct_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sct, sct_vecs, sct_desc);

static enum srdma_piece_src sct_src(char c)
{
	switch (c) {
	case 'c':
		return SRDMA_PIECE_CALL;
	case 'k':
		return SRDMA_PIECE_CHUNK;
	case 'p':
		return SRDMA_PIECE_PAD;
	default:
		return SRDMA_PIECE_INLINE;
	}
}

/* A layout full of poison: srdma_call_layout() writes what it reports. */
static struct srdma_call_layout *sct_poisoned_layout(struct kunit *test)
{
	struct srdma_call_layout *lo;

	lo = kunit_kmalloc(test, sizeof(*lo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lo);
	memset(lo, 0xa5, sizeof(*lo));
	return lo;
}

static void call_layout_case(struct kunit *test)
{
	const struct sct_vec *v = test->param_value;
	struct rpcrdma_chunk chunks[SCT_MAX_CHUNKS] = {};
	struct rpcrdma_chunk_lists cl = {};
	struct srdma_call_layout *lo;
	unsigned int i;
	int rc;

	lo = sct_poisoned_layout(test);
	for (i = 0; i < v->nr_chunks; i++) {
		chunks[i].position = v->chunks[i].position;
		chunks[i].length = v->chunks[i].length;
		chunks[i].nsegs = 1;
	}
	cl.read = chunks;
	cl.nr_read_chunks = v->nr_chunks;
	cl.nr_read_segs = v->nr_chunks;

	rc = srdma_call_layout(&cl, v->proc, v->inline_len, v->max_mesg, lo);
	KUNIT_ASSERT_EQ(test, rc, v->rc);
	if (rc)
		return;
	KUNIT_EXPECT_EQ(test, lo->form, v->form);
	KUNIT_EXPECT_EQ(test, lo->len, v->len);
	KUNIT_EXPECT_EQ(test, lo->head_len, v->head_len);
	KUNIT_EXPECT_EQ(test, lo->npages, v->npages);
	KUNIT_ASSERT_EQ(test, lo->nr_pieces, v->nr_pieces);
	for (i = 0; i < v->nr_pieces; i++) {
		const struct sct_piece *want = &v->pieces[i];
		const struct srdma_piece *got = &lo->pieces[i];

		KUNIT_EXPECT_EQ_MSG(test, got->src, sct_src(want->src),
				    "piece %u", i);
		KUNIT_EXPECT_EQ_MSG(test, got->pos, want->pos, "piece %u", i);
		KUNIT_EXPECT_EQ_MSG(test, got->len, want->len, "piece %u", i);
		if (want->src == 'i' || want->src == 'c')
			KUNIT_EXPECT_EQ_MSG(test, got->from, want->from,
					    "piece %u", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, got->chunk, want->chunk,
					    "piece %u", i);
	}
}

/*
 * Whatever the vector, the pieces of an assembled Call tile it: each
 * starts where the one before ended, and they end at its length.
 */
static void call_layout_tiles_case(struct kunit *test)
{
	const struct sct_vec *v = test->param_value;
	struct rpcrdma_chunk chunks[SCT_MAX_CHUNKS] = {};
	struct rpcrdma_chunk_lists cl = {};
	struct srdma_call_layout *lo;
	unsigned int i, pos = 0;

	lo = sct_poisoned_layout(test);
	for (i = 0; i < v->nr_chunks; i++) {
		chunks[i].position = v->chunks[i].position;
		chunks[i].length = v->chunks[i].length;
	}
	cl.read = chunks;
	cl.nr_read_chunks = v->nr_chunks;
	if (srdma_call_layout(&cl, v->proc, v->inline_len, v->max_mesg, lo))
		return;
	for (i = 0; i < lo->nr_pieces; i++) {
		KUNIT_EXPECT_EQ_MSG(test, lo->pieces[i].pos, pos, "piece %u", i);
		pos += lo->pieces[i].len;
	}
	if (lo->form == SRDMA_CALL_ASSEMBLED)
		KUNIT_EXPECT_EQ(test, pos, lo->len);
	else
		KUNIT_EXPECT_EQ(test, pos + v->inline_len, lo->len);
	KUNIT_EXPECT_LE(test, lo->len, v->max_mesg);
	KUNIT_EXPECT_EQ(test, lo->len % 4, 0);
}

static struct kunit_case rpcrdma_server_call_cases[] = {
	KUNIT_CASE_PARAM(call_layout_case, sct_gen_params),
	KUNIT_CASE_PARAM(call_layout_tiles_case, sct_gen_params),
	{}
};

static struct kunit_suite rpcrdma_server_call_suite = {
	.name = "rpcrdma_server_call",
	.test_cases = rpcrdma_server_call_cases,
};

kunit_test_suites(&rpcrdma_server_call_suite);
