#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 50 on Debian's 7.2 kernel (trixie-backports) in both guests: our
# client, built for 7.2, against 7.2's own server module.
. "$(dirname "$0")/../lib/common.sh"

RPCRDMA_KERNEL=7.2 exec "$RPCRDMA_TOP/selftests/tests/50-client-vs-stock-server.sh" "$@"
