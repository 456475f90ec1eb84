// SPDX-License-Identifier: GPL-2.0
/*
 * Client marshaling: choose how each RPC Call and its Reply travel,
 * register the chunks, encode the transport header and build the Send.
 *
 * Call:  inline (header and message gathered from their own buffers),
 *        Read chunk for DDP-eligible argument data (XDRBUF_WRITE), or a
 *        position-zero Read chunk carrying the whole call (Long Call).
 * Reply: inline, Write chunk for DDP-eligible results (XDRBUF_READ), or
 *        a Reply chunk covering the whole receive buffer (Long Reply).
 */
#include <linux/highmem.h>

#include "client.h"
#include "trace.h"

/* Number of MRs xrdma_register_xdr() needs for a byte range. */
static unsigned int xrdma_count_run(unsigned int first_off, unsigned int len,
				    unsigned int depth)
{
	if (!len)
		return 0;
	return DIV_ROUND_UP(DIV_ROUND_UP(first_off + len, PAGE_SIZE), depth);
}

static unsigned int xrdma_count_segs(const struct xrdma_ep *ep,
				     const struct xdr_buf *xdr,
				     unsigned int offset, unsigned int len)
{
	const struct kvec *head = &xdr->head[0], *tail = &xdr->tail[0];
	unsigned int n = 0, take;

	if (offset < head->iov_len) {
		take = min(len, (unsigned int)head->iov_len - offset);
		n += xrdma_count_run(offset_in_page(head->iov_base + offset),
				     take, ep->mr_depth);
		len -= take;
		offset = 0;
	} else {
		offset -= head->iov_len;
	}
	if (len && offset < xdr->page_len) {
		take = min(len, xdr->page_len - offset);
		n += xrdma_count_run(offset_in_page(xdr->page_base + offset),
				     take, ep->mr_depth);
		len -= take;
		offset = 0;
	} else if (len) {
		offset -= xdr->page_len;
	}
	if (len)
		n += xrdma_count_run(offset_in_page(tail->iov_base + offset),
				     len, ep->mr_depth);
	return n;
}

/**
 * xrdma_build_send - build the SGEs of a Send: header plus inline payload
 * @req: request with its transport header encoded in @req->hdr_buf
 * @xdr: the RPC message
 * @split: end of the first inline part of @xdr
 * @resume: start of the second inline part (which ends at @xdr->len)
 *
 * See rpcrdma_send_sges_build(); this adds the pull-up to the
 * transport's statistics.
 *
 * Return: 0 or -EIO.
 */
int xrdma_build_send(struct xrdma_req *req, struct xdr_buf *xdr,
		     unsigned int split, unsigned int resume)
{
	struct xrdma_ep *ep = req->rx->ep;
	int rc;

	rpcrdma_send_sges_init(&req->sges, ep->device,
			       ep->pd->local_dma_lkey, ep->max_send_sge);
	rc = rpcrdma_send_sges_build(&req->sges, req->hdr_buf, req->hdr_len,
				     xdr, split, resume);
	if (!rc)
		atomic64_add(req->sges.pulled_up,
			     &req->rx->stats.pullup_copy_count);
	return rc;
}

/**
 * xrdma_encode_header - encode a request's transport header
 * @req: request with rq_xid set and @req->offered built
 * @credits: credits to ask for
 * @proc: RPCRDMA_MSG or RPCRDMA_NOMSG
 *
 * Return: 0, with @req->hdr_len set, or -EMSGSIZE.
 */
int xrdma_encode_header(struct xrdma_req *req, u32 credits, u32 proc)
{
	struct xdr_stream xdr;
	struct xdr_buf hbuf;
	int rc;

	xdr_buf_init(&hbuf, req->hdr_buf, XRDMA_HDR_BUF_SIZE);
	hbuf.head[0].iov_len = 0;
	xdr_init_encode(&xdr, &hbuf, NULL, NULL);
	rc = rpcrdma_encode_fixed(&xdr, req->rqst.rq_xid, credits, proc);
	if (!rc)
		rc = rpcrdma_encode_chunk_lists(&xdr, &req->offered);
	if (!rc)
		req->hdr_len = xdr_stream_pos(&xdr);
	return rc;
}

/**
 * xrdma_post_send - post a request's FastRegs (if any) and its Send
 * @req: request whose SGEs and MRs are ready
 * @qp: the queue pair to post on
 *
 * The Send is signaled; its completion (xrdma_send_done()) drops the
 * reference the caller took for it.
 *
 * Return: 0 or the verbs error.
 */
int xrdma_post_send(struct xrdma_req *req, struct ib_qp *qp)
{
	const struct ib_send_wr *bad;
	unsigned int i;

	req->send_cqe.done = xrdma_send_done;
	req->send_wr.next = NULL;
	req->send_wr.wr_cqe = &req->send_cqe;
	req->send_wr.sg_list = req->sges.sge;
	req->send_wr.num_sge = req->sges.nr;
	req->send_wr.opcode = IB_WR_SEND;
	req->send_wr.send_flags = IB_SEND_SIGNALED;
	req->send_cid.queue_id = qp->send_cq->res.id;
	if (trace_xprtrdma_mr_fastreg_enabled())
		for (i = 0; i < req->nr_mrs; i++)
			trace_xprtrdma_mr_fastreg(req->mrs[i]);
	trace_xprtrdma_post_send(req);
	return ib_post_send(qp, xrdma_mrs_reg_chain(req, &req->send_wr), &bad);
}

static int xrdma_add_segs(struct rpcrdma_chunk_lists *cl, int kind,
			  u32 position, const struct rpcrdma_segment *segs,
			  int n)
{
	int i, rc = 0;

	for (i = 0; i < n && !rc; i++) {
		switch (kind) {
		case 'r':
			rc = rpcrdma_add_read_segment(cl, position, &segs[i]);
			break;
		case 'w':
			rc = rpcrdma_add_write_segment(cl, &segs[i]);
			break;
		default:
			rc = rpcrdma_add_reply_segment(cl, &segs[i]);
		}
	}
	return rc;
}

static int xrdma_register_chunk(struct xrdma_req *req, struct xdr_buf *xdr,
				unsigned int offset, unsigned int len,
				int kind, u32 position)
{
	struct rpcrdma_segment segs[XRDMA_MAX_MRS];
	int n;

	n = xrdma_register_xdr(req, xdr, offset, len, kind != 'r', segs,
			       ARRAY_SIZE(segs));
	if (n < 0)
		return n;
	return xrdma_add_segs(&req->offered, kind, position, segs, n);
}

/* How the call travels, in the terms of the trace. */
static unsigned int xrdma_call_type(const struct xrdma_req *req, char call)
{
	if (call == 'r')
		return XRDMA_READCH;
	if (call == 'l')
		return XRDMA_AREADCH;
	if (req->sges.pulled_up)
		return XRDMA_NOCH_PULLUP;
	return req->rqst.rq_snd_buf.page_len ? XRDMA_NOCH_MAPPED : XRDMA_NOCH;
}

/* How the reply is to come back, in the terms of the trace. */
static unsigned int xrdma_reply_type(char reply)
{
	if (reply == 'w')
		return XRDMA_WRITECH;
	return reply == 'r' ? XRDMA_REPLYCH : XRDMA_NOCH;
}

/**
 * xrdma_marshal - prepare the transport header and Send of one RPC call
 * @rx: transport, connected; the caller holds XPRT_LOCKED
 * @req: request with rq_snd_buf encoded and rq_rcv_buf set up
 *
 * Return: 0; -ENOBUFS or -ENOMEM if resources are short (try again);
 * -EMSGSIZE or -EIO if this RPC cannot be sent on this connection.
 */
int xrdma_marshal(struct xrdma_xprt *rx, struct xrdma_req *req)
{
	struct xrdma_ep *ep = rx->ep;
	struct rpc_rqst *rqst = &req->rqst;
	struct xdr_buf *snd = &rqst->rq_snd_buf;
	struct xdr_buf *rcv = &rqst->rq_rcv_buf;
	unsigned int wsegs = 0, rsegs = 0, csegs = 0;
	unsigned int split = snd->len, resume = snd->len;
	u32 proc = RPCRDMA_MSG;
	char call = 'i', reply = 'i';
	size_t hdr;
	int rc;

	rpcrdma_chunk_lists_init(&req->offered, req->chunks,
				 ARRAY_SIZE(req->chunks), req->segs,
				 ARRAY_SIZE(req->segs));

	/* How will the reply come back? */
	if (!rpcrdma_fits_inline(ep->inline_recv, RPCRDMA_HDR_MIN_SIZE,
				 rcv->buflen)) {
		wsegs = xrdma_count_segs(ep, rcv, rcv->head[0].iov_len,
					 rcv->page_len);
		if ((rcv->flags & XDRBUF_READ) && rcv->page_len &&
		    rpcrdma_fits_inline(ep->inline_recv,
					rpcrdma_hdr_size(0, 1, wsegs, false, 0),
					rcv->head[0].iov_len +
					rcv->tail[0].iov_len)) {
			reply = 'w';
		} else {
			reply = 'r';
			wsegs = 0;
			rsegs = xrdma_count_segs(ep, rcv, 0, rcv->buflen);
		}
	}

	/* How does the call go out? */
	hdr = rpcrdma_hdr_size(0, !!wsegs, wsegs, reply == 'r', rsegs);
	if (!rpcrdma_fits_inline(ep->inline_send, hdr, snd->len)) {
		unsigned int pad = xdr_pad_size(snd->page_len);
		unsigned int inl;

		split = snd->head[0].iov_len;
		resume = split + snd->page_len +
			 min_t(unsigned int, pad, snd->tail[0].iov_len);
		inl = split + (snd->len - resume);
		csegs = xrdma_count_segs(ep, snd, split, snd->page_len);
		if ((snd->flags & XDRBUF_WRITE) && snd->page_len &&
		    rpcrdma_fits_inline(ep->inline_send,
					rpcrdma_hdr_size(csegs, !!wsegs, wsegs,
							 reply == 'r', rsegs),
					inl)) {
			call = 'r';
		} else {
			call = 'l';
			split = 0;
			resume = snd->len;
			csegs = xrdma_count_segs(ep, snd, 0, snd->len);
			proc = RPCRDMA_NOMSG;
		}
		hdr = rpcrdma_hdr_size(csegs, !!wsegs, wsegs, reply == 'r',
				       rsegs);
		if (hdr > ep->inline_send || hdr > XRDMA_HDR_BUF_SIZE)
			return -EMSGSIZE;
	}
	if (csegs + wsegs + rsegs > XRDMA_MAX_MRS)
		return -EMSGSIZE;

	/* Register the chunks, in wire order. */
	rc = 0;
	if (call == 'r')
		rc = xrdma_register_chunk(req, snd, split, snd->page_len,
					  'r', split);
	else if (call == 'l')
		rc = xrdma_register_chunk(req, snd, 0, snd->len, 'r', 0);
	if (!rc && reply == 'w') {
		rc = rpcrdma_add_write_chunk(&req->offered);
		if (!rc)
			rc = xrdma_register_chunk(req, rcv,
						  rcv->head[0].iov_len,
						  rcv->page_len, 'w', 0);
	} else if (!rc && reply == 'r') {
		rc = rpcrdma_add_reply_chunk(&req->offered);
		if (!rc)
			rc = xrdma_register_chunk(req, rcv, 0, rcv->buflen,
						  'e', 0);
	}
	if (rc)
		goto out_release;

	rc = xrdma_encode_header(req, ep->max_requests, proc);
	if (rc)
		goto out_release;

	rc = xrdma_build_send(req, snd, split, resume);
	if (rc)
		goto out_release;

	if (call == 'r') {
		atomic_long_inc(&rx->stats.read_chunk_count);
		atomic64_add(snd->page_len, &rx->stats.total_rdma_request);
	} else if (call == 'l') {
		atomic_long_inc(&rx->stats.nomsg_call_count);
		atomic64_add(snd->len, &rx->stats.total_rdma_request);
	}
	if (reply == 'w')
		atomic_long_inc(&rx->stats.write_chunk_count);
	else if (reply == 'r')
		atomic_long_inc(&rx->stats.reply_chunk_count);
	trace_xprtrdma_marshal(req, xrdma_call_type(req, call),
			       xrdma_reply_type(reply));
	return 0;

out_release:
	xrdma_mrs_release(req);
	atomic_long_inc(&rx->stats.failed_marshal_count);
	trace_xprtrdma_marshal_failed(rqst, rc);
	return rc == -ENOSPC || rc == -EINVAL ? -EMSGSIZE : rc;
}
