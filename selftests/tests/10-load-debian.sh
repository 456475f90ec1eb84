#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rpcrdma.ko built against Debian's stock 6.12 headers loads and unloads on
# Debian's stock 6.12 kernel with nothing in dmesg but the out-of-tree taint.
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
exec "$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel debian --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/load-unload.sh" \
	--timeout 180 --mem 1024 --env "RPCRDMA_KO=$ko"
