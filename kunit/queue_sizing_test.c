// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: queue sizing (common/queues.c) over the limits of real and
 * minimal devices.  For every profile the exact plan is checked, and so
 * is what must hold on any device: each queue within max_qp_wr and its
 * completion queue within max_cqe, rdma_rw's Send Queue entries counted
 * before the device limit, one entry of each queue kept for the drain,
 * a Receive for every credit and backchannel message, and at least one
 * full-size payload's worth of rdma_rw contexts.
 *
 * Device figures: mlx5 (ConnectX-5) and irdma (E810) as Linux 6.12's
 * drivers report them, siw and rxe from their 6.12 sources; published
 * ibv_devinfo -v output of the adapters agrees on the CQ, SGE and
 * Read-depth limits.  rw_wrs_per_ctx and rw_mr_factor are what
 * rdma_rw_max_send_wr() and rdma_rw_mr_factor() give for a 1 MiB
 * payload (258 pages): 3 where rdma_rw registers memory (iWARP, or a
 * device with max_sgl_rd), else 1.
 */
#include <kunit/test.h>

#include <rpcrdma/queues.h>

#define QS_SLOTS	128	/* client: rdma_slot_table_entries */
#define QS_MAX_MRS	8	/* client: MRs per RPC */
#define QS_BC_CLIENT	16	/* client: backchannel Calls taken */
#define QS_MAX_PAGES	256	/* client: pages per MR wanted */
#define QS_CLIENT_SGES	8	/* client: SGEs per Send wanted */
#define QS_CREDITS	64	/* server: max_requests */
#define QS_BC_SERVER	8	/* server: backchannel Calls sent */
#define QS_ORD		16	/* server: max_outbound_read_requests */
#define QS_SERVER_SGES	32	/* server: SGEs per Send wanted */

/* A device with room for every slot: 128 credits, the full MR depth. */
#define QS_CLIENT_FULL(sges) {						\
	.max_requests = 128, .send_wr = 128 * 17 + 17, .send_cqe = 2193,	\
	.recv_posted = 128 + 16 + 2 + 15, .recv_wr = 162,		\
	.recv_cqe = 162, .mr_depth = 256, .max_send_sge = (sges),	\
	.send_batch = 16, .recv_batch = 16 }

/* 64 credits on a device whose rdma_rw registers memory (3 WRs per
 * context) and needs 2 contexts per 1 MiB payload: a payload per credit,
 * 64 * 2 contexts.
 */
#define QS_SERVER_MR(sges) {						\
	.max_requests = 64, .recv_posted = 79, .recv_wr = 80,		\
	.rw_ctxs = 128, .send_wr = 80, .sq_depth = 80 + 128 * 3,	\
	.sq_budget = 456, .send_cqe = 464, .recv_cqe = 80,		\
	.max_send_sge = (sges), .ord = 16, .send_batch = 8,		\
	.recv_batch = 8 }

struct qs_vec {
	const char *name;
	struct rpcrdma_dev_limits lim;
	int client_rc;
	struct rpcrdma_client_queues client;
	int server_rc;
	struct rpcrdma_server_queues server;
};

static const struct qs_vec qs_vecs[] = {
	{
		.name = "mlx5 ConnectX-5",
		.lim = { .max_qp_wr = 8192, .max_cqe = 4194303,
			 .max_send_sge = 30, .max_init_rd_atom = 16,
			 .max_fr_pages = 512, .rw_wrs_per_ctx = 3,
			 .rw_mr_factor = 2 },
		.client = QS_CLIENT_FULL(8),
		.server = QS_SERVER_MR(30),
	},
	{
		.name = "irdma E810 RoCEv2",
		.lim = { .max_qp_wr = 4063, .max_cqe = 1048574,
			 .max_send_sge = 13, .max_init_rd_atom = 255,
			 .max_fr_pages = 262144, .rw_wrs_per_ctx = 1,
			 .rw_mr_factor = 20 },
		.client = QS_CLIENT_FULL(8),
		.server = { .max_requests = 64, .recv_posted = 79,
			    .recv_wr = 80, .rw_ctxs = 1280, .send_wr = 80,
			    .sq_depth = 1360, .sq_budget = 1352,
			    .send_cqe = 1360, .recv_cqe = 80,
			    .max_send_sge = 13, .ord = 16, .send_batch = 8,
			    .recv_batch = 8 },
	},
	{
		.name = "irdma E810 iWARP",
		.lim = { .max_qp_wr = 4063, .max_cqe = 1048574,
			 .max_send_sge = 13, .max_init_rd_atom = 255,
			 .max_fr_pages = 262144, .rw_wrs_per_ctx = 3,
			 .rw_mr_factor = 2 },
		.client = QS_CLIENT_FULL(8),
		.server = QS_SERVER_MR(13),
	},
	{
		.name = "siw",
		.lim = { .max_qp_wr = 32768, .max_cqe = 3276800,
			 .max_send_sge = 6, .max_init_rd_atom = 128,
			 .max_fr_pages = 256, .rw_wrs_per_ctx = 3,
			 .rw_mr_factor = 2 },
		.client = QS_CLIENT_FULL(6),
		.server = QS_SERVER_MR(6),
	},
	{
		.name = "rxe",
		.lim = { .max_qp_wr = 1048576, .max_cqe = 32767,
			 .max_send_sge = 32, .max_init_rd_atom = 128,
			 .max_fr_pages = 512, .rw_wrs_per_ctx = 1,
			 .rw_mr_factor = 9 },
		.client = QS_CLIENT_FULL(8),
		.server = { .max_requests = 64, .recv_posted = 79,
			    .recv_wr = 80, .rw_ctxs = 576, .send_wr = 80,
			    .sq_depth = 656, .sq_budget = 648,
			    .send_cqe = 656, .recv_cqe = 80,
			    .max_send_sge = 32, .ord = 16, .send_batch = 8,
			    .recv_batch = 8 },
	},
	{
		/*
		 * rxe as the test guests report it (rdma_rw_mr_factor() 3):
		 * 272 entries would be 512 slots, so rdma_rw gives up 17 of
		 * its 192 contexts to fit 256.
		 */
		.name = "rxe in the test guests (rw_mr_factor 3)",
		.lim = { .max_qp_wr = 1048576, .max_cqe = 32767,
			 .max_send_sge = 32, .max_init_rd_atom = 128,
			 .max_fr_pages = 512, .rw_wrs_per_ctx = 1,
			 .rw_mr_factor = 3 },
		.client = QS_CLIENT_FULL(8),
		.server = { .max_requests = 64, .recv_posted = 79,
			    .recv_wr = 80, .rw_ctxs = 175, .send_wr = 80,
			    .sq_depth = 255, .sq_budget = 247,
			    .send_cqe = 255, .recv_cqe = 80,
			    .max_send_sge = 32, .ord = 16, .send_batch = 8,
			    .recv_batch = 8 },
	},
	{
		/* rdma_rw gets what the Send Queue has left; ORD 1. */
		.name = "minimal (256 WRs, 2 SGEs, 32-page MRs)",
		.lim = { .max_qp_wr = 256, .max_cqe = 256,
			 .max_send_sge = 2, .max_init_rd_atom = 1,
			 .max_fr_pages = 32, .rw_wrs_per_ctx = 3,
			 .rw_mr_factor = 9 },
		.client = { .max_requests = 14, .send_wr = 255,
			    .send_cqe = 255, .recv_posted = 32,
			    .recv_wr = 33, .recv_cqe = 33, .mr_depth = 32,
			    .max_send_sge = 2, .send_batch = 0,
			    .recv_batch = 1 },
		.server = { .max_requests = 64, .recv_posted = 79,
			    .recv_wr = 80, .rw_ctxs = 58, .send_wr = 80,
			    .sq_depth = 254, .sq_budget = 246,
			    .send_cqe = 254, .recv_cqe = 80,
			    .max_send_sge = 2, .ord = 1, .send_batch = 8,
			    .recv_batch = 8 },
	},
	{
		/* The credits shrink to fit both queues. */
		.name = "small (64 WRs, 8-page MRs)",
		.lim = { .max_qp_wr = 64, .max_cqe = 64,
			 .max_send_sge = 4, .max_init_rd_atom = 4,
			 .max_fr_pages = 8, .rw_wrs_per_ctx = 1,
			 .rw_mr_factor = 1 },
		.client = { .max_requests = 2, .send_wr = 51,
			    .send_cqe = 51, .recv_posted = 20,
			    .recv_wr = 21, .recv_cqe = 21, .mr_depth = 8,
			    .max_send_sge = 4, .send_batch = 0,
			    .recv_batch = 1 },
		.server = { .max_requests = 54, .recv_posted = 63,
			    .recv_wr = 64, .rw_ctxs = 1, .send_wr = 63,
			    .sq_depth = 64, .sq_budget = 63,
			    .send_cqe = 64, .recv_cqe = 64,
			    .max_send_sge = 4, .ord = 4, .send_batch = 1,
			    .recv_batch = 2 },
	},
	{
		/* One credit is all the server can give; no client fits. */
		.name = "tiny (16 WRs)",
		.lim = { .max_qp_wr = 16, .max_cqe = 16,
			 .max_send_sge = 1, .max_init_rd_atom = 1,
			 .max_fr_pages = 2, .rw_wrs_per_ctx = 3,
			 .rw_mr_factor = 2 },
		.client_rc = -EOPNOTSUPP,
		.server = { .max_requests = 1, .recv_posted = 9,
			    .recv_wr = 10, .rw_ctxs = 2, .send_wr = 10,
			    .sq_depth = 16, .sq_budget = 15,
			    .send_cqe = 16, .recv_cqe = 10,
			    .max_send_sge = 1, .ord = 1, .send_batch = 1,
			    .recv_batch = 1 },
	},
	{
		.name = "too small (12 WRs)",
		.lim = { .max_qp_wr = 12, .max_cqe = 4096,
			 .max_send_sge = 1, .max_init_rd_atom = 1,
			 .max_fr_pages = 2, .rw_wrs_per_ctx = 3,
			 .rw_mr_factor = 2 },
		.client_rc = -EOPNOTSUPP,
		.server_rc = -EOPNOTSUPP,
	},
	{
		/* No FRWR: the client cannot register; no RDMA Read. */
		.name = "no FRWR, no Read",
		.lim = { .max_qp_wr = 4096, .max_cqe = 4096,
			 .max_send_sge = 4, .max_init_rd_atom = 0,
			 .max_fr_pages = 0, .rw_wrs_per_ctx = 1,
			 .rw_mr_factor = 1 },
		.client_rc = -EOPNOTSUPP,
		.server_rc = -EOPNOTSUPP,
	},
};

static void qs_vec_desc(const struct qs_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(qs, qs_vecs, qs_vec_desc);

static void client_sizing_case(struct kunit *test)
{
	const struct qs_vec *v = test->param_value;
	const struct rpcrdma_dev_limits *lim = &v->lim;
	struct rpcrdma_client_queues q = {};
	int rc;

	rc = rpcrdma_size_client(lim, QS_SLOTS, QS_MAX_MRS, QS_BC_CLIENT,
				 QS_MAX_PAGES, QS_CLIENT_SGES, &q);
	KUNIT_ASSERT_EQ(test, rc, v->client_rc);
	if (rc)
		return;
	KUNIT_EXPECT_MEMEQ(test, &q, &v->client, sizeof(q));

	/* Within the device. */
	KUNIT_EXPECT_LE(test, q.send_wr, lim->max_qp_wr);
	KUNIT_EXPECT_LE(test, q.recv_wr, lim->max_qp_wr);
	KUNIT_EXPECT_LE(test, q.send_cqe, lim->max_cqe);
	KUNIT_EXPECT_LE(test, q.recv_cqe, lim->max_cqe);
	KUNIT_EXPECT_LE(test, q.mr_depth, lim->max_fr_pages);
	KUNIT_EXPECT_LE(test, q.max_send_sge, lim->max_send_sge);
	/* Every completion has a CQ entry. */
	KUNIT_EXPECT_GE(test, q.send_cqe, q.send_wr);
	KUNIT_EXPECT_GE(test, q.recv_cqe, q.recv_wr);
	/* Each RPC in flight, each backchannel reply, and the drain. */
	KUNIT_EXPECT_GE(test, q.send_wr,
			q.max_requests * RPCRDMA_CLIENT_WRS_PER_RPC(QS_MAX_MRS) +
			QS_BC_CLIENT + 1);
	/*
	 * A Receive per credit and backchannel Call, even while the
	 * Receives of an unfinished batch wait to be reposted, and the
	 * drain.
	 */
	KUNIT_EXPECT_GE(test, q.recv_batch, 1U);
	KUNIT_EXPECT_LE(test, q.recv_batch, 16U);
	KUNIT_EXPECT_LE(test, q.recv_batch * 8, max(q.max_requests, 8U));
	KUNIT_EXPECT_GE(test, q.recv_posted,
			q.max_requests + QS_BC_CLIENT + q.recv_batch - 1);
	KUNIT_EXPECT_EQ(test, q.recv_wr, q.recv_posted + 1);
	KUNIT_EXPECT_GE(test, q.max_requests, 1U);
	KUNIT_EXPECT_LE(test, q.max_requests, QS_SLOTS);
	/*
	 * Unsignaled Sends only when the Send Queue holds every slot's
	 * Work Requests, and never so many that the slots held by them
	 * leave fewer than seven in eight for new RPCs.
	 */
	if (q.send_batch) {
		KUNIT_EXPECT_EQ(test, q.max_requests, QS_SLOTS);
		KUNIT_EXPECT_LE(test, q.send_batch * 8, QS_SLOTS);
	} else {
		KUNIT_EXPECT_LT(test, q.max_requests, QS_SLOTS);
	}
}

/* One Send in an eighth of the slots is signaled, between 1 and 16. */
static void client_send_batch_few_slots_case(struct kunit *test)
{
	const struct rpcrdma_dev_limits *lim = &qs_vecs[0].lim;
	struct rpcrdma_client_queues q = {};
	static const u32 slots[] = { 2, 8, 15, 16, 64, 200 };
	static const u32 batch[] = { 1, 1, 1, 2, 8, 16 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(slots); i++) {
		KUNIT_ASSERT_EQ(test, rpcrdma_size_client(lim, slots[i],
							  QS_MAX_MRS,
							  QS_BC_CLIENT,
							  QS_MAX_PAGES,
							  QS_CLIENT_SGES, &q),
				0);
		KUNIT_EXPECT_EQ_MSG(test, q.send_batch, batch[i],
				    "%u slots", slots[i]);
	}
}

static void server_sizing_case(struct kunit *test)
{
	const struct qs_vec *v = test->param_value;
	const struct rpcrdma_dev_limits *lim = &v->lim;
	struct rpcrdma_server_queues q = {};
	int rc;

	rc = rpcrdma_size_server(lim, QS_CREDITS, QS_BC_SERVER, QS_ORD,
				 QS_SERVER_SGES, &q);
	KUNIT_ASSERT_EQ(test, rc, v->server_rc);
	if (rc)
		return;
	KUNIT_EXPECT_MEMEQ(test, &q, &v->server, sizeof(q));

	/* rdma_rw's entries are added before the device limit applies. */
	KUNIT_EXPECT_EQ(test, q.sq_depth,
			q.send_wr + q.rw_ctxs * lim->rw_wrs_per_ctx);
	KUNIT_EXPECT_LE(test, q.sq_depth, lim->max_qp_wr);
	KUNIT_EXPECT_LE(test, q.recv_wr, lim->max_qp_wr);
	KUNIT_EXPECT_LE(test, q.send_cqe, lim->max_cqe);
	KUNIT_EXPECT_LE(test, q.recv_cqe, lim->max_cqe);
	KUNIT_EXPECT_GE(test, q.send_cqe, q.sq_depth);
	KUNIT_EXPECT_GE(test, q.recv_cqe, q.recv_wr);
	/*
	 * The drain has its entry in both queues, and the Work Requests
	 * posted unsignaled since the last signaled Send have theirs: a
	 * post can always get the room it reserves once every signaled
	 * Work Request has completed.
	 */
	KUNIT_EXPECT_GE(test, q.send_batch, 1U);
	KUNIT_EXPECT_LE(test, q.send_batch, 16U);
	KUNIT_EXPECT_LE(test, q.send_batch * 8, max(q.max_requests, 8U));
	KUNIT_EXPECT_EQ(test, q.sq_budget + 1 + q.send_batch - 1, q.sq_depth);
	KUNIT_EXPECT_GE(test, q.send_wr,
			q.max_requests + QS_BC_SERVER + q.send_batch);
	KUNIT_EXPECT_EQ(test, q.recv_wr, q.recv_posted + 1);
	/*
	 * A Receive for every credit and backchannel reply, even while the
	 * Receives of an unfinished batch wait to be reposted.
	 */
	KUNIT_EXPECT_GE(test, q.recv_batch, 1U);
	KUNIT_EXPECT_LE(test, q.recv_batch, 16U);
	KUNIT_EXPECT_LE(test, q.recv_batch * 8, max(q.max_requests, 8U));
	KUNIT_EXPECT_EQ(test, q.recv_posted,
			q.max_requests + QS_BC_SERVER + q.recv_batch - 1);
	/* One full payload can always be read or written. */
	KUNIT_EXPECT_GE(test, q.rw_ctxs, lim->rw_mr_factor);
	/* And no more than one per credit: every entry costs memory. */
	KUNIT_EXPECT_LE(test, q.rw_ctxs,
			q.max_requests * max(lim->rw_mr_factor, 1U));
	/* Reads in flight: within the device, the client and the tunable. */
	KUNIT_EXPECT_GE(test, q.ord, 1U);
	KUNIT_EXPECT_LE(test, q.ord, lim->max_init_rd_atom);
	KUNIT_EXPECT_LE(test, q.ord, QS_ORD);
	KUNIT_EXPECT_LE(test, q.max_send_sge, lim->max_send_sge);
}

/* The client's Read depth caps ours, whatever the device allows. */
static void server_ord_from_client_case(struct kunit *test)
{
	const struct rpcrdma_dev_limits *lim = &qs_vecs[4].lim;	/* rxe */
	struct rpcrdma_server_queues q;

	KUNIT_ASSERT_EQ(test, rpcrdma_size_server(lim, QS_CREDITS,
						  QS_BC_SERVER, 4,
						  QS_SERVER_SGES, &q), 0);
	KUNIT_EXPECT_EQ(test, q.ord, 4U);
	/* A client that serves no Reads cannot be given Read chunks. */
	KUNIT_EXPECT_EQ(test, rpcrdma_size_server(lim, QS_CREDITS,
						  QS_BC_SERVER, 0,
						  QS_SERVER_SGES, &q),
			-EOPNOTSUPP);
}

/* A device with room for only part of the unsignaled Sends' slack. */
static void server_send_batch_clipped_case(struct kunit *test)
{
	/* 76 entries: 64 credits, 8 backchannel, 1 drain, 1 Read, 2 over. */
	const struct rpcrdma_dev_limits lim = {
		.max_qp_wr = 76, .max_cqe = 76, .max_send_sge = 4,
		.max_init_rd_atom = 4, .max_fr_pages = 8,
		.rw_wrs_per_ctx = 1, .rw_mr_factor = 1,
	};
	struct rpcrdma_server_queues q;

	KUNIT_ASSERT_EQ(test, rpcrdma_size_server(&lim, QS_CREDITS,
						  QS_BC_SERVER, QS_ORD,
						  QS_SERVER_SGES, &q), 0);
	KUNIT_EXPECT_EQ(test, q.max_requests, 64U);
	KUNIT_EXPECT_EQ(test, q.send_batch, 3U);
	/* The Receive Queue is on its own: 3 entries over, a batch of 4. */
	KUNIT_EXPECT_EQ(test, q.recv_batch, 4U);
	KUNIT_EXPECT_EQ(test, q.recv_wr, 76U);
	KUNIT_EXPECT_EQ(test, q.rw_ctxs, 1U);
	KUNIT_EXPECT_EQ(test, q.sq_depth, 76U);
	KUNIT_EXPECT_EQ(test, q.sq_budget, 73U);
}

static struct kunit_case rpcrdma_queue_sizing_cases[] = {
	KUNIT_CASE_PARAM(client_sizing_case, qs_gen_params),
	KUNIT_CASE(client_send_batch_few_slots_case),
	KUNIT_CASE_PARAM(server_sizing_case, qs_gen_params),
	KUNIT_CASE(server_ord_from_client_case),
	KUNIT_CASE(server_send_batch_clipped_case),
	{}
};

static struct kunit_suite rpcrdma_queue_sizing_suite = {
	.name = "rpcrdma_queue_sizing",
	.test_cases = rpcrdma_queue_sizing_cases,
};

kunit_test_suites(&rpcrdma_queue_sizing_suite);
