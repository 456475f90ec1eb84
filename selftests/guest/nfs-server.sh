# SPDX-License-Identifier: GPL-2.0
# Guest "server": the kernel NFS server over OUR rpcrdma on soft-RoCE.
# Serves until the client is done; with RESTART_SERVER=1 restarts nfsd
# when the client asks.  At the end: the server's counters must show
# traffic, `rpc.nfsd 0` must close everything so the module unloads, and
# the kernel log (and kmemleak with CHECK_KMEMLEAK=1) must be clean.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

svc_stat() {
	cat "/proc/sys/sunrpc/svc_rdma/$1"
}

test_begin
rxe_link eth0
load_our_rpcrdma "$RPCRDMA_KO"
[ -e /proc/sys/sunrpc/svc_rdma/max_requests ] ||
	fail "our module did not register its server tunables"
grep -qw rdma /proc/sys/sunrpc/transports ||
	fail "no rdma server transport in /proc/sys/sunrpc/transports"
step "NFS server on 192.0.2.1 and 2001:db8::1, rdma port $NFS_PORT, our transport"
nfs_server_start
cat /proc/fs/nfsd/portlist
signal_peer server-ready
if [ "${RESTART_SERVER:-0}" = 1 ]; then
	wait_peer restart-server "${PEER_TIMEOUT:-300}"
	step "restarting the NFS service under the client's writes"
	nfs_server_restart 2
	signal_peer server-restarted
fi
wait_peer client-finished "${PEER_TIMEOUT:-600}"
step "checking what the client wrote, from the server's side"
cp /out/client.sums /tmp/sums && verify_files "$EXPORT"
for s in recv read write sq_prod rq_prod; do
	echo "rdma_stat_$s $(svc_stat "rdma_stat_$s")"
done
[ "$(svc_stat rdma_stat_recv)" -gt 0 ] || fail "rdma_stat_recv did not count"
[ "$(svc_stat rdma_stat_read)" -gt 0 ] || fail "rdma_stat_read did not count (Read chunks)"
[ "$(svc_stat rdma_stat_write)" -gt 0 ] || fail "rdma_stat_write did not count (Write/Reply chunks)"
step "rpc.nfsd 0 closes every connection; the module unloads"
nfs_server_stop
unload_rpcrdma
test_end
step "clean"
