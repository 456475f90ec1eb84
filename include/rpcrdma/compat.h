/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interfaces that differ between the kernels rpcrdma builds for
 * (Debian's 6.12 and 7.2).  A difference is detected by the interface's
 * own macro where it has one, else by scripts/compat-probe.sh, which
 * reads the target's headers: Debian's 6.12 carries interfaces of later
 * kernels, so LINUX_VERSION_CODE does not say which it has.
 */
#ifndef RPCRDMA_COMPAT_H
#define RPCRDMA_COMPAT_H

#include <linux/gfp.h>
#include <linux/lwq.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/sunrpc/bc_xprt.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xprt.h>

/* 6.14 renamed alloc_pages_bulk_array(); both names are macros. */
#ifndef alloc_pages_bulk
#define alloc_pages_bulk(gfp, nr, pages) alloc_pages_bulk_array(gfp, nr, pages)
#endif

/*
 * The largest payload the server offers nfsd: sunrpc's, 1 MiB in 6.12,
 * 4 MiB in 7.2.  nfsd's max_block_size picks what it uses of it; the
 * queues and the Read budget are sized from sv_max_mesg.  (The client
 * is held by the NFS client's NFS_MAX_FILE_IO_SIZE, 1 MiB in both.)
 */
#define RPCRDMA_SVC_MAX_PAYLOAD	RPCSVC_MAXPAYLOAD

/*
 * The server's default max_requests: the stock server's default credit
 * limit in the target kernel (svc_rdma.h, read by compat-probe.sh), 64
 * in 6.12 and 128 in 7.2.
 */
#ifdef RPCRDMA_STOCK_SVC_REQUESTS
#define RPCRDMA_SVC_DEF_REQUESTS	RPCRDMA_STOCK_SVC_REQUESTS
#else
#define RPCRDMA_SVC_DEF_REQUESTS	64
#endif

/*
 * The namespace of EXPORT_SYMBOL_IF_KUNIT(), as MODULE_IMPORT_NS() takes
 * it: a string literal from 6.13, a bare word before.
 */
#ifdef RPCRDMA_HAVE_NS_STRING
#define RPCRDMA_KUNIT_NS "EXPORTED_FOR_KUNIT_TESTING"
#else
#define RPCRDMA_KUNIT_NS EXPORTED_FOR_KUNIT_TESTING
#endif

/*
 * The parameters of a hand-written KUnit parameter generator: in 7.2
 * it is given its test first.
 */
#ifdef RPCRDMA_HAVE_KUNIT_GEN_TEST
#define RPCRDMA_KUNIT_GEN_ARGS struct kunit *test, const void *prev, char *desc
#else
#define RPCRDMA_KUNIT_GEN_ARGS const void *prev, char *desc
#endif

/**
 * rpcrdma_svc_reply_pages_reset - an empty reply, before a Call
 * @rqstp: the thread's request
 *
 * In 6.12 a thread's pages are one array, the reply's after the Call's:
 * the reply starts at its first page, as the Call here never uses the
 * array (rq_arg points into the Receive or the Read's pages).  In 7.2
 * the reply has an array of its own, which stays.
 */
static inline void rpcrdma_svc_reply_pages_reset(struct svc_rqst *rqstp)
{
#ifndef RPCRDMA_HAVE_SPLIT_RQ_PAGES
	rqstp->rq_respages = rqstp->rq_pages;
#endif
	rqstp->rq_next_page = rqstp->rq_respages;
}

/**
 * rpcrdma_svc_reply_pages_taken - the reply's pages went to a Send
 * @rqstp: the thread's request, its reply pages NULL now
 *
 * In 6.12 svc_alloc_arg() refills every NULL page and the release of
 * [rq_respages, rq_next_page) does not skip NULLs: the range is emptied.
 * In 7.2 only the NULLs of that range are refilled: it stays.
 */
static inline void rpcrdma_svc_reply_pages_taken(struct svc_rqst *rqstp)
{
#ifndef RPCRDMA_HAVE_SPLIT_RQ_PAGES
	rqstp->rq_next_page = rqstp->rq_respages;
#endif
}

/**
 * rpcrdma_bc_enqueue - hand a backchannel Call to the callback service
 * @rqst: the Call, its slot taken
 * @bc_serv: the service, as read before the Call was built
 *
 * Takes a reference on the transport and a backchannel slot, which
 * ->bc_free_rqst gives back.  Where sunrpc does it (7.2), it rereads
 * the service under the lock its shutdown takes and frees the request
 * if the service is gone; before, the service outlives its transports'
 * Calls by the order of NFS's shutdown.
 */
static inline void rpcrdma_bc_enqueue(struct rpc_rqst *rqst,
				      struct svc_serv *bc_serv)
{
	struct rpc_xprt *xprt = rqst->rq_xprt;

	atomic_inc(&xprt->bc_slot_count);
#ifdef RPCRDMA_HAVE_XPRT_ENQUEUE_BC_REQUEST
	xprt_enqueue_bc_request(rqst);
#else
	xprt_get(xprt);
	lwq_enqueue(&rqst->rq_bc_list, &bc_serv->sv_cb_list);
	svc_pool_wake_idle_thread(&bc_serv->sv_pools[0]);
#endif
}

#endif /* RPCRDMA_COMPAT_H */
