#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 90 on Debian's 7.2 kernel: forced disconnects under verified I/O
# for each role, Debian's 7.2 in the guests and the debug kernel built
# from linux-source-7.2 for our server's debug role.  make stress only.
. "$(dirname "$0")/../lib/common.sh"

RPCRDMA_KERNEL=7.2 exec "$RPCRDMA_TOP/selftests/tests/90-forced-disconnects.sh" "$@"
