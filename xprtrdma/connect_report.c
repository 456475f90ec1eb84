// SPDX-License-Identifier: GPL-2.0
/*
 * Why a connect attempt failed, in words an administrator can act on.
 *
 * A failed RDMA connect reaches the RPC layer, and so the user, as one
 * errno ("mount.nfs: Protocol error", or a hang while a hard mount
 * retries).  Each attempt that fails logs one line (rate limited per
 * transport) naming the cause: no RDMA device behind the route to the
 * server, address or route resolution that timed out, nothing listening
 * on the port, a server that refused the connection, a server that does
 * not answer.  The first connection after failures logs one line more.
 *
 * The words come from xrdma_connect_reason(), a pure function of what
 * the attempt saw (struct xrdma_connect_fail, filled in by connect.c):
 * how far it got, the RDMA-CM event that ended it and that event's
 * status.  On InfiniBand and RoCE a REJECTED event's status is the IB
 * CM's reject reason; on iWARP it is an errno, and a port with no
 * listener cannot be told from a refusal (both are -ECONNREFUSED).
 *
 * The errno the RPC layer is told is chosen here too, by
 * xrdma_connect_status(): call_connect_status() fails every waiting RPC
 * on an errno it does not know, hard mount or not, so each failure is
 * told as one it retries.
 */
#include <kunit/visibility.h>
#include <rdma/ib_cm.h>

#include "client.h"

/**
 * xrdma_connect_reason - why a connect attempt failed
 * @f: what the attempt saw; @f->rc is its return code
 *
 * Return: a sentence fragment naming the cause (static storage).
 */
VISIBLE_IF_KUNIT const char *
xrdma_connect_reason(const struct xrdma_connect_fail *f)
{
	int status = f->event < 0 ? f->rc : f->status;

	switch (f->step) {
	case XRDMA_STEP_ADDR:
		switch (status) {
		case -ENODEV:
		case -EADDRNOTAVAIL:
			return "no RDMA device routes to the address";
		case -ENETUNREACH:
		case -EHOSTUNREACH:
			return "no route to the address";
		case -ETIMEDOUT:
		case -ENODATA:
			return "address resolution timed out";
		}
		return "address resolution failed";
	case XRDMA_STEP_ROUTE:
		if (status == -ETIMEDOUT)
			return "route resolution timed out";
		return "route resolution failed";
	case XRDMA_STEP_QUEUES:
		return "the RDMA device could not make the connection's queues";
	case XRDMA_STEP_CONNECT:
		break;
	case XRDMA_STEP_SETUP:
		return "no memory or DMA mapping for the connection's buffers";
	default:
		return "unknown step";
	}

	switch (f->event) {
	case RDMA_CM_EVENT_REJECTED:
		if (f->iwarp && status == -ECONNREFUSED)
			return "nothing listens on that port, or the server refused the connection";
		if (f->iwarp)
			return "the server refused the connection";
		if (status == IB_CM_REJ_INVALID_SERVICE_ID)
			return "nothing listens on that port";
		if (status == IB_CM_REJ_CONSUMER_DEFINED)
			return "the server refused the connection";
		return "the server's connection manager refused the connection";
	case RDMA_CM_EVENT_UNREACHABLE:
		return "the server does not answer (unreachable)";
	case RDMA_CM_EVENT_CONNECT_ERROR:
		return "the connection failed while it was being set up";
	case -1:
		if (status == -ETIMEDOUT)
			return "no answer to the connect request in time";
		return "the connect request could not be sent";
	}
	return "the connection was lost while it was being set up";
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_connect_reason);

/**
 * xrdma_connect_status - the errno the RPC layer is told after an attempt
 * @rc: the attempt's return code, 0 when it connected
 *
 * call_connect_status() retries (after a delay, or at the next timeout)
 * the connection errors it knows, and fails every waiting RPC with any
 * other errno, even on a hard mount.  A mount (a soft connect) fails at
 * once on a refusal, an unreachable server or -EPROTO.  So: a shortage
 * of memory or DMA mapping space is -ENOBUFS (retried after 250 ms), no
 * RDMA device behind the address is -EHOSTUNREACH, the errors the RPC
 * layer knows stay as they are, and anything else (a device that cannot
 * carry an RPC, an RDMA-CM call that failed for a reason of its own) is
 * -EPROTO: the cause is in the log (xrdma_connect_report()), a mount
 * fails with it, and a hard mount retries every 3 s.
 *
 * Return: -EAGAIN when connected (the RPC layer then sends), else a
 * negative errno from the set above.
 */
int xrdma_connect_status(int rc)
{
	switch (rc) {
	case 0:
		return -EAGAIN;
	case -ENOMEM:
	case -EIO:
	case -ENOBUFS:
		return -ENOBUFS;
	case -ENODEV:
	case -EADDRNOTAVAIL:
		return -EHOSTUNREACH;
	case -ECONNREFUSED:
	case -ECONNRESET:
	case -ECONNABORTED:
	case -ENETDOWN:
	case -ENETUNREACH:
	case -EHOSTUNREACH:
	case -EPIPE:
	case -EPROTO:
	case -EADDRINUSE:
	case -ENOTCONN:
	case -EAGAIN:
	case -ETIMEDOUT:
		return rc;
	}
	return -EPROTO;
}
EXPORT_SYMBOL_IF_KUNIT(xrdma_connect_status);

/**
 * xrdma_connect_report - log the outcome of a connect attempt
 * @rx: the transport
 * @f: what the attempt saw (its @rc is filled in here)
 * @rc: the attempt's return code
 *
 * A failure logs why, rate limited per transport; the first success
 * after failures logs how many there were.  An attempt cut short
 * because a link came back (-EAGAIN, linkwatch.c) is not a failure.
 */
void xrdma_connect_report(struct xrdma_xprt *rx, struct xrdma_connect_fail *f,
			  int rc)
{
	const char *addr = rx->xprt.address_strings[RPC_DISPLAY_ADDR];
	const char *port = rx->xprt.address_strings[RPC_DISPLAY_PORT];

	if (!rc) {
		if (rx->connect_failures)
			pr_info("rpcrdma: connected to %s port %s after %u failed attempt%s\n",
				addr, port, rx->connect_failures,
				rx->connect_failures == 1 ? "" : "s");
		rx->connect_failures = 0;
		return;
	}
	if (rc == -EAGAIN)
		return;
	rx->connect_failures++;
	f->rc = rc;
	if (__ratelimit(&rx->connect_ratelimit))
		pr_warn("rpcrdma: connect to %s port %s failed: %s (%s, %pe)\n",
			addr, port, xrdma_connect_reason(f),
			f->detail ?: "no RDMA-CM event", ERR_PTR(rc));
}
