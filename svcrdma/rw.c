// SPDX-License-Identifier: GPL-2.0
/*
 * RDMA Read and Write between an xdr_buf and a chunk, with the kernel's
 * rdma_rw API, and the Send Queue accounting every poster goes through.
 *
 * One struct srdma_rw moves the bytes of one remote segment.  Its local
 * side is a scatterlist over the pages where the bytes already are (the
 * reply's head, pages and tail, or the request's pages): no copy.  The
 * contexts are recycled per connection (srdma_rw_get(), srdma_rw_put()).
 */
#include <kunit/visibility.h>
#include <linux/slab.h>
#include <linux/scatterlist.h>

#include "server.h"
#include "trace.h"

/* The table a chain link at @sg leads to; out of line (see below). */
static noinline __cold struct scatterlist *srdma_sg_link(struct scatterlist *sg)
{
	return sg_chain_ptr(sg);
}

/*
 * The entry after @sg, which the caller knows exists: sg_next() without
 * its end-of-table test or its call, for the fill below, which counts
 * its entries and runs once per page of every Read and Write.
 */
static inline struct scatterlist *srdma_sg_step(struct scatterlist *sg)
{
	sg++;
	/* A branch, not a select: links come once in 127 entries. */
	if (unlikely(sg_is_chain(sg)))
		sg = srdma_sg_link(sg);
	return sg;
}

/*
 * sg_set_page() of a whole page, for an entry the fill knows is neither
 * a chain link nor the table's last: no end or chain bits to keep.
 */
static inline void srdma_sg_whole_page(struct scatterlist *sg,
				       struct page *page)
{
	sg->page_link = (unsigned long)page;
	sg->offset = 0;
	sg->length = PAGE_SIZE;
}

/*
 * The fill's convention: *@sgp is the next entry to fill while *@left
 * (the entries not yet filled) is not zero; past the last one it is
 * never stepped to, so the table is never read beyond its end.
 */

/* Fill entries from *@sgp on with the page pieces of @len bytes at @kaddr. */
static bool srdma_sg_kvec(struct scatterlist **sgp, unsigned int *left,
			  const void *kaddr, unsigned int len)
{
	while (len) {
		unsigned int off = offset_in_page(kaddr);
		unsigned int n = min_t(unsigned int, len, PAGE_SIZE - off);

		if (!*left)
			return false;
		sg_set_page(*sgp, rpcrdma_kaddr_page(kaddr), n, off);
		if (--(*left))
			*sgp = srdma_sg_step(*sgp);
		kaddr += n;
		len -= n;
	}
	return true;
}

/* The same for @len bytes from byte @base of the page vector @pages. */
static __always_inline bool srdma_sg_pages(struct scatterlist **sgp,
					   unsigned int *left,
					   struct page **pages,
					   unsigned int base, unsigned int len)
{
	unsigned int off = offset_in_page(base);
	struct page **pp = pages + (base >> PAGE_SHIFT);
	struct scatterlist *sg = *sgp;
	unsigned int count, n;
	struct page **end;

	count = DIV_ROUND_UP(off + len, PAGE_SIZE);
	if (!count)
		return true;
	if (count > *left)
		return false;
	*left -= count;
	/*
	 * The first piece; whole pages; the last piece, of what is left.
	 * Only the first and the last can be the table's last entry.
	 */
	n = min_t(unsigned int, len, PAGE_SIZE - off);
	sg_set_page(sg, *pp++, n, off);
	if (count > 1) {
		len -= n + (count - 2) * PAGE_SIZE;
		for (end = pp + count - 2; pp < end; pp++) {
			sg = srdma_sg_step(sg);
			srdma_sg_whole_page(sg, *pp);
		}
		sg = srdma_sg_step(sg);
		sg_set_page(sg, *pp, len, 0);
	}
	*sgp = *left ? srdma_sg_step(sg) : sg;
	return true;
}

/**
 * srdma_rw_fill_sg - describe the parts of a byte range in a scatterlist
 * @sgl: the scatterlist, @nents entries
 * @nents: entries the parts take, as rpcrdma_xdr_parts_runs() counts
 *	them with a run of one page
 * @part: the range's parts, from rpcrdma_xdr_range_parts()
 * @nparts: how many
 *
 * One entry per page-bounded piece of each part, in order; no entry
 * spans two parts.
 *
 * Return: true if the parts took exactly @nents entries; false, with
 * nothing to be posted, otherwise.
 */
VISIBLE_IF_KUNIT bool srdma_rw_fill_sg(struct scatterlist *sgl,
				       unsigned int nents,
				       const struct rpcrdma_xdr_part *part,
				       int nparts)
{
	struct scatterlist *sg = sgl;
	unsigned int left = nents;
	int i;
	bool ok;

	for (i = 0; i < nparts; i++) {
		if (part[i].pages)
			ok = srdma_sg_pages(&sg, &left, part[i].pages,
					    part[i].base, part[i].len);
		else
			ok = srdma_sg_kvec(&sg, &left, part[i].kaddr,
					   part[i].len);
		if (!ok)
			return false;
	}
	return !left;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_fill_sg);

/**
 * srdma_rw_pages_nents - scatterlist entries for bytes of a page vector
 * @pos: first byte, counted from the start of the first page
 * @len: bytes
 *
 * Return: the pages the range touches, one entry each.
 */
static inline unsigned int srdma_rw_pages_nents(unsigned int pos,
						unsigned int len)
{
	return DIV_ROUND_UP(offset_in_page(pos) + len, PAGE_SIZE);
}

/**
 * srdma_rw_fill_pages - describe bytes of a page vector in a scatterlist
 * @sgl: the scatterlist, srdma_rw_pages_nents(@pos, @len) entries
 * @pages: the page vector
 * @pos: first byte, counted from the start of @pages[0]
 * @len: bytes, at least one
 *
 * What srdma_rw_fill_sg() makes of an xdr_buf whose only part is these
 * bytes, without the walk over head, pages and tail: a Read lands in
 * rq_pages alone.
 */
VISIBLE_IF_KUNIT void srdma_rw_fill_pages(struct scatterlist *sgl,
					  struct page **pages,
					  unsigned int pos, unsigned int len)
{
	unsigned int left = srdma_rw_pages_nents(pos, len);

	srdma_sg_pages(&sgl, &left, pages, pos, len);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_fill_pages);

/**
 * srdma_rw_in_pages - are bytes of an xdr_buf in its page vector alone?
 * @xdr: the buffer
 * @offset: first byte of @xdr
 * @len: bytes
 * @pos: set to where the first one is, counted from the start of
 *	@xdr->pages[0]
 *
 * Such bytes (a READ's data, a Read's landing place) take
 * srdma_rw_fill_pages(), without the walk over head, pages and tail.
 *
 * Return: true if there is at least one byte and none is in the head or
 * the tail.
 */
VISIBLE_IF_KUNIT bool srdma_rw_in_pages(const struct xdr_buf *xdr,
					unsigned int offset, unsigned int len,
					unsigned int *pos)
{
	unsigned int head = xdr->head[0].iov_len;

	if (!len || offset < head || len > xdr->page_len ||
	    offset - head > xdr->page_len - len)
		return false;
	*pos = xdr->page_base + (offset - head);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_in_pages);

/*
 * Give @rw a table of @nents entries: its inline one; the one it keeps,
 * allocated once; or, for a segment longer than that, one allocated for
 * this segment alone.
 */
static int srdma_rw_init_table(struct srdma_rw *rw, unsigned int nents)
{
	struct scatterlist *sgl = rw->inline_sgl;

	if (nents > SRDMA_RW_INLINE_SGES) {
		if (nents > SRDMA_RW_KEPT_SGES)
			return sg_alloc_table(&rw->sgt, nents, GFP_KERNEL);
		if (unlikely(!rw->kept_sgl)) {
			rw->kept_sgl = kmalloc_array(SRDMA_RW_KEPT_SGES,
						     sizeof(*sgl), GFP_KERNEL);
			if (!rw->kept_sgl)
				return -ENOMEM;
		}
		sgl = rw->kept_sgl;
	}
	sg_init_table(sgl, nents);
	rw->sgt.sgl = sgl;
	rw->sgt.nents = nents;
	rw->sgt.orig_nents = nents;
	return 0;
}

/* Is @rw's table one allocated for its current segment alone? */
static inline bool srdma_rw_table_own(const struct srdma_rw *rw)
{
	return rw->sgt.sgl != rw->inline_sgl && rw->sgt.sgl != rw->kept_sgl;
}

/**
 * srdma_rw_free_table - free the table a context keeps
 * @rw: a context no work request uses, about to be freed itself (with
 *	its owner, if it is one's own)
 */
void srdma_rw_free_table(struct srdma_rw *rw)
{
	kfree(rw->kept_sgl);
	rw->kept_sgl = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_free_table);

/* Free a context that is not an owner's own, with its table. */
static void srdma_rw_free(struct srdma_rw *rw)
{
	srdma_rw_free_table(rw);
	kfree(rw);
}

/**
 * srdma_rw_get - a context for a segment of @nents pieces
 * @sx: the connection
 * @spare: the owner's own context (a Send context's or a Read state's),
 *	taken while it is free; or NULL
 * @nents: scatterlist entries the segment needs
 *
 * Most replies carry one Write and most Calls with Read chunks one Read
 * segment: the owner's own context serves it without the connection's
 * free list and its lock.
 *
 * Return: @spare, a recycled context, or a new one while the
 * connection's free list is empty, whose @sgt holds @nents entries; or
 * NULL.
 */
VISIBLE_IF_KUNIT __always_inline struct srdma_rw *
srdma_rw_get(struct srdma_xprt *sx, struct srdma_rw *spare, unsigned int nents)
{
	struct srdma_rw *rw;

	if (spare && !spare->busy) {
		if (srdma_rw_init_table(spare, nents))
			return NULL;
		spare->busy = true;
		return spare;
	}
	spin_lock(&sx->rw_lock);
	rw = list_first_entry_or_null(&sx->rw_free, struct srdma_rw, node);
	if (rw) {
		list_del(&rw->node);
		sx->rw_free_count--;
	}
	spin_unlock(&sx->rw_lock);
	if (!rw) {
		rw = kmalloc(sizeof(*rw), GFP_KERNEL);
		if (!rw)
			return NULL;
		rw->embedded = false;
		rw->kept_sgl = NULL;
	}
	if (srdma_rw_init_table(rw, nents)) {
		srdma_rw_free(rw);
		return NULL;
	}
	return rw;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_get);

/**
 * srdma_rw_put - give back a context no work request uses any more
 * @sx: the connection
 * @rw: context from srdma_rw_get(), its DMA mapping undone
 *
 * An owner's own context is free again; any other goes on the
 * connection's free list while that holds fewer than twice the
 * connection's credits, else it is freed.
 */
VISIBLE_IF_KUNIT __always_inline void srdma_rw_put(struct srdma_xprt *sx,
						   struct srdma_rw *rw)
{
	if (unlikely(srdma_rw_table_own(rw)))
		sg_free_table(&rw->sgt);
	if (rw->embedded) {
		rw->busy = false;
		return;
	}
	spin_lock(&sx->rw_lock);
	if (sx->rw_free_count < 2 * sx->max_requests) {
		list_add(&rw->node, &sx->rw_free);
		sx->rw_free_count++;
		rw = NULL;
	}
	spin_unlock(&sx->rw_lock);
	if (rw)
		srdma_rw_free(rw);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_put);

/**
 * srdma_rw_init_embedded - make @rw an owner's own context
 * @rw: context inside its owner's structure, which is zeroed
 */
void srdma_rw_init_embedded(struct srdma_rw *rw)
{
	rw->embedded = true;
	rw->busy = false;
	rw->kept_sgl = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_init_embedded);

/**
 * srdma_rw_cache_destroy - free the connection's unused contexts
 * @sx: the connection, whose Reads and Writes have all been released
 */
void srdma_rw_cache_destroy(struct srdma_xprt *sx)
{
	struct srdma_rw *rw, *next;

	list_for_each_entry_safe(rw, next, &sx->rw_free, node)
		srdma_rw_free(rw);
	INIT_LIST_HEAD(&sx->rw_free);
	sx->rw_free_count = 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_rw_cache_destroy);

/*
 * Prepare the RDMA Read or Write of @len bytes of @xdr from @offset, or
 * with @xdr NULL of the page vector @pages from byte @offset, to or from
 * the remote segment @seg (DMA_TO_DEVICE for a Write, DMA_FROM_DEVICE
 * for a Read).  Return: the DMA-mapped context, or an ERR_PTR().
 */
static struct srdma_rw *srdma_rw_create(struct srdma_xprt *sx,
					struct srdma_rw *spare,
					const struct xdr_buf *xdr,
					struct page **pages,
					unsigned int offset, unsigned int len,
					const struct rpcrdma_segment *seg,
					enum dma_data_direction dir)
{
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS] __uninitialized;
	unsigned int nents;
	struct srdma_rw *rw;
	int nparts, rc;

	if (!xdr) {
		nents = srdma_rw_pages_nents(offset, len);
		rw = srdma_rw_get(sx, spare, nents);
		if (!rw)
			return ERR_PTR(-ENOMEM);
		srdma_rw_fill_pages(rw->sgt.sgl, pages, offset, len);
		goto init;
	}
	nparts = rpcrdma_xdr_range_parts(xdr, offset, len, part);
	if (nparts <= 0)
		return ERR_PTR(-EINVAL);
	nents = rpcrdma_xdr_parts_runs(part, nparts, 1);
	rw = srdma_rw_get(sx, spare, nents);
	if (!rw)
		return ERR_PTR(-ENOMEM);
	if (!srdma_rw_fill_sg(rw->sgt.sgl, nents, part, nparts)) {
		/* The count and the walk disagree: never post that. */
		srdma_rw_put(sx, rw);
		return ERR_PTR(-EIO);
	}
init:
	rw->nents = nents;
	rw->dir = dir;
	rc = rdma_rw_ctx_init(&rw->ctx, sx->ib.qp, sx->port_num, rw->sgt.sgl,
			      nents, 0, seg->offset, seg->handle, dir);
	if (rc < 0) {
		srdma_rw_put(sx, rw);
		return ERR_PTR(rc);
	}
	rw->nr_wrs = rc;
	return rw;
}

/* Release a context whose work requests completed or were never posted. */
static void srdma_rw_destroy(struct srdma_xprt *sx, struct srdma_rw *rw)
{
	rdma_rw_ctx_destroy(&rw->ctx, sx->ib.qp, sx->port_num, rw->sgt.sgl,
			    rw->nents, rw->dir);
	srdma_rw_put(sx, rw);
}

/**
 * __srdma_rw_destroy_list - release every context on a non-empty list
 * @sx: the connection
 * @rws: list of struct srdma_rw
 *
 * See srdma_rw_destroy_list().
 */
void __srdma_rw_destroy_list(struct srdma_xprt *sx, struct list_head *rws)
{
	struct srdma_rw *rw, *next;

	/* Every entry goes: no unlinking them one by one. */
	list_for_each_entry_safe(rw, next, rws, node)
		srdma_rw_destroy(sx, rw);
	INIT_LIST_HEAD(rws);
}

/**
 * srdma_rw_segments - prepare moving bytes to or from a chunk's segments
 * @sx: the connection
 * @rws: list the contexts are added to
 * @spare: the owner's own context, used first while it is free, or NULL
 * @xdr: local memory, or NULL for the page vector @pages
 * @pages: local memory if @xdr is NULL
 * @offset: first byte of @xdr, or of @pages counted from the start of
 *	@pages[0]
 * @len: bytes to move
 * @chunk: the remote chunk
 * @chunk_off: bytes of @chunk already used: the move starts after them
 *	and fills the segments in order
 * @dir: DMA_TO_DEVICE (Write, Reply chunk) or DMA_FROM_DEVICE (Read)
 *
 * What srdma_rw_chunk() and srdma_rw_read_pages() do.
 *
 * Return: 0; -EMSGSIZE if the bytes do not fit in @chunk; or -errno.
 */
int srdma_rw_segments(struct srdma_xprt *sx, struct list_head *rws,
		      struct srdma_rw *spare, const struct xdr_buf *xdr,
		      struct page **pages, unsigned int offset,
		      unsigned int len, const struct rpcrdma_chunk *chunk,
		      unsigned int chunk_off, enum dma_data_direction dir)
{
	unsigned int i;

	if (chunk_off > chunk->length || len > chunk->length - chunk_off)
		return -EMSGSIZE;
	for (i = 0; i < chunk->nsegs && len; i++) {
		struct rpcrdma_segment seg = chunk->segs[i];
		struct srdma_rw *rw;
		unsigned int n;

		if (chunk_off >= seg.length) {
			chunk_off -= seg.length;
			continue;
		}
		seg.offset += chunk_off;
		seg.length -= chunk_off;
		chunk_off = 0;
		n = min(len, seg.length);
		rw = srdma_rw_create(sx, spare, xdr, pages, offset, n, &seg,
				     dir);
		if (IS_ERR(rw))
			return PTR_ERR(rw);
		list_add_tail(&rw->node, rws);
		offset += n;
		len -= n;
	}
	return 0;
}

/**
 * srdma_rw_chunk - prepare moving bytes to or from the segments of a chunk
 * @sx: the connection
 * @rws: list the contexts are added to
 * @spare: the owner's own context, used first while it is free, or NULL
 * @xdr: local memory
 * @offset: first byte of @xdr
 * @len: bytes to move
 * @chunk: the remote chunk
 * @chunk_off: bytes of @chunk already used: the move starts after them
 *	and fills the segments in order
 * @dir: DMA_TO_DEVICE (Write, Reply chunk) or DMA_FROM_DEVICE (Read)
 *
 * Return: 0; -EMSGSIZE if the bytes do not fit in @chunk; or -errno.
 */
int srdma_rw_chunk(struct srdma_xprt *sx, struct list_head *rws,
		   struct srdma_rw *spare, const struct xdr_buf *xdr,
		   unsigned int offset,
		   unsigned int len, const struct rpcrdma_chunk *chunk,
		   unsigned int chunk_off, enum dma_data_direction dir)
{
	unsigned int pos;

	if (srdma_rw_in_pages(xdr, offset, len, &pos))
		return srdma_rw_segments(sx, rws, spare, NULL, xdr->pages,
					 pos, len, chunk, chunk_off, dir);
	return srdma_rw_segments(sx, rws, spare, xdr, NULL, offset, len,
				 chunk, chunk_off, dir);
}

/**
 * srdma_rw_chain - chain the work requests of a list of contexts
 * @sx: the connection
 * @rws: contexts, in the order their work requests are to run
 * @cqe: completion for the last work request, or NULL (unsignaled)
 * @next: work request to chain after them, or NULL
 * @nr_wrs: incremented by the number of work requests in the chain
 *
 * Return: the first work request of the chain (@next if @rws is empty).
 */
struct ib_send_wr *srdma_rw_chain(struct srdma_xprt *sx,
				  struct list_head *rws, struct ib_cqe *cqe,
				  struct ib_send_wr *next, unsigned int *nr_wrs)
{
	struct ib_send_wr *first = next;
	struct srdma_rw *rw;

	list_for_each_entry_reverse(rw, rws, node) {
		first = rdma_rw_ctx_wrs(&rw->ctx, sx->ib.qp, sx->port_num, cqe,
					first);
		cqe = NULL;
		*nr_wrs += rw->nr_wrs;
	}
	return first;
}

/**
 * srdma_sq_wait_verdict - how a reply's wait for Send Queue room stands
 * @since: when the reply began to wait (jiffies)
 * @now: the time now (jiffies)
 * @last: when the Send Queue last retired an entry (jiffies)
 * @bound: the longest a reply may wait in all (sq_stall_timeout)
 *
 * The bound is on the whole wait, counted from @since.  Entries retired
 * meanwhile that never leave the reply room enough do not restart it:
 * a client that lets a few retire every little while, short of the
 * bound each time, would otherwise keep every nfsd thread that replies
 * to it waiting, round after round.  @last only tells, once the bound
 * is reached, whether the queue retired anything at all; an entry
 * retired in the tick the wait began counts as retired before it.
 *
 * Return: %SRDMA_SQ_WAIT while less than @bound has passed since
 * @since; then %SRDMA_SQ_STALLED if nothing was retired after @since,
 * else %SRDMA_SQ_SLOW.
 */
VISIBLE_IF_KUNIT enum srdma_sq_verdict
srdma_sq_wait_verdict(unsigned long since, unsigned long now,
		      unsigned long last, unsigned long bound)
{
	if (time_before(now, since + bound))
		return SRDMA_SQ_WAIT;
	return time_after(last, since) ? SRDMA_SQ_SLOW : SRDMA_SQ_STALLED;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_sq_wait_verdict);

/* Jiffies left of a wait that began at @since and may last @bound. */
static long srdma_sq_wait_left(unsigned long since, unsigned long bound)
{
	long left = (long)(since + bound - jiffies);

	return left > 0 ? left : 0;
}

/* The wait reached its bound without room: close the connection. */
static void srdma_sq_give_up(struct srdma_xprt *sx, enum srdma_sq_verdict v)
{
	if (!test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
		srdma_stat_add(SRDMA_STAT_SQ_STALL, 1);
	pr_warn_ratelimited("svcrdma: %s: a reply waited %u ms for Send Queue room, %s: closing the connection\n",
			    sx->xprt.xpt_remotebuf,
			    jiffies_to_msecs(sx->sq_stall_timeout),
			    v == SRDMA_SQ_STALLED ? "none retired" :
						    "too few retired");
	srdma_close(sx, "Send Queue stalled");
}

/**
 * srdma_sq_reserve_wait - reserve Send Queue entries, waiting for room
 * @sx: the connection
 * @n: work requests about to be posted
 * @cid: completion ID of the work requests, for the trace
 *
 * The slow path of srdma_sq_reserve(), whose attempt to take @n entries
 * found too few: that attempt is undone first.
 *
 * A legitimate client lets the Send Queue retire entries within
 * milliseconds.  One that stops posting Receives (with unlimited RNR
 * retries, which its connect request gives our QP on InfiniBand and
 * RoCE) or stops acknowledging lets it retire none, and one that posts
 * a few now and then lets it retire a few; either would pin every nfsd
 * thread that replies to it.  So the wait ends, and the connection is
 * closed, once it has lasted sx->sq_stall_timeout in all without room
 * (srdma_sq_wait_verdict()).
 *
 * A caller that waited queues the transport again: while anyone waits,
 * srdma_has_wspace() holds back the Calls already received, and a
 * backchannel sender is no nfsd thread that would queue it on release.
 *
 * Return: 0; -ENOTCONN if the connection closes, or the wait reaches
 * its bound; -E2BIG if @n can never fit.
 */
int srdma_sq_reserve_wait(struct srdma_xprt *sx, unsigned int n,
			  const struct rpcrdma_cid *cid)
{
	unsigned long since = jiffies;
	enum srdma_sq_verdict v;

	if (n > sx->sq_budget)
		return -E2BIG;
	for (;;) {
		atomic_add(n, &sx->sq_avail);
		srdma_stat_add(SRDMA_STAT_SQ_STARVE, 1);
		atomic_long_inc(&sx->conn.sq_waits);
		trace_svcrdma_sq_full(sx, cid);
		wait_event_timeout(sx->sq_wait,
				   atomic_read(&sx->sq_avail) >= (int)n ||
				   test_bit(XPT_CLOSE, &sx->xprt.xpt_flags),
				   srdma_sq_wait_left(since,
						      sx->sq_stall_timeout));
		if (test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
			return -ENOTCONN;
		if (atomic_sub_return(n, &sx->sq_avail) >= 0)
			break;
		v = srdma_sq_wait_verdict(since, jiffies,
					  READ_ONCE(sx->sq_progress),
					  sx->sq_stall_timeout);
		if (v != SRDMA_SQ_WAIT) {
			atomic_add(n, &sx->sq_avail);
			srdma_sq_give_up(sx, v);
			return -ENOTCONN;
		}
		trace_svcrdma_sq_retry(sx, cid);
	}
	srdma_requeue(sx);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_sq_reserve_wait);
