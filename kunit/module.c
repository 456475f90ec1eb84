// SPDX-License-Identifier: GPL-2.0
/*
 * rpcrdma_test.ko: the KUnit suites of rpcrdma.ko, run when this module
 * is loaded (each suite file in kunit/ registers its own).  Kept out of
 * rpcrdma.ko so that production loads run no tests.
 */
#include <linux/module.h>
#include <rpcrdma/compat.h>

MODULE_DESCRIPTION("KUnit suites of the RPC-over-RDMA transport (rpcrdma)");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(RPCRDMA_KUNIT_NS);
