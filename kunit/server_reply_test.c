// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: how the server plans a reply (svcrdma/reply_plan.c): which DDP
 * payloads go in which Write chunk and what is left of the message
 * (RFC 8166 section 3.4.6), whether the message goes inline, in the
 * Reply chunk or gets ERR_CHUNK (sections 3.5.4, 4.5.2), and which
 * handle a Send With Invalidate retires (RFC 8797).
 */
#include <kunit/test.h>

#include "../svcrdma/server.h"

/* A Call's chunk lists, as the vectors write them. */
struct srt_call {
	unsigned int nr_write;
	u32 write_len[SRDMA_MAX_WRITE_CHUNKS];
	bool has_reply;
	u32 reply_len;
	unsigned int nr_read;
};

struct srt_lists {
	struct rpcrdma_chunk read, write[SRDMA_MAX_WRITE_CHUNKS];
	struct rpcrdma_segment segs[SRDMA_MAX_WRITE_CHUNKS + 2];
	struct rpcrdma_chunk_lists cl;
};

/* Each chunk one segment, with handle 0x100 + its place in the lists. */
static void srt_lists_init(struct srt_lists *l, const struct srt_call *c)
{
	unsigned int i;

	memset(l, 0, sizeof(*l));
	for (i = 0; i < c->nr_write; i++) {
		l->segs[i].handle = 0x100 + i;
		l->segs[i].length = c->write_len[i];
		l->write[i].length = c->write_len[i];
		l->write[i].nsegs = 1;
		l->write[i].segs = &l->segs[i];
	}
	l->cl.write = l->write;
	l->cl.nr_write_chunks = c->nr_write;
	if (c->has_reply) {
		l->segs[4].handle = 0x200;
		l->segs[4].length = c->reply_len;
		l->cl.has_reply = true;
		l->cl.reply.length = c->reply_len;
		l->cl.reply.nsegs = c->reply_len ? 1 : 0;
		l->cl.reply.segs = &l->segs[4];
	}
	if (c->nr_read) {
		l->segs[5].handle = 0x300;
		l->segs[5].length = 8;
		l->read.length = 8;
		l->read.nsegs = 1;
		l->read.segs = &l->segs[5];
		l->cl.read = &l->read;
		l->cl.nr_read_chunks = 1;
	}
}

/**
 * struct srt_plan_vec - payloads nfsd reported and the plan expected
 * @name: the reply it looks like
 * @call: the Call's Write chunks
 * @nr_payloads: payloads reported
 * @payloads: their offsets and lengths in rq_res
 * @res_len: length of rq_res
 * @rc: what srdma_reply_plan() returns
 * @used: which payloads go in their Write chunk
 * @nr_runs: runs of rq_res left in the message
 * @runs: their start and end
 * @msg_len: bytes of message
 */
struct srt_plan_vec {
	const char *name;
	struct srt_call call;
	unsigned int nr_payloads;
	struct srdma_payload payloads[SRDMA_MAX_WRITE_CHUNKS];
	unsigned int res_len;
	int rc;
	bool used[SRDMA_MAX_WRITE_CHUNKS];
	unsigned int nr_runs;
	unsigned int runs[SRDMA_MAX_RUNS][2];
	unsigned int msg_len;
};

static const struct srt_plan_vec srt_plan_vecs[] = {
	{ "no payload: the whole reply is the message", { 0 }, 0, {}, 300,
	  0, {}, 1, { { 0, 300 } }, 300 },
	{ "READ of 1 MiB into its Write chunk", { 1, { 1048576 } }, 1,
	  { { 120, 1048576 } }, 120 + 1048576 + 24, 0, { true }, 2,
	  { { 0, 120 }, { 120 + 1048576, 120 + 1048576 + 24 } }, 144 },
	{ "READ of 1001 bytes: its pad leaves with it", { 1, { 4096 } }, 1,
	  { { 120, 1001 } }, 120 + 1004 + 24, 0, { true }, 2,
	  { { 0, 120 }, { 1124, 1148 } }, 144 },
	{ "payload larger than its Write chunk", { 1, { 4096 } }, 1,
	  { { 120, 4097 } }, 120 + 4100 + 24, -EMSGSIZE },
	{ "payload past the end of the reply (rolled back)", { 1, { 4096 } },
	  1, { { 120, 4096 } }, 200, 0, { false }, 1, { { 0, 200 } }, 200 },
	{ "payload at the very end, no pad", { 1, { 4096 } }, 1,
	  { { 100, 100 } }, 200, 0, { true }, 2, { { 0, 100 }, { 200, 200 } },
	  100 },
	{ "payload of odd length at the very end: pad cut at the end",
	  { 1, { 4096 } }, 1, { { 100, 99 } }, 199, 0, { true }, 2,
	  { { 0, 100 }, { 199, 199 } }, 100 },
	{ "two payloads in two Write chunks", { 2, { 4096, 4096 } }, 2,
	  { { 100, 1000 }, { 1200, 2000 } }, 3300, 0, { true, true }, 3,
	  { { 0, 100 }, { 1100, 1200 }, { 3200, 3300 } }, 300 },
	{ "second payload before the first: left in the message",
	  { 2, { 4096, 4096 } }, 2, { { 1200, 1000 }, { 100, 500 } }, 2300, 0,
	  { true, false }, 2, { { 0, 1200 }, { 2200, 2300 } }, 1300 },
	{ "zero-length payload: its chunk comes back empty", { 1, { 4096 } },
	  1, { { 100, 0 } }, 200, 0, { true }, 2, { { 0, 100 }, { 100, 200 } },
	  200 },
	{ "four payloads, the most Write chunks",
	  { 4, { 8, 8, 8, 8 } }, 4,
	  { { 4, 8 }, { 16, 8 }, { 28, 8 }, { 40, 8 } }, 52, 0,
	  { true, true, true, true }, 5,
	  { { 0, 4 }, { 12, 16 }, { 24, 28 }, { 36, 40 }, { 48, 52 } }, 20 },
};

static void srt_plan_desc(const struct srt_plan_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(srt_plan, srt_plan_vecs, srt_plan_desc);

static void reply_plan_case(struct kunit *test)
{
	const struct srt_plan_vec *v = test->param_value;
	struct srdma_reply *rp;
	struct srt_lists *l;
	unsigned int i;
	int rc;

	/* Garbage where the plan goes: it must set all that is read. */
	rp = kunit_kmalloc(test, sizeof(*rp), GFP_KERNEL);
	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rp);
	KUNIT_ASSERT_NOT_NULL(test, l);
	memset(rp, 0xa5, sizeof(*rp));
	srt_lists_init(l, &v->call);

	rc = srdma_reply_plan(&l->cl, v->payloads, v->nr_payloads, v->res_len,
			      rp);
	KUNIT_ASSERT_EQ(test, rc, v->rc);
	if (rc)
		return;
	for (i = 0; i < v->call.nr_write; i++) {
		KUNIT_EXPECT_EQ_MSG(test, rp->used[i], v->used[i], "chunk %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rp->written[i],
				    v->used[i] ? v->payloads[i].length : 0,
				    "chunk %u", i);
	}
	KUNIT_ASSERT_EQ(test, rp->nr_runs, v->nr_runs);
	for (i = 0; i < v->nr_runs; i++) {
		KUNIT_EXPECT_EQ_MSG(test, rp->runs[i].start, v->runs[i][0],
				    "run %u", i);
		KUNIT_EXPECT_EQ_MSG(test, rp->runs[i].end, v->runs[i][1],
				    "run %u", i);
	}
	KUNIT_EXPECT_EQ(test, rp->msg_len, v->msg_len);
	KUNIT_EXPECT_FALSE(test, rp->nomsg);
}

/**
 * struct srt_form_vec - a message and the way it must travel
 * @name: what it looks like
 * @hdr_len: its RDMA_MSG header
 * @msg_len: its length
 * @inline_send: the client's inline receive size
 * @call: the Reply chunk the Call offered
 * @form: the form expected
 */
struct srt_form_vec {
	const char *name;
	unsigned int hdr_len, msg_len, inline_send;
	struct srt_call call;
	enum srdma_reply_form form;
};

static const struct srt_form_vec srt_form_vecs[] = {
	{ "small reply: inline", 28, 100, 4096, { 0 }, SRDMA_REPLY_INLINE },
	{ "exactly the inline size: inline", 28, 4068, 4096, { 0 },
	  SRDMA_REPLY_INLINE },
	{ "one byte over, no Reply chunk: ERR_CHUNK", 28, 4069, 4096, { 0 },
	  SRDMA_REPLY_TOO_BIG },
	{ "one byte over, a Reply chunk: Long Reply", 28, 4069, 4096,
	  { 0, {}, true, 65536 }, SRDMA_REPLY_LONG },
	{ "a Reply chunk exactly as long", 28, 8192, 4096,
	  { 0, {}, true, 8192 }, SRDMA_REPLY_LONG },
	{ "a Reply chunk one byte short: ERR_CHUNK", 28, 8193, 4096,
	  { 0, {}, true, 8192 }, SRDMA_REPLY_TOO_BIG },
	{ "small reply with a Reply chunk: still inline", 28, 100, 1024,
	  { 0, {}, true, 65536 }, SRDMA_REPLY_INLINE },
	{ "64 KiB READ, no chunks at all: ERR_CHUNK", 28, 65536 + 100, 4096,
	  { 0 }, SRDMA_REPLY_TOO_BIG },
	{ "a header alone over the inline size, no Reply chunk", 5000, 0,
	  4096, { 0 }, SRDMA_REPLY_TOO_BIG },
};

static void srt_form_desc(const struct srt_form_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(srt_form, srt_form_vecs, srt_form_desc);

static void reply_form_case(struct kunit *test)
{
	const struct srt_form_vec *v = test->param_value;
	struct srt_lists *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, l);
	srt_lists_init(l, &v->call);
	KUNIT_EXPECT_EQ(test, srdma_reply_form(v->hdr_len, v->msg_len,
					       v->inline_send, &l->cl),
			v->form);
}

/**
 * struct srt_inv_vec - chunks a Call offered and the handle to retire
 * @name: what the Call looks like
 * @remote_inv: the client accepts Send With Invalidate
 * @call: its chunks
 * @rkey: the handle expected, 0 for a plain Send
 */
struct srt_inv_vec {
	const char *name;
	bool remote_inv;
	struct srt_call call;
	u32 rkey;
};

static const struct srt_inv_vec srt_inv_vecs[] = {
	{ "no chunks: plain Send", true, { 0 }, 0 },
	{ "a Write chunk: its handle", true, { 1, { 4096 } }, 0x100 },
	{ "Write chunks and a Reply chunk: the first Write chunk's", true,
	  { 2, { 4096, 4096 }, true, 4096 }, 0x100 },
	{ "a Reply chunk only", true, { 0, {}, true, 4096 }, 0x200 },
	{ "a Read chunk only", true, { 0, {}, false, 0, 1 }, 0x300 },
	{ "a Reply chunk of no segments: plain Send", true,
	  { 0, {}, true, 0 }, 0 },
	{ "client does not accept it: plain Send", false, { 1, { 4096 } },
	  0 },
};

static void srt_inv_desc(const struct srt_inv_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(srt_inv, srt_inv_vecs, srt_inv_desc);

static void reply_inv_case(struct kunit *test)
{
	const struct srt_inv_vec *v = test->param_value;
	struct srt_lists *l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	u32 rkey = 0;
	bool inv;

	KUNIT_ASSERT_NOT_NULL(test, l);
	srt_lists_init(l, &v->call);
	inv = srdma_reply_inv_rkey(v->remote_inv, &l->cl, &rkey);
	KUNIT_EXPECT_EQ(test, inv, v->rkey != 0);
	if (inv)
		KUNIT_EXPECT_EQ(test, rkey, v->rkey);
}

static struct kunit_case rpcrdma_server_reply_cases[] = {
	KUNIT_CASE_PARAM(reply_plan_case, srt_plan_gen_params),
	KUNIT_CASE_PARAM(reply_form_case, srt_form_gen_params),
	KUNIT_CASE_PARAM(reply_inv_case, srt_inv_gen_params),
	{}
};

static struct kunit_suite rpcrdma_server_reply_suite = {
	.name = "rpcrdma_server_reply",
	.test_cases = rpcrdma_server_reply_cases,
};

kunit_test_suites(&rpcrdma_server_reply_suite);
