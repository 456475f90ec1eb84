#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The stock client (Debian's kernel, the kernel's own rpcrdma) against our
# server on the debug kernel (KASAN, lockdep, kmemleak): the client
# workload on smaller files over NFSv4.1 (and NFSv3 in make stress), nfsd
# restarted during a write, a delegation recalled over the backchannel,
# injected server faults under NFSv3 calls that must cost a reconnect and
# not an RPC timeout, the Read depth negotiated, `rpc.nfsd 0`, rmmod and
# a kmemleak scan on the server.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1
steps="inline_matrix nfs_utils rdma6 fio_verify"
steps="$steps restart_under_writer server_faults delegation_recall"
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --server-kernel test \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 900 --env "RPCRDMA_KO=$ko" --server-env CHECK_KMEMLEAK=1 \
	--client-env CLIENT_MODULE=stock \
	--env BIG_FILE=2097152 --env FIO_SIZE=2M \
	--env "DIR_ENTRIES=$(check_or_full 250 1500)" \
	--env "STEPS=$steps" \
	--env "NFS_VERSIONS=${NFS_VERSIONS:-$(check_or_full 4.1 "3 4.1")}"
