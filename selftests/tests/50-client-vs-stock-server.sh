#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client (Debian's kernel) against the stock server (Debian's kernel):
# NFSv3, v4.0, v4.1 and v4.2, inline-threshold sizes, Long Call, Long Reply,
# fio verify, the server's NFS service restarted during a write, the RDMA
# device removed under a mount and re-added, nconnect=16 under fio verify
# (8 as well in make stress), swap on a file of the mount.
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
steps="inline_matrix nfs_utils rdma6 fio_verify"
steps="$steps nconnect_fio restart_under_writer device_removal swap"
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--server-env SERVER_MODULE=stock \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 600 --env "RPCRDMA_KO=$ko" \
	--env "STEPS=$steps" \
	--env "NCONNECT=$(check_or_full 16 "8 16")" \
	--env "DIR_ENTRIES=$(check_or_full 500 3000)" \
	--env "SWAP_MIB=$(check_or_full 64 96)" \
	${NFS_VERSIONS:+--env "NFS_VERSIONS=$NFS_VERSIONS"}
