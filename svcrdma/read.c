// SPDX-License-Identifier: GPL-2.0
/*
 * Server Read path: pulling a Call's Read chunks with RDMA Read.  The
 * nfsd thread that received the Call plans where each byte goes
 * (call_layout.c), allocates the pages the Call is rebuilt in, copies
 * the inline pieces and XDR pads into them, posts the Reads and goes on
 * to other work.  The completion queues the Call on rx_read_done, and
 * the next srdma_recvfrom() points rq_arg at those pages and hands the
 * finished Call to nfsd.  The pages belong to the Read's state (struct
 * srdma_read), not to either thread, and go when nfsd releases the
 * Call; the state stays with its Receive as a spare for its next Call.
 * The pages count against the connection's limit and the server's
 * read_budget while the Reads are in flight (read_budget.c): a Call
 * that would pass either waits, held, for pages to come back.
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rpcrdma/compat.h>

#include "server.h"
#include "trace.h"

/* Copy @len bytes (or zeroes if @src is NULL) to byte @pos of @pages. */
static void srdma_copy_to_pages(struct page **pages, unsigned int pos,
				const void *src, unsigned int len)
{
	while (len) {
		struct page *page = pages[pos >> PAGE_SHIFT];
		unsigned int off = offset_in_page(pos);
		unsigned int n = min_t(unsigned int, len, PAGE_SIZE - off);

		if (src) {
			memcpy_to_page(page, off, src, n);
			src += n;
		} else {
			memzero_page(page, off, n);
		}
		pos += n;
		len -= n;
	}
}

/*
 * The state of @rc's Reads for a Call of @npages pages: the spare one of
 * an earlier Call if it has room, else a new one.  It holds no pages
 * yet, and its layout is the caller's to write.
 */
static __always_inline struct srdma_read *
srdma_read_state(struct srdma_recv *rc, unsigned int npages)
{
	struct srdma_read *rd = rc->read_spare;
	unsigned int max_pages;

	rc->read_spare = NULL;
	if (rd && rd->max_pages >= npages) {
		max_pages = rd->max_pages;
		/*
		 * It holds no pages (srdma_read_drop_pages() saw to that),
		 * its layout is written by the caller and its own context
		 * is free again: only what comes before the layout.
		 */
		memset(rd, 0, offsetof(struct srdma_read, lo));
	} else {
		srdma_read_free(rd);
		max_pages = max_t(unsigned int, npages, SRDMA_READ_MIN_PAGES);
		rd = kzalloc(struct_size(rd, pages, max_pages), GFP_KERNEL);
		if (!rd)
			return NULL;
		srdma_rw_init_embedded(&rd->rw);
	}
	rd->max_pages = max_pages;
	rd->rc = rc;
	INIT_LIST_HEAD(&rd->rws);
	return rd;
}

/*
 * The state of @rc's Reads for a Call laid out as @lo (srdma_read_state()),
 * with a copy of @lo.
 */
VISIBLE_IF_KUNIT struct srdma_read *srdma_read_get(struct srdma_recv *rc,
						   const struct srdma_call_layout *lo)
{
	struct srdma_read *rd = srdma_read_state(rc, lo->npages);

	if (rd)
		srdma_call_layout_copy(&rd->lo, lo);
	return rd;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_get);

/*
 * @rd's contexts are gone: keep it as @rc's spare, with the pages of a
 * finished Call until nfsd releases it (srdma_read_drop_pages()).
 */
VISIBLE_IF_KUNIT void srdma_read_put(struct srdma_recv *rc,
				     struct srdma_read *rd)
{
	if (rc->read_spare)
		srdma_read_free(rd);
	else
		rc->read_spare = rd;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_put);

/* @rd holds no page any more: its entries are NULL again. */
static void srdma_read_clear_pages(struct srdma_read *rd)
{
	struct page **pp = rd->pages, **end = pp + rd->nr_pages;

	/* Stores, not a memset: one instruction per entry, not eight. */
	while (pp < end)
		WRITE_ONCE(*pp++, NULL);
	rd->nr_pages = 0;
}

/**
 * srdma_read_drop_pages - give back the pages a Read's state holds
 * @rd: the Read's state
 *
 * In one batch; its page entries are all NULL again, as
 * srdma_read_alloc_pages() needs them.
 */
void srdma_read_drop_pages(struct srdma_read *rd)
{
	if (!rd->nr_pages)
		return;
	release_pages(rd->pages, rd->nr_pages);
	srdma_read_clear_pages(rd);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_drop_pages);

/**
 * srdma_read_free - free a Read's state, with the pages it still holds
 * @rd: the state, none of whose contexts a work request uses; or NULL
 */
void srdma_read_free(struct srdma_read *rd)
{
	if (!rd)
		return;
	srdma_read_drop_pages(rd);
	srdma_rw_free_table(&rd->rw);
	kfree(rd);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_free);

/**
 * srdma_read_recycle_pages - give a released Call's pages to the stash
 * @sx: the connection
 * @rd: the Call's Read state
 *
 * As srdma_read_drop_pages(), but the connection keeps what it can for
 * its next Calls (srdma_read_stash_give()).
 */
void srdma_read_recycle_pages(struct srdma_xprt *sx, struct srdma_read *rd)
{
	unsigned int left;

	left = srdma_read_stash_give(sx, rd->pages, rd->nr_pages);
	if (left)
		release_pages(rd->pages, left);
	srdma_read_clear_pages(rd);
}

/*
 * The pages @rd's Call is rebuilt in: those the connection kept from
 * its earlier Calls, then in bulk, and one at a time (with reclaim) for
 * what that leaves, as svc_alloc_arg() would for the thread.
 * Return: 0 or -ENOMEM, @rd holding what it got either way.
 */
static int srdma_read_alloc_pages(struct srdma_xprt *sx,
				  struct srdma_read *rd)
{
	unsigned int i, n = rd->lo.npages;

	/* The bulk allocation fills what the stash leaves (read_stash.c). */
	rd->nr_pages = srdma_read_stash_take(sx, rd->pages, n);
	if (rd->nr_pages < n)
		rd->nr_pages = alloc_pages_bulk(GFP_KERNEL, n, rd->pages);
	for (i = rd->nr_pages; i < n; i++) {
		rd->pages[i] = alloc_page(GFP_KERNEL);
		if (!rd->pages[i])
			return -ENOMEM;
		rd->nr_pages++;
	}
	return 0;
}

/* @rd's pages are no longer in flight: give them back to the budget, once. */
static inline void srdma_read_settle(struct srdma_xprt *sx,
				     struct srdma_read *rd)
{
	unsigned int n = rd->charged;

	rd->charged = 0;
	srdma_read_uncharge(sx, n);
}

/**
 * srdma_read_release - undo a Read's state
 * @sx: the connection, whose QP still exists
 * @rd: the Read: its pages leave the count of Reads in flight if they
 *	are still in it, its contexts are destroyed, its pages dropped,
 *	and the rest kept as its Receive's spare
 */
void srdma_read_release(struct srdma_xprt *sx, struct srdma_read *rd)
{
	srdma_read_settle(sx, rd);
	srdma_rw_destroy_list(sx, &rd->rws);
	srdma_read_drop_pages(rd);
	srdma_read_put(rd->rc, rd);
}

/**
 * srdma_read_done - the completion of a Call's last RDMA Read
 * @cq: the Send completion queue
 * @wc: the completion
 *
 * The Reads' pages leave the count of Reads in flight, and the Call
 * goes to rx_read_done for srdma_recvfrom() to finish (or to close the
 * connection, if they failed); Calls held for pages are tried again.
 */
VISIBLE_IF_KUNIT void srdma_read_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srdma_read *rd = container_of(wc->wr_cqe, struct srdma_read,
					     cqe);
	struct srdma_recv *rc = rd->rc;
	struct srdma_xprt *sx = rc->sx;

	if (wc->status == IB_WC_SUCCESS)
		trace_svcrdma_wc_read(&rd->cid, rd->bytes, rd->posted);
	else if (wc->status == IB_WC_WR_FLUSH_ERR)
		trace_svcrdma_wc_read_flush(wc, &rd->cid);
	else
		trace_svcrdma_wc_read_err(wc, &rd->cid);
	if (wc->status != IB_WC_SUCCESS)
		rpcrdma_conn_wc(&sx->conn, wc);
	rd->status = wc->status;
	srdma_sq_release(sx, rd->nr_wrs);
	/* The pages go with the Call now: they are no Reads in flight. */
	srdma_read_settle(sx, rd);

	spin_lock(&sx->rx_lock);
	list_move_tail(&rc->node, &sx->rx_read_done);
	/* Held Calls may fit now (srdma_read_hold()). */
	sx->read_retry = true;
	spin_unlock(&sx->rx_lock);
	set_bit(XPT_DATA, &sx->xprt.xpt_flags);
	svc_xprt_enqueue(&sx->xprt);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_done);

/* Bytes the Read contexts on @rws move. */
static unsigned int srdma_read_bytes(const struct list_head *rws)
{
	const struct srdma_rw *rw;
	struct scatterlist *sg;
	unsigned int bytes = 0;
	int i;

	list_for_each_entry(rw, rws, node)
		for_each_sg(rw->sgt.sgl, sg, rw->nents, i)
			bytes += sg->length;
	return bytes;
}

/*
 * Reads of @rd went out before a post failed: nothing will report when
 * they are done landing in its pages, so the whole state, its contexts,
 * their mappings and its pages, stays until srdma_read_release_orphans()
 * after the drain.
 */
VISIBLE_IF_KUNIT void srdma_read_orphan(struct srdma_xprt *sx,
					struct srdma_read *rd)
{
	spin_lock(&sx->send_lock);
	list_add_tail(&rd->orphan, &sx->read_orphans);
	spin_unlock(&sx->send_lock);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_orphan);

/**
 * srdma_read_release_orphans - release the Reads that were posted in part
 * @sx: the connection, whose QP is drained but still exists
 */
void srdma_read_release_orphans(struct srdma_xprt *sx)
{
	struct srdma_read *rd, *next;

	list_for_each_entry_safe(rd, next, &sx->read_orphans, orphan) {
		list_del(&rd->orphan);
		srdma_read_settle(sx, rd);
		srdma_rw_destroy_list(sx, &rd->rws);
		srdma_read_free(rd);
	}
}
EXPORT_SYMBOL_IF_KUNIT(srdma_read_release_orphans);

/*
 * Post the Reads of @rd, the Reads of @rc's Call.  Return: 0, with the
 * completion to come, or -errno, with @rd released (or orphaned, if
 * Reads went out before a failed one) and @rc->read NULL.
 */
static int srdma_read_post(struct srdma_xprt *sx, struct srdma_recv *rc,
			   struct srdma_read *rd)
{
	const struct ib_send_wr *bad;
	struct ib_send_wr *first;
	bool watch;
	int err;

	rd->cqe.done = srdma_read_done;
	rpcrdma_cid_init(&rd->cid, sx->ib.send_cq,
			 atomic_inc_return(&sx->next_cid));
	rd->nr_wrs = 0;
	first = srdma_rw_chain(sx, &rd->rws, &rd->cqe, NULL, &rd->nr_wrs);
	err = srdma_sq_reserve(sx, rd->nr_wrs, &rd->cid);
	if (err) {
		trace_svcrdma_sq_post_err(sx, &rd->cid, err);
		goto out_release;
	}
	rd->bytes = 0;
	rd->posted = 0;
	if (trace_svcrdma_wc_read_enabled()) {
		rd->bytes = srdma_read_bytes(&rd->rws);
		rd->posted = ktime_get();
	}
	trace_svcrdma_post_read_chunk(&rd->cid, rd->nr_wrs);
	/* The completion moves it to rx_read_done. */
	rd->since = jiffies;
	rc->read = rd;
	spin_lock(&sx->rx_lock);
	list_add_tail(&rc->node, &sx->rx_reading);
	/* Its age is watched from now on (srdma_read_watch_check()). */
	watch = !sx->read_watching;
	sx->read_watching = true;
	spin_unlock(&sx->rx_lock);
	if (unlikely(watch))
		srdma_read_watch_start(sx);
	err = ib_post_send(sx->ib.qp, first, &bad);
	if (err) {
		spin_lock(&sx->rx_lock);
		list_del(&rc->node);
		spin_unlock(&sx->rx_lock);
		rc->read = NULL;
		trace_svcrdma_sq_post_err(sx, &rd->cid, err);
		/* The signaled last Read was not posted: nothing will report. */
		srdma_close(sx, "RDMA Read post failed");
		srdma_sq_release(sx, rd->nr_wrs);
		if (bad != first) {
			srdma_read_orphan(sx, rd);
			return err;
		}
		goto out_release;
	}
	srdma_stat_add(SRDMA_STAT_SQ_PROD, 1);
	return 0;

out_release:
	srdma_read_release(sx, rd);
	return err;
}

/*
 * Put the pieces of @rd's layout in its pages: copy the inline ones and
 * the XDR pads, and add an RDMA Read for the others to its list.
 */
static int srdma_call_fill(struct srdma_xprt *sx, struct srdma_recv *rc,
			   struct srdma_read *rd)
{
	const struct rpcrdma_chunk_lists *cl = &rc->hdr.lists;
	const void *inl = rc->rb.buf + rc->hdr.hdr_len;
	const struct srdma_call_layout *lo = &rd->lo;
	struct page **pages = rd->pages;
	unsigned int i;
	int err = 0;

	for (i = 0; i < lo->nr_pieces && !err; i++) {
		const struct srdma_piece *p = &lo->pieces[i];

		/* The plan keeps within its pages; never write past them. */
		if (WARN_ON_ONCE(p->pos + p->len > lo->npages << PAGE_SHIFT))
			return -EIO;
		switch (p->src) {
		case SRDMA_PIECE_INLINE:
			srdma_copy_to_pages(pages, p->pos, inl + p->from,
					    p->len);
			break;
		case SRDMA_PIECE_CALL:
			err = srdma_rw_read_pages(sx, &rd->rws, &rd->rw,
						  pages, p->pos, p->len,
						  &cl->read[0], p->from);
			break;
		case SRDMA_PIECE_CHUNK:
			err = srdma_rw_read_pages(sx, &rd->rws, &rd->rw,
						  pages, p->pos, p->len,
						  &cl->read[p->chunk], 0);
			break;
		case SRDMA_PIECE_PAD:
			srdma_copy_to_pages(pages, p->pos, NULL, p->len);
			break;
		}
	}
	return err;
}

/*
 * A data item (an NFS WRITE's payload) was read to the start of @rd's
 * pages: rq_arg's head and tail stay in the Receive buffer on either
 * side of it.  Nothing is copied, and the upper layer gets whole pages.
 */
static void srdma_arg_data_item(struct svc_rqst *rqstp, struct srdma_recv *rc,
				struct srdma_read *rd)
{
	const struct srdma_call_layout *lo = &rd->lo;
	void *inl = rc->rb.buf + rc->hdr.hdr_len;
	struct xdr_buf *arg = &rqstp->rq_arg;

	arg->head[0].iov_base = inl;
	arg->head[0].iov_len = lo->head_len;
	arg->pages = rd->pages;
	arg->page_base = 0;
	arg->page_len = lo->len - rc->hdr.inline_len;
	arg->tail[0].iov_base = inl + lo->head_len;
	arg->tail[0].iov_len = rc->hdr.inline_len - lo->head_len;
	arg->len = lo->len;
	arg->buflen = lo->len;
}

/* The whole Call was rebuilt in @rd's pages. */
static void srdma_arg_assembled(struct svc_rqst *rqstp, struct srdma_read *rd)
{
	const struct srdma_call_layout *lo = &rd->lo;
	struct xdr_buf *arg = &rqstp->rq_arg;

	arg->head[0].iov_base = page_address(rd->pages[0]);
	arg->head[0].iov_len = lo->head_len;
	arg->pages = rd->pages + 1;
	arg->page_base = 0;
	arg->page_len = lo->len - lo->head_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->buflen = lo->npages << PAGE_SHIFT;
	arg->len = lo->len;
}

/**
 * srdma_read_start - start pulling a Call's Read chunks
 * @sx: the connection
 * @rc: the Call's Receive, its header decoded
 * @retried: @rc was held back before (srdma_read_hold()) and comes from
 *	rx_read_wait
 *
 * Where each byte goes is planned first (call_layout.c); the Reads land
 * in pages of the Read's own, so the thread keeps its rq_pages.  The
 * commonest Call, an RDMA_MSG with one data item (an NFS WRITE), is
 * planned straight into the Read's state.  The pages are counted as
 * Reads in flight before they are allocated (srdma_read_charge()); a
 * Call they do not fit, or one that comes while Calls are held, is held
 * too, and nothing is allocated for it.
 *
 * Return: 0 with the Reads posted (@rc comes back through rx_read_done);
 * -EAGAIN with @rc held on rx_read_wait (it comes back through
 * srdma_recvfrom() once pages of Reads come back); or another -errno
 * with none of them in flight on @rc's behalf: nothing was posted, or a
 * chain posted in part was orphaned until the drain and the connection
 * is closing.
 */
int srdma_read_start(struct srdma_xprt *sx, struct srdma_recv *rc,
		     bool retried)
{
	const struct rpcrdma_chunk_lists *cl = &rc->hdr.lists;
	unsigned int max_mesg = sx->xprt.xpt_server->sv_max_mesg;
	/* Written where used: no clearing its 500 bytes on every Call. */
	struct srdma_call_layout lo __uninitialized;
	enum srdma_read_verdict verdict;
	struct srdma_read *rd;
	int npages, err;
	bool item;

	if (srdma_should_fail(SRDMA_FAIL_READ_CHUNKS))
		return -ENOMEM;
	/* Behind the Calls held already, in the order they came. */
	if (!retried && unlikely(!list_empty(&sx->rx_read_wait))) {
		srdma_read_hold(sx, rc, 0, SRDMA_READ_QUEUED, false);
		return -EAGAIN;
	}
	item = rc->hdr.proc == RPCRDMA_MSG && cl->nr_read_chunks == 1;
	if (item) {
		npages = srdma_data_item_pages(&cl->read[0],
					       rc->hdr.inline_len, max_mesg);
		if (npages < 0)
			return npages;
	} else {
		err = srdma_call_layout(cl, rc->hdr.proc, rc->hdr.inline_len,
					max_mesg, &lo);
		if (err)
			return err;
		npages = lo.npages;
	}
	verdict = srdma_read_charge(sx, npages);
	if (unlikely(verdict != SRDMA_READ_GO)) {
		srdma_read_hold(sx, rc, npages, verdict, retried);
		return -EAGAIN;
	}

	if (item) {
		rd = srdma_read_state(rc, npages);
		if (rd)
			srdma_layout_data_item(&rd->lo, &cl->read[0],
					       rc->hdr.inline_len, npages);
	} else {
		rd = srdma_read_get(rc, &lo);
	}
	if (!rd) {
		srdma_read_uncharge(sx, npages);
		return -ENOMEM;
	}
	rd->charged = npages;

	err = srdma_read_alloc_pages(sx, rd);
	if (!err)
		err = srdma_call_fill(sx, rc, rd);
	if (err) {
		srdma_read_release(sx, rd);
		/* Calls held for these pages may go now. */
		if (!list_empty(&sx->rx_read_wait))
			srdma_read_kick(sx);
		return err;
	}
	return srdma_read_post(sx, rc, rd);
}

/**
 * srdma_read_finish - complete a Call whose Reads have completed
 * @sx: the connection
 * @rqstp: the request: rq_arg gets the Call, in the Read's pages
 * @rc: the Call's Receive, with its Read state
 *
 * The pages stay with the Read's state, @rc's spare now, until nfsd
 * releases the Call (srdma_recv_put()); the thread's own rq_pages are
 * all free for the reply.
 *
 * Return: 0, or -EIO if the Reads failed (the connection is closing).
 */
int srdma_read_finish(struct srdma_xprt *sx, struct svc_rqst *rqstp,
		      struct srdma_recv *rc)
{
	const struct rpcrdma_chunk_lists *cl = &rc->hdr.lists;
	struct srdma_read *rd = rc->read;
	unsigned int i, bytes = 0;

	rc->read = NULL;
	if (rd->status != IB_WC_SUCCESS) {
		srdma_read_release(sx, rd);
		srdma_close(sx, "RDMA Read failed");
		return -EIO;
	}
	/* Unmapped first, so the CPU sees what the device wrote. */
	srdma_rw_destroy_list(sx, &rd->rws);
	if (rd->lo.form == SRDMA_CALL_DATA_ITEM)
		srdma_arg_data_item(rqstp, rc, rd);
	else
		srdma_arg_assembled(rqstp, rd);
	srdma_read_put(rc, rd);

	srdma_stat_add(SRDMA_STAT_READ, cl->nr_read_chunks);
	if (trace_svcrdma_read_finished_enabled()) {
		for (i = 0; i < cl->nr_read_chunks; i++)
			bytes += cl->read[i].length;
		trace_svcrdma_read_finished(rc, bytes);
	}
	return 0;
}
