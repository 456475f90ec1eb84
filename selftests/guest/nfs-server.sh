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
	mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing
	for ev in accept queues bc_call bc_reply decode_short_err decode_badvers_err \
		  decode_drop_err decode_badproc_err decode_parse_err err_vers \
		  err_chunk reply_too_big close read_error send_err rq_starve \
		  send_grow wc_send_err sq_full sq_retry cm_event grant \
		  grant_budget grant_fall grant_share; do
		echo 1 >"/sys/kernel/tracing/events/rpcrdma/svcrdma_$ev/enable" ||
			fail "no rpcrdma:svcrdma_$ev tracepoint"
	done
	for ev in nfsd_cb_setup nfsd_cb_setup_err nfsd_cb_new_state nfsd_cb_recall; do
		echo 1 2>/dev/null >"/sys/kernel/tracing/events/nfsd/$ev/enable"
	done
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
signal_peer server-ready
run_steps server
wait_peer client-finished "${PEER_TIMEOUT:-0}"
[ -z "${sampler:-}" ] || kill "$sampler"
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
