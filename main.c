// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma: RPC-over-RDMA version 1 transport for the sunrpc layer.
 *
 * Module glue only: the client transport lives in xprtrdma/, the server
 * transport in svcrdma/ and the wire codec they share in wire/.
 */

#include <linux/module.h>
#include <linux/init.h>

#include "rpcrdma/version.h"
#include "xprtrdma/xprtrdma.h"
#include "svcrdma/svcrdma.h"

static int __init rpcrdma_init(void)
{
	int rc;

	rc = xrdma_register();
	if (rc)
		return rc;
	rc = srdma_register();
	if (rc)
		xrdma_unregister();
	return rc;
}

static void __exit rpcrdma_exit(void)
{
	srdma_unregister();
	xrdma_unregister();
}

module_init(rpcrdma_init);
module_exit(rpcrdma_exit);

MODULE_DESCRIPTION("RPC-over-RDMA version 1 transport (client and server)");
MODULE_LICENSE("GPL");
MODULE_VERSION(RPCRDMA_MODULE_VERSION);
/* The names sunrpc asks for when it needs an RDMA transport. */
MODULE_ALIAS("xprtrdma");
MODULE_ALIAS("svcrdma");
MODULE_ALIAS("rpcrdma6");
