// SPDX-License-Identifier: GPL-2.0
/*
 * Reconnect as soon as the link is back.
 *
 * While a connection is down, the RPC layer retries the connect with a
 * delay that doubles after every failure, up to XRDMA_MAX_REEST_TO.  An
 * outage of a few seconds (a link flap, an RDMA device deleted and added)
 * makes several attempts fail, so the next one may be half a minute away
 * when the link returns, and the mount waits for it.  Here the transport
 * watches for what ends such an outage: a network interface coming up
 * or getting its carrier back, and an RDMA device being added.  Each
 * transport of that network namespace then tries again at once: a
 * waiting connect is started, and an attempt under way is cut short (its
 * address resolution or connect request may have been lost while the
 * link was down, and would be waited for until it timed out).  For
 * XRDMA_LINK_BACK_WINDOW attempts are not backed off: one made before
 * the device's port is up is followed by another within
 * XRDMA_LINK_BACK_DELAY.
 *
 * A connection whose interface went down and came back is closed when
 * the link returns, so that it reconnects and sends again what awaits a
 * reply.  While the link was down the peer may have given up on its
 * side of the connection (its Sends ran out of retries) and its
 * disconnect request have been lost; our queue pair then stays
 * connected to nothing, and the calls whose replies were lost would
 * wait for the RPC timeout, a minute on an NFS mount.
 *
 * Transports join a list when they are set up and leave it before they
 * are destroyed; the list's lock is held while a connect is rescheduled,
 * so a transport's connect worker is never touched after it left.
 */
#include <linux/netdevice.h>
#include <linux/spinlock.h>
#include <rdma/ib_verbs.h>

#include "client.h"
#include "trace.h"

static LIST_HEAD(xrdma_watched);
static DEFINE_SPINLOCK(xrdma_watch_lock);

/* The interface @ifindex of @net went down: note it on its connections. */
static void xrdma_linkwatch_lost(struct net *net, int ifindex)
{
	struct xrdma_xprt *rx;

	spin_lock(&xrdma_watch_lock);
	list_for_each_entry(rx, &xrdma_watched, watch_node)
		if (net_eq(rx->xprt.xprt_net, net) &&
		    rx->link_ifindex == ifindex)
			rx->link_lost = true;
	spin_unlock(&xrdma_watch_lock);
}

/*
 * Every watched transport of @net (all of them if NULL) tries now; one
 * connected over @ifindex (if not 0) while it was down reconnects.
 */
static void xrdma_linkwatch_kick(struct net *net, int ifindex,
				 const char *why)
{
	struct xrdma_xprt *rx;

	spin_lock(&xrdma_watch_lock);
	list_for_each_entry(rx, &xrdma_watched, watch_node) {
		if (net && !net_eq(rx->xprt.xprt_net, net))
			continue;
		if (xprt_connected(&rx->xprt)) {
			if (!ifindex || rx->link_ifindex != ifindex ||
			    !rx->link_lost)
				continue;
			rx->link_lost = false;
			WRITE_ONCE(rx->link_back, jiffies | 1);
			xrdma_force_disconnect(rx, "link lost and back");
			continue;
		}
		WRITE_ONCE(rx->link_back, jiffies | 1);
		if (delayed_work_pending(&rx->connect_worker)) {
			trace_xprtrdma_link_back(&rx->xprt, why);
			mod_delayed_work(system_long_wq, &rx->connect_worker, 0);
		} else if (rx->connecting) {
			/* xrdma_cm_wait() returns -EAGAIN. */
			trace_xprtrdma_link_back(&rx->xprt, why);
			rx->connecting->cm_status = -EAGAIN;
			complete(&rx->connecting->cm_done);
		}
	}
	spin_unlock(&xrdma_watch_lock);
}

static int xrdma_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	switch (event) {
	case NETDEV_UP:
	case NETDEV_CHANGE:
		if (netif_running(dev) && netif_carrier_ok(dev))
			xrdma_linkwatch_kick(dev_net(dev), dev->ifindex,
					     dev->name);
		else
			xrdma_linkwatch_lost(dev_net(dev), dev->ifindex);
		break;
	case NETDEV_DOWN:
		xrdma_linkwatch_lost(dev_net(dev), dev->ifindex);
		break;
	default:
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block xrdma_netdev_nb = {
	.notifier_call = xrdma_netdev_event,
};

static int xrdma_ib_add(struct ib_device *device)
{
	xrdma_linkwatch_kick(NULL, 0, dev_name(&device->dev));
	return 0;
}

static void xrdma_ib_remove(struct ib_device *device, void *client_data)
{
}

static struct ib_client xrdma_ib_client = {
	.name	= "rpcrdma_linkwatch",
	.add	= xrdma_ib_add,
	.remove	= xrdma_ib_remove,
};

/**
 * xrdma_linkwatch_add - watch links for a new transport
 * @rx: transport being set up
 */
void xrdma_linkwatch_add(struct xrdma_xprt *rx)
{
	spin_lock(&xrdma_watch_lock);
	list_add(&rx->watch_node, &xrdma_watched);
	spin_unlock(&xrdma_watch_lock);
}

/**
 * xrdma_linkwatch_del - stop watching for a transport
 * @rx: transport about to be destroyed; its connect worker is cancelled
 *	after this returns
 */
void xrdma_linkwatch_del(struct xrdma_xprt *rx)
{
	spin_lock(&xrdma_watch_lock);
	list_del(&rx->watch_node);
	spin_unlock(&xrdma_watch_lock);
}

/**
 * xrdma_linkwatch_connecting - note the connect attempt under way
 * @rx: transport
 * @ep: its new endpoint while it connects, NULL once it is done (before
 *	it is freed or used)
 */
void xrdma_linkwatch_connecting(struct xrdma_xprt *rx, struct xrdma_ep *ep)
{
	spin_lock(&xrdma_watch_lock);
	rx->connecting = ep;
	spin_unlock(&xrdma_watch_lock);
}

/**
 * xrdma_linkwatch_connected - note the interface of a new connection
 * @rx: transport just connected
 * @ifindex: the interface its RDMA device runs over (0 if none is known)
 */
void xrdma_linkwatch_connected(struct xrdma_xprt *rx, int ifindex)
{
	spin_lock(&xrdma_watch_lock);
	rx->link_ifindex = ifindex;
	rx->link_lost = false;
	spin_unlock(&xrdma_watch_lock);
}

/**
 * xrdma_link_back - did a link come back lately?
 * @rx: transport about to queue a connect
 *
 * Within XRDMA_LINK_BACK_WINDOW of an interface or RDMA device coming
 * back, connects are not backed off: the first attempt may still find
 * the device's port not quite up.
 *
 * Return: true if the connect should start (almost) at once, with the
 * backoff reset.
 */
bool xrdma_link_back(struct xrdma_xprt *rx)
{
	unsigned long back = READ_ONCE(rx->link_back);

	return back && time_before(jiffies, back + XRDMA_LINK_BACK_WINDOW);
}

/**
 * xrdma_linkwatch_register - start watching interfaces and RDMA devices
 *
 * Return: 0 or -errno.
 */
int xrdma_linkwatch_register(void)
{
	int rc;

	rc = register_netdevice_notifier(&xrdma_netdev_nb);
	if (rc)
		return rc;
	rc = ib_register_client(&xrdma_ib_client);
	if (rc)
		unregister_netdevice_notifier(&xrdma_netdev_nb);
	return rc;
}

/**
 * xrdma_linkwatch_unregister - undo xrdma_linkwatch_register()
 */
void xrdma_linkwatch_unregister(void)
{
	ib_unregister_client(&xrdma_ib_client);
	unregister_netdevice_notifier(&xrdma_netdev_nb);
}
