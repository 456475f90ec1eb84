/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _RPCRDMA_VERSION_H
#define _RPCRDMA_VERSION_H

/* Bumped with each release of this out-of-tree module. */
#define RPCRDMA_MODULE_VERSION "0.1.0"

#endif /* _RPCRDMA_VERSION_H */
