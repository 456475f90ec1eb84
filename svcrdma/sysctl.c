// SPDX-License-Identifier: GPL-2.0
/*
 * Server tunables and counters under /proc/sys/sunrpc/svc_rdma/, with the
 * names the kernel's own transport uses.  Tunables affect connections
 * accepted afterwards.  Writing to a counter resets it.
 */
#include <kunit/visibility.h>
#include <linux/sysctl.h>

#include "server.h"

unsigned int srdma_max_requests = SRDMA_DEF_REQUESTS;
unsigned int srdma_max_req_size = SRDMA_DEF_REQ_SIZE;
unsigned int srdma_ord = SRDMA_DEF_ORD;
unsigned int srdma_sq_stall_timeout = SRDMA_DEF_SQ_STALL;
unsigned int srdma_credit_quiet_timeout = SRDMA_DEF_CREDIT_QUIET;
unsigned int srdma_read_timeout = SRDMA_DEF_READ_TIMEOUT;
unsigned int srdma_send_timeout = SRDMA_DEF_SEND_TIMEOUT;
unsigned int srdma_share_prefix4 = SRDMA_DEF_SHARE_PREFIX4;
unsigned int srdma_share_prefix6 = SRDMA_DEF_SHARE_PREFIX6;
/* Set from the machine's memory at registration. */
unsigned int srdma_credit_budget;
EXPORT_SYMBOL_IF_KUNIT(srdma_credit_budget);
unsigned int srdma_read_budget;
EXPORT_SYMBOL_IF_KUNIT(srdma_read_budget);

DEFINE_PER_CPU(struct srdma_stats, srdma_stats);

static unsigned int min_requests = SRDMA_MIN_REQUESTS;
static unsigned int max_requests = SRDMA_MAX_REQUESTS;
static unsigned int min_req_size = SRDMA_MIN_REQ_SIZE;
static unsigned int max_req_size = SRDMA_MAX_REQ_SIZE;
static unsigned int min_ord = SRDMA_MIN_ORD;
static unsigned int max_ord = SRDMA_MAX_ORD;
static unsigned int min_sq_stall = SRDMA_MIN_SQ_STALL;
static unsigned int max_sq_stall = SRDMA_MAX_SQ_STALL;
static unsigned int max_budget = SRDMA_MAX_CREDIT_BUDGET;
static unsigned int max_credit_quiet = SRDMA_MAX_CREDIT_QUIET;
static unsigned int min_read_timeout = SRDMA_MIN_READ_TIMEOUT;
static unsigned int max_read_timeout = SRDMA_MAX_READ_TIMEOUT;
static unsigned int min_send_timeout = SRDMA_MIN_SEND_TIMEOUT;
static unsigned int max_send_timeout = SRDMA_MAX_SEND_TIMEOUT;
static unsigned int max_read_budget = SRDMA_MAX_READ_BUDGET;
static unsigned int max_prefix4 = 32;
static unsigned int max_prefix6 = 128;

static struct ctl_table_header *srdma_sysctl_header;

/*
 * Read: the counter's sum over the CPUs.  Write: reset it to zero (a
 * count made on another CPU meanwhile may survive the reset).
 */
static int srdma_stat_handler(const struct ctl_table *table, int write,
			      void *buffer, size_t *lenp, loff_t *ppos)
{
	unsigned int stat = (uintptr_t)table->extra1;
	unsigned long sum = 0;
	char tmp[24];
	int cpu, len;

	if (write) {
		for_each_possible_cpu(cpu)
			WRITE_ONCE(per_cpu(srdma_stats, cpu).count[stat], 0);
		return 0;
	}
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(srdma_stats, cpu).count[stat]);
	len = snprintf(tmp, sizeof(tmp), "%lu\n", sum);
	if (*ppos >= len) {
		*lenp = 0;
		return 0;
	}
	len -= *ppos;
	if (len > *lenp)
		len = *lenp;
	memcpy(buffer, tmp + *ppos, len);
	*lenp = len;
	*ppos += len;
	return 0;
}

#define SRDMA_STAT_ENTRY(name, stat)					\
	{								\
		.procname	= name,					\
		.mode		= 0644,					\
		.proc_handler	= srdma_stat_handler,			\
		.extra1		= (void *)(uintptr_t)(stat),		\
	}

static struct ctl_table srdma_sysctl_table[] = {
	{
		.procname	= "max_requests",
		.data		= &srdma_max_requests,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_requests,
		.extra2		= &max_requests,
	},
	{
		.procname	= "max_req_size",
		.data		= &srdma_max_req_size,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_req_size,
		.extra2		= &max_req_size,
	},
	{
		.procname	= "max_outbound_read_requests",
		.data		= &srdma_ord,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_ord,
		.extra2		= &max_ord,
	},
	{
		.procname	= "sq_stall_timeout",
		.data		= &srdma_sq_stall_timeout,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_sq_stall,
		.extra2		= &max_sq_stall,
	},
	{
		.procname	= "send_timeout",
		.data		= &srdma_send_timeout,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_send_timeout,
		.extra2		= &max_send_timeout,
	},
	{
		.procname	= "credit_budget",
		.data		= &srdma_credit_budget,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_budget,
	},
	{
		.procname	= "credit_quiet_timeout",
		.data		= &srdma_credit_quiet_timeout,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_credit_quiet,
	},
	{
		.procname	= "credit_share_prefix4",
		.data		= &srdma_share_prefix4,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_prefix4,
	},
	{
		.procname	= "credit_share_prefix6",
		.data		= &srdma_share_prefix6,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_prefix6,
	},
	{
		.procname	= "read_timeout",
		.data		= &srdma_read_timeout,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &min_read_timeout,
		.extra2		= &max_read_timeout,
	},
	{
		.procname	= "read_budget",
		.data		= &srdma_read_budget,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= &max_read_budget,
	},
	SRDMA_STAT_ENTRY("rdma_stat_read", SRDMA_STAT_READ),
	SRDMA_STAT_ENTRY("rdma_stat_recv", SRDMA_STAT_RECV),
	SRDMA_STAT_ENTRY("rdma_stat_write", SRDMA_STAT_WRITE),
	SRDMA_STAT_ENTRY("rdma_stat_sq_starve", SRDMA_STAT_SQ_STARVE),
	SRDMA_STAT_ENTRY("rdma_stat_sq_stall", SRDMA_STAT_SQ_STALL),
	SRDMA_STAT_ENTRY("rdma_stat_rq_starve", SRDMA_STAT_RQ_STARVE),
	SRDMA_STAT_ENTRY("rdma_stat_rq_poll", SRDMA_STAT_RQ_POLL),
	SRDMA_STAT_ENTRY("rdma_stat_rq_prod", SRDMA_STAT_RQ_PROD),
	SRDMA_STAT_ENTRY("rdma_stat_sq_poll", SRDMA_STAT_SQ_POLL),
	SRDMA_STAT_ENTRY("rdma_stat_sq_prod", SRDMA_STAT_SQ_PROD),
	SRDMA_STAT_ENTRY("rdma_stat_read_hold", SRDMA_STAT_READ_HOLD),
	SRDMA_STAT_ENTRY("rdma_stat_read_stall", SRDMA_STAT_READ_STALL),
};

/**
 * srdma_sysctl_register - publish the server tunables and counters
 *
 * Return: 0 or -ENOMEM.
 */
int srdma_sysctl_register(void)
{
	/* A 32nd of memory, at 8 KiB per credit (a Receive and its share). */
	srdma_credit_budget = min_t(unsigned long, SRDMA_MAX_CREDIT_BUDGET,
				    (totalram_pages() << PAGE_SHIFT) >> 18);
	/* Pages of RDMA Reads in flight: another 32nd of memory. */
	srdma_read_budget = min_t(unsigned long, SRDMA_MAX_READ_BUDGET,
				  totalram_pages() >> 5);
	srdma_sysctl_header = register_sysctl("sunrpc/svc_rdma",
					      srdma_sysctl_table);
	return srdma_sysctl_header ? 0 : -ENOMEM;
}

/**
 * srdma_sysctl_unregister - remove the server tunables and counters
 */
void srdma_sysctl_unregister(void)
{
	unregister_sysctl_table(srdma_sysctl_header);
	srdma_sysctl_header = NULL;
}
