# SPDX-License-Identifier: GPL-2.0
# Guest "server" of make bench (server): alternates two server modules in
# the same guest without rebooting.  For each round and module: load the
# module, start nfsd with an rdma listener, tell the client, wait until
# it has measured, stop nfsd and unload the module.  The export (a tmpfs)
# and rpcbind/mountd stay up across rounds, so both modules serve the
# same file.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"
. "$RPCRDMA_TOP/selftests/guest/bench-lib.sh"

ROUNDS=${BENCH_ROUNDS:-8}

test_begin
rdma_link eth0
nfs_server_start
# Adding the rdma listener loaded a module (modprobe picks the stock one):
# start every round from none.
rpc.nfsd 0
unload_rpcrdma
cpu_sampler &
sampler=$!
for round in $(seq 0 "$ROUNDS"); do
	for mod in $(round_order "$round"); do
		step "round $round: serving through the $mod module"
		load_module "$mod"
		rpc.nfsd --grace-time 10 --lease-time 10 4 ||
			fail "rpc.nfsd did not start"
		echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist ||
			fail "nfsd refused an rdma listener"
		signal_peer "serve-$round-$mod"
		wait_peer "measured-$round-$mod" "${PEER_TIMEOUT:-600}"
		rpc.nfsd 0 || fail "rpc.nfsd 0 failed"
		unload_rpcrdma
	done
done
kill "$sampler"
nfs_server_stop
test_end
step "clean"
