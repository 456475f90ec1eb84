# SPDX-License-Identifier: GPL-2.0
# Guest "server": the kernel NFS server over soft-RoCE (or siw), with our
# rpcrdma (SERVER_MODULE=ours, the default) or the stock one
# (SERVER_MODULE=stock).  Serves until the client is done, running the
# server half of each step the test lists in STEPS (nfs-steps.sh); with
# CPU_SAMPLER=1 (make bench) it answers the client's CPU marks.  At the
# end the files the client wrote must read back from the export, `rpc.nfsd
# 0` must close everything so the module unloads, and the kernel log (and
# kmemleak with CHECK_KMEMLEAK=1) must be clean; with ours, the server's
# counters and tracepoints must also show what the traffic should have
# done.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"
. "$RPCRDMA_TOP/selftests/guest/nfs-steps.sh"

module=${SERVER_MODULE:-ours}

svc_stat() {
	cat "/proc/sys/sunrpc/svc_rdma/$1"
}

# Count the events svcrdma_NAME (rpcrdma trace system) recorded since the
# start; NAME is an extended regular expression.
# The trace as it was when the client finished: rendering the live
# buffer again for each count is slow on the debug kernel.
SERVER_TRACE=/tmp/server-trace.txt

trace_count() {
	grep -cE " svcrdma_($1):" "$SERVER_TRACE"
}

# The distinct values of field $2 of event svcrdma_$1, on one line.
trace_values() {
	grep -o " svcrdma_$1:.* $2=[0-9]*" "$SERVER_TRACE" |
		sed "s/.* $2=//" | sort -un | tr '\n' ' '
}

# Our module: load it, check its tunables' bounds and enable its events.
our_server_setup() {
	load_our_rpcrdma "$RPCRDMA_KO"
	[ -e /proc/sys/sunrpc/svc_rdma/max_requests ] ||
		fail "our module did not register its server tunables"
	grep -qw rdma /proc/sys/sunrpc/transports ||
		fail "no rdma server transport in /proc/sys/sunrpc/transports"
	! echo 8 2>/dev/null >/proc/sys/sunrpc/svc_rdma/max_requests ||
		fail "max_requests accepted 8, below its minimum"
	! echo 1000000 2>/dev/null >/proc/sys/sunrpc/svc_rdma/max_req_size ||
		fail "max_req_size accepted 1000000, above its maximum"
	! echo 0 2>/dev/null >/proc/sys/sunrpc/svc_rdma/sq_stall_timeout ||
		fail "sq_stall_timeout accepted 0, below its minimum"
	[ "$(cat /proc/sys/sunrpc/svc_rdma/sq_stall_timeout)" = 10 ] ||
		fail "sq_stall_timeout is not 10 s by default"
	if [ -n "${SQ_STALL_TIMEOUT:-}" ]; then
		echo "$SQ_STALL_TIMEOUT" >/proc/sys/sunrpc/svc_rdma/sq_stall_timeout
	fi
	[ "$(cat /proc/sys/sunrpc/svc_rdma/credit_quiet_timeout)" = 5 ] ||
		fail "credit_quiet_timeout is not 5 s by default"
	! echo 3601 2>/dev/null >/proc/sys/sunrpc/svc_rdma/credit_quiet_timeout ||
		fail "credit_quiet_timeout accepted 3601, above its maximum"
	# The bounds on RDMA Reads (svcrdma/read_budget.c).  A module
	# without them gets past here, so that test 70's read-stall checks
	# can say what it does with Reads that are never answered.
	if [ -e /proc/sys/sunrpc/svc_rdma/read_timeout ]; then
		! echo 0 2>/dev/null >/proc/sys/sunrpc/svc_rdma/read_timeout ||
			fail "read_timeout accepted 0, below its minimum"
		[ "$(cat /proc/sys/sunrpc/svc_rdma/read_timeout)" = 10 ] ||
			fail "read_timeout is not 10 s by default"
		[ "$(cat /proc/sys/sunrpc/svc_rdma/read_budget)" -gt 0 ] ||
			fail "read_budget is 0 by default"
	else
		echo "no read_timeout sysctl: this module does not bound RDMA Reads"
	fi
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
	for ev in accept queues bc_call bc_reply decode_short_err decode_badvers_err \
		  decode_drop_err decode_badproc_err decode_parse_err err_vers \
		  err_chunk reply_too_big close read_error send_err rq_starve \
		  send_grow wc_send_err sq_full sq_retry cm_event grant \
		  grant_budget grant_fall grant_share; do
		echo 1 >"/sys/kernel/tracing/events/rpcrdma/svcrdma_$ev/enable" ||
			fail "no rpcrdma:svcrdma_$ev tracepoint"
	done
	for ev in read_hold read_stall; do
		echo 1 2>/dev/null >"/sys/kernel/tracing/events/rpcrdma/svcrdma_$ev/enable" ||
			echo "no rpcrdma:svcrdma_$ev tracepoint"
	done
	for ev in nfsd_cb_setup nfsd_cb_setup_err nfsd_cb_new_state nfsd_cb_recall; do
		echo 1 2>/dev/null >"/sys/kernel/tracing/events/nfsd/$ev/enable"
	done
}

# KiB of memory in use (neither free nor page cache), caches dropped first.
mem_used_kib() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 }
	     /^Buffers:/ { b = $2 } /^Cached:/ { c = $2 }
	     END { print t - f - b - c }' /proc/meminfo
}

# KiB of memory available, not counting the export's files: the export
# is a tmpfs (Shmem), which the mount's writer grows meanwhile by a MiB
# a write in its first round.
mem_available_kib() {
	awk '/^MemAvailable:/ { a = $2 } /^Shmem:/ { s = $2 }
	     END { print a + s }' /proc/meminfo
}

# The hostile peer's server connections (from 192.0.2.2 with a Read
# depth of 1; the stock mount's have more) in /proc/net/rpcrdma: how
# many, the most pages of RDMA Reads in flight on one ("-" if the file
# has no read_pages column), and how many are closing.
peer_read_pages() {
	awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "read_pages") col = i
		       next }
	     $1 == "server" && $3 ~ /^192\.0\.2\.2:/ && $10 == 1 {
		n++; if (col && $col + 0 > max) max = $col + 0
		if ($4 == "closing") c++ }
	     END { print n + 0, col ? max + 0 : "-", c + 0 }' /proc/net/rpcrdma
}

# read_stall_watch: the server's half of the hostile peer's read-stall
# case (selftests/peer/cases.py read_stall, with --sync-dir /out), in
# the background.  When the peer begins, read_timeout goes to 1 s for
# the connection it makes next (soft-RoCE's own retries end an
# unanswered Read after a few seconds: ours must act first) and the
# memory in use is read; while the peer's calls wait for Reads its
# adapter never answers, /proc/net/rpcrdma and MemAvailable are read
# every 0.2 s; once the connection is gone, the memory in use is read
# again.  The figures go to /tmp/read-stall.result for
# read_stall_checks.  Ends when the client finishes if the case never
# runs.
read_stall_watch() {
	local f=/proc/sys/sunrpc/svc_rdma/read_timeout old=none conns base
	local avail min_avail max=0 line now closing i asked after

	until [ -e /out/read-stall-begin.flag ]; do
		[ -e /out/client-finished.flag ] && return 0
		sleep 0.5
	done
	if [ -e "$f" ]; then
		old=$(cat "$f")
		echo 1 >"$f"
	fi
	conns=$(peer_read_pages | cut -d' ' -f1)
	base=$(mem_used_kib)
	avail=$(mem_available_kib)
	min_avail=$avail
	# The peer sizes its Read chunks by nfsd's largest payload, so that
	# its grant of calls asks for more than the connection's limit
	# (twice a largest Call) whatever grant it reached.
	if cat /proc/fs/nfsd/max_block_size >/out/read-stall-ready.tmp; then
		mv /out/read-stall-ready.tmp /out/read-stall-ready.flag
	else
		signal_peer read-stall-ready
	fi
	until [ -e /out/read-stall-closed.flag ] ||
	      [ -e /out/client-finished.flag ]; do
		now=$(peer_read_pages | cut -d' ' -f2)
		if [ "$now" = - ]; then
			max=-
		elif [ "$max" != - ] && [ "$now" -gt "$max" ]; then
			max=$now
		fi
		if [ -e /out/read-stall-sent.flag ]; then
			now=$(mem_available_kib)
			[ "$now" -ge "$min_avail" ] || min_avail=$now
		fi
		sleep 0.2
	done
	# Until the connection is freed, and its pages with it.
	for i in $(seq 150); do
		read -r now line closing < <(peer_read_pages)
		[ "$now" -gt "$conns" ] || [ "$closing" -gt 0 ] || break
		sleep 0.2
	done
	[ "$old" = none ] || echo "$old" >"$f"
	after=$(mem_used_kib)
	asked=$(cat /out/read-stall-sent.flag 2>/dev/null)
	echo "$base $after $avail $min_avail ${asked:-0} $max $old" \
		>/tmp/read-stall.result
	signal_peer read-stall-measured
}

# The hostile peer's share-keys case connected from six addresses of
# 2001:db8::/64 at once, with the stamping mount and the peer's shared
# connection open from 192.0.2.2: the six must have one share key, the
# /64, and the server must never have counted more than those two
# clients (the svcrdma_accept events' share= and clients=).
share_keys_checks() {
	local accepts keys most

	accepts=$(grep -E ' svcrdma_accept: peer=\[?2001:db8::5:' "$SERVER_TRACE")
	echo "$accepts" | sed -n 's/.*\(peer=[^ ]*\).*\(share=.*\)/\1 \2/p'
	[ "$(echo "$accepts" | grep -c share=)" -ge 6 ] ||
		fail "fewer than six svcrdma_accept events for the share-keys case's addresses"
	keys=$(echo "$accepts" | grep -oE 'share=[^ ]+' | sort -u | xargs)
	[ "$keys" = "share=2001:db8::/64" ] ||
		fail "one host's six addresses of 2001:db8::/64 made the share keys: $keys"
	most=$(echo "$accepts" | grep -oE 'clients=[0-9]+' | cut -d= -f2 |
		sort -n | tail -1)
	[ "$most" -le 2 ] ||
		fail "with two client hosts connected, the budget was shared $most ways"
}

# What read_stall_watch saw, and the server's count and trace of the
# close: the connection whose Reads went unanswered was closed by
# read_timeout (not by the QP's own retries), it never had more pages of
# Reads in flight than its limit (the calls beyond it waited, held), and
# the memory in use came back.  $1: rdma_stat_read_stall.
read_stall_checks() {
	local why="" base after avail min_avail asked max old ev pages limit=
	local pinned

	[ -e /tmp/read-stall.result ] ||
		fail "the hostile peer's read-stall case did not run its server half"
	read -r base after avail min_avail asked max old </tmp/read-stall.result
	pinned=$((avail - min_avail))
	echo "read-stall: memory in use ${base} KiB before, ${after} KiB once the connection was gone"
	echo "read-stall: MemAvailable (less the export's tmpfs) fell by ${pinned} KiB at most while the peer's ${asked} KiB of Read chunks went unread; read_pages peaked at ${max}"
	grep -E ' svcrdma_(read_stall|close):.*Read' "$SERVER_TRACE" | head -4
	grep ' svcrdma_read_hold:' "$SERVER_TRACE" | head -2
	[ "$old" != none ] || why="$why; no read_timeout sysctl"
	[ "$1" != missing ] && [ "$1" -gt 0 ] ||
		why="$why; no connection was closed for unanswered RDMA Reads (rdma_stat_read_stall $1)"
	ev=$(grep -oE ' svcrdma_read_stall: .* pages=[0-9]+ limit=[0-9]+' \
		"$SERVER_TRACE" | head -1)
	if [ -z "$ev" ]; then
		why="$why; no svcrdma_read_stall event"
	else
		pages=${ev##* pages=}
		pages=${pages%% *}
		limit=${ev##*limit=}
		[ "$pages" -le "$limit" ] ||
			why="$why; $pages pages of Reads in flight at the close, over the limit of $limit"
	fi
	grep -q ' svcrdma_read_hold: .* held: connection limit' "$SERVER_TRACE" ||
		why="$why; no call was held for the connection's limit"
	if [ "$max" = - ]; then
		why="$why; /proc/net/rpcrdma has no read_pages column"
	elif [ -n "${limit:-}" ] && [ "$max" -gt "$limit" ]; then
		why="$why; read_pages reached $max, over the limit of $limit"
	fi
	[ $((after - base)) -le 16384 ] ||
		why="$why; $((after - base)) KiB more in use once the connection was gone"
	# What the connection's limit lets its Reads pin (512 pages on these
	# guests, 514 with nfsd's 1 MiB payload), and a few MiB of noise from the mount's
	# writer; a server that reads every chunk at once pins far more
	# (as many MiB as the peer's calls until its Send Queue is full).
	[ "$pinned" -le $((${limit:-514} * 4 + 8192)) ] ||
		why="$why; MemAvailable (less the export's tmpfs) fell by ${pinned} KiB while ${asked} KiB of Read chunks went unread, more than ${limit:-514} pages and 8 MiB"
	[ -z "$why" ] || fail "read-stall: ${why#; }"
}

# Our module, after the client finished: its counters and tracepoints
# must show what the traffic should have done.
our_server_checks() {
	for s in recv read write sq_prod sq_poll rq_prod sq_starve sq_stall; do
		echo "rdma_stat_$s $(svc_stat "rdma_stat_$s")"
	done
	[ "$(svc_stat rdma_stat_recv)" -gt 0 ] || fail "rdma_stat_recv did not count"
	[ "$(svc_stat rdma_stat_read)" -gt 0 ] || fail "rdma_stat_read did not count (Read chunks)"
	[ "$(svc_stat rdma_stat_write)" -gt 0 ] || fail "rdma_stat_write did not count (Write/Reply chunks)"
	# Small replies share one Send completion per batch (svcrdma/send.c):
	# fewer Send completions than Calls received, by a margin.
	batches=$(trace_values queues send_batch)
	echo "Send batches: $batches"
	for b in $batches; do
		[ "$b" -gt 1 ] || fail "a connection signals every Send (send_batch $b)"
	done
	[ $(( $(svc_stat rdma_stat_sq_poll) * 10 )) -lt $(( $(svc_stat rdma_stat_recv) * 9 )) ] ||
		fail "Send completions are not batched: $(svc_stat rdma_stat_sq_poll) for $(svc_stat rdma_stat_recv) Calls"
	# Receives are reposted in batches too (svcrdma/recv.c).
	batches=$(trace_values queues recv_batch)
	echo "Receive batches: $batches"
	[ -n "$batches" ] || fail "no svcrdma_queues event gives a recv_batch"
	for b in $batches; do
		[ "$b" -gt 1 ] || fail "a connection reposts each Receive alone (recv_batch $b)"
	done
	# A connection is closed when its Send Queue retires nothing for 10 s
	# while a reply waits for room (svcrdma/rw.c): never for a Linux client,
	# always for the hostile peer's send-queue-stall case
	# (EXPECT_SQ_STALL=yes; "any" when it may not run).
	stalls=$(svc_stat rdma_stat_sq_stall)
	case "${EXPECT_SQ_STALL:-no}" in
	no) [ "$stalls" = 0 ] || fail "$stalls connections closed for a stalled Send Queue" ;;
	yes) [ "$stalls" -gt 0 ] || fail "no connection was closed for a stalled Send Queue" ;;
	esac
	# A connection whose oldest RDMA Read goes read_timeout unanswered is
	# closed (svcrdma/read_budget.c): never a Linux client's, always the
	# connection of the hostile peer's read-stall case
	# (EXPECT_READ_STALL=yes; "any" when it may not run).
	stalls=$(svc_stat rdma_stat_read_stall 2>/dev/null || echo missing)
	echo "rdma_stat_read_stall $stalls rdma_stat_read_hold $(svc_stat rdma_stat_read_hold 2>/dev/null || echo missing)"
	case "${EXPECT_READ_STALL:-no}" in
	no) [ "$stalls" = 0 ] || fail "rdma_stat_read_stall: $stalls connections closed for unanswered RDMA Reads" ;;
	yes) read_stall_checks "$stalls" ;;
	esac
	# One client host is one share of the credit budget however many
	# addresses of its IPv6 /64 it shows (svcrdma/credits.c): always
	# for the hostile peer's share-keys case (EXPECT_SHARE_KEYS=yes;
	# "any" when it may not run).
	[ "${EXPECT_SHARE_KEYS:-no}" = yes ] && share_keys_checks
	# A Send context's header buffer holds a transport header and grows only
	# for a reply that has to be copied (svcrdma/send.c): never for a Linux
	# client on soft-RoCE or siw, always for the hostile peer's reply in
	# three pieces (EXPECT_SEND_GROW=yes; "any" when it may not run).
	grows=$(trace_count send_grow)
	echo "Send contexts grown for a copied reply: $grows"
	case "${EXPECT_SEND_GROW:-no}" in
	no) [ "$grows" = 0 ] || fail "$grows Send contexts grew for a copied reply" ;;
	yes) [ "$grows" -gt 0 ] || fail "no Send context grew for a reply in three pieces" ;;
	esac
	echo "tracepoints: $(trace_count accept) accepts, $(trace_count bc_call) callbacks, $(trace_count bc_reply) callback replies, $(trace_count 'decode_[a-z]+_err') decode errors"
	[ "$(trace_count accept)" -gt 0 ] || fail "no svcrdma_accept event"
	grep -qE ' svcrdma_cm_event: peer=192\.0\.2\.2:[0-9]+ event=established status=0' \
		"$SERVER_TRACE" || fail "no svcrdma_cm_event for an established connection"
	# The kernel's clients offer many responder resources: more than one
	# RDMA Read may be in flight (the CM reports them as our initiator
	# depth).  CHECK_ORD=0 for peers that offer one.
	ords=$(trace_values accept ord)
	echo "negotiated Read depths (ORD): $ords"
	if [ "${CHECK_ORD:-1}" = 1 ]; then
		for ord in $ords; do
			[ "$ord" -gt 1 ] || fail "a connection was accepted with ORD $ord"
		done
	fi
	if has_step server_faults; then
		for point in read_chunks send; do
			[ "$(cat "/sys/kernel/debug/rpcrdma/fail_server_$point/times")" = 0 ] ||
				fail "the $point fault was never hit"
		done
		[ "$(trace_count read_error)" -gt 0 ] && [ "$(trace_count send_err)" -gt 0 ] ||
			fail "no svcrdma_read_error/svcrdma_send_err event for the faults"
	fi
	# A grant starts at 8 and grows by a Receive batch while the client
	# keeps its credits in use (svcrdma/recv.c): fio_verify's writer with
	# 64 I/Os in flight must take one connection to max_requests, which
	# it reaches only if the client sends more Calls at once each time
	# the grant grows.  The budget is never spent for one client.
	if has_step fio_verify; then
		max=$(svc_stat max_requests)
		grep -E " svcrdma_grant: .* -> $max \(" "$SERVER_TRACE" | head -3
		grep -qE " svcrdma_grant: peer=192\.0\.2\.2:[0-9]+ grant [0-9]+ -> $max \([0-9]+ messages held\)" \
			"$SERVER_TRACE" ||
			{ grep ' svcrdma_grant:' "$SERVER_TRACE" | tail -5
			  fail "no connection's grant grew to max_requests ($max) under fio's load"; }
		has_step credit_share || [ "$(trace_count grant_budget)" = 0 ] ||
			fail "the credit budget was spent by one client"
		# fio_verify's reads one at a time then take it back down.
		grep -E " svcrdma_grant_fall: .* -> 8 \(" "$SERVER_TRACE" | head -2
		grep -qE " svcrdma_grant_fall: peer=192\.0\.2\.2:[0-9]+ grant [0-9]+ -> 8 \([0-9]+ messages held\): idle" \
			"$SERVER_TRACE" ||
			{ grep ' svcrdma_grant' "$SERVER_TRACE" | tail -5
			  fail "no connection's grant fell back to 8 when its load did"; }
	fi
	# credit_share: the grants say why each client's credits moved: both
	# clients' connections fell to the floor for being quiet, then, in the
	# second round (after the step's trace marker), the nconnect=16
	# client's for holding more than its share.
	if has_step credit_share; then
		grep -E ' svcrdma_grant_(fall|share|budget): ' "$SERVER_TRACE" |
			sort -u -k2 | head -6
		for peer in 192.0.2.2 192.0.2.12; do
			grep -qE " svcrdma_grant_fall: peer=${peer//./\\.}:[0-9]+ grant [0-9]+ -> 8 \([0-9]+ messages held\): quiet" \
				"$SERVER_TRACE" ||
				fail "no connection of client $peer fell to 8 for being quiet"
		done
		sed -n '/credit_share: second round/,$p' "$SERVER_TRACE" >/tmp/share-round2
		grep -q . /tmp/share-round2 ||
			fail "no 'credit_share: second round' marker in the trace"
		grep -qE " svcrdma_grant_fall: peer=192\.0\.2\.2:[0-9]+ grant [0-9]+ -> [0-9]+ \([0-9]+ messages held\): its client holds more than its share" \
			/tmp/share-round2 ||
			fail "no connection of the nconnect=16 client fell for holding more than its share"
		grep -qE " svcrdma_grant_(budget|share): peer=192\.0\.2\.12:" /tmp/share-round2 ||
			fail "no event says why the one-connection client's grant waited"
		one=$(grep -oE " svcrdma_grant: peer=192\.0\.2\.12:[0-9]+ grant [0-9]+ -> [0-9]+" \
			/tmp/share-round2 | awk '{ print $NF }' | sort -n | tail -1)
		echo "the one-connection client's grant reached ${one:-8}"
		[ "${one:-8}" -ge 32 ] ||
			fail "the one-connection client's grant reached ${one:-8}, not its share of the budget less a batch (32)"
	fi
	if has_step delegation_recall; then
		# The recall (CB_RECALL) went to the client over our connection.
		[ "$(trace_count bc_call)" -gt 0 ] && [ "$(trace_count bc_reply)" -gt 0 ] ||
			{ grep -E 'nfsd_cb|svcrdma_bc' "$SERVER_TRACE" | tail -20
			  fail "no backchannel call and reply went over RDMA"; }
	fi
}

test_begin
rdma_link eth0
if [ "$module" = ours ]; then
	our_server_setup
else
	load_stock_rpcrdma
	STOCK_SERVER=1
fi
step "NFS server on 192.0.2.1 and 2001:db8::1, rdma port $NFS_PORT, $module rpcrdma"
nfs_server_start
cat /proc/fs/nfsd/portlist
if [ "${CPU_SAMPLER:-0}" = 1 ]; then
	. "$RPCRDMA_TOP/selftests/guest/bench-lib.sh"
	cpu_sampler &
	sampler=$!
fi
if [ "$module" = ours ] && [ "${READ_STALL_WATCH:-0}" = 1 ]; then
	read_stall_watch &
	watcher=$!
fi
signal_peer server-ready
run_steps server
wait_peer client-finished "${PEER_TIMEOUT:-0}"
[ -z "${sampler:-}" ] || kill "$sampler"
[ -z "${watcher:-}" ] || wait "$watcher"
if [ "$module" = ours ]; then
	# Kept with the logs: what the server saw (the events enabled above).
	cp /sys/kernel/tracing/trace "$SERVER_TRACE"
	cp "$SERVER_TRACE" /out/server-trace.txt
fi
step "checking what the client wrote, from the server's side"
cp /out/client.sums /tmp/sums && verify_files "$EXPORT"
if [ "$module" = ours ]; then
	our_server_checks
fi
step "rpc.nfsd 0 closes every connection; the module unloads"
nfs_server_stop
unload_rpcrdma
test_end
step "clean"
