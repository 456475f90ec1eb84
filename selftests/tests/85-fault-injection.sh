#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fault injection on the debug kernel: failslab and fail_page_alloc fail
# allocations made with rpcrdma.ko on the stack while our client and server
# (one guest, loopback) create listeners, mount and unmount NFSv3 and
# v4.1, write and read, reconnect after an nfsd restart and lose their
# RDMA device.  Errors must reach the caller or be retried, the data must
# stay intact, and KASAN, lockdep and kmemleak must stay silent.  Failures
# injected per phase go to fault-injection.txt.  make check runs one
# round per phase with 20 s windows; FI_ROUNDS, FI_WINDOW, FI_PERCENT
# and FI_TIMES make it longer.  make stress only.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1
"$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel test --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/fault-injection.sh" \
	--timeout "${FI_TIMEOUT:-1500}" --mem 2048 --env "RPCRDMA_KO=$ko" \
	--env CHECK_KMEMLEAK=1 \
	--env "FI_ROUNDS=${FI_ROUNDS:-$(check_or_full 1 3)}" \
	--env "FI_WINDOW=${FI_WINDOW:-$(check_or_full 20 30)}" \
	--env "FI_PERCENT=${FI_PERCENT:-20}" --env "FI_TIMES=${FI_TIMES:-25}"
rc=$?
[ -e "$1/fault-injection.txt" ] && sed 's/^/# /' "$1/fault-injection.txt"
exit $rc
