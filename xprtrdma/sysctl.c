// SPDX-License-Identifier: GPL-2.0
/*
 * Client tunables under /proc/sys/sunrpc/.  The names are the ones the
 * kernel's own transport uses, so existing tuning instructions apply.
 * New values affect transports created afterwards (the next mount).
 */
#include <linux/sysctl.h>

#include "client.h"

unsigned int xrdma_slot_table_entries = XRDMA_DEF_SLOTS;
unsigned int xrdma_max_inline_read = XRDMA_DEF_INLINE;
unsigned int xrdma_max_inline_write = XRDMA_DEF_INLINE;

static unsigned int min_slots = XRDMA_MIN_SLOTS;
static unsigned int max_slots = XRDMA_MAX_SLOTS;
static unsigned int min_inline = XRDMA_MIN_INLINE;
static unsigned int max_inline = XRDMA_MAX_INLINE;

static struct ctl_table_header *xrdma_sysctl_header;

static struct ctl_table xrdma_sysctl_table[] = {
	{
		.procname	= "rdma_slot_table_entries",
		.data		= &xrdma_slot_table_entries,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_slots,
		.extra2		= &max_slots,
	},
	{
		.procname	= "rdma_max_inline_read",
		.data		= &xrdma_max_inline_read,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_inline,
		.extra2		= &max_inline,
	},
	{
		.procname	= "rdma_max_inline_write",
		.data		= &xrdma_max_inline_write,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_inline,
		.extra2		= &max_inline,
	},
};

/**
 * xrdma_sysctl_register - publish the client tunables
 *
 * Return: 0 or -ENOMEM.
 */
int xrdma_sysctl_register(void)
{
	xrdma_sysctl_header = register_sysctl("sunrpc", xrdma_sysctl_table);
	return xrdma_sysctl_header ? 0 : -ENOMEM;
}

/**
 * xrdma_sysctl_unregister - remove the client tunables
 */
void xrdma_sysctl_unregister(void)
{
	unregister_sysctl_table(xrdma_sysctl_header);
	xrdma_sysctl_header = NULL;
}
