#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client on the debug kernel (KASAN, lockdep, kmemleak) against the
# stock server on Debian's kernel: the client workload with smaller files
# on NFSv3, v4.0 and v4.1, nconnect=4 under fio verify (8 as well in make
# stress), the server restart during a write, direct-I/O tasks killed
# mid-RPC while the RDMA device goes away, the device removed under a
# mount and re-added, swap on a file of the mount (a 32 MiB memory cgroup
# pushes 48 MiB of an allocator's pages out over RDMA and back), then a
# kmemleak scan after rmmod.  make stress only.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1
steps="inline_matrix nfs_utils rdma6 fio_verify"
steps="$steps kill_direct_io nconnect_fio restart_under_writer"
steps="$steps device_removal swap"
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --client-kernel test \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--server-env SERVER_MODULE=stock \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 1100 --env "RPCRDMA_KO=$ko" --client-env CHECK_KMEMLEAK=1 \
	--env BIG_FILE=2097152 --env FIO_SIZE=2M \
	--env "DIR_ENTRIES=$(check_or_full 250 1500)" \
	--env "STEPS=$steps" \
	--env "KILL_DIO_ROUNDS=$(check_or_full 4 6)" \
	--env SWAP_MIB=48 \
	--env "NCONNECT=$(check_or_full 4 "4 8")" \
	--env "NFS_VERSIONS=${NFS_VERSIONS:-3 4.0 4.1}"
