# SPDX-License-Identifier: GPL-2.0
# Guest "server" of the forced-disconnect test: the kernel NFS server over
# SERVER_MODULE (ours or stock).  Serves until the client is done, and
# carries out the server-side events the client asks for:
# server-event-N-KIND flags, answered with server-event-N-done.
#   nfsd-restart         rpc.nfsd 0, then start again
#   server-link-flap     eth0 down for one second
#   server-device-readd  the RDMA device deleted and added again
#   module-swap          nfsd stopped, rpcrdma replaced by the other one
#                        (ours <-> stock), nfsd started again
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

module=${SERVER_MODULE:-ours}

nfsd_start() {
	rpc.nfsd --grace-time 10 --lease-time 10 4 || fail "rpc.nfsd did not start"
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist ||
		fail "nfsd refused an rdma listener on port $NFS_PORT"
}

test_begin
rdma_link eth0
load_rpcrdma "$module"
step "NFS server on 192.0.2.1, rdma port $NFS_PORT, $module rpcrdma"
nfs_server_start
signal_peer server-ready
# The next server event the client asks for and that is not done yet
# (the client numbers all its events, so the numbers have gaps here).
pending_event() {
	local flag

	for flag in /out/server-event-*-*.flag; do
		[ -e "$flag" ] || continue
		case "$flag" in *-done.flag) continue ;; esac
		flag=${flag#/out/server-event-}
		[ -e "/out/server-event-${flag%%-*}-done.flag" ] && continue
		echo "${flag%.flag}"
		return 0
	done
	return 1
}

while :; do
	if ! event=$(pending_event); then
		[ -e /out/client-finished.flag ] && break
		for done in /out/*.done; do
			[ -e "$done" ] && fail "the client ended early"
		done
		sleep 0.2
		continue
	fi
	n=${event%%-*}
	kind=${event#*-}
	step "event $n: $kind"
	case "$kind" in
	nfsd-restart)
		nfs_server_restart 1 ;;
	server-link-flap)
		ip link set eth0 down
		sleep 1
		ip link set eth0 up
		# What the server side looks like while the client reconnects.
		(for t in 10 40 90; do
			sleep $((t - ${last:-0})); last=$t
			echo "## $t s after the link came back"
			rdma_state_report
		done) >>/out/server-link-state.txt 2>&1 & ;;
	server-device-readd)
		timeout 60 rdma link delete "$(rdma_link_name eth0)" ||
			fail "removing the server's RDMA device hung"
		rdma_link eth0 ;;
	module-swap)
		rpc.nfsd 0 || fail "rpc.nfsd 0 failed"
		unload_rpcrdma
		if [ "$module" = ours ]; then module=stock; else module=ours; fi
		load_rpcrdma "$module"
		nfsd_start
		echo "now serving with the $module rpcrdma" ;;
	*) fail "unknown server event $kind" ;;
	esac
	signal_peer "server-event-$n-done"
done
step "checking what the client wrote, from the server's side"
cp /out/client.sums /tmp/sums && verify_files "$EXPORT"
nfs_server_stop
unload_rpcrdma
test_end
