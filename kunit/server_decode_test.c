// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the server decodes a Call's transport header into the small list
 * storage each Receive carries, and into storage at the decoding limits
 * only when the lists need it (svcrdma/recv.c srdma_decode()).  Each
 * vector is a shape of header (Read segments, Write chunks and their
 * segments, a Reply chunk); the verdict and every decoded list must be
 * what a decode into storage at the limits gives, the Receive must take
 * the large storage exactly when the small one is too small, and a later
 * small Call on the same Receive must decode as well.
 */
#include <kunit/test.h>

#include "../svcrdma/server.h"
#include "wire_test.h"

/* Words of the largest header a vector builds. */
#define SDT_MAX_WORDS	1024

/**
 * struct sdt_vec - one header shape
 * @name: what it looks like
 * @read_segs: Read segments, of 8 bytes each
 * @read_chunks: Read chunks the segments form, in equal runs, one after
 *	the other from XDR position 24
 * @write_chunks: Write chunks
 * @write_segs: segments in each Write chunk
 * @reply_segs: segments of the Reply chunk (0: none)
 * @err: the verdict expected
 * @big: the Receive must take the large storage
 */
struct sdt_vec {
	const char *name;
	unsigned int read_segs, read_chunks;
	unsigned int write_chunks, write_segs;
	unsigned int reply_segs;
	enum rpcrdma_wire_err err;
	bool big;
};

static const struct sdt_vec sdt_vecs[] = {
	{ "no chunks", 0, 0, 0, 0, 0, RPCRDMA_WIRE_OK, false },
	{ "one Read segment (an NFS WRITE)", 1, 1, 0, 0, 0,
	  RPCRDMA_WIRE_OK, false },
	{ "one Write chunk and a Reply chunk (an NFS READ)", 0, 0, 1, 1, 1,
	  RPCRDMA_WIRE_OK, false },
	{ "a Reply chunk of 16 segments", 0, 0, 0, 0, 16,
	  RPCRDMA_WIRE_OK, false },
	{ "16 Read segments in one chunk", 16, 1, 0, 0, 0,
	  RPCRDMA_WIRE_OK, false },
	{ "4 Read chunks of 4 segments", 16, 4, 0, 0, 0,
	  RPCRDMA_WIRE_OK, false },
	{ "4 Write chunks of 3 segments, a Reply chunk of 4", 0, 0, 4, 3, 4,
	  RPCRDMA_WIRE_OK, false },
	{ "5 Read chunks (past the small storage)", 5, 5, 0, 0, 0,
	  RPCRDMA_WIRE_OK, true },
	{ "a Read chunk, 4 Write chunks (5 chunks)", 1, 1, 4, 1, 0,
	  RPCRDMA_WIRE_OK, true },
	{ "16 Read segments and a Reply chunk", 16, 1, 0, 0, 1,
	  RPCRDMA_WIRE_OK, true },
	{ "a Write chunk of 16 segments, a Reply chunk of 16", 0, 0, 1, 16, 16,
	  RPCRDMA_WIRE_OK, true },
	{ "every limit at once", 16, 8, 4, 16, 16, RPCRDMA_WIRE_OK, true },
	/* The limit is met before the small storage runs out. */
	{ "17 Read segments (past the limit)", 17, 1, 0, 0, 0,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS, false },
	{ "9 Read chunks (past the limit)", 9, 9, 0, 0, 0,
	  RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS, true },
	{ "5 Write chunks (past the limit)", 0, 0, 5, 1, 0,
	  RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS, false },
	{ "a Write chunk of 17 segments (past the limit)", 0, 0, 1, 17, 0,
	  RPCRDMA_WIRE_ERR_TOO_MANY_SEGS, false },
	{ "a Read chunk, 5 Write chunks (past the limit)", 1, 1, 5, 1, 0,
	  RPCRDMA_WIRE_ERR_TOO_MANY_CHUNKS, true },
};

static void sdt_desc(const struct sdt_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sdt, sdt_vecs, sdt_desc);

#define SDT_READ_SEG_LEN	8
#define SDT_CALL_WORDS		32

static void sdt_put_seg(__be32 **p, u32 i, u32 len)
{
	*(*p)++ = cpu_to_be32(0x1000 + i);		/* handle */
	*(*p)++ = cpu_to_be32(len);
	*(*p)++ = cpu_to_be32(0);			/* offset */
	*(*p)++ = cpu_to_be32(0x10000 + i * 4096);
}

/* Encode the header @v describes, then SDT_CALL_WORDS words of Call. */
static unsigned int sdt_build(const struct sdt_vec *v, __be32 *words)
{
	unsigned int i, j, seg = 0, chunk, start = 0;
	__be32 *p = words;

	*p++ = cpu_to_be32(0x5d7e57);			/* xid */
	*p++ = cpu_to_be32(RPCRDMA_VERSION);
	*p++ = cpu_to_be32(32);
	*p++ = cpu_to_be32(RPCRDMA_MSG);
	for (i = 0; i < v->read_segs; i++) {
		/* Each chunk's data follows the one before it. */
		chunk = i * v->read_chunks / v->read_segs;
		if (i && chunk != (i - 1) * v->read_chunks / v->read_segs)
			start = i;
		*p++ = cpu_to_be32(1);
		*p++ = cpu_to_be32(24 + start * SDT_READ_SEG_LEN);
		sdt_put_seg(&p, seg++, SDT_READ_SEG_LEN);
	}
	*p++ = cpu_to_be32(0);
	for (i = 0; i < v->write_chunks; i++) {
		*p++ = cpu_to_be32(1);
		*p++ = cpu_to_be32(v->write_segs);
		for (j = 0; j < v->write_segs; j++)
			sdt_put_seg(&p, seg++, 4096);
	}
	*p++ = cpu_to_be32(0);
	if (v->reply_segs) {
		*p++ = cpu_to_be32(1);
		*p++ = cpu_to_be32(v->reply_segs);
		for (j = 0; j < v->reply_segs; j++)
			sdt_put_seg(&p, seg++, 4096);
	} else {
		*p++ = cpu_to_be32(0);
	}
	for (i = 0; i < SDT_CALL_WORDS; i++)
		*p++ = cpu_to_be32(i);
	return (p - words) * XDR_UNIT;
}

/* A Receive as srdma_recv_alloc() leaves it. */
static struct srdma_recv *sdt_recv(struct kunit *test)
{
	struct srdma_recv *rc = kunit_kzalloc(test, sizeof(*rc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, rc);
	rc->rb.buf = kunit_kmalloc(test, SDT_MAX_WORDS * XDR_UNIT, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rc->rb.buf);
	srdma_recv_hdr_init(rc);
	return rc;
}

/* @len bytes of @words arrive in @rc. */
static void sdt_receive(struct srdma_recv *rc, const __be32 *words,
			unsigned int len)
{
	memcpy(rc->rb.buf, words, len);
	rc->byte_len = len;
}

static enum rpcrdma_wire_err sdt_decode_at_limits(struct kunit *test,
						  const __be32 *words,
						  unsigned int len,
						  struct rpcrdma_hdr *hdr)
{
	static const struct rpcrdma_wire_limits limits = {
		.max_read_chunks	= SRDMA_MAX_READ_CHUNKS,
		.max_read_segs		= SRDMA_MAX_READ_SEGS,
		.max_write_chunks	= SRDMA_MAX_WRITE_CHUNKS,
		.max_chunk_segs		= SRDMA_MAX_CHUNK_SEGS,
	};
	struct srdma_hdr_storage *st;
	struct rpcrdma_cursor c;

	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, st);
	rpcrdma_hdr_init(hdr, st->chunks, SRDMA_MAX_CHUNKS, st->segs,
			 SRDMA_MAX_SEGS);
	rpcrdma_cursor_init(&c, words, len);
	return rpcrdma_decode_hdr(&c, RPCRDMA_DIR_CALL, &limits, hdr);
}

static void decode_storage_case(struct kunit *test)
{
	const struct sdt_vec *v = test->param_value;
	static const struct sdt_vec small = { .name = "one Read segment",
					      .read_segs = 1,
					      .read_chunks = 1 };
	struct rpcrdma_hdr want;
	struct srdma_recv *rc;
	unsigned int len;
	__be32 *words;

	words = kunit_kcalloc(test, SDT_MAX_WORDS, XDR_UNIT, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, words);
	len = sdt_build(v, words);
	KUNIT_ASSERT_LE(test, len, SDT_MAX_WORDS * XDR_UNIT);

	KUNIT_EXPECT_EQ(test, sdt_decode_at_limits(test, words, len, &want),
			v->err);
	rc = sdt_recv(test);
	sdt_receive(rc, words, len);
	KUNIT_ASSERT_EQ(test, srdma_decode(rc), v->err);
	KUNIT_EXPECT_EQ(test, !!rc->big, v->big);
	if (v->err == RPCRDMA_WIRE_OK)
		wt_expect_same_hdr(test, &rc->hdr, &want);

	/* The same Receive, reposted, brings an NFS WRITE. */
	len = sdt_build(&small, words);
	sdt_receive(rc, words, len);
	KUNIT_EXPECT_EQ(test, sdt_decode_at_limits(test, words, len, &want),
			RPCRDMA_WIRE_OK);
	KUNIT_ASSERT_EQ(test, srdma_decode(rc), RPCRDMA_WIRE_OK);
	wt_expect_same_hdr(test, &rc->hdr, &want);
	kfree(rc->big);
}

/* The Receive stays within a 1 KiB allocation, as the storage was cut for. */
static void decode_recv_size_case(struct kunit *test)
{
	KUNIT_EXPECT_LE(test, sizeof(struct srdma_recv), 1024);
}

static struct kunit_case rpcrdma_server_decode_cases[] = {
	KUNIT_CASE_PARAM(decode_storage_case, sdt_gen_params),
	KUNIT_CASE(decode_recv_size_case),
	{}
};

static struct kunit_suite rpcrdma_server_decode_suite = {
	.name = "rpcrdma_server_decode",
	.test_cases = rpcrdma_server_decode_cases,
};

kunit_test_suites(&rpcrdma_server_decode_suite);
