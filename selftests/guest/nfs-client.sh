# SPDX-License-Identifier: GPL-2.0
# Guest "client": our rpcrdma.ko ($RPCRDMA_KO), or the stock one with
# CLIENT_MODULE=stock, as the NFS client transport against the server
# guest (nfs-server.sh).  After loading the module and enabling its
# tracepoints, it runs the client half of each step the test lists in
# STEPS (nfs-steps.sh: inline_matrix, nfs_utils, rdma6, fio_verify, ...),
# then leaves files for the server to check from its side, checks that
# the trace shows every kind of event the workload must have caused
# (our module), unmounts, unloads and checks dmesg.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"
. "$RPCRDMA_TOP/selftests/guest/nfs-steps.sh"

# Each size once: a BIG_FILE equal to a listed size would write its file
# twice and leave two checksums for one name.
SIZES=$(printf '%s\n' 0 1 1023 1024 1025 4095 4096 4097 65536 1048576 \
	"${BIG_FILE:-8388608}" | sort -un | tr '\n' ' ')
DIR_ENTRIES=${DIR_ENTRIES:-3000}

# The client's events, under the stock module's trace system and names
# (rpcrdma:xprtrdma_*), recorded through the whole workload.
CLIENT_EVENTS="xprtrdma_connect xprtrdma_disconnect xprtrdma_marshal
	xprtrdma_reply xprtrdma_mr_reminv xprtrdma_inline_thresh
	xprtrdma_post_recvs xprtrdma_cm_event"
TRACE=/sys/kernel/tracing

client_trace_start() {
	local ev

	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	echo 32768 >$TRACE/buffer_size_kb
	for ev in $CLIENT_EVENTS; do
		echo 1 >"$TRACE/events/rpcrdma/$ev/enable" ||
			fail "no rpcrdma:$ev tracepoint"
	done
}

# The inline thresholds each connection negotiated, in a trace instance
# of their own: rendering the main buffer is slow on the debug kernel.
THRESH=$TRACE/instances/thresh

thresh_trace_start() {
	mountpoint -q $TRACE || mount -t tracefs nodev $TRACE
	mkdir -p $THRESH
	echo 1 >$THRESH/events/rpcrdma/xprtrdma_inline_thresh/enable ||
		fail "no rpcrdma:xprtrdma_inline_thresh tracepoint"
	[ "${CLIENT_MODULE:-ours}" = stock ] ||
		echo 1 >$THRESH/events/rpcrdma/xprtrdma_createmrs/enable ||
		fail "no rpcrdma:xprtrdma_createmrs tracepoint"
}

# expect_mr_refill: our client made MRs in its refill work, outside the
# I/O path, since tracing began (xprtrdma_createmrs "(refill)").
expect_mr_refill() {
	grep -q "new MRs=[1-9][0-9]* (refill)" $THRESH/trace ||
		fail "no MR pool was refilled by its work item: $(grep -c createmrs $THRESH/trace) xprtrdma_createmrs events, none (refill)"
}

# thresh_value WORDS [N]: on the newest xprtrdma_inline_thresh line that
# has WORDS, the Nth (default first) of the numbers after them that "/"
# separates.  Both modules' events print "send/recv=SEND/RECV" for the
# negotiated thresholds first; ours adds "receive buffers N" and
# "header buffers N".
thresh_value() {
	awk -v w="$1" -v n="${2:-1}" '{ i = index($0, w); if (!i) next
		split(substr($0, i + length(w)), t, "/"); v = t[n] + 0 }
		END { print v }' $THRESH/trace
}

# inline_send: the call inline threshold of the newest connection.
inline_send() {
	thresh_value "send/recv="
}

# Count the lines of event $1 in the trace that match the regex $2.
client_trace_count() {
	grep -cE " $1: .*$2" /tmp/client-trace.txt
}

# Every kind of event the workload must have caused, with sane fields.
client_trace_check() {
	local kind kinds ev posts replies v6

	# One copy of the buffer for every count: rendering it again for
	# each one is slow on the debug kernel.
	cp $TRACE/trace /tmp/client-trace.txt
	cp /tmp/client-trace.txt /out/client-trace.txt
	# Calls: inline, data item in a Read chunk, and (with NFSv4.2's
	# xattr step) Long Call; replies: Write list and Reply chunk.
	kinds=" inline/inline| read list/|/write list|/reply chunk"
	case " ${NFS_VERSIONS:-4.2} " in
	*" 4.2 "*) kinds="$kinds|\\*read list/" ;;
	esac
	# (The inline_matrix step sends every kind.)
	has_step inline_matrix || kinds=" inline/inline"
	while IFS= read -r kind; do
		[ "$(client_trace_count xprtrdma_marshal "xid=0x[0-9a-f]{8} .*$kind")" -gt 0 ] ||
			fail "no xprtrdma_marshal event of kind '$kind'"
	done <<-EOF
	$(echo "$kinds" | tr '|' '\n')
	EOF
	[ "$(client_trace_count xprtrdma_connect 'peer=\[192.0.2.1\]:20049 rc=0')" -gt 0 ] ||
		fail "no successful xprtrdma_connect to 192.0.2.1:20049"
	# (The rdma6 step connects over IPv6.)
	v6=0
	has_step rdma6 && v6=1
	[ "$v6" = 0 ] ||
	[ "$(client_trace_count xprtrdma_connect 'peer=\[2001:db8::1\]:20049 rc=0')" -gt 0 ] ||
		fail "no successful xprtrdma_connect over IPv6"
	[ "$(client_trace_count xprtrdma_disconnect 'peer=\[')" -gt 0 ] ||
		fail "no xprtrdma_disconnect event"
	# The RDMA-CM events, with the peer's address as both roles print it.
	[ "$(client_trace_count xprtrdma_cm_event 'peer=192\.0\.2\.1:20049 event=established status=0')" -gt 0 ] &&
	{ [ "$v6" = 0 ] ||
	  [ "$(client_trace_count xprtrdma_cm_event 'peer=\[2001:db8::1\]:20049 event=established status=0')" -gt 0 ]; } ||
		fail "no xprtrdma_cm_event for an established connection (IPv4 and IPv6)"
	[ "$(client_trace_count xprtrdma_reply 'xid=0x[0-9a-f]{8} credits=[1-9]')" -gt 0 ] ||
		fail "no xprtrdma_reply event with a credit grant"
	[ "$(client_trace_count xprtrdma_reply 'remotely-invalidated')" -gt 0 ] &&
	[ "$(client_trace_count xprtrdma_mr_reminv 'xid=0x')" -gt 0 ] ||
		fail "no reply came with Send With Invalidate (xprtrdma_mr_reminv)"
	[ "$(client_trace_count xprtrdma_inline_thresh '')" -gt 0 ] ||
		fail "no xprtrdma_inline_thresh event"
	# Receives go back in batches (xprtrdma/reply.c): one post for
	# many replies.
	posts=$(client_trace_count xprtrdma_post_recvs ' new recvs')
	replies=$(client_trace_count xprtrdma_reply 'xid=0x')
	[ "$posts" -gt 0 ] && [ $((posts * 4)) -lt "$replies" ] ||
		fail "Receives are not reposted in batches: $posts posts for $replies replies"
	for ev in $CLIENT_EVENTS; do
		echo "trace: $ev $(client_trace_count "$ev" '')"
	done
}

test_begin
rdma_link eth0
if [ "${CLIENT_MODULE:-ours}" = stock ]; then
	# Same workload through the kernel's own module, for comparison.
	load_stock_rpcrdma
else
	load_our_rpcrdma "$RPCRDMA_KO"
	[ -e /proc/sys/sunrpc/rdma_max_inline_read ] ||
		fail "our module did not register its client tunables"
	client_trace_start
	# The stock module's other tunables, with its ranges.
	for t in rdma_inline_write_padding rdma_memreg_strategy rdma_pad_optimize; do
		[ -w "/proc/sys/sunrpc/$t" ] || fail "no tunable $t"
	done
	[ "$(cat /proc/sys/sunrpc/rdma_memreg_strategy)" = 5 ] ||
		fail "rdma_memreg_strategy is not FRWR (5) by default"
	! echo 7 2>/dev/null >/proc/sys/sunrpc/rdma_memreg_strategy ||
		fail "rdma_memreg_strategy accepted 7, above its maximum"
fi
thresh_trace_start
wait_peer server-ready 120
run_steps client

step "NFSv4.2: files left for the server to check from its side"
nfs_mount 4.2 192.0.2.1 /mnt
rm -f /mnt/f.*
write_files /mnt $SIZES
umount /mnt
cp /tmp/sums /out/client.sums
[ "${CLIENT_MODULE:-ours}" = stock ] || client_trace_check
signal_peer client-finished
unload_rpcrdma
test_end
step "clean"
