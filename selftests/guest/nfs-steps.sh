# SPDX-License-Identifier: GPL-2.0
# The NFS scenario steps of nfs-client.sh and nfs-server.sh.  A test names
# the steps it runs in STEPS, in order, and passes that list to both
# guests; each guest runs its half of every step (client_step_NAME,
# server_step_NAME, where the step has one), and the halves meet through
# flag files (signal_peer/wait_peer).  Parameters of a step are knobs of
# their own (NFS_VERSIONS, NCONNECT, SWAP_MIB, ...: testing.rst).  The
# client halves use nfs-client.sh's trace helpers (thresh_value).
#
# Adding a scenario: write its halves here, add its name to NFS_STEPS and
# to the STEPS of the tests that run it.

# Every step, in the order the tests list them.
NFS_STEPS="inline_matrix nfs_utils rdma6 fio_verify kill_direct_io
	nconnect_fio restart_under_writer device_removal server_device_removal
	server_faults connect_failures swap delegation_recall credit_share"

# What a test that names no steps runs.
NFS_DEFAULT_STEPS="inline_matrix nfs_utils rdma6 fio_verify"

# word_in WORD LIST: WORD is one of the words of LIST.
word_in() {
	local k

	for k in $2; do
		[ "$k" = "$1" ] && return 0
	done
	return 1
}

# The steps of this test: STEPS, NFS_DEFAULT_STEPS if it is unset, none
# if it is "none" (a test whose client runs no step, like the hostile
# peer's, so that the server checks no step's effects).
steps_list() {
	[ "${STEPS:-}" = none ] || echo "${STEPS:-$NFS_DEFAULT_STEPS}"
}

# has_step NAME: the test runs step NAME.
has_step() {
	word_in "$1" "$(steps_list)"
}

# run_steps ROLE: ROLE's half of each step in STEPS, in order.  A name
# that is no step fails, on both sides, before anything runs.
run_steps() {
	local role=$1 s

	for s in $(steps_list); do
		word_in "$s" "$NFS_STEPS" ||
			fail "STEPS names '$s', which is no step (nfs-steps.sh)"
	done
	for s in $(steps_list); do
		if declare -F "${role}_step_$s" >/dev/null; then
			"${role}_step_$s"
		fi
	done
}

# inline_matrix: for each of NFS_VERSIONS, files around the inline
# thresholds written, remounted and compared; a symlink with a long target
# (a Read chunk at a 4 KiB threshold); at an 8 KiB threshold, 4 KiB direct
# I/O that must use no chunk; an extended attribute larger than the
# threshold (Long Call, NFSv4.2); a directory of DIR_ENTRIES entries
# listed (Long Reply); mountstats must show each chunk type in use.
long_target() {
	local i t=""

	for i in $(seq 1 83); do
		t="${t}component-$(printf %04d "$i")-of-a-long-symlink-target-padding-/"
	done
	echo "${t}end"
}

# expect_rpc_buf_growth MNT VERS: our client's slots start with 4 KiB RPC
# buffers (XRDMA_RPC_BUF_INITIAL), which every NFSv3 call and reply head
# fits; an NFSv4 head with a GETATTR's worst case may not, and the slot's
# buffer then grows to a whole kmalloc object, a multiple of 8 KiB.
expect_rpc_buf_growth() {
	local grown

	if [ "$2" = 3 ]; then
		expect_xprt_field_max "$1" hardway_register_count 0 \
			"hardway_register_count (RPC buffers grown, NFSv3)"
		return
	fi
	grown=$(xprt_field "$1" hardway_register_count)
	[ -n "$grown" ] && [ $((grown % 8192)) = 0 ] ||
		fail "mountstats: hardway_register_count is ${grown:-missing}, not whole kmalloc objects (a multiple of 8192)"
}

client_step_inline_matrix() {
	local target vers inl rbuf rthr hbuf want got xsize n

	target=$(long_target)
	for vers in ${NFS_VERSIONS:-3 4.0 4.1 4.2}; do
		step "NFSv$vers: write, remount, verify"
		nfs_mount "$vers" 192.0.2.1 /mnt
		mount_xprt_line /mnt
		rm -rf /mnt/f.* /mnt/dir /mnt/link
		write_files /mnt $SIZES
		expect_xprt_field /mnt read_chunk_count 1 "read_chunk_count after 1 MiB writes"
		[ "${CLIENT_MODULE:-ours}" = stock ] ||
			expect_rpc_buf_growth /mnt "$vers"
		umount /mnt
		nfs_mount "$vers" 192.0.2.1 /mnt
		verify_files /mnt
		expect_xprt_field /mnt write_chunk_count 1 "write_chunk_count after 1 MiB reads"
		# Registered (total_rdma_request): what the calls offered the
		# server to write, as the stock client counts it; the reads of
		# a 1 MiB file offered at least that much.
		expect_xprt_field /mnt total_rdma_request 1048576 \
			"total_rdma_request after reading 1 MiB files"

		inl=$(inline_send)
		[ -n "$inl" ] || fail "no inline threshold traced for the mount"
		if [ "${CLIENT_MODULE:-ours}" != stock ]; then
			# Every server here sends private data: the Receives hold
			# what it said it sends, not our own (larger) maximum.
			rbuf=$(thresh_value "receive buffers ")
			rthr=$(thresh_value "send/recv=" 2)
			[ -n "$rbuf" ] && [ "$rbuf" = "$rthr" ] ||
				fail "Receive buffers of '$rbuf' bytes for a '$rthr'-byte reply threshold"
			echo "# Receive buffers: $rbuf bytes"
			# soft-RoCE and siw take enough SGEs (6) to gather any call
			# of up to 8 KiB: no slot needs room for a pulled-up call.
			hbuf=$(thresh_value "header buffers ")
			[ "$inl" -gt 8192 ] || [ "$hbuf" = 1024 ] ||
				fail "header buffers of '$hbuf' bytes at a $inl-byte threshold"
		fi
		# A SYMLINK target is at most 4095 bytes: above an 8 KiB threshold
		# (our client and server) it always travels inline.
		want=$(xprt_field /mnt read_chunk_count)
		if [ "$inl" -le 4096 ]; then
			step "NFSv$vers: symlink with a ${#target}-byte target (Read chunk)"
			want=$((want + 1))
		else
			step "NFSv$vers: symlink with a ${#target}-byte target (inline at $inl)"
		fi
		ln -s "$target" /mnt/link || fail "creating the long symlink failed"
		got=$(xprt_field /mnt read_chunk_count)
		[ "$got" = "$want" ] ||
			fail "read_chunk_count after SYMLINK at a $inl-byte threshold is $got, expected $want"
		if [ "$vers" = 4.2 ] && [ "$inl" -gt 4096 ]; then
			step "NFSv$vers: 4 KiB direct writes and reads inline at $inl"
			head -c 65536 /dev/urandom >/tmp/direct.src
			want="$(xprt_field /mnt read_chunk_count)/$(xprt_field /mnt write_chunk_count)"
			dd if=/tmp/direct.src of=/mnt/direct bs=4096 oflag=direct \
				status=none || fail "4 KiB direct writes failed"
			dd if=/mnt/direct of=/tmp/direct.back bs=4096 iflag=direct \
				status=none || fail "4 KiB direct reads failed"
			cmp /tmp/direct.src /tmp/direct.back ||
				fail "4 KiB direct I/O read back wrong"
			got="$(xprt_field /mnt read_chunk_count)/$(xprt_field /mnt write_chunk_count)"
			[ "$got" = "$want" ] ||
				fail "4 KiB direct I/O took chunks at a $inl-byte threshold (read/write chunks $want before, $got after)"
			rm -f /mnt/direct /tmp/direct.src /tmp/direct.back
		fi
		if [ "$vers" = 4.2 ]; then
			# Larger than the threshold, whatever it is.
			xsize=$((inl + 1000))
			step "NFSv$vers: $xsize-byte extended attribute (Long Call)"
			touch /mnt/xattr
			python3 -c "import os; os.setxattr('/mnt/xattr', 'user.big', b'v' * $xsize)" ||
				fail "setxattr of $xsize bytes failed"
			expect_xprt_field /mnt nomsg_call_count 1 "nomsg_call_count (Long Calls)"
			[ "$(python3 -c 'import os; print(len(os.getxattr("/mnt/xattr", "user.big")))')" = $xsize ] ||
				fail "getxattr returned the wrong value"
			rm -f /mnt/xattr
		fi
		umount /mnt
		nfs_mount "$vers" 192.0.2.1 /mnt
		[ "$(readlink /mnt/link)" = "$target" ] ||
			fail "long symlink target read back wrong"

		step "NFSv$vers: directory of $DIR_ENTRIES entries (Long Reply)"
		mkdir /mnt/dir
		(cd /mnt/dir && seq -f "entry-with-a-longish-name-%06g" 1 "$DIR_ENTRIES" |
			xargs touch) || fail "creating directory entries failed"
		umount /mnt
		nfs_mount "$vers" 192.0.2.1 /mnt
		n=$(ls -1 /mnt/dir | wc -l)
		[ "$n" = "$DIR_ENTRIES" ] || fail "listed $n entries, expected $DIR_ENTRIES"
		expect_xprt_field /mnt reply_chunk_count 1 "reply_chunk_count (Long Replies)"
		rm -rf /mnt/dir /mnt/link
		mount_xprt_line /mnt
		umount /mnt
	done
}

# nfs_utils: mountstats(8) and nfsiostat(8) from nfs-common read the "xprt: rdma"
# line: every RDMA figure mountstats prints must be the module's own
# count, for our module and for the stock one alike (same layout).
client_step_nfs_utils() {
	local before after

	step "NFSv4.2: mountstats and nfsiostat read the RDMA transport line"
	nfs_mount 4.2 192.0.2.1 /mnt
	head -c 300000 /dev/urandom >/mnt/ms && sync
	cat /mnt/ms >/dev/null
	# NFSv4 lease renewals go on meanwhile: every figure must lie
	# between the module's counts just before and just after (they only
	# grow).
	before=$(mount_xprt_line /mnt)
	mountstats --xprt /mnt >/tmp/ms.out 2>&1 ||
		{ cat /tmp/ms.out; fail "mountstats failed"; }
	after=$(mount_xprt_line /mnt)
	echo "$before"
	grep -q 'Transport protocol: rdma' /tmp/ms.out ||
		{ cat /tmp/ms.out; fail "mountstats does not see an rdma transport"; }
	# One awk for all the fields: a fork per field costs a minute on
	# the debug kernel under TCG.
	awk -v before="$before" -v after="$after" -v names="$RDMA_XPRT_FIELDS" '
	BEGIN { k = split(names, a); for (i = 1; i <= k; i++) pos[a[i]] = i }
	function field(line, name,   a, k, i) {
		k = split(line, a)
		for (i = 1; i <= k; i++)
			if (a[i] == "rdma")
				return a[i + pos[name]]
		return ""
	}
	NR == FNR {
		split($0, t, ":"); label[++n] = t[1]; num[n] = t[2]
		if (!(t[2] in pos)) { print "no xprt field " t[2]; nameless = 1 }
		next
	}
	{
		for (i = 1; i <= n; i++)
			if (!(i in got) && match($0, "^[ \t]*" label[i] ": *[0-9]+")) {
				v = substr($0, 1, RLENGTH)
				sub(/.*: */, "", v)
				got[i] = v
			}
	}
	END {
		bad = nameless
		for (i = 1; i <= n; i++) {
			lo = field(before, num[i])
			hi = field(after, num[i])
			v = (i in got) ? got[i] : ""
			printf "mountstats: %s: %s (xprt field %s: %s..%s)\n",
			       label[i], v, num[i], lo, hi
			if (v == "" || v + 0 < lo + 0 || v + 0 > hi + 0) {
				printf "mountstats prints %s %s, the module counted %s..%s\n",
				       label[i], v == "" ? "(nothing)" : v, lo, hi
				bad = 1
			}
		}
		exit bad
	}' - /tmp/ms.out <<-EOF || fail "mountstats disagrees with the module's counters"
	Connect count:connect_count
	RPC requests:sends
	RPC replies:recvs
	Read segments:read_chunk_count
	Write segments:write_chunk_count
	Reply segments:reply_chunk_count
	Registered:total_rdma_request
	RDMA received:total_rdma_reply
	Total pull-up:pullup_copy_count
	Total fix-up:fixup_copy_count
	Hardway allocations:hardway_register_count
	Failed marshals:failed_marshal_count
	Bad replies:bad_reply_count
	RDMA_NOMSG calls:nomsg_call_count
	Recovered MRs:mrs_recycled
	Orphaned MRs:mrs_orphaned
	Allocated MRs:mrs_allocated
	Local Invalidates needed:local_inv_needed
	EOF
	nfsiostat 1 2 /mnt >/tmp/nfsiostat.out 2>&1 ||
		{ cat /tmp/nfsiostat.out; fail "nfsiostat failed"; }
	grep -q 'Traceback' /tmp/nfsiostat.out &&
		{ cat /tmp/nfsiostat.out; fail "nfsiostat could not parse the mount"; }
	grep -q "mounted on /mnt" /tmp/nfsiostat.out ||
		{ cat /tmp/nfsiostat.out; fail "nfsiostat shows nothing for /mnt"; }
	rm -f /mnt/ms
	umount /mnt
}

# rdma6: an NFSv4.2 mount over IPv6 (netid rdma6) carries data intact.
client_step_rdma6() {
	step "NFSv4.2 over IPv6 (netid rdma6)"
	mount -t nfs -o "vers=4.2,proto=rdma6,port=$NFS_PORT" "[2001:db8::1]:/" /mnt ||
		fail "NFSv4.2 mount over rdma6 failed"
	mount_xprt_line /mnt | grep -q '^[[:space:]]*xprt:[[:space:]]*rdma ' ||
		fail "the IPv6 mount does not use the rdma transport"
	grep -q 'proto=rdma6' /proc/mounts || fail "the IPv6 mount is not proto=rdma6"
	head -c 1000000 /dev/urandom >/tmp/v6.src
	cp /tmp/v6.src /mnt/v6 && umount /mnt
	mount -t nfs -o "vers=4.2,proto=rdma6,port=$NFS_PORT" "[2001:db8::1]:/" /mnt ||
		fail "NFSv4.2 remount over rdma6 failed"
	cmp /tmp/v6.src /mnt/v6 || fail "data over rdma6 differs"
	rm -f /mnt/v6
	umount /mnt
}

# fio_verify: 4 writers then 4 readers with verify, NFSv4.2.
# deep_writer SIZE: one fio writer of SIZE with 64 direct 16 KiB writes in
# flight on /mnt's one connection, then its verify.
deep_writer() {
	fio --name=deep --directory=/mnt/fio --numjobs=1 --size="$1" --bs=16k \
		--rw=randwrite --direct=1 --ioengine=libaio --iodepth=64 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--output=/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "fio verify at depth 64 failed"; }
	grep -E 'WRITE:|READ:' /tmp/fio.out
}

client_step_fio_verify() {
	step "fio: 4 writers then 4 readers with verify, NFSv4.2"
	command -v fio >/dev/null || fail "fio is not installed (make deps installs it)"
	nfs_mount 4.2 192.0.2.1 /mnt
	mkdir -p /mnt/fio
	fio --name=verify --directory=/mnt/fio --numjobs=4 \
		--size="${FIO_SIZE:-16M}" --bs=64k --rw=randwrite --direct=1 \
		--ioengine=psync --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --group_reporting --output=/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "fio verify failed"; }
	grep -E 'WRITE:|READ:' /tmp/fio.out
	# Each write a Read chunk (16 KiB, above either client's inline
	# size): a server that adapts its grant (ours) must raise it step by
	# step to its maximum, and the client must follow the changing grant
	# without losing a write (nfs-server.sh checks the server's
	# svcrdma_grant events).
	step "fio: 64 direct 16 KiB writes in flight, with verify"
	deep_writer 16M
	# More MRs in use than a connection starts with (32): ours makes the
	# rest in a work item as the pool runs low.
	[ "${CLIENT_MODULE:-ours}" = stock ] || expect_mr_refill
	# Then one read at a time: an adaptive grant falls back a batch at
	# a time (nfs-server.sh checks the svcrdma_grant_fall events).  The
	# deep writer again, on the smaller grant: a client that kept using
	# credits it was no longer granted would overrun the server's
	# Receives, and our server grants no RNR retry, so the connection
	# would be lost and made again.
	step "1,000 direct 4 KiB reads one at a time, then 64 writes in flight again"
	dd if=/mnt/fio/deep.0.0 of=/dev/null bs=4k count=1000 iflag=direct 2>&1 |
		tail -1
	deep_writer 4M
	[ "$(xprt_field /mnt connect_count)" = 1 ] ||
		fail "the mount connected $(xprt_field /mnt connect_count) times: its connection was lost under a changing grant"
	rm -rf /mnt/fio
	umount /mnt
}

# kill_direct_io: direct-I/O writers and readers, killed mid-RPC; on odd
# rounds the RDMA device also goes away under them.  Their MRs must be invalidated (or
# their queue pair flushed) before the pages go back, which KASAN on the
# debug kernel would catch; data written before must stay intact.
client_step_kill_direct_io() {
	local round pids j

	step "NFSv4.2: tasks killed during direct I/O, with device removals"
	nfs_mount 4.2 192.0.2.1 /mnt
	head -c 4194304 /dev/urandom >/tmp/kd.src
	cp /tmp/kd.src /mnt/kd && sync
	for round in $(seq "${KILL_DIO_ROUNDS:-6}"); do
		pids=
		for j in 1 2; do
			dd if=/tmp/kd.src of="/mnt/kd.$j" bs=1M oflag=direct \
				status=none 2>/dev/null &
			pids="$pids $!"
			dd if=/mnt/kd of=/dev/null bs=1M iflag=direct \
				status=none 2>/dev/null &
			pids="$pids $!"
		done
		sleep 1
		if [ $((round % 2)) = 1 ]; then
			timeout 60 rdma link delete "$(rdma_link_name eth0)" ||
				fail "removing the RDMA device under direct I/O hung"
			# shellcheck disable=SC2086
			kill -9 $pids 2>/dev/null
			rdma_link eth0
		else
			# shellcheck disable=SC2086
			kill -9 $pids 2>/dev/null
		fi
		# shellcheck disable=SC2086
		timeout 120 sh -c "while kill -0 $pids 2>/dev/null; do sleep 0.2; done" ||
			fail "killed direct-I/O tasks did not exit"
	done
	timeout 240 cmp /tmp/kd.src /mnt/kd ||
		fail "a file read by killed tasks differs afterwards"
	timeout 240 cp /tmp/kd.src /mnt/kd.after ||
		fail "I/O after the killed tasks failed"
	umount /mnt
	nfs_mount 4.2 192.0.2.1 /mnt
	cmp /tmp/kd.src /mnt/kd.after || fail "data written after the kills differs"
	rm -f /mnt/kd /mnt/kd.*
	umount /mnt
}

# nconnect_fio: for each of NCONNECT, fio with verify over that many
# connections; with CONN_TABLE=1, /proc/net/rpcrdma is checked on both
# ends during the first.
# nconnect_fio N: fio with verify over N connections; the slowest I/O
# must not stand out (a lost wakeup or a backlog wait shows there).
nconnect_fio() {
	local n=$1 lines max_ms fio

	step "NFSv4.2 nconnect=$n: fio at queue depth 16 with verify"
	mkdir -p /mnt
	mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_PORT,nconnect=$n" \
		192.0.2.1:/ /mnt || fail "nconnect=$n mount failed"
	lines=$(awk '$1 == "device" { mine = ($5 == "/mnt") }
		mine && $1 == "xprt:" { c++ } END { print c + 0 }' /proc/self/mountstats)
	[ "$lines" = "$n" ] ||
		fail "nconnect=$n mount shows $lines xprt lines in mountstats"
	mkdir -p /mnt/nc
	timeout 600 fio --name=nconnect --directory=/mnt/nc --numjobs=4 \
		--size=4M --bs=16k --rw=randwrite --direct=1 --ioengine=libaio \
		--iodepth=16 --verify=crc32c --do_verify=1 --verify_fatal=1 \
		--group_reporting --output-format=json --output=/tmp/nc.json &
	fio=$!
	if [ "${CONN_TABLE:-0}" = 1 ] && [ ! -e /tmp/conn-table-done ]; then
		sleep 3
		conn_table_check "$n"
		touch /tmp/conn-table-done
	fi
	wait "$fio" || fail "fio verify over nconnect=$n failed or hung"
	max_ms=$(python3 -c 'import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print(int(max(j[d]["clat_ns"]["max"] for d in ("read", "write")) / 1e6))' /tmp/nc.json)
	echo "nconnect=$n: slowest I/O ${max_ms} ms"
	[ "$max_ms" -lt 10000 ] ||
		fail "nconnect=$n: an I/O took ${max_ms} ms (a stall)"
	rm -rf /mnt/nc
	umount /mnt
}

# conn_table_check N: under the nconnect=N mount's load, /proc/net/rpcrdma
# lists at least N connected client transports from 192.0.2.2 to the
# server's port, with credits granted and in use within bounds and the
# inline sizes the connect negotiated (xprtrdma_inline_thresh); then the
# server checks its own end (nfs-server.sh).
conn_table_check() {
	local n=$1 send recv lines

	step "nconnect=$n: /proc/net/rpcrdma on both ends under load"
	cat /proc/net/rpcrdma >/tmp/conn-table || fail "cannot read /proc/net/rpcrdma"
	cat /tmp/conn-table
	head -1 /tmp/conn-table | grep -q '^role local peer state age credits in_use inline_send inline_recv ord ird sq_depth sq_waits rnr_retry_exc retry_exc flushed reconnects read_pages last_disconnect$' ||
		fail "/proc/net/rpcrdma: unexpected header"
	send=$(thresh_value "send/recv=" 1)
	recv=$(thresh_value "send/recv=" 2)
	lines=$(awk -v s="$send" -v r="$recv" '
		$1 == "client" && $3 == "192.0.2.1:20049" && $4 == "connected" &&
		$2 ~ /^192\.0\.2\.2:[0-9]+$/ && $5 ~ /^[0-9]+$/ &&
		$6 >= 1 && $6 <= 1024 && $7 <= $6 && $8 == s && $9 == r &&
		$10 == 0 && $11 >= 1 && $12 >= 3 && $15 == 0 && $14 == 0 &&
		$18 == "-" { c++ }
		END { print c + 0 }' /tmp/conn-table)
	[ "$lines" -ge "$n" ] ||
		fail "/proc/net/rpcrdma: $lines connected client lines as expected (inline $send/$recv), $n wanted"
	signal_peer "conn-table-check-$n"
	wait_peer "conn-table-checked-$n" 120
}

client_step_nconnect_fio() {
	local n

	[ -n "${NCONNECT:-}" ] || fail "the nconnect_fio step needs NCONNECT"
	for n in $NCONNECT; do
		nconnect_fio "$n"
	done
}

server_step_nconnect_fio() {
	local n credits floor recv lines

	[ "${CONN_TABLE:-0}" = 1 ] || return 0
	# The client's first nconnect run (nfs-client.sh conn_table_check).
	n=${NCONNECT%% *}
	wait_peer "conn-table-check-$n" "${PEER_TIMEOUT:-0}"
	step "/proc/net/rpcrdma with the client's nconnect=$n mount under load"
	cat /proc/net/rpcrdma >/tmp/conn-table || fail "cannot read /proc/net/rpcrdma"
	cat /tmp/conn-table
	credits=$(cat /proc/sys/sunrpc/svc_rdma/max_requests)
	# Receives on the 1 KiB grid of RFC 8797's private data.
	recv=$(( $(cat /proc/sys/sunrpc/svc_rdma/max_req_size) / 1024 * 1024 ))
	# nfsd listens on the wildcard addresses (nfs_server_start).
	awk '$1 == "listener" && $2 ~ /:20049$/ && $3 == "-" &&
		$4 == "listening" { ok = 1 } END { exit !ok }' /tmp/conn-table ||
		fail "/proc/net/rpcrdma: no listener on port 20049"
	# A grant starts at 8 (svcrdma/server.h SRDMA_GRANT_FLOOR) and grows
	# under load up to max_requests.
	floor=$((credits < 8 ? credits : 8))
	lines=$(awk -v c="$credits" -v f="$floor" -v r="$recv" '
		$1 == "server" && $2 == "192.0.2.1:20049" && $4 == "connected" &&
		$3 ~ /^192\.0\.2\.2:[0-9]+$/ && $5 ~ /^[0-9]+$/ &&
		$6 >= f && $6 <= c &&
		$7 <= $6 && $8 >= 1024 && $8 <= r && $9 == r && $10 >= 1 &&
		$11 == 0 && $12 >= 3 && $14 == 0 && $15 == 0 && $17 == "-" &&
		$18 ~ /^[0-9]+$/ { n++ }
		END { print n + 0 }' /tmp/conn-table)
	[ "$lines" -ge "$n" ] ||
		fail "/proc/net/rpcrdma: $lines connected server lines as expected (credits $floor..$credits, receives $recv), $n wanted"
	signal_peer "conn-table-checked-$n"
}

# restart_under_writer: the server's NFS service restarts while a
# direct-I/O writer runs, and the data must survive; with RENEGOTIATE=1
# the server comes back offering a 1 KiB inline size, which the client
# must adopt.

# Our client's log since the step that begins with $1, for the lines of
# connect attempts (xprtrdma/connect_report.c).
connect_log() {
	dmesg | awk -v s="rpcrdma-selftest: $1" 'index($0, s) { on = 1 } on' |
		grep 'rpcrdma: connect\(ed\)\? to ' || true
}

# If a reconnect attempt failed across the server restart, the first
# connection after it says after how many.
connected_after_failures() {
	local log

	log=$(connect_log "NFSv4.2: the server restarts")
	echo "$log"
	if grep -q ' failed: ' <<<"$log"; then
		grep -q 'rpcrdma: connected to 192.0.2.1 port [0-9]* after [0-9]* failed attempts\?$' <<<"$log" ||
			fail "no 'connected ... after N failed attempts' line after the failed attempts"
	fi
}

# mount_fails WHAT SERVER PORT REASON: a mount of SERVER:PORT must fail
# within 90 s, and our client must log REASON for it.
mount_fails() {
	local log

	mkdir -p /mnt
	if timeout 90 mount -t nfs -o "vers=4.2,proto=rdma,port=$3,retry=0" \
		"$2:/" /mnt 2>/tmp/mount.err; then
		umount /mnt
		fail "$1: the mount succeeded"
	fi
	log=$(connect_log "$1")
	echo "$1: $(cat /tmp/mount.err)"
	echo "$log"
	grep -qF "rpcrdma: connect to $2 port $3 failed: $4 (" <<<"$log" ||
		fail "$1: no 'connect to $2 port $3 failed: $4' in the kernel log"
}

client_step_restart_under_writer() {
	local at_restart n rb before

	step "NFSv4.2: the server restarts while a direct-I/O writer runs"
	nfs_mount 4.2 192.0.2.1 /mnt
	rm -f /mnt/big
	start_writer /mnt/big 64 0.2
	sleep 2
	signal_peer restart-server
	wait_peer server-restarted 120
	at_restart=$(cat /tmp/written)
	sleep 5
	stop_writer || fail "a write failed across the server restart"
	n=$(cat /tmp/written)
	echo "blocks written: $at_restart before the restart, $n in all"
	[ "$n" -gt "$at_restart" ] ||
		fail "the writer did not run across the restart"
	expect_xprt_field /mnt connect_count 2 "connect_count after the restart"
	mount_xprt_line /mnt
	[ "${CLIENT_MODULE:-ours}" = stock ] || connected_after_failures
	umount /mnt
	nfs_mount 4.2 192.0.2.1 /mnt
	writer_check /mnt/big ||
		fail "data written across the server restart is wrong"
	rm -f /mnt/big
	if [ "${RENEGOTIATE:-0}" = 1 ]; then
		step "NFSv4.2: the server came back with a 1 KiB inline size"
		rb="$(thresh_value "send/recv=" 2)/$(thresh_value "receive buffers ")"
		[ "${CLIENT_MODULE:-ours}" = stock ] || [ "$rb" = 1024/1024 ] ||
			fail "reply threshold and Receive buffers after the renegotiation: '$rb', expected 1024/1024"
		# A 1,500-byte symlink target fitted the old 4 KiB inline
		# size; now it must travel in a Read chunk.
		before=$(xprt_field /mnt read_chunk_count)
		ln -s "$(long_target | cut -c1-1500)" /mnt/link.small ||
			fail "creating a symlink after the renegotiation failed"
		expect_xprt_field /mnt read_chunk_count $((before + 1)) \
			"read_chunk_count after a 1,500-byte SYMLINK at 1 KiB inline"
		rm -f /mnt/f.*
		write_files /mnt 1000 1023 1024 1025 2047 2048 4096 65536
		umount /mnt
		nfs_mount 4.2 192.0.2.1 /mnt
		verify_files /mnt
		rm -f /mnt/f.* /mnt/link.small
	fi
	umount /mnt
}

server_step_restart_under_writer() {
	wait_peer restart-server "${PEER_TIMEOUT:-0}"
	step "restarting the NFS service under the client's writes"
	if [ "${RENEGOTIATE:-0}" = 1 ]; then
		# Connections after the restart offer a 1 KiB inline size
		# (RFC 8797 private data): the client must adopt it.
		echo 1024 >/proc/sys/sunrpc/svc_rdma/max_req_size ||
			fail "cannot set max_req_size"
	fi
	nfs_server_restart 2
	signal_peer server-restarted
}

# device_removal: the client's RDMA device goes away under a mount and
# comes back; server_device_removal: the server's does.

# The transport must let go of the device (removal may not hang), and
# the mount reconnects on the new one.
# The device stays away for 8 s with a write waiting: the connect
# attempts made meanwhile find no RDMA device for the address, which a
# hard mount must ride out (xrdma_connect_status()).
remove_client_device() {
	local cp

	timeout 60 rdma link delete "$(rdma_link_name eth0)" ||
		fail "removing the RDMA device under a mount failed or hung"
	timeout 240 cp /tmp/dev.src /mnt/dev.during &
	cp=$!
	sleep 8
	rdma_link eth0
	wait "$cp" ||
		fail "a write made while the RDMA device was gone failed on a hard mount"
}

remove_server_device() {
	signal_peer remove-server-device
	wait_peer server-device-back 180
}

# survive_device_loss VERS ACTION: a file written before ACTION (which
# takes an RDMA device away and brings it back) and one written after it
# must both read back intact after a remount.
survive_device_loss() {
	nfs_mount "$1" 192.0.2.1 /mnt
	head -c 300000 /dev/urandom >/tmp/dev.src
	cp /tmp/dev.src /mnt/dev.before && sync
	"$2"
	timeout 240 cp /tmp/dev.src /mnt/dev.after ||
		fail "I/O after the device came back failed"
	umount /mnt
	nfs_mount "$1" 192.0.2.1 /mnt
	cmp /tmp/dev.src /mnt/dev.before && cmp /tmp/dev.src /mnt/dev.after ||
		fail "data differs across the device removal"
	[ ! -e /mnt/dev.during ] || cmp /tmp/dev.src /mnt/dev.during ||
		fail "a file written while the device was gone differs"
	rm -f /mnt/dev.before /mnt/dev.after /mnt/dev.during
	umount /mnt
}

client_step_device_removal() {
	step "NFSv4.2: the RDMA device is removed under a mount, then re-added"
	survive_device_loss 4.2 remove_client_device
}

client_step_server_device_removal() {
	step "NFSv4.1: the server's RDMA device is removed under a mount, then re-added"
	survive_device_loss 4.1 remove_server_device
}

server_step_server_device_removal() {
	wait_peer remove-server-device "${PEER_TIMEOUT:-0}"
	step "removing the RDMA device under the client's mount"
	# nfsd must let go of every connection on it: removal may not hang.
	timeout 60 rdma link delete "$(rdma_link_name eth0)" ||
		fail "removing the RDMA device failed or hung"
	rdma_link eth0
	signal_peer server-device-back
}

# server_faults: our server (debug kernel) fails reading a Call's chunks
# and sending a reply once each; each must cost a reconnect, not an RPC
# timeout.

# timed_io SECONDS WHAT CMD...: CMD must finish within SECONDS.
timed_io() {
	local limit=$1 what=$2 t0 took
	shift 2
	t0=$(date +%s)
	"$@" || fail "$what failed"
	took=$(( $(date +%s) - t0 ))
	echo "$what took ${took}s"
	[ "$took" -lt "$limit" ] ||
		fail "$what took ${took}s: the server dropped the call instead of closing"
}

client_step_server_faults() {
	local connects

	step "NFSv3: transient server errors cost a reconnect, not an RPC timeout"
	nfs_mount 3 192.0.2.1 /mnt
	head -c 1048576 /dev/urandom >/tmp/fault.src
	cp /tmp/fault.src /mnt/fault && sync
	connects=$(xprt_field /mnt connect_count)
	# The server fails reading the next Call's Read chunk (a WRITE).
	signal_peer arm-read_chunks-fault
	wait_peer read_chunks-fault-armed 120
	timed_io 30 "a 1 MiB write while reading its chunk fails" \
		dd if=/tmp/fault.src of=/mnt/fault bs=1M count=1 oflag=direct \
		conv=notrunc status=none
	# The server fails building its next reply.
	signal_peer arm-send-fault
	wait_peer send-fault-armed 120
	timed_io 30 "a 1 MiB read while its reply fails" \
		dd if=/mnt/fault of=/tmp/fault.back bs=1M count=1 iflag=direct \
		status=none
	cmp /tmp/fault.src /tmp/fault.back || fail "data differs after the faults"
	expect_xprt_field /mnt connect_count $((connects + 2)) \
		"connect_count after two server-side faults"
	rm -f /mnt/fault
	umount /mnt
}

server_step_server_faults() {
	local point f

	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	for point in read_chunks send; do
		wait_peer "arm-$point-fault" "${PEER_TIMEOUT:-0}"
		f=/sys/kernel/debug/rpcrdma/fail_server_$point
		[ -d "$f" ] || fail "no fault injection point $f"
		echo 0 >"$f/verbose"
		echo 1 >"$f/times"
		echo 100 >"$f/probability"
		step "injecting one failure at $f"
		signal_peer "$point-fault-armed"
	done
}

# connect_failures (our client): mounts that cannot connect (nothing
# listening, no RDMA device behind the route, no neighbour answering)
# fail, and our client's log names each cause.
client_step_connect_failures() {
	[ "${CLIENT_MODULE:-ours}" != stock ] ||
		fail "the connect_failures step needs our client: the stock one logs no cause"
	step "connect failure: nothing listens on port 20050"
	mount_fails "connect failure: nothing listens" 192.0.2.1 20050 \
		"nothing listens on that port"
	step "connect failure: the route goes through a netdev with no RDMA device"
	ip link add nordma0 type dummy
	ip addr add 198.51.100.1/24 dev nordma0
	ip link set nordma0 up
	ip neigh replace 198.51.100.2 lladdr 02:00:00:00:00:02 dev nordma0 \
		nud permanent
	mount_fails "connect failure: the route goes through" 198.51.100.2 \
		"$NFS_PORT" "no RDMA device routes to the address"
	ip link del nordma0
	step "connect failure: no neighbour answers for 192.0.2.99"
	mount_fails "connect failure: no neighbour answers" 192.0.2.99 \
		"$NFS_PORT" "address resolution timed out"
}

# swap: a swap file on the mount takes a bounded allocator's pages
# (SWAP_MIB, default 96, in a 32 MiB cgroup) and gives them back intact.
client_step_swap() {
	local swap_mib out_before in_before swapped_out swapped_in

	step "NFSv4.2: swap on a file of the RDMA mount, a bounded allocator pushed into it"
	nfs_mount 4.2 192.0.2.1 /mnt
	swap_mib=${SWAP_MIB:-96}
	dd if=/dev/zero of=/mnt/swapfile bs=1M count=$((swap_mib + 32)) status=none ||
		fail "creating the swap file failed"
	chmod 600 /mnt/swapfile
	mkswap /mnt/swapfile >/dev/null || fail "mkswap on the RDMA mount failed"
	swapon /mnt/swapfile || fail "swapon of a file on the RDMA mount failed"
	grep -q /mnt/swapfile /proc/swaps || fail "the swap file is not in /proc/swaps"
	# A 32 MiB memory cgroup: SWAP_MIB of pattern must go out to swap
	# over RDMA and come back intact.
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	echo +memory >/sys/fs/cgroup/cgroup.subtree_control
	mkdir -p /sys/fs/cgroup/swaptest
	echo 32M >/sys/fs/cgroup/swaptest/memory.max
	out_before=$(awk '$1 == "pswpout" { print $2 }' /proc/vmstat)
	in_before=$(awk '$1 == "pswpin" { print $2 }' /proc/vmstat)
	sh -c 'echo $$ >/sys/fs/cgroup/swaptest/cgroup.procs &&
	       exec timeout 600 python3 "$0" "$1"' \
		"$RPCRDMA_TOP/selftests/guest/swap-fill.py" "$swap_mib" >/tmp/swap.out 2>&1 ||
		{ cat /tmp/swap.out; fail "the allocator's data did not survive swap"; }
	cat /tmp/swap.out
	swapped_out=$(( $(awk '$1 == "pswpout" { print $2 }' /proc/vmstat) - out_before ))
	swapped_in=$(( $(awk '$1 == "pswpin" { print $2 }' /proc/vmstat) - in_before ))
	echo "pages swapped out: $swapped_out, in: $swapped_in"
	# Every MiB over the limit is 256 pages; most must have gone out.
	[ "$swapped_out" -ge $(((swap_mib - 32) * 128)) ] ||
		fail "only $swapped_out pages went to swap: the test did not swap"
	[ "$swapped_in" -gt 0 ] || fail "nothing came back from swap"
	rmdir /sys/fs/cgroup/swaptest
	swapoff /mnt/swapfile || fail "swapoff failed"
	rm -f /mnt/swapfile
	umount /mnt
}

# delegation_recall: a read delegation recalled over the backchannel
# (NFSv4.1) when the server writes the file.
client_step_delegation_recall() {
	step "NFSv4.1: a read delegation recalled over the backchannel"
	nfs_mount 4.1 192.0.2.1 /mnt
	echo "before the recall" >/mnt/deleg
	umount /mnt
	nfs_mount 4.1 192.0.2.1 /mnt
	# An open for reading gets a read delegation; the server's own
	# write to the file then makes nfsd recall it (CB_RECALL).
	exec 3</mnt/deleg
	signal_peer delegation-held
	wait_peer delegation-recalled 120
	exec 3<&-
	umount /mnt
	nfs_mount 4.1 192.0.2.1 /mnt
	[ "$(tail -n 1 /mnt/deleg)" = "written by the server" ] ||
		fail "the server's write after the recall is not visible"
	rm -f /mnt/deleg
	umount /mnt
}

server_step_delegation_recall() {
	wait_peer delegation-held "${PEER_TIMEOUT:-0}"
	step "writing a file the client holds a read delegation on"
	timeout 60 sh -c "echo 'written by the server' >>$EXPORT/deleg" ||
		fail "the server's write to a delegated file did not finish"
	signal_peer delegation-recalled
}

# credit_share (our server): with a credit budget of 64, a client address
# with an nconnect=16 mount takes the budget, then goes quiet; a second
# client address (192.0.2.12, to the server's 192.0.2.11) with one
# connection then needs credits and must find those of the quiet
# connections back in the budget within seconds (their grants fall to the
# floor after credit_quiet_timeout, CREDIT_QUIET_TIMEOUT here, and the
# budget gets their credits at the fall: svcrdma/credits.c).  Once both
# are quiet, the nconnect=16 client takes the budget again and the other
# needs credits while it is busy: the budget is shared per client, so the
# first client's connections fall and the second's grows to its share,
# and both keep doing I/O.  Both clients start that second round with
# the larger grant they were last told, over the Receives the quiet falls
# left posted.  NFSv3, so that the NFS client does not find the two
# server addresses to be one server and share a connection (NFSv4.1
# trunking).
share_fio() {
	local name=$1 dir=$2 jobs=$3 depth=$4 secs=$5

	mkdir -p "$dir" || fail "cannot make $dir"
	timeout $((secs + 120)) fio --name="$name" --directory="$dir" \
		--numjobs="$jobs" --size=4M --bs=16k --rw=randwrite --direct=1 \
		--ioengine=libaio --iodepth="$depth" --time_based \
		--runtime="$secs" --group_reporting --output-format=json \
		--output="/tmp/$name.json"
}

# share_layout NAME DIR JOBS: lay out share_fio's files beforehand, so
# that its timed load starts at full depth at once: a layout written
# while the other client holds the budget goes at a low depth that asks
# for no credits, and on a slow machine took longer than the wait
# before the check.
share_layout() {
	mkdir -p "$2" || fail "cannot make $2"
	timeout 300 fio --name="$1" --directory="$2" --numjobs="$3" \
		--size=4M --bs=16k --rw=randwrite --create_only=1 \
		--output=/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "cannot lay out the files of $1"; }
}

# share_iops NAME: writes per second of share_fio NAME.
share_iops() {
	python3 -c 'import json, sys
print(int(json.load(open(sys.argv[1]))["jobs"][0]["write"]["iops"]))' \
		"/tmp/$1.json"
}

client_step_credit_share() {
	local many one ok=1

	step "credit budget 64: an nconnect=16 client grows and goes quiet, then a one-connection client needs credits"
	add_rdma_address 192.0.2.12
	ip route add 192.0.2.11/32 dev eth0 src 192.0.2.12 ||
		fail "cannot route 192.0.2.11 from 192.0.2.12"
	wait_peer share-ready 120
	mkdir -p /mnt/many /mnt/one
	mount -t nfs -o "vers=3,proto=rdma,port=$NFS_PORT,nolock,nconnect=16" \
		192.0.2.1:/export /mnt/many || fail "nconnect=16 mount failed"
	mount -t nfs -o "vers=3,proto=rdma,port=$NFS_PORT,nolock" \
		192.0.2.11:/export /mnt/one || fail "mount of 192.0.2.11 failed"
	share_layout many /mnt/many/share-many 4
	share_layout one /mnt/one/share-one 1
	# The nconnect=16 client takes the budget, then sends nothing more
	# (until the second round) while the other client starts.
	share_fio many /mnt/many/share-many 4 32 15 &
	many=$!
	sleep 10
	signal_peer share-grown
	await_pid 180 "fio on the nconnect=16 mount" "$many" ||
		fail "fio on the nconnect=16 mount failed before it went quiet"
	signal_peer share-many-quiet
	wait_peer share-one-go 120
	share_fio one /mnt/one/share-one 1 64 20 &
	one=$!
	signal_peer share-one-started
	await_pid 180 "fio on the one-connection mount" "$one" ||
		fail "fio on the one-connection mount failed while the other client was quiet"
	signal_peer share-one-quiet
	wait_peer share-both-quiet 120
	step "credit budget 64: the nconnect=16 client busy again, then the one-connection client"
	# The server looks for the shared state for up to 45
	# seconds from share-loaded: both loads outlast that.  A guest this
	# busy took over 20 s to start the second fio's I/O.
	share_fio many /mnt/many/share-many 4 32 70 &
	many=$!
	sleep 10
	share_fio one /mnt/one/share-one 1 64 55 &
	one=$!
	sleep 5
	cat /proc/net/rpcrdma >/tmp/share-table
	awk '$1 == "client" && $2 ~ /^192\.0\.2\.12:/ &&
		$3 == "192.0.2.11:20049" && $4 == "connected" { n++ }
		END { exit n != 1 }' /tmp/share-table ||
		{ cat /tmp/share-table
		  fail "/proc/net/rpcrdma: no one connection from 192.0.2.12 to 192.0.2.11"; }
	signal_peer share-loaded
	wait_peer share-checked 120
	await_pid 180 "fio on the nconnect=16 mount" "$many" || ok=0
	await_pid 180 "fio on the one-connection mount" "$one" || ok=0
	[ "$ok" = 1 ] || fail "fio under a shared credit budget failed"
	echo "nconnect=16 client: $(share_iops many) IOPS; one-connection client: $(share_iops one) IOPS"
	[ "$(share_iops many)" -gt 0 ] && [ "$(share_iops one)" -gt 0 ] ||
		fail "a client made no progress under a shared credit budget"
	step "both mounts' data verify after the shared load"
	for m in many one; do
		fio --name="verify-$m" --directory="/mnt/$m/share-$m" --size=4M \
			--bs=16k --rw=randwrite --direct=1 --ioengine=libaio \
			--iodepth=16 --verify=crc32c --do_verify=1 --verify_fatal=1 \
			--output=/tmp/fio.out ||
			{ cat /tmp/fio.out; fail "fio verify on /mnt/$m failed"; }
		[ "$(xprt_field "/mnt/$m" connect_count)" = 1 ] ||
			fail "/mnt/$m connected $(xprt_field "/mnt/$m" connect_count) times"
		rm -rf "/mnt/$m/share-$m"
	done
	umount /mnt/many /mnt/one
}

# share_above ADDR: the credits above the floors (8) that the connections
# from client ADDR hold now (the credits column of /proc/net/rpcrdma).
share_above() {
	awk -v a="$1:" '$1 == "server" && index($3, a) == 1 &&
		$4 == "connected" { s += $6 - 8 } END { print s + 0 }' \
		/proc/net/rpcrdma
}

# share_wait ADDR OP N SECS: wait up to SECS seconds, looking every half
# second, until share_above ADDR is at most (OP le) or at least (OP ge)
# N; say how long that took, or what it still was.  Status 1 if it
# never was.
share_wait() {
	local addr=$1 op=$2 n=$3 secs=$4 start now got

	start=$(date +%s%N)
	while :; do
		got=$(share_above "$addr")
		now=$(date +%s%N)
		if { [ "$op" = le ] && [ "$got" -le "$n" ]; } ||
		   { [ "$op" = ge ] && [ "$got" -ge "$n" ]; }; then
			echo "client $addr: $got credits above its floors after $(((now - start) / 1000000)) ms"
			return 0
		fi
		[ $(((now - start) / 1000000000)) -lt "$secs" ] || break
		sleep 0.5
	done
	echo "client $addr: still $got credits above its floors after $secs s"
	return 1
}

server_step_credit_share() {
	local budget=64 settle=45 old oldq quiet share many one start why=

	add_rdma_address 192.0.2.11
	old=$(cat /proc/sys/sunrpc/svc_rdma/credit_budget)
	oldq=$(cat /proc/sys/sunrpc/svc_rdma/credit_quiet_timeout)
	quiet=${CREDIT_QUIET_TIMEOUT:-5}
	echo "$budget" >/proc/sys/sunrpc/svc_rdma/credit_budget ||
		fail "cannot set credit_budget"
	echo "$quiet" >/proc/sys/sunrpc/svc_rdma/credit_quiet_timeout ||
		fail "cannot set credit_quiet_timeout"
	share=$((budget / 2))
	signal_peer share-ready
	wait_peer share-grown "${PEER_TIMEOUT:-0}"
	many=$(share_above 192.0.2.2)
	echo "client 192.0.2.2, busy on 16 connections, holds $many credits above its floors"
	[ "$many" -ge "$share" ] ||
		fail "the nconnect=16 client took only $many credits above its floors: it did not grow"
	wait_peer share-many-quiet "${PEER_TIMEOUT:-0}"
	# A quiet connection falls to its floor credit_quiet_timeout after its
	# last Call: within 10 s more, all 16 must be there.  The other client
	# starts in any case, so that a failure shows what it got.
	step "the nconnect=16 client quiet: its grants fall to the floor (credit_quiet_timeout $quiet)"
	share_wait 192.0.2.2 le 0 $((quiet + 10)) ||
		why="the nconnect=16 client kept $(share_above 192.0.2.2) credits above its floors $((quiet + 10)) s after it went quiet"
	signal_peer share-one-go
	wait_peer share-one-started "${PEER_TIMEOUT:-0}"
	step "the one-connection client's grant reaches its share ($((8 + share))) within 15 s"
	share_wait 192.0.2.12 ge "$share" 15 ||
		why="${why:+$why; }the one-connection client's grant stayed below its share ($((8 + share))) for 15 s after it started"
	if [ -n "$why" ]; then
		cat /proc/net/rpcrdma
		fail "$why"
	fi
	wait_peer share-one-quiet "${PEER_TIMEOUT:-0}"
	step "both clients quiet: every grant back at the floor"
	share_wait 192.0.2.12 le 0 $((quiet + 10)) ||
		fail "the one-connection client kept $(share_above 192.0.2.12) credits above its floor $((quiet + 10)) s after it went quiet"
	share_wait 192.0.2.2 le 0 1 ||
		fail "the nconnect=16 client holds $(share_above 192.0.2.2) credits above its floors while quiet"
	# What nfs-server.sh checks of the second round's events starts here.
	echo "credit_share: second round" >/sys/kernel/tracing/trace_marker
	signal_peer share-both-quiet
	wait_peer share-loaded "${PEER_TIMEOUT:-0}"
	# Both busy: the budget must come to be shared within 45
	# seconds (the second client's fio may take many seconds to start
	# its I/O on a guest this busy), and stay within the budget.
	step "/proc/net/rpcrdma with two clients sharing a budget of $budget"
	start=$(date +%s)
	while :; do
		cat /proc/net/rpcrdma >/tmp/share-table ||
			fail "cannot read /proc/net/rpcrdma"
		# Credits above the floor (8) by client, from the credits column.
		many=$(awk '$1 == "server" && $3 ~ /^192\.0\.2\.2:/ && $4 == "connected" {
			n++; s += $6 - 8 } END { print s + 0 }' /tmp/share-table)
		one=$(awk '$1 == "server" && $3 ~ /^192\.0\.2\.12:/ && $4 == "connected" {
			print $6; exit }' /tmp/share-table)
		[ -n "$one" ] && [ "$one" -ge 24 ] &&
			[ "$many" -le $((share + 8)) ] && break
		[ $(($(date +%s) - start)) -lt "$settle" ] || break
		sleep 1
	done
	echo "after $(($(date +%s) - start)) s:"
	cat /tmp/share-table
	# Kept with the logs: how the grants moved up to here.
	cp /sys/kernel/tracing/trace /out/share-trace.txt
	signal_peer share-checked
	echo "client 192.0.2.2 holds $many credits above its floors; 192.0.2.12's grant is ${one:-none}"
	[ -n "$one" ] || fail "/proc/net/rpcrdma: no connection from 192.0.2.12"
	[ $((many + one - 8)) -le "$budget" ] ||
		fail "the two clients hold $((many + one - 8)) credits above their floors, over the budget of $budget"
	[ "$many" -le $((share + 8)) ] ||
		fail "client 192.0.2.2 kept $many credits above its floors, more than its share ($share) and a batch"
	[ "$one" -ge 24 ] ||
		fail "the one-connection client's grant is $one: it did not get credits from the shared budget"
	echo "$old" >/proc/sys/sunrpc/svc_rdma/credit_budget
	echo "$oldq" >/proc/sys/sunrpc/svc_rdma/credit_quiet_timeout
}
