#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 60 on Debian's 7.2 kernel (trixie-backports) in both guests: our
# client against our server, both built for 7.2; it runs the 7.2 sides
# of include/rpcrdma/compat.h (the separate reply page array, sunrpc's
# backchannel enqueue).
. "$(dirname "$0")/../lib/common.sh"

RPCRDMA_KERNEL=7.2 exec "$RPCRDMA_TOP/selftests/tests/60-client-vs-our-server.sh" "$@"
