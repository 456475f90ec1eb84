// SPDX-License-Identifier: GPL-2.0
/*
 * The server transport class "rdma": what the sunrpc server layer calls.
 * `echo "rdma 20049" > /proc/fs/nfsd/portlist` creates a listener through
 * it for IPv4 and one for IPv6.
 */
#include <kunit/static_stub.h>
#include <kunit/visibility.h>
#include <linux/module.h>
#include <rpcrdma/compat.h>

#include "server.h"
#include "trace.h"

/*
 * The Send Queue is our only write-space limit: while replies wait for
 * room there, do not start more requests on this connection.
 */
static int srdma_has_wspace(struct svc_xprt *xprt)
{
	struct srdma_xprt *sx = srdma_xprt(xprt);

	/* A racy peek is fine: every waiter queues the transport again
	 * once it has its room (srdma_sq_reserve()), so Calls held back
	 * here are handled then, whoever waited.
	 */
	return !waitqueue_active(&sx->sq_wait);
}

static void srdma_kill_temp_xprt(struct svc_xprt *xprt)
{
}

/**
 * srdma_close - close a connection because of an error
 * @sx: the connection
 * @why: reason, for the trace
 *
 * May be called from any context; the close itself runs in an nfsd thread.
 */
void srdma_close(struct srdma_xprt *sx, const char *why)
{
	KUNIT_STATIC_STUB_REDIRECT(srdma_close, sx, why);
	rpcrdma_conn_why(&sx->conn, RPCRDMA_WHY_LOCAL, 0, why);
	if (test_bit(XPT_CLOSE, &sx->xprt.xpt_flags))
		return;
	trace_svcrdma_close(sx, why);
	svc_xprt_deferred_close(&sx->xprt);
	/* Replies waiting for Send Queue room give up. */
	wake_up(&sx->sq_wait);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_close);

/**
 * srdma_requeue - let nfsd look at a connection again
 * @sx: the connection
 *
 * For a sender that has stopped waiting for Send Queue room, which
 * srdma_has_wspace() made Calls wait for.
 */
void srdma_requeue(struct srdma_xprt *sx)
{
	KUNIT_STATIC_STUB_REDIRECT(srdma_requeue, sx);
	svc_xprt_enqueue(&sx->xprt);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_requeue);

static const struct svc_xprt_ops srdma_ops = {
	.xpo_create		= srdma_create_listener,
	.xpo_accept		= srdma_accept,
	.xpo_recvfrom		= srdma_recvfrom,
	.xpo_sendto		= srdma_sendto,
	.xpo_result_payload	= srdma_result_payload,
	.xpo_release_ctxt	= srdma_release_ctxt,
	.xpo_detach		= srdma_detach,
	.xpo_free		= srdma_free,
	.xpo_has_wspace		= srdma_has_wspace,
	.xpo_kill_temp_xprt	= srdma_kill_temp_xprt,
};

struct svc_xprt_class srdma_class = {
	.xcl_name	= "rdma",
	.xcl_owner	= THIS_MODULE,
	.xcl_ops	= &srdma_ops,
	.xcl_max_payload = RPCRDMA_SVC_MAX_PAYLOAD,
	.xcl_ident	= XPRT_TRANSPORT_RDMA,
};

/**
 * srdma_register - register the server transport, its backchannel and
 *	its sysctls
 *
 * Return: 0 or -errno.
 */
int srdma_register(void)
{
	int rc;

	rc = srdma_sysctl_register();
	if (rc)
		return rc;
	rc = srdma_bc_register();
	if (rc)
		goto out_sysctl;
	rc = svc_reg_xprt_class(&srdma_class);
	if (rc)
		goto out_bc;
	srdma_fault_init();
	return 0;

out_bc:
	srdma_bc_unregister();
out_sysctl:
	srdma_sysctl_unregister();
	return rc;
}

/**
 * srdma_unregister - undo srdma_register()
 *
 * The module cannot be unloaded while a transport exists: each holds a
 * module reference.
 */
void srdma_unregister(void)
{
	srdma_fault_exit();
	svc_unreg_xprt_class(&srdma_class);
	srdma_bc_unregister();
	srdma_sysctl_unregister();
}
