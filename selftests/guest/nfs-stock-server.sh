# SPDX-License-Identifier: GPL-2.0
# Guest "server": the kernel NFS server over the stock rpcrdma on soft-RoCE;
# serves until the client is done, then shuts down cleanly.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

test_begin
rxe_link eth0
load_stock_rpcrdma
step "NFS server on 192.0.2.1, rdma port $NFS_PORT"
nfs_server_start
signal_peer server-ready
wait_peer client-finished "${PEER_TIMEOUT:-300}"
step "checking what the client wrote, from the server's side"
cp /out/client.sums /tmp/sums && verify_files "$EXPORT"
nfs_server_stop
unload_rpcrdma
test_end
step "clean"
