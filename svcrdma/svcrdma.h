/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The server transport as the module glue sees it: registration of the
 * "rdma" svc_xprt class.  Everything else is in server.h.
 */
#ifndef _SVCRDMA_SVCRDMA_H
#define _SVCRDMA_SVCRDMA_H

int srdma_register(void);
void srdma_unregister(void);

#endif /* _SVCRDMA_SVCRDMA_H */
