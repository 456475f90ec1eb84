// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: who owns a Receive that holds a reply (xprtrdma/reply.c).  A
 * reply that fits the RPC's head stays in its Receive buffer, which the
 * RPC holds until it releases its slot or is sent again; the Receive
 * then joins its connection's next batch of reposts.  A connection that
 * goes while the RPC still reads the buffer must neither repost it nor
 * free it: its teardown stops reposting, then hands the buffer, unmapped,
 * to the RPC, which frees it when it is done.  KASAN and kmemleak in the
 * test kernel see a buffer freed twice or never.
 *
 * Each vector is a sequence of events on one slot and two connections,
 * and the state after each event.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "../xprtrdma/client.h"

/*
 * Events: H the reply handler leaves the slot holding a Receive of the
 * first connection, h one of the second; R the RPC gives it back
 * (xrdma_rep_return()); C the first connection stops reposting
 * (xrdma_recv_close()), O its held buffers go to their RPCs
 * (xrdma_recv_orphan_held()).
 * State after each event, four characters: the slot holds a Receive
 * (h) or not (-); it holds an orphaned buffer (o) or not (-); the
 * first connection's Receives waiting to be reposted (a digit); its
 * Receive buffer still belongs to it (b) or not (-).
 */
struct chr_vec {
	const char *name;
	const char *events;
	const char *states;
};

static const struct chr_vec chr_vecs[] = {
	{ "given back, then reposted",
	  "HR",		"h-0b --1b" },
	{ "given back after the connection stopped reposting",
	  "HCR",	"h-0b h-0b --0b" },
	{ "orphaned while held, freed when given back",
	  "HCOR",	"h-0b h-0b -o0- --0-" },
	{ "teardown with nothing held",
	  "CO",		"--0b --0b" },
	{ "a Receive of another connection is left alone",
	  "hCOR",	"h-0b h-0b h-0b --0b" },
	{ "one of each connection in turn",
	  "HRhR",	"h-0b --1b h-1b --1b" },
};

static void chr_desc(const struct chr_vec *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(chr, chr_vecs, chr_desc);

struct chr {
	struct xrdma_xprt *rx;
	struct xrdma_req *req;
	struct xrdma_ep *ep[2];
	struct xrdma_rep rep[2];
};

static void chr_destroy(void *arg)
{
	struct chr *t = arg;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t->rep); i++)
		kfree(t->rep[i].rb.buf);
	xrdma_reqs_destroy(t->rx);
}

/* The state outlives the case's stack frame: its cleanup runs after. */
static struct chr *chr_setup(struct kunit *test)
{
	struct ib_device *device;
	unsigned int i;
	struct chr *t;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->rx = kunit_kzalloc(test, sizeof(*t->rx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->rx);
	spin_lock_init(&t->rx->xprt.transport_lock);
	spin_lock_init(&t->rx->free_lock);
	/* No DMA device: soft-RoCE's kind, whose unmap does nothing. */
	device = kunit_kzalloc(test, sizeof(*device), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, device);
	KUNIT_ASSERT_EQ(test, xrdma_reqs_create(t->rx, 1), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, chr_destroy,
							t), 0);
	t->req = &t->rx->reqs[0];
	for (i = 0; i < ARRAY_SIZE(t->ep); i++) {
		t->ep[i] = kunit_kzalloc(test, sizeof(*t->ep[i]), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->ep[i]);
		t->ep[i]->rx = t->rx;
		t->ep[i]->device = device;
		/* Large enough that no batch is posted: there is no QP. */
		t->ep[i]->recv_batch = 16;
		t->rep[i].ep = t->ep[i];
		t->rep[i].rb.buf = kmalloc(64, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->rep[i].rb.buf);
	}
	return t;
}

static void chr_state(struct chr *t, char *out)
{
	out[0] = t->req->held_rep ? 'h' : '-';
	out[1] = t->req->orphan_buf ? 'o' : '-';
	out[2] = '0' + t->ep[0]->nr_recv_pending;
	out[3] = t->rep[0].rb.buf ? 'b' : '-';
}

static void held_rep_case(struct kunit *test)
{
	const struct chr_vec *v = test->param_value;
	spinlock_t *lock;		/* the transport_lock of t->rx */
	char seen[32] = "";
	unsigned int n = 0;
	const char *e;
	struct chr *t;

	t = chr_setup(test);
	lock = &t->rx->xprt.transport_lock;
	for (e = v->events; *e; e++) {
		KUNIT_ASSERT_LT(test, n + 5, sizeof(seen));
		switch (*e) {
		case 'H':
			t->req->held_rep = &t->rep[0];
			break;
		case 'h':
			t->req->held_rep = &t->rep[1];
			break;
		case 'R':
			spin_lock(lock);
			xrdma_rep_return(t->req);
			spin_unlock(lock);
			break;
		case 'C':
			xrdma_recv_close(t->rx, t->ep[0]);
			break;
		case 'O':
			xrdma_recv_orphan_held(t->rx, t->ep[0]);
			break;
		default:
			KUNIT_FAIL(test, "unknown event %c", *e);
		}
		if (n)
			seen[n++] = ' ';
		chr_state(t, seen + n);
		n += 4;
	}
	KUNIT_EXPECT_STREQ(test, seen, v->states);
}

static struct kunit_case rpcrdma_client_held_rep_cases[] = {
	KUNIT_CASE_PARAM(held_rep_case, chr_gen_params),
	{}
};

static struct kunit_suite rpcrdma_client_held_rep_suite = {
	.name = "rpcrdma_client_held_rep",
	.test_cases = rpcrdma_client_held_rep_cases,
};

kunit_test_suites(&rpcrdma_client_held_rep_suite);
