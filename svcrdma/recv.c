// SPDX-License-Identifier: GPL-2.0
/*
 * Server receive path: Receive buffers, their completions, and
 * srdma_recvfrom(), which decodes each transport header with the codec,
 * answers malformed ones with RDMA_ERROR, has read.c pull Read chunks
 * with RDMA Read (without waiting for them: see struct srdma_read; a Call
 * whose Reads' pages would pass the limits waits on rx_read_wait, see
 * read_budget.c) and hands nfsd the Call in rq_arg.
 *
 * Receives are replenished in batches of sx->recv_batch, one
 * ib_post_recv() each, with as many less one posted beyond the credits,
 * so the client always finds a Receive for every credit it was granted
 * (srdma_recv_refill()).  A Call that came entirely inline is left
 * where it arrived: rq_arg points into the Receive buffer, which goes
 * back to the free list when nfsd releases the request
 * (srdma_release_ctxt()).
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <rpcrdma/compat.h>

#include "server.h"
#include "trace.h"

static const struct rpcrdma_wire_limits srdma_call_limits = {
	.max_read_chunks	= SRDMA_MAX_READ_CHUNKS,
	.max_read_segs		= SRDMA_MAX_READ_SEGS,
	.max_write_chunks	= SRDMA_MAX_WRITE_CHUNKS,
	.max_chunk_segs		= SRDMA_MAX_CHUNK_SEGS,
};

static void srdma_recv_done(struct ib_cq *cq, struct ib_wc *wc);

/**
 * srdma_recv_hdr_init - attach a Receive's own list storage to its header
 * @rc: a new Receive (its @big is NULL)
 */
VISIBLE_IF_KUNIT void srdma_recv_hdr_init(struct srdma_recv *rc)
{
	rpcrdma_hdr_init(&rc->hdr, rc->chunks, ARRAY_SIZE(rc->chunks),
			 rc->segs, ARRAY_SIZE(rc->segs));
}
EXPORT_SYMBOL_IF_KUNIT(srdma_recv_hdr_init);

static void srdma_recv_free(struct srdma_xprt *sx, struct srdma_recv *rc)
{
	rpcrdma_recv_buf_release(&rc->rb, sx->device);
	srdma_read_free(rc->read_spare);
	kfree(rc->big);
	kfree(rc);
}

static struct srdma_recv *srdma_recv_alloc(struct srdma_xprt *sx)
{
	struct srdma_recv *rc;

	rc = kzalloc(sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return NULL;
	if (rpcrdma_recv_buf_init(&rc->rb, sx->device, sx->ib.pd,
				  sx->recv_size, srdma_recv_done, GFP_KERNEL)) {
		kfree(rc);
		return NULL;
	}
	rc->sx = sx;
	srdma_recv_hdr_init(rc);
	rpcrdma_cid_init(&rc->cid, sx->ib.recv_cq,
			 atomic_inc_return(&sx->next_cid));
	spin_lock(&sx->rx_lock);
	sx->recv_count++;
	spin_unlock(&sx->rx_lock);
	return rc;
}

/*
 * A free Receive buffer, or a new one while the connection is below its
 * limit.  A client that keeps within its credits never reaches the
 * limit; one that does not finds fewer Receives posted and, once none
 * is left, its Sends fail with RNR (we grant it no retry).
 */
static struct srdma_recv *srdma_recv_get(struct srdma_xprt *sx)
{
	struct srdma_recv *rc;
	bool may_alloc;

	spin_lock(&sx->rx_lock);
	rc = list_first_entry_or_null(&sx->recv_free, struct srdma_recv, node);
	if (rc)
		list_del(&rc->node);
	may_alloc = sx->recv_count < sx->recv_limit;
	spin_unlock(&sx->rx_lock);
	if (rc || !may_alloc)
		return rc;
	return srdma_recv_alloc(sx);
}

static void srdma_recv_stash(struct srdma_xprt *sx, struct srdma_recv *rc)
{
	spin_lock(&sx->rx_lock);
	list_add(&rc->node, &sx->recv_free);
	spin_unlock(&sx->rx_lock);
}

/**
 * struct srdma_recv_batch - Receives to post with one call
 * @first: the first, chained to the others through rb.wr.next; or NULL
 * @n: how many
 *
 * Passed and returned by value: it lives in registers.
 */
struct srdma_recv_batch {
	struct srdma_recv *first;
	unsigned int n;
};

/* Add @rc to @b, at its head: the order of Receives does not matter. */
static inline void srdma_recv_batch_add(struct srdma_recv_batch *b,
					struct srdma_recv *rc)
{
	rc->rb.wr.next = b->first ? &b->first->rb.wr : NULL;
	b->first = rc;
	b->n++;
}

/* Put back on recv_free the Receives of a chain from @wr on: how many. */
static unsigned int srdma_recv_unchain(struct srdma_xprt *sx,
				       struct ib_recv_wr *wr)
{
	unsigned int n = 0;

	lockdep_assert_held(&sx->rx_lock);
	for (; wr; wr = wr->next, n++)
		list_add(&container_of(wr, struct srdma_recv, rb.wr)->node,
			 &sx->recv_free);
	return n;
}

/* The tracepoint of each Receive of a chain about to be posted. */
static void srdma_trace_post_recvs(struct srdma_recv *first)
{
	struct ib_recv_wr *wr;
	struct srdma_recv *rc;

	for (wr = &first->rb.wr; wr; wr = wr->next) {
		rc = container_of(wr, struct srdma_recv, rb.wr);
		trace_svcrdma_post_recv(&rc->cid);
	}
}

/*
 * Post the Receives of @b with one call, unless the Receive Queue is
 * being drained; those not posted go back to recv_free.  Return: 0 or
 * -errno.
 */
static int srdma_recv_post_batch(struct srdma_xprt *sx,
				 struct srdma_recv_batch b)
{
	struct rpcrdma_recv_buf *bad;
	int err = -ENOTCONN;

	if (!b.first)
		return 0;
	spin_lock(&sx->rx_lock);
	bad = &b.first->rb;
	if (sx->ib.qp && !sx->rq_closed) {
		if (trace_svcrdma_post_recv_enabled())
			srdma_trace_post_recvs(b.first);
		err = rpcrdma_recv_bufs_post(&b.first->rb, sx->ib.qp, &bad);
		if (err)
			trace_svcrdma_rq_post_err(sx, err);
	}
	/* From @bad on, nothing was posted. */
	if (err)
		b.n -= srdma_recv_unchain(sx, &bad->wr);
	spin_unlock(&sx->rx_lock);
	srdma_stat_add(SRDMA_STAT_RQ_PROD, b.n);
	return err;
}

/* Post @rc unless the Receive Queue is being drained.  Return: 0 or -errno. */
static int srdma_recv_post(struct srdma_xprt *sx, struct srdma_recv *rc)
{
	struct srdma_recv_batch one = {};

	srdma_recv_batch_add(&one, rc);
	return srdma_recv_post_batch(sx, one);
}

/*
 * A buffer is free again: it makes up a missing Receive first.  The
 * pages of a Call rebuilt from Read chunks go now.
 */
static __always_inline void srdma_recv_put(struct srdma_xprt *sx,
					   struct srdma_recv *rc)
{
	bool repost = false, trim = false;

	if (rc->read_spare && rc->read_spare->nr_pages)
		srdma_read_recycle_pages(sx, rc->read_spare);
	atomic_inc(&sx->calls_done);
	spin_lock(&sx->rx_lock);
	if (sx->recv_deficit && !sx->rq_closed) {
		sx->recv_deficit--;
		repost = true;
	} else if (sx->recv_trim) {
		/* The grant fell: this buffer is no longer needed. */
		sx->recv_trim--;
		sx->recv_count--;
		trim = true;
	} else {
		list_add(&rc->node, &sx->recv_free);
	}
	spin_unlock(&sx->rx_lock);
	if (trim)
		srdma_recv_free(sx, rc);
	else if (repost && srdma_recv_post(sx, rc))
		srdma_close(sx, "cannot repost a Receive");
}

/**
 * srdma_recv_post_initial - post the Receives of a new connection
 * @sx: connection whose QP exists but is not connected yet
 * @count: Receives to post (the Receive Queue depth)
 *
 * Return: 0 or -errno.
 */
int srdma_recv_post_initial(struct srdma_xprt *sx, unsigned int count)
{
	struct srdma_recv_batch b = {};
	struct srdma_recv *rc;

	while (b.n < count) {
		rc = srdma_recv_alloc(sx);
		if (!rc) {
			spin_lock(&sx->rx_lock);
			if (b.first)
				srdma_recv_unchain(sx, &b.first->rb.wr);
			spin_unlock(&sx->rx_lock);
			return -ENOMEM;
		}
		srdma_recv_batch_add(&b, rc);
	}
	return srdma_recv_post_batch(sx, b);
}

/**
 * srdma_recv_release_reads - release the Reads of a drained connection
 * @sx: connection whose QP is drained but still exists (the Reads' R/W
 *	contexts need it), and whose requests are all released
 *
 * Their Receives go back to the free list, for srdma_recv_destroy_all().
 */
void srdma_recv_release_reads(struct srdma_xprt *sx)
{
	struct srdma_recv *rc;
	size_t lost;

	/*
	 * Reads whose completion the drain did not bring: a provider that
	 * loses a flushed Read's completion (soft-iWARP after a lost link,
	 * Documentation/reliability.rst) must not cost their MRs, pages
	 * and Receive buffers.  They go with the flushed ones.
	 */
	lost = list_count_nodes(&sx->rx_reading);
	if (lost)
		pr_warn_ratelimited("svcrdma: %s: %zu RDMA Read completions never came; released after the drain\n",
				    sx->xprt.xpt_remotebuf, lost);
	list_splice_init(&sx->rx_reading, &sx->rx_read_done);
	/* Their Reads were flushed by the drain: nothing uses the pages. */
	list_for_each_entry(rc, &sx->rx_read_done, node) {
		srdma_read_release(sx, rc->read);
		rc->read = NULL;
	}
	list_splice_init(&sx->rx_read_done, &sx->recv_free);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_recv_release_reads);

/**
 * srdma_recv_destroy_all - free every Receive buffer of a connection
 * @sx: connection whose QP and CQs are gone and whose Reads were
 *	released by srdma_recv_release_reads()
 *
 * A Read completion that came after that release (the provider flushed
 * it behind the drain) only moved its Receive to rx_read_done: the
 * Read itself is released already.  Calls held back for the Read budget
 * have no Read state: their Receives go like the others.
 */
void srdma_recv_destroy_all(struct srdma_xprt *sx)
{
	struct srdma_recv *rc, *next;

	list_splice_init(&sx->rx_reading, &sx->recv_free);
	list_splice_init(&sx->rx_read_done, &sx->recv_free);
	list_splice_init(&sx->rx_read_wait, &sx->recv_free);
	list_splice_init(&sx->rx_ready, &sx->recv_free);
	list_for_each_entry_safe(rc, next, &sx->recv_free, node) {
		list_del(&rc->node);
		srdma_recv_free(sx, rc);
		sx->recv_count--;
	}
	WARN_ON_ONCE(sx->recv_count);
}

/*
 * Up to @want Receive buffers, to be posted together: free ones first,
 * in one go, then new ones while the connection is below its limit.
 */
static struct srdma_recv_batch srdma_recv_gather(struct srdma_xprt *sx,
						 unsigned int want)
{
	struct srdma_recv_batch b = {};
	struct srdma_recv *rc;

	spin_lock(&sx->rx_lock);
	while (b.n < want && !list_empty(&sx->recv_free)) {
		rc = list_first_entry(&sx->recv_free, struct srdma_recv, node);
		list_del(&rc->node);
		srdma_recv_batch_add(&b, rc);
	}
	spin_unlock(&sx->rx_lock);
	while (b.n < want) {
		rc = srdma_recv_get(sx);
		if (!rc)
			break;
		srdma_recv_batch_add(&b, rc);
	}
	return b;
}

/*
 * A backchannel reply (RFC 8167), told from the raw words before the
 * header is decoded (srdma_bc_is_reply() asks the same of a decoded one):
 * an RDMA_MSG with no chunks whose RPC message is a REPLY.  It answers a
 * callback of ours, so it is not one of the client's forward Calls,
 * which alone may take a fallen grant's Receives (credits.c).  Anything
 * else counts as a Call.
 */
static bool srdma_recv_raw_bc_reply(const struct srdma_recv *rc)
{
	const __be32 *p = rc->rb.buf;

	return rc->byte_len >= 9 * XDR_UNIT &&
	       p[3] == cpu_to_be32(RPCRDMA_MSG) && !p[4] && !p[5] && !p[6] &&
	       p[8] == rpc_reply;
}

/*
 * A Receive was consumed.  Its replacement waits until a batch of them
 * is due, and the batch goes out with one ib_post_recv(); meanwhile the
 * recv_batch - 1 Receives posted beyond the credits keep every credit
 * backed.  Buffers come from recv_free, or are new while the connection
 * is below its limit.  Any that are missing (the client sent more than
 * its credits, or memory is short) are owed as a deficit, which the
 * buffers nfsd releases make up.  While a fallen grant has Receives
 * to give back, a Call's Receive is one of them: not replaced, and its
 * buffer freed when nfsd is done with it.
 */
static void srdma_recv_refill(struct srdma_xprt *sx, struct srdma_recv *rc)
{
	struct srdma_recv_batch b;
	unsigned int want;

	if (unlikely(atomic_read(&sx->recv_giveback)) &&
	    !srdma_recv_raw_bc_reply(rc) &&
	    atomic_dec_if_positive(&sx->recv_giveback) >= 0) {
		/*
		 * A fallen grant's Receive: not reposted, its buffer freed.
		 * Its credit went back to the budget at the fall.
		 */
		spin_lock(&sx->rx_lock);
		sx->recv_trim++;
		spin_unlock(&sx->rx_lock);
		return;
	}
	if (++sx->recv_owed < sx->recv_batch)
		return;
	want = sx->recv_owed;
	sx->recv_owed = 0;

	b = srdma_recv_gather(sx, want);
	if (b.n < want) {
		spin_lock(&sx->rx_lock);
		sx->recv_deficit += want - b.n;
		spin_unlock(&sx->rx_lock);
		srdma_stat_add(SRDMA_STAT_RQ_STARVE, want - b.n);
		trace_svcrdma_rq_starve(sx, sx->recv_count);
	}
	if (srdma_recv_post_batch(sx, b))
		srdma_close(sx, "cannot replenish Receives");
}

/*
 * The client keeps its credits in use: more than a third of the grant is
 * in messages we have not finished with.  (The rest of what the client
 * holds is in replies on their way or waiting for it, which we cannot
 * see: a client that keeps its whole grant in flight was seen with about
 * half of it here.)  Grow the grant by a batch, from the server's
 * budget: the Receives for it are posted first, and only then do replies
 * carry it (RFC 8166 section 3.3.1).  The rise is added under the Send
 * FIFO lock to the grant of that moment: the quiet check may have
 * lowered it meanwhile (srdma_grant_fall()).
 */
static void srdma_grant_grow(struct srdma_xprt *sx, unsigned int held)
{
	unsigned int grant = READ_ONCE(sx->grant), add, got;
	struct srdma_recv_batch b;

	add = min(sx->recv_batch, sx->max_requests - grant);
	if (!srdma_grant_take(sx, add)) {
		trace_svcrdma_grant_budget(sx, grant, held);
		return;
	}
	b = srdma_recv_gather(sx, add);
	got = b.n;
	srdma_grant_give(sx, add - got);
	if (!got)
		return;
	if (srdma_recv_post_batch(sx, b)) {
		srdma_grant_give(sx, got);
		srdma_close(sx, "cannot post Receives for a larger grant");
		return;
	}
	spin_lock(&sx->sendq.lock);
	grant = sx->grant;
	/* The Receives are posted: now replies may carry the grant. */
	smp_store_release(&sx->grant, grant + got);
	spin_unlock(&sx->sendq.lock);
	trace_svcrdma_grant(sx, grant, grant + got, held);
	srdma_grant_quiet_arm(sx);
}

/*
 * The grant grows, falls or stays (srdma_grant_step()).  Not inline: few
 * Calls come here, and its view on the stack would put a stack canary
 * in every Receive completion.
 */
static noinline void srdma_grant_review(struct srdma_xprt *sx,
					unsigned int held, unsigned int grant,
					bool window_end)
{
	struct srdma_grant_view v;

	v.held = held;
	v.grant = grant;
	v.floor = srdma_grant_floor(sx);
	v.max = sx->max_requests;
	v.batch = sx->recv_batch;
	v.peak = sx->held_peak;
	v.window_end = window_end;
	if (window_end) {
		sx->window_calls = 0;
		sx->held_peak = 0;
	}
	v.falling = atomic_read(&sx->recv_giveback);
	srdma_grant_share(sx, &v);

	switch (srdma_grant_step(&v)) {
	case SRDMA_GRANT_GROW:
		srdma_grant_grow(sx, v.held);
		break;
	case SRDMA_GRANT_AT_SHARE:
		trace_svcrdma_grant_share(sx, v.grant, v.held, v.peer_lent,
					  v.share);
		break;
	case SRDMA_GRANT_IDLE:
		srdma_grant_fall(sx, v.batch, v.peak, SRDMA_GRANT_IDLE);
		break;
	case SRDMA_GRANT_OVER_SHARE:
		srdma_grant_fall(sx, v.batch, v.held, SRDMA_GRANT_OVER_SHARE);
		break;
	case SRDMA_GRANT_KEEP:
	case SRDMA_GRANT_QUIET:	/* never srdma_grant_step()'s */
		break;
	}
}

/*
 * A Call came: see whether the grant is to change, and note when, for the
 * quiet check (srdma_grant_quiet_check()).
 */
static void srdma_grant_adjust(struct srdma_xprt *sx)
{
	unsigned int held, grant = READ_ONCE(sx->grant);
	bool window_end;

	WRITE_ONCE(sx->last_call, jiffies);
	held = ++sx->calls_in - (unsigned int)atomic_read(&sx->calls_done);
	sx->held_peak = max(sx->held_peak, held);
	window_end = ++sx->window_calls >= SRDMA_GRANT_WINDOW * grant;
	/* Most Calls: no window ends, no rise is due, no budget is shared. */
	if (likely(!window_end && 3 * held <= grant && !srdma_grant_sharing()))
		return;
	srdma_grant_review(sx, held, grant, window_end);
}

static void srdma_recv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct srdma_recv *rc = container_of(wc->wr_cqe, struct srdma_recv,
					     rb.cqe);
	struct srdma_xprt *sx = rc->sx;

	srdma_stat_add(SRDMA_STAT_RQ_POLL, 1);
	if (wc->status != IB_WC_SUCCESS) {
		rpcrdma_conn_wc(&sx->conn, wc);
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			trace_svcrdma_wc_recv_err(wc, &rc->cid);
		else
			trace_svcrdma_wc_recv_flush(wc, &rc->cid);
		srdma_recv_stash(sx, rc);
		srdma_close(sx, "receive completion error");
		return;
	}
	trace_svcrdma_wc_recv(wc, &rc->cid);
	rc->byte_len = wc->byte_len;
	rpcrdma_recv_buf_sync(&rc->rb, sx->device, rc->byte_len);
	srdma_recv_refill(sx, rc);
	srdma_grant_adjust(sx);

	spin_lock(&sx->rx_lock);
	list_add_tail(&rc->node, &sx->rx_ready);
	spin_unlock(&sx->rx_lock);
	set_bit(XPT_DATA, &sx->xprt.xpt_flags);
	svc_xprt_enqueue(&sx->xprt);
}

/* One event per kind of malformed message, as the kernel's module has. */
static void srdma_trace_bad_call(const struct srdma_recv *rc,
				 enum rpcrdma_wire_err err)
{
	if (!rc->hdr.fixed_valid)
		trace_svcrdma_decode_short_err(rc, err);
	else if (err == RPCRDMA_WIRE_ERR_VERSION)
		trace_svcrdma_decode_badvers_err(rc, err);
	else if (err == RPCRDMA_WIRE_ERR_UNSUPPORTED_PROC ||
		 rc->hdr.proc == RPCRDMA_ERROR)
		trace_svcrdma_decode_drop_err(rc, err);
	else if (err == RPCRDMA_WIRE_ERR_BAD_PROC)
		trace_svcrdma_decode_badproc_err(rc, err);
	else
		trace_svcrdma_decode_parse_err(rc, err);
}

/**
 * srdma_peer_error - account for a malformed message from the client
 * @sx: the connection
 * @rc: the Receive that carried the message, for the trace and its XID
 * @answer: answer with RDMA_ERROR (the fixed header was received and
 *	the message is not itself an RDMA_ERROR)
 * @err: what was wrong with it
 *
 * Zero is an XID like any other: whether to answer is @answer's to say.
 * A client that keeps sending malformed messages is disconnected.
 */
void srdma_peer_error(struct srdma_xprt *sx, struct srdma_recv *rc,
		      bool answer, enum rpcrdma_wire_err err)
{
	u32 rdma_err = rpcrdma_wire_err_to_rdma_err(err);

	srdma_trace_bad_call(rc, err);
	if (answer && rdma_err)
		srdma_send_error(sx, rc->hdr.xid, rdma_err);
	if (atomic_inc_return(&sx->peer_errors) == SRDMA_MAX_PEER_ERRORS + 1) {
		pr_warn_ratelimited("svcrdma: %s sends malformed messages (%s); disconnecting\n",
				    sx->xprt.xpt_remotebuf,
				    rpcrdma_wire_err_name(err));
		srdma_close(sx, "malformed messages");
	}
}

/**
 * srdma_decode - decode the transport header of a received Call
 * @rc: the Receive, @byte_len bytes of it received
 *
 * The header's storage was attached when the Receive was allocated;
 * rpcrdma_decode_hdr() sets every other field, so nothing is cleared here.
 * Lists that do not fit the Receive's own storage are decoded again into
 * storage for the decoding limits, so the verdict is the limits', not the
 * small storage's; the Receive keeps that storage for its later Calls.
 * Called from an nfsd thread (the storage is allocated with GFP_KERNEL).
 *
 * Return: RPCRDMA_WIRE_OK or the first rule the header breaks
 * (RPCRDMA_WIRE_ERR_NO_STORAGE only if memory for the storage is short).
 */
VISIBLE_IF_KUNIT enum rpcrdma_wire_err srdma_decode(struct srdma_recv *rc)
{
	struct rpcrdma_cursor cursor;
	enum rpcrdma_wire_err err;

	rc->nr_payloads = 0;
	rpcrdma_cursor_init(&cursor, rc->rb.buf, rc->byte_len);
	err = rpcrdma_decode_hdr(&cursor, RPCRDMA_DIR_CALL, &srdma_call_limits,
				 &rc->hdr);
	if (likely(err != RPCRDMA_WIRE_ERR_NO_STORAGE) || rc->big)
		return err;

	rc->big = kmalloc(sizeof(*rc->big), GFP_KERNEL);
	if (!rc->big)
		return err;
	rpcrdma_hdr_init(&rc->hdr, rc->big->chunks, SRDMA_MAX_CHUNKS,
			 rc->big->segs, SRDMA_MAX_SEGS);
	rpcrdma_cursor_init(&cursor, rc->rb.buf, rc->byte_len);
	return rpcrdma_decode_hdr(&cursor, RPCRDMA_DIR_CALL, &srdma_call_limits,
				  &rc->hdr);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_decode);

/* The Call came whole in the Receive: point rq_arg at it. */
static void srdma_arg_inline(struct svc_rqst *rqstp, struct srdma_recv *rc)
{
	struct xdr_buf *arg = &rqstp->rq_arg;

	arg->head[0].iov_base = rc->rb.buf + rc->hdr.hdr_len;
	arg->head[0].iov_len = rc->hdr.inline_len;
	arg->tail[0].iov_base = NULL;
	arg->tail[0].iov_len = 0;
	arg->pages = rqstp->rq_pages;
	arg->page_base = 0;
	arg->page_len = 0;
	arg->buflen = rc->hdr.inline_len;
	arg->len = rc->hdr.inline_len;
}

/* Hand nfsd a Call that is complete: the common end of srdma_recvfrom(). */
static int srdma_call_ready(struct svc_rqst *rqstp, struct srdma_recv *rc)
{
	rqstp->rq_xprt_ctxt = rc;
	rqstp->rq_prot = IPPROTO_MAX;
	svc_xprt_copy_addrs(rqstp, rqstp->rq_xprt);
	set_bit(RQ_SECURE, &rqstp->rq_flags);
	return rqstp->rq_arg.len;
}

/**
 * srdma_next_recv - the next message for srdma_recvfrom() to process
 * @sx: the connection
 * @held: set if the message is a held Call, decoded already
 *
 * A Call whose Reads are done first, then a held Call once pages of
 * Reads came back since the last was refused, then a new one.  XPT_DATA
 * stays set while more are to be processed.
 *
 * Return: the message's Receive, off every list; or NULL.
 */
VISIBLE_IF_KUNIT struct srdma_recv *
srdma_next_recv(struct srdma_xprt *sx, bool *held)
{
	struct srdma_recv *rc;

	*held = false;
	spin_lock(&sx->rx_lock);
	rc = list_first_entry_or_null(&sx->rx_read_done, struct srdma_recv,
				      node);
	if (!rc && unlikely(sx->read_retry)) {
		rc = list_first_entry_or_null(&sx->rx_read_wait,
					      struct srdma_recv, node);
		*held = !!rc;
	}
	if (!rc)
		rc = list_first_entry_or_null(&sx->rx_ready, struct srdma_recv,
					      node);
	if (rc)
		list_del(&rc->node);
	if (list_empty(&sx->rx_read_done) && list_empty(&sx->rx_ready) &&
	    (!sx->read_retry || list_empty(&sx->rx_read_wait)))
		clear_bit(XPT_DATA, &sx->xprt.xpt_flags);
	spin_unlock(&sx->rx_lock);
	return rc;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_next_recv);

/*
 * Start the Reads of a Call's chunks (@retried: a held Call, again).
 * Return: true if they are posted (the Call is finished when they
 * complete) or the Call is held until pages of Reads come back; false
 * if the Call was answered with an error or the connection is closing:
 * drop it.
 */
static bool srdma_read_chunks(struct srdma_xprt *sx, struct srdma_recv *rc,
			      bool retried)
{
	int err;

	err = srdma_read_start(sx, rc, retried);
	if (!err || err == -EAGAIN)
		return true;
	if (err == -EINVAL || err == -EMSGSIZE) {
		srdma_peer_error(sx, rc, true, RPCRDMA_WIRE_ERR_POS_RANGE);
		return false;
	}
	/*
	 * Short of memory, contexts or Send Queue, or the Reads failed:
	 * the client must not wait a whole RPC timeout to send the Call
	 * again.  A new connection makes it retransmit at once.
	 */
	trace_svcrdma_read_error(sx, rc->hdr.xid, err);
	srdma_close(sx, "cannot read a Call's chunks");
	return false;
}

/**
 * srdma_recvfrom - the svc_xprt_ops::xpo_recvfrom method
 * @rqstp: the request to fill
 *
 * Return: the length of the RPC Call in rq_arg, or 0 if there is no Call
 * to process (nothing received, a malformed message that was answered
 * or dropped, a backchannel reply, or a failed RDMA Read).
 */
int srdma_recvfrom(struct svc_rqst *rqstp)
{
	struct svc_xprt *xprt = rqstp->rq_xprt;
	struct srdma_xprt *sx = srdma_xprt(xprt);
	enum rpcrdma_wire_err werr;
	struct srdma_recv *rc;
	bool held;

	/* Nothing for svc_xprt_release() to free if we return 0. */
	rpcrdma_svc_reply_pages_reset(rqstp);
	rqstp->rq_xprt_ctxt = NULL;

	rc = srdma_next_recv(sx, &held);
	/* Let another thread take the next message meanwhile. */
	svc_xprt_received(xprt);
	if (!rc)
		return 0;
	if (rc->read) {
		if (srdma_read_finish(sx, rqstp, rc))
			goto out_drop;
		return srdma_call_ready(rqstp, rc);
	}
	if (unlikely(held))
		goto read_chunks;
	srdma_stat_add(SRDMA_STAT_RECV, 1);

	werr = srdma_decode(rc);
	if (werr == RPCRDMA_WIRE_OK && rc->hdr.proc == RPCRDMA_ERROR)
		werr = RPCRDMA_WIRE_ERR_BAD_PROC;	/* never answered */
	if (werr != RPCRDMA_WIRE_OK) {
		srdma_peer_error(sx, rc, rc->hdr.fixed_valid &&
				 rc->hdr.proc != RPCRDMA_ERROR, werr);
		goto out_drop;
	}
	trace_svcrdma_decode_rqst(rc);

	if (srdma_bc_is_reply(rc)) {
		srdma_bc_receive_reply(sx, rc);
		goto out_drop;
	}
	if (rc->hdr.lists.nr_read_chunks)
		goto read_chunks;
	srdma_arg_inline(rqstp, rc);
	return srdma_call_ready(rqstp, rc);

read_chunks:
	if (srdma_read_chunks(sx, rc, held))
		return 0;	/* finished when the Reads complete, or held */
out_drop:
	srdma_recv_put(sx, rc);
	return 0;
}

/**
 * srdma_release_ctxt - the svc_xprt_ops::xpo_release_ctxt method
 * @xprt: the connection
 * @ctxt: the request's struct srdma_recv, or NULL
 *
 * nfsd is done with the Call: its Receive buffer can be reused.
 */
void srdma_release_ctxt(struct svc_xprt *xprt, void *ctxt)
{
	if (ctxt)
		srdma_recv_put(srdma_xprt(xprt), ctxt);
}
