// SPDX-License-Identifier: GPL-2.0
/*
 * Where the bytes of a range of an xdr_buf are: how many page runs its
 * head, page-vector and tail parts need (the split itself,
 * rpcrdma_xdr_range_parts(), is inline in rpcrdma/xdr_range.h, and so is
 * the page behind a kernel address).
 */
#include <kunit/visibility.h>
#include <linux/mm.h>

#include "rpcrdma/xdr_range.h"

/**
 * rpcrdma_xdr_parts_runs - page runs that the parts of a range touch
 * @part: parts from rpcrdma_xdr_range_parts()
 * @nparts: how many
 * @per: most pages one run covers (1 counts the pages)
 *
 * No run spans two parts.  The server counts with it the scatterlist
 * entries of an RDMA Read or Write.
 *
 * Return: the number of runs.
 */
unsigned int rpcrdma_xdr_parts_runs(const struct rpcrdma_xdr_part *part,
				    int nparts, unsigned int per)
{
	unsigned int runs = 0, pages;
	int i;

	for (i = 0; i < nparts; i++) {
		pages = DIV_ROUND_UP(rpcrdma_xdr_part_pgoff(&part[i]) +
				     part[i].len, PAGE_SIZE);
		runs += DIV_ROUND_UP(pages, per);
	}
	return runs;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_xdr_parts_runs);

/**
 * rpcrdma_xdr_count_runs - page runs that a byte range of an xdr_buf touches
 * @xdr: the buffer
 * @offset: first byte of the range
 * @len: bytes in the range
 * @per: most pages one run covers (1 counts the pages)
 *
 * Head, pages and tail are counted apart: no run spans two of them.  The
 * client counts with it the MRs that register a chunk (@per is an MR's
 * depth).
 *
 * Return: the number of runs; 0 if the range is empty or runs past the
 * end of the tail, which nothing can map.
 */
unsigned int rpcrdma_xdr_count_runs(const struct xdr_buf *xdr,
				    unsigned int offset, unsigned int len,
				    unsigned int per)
{
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS] __uninitialized;
	int n;

	n = rpcrdma_xdr_range_parts(xdr, offset, len, part);
	return n > 0 ? rpcrdma_xdr_parts_runs(part, n, per) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_xdr_count_runs);
