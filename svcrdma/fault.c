// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection points of the server, for tests on kernels built with
 * CONFIG_FAULT_INJECTION_DEBUG_FS.  Each point is a fault_attr directory
 * under /sys/kernel/debug/rpcrdma/ (Documentation/fault-injection), e.g.
 *
 *   echo 1 > /sys/kernel/debug/rpcrdma/fail_server_send/times
 *   echo 100 > /sys/kernel/debug/rpcrdma/fail_server_send/probability
 *
 * makes the next reply fail as if memory were short.
 */
#include <linux/debugfs.h>
#include <linux/fault-inject.h>

#include "server.h"

static const char * const srdma_fault_names[SRDMA_FAIL_MAX] = {
	[SRDMA_FAIL_READ_CHUNKS]	= "fail_server_read_chunks",
	[SRDMA_FAIL_SEND]		= "fail_server_send",
};

static struct fault_attr srdma_faults[SRDMA_FAIL_MAX];
static struct dentry *srdma_fault_dir;

/**
 * srdma_should_fail - whether an injected failure is due at a point
 * @point: the fault injection point
 *
 * Return: true if the caller should fail as configured in debugfs.
 */
bool srdma_should_fail(enum srdma_fault point)
{
	return should_fail(&srdma_faults[point], 1);
}

/**
 * srdma_fault_init - create the fault injection points in debugfs
 */
void srdma_fault_init(void)
{
	static const struct fault_attr initial = FAULT_ATTR_INITIALIZER;
	unsigned int i;

	srdma_fault_dir = debugfs_create_dir("rpcrdma", NULL);
	for (i = 0; i < SRDMA_FAIL_MAX; i++) {
		srdma_faults[i] = initial;
		fault_create_debugfs_attr(srdma_fault_names[i],
					  srdma_fault_dir, &srdma_faults[i]);
	}
}

/**
 * srdma_fault_exit - remove the fault injection points
 */
void srdma_fault_exit(void)
{
	debugfs_remove_recursive(srdma_fault_dir);
	srdma_fault_dir = NULL;
}
