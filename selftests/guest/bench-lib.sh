# SPDX-License-Identifier: GPL-2.0
# What both make bench clients measure, in one place, and the CPU
# accounting both guests share.
#
# Every job records its figure (MiB/s, IOPS or ops/s) and the CPU time
# per operation of each guest: busy jiffies from /proc/stat (everything
# but idle and iowait) across the job, divided by the operations the job
# completed.  Under TCG the whole stack is CPU bound, so the CPU spent
# per operation shows a module's share of the work with less noise than
# throughput.  The guest that runs the jobs reads its own counters; the
# other guest runs cpu_sampler, which answers each numbered mark with its
# own count (/out/cpu-peer.csv).
#
# The host's view is recorded beside it (selftests/bench/host_cpu.py):
# the CPU time the host spent running each guest's QEMU across the job,
# per operation, which leaves out the time a guest's threads waited for a
# host CPU, and the instructions each guest executed, in all, in
# rpcrdma.ko, rdma_rxe.ko, sunrpc.ko and ib_core.ko, per RPC sent in the
# window, with the iterations and the bytes of its REP string
# instructions (counted by the QEMU plugin selftests/bench/insn-count.c,
# independent of the host's speed).
#
# Results go to /out/bench.csv as "round,module,metric,value"; the cost
# figures are metrics named JOB_cpu_us_{client,server} (the guests'
# jiffies), JOB_host_cpu_us_{client,server} (the host's CPU time),
# JOB_kinsns_rpc_{client,server} (thousands of instructions),
# JOB_{rpcrdma,rxe,sunrpc,ibcore}_insns_rpc_* (instructions, a REP
# string instruction counted once), JOB_{rpcrdma,rxe,sunrpc,ibcore}_rep_
# {iters,bytes}_rpc_* (the iterations of REP string instructions charged
# to the module and the bytes they moved or stored) and JOB_rep_bytes_rpc_*
# (those bytes in the whole guest), and JOB_{ctxsw,irqs}_rpc_{client,server}
# (each guest's context switches and device interrupts per RPC).
#
# BENCH_PROFILE=1 (with BENCH_KERNEL=test) also runs the ftrace function
# profiler on rpcrdma.ko in both guests during every job and writes
# /out/profile-{client,server}-ROUND-MODULE-JOB.txt: the module's own
# time per RPC and its functions by own time.

RUNTIME=${BENCH_RUNTIME:-8}
# Every job, by the name BENCH_JOBS gives it (bench.sh checks those).
BENCH_ALL_JOBS="write read randread randwrite metadata nconnect"
BENCH_JOBS=${BENCH_JOBS:-$BENCH_ALL_JOBS}
# Files the metadata job creates, stats and removes per round.
METADATA_FILES=${BENCH_METADATA_FILES:-400}
CPU_MARK=0
PROFILE=${BENCH_PROFILE:-0}
PROFILE_FILTER=${BENCH_PROFILE_FILTER:-:mod:rpcrdma}

# load_module ours|stock: load the module of that slot of the round.
# For an A/B run of two settings of our own module, BENCH_VERSUS=ours
# puts ours in the "stock" slot as well; BENCH_SYSCTL_OURS and
# BENCH_SYSCTL_STOCK ("NAME=VALUE ...", NAME under /proc/sys/sunrpc/)
# are set after each slot's module is loaded, before anything uses it.
load_module() {
	local kv sysctls

	case $1 in
	ours)
		RPCRDMA_PARAMS= load_our_rpcrdma "$RPCRDMA_KO"
		sysctls=${BENCH_SYSCTL_OURS:-} ;;
	stock)
		if [ "${BENCH_VERSUS:-stock}" = ours ]; then
			RPCRDMA_PARAMS= load_our_rpcrdma "$RPCRDMA_KO"
		else
			load_stock_rpcrdma
		fi
		sysctls=${BENCH_SYSCTL_STOCK:-} ;;
	esac
	for kv in $sysctls; do
		echo "${kv#*=}" >"/proc/sys/sunrpc/${kv%%=*}" ||
			fail "cannot set sunrpc/${kv%%=*} to ${kv#*=}"
		step "$1 slot: sunrpc/${kv%%=*} = $(cat "/proc/sys/sunrpc/${kv%%=*}")"
	done
	text_ranges
}

# The functions through which a transport queues work or wakes a task or
# a thread, each time it calls them (insn-count.so counts rpcrdma.ko's
# calls to them), and the work function that polls a completion queue
# (its runs counted): the wake-ups the transport asks for.  Wait-queue
# searches that mostly find nobody (__wake_up(), xprt_write_space(),
# xprt_wake_up_backlog(), ...) are left out: a call that wakes nobody
# costs no switch (Documentation/performance.rst).
WAKE_CALLS="queue_work_on queue_delayed_work_on mod_delayed_work_on
	wake_up_process complete complete_all
	svc_xprt_enqueue svc_xprt_received xprt_complete_rqst"
WORK_RUNS="ib_cq_poll_work"
# The RPC layer's reply completion, which either module calls once a
# reply: its runs in the window are the RPCs the counts are divided by.
RPC_RUNS="xprt_complete_rqst"
# Where the kernel preempts a task (its tick or a wake-up marked it),
# on the task's stack: a callout pauses from the entry of one of these
# to its return (the plugin's "pause" lines), as preemption is no work
# the callee asked for.  Debian's 6.12 (PREEMPT_VOLUNTARY) never calls
# them; its 7.2 (PREEMPT_LAZY) does, at the end of an interrupt and
# where preemption is enabled again.
PAUSE_RUNS="preempt_schedule_irq preempt_schedule preempt_schedule_notrace"

# text_ranges: tell the host's instruction counter (insn-count.so) where
# the code of rpcrdma.ko, rdma_rxe.ko, sunrpc.ko and ib_core.ko is now:
# "NAME START END" per module, in that order (the plugin's counts keep
# it), from their functions in /proc/kallsyms (END: the page after the
# one holding the last function, so that its body is in); then "call
# NAME ADDRESS" for each of WAKE_CALLS, "entry NAME ADDRESS" for each
# of WORK_RUNS, "rpc NAME ADDRESS" for each of RPC_RUNS and "pause NAME
# ADDRESS" for each of PAUSE_RUNS.
text_ranges() {
	local m lo hi

	for m in rpcrdma rdma_rxe sunrpc ib_core; do
		# Fixed-width hex addresses: sorted as text, sorted as numbers.
		read -r lo hi < <(grep -E "^[0-9a-f]+ [tT] .*[[:space:]]\[$m\]\$" \
			/proc/kallsyms | sort | sed -n '1p;$p' |
			awk '{ printf "%s ", $1 }')
		if [ -z "$lo" ]; then
			echo "$m 0 0"	# not loaded: the line keeps its place
			continue
		fi
		printf '%s %s %x\n' "$m" "$lo" $(( (16#${hi:-$lo} & ~4095) + 8192 ))
	done >"/out/$GUEST_NAME/text-ranges.new"
	awk -v calls="$WAKE_CALLS" -v runs="$WORK_RUNS" -v rpcs="$RPC_RUNS" \
		-v pauses="$PAUSE_RUNS" '
		BEGIN {
			n = split(calls, c); for (i = 1; i <= n; i++) kind[c[i]] = "call"
			n = split(runs, r); for (i = 1; i <= n; i++) kind[r[i]] = "entry"
			n = split(pauses, q); for (i = 1; i <= n; i++) kind[q[i]] = "pause"
			n = split(rpcs, p); for (i = 1; i <= n; i++) rpc[p[i]] = 1
		}
		($2 == "t" || $2 == "T") && ($3 in kind) && !seen[$3]++ {
			print kind[$3], $3, $1
		}
		($2 == "t" || $2 == "T") && ($3 in rpc) && !seen_rpc[$3]++ {
			print "rpc", $3, $1
		}' /proc/kallsyms >>"/out/$GUEST_NAME/text-ranges.new"
	mv "/out/$GUEST_NAME/text-ranges.new" "/out/$GUEST_NAME/text-ranges"
	text_syms
}

# text_syms: with BENCH_INSN_PROFILE=1, the functions of the kernel and
# of every module loaded now, for insn_profile.py, which profiles them
# all.  Done again before every job, outside its window (a mount loads
# the NFS modules, and reading /proc/kallsyms takes seconds under TCG).
text_syms() {
	[ "${BENCH_INSN_PROFILE:-0}" = 1 ] || return 0
	grep -E "^[0-9a-f]+ [tT] " /proc/kallsyms >"/out/$GUEST_NAME/text-syms"
}

# "BUSY ALL CTXT IRQS": jiffies this guest's CPUs have been busy since
# boot, all jiffies (busy, idle and iowait), which must grow with the wall
# clock, context switches, and device interrupts (the numbered IRQs:
# virtio-net's among them; the local timer and IPIs are left out, as the
# timer's count follows the clock, not the work).
cpu_busy() {
	awk '$1 == "cpu" { b = $2 + $3 + $4 + $7 + $8 + $9; a = b + $5 + $6 }
		$1 == "intr" { for (i = 3; i <= NF; i++) irqs += $i }
		$1 == "ctxt" { ctxt = $2 }
		END { print b, a, ctxt, irqs + 0 }' /proc/stat
}

# profile_start: start the ftrace function profiler
# (CONFIG_FUNCTION_PROFILER, which the test kernel has and Debian's has
# not) on the functions PROFILE_FILTER names (every function of the
# loaded rpcrdma.ko, ours or stock, by default), counting each
# function's own CPU time (graph-time and sleep-time off), and snapshot
# its statistics.
# Starting it patches the kernel's text under stop_machine, which takes
# seconds under TCG, so it is done before a job starts, and the job's
# profile is the difference between two snapshots.
profile_start() {
	local t=/sys/kernel/tracing f op='>' filters

	read -ra filters <<<"$PROFILE_FILTER"
	mountpoint -q $t || mount -t tracefs nodev $t
	[ -e $t/function_profile_enabled ] ||
		fail "no function profiler in this kernel (BENCH_KERNEL=test has one)"
	echo 0 >$t/function_profile_enabled
	for f in "${filters[@]}"; do
		if [ "$op" = '>' ]; then
			echo "$f" >$t/set_ftrace_filter
		else
			echo "$f" >>$t/set_ftrace_filter
		fi || fail "cannot trace $f"
		op='>>'
	done
	echo 0 >$t/options/graph-time
	# CPU time, not wall time: a task's time off the CPU (asleep, or
	# preempted by soft-RoCE's work in a one-CPU guest) is not counted.
	echo 0 >$t/options/sleep-time
	echo 1 >$t/function_profile_enabled
	profile_snap /tmp/profile.begin
}

# profile_snap FILE: the profiler's statistics so far, all CPUs.
profile_snap() {
	cat /sys/kernel/tracing/trace_stat/function* >"$1"
}

# profile_stop NAME: stop; /out/profile-NAME.raw gets ftrace's
# statistics at the end of the job (/tmp/profile.begin: at its start).
profile_stop() {
	profile_snap "/out/profile-$1.raw"
	echo 0 >/sys/kernel/tracing/function_profile_enabled
}

# profile_report NAME RPCS: /out/profile-NAME.txt gets the own time of
# the functions profiled during the job, in all and per RPC, per module
# (functions built into the kernel count as "vmlinux"), then each
# function's own time and calls.
profile_report() {
	awk -v rpcs="$2" '
		FILENAME == "/proc/kallsyms" {
			if ($2 ~ /^[tT]$/ && $4 ~ /^\[/) {
				m = $4; gsub(/[][]/, "", m); mod[$3] = m
			}
			next
		}
		$1 ~ /^[a-z_]/ && $2 ~ /^[0-9]+$/ {
			us = $3; if ($4 == "ms") us *= 1000
			sign = FILENAME == "/tmp/profile.begin" ? -1 : 1
			hit[$1] += sign * $2; time[$1] += sign * us
		}
		END {
			for (f in time) {
				m = (f in mod) ? mod[f] : "vmlinux"
				total[m] += time[f]
			}
			for (m in total)
				printf "%s own time: %.0f us in all, %.2f us per RPC (%d RPCs)\n",
					m, total[m], rpcs ? total[m] / rpcs : 0, rpcs
			sort = "sort -k1,1 -rn"
			for (f in time)
				if (hit[f] > 0)
					printf "%12.1f us %10d calls %8.3f us/RPC  %s\n",
						time[f], hit[f], rpcs ? time[f] / rpcs : 0,
						f | sort
			close(sort)
		}' /proc/kallsyms /tmp/profile.begin "/out/profile-$1.raw" \
		>"/out/profile-$1.txt"
	# The filter stays: an empty one would trace every function.
}

# BENCH_WAKES=1: where a job's context switches come from.  Histogram
# triggers (CONFIG_HIST_TRIGGERS) count, from the begin mark to the end
# of the job, the work items each function ran as (a queued work item
# is a wake-up of a kworker), the switches from each task to the next,
# and the wake-ups per woken task; wakes_stop LABEL RPCS writes them,
# after the RPCs sent in the window, to /out/wakes-GUEST-LABEL.txt, and
# selftests/bench/wakes.py sets them side by side per RPC.  The triggers
# cost instructions in the kernel and change the timing: use it for a
# diagnosis, not with the figures of a verdict.
WAKES=${BENCH_WAKES:-0}
WAKE_HISTS="workqueue/workqueue_execute_start:hist:keys=function.sym:sort=hitcount.descending
sched/sched_switch:hist:keys=prev_comm,next_comm:sort=hitcount.descending:size=8192
sched/sched_wakeup:hist:keys=comm:sort=hitcount.descending"

wakes_start() {
	local t=/sys/kernel/tracing ev spec

	[ "$WAKES" = 1 ] || return 0
	mountpoint -q $t || mount -t tracefs nodev $t
	while IFS=: read -r ev spec; do
		echo "$spec" >"$t/events/$ev/trigger" ||
			fail "cannot set $spec on $ev"
	done <<<"$WAKE_HISTS"
}

# wakes_stop LABEL: this guest's histograms of the window into
# /out/wakes-GUEST-LABEL.txt, and the triggers off.
wakes_stop() {
	local t=/sys/kernel/tracing ev spec

	[ "$WAKES" = 1 ] || return 0
	: >"/out/wakes-$GUEST_NAME-$1.txt"
	while IFS=: read -r ev spec; do
		{ echo "== $ev"; cat "$t/events/$ev/hist"; } \
			>>"/out/wakes-$GUEST_NAME-$1.txt"
		echo "!$spec" >"$t/events/$ev/trigger"
	done <<<"$WAKE_HISTS"
}

# wakes_rpcs LABEL RPCS: the window's RPCs, counted after its end mark,
# for wakes.py to put the histograms per RPC.
wakes_rpcs() {
	[ "$WAKES" = 1 ] || return 0
	echo "rpcs $2" >>"/out/wakes-$GUEST_NAME-$1.txt"
}

# window_rpcs MARK RPCS: the RPCs sent in the window that MARK ended, for
# the peer (wakes_rpcs) and insn_profile.py: /out/cpurpcs-MARK.flag.
window_rpcs() {
	echo "$2" >"/out/cpurpcs-$1.tmp" &&
		mv "/out/cpurpcs-$1.tmp" "/out/cpurpcs-$1.flag"
}

# rdma_counters FILE: the RDMA devices' counters now ("NAME VALUE" lines,
# rdma statistic: packets, retries, NAKs, duplicates).
rdma_counters() {
	rdma statistic show 2>/dev/null | awk '{
		for (i = 3; i < NF; i += 2) print $2 ":" $i, $(i + 1) }' >"$1"
}

# rdma_counters_delta BEFORE AFTER WHO: the counters that moved, one line.
rdma_counters_delta() {
	awk -v who="$3" 'FNR == NR { b[$1] = $2; next }
		$2 - b[$1] != 0 { out = out " " $1 "=" $2 - b[$1] }
		END { print "  rdma counters (" who "):" (out ? out : " none moved") }' "$1" "$2"
}

# rpcs_sent: RPCs sent so far on every NFS mount's transports (mountstats).
rpcs_sent() {
	awk '$1 == "xprt:" { n += $8 } END { print n + 0 }' /proc/self/mountstats
}

# xprt_counts: the RPC-over-RDMA counters of every mount's transports,
# summed, as measure.py --xprt reads them: "SENDS READ_CHUNKS
# WRITE_CHUNKS REPLY_CHUNKS RDMA_REQUEST_BYTES RDMA_REPLY_BYTES" (the
# "xprt: rdma" line of mountstats, the same layout for either module),
# then "DATA_RPCS RSIZE WSIZE": the READ and WRITE RPCs completed
# (per-op statistics) and the largest rsize and wsize mounted, then
# "CONNECTS HARDWAY MRS": connections made, bytes of buffers grown past
# their first size and MRs allocated, then "RECVS DONE_RPCS": the
# replies received and the RPCs of every kind completed (per-op).
xprt_counts() {
	awk '$1 == "device" { perop = 0 }
	     $1 == "per-op" { perop = 1; next }
	     $1 == "xprt:" && $2 == "rdma" {
		s += $8; v += $9; r += $13; w += $14; p += $15; q += $16
		a += $17; c += $5; h += $20; m += $26 }
	     perop && $1 ~ /^[A-Z0-9_]+:$/ {
		t += $2
		if ($1 == "READ:" || $1 == "WRITE:") d += $2 }
	     $1 == "opts:" {
		n = split($2, o, ",")
		for (i = 1; i <= n; i++) {
			split(o[i], kv, "=")
			if (kv[1] == "rsize" && kv[2] > rs) rs = kv[2]
			if (kv[1] == "wsize" && kv[2] > ws) ws = kv[2]
		} }
	     END { print s + 0, r + 0, w + 0, p + 0, q + 0, a + 0, d + 0,
		   rs + 0, ws + 0, c + 0, h + 0, m + 0, v + 0, t + 0 }' \
		/proc/self/mountstats
}

# cpu_sampler: in the guest that does not run the jobs, answer mark N
# (flag cpumark-N, which holds "prep|begin|end LABEL [RPCS]") with
# "N BUSY ALL CTXT IRQS" in /out/cpu-peer.csv, in order, until killed.
cpu_sampler() {
	local n=1 what label ops wrpcs

	# Wait on an empty FIFO rather than fork a sleep twenty times a
	# second: this guest's own work during the jobs is what is measured.
	mkfifo /tmp/cpu_sampler.nap
	exec 9<>/tmp/cpu_sampler.nap
	text_ranges
	while :; do
		if [ -e "/out/cpumark-$n.flag" ]; then
			read -r what label ops _ <"/out/cpumark-$n.flag"
			echo "$n $(cpu_busy)" >>/out/cpu-peer.csv
			case $what in
			begin) rdma_counters /tmp/rdma.begin
			       wakes_start ;;
			end) wakes_stop "$label"
			     rdma_counters /tmp/rdma.end
			     rdma_counters_delta /tmp/rdma.begin /tmp/rdma.end \
				"$label, measured window" ;;
			esac
			if [ "$PROFILE" = 1 ]; then
				case $what in
				prep) profile_start ;;
				end) profile_stop "server-$label"
				     profile_report "server-$label" "${ops:-0}" ;;
				esac
			fi
			signal_peer "cpumarked-$n"
			if [ "$what" = end ] && [ "$WAKES" = 1 ]; then
				wait_peer "cpurpcs-$n" 120
				wakes_rpcs "$label" "$(cat "/out/cpurpcs-$n.flag")"
			fi
			n=$((n + 1))
		else
			read -r -t 0.05 -u 9 _ || :
		fi
	done
}

# cpu_mark prep|begin|end LABEL [RPCS OPS]: "BUSY ALL CTXT IRQS"
# (cpu_busy) now in this guest, then in the other, then the host CPU time
# of the client's and the server's QEMU in nanoseconds and, client then
# server, each count of insn-count.so in the order of host_cpu.py's
# FIELDS: the instructions executed in all, in rpcrdma.ko, rdma_rxe.ko,
# sunrpc.ko and ib_core.ko, then the iterations and the bytes of REP
# string instructions, in all and per module (selftests/bench/host_cpu.py
# answers each mark on the host; -1 for a count it does not have).  With BENCH_PROFILE=1, prep
# starts the profiler in both guests before the job starts and end
# stops it and reports it (RPCS: the RPCs sent in between).  OPS, the
# operations the job completed, is for BENCH_INSN_PROFILE's report; the
# RPCs sent between the begin and the end mark, counted after the end
# mark, follow it in /out/cpurpcs-N.flag (window_rpcs).
cpu_mark() {
	local own peer host

	CPU_MARK=$((CPU_MARK + 1))
	[ "$PROFILE" = 1 ] && case $1 in
	prep) profile_start ;;
	end) profile_stop "client-$2" ;;
	esac
	own=$(cpu_busy)
	echo "$1 $2 ${3:-} ${4:-} ${5:-}" >"/out/cpumark-$CPU_MARK.flag"
	wait_peer "cpumarked-$CPU_MARK" 120
	peer=$(awk -v n="$CPU_MARK" '$1 == n { print $2, $3, $4, $5 }' \
		/out/cpu-peer.csv)
	wait_peer "hostmarked-$CPU_MARK" 120
	host=$(awk -v n="$CPU_MARK" '$1 == n && $2 >= 0 && $3 >= 0 {
		$1 = ""; print substr($0, 2) }' /out/cpu-host.csv)
	[ "$PROFILE" = 1 ] && [ "$1" = end ] && profile_report "client-$2" "$3"
	echo "$own ${peer:?no CPU sample from the peer}" \
		"${host:?no CPU sample from the host}"
}

# round_order ROUND: the modules a round measures, in order.  Round 0
# warms both guests up with the stock module and counts for nothing:
# without it the first measurement after boot (cold page cache, slabs,
# fio and the NFS session being set up) fell to whichever module came
# first, ours, and cost its round up to a quarter.  Then the order
# alternates (ABBA).
round_order() {
	if [ "$1" = 0 ]; then
		echo stock
	elif [ $(($1 % 2)) = 1 ]; then
		echo "ours stock"
	else
		echo "stock ours"
	fi
}

# fio_result FILE bw|iops: "FIGURE OPS" from a fio JSON report, summed over its
# jobs: MiB/s for a sequential job, IOPS otherwise.
fio_result() {
	python3 -c 'import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
ops = sum(j[d]["total_ios"] for j in jobs for d in ("read", "write"))
if sys.argv[2] == "bw":
    v = sum(j[d]["bw"] for j in jobs for d in ("read", "write")) / 1024.0
else:
    v = sum(j[d]["iops"] for j in jobs for d in ("read", "write"))
print(round(v, 2), ops)' "$1" "$2"
}

# fio_job DIR RW BS DEPTH JOBS FIGURE: fio on DIR/bench.dat, RUNTIME
# seconds after a second of ramp; prints "FIGURE OPS" (OPS after the
# ramp).  /tmp/job.started appears when the I/O begins.
fio_job() {
	fio --name=bench --filename="$1/bench.dat" --size=64M --rw="$2" \
		--bs="$3" --iodepth="$4" --numjobs="$5" --ioengine=libaio \
		--direct=1 --time_based --ramp_time=1 --runtime="$RUNTIME" \
		--exec_prerun="touch /tmp/job.started" --output-format=json \
		--output=/tmp/fio.json >/dev/null || fail "fio $2 $3 failed"
	fio_result /tmp/fio.json "$6"
}

# mount_op_counts MOUNTPOINT: the NFS operations the mount sent so far
# and their counts, and its transport's counters (mountstats), so that
# two clients' RPCs per operation and chunk use can be compared.
mount_op_counts() {
	awk -v mp="$1" '
		$1 == "device" { mine = ($5 == mp) }
		mine && $1 == "xprt:" { print "  " $0 }
		mine && /per-op statistics/ { ops = 1; next }
		mine && ops && NF > 2 && $2 > 0 { out = out " " $1 $2 }
		END { print "  NFS ops:" out }
	' /proc/self/mountstats
}

# mount_op_times MOUNTPOINT: per NFS operation the mount sent so far, the
# average time an RPC waited before its first transmission, its round
# trip (transmission to reply) and its whole execution (mountstats), to
# tell time spent in the client's queue from time on the wire and the
# server.
mount_op_times() {
	awk -v mp="$1" '
		$1 == "device" { mine = ($5 == mp) }
		mine && /per-op statistics/ { ops = 1; next }
		mine && ops && NF >= 9 && $2 > 0 {
			printf "  %s %d RPCs, per RPC: queue %.3f ms, rtt %.3f ms, execute %.3f ms\n",
				$1, $2, $7 / $2, $8 / $2, $9 / $2
		}
	' /proc/self/mountstats
}

# metadata_job DIR: create, stat and unlink METADATA_FILES files in a
# fresh directory (a mount with actimeo=0, so every stat is a GETATTR);
# prints "OPS/S OPS".
metadata_job() {
	python3 - "$1/md" "$METADATA_FILES" <<-'EOF'
	import os, sys, time
	d, n = sys.argv[1], int(sys.argv[2])
	os.mkdir(d)
	open("/tmp/job.started", "w").close()
	t = time.monotonic()
	for i in range(n):
	    os.close(os.open(f"{d}/f{i}", os.O_CREAT | os.O_WRONLY, 0o644))
	for i in range(n):
	    os.stat(f"{d}/f{i}")
	for i in range(n):
	    os.unlink(f"{d}/f{i}")
	t = time.monotonic() - t
	os.rmdir(d)
	print(round(3 * n / t, 1), 3 * n)
	EOF
}

# measure ROUND MODULE JOB UNIT RAMP CMD...: run CMD (which prints
# "FIGURE OPS" and creates /tmp/job.started when its work begins), mark
# the window, and record the figure as JOB_UNIT with both guests' costs
# per operation and per RPC (measure.py names them).  The window opens
# RAMP seconds after the work began (when fio's ramp ends and it starts
# counting) and closes when CMD ends.
measure() {
	local round=$1 mod=$2 job=$3 unit=$4 ramp=$5 res ops pid wrpcs rpcs=
	shift 5

	rm -f /tmp/job.started /tmp/job.out
	text_syms
	if [ "$PROFILE" = 1 ]; then
		cpu_mark prep "$round-$mod-$job" >/dev/null ||
			fail "profiler did not start"
		rpcs=$(rpcs_sent)
	fi
	rdma_counters /tmp/rdma.before
	"$@" >/tmp/job.out &
	pid=$!
	while [ ! -e /tmp/job.started ]; do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	sleep "$ramp"
	wrpcs=$(rpcs_sent)
	xprt_counts >/tmp/xprt.begin
	cpu_mark begin "$round-$mod-$job" >/tmp/cpu.begin ||
		{ cat /tmp/cpu.begin; exit 1; }
	wakes_start
	wait "$pid" || fail "$job failed"
	[ -e /tmp/job.started ] || fail "$job never started"
	wakes_stop "$round-$mod-$job"
	# Nothing of the harness's between the job's end and the end mark
	# (BENCH_PROFILE's count aside): a read of mountstats there counted
	# sunrpc's printing of it in the goal figure, some 200 instructions
	# per 4 KiB RPC, and more per RPC for the module that made fewer.
	# fio is done, so what is read after the mark is the window's.
	read -r res </tmp/job.out || :
	ops=${res#* }
	[ "$PROFILE" = 1 ] && rpcs=$(( $(rpcs_sent) - rpcs ))
	cpu_mark end "$round-$mod-$job" "${rpcs:-0}" "$ops" >/tmp/cpu.end ||
		{ cat /tmp/cpu.end; exit 1; }
	wrpcs=$(( $(rpcs_sent) - wrpcs ))
	window_rpcs "$CPU_MARK" "$wrpcs"
	xprt_counts >/tmp/xprt.end
	wakes_rpcs "$round-$mod-$job" "$wrpcs"
	rdma_counters /tmp/rdma.after
	[ "$ops" -gt 0 ] || fail "$job: no operations completed"
	[ "$wrpcs" -gt 0 ] || fail "$job: no RPCs in the measured window"
	# The arithmetic: selftests/bench/measure.py.
	python3 "$RPCRDMA_TOP/selftests/bench/measure.py" \
		--xprt /tmp/xprt.begin /tmp/xprt.end "$round" "$mod" \
		"$job" "$unit" "${res% *}" "$ops" "$wrpcs" /tmp/cpu.begin \
		/tmp/cpu.end || fail "$job: its figures could not be worked out"
	rdma_counters_delta /tmp/rdma.before /tmp/rdma.after "this guest, whole job"
}

wanted() {
	case " $BENCH_JOBS " in *" $1 "*) return 0 ;; esac
	return 1
}

# bench_round ROUND MODULE: mount, every job BENCH_JOBS names, unmount.
bench_round() {
	nfs_mount 4.2 192.0.2.1 /mnt
	# Lay the file out once, outside the measurement.
	[ -e /mnt/bench.dat ] ||
		dd if=/dev/zero of=/mnt/bench.dat bs=1M count=64 status=none
	wanted write && measure "$1" "$2" seq_write MBps 1 \
		fio_job /mnt write 1M 4 1 bw
	wanted read && measure "$1" "$2" seq_read MBps 1 \
		fio_job /mnt read 1M 4 1 bw
	wanted randread && measure "$1" "$2" rand_read_4k iops 1 \
		fio_job /mnt randread 4k 16 1 iops
	wanted randwrite && measure "$1" "$2" rand_write_4k iops 1 \
		fio_job /mnt randwrite 4k 16 1 iops
	mount_op_times /mnt
	umount /mnt
	if wanted metadata; then
		mkdir -p /mnt
		mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_PORT,actimeo=0" \
			192.0.2.1:/ /mnt || fail "metadata mount failed"
		measure "$1" "$2" metadata ops_per_s 0 metadata_job /mnt
		mount_op_counts /mnt
		umount /mnt
	fi
	if wanted nconnect; then
		mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_PORT,nconnect=4" \
			192.0.2.1:/ /mnt || fail "nconnect=4 mount failed"
		measure "$1" "$2" nconnect4_rand_read_4k iops 1 \
			fio_job /mnt randread 4k 8 4 iops
		umount /mnt
	fi
}
