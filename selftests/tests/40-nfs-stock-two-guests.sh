#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Harness check: NFSv3 and v4.2 over RDMA with the stock rpcrdma across two
# guests (Debian's kernel) on a private soft-RoCE link.
. "$(dirname "$0")/../lib/common.sh"

exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--server-env SERVER_MODULE=stock \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-stock-client.sh" \
	--timeout 400
