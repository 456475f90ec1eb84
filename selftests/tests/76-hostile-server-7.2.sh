#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 75 on Debian's 7.2 kernel: the hostile server against our client
# on the debug kernel built from linux-source-7.2.  make stress only.
. "$(dirname "$0")/../lib/common.sh"

RPCRDMA_KERNEL=7.2 exec "$RPCRDMA_TOP/selftests/tests/75-hostile-server.sh" "$@"
