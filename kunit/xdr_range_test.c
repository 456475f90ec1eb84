// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a byte range of an xdr_buf split by region (common/xdr_range.c).
 * rpcrdma_xdr_range_parts() is what the Send SGEs, the client's MRs and
 * the server's RDMA scatterlists walk, so each vector gives a buffer
 * shape (head and tail at some offset in their page, a page vector from
 * some page_base), a range, and the parts expected: which region, where
 * in it, how long.  A range that runs past the tail must be refused.
 *
 * Then the count of page runs such a range touches, which sizes the
 * client's registrations and the server's RDMA scatterlists.
 *
 * No byte is read: only the addresses and lengths matter.
 */
#include <kunit/test.h>
#include <linux/mm.h>

#include "rpcrdma/xdr_range.h"

/**
 * struct xr_shape - the regions of an xdr_buf
 * @head_off: offset of the head in its page
 * @head: bytes in the head
 * @page_base: offset of the data in the first page
 * @page_len: bytes in the pages
 * @tail_off: offset of the tail in its page
 * @tail: bytes in the tail
 */
struct xr_shape {
	unsigned int head_off, head, page_base, page_len, tail_off, tail;
};

enum xr_region { XR_HEAD, XR_PAGES, XR_TAIL };

/**
 * struct xr_part - a part expected
 * @region: which region it is a share of
 * @at: offset of its first byte from the start of that region's data
 *	(for the pages, from page_base)
 * @len: bytes
 */
struct xr_part {
	enum xr_region region;
	unsigned int at, len;
};

/**
 * struct parts_vec - a range and the parts it splits into
 * @name: what it looks like
 * @shape: the buffer
 * @offset: first byte of the range
 * @len: bytes in the range
 * @n: parts expected, or -ERANGE
 * @part: the parts expected
 */
struct parts_vec {
	const char *name;
	struct xr_shape shape;
	unsigned int offset, len;
	int n;
	struct xr_part part[RPCRDMA_XDR_PARTS];
};

#define PG	PAGE_SIZE

static const struct parts_vec parts_vecs[] = {
	{ "empty range", { 0, 100, 0, 2 * PG, 0, 4 }, 50, 0, 0 },
	{ "empty range at the end", { 0, 100, 0, 2 * PG, 0, 4 },
	  100 + 2 * PG + 4, 0, 0 },
	{ "whole buffer", { 8, 100, 300, 2 * PG, 16, 4 }, 0, 100 + 2 * PG + 4,
	  3, { { XR_HEAD, 0, 100 }, { XR_PAGES, 0, 2 * PG },
	       { XR_TAIL, 0, 4 } } },
	{ "inside the head", { 8, 100, 0, PG, 0, 4 }, 10, 50, 1,
	  { { XR_HEAD, 10, 50 } } },
	{ "end of the head into the pages", { 0, 100, 0, PG, 0, 0 }, 96, 8,
	  2, { { XR_HEAD, 96, 4 }, { XR_PAGES, 0, 4 } } },
	{ "the pages alone, from page_base 100", { 0, 100, 100, 2 * PG, 0, 4 },
	  100, 2 * PG, 1, { { XR_PAGES, 0, 2 * PG } } },
	{ "inside the pages", { 0, 100, 300, 3 * PG, 0, 4 }, 100 + 5000, 200,
	  1, { { XR_PAGES, 5000, 200 } } },
	{ "pages into the tail", { 0, 64, 500, 2 * PG, 0, 100 },
	  64 + 2 * PG - 100, 150, 2,
	  { { XR_PAGES, 2 * PG - 100, 100 }, { XR_TAIL, 0, 50 } } },
	{ "the tail alone", { 0, 64, 0, PG, 8, 100 }, 64 + PG + 10, 80, 1,
	  { { XR_TAIL, 10, 80 } } },
	{ "no pages: head into tail", { 0, 64, 0, 0, 0, 100 }, 60, 10, 2,
	  { { XR_HEAD, 60, 4 }, { XR_TAIL, 0, 6 } } },
	{ "to the last byte of the tail", { 0, 64, 0, PG, 0, 100 },
	  64 + PG + 99, 1, 1, { { XR_TAIL, 99, 1 } } },
	{ "one byte past the tail", { 0, 64, 0, PG, 0, 100 }, 64 + PG + 50,
	  51, -ERANGE },
	{ "starting past the tail", { 0, 64, 0, PG, 0, 100 }, 64 + PG + 101,
	  1, -ERANGE },
	{ "a length that wraps", { 0, 64, 0, PG, 0, 100 }, 32, ~0U - 16,
	  -ERANGE },
};

static void parts_desc(const struct parts_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(parts, parts_vecs, parts_desc);

/* Build @xdr: head and tail in memory of their own, @pages as its vector. */
static void xr_build(struct kunit *test, const struct xr_shape *s,
		     struct xdr_buf *xdr, struct page **pages)
{
	u8 *head, *tail;

	/* Power-of-two kmalloc sizes are naturally aligned: page offsets. */
	head = kunit_kmalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	tail = kunit_kmalloc(test, 2 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, head);
	KUNIT_ASSERT_NOT_NULL(test, tail);
	memset(xdr, 0, sizeof(*xdr));
	xdr->head[0].iov_base = head + s->head_off;
	xdr->head[0].iov_len = s->head;
	xdr->pages = pages;
	xdr->page_base = s->page_base;
	xdr->page_len = s->page_len;
	xdr->tail[0].iov_base = tail + s->tail_off;
	xdr->tail[0].iov_len = s->tail;
	xdr->len = s->head + s->page_len + s->tail;
}

static void range_parts_case(struct kunit *test)
{
	const struct parts_vec *v = test->param_value;
	struct rpcrdma_xdr_part got[RPCRDMA_XDR_PARTS];
	struct page *pages[1];
	struct xdr_buf xdr;
	int i, n;

	xr_build(test, &v->shape, &xdr, pages);
	memset(got, 0x5a, sizeof(got));
	n = rpcrdma_xdr_range_parts(&xdr, v->offset, v->len, got);
	KUNIT_ASSERT_EQ(test, n, v->n);
	for (i = 0; i < n; i++) {
		const struct xr_part *want = &v->part[i];
		const struct kvec *kv;

		KUNIT_EXPECT_GT(test, got[i].len, 0U);
		KUNIT_EXPECT_EQ(test, got[i].len, want->len);
		if (want->region == XR_PAGES) {
			KUNIT_EXPECT_PTR_EQ(test, got[i].pages, &pages[0]);
			KUNIT_EXPECT_EQ(test, got[i].base,
					xdr.page_base + want->at);
			KUNIT_EXPECT_EQ(test, rpcrdma_xdr_part_pgoff(&got[i]),
					offset_in_page(xdr.page_base +
						       want->at));
			continue;
		}
		kv = want->region == XR_HEAD ? &xdr.head[0] : &xdr.tail[0];
		KUNIT_EXPECT_NULL(test, got[i].pages);
		KUNIT_EXPECT_EQ(test, got[i].base, 0U);
		KUNIT_EXPECT_PTR_EQ(test, got[i].kaddr, kv->iov_base + want->at);
		KUNIT_EXPECT_EQ(test, rpcrdma_xdr_part_pgoff(&got[i]),
				offset_in_page(kv->iov_base + want->at));
	}
}

/**
 * struct runs_vec - a byte range of an xdr_buf and the runs it needs
 * @name: what it looks like
 * @shape: the buffer
 * @offset: first byte of the range
 * @len: bytes in the range
 * @per: most pages in one run
 * @runs: expected count
 */
struct runs_vec {
	const char *name;
	struct xr_shape shape;
	unsigned int offset, len, per, runs;
};

static const struct runs_vec runs_vecs[] = {
	{ "empty range", { 0, 100, 0, 8192, 0, 4 }, 50, 0, 1, 0 },
	{ "head, two pages, tail", { 0, 100, 0, 8192, 0, 4 }, 0, 8296, 1, 4 },
	{ "the pages alone", { 0, 100, 0, 8192, 0, 4 }, 100, 8192, 1, 2 },
	{ "pages from offset 100 touch three", { 0, 100, 100, 8192, 0, 4 },
	  100, 8192, 1, 3 },
	{ "a head across a page boundary", { 4000, 200, 0, 0, 0, 0 }, 0, 200,
	  1, 2 },
	{ "inside the pages, across a boundary", { 0, 100, 0, 8192, 0, 4 },
	  4000, 200, 1, 2 },
	{ "the tail alone, at the end of its page",
	  { 0, 100, 0, 4096, 4090, 6 }, 4196, 6, 1, 1 },
	{ "a tail across a page boundary", { 0, 0, 0, 0, 4094, 4 }, 0, 4, 1,
	  2 },
	{ "end of the head into the pages", { 0, 100, 0, 4096, 0, 0 }, 96, 8,
	  1, 2 },
	{ "three pages in runs of two", { 0, 100, 100, 8192, 0, 4 }, 100,
	  8192, 2, 2 },
	{ "head, 64 pages, tail in runs of 64",
	  { 0, 100, 0, 65536 * 4, 0, 4 }, 0, 100 + 65536 * 4 + 4, 64, 3 },
	{ "65 pages in runs of 64", { 0, 100, 1, 65536 * 4, 0, 0 }, 100,
	  65536 * 4, 64, 2 },
	{ "a range past the tail counts none", { 0, 100, 0, 4096, 0, 4 }, 0,
	  4096 + 100 + 5, 1, 0 },
};

static void runs_desc(const struct runs_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(runs, runs_vecs, runs_desc);

static void count_runs_case(struct kunit *test)
{
	const struct runs_vec *v = test->param_value;
	struct page *pages[1];
	struct xdr_buf xdr;

	/* Counting reads no entry of the page vector. */
	xr_build(test, &v->shape, &xdr, pages);
	KUNIT_EXPECT_EQ(test, rpcrdma_xdr_count_runs(&xdr, v->offset, v->len,
						     v->per),
			v->runs);
}

static struct kunit_case rpcrdma_xdr_range_cases[] = {
	KUNIT_CASE_PARAM(range_parts_case, parts_gen_params),
	KUNIT_CASE_PARAM(count_runs_case, runs_gen_params),
	{}
};

static struct kunit_suite rpcrdma_xdr_range_suite = {
	.name = "rpcrdma_xdr_range",
	.test_cases = rpcrdma_xdr_range_cases,
};

kunit_test_suites(&rpcrdma_xdr_range_suite);
