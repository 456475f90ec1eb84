#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The stock client of Debian's 7.2 kernel (trixie-backports) against our
# server built for 7.2: NFSv3 and v4.1 at inline-threshold sizes, Long
# Call, Long Reply, IPv6, fio verify, nfsd restarted during a write, a
# read delegation recalled over the backchannel, `rpc.nfsd 0` and rmmod.
. "$(dirname "$0")/../lib/common.sh"

export RPCRDMA_KERNEL=7.2
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
steps="inline_matrix nfs_utils rdma6 fio_verify"
steps="$steps restart_under_writer delegation_recall"
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --server-kernel debian \
	--client-kernel debian \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 900 --env "RPCRDMA_KO=$ko" \
	--client-env CLIENT_MODULE=stock \
	--env BIG_FILE=2097152 --env FIO_SIZE=2M --env DIR_ENTRIES=250 \
	--env "STEPS=$steps" --env "NFS_VERSIONS=3 4.1"
