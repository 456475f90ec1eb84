// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the scatter list of an RDMA Send (common/send.c), shared by the
 * client's calls and the server's replies.  Each vector is the shape of
 * an RPC message (head, pages from some offset, tail), the part left
 * out for RDMA (between split and resume), and the SGEs the device
 * takes; the result must be the header followed by exactly the inline
 * bytes, gathered where they are when they fit the SGEs and copied
 * after the header ("pull-up") when they do not.  The inline fast paths
 * for premapped buffers and for a message in its head alone must build
 * the same SGEs wherever they apply.
 *
 * A zeroed struct ib_device has no DMA device, so with
 * CONFIG_INFINIBAND_VIRT_DMA (rxe, siw) the mapping is the kernel
 * address itself and the SGEs can be read back.
 */
#include <kunit/test.h>
#include <linux/mm.h>

#include "rpcrdma/send.h"

#define SST_HDR_LEN	28

/**
 * struct sst_vec - one message shape and the SGE list expected
 * @name: what it looks like
 * @head: bytes in the head kvec
 * @page_base: offset of the first byte in the first page
 * @page_len: bytes in the pages
 * @tail: bytes in the tail kvec
 * @hole: leave out [@head, @head + @page_len + @pad): a DDP payload
 * @max: SGEs the device takes per Send
 * @nr: SGEs expected
 * @pulled_up: bytes expected to be copied after the header
 * @pad: with @hole, bytes at the start of the tail left out too (the
 *	payload's XDR pad, which a Read chunk implies)
 */
struct sst_vec {
	const char *name;
	unsigned int head, page_base, page_len, tail;
	bool hole;
	unsigned int max, nr, pulled_up, pad;
};

static const struct sst_vec sst_vecs[] = {
	{ "empty message: the header alone", 0, 0, 0, 0, false, 8, 1, 0 },
	{ "head only", 100, 0, 0, 0, false, 8, 2, 0 },
	{ "head, two whole pages, tail", 200, 0, 8192, 4, false, 8, 5, 0 },
	{ "pages from offset 100 span three", 200, 100, 8192, 4, false, 8, 6,
	  0 },
	{ "two bytes across a page boundary", 16, 4095, 2, 0, false, 8, 4, 0 },
	{ "pages left out for RDMA", 200, 0, 8192, 4, true, 8, 3, 0 },
	{ "pages and their pad left out", 200, 0, 8191, 12, true, 8, 3, 0,
	  1 },
	{ "pages and the whole tail left out", 200, 0, 8190, 2, true, 8, 2,
	  0, 2 },
	{ "exactly as many SGEs as the device takes", 200, 0, 8192, 4, false,
	  5, 5, 0 },
	{ "one SGE short: pulled up", 200, 0, 8192, 4, false, 4, 1, 8396 },
	{ "pulled up around the hole", 200, 0, 8192, 4, true, 2, 1, 204 },
	{ "a single SGE: pulled up", 100, 0, 0, 0, false, 1, 1, 100 },
	{ "unaligned pages, few SGEs", 12, 3000, 5000, 3, false, 3, 1,
	  5015 },
};

static void sst_desc(const struct sst_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sst, sst_vecs, sst_desc);

static void sst_free_page(void *page)
{
	__free_page(page);
}

/* The byte at offset @pos of the message: differs from its neighbours. */
static u8 sst_byte(unsigned int pos)
{
	return (u8)(pos * 7 + (pos >> 8) + 1);
}

/*
 * The message of @v in @xdr, every byte sst_byte() of its offset.  Head
 * and tail lie in @buf, one byte apart, as in an RPC buffer.
 */
static void sst_build(struct kunit *test, const struct sst_vec *v,
		      struct xdr_buf *xdr, u8 *buf)
{
	unsigned int npages = DIV_ROUND_UP(v->page_base + v->page_len,
					   PAGE_SIZE);
	unsigned int i, pos = 0;
	u8 *head = buf, *tail = buf + v->head + 1;

	memset(xdr, 0, sizeof(*xdr));
	xdr->pages = kunit_kcalloc(test, npages + 1, sizeof(*xdr->pages),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, xdr->pages);
	for (i = 0; i < npages; i++) {
		int rc;

		xdr->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, xdr->pages[i]);
		rc = kunit_add_action_or_reset(test, sst_free_page,
					       xdr->pages[i]);
		KUNIT_ASSERT_EQ(test, rc, 0);
	}

	for (i = 0; i < v->head; i++)
		head[i] = sst_byte(pos++);
	for (i = 0; i < v->page_len; i++) {
		unsigned int off = v->page_base + i;

		*((u8 *)page_address(xdr->pages[off >> PAGE_SHIFT]) +
		  offset_in_page(off)) = sst_byte(pos++);
	}
	for (i = 0; i < v->tail; i++)
		tail[i] = sst_byte(pos++);

	xdr->head[0].iov_base = head;
	xdr->head[0].iov_len = v->head;
	xdr->page_base = v->page_base;
	xdr->page_len = v->page_len;
	xdr->tail[0].iov_base = tail;
	xdr->tail[0].iov_len = v->tail;
	xdr->len = pos;
	xdr->buflen = pos;
}

/* What the owner of a Send keeps DMA-mapped for it. */
enum sst_premap {
	SST_PREMAP_NONE,	/* everything mapped per Send */
	SST_PREMAP_HDR,		/* the header buffer */
	SST_PREMAP_BUF,		/* the header and the whole message buffer */
	SST_PREMAP_PART,	/* the header and the buffer but its last byte */
};

/**
 * struct sst_fix - what a case of the current vector works on
 * @device: a zeroed device: with virtual DMA, addresses are kernel ones
 * @hdr: a header buffer of four pages
 * @buf: the RPC buffer the message's head and tail lie in
 * @xdr: the message (sst_build())
 * @split: end of its first inline part
 * @resume: start of its second inline part
 */
struct sst_fix {
	struct ib_device *device;
	u8 *hdr, *buf;
	struct xdr_buf xdr;
	unsigned int split, resume;
};

/* Set up @f for the current vector; skip the case without virtual DMA. */
static void sst_setup(struct kunit *test, struct sst_fix *f)
{
	const struct sst_vec *v = test->param_value;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to read SGEs back");
	f->device = kunit_kzalloc(test, sizeof(*f->device), GFP_KERNEL);
	f->hdr = kunit_kzalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	f->buf = kunit_kzalloc(test, v->head + 1 + v->tail + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->device);
	KUNIT_ASSERT_NOT_NULL(test, f->hdr);
	KUNIT_ASSERT_NOT_NULL(test, f->buf);
	sst_build(test, v, &f->xdr, f->buf);
	f->split = v->hole ? v->head : f->xdr.len;
	f->resume = v->hole ? v->head + v->page_len + v->pad : f->xdr.len;
}

/* A zeroed SGE list, freed with the case. */
static struct rpcrdma_send_sges *sst_sges(struct kunit *test)
{
	struct rpcrdma_send_sges *ss = kunit_kzalloc(test, sizeof(*ss),
						     GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, ss);
	return ss;
}

/*
 * Set @ss up for the current vector as a Send's owner keeping @premap
 * mapped would; returns the length of the premapped message buffer (0:
 * none).  With virtual DMA, a DMA address is the kernel address.
 */
static size_t sst_premap(struct kunit *test, struct rpcrdma_send_sges *ss,
			 const struct sst_fix *f, enum sst_premap premap)
{
	const struct sst_vec *v = test->param_value;
	size_t buf_len;

	rpcrdma_send_sges_init(ss, f->device, 0x1234, v->max);
	if (premap == SST_PREMAP_NONE)
		return 0;
	rpcrdma_send_sges_premapped_hdr(ss, (uintptr_t)f->hdr);
	if (premap == SST_PREMAP_HDR)
		return 0;
	buf_len = v->head + 1 + v->tail;
	if (premap == SST_PREMAP_PART && v->tail)
		buf_len--;
	rpcrdma_send_sges_premapped_buf(ss, f->buf, buf_len,
					(uintptr_t)f->buf);
	return buf_len;
}

/* Bytes of the current vector's message that travel inline. */
static unsigned int sst_inline_len(const struct sst_vec *v)
{
	if (v->hole)
		return v->head + v->tail - v->pad;
	return v->head + v->page_len + v->tail;
}

/*
 * Build the Send of the current vector, copying an inline message of at
 * most @copy_max bytes, and check what the device would send.  A
 * premapped header must be SGE 0 through its owner's mapping, pulled-up
 * bytes included; head and tail bytes that lie within the premapped
 * message buffer must come from that mapping, and bytes outside it (the
 * tail, when the mapping stops one byte short of it) must be mapped per
 * Send.  Unmapping the Send leaves the premapped ones alone.
 */
static void sst_run_copy(struct kunit *test, enum sst_premap premap,
			 unsigned int copy_max)
{
	const struct sst_vec *v = test->param_value;
	struct rpcrdma_send_sges *ss = sst_sges(test);
	unsigned int split, resume, i, at = 0, pos, nr_mapped;
	bool copy = sst_inline_len(v) <= copy_max;
	unsigned int nr = copy ? 1 : v->nr;
	unsigned int pulled_up = copy ? sst_inline_len(v) : v->pulled_up;
	size_t buf_len;
	struct xdr_buf *xdr;
	struct sst_fix f;
	u8 *hdr, *sent, *buf;
	int rc;

	sst_setup(test, &f);
	hdr = f.hdr;
	buf = f.buf;
	xdr = &f.xdr;
	split = f.split;
	resume = f.resume;
	sent = kunit_kzalloc(test, 4 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sent);
	memset(hdr, 0xa5, SST_HDR_LEN);

	buf_len = sst_premap(test, ss, &f, premap);
	ss->copy_max = copy_max;
	rc = rpcrdma_send_sges_build(ss, hdr, 4 * PAGE_SIZE, SST_HDR_LEN, xdr,
				     split, resume);
	KUNIT_ASSERT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, ss->sge[0].addr, (u64)(uintptr_t)hdr);
	KUNIT_EXPECT_EQ(test, ss->sge[0].length, SST_HDR_LEN + pulled_up);
	KUNIT_EXPECT_EQ(test, ss->mapped[0],
			premap == SST_PREMAP_NONE ? ss->sge[0].length : 0);
	KUNIT_EXPECT_EQ(test, ss->nr, nr);
	KUNIT_EXPECT_EQ(test, ss->pulled_up, pulled_up);
	KUNIT_ASSERT_LE(test, ss->nr, v->max);
	/* Every SGE mapped per Send is counted: the client waits on it. */
	for (i = 0, nr_mapped = 0; i < ss->nr; i++)
		nr_mapped += !!ss->mapped[i];
	KUNIT_EXPECT_EQ(test, ss->nr_mapped, nr_mapped);
	/* Gathered in place: the head first, the tail last. */
	if (!pulled_up && v->head)
		KUNIT_EXPECT_EQ(test, ss->mapped[1],
				buf_len ? 0 : v->head);
	if (!pulled_up && v->tail > v->pad)
		KUNIT_EXPECT_EQ(test, ss->mapped[ss->nr - 1],
				premap == SST_PREMAP_BUF ? 0 : v->tail - v->pad);

	/* What the device would send: each SGE in turn. */
	for (i = 0; i < ss->nr; i++) {
		u8 *p = (u8 *)(uintptr_t)ss->sge[i].addr;
		bool in_buf = p >= buf && p + ss->sge[i].length <= buf + buf_len;

		KUNIT_EXPECT_EQ(test, ss->sge[i].lkey, 0x1234);
		if (i)
			KUNIT_EXPECT_EQ(test, ss->mapped[i],
					in_buf ? 0 : ss->sge[i].length);
		KUNIT_ASSERT_LE(test, at + ss->sge[i].length, 4 * PAGE_SIZE);
		memcpy(sent + at, p, ss->sge[i].length);
		at += ss->sge[i].length;
	}
	KUNIT_EXPECT_EQ(test, at, SST_HDR_LEN + split + (xdr->len - resume));
	for (i = 0; i < SST_HDR_LEN; i++)
		KUNIT_EXPECT_EQ(test, sent[i], 0xa5);
	for (pos = 0, i = SST_HDR_LEN; pos < xdr->len && i < at; pos++) {
		if (pos >= split && pos < resume)
			continue;
		KUNIT_ASSERT_EQ_MSG(test, sent[i], sst_byte(pos),
				    "message byte %u", pos);
		i++;
	}
	rpcrdma_send_sges_unmap(ss);
	KUNIT_EXPECT_EQ(test, ss->nr, 0);
	KUNIT_EXPECT_EQ(test, ss->hdr_premapped, premap != SST_PREMAP_NONE);
}

/* sst_run_copy() with nothing copied unless the device needs it. */
static void sst_run(struct kunit *test, enum sst_premap premap)
{
	sst_run_copy(test, premap, 0);
}

static void send_sges_case(struct kunit *test)
{
	sst_run(test, SST_PREMAP_NONE);
}

static void send_sges_premapped_case(struct kunit *test)
{
	sst_run(test, SST_PREMAP_HDR);
}

static void send_sges_premapped_buf_case(struct kunit *test)
{
	sst_run(test, SST_PREMAP_BUF);
}

static void send_sges_premapped_part_case(struct kunit *test)
{
	sst_run(test, SST_PREMAP_PART);
}

/*
 * A pull-up needs room for the header and the message after it: one
 * byte less fails with nothing left mapped, and a Send without a
 * pull-up needs no room beyond its header.
 */
static void send_sges_room_case(struct kunit *test)
{
	const struct sst_vec *v = test->param_value;
	struct rpcrdma_send_sges *ss = sst_sges(test);
	unsigned int room = SST_HDR_LEN + v->pulled_up;
	struct sst_fix f;
	int rc;

	sst_setup(test, &f);
	if (v->pulled_up) {
		rpcrdma_send_sges_init(ss, f.device, 0x1234, v->max);
		rc = rpcrdma_send_sges_build(ss, f.hdr, room - 1, SST_HDR_LEN,
					     &f.xdr, f.split, f.resume);
		KUNIT_EXPECT_EQ(test, rc, -EMSGSIZE);
		KUNIT_EXPECT_EQ(test, ss->nr, 0);
	}
	rpcrdma_send_sges_init(ss, f.device, 0x1234, v->max);
	rc = rpcrdma_send_sges_build(ss, f.hdr, room, SST_HDR_LEN, &f.xdr,
				     f.split, f.resume);
	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, ss->pulled_up, v->pulled_up);
	rpcrdma_send_sges_unmap(ss);
}

/*
 * An inline message no longer than copy_max is copied after the header,
 * one SGE and nothing mapped, whether the header is premapped or not;
 * one byte longer, it is gathered as without copy_max.  A copy that
 * would not fit the header buffer is not made: the message is gathered.
 */
static void send_sges_copy_case(struct kunit *test)
{
	const struct sst_vec *v = test->param_value;
	unsigned int len = sst_inline_len(v);
	struct rpcrdma_send_sges *ss;
	struct sst_fix f;
	int rc;

	sst_run_copy(test, SST_PREMAP_HDR, len);
	sst_run_copy(test, SST_PREMAP_NONE, len + 1);
	sst_run_copy(test, SST_PREMAP_BUF, U32_MAX);
	if (len)
		sst_run_copy(test, SST_PREMAP_HDR, len - 1);
	if (v->pulled_up || !len)
		return;
	ss = sst_sges(test);
	sst_setup(test, &f);
	sst_premap(test, ss, &f, SST_PREMAP_HDR);
	ss->copy_max = len;
	rc = rpcrdma_send_sges_build(ss, f.hdr, SST_HDR_LEN + len - 1,
				     SST_HDR_LEN, &f.xdr, f.split, f.resume);
	KUNIT_EXPECT_EQ(test, rc, 0);
	KUNIT_EXPECT_EQ(test, ss->nr, v->nr);
	KUNIT_EXPECT_EQ(test, ss->pulled_up, 0);
	rpcrdma_send_sges_unmap(ss);
}

/* Would rpcrdma_send_sges_premapped() take the current vector's Send? */
static bool ssf_expect_fast(const struct sst_vec *v, enum sst_premap premap)
{
	bool pages_inline = v->page_len && !v->hole;
	bool tail_outside = premap == SST_PREMAP_PART && v->tail > v->pad;

	if (premap == SST_PREMAP_NONE || v->max < 3)
		return false;
	if (!v->head && !v->page_len && !v->tail)
		return true;
	return premap != SST_PREMAP_HDR && !pages_inline && !tail_outside;
}

/*
 * A fast path's SGEs @fast are the general builder's @gen, entry by
 * entry, mappings included; then both are unmapped.
 */
static void sst_expect_same(struct kunit *test, struct rpcrdma_send_sges *fast,
			    struct rpcrdma_send_sges *gen)
{
	unsigned int i;

	KUNIT_EXPECT_EQ(test, fast->nr, gen->nr);
	KUNIT_EXPECT_EQ(test, fast->pulled_up, gen->pulled_up);
	KUNIT_EXPECT_EQ(test, fast->nr_mapped, gen->nr_mapped);
	for (i = 0; i < min(fast->nr, gen->nr); i++) {
		KUNIT_EXPECT_EQ_MSG(test, fast->sge[i].addr,
				    gen->sge[i].addr, "SGE %u", i);
		KUNIT_EXPECT_EQ_MSG(test, fast->sge[i].length,
				    gen->sge[i].length, "SGE %u", i);
		KUNIT_EXPECT_EQ(test, fast->sge[i].lkey, 0x1234);
		KUNIT_EXPECT_EQ(test, fast->mapped[i], gen->mapped[i]);
	}
	rpcrdma_send_sges_unmap(gen);
	rpcrdma_send_sges_unmap(fast);
	KUNIT_EXPECT_EQ(test, fast->nr, 0);
}

/*
 * The inline fast path builds exactly the SGEs the general builder
 * builds, for every Send it takes, and takes the Sends it is for (a
 * head and a tail in the premapped buffer, the pages left out); it
 * leaves the others alone.  Each SGE that the general builder maps is
 * counted, so that an unmap does not skip it.
 */
static void send_sges_fast_case(struct kunit *test)
{
	static const enum sst_premap premaps[] = {
		SST_PREMAP_NONE, SST_PREMAP_HDR, SST_PREMAP_BUF,
		SST_PREMAP_PART,
	};
	const struct sst_vec *v = test->param_value;
	struct rpcrdma_send_sges *gen = sst_sges(test), *fast = sst_sges(test);
	unsigned int i, k, mapped;
	struct sst_fix f;
	bool took;
	int rc;

	sst_setup(test, &f);
	for (k = 0; k < ARRAY_SIZE(premaps); k++) {
		sst_premap(test, gen, &f, premaps[k]);
		sst_premap(test, fast, &f, premaps[k]);
		rc = rpcrdma_send_sges_build(gen, f.hdr, 4 * PAGE_SIZE,
					     SST_HDR_LEN, &f.xdr, f.split, f.resume);
		KUNIT_ASSERT_EQ(test, rc, 0);
		for (i = 0, mapped = 0; i < gen->nr; i++)
			mapped += !!gen->mapped[i];
		KUNIT_EXPECT_EQ(test, gen->nr_mapped, mapped);

		took = rpcrdma_send_sges_premapped(fast, SST_HDR_LEN, &f.xdr,
						   f.split, f.resume);
		KUNIT_EXPECT_EQ_MSG(test, took, ssf_expect_fast(v, premaps[k]),
				    "premap %u", premaps[k]);
		if (!took) {
			KUNIT_EXPECT_EQ(test, fast->nr, 0);
			rpcrdma_send_sges_unmap(gen);
			continue;
		}
		KUNIT_EXPECT_EQ(test, fast->nr_mapped, 0);
		sst_expect_same(test, fast, gen);
	}
}

/*
 * The head-only fast path (most server replies) builds exactly what the
 * general builder builds for the whole message, for every message that
 * lies in its head within a page and outside the premapped buffer, on a
 * device with two SGEs or more and a premapped header; it leaves every
 * other message alone.
 */
static void send_sges_head_case(struct kunit *test)
{
	static const enum sst_premap premaps[] = {
		SST_PREMAP_NONE, SST_PREMAP_HDR, SST_PREMAP_BUF,
	};
	const struct sst_vec *v = test->param_value;
	struct rpcrdma_send_sges *gen = sst_sges(test), *fast = sst_sges(test);
	unsigned int k, len;
	struct sst_fix f;
	bool expect;
	int rc;

	sst_setup(test, &f);
	len = f.xdr.len;
	for (k = 0; k < 2 * ARRAY_SIZE(premaps); k++) {
		/* The second round copies a head of up to len bytes. */
		unsigned int copy_max = k < ARRAY_SIZE(premaps) ? 0 : len;
		enum sst_premap premap = premaps[k % ARRAY_SIZE(premaps)];

		sst_premap(test, gen, &f, premap);
		sst_premap(test, fast, &f, premap);
		gen->copy_max = copy_max;
		fast->copy_max = copy_max;
		expect = premap == SST_PREMAP_HDR && v->max >= 2 && len &&
			 len == v->head &&
			 offset_in_page(f.buf) + len <= PAGE_SIZE;
		rc = rpcrdma_send_sges_head(fast, f.hdr, 4 * PAGE_SIZE,
					    SST_HDR_LEN, &f.xdr);
		KUNIT_EXPECT_EQ_MSG(test, rc, expect ? 0 : -EAGAIN,
				    "premap %u", premap);
		if (rc) {
			KUNIT_EXPECT_EQ(test, fast->nr, 0);
			continue;
		}
		KUNIT_EXPECT_EQ(test, fast->nr, copy_max ? 1 : 2);
		rc = rpcrdma_send_sges_build(gen, f.hdr, 4 * PAGE_SIZE,
					     SST_HDR_LEN, &f.xdr, len, len);
		KUNIT_ASSERT_EQ(test, rc, 0);
		KUNIT_EXPECT_EQ(test, fast->nr_mapped, gen->nr_mapped);
		sst_expect_same(test, fast, gen);
	}
}

/* Inline sizes, header included, to check rpcrdma_send_sges_worst() at. */
static const unsigned int ssw_sizes[] = { 1024, 4096, 4097, 8192, 12288,
					  16384 };

static void ssw_desc(const unsigned int *size, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u-byte Sends", *size);
}

KUNIT_ARRAY_PARAM(ssw, ssw_sizes, ssw_desc);

/* SGEs one message shape gathers into, with no room for a pull-up. */
static unsigned int ssw_gather(struct kunit *test, struct rpcrdma_send_sges *ss,
			       struct xdr_buf *xdr, u8 *hdr, unsigned int max,
			       bool hole)
{
	unsigned int h = xdr->head[0].iov_len, nr;
	int rc;

	rpcrdma_send_sges_init(ss, ss->device, 0x1234, max);
	rc = rpcrdma_send_sges_build(ss, hdr, SST_HDR_LEN, SST_HDR_LEN, xdr,
				     hole ? h : xdr->len,
				     hole ? h + xdr->page_len : xdr->len);
	KUNIT_EXPECT_EQ_MSG(test, rc, 0,
			    "head %u, %u bytes of pages from %u, tail %zu%s", h,
			    xdr->page_len, xdr->page_base, xdr->tail[0].iov_len,
			    hole ? ", pages left out" : "");
	nr = ss->nr;
	rpcrdma_send_sges_unmap(ss);
	return nr;
}

/*
 * rpcrdma_send_sges_worst() is what a device must take for no call of
 * an inline size ever to be pulled up: every message that fits, whole
 * or with its pages left out, from any page offset, with or without
 * head and tail, gathers into that many SGEs with no room for a
 * pull-up, and the largest ones need all of them.
 */
static void send_sges_worst_case(struct kunit *test)
{
	static const unsigned int offsets[] = { 0, 1, PAGE_SIZE / 2,
						PAGE_SIZE - 1 };
	unsigned int inl = *(const unsigned int *)test->param_value;
	unsigned int msg_max = inl - SST_HDR_LEN, most = 0, worst;
	unsigned int npages = msg_max / PAGE_SIZE + 2, i, p, pmax;
	struct rpcrdma_send_sges *ss;
	struct page **pages;
	struct xdr_buf xdr;
	u8 *hdr, *buf;
	int rc;

	if (!IS_ENABLED(CONFIG_INFINIBAND_VIRT_DMA))
		kunit_skip(test, "needs CONFIG_INFINIBAND_VIRT_DMA to map SGEs");
	worst = rpcrdma_send_sges_worst(inl);
	KUNIT_ASSERT_LE(test, worst, RPCRDMA_MAX_SEND_SGES);
	ss = kunit_kzalloc(test, sizeof(*ss), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ss);
	ss->device = kunit_kzalloc(test, sizeof(*ss->device), GFP_KERNEL);
	hdr = kunit_kzalloc(test, SST_HDR_LEN, GFP_KERNEL);
	buf = kunit_kzalloc(test, 4, GFP_KERNEL);
	pages = kunit_kcalloc(test, npages, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ss->device);
	KUNIT_ASSERT_NOT_NULL(test, hdr);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < npages; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		rc = kunit_add_action_or_reset(test, sst_free_page, pages[i]);
		KUNIT_ASSERT_EQ(test, rc, 0);
	}

	/* Bit 0: pages left out; 1-2: page offset; 3: head; 4: tail. */
	for (i = 0; i < 32; i++) {
		memset(&xdr, 0, sizeof(xdr));
		xdr.head[0].iov_base = buf;
		xdr.head[0].iov_len = (i >> 3) & 1;
		xdr.pages = pages;
		xdr.page_base = offsets[(i >> 1) & 3];
		xdr.tail[0].iov_base = buf + 2;
		xdr.tail[0].iov_len = (i >> 4) & 1;
		pmax = msg_max - xdr.head[0].iov_len - xdr.tail[0].iov_len;
		for (p = 0; ; p = min(p + 509, pmax)) {
			xdr.page_len = p;
			xdr.len = xdr.head[0].iov_len + p + xdr.tail[0].iov_len;
			xdr.buflen = xdr.len;
			most = max(most, ssw_gather(test, ss, &xdr, hdr, worst,
						    i & 1));
			if (p == pmax)
				break;
		}
	}
	KUNIT_EXPECT_EQ(test, most, rpcrdma_send_sges_worst(msg_max));
}

static struct kunit_case rpcrdma_send_sges_cases[] = {
	KUNIT_CASE_PARAM(send_sges_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_premapped_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_premapped_buf_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_premapped_part_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_room_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_copy_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_fast_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_head_case, sst_gen_params),
	KUNIT_CASE_PARAM(send_sges_worst_case, ssw_gen_params),
	{}
};

static struct kunit_suite rpcrdma_send_sges_suite = {
	.name = "rpcrdma_send_sges",
	.test_cases = rpcrdma_send_sges_cases,
};

kunit_test_suites(&rpcrdma_send_sges_suite);
