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
 * A connection that sends nothing gives no Call to ask at, so a check of
 * its own, a delayed work queued while its grant is above the floor
 * (srdma_grant_quiet_check()), takes the grant down to the floor once no
 * message came for the quiet period (srdma_grant_quiet(), the sysctl
 * credit_quiet_timeout): an idle mount, or one whose only Calls are a
 * lease renewal a minute, does not keep its credits for good.
 * The credits above the floors come from one budget (srdma_credit_budget,
 * a sysctl), so what connections are granted stays bounded however many
 * clients connect; once it is spent, the budget is shared per client
 * host (struct srdma_peer): a connection whose client holds more than
 * an equal share falls a batch at a time, so that a client with many
 * connections cannot keep the credits a client with one needs.
 *
 * A client host is what the transport can tell apart (struct
 * srdma_share_key), not what the client says it is.  On RoCE and iWARP
 * it is the source address of the packets, IPv4 whole and IPv6 by its
 * /64: a host picks its IPv6 interface identifiers itself, as many as it
 * likes, but not the subnet it is on.  IPv4-mapped IPv6 is the IPv4
 * address.  On InfiniBand the address is the one the client wrote in its
 * connection request, so the key is the LID the request came from.  So
 * one host takes one share however many addresses it shows within its
 * key; a host with addresses in several keys (dual stack, several IPv4
 * addresses) takes one share per key.  The sysctls credit_share_prefix4
 * and credit_share_prefix6 widen the keys where clients own more (every
 * address of a /28 to one host, say), at the price of hosts within one
 * key sharing one share.
 *
 * RFC 8166 section 3.3.1 binds both directions.  The Receives for a
 * larger grant are posted before any reply carries it.  A smaller grant
 * binds the client only from the reply that tells it: until then it may
 * still use every credit an earlier reply gave (the client of a quiet
 * connection learns of its fall from the reply to its next Call).
 * Receives cannot be taken back from the device; a fallen grant's
 * Receives are given back by not reposting them as Calls consume them
 * (recv.c).  Every change of the grant, a rise or a fall, from the
 * Receive completion handler or from the quiet check, is made under the
 * lock that orders the Send Queue, under which each reply's grant is
 * stamped as the reply is posted (srdma_send_stamp_grant()); a fall adds
 * what it takes from the grant to the Receives to give back in the same
 * section, and a rise is added to the grant of that moment once its
 * Receives are posted.  So at every moment the grant and the Receives
 * still to give back together are no more than the Receives posted for
 * credits.  Take the last reply the client has read: when it was posted,
 * at least its grant's Receives were posted.  Every Receive given back
 * since was taken by a Call whose completion was handled after that
 * reply was posted, so the Call's own reply is posted later and is not
 * read yet: the client counts that Call as outstanding against the grant
 * it read.  So the client never has more credits than Receives are
 * posted.  None of this depends on what made the grant fall, nor on how
 * many falls still have Receives to give back: a fall from the quiet
 * check, which may come while an earlier fall's Receives are being given
 * back or a rise's Receives are being posted, is one more fall.
 *
 * When the budget gets credits back: at the fall, all of them
 * (srdma_grant_fall()), whatever made the grant fall.  The budget counts
 * credits granted, not the Receives behind them: a fallen grant's
 * Receives stay posted until the client's next Calls take them, one a
 * Call, or until the connection closes and they are all freed, so a
 * quiet connection may keep them long after its credits went to other
 * clients.  What a connection keeps that way is bounded all the same:
 * its grant and the Receives it has to give back never add up to more
 * than max_requests, which its queues are sized for, as a rise is
 * decided only when it has none to give back and takes the grant to at
 * most max_requests, and a fall moves credits from the one to the other.
 */
#include <kunit/visibility.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <net/ipv6.h>
#include <rdma/ib_sa.h>

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

/**
 * srdma_share_clients - the client hosts (share keys) with connections
 *
 * Return: how many ways the budget is shared once it is spent.
 */
unsigned int srdma_share_clients(void)
{
	return READ_ONCE(srdma_nr_peers);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_share_clients);

/* An equal share of the budget for each client with connections. */
static unsigned int srdma_budget_share(unsigned int budget)
{
	return budget / max(srdma_share_clients(), 1U);
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

/**
 * srdma_share_key_inet - the share key of a client that is an IP address
 * @sap: the client's address (AF_INET or AF_INET6; the port is ignored)
 * @prefix4: the bits of an IPv4 address that make the key (at most 32)
 * @prefix6: the bits of an IPv6 address that make the key (at most 128)
 * @key: filled in
 *
 * An IPv4-mapped IPv6 address is the IPv4 address it maps, so a dual
 * stack listener sees one client either way.
 */
void srdma_share_key_inet(const struct sockaddr *sap, unsigned int prefix4,
			  unsigned int prefix6, struct srdma_share_key *key)
{
	const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)sap;
	const struct sockaddr_in *sin = (const struct sockaddr_in *)sap;
	struct in6_addr a;
	unsigned int plen;

	memset(key, 0, sizeof(*key));
	key->kind = SRDMA_SHARE_INET;
	if (sap->sa_family == AF_INET) {
		ipv6_addr_set_v4mapped(sin->sin_addr.s_addr, &a);
		plen = 96 + min(prefix4, 32U);
	} else if (ipv6_addr_v4mapped(&sin6->sin6_addr)) {
		a = sin6->sin6_addr;
		plen = 96 + min(prefix4, 32U);
	} else {
		a = sin6->sin6_addr;
		plen = min(prefix6, 128U);
	}
	ipv6_addr_prefix((struct in6_addr *)key->addr, &a, plen);
	key->plen = plen;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_share_key_inet);

/**
 * srdma_share_key_ib - the share key of an InfiniBand client
 * @lid: the LID its connection request came from
 * @key: filled in
 */
void srdma_share_key_ib(u32 lid, struct srdma_share_key *key)
{
	memset(key, 0, sizeof(*key));
	key->kind = SRDMA_SHARE_IB_LID;
	key->addr[0] = cpu_to_be32(lid);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_share_key_ib);

/**
 * srdma_share_key_name - a share key as text
 * @key: the key
 * @buf: the text: "192.0.2.2/32", "2001:db8::/64" or "lid 0x1f"
 * @len: room in @buf (SRDMA_SHARE_NAME_LEN will do)
 */
void srdma_share_key_name(const struct srdma_share_key *key, char *buf,
			  size_t len)
{
	const struct in6_addr *a = (const struct in6_addr *)key->addr;

	if (key->kind == SRDMA_SHARE_IB_LID)
		snprintf(buf, len, "lid 0x%x", be32_to_cpu(key->addr[0]));
	else if (ipv6_addr_v4mapped(a))
		snprintf(buf, len, "%pI4/%u", &a->s6_addr32[3],
			 key->plen - 96);
	else
		snprintf(buf, len, "%pI6c/%u", a, key->plen);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_share_key_name);

/*
 * The key of the client host @sx comes from.  On InfiniBand the address
 * is one the client wrote into its connection request's private data,
 * so the key is the LID the request came from, which the subnet manager
 * assigned.  On RoCE and iWARP the address is the packets' own, with
 * the prefix lengths of the sysctls credit_share_prefix4 and
 * credit_share_prefix6.
 */
static void srdma_share_key_of(const struct srdma_xprt *sx,
			       struct srdma_share_key *key)
{
	const struct rdma_cm_id *id = sx->cm_id;
	struct sa_path_rec *path = id ? id->route.path_rec : NULL;

	if (path && id->device && rdma_protocol_ib(id->device, id->port_num) &&
	    path->rec_type == SA_PATH_REC_TYPE_IB) {
		srdma_share_key_ib(be32_to_cpu(sa_path_get_dlid(path)), key);
		return;
	}
	srdma_share_key_inet((struct sockaddr *)&sx->xprt.xpt_remote,
			     READ_ONCE(srdma_share_prefix4),
			     READ_ONCE(srdma_share_prefix6), key);
}

static bool srdma_same_peer(const struct srdma_peer *p, const struct net *net,
			    const struct srdma_share_key *key)
{
	return p->net == net && !memcmp(&p->key, key, sizeof(*key));
}

/*
 * The client host a connection comes from (its share key), counted once
 * however many connections, and addresses within the key, it has.
 * Return: 0 or -ENOMEM.
 */
static int srdma_peer_attach(struct srdma_xprt *sx)
{
	struct net *net = sx->xprt.xpt_net;
	struct srdma_share_key key;
	struct srdma_peer *p, *new;
	u32 hash;

	srdma_share_key_of(sx, &key);
	hash = jhash(&key, sizeof(key), 0);
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	spin_lock(&srdma_peers_lock);
	hash_for_each_possible(srdma_peers, p, node, hash) {
		if (srdma_same_peer(p, net, &key)) {
			p->conns++;
			goto out;
		}
	}
	p = new;
	new = NULL;
	p->net = net;
	p->key = key;
	srdma_share_key_name(&key, p->name, sizeof(p->name));
	p->conns = 1;
	hash_add(srdma_peers, &p->node, hash);
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
	atomic_set(&sx->lent, 0);
	sx->calls_in = 0;
	sx->last_call = jiffies;
	sx->grant_quiet = READ_ONCE(srdma_credit_quiet_timeout) * HZ;
	/* A work item: the fall takes the Send FIFO lock (conn_check.c). */
	srdma_conn_check_init(&sx->grant_work, sx, srdma_grant_quiet_check);
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
		atomic_add(n, &sx->lent);
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
	int left = atomic_sub_return(n, &sx->lent);

	if (WARN_ON_ONCE(left < 0)) {
		/* More than it holds: give back only what it holds. */
		atomic_sub(left, &sx->lent);
		n += left;
	}
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
 * @why: the reason (SRDMA_GRANT_IDLE, SRDMA_GRANT_OVER_SHARE or
 *	SRDMA_GRANT_QUIET)
 *
 * The smaller grant is published under the Send FIFO lock, so every reply
 * posted after it carries it, and as many Receives are to be given back
 * by not reposting those the next Calls consume (srdma_recv_refill();
 * the comment at the top of this file says why that is safe).  The
 * budget gets the credits now, not as those Receives go.  Called by the
 * Receive completion handler and by the quiet check, which may race:
 * the grant is read and changed under the lock.
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
	trace_svcrdma_grant_fall(sx, grant, grant - by, held, why);
	return by;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_fall);

/**
 * srdma_grant_quiet - how far a quiet connection's grant falls
 * @last_call: when its last message came (jiffies)
 * @now: jiffies
 * @quiet: the quiet period (jiffies); 0 turns quiet falls off
 * @grant: the grant now
 * @floor: the smallest grant
 *
 * Return: the credits to fall by: every one above @floor once no message
 * came for @quiet, else 0.  A @last_call after @now (a Call that came
 * while the caller read the clock) is no quiet.
 */
unsigned int srdma_grant_quiet(unsigned long last_call, unsigned long now,
			       unsigned long quiet, unsigned int grant,
			       unsigned int floor)
{
	if (!quiet || grant <= floor)
		return 0;
	if (time_before(now, last_call + quiet))
		return 0;
	return grant - floor;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_quiet);

/**
 * srdma_grant_quiet_check - fall to the floor if the connection is quiet
 * @sx: the connection
 * @now: jiffies
 *
 * Return: jiffies until the next check: 0 when none is needed (the grant
 * fell to its floor or was at it; the next rise starts the checks again).
 */
unsigned long srdma_grant_quiet_check(struct srdma_xprt *sx,
				      unsigned long now)
{
	unsigned long last = READ_ONCE(sx->last_call);
	unsigned int floor = srdma_grant_floor(sx);
	unsigned int grant = READ_ONCE(sx->grant);
	unsigned int by, held;

	by = srdma_grant_quiet(last, now, sx->grant_quiet, grant, floor);
	if (by) {
		held = READ_ONCE(sx->calls_in) -
		       (unsigned int)atomic_read(&sx->calls_done);
		srdma_grant_fall(sx, by, held, SRDMA_GRANT_QUIET);
		return 0;
	}
	if (!sx->grant_quiet || grant <= floor)
		return 0;
	/* Not quiet yet: look again when it would be, if nothing comes. */
	return last + sx->grant_quiet - now;
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_quiet_check);

/**
 * srdma_grant_quiet_arm - start the quiet checks of a grant that rose
 * @sx: the connection, whose grant is above its floor
 *
 * Called by the Receive completion handler after a rise: at most one
 * check is queued at a time, and it queues the next itself.
 */
void srdma_grant_quiet_arm(struct srdma_xprt *sx)
{
	if (sx->grant_quiet)
		srdma_conn_check_start(&sx->grant_work, sx->grant_quiet);
}

/**
 * srdma_grant_release - a connection is freed: its credits go back to
 *	the budget and it leaves its client's count
 * @sx: the connection (srdma_grant_init() may not have run); its Receive
 *	completion handler is done (the QP is drained)
 *
 * Its quiet check is disabled first, and waited for if it runs: it must
 * not run on a freed connection, nor queue itself again.  Sleeps.
 */
void srdma_grant_release(struct srdma_xprt *sx)
{
	if (!sx->peer)
		return;
	srdma_conn_check_stop(&sx->grant_work);
	srdma_grant_give(sx, atomic_read(&sx->lent));
	srdma_peer_detach(sx);
}
EXPORT_SYMBOL_IF_KUNIT(srdma_grant_release);
