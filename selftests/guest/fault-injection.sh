# SPDX-License-Identifier: GPL-2.0
# Guest (debug kernel): our module as client and server in one guest over
# soft-RoCE, with failslab and fail_page_alloc failing allocations whose
# call stack passes through rpcrdma.ko (the stack trace filter's
# require-start/require-end set to the module's memory).  Each phase runs
# with a budget of injected failures: listener creation, mounts (connect,
# accept, NFSv4.1 backchannel setup), I/O, reconnect after an nfsd
# restart, and device removal.  A failure must reach the caller as an
# error or be retried: mounts may fail but not hang, writes on a hard
# mount must all complete once the budget is spent, and every file written
# must read back as it was written.  Every phase must inject at least one
# failure.  At the end nfsd stops, rmmod succeeds, and KASAN, lockdep and
# kmemleak must be silent.
#
# Listener creation and mounts sweep: round N fails the first filtered
# allocation after a budget that grows with N (0 bytes, 256, 1 KiB, ...),
# so the rounds reach successive allocation sites.  I/O, reconnect and
# device removal fail FI_PERCENT (default 20) of the filtered allocations
# at random, at most FI_TIMES (default 25), for FI_WINDOW (default 30)
# seconds: a passing shortage, which writes on a hard mount must ride
# out.  FI_ROUNDS (default 3) sets the rounds of each phase.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

# What warn_alloc() prints for an allocation made to fail is expected.
ALLOC_FAILURES_OK=1
ROUNDS=${FI_ROUNDS:-3}
PERCENT=${FI_PERCENT:-20}
TIMES=${FI_TIMES:-25}
WINDOW=${FI_WINDOW:-30}
DBG=/sys/kernel/debug
HARD="vers=4.1,proto=rdma,port=$NFS_PORT,nolock,hard,timeo=100"
REPORT=/out/fault-injection.txt

# Fail allocations only with rpcrdma.ko's memory on the stack.  Its
# text is the first region /proc/modules gives; nothing but our code
# lies between its base and base + size.
fi_setup() {
	local base size end attr

	base=$(awk '$1 == "rpcrdma" { print $6 }' /proc/modules)
	size=$(awk '$1 == "rpcrdma" { print $2 }' /proc/modules)
	[ -n "$base" ] || fail "rpcrdma is not loaded"
	end=$(printf '%#x' $((base + size)))
	for attr in failslab fail_page_alloc; do
		[ -d "$DBG/$attr" ] || fail "no $DBG/$attr in this kernel"
		echo 0 >"$DBG/$attr/probability"
		echo 0 >"$DBG/$attr/times"
		echo N >"$DBG/$attr/ignore-gfp-wait"
		echo 1 >"$DBG/$attr/verbose"
		echo 100000 >"$DBG/$attr/verbose_ratelimit_burst"
		echo 1 >"$DBG/$attr/interval"
		echo 32 >"$DBG/$attr/stacktrace-depth"
		echo "$base" >"$DBG/$attr/require-start"
		echo "$end" >"$DBG/$attr/require-end"
	done
	echo N >"$DBG/fail_page_alloc/ignore-gfp-highmem"
	echo 0 >"$DBG/fail_page_alloc/min-order"
	echo "stack filter: rpcrdma.ko at $base..$end" | tee -a "$REPORT"
}

# Failures injected so far.  Each arming gives failslab and
# fail_page_alloc a budget in their "times", which the kernel counts down
# at each failure it forces; fi_off adds what was spent.  Counting the
# "forcing a failure" lines in dmesg would miss failures of allocations
# made with __GFP_NOWARN, which print nothing, and those the log buffer
# has wrapped over in a long run.
FI_HITS=0
FI_BUDGET=0

# fi_on [TIMES]: fail PERCENT of the filtered allocations, TIMES in all.
fi_on() {
	local attr

	FI_BUDGET=${1:-$TIMES}
	for attr in failslab fail_page_alloc; do
		echo 0 >"$DBG/$attr/space"
		echo "$FI_BUDGET" >"$DBG/$attr/times"
		echo "$PERCENT" >"$DBG/$attr/probability"
	done
}

# fi_after BYTES: fail one filtered allocation, the first after BYTES of
# slab objects (or BYTES / 4096 pages) were allocated, so that successive
# rounds fail successive allocation sites of the same operation.
fi_after() {
	local attr

	FI_BUDGET=1
	for attr in failslab fail_page_alloc; do
		echo 1 >"$DBG/$attr/times"
		echo 100 >"$DBG/$attr/probability"
	done
	echo "$1" >"$DBG/failslab/space"
	echo $(($1 / 4096)) >"$DBG/fail_page_alloc/space"
}

# The allocation budget of round N of ROUNDS: spread over the list when
# there are fewer rounds than budgets, round robin when there are more.
sweep_space() {
	local spaces=(0 256 1024 4096 16384 65536 262144 524288 1048576)
	local n=${#spaces[@]} i

	if [ "$ROUNDS" -le "$n" ]; then
		i=$((($1 - 1) * n / ROUNDS))
	else
		i=$((($1 - 1) % n))
	fi
	echo "${spaces[$i]}"
}

# Stop injecting and count what this arming injected; its budget is then
# spent, so that calling fi_off again counts nothing twice.
fi_off() {
	local attr left

	for attr in failslab fail_page_alloc; do
		echo 0 >"$DBG/$attr/probability"
		left=$(cat "$DBG/$attr/times")
		FI_HITS=$((FI_HITS + FI_BUDGET - left))
		echo 0 >"$DBG/$attr/times"
	done
	FI_BUDGET=0
}

fi_hits() {
	echo "$FI_HITS"
}

PHASE=
PHASE_START=0
phase_begin() {
	PHASE=$1
	PHASE_START=$(fi_hits)
	step "phase $PHASE"
}

# Every phase must have injected at least one failure: a phase that
# injected none tested nothing (its allocation sites moved, or the stack
# filter no longer matches them).
phase_end() {
	local hits=$(( $(fi_hits) - PHASE_START ))

	echo "phase $PHASE: $hits injected failures $*" | tee -a "$REPORT"
	[ "$hits" -gt 0 ] || fail "phase $PHASE injected no failure"
}

# write_some MNT COUNT SUMS TAG: write COUNT files of 64 KiB, fi.TAG.N,
# under MNT, each with its own content; the checksums of those whose
# write (and fsync) succeeded go to SUMS, dd's error for the others to
# /tmp/fi.err.
write_some() {
	local mnt=$1 count=$2 sums=$3 tag=$4 i

	for i in $(seq "$count"); do
		head -c 65536 /dev/urandom >/tmp/fi.src
		if dd if=/tmp/fi.src of="$mnt/fi.$tag.$i" bs=65536 conv=fsync \
			status=none 2>/tmp/fi.dd; then
			(cd /tmp && sha256sum fi.src) |
				sed "s/fi\.src/fi.$tag.$i/" >>"$sums"
		else
			sed "s/^/fi.$tag.$i: /" /tmp/fi.dd >>/tmp/fi.err
		fi
	done
}

# An RPC that ends in an error, and every connect attempt of our client,
# go to the trace buffer, so that a write that fails says why.
TRACE=/sys/kernel/tracing
rpc_errors_trace() {
	echo 8192 >"$TRACE/buffer_size_kb"
	echo 'status != 0' >"$TRACE/events/sunrpc/rpc_connect_status/filter"
	echo 1 >"$TRACE/events/sunrpc/rpc_connect_status/enable"
	echo 1 >"$TRACE/events/sunrpc/rpc_call_rpcerror/enable"
	echo 1 >"$TRACE/events/rpcrdma/xprtrdma_connect/enable"
	echo 1 >"$TRACE/tracing_on"
}

# What a failed write left: dd's errors, and the RPC errors traced.
write_failure_report() {
	echo "# dd said:"
	cat /tmp/fi.err
	echo "# RPC errors and connect attempts (last 40):"
	grep "rpc_call_rpcerror\|rpc_connect_status\|xprtrdma_connect" \
		"$TRACE/trace" | tail -40
}

# Every file in SUMS, read through MNT, must read back as written: the
# reads come after the shortage ended, on a hard mount, so a read that
# fails is a failure too.  sha256sum names each file that failed, and how
# ("FAILED" for other bytes, "FAILED open or read" for an error).
check_reads() {
	local mnt=$1 sums=$2

	(cd "$mnt" && sha256sum -c --quiet "$sums") ||
		fail "a file under $mnt did not read back as it was written"
}

# After a phase: without injection, the server must serve a new mount
# that writes and reads back correctly.
recovered() {
	local what=$1

	fi_off
	mkdir -p /mnt/check
	timeout 180 mount -t nfs -o "$HARD" 192.0.2.1:/ /mnt/check ||
		fail "after $what, a mount without injection failed"
	write_files /mnt/check 1 65536 1048577
	umount /mnt/check
	timeout 180 mount -t nfs -o "$HARD" 192.0.2.1:/ /mnt/check ||
		fail "after $what, a second mount without injection failed"
	verify_files /mnt/check
	rm -f /mnt/check/f.*
	timeout 120 umount /mnt/check || fail "after $what, umount hangs"
}

listener() {
	echo "rdma $NFS_PORT" >/proc/fs/nfsd/portlist 2>/dev/null
}

test_begin
: >"$REPORT"
step "soft-RoCE on a dummy interface, our module, NFS server"
dummy_link 192.0.2.1/24
rdma_link rdma0
load_our_rpcrdma "$RPCRDMA_KO"
nfs_server_start
fi_setup

phase_begin "listener creation"
created=0
for r in $(seq "$ROUNDS"); do
	rpc.nfsd 0
	rpc.nfsd --grace-time 10 --lease-time 10 4 || fail "rpc.nfsd did not start"
	fi_after "$(sweep_space "$r")"
	listener && created=$((created + 1))
	fi_off
	grep -q "rdma $NFS_PORT" /proc/fs/nfsd/portlist || listener ||
		fail "no rdma listener even without injection"
done
phase_end "($created of $ROUNDS listeners made under injection)"
recovered "listener creation"

for vers in 3 4.1; do
	phase_begin "mount and umount, NFSv$vers (connect, accept, backchannel)"
	mounted=0
	path=/
	[ "$vers" = 3 ] && path=$EXPORT
	for r in $(seq "$ROUNDS"); do
		mkdir -p /mnt/fi
		fi_after "$(sweep_space "$r")"
		if timeout 300 mount -t nfs -o \
			"vers=$vers,proto=rdma,port=$NFS_PORT,nolock,soft,timeo=50,retrans=2" \
			192.0.2.1:"$path" /mnt/fi 2>/dev/null; then
			mounted=$((mounted + 1))
			ls /mnt/fi >/dev/null 2>&1
			timeout 300 umount /mnt/fi || fail "umount hangs under injection"
		else
			[ $? = 124 ] && fail "mount hangs under injection"
		fi
		fi_off
		! mountpoint -q /mnt/fi || umount /mnt/fi
	done
	phase_end "($mounted of $ROUNDS mounts succeeded)"
	recovered "mounts under injection"
done

# write_while_failing COUNT TAG: write COUNT files in the background while
# allocations fail for FI_WINDOW seconds (a passing memory shortage),
# then wait for the writes: on a hard mount they must all complete.
write_while_failing() {
	local count=$1 tag=$2 before writer

	before=$(wc -l </tmp/fi.sums)
	fi_on
	bash -c "$(declare -f write_some); write_some /mnt/io $count /tmp/fi.sums $tag" &
	writer=$!
	sleep "$WINDOW"
	fi_off
	timeout 600 tail --pid="$writer" -f /dev/null ||
		fail "writes did not complete within 600 s of the shortage ending"
	wait "$writer"
	[ "$(wc -l </tmp/fi.sums)" = $((before + count)) ] || {
		write_failure_report
		fail "$((before + count - $(wc -l </tmp/fi.sums))) of $count writes failed on a hard mount"
	}
}

phase_begin "I/O on a hard NFSv4.1 mount"
rpc_errors_trace
: >/tmp/fi.err
mkdir -p /mnt/io
timeout 180 mount -t nfs -o "$HARD" 192.0.2.1:/ /mnt/io || fail "mount failed"
: >/tmp/fi.sums
for r in $(seq "$ROUNDS"); do
	write_while_failing 4 "io$r"
	check_reads /mnt/io /tmp/fi.sums
done
umount /mnt/io
timeout 180 mount -t nfs -o "$HARD" 192.0.2.1:/ /mnt/io || fail "remount failed"
check_reads /mnt/io /tmp/fi.sums
phase_end "($(wc -l </tmp/fi.sums) files written and read back intact)"

phase_begin "reconnect after an nfsd restart"
for r in $(seq "$ROUNDS"); do
	rpc.nfsd 0
	rpc.nfsd --grace-time 10 --lease-time 10 4 || fail "rpc.nfsd did not restart"
	listener || fail "no rdma listener after a restart"
	write_while_failing 2 "restart$r"
done
check_reads /mnt/io /tmp/fi.sums
phase_end "($(wc -l </tmp/fi.sums) files intact)"

phase_begin "RDMA device removal under a mount"
dev=$(rdma_link_name rdma0)
fi_on
timeout 120 rdma link delete "$dev" || fail "rdma link delete hangs under injection"
fi_off
rdma link add "$dev" type "$RDMA_PROVIDER" netdev rdma0 ||
	fail "cannot add $dev again"
write_while_failing 2 removal
check_reads /mnt/io /tmp/fi.sums
rm -f /mnt/io/fi.*
timeout 120 umount /mnt/io || fail "umount hangs"
phase_end "(the mount recovered)"
recovered "device removal"

step "shutting down"
fi_off
nfs_server_stop
unload_rpcrdma
total=$(fi_hits)
echo "in all: $total injected failures" | tee -a "$REPORT"
[ "$total" -gt 0 ] || fail "no failure was injected: the stack filter matches nothing"
test_end
step "clean"
