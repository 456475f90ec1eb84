#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A connection storm against the server, ours and the stock one in turn
# in the same guest: a user-space peer (selftests/peer/storm.py) opens
# STORM_COUNT (256) RPC-over-RDMA connections with RFC 8797 private data
# from STORM_PARALLEL (8) processes at once, holds them all, and closes
# them.  Every connection must be accepted and held; afterwards the
# server must drop them all and give back the memory they took; an
# NFSv4.2 mount on the same server must read back what it wrote before
# and write after.  STORM_MODULES orders the storms ("ours stock ours":
# the first storm in a guest is slower for whichever module meets it,
# so ours is compared on its second); the memory per connection and the
# time to bring the connections up of each module's last storm, and
# their ratios, are printed.  STORM_GRAPH=1 times each module's accept
# method with the function_graph tracer (selftests/guest/storm-server.sh).
# STORM_SERVER_KERNEL=test runs the server on the debug kernel, with a
# kmemleak scan at the end and no memory check (test 73).
. "$(dirname "$0")/../lib/common.sh"

kernel=${STORM_SERVER_KERNEL:-debian} kmemleak=0 check_memory=1
if [ "$kernel" = test ]; then
	"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
	kmemleak=1 check_memory=0
fi
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" "$kernel") || exit 1
"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --server-kernel "$kernel" \
	--server-script "$RPCRDMA_TOP/selftests/guest/storm-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/storm-client.sh" \
	--timeout 1200 --env "RPCRDMA_KO=$ko" \
	--env "STORM_COUNT=${STORM_COUNT:-256}" \
	--env "STORM_PARALLEL=${STORM_PARALLEL:-8}" \
	--env "STORM_GRAPH=${STORM_GRAPH:-0}" \
	--env "STORM_MODULES=${STORM_MODULES:-ours stock ours}" \
	--server-env "CHECK_KMEMLEAK=$kmemleak" \
	--server-env "STORM_CHECK_MEMORY=$check_memory"
rc=$?
grep -h "^storm\|^accept" "$1"/server/log "$1"/client/log 2>/dev/null
exit $rc
