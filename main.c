// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma: RPC-over-RDMA version 1 transport for the sunrpc layer.
 *
 * Module glue only: the client transport lives in xprtrdma/, the server
 * transport in svcrdma/ and the wire codec they share in wire/.
 */

#include <linux/module.h>
#include <linux/init.h>

#include "rpcrdma/conn_table.h"
#include "rpcrdma/version.h"
#include "xprtrdma/xprtrdma.h"
#include "svcrdma/svcrdma.h"

static int __init rpcrdma_init(void)
{
	int rc;

	rc = rpcrdma_conn_table_init();
	if (rc)
		return rc;
	rc = xrdma_register();
	if (rc)
		goto out_table;
	rc = srdma_register();
	if (rc)
		goto out_client;
	return 0;

out_client:
	xrdma_unregister();
out_table:
	rpcrdma_conn_table_exit();
	return rc;
}

static void __exit rpcrdma_exit(void)
{
	srdma_unregister();
	xrdma_unregister();
	rpcrdma_conn_table_exit();
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
