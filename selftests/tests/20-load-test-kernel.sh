#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rpcrdma.ko loads and unloads on the debug test kernel (KASAN, lockdep,
# kmemleak); a kmemleak scan after rmmod reports nothing.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1
exec "$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel test --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/load-unload.sh" \
	--timeout 300 --env "RPCRDMA_KO=$ko" --env CHECK_KMEMLEAK=1
