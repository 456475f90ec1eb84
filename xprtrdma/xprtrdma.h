/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client transport as the module glue sees it: registration of the
 * "rdma" and "rdma6" transport class.  Everything else is in client.h.
 */
#ifndef _XPRTRDMA_XPRTRDMA_H
#define _XPRTRDMA_XPRTRDMA_H

int xrdma_register(void);
void xrdma_unregister(void);

#endif /* _XPRTRDMA_XPRTRDMA_H */
