#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our client against our server, both on Debian's kernel: NFSv3, v4.0,
# v4.1 and v4.2, inline-threshold sizes, Long Call, Long Reply, IPv6,
# fio verify, nfsd restarted during a write, the client's RDMA device
# removed under a mount (a client disconnect in the middle of I/O), then
# the server's device removed under a mount, a read delegation recalled
# over the backchannel, nconnect=16 (and 8 in make stress) under fio
# verify, a server restart that renegotiates a smaller inline size
# (after which a reconnect that failed must be followed by a "connected
# after N failed attempts" line), mounts that cannot connect (nothing
# listening, no RDMA device on the route, no neighbour answering) whose
# causes our client must log; the server checks the negotiated Read
# depth.  Under the nconnect load, /proc/net/rpcrdma on both ends must
# list the connections with the addresses, credits and inline sizes
# known (CONN_TABLE).
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
steps="inline_matrix nfs_utils rdma6 fio_verify"
steps="$steps nconnect_fio restart_under_writer device_removal"
steps="$steps server_device_removal connect_failures delegation_recall"
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 700 --env "RPCRDMA_KO=$ko" \
	--env "STEPS=$steps" \
	--env "NCONNECT=$(check_or_full 16 "8 16")" \
	--env "DIR_ENTRIES=$(check_or_full 500 3000)" \
	--env RENEGOTIATE=1 --env CONN_TABLE=1 \
	${NFS_VERSIONS:+--env "NFS_VERSIONS=$NFS_VERSIONS"}
