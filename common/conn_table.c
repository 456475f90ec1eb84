// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/net/rpcrdma: every connection of this module, both roles, one
 * line each, in the network namespace it belongs to.
 *
 * The table is a list under a mutex.  A connection joins it when it is
 * set up and leaves it before it is freed; leaving takes the mutex, so
 * a reader, which holds the mutex from the first line to the last, never
 * sees a connection being freed.  Each line is what the role's fill
 * method says (struct rpcrdma_conn_info) and the counters both roles
 * keep the same way (struct rpcrdma_conn): failed completions by kind
 * and the first cause of the last disconnect.
 *
 * The columns are fixed and separated by one space; the last one, the
 * reason for the last disconnect, runs to the end of the line.
 * Documentation/admin-guide.rst explains each.
 */
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <net/net_namespace.h>
#include <rdma/rdma_cm.h>
#include <rpcrdma/conn_table.h>

static LIST_HEAD(rpcrdma_conns);
static DEFINE_MUTEX(rpcrdma_conns_mutex);

/**
 * rpcrdma_conn_init - prepare a connection's entry, not yet listed
 * @c: the entry, zeroed
 *
 * Its counters and reason work from now on; rpcrdma_conn_add() lists it.
 */
void rpcrdma_conn_init(struct rpcrdma_conn *c)
{
	spin_lock_init(&c->why_lock);
	c->why_armed = true;
}

/**
 * rpcrdma_conn_add - list a connection in /proc/net/rpcrdma
 * @c: the connection's entry, rpcrdma_conn_init() done
 * @net: its network namespace
 * @fill: its role's fill method
 */
void rpcrdma_conn_add(struct rpcrdma_conn *c, struct net *net,
		      void (*fill)(struct rpcrdma_conn *c,
				   struct rpcrdma_conn_info *info))
{
	c->net = net;
	c->fill = fill;
	mutex_lock(&rpcrdma_conns_mutex);
	list_add_tail(&c->node, &rpcrdma_conns);
	mutex_unlock(&rpcrdma_conns_mutex);
}

/**
 * rpcrdma_conn_del - take a connection out of /proc/net/rpcrdma
 * @c: an entry rpcrdma_conn_add() listed, or a zeroed one it did not
 *
 * On return no reader uses @c or calls its fill method.
 */
void rpcrdma_conn_del(struct rpcrdma_conn *c)
{
	if (!c->fill)
		return;
	mutex_lock(&rpcrdma_conns_mutex);
	list_del(&c->node);
	mutex_unlock(&rpcrdma_conns_mutex);
}

/**
 * rpcrdma_conn_why - note why the connection is going down
 * @c: the connection
 * @why: what @code or @text names
 * @code: the RDMA-CM event, the completion status or the QP event
 * @text: for RPCRDMA_WHY_LOCAL, the reason (static storage)
 *
 * The first cause after the connection came up is kept: what follows
 * from it (flushed completions, the close it leads to) does not replace
 * it.  Any context.
 */
void rpcrdma_conn_why(struct rpcrdma_conn *c, enum rpcrdma_conn_why why,
		      int code, const char *text)
{
	unsigned long flags;

	spin_lock_irqsave(&c->why_lock, flags);
	if (c->why_armed) {
		c->why_armed = false;
		c->why = why;
		c->why_code = code;
		c->why_text = text;
	}
	spin_unlock_irqrestore(&c->why_lock, flags);
}

/**
 * rpcrdma_conn_up - a new connection is up: its first cause will count
 * @c: the connection
 *
 * The reason shown stays until the next disconnect notes its own.
 */
void rpcrdma_conn_up(struct rpcrdma_conn *c)
{
	unsigned long flags;

	spin_lock_irqsave(&c->why_lock, flags);
	c->why_armed = true;
	spin_unlock_irqrestore(&c->why_lock, flags);
}

static void rpcrdma_conn_show_addr(struct seq_file *m,
				   const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET || ss->ss_family == AF_INET6)
		seq_printf(m, " %pISpc", ss);
	else
		seq_puts(m, " -");
}

static void rpcrdma_conn_show_why(struct seq_file *m, struct rpcrdma_conn *c)
{
	enum rpcrdma_conn_why why;
	const char *text;
	int code;

	spin_lock_irq(&c->why_lock);
	why = c->why;
	code = c->why_code;
	text = c->why_text;
	spin_unlock_irq(&c->why_lock);

	switch (why) {
	case RPCRDMA_WHY_CM:
		seq_printf(m, " cm %s\n", rdma_event_msg(code));
		break;
	case RPCRDMA_WHY_WC:
		seq_printf(m, " wc %s\n", ib_wc_status_msg(code));
		break;
	case RPCRDMA_WHY_QP:
		seq_printf(m, " qp %s\n", ib_event_msg(code));
		break;
	case RPCRDMA_WHY_LOCAL:
		seq_printf(m, " local %s\n", text);
		break;
	default:
		seq_puts(m, " -\n");
		break;
	}
}

static int rpcrdma_conn_seq_show(struct seq_file *m, void *v)
{
	struct rpcrdma_conn_info info = { .reconnects = -1, .read_pages = -1 };
	struct rpcrdma_conn *c;

	if (v == &rpcrdma_conns) {
		seq_puts(m, "role local peer state age credits in_use inline_send inline_recv ord ird sq_depth sq_waits rnr_retry_exc retry_exc flushed reconnects read_pages last_disconnect\n");
		return 0;
	}
	c = list_entry(v, struct rpcrdma_conn, node);
	if (!net_eq(c->net, seq_file_net(m)))
		return 0;
	c->fill(c, &info);

	seq_puts(m, info.role);
	rpcrdma_conn_show_addr(m, &info.local);
	rpcrdma_conn_show_addr(m, &info.peer);
	seq_printf(m, " %s", info.state);
	if (info.since)
		seq_printf(m, " %lu", (jiffies - info.since) / HZ);
	else
		seq_puts(m, " -");
	seq_printf(m, " %u %u %u %u %u %u %u", info.credits, info.in_use,
		   info.inline_send, info.inline_recv, info.ord, info.ird,
		   info.sq_depth);
	seq_printf(m, " %ld %ld %ld %ld", atomic_long_read(&c->sq_waits),
		   atomic_long_read(&c->rnr_errs),
		   atomic_long_read(&c->retry_errs),
		   atomic_long_read(&c->flushed));
	if (info.reconnects >= 0)
		seq_printf(m, " %ld", info.reconnects);
	else
		seq_puts(m, " -");
	if (info.read_pages >= 0)
		seq_printf(m, " %ld", info.read_pages);
	else
		seq_puts(m, " -");
	rpcrdma_conn_show_why(m, c);
	return 0;
}

static void *rpcrdma_conn_seq_start(struct seq_file *m, loff_t *pos)
{
	mutex_lock(&rpcrdma_conns_mutex);
	return seq_list_start_head(&rpcrdma_conns, *pos);
}

static void *rpcrdma_conn_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	return seq_list_next(v, &rpcrdma_conns, pos);
}

static void rpcrdma_conn_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&rpcrdma_conns_mutex);
}

static const struct seq_operations rpcrdma_conn_seq_ops = {
	.start	= rpcrdma_conn_seq_start,
	.next	= rpcrdma_conn_seq_next,
	.stop	= rpcrdma_conn_seq_stop,
	.show	= rpcrdma_conn_seq_show,
};

static int __net_init rpcrdma_conn_net_init(struct net *net)
{
	if (!proc_create_net("rpcrdma", 0444, net->proc_net,
			     &rpcrdma_conn_seq_ops,
			     sizeof(struct seq_net_private)))
		return -ENOMEM;
	return 0;
}

static void __net_exit rpcrdma_conn_net_exit(struct net *net)
{
	remove_proc_entry("rpcrdma", net->proc_net);
}

static struct pernet_operations rpcrdma_conn_net_ops = {
	.init	= rpcrdma_conn_net_init,
	.exit	= rpcrdma_conn_net_exit,
};

/**
 * rpcrdma_conn_table_init - create /proc/net/rpcrdma in every namespace
 *
 * Return: 0 or -errno.
 */
int rpcrdma_conn_table_init(void)
{
	return register_pernet_subsys(&rpcrdma_conn_net_ops);
}

/**
 * rpcrdma_conn_table_exit - remove it; every connection has left
 */
void rpcrdma_conn_table_exit(void)
{
	unregister_pernet_subsys(&rpcrdma_conn_net_ops);
}
