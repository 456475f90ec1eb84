// SPDX-License-Identifier: GPL-2.0
/*
 * A connection's credit grant: how it grows and falls, and the
 * server-wide budget the credits above every connection's floor come
 * from.
 *
 * A connection starts with a grant of SRDMA_GRANT_FLOOR.  recv.c asks
 * srdma_grant_step() at every Call what to do: grow by a Receive batch
 * while the client keeps more than a third of the grant in use, fall by
 * one batch when it held no more than a sixth over a window of Calls.
 * The credits above the floors come from one budget (srdma_credit_budget,
 * a sysctl), so memory for Receives stays bounded however many clients
 * connect; once it is spent, the budget is shared per client address
 * (struct srdma_peer): a connection whose client holds more than an
 * equal share falls a batch at a time, so that a client with many
 * connections cannot keep the credits a client with one needs.
 *
 * RFC 8166 section 3.3.1 binds both directions.  The Receives for a
 * larger grant are posted before any reply carries it.  A smaller grant
 * binds the client only from the reply that tells it: until then it may
 * still use every credit an earlier reply gave.  Receives cannot be taken
 * back from the device; a fallen grant's Receives are given back by not
 * reposting them as Calls consume them (recv.c), which is safe because
 * each reply's grant is stamped as the reply is posted, under the lock
 * that orders the Send Queue and that a fall is published under
 * (srdma_send_stamp_grant()).  Take the last reply the client has read:
 * when it was posted, at least its grant's Receives were posted.  Every
 * Receive given back since was consumed by a Call that came after the
 * fall, whose reply is posted after that reply and so is not read yet:
 * the client counts that Call as outstanding against the grant it read.
 * So the client never has more credits than Receives are posted.  A
 * connection with no Calls keeps the Receives it has.
 *
 * The budget counts credits granted, not Receives posted: a fall gives
 * its credits back to the budget at once (srdma_grant_fall()), so that
 * another connection may grow with them, while its Receives are given
 * back only as the next Calls consume them, or when the connection
 * closes.  A connection's grant and the Receives it still has to give
 * back never add up to more than max_requests, which its queues are
 * sized for: it cannot grow until they are all given back.
 */
#include <kunit/visibility.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/sunrpc/addr.h>

#include "server.h"
#include "trace.h"

/* Credits above their connections' floors, over every connection. */
static atomic_t srdma_credits_lent = ATOMIC_INIT(0);

/*
 * Until when (jiffies) the budget is shared out: set when a connection
 * whose client holds no more than its share was refused a batch.
 */
unsigned long srdma_share_until;

/* The clients (addresses) with connections, for the budget's shares. */
static DEFINE_SPINLOCK(srdma_peers_lock);
static DEFINE_HASHTABLE(srdma_peers, 6);
static unsigned int srdma_nr_peers;

/* An equal share of the budget for each client with connections. */
static unsigned int srdma_budget_share(unsigned int budget)
{
	return budget / max(READ_ONCE(srdma_nr_peers), 1U);
}

/**
 * srdma_grant_step - how a connection's grant moves after a Call
 * @v: what the Receive completion handler knows (struct srdma_grant_view)
 *
 * Return: the step (enum srdma_grant_step); a grant that is falling
 * neither grows nor falls again until the fall is done.
 */
enum srdma_grant_step srdma_grant_step(const struct srdma_grant_view *v)
{
	unsigned int add;

	if (v->falling)
		return SRDMA_GRANT_KEEP;
	if (v->sharing && v->peer_lent > v->share && v->grant > v->floor)
		return SRDMA_GRANT_OVER_SHARE;
	if (v->grant < v->max && 3 * v->held > v->grant) {
		add = min(v->batch, v->max - v->grant);
		if (v->sharing && v->peer_lent + add > v->share)
			return SRDMA_GRANT_AT_SHARE;
		return SRDMA_GRANT_GROW;
	}
	if (v->window_end && v->grant > v->floor && 6 * v->peak <= v->grant)
		return SRDMA_GRANT_IDLE;
	return SRDMA_GRANT_KEEP;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_step);

static bool srdma_same_peer(const struct srdma_peer *p, const struct net *net,
			    const struct sockaddr *sap)
{
	return p->net == net && rpc_cmp_addr((struct sockaddr *)&p->addr, sap);
}

static u32 srdma_peer_hash(const struct sockaddr *sap)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sap;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)sap;

	if (sap->sa_family == AF_INET6)
		return jhash(&sin6->sin6_addr, sizeof(sin6->sin6_addr), 0);
	return jhash_1word((__force u32)sin->sin_addr.s_addr, 0);
}

/*
 * The client a connection comes from, counted once however many
 * connections it has.  Return: 0 or -ENOMEM.
 */
static int srdma_peer_attach(struct srdma_xprt *sx)
{
	const struct sockaddr *sap = (struct sockaddr *)&sx->xprt.xpt_remote;
	struct net *net = sx->xprt.xpt_net;
	u32 key = srdma_peer_hash(sap);
	struct srdma_peer *p, *new;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	spin_lock(&srdma_peers_lock);
	hash_for_each_possible(srdma_peers, p, node, key) {
		if (srdma_same_peer(p, net, sap)) {
			p->conns++;
			goto out;
		}
	}
	p = new;
	new = NULL;
	p->net = net;
	rpc_copy_addr((struct sockaddr *)&p->addr, sap);
	p->conns = 1;
	hash_add(srdma_peers, &p->node, key);
	WRITE_ONCE(srdma_nr_peers, srdma_nr_peers + 1);
out:
	spin_unlock(&srdma_peers_lock);
	kfree(new);
	sx->peer = p;
	return 0;
}

static void srdma_peer_detach(struct srdma_xprt *sx)
{
	struct srdma_peer *p = sx->peer;

	if (!p)
		return;
	sx->peer = NULL;
	spin_lock(&srdma_peers_lock);
	if (--p->conns) {
		p = NULL;
	} else {
		hash_del(&p->node);
		WRITE_ONCE(srdma_nr_peers, srdma_nr_peers - 1);
	}
	spin_unlock(&srdma_peers_lock);
	if (p)
		WARN_ON_ONCE(atomic_read(&p->lent));
	kfree(p);
}

/**
 * srdma_grant_init - a new connection's grant and its client's share
 * @sx: the connection (its peer address is set)
 * @max: the largest grant its queues are sized for
 *
 * Return: 0 or -ENOMEM.
 */
int srdma_grant_init(struct srdma_xprt *sx, unsigned int max)
{
	sx->max_requests = max;
	sx->grant = min_t(unsigned int, max, SRDMA_GRANT_FLOOR);
	sx->lent = 0;
	sx->calls_in = 0;
	atomic_set(&sx->calls_done, 0);
	sx->held_peak = 0;
	sx->window_calls = 0;
	atomic_set(&sx->recv_giveback, 0);
	return srdma_peer_attach(sx);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_init);

/**
 * srdma_grant_share - fill in what the budget's sharing says of @sx
 * @sx: the connection
 * @v: its view; @v->sharing, @v->peer_lent and @v->share are set
 */
void srdma_grant_share(const struct srdma_xprt *sx, struct srdma_grant_view *v)
{
	v->sharing = srdma_grant_sharing();
	if (!v->sharing)
		return;
	v->peer_lent = atomic_read(&sx->peer->lent);
	v->share = srdma_budget_share(READ_ONCE(srdma_credit_budget));
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_share);

/**
 * srdma_grant_take - take credits above the floor from the budget
 * @sx: the connection that grows
 * @n: credits
 *
 * A connection whose client holds no more than an equal share and is
 * refused starts the budget's sharing for a second: clients above
 * their share then fall (srdma_grant_step()).
 *
 * Return: true if the budget (srdma_credit_budget) had room for them.
 */
bool srdma_grant_take(struct srdma_xprt *sx, unsigned int n)
{
	unsigned int budget = READ_ONCE(srdma_credit_budget);

	if (atomic_add_return(n, &srdma_credits_lent) <= budget) {
		sx->lent += n;
		atomic_add(n, &sx->peer->lent);
		return true;
	}
	atomic_sub(n, &srdma_credits_lent);
	if (atomic_read(&sx->peer->lent) + n <= srdma_budget_share(budget))
		WRITE_ONCE(srdma_share_until, (jiffies + HZ) | 1);
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_take);

/**
 * srdma_grant_give - credits taken by srdma_grant_take() go back
 * @sx: the connection
 * @n: credits
 */
void srdma_grant_give(struct srdma_xprt *sx, unsigned int n)
{
	if (WARN_ON_ONCE(n > sx->lent))
		n = sx->lent;
	sx->lent -= n;
	atomic_sub(n, &sx->peer->lent);
	atomic_sub(n, &srdma_credits_lent);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_give);

/**
 * srdma_grant_fall - lower a connection's grant; its credits go back to
 *	the budget
 * @sx: the connection
 * @by: credits to fall by at most: the grant stays at or above its floor
 * @held: messages held, for the trace
 * @why: the reason (SRDMA_GRANT_IDLE or SRDMA_GRANT_OVER_SHARE)
 *
 * The smaller grant is published under the Send FIFO lock, so every reply
 * posted after it carries it, and as many Receives are to be given back
 * by not reposting those the next Calls consume (srdma_recv_refill();
 * the comment at the top of this file says why that is safe).  The
 * budget gets the credits now, not as those Receives go.
 *
 * Return: the credits the grant fell by (0 if it was at its floor).
 */
unsigned int srdma_grant_fall(struct srdma_xprt *sx, unsigned int by,
			      unsigned int held, enum srdma_grant_step why)
{
	unsigned int floor = srdma_grant_floor(sx), grant;

	spin_lock(&sx->sendq.lock);
	grant = sx->grant;
	by = min(by, grant > floor ? grant - floor : 0);
	if (by) {
		WRITE_ONCE(sx->grant, grant - by);
		atomic_add(by, &sx->recv_giveback);
	}
	spin_unlock(&sx->sendq.lock);
	if (!by)
		return 0;
	srdma_grant_give(sx, by);
	trace_svcrdma_grant_fall(sx, grant, grant - by, held,
				 why == SRDMA_GRANT_OVER_SHARE);
	return by;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_fall);

/**
 * srdma_grant_release - a connection is freed: its credits go back to
 *	the budget and it leaves its client's count
 * @sx: the connection (srdma_grant_init() may not have run)
 */
void srdma_grant_release(struct srdma_xprt *sx)
{
	if (!sx->peer)
		return;
	srdma_grant_give(sx, sx->lent);
	srdma_peer_detach(sx);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_release);
