// SPDX-License-Identifier: GPL-2.0
/*
 * Client marshaling: choose how each RPC Call and its Reply travel,
 * register the chunks, encode the transport header, build the Send and
 * post it (sendq.c retires it).
 *
 * Call:  inline (header and message gathered from their own buffers),
 *        Read chunk for DDP-eligible argument data (XDRBUF_WRITE), or a
 *        position-zero Read chunk carrying the whole call (Long Call).
 * Reply: inline, Write chunk for DDP-eligible results (XDRBUF_READ), or
 *        a Reply chunk covering the whole receive buffer (Long Reply).
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>

#include "client.h"
#include "trace.h"

/* Where a Send of @req on @ep takes its SGEs from (see below). */
static void xrdma_send_sges_setup(struct xrdma_req *req, struct xrdma_ep *ep)
{
	rpcrdma_send_sges_init(&req->sges, ep->device,
			       ep->ib.pd->local_dma_lkey, ep->max_send_sge);
	req->send_cid.queue_id = ep->ib.qp->send_cq->res.id;
	if (req->is_bc)
		return;
	rpcrdma_send_sges_premapped_hdr(&req->sges,
					ep->hdr_dma[req - req->rx->reqs]);
	if (xrdma_rpc_buf_premap(req, ep))
		rpcrdma_send_sges_premapped_buf(&req->sges, req->rpc_buf,
						req->rpc_buf_size, req->rpc_dma);
}

/*
 * Build the SGEs of @req's Send: its transport header, then the bytes
 * of @xdr before @split and from @resume on.  Most forward calls take
 * rpcrdma_send_sges_premapped(), the rest rpcrdma_send_sges_build();
 * this adds a pull-up to the transport's statistics.  A slot's header
 * buffer is mapped once per connection (see connect.c), and so is its
 * RPC buffer, from its first Send on the connection
 * (xrdma_rpc_buf_premap()): head and tail bytes are then sent from those
 * mappings, and the slot's SGE setup stays as it is until the buffer is
 * unmapped.  A backchannel reply's buffers are mapped per Send.  Inline
 * in xrdma_marshal(), which every forward call goes through.
 */
static __always_inline int xrdma_send_sges(struct xrdma_req *req,
					   struct xdr_buf *xdr,
					   unsigned int split,
					   unsigned int resume)
{
	struct xrdma_ep *ep = req->rx->ep;
	int rc;

	if (req->is_bc || req->rpc_dma_ep != ep)
		xrdma_send_sges_setup(req, ep);
	if (rpcrdma_send_sges_premapped(&req->sges, req->hdr_len, xdr, split,
					resume))
		return 0;
	rc = rpcrdma_send_sges_build(&req->sges, req->hdr_buf, req->hdr_size,
				     req->hdr_len, xdr, split, resume);
	/* xrdma_hdr_buf_size() left room wherever a pull-up can happen. */
	if (WARN_ON_ONCE(rc == -EMSGSIZE))
		return -EIO;
	if (!rc && req->sges.pulled_up)
		atomic64_add(req->sges.pulled_up,
			     &req->rx->stats.pullup_copy_count);
	return rc;
}

/**
 * xrdma_build_send - build the SGEs of a Send: header plus inline payload
 * @req: request with its transport header encoded in @req->hdr_buf
 * @xdr: the RPC message
 * @split: end of the first inline part of @xdr
 * @resume: start of the second inline part (which ends at @xdr->len)
 *
 * For backchannel replies; a forward call's Send is built in
 * xrdma_marshal() the same way (xrdma_send_sges()).
 *
 * Return: 0 or -EIO.
 */
int xrdma_build_send(struct xrdma_req *req, struct xdr_buf *xdr,
		     unsigned int split, unsigned int resume)
{
	return xrdma_send_sges(req, xdr, split, resume);
}

/**
 * xrdma_encode_header - encode a request's transport header from lists
 * @req: request with rq_xid set and @req->offered built
 * @credits: credits to ask for
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 *
 * For backchannel replies; a forward call's header is written while its
 * chunks are registered (xrdma_marshal()).
 *
 * Return: 0, with @req->hdr_len set, or -EMSGSIZE.
 */
int xrdma_encode_header(struct xrdma_req *req, u32 credits, u32 proc)
{
	int len;

	len = rpcrdma_encode_msg_buf(req->hdr_buf, XRDMA_HDR_BUF_SIZE,
				     req->rqst.rq_xid, credits, proc,
				     &req->offered);
	if (len < 0)
		return len;
	req->hdr_len = len;
	return 0;
}

/*
 * Register @len bytes of @xdr from @offset as a chunk of @type and
 * write it at *@pp: a Read chunk's segments as Read list entries at
 * @position, a Write or Reply chunk as a counted segment array.  Its
 * segments are those of the MRs this adds to @req, in order.
 */
static __always_inline int
xrdma_register_chunk(struct xrdma_req *req, struct xdr_buf *xdr,
		     unsigned int offset, unsigned int len,
		     enum xrdma_chunktype type, u32 position, __be32 **pp)
{
	bool reading = type == XRDMA_READCH || type == XRDMA_AREADCH;
	unsigned int i, first = req->nr_mrs;
	__be32 *p = *pp;
	int n;

	/* A DDP data item is the page vector (xrdma_plan_rpc()). */
	if (type == XRDMA_READCH || type == XRDMA_WRITECH)
		n = xrdma_register_pages(req, xdr, !reading);
	else
		n = xrdma_register_xdr(req, xdr, offset, len, !reading);
	if (n < 0)
		return n;
	if (!reading) {
		*p++ = xdr_one;
		*p++ = cpu_to_be32(n);
	}
	for (i = first; i < first + n; i++) {
		const struct rpcrdma_segment *seg = &req->mrs[i]->seg;

		if (reading) {
			*p++ = xdr_one;
			*p++ = cpu_to_be32(position);
		}
		p = rpcrdma_put_segment(p, seg->handle, seg->length,
					seg->offset);
	}
	*pp = p;
	return 0;
}

/*
 * MRs of up to @depth pages that register the page vector of @xdr: what
 * rpcrdma_xdr_count_runs() gives for exactly that part, without
 * splitting the buffer (a DDP data item is all of the page vector).
 */
static unsigned int xrdma_page_runs(const struct xdr_buf *xdr,
				    unsigned int depth)
{
	unsigned int pages;

	pages = DIV_ROUND_UP(offset_in_page(xdr->page_base) + xdr->page_len,
			     PAGE_SIZE);
	return DIV_ROUND_UP(pages, depth);
}

/*
 * How the reply comes back: inline if the whole receive buffer fits our
 * inline receive size; else a Write chunk for a DDP-eligible data item
 * (XDRBUF_READ) when the rest of the reply fits inline; else a Reply
 * chunk for the whole reply.
 */
static void xrdma_plan_reply(const struct xrdma_ep *ep,
			     const struct xdr_buf *rcv, struct xrdma_plan *p)
{
	unsigned int rest = rcv->head[0].iov_len + rcv->tail[0].iov_len;

	p->reply = XRDMA_NOCH;
	p->wsegs = 0;
	p->rsegs = 0;
	if (rpcrdma_fits_inline(ep->inline_recv, RPCRDMA_HDR_MIN_SIZE,
				rcv->buflen))
		return;
	p->wsegs = xrdma_page_runs(rcv, ep->mr_depth);
	if ((rcv->flags & XDRBUF_READ) && rcv->page_len &&
	    rpcrdma_fits_inline(ep->inline_recv,
				rpcrdma_hdr_size(0, 1, p->wsegs, false, 0),
				rest)) {
		p->reply = XRDMA_WRITECH;
		return;
	}
	p->reply = XRDMA_REPLYCH;
	p->wsegs = 0;
	p->rsegs = rpcrdma_xdr_count_runs(rcv, 0, rcv->buflen, ep->mr_depth);
}

/* Transport header size of @p with @csegs Read segments. */
static inline size_t xrdma_plan_hdr_size(const struct xrdma_plan *p,
					 unsigned int csegs)
{
	return rpcrdma_hdr_size(csegs, !!p->wsegs, p->wsegs,
				p->reply == XRDMA_REPLYCH, p->rsegs);
}

/*
 * How the call goes out: inline if it fits our inline send size with
 * the header; else its DDP-eligible data item (XDRBUF_WRITE) in a Read
 * chunk when the rest fits inline; else the whole call in a
 * position-zero Read chunk (Long Call, RDMA_NOMSG).  The XDR pad of a
 * data item in a Read chunk is left out of the inline part.
 */
static int xrdma_plan_call(const struct xrdma_ep *ep,
			   const struct xdr_buf *snd, struct xrdma_plan *p)
{
	unsigned int pad = xdr_pad_size(snd->page_len);
	unsigned int inl;

	p->call = XRDMA_NOCH;
	p->proc = RPCRDMA_MSG;
	p->csegs = 0;
	p->split = snd->len;
	p->resume = snd->len;
	if (rpcrdma_fits_inline(ep->inline_send, xrdma_plan_hdr_size(p, 0),
				snd->len))
		return 0;

	p->split = snd->head[0].iov_len;
	p->resume = p->split + snd->page_len +
		    min_t(unsigned int, pad, snd->tail[0].iov_len);
	inl = p->split + (snd->len - p->resume);
	p->csegs = xrdma_page_runs(snd, ep->mr_depth);
	if ((snd->flags & XDRBUF_WRITE) && snd->page_len &&
	    rpcrdma_fits_inline(ep->inline_send,
				xrdma_plan_hdr_size(p, p->csegs), inl)) {
		p->call = XRDMA_READCH;
	} else {
		p->call = XRDMA_AREADCH;
		p->proc = RPCRDMA_NOMSG;
		p->split = 0;
		p->resume = snd->len;
		p->csegs = rpcrdma_xdr_count_runs(snd, 0, snd->len,
						  ep->mr_depth);
	}
	if (xrdma_plan_hdr_size(p, p->csegs) > ep->inline_send ||
	    xrdma_plan_hdr_size(p, p->csegs) > XRDMA_HDR_BUF_SIZE)
		return -EMSGSIZE;
	return 0;
}

/*
 * The common RPC: call and reply both fit inline, so no chunk is
 * offered.  Return: true with @p set for it; false for any other.
 */
static inline bool xrdma_plan_inline(const struct xrdma_ep *ep,
				     const struct xdr_buf *snd,
				     const struct xdr_buf *rcv,
				     struct xrdma_plan *p)
{
	if (!rpcrdma_fits_inline(ep->inline_recv, RPCRDMA_HDR_MIN_SIZE,
				 rcv->buflen) ||
	    !rpcrdma_fits_inline(ep->inline_send, RPCRDMA_HDR_MIN_SIZE,
				 snd->len))
		return false;
	p->call = XRDMA_NOCH;
	p->reply = XRDMA_NOCH;
	p->proc = RPCRDMA_MSG;
	p->csegs = 0;
	p->wsegs = 0;
	p->rsegs = 0;
	p->split = snd->len;
	p->resume = snd->len;
	return true;
}

/**
 * xrdma_plan_rpc - decide how an RPC call and its reply travel
 * @ep: the connection (its inline sizes and MR depth)
 * @snd: the call
 * @rcv: the buffer the reply goes to
 * @p: filled in
 *
 * The reply is planned first: the Write list and Reply chunk it needs
 * take room in the call's transport header.
 *
 * Return: 0, or -EMSGSIZE if the RPC needs more than one header or
 * XRDMA_MAX_MRS registrations can describe.
 */
VISIBLE_IF_KUNIT int xrdma_plan_rpc(const struct xrdma_ep *ep,
				    const struct xdr_buf *snd,
				    const struct xdr_buf *rcv,
				    struct xrdma_plan *p)
{
	int rc;

	if (xrdma_plan_inline(ep, snd, rcv, p))
		return 0;
	xrdma_plan_reply(ep, rcv, p);
	rc = xrdma_plan_call(ep, snd, p);
	if (rc)
		return rc;
	if (p->csegs + p->wsegs + p->rsegs > XRDMA_MAX_MRS)
		return -EMSGSIZE;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_plan_rpc);

/*
 * The header buffer holds the longest header XRDMA_MAX_MRS segments
 * make: each a Read list entry, the Write list at its most chunks, and
 * the Reply chunk's head.
 */
static_assert(RPCRDMA_FIXED_HDR_SIZE + XRDMA_MAX_MRS * RPCRDMA_READ_ENTRY_SIZE +
	      XDR_UNIT + XRDMA_MAX_CHUNKS * RPCRDMA_CHUNK_HEAD_SIZE + XDR_UNIT +
	      RPCRDMA_CHUNK_HEAD_SIZE <= XRDMA_HDR_BUF_SIZE);

/* Write the fixed words of @req's header; return where its lists go. */
static inline __be32 *xrdma_put_fixed(struct xrdma_req *req, u32 credits,
				      u32 proc)
{
	return rpcrdma_put_fixed(req->hdr_buf, req->rqst.rq_xid, credits,
				 proc);
}

/*
 * Register the chunks of @p and write the transport header as they are
 * registered, in wire order: fixed words, Read list, Write list, Reply
 * chunk.  The header is the record of what the call offered: a reply is
 * checked against it (reply.c).  Sets @req->hdr_len.
 */
static int xrdma_register_plan(struct xrdma_req *req,
			       const struct xrdma_plan *p, u32 credits)
{
	struct xdr_buf *snd = &req->rqst.rq_snd_buf;
	struct xdr_buf *rcv = &req->rqst.rq_rcv_buf;
	__be32 *w = xrdma_put_fixed(req, credits, p->proc);
	int rc = 0;

	/*
	 * A Read chunk starts where the inline part stops: at the data
	 * item, or at 0 for a Long Call, whose chunk is the whole call.
	 */
	if (p->call != XRDMA_NOCH)
		rc = xrdma_register_chunk(req, snd, p->split,
					  p->call == XRDMA_READCH ?
					  snd->page_len : snd->len,
					  p->call, p->split, &w);
	if (rc)
		return rc;
	*w++ = xdr_zero;

	if (p->reply != XRDMA_WRITECH)
		*w++ = xdr_zero;	/* no Write list */
	if (p->reply != XRDMA_NOCH)
		rc = xrdma_register_chunk(req, rcv,
					  p->reply == XRDMA_WRITECH ?
					  rcv->head[0].iov_len : 0,
					  p->reply == XRDMA_WRITECH ?
					  rcv->page_len : rcv->buflen,
					  p->reply, 0, &w);
	if (rc)
		return rc;
	if (p->reply == XRDMA_WRITECH)
		*w++ = xdr_zero;	/* end of the Write list */
	if (p->reply != XRDMA_REPLYCH)
		*w++ = xdr_zero;	/* no Reply chunk */
	req->hdr_len = (w - (__be32 *)req->hdr_buf) * XDR_UNIT;
	return 0;
}

/*
 * The header of an RPC that offers no chunk (the plan of
 * xrdma_plan_inline()): what xrdma_register_plan() writes for that plan,
 * without its branches.
 */
static inline void xrdma_inline_header(struct xrdma_req *req, u32 credits)
{
	req->hdr_len = rpcrdma_put_msg_no_chunks(req->hdr_buf,
						 req->rqst.rq_xid, credits);
}

/*
 * The mountstats counters for a call sent as @p, kept as the stock client
 * keeps them, so that tools and administrators read them alike: a chunk
 * count per segment (MR) the call offers, and in total_rdma_request the
 * bytes it offers the server to write, its Write or Reply chunk's.
 */
static void xrdma_count_plan(struct xrdma_xprt *rx,
			     const struct xrdma_req *req,
			     const struct xrdma_plan *p)
{
	unsigned int i, reads = 0, writes = 0;
	u64 offered = 0;

	if (p->call == XRDMA_AREADCH)
		atomic_long_inc(&rx->stats.nomsg_call_count);
	for (i = 0; i < req->nr_mrs; i++) {
		const struct xrdma_mr *mr = req->mrs[i];

		if (mr->dir == DMA_TO_DEVICE) {
			reads++;
		} else {
			writes++;
			offered += mr->seg.length;
		}
	}
	if (reads)
		atomic_long_add(reads, &rx->stats.read_chunk_count);
	if (!writes)
		return;
	atomic_long_add(writes, p->reply == XRDMA_WRITECH ?
			&rx->stats.write_chunk_count :
			&rx->stats.reply_chunk_count);
	atomic64_add(offered, &rx->stats.total_rdma_request);
}

/* How the call travelled, as the trace shows it: inline has three kinds. */
static enum xrdma_chunktype xrdma_call_trace_type(const struct xrdma_req *req,
						  const struct xrdma_plan *p)
{
	if (p->call != XRDMA_NOCH)
		return p->call;
	if (req->sges.pulled_up)
		return XRDMA_NOCH_PULLUP;
	return req->rqst.rq_snd_buf.page_len ? XRDMA_NOCH_MAPPED : XRDMA_NOCH;
}

/*
 * Prepare the transport header and Send of one RPC call: @rx connected,
 * the caller holding XPRT_LOCKED, @req with rq_snd_buf encoded and
 * rq_rcv_buf set up.  Inline in its one caller, xrdma_send_request().
 *
 * Return: 0; -ENOBUFS or -ENOMEM if resources are short (try again);
 * -EMSGSIZE or -EIO if this RPC cannot be sent on this connection.
 */
static __always_inline int xrdma_marshal(struct xrdma_xprt *rx,
					 struct xrdma_req *req)
{
	struct xrdma_ep *ep = rx->ep;
	struct rpc_rqst *rqst = &req->rqst;
	struct xrdma_plan plan;
	int rc;

	rc = xrdma_plan_rpc(ep, &rqst->rq_snd_buf, &rqst->rq_rcv_buf, &plan);
	if (rc)
		goto out_fail;
	if (plan.call == XRDMA_NOCH && plan.reply == XRDMA_NOCH) {
		xrdma_inline_header(req, ep->max_requests);
	} else {
		rc = xrdma_register_plan(req, &plan, ep->max_requests);
		/* The plan counted the segments registration would make. */
		if (!rc && WARN_ON_ONCE(req->hdr_len > ep->inline_send))
			rc = -EMSGSIZE;
	}
	if (!rc)
		rc = xrdma_send_sges(req, &rqst->rq_snd_buf, plan.split,
				     plan.resume);
	if (rc)
		goto out_release;

	req->reply_plain = plan.reply == XRDMA_NOCH;
	xrdma_count_plan(rx, req, &plan);
	trace_xprtrdma_marshal(req, xrdma_call_trace_type(req, &plan),
			       plan.reply);
	return 0;

out_release:
	xrdma_mrs_recover(req);
out_fail:
	atomic_long_inc(&rx->stats.failed_marshal_count);
	trace_xprtrdma_marshal_failed(rqst, rc);
	return rc == -ENOSPC || rc == -EINVAL ? -EMSGSIZE : rc;
}

/**
 * xrdma_req_open - let a reply to @req's call be taken from now on
 * @req: a request about to be posted on the current connection
 *
 * Its MRs, chunk lists and completion count are set for this
 * transmission.  Until now a reply with its XID (a late one, or one a
 * hostile server sent as soon as a new connection came up) was dropped
 * by xrdma_reply_claim(), so no reply can use them while they are being
 * built.
 */
VISIBLE_IF_KUNIT void xrdma_req_open(struct xrdma_req *req)
{
	req->reply_status = 0;
	req->reply_len = 0;
	/* Pairs with smp_load_acquire() in xrdma_reply_claim(). */
	smp_store_release(&req->reply_claimed, false);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_req_open);

/**
 * xrdma_req_close - take no reply for @req's call: its post failed
 * @req: a request that xrdma_req_open() opened
 */
VISIBLE_IF_KUNIT void xrdma_req_close(struct xrdma_req *req)
{
	WRITE_ONCE(req->reply_claimed, true);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_req_close);

/*
 * Post @req's FastRegs and Send on @ep: xrdma_post_send(), inline in
 * xrdma_send_request(), which posts every forward call.
 */
static __always_inline int xrdma_post(struct xrdma_req *req,
				      struct xrdma_ep *ep)
{
	struct ib_qp *qp = ep->ib.qp;
	const struct ib_send_wr *bad;
	unsigned int i;
	bool signal;
	int rc;

	req->send_waits = xrdma_send_must_wait(req, ep->sendq.batch);
	req->send_unretired = req->send_waits;
	atomic_set(&req->done, req->send_waits ? 2 : 1);
	if (!req->is_bc)
		xrdma_req_open(req);

	req->send_wr.num_sge = req->sges.nr;

	kref_get(&req->ref);
	/* XPRT_LOCKED makes this the only poster: no need to hold the lock
	 * across the post to keep the FIFO in posting order.
	 */
	spin_lock(&ep->sendq.lock);
	signal = rpcrdma_sendq_add(&ep->sendq, &req->send_entry,
				   req->send_waits || req->is_bc);
	spin_unlock(&ep->sendq.lock);
	req->send_wr.send_flags = signal ? IB_SEND_SIGNALED : 0;

	if (trace_xprtrdma_mr_fastreg_enabled())
		for (i = 0; i < req->nr_mrs; i++)
			trace_xprtrdma_mr_fastreg(req->mrs[i]);
	trace_xprtrdma_post_send(req);
	rc = ib_post_send(qp, xrdma_mrs_reg_chain(req, &req->send_wr), &bad);
	if (!rc)
		return 0;

	/* No reply to a call that was never sent. */
	if (!req->is_bc)
		xrdma_req_close(req);
	/* Not posted, so no completion can have retired it. */
	spin_lock(&ep->sendq.lock);
	rpcrdma_sendq_unadd(&ep->sendq, &req->send_entry);
	spin_unlock(&ep->sendq.lock);
	trace_xprtrdma_post_send_err(req, rc);
	rpcrdma_send_sges_unmap(&req->sges);
	req->send_unretired = false;
	xrdma_req_put(req);
	return rc;
}

/**
 * xrdma_post_send - post a request's FastRegs (if any) and its Send
 * @req: request whose SGEs and MRs are ready
 * @ep: the connection to post on; the caller holds XPRT_LOCKED
 *
 * The Send holds a reference on @req until it is retired.  For a
 * forward-channel call, sets how many events complete the RPC.
 *
 * Return: 0, or the verbs error with nothing left posted on @req's
 * behalf but FastRegs (which the caller's disconnect flushes) and
 * nothing left mapped.
 */
int xrdma_post_send(struct xrdma_req *req, struct xrdma_ep *ep)
{
	return xrdma_post(req, ep);
}

/**
 * xrdma_send_request - the rpc_xprt_ops::send_request method
 * @rqst: the RPC call to send (or a backchannel reply)
 *
 * Called with XPRT_LOCKED held.  A failure that only a new connection
 * can mend (a retransmission on the connection that carried the call,
 * Receives that could not be posted, a failed post) closes it; the RPC
 * is sent again once it is re-established.
 *
 * Return: 0 once the call is posted; -ENOTCONN; -EBADSLT without a
 * congestion slot; -ENOBUFS if resources are short (try again); -EIO if
 * this RPC cannot be sent on this connection.
 */
int xrdma_send_request(struct rpc_rqst *rqst)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct xrdma_xprt *rx = xrdma_xprt(xprt);
	struct xrdma_req *req = xrdma_req(rqst);
	int rc;

	/* Backchannel replies have no buffer from buf_alloc. */
	if (!rqst->rq_buffer)
		return xrdma_bc_send_reply(rx, req);
	/* Sent again after a reply it did not keep (call_decode()). */
	if (unlikely(req->held_rep || req->orphan_buf)) {
		spin_lock(&xprt->transport_lock);
		xrdma_rep_return(req);
		spin_unlock(&xprt->transport_lock);
	}
	if (!xprt_connected(xprt) || !rx->ep)
		return -ENOTCONN;
	if (unlikely(READ_ONCE(rx->ep->recv_post_failed))) {
		xrdma_disconnect_why(rx, "Receives not posted");
		goto drop_connection;
	}
	if (!xprt_request_get_cong(xprt, rqst))
		return -EBADSLT;

	/*
	 * A retransmission on the same connection would need a credit the
	 * server never granted for it: reset the connection instead.  The
	 * RPC is sent again once it is re-established.
	 */
	if (rqst->rq_connect_cookie == xprt->connect_cookie) {
		xrdma_disconnect_why(rx, "retransmission");
		goto drop_connection;
	}

	rc = xrdma_marshal(rx, req);
	if (rc == -ENOBUFS || rc == -ENOMEM)
		return -ENOBUFS;
	if (rc)
		return -EIO;

	rqst->rq_xtime = ktime_get();
	rc = xrdma_post(req, rx->ep);
	if (rc)
		goto drop_connection;
	rqst->rq_xmit_bytes_sent += rqst->rq_snd_buf.len;

	/* A call without a reply would leave the credit count wrong. */
	if (!rpc_reply_expected(rqst->rq_task)) {
		xrdma_disconnect_why(rx, "call without a reply");
		goto drop_connection;
	}
	return 0;

drop_connection:
	xrdma_close(xprt);
	return -ENOTCONN;
}
