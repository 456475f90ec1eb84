// SPDX-License-Identifier: GPL-2.0
/*
 * The scatter list of an RDMA Send: a transport header followed by the
 * inline part of an RPC message, gathered from where the message already
 * is (head, pages, tail).  When the device takes fewer SGEs than that
 * needs, the message is copied after the header instead ("pull-up").
 *
 * Then the FIFO of posted Sends: which ones ask for a completion, and
 * which ones a completion retires.
 */
#include <kunit/visibility.h>
#include <linux/lockdep.h>
#include <linux/mm.h>

#include "rpcrdma/send.h"
#include "rpcrdma/xdr_range.h"

/* The next SGE; @mapped: bytes to unmap when the Send is done, or 0. */
static inline void rpcrdma_send_sges_put(struct rpcrdma_send_sges *ss,
					 u64 addr, unsigned int len,
					 unsigned int mapped)
{
	struct ib_sge *sge = &ss->sge[ss->nr];

	sge->addr = addr;
	sge->length = len;
	sge->lkey = ss->lkey;
	ss->mapped[ss->nr++] = mapped;
	if (mapped)
		ss->nr_mapped++;
}

/*
 * Add an SGE for @len bytes at @kaddr, or at @off in @page if @kaddr is
 * NULL: from the premapped message buffer if they lie in it, else
 * mapped here.
 */
static int rpcrdma_send_sges_map(struct rpcrdma_send_sges *ss,
				 const void *kaddr, struct page *page,
				 unsigned int off, unsigned int len)
{
	unsigned int mapped = 0;
	u64 addr;

	if (ss->nr >= ss->max)
		return -E2BIG;
	if (kaddr && rpcrdma_send_sges_in_buf(ss, kaddr, len)) {
		addr = ss->buf_dma + (kaddr - ss->buf);
		ib_dma_sync_single_for_device(ss->device, addr, len,
					      DMA_TO_DEVICE);
	} else {
		if (kaddr) {
			page = rpcrdma_kaddr_page(kaddr);
			off = offset_in_page(kaddr);
		}
		addr = ib_dma_map_page(ss->device, page, off, len,
				       DMA_TO_DEVICE);
		if (ib_dma_mapping_error(ss->device, addr))
			return -EIO;
		mapped = len;
	}
	rpcrdma_send_sges_put(ss, addr, len, mapped);
	return 0;
}

/* rpcrdma_send_sges_map() of kernel bytes, inline for the premapped. */
static inline int rpcrdma_send_sges_map_kvec(struct rpcrdma_send_sges *ss,
					     const void *kaddr,
					     unsigned int len)
{
	if (ss->nr >= ss->max || !rpcrdma_send_sges_in_buf(ss, kaddr, len))
		return rpcrdma_send_sges_map(ss, kaddr, NULL, 0, len);
	rpcrdma_send_sges_set(ss, ss->nr++, ss->buf_dma + (kaddr - ss->buf),
			      len);
	return 0;
}

/* SGE 0: the first @len bytes of the header buffer @hdr_buf. */
static inline int rpcrdma_send_sges_map_hdr(struct rpcrdma_send_sges *ss,
					    void *hdr_buf, unsigned int len)
{
	if (!ss->hdr_premapped)
		return rpcrdma_send_sges_map(ss, hdr_buf, NULL, 0, len);
	rpcrdma_send_sges_set(ss, 0, ss->hdr_dma, len);
	ss->nr = 1;
	return 0;
}

/**
 * rpcrdma_send_sges_unmap_mapped - undo the DMA mappings this list made
 * @ss: SGEs of a Send that completed or was never posted, some of them
 *	mapped per Send (see rpcrdma_send_sges_unmap())
 */
void rpcrdma_send_sges_unmap_mapped(struct rpcrdma_send_sges *ss)
{
	unsigned int i;

	for (i = 0; i < ss->nr; i++)
		if (ss->mapped[i])
			ib_dma_unmap_page(ss->device, ss->sge[i].addr,
					  ss->mapped[i], DMA_TO_DEVICE);
	ss->nr_mapped = 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_send_sges_unmap_mapped);

/* One SGE per page of a part in the page vector: they need not be adjacent. */
static int rpcrdma_send_sges_map_pages(struct rpcrdma_send_sges *ss,
				       const struct rpcrdma_xdr_part *part)
{
	unsigned int base = part->base, len = part->len, off, n;
	int rc = 0;

	while (!rc && len) {
		off = offset_in_page(base);
		n = min_t(unsigned int, len, PAGE_SIZE - off);
		rc = rpcrdma_send_sges_map(ss, NULL,
					   part->pages[base >> PAGE_SHIFT],
					   off, n);
		base += n;
		len -= n;
	}
	return rc;
}

/* Map the @len bytes of @xdr from @offset as SGEs where they are. */
static int rpcrdma_send_sges_gather(struct rpcrdma_send_sges *ss,
				    const struct xdr_buf *xdr,
				    unsigned int offset, unsigned int len)
{
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS] __uninitialized;
	int i, nparts, rc = 0;

	nparts = rpcrdma_xdr_range_parts(xdr, offset, len, part);
	if (nparts < 0)
		return -EIO;
	for (i = 0; !rc && i < nparts; i++) {
		if (part[i].pages)
			rc = rpcrdma_send_sges_map_pages(ss, &part[i]);
		else
			rc = rpcrdma_send_sges_map(ss, part[i].kaddr, NULL, 0,
						   part[i].len);
	}
	return rc;
}

/*
 * The common inline part: bytes of the head, then bytes of the tail
 * (a call whose page data, if any, travels in a Read chunk), each one
 * SGE.  Return: -EAGAIN if the part is not of that shape.
 */
static int rpcrdma_send_sges_kvecs(struct rpcrdma_send_sges *ss,
				   const struct xdr_buf *xdr,
				   unsigned int split, unsigned int resume,
				   unsigned int tail_len)
{
	const void *tail_at = NULL;
	int rc = 0;

	if (split > xdr->head[0].iov_len)
		return -EAGAIN;
	if (tail_len) {
		tail_at = rpcrdma_xdr_tail_run(xdr, resume, tail_len);
		if (!tail_at)
			return -EAGAIN;
	}
	if (split)
		rc = rpcrdma_send_sges_map_kvec(ss, xdr->head[0].iov_base,
						split);
	if (!rc && tail_len)
		rc = rpcrdma_send_sges_map_kvec(ss, tail_at, tail_len);
	return rc;
}

/*
 * Copy the bytes of @xdr in [0, @split) and the @tail_len from @resume
 * to @to: straight from the head and the tail where they lie there (a
 * short reply, a call's head), else by a walk of the whole buffer.
 */
static void rpcrdma_send_sges_copy(const struct xdr_buf *xdr,
				   unsigned int split, unsigned int resume,
				   unsigned int tail_len, u8 *to)
{
	const void *tail_at;

	if (split > xdr->head[0].iov_len)
		read_bytes_from_xdr_buf(xdr, 0, to, split);
	else if (split)
		memcpy(to, xdr->head[0].iov_base, split);
	if (!tail_len)
		return;
	tail_at = rpcrdma_xdr_tail_run(xdr, resume, tail_len);
	if (tail_at)
		memcpy(to + split, tail_at, tail_len);
	else
		read_bytes_from_xdr_buf(xdr, resume, to + split, tail_len);
}

/**
 * rpcrdma_send_sges_build - SGEs for a header plus the inline message
 * @ss: list prepared with rpcrdma_send_sges_init()
 * @hdr_buf: the encoded transport header
 * @hdr_room: size of the buffer at @hdr_buf: a pull-up copies the inline
 *	message after the header, so it fails if the two do not fit
 * @hdr_len: bytes of transport header in @hdr_buf
 * @xdr: the RPC message
 * @split: end of the first inline part of @xdr
 * @resume: start of the second inline part (which ends at @xdr->len)
 *
 * The bytes of @xdr in [0, @split) and [@resume, len) follow the header;
 * the range between them (a DDP payload moved by RDMA) is left out.  The
 * caller has checked that header and inline message fit the inline
 * threshold.  They are gathered where they lie, or copied after the
 * header (a pull-up) when they are no more than @ss->copy_max bytes or
 * the device takes too few SGEs for them.
 *
 * Return: 0, -EIO, or -EMSGSIZE if the message needs a pull-up that
 * @hdr_room cannot hold; on error nothing is left mapped.
 */
int rpcrdma_send_sges_build(struct rpcrdma_send_sges *ss, void *hdr_buf,
			    size_t hdr_room, unsigned int hdr_len,
			    const struct xdr_buf *xdr, unsigned int split,
			    unsigned int resume)
{
	unsigned int tail_len = resume < xdr->len ? xdr->len - resume : 0;
	int rc;

	ss->nr = 0;
	ss->nr_mapped = 0;
	ss->pulled_up = 0;
	if (split + tail_len <= ss->copy_max &&
	    rpcrdma_send_sges_fits(hdr_room, hdr_len, split + tail_len))
		goto pull_up;
	rc = rpcrdma_send_sges_map_hdr(ss, hdr_buf, hdr_len);
	if (!rc) {
		rc = rpcrdma_send_sges_kvecs(ss, xdr, split, resume, tail_len);
		if (rc == -EAGAIN) {
			rc = rpcrdma_send_sges_gather(ss, xdr, 0, split);
			if (!rc && tail_len)
				rc = rpcrdma_send_sges_gather(ss, xdr, resume,
							      tail_len);
		}
	}
	if (rc != -E2BIG) {
		if (rc)
			rpcrdma_send_sges_unmap(ss);
		return rc;
	}

	/* Too many pieces for this device: copy them after the header. */
	rpcrdma_send_sges_unmap(ss);
	if (!rpcrdma_send_sges_fits(hdr_room, hdr_len, split + tail_len))
		return -EMSGSIZE;
pull_up:
	rpcrdma_send_sges_copy(xdr, split, resume, tail_len,
			       hdr_buf + hdr_len);
	ss->pulled_up = split + tail_len;
	rc = rpcrdma_send_sges_map_hdr(ss, hdr_buf, hdr_len + ss->pulled_up);
	if (rc)
		rpcrdma_send_sges_unmap(ss);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_send_sges_build);

/**
 * rpcrdma_sendq_init - prepare an empty Send FIFO
 * @q: FIFO of a new connection; every Send is signaled until the
 *	caller sets @q->batch
 */
void rpcrdma_sendq_init(struct rpcrdma_sendq *q)
{
	spin_lock_init(&q->lock);
	q->head = NULL;
	q->tail = &q->head;
	q->batch = 0;
	q->unsignaled = 0;
	q->undo = 0;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_sendq_init);

/**
 * rpcrdma_sendq_unadd - take back the last Send queued: its post failed
 * @q: FIFO of the Send Queue; the caller holds @q->lock
 * @e: the entry rpcrdma_sendq_add() queued last
 *
 * A Send that was never posted cannot be retired by a completion; the
 * count of unsignaled Sends goes back to what it was before it.  An
 * entry a drain took off already (rpcrdma_sendq_retire() with no @last)
 * is left alone.  A failed post is rare: the FIFO is walked to unlink.
 */
void rpcrdma_sendq_unadd(struct rpcrdma_sendq *q,
			 struct rpcrdma_sendq_entry *e)
{
	struct rpcrdma_sendq_entry **link = &q->head;

	lockdep_assert_held(&q->lock);
	q->unsignaled = q->undo;
	if (!e->queued)
		return;
	while (*link != e)
		link = &(*link)->next;
	*link = e->next;
	if (!e->next)
		q->tail = link;
	e->next = NULL;
	e->queued = false;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_sendq_unadd);

/**
 * rpcrdma_sendq_retire - take the Sends a completion finished off the FIFO
 * @q: FIFO of the Send Queue
 * @last: the Send that completed or was flushed; NULL once the queue is
 *	drained, to take every Send left
 *
 * The caller then releases what each entry of the chain holds, outside
 * @q->lock, reading an entry's @next before it lets go of the entry: a
 * released entry may be queued again at once, which rewrites @next.
 *
 * Return: the retired entries, oldest first, linked through @next and
 * ending in NULL; NULL if there are none, or if @last was retired
 * already (by a teardown that took every Send).
 */
struct rpcrdma_sendq_entry *
rpcrdma_sendq_retire(struct rpcrdma_sendq *q, struct rpcrdma_sendq_entry *last)
{
	struct rpcrdma_sendq_entry *first, *e;

	spin_lock(&q->lock);
	if (last && !last->queued) {
		spin_unlock(&q->lock);
		return NULL;
	}
	first = q->head;
	if (last) {
		q->head = last->next;
		last->next = NULL;
	} else {
		q->head = NULL;
	}
	if (!q->head)
		q->tail = &q->head;
	for (e = first; e; e = e->next)
		e->queued = false;
	spin_unlock(&q->lock);
	return first;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_sendq_retire);

/**
 * rpcrdma_sendq_oldest_owed - the oldest Send whose completion is owed
 * @q: FIFO of the Send Queue; the caller holds @q->lock
 * @posted: set to when that Send was posted (jiffies)
 *
 * An unsignaled Send stays on the FIFO until a later Send's completion
 * retires it, however long ago it was done: those after the last
 * signaled Send stay there as long as the connection is idle.  A
 * signaled Send on the FIFO is one whose completion has not come.  At
 * most @q->batch - 1 unsignaled Sends come before the first of them,
 * which is all this walks.
 *
 * Return: false if no signaled Send is on the FIFO.
 */
bool rpcrdma_sendq_oldest_owed(const struct rpcrdma_sendq *q,
			       unsigned long *posted)
{
	const struct rpcrdma_sendq_entry *e;

	lockdep_assert_held(&q->lock);
	for (e = q->head; e; e = e->next) {
		if (e->signaled) {
			*posted = e->posted;
			return true;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_sendq_oldest_owed);

/**
 * rpcrdma_sendq_length - how many Sends are on the FIFO
 * @q: FIFO of the Send Queue; the caller holds @q->lock
 *
 * Return: the number of Sends posted and not yet retired.
 */
unsigned int rpcrdma_sendq_length(const struct rpcrdma_sendq *q)
{
	const struct rpcrdma_sendq_entry *e;
	unsigned int n = 0;

	lockdep_assert_held(&q->lock);
	for (e = q->head; e; e = e->next)
		n++;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(rpcrdma_sendq_length);
