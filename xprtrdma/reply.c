// SPDX-License-Identifier: GPL-2.0
/*
 * Client receive path: decode each reply with the codec, match it to its
 * RPC, check the returned chunks against the offered ones, place the
 * inline part into the RPC receive buffer, update the credit window,
 * invalidate the RPC's MRs, and only then complete the RPC.
 *
 * The common reply is not copied: when its inline part fits the receive
 * buffer's head, the head is pointed at it in the Receive buffer, and
 * the RPC holds the Receive (req->held_rep) until it releases its slot
 * or is sent again; only then is the Receive reposted.  Every credit
 * stays backed: a held Receive belongs to an RPC that still holds its
 * congestion slot (xrdma_release_request() gives it back first), so the
 * calls awaiting a reply and the held Receives are together at most the
 * credits, and recv_batch - 1 more Receives cover the ones that wait
 * for the rest of their batch.  Reposting shares transport_lock with the
 * connection's teardown, which stops it before draining the Receive
 * Queue, and afterwards hands a still-held buffer to its RPC to free.
 *
 * Nothing in a reply is trusted: lengths come from the codec, which
 * bounds them by the received bytes, and returned chunks are checked
 * against what this RPC offered before any of their lengths is used.
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>

#include "client.h"
#include "trace.h"

static const struct rpcrdma_wire_limits xrdma_reply_limits = {
	.max_read_chunks	= 0,
	.max_read_segs		= 0,
	.max_write_chunks	= XRDMA_MAX_CHUNKS,
	.max_chunk_segs		= XRDMA_MAX_MRS,
};

/**
 * xrdma_post_recv - post (again) one Receive buffer
 * @rep: the Receive
 *
 * Return: 0 or the verbs error.
 */
int xrdma_post_recv(struct xrdma_rep *rep)
{
	trace_xprtrdma_post_recv(&rep->cid);
	return rpcrdma_recv_buf_post(&rep->rb, rep->ep->ib.qp);
}

/**
 * xrdma_credit_window - the credit window after a received message
 * @grant: the credit value in its transport header
 * @bc_call: the message is a backchannel Call, not a reply to us
 * @window: the window now
 * @max: the most credits this connection asked for
 *
 * RFC 8167 section 4: the credit field of a backchannel Call grants
 * backchannel credits, so it leaves the forward window alone.  A reply
 * sets the window to its grant, at least one (RFC 8166 section 3.3.1:
 * zero would stall us) and at most what we asked for.
 *
 * Return: the new window.
 */
VISIBLE_IF_KUNIT u32 xrdma_credit_window(u32 grant, bool bc_call, u32 window,
					 u32 max)
{
	if (bc_call)
		return window;
	return clamp(grant, 1U, max(max, 1U));
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_credit_window);

static inline void xrdma_update_credits(struct xrdma_xprt *rx,
					struct xrdma_ep *ep, u32 grant)
{
	struct rpc_xprt *xprt = &rx->xprt;

	grant = xrdma_credit_window(grant, false, READ_ONCE(rx->credits),
				    ep->max_requests);
	if (grant == READ_ONCE(rx->credits))
		return;
	spin_lock(&xprt->transport_lock);
	rx->credits = grant;
	xprt->cwnd = grant << RPC_CWNDSHIFT;
	spin_unlock(&xprt->transport_lock);
	trace_xprtrdma_credits(xprt, grant);
}

/* Make sure every page of @buf that [offset, offset+len) touches exists. */
static int xrdma_fill_sparse(struct xdr_buf *buf, unsigned int offset,
			     unsigned int len)
{
	unsigned int hlen = buf->head[0].iov_len, start, end, i;

	if (!(buf->flags & XDRBUF_SPARSE_PAGES))
		return 0;
	start = max(offset, hlen);
	end = min(offset + len, hlen + buf->page_len);
	if (start >= end)
		return 0;
	for (i = (buf->page_base + start - hlen) >> PAGE_SHIFT;
	     i <= (buf->page_base + end - hlen - 1) >> PAGE_SHIFT; i++) {
		if (buf->pages[i])
			continue;
		buf->pages[i] = alloc_page(GFP_NOIO);
		if (!buf->pages[i])
			return -ENOMEM;
	}
	return 0;
}

/*
 * Put the inline part of a reply that fits the head there: with @hold,
 * by pointing the head at it in the Receive buffer, which the RPC then
 * holds; without, by a copy.
 */
static inline void xrdma_place_head(struct xrdma_req *req,
				    struct xrdma_rep *hold, u8 *src,
				    unsigned int len)
{
	struct rpc_rqst *rqst = &req->rqst;

	if (hold && !req->held_rep) {
		/* call_decode() wants the two buffers alike. */
		rqst->rq_private_buf.head[0].iov_base = src;
		rqst->rq_rcv_buf.head[0].iov_base = src;
		req->held_rep = hold;
		return;
	}
	xrdma_check_cpu_write(req, NULL, rqst->rq_private_buf.head[0].iov_base,
			      0, len);
	memcpy(rqst->rq_private_buf.head[0].iov_base, src, len);
}

/*
 * Place the inline part of an RDMA_MSG reply.  Without a Write chunk
 * the bytes go to head, pages and tail in order, as on a stream
 * transport.  With one, the data item is already in the pages: the
 * bytes before it go to the head (trimmed if the reply is shorter than
 * the upper layer expected) and the bytes after it to the tail, after
 * the data item's implicit XDR pad.  A reply that fits the head stays
 * in @hold's buffer if @hold is given (xrdma_place_head()).
 */
static __always_inline int xrdma_place_inline(struct xrdma_req *req,
					      struct xrdma_rep *hold, u8 *src,
					      unsigned int len,
					      bool write_chunk, u32 written)
{
	struct rpc_rqst *rqst = &req->rqst;
	struct xdr_buf *pb = &rqst->rq_private_buf;
	struct xdr_buf *rb = &rqst->rq_rcv_buf;
	unsigned int head = pb->head[0].iov_len, rest, pad;

	/* An MR offered over the buffer may map what is written below. */
	if (unlikely(req->nr_mrs))
		xrdma_mrs_sync_for_cpu(req);
	if (!write_chunk) {
		if (len > pb->buflen)
			return -EMSGSIZE;
		/* Most replies fit the head: no walk of the buffer. */
		if (len <= head) {
			xrdma_place_head(req, hold, src, len);
			return len;
		}
		if (xrdma_fill_sparse(pb, 0, len))
			return -ENOMEM;
		xrdma_check_cpu_write(req, pb, NULL, 0, len);
		write_bytes_to_xdr_buf(pb, 0, (void *)src, len);
		if (len > head)
			atomic64_add(len - head,
				     &req->rx->stats.fixup_copy_count);
		return len;
	}

	if (len <= head) {
		unsigned int delta = head - len;

		xrdma_place_head(req, hold, src, len);
		pb->head[0].iov_len = len;
		rb->head[0].iov_len = len;
		pb->buflen -= delta;
		rb->buflen -= delta;
		return len + xdr_align_size(written);
	}

	rest = len - head;
	pad = xdr_pad_size(written);
	if (pad + rest > pb->tail[0].iov_len)
		return -EMSGSIZE;
	xrdma_check_cpu_write(req, NULL, pb->head[0].iov_base, 0, head);
	memcpy(pb->head[0].iov_base, src, head);
	xrdma_check_cpu_write(req, NULL, pb->tail[0].iov_base + pad, 0, rest);
	memcpy(pb->tail[0].iov_base + pad, src + head, rest);
	return head + xdr_align_size(written) + rest;
}

/**
 * xrdma_reply_outcome - check a decoded reply and place its data
 * @req: the request the reply's XID matched
 * @hdr: the reply's transport header, decoded without error
 * @payload: the inline part that followed the header
 *
 * Return: bytes of RPC reply now in the receive buffer, or -EIO for a
 * reply that contradicts what the call offered or does not fit.
 */
VISIBLE_IF_KUNIT int xrdma_reply_outcome(struct xrdma_req *req,
					 struct rpcrdma_hdr *hdr,
					 const u8 *payload)
{
	struct rpcrdma_chunk_lists *got = &hdr->lists;
	struct xrdma_xprt *rx = req->rx;
	enum rpcrdma_wire_err werr;
	u32 written = 0;
	int len;

	if (hdr->proc == RPCRDMA_ERROR) {
		if (hdr->err == RPCRDMA_ERR_VERS)
			trace_xprtrdma_err_vers(&req->rqst, hdr->vers_low,
						hdr->vers_high);
		else
			trace_xprtrdma_err_chunk(&req->rqst);
		pr_warn_ratelimited("rpcrdma: server %s reports %s for XID 0x%08x\n",
				    rx->xprt.address_strings[RPC_DISPLAY_ADDR],
				    hdr->err == RPCRDMA_ERR_VERS ?
				    "ERR_VERS" : "ERR_CHUNK",
				    be32_to_cpu(hdr->xid));
		return -EIO;
	}

	werr = rpcrdma_check_reply_chunks(&req->offered, got);
	if (werr != RPCRDMA_WIRE_OK)
		goto bad;
	if (got->nr_write_chunks)
		written = got->write[0].length;

	if (hdr->proc == RPCRDMA_NOMSG) {
		/* The whole reply is in our Reply chunk. */
		if (!got->has_reply || !got->reply.length ||
		    got->nr_write_chunks) {
			werr = RPCRDMA_WIRE_ERR_NOMSG_NO_CHUNK;
			goto bad;
		}
		atomic64_add(got->reply.length, &rx->stats.total_rdma_reply);
		return got->reply.length;
	}

	if (got->has_reply && got->reply.length) {
		werr = RPCRDMA_WIRE_ERR_REPLY_EXTRA_CHUNK;
		goto bad;
	}
	len = xrdma_place_inline(req, NULL, (u8 *)payload, hdr->inline_len,
				 got->nr_write_chunks > 0, written);
	if (len < 0)
		return len == -ENOMEM ? -ENOMEM : -EIO;
	atomic64_add(written, &rx->stats.total_rdma_reply);
	return len;

bad:
	trace_xprtrdma_reply_hdr_err(&rx->xprt, hdr, werr);
	atomic_long_inc(&rx->stats.bad_reply_count);
	return -EIO;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_reply_outcome);

/* Is the RPC message in this RDMA_MSG a Call (backchannel)? */
static bool xrdma_is_call(const struct rpcrdma_hdr *hdr, const u8 *payload)
{
	const __be32 *p = (const __be32 *)payload;

	return hdr->proc == RPCRDMA_MSG && hdr->inline_len >= 2 * XDR_UNIT &&
	       p[1] == cpu_to_be32(RPC_CALL);
}

/* Record a reply's outcome where xrdma_req_done() reads it, and trace it. */
static inline void xrdma_reply_record(struct xrdma_req *req, int status,
				      u32 credits, u32 proc,
				      const u32 *inv_rkey)
{
	if (status < 0) {
		req->reply_status = status;
		req->reply_len = 0;
	} else {
		req->reply_status = 0;
		req->reply_len = status;
	}
	trace_xprtrdma_reply(&req->rqst, credits, proc, status, !!inv_rkey);
}

/*
 * Record a reply's outcome, then invalidate: the RPC completes after.
 * Inline, as are the helpers above it that every reply runs: a call
 * costs a reply more than most of what they do.
 */
static inline void xrdma_reply_finish(struct xrdma_req *req, int status,
				      u32 credits, u32 proc,
				      const u32 *inv_rkey)
{
	xrdma_reply_record(req, status, credits, proc, inv_rkey);
	/* Most replies (every inline one) have no MR to look at. */
	if (!req->nr_mrs)
		xrdma_req_done(req);
	else
		xrdma_mrs_invalidate(req, inv_rkey);
}

/* Do the words after a header of @hdr_len bytes start an RPC Call? */
static bool xrdma_words_hold_call(const __be32 *w, size_t nwords,
				  unsigned int hdr_len)
{
	size_t at = hdr_len / XDR_UNIT;

	return nwords >= at + 2 && w[at + 1] == cpu_to_be32(RPC_CALL);
}

/* Do a reply's chunk lists match what @req's call offered? */
static inline bool xrdma_reply_matches(const struct xrdma_req *req,
				       const __be32 *msg, size_t nwords,
				       struct rpcrdma_reply_match *m)
{
	if (req->reply_plain)
		return rpcrdma_match_reply_plain(msg, nwords, m);
	return rpcrdma_match_reply((__be32 *)req->hdr_buf + 4, msg, nwords,
				   m);
}

/*
 * xrdma_reply_claim() under queue_lock, held by the caller, who pins
 * the request or completes its RPC before letting go of the lock.
 */
static int xrdma_reply_claim_locked(struct rpc_xprt *xprt, __be32 xid,
				    const __be32 *msg, size_t nwords,
				    struct rpcrdma_reply_match *m,
				    struct xrdma_req **reqp)
{
	struct rpc_rqst *rqst;
	struct xrdma_req *req;

	lockdep_assert_held(&xprt->queue_lock);
	rqst = xprt_lookup_rqst(xprt, xid);
	if (!rqst)
		return -ENOENT;
	req = xrdma_req(rqst);
	/* Pairs with xrdma_req_open(): the slot is set up when it is open. */
	if (smp_load_acquire(&req->reply_claimed))
		return -EALREADY;
	if (msg && (!xrdma_reply_matches(req, msg, nwords, m) ||
		    xrdma_words_hold_call(msg, nwords, m->hdr_len)))
		return -EAGAIN;
	req->reply_claimed = true;
	*reqp = req;
	return 0;
}

/**
 * xrdma_reply_claim - claim the request a reply's XID names, for this reply
 * @xprt: the transport the reply came in on
 * @xid: the reply's XID
 * @msg: the reply's whole words from its fixed header on (version 1),
 *	or NULL
 * @nwords: the number of words at @msg
 * @m: with @msg, filled in by rpcrdma_match_reply()
 * @reqp: OUT: the request claimed
 *
 * A request takes a reply only while its call is posted on the current
 * connection (see xrdma_req_open()), and only one.  With @msg, only if
 * the reply's chunk lists match the call's and it carries no RPC Call
 * (a backchannel Call may have the XID of one of ours, and inline calls
 * offer no chunks: the full decoder tells the two apart).  The request
 * is pinned on success.
 *
 * Return: 0 with *@reqp set; -ENOENT: no such request; -EALREADY: it
 * is not waiting for a reply on this connection; -EAGAIN: no match.
 */
VISIBLE_IF_KUNIT int xrdma_reply_claim(struct rpc_xprt *xprt, __be32 xid,
				       const __be32 *msg, size_t nwords,
				       struct rpcrdma_reply_match *m,
				       struct xrdma_req **reqp)
{
	int rc;

	spin_lock(&xprt->queue_lock);
	rc = xrdma_reply_claim_locked(xprt, xid, msg, nwords, m, reqp);
	if (!rc)
		xprt_pin_rqst(&(*reqp)->rqst);
	spin_unlock(&xprt->queue_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_reply_claim);

/**
 * xrdma_reply_at_once - may a claimed reply complete its RPC under one lock?
 * @req: the request the reply claimed, queue_lock held
 * @m: the reply's match (rpcrdma_match_reply())
 * @inline_len: bytes of RPC reply after the transport header
 * @grant_same: the reply's credit grant leaves the window as it is
 *
 * The commonest reply is to a call that registered no memory and whose
 * Send is not waited for (or has completed), carries no chunk, fits the
 * receive buffer's head and grants what was granted before: then nothing
 * is left to wait for once it is placed, nor to do outside the lock, and
 * the RPC completes under the queue_lock hold that claimed it, unpinned.
 * A reply that changes the window is finished after the update, outside
 * the lock (transport_lock is not taken under queue_lock).
 *
 * Return: true if it may.
 */
VISIBLE_IF_KUNIT bool xrdma_reply_at_once(const struct xrdma_req *req,
					  const struct rpcrdma_reply_match *m,
					  unsigned int inline_len,
					  bool grant_same)
{
	return grant_same && !req->nr_mrs && !m->reply_len &&
	       !m->nr_write_chunks && atomic_read(&req->done) == 1 &&
	       inline_len <= req->rqst.rq_private_buf.head[0].iov_len;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_reply_at_once);

/*
 * Place and complete, under the queue_lock hold that claimed it, a reply
 * xrdma_reply_at_once() allows: its inline part stays in @rep's buffer
 * (or is copied, see xrdma_place_head()) and its RPC completes, after
 * which the request is not touched.  Return: true if the RPC holds @rep.
 */
static bool xrdma_reply_complete_locked(struct xrdma_req *req,
					struct xrdma_rep *rep, u8 *src,
					unsigned int len, u32 credits, u32 proc,
					const u32 *inv_rkey)
{
	bool held;

	xrdma_place_head(req, rep, src, len);
	held = req->held_rep == rep;
	xrdma_reply_record(req, len, credits, proc, inv_rkey);
	/* The reply's was the last share (xrdma_req_done()). */
	atomic_set(&req->done, 0);
	xprt_complete_rqst(req->rqst.rq_task, len);
	return held;
}

/*
 * The common reply, RDMA_MSG or RDMA_NOMSG whose chunk lists are the
 * call's own (see rpcrdma_match_reply()), handled without decoding it;
 * an inline part stays in @rep's buffer if it fits the head.  Return:
 * -EAGAIN if the reply is to be decoded in full (xrdma_handle_reply()),
 * which then sees it as though this had not looked at it; 1 if the RPC
 * holds @rep; else 0.
 */
static int xrdma_reply_fast(struct xrdma_ep *ep, struct xrdma_rep *rep,
			    unsigned int len, const u32 *inv_rkey)
{
	const __be32 *w = rep->rb.buf;
	struct xrdma_xprt *rx = ep->rx;
	struct rpc_xprt *xprt = &rx->xprt;
	struct rpcrdma_reply_match m;
	struct xrdma_req *req;
	u32 grant;
	bool held;
	int status;

	if (len < RPCRDMA_HDR_MIN_SIZE ||
	    w[1] != cpu_to_be32(RPCRDMA_VERSION))
		return -EAGAIN;
	spin_lock(&xprt->queue_lock);
	if (xrdma_reply_claim_locked(xprt, w[0], w, len / XDR_UNIT, &m,
				     &req)) {
		spin_unlock(&xprt->queue_lock);
		return -EAGAIN;
	}
	grant = be32_to_cpu(w[2]);
	if (xrdma_reply_at_once(req, &m, len - m.hdr_len,
				xrdma_credit_window(grant, false,
						    READ_ONCE(rx->credits),
						    ep->max_requests) ==
				READ_ONCE(rx->credits))) {
		held = xrdma_reply_complete_locked(req, rep, (u8 *)w + m.hdr_len,
						   len - m.hdr_len, grant,
						   be32_to_cpu(w[3]), inv_rkey);
		spin_unlock(&xprt->queue_lock);
		return held;
	}
	xprt_pin_rqst(&req->rqst);
	spin_unlock(&xprt->queue_lock);

	if (m.reply_len) {
		/* A Long Reply: all of it is in the Reply chunk. */
		status = m.reply_len;
		atomic64_add(m.reply_len, &rx->stats.total_rdma_reply);
	} else {
		status = xrdma_place_inline(req, rep, (u8 *)w + m.hdr_len,
					    len - m.hdr_len,
					    m.nr_write_chunks > 0, m.written);
		if (status >= 0) {
			/* Most replies return no Write chunk: no locked add. */
			if (m.written)
				atomic64_add(m.written,
					     &rx->stats.total_rdma_reply);
		} else if (status != -ENOMEM) {
			status = -EIO;
		}
	}
	/* The RPC may be released as soon as the reply is finished. */
	held = req->held_rep == rep;
	xrdma_update_credits(rx, ep, grant);
	xrdma_reply_finish(req, status, grant, be32_to_cpu(w[3]), inv_rkey);
	return held;
}

/* What the call offered, from its header (xrdma_marshal() wrote it). */
static enum rpcrdma_wire_err xrdma_offered_lists(struct xrdma_req *req)
{
	struct rpcrdma_cursor c;

	rpcrdma_chunk_lists_init(&req->offered, req->chunks,
				 ARRAY_SIZE(req->chunks), req->segs,
				 ARRAY_SIZE(req->segs));
	rpcrdma_cursor_init(&c, req->hdr_buf, req->hdr_len);
	c.p += RPCRDMA_FIXED_HDR_SIZE / XDR_UNIT;
	return rpcrdma_decode_chunk_lists(&c, RPCRDMA_DIR_CALL, NULL,
					  &req->offered);
}

/*
 * Any other message: decoded in full, then a backchannel Call, an error,
 * or a reply checked against what its call offered.  Out of line: its
 * decoding structures take stack the fast path need not pay for.
 */
static noinline void xrdma_decode_reply(struct xrdma_ep *ep,
					struct xrdma_rep *rep,
					unsigned int len, const u32 *inv_rkey)
{
	struct xrdma_xprt *rx = ep->rx;
	struct rpc_xprt *xprt = &rx->xprt;
	/* Filled in by the decoder before anything reads them. */
	struct rpcrdma_chunk chunks[XRDMA_MAX_CHUNKS] __uninitialized;
	struct rpcrdma_segment segs[XRDMA_MAX_MRS] __uninitialized;
	struct rpcrdma_cursor cursor;
	enum rpcrdma_wire_err werr;
	struct rpcrdma_hdr hdr;
	struct xrdma_req *req;
	const u8 *payload;
	int status;

	rpcrdma_hdr_init(&hdr, chunks, ARRAY_SIZE(chunks), segs,
			 ARRAY_SIZE(segs));
	rpcrdma_cursor_init(&cursor, rep->rb.buf, len);
	werr = rpcrdma_decode_hdr(&cursor, RPCRDMA_DIR_REPLY,
				  &xrdma_reply_limits, &hdr);
	if (!hdr.fixed_valid || werr == RPCRDMA_WIRE_ERR_VERSION) {
		/* Without a usable fixed header there is nothing to match. */
		if (!hdr.fixed_valid)
			trace_xprtrdma_reply_short_err(xprt, &hdr, werr);
		else
			trace_xprtrdma_reply_vers_err(xprt, &hdr, werr);
		atomic_long_inc(&rx->stats.bad_reply_count);
		return;
	}
	payload = rep->rb.buf + hdr.hdr_len;
	if (werr == RPCRDMA_WIRE_OK && xrdma_is_call(&hdr, payload)) {
		/* Its credit field is about the backchannel (RFC 8167). */
		xrdma_bc_receive_call(rx, &hdr, payload);
		return;
	}

	status = xrdma_reply_claim(xprt, hdr.xid, NULL, 0, NULL, &req);
	if (status) {
		trace_xprtrdma_reply_rqst_err(xprt, &hdr, werr);
		/*
		 * A second reply to the same transmission, or a reply to a
		 * call not (yet again) sent on this connection.
		 */
		if (status == -EALREADY)
			atomic_long_inc(&rx->stats.bad_reply_count);
		return;
	}
	/* Only a reply to one of our calls may move the window. */
	xrdma_update_credits(rx, ep, hdr.credits);

	if (werr == RPCRDMA_WIRE_OK)
		werr = xrdma_offered_lists(req);
	if (werr != RPCRDMA_WIRE_OK) {
		trace_xprtrdma_reply_hdr_err(xprt, &hdr, werr);
		atomic_long_inc(&rx->stats.bad_reply_count);
		status = -EIO;
	} else {
		status = xrdma_reply_outcome(req, &hdr, payload);
	}
	xrdma_reply_finish(req, status, hdr.credits, hdr.proc, inv_rkey);
}

/* Return: true if an RPC now holds @rep. */
static bool xrdma_handle_reply(struct xrdma_ep *ep, struct xrdma_rep *rep,
			       unsigned int len, const u32 *inv_rkey)
{
	int rc = xrdma_reply_fast(ep, rep, len, inv_rkey);

	if (rc >= 0)
		return rc;
	xrdma_decode_reply(ep, rep, len, inv_rkey);
	return false;
}

/*
 * @rep's reply has been handled: give it back to the device with the
 * rest of its batch, ep->recv_batch Receives in one ib_post_recv().  The
 * Receives posted beyond the credits cover the ones that wait.  Called
 * with transport_lock held; a failed post is noted in
 * ep->recv_post_failed, for the caller to close the connection once it
 * may.
 */
static void xrdma_recv_repost_locked(struct xrdma_ep *ep,
				     struct xrdma_rep *rep)
{
	struct rpcrdma_recv_buf *bad;
	struct ib_recv_wr *wr;
	unsigned int count;
	int rc;

	if (ep->recv_closed)
		return;
	rep->rb.wr.next = ep->recv_pending ? &ep->recv_pending->rb.wr : NULL;
	ep->recv_pending = rep;
	if (++ep->nr_recv_pending < ep->recv_batch)
		return;

	count = ep->nr_recv_pending;
	ep->recv_pending = NULL;
	ep->nr_recv_pending = 0;
	if (trace_xprtrdma_post_recv_enabled())
		for (wr = &rep->rb.wr; wr; wr = wr->next)
			trace_xprtrdma_post_recv(&container_of(wr, struct xrdma_rep,
							       rb.wr)->cid);
	trace_xprtrdma_post_recvs(ep, count);
	rc = rpcrdma_recv_bufs_post(&rep->rb, ep->ib.qp, &bad);
	if (rc) {
		trace_xprtrdma_post_recvs_err(&ep->rx->xprt,
					      &container_of(bad, struct xrdma_rep,
							    rb)->cid, rc);
		ep->recv_post_failed = true;
	}
}

/* Close the connection if a repost failed; transport_lock not held. */
static void xrdma_recv_check_posted(struct xrdma_ep *ep)
{
	if (unlikely(READ_ONCE(ep->recv_post_failed)))
		xrdma_force_disconnect(ep->rx, "Receives not posted");
}

static void xrdma_recv_repost(struct xrdma_ep *ep, struct xrdma_rep *rep)
{
	spinlock_t *lock = &ep->rx->xprt.transport_lock;

	spin_lock(lock);
	xrdma_recv_repost_locked(ep, rep);
	spin_unlock(lock);
	xrdma_recv_check_posted(ep);
}

/**
 * xrdma_rep_return - an RPC no longer needs the Receive its reply is in
 * @req: the slot; the caller holds transport_lock
 *
 * Called when the RPC releases its slot, before its congestion slot goes
 * (xrdma_release_request()), and before it is sent again.  The Receive
 * joins its connection's next batch of reposts; once the connection has
 * gone, its buffer is freed instead.
 */
void xrdma_rep_return(struct xrdma_req *req)
{
	struct xrdma_rep *rep = req->held_rep;

	if (rep) {
		req->held_rep = NULL;
		xrdma_recv_repost_locked(rep->ep, rep);
	}
	if (unlikely(req->orphan_buf)) {
		kfree(req->orphan_buf);
		req->orphan_buf = NULL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_rep_return);

/**
 * xrdma_recv_close - post no more Receives on a connection
 * @rx: the transport
 * @ep: its connection, about to have its Receive Queue drained
 *
 * After this, Receives handled or given back stay unposted until
 * xrdma_reps_destroy() frees them.
 */
void xrdma_recv_close(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	spin_lock(&rx->xprt.transport_lock);
	ep->recv_closed = true;
	spin_unlock(&rx->xprt.transport_lock);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_recv_close);

/**
 * xrdma_recv_orphan_held - hand each held Receive buffer of @ep to its RPC
 * @rx: the transport
 * @ep: its connection, whose Receive Queue is drained (no reply handler
 *	runs for it any more)
 *
 * The buffers are unmapped now, while the device is there, and freed by
 * xrdma_rep_return() when their RPCs are done with them; the endpoint
 * and its other Receives go at once.
 */
void xrdma_recv_orphan_held(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	unsigned int i;

	spin_lock(&rx->xprt.transport_lock);
	for (i = 0; i < rx->nr_reqs; i++) {
		struct xrdma_req *req = &rx->reqs[i];
		struct xrdma_rep *rep = req->held_rep;

		if (!rep || rep->ep != ep)
			continue;
		req->orphan_buf = rpcrdma_recv_buf_take(&rep->rb, ep->device);
		req->held_rep = NULL;
	}
	spin_unlock(&rx->xprt.transport_lock);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_recv_orphan_held);

/**
 * xrdma_recv_done - Receive completion handler
 * @cq: the Receive completion queue
 * @wc: the completion
 */
void xrdma_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xrdma_rep *rep = container_of(wc->wr_cqe, struct xrdma_rep,
					     rb.cqe);
	struct xrdma_ep *ep = rep->ep;
	u32 rkey;

	trace_xprtrdma_wc_receive(wc, &rep->cid);
	if (wc->status != IB_WC_SUCCESS) {
		rpcrdma_conn_wc(&ep->rx->conn, wc);
		if (wc->status != IB_WC_WR_FLUSH_ERR) {
			if (READ_ONCE(ep->connected)) {
				WRITE_ONCE(ep->connected, false);
				xprt_force_disconnect(&ep->rx->xprt);
			}
		}
		return;
	}

	rpcrdma_recv_buf_sync(&rep->rb, ep->device, wc->byte_len);
	rkey = wc->ex.invalidate_rkey;
	if (xrdma_handle_reply(ep, rep, wc->byte_len,
			       (wc->wc_flags & IB_WC_WITH_INVALIDATE) ?
			       &rkey : NULL)) {
		xrdma_recv_check_posted(ep);
		return;
	}
	if (!READ_ONCE(ep->connected))
		return;
	xrdma_recv_repost(ep, rep);
}

/**
 * xrdma_req_done - one of the two events a reply waits for has happened
 * @req: request with a reply in progress
 *
 * The RPC completes when both its Send has completed (the device no
 * longer reads its buffers) and its reply has been placed with all its
 * MRs invalidated.  Whichever comes last completes it.
 */
void xrdma_req_done(struct xrdma_req *req)
{
	struct rpc_rqst *rqst = &req->rqst;
	struct rpc_xprt *xprt = rqst->rq_xprt;
	struct rpc_task *task;

	/* Reaching zero needs the reply's share, so a reply was claimed. */
	if (!atomic_dec_and_test(&req->done))
		return;

	spin_lock(&xprt->queue_lock);
	task = rqst->rq_task;
	if (req->reply_status < 0)
		task->tk_status = req->reply_status;
	xprt_complete_rqst(task, req->reply_status < 0 ? 0 : req->reply_len);
	xprt_unpin_rqst(rqst);
	spin_unlock(&xprt->queue_lock);
}
