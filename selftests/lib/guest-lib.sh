# SPDX-License-Identifier: GPL-2.0
#
# Helpers for scripts that run inside a guest (sourced).  Each helper either
# succeeds or ends the script through fail(), so test scripts read as a list
# of steps.

set -u
NFS_PORT=20049
EXPORT=/export

step() {
	echo "# $*"
	echo "rpcrdma-selftest: $*" >/dev/kmsg
}

fail() {
	echo "FAIL: $*"
	exit 1
}

# bounded SECONDS WHAT COMMAND...: run COMMAND, giving it SECONDS
# (await_pid); its own failure ends the script as well.
bounded() {
	local secs=$1 what=$2

	shift 2
	"$@" &
	await_pid "$secs" "$what" $! || fail "$what failed"
}

# await_pid SECONDS WHAT PID: wait for the script's child PID.  A task
# that sleeps uninterruptibly cannot be killed: one still running after
# SECONDS is left behind, the blocked tasks' stacks go to the log (they
# say what it waits for), and the script fails naming WHAT.  Otherwise
# returns the child's status.
await_pid() {
	local secs=$1 what=$2 pid=$3

	for _ in $(seq $((secs * 5))); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "$what: still running after $secs s; blocked tasks:"
		blocked_tasks
		fail "$what hung"
	fi
	wait "$pid"
}

# The stacks of the tasks in uninterruptible sleep, from the kernel log.
blocked_tasks() {
	echo 1 >/proc/sys/kernel/sysrq
	echo w >/proc/sysrq-trigger
	sleep 1
	dmesg | sed -n '/sysrq: Show Blocked State/,$p' | head -n 150
}

# Start of a test: mark the kernel log so that test_end only looks at what
# the test did, and with CHECK_KMEMLEAK=1 forget earlier kmemleak reports.
test_begin() {
	echo "rpcrdma-selftest: start of test" >/dev/kmsg
	[ "${CHECK_KMEMLEAK:-0}" = 1 ] && kmemleak_baseline
	return 0
}

# End of a test: with CHECK_KMEMLEAK=1 kmemleak must find nothing, and the
# kernel log must be clean since test_begin.
test_end() {
	if [ "${CHECK_KMEMLEAK:-0}" = 1 ]; then
		step "kmemleak scan"
		kmemleak_check
	fi
	dmesg_clean
}

# A dummy interface carrying ADDR: soft-RoCE loops traffic back inside the
# kernel, which is what a single-guest NFS over RDMA mount needs (lo fails).
dummy_link() {
	ip link add rdma0 type dummy || fail "cannot create dummy interface"
	ip addr add "$1" dev rdma0
	ip link set rdma0 up
}

# The software RDMA provider the guests use: rxe (soft-RoCE, the default)
# or siw (soft-iWARP, built into the test kernel) with RDMA_PROVIDER=siw.
RDMA_PROVIDER=${RDMA_PROVIDER:-rxe}

# Name of the RDMA device on NETDEV: rxe_eth0, siw_eth0.
rdma_link_name() {
	echo "${RDMA_PROVIDER}_$1"
}

# An RDMA device of $RDMA_PROVIDER on NETDEV; waits until its port is
# ACTIVE.
rdma_link() {
	local netdev=$1 name i

	name=$(rdma_link_name "$netdev")
	case "$RDMA_PROVIDER" in
	rxe) modprobe rdma_rxe || fail "cannot load rdma_rxe" ;;
	siw) modprobe siw 2>/dev/null || [ -d /sys/module/siw ] ||
		fail "no siw in this kernel" ;;
	*) fail "unknown RDMA_PROVIDER $RDMA_PROVIDER" ;;
	esac
	rdma link add "$name" type "$RDMA_PROVIDER" netdev "$netdev" ||
		fail "cannot add an $RDMA_PROVIDER link on $netdev"
	# For the guest history (guest_history_add in crash.sh).
	echo "rpcrdma-selftest: $RDMA_PROVIDER link $name added" >/dev/kmsg
	for i in $(seq 50); do
		rdma link show "$name/1" 2>/dev/null | grep -q 'state ACTIVE' &&
			return 0
		sleep 0.2
	done
	fail "$name never became ACTIVE"
}

# add_rdma_address ADDRESS: ADDRESS/32 on eth0 as well, and wait until the
# RDMA device on eth0 has a GID for it (the RDMA core adds one a moment
# after the address; a connect from or to it fails until then).
add_rdma_address() {
	local addr=$1 gid i

	ip addr add "$addr/32" dev eth0 || fail "cannot add $addr to eth0"
	gid=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		$(echo "$addr" | tr . ' '))
	for i in $(seq 50); do
		cat /sys/class/infiniband/"$(rdma_link_name eth0)"/ports/1/gids/* \
			2>/dev/null | grep -qx "$gid" && return 0
		sleep 0.2
	done
	fail "no GID $gid for $addr on $(rdma_link_name eth0)"
}

# bond_link ADDRESS: eth0 and eth1 (pair.sh --links 2) in an
# active-backup bond, bond0, that takes the new active slave's MAC address
# on a failover (fail_over_mac=active: the RDMA-CM then sends
# RDMA_CM_EVENT_ADDR_CHANGE to every id on it), with ADDRESS/24 and an RDMA
# device on it.  Backup slaves take frames too (all_slaves_active), so the
# two guests need not fail over together.
bond_link() {
	modprobe bonding max_bonds=0 || fail "cannot load bonding"
	ip link add bond0 type bond mode active-backup miimon 100 \
		fail_over_mac active all_slaves_active 1 num_grat_arp 3 ||
		fail "cannot make an active-backup bond"
	ip addr flush dev eth0
	ip link set eth0 down
	ip link set eth0 master bond0 || fail "eth0 does not join bond0"
	ip link set eth1 master bond0 || fail "eth1 does not join bond0"
	ip link set bond0 up
	echo eth0 >/sys/class/net/bond0/bonding/active_slave
	ip addr add "$1/24" dev bond0
	ip addr add "2001:db8::${1##*.}/64" dev bond0 nodad
	rdma_link bond0
}

# bond_failover: make bond0's other slave the active one; waits for it.
bond_failover() {
	local cur next i

	cur=$(cat /sys/class/net/bond0/bonding/active_slave)
	next=eth1
	[ "$cur" = eth0 ] || next=eth0
	echo "$next" >/sys/class/net/bond0/bonding/active_slave ||
		fail "bond0 refused $next as its active slave"
	for i in $(seq 50); do
		[ "$(cat /sys/class/net/bond0/bonding/active_slave)" = "$next" ] &&
			{ echo "bond0: $cur -> $next, MAC $(cat /sys/class/net/bond0/address)"; return 0; }
		sleep 0.1
	done
	fail "bond0 did not fail over to $next"
}

# The kernel's own rpcrdma.ko, the reference implementation.  Loaded by
# path: after "make install" on the host, modprobe would find ours in
# updates/ first.
load_stock_rpcrdma() {
	local ko dep

	ko=$(ls /lib/modules/"$(uname -r)"/kernel/net/sunrpc/xprtrdma/rpcrdma.ko* 2>/dev/null)
	[ -n "$ko" ] || fail "the stock rpcrdma.ko is not in /lib/modules/$(uname -r)"
	for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
		modprobe "$dep" || fail "cannot load $dep, needed by the stock rpcrdma"
	done
	insmod "$ko" || fail "cannot load the stock rpcrdma ($ko)"
	# For the guest history (guest_history_add in crash.sh).
	echo "rpcrdma-selftest: stock rpcrdma loaded" >/dev/kmsg
}

# Our module, built for the running kernel; its dependencies come first.
# Its parameters are RPCRDMA_PARAMS, by default dma_order_check=1: every
# test but the bench and the demo (which set it empty) runs with the
# client's check that no reply is copied into memory an MR still maps
# for the device (a WARNING, which fails the test).
load_our_rpcrdma() {
	local ko=$1 dep params=${RPCRDMA_PARAMS-dma_order_check=1}

	[ -r "$ko" ] || fail "$ko not found"
	for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
		modprobe "$dep" || fail "cannot load $dep, needed by rpcrdma"
	done
	# shellcheck disable=SC2086 # one word per parameter
	insmod "$ko" $params || fail "insmod $ko $params failed"
	grep -q '^rpcrdma ' /proc/modules || fail "rpcrdma is not listed after insmod"
	case " $params " in
	*" dma_order_check=1 "*)
		[ "$(cat /sys/module/rpcrdma/parameters/dma_order_check)" = Y ] ||
			fail "rpcrdma's dma_order_check is not on" ;;
	esac
	echo "rpcrdma-selftest: our rpcrdma loaded" >/dev/kmsg
}

# load_rpcrdma ours|stock: our module ($RPCRDMA_KO) or the kernel's own.
load_rpcrdma() {
	if [ "$1" = ours ]; then
		load_our_rpcrdma "$RPCRDMA_KO"
	else
		load_stock_rpcrdma
	fi
}

unload_rpcrdma() {
	bounded 120 "rmmod rpcrdma" rmmod rpcrdma
	! grep -q '^rpcrdma ' /proc/modules || fail "rpcrdma still loaded after rmmod"
}

# The kernel NFS server exporting a tmpfs at $EXPORT, listening for RDMA on
# $NFS_PORT (with "tcp-only", on TCP alone).  rpcbind must run before
# rpc.nfsd.  NFSD_MAX_BLOCK_SIZE sets nfsd's largest READ and WRITE
# (otherwise 1/4096 of memory: 512 KiB on a 2 GiB guest).
nfs_server_start() {
	mkdir -p "$EXPORT" /run/rpcbind /var/lib/nfs/v4recovery
	mount -t tmpfs -o size=768m,mode=0777 tmpfs "$EXPORT"
	echo "$EXPORT *(rw,insecure,no_root_squash,no_subtree_check,fsid=0)" >/etc/exports
	rpcbind || fail "rpcbind did not start"
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	if [ -n "${NFSD_MAX_BLOCK_SIZE:-}" ]; then
		echo "$NFSD_MAX_BLOCK_SIZE" >/proc/fs/nfsd/max_block_size ||
			fail "nfsd refused max_block_size $NFSD_MAX_BLOCK_SIZE"
		[ "$(cat /proc/fs/nfsd/max_block_size)" = "$NFSD_MAX_BLOCK_SIZE" ] ||
			fail "nfsd's max_block_size is $(cat /proc/fs/nfsd/max_block_size), not $NFSD_MAX_BLOCK_SIZE"
	fi
	exportfs -ra || fail "exportfs failed"
	rpc.mountd || fail "rpc.mountd did not start"
	rpc.nfsd --grace-time 10 --lease-time 10 4 || fail "rpc.nfsd did not start"
	[ "${1:-}" = tcp-only ] && return 0
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist ||
		fail "nfsd refused an rdma listener on port $NFS_PORT"
	grep -q "rdma $NFS_PORT" /proc/fs/nfsd/portlist ||
		fail "no rdma listener in /proc/fs/nfsd/portlist"
}

# A background writer: start_writer FILE [WRAP] [PAUSE] writes FILE with
# direct I/O, 1 MiB at a time, the i-th block at block i % WRAP (32),
# sleeping PAUSE seconds (none) between blocks, until stop_writer.  Each
# block's bytes are random, made the first time it is written and kept
# in /tmp/writer.src, so that writer_check can compare the file after.
# /tmp/written counts the blocks written, /tmp/stamps has the uptime at
# which each completed; $writer is the writer's pid.
start_writer() {
	local file=$1 wrap=${2:-32} pause=${3:-0}

	rm -f /tmp/stop /tmp/writer.src
	echo "$wrap" >/tmp/writer.wrap
	echo 0 >/tmp/written
	: >/tmp/stamps
	(
		i=0
		while [ ! -e /tmp/stop ]; do
			b=$((i % wrap))
			# The first round makes each block (64 MiB from
			# /dev/urandom up front cost 20 s on the debug kernel).
			[ "$i" -ge "$wrap" ] ||
				head -c 1048576 /dev/urandom |
				dd of=/tmp/writer.src bs=1M seek=$b conv=notrunc \
					status=none
			dd if=/tmp/writer.src of="$file" bs=1M count=1 skip=$b \
				seek=$b conv=notrunc oflag=direct status=none || exit 1
			i=$((i + 1))
			# Renamed into place: a reader never sees it empty.
			echo $i >/tmp/written.new && mv /tmp/written.new /tmp/written
			cut -d' ' -f1 /proc/uptime >>/tmp/stamps
			[ "$pause" = 0 ] || sleep "$pause"
		done
	) >/tmp/writer.log 2>&1 &
	writer=$!
}

# Stop the writer; its exit status (non-zero if a write failed).
stop_writer() {
	touch /tmp/stop
	await_pid 120 "the background writer's last write" "$writer"
}

# The blocks written to FILE are the writer's: the first min(blocks,
# WRAP) MiB of FILE match /tmp/writer.src.
writer_check() {
	local n wrap

	n=$(cat /tmp/written)
	wrap=$(cat /tmp/writer.wrap)
	[ "$n" -gt "$wrap" ] && n=$wrap
	cmp -n $((n << 20)) /tmp/writer.src "$1"
}

# Stop nfsd (every connection and the listener close) and start it again.
nfs_server_restart() {
	bounded 120 "rpc.nfsd 0" rpc.nfsd 0
	sleep "${1:-2}"
	rpc.nfsd --grace-time 10 --lease-time 10 4 || fail "rpc.nfsd did not restart"
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist ||
		fail "nfsd refused an rdma listener after the restart"
}

nfs_server_stop() {
	bounded 120 "rpc.nfsd 0" rpc.nfsd 0
	exportfs -ua
	# mountd unregisters from rpcbind as it exits; killed together,
	# its fallback connection over TCP6 can be left un-accepted when
	# rpcbind closes its listener, and after siw has received in
	# process context lockdep then reports a lock order of the
	# kernel's own (Documentation/testing.rst).  One after the other.
	timeout 30 killall -w rpc.mountd 2>/dev/null
	timeout 30 killall -w rpcbind 2>/dev/null
	umount "$EXPORT"
}

# nfs_mount VERS SERVER MOUNTPOINT: NFS over RDMA; checks that the mount
# really uses the rdma transport.
nfs_mount() {
	local vers=$1 server=$2 mnt=$3 path=/

	[ "$vers" = 3 ] && path=$EXPORT
	mkdir -p "$mnt"
	mount -t nfs -o "vers=$vers,proto=rdma,port=$NFS_PORT,nolock" \
		"$server:$path" "$mnt" || fail "NFSv$vers mount over RDMA failed"
	mount_xprt_line "$mnt" | grep -q '^[[:space:]]*xprt:[[:space:]]*rdma ' ||
		fail "NFSv$vers mount of $mnt does not use the rdma transport"
}

# The "xprt:" line of MOUNTPOINT's entry in /proc/self/mountstats.
mount_xprt_line() {
	awk -v m="$1" '$1 == "device" { mine = ($5 == m) }
		mine && $1 == "xprt:" { print; exit }' /proc/self/mountstats
}

# write_files DIR SIZE...: random files named f.SIZE, checksums kept in
# /tmp/sums for verify_files.
write_files() {
	local dir=$1 size

	shift
	rm -rf /tmp/src
	mkdir /tmp/src
	for size in "$@"; do
		head -c "$size" /dev/urandom >"/tmp/src/f.$size"
	done
	# A few processes for all the files, not a few per file: each one
	# costs on the debug kernel under TCG.
	(cd /tmp/src && sha256sum -- f.*) >/tmp/sums
	cp /tmp/src/f.* "$dir/" || fail "writing the files to $dir failed"
	rm -rf /tmp/src
	sync
}

verify_files() {
	(cd "$1" && sha256sum -c --quiet /tmp/sums) ||
		fail "data read back from $1 does not match what was written"
}

# fio_jobs_ok FILE JOBS: FILE is fio's --output-format=json output; it
# must name JOBS jobs, each with error 0 and some bytes read back (with
# --do_verify, what verify checked).  Prints one line per job and returns
# non-zero otherwise.  fio writes its warnings into FILE ahead of the
# JSON, which begins on the first line that is a lone "{".
fio_jobs_ok() {
	python3 -c 'import json, sys
text = open(sys.argv[1]).read()
lines = text.split("\n")
if "{" not in lines:
    sys.exit("fio: no JSON output in " + sys.argv[1])
at = sum(len(line) + 1 for line in lines[:lines.index("{")])
jobs = json.JSONDecoder().raw_decode(text[at:])[0]["jobs"]
bad = 0
for i, j in enumerate(jobs):
    wrote, read = j["write"]["io_bytes"], j["read"]["io_bytes"]
    print("fio job %s.%d: error %d, %d MiB written, %d MiB read back" %
          (j["jobname"], i, j["error"], wrote >> 20, read >> 20))
    bad += j["error"] != 0 or read == 0
if len(jobs) != int(sys.argv[2]):
    sys.exit("fio: %d jobs reported, %s expected" % (len(jobs), sys.argv[2]))
sys.exit(bad != 0)' "$1" "$2"
}

# No warning, oops, sanitizer or lockdep report since test_begin.  The taint
# notes the kernel prints for any unsigned out-of-tree module are expected.
# With ALLOC_FAILURES_OK=1 (fault injection), the stack dumps warn_alloc()
# prints for an allocation that was made to fail are left out, up to the
# end of their call trace; anything else in the log still counts.
# Every guest leaves out one report of soft-RoCE's own (known_reports);
# guests that serve with the stock module set STOCK_SERVER=1, and one
# defect of the kernel's own 6.12 server is then left out too
# (Documentation/reliability.rst).  Each report left out is a note on
# stderr, which the test's output keeps.
dmesg_clean() {
	local bad

	dmesg | grep -q 'rpcrdma-selftest: start of test' ||
		fail "no start-of-test mark in the kernel log (test_begin not called)"
	dmesg | sed -n '/rpcrdma-selftest: start of test/,$p' |
		known_reports >/tmp/dmesg.test
	bad=$(awk -v skip_alloc="${ALLOC_FAILURES_OK:-0}" '
		skip_alloc == 1 && /vmalloc error: |page allocation failure: / { in_report = 1 }
		!in_report { print }
		in_report && /<\/TASK>/ { in_report = 0 }' /tmp/dmesg.test |
	      grep -E 'WARNING:|BUG:|Oops|KASAN|UBSAN|general protection|Call Trace|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|kmemleak: [0-9]+ new suspected|hung_task|soft lockup|list_add corruption|list_del corruption')
	if [ -n "$bad" ]; then
		echo "$bad"
		fail "the kernel log reports problems"
	fi
}

# Filter: the kernel log without the reports of two known defects of
# other code, with a note on stderr for each one left out:
# - soft-RoCE's WARN_ON_ONCE in rxe_completer() (a work request failed
#   with a success status: its completer met a response packet it did
#   not expect, as when a peer disconnects while this side retries), in
#   rxe's own work queue with no frame but rxe's and the work queue's,
#   and no taint but G, O and E (no warning before it: the first one
#   of a test is never left out for being the second);
# - with STOCK_SERVER=1 only, the stock 6.12 server's WARNING in
#   ib_destroy_qp_user() (an MR still counted as in use by the QP) under
#   svc_rdma_free(), in an untainted kernel (no module of ours loaded).
known_reports() {
	awk -v stock="${STOCK_SERVER:-0}" '
	/------------\[ cut here \]------------/ { n = 0; in_report = 1 }
	in_report { buf[++n] = $0
		if ($0 ~ /WARNING: .* ib_destroy_qp_user\+/) qp = 1
		if ($0 ~ /WARNING: .* rxe_completer\+/) comp = 1
		if ($0 ~ / Not tainted /) untainted = 1
		if ($0 ~ / Tainted: [GOE ]+ [0-9]/) ours_only = 1
		if ($0 ~ /svc_rdma_free\+/) free = 1
		if ($0 ~ /Workqueue: rxe_wq do_work \[rdma_rxe\]/) rxe_wq = 1
		if ($0 ~ /^\[ *[0-9.]+\]  [^ ]+\+0x/ &&
		    $0 !~ /\[rdma_rxe\]|process_one_work|worker_thread|kthread|ret_from_fork/)
			other = 1
		if ($0 !~ /---\[ end trace/) next
		if ((stock == 1 && untainted && qp && free) ||
		    ((untainted || ours_only) && comp && rxe_wq && !other)) {
			print "note: known defect left out: " buf[2] > "/dev/stderr"
		} else {
			for (i = 1; i <= n; i++) print buf[i]
		}
		in_report = qp = comp = untainted = ours_only = free = rxe_wq = other = 0
		next }
	{ print }
	END { if (in_report) for (i = 1; i <= n; i++) print buf[i] }'
}

# The RDMA side of a connection that does not come back: the link, the
# RDMA-CM ids, the provider's counters that are not zero, the neighbours,
# the state of QP1, which carries the CM's messages.
rdma_state_report() {
	local dev c

	dev=$(rdma_link_name eth0)
	rdma link show
	rdma resource show cm_id 2>/dev/null | head -20
	for c in /sys/class/infiniband/"$dev"/ports/1/hw_counters/*; do
		[ -r "$c" ] && [ "$(cat "$c")" != 0 ] &&
			echo "${c##*/} $(cat "$c")"
	done
	ip neigh show dev eth0
	# QP1 in the error state: soft-RoCE's CM is deaf until the device
	# is added again (Documentation/reliability.rst).
	rdma resource show qp 2>/dev/null | grep ' type GSI '
}

kmemleak_available() {
	[ -e /sys/kernel/debug/kmemleak ]
}

# Forget what leaked before the test (boot-time noise).
kmemleak_baseline() {
	kmemleak_available || return 0
	echo scan >/sys/kernel/debug/kmemleak
	echo clear >/sys/kernel/debug/kmemleak
}

# Two scans some seconds apart (objects must age before kmemleak reports
# them), then nothing may be reported.
kmemleak_check() {
	local report

	kmemleak_available || fail "kmemleak is not available in this kernel"
	echo scan >/sys/kernel/debug/kmemleak
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	report=$(cat /sys/kernel/debug/kmemleak)
	if [ -n "$report" ]; then
		echo "$report" | head -n 60
		fail "kmemleak reports unreferenced objects"
	fi
}

# Rendezvous between two guests through the shared /out folder.
# The fields of an "xprt: rdma" line of /proc/self/mountstats, in order
# after "rdma": the generic RPC transport's, then the kernel's own
# rpcrdma module's (xprt_rdma_print_stats(), kept by ours; the last one
# is always 0).  Documentation/admin-guide.rst describes them.
RDMA_XPRT_FIELDS="srcport bind_count connect_count connect_time idle_time
	sends recvs bad_xids req_u bklog_u read_chunk_count write_chunk_count
	reply_chunk_count total_rdma_request total_rdma_reply pullup_copy_count
	fixup_copy_count hardway_register_count failed_marshal_count
	bad_reply_count nomsg_call_count mrs_recycled mrs_orphaned
	mrs_allocated local_inv_needed empty_sendctx_q unused"

# xprt_field MOUNTPOINT NAME: field NAME of the mount's "xprt: rdma" line.
xprt_field() {
	rdma_field "$(mount_xprt_line "$1")" "$2"
}

# rdma_field LINE NAME: field NAME (RDMA_XPRT_FIELDS) of an "xprt: rdma"
# line; an unknown name fails the test.
rdma_field() {
	local n=0 f

	for f in $RDMA_XPRT_FIELDS; do
		n=$((n + 1))
		[ "$f" = "$2" ] && break
	done
	[ "$f" = "$2" ] || fail "no field $2 in an xprt: rdma line"
	echo "$1" | awk -v n="$n" \
		'{ for (i = 1; i <= NF; i++) if ($i == "rdma") { print $(i + n); exit } }'
}

# expect_xprt_field MOUNTPOINT NAME MIN WHAT: fail unless field NAME of
# the mount's xprt line is at least MIN.
expect_xprt_field() {
	local mnt=$1 n=$2 min=$3 what=$4 v

	v=$(xprt_field "$mnt" "$n")
	[ -n "$v" ] && [ "$v" -ge "$min" ] ||
		fail "mountstats: $what is ${v:-missing}, expected at least $min"
}

# expect_xprt_field_max MNT FIELD MAX WHAT: the field is at most MAX.
expect_xprt_field_max() {
	local mnt=$1 n=$2 max=$3 what=$4 v

	v=$(xprt_field "$mnt" "$n")
	[ -n "$v" ] && [ "$v" -le "$max" ] ||
		fail "mountstats: $what is ${v:-missing}, expected at most $max"
}

signal_peer() {
	touch "/out/$1.flag"
}

# wait_peer FLAG [SECS]: wait for the peer to signal FLAG, failing if the
# peer ends first or after SECS seconds (default 120).  SECS 0 waits as
# long as the peer runs: for a guest that only follows the other's
# schedule, whose length depends on the kernel (a debug kernel is several
# times slower); the guest's own --timeout still bounds it.
wait_peer() {
	local flag=$1 secs=${2:-120} waited=0 done

	while [ "$secs" = 0 ] || [ "$waited" -lt $((secs * 5)) ]; do
		[ -e "/out/$flag.flag" ] && return 0
		for done in /out/*.done; do
			[ -e "$done" ] || continue
			fail "the peer $(basename "$done" .done) ended before '$flag'"
		done
		sleep 0.2
		waited=$((waited + 1))
	done
	fail "timed out after ${secs}s waiting for the peer ($flag)"
}
