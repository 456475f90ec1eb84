# SPDX-License-Identifier: GPL-2.0
# Guest "client" of the forced-disconnect test: CLIENT_MODULE (ours or
# stock) mounts NFSv4.2 (hard, default timeouts) while fio writes and
# verifies and a direct-I/O writer stamps each 1 MiB it completes.
# EVENTS forced disconnects of mixed kinds follow, one at a time; after
# each, I/O must resume (the writer completes a write) within 120 s, and
# the time it took is recorded.  Then fio must have verified everything,
# the writer's file must match its source, and the times are printed.
#   link-flap           this guest's eth0 down for FLAP_SECONDS (1)
#   device-readd        this guest's RDMA device deleted and added again
#   bond-failover       with BOND=1 (pair.sh --links 2, bond_link): both
#                       guests' bonds fail over to their other slave (the
#                       two links are point to point, so the guests must
#                       move together) and take its MAC address, so the
#                       RDMA-CM sends RDMA_CM_EVENT_ADDR_CHANGE to the
#                       client's id and to the server's listener
#   sysfs-disconnect    the transport's dstaddr rewritten through sysfs
#                       SYSFS_WRITES (5) times in a row, each of which
#                       forces a disconnect (xprt_force_disconnect, as
#                       sunrpc's inject_disconnect would: CONFIG_FAIL_
#                       SUNRPC is off in both kernels); each write must
#                       get the transport's lock within 60 s
#   server-*, nfsd-restart, module-swap: done by the server guest
# (server-link-flap, the server's eth0 down for one second, is not in the
# default list: see Documentation/reliability.rst on soft-RoCE's QP1).
# RESUME_LIMIT=S with RESUME_KINDS="KIND ...": those events must resume
# within S seconds (the transport reconnects as soon as the link is
# back; nfsd-restart is never among them: NFSv4's grace period holds
# writes for up to 10 s).
# FIO_SIZE is each fio job's file (8M): a slow server (the debug kernel's)
# needs a smaller one for fio to verify between the events.
# With STALL_DEVICE_DELETE=1, a mount that does not resume is followed by
# an attempt to delete the RDMA device under it, with the blocked tasks'
# stacks if that hangs.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

module=${CLIENT_MODULE:-ours}
kinds=${KINDS:-link-flap nfsd-restart device-readd sysfs-disconnect}

# Seconds since boot, to the millisecond.
now() {
	cut -d' ' -f1 /proc/uptime
}

writes_done() {
	cat /tmp/written
}

# The sunrpc state of the mount's transports: the xprt's state bits and
# counters, and the RPCs waiting (debugfs).
xprt_state_report() {
	local f

	for f in /sys/kernel/debug/sunrpc/rpc_xprt/*/info; do
		[ -e "$f" ] && { echo "== $f"; cat "$f"; }
	done
	cat /sys/kernel/debug/sunrpc/rpc_clnt/*/tasks 2>/dev/null | head -20
}

# SYSFS_WRITES (5) rewrites of the transport's dstaddr, back to back
# under the I/O: each forces a disconnect once it gets sunrpc's
# XPRT_LOCKED, which it waits for on the lock bit itself.  A write that
# takes 60 s is a hang: the report then says which write, whether the
# stamping writer went on meanwhile (a lock nobody hands over) or not (a
# lock held), and the transport's state.
sysfs_disconnect() {
	local x k pid before

	# The mount's transport: the only one whose peer is the server.
	for x in /sys/kernel/sunrpc/xprt-switches/switch-*/xprt-*; do
		[ "$(cat "$x/dstaddr" 2>/dev/null)" = 192.0.2.1 ] && break
	done
	[ -e "$x/dstaddr" ] || fail "no transport to 192.0.2.1 under /sys/kernel/sunrpc"
	for k in $(seq "${SYSFS_WRITES:-5}"); do
		before=$(writes_done)
		echo 192.0.2.1 >"$x/dstaddr" &
		pid=$!
		for _ in $(seq 300); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "dstaddr write $k of ${SYSFS_WRITES:-5} still waiting after 60 s;" \
				"the writer completed $(( $(writes_done) - before )) MiB meanwhile"
			xprt_state_report
			blocked_tasks
			fail "the sysfs disconnect hung"
		fi
		wait "$pid" || fail "writing $x/dstaddr failed"
	done
}

event() {
	local n=$1 kind=$2
	case "$kind" in
	link-flap)
		bounded 30 "eth0 down" ip link set eth0 down
		sleep "${FLAP_SECONDS:-1}"
		bounded 30 "eth0 up" ip link set eth0 up ;;
	device-readd)
		bounded 60 "removing the client's RDMA device" \
			rdma link delete "$(rdma_link_name eth0)"
		bounded 60 "adding the client's RDMA device" rdma_link eth0 ;;
	sysfs-disconnect)
		sysfs_disconnect ;;
	bond-failover)
		signal_peer "server-event-$n-server-bond-failover"
		bond_failover
		wait_peer "server-event-$n-done" 180 ;;
	nfsd-restart | server-link-flap | server-device-readd | module-swap)
		signal_peer "server-event-$n-$kind"
		wait_peer "server-event-$n-done" 180 ;;
	*) fail "unknown event $kind" ;;
	esac
}

# What a stuck mount looks like: its transport line, the RPCs waiting,
# the RDMA device, and the kernel's last words.
stuck_report() {
	mount_xprt_line /mnt
	xprt_state_report
	rdma_state_report
	dmesg | tail -30
}

test_begin
if [ "${BOND:-0}" = 1 ]; then
	bond_link 192.0.2.2
else
	rdma_link eth0
fi
load_rpcrdma "$module"
wait_peer server-ready 180
bounded 180 "the first mount" nfs_mount 4.2 192.0.2.1 /mnt
mount_xprt_line /mnt
bounded 60 "mkdir /mnt/fio" mkdir -p /mnt/fio
step "fio with verify and a stamping writer, then ${EVENTS:-10} forced disconnects"
# fio ends when /tmp/fio.stop appears (its trigger file), so that its exit
# status counts the jobs that failed (a signal would make it 128 whatever
# they did), and as soon as either job fails (exitall_on_error), which the
# loop below notices.
rm -f /tmp/fio.stop
fio --name=verify --directory=/mnt/fio --numjobs=2 --size="${FIO_SIZE:-8M}" --bs=64k \
	--rw=randwrite --direct=1 --ioengine=psync --verify=crc32c \
	--do_verify=1 --verify_fatal=1 --exitall_on_error=1 \
	--loops=100000 --runtime=100000 --trigger-file=/tmp/fio.stop \
	--output-format=json --output=/tmp/fio.out >/tmp/fio.log 2>&1 &
fio=$!
start_writer /mnt/w
sleep 3
set -- $kinds
: >/tmp/times
for n in $(seq "${EVENTS:-10}"); do
	i=$(( (n - 1) % $# + 1 ))
	eval "kind=\${$i}"
	kill -0 "$writer" 2>/dev/null || fail "the writer failed before event $n"
	kill -0 "$fio" 2>/dev/null || {
		wait "$fio"
		echo "fio exited with status $?"
		fio_jobs_ok /tmp/fio.out 2
		cat /tmp/fio.log
		fail "fio stopped before event $n (a verify failure?)"
	}
	event "$n" "$kind"
	t=$(now)
	before=$(writes_done)
	for _ in $(seq 600); do
		[ "$(writes_done)" -gt "$before" ] && break
		sleep 0.2
	done
	[ "$(writes_done)" -gt "$before" ] || {
		stuck_report
		# STALL_DEVICE_DELETE=1: can the device still be removed
		# from under the stuck mount?
		if [ "${STALL_DEVICE_DELETE:-0}" = 1 ]; then
			step "deleting the RDMA device under the stuck mount"
			(bounded 60 "deleting the RDMA device" \
				rdma link delete "$(rdma_link_name eth0)") &&
				echo "the device was deleted"
		fi
		fail "event $n ($kind): no write completed within 120 s after it"
	}
	resumed=$(tail -1 /tmp/stamps)
	secs=$(echo "$resumed $t" | awk '{ d = $1 - $2; printf "%.1f", d < 0 ? 0 : d }')
	echo "event $n: $kind, I/O resumed after ${secs}s"
	echo "$kind $secs" >>/tmp/times
	case " ${RESUME_KINDS:-} " in
	*" $kind "*)
		awk -v s="$secs" -v l="$RESUME_LIMIT" 'BEGIN { exit !(s <= l) }' || {
			# Did it reconnect, and when?  (connect count, the
			# RDMA-CM state, our client's connect lines)
			stuck_report
			fail "event $n ($kind): I/O resumed after ${secs}s, more than ${RESUME_LIMIT}s"
		} ;;
	esac
	sleep 2
done
stop_writer || fail "a write failed across the disconnects"
touch /tmp/fio.stop
await_pid 120 "fio's end" "$fio"
rc=$?
# Every job must have ended without an error and verified what it wrote,
# fio must exit 0, and nothing may have complained of a verify mismatch
# (fio logs those to stderr).
fio_jobs_ok /tmp/fio.out 2 && [ "$rc" = 0 ] && ! grep -q '^verify:' /tmp/fio.log || {
	cat /tmp/fio.log
	fail "fio reported an error or a verify failure (exit $rc)"
}
bounded 120 "comparing the writer's file with its source" writer_check /mnt/w
# Overall, then per kind: median and worst.
resume_summary() {
	sort -n | awk -v what="$1" '{ a[NR] = $1 }
		END { printf "resume times%s: median %.1fs, worst %.1fs over %d events\n",
		      what, a[int((NR + 1) / 2)], a[NR], NR }'
}
awk '{ print $2 }' /tmp/times | resume_summary ""
for kind in $(awk '{ print $1 }' /tmp/times | sort -u); do
	awk -v k="$kind" '$1 == k { print $2 }' /tmp/times | resume_summary " ($kind)"
done
mount_xprt_line /mnt
bounded 120 "writing files" write_files /mnt 1 65536 1048576
bounded 120 "umount" umount /mnt
bounded 120 "mounting again" nfs_mount 4.2 192.0.2.1 /mnt
bounded 120 "reading the files back" verify_files /mnt
cp /tmp/sums /out/client.sums
bounded 120 "removing the files" rm -rf /mnt/fio /mnt/w
bounded 120 "the last umount" umount /mnt
signal_peer client-finished
unload_rpcrdma
test_end
