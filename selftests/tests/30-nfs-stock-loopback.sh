#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Harness check: NFSv3 and v4.2 over RDMA with the stock rpcrdma, client and
# server in one guest (Debian's kernel, soft-RoCE on a dummy interface).
. "$(dirname "$0")/../lib/common.sh"

exec "$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel debian --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/nfs-stock-loopback.sh" \
	--timeout 400
