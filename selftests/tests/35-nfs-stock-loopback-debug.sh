#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Harness check on the debug kernel: NFSv3 and v4.2 over RDMA with the stock
# rpcrdma in one guest, then KASAN, lockdep and kmemleak must be silent.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
exec "$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel test --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/nfs-stock-loopback.sh" \
	--timeout 400 --env BIG_FILE=2097152 --env CHECK_KMEMLEAK=1
