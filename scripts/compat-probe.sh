#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# compat-probe.sh SRCTREE: the -D flags that say which interfaces the
# target kernel's headers have, for include/rpcrdma/compat.h.  Kbuild
# runs it on $(srctree): the source tree of a kernel built here, or the
# -common directory of Debian's headers.  The headers are asked, not the
# version number: Debian's 6.12 carries interfaces of later kernels.

t=$1

# has FILE STRING: FILE (under include/) holds STRING.
has() {
	grep -qsF -- "$2" "$t/include/$1"
}

# 6.13: module namespaces are string literals.
has kunit/visibility.h '"EXPORTED_FOR_KUNIT_TESTING"' &&
	echo -DRPCRDMA_HAVE_NS_STRING
# 7.2: a KUnit parameter generator is given its test.
has kunit/test.h 'generate_params)(struct kunit *test' &&
	echo -DRPCRDMA_HAVE_KUNIT_GEN_TEST
# 7.2: a thread's Call and Reply pages are two arrays of its own.
has linux/sunrpc/svc.h 'rq_pages_nfree' &&
	echo -DRPCRDMA_HAVE_SPLIT_RQ_PAGES
# 7.2: sunrpc hands a backchannel Call to the callback service itself,
# under the lock that its shutdown takes.
has linux/sunrpc/bc_xprt.h 'void xprt_enqueue_bc_request(' &&
	echo -DRPCRDMA_HAVE_XPRT_ENQUEUE_BC_REQUEST
# The stock server's default credit limit (64 in 6.12, 128 in 7.2), which
# ours takes as its own default max_requests.
n=$(sed -n 's/^[[:space:]]*RPCRDMA_MAX_REQUESTS[[:space:]]*=[[:space:]]*\([0-9][0-9]*\),.*/\1/p' \
	"$t/include/linux/sunrpc/svc_rdma.h" 2>/dev/null | head -n 1)
[ -z "$n" ] || echo "-DRPCRDMA_STOCK_SVC_REQUESTS=$n"
exit 0
