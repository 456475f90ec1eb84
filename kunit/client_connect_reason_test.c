// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the cause a failed connect attempt is logged with
 * (xrdma_connect_reason()), from how far the attempt got, the RDMA-CM
 * event that ended it and its status, as the RDMA-CM reports them on
 * soft-RoCE, InfiniBand and iWARP for each way a connect fails; and
 * the errno the RPC layer is told (xrdma_connect_status()), which must
 * be one call_connect_status() retries on a hard mount.
 */
#include <kunit/test.h>
#include <rdma/ib_cm.h>

#include "../xprtrdma/client.h"

#define NO_EVENT	(-1)

struct ccr_vec {
	const char *name;
	enum xrdma_connect_step step;
	int event;
	int status;
	bool iwarp;
	int rc;
	const char *reason;
};

static const struct ccr_vec ccr_vecs[] = {
	{ "route through a netdev without an RDMA device", XRDMA_STEP_ADDR,
	  RDMA_CM_EVENT_ADDR_ERROR, -ENODEV, false, -EHOSTUNREACH,
	  "no RDMA device routes to the address" },
	{ "no RDMA device, found at once", XRDMA_STEP_ADDR,
	  NO_EVENT, 0, false, -EADDRNOTAVAIL,
	  "no RDMA device routes to the address" },
	{ "no route", XRDMA_STEP_ADDR,
	  NO_EVENT, 0, false, -ENETUNREACH, "no route to the address" },
	{ "no neighbour answers", XRDMA_STEP_ADDR,
	  RDMA_CM_EVENT_ADDR_ERROR, -ETIMEDOUT, false, -EHOSTUNREACH,
	  "address resolution timed out" },
	{ "no neighbour entry yet", XRDMA_STEP_ADDR,
	  RDMA_CM_EVENT_ADDR_ERROR, -ENODATA, false, -EHOSTUNREACH,
	  "address resolution timed out" },
	{ "no address event in time", XRDMA_STEP_ADDR,
	  NO_EVENT, 0, false, -ETIMEDOUT, "address resolution timed out" },
	{ "address resolution, other error", XRDMA_STEP_ADDR,
	  RDMA_CM_EVENT_ADDR_ERROR, -EINVAL, false, -EHOSTUNREACH,
	  "address resolution failed" },
	{ "route timed out", XRDMA_STEP_ROUTE,
	  RDMA_CM_EVENT_ROUTE_ERROR, -ETIMEDOUT, false, -ENETUNREACH,
	  "route resolution timed out" },
	{ "route failed", XRDMA_STEP_ROUTE,
	  RDMA_CM_EVENT_ROUTE_ERROR, -ENETUNREACH, false, -ENETUNREACH,
	  "route resolution failed" },
	{ "queues", XRDMA_STEP_QUEUES, NO_EVENT, 0, false, -ENOMEM,
	  "the RDMA device could not make the connection's queues" },
	{ "no listener (IB, RoCE)", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_REJECTED, IB_CM_REJ_INVALID_SERVICE_ID, false,
	  -ECONNREFUSED, "nothing listens on that port" },
	{ "server refused (IB, RoCE)", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_REJECTED, IB_CM_REJ_CONSUMER_DEFINED, false,
	  -ECONNREFUSED, "the server refused the connection" },
	{ "server CM refused (IB, RoCE)", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_REJECTED, IB_CM_REJ_STALE_CONN, false, -ECONNREFUSED,
	  "the server's connection manager refused the connection" },
	{ "no listener or refused (iWARP)", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_REJECTED, -ECONNREFUSED, true, -ECONNREFUSED,
	  "nothing listens on that port, or the server refused the connection" },
	{ "MPA refused otherwise (iWARP)", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_REJECTED, -ECONNRESET, true, -ECONNREFUSED,
	  "the server refused the connection" },
	{ "no answer (IB CM retries out)", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, false, -ENETUNREACH,
	  "the server does not answer (unreachable)" },
	{ "connect error", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_CONNECT_ERROR, -EIO, false, -ENOTCONN,
	  "the connection failed while it was being set up" },
	{ "no connect event in time", XRDMA_STEP_CONNECT,
	  NO_EVENT, 0, false, -ETIMEDOUT,
	  "no answer to the connect request in time" },
	{ "connect request not sent", XRDMA_STEP_CONNECT,
	  NO_EVENT, 0, false, -EINVAL,
	  "the connect request could not be sent" },
	{ "device removed while connecting", XRDMA_STEP_CONNECT,
	  RDMA_CM_EVENT_DEVICE_REMOVAL, 0, false, -ECONNABORTED,
	  "the connection was lost while it was being set up" },
	{ "buffers", XRDMA_STEP_SETUP, NO_EVENT, 0, false, -ENOMEM,
	  "no memory or DMA mapping for the connection's buffers" },
};

static void ccr_desc(const struct ccr_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ccr, ccr_vecs, ccr_desc);

static void connect_reason_case(struct kunit *test)
{
	const struct ccr_vec *v = test->param_value;
	const struct xrdma_connect_fail f = {
		.step = v->step, .event = v->event, .status = v->status,
		.iwarp = v->iwarp, .rc = v->rc,
	};

	KUNIT_EXPECT_STREQ(test, xrdma_connect_reason(&f), v->reason);
}

/*
 * Each vector: what an attempt returned, and what the RPC layer must be
 * told.  call_connect_status() in 6.12 retries exactly -ECONNREFUSED,
 * -ECONNRESET, -ECONNABORTED, -ENETDOWN, -ENETUNREACH, -EHOSTUNREACH,
 * -EPIPE, -EPROTO, -EADDRINUSE, -ENOTCONN, -EAGAIN, -ETIMEDOUT and
 * -ENOBUFS; any other errno fails the RPC.
 */
struct ccs_vec {
	const char *name;
	int rc;
	int status;
};

static const struct ccs_vec ccs_vecs[] = {
	{ "connected: the RPC layer sends", 0, -EAGAIN },
	{ "no memory", -ENOMEM, -ENOBUFS },
	{ "no DMA mapping", -EIO, -ENOBUFS },
	{ "no MR", -ENOBUFS, -ENOBUFS },
	{ "no RDMA device for the address", -EADDRNOTAVAIL, -EHOSTUNREACH },
	{ "RDMA device gone", -ENODEV, -EHOSTUNREACH },
	{ "refused", -ECONNREFUSED, -ECONNREFUSED },
	{ "address error event", -EHOSTUNREACH, -EHOSTUNREACH },
	{ "route error event", -ENETUNREACH, -ENETUNREACH },
	{ "connect error event", -ENOTCONN, -ENOTCONN },
	{ "lost while connecting", -ECONNABORTED, -ECONNABORTED },
	{ "no event in time", -ETIMEDOUT, -ETIMEDOUT },
	{ "cut short by a link coming back", -EAGAIN, -EAGAIN },
	{ "device cannot carry an RPC", -EINVAL, -EPROTO },
	{ "RDMA-CM call unsupported", -EOPNOTSUPP, -EPROTO },
	{ "bad address", -EAFNOSUPPORT, -EPROTO },
	{ "busy", -EBUSY, -EPROTO },
};

static void ccs_desc(const struct ccs_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ccs, ccs_vecs, ccs_desc);

/* The errors the 6.12 call_connect_status() retries on a hard mount. */
static bool ccs_rpc_retries(int status)
{
	static const int retried[] = {
		-ECONNREFUSED, -ECONNRESET, -ECONNABORTED, -ENETDOWN,
		-ENETUNREACH, -EHOSTUNREACH, -EPIPE, -EPROTO, -EADDRINUSE,
		-ENOTCONN, -EAGAIN, -ETIMEDOUT, -ENOBUFS,
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(retried); i++)
		if (status == retried[i])
			return true;
	return false;
}

static void connect_status_case(struct kunit *test)
{
	const struct ccs_vec *v = test->param_value;
	int status = xrdma_connect_status(v->rc);

	KUNIT_EXPECT_EQ(test, status, v->status);
	KUNIT_EXPECT_TRUE(test, ccs_rpc_retries(status));
}

static struct kunit_case rpcrdma_client_connect_reason_cases[] = {
	KUNIT_CASE_PARAM(connect_reason_case, ccr_gen_params),
	KUNIT_CASE_PARAM(connect_status_case, ccs_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_connect_reason_suite = {
	.name = "rpcrdma_client_connect_reason",
	.test_cases = rpcrdma_client_connect_reason_cases,
};

kunit_test_suites(&rpcrdma_client_connect_reason_suite);
