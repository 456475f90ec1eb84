// SPDX-License-Identifier: GPL-2.0
/*
 * Server send path: srdma_sendto() turns nfsd's reply (rq_res) into
 *
 *  - RDMA Writes of each DDP-eligible result (reported by nfsd through
 *    srdma_result_payload()) into the client's Write chunks, returned
 *    with the bytes actually written and without XDR padding;
 *  - the rest of the reply, inline after an RDMA_MSG header when it fits
 *    the client's receive size, otherwise RDMA-Written into the client's
 *    Reply chunk and announced by an RDMA_NOMSG header;
 *  - RDMA_ERROR/ERR_CHUNK when it fits neither.
 *
 * The Writes are chained before the Send and posted with it, unsignaled.
 * The reply's pages move from the request to the Send context, so nfsd
 * can reuse the request at once, and are released when the Send is
 * retired.  The Send invalidates one of the client's registrations when
 * the client's private data allows it.
 *
 * Not every Send asks for a completion either: a completion costs a CQ
 * poll and, with a workqueue-polled CQ, a context switch.  Work Requests
 * on a Send Queue complete in the order they were posted, so when a
 * signaled Send completes (or any Send is flushed), every Send posted
 * before it is done too.  Posted Sends wait on sx->sendq (the FIFO
 * common/send.c keeps for both roles), in posting order, until such a
 * completion retires them; a Send is signaled once sx->sendq.batch - 1
 * Sends went unsignaled, and always when Writes are
 * chained before it, so that the Work Requests waiting for a later
 * completion never hold more than the Send Queue keeps for them.
 */
#include <kunit/visibility.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rpcrdma/compat.h>

#include "server.h"
#include "trace.h"

static void srdma_send_done(struct ib_cq *cq, struct ib_wc *wc);

static void srdma_send_free(struct srdma_send *sc)
{
	ib_dma_unmap_single(sc->sx->device, sc->hdr_dma, sc->hdr_size,
			    DMA_TO_DEVICE);
	kfree(sc->hdr_buf);
	srdma_rw_free_table(&sc->rw);
	kfree(sc);
}

/*
 * A new Send context.  Its header buffer holds a transport header and
 * no more: a reply is gathered from where it lies, and only the rare
 * reply that has to be copied makes the buffer grow (srdma_send_grow()).
 * The buffer is mapped now, once for the connection's life: each Send
 * then only syncs the bytes it sends.
 */
static struct srdma_send *srdma_send_alloc(struct srdma_xprt *sx)
{
	unsigned long max_pages = svc_serv_maxpages(sx->xprt.xpt_server);
	struct srdma_send *sc = kzalloc(struct_size(sc, pages, max_pages),
					GFP_KERNEL);

	if (!sc)
		return NULL;
	sc->hdr_size = SRDMA_MAX_HDR_SIZE;
	sc->hdr_buf = kmalloc(sc->hdr_size, GFP_KERNEL);
	if (!sc->hdr_buf)
		goto out_sc;
	sc->hdr_dma = ib_dma_map_single(sx->device, sc->hdr_buf, sc->hdr_size,
					DMA_TO_DEVICE);
	if (ib_dma_mapping_error(sx->device, sc->hdr_dma))
		goto out_buf;
	sc->sx = sx;
	INIT_LIST_HEAD(&sc->rws);
	srdma_rw_init_embedded(&sc->rw);
	sc->cqe.done = srdma_send_done;
	rpcrdma_cid_init(&sc->cid, sx->ib.send_cq,
			 atomic_inc_return(&sx->next_cid));
	/* srdma_send_put() empties the list for each next Send. */
	rpcrdma_send_sges_init(&sc->sges, sx->device, sx->ib.pd->local_dma_lkey,
			       sx->max_send_sge);
	sc->sges.copy_max = SRDMA_SEND_COPY_MAX;
	rpcrdma_send_sges_premapped_hdr(&sc->sges, sc->hdr_dma);
	return sc;

out_buf:
	kfree(sc->hdr_buf);
out_sc:
	kfree(sc);
	return NULL;
}

/*
 * Give @sc a header buffer of the connection's inline size, so that a
 * message copied after the header fits: a reply in more than two pieces
 * (several Write chunks), a pull-up for a device with too few SGEs, or a
 * backchannel call.  The first @keep bytes (the header encoded so far)
 * move with it.  The context keeps the larger buffer from then on.
 * Called while @sc is being filled, so no Send uses the old buffer.
 *
 * Return: 0, -EMSGSIZE if the buffer is that large already, or -ENOMEM.
 */
static int srdma_send_grow(struct srdma_send *sc, unsigned int keep)
{
	struct srdma_xprt *sx = sc->sx;
	unsigned int size = sx->inline_send;
	void *buf;
	u64 dma;

	if (size <= sc->hdr_size)
		return -EMSGSIZE;
	buf = kmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	dma = ib_dma_map_single(sx->device, buf, size, DMA_TO_DEVICE);
	if (ib_dma_mapping_error(sx->device, dma)) {
		kfree(buf);
		return -ENOMEM;
	}
	memcpy(buf, sc->hdr_buf, keep);
	ib_dma_unmap_single(sx->device, sc->hdr_dma, sc->hdr_size,
			    DMA_TO_DEVICE);
	kfree(sc->hdr_buf);
	sc->hdr_buf = buf;
	sc->hdr_size = size;
	sc->hdr_dma = dma;
	rpcrdma_send_sges_premapped_hdr(&sc->sges, dma);
	trace_svcrdma_send_grow(sc);
	return 0;
}

/**
 * srdma_send_build - the SGEs of a Send: header and inline message
 * @sc: context with @hdr_len bytes of transport header in its buffer
 * @hdr_len: length of that header
 * @msg: the RPC message
 * @split: end of the first inline part of @msg
 * @resume: start of the second inline part (which ends at @msg->len)
 *
 * See rpcrdma_send_sges_build().  A message that has to be copied after
 * the header (@sc->sges.max too small to gather it) and does not fit the
 * header buffer makes the buffer grow to the inline size first.
 *
 * Return: 0 or -errno; nothing is left mapped on error.
 */
int srdma_send_build(struct srdma_send *sc, unsigned int hdr_len,
		     const struct xdr_buf *msg, unsigned int split,
		     unsigned int resume)
{
	int rc;

	rc = rpcrdma_send_sges_build(&sc->sges, sc->hdr_buf, sc->hdr_size,
				     hdr_len, msg, split, resume);
	if (rc != -EMSGSIZE)
		return rc;
	rc = srdma_send_grow(sc, hdr_len);
	if (rc)
		return rc;
	return rpcrdma_send_sges_build(&sc->sges, sc->hdr_buf, sc->hdr_size,
				       hdr_len, msg, split, resume);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_build);

/**
 * srdma_send_get - a Send context, ready to be filled
 * @sx: the connection
 *
 * Return: the context, or NULL if memory is short.
 */
struct srdma_send *srdma_send_get(struct srdma_xprt *sx)
{
	struct llist_node *free;
	struct srdma_send *sc;

	spin_lock(&sx->send_lock);
	free = llist_del_first(&sx->send_free);
	spin_unlock(&sx->send_lock);
	sc = free ? llist_entry(free, struct srdma_send, free_node) :
		    srdma_send_alloc(sx);
	if (!sc)
		return NULL;
	/* Its SGE list and pages are empty: srdma_send_put() saw to that. */
	sc->nr_wrs = 0;
	sc->carries_grant = false;
	return sc;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_get);

/**
 * srdma_send_put - release what a Send context holds and recycle it
 * @sc: context whose work requests completed or were never posted
 */
void srdma_send_put(struct srdma_send *sc)
{
	struct srdma_xprt *sx = sc->sx;
	unsigned int i;

	rpcrdma_send_sges_unmap(&sc->sges);
	srdma_rw_destroy_list(sx, &sc->rws);
	/*
	 * One reference each (a NULL is a hole the reply left).  Most are
	 * the page cache's pages (a spliced READ), whose last reference is
	 * not ours: put_page() drops one inline, where release_pages()
	 * walks each page out of line to batch frees that seldom come.
	 */
	for (i = 0; i < sc->nr_pages; i++)
		if (sc->pages[i])
			put_page(sc->pages[i]);
	sc->nr_pages = 0;
	/* An llist takes any number of adders at once, without the lock. */
	llist_add(&sc->free_node, &sx->send_free);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_send_put);

/**
 * srdma_send_release_orphans - release Send contexts posted in part
 * @sx: the connection, whose QP is drained
 */
void srdma_send_release_orphans(struct srdma_xprt *sx)
{
	struct srdma_send *sc, *next;
	LIST_HEAD(orphans);

	spin_lock(&sx->send_lock);
	list_splice_init(&sx->send_orphans, &orphans);
	spin_unlock(&sx->send_lock);
	list_for_each_entry_safe(sc, next, &orphans, node) {
		list_del(&sc->node);
		srdma_send_put(sc);
	}
}

/**
 * srdma_send_destroy_all - free the Send contexts of a drained connection
 * @sx: the connection
 */
void srdma_send_destroy_all(struct srdma_xprt *sx)
{
	struct llist_node *free = llist_del_all(&sx->send_free);
	struct srdma_send *sc, *next;

	llist_for_each_entry_safe(sc, next, free, free_node)
		srdma_send_free(sc);
}

/* Retire the Sends posted up to and including @last (all if NULL). */
static void srdma_sendq_retire(struct srdma_xprt *sx, struct srdma_send *last)
{
	struct rpcrdma_sendq_entry *e, *next;
	struct srdma_send *sc;
	unsigned int nr_wrs = 0;

	e = rpcrdma_sendq_retire(&sx->sendq, last ? &last->sqe : NULL);
	/* @last was retired already, by a drain that did all this. */
	if (!e && last)
		return;
	for (; e; e = next) {
		next = e->next;
		sc = container_of(e, struct srdma_send, sqe);
		nr_wrs += sc->nr_wrs;
		srdma_send_put(sc);
	}
	srdma_sq_release(sx, nr_wrs);
}

/**
 * srdma_sendq_retire_all - retire every Send left on a drained queue
 * @sx: the connection, whose QP ib_drain_qp() has drained
 *
 * Unsignaled Sends need not be flushed with a completion of their own:
 * once the drain's Work Request has completed, none of them is in use.
 */
void srdma_sendq_retire_all(struct srdma_xprt *sx)
{
	srdma_sendq_retire(sx, NULL);
}

static void srdma_send_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srdma_send *sc = container_of(wc->wr_cqe, struct srdma_send,
					     cqe);
	struct srdma_xprt *sx = sc->sx;

	srdma_stat_add(SRDMA_STAT_SQ_POLL, 1);
	if (wc->status != IB_WC_SUCCESS) {
		rpcrdma_conn_wc(&sx->conn, wc);
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			trace_svcrdma_wc_send_err(wc, &sc->cid);
		else
			trace_svcrdma_wc_send_flush(wc, &sc->cid);
		srdma_close(sx, "send completion error");
	} else {
		trace_svcrdma_wc_send(&sc->cid);
	}
	srdma_sendq_retire(sx, sc);
}

/*
 * A reply's header carries the grant of the moment it is posted, read
 * under the Send FIFO lock that a fall is published under: a reply
 * posted before a fall carries the larger grant, any posted after it the
 * smaller one (credits.c says why the Receives depend on that order).
 */
static void srdma_send_stamp_grant(struct srdma_xprt *sx,
				   struct srdma_send *sc)
{
	__be32 *p = sc->hdr_buf;

	p[2] = cpu_to_be32(READ_ONCE(sx->grant));
	ib_dma_sync_single_for_device(sx->device, sc->hdr_dma + 2 * XDR_UNIT,
				      XDR_UNIT, DMA_TO_DEVICE);
}

/*
 * Post @sc: srdma_send_post(), inline in srdma_sendto(), which posts
 * every reply.
 */
static __always_inline int srdma_post(struct srdma_send *sc)
{
	struct srdma_xprt *sx = sc->sx;
	const struct ib_send_wr *bad;
	struct ib_send_wr *first;
	bool signal, watch = false;
	int err;

	sc->wr.next = NULL;
	sc->wr.wr_cqe = &sc->cqe;
	sc->wr.sg_list = sc->sges.sge;
	sc->wr.num_sge = sc->sges.nr;
	sc->nr_wrs = 1;
	/* Most replies carry no Write: nothing to chain before the Send. */
	first = list_empty(&sc->rws) ? &sc->wr :
		srdma_rw_chain(sx, &sc->rws, NULL, &sc->wr, &sc->nr_wrs);

	err = srdma_sq_reserve(sx, sc->nr_wrs, &sc->cid);
	if (err) {
		trace_svcrdma_sq_post_err(sx, &sc->cid, err);
		goto out_put;
	}

	/* The FIFO takes the Sends in the order the Send Queue does. */
	spin_lock(&sx->sendq.lock);
	if (sc->carries_grant)
		srdma_send_stamp_grant(sx, sc);
	signal = rpcrdma_sendq_add(&sx->sendq, &sc->sqe, sc->nr_wrs > 1);
	sc->wr.send_flags = signal ? IB_SEND_SIGNALED : 0;
	trace_svcrdma_post_send(sc);
	err = ib_post_send(sx->ib.qp, first, &bad);
	if (err)	/* not posted: no completion can have retired it */
		rpcrdma_sendq_unadd(&sx->sendq, &sc->sqe);
	else if (signal && !sx->send_watching)
		watch = true;
	if (watch)
		sx->send_watching = true;
	spin_unlock(&sx->sendq.lock);
	/* Its completion is owed from now on (srdma_send_watch_check()). */
	if (unlikely(watch))
		srdma_send_watch_start(sx);
	if (err) {
		trace_svcrdma_sq_post_err(sx, &sc->cid, err);
		srdma_close(sx, "post send failed");
		srdma_sq_release(sx, sc->nr_wrs);
		if (bad != first) {
			/*
			 * Writes were posted and nothing will report when
			 * they are done reading the reply's pages: keep
			 * the whole context until the QP is drained.
			 */
			spin_lock(&sx->send_lock);
			list_add(&sc->node, &sx->send_orphans);
			spin_unlock(&sx->send_lock);
			return err;
		}
		goto out_put;
	}
	srdma_stat_add(SRDMA_STAT_SQ_PROD, 1);
	return 0;

out_put:
	srdma_send_put(sc);
	return err;
}

/**
 * srdma_send_post - post a Send context: its Writes, then its Send
 * @sc: context with @sc->wr, its SGEs and its Writes prepared
 *
 * Waits for Send Queue room.  On success @sc is released when the Send
 * is retired (by its own completion or a later one); on failure it is
 * released here.
 *
 * Return: 0 or -errno.
 */
int srdma_send_post(struct srdma_send *sc)
{
	return srdma_post(sc);
}

/**
 * srdma_send_hdr_stream - start encoding a transport header
 * @sc: Send context whose header buffer is encoded into
 * @xdr: stream to initialise
 * @hbuf: buffer descriptor for @xdr (lives as long as @xdr)
 */
void srdma_send_hdr_stream(struct srdma_send *sc, struct xdr_stream *xdr,
			   struct xdr_buf *hbuf)
{
	xdr_buf_init(hbuf, sc->hdr_buf, SRDMA_MAX_HDR_SIZE);
	hbuf->head[0].iov_len = 0;
	xdr_init_encode(xdr, hbuf, NULL, NULL);
}

/* Map a header alone: the whole Send is in the header buffer. */
static int srdma_send_build_hdr(struct srdma_send *sc, unsigned int hdr_len)
{
	static const struct xdr_buf empty;

	return rpcrdma_send_sges_build(&sc->sges, sc->hdr_buf, sc->hdr_size,
				       hdr_len, &empty, 0, 0);
}

/**
 * srdma_send_build_copy - the SGE of a Send: header and a copy of a message
 * @sc: context with @hdr_len bytes of transport header in its buffer
 * @hdr_len: length of that header
 * @msg: the message, copied whole after the header
 *
 * For a message the Send must not gather from where it lies (a
 * callback).  The header buffer grows to the inline size first if the
 * two do not fit it.  The context's SGE limit stays the device's, for
 * the replies that take the context after this Send.
 *
 * Return: 0, -EMSGSIZE if header and message do not fit the inline
 * size, or another -errno; nothing is left mapped on error.
 */
int srdma_send_build_copy(struct srdma_send *sc, unsigned int hdr_len,
			  const struct xdr_buf *msg)
{
	u64 len = (u64)hdr_len + msg->len;
	int rc;

	if (len > sc->hdr_size) {
		rc = srdma_send_grow(sc, hdr_len);
		if (rc)
			return rc;
		if (len > sc->hdr_size)
			return -EMSGSIZE;
	}
	if (msg->len &&
	    read_bytes_from_xdr_buf(msg, 0, sc->hdr_buf + hdr_len, msg->len))
		return -EIO;
	return srdma_send_build_hdr(sc, len);
}

/**
 * srdma_send_error - answer a Call with RDMA_ERROR
 * @sx: the connection
 * @xid: XID of the Call
 * @err: RPCRDMA_ERR_VERS or RPCRDMA_ERR_CHUNK
 *
 * Return: 0 or -errno.
 */
int srdma_send_error(struct srdma_xprt *sx, __be32 xid, u32 err)
{
	struct srdma_send *sc;
	struct xdr_stream xdr;
	struct xdr_buf hbuf;
	int rc;

	sc = srdma_send_get(sx);
	if (!sc)
		return -ENOMEM;
	srdma_send_hdr_stream(sc, &xdr, &hbuf);
	rc = rpcrdma_encode_error(&xdr, xid, srdma_grant(sx), err);
	if (!rc)
		rc = srdma_send_build_hdr(sc, xdr_stream_pos(&xdr));
	if (rc) {
		srdma_send_put(sc);
		return rc;
	}
	sc->wr.opcode = IB_WR_SEND;
	sc->carries_grant = true;
	if (err == RPCRDMA_ERR_VERS)
		trace_svcrdma_err_vers(sx, xid);
	else
		trace_svcrdma_err_chunk(sx, xid);
	return srdma_send_post(sc);
}

/**
 * srdma_result_payload - the svc_xprt_ops::xpo_result_payload method
 * @rqstp: request whose reply is being encoded
 * @offset: where the DDP-eligible result starts in rq_res
 * @length: its length, without XDR padding
 *
 * Results are matched to the Call's Write chunks in order; a result with
 * no Write chunk left stays in the reply message.
 *
 * Return: 0.
 */
int srdma_result_payload(struct svc_rqst *rqstp, unsigned int offset,
			 unsigned int length)
{
	struct srdma_recv *rc = rqstp->rq_xprt_ctxt;

	if (!rc || rc->nr_payloads >= rc->hdr.lists.nr_write_chunks)
		return 0;
	rc->payloads[rc->nr_payloads].offset = offset;
	rc->payloads[rc->nr_payloads].length = length;
	rc->nr_payloads++;
	return 0;
}

/*
 * Write the DDP payloads into the Write chunks and cut them out of the
 * reply message (reply_plan.c decides which).
 */
static int srdma_reply_payloads(struct srdma_xprt *sx, struct srdma_send *sc,
				struct srdma_recv *rc, const struct xdr_buf *res,
				struct srdma_reply *rp)
{
	const struct rpcrdma_chunk_lists *call = &rc->hdr.lists;
	unsigned int i;
	int err;

	err = srdma_reply_plan(call, rc->payloads, rc->nr_payloads, res->len,
			       rp);
	for (i = 0; i < rc->nr_payloads && !err; i++) {
		if (!rp->used[i])
			continue;
		err = srdma_rw_chunk(sx, &sc->rws, &sc->rw, res,
				     rc->payloads[i].offset,
				     rc->payloads[i].length, &call->write[i],
				     0, DMA_TO_DEVICE);
	}
	return err;
}

/* The reply's transport header, straight into @sc's header buffer. */
static int srdma_reply_encode(struct srdma_xprt *sx, struct srdma_send *sc,
			      struct srdma_recv *rc,
			      const struct srdma_reply *rp)
{
	const struct rpcrdma_chunk_lists *call = &rc->hdr.lists;
	__be32 *p = sc->hdr_buf;
	int len;

	len = rpcrdma_reply_lists_put(p + 4, SRDMA_MAX_HDR_SIZE -
				      RPCRDMA_FIXED_HDR_SIZE, call->write,
				      call->nr_write_chunks, rp->written,
				      rp->nomsg ? &call->reply : NULL,
				      rp->msg_len);
	if (len < 0)
		return len;
	rpcrdma_put_fixed(p, rc->hdr.xid, srdma_grant(sx),
			  rp->nomsg ? RPCRDMA_NOMSG : RPCRDMA_MSG);
	return RPCRDMA_FIXED_HDR_SIZE + len;
}

/* Gather the reply message after the header, or copy it if it has holes. */
static int srdma_reply_build_inline(struct srdma_send *sc,
				    const struct xdr_buf *res,
				    const struct srdma_reply *rp,
				    unsigned int hdr_len)
{
	unsigned int i, len = 0;
	int rc;

	if (rp->nr_runs <= 2)
		return srdma_send_build(sc, hdr_len, res, rp->runs[0].end,
					rp->nr_runs == 2 ? rp->runs[1].start :
					res->len);
	if (hdr_len + rp->msg_len > sc->hdr_size) {
		rc = srdma_send_grow(sc, hdr_len);
		if (rc)
			return rc;
	}
	for (i = 0; i < rp->nr_runs; i++) {
		unsigned int n = rp->runs[i].end - rp->runs[i].start;

		read_bytes_from_xdr_buf(res, rp->runs[i].start,
					sc->hdr_buf + hdr_len + len, n);
		len += n;
	}
	return srdma_send_build_hdr(sc, hdr_len + len);
}

/*
 * Hand the reply's pages to @sc: they live until the Send completes.
 * Two string operations rather than a walk: a hole (NULL) comes along
 * and srdma_send_put() passes over it.
 */
static void srdma_take_pages(struct srdma_send *sc, struct svc_rqst *rqstp)
{
	size_t bytes = (rqstp->rq_next_page - rqstp->rq_respages) *
		       sizeof(struct page *);

	memcpy(sc->pages + sc->nr_pages, rqstp->rq_respages, bytes);
	memset(rqstp->rq_respages, 0, bytes);
	sc->nr_pages += bytes / sizeof(struct page *);
	rpcrdma_svc_reply_pages_taken(rqstp);
}

/*
 * Long Reply: the message goes in the Call's Reply chunk, run by run,
 * and the Send carries an RDMA_NOMSG header.
 */
static int srdma_reply_long(struct srdma_xprt *sx, struct srdma_send *sc,
			    struct srdma_recv *rc, const struct xdr_buf *res,
			    struct srdma_reply *rp)
{
	const struct rpcrdma_chunk_lists *call = &rc->hdr.lists;
	unsigned int i, off = 0;
	int hdr_len, err;

	for (i = 0; i < rp->nr_runs; i++) {
		unsigned int n = rp->runs[i].end - rp->runs[i].start;

		if (!n)
			continue;
		err = srdma_rw_chunk(sx, &sc->rws, &sc->rw, res,
				     rp->runs[i].start, n,
				     &call->reply, off, DMA_TO_DEVICE);
		if (err)
			return err;
		off += n;
	}
	rp->nomsg = true;
	hdr_len = srdma_reply_encode(sx, sc, rc, rp);
	if (hdr_len < 0)
		return hdr_len;
	return srdma_send_build_hdr(sc, hdr_len);
}

/**
 * srdma_reply_build_plain - build the reply to a Call with no Write chunk
 *	and no Reply chunk
 * @sx: the connection
 * @sc: Send context to fill
 * @rc: the Call
 * @res: the reply (rq_res)
 * @rp: set to the plan: one run, all of @res (msg_len and nomsg are read)
 *
 * Most Calls offer neither, and their reply is the whole of @res inline
 * after a seven-word RDMA_MSG header: the Send srdma_reply_build_chunked()
 * builds for them, without planning or encoding lists.
 *
 * Return: 0, -EMSGSIZE if the reply does not fit the inline size, or
 * another -errno.
 */
VISIBLE_IF_KUNIT int srdma_reply_build_plain(struct srdma_xprt *sx,
					     struct srdma_send *sc,
					     struct srdma_recv *rc,
					     const struct xdr_buf *res,
					     struct srdma_reply *rp)
{
	unsigned int hdr_len;
	int err;

	rp->nr_runs = 1;
	rp->runs[0].start = 0;
	rp->runs[0].end = res->len;
	rp->msg_len = res->len;
	rp->nomsg = false;
	if ((u64)RPCRDMA_HDR_MIN_SIZE + res->len > sx->inline_send)
		return -EMSGSIZE;
	hdr_len = rpcrdma_put_msg_no_chunks(sc->hdr_buf, rc->hdr.xid,
					    srdma_grant(sx));
	/* Most replies are a head in a page of their own. */
	err = rpcrdma_send_sges_head(&sc->sges, sc->hdr_buf, sc->hdr_size,
				     hdr_len, res);
	if (err != -EAGAIN)
		return err;
	return srdma_send_build(sc, hdr_len, res, res->len, res->len);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_reply_build_plain);

/**
 * srdma_reply_build_chunked - build the reply to any Call
 * @sx: the connection
 * @sc: Send context to fill
 * @rc: the Call
 * @res: the reply (rq_res)
 * @rp: set to the plan (srdma_reply_plan())
 *
 * The Write chunks' payloads, the transport header, and the message
 * inline or in the Reply chunk.
 *
 * Return: 0, -EMSGSIZE if the reply fits no chunk the Call offered, or
 * another -errno.
 */
VISIBLE_IF_KUNIT int srdma_reply_build_chunked(struct srdma_xprt *sx,
					       struct srdma_send *sc,
					       struct srdma_recv *rc,
					       const struct xdr_buf *res,
					       struct srdma_reply *rp)
{
	enum srdma_reply_form form;
	int hdr_len, err;

	err = srdma_reply_payloads(sx, sc, rc, res, rp);
	if (err)
		return err;
	hdr_len = srdma_reply_encode(sx, sc, rc, rp);
	if (hdr_len < 0)
		return hdr_len;
	form = srdma_reply_form(hdr_len, rp->msg_len, sx->inline_send,
				&rc->hdr.lists);
	if (form == SRDMA_REPLY_TOO_BIG)
		return -EMSGSIZE;
	if (form == SRDMA_REPLY_LONG)
		return srdma_reply_long(sx, sc, rc, res, rp);
	return srdma_reply_build_inline(sc, res, rp, hdr_len);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_reply_build_chunked);

/* Build @sc for the reply in @res; see srdma_reply_build_chunked(). */
static int srdma_reply_build(struct srdma_xprt *sx, struct srdma_send *sc,
			     struct srdma_recv *rc, const struct xdr_buf *res,
			     struct srdma_reply *rp)
{
	const struct rpcrdma_chunk_lists *call = &rc->hdr.lists;

	if (!call->nr_write_chunks && !call->has_reply)
		return srdma_reply_build_plain(sx, sc, rc, res, rp);
	return srdma_reply_build_chunked(sx, sc, rc, res, rp);
}

/**
 * srdma_sendto - the svc_xprt_ops::xpo_sendto method
 * @rqstp: request with its reply in rq_res
 *
 * Return: 0 if the reply (or an RDMA_ERROR in its place) was posted,
 * otherwise -errno (the connection is closing, or memory is short).
 */
int srdma_sendto(struct svc_rqst *rqstp)
{
	struct srdma_xprt *sx = srdma_xprt(rqstp->rq_xprt);
	struct srdma_recv *rc = rqstp->rq_xprt_ctxt;
	struct srdma_reply rp __uninitialized;	/* srdma_reply_plan() */
	struct srdma_send *sc;
	int err;
	u32 rkey;

	if (!rc || test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
		return -ENOTCONN;
	sc = srdma_should_fail(SRDMA_FAIL_SEND) ? NULL : srdma_send_get(sx);
	if (!sc) {
		err = -ENOMEM;
		goto out_close;
	}
	err = srdma_reply_build(sx, sc, rc, &rqstp->rq_res, &rp);
	if (err)
		goto out_err;

	sc->wr.opcode = IB_WR_SEND;
	sc->carries_grant = true;
	if (srdma_reply_inv_rkey(sx->remote_inv, &rc->hdr.lists, &rkey)) {
		sc->wr.opcode = IB_WR_SEND_WITH_INV;
		sc->wr.ex.invalidate_rkey = rkey;
	}
	srdma_take_pages(sc, rqstp);
	srdma_stat_add(SRDMA_STAT_WRITE, !list_empty(&sc->rws));
	trace_svcrdma_reply(sc, rc->hdr.xid, rp.nomsg, rp.msg_len,
			    rc->nr_payloads);
	err = srdma_post(sc);
	if (err)
		goto out_close;
	return 0;

out_err:
	srdma_send_put(sc);
	if (err == -EMSGSIZE) {
		/* RFC 8166: a reply that does not fit the chunks offered. */
		trace_svcrdma_reply_too_big(sx, rc->hdr.xid, rp.msg_len);
		err = srdma_send_error(sx, rc->hdr.xid, RPCRDMA_ERR_CHUNK);
		if (!err)
			return 0;
	}
out_close:
	/*
	 * svc_send() ignores our return value: a reply that is not sent
	 * would leave the client waiting a whole RPC timeout.  Losing the
	 * connection makes it retransmit at once.
	 */
	trace_svcrdma_send_err(sx, rc->hdr.xid, err);
	srdma_close(sx, "cannot send a reply");
	return err;
}
