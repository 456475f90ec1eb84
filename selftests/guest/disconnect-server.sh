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
#   server-bond-failover with BOND=1, with the client's bond-failover:
#                        bond0 fails over to its other slave;
#                        the rdma listener, bound to 192.0.2.1 (not the
#                        wildcard address), must listen again there
#                        (svcrdma_relisten with status 0) and still be
#                        in nfsd's listener list
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

module=${SERVER_MODULE:-ours}

nfsd_start() {
	rpc.nfsd --grace-time 10 --lease-time 10 4 || fail "rpc.nfsd did not start"
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist ||
		fail "nfsd refused an rdma listener on port $NFS_PORT"
}

LISTENERS="$RPCRDMA_TOP/selftests/guest/nfsd-listeners.py"

# An rdma listener on 192.0.2.1 alone, beside the tcp ones rpc.nfsd
# made: only a listener bound to an address gets
# RDMA_CM_EVENT_ADDR_CHANGE.  6.12's nfsd takes a new listener list only
# while no nfsd thread runs (listener-set answers EBUSY otherwise, even
# when nothing is removed), so the threads stop and start around it.
bind_rdma_listener() {
	local others

	others=$(/usr/bin/python3 "$LISTENERS" get |
		awk '$1 != "rdma" { printf " %s:%s:%s", $1, $2, $3 }')
	bounded 120 "rpc.nfsd 0" rpc.nfsd 0
	/usr/bin/python3 "$LISTENERS" set "rdma:192.0.2.1:$NFS_PORT" $others ||
		fail "nfsd refused an rdma listener on 192.0.2.1"
	echo 4 >/proc/fs/nfsd/threads || fail "nfsd threads did not start"
	/usr/bin/python3 "$LISTENERS" get
}

# After a failover: a new listening id, and the listener still there.
check_relisten() {
	local i

	for i in $(seq 100); do
		grep -q "svcrdma_relisten: .*status=0" /sys/kernel/tracing/trace &&
			break
		sleep 0.1
	done
	grep "svcrdma_relisten\|svcrdma_listener_event" /sys/kernel/tracing/trace
	grep -q "svcrdma_relisten: .*status=0" /sys/kernel/tracing/trace ||
		fail "the listener did not listen again after the failover"
	/usr/bin/python3 "$LISTENERS" get | grep -q "^rdma 192.0.2.1 $NFS_PORT\$" ||
		fail "nfsd lost its rdma listener in the failover"
	echo > /sys/kernel/tracing/trace
}

test_begin
if [ "${BOND:-0}" = 1 ]; then
	bond_link 192.0.2.1
else
	rdma_link eth0
fi
load_rpcrdma "$module"
# A guest that serves with the stock module alone: two known defects of
# the stock server and of soft-RoCE are notes (dmesg_clean), and only
# while the kernel stays untainted, so never once ours has been loaded.
[ "$module" = stock ] && STOCK_SERVER=1
step "NFS server on 192.0.2.1, rdma port $NFS_PORT, $module rpcrdma"
if [ "${BOND:-0}" = 1 ]; then
	nfs_server_start tcp-only
	bind_rdma_listener
	mountpoint -q /sys/kernel/tracing ||
		mount -t tracefs nodev /sys/kernel/tracing
	for ev in relisten listener_event; do
		echo 1 >"/sys/kernel/tracing/events/rpcrdma/svcrdma_$ev/enable"
	done
else
	nfs_server_start
fi
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
		bounded 180 "restarting nfsd" nfs_server_restart 1 ;;
	server-link-flap)
		bounded 30 "eth0 down" ip link set eth0 down
		sleep 1
		bounded 30 "eth0 up" ip link set eth0 up
		# What the server side looks like while the client reconnects.
		(for t in 10 40 90; do
			sleep $((t - ${last:-0})); last=$t
			echo "## $t s after the link came back"
			rdma_state_report
		done) >>/out/server-link-state.txt 2>&1 & ;;
	server-device-readd)
		timeout 60 rdma link delete "$(rdma_link_name eth0)" ||
			fail "removing the server's RDMA device hung"
		bounded 60 "adding the server's RDMA device" rdma_link eth0 ;;
	server-bond-failover)
		bond_failover
		check_relisten ;;
	module-swap)
		bounded 120 "rpc.nfsd 0" rpc.nfsd 0
		unload_rpcrdma
		if [ "$module" = ours ]; then module=stock; else module=ours; fi
		bounded 120 "loading the $module rpcrdma" load_rpcrdma "$module"
		bounded 120 "starting nfsd" nfsd_start
		echo "now serving with the $module rpcrdma" ;;
	*) fail "unknown server event $kind" ;;
	esac
	signal_peer "server-event-$n-done"
done
step "checking what the client wrote, from the server's side"
cp /out/client.sums /tmp/sums && bounded 120 "reading the files back" verify_files "$EXPORT"
nfs_server_stop
unload_rpcrdma
test_end
