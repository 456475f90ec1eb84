# SPDX-License-Identifier: GPL-2.0
# Guest "server": the kernel NFS server over the stock rpcrdma on soft-RoCE;
# serves until the client is done, then shuts down cleanly.  With
# CPU_SAMPLER=1 (make bench) it answers the client's CPU marks.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

test_begin
rdma_link eth0
load_stock_rpcrdma
STOCK_SERVER=1
step "NFS server on 192.0.2.1, rdma port $NFS_PORT"
nfs_server_start
if [ "${CPU_SAMPLER:-0}" = 1 ]; then
	. "$RPCRDMA_TOP/selftests/guest/bench-lib.sh"
	cpu_sampler &
	sampler=$!
fi
signal_peer server-ready
if [ "${RESTART_SERVER:-0}" = 1 ]; then
	wait_peer restart-server "${PEER_TIMEOUT:-0}"
	step "restarting the NFS service under the client's writes"
	if [ "${RENEGOTIATE:-0}" = 1 ]; then
		# Connections after the restart offer a 1 KiB inline size
		# (RFC 8797 private data): the client must adopt it.
		echo 1024 >/proc/sys/sunrpc/svc_rdma/max_req_size ||
			fail "cannot set max_req_size"
	fi
	nfs_server_restart 2
	signal_peer server-restarted
fi
wait_peer client-finished "${PEER_TIMEOUT:-0}"
[ -z "${sampler:-}" ] || kill "$sampler"
step "checking what the client wrote, from the server's side"
cp /out/client.sums /tmp/sums && verify_files "$EXPORT"
nfs_server_stop
unload_rpcrdma
test_end
step "clean"
