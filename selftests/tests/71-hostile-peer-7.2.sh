#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 70 on Debian's 7.2 kernel: the hostile peer against our server on
# the debug kernel built from linux-source-7.2, with its large-io case at
# 4 MiB (sunrpc's largest payload in 7.2).  make stress only.
. "$(dirname "$0")/../lib/common.sh"

RPCRDMA_KERNEL=7.2 exec "$RPCRDMA_TOP/selftests/tests/70-hostile-peer.sh" "$@"
