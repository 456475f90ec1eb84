#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The interoperability matrix over soft-iWARP (siw) instead of soft-RoCE,
# both guests on the debug kernel: ours against ours, and in make stress
# (SIW_ALL=1) also our client against the stock server and the stock
# client against our server.  iWARP has its own rules (Read sinks
# registered for remote write, no RNR, private data carried in MPA), so
# each pair runs the client workload (files across the inline thresholds,
# Long Call, Long Reply, IPv6, fio verify) and a server restart under a
# writer (reconnect) on NFSv4.2.  make check runs the one pair that puts
# both of our transports on siw, to stay within its time budget.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1

steps="inline_matrix nfs_utils rdma6 fio_verify restart_under_writer"

# pair NAME SERVER-MODULE CLIENT-MODULE
pair() {
	echo "# siw: $1"
	"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$out/$1" \
		--server-kernel test --client-kernel test \
		--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
		--server-env "SERVER_MODULE=$2" \
		--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
		--timeout 900 --env "RPCRDMA_KO=$ko" --env RDMA_PROVIDER=siw \
		--client-env "CLIENT_MODULE=$3" \
		--env BIG_FILE=2097152 --env FIO_SIZE=1M \
		--env "DIR_ENTRIES=$(check_or_full 200 600)" \
		--env "STEPS=$steps" \
		--env "NFS_VERSIONS=${NFS_VERSIONS:-4.2}"
}

out=$1
rc=0
pair ours-vs-our-server ours ours || rc=1
if [ "${SIW_ALL:-0}" = 1 ]; then
	pair ours-vs-stock-server stock ours || rc=1
	pair stock-vs-our-server ours stock || rc=1
fi
exit $rc
