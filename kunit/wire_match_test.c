// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of rpcrdma_match_reply(), the requester's word-for-word
 * check of a common reply against its call, run against the reference:
 * the full decoder and rpcrdma_check_reply_chunks().  For a call that
 * offered no Write and no Reply chunk, rpcrdma_match_reply_plain() must
 * give the very answer rpcrdma_match_reply() gives.
 *
 * Each call is built with the codec's list builders and encoded with
 * rpcrdma_encode_msg_buf().  Its echo is the reply a responder sends
 * when it uses every offered chunk: the same lists with shorter lengths
 * (RDMA_NOMSG if a Reply chunk was offered, as a Long Reply comes
 * back).  Every echo must take the fast path, and
 * every mutation of it (each word changed, each length cut, a word
 * added) must either take the fast path with the very outcome the
 * reference gives, or be left to the reference.
 */

#include "wire_test.h"

#define WM_WORDS		128
#define WM_READ_HANDLE		0x1000
#define WM_WRITE_HANDLE		0x2000
#define WM_REPLY_HANDLE		0x3000

/* What the client decodes a reply with (xprtrdma/reply.c). */
static const struct rpcrdma_wire_limits wm_client_limits = {
	.max_read_chunks	= 0,
	.max_read_segs		= 0,
	.max_write_chunks	= 4,
	.max_chunk_segs		= 8,
};

/**
 * struct wm_call - the shape of a call
 * @desc: what it is
 * @read_segs: Read segments (one Read chunk at position 24)
 * @write_segs: segments of each Write chunk; 0 ends the list
 * @reply_segs: segments of the Reply chunk, 0 for none
 */
struct wm_call {
	const char *desc;
	unsigned int read_segs;
	unsigned int write_segs[3];
	unsigned int reply_segs;
};

static const struct wm_call wm_calls[] = {
	{ "inline call, inline reply", 0, { 0 }, 0 },
	{ "inline call, one Write segment (4 KiB read)", 0, { 1 }, 0 },
	{ "inline call, three Write segments", 0, { 3 }, 0 },
	{ "inline call, two Write chunks", 0, { 1, 2 }, 0 },
	{ "Read chunk (4 KiB write), inline reply", 1, { 0 }, 0 },
	{ "two Read segments and a Write chunk", 2, { 2 }, 0 },
	{ "Reply chunk offered", 0, { 0 }, 2 },
	{ "Write chunk and Reply chunk offered", 1, { 1 }, 1 },
};

static void wm_call_desc(const struct wm_call *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wm, wm_calls, wm_call_desc);

static struct rpcrdma_segment wm_seg(u32 handle, unsigned int i)
{
	struct rpcrdma_segment seg = {
		.handle = handle + i,
		.length = 4096 - 512 * i,
		.offset = 0x7f0000000000ULL + 0x10000 * handle + 0x1000 * i,
	};

	return seg;
}

/* Encode @c as a call into @words; return its length in words. */
static size_t wm_encode_call(struct kunit *test, const struct wm_call *c,
			     __be32 *words)
{
	struct wt_hdr *h = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_chunk_lists *cl = &h->hdr.lists;
	struct rpcrdma_segment seg;
	unsigned int i, j;
	int len;

	for (i = 0; i < c->read_segs; i++) {
		seg = wm_seg(WM_READ_HANDLE, i);
		KUNIT_ASSERT_EQ(test, rpcrdma_add_read_segment(cl, 24, &seg),
				0);
	}
	for (i = 0; i < ARRAY_SIZE(c->write_segs) && c->write_segs[i]; i++) {
		KUNIT_ASSERT_EQ(test, rpcrdma_add_write_chunk(cl), 0);
		for (j = 0; j < c->write_segs[i]; j++) {
			seg = wm_seg(WM_WRITE_HANDLE + 0x100 * i, j);
			KUNIT_ASSERT_EQ(test,
					rpcrdma_add_write_segment(cl, &seg), 0);
		}
	}
	if (c->reply_segs) {
		KUNIT_ASSERT_EQ(test, rpcrdma_add_reply_chunk(cl), 0);
		for (j = 0; j < c->reply_segs; j++) {
			seg = wm_seg(WM_REPLY_HANDLE, j);
			KUNIT_ASSERT_EQ(test,
					rpcrdma_add_reply_segment(cl, &seg), 0);
		}
	}
	len = rpcrdma_encode_msg_buf(words, WM_WORDS * XDR_UNIT, XW(WT_XID), 32,
				     RPCRDMA_MSG, cl);
	KUNIT_ASSERT_GT(test, len, 0);
	return len / XDR_UNIT;
}

/* Copy a counted segment array from *@c to *@r, lengths cut to 1/@cut. */
static void wm_echo_counted(const __be32 **c, __be32 **r, unsigned int cut)
{
	u32 n = be32_to_cpu((*c)[1]), i;

	*(*r)++ = *(*c)++;
	*(*r)++ = *(*c)++;
	for (i = 0; i < n; i++, *r += 4, *c += 4) {
		memcpy(*r, *c, 4 * XDR_UNIT);
		(*r)[1] = XW(be32_to_cpu((*c)[1]) / cut);
	}
}

/*
 * The echo of @call: its fixed words, no Read list, its Write list and
 * Reply chunk with every length cut to @cut of itself, RDMA_NOMSG if
 * it has a Reply chunk, else RDMA_MSG followed by @payload words of an
 * RPC reply.  Returns its words.
 */
static size_t wm_echo(const __be32 *call, __be32 *reply, unsigned int cut,
		      unsigned int payload)
{
	const __be32 *c = call + 4;
	__be32 *r = reply;
	u32 i;

	memcpy(r, call, 4 * XDR_UNIT);
	r[3] = XW(RPCRDMA_MSG);
	r += 4;
	while (*c != xdr_zero)
		c += 6;
	c++;
	*r++ = xdr_zero;
	while (*c != xdr_zero)
		wm_echo_counted(&c, &r, cut);
	*r++ = *c++;
	if (*c == xdr_zero) {
		*r++ = xdr_zero;
	} else {
		reply[3] = XW(RPCRDMA_NOMSG);
		wm_echo_counted(&c, &r, cut);
		return r - reply;
	}
	/* An RPC reply: xid, REPLY, then opaque bytes. */
	for (i = 0; i < payload; i++)
		*r++ = XW(i == 1 ? 1 : 0xabcd0000 + i);
	return r - reply;
}

/*
 * Run @nwords of @reply through the fast path and the reference.
 * Return: whether the fast path took it (after checking that the
 * reference then agrees on every outcome).
 */
static bool wm_compare(struct kunit *test, const __be32 *call, size_t cwords,
		       const __be32 *reply, size_t nwords)
{
	struct wt_hdr *ch = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct wt_hdr *rh = wt_hdr_alloc(test, WT_MAX_CHUNKS, WT_MAX_SEGS);
	struct rpcrdma_reply_match m = { };
	enum rpcrdma_wire_err werr;
	struct rpcrdma_cursor c;
	__be32 *copy;
	bool fast, used;

	/* The offered lists, as the client reads them back (reply.c). */
	wt_cursor_init(test, &c, call, cwords * XDR_UNIT);
	c.p += 4;
	KUNIT_ASSERT_EQ(test, rpcrdma_decode_chunk_lists(&c, RPCRDMA_DIR_CALL,
							 NULL, &ch->hdr.lists),
			RPCRDMA_WIRE_OK);
	/* Exactly the received words: KASAN sees any read past them. */
	copy = kunit_kmalloc(test, max_t(size_t, nwords, 1) * XDR_UNIT,
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	memcpy(copy, reply, nwords * XDR_UNIT);
	fast = nwords >= 4 && copy[1] == XW(RPCRDMA_VERSION) &&
	       rpcrdma_match_reply(call + 4, copy, nwords, &m);
	/* A call without Write and Reply chunks: the shortcut agrees. */
	if (!ch->hdr.lists.nr_write_chunks && !ch->hdr.lists.has_reply) {
		struct rpcrdma_reply_match pm = { };
		bool plain;

		plain = nwords >= 4 && copy[1] == XW(RPCRDMA_VERSION) &&
			rpcrdma_match_reply_plain(copy, nwords, &pm);
		KUNIT_EXPECT_EQ(test, plain, fast);
		if (plain && fast) {
			KUNIT_EXPECT_EQ(test, pm.hdr_len, m.hdr_len);
			KUNIT_EXPECT_EQ(test, pm.nr_write_chunks,
					m.nr_write_chunks);
			KUNIT_EXPECT_EQ(test, pm.written, m.written);
			KUNIT_EXPECT_EQ(test, pm.has_reply, m.has_reply);
			KUNIT_EXPECT_EQ(test, pm.reply_len, m.reply_len);
		}
	}
	if (!fast)
		return false;

	werr = wt_decode(test, reply, nwords * XDR_UNIT, RPCRDMA_DIR_REPLY,
			 &wm_client_limits, &rh->hdr);
	KUNIT_ASSERT_EQ(test, werr, RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, rpcrdma_check_reply_chunks(&ch->hdr.lists,
							 &rh->hdr.lists),
			RPCRDMA_WIRE_OK);
	KUNIT_EXPECT_EQ(test, m.hdr_len, rh->hdr.hdr_len);
	KUNIT_EXPECT_EQ(test, m.nr_write_chunks, rh->hdr.lists.nr_write_chunks);
	/* What the client's reply outcome then asks of the type. */
	used = rh->hdr.lists.has_reply && rh->hdr.lists.reply.length;
	if (rh->hdr.proc == RPCRDMA_NOMSG) {
		KUNIT_EXPECT_TRUE(test, used);
		KUNIT_EXPECT_EQ(test, rh->hdr.lists.nr_write_chunks, 0U);
	} else {
		KUNIT_EXPECT_FALSE(test, used);
	}
	KUNIT_EXPECT_EQ(test, m.has_reply, rh->hdr.lists.has_reply);
	KUNIT_EXPECT_EQ(test, m.reply_len,
			rh->hdr.lists.has_reply ? rh->hdr.lists.reply.length :
						  0U);
	if (rh->hdr.lists.nr_write_chunks)
		KUNIT_EXPECT_EQ(test, m.written, rh->hdr.lists.write[0].length);
	else
		KUNIT_EXPECT_EQ(test, m.written, 0U);
	return true;
}

/*
 * Every echo takes the fast path, a Long Reply's too, but for a Long
 * Reply that also returns Write chunks (the full decoder refuses it).
 */
static void echo_case(struct kunit *test)
{
	const struct wm_call *c = test->param_value;
	__be32 *call = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	__be32 *reply = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	unsigned int cut;
	size_t cw, rw;

	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	cw = wm_encode_call(test, c, call);
	for (cut = 1; cut <= 4096; cut *= 8) {
		rw = wm_echo(call, reply, cut, 8);
		KUNIT_EXPECT_EQ(test, wm_compare(test, call, cw, reply, rw),
				!(c->reply_segs && c->write_segs[0]));
	}
}

/*
 * Every word of the echo changed in several ways, every length cut,
 * one word added: the fast path never disagrees with the reference.
 */
static void mutation_case(struct kunit *test)
{
	static const u32 values[] = { 0, 1, 2, 0xffffffff };
	const struct wm_call *c = test->param_value;
	__be32 *call = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	__be32 *reply = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	unsigned int i, v, taken = 0, tried = 0;
	size_t cw, rw;
	__be32 saved;

	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	cw = wm_encode_call(test, c, call);
	rw = wm_echo(call, reply, 2, 2);
	for (i = 4; i < rw; i++) {
		saved = reply[i];
		for (v = 0; v <= ARRAY_SIZE(values); v++) {
			reply[i] = v < ARRAY_SIZE(values) ? XW(values[v]) :
				   XW(be32_to_cpu(saved) + 1);
			taken += wm_compare(test, call, cw, reply, rw);
			tried++;
		}
		reply[i] = saved;
	}
	for (i = 0; i <= rw; i++, tried++)
		taken += wm_compare(test, call, cw, reply, i);
	reply[rw] = XW(7);
	taken += wm_compare(test, call, cw, reply, rw + 1);
	kunit_info(test, "%u of %u mutations took the fast path", taken,
		   tried + 1);
}

/* The mutations the fast path must refuse, named. */
static void refusals_case(struct kunit *test)
{
	static const struct wm_call one = { "one Write segment", 0, { 1 }, 0 };
	__be32 *call = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	__be32 *reply = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	size_t cw, rw;

	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	cw = wm_encode_call(test, &one, call);
	/* fixed(4) 0 | 1 1 handle len hi lo | 0 | 0 | payload */
	rw = wm_echo(call, reply, 1, 2);
	KUNIT_ASSERT_TRUE(test, wm_compare(test, call, cw, reply, rw));

	reply[8] = XW(be32_to_cpu(reply[8]) + 1);	/* longer than offered */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 2);
	reply[7] = XW(0x9999);				/* another handle */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 2);
	reply[10] = XW(1);				/* another offset */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 2);
	reply[6] = XW(0);				/* no segment */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 2);
	reply[4] = XW(1);				/* a Read list */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 2);
	reply[12] = XW(1);				/* a Reply chunk */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	/* Cut inside the lists. */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, 12));
}

/* The Reply chunk's refusals: a Long Reply must return it as offered. */
static void reply_chunk_refusals_case(struct kunit *test)
{
	static const struct wm_call lr = { "Reply chunk", 0, { 0 }, 1 };
	__be32 *call = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	__be32 *reply = kunit_kzalloc(test, WM_WORDS * XDR_UNIT, GFP_KERNEL);
	struct rpcrdma_reply_match m;
	size_t cw, rw;

	KUNIT_ASSERT_NOT_NULL(test, call);
	KUNIT_ASSERT_NOT_NULL(test, reply);
	cw = wm_encode_call(test, &lr, call);
	/* fixed(4) 0 | 0 | 1 1 handle len hi lo */
	rw = wm_echo(call, reply, 1, 0);
	KUNIT_ASSERT_EQ(test, rw, 12);
	KUNIT_ASSERT_TRUE(test, wm_compare(test, call, cw, reply, rw));
	KUNIT_ASSERT_TRUE(test, rpcrdma_match_reply(call + 4, reply, rw, &m));
	KUNIT_EXPECT_TRUE(test, m.has_reply);
	KUNIT_EXPECT_EQ(test, m.reply_len, 4096U);
	KUNIT_EXPECT_EQ(test, m.hdr_len, 12U * XDR_UNIT);

	reply[9] = XW(4097);				/* longer than offered */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 0);
	reply[8] = XW(0x9999);				/* another handle */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 0);
	reply[7] = XW(2);				/* more segments */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 0);
	reply[6] = XW(0);				/* not returned */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, 7));
	rw = wm_echo(call, reply, 1, 0);
	reply[9] = XW(0);				/* carries nothing */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	rw = wm_echo(call, reply, 1, 0);
	reply[3] = XW(RPCRDMA_MSG);			/* used, yet RDMA_MSG */
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw));
	/* Cut inside the Reply chunk. */
	rw = wm_echo(call, reply, 1, 0);
	KUNIT_EXPECT_FALSE(test, wm_compare(test, call, cw, reply, rw - 1));
}

static struct kunit_case rpcrdma_wire_match_cases[] = {
	KUNIT_CASE_PARAM(echo_case, wm_gen_params),
	KUNIT_CASE_PARAM(mutation_case, wm_gen_params),
	KUNIT_CASE(refusals_case),
	KUNIT_CASE(reply_chunk_refusals_case),
	{}
};

static struct kunit_suite rpcrdma_wire_match_suite = {
	.name		= "rpcrdma_wire_match",
	.test_cases	= rpcrdma_wire_match_cases,
};

kunit_test_suite(rpcrdma_wire_match_suite);
