// SPDX-License-Identifier: GPL-2.0
/*
 * FRWR memory registration for the client.
 *
 * Each endpoint has its own pool of MRs in its own protection domain.
 * An MR is lent to one request from registration (marshal) until it is
 * invalidated: by the server with Send With Invalidate, by a LocalInv
 * we post after the reply, or by tearing down the endpoint.  A
 * request's rkeys are therefore never valid after its RPC completes:
 * the RPC completes only after the invalidation does.  The request's
 * slot then keeps up to XRDMA_MR_STASH of them for its next RPC, so
 * that most RPCs take and return their MRs without the pool's lock.
 */
#include <kunit/visibility.h>
#include <linux/highmem.h>
#include <linux/sched/mm.h>
#include <linux/moduleparam.h>

#include "client.h"
#include "trace.h"

/*
 * MRs made when an endpoint is set up: enough for 16 RPCs in flight with
 * a chunk each, and the MRs their slots keep (XRDMA_MR_STASH), so that
 * the usual queue depths never make one during I/O.  When fewer than
 * XRDMA_MR_LOW are free, a work item makes XRDMA_MR_REFILL more, so that
 * registration seldom waits for an allocation; only an empty pool makes
 * one in the I/O path.
 */
#define XRDMA_MR_PREALLOC	32
#define XRDMA_MR_LOW		4
#define XRDMA_MR_REFILL		16

/* Only failed FastReg and LocalInv WRs get here (they are unsignaled). */
static void xrdma_mr_reg_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xrdma_mr *mr = container_of(wc->wr_cqe, struct xrdma_mr, cqe);

	trace_xprtrdma_wc_fastreg(wc, &mr->cid);
	xrdma_wc_failed(mr->ep->rx, wc);
}

static void xrdma_mr_inv_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xrdma_mr *mr = container_of(wc->wr_cqe, struct xrdma_mr,
					   li_cqe);

	trace_xprtrdma_wc_li(wc, &mr->cid);
	xrdma_wc_failed(mr->ep->rx, wc);
}

static struct xrdma_mr *xrdma_mr_alloc(struct xrdma_ep *ep)
{
	struct xrdma_mr *mr;
	unsigned int flags;
	struct ib_mr *ibmr;

	/* We may be called while the RPC layer writes back or swaps out. */
	flags = memalloc_noio_save();
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		goto out;
	/*
	 * One entry per page: a run covers at most mr_depth pages.  An
	 * array of its own fits its kmalloc object (256 entries, 8 KiB),
	 * where one allocation with @mr would take the next size up.
	 * Zeroed once, by the allocator: what sg_init_table() does besides
	 * is sg_init_marker(), below.
	 */
	mr->sg = kcalloc(ep->mr_depth, sizeof(*mr->sg), GFP_KERNEL);
	if (!mr->sg)
		goto out_mr;
	ibmr = ib_alloc_mr(ep->ib.pd, IB_MR_TYPE_MEM_REG, ep->mr_depth);
	if (IS_ERR(ibmr))
		goto out_sg;
	mr->ibmr = ibmr;
	mr->ep = ep;
	/* What every registration of this MR posts the same way. */
	mr->reg_wr.wr.opcode = IB_WR_REG_MR;
	mr->reg_wr.wr.wr_cqe = &mr->cqe;
	mr->reg_wr.mr = ibmr;
	mr->cqe.done = xrdma_mr_reg_done;
	mr->li_cqe.done = xrdma_mr_inv_done;
	rpcrdma_cid_init(&mr->cid, ep->ib.send_cq, ibmr->res.id);
	/* Once: each registration sets the entries it uses and their count. */
	sg_init_marker(mr->sg, ep->mr_depth);
	INIT_LIST_HEAD(&mr->node);
	atomic_long_inc(&ep->rx->stats.mrs_allocated);
out:
	memalloc_noio_restore(flags);
	return mr;

out_sg:
	kfree(mr->sg);
out_mr:
	kfree(mr);
	mr = NULL;
	goto out;
}

static void xrdma_mr_free(struct xrdma_mr *mr)
{
	kfree(mr->sg);
	kfree(mr);
}

/* Put @n new MRs on @ep's free list; @why names the caller's need. */
static void xrdma_mr_pool_add(struct xrdma_ep *ep, unsigned int n,
			      const char *why)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct xrdma_mr *mr = xrdma_mr_alloc(ep);

		if (!mr)
			break;
		spin_lock(&ep->mr_lock);
		list_add_tail(&mr->all_node, &ep->mr_all);
		list_add_tail(&mr->node, &ep->mr_free);
		ep->mr_nr_free++;
		spin_unlock(&ep->mr_lock);
	}
	trace_xprtrdma_createmrs(&ep->rx->xprt, i, why);
}

static void xrdma_mr_refill_worker(struct work_struct *work)
{
	struct xrdma_ep *ep = container_of(work, struct xrdma_ep, mr_refill);

	xrdma_mr_pool_add(ep, XRDMA_MR_REFILL, "refill");
}

/* An MR for @req: one it kept from its last RPC, else one of the pool. */
static struct xrdma_mr *xrdma_mr_get(struct xrdma_req *req,
				     struct xrdma_ep *ep)
{
	struct xrdma_mr *mr;
	bool low;

	if (req->nr_mr_stash) {
		mr = req->mr_stash[--req->nr_mr_stash];
		if (!WARN_ON_ONCE(mr->ep != ep))
			return mr;
		/* Not reachable: the stash goes with its connection. */
		req->nr_mr_stash = 0;
	}

	spin_lock(&ep->mr_lock);
	mr = list_first_entry_or_null(&ep->mr_free, struct xrdma_mr, node);
	if (mr) {
		list_del_init(&mr->node);
		ep->mr_nr_free--;
	}
	low = ep->mr_nr_free < XRDMA_MR_LOW;
	spin_unlock(&ep->mr_lock);
	/* A no-op while the refill is pending already. */
	if (unlikely(low))
		queue_work(system_unbound_wq, &ep->mr_refill);
	if (mr)
		return mr;

	/* Empty: this registration cannot wait for the refill. */
	mr = xrdma_mr_alloc(ep);
	if (!mr)
		return NULL;
	spin_lock(&ep->mr_lock);
	list_add_tail(&mr->all_node, &ep->mr_all);
	spin_unlock(&ep->mr_lock);
	trace_xprtrdma_createmrs(&ep->rx->xprt, 1, "empty");
	return mr;
}

/*
 * A memory region the CPU already owns (xrdma_mrs_sync_for_cpu()) is
 * unmapped without a sync: with bounce buffers that sync would copy the
 * device's view of the memory over what the reply's placement wrote
 * there since, and with non-coherent caches it would discard it.
 */
static void xrdma_mr_unmap(struct xrdma_mr *mr)
{
	if (mr->nents) {
		ib_dma_unmap_sg_attrs(mr->ep->device, mr->sg, mr->nents,
				      mr->dir,
				      mr->cpu_owns ? DMA_ATTR_SKIP_CPU_SYNC : 0);
		mr->nents = 0;
		mr->cpu_owns = false;
	}
}

/**
 * xrdma_mrs_sync_for_cpu - give the CPU the memory a reply is written into
 * @req: request whose reply has arrived, with MRs still registered
 *
 * The server's RDMA Writes are placed before its Send arrives (the
 * ordering RFC 8166 relies on), so once the reply is here the device
 * has written all it will.  The receive buffer's memory is synced for
 * the CPU now, before the reply's inline part is copied into it, and
 * the MRs are unmapped later without syncing again (xrdma_mr_unmap()):
 * the copy then survives the unmap however the platform does DMA.
 * Memory the server only read is left alone: the CPU does not write
 * to it.
 */
void xrdma_mrs_sync_for_cpu(struct xrdma_req *req)
{
	unsigned int i;

	for (i = 0; i < req->nr_mrs; i++) {
		struct xrdma_mr *mr = req->mrs[i];
		struct ib_device *device = mr->ep->device;

		if (mr->dir != DMA_FROM_DEVICE || !mr->nents || mr->cpu_owns)
			continue;
		if (!ib_uses_virt_dma(device))
			dma_sync_sg_for_cpu(device->dma_device, mr->sg,
					    mr->nents, DMA_FROM_DEVICE);
		mr->cpu_owns = true;
	}
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_mrs_sync_for_cpu);

/*
 * Debug: with rpcrdma.dma_order_check=1, every copy of a reply into its
 * receive buffer first checks that no MR maps the bytes it writes for
 * the device (xrdma_check_cpu_write()).  Off, the checks cost a no-op
 * jump; soft-RoCE and siw bypass the DMA API, so without this a copy
 * placed too early shows nothing there.
 */
DEFINE_STATIC_KEY_FALSE(xrdma_dma_order_check);

static int xrdma_dma_order_check_set(const char *val,
				     const struct kernel_param *kp)
{
	bool on;
	int rc;

	rc = kstrtobool(val, &on);
	if (rc)
		return rc;
	if (on)
		static_branch_enable(&xrdma_dma_order_check);
	else
		static_branch_disable(&xrdma_dma_order_check);
	return 0;
}

static int xrdma_dma_order_check_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%c\n",
			  static_key_enabled(&xrdma_dma_order_check) ?
			  'Y' : 'N');
}

static const struct kernel_param_ops xrdma_dma_order_check_ops = {
	.set	= xrdma_dma_order_check_set,
	.get	= xrdma_dma_order_check_get,
};

module_param_cb(dma_order_check, &xrdma_dma_order_check_ops, NULL, 0644);
MODULE_PARM_DESC(dma_order_check,
		 "Debug: warn when the client copies a reply into memory an MR still maps for the device");

/**
 * xrdma_mr_maps_for_device - the MR of @req that maps bytes for the device
 * @req: request with a reply in progress
 * @page: page the CPU is about to write
 * @off: offset of the first byte in @page
 * @len: bytes, all within @page
 *
 * Return: an MR of @req that maps some of the bytes DMA_FROM_DEVICE and
 * has not been synced for the CPU, or NULL.
 */
VISIBLE_IF_KUNIT struct xrdma_mr *
xrdma_mr_maps_for_device(const struct xrdma_req *req, const struct page *page,
			 unsigned int off, unsigned int len)
{
	phys_addr_t start = page_to_phys(page) + off, end = start + len;
	struct scatterlist *sg;
	unsigned int i;
	int j;

	for (i = 0; i < req->nr_mrs; i++) {
		struct xrdma_mr *mr = req->mrs[i];

		if (mr->dir != DMA_FROM_DEVICE || mr->cpu_owns)
			continue;
		/* An entry may span pages (xrdma_mr_fill_sg()). */
		for_each_sg(mr->sg, sg, mr->nents, j)
			if (start < sg_phys(sg) + sg->length &&
			    sg_phys(sg) < end)
				return mr;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_mr_maps_for_device);

/* Check @len bytes at @kaddr page by page; true if an MR maps one. */
static bool xrdma_check_kaddr(struct xrdma_req *req, const void *kaddr,
			      unsigned int len)
{
	struct xrdma_mr *mr;

	while (len) {
		unsigned int off = offset_in_page(kaddr);
		unsigned int n = min_t(unsigned int, len, PAGE_SIZE - off);

		mr = xrdma_mr_maps_for_device(req, rpcrdma_kaddr_page(kaddr),
					      off, n);
		if (mr) {
			WARN_ONCE(1, "rpcrdma: reply to XID 0x%08x copied into memory MR 0x%08x maps for the device\n",
				  be32_to_cpu(req->rqst.rq_xid),
				  mr->ibmr->rkey);
			return true;
		}
		kaddr += n;
		len -= n;
	}
	return false;
}

/**
 * __xrdma_check_cpu_write - xrdma_check_cpu_write() with the check on
 * @req: request whose reply is being placed
 * @xdr: its receive buffer, or NULL for @len bytes at @kaddr
 * @kaddr: with @xdr NULL, the kernel address about to be written
 * @offset: with @xdr, the first byte of @xdr about to be written
 * @len: bytes about to be written
 */
void __xrdma_check_cpu_write(struct xrdma_req *req, const struct xdr_buf *xdr,
			     const void *kaddr, unsigned int offset,
			     unsigned int len)
{
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS];
	int i, nparts;

	if (!req->nr_mrs)
		return;
	if (!xdr) {
		xrdma_check_kaddr(req, kaddr, len);
		return;
	}
	nparts = rpcrdma_xdr_range_parts(xdr, offset, len, part);
	for (i = 0; i < nparts; i++) {
		unsigned int base = part[i].base, left = part[i].len;

		if (!part[i].pages) {
			if (xrdma_check_kaddr(req, part[i].kaddr, left))
				return;
			continue;
		}
		while (left) {
			struct page *page = part[i].pages[base >> PAGE_SHIFT];
			unsigned int off = offset_in_page(base);
			unsigned int n = min_t(unsigned int, left,
					       PAGE_SIZE - off);

			if (page && xrdma_check_kaddr(req, page_address(page) +
						      off, n))
				return;
			base += n;
			left -= n;
		}
	}
}

/* @mr, unreachable by the server, goes back: to @req's stash or the pool. */
static void xrdma_mr_put(struct xrdma_req *req, struct xrdma_mr *mr)
{
	struct xrdma_ep *ep = mr->ep;

	xrdma_mr_unmap(mr);
	mr->req = NULL;
	mr->remote_invalidated = false;
	if (req->nr_mr_stash < ARRAY_SIZE(req->mr_stash)) {
		req->mr_stash[req->nr_mr_stash++] = mr;
		return;
	}
	spin_lock(&ep->mr_lock);
	list_add(&mr->node, &ep->mr_free);
	ep->mr_nr_free++;
	spin_unlock(&ep->mr_lock);
}

/**
 * xrdma_mrs_unstash - forget the MRs a request slot keeps
 * @req: slot of a connection whose MRs are about to be destroyed
 *	(xrdma_mr_pool_destroy() frees them with the rest)
 */
void xrdma_mrs_unstash(struct xrdma_req *req)
{
	req->nr_mr_stash = 0;
}

/**
 * xrdma_mr_pool_prepare - set up the empty MR pool of a new endpoint
 * @ep: endpoint being made
 *
 * xrdma_mr_pool_destroy() may be called from then on.
 */
void xrdma_mr_pool_prepare(struct xrdma_ep *ep)
{
	spin_lock_init(&ep->mr_lock);
	INIT_LIST_HEAD(&ep->mr_free);
	INIT_LIST_HEAD(&ep->mr_all);
	ep->mr_nr_free = 0;
	INIT_WORK(&ep->mr_refill, xrdma_mr_refill_worker);
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_mr_pool_prepare);

/**
 * xrdma_mr_pool_init - fill the MR pool of a new endpoint
 * @ep: endpoint with its pool prepared, its protection domain and
 *	@mr_depth set
 *
 * Return: 0 or -ENOMEM.
 */
int xrdma_mr_pool_init(struct xrdma_ep *ep)
{
	xrdma_mr_pool_add(ep, XRDMA_MR_PREALLOC, "setup");
	return ep->mr_nr_free < XRDMA_MR_PREALLOC ? -ENOMEM : 0;
}

/**
 * xrdma_mr_pool_destroy - deregister and free every MR of an endpoint
 * @ep: endpoint whose queue pair is gone and whose requests have
 *	released their MRs
 */
void xrdma_mr_pool_destroy(struct xrdma_ep *ep)
{
	struct xrdma_mr *mr, *tmp;

	/* No registration is left to queue it again. */
	cancel_work_sync(&ep->mr_refill);
	list_for_each_entry_safe(mr, tmp, &ep->mr_all, all_node) {
		if (mr->req)
			atomic_long_inc(&ep->rx->stats.mrs_orphaned);
		xrdma_mr_unmap(mr);
		ib_dereg_mr(mr->ibmr);
		list_del(&mr->all_node);
		xrdma_mr_free(mr);
	}
	INIT_LIST_HEAD(&ep->mr_free);
	ep->mr_nr_free = 0;
}

/* Number of pages (at most @depth) the next MR of a run covers. */
static unsigned int xrdma_run_pages(void *kaddr, unsigned int base,
				    unsigned int len, unsigned int depth)
{
	unsigned int off = kaddr ? offset_in_page(kaddr + base) :
				   offset_in_page(base);

	return min_t(unsigned int, depth, DIV_ROUND_UP(off + len, PAGE_SIZE));
}

/**
 * xrdma_mr_fill_sg - describe the next MR's share of a part in its scatterlist
 * @mr: the MR, whose table has at least @want entries
 * @pages: the part's page vector, or NULL for kernel memory at @kaddr
 * @kaddr: the part's kernel memory, if @pages is NULL
 * @base: IN/OUT: the part's next byte in @pages or at @kaddr
 * @len: IN/OUT: the part's bytes left, not zero
 * @want: pages the MR is to cover (xrdma_run_pages())
 * @writing: the server will write the memory
 *
 * Up to @want pages' worth of bytes are described; @base and @len
 * advance past them.  Memory in the direct map is physically contiguous
 * and takes one entry however many pages it spans, which the DMA API
 * and ib_map_mr_sg() split into pages as they need; a page vector, and
 * vmalloc memory, take one entry per page.  A hole in the page vector
 * of a buffer the server writes gets a new page.  The table is not
 * cleared first: the entries filled are the ones mapped, by count
 * (xrdma_mr_map()).
 *
 * Return: entries filled, or -errno.
 */
VISIBLE_IF_KUNIT int xrdma_mr_fill_sg(struct xrdma_mr *mr, struct page **pages,
				      void *kaddr, unsigned int *base,
				      unsigned int *len, unsigned int want,
				      bool writing)
{
	unsigned int nsg = 0;

	if (!pages && !is_vmalloc_addr(kaddr)) {
		void *p = kaddr + *base;
		unsigned int off = offset_in_page(p);
		unsigned int chunk = min_t(unsigned int, *len,
					   want * PAGE_SIZE - off);

		sg_set_page(&mr->sg[0], virt_to_page(p), chunk, off);
		*base += chunk;
		*len -= chunk;
		return 1;
	}
	while (*len && nsg < want) {
		unsigned int off, chunk;
		struct page *page;

		if (pages) {
			struct page **pp = &pages[*base >> PAGE_SHIFT];

			if (!*pp) {
				if (!writing)
					return -EIO;
				*pp = alloc_page(GFP_NOIO);
				if (!*pp)
					return -ENOMEM;
			}
			page = *pp;
			off = offset_in_page(*base);
		} else {
			page = vmalloc_to_page(kaddr + *base);
			off = offset_in_page(kaddr + *base);
		}
		chunk = min_t(unsigned int, *len, PAGE_SIZE - off);
		sg_set_page(&mr->sg[nsg++], page, chunk, off);
		*base += chunk;
		*len -= chunk;
	}
	return nsg;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_mr_fill_sg);

/*
 * Map @mr's @nsg entries and prepare its FastReg WR with a new rkey;
 * @mr->seg is then the segment to tell the server.  Return: 0 or -EIO.
 */
static int xrdma_mr_map(struct xrdma_ep *ep, struct xrdma_mr *mr,
			unsigned int nsg, bool writing)
{
	int mapped, n;

	mr->dir = writing ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	mapped = ib_dma_map_sg(ep->device, mr->sg, nsg, mr->dir);
	if (!mapped) {
		trace_xprtrdma_frwr_sgerr(mr, nsg);
		return -EIO;
	}
	mr->nents = nsg;
	n = ib_map_mr_sg(mr->ibmr, mr->sg, mapped, NULL, PAGE_SIZE);
	if (n != mapped) {
		trace_xprtrdma_frwr_maperr(mr, n, mapped);
		return -EIO;
	}

	ib_update_fast_reg_key(mr->ibmr, ib_inc_rkey(mr->ibmr->rkey));
	mr->reg_wr.key = mr->ibmr->rkey;
	mr->reg_wr.access = writing ?
		IB_ACCESS_REMOTE_WRITE | IB_ACCESS_LOCAL_WRITE :
		IB_ACCESS_REMOTE_READ;

	mr->seg.handle = mr->ibmr->rkey;
	mr->seg.length = mr->ibmr->length;
	mr->seg.offset = mr->ibmr->iova;
	trace_xprtrdma_mr_map(mr);
	return 0;
}

/**
 * xrdma_register_part - register one part of an xdr_buf for the server
 * @req: the request that will own the MRs
 * @pages: the part's page vector, or NULL for kernel memory at @kaddr
 * @kaddr: the part's kernel memory (head or tail), if @pages is NULL
 * @base: the part's first byte in @pages or at @kaddr
 * @len: the part's length in bytes
 * @writing: the server will write (true) or read (false) the memory
 *
 * One part is an xdr_buf's share of the head, of the page vector or of
 * the tail; it is registered in MRs of up to the MR depth, each one
 * segment (mr->seg), added to @req->mrs in order.  Its arguments are a
 * part's fields, not the part: a caller with one part keeps nothing on
 * its stack.  See also xrdma_register_pages().
 *
 * Return: number of MRs added, or -errno.
 */
int xrdma_register_part(struct xrdma_req *req, struct page **pages,
			void *kaddr, unsigned int base, unsigned int len,
			bool writing)
{
	struct xrdma_ep *ep = req->rx->ep;
	unsigned int nsegs = 0;

	while (len) {
		struct xrdma_mr *mr;
		unsigned int want;
		int nsg, rc;

		if (req->nr_mrs == XRDMA_MAX_MRS)
			return -EMSGSIZE;
		mr = xrdma_mr_get(req, ep);
		if (!mr) {
			trace_xprtrdma_nomrs_err(&req->rqst);
			return -ENOBUFS;
		}
		mr->req = req;
		req->mrs[req->nr_mrs++] = mr;
		req->mr_ep = ep;

		want = xrdma_run_pages(pages ? NULL : kaddr, base, len,
				       ep->mr_depth);
		nsg = xrdma_mr_fill_sg(mr, pages, kaddr, &base, &len, want,
				       writing);
		if (nsg < 0)
			return nsg;
		rc = xrdma_mr_map(ep, mr, nsg, writing);
		if (rc)
			return rc;
		nsegs++;
	}
	return nsegs;
}

/**
 * xrdma_register_xdr - register part of an xdr_buf for RDMA by the server
 * @req: the request that will own the MRs
 * @xdr: send buffer (server reads) or receive buffer (server writes)
 * @offset: first byte of @xdr to register
 * @len: number of bytes to register
 * @writing: the server will write (true) or read (false) the memory
 *
 * The head, the page list and the tail are registered separately, so
 * a chunk over all three has at least three segments.  The MRs are
 * added to @req->mrs in the order of the bytes they cover; each one's
 * segment, as the server is to be told, is its @seg.  On error, MRs
 * already taken stay in @req and are released by xrdma_mrs_release().
 *
 * Return: number of MRs added, or -errno.
 */
int xrdma_register_xdr(struct xrdma_req *req, struct xdr_buf *xdr,
		       unsigned int offset, unsigned int len, bool writing)
{
	struct rpcrdma_xdr_part part[RPCRDMA_XDR_PARTS] __uninitialized;
	int i, n, nparts, nsegs = 0;

	nparts = rpcrdma_xdr_range_parts(xdr, offset, len, part);
	if (nparts < 0)
		return -EINVAL;
	for (i = 0; i < nparts; i++) {
		n = xrdma_register_part(req, part[i].pages, part[i].kaddr,
					part[i].base, part[i].len, writing);
		if (n < 0)
			return n;
		nsegs += n;
	}
	return nsegs;
}

/**
 * xrdma_mrs_reg_chain - link the FastReg WRs of a request's MRs
 * @req: request whose MRs were just registered
 * @next: work request to post after the last FastReg
 *
 * Return: the first work request of the chain.
 */
struct ib_send_wr *xrdma_mrs_reg_chain(struct xrdma_req *req,
				       struct ib_send_wr *next)
{
	unsigned int i = req->nr_mrs;

	while (i--) {
		req->mrs[i]->reg_wr.wr.next = next;
		next = &req->mrs[i]->reg_wr.wr;
	}
	return next;
}

/**
 * xrdma_mrs_recover - give back MRs no invalidation completed for
 * @req: request whose MRs are out of the server's reach because their
 *	queue pair is gone or in error, or were never posted
 *
 * As xrdma_mrs_release(), counting them as recovered (mountstats'
 * "Recovered MRs", as the stock client counts them).
 */
void xrdma_mrs_recover(struct xrdma_req *req)
{
	atomic_long_add(req->nr_mrs, &req->rx->stats.mrs_recycled);
	xrdma_mrs_release(req);
}

/**
 * xrdma_mrs_release - give a request's MRs back to their pool
 * @req: request whose MRs are no longer reachable by the server:
 *	invalidated, or their queue pair is gone or in error
 */
void xrdma_mrs_release(struct xrdma_req *req)
{
	unsigned int i;

	for (i = 0; i < req->nr_mrs; i++) {
		xrdma_mr_put(req, req->mrs[i]);
		req->mrs[i] = NULL;
	}
	req->nr_mrs = 0;
	req->mr_ep = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_mrs_release);

/*
 * Chain LocalInv WRs for every MR the server did not invalidate.
 * Returns the last WR (the one to signal), or NULL if none is needed.
 */
static struct ib_send_wr *xrdma_inv_chain(struct xrdma_req *req,
					  struct ib_send_wr **first)
{
	struct ib_send_wr *prev = NULL;
	unsigned int i;

	*first = NULL;
	for (i = 0; i < req->nr_mrs; i++) {
		struct xrdma_mr *mr = req->mrs[i];
		struct ib_send_wr *wr = &mr->inv_wr;

		if (mr->remote_invalidated)
			continue;
		memset(wr, 0, sizeof(*wr));
		wr->opcode = IB_WR_LOCAL_INV;
		wr->wr_cqe = &mr->li_cqe;
		wr->ex.invalidate_rkey = mr->ibmr->rkey;
		trace_xprtrdma_mr_localinv(mr);
		req->inv_cid = mr->cid;
		if (prev)
			prev->next = wr;
		else
			*first = wr;
		prev = wr;
		atomic_long_inc(&req->rx->stats.local_inv_needed);
	}
	return prev;
}

static void xrdma_inv_reply_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xrdma_req *req = container_of(wc->wr_cqe, struct xrdma_req,
					     inv_cqe);

	trace_xprtrdma_wc_li_done(wc, &req->inv_cid);
	if (wc->status != IB_WC_SUCCESS) {
		xrdma_wc_failed(req->rx, wc);
		xrdma_mrs_recover(req);
	} else {
		xrdma_mrs_release(req);
	}
	xrdma_req_done(req);
}

/*
 * A LocalInv could not be posted, so nothing will tell us when the
 * server loses access to the MRs.  Put the queue pair into the error
 * state: from then on the device answers no RDMA request on it, and the
 * MRs (in this connection's own protection domain) are out of reach.
 */
static void xrdma_qp_fence(struct xrdma_req *req, struct ib_qp *qp, int rc)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	int err;

	trace_xprtrdma_post_linv_err(&req->rqst, rc);
	err = ib_modify_qp(qp, &attr, IB_QP_STATE);
	if (err)
		pr_warn_ratelimited("rpcrdma: cannot fence a queue pair after a failed LocalInv: %d\n",
				    err);
	xrdma_force_disconnect(req->rx, "LocalInv not posted");
}

/**
 * xrdma_mrs_invalidate - invalidate a request's MRs after its reply
 * @req: request whose reply has been placed
 * @remote_rkey: rkey the server invalidated with Send With Invalidate,
 *	or NULL
 *
 * Calls xrdma_req_done() once no MR of @req can be reached by the
 * server any more: at once if the server invalidated them all, or from
 * the completion of the last LocalInv.
 *
 * Return: number of LocalInv posted (0 if none was needed).
 */
int xrdma_mrs_invalidate(struct xrdma_req *req, const u32 *remote_rkey)
{
	struct ib_send_wr *first, *last;
	const struct ib_send_wr *bad;
	unsigned int i;
	int rc;

	/* The usual case: one MR, which the server's Send invalidated. */
	if (remote_rkey && req->nr_mrs == 1 &&
	    req->mrs[0]->ibmr->rkey == *remote_rkey) {
		trace_xprtrdma_mr_reminv(req->mrs[0]);
		xrdma_mrs_release(req);
		xrdma_req_done(req);
		return 0;
	}
	if (remote_rkey) {
		for (i = 0; i < req->nr_mrs; i++)
			if (req->mrs[i]->ibmr->rkey == *remote_rkey) {
				req->mrs[i]->remote_invalidated = true;
				trace_xprtrdma_mr_reminv(req->mrs[i]);
			}
	}
	last = xrdma_inv_chain(req, &first);
	if (!last) {
		xrdma_mrs_release(req);
		xrdma_req_done(req);
		return 0;
	}
	last->send_flags = IB_SEND_SIGNALED;
	req->inv_cqe.done = xrdma_inv_reply_done;
	last->wr_cqe = &req->inv_cqe;
	rc = ib_post_send(req->mr_ep->ib.qp, first, &bad);
	if (rc) {
		xrdma_qp_fence(req, req->mr_ep->ib.qp, rc);
		xrdma_mrs_recover(req);
		xrdma_req_done(req);
		return 0;
	}
	return 1;
}

static void xrdma_inv_sync_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct xrdma_req *req = container_of(wc->wr_cqe, struct xrdma_req,
					     inv_cqe);

	trace_xprtrdma_wc_li_wake(wc, &req->inv_cid);
	if (wc->status != IB_WC_SUCCESS)
		xrdma_wc_failed(req->rx, wc);
	complete(&req->inv_sync);
}

/**
 * xrdma_mrs_invalidate_sync - invalidate MRs of an RPC that ended early
 * @req: request released without a reply (signal, timeout, error)
 *
 * Waits until the server can no longer reach the memory: the LocalInv
 * completes, or is flushed because the queue pair is in error, which
 * ends remote access just as well (RFC 8166 section 8).  That holds
 * whether or not the connection is still marked up: an address change
 * marks it down while the queue pair still works.  The caller holds the
 * transport's ep_rwsem for reading, so the queue pair cannot go away
 * meanwhile; an endpoint that is already gone took the MRs back after
 * draining its queue pair.
 */
void xrdma_mrs_invalidate_sync(struct xrdma_req *req)
{
	struct xrdma_ep *ep = req->mr_ep;
	struct ib_send_wr *first, *last;
	const struct ib_send_wr *bad;
	int rc;

	if (WARN_ON_ONCE(!ep || ep != req->rx->ep))
		goto release;
	last = xrdma_inv_chain(req, &first);
	if (!last)
		goto release;
	last->send_flags = IB_SEND_SIGNALED;
	req->inv_cqe.done = xrdma_inv_sync_done;
	last->wr_cqe = &req->inv_cqe;
	reinit_completion(&req->inv_sync);
	rc = ib_post_send(ep->ib.qp, first, &bad);
	if (rc) {
		xrdma_qp_fence(req, ep->ib.qp, rc);
		xrdma_mrs_recover(req);
		return;
	}
	wait_for_completion(&req->inv_sync);
release:
	xrdma_mrs_release(req);
}
