// SPDX-License-Identifier: GPL-2.0
/*
 * Client tunables under /proc/sys/sunrpc/.  The names are the ones the
 * kernel's own transport uses, so existing tuning instructions apply.
 * New values affect transports created afterwards (the next mount).
 *
 * rdma_inline_write_padding, rdma_memreg_strategy and rdma_pad_optimize
 * are kept for scripts that set them: the kernel's transport accepts
 * them too but no longer acts on them (padding is gone from the
 * protocol in use, FRWR is the only registration mode), and neither do
 * we.  They take the same ranges.
 */
#include <linux/sunrpc/xprtrdma.h>
#include <linux/sysctl.h>

#include "client.h"

unsigned int xrdma_slot_table_entries = XRDMA_DEF_SLOTS;
unsigned int xrdma_max_inline_read = XRDMA_DEF_INLINE;
unsigned int xrdma_max_inline_write = XRDMA_DEF_INLINE;
static unsigned int xrdma_inline_write_padding;
static unsigned int xrdma_memreg_strategy = RPCRDMA_FRWR;
static int xrdma_pad_optimize;

static unsigned int min_slots = XRDMA_MIN_SLOTS;
static unsigned int max_slots = XRDMA_MAX_SLOTS;
static unsigned int min_inline = XRDMA_MIN_INLINE;
static unsigned int max_inline = XRDMA_MAX_INLINE;
static unsigned int max_padding = PAGE_SIZE;
static unsigned int max_memreg = RPCRDMA_LAST - 1;

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
	{
		.procname	= "rdma_inline_write_padding",
		.data		= &xrdma_inline_write_padding,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_padding,
	},
	{
		.procname	= "rdma_memreg_strategy",
		.data		= &xrdma_memreg_strategy,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_memreg,
	},
	{
		.procname	= "rdma_pad_optimize",
		.data		= &xrdma_pad_optimize,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec,
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
