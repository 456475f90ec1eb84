#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A connection storm against the server, ours then the stock one in the
# same guest: a user-space peer (selftests/peer/storm.py) opens
# STORM_COUNT (256) RPC-over-RDMA connections with RFC 8797 private data
# from STORM_PARALLEL (8) processes at once, holds them all, and closes
# them.  Every connection must be accepted and
# held; afterwards the server must drop them all and give back the memory
# they took; an NFSv4.2 mount on the same server must read back what it
# wrote before and write after.  The memory per connection of each module
# and their ratio are printed.
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" \
	--server-script "$RPCRDMA_TOP/selftests/guest/storm-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/storm-client.sh" \
	--timeout 1200 --env "RPCRDMA_KO=$ko" \
	--env "STORM_COUNT=${STORM_COUNT:-256}" \
	--env "STORM_PARALLEL=${STORM_PARALLEL:-8}"
rc=$?
grep -h "^storm" "$1"/server/log "$1"/client/log 2>/dev/null
exit $rc
