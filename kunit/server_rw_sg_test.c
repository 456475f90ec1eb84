// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the scatterlist of a server RDMA Read or Write (svcrdma/rw.c,
 * srdma_rw_fill_sg()).  Each vector is an xdr_buf (a head and a tail
 * that may cross a page boundary, a page vector from some offset) and a
 * byte range of it, split as srdma_rw_create() splits it; the entries
 * must be the range's page-bounded pieces, in order, none spanning
 * head, pages and tail, exactly as many as rpcrdma_xdr_parts_runs()
 * counts, in a flat table and in one chained after any entry; the
 * ranges of the page vector alone are those srdma_rw_in_pages() sends to
 * the page-vector fill.  A reference walk, one byte at a time, says what
 * the pieces are.  A count that is off must be refused by the fill, a
 * range that runs past the tail by the split.  A Read's bytes in a page
 * vector (srdma_rw_fill_pages()) must come out as the xdr_buf fill makes
 * them.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>

#include "rpcrdma/send.h"
#include "rpcrdma/xdr_range.h"
#include "../svcrdma/server.h"

#define RWSG_PAGES	6
#define RWSG_MAX_ENTS	(RWSG_PAGES + 6)

/**
 * struct rwsg_vec - one buffer shape and range
 * @name: what it looks like
 * @head_off: offset of the head in its two pages
 * @head_len: bytes in the head
 * @page_base: offset of the first byte in the first page
 * @page_len: bytes in the pages
 * @tail_off: offset of the tail in its two pages
 * @tail_len: bytes in the tail
 * @offset: first byte of the range
 * @len: bytes in the range
 * @nents_delta: entries given, less the counted ones
 * @ok: the fill is to succeed
 */
struct rwsg_vec {
	const char *name;
	unsigned int head_off, head_len, page_base, page_len;
	unsigned int tail_off, tail_len, offset, len;
	int nents_delta;
	bool ok;
};

#define PG	PAGE_SIZE

static const struct rwsg_vec rwsg_vecs[] = {
	{ "whole buffer", 100, 200, 300, 3 * PG, 0, 50, 0, 200 + 3 * PG + 50,
	  0, true },
	{ "head across a page boundary", PG - 96, 300, 0, PG, 0, 0, 0, 300,
	  0, true },
	{ "from the head into the pages", PG - 96, 300, 0, 2 * PG, 0, 0, 250,
	  1000, 0, true },
	{ "pages only, from mid-page", 100, 200, 300, 4 * PG, 0, 50,
	  200 + 1000, 7000, 0, true },
	{ "whole pages only", 0, 28, 0, RWSG_PAGES * PG, 0, 0, 28,
	  RWSG_PAGES * PG, 0, true },
	{ "a 4 KiB write's Read", 0, 120, 0, PG, 0, 4, 120, PG, 0, true },
	{ "pages into a tail across a page", 0, 64, 500, 2 * PG, PG - 20,
	  100, 64 + 2 * PG - 100, 150, 0, true },
	{ "tail only", 0, 64, 0, PG, 8, 100, 64 + PG + 10, 80, 0, true },
	{ "the pages' last byte", 0, 64, 0, PG, 8, 100, 64 + PG - 1, 1, 0,
	  true },
	{ "the pages' last byte and the tail's first", 0, 64, 0, PG, 8, 100,
	  64 + PG - 1, 2, 0, true },
	{ "one entry too few", 100, 200, 300, 3 * PG, 0, 50, 0,
	  200 + 3 * PG + 50, -1, false },
	{ "one entry too many", 100, 200, 300, 3 * PG, 0, 50, 0,
	  200 + 3 * PG + 50, 1, false },
	{ "range past the tail", 0, 64, 0, PG, 0, 100, 64 + PG + 50, 100,
	  0, false },
};

static void rwsg_desc(const struct rwsg_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rwsg, rwsg_vecs, rwsg_desc);

struct rwsg_piece {
	struct page *page;
	unsigned int off;
	unsigned int len;
};

/* Where byte @pos of @xdr is, and which of head (0), pages, tail it is in. */
static unsigned int rwsg_locate(const struct xdr_buf *xdr, unsigned int pos,
				struct page **page, unsigned int *off)
{
	unsigned int hlen = xdr->head[0].iov_len, plen = xdr->page_len;
	const void *kaddr;

	if (pos >= hlen && pos < hlen + plen) {
		unsigned int b = xdr->page_base + pos - hlen;

		*page = xdr->pages[b / PAGE_SIZE];
		*off = b % PAGE_SIZE;
		return 1;
	}
	if (pos < hlen)
		kaddr = xdr->head[0].iov_base + pos;
	else
		kaddr = xdr->tail[0].iov_base + pos - hlen - plen;
	*page = virt_to_page(kaddr);
	*off = offset_in_page(kaddr);
	return pos < hlen ? 0 : 2;
}

/* The pieces of the range, found one byte at a time. */
static unsigned int rwsg_reference(const struct xdr_buf *xdr,
				   unsigned int offset, unsigned int len,
				   struct rwsg_piece *out)
{
	unsigned int n = 0, pos, where, prev = ~0U;

	for (pos = offset; pos < offset + len; pos++) {
		struct rwsg_piece *last = n ? &out[n - 1] : NULL;
		struct page *page;
		unsigned int off;

		where = rwsg_locate(xdr, pos, &page, &off);
		if (last && where == prev && last->page == page &&
		    last->off + last->len == off) {
			last->len++;
		} else {
			if (n == RWSG_MAX_ENTS)
				return n + 1;
			out[n++] = (struct rwsg_piece){ page, off, 1 };
		}
		prev = where;
	}
	return n;
}

static void *rwsg_two_pages(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 1);

	KUNIT_ASSERT_NOT_NULL(test, page);
	return page_address(page);
}

/* The entries of @sgl, walked as rdma_rw does, are the @n pieces of @want. */
static void rwsg_expect_pieces(struct kunit *test, struct scatterlist *sgl,
			       unsigned int n, const struct rwsg_piece *want)
{
	struct scatterlist *sg;
	unsigned int i;

	for_each_sg(sgl, sg, n, i) {
		KUNIT_EXPECT_PTR_EQ(test, sg_page(sg), want[i].page);
		KUNIT_EXPECT_EQ(test, sg->offset, want[i].off);
		KUNIT_EXPECT_EQ(test, sg->length, want[i].len);
		/* Only the table's last entry ends it; none is a link. */
		KUNIT_EXPECT_EQ(test, sg_is_last(sg), i == n - 1);
		KUNIT_EXPECT_FALSE(test, sg_is_chain(sg));
	}
	KUNIT_EXPECT_TRUE(test, sg_is_last(sg_last(sgl, n)));
}

/*
 * A table of @nents entries in two arrays, the first entry @k of the
 * first array a link to the second; each array is allocated to its exact
 * size, so that KASAN sees an entry read past either.
 */
static struct scatterlist *rwsg_chained(struct kunit *test, unsigned int k,
					unsigned int nents)
{
	struct scatterlist *a, *b;

	a = kunit_kcalloc(test, k + 1, sizeof(*a), GFP_KERNEL);
	b = kunit_kcalloc(test, nents - k, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	sg_init_table(a, k + 1);
	sg_init_table(b, nents - k);
	sg_chain(a, k + 1, b);
	return a;
}

static void rw_fill_sg_case(struct kunit *test)
{
	const struct rwsg_vec *v = test->param_value;
	struct rwsg_piece want[RWSG_MAX_ENTS + 1];
	struct page *pages[RWSG_PAGES] = {};
	struct scatterlist *sgl, *sg;
	void *head_mem, *tail_mem;
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS];
	struct xdr_buf xdr = {};
	unsigned int nents, nwant, i, k, pos;
	int nparts;
	bool ok;

	head_mem = rwsg_two_pages(test);
	tail_mem = rwsg_two_pages(test);
	for (i = 0; i < RWSG_PAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	xdr.head[0].iov_base = head_mem + v->head_off;
	xdr.head[0].iov_len = v->head_len;
	xdr.pages = pages;
	xdr.page_base = v->page_base;
	xdr.page_len = v->page_len;
	xdr.tail[0].iov_base = tail_mem + v->tail_off;
	xdr.tail[0].iov_len = v->tail_len;
	xdr.len = v->head_len + v->page_len + v->tail_len;

	nparts = rpcrdma_xdr_range_parts(&xdr, v->offset, v->len, part);
	if (nparts < 0) {
		/* Past the tail: srdma_rw_create() has nothing to fill. */
		KUNIT_EXPECT_FALSE(test, v->ok);
		goto out;
	}
	/* The page-vector path takes exactly the ranges of one pages part. */
	if (srdma_rw_in_pages(&xdr, v->offset, v->len, &pos)) {
		KUNIT_EXPECT_EQ(test, nparts, 1);
		KUNIT_EXPECT_PTR_EQ(test, part[0].pages, xdr.pages);
		KUNIT_EXPECT_EQ(test, pos, part[0].base);
	} else {
		KUNIT_EXPECT_TRUE(test, nparts > 1 || !part[0].pages);
	}
	nents = rpcrdma_xdr_parts_runs(part, nparts, 1) + v->nents_delta;
	KUNIT_ASSERT_GT(test, nents, 0U);
	KUNIT_ASSERT_LE(test, nents, (unsigned int)RWSG_MAX_ENTS);
	sgl = kunit_kcalloc(test, nents, sizeof(*sgl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, nents);

	ok = srdma_rw_fill_sg(sgl, nents, part, nparts);
	KUNIT_EXPECT_EQ(test, ok, v->ok);
	if (ok && v->ok) {
		nwant = rwsg_reference(&xdr, v->offset, v->len, want);
		KUNIT_EXPECT_EQ(test, nents, nwant);
		rwsg_expect_pieces(test, sgl, min(nents, nwant), want);
		/* Chained after entry k (sg_alloc_table()'s kind of table). */
		for (k = 1; k < nents && nents == nwant; k++) {
			sg = rwsg_chained(test, k, nents);
			KUNIT_EXPECT_TRUE(test, srdma_rw_fill_sg(sg, nents, part,
								 nparts));
			rwsg_expect_pieces(test, sg, nents, want);
		}
	}

out:
	for (i = 0; i < RWSG_PAGES; i++)
		__free_page(pages[i]);
	free_pages((unsigned long)head_mem, 1);
	free_pages((unsigned long)tail_mem, 1);
}

/**
 * struct rwpg_vec - a Read's bytes in a page vector (srdma_rw_fill_pages())
 * @name: what it looks like
 * @pos: first byte, from the start of the first page
 * @len: bytes
 */
struct rwpg_vec {
	const char *name;
	unsigned int pos, len;
};

static const struct rwpg_vec rwpg_vecs[] = {
	{ "a 4 KiB write's data item", 0, PG },
	{ "one byte", 0, 1 },
	{ "a page from mid-page", 120, PG },
	{ "two bytes across a page boundary", PG - 1, 2 },
	{ "the last bytes of a page", PG - 4, 4 },
	{ "the first bytes of the second page", PG, 3 },
	{ "a chunk after a reduced stream", 3 * PG + 5, 2 * PG },
	{ "every page", 0, RWSG_PAGES * PG },
};

static void rwpg_desc(const struct rwpg_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rwpg, rwpg_vecs, rwpg_desc);

/*
 * The page-vector fill gives what the xdr_buf fill gives for a buffer of
 * those pages alone, and what the byte walk finds, in as many entries as
 * the range touches pages.
 */
static void rw_fill_pages_case(struct kunit *test)
{
	const struct rwpg_vec *v = test->param_value;
	struct rwsg_piece want[RWSG_MAX_ENTS + 1];
	struct page *pages[RWSG_PAGES] = {};
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS];
	struct scatterlist *by_pages, *by_xdr, *a, *b;
	struct xdr_buf xdr = {};
	unsigned int nents, nwant, i;
	int nparts;

	for (i = 0; i < RWSG_PAGES; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	xdr.pages = pages;
	xdr.page_len = RWSG_PAGES * PG;
	xdr.len = xdr.page_len;
	nparts = rpcrdma_xdr_range_parts(&xdr, v->pos, v->len, part);
	KUNIT_ASSERT_GT(test, nparts, 0);
	nents = rpcrdma_xdr_parts_runs(part, nparts, 1);
	KUNIT_ASSERT_LE(test, nents, (unsigned int)RWSG_MAX_ENTS);
	KUNIT_EXPECT_EQ(test, nents,
			(unsigned int)DIV_ROUND_UP(v->pos % PG + v->len, PG));

	by_pages = kunit_kcalloc(test, nents, sizeof(*by_pages), GFP_KERNEL);
	by_xdr = kunit_kcalloc(test, nents, sizeof(*by_xdr), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, by_pages);
	KUNIT_ASSERT_NOT_NULL(test, by_xdr);
	sg_init_table(by_pages, nents);
	sg_init_table(by_xdr, nents);
	srdma_rw_fill_pages(by_pages, pages, v->pos, v->len);
	KUNIT_ASSERT_TRUE(test, srdma_rw_fill_sg(by_xdr, nents, part, nparts));
	nwant = rwsg_reference(&xdr, v->pos, v->len, want);
	KUNIT_EXPECT_EQ(test, nents, nwant);

	a = by_pages;
	b = by_xdr;
	for (i = 0; i < min(nents, nwant); i++) {
		KUNIT_EXPECT_PTR_EQ(test, sg_page(a), want[i].page);
		KUNIT_EXPECT_EQ(test, a->offset, want[i].off);
		KUNIT_EXPECT_EQ(test, a->length, want[i].len);
		KUNIT_EXPECT_PTR_EQ(test, sg_page(a), sg_page(b));
		KUNIT_EXPECT_EQ(test, a->offset, b->offset);
		KUNIT_EXPECT_EQ(test, a->length, b->length);
		KUNIT_EXPECT_EQ(test, sg_is_last(a), i == nents - 1);
		a = sg_next(a);
		b = sg_next(b);
	}

	for (i = 0; i < RWSG_PAGES; i++)
		__free_page(pages[i]);
}

static struct kunit_case rpcrdma_server_rw_sg_cases[] = {
	KUNIT_CASE_PARAM(rw_fill_sg_case, rwsg_gen_params),
	KUNIT_CASE_PARAM(rw_fill_pages_case, rwpg_gen_params),
	{}
};

static struct kunit_suite rpcrdma_server_rw_sg_suite = {
	.name = "rpcrdma_server_rw_sg",
	.test_cases = rpcrdma_server_rw_sg_cases,
};

kunit_test_suites(&rpcrdma_server_rw_sg_suite);
