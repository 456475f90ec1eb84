#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 72's connection storm against our server on the debug kernel:
# KASAN, lockdep and kmemleak watch STORM_COUNT (256) connections
# accepted from STORM_PARALLEL (8) processes at once, held and closed,
# twice in the same boot (the module is unloaded and loaded again
# between the storms), while an NFSv4.2 mount writes and reads back.
# The kernel log must stay clean and kmemleak find nothing.  Memory is
# compared with the stock server in test 72, on Debian's kernel: here
# KASAN's quarantine keeps what the storm freed, so the memory figures
# are printed but not checked.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1
"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --server-kernel test \
	--server-script "$RPCRDMA_TOP/selftests/guest/storm-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/storm-client.sh" \
	--timeout 1200 --env "RPCRDMA_KO=$ko" \
	--env "STORM_COUNT=${STORM_COUNT:-256}" \
	--env "STORM_PARALLEL=${STORM_PARALLEL:-8}" \
	--env "STORM_MODULES=ours ours" \
	--server-env CHECK_KMEMLEAK=1 --server-env STORM_CHECK_MEMORY=0
rc=$?
grep -h "^storm\|connections held" "$1"/server/log "$1"/client/log 2>/dev/null
exit $rc
