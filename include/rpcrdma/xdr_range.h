/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A byte range of an xdr_buf as the memory that holds it: its share of
 * the head, of the page vector and of the tail.  Shared by whoever maps
 * or registers a range in pieces: the Send SGEs, the client's MRs and
 * the server's RDMA Read and Write scatterlists.
 */
#ifndef _RPCRDMA_XDR_RANGE_H
#define _RPCRDMA_XDR_RANGE_H

#include <linux/mm.h>
#include <linux/sunrpc/xdr.h>
#include <linux/vmalloc.h>

/* Head, page vector, tail. */
#define RPCRDMA_XDR_PARTS	3

/**
 * struct rpcrdma_xdr_part - a range's share of one region of an xdr_buf
 * @pages: the buffer's page vector, or NULL for a share of its head or
 *	of its tail
 * @kaddr: address of the first byte, when @pages is NULL
 * @base: offset of the first byte from the start of @pages[0], when
 *	@pages is set (page_base included); 0 otherwise
 * @len: bytes in the share, never 0
 */
struct rpcrdma_xdr_part {
	struct page **pages;
	void *kaddr;
	unsigned int base;
	unsigned int len;
};

/**
 * rpcrdma_kaddr_page - the page behind a kernel address
 * @p: address in the direct map or in vmalloc space
 *
 * Inline: a Send maps its head with it on every RPC.
 *
 * Return: the page that holds @p.
 */
static inline struct page *rpcrdma_kaddr_page(const void *p)
{
	if (unlikely(is_vmalloc_addr(p)))
		return vmalloc_to_page(p);
	return virt_to_page(p);
}

unsigned int rpcrdma_xdr_parts_runs(const struct rpcrdma_xdr_part *part,
				    int nparts, unsigned int per);
unsigned int rpcrdma_xdr_count_runs(const struct xdr_buf *xdr,
				    unsigned int offset, unsigned int len,
				    unsigned int per);

/**
 * rpcrdma_xdr_part_pgoff - offset of a part's first byte in its page
 * @part: a part from rpcrdma_xdr_range_parts()
 *
 * Return: the offset, below PAGE_SIZE.
 */
static inline unsigned int
rpcrdma_xdr_part_pgoff(const struct rpcrdma_xdr_part *part)
{
	return part->pages ? offset_in_page(part->base) :
			     offset_in_page(part->kaddr);
}

/**
 * rpcrdma_xdr_range_parts - split a byte range of an xdr_buf by region
 * @xdr: the buffer
 * @offset: first byte of the range
 * @len: bytes in the range
 * @part: receives the range's share of the head, of the page vector and
 *	of the tail, in that order, leaving out the regions it misses
 *
 * Return: the number of parts filled in (0 for an empty range), or
 * -ERANGE if the range runs past the end of the tail.  Inline: every
 * Send and every chunk goes through it, and each caller then loops over
 * what it knows to be at most three parts.
 */
static inline int
rpcrdma_xdr_range_parts(const struct xdr_buf *xdr, unsigned int offset,
			unsigned int len,
			struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS])
{
	const struct kvec *head = &xdr->head[0], *tail = &xdr->tail[0];
	unsigned int take;
	int n = 0;

	if (!len)
		return 0;
	if (offset < head->iov_len) {
		take = min_t(unsigned int, len, head->iov_len - offset);
		part[n++] = (struct rpcrdma_xdr_part){
			.kaddr = head->iov_base + offset,
			.len = take,
		};
		len -= take;
		offset = 0;
	} else {
		offset -= head->iov_len;
	}
	if (!len)
		return n;
	if (offset < xdr->page_len) {
		take = min(len, xdr->page_len - offset);
		part[n++] = (struct rpcrdma_xdr_part){
			.pages = xdr->pages,
			.base = xdr->page_base + offset,
			.len = take,
		};
		len -= take;
		offset = 0;
	} else {
		offset -= xdr->page_len;
	}
	if (!len)
		return n;
	if (offset > tail->iov_len || len > tail->iov_len - offset)
		return -ERANGE;
	part[n++] = (struct rpcrdma_xdr_part){
		.kaddr = tail->iov_base + offset,
		.len = len,
	};
	return n;
}

#endif /* _RPCRDMA_XDR_RANGE_H */
