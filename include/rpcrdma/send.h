/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Building the scatter list of an RDMA Send, choosing which Sends ask for
 * a completion, and retiring the Sends a completion finishes: shared by
 * the client (calls and backchannel replies) and the server (replies and
 * backchannel calls).
 */
#ifndef _RPCRDMA_SEND_H
#define _RPCRDMA_SEND_H

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/spinlock.h>
#include <linux/sunrpc/xdr.h>
#include <rdma/ib_verbs.h>

#include <rpcrdma/xdr_range.h>

/* Most SGEs one Send uses: header, head, a few pages, tail. */
#define RPCRDMA_MAX_SEND_SGES	8

/**
 * struct rpcrdma_send_sges - the SGEs of one Send and their DMA mappings
 * @device: device the SGEs are mapped for
 * @lkey: local key of the PD (its local_dma_lkey)
 * @max: SGEs the device accepts per Send (at most RPCRDMA_MAX_SEND_SGES)
 * @nr: SGEs in use
 * @nr_mapped: SGEs among them that this list mapped (@mapped not 0)
 * @sge: the SGEs, for ib_send_wr::sg_list
 * @mapped: DMA length this list mapped for each SGE; 0 for an SGE in a
 *	buffer that its owner keeps mapped (rpcrdma_send_sges_unmap()
 *	leaves those alone)
 * @pulled_up: payload bytes copied into the header buffer by the last
 *	rpcrdma_send_sges_build() (0 if everything was gathered in place)
 * @copy_max: an inline message of at most this many bytes is copied
 *	after the header, one SGE, rather than mapped where it lies (0:
 *	only when the device takes too few SGEs).  For small messages
 *	outside any premapped buffer, where a copy costs less than a map
 *	and an unmap (an IOMMU update on most hardware) and the device
 *	reads one SGE instead of two
 * @hdr_premapped: the header buffer stays DMA-mapped at @hdr_dma for as
 *	long as the connection: SGE 0 uses that mapping
 * @hdr_dma: DMA address of the header buffer when @hdr_premapped
 * @buf: a message buffer that stays DMA-mapped, or NULL: inline bytes
 *	that lie within it are sent from that mapping
 * @buf_len: bytes of @buf mapped
 * @buf_dma: DMA address of @buf
 */
struct rpcrdma_send_sges {
	struct ib_device *device;
	u32 lkey;
	unsigned int max;
	unsigned int nr;
	unsigned int nr_mapped;
	struct ib_sge sge[RPCRDMA_MAX_SEND_SGES];
	unsigned int mapped[RPCRDMA_MAX_SEND_SGES];
	unsigned int pulled_up;
	unsigned int copy_max;
	bool hdr_premapped;
	u64 hdr_dma;
	const void *buf;
	size_t buf_len;
	u64 buf_dma;
};

/**
 * rpcrdma_send_sges_init - prepare an empty SGE list
 * @ss: list to prepare
 * @device: device the Send is posted on
 * @lkey: local DMA key of the protection domain
 * @max: SGEs the queue pair was created with
 */
static inline void rpcrdma_send_sges_init(struct rpcrdma_send_sges *ss,
					  struct ib_device *device, u32 lkey,
					  unsigned int max)
{
	ss->device = device;
	ss->lkey = lkey;
	ss->max = min_t(unsigned int, max, RPCRDMA_MAX_SEND_SGES);
	ss->nr = 0;
	ss->nr_mapped = 0;
	ss->pulled_up = 0;
	ss->copy_max = 0;
	ss->hdr_premapped = false;
	ss->buf = NULL;
}

/**
 * rpcrdma_send_sges_premapped_hdr - use a header buffer mapped once
 * @ss: list prepared with rpcrdma_send_sges_init()
 * @hdr_dma: DMA address of the whole header buffer, mapped DMA_TO_DEVICE
 *	on @ss->device by its owner, who unmaps it only after the last
 *	Send that uses it is complete
 *
 * A transport header is rebuilt in the same buffer for every Send, so
 * mapping it once per connection saves a map and an unmap per RPC (an
 * IOMMU update on most hardware); only a sync before each Send remains.
 */
static inline void
rpcrdma_send_sges_premapped_hdr(struct rpcrdma_send_sges *ss, u64 hdr_dma)
{
	ss->hdr_premapped = true;
	ss->hdr_dma = hdr_dma;
}

/**
 * rpcrdma_send_sges_premapped_buf - send from a message buffer mapped once
 * @ss: list prepared with rpcrdma_send_sges_init()
 * @buf: a buffer the message's head and tail usually lie in
 * @len: bytes of @buf mapped
 * @dma: DMA address of @buf, mapped DMA_TO_DEVICE on @ss->device by its
 *	owner, who unmaps it only after the last Send that uses it is
 *	complete
 *
 * An SGE for bytes within [@buf, @buf + @len) then costs a sync of those
 * bytes instead of a map and an unmap; bytes elsewhere (the pages of
 * the upper layer) are mapped as before.
 */
static inline void
rpcrdma_send_sges_premapped_buf(struct rpcrdma_send_sges *ss, const void *buf,
				size_t len, u64 dma)
{
	ss->buf = buf;
	ss->buf_len = len;
	ss->buf_dma = dma;
}

/**
 * rpcrdma_send_sges_worst - most SGEs a header and an inline message take
 * @msg_len: most bytes of RPC message a Send carries after its header
 *
 * For a message gathered from one range of an xdr_buf that starts at
 * its head (rpcrdma_send_sges_build() with @split equal to @resume), or
 * from its head and its tail only (a DDP data item left out): one SGE
 * for the header, one for the head, one for the tail, and one for each
 * page the range touches, which need not be adjacent, so that @msg_len
 * bytes at any offset touch at most (@msg_len + PAGE_SIZE - 2) /
 * PAGE_SIZE + 1 pages.  A device that takes this many SGEs per Send
 * never makes such a Send pull its message up.
 *
 * Return: the number of SGEs.
 */
static inline unsigned int rpcrdma_send_sges_worst(unsigned int msg_len)
{
	unsigned int pages = msg_len ? (msg_len + PAGE_SIZE - 2) / PAGE_SIZE + 1
				     : 0;

	return 3 + pages;
}

int rpcrdma_send_sges_build(struct rpcrdma_send_sges *ss, void *hdr_buf,
			    size_t hdr_room, unsigned int hdr_len,
			    const struct xdr_buf *xdr, unsigned int split,
			    unsigned int resume);
void rpcrdma_send_sges_unmap_mapped(struct rpcrdma_send_sges *ss);

/* Do @hdr_len bytes of header and @len copied after them fit @hdr_room? */
static inline bool rpcrdma_send_sges_fits(size_t hdr_room, unsigned int hdr_len,
					  unsigned int len)
{
	return hdr_len <= hdr_room && len <= hdr_room - hdr_len;
}

/* Does [@kaddr, @kaddr + @len) lie within the premapped message buffer? */
static inline bool rpcrdma_send_sges_in_buf(const struct rpcrdma_send_sges *ss,
					    const void *kaddr,
					    unsigned int len)
{
	size_t off;

	if (!ss->buf || kaddr < ss->buf)
		return false;
	off = kaddr - ss->buf;
	return off <= ss->buf_len && len <= ss->buf_len - off;
}

/*
 * Where the @len bytes of @xdr from @resume lie, if they are all in its
 * tail (the second inline part of a message); else NULL.
 */
static inline const void *rpcrdma_xdr_tail_run(const struct xdr_buf *xdr,
					       unsigned int resume,
					       unsigned int len)
{
	const struct kvec *tail = &xdr->tail[0];
	unsigned int tail_off = xdr->head[0].iov_len + xdr->page_len;

	if (resume < tail_off || resume - tail_off > tail->iov_len ||
	    len > tail->iov_len - (resume - tail_off))
		return NULL;
	return tail->iov_base + (resume - tail_off);
}

/* Set SGE @i to @len bytes at @addr of a premapped buffer, synced. */
static inline void rpcrdma_send_sges_set(struct rpcrdma_send_sges *ss,
					 unsigned int i, u64 addr,
					 unsigned int len)
{
	ib_dma_sync_single_for_device(ss->device, addr, len, DMA_TO_DEVICE);
	ss->sge[i].addr = addr;
	ss->sge[i].length = len;
	ss->sge[i].lkey = ss->lkey;
	ss->mapped[i] = 0;
}

/**
 * rpcrdma_send_sges_premapped - the common Send, from premapped buffers
 * @ss: list prepared with rpcrdma_send_sges_init(), with a premapped
 *	header and message buffer
 * @hdr_len: bytes of transport header in the header buffer
 * @xdr: the RPC message
 * @split: end of the first inline part of @xdr
 * @resume: start of the second inline part (which ends at @xdr->len)
 *
 * The same SGEs rpcrdma_send_sges_build() makes for a message whose
 * inline parts are a run of its head and a run of its tail, both in the
 * premapped message buffer (most calls and replies; the data item of a
 * call with a Read chunk is left out between them): at most three SGEs,
 * nothing mapped, nothing copied.  Inline so that the common Send costs
 * no more than its checks and its SGEs.
 *
 * Return: false, with @ss left alone, for any other message: build it
 * with rpcrdma_send_sges_build().
 */
static __always_inline bool
rpcrdma_send_sges_premapped(struct rpcrdma_send_sges *ss, unsigned int hdr_len,
			    const struct xdr_buf *xdr, unsigned int split,
			    unsigned int resume)
{
	const struct kvec *head = &xdr->head[0];
	unsigned int tail_len = resume < xdr->len ? xdr->len - resume : 0;
	const void *tail_at = NULL;
	unsigned int nr = 1;

	if (!ss->hdr_premapped || ss->max < 3 || split > head->iov_len ||
	    (split && !rpcrdma_send_sges_in_buf(ss, head->iov_base, split)))
		return false;
	if (tail_len) {
		tail_at = rpcrdma_xdr_tail_run(xdr, resume, tail_len);
		if (!tail_at || !rpcrdma_send_sges_in_buf(ss, tail_at, tail_len))
			return false;
	}

	rpcrdma_send_sges_set(ss, 0, ss->hdr_dma, hdr_len);
	if (split)
		rpcrdma_send_sges_set(ss, nr++, ss->buf_dma +
				      (head->iov_base - ss->buf), split);
	if (tail_len)
		rpcrdma_send_sges_set(ss, nr++, ss->buf_dma +
				      (tail_at - ss->buf), tail_len);
	ss->nr = nr;
	ss->nr_mapped = 0;
	ss->pulled_up = 0;
	return true;
}

/**
 * rpcrdma_send_sges_head - the common reply: a header and a head alone
 * @ss: list prepared with rpcrdma_send_sges_init(), with a premapped
 *	header buffer
 * @hdr_buf: the header buffer
 * @hdr_room: size of the buffer at @hdr_buf
 * @hdr_len: bytes of transport header in the header buffer
 * @xdr: the RPC message, sent whole
 *
 * The same SGEs rpcrdma_send_sges_build() makes, with @split and @resume
 * at the end of @xdr, for a message that lies in its head alone, within
 * one page and outside any premapped message buffer (most server
 * replies: nfsd writes them into a page of rq_pages): the header from
 * its premapped buffer, then the head copied after it if it is no
 * longer than @ss->copy_max, else mapped where it is.  No range split
 * and no walk; inline, so that such a reply costs its checks and a copy,
 * or one map and two SGEs.
 *
 * Return: 0; -EIO if the head could not be mapped; -EAGAIN, with @ss
 * left alone, for any other message: build it with
 * rpcrdma_send_sges_build().
 */
static __always_inline int rpcrdma_send_sges_head(struct rpcrdma_send_sges *ss,
						  void *hdr_buf,
						  unsigned int hdr_room,
						  unsigned int hdr_len,
						  const struct xdr_buf *xdr)
{
	const void *head = xdr->head[0].iov_base;
	unsigned int len = xdr->len, off = offset_in_page(head);
	u64 addr;

	if (!ss->hdr_premapped || ss->max < 2 || !len ||
	    len > xdr->head[0].iov_len || off + len > PAGE_SIZE ||
	    rpcrdma_send_sges_in_buf(ss, head, len))
		return -EAGAIN;
	if (len <= ss->copy_max &&
	    rpcrdma_send_sges_fits(hdr_room, hdr_len, len)) {
		memcpy(hdr_buf + hdr_len, head, len);
		rpcrdma_send_sges_set(ss, 0, ss->hdr_dma, hdr_len + len);
		ss->nr = 1;
		ss->nr_mapped = 0;
		ss->pulled_up = len;
		return 0;
	}
	addr = ib_dma_map_page(ss->device, rpcrdma_kaddr_page(head), off, len,
			       DMA_TO_DEVICE);
	if (ib_dma_mapping_error(ss->device, addr))
		return -EIO;
	rpcrdma_send_sges_set(ss, 0, ss->hdr_dma, hdr_len);
	ss->sge[1].addr = addr;
	ss->sge[1].length = len;
	ss->sge[1].lkey = ss->lkey;
	ss->mapped[1] = len;
	ss->nr = 2;
	ss->nr_mapped = 1;
	ss->pulled_up = 0;
	return 0;
}

/**
 * rpcrdma_send_sges_unmap - undo the DMA mappings of a Send's SGEs
 * @ss: SGEs of a Send that completed or was never posted
 *
 * SGEs in a premapped header or message buffer keep their mapping: its
 * owner unmaps it.  Most Sends map nothing (rpcrdma_send_sges_premapped()).
 */
static inline void rpcrdma_send_sges_unmap(struct rpcrdma_send_sges *ss)
{
	unsigned int last = ss->nr - 1;

	/* The commonest: a reply's head, the last SGE (send_sges_head()). */
	if (ss->nr_mapped == 1 && ss->mapped[last]) {
		ib_dma_unmap_page(ss->device, ss->sge[last].addr,
				  ss->mapped[last], DMA_TO_DEVICE);
		ss->nr_mapped = 0;
	} else if (ss->nr_mapped) {
		rpcrdma_send_sges_unmap_mapped(ss);
	}
	ss->nr = 0;
}

/**
 * struct rpcrdma_sendq_entry - a posted Send, until a completion retires it
 * @next: the Send posted after it on the FIFO, then in the chain that
 *	rpcrdma_sendq_retire() returns; NULL for the last
 * @posted: when it was posted (jiffies), if @signaled
 * @queued: on the FIFO: posted and not yet retired
 * @signaled: posted asking for a completion of its own
 */
struct rpcrdma_sendq_entry {
	struct rpcrdma_sendq_entry *next;
	unsigned long posted;
	bool queued;
	bool signaled;
};

/**
 * struct rpcrdma_sendq - the Sends of a Send Queue not yet known complete
 * @lock: keeps the FIFO in posting order; protects @head, @tail,
 *	@unsignaled, @undo and every entry's fields while it is queued
 * @head: the oldest Send posted and not yet retired, first of the FIFO
 *	(singly linked through each entry's @next); NULL when empty
 * @tail: where the next Send is linked: the last entry's @next, or
 *	@head when the FIFO is empty
 * @batch: one Send in this many is signaled (0 or 1: every one)
 * @unsignaled: Sends posted unsignaled since the last signaled one
 * @undo: @unsignaled before the last rpcrdma_sendq_add()
 *
 * Work Requests on a Send Queue complete in the order they were posted,
 * so the completion of a signaled Send, or the flush of any Send, tells
 * that every Send posted before it is done as well.  Each role embeds
 * one per connection and an entry in each of its Send contexts.  The
 * FIFO is singly linked: adding to its end and cutting its front are
 * all a Send needs, and take no call (a list_head's checks are calls
 * into the kernel where it is built with CONFIG_DEBUG_LIST).
 */
struct rpcrdma_sendq {
	spinlock_t lock;	/* posting order of the FIFO */
	struct rpcrdma_sendq_entry *head;
	struct rpcrdma_sendq_entry **tail;
	unsigned int batch;
	unsigned int unsignaled;
	unsigned int undo;
};

void rpcrdma_sendq_init(struct rpcrdma_sendq *q);

/* Should the next Send ask for a completion?  Updates @q->unsignaled. */
static inline bool rpcrdma_send_signal(struct rpcrdma_sendq *q, bool must)
{
	if (must || q->unsignaled + 1 >= q->batch) {
		q->unsignaled = 0;
		return true;
	}
	q->unsignaled++;
	return false;
}

/**
 * rpcrdma_sendq_add - queue a Send that is about to be posted
 * @q: FIFO of the Send Queue; the caller holds @q->lock, and keeps
 *	holding it until the post if other threads may post concurrently
 * @e: the Send's entry
 * @must_signal: this Send needs its own completion
 *
 * One Send in @q->batch is signaled, and every Send that must be.
 * Then at most @q->batch - 1 Sends in a row wait for the completion of
 * a later one, which is what the Send Queue must keep room for.
 *
 * Return: true to post the Send signaled.
 */
static inline bool rpcrdma_sendq_add(struct rpcrdma_sendq *q,
				     struct rpcrdma_sendq_entry *e,
				     bool must_signal)
{
	lockdep_assert_held(&q->lock);
	q->undo = q->unsignaled;
	e->next = NULL;
	*q->tail = e;
	q->tail = &e->next;
	e->queued = true;
	e->signaled = rpcrdma_send_signal(q, must_signal);
	if (e->signaled)
		e->posted = jiffies;
	return e->signaled;
}

void rpcrdma_sendq_unadd(struct rpcrdma_sendq *q,
			 struct rpcrdma_sendq_entry *e);
struct rpcrdma_sendq_entry *
rpcrdma_sendq_retire(struct rpcrdma_sendq *q, struct rpcrdma_sendq_entry *last);
bool rpcrdma_sendq_oldest_owed(const struct rpcrdma_sendq *q,
			       unsigned long *posted);
unsigned int rpcrdma_sendq_length(const struct rpcrdma_sendq *q);

#endif /* _RPCRDMA_SEND_H */
