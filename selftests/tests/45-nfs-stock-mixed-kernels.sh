#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Harness check for mixed kernels: stock server on Debian's kernel, stock
# client on the debug kernel (KASAN, lockdep), NFSv3 and v4.1 over RDMA.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --client-kernel test \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--server-env SERVER_MODULE=stock \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-stock-client.sh" \
	--timeout 400 --env BIG_FILE=2097152 --env "NFS_VERSIONS=3 4.1"
