# SPDX-License-Identifier: GPL-2.0
# Guest "client": a hostile RPC-over-RDMA peer (selftests/peer/hostile_peer.py)
# sends malformed transport headers to the server guest while an NFSv4.2
# mount over the stock rpcrdma keeps writing to it.  The mount's I/O must
# survive (a background writer never fails; files written afterwards read
# back intact) and the kernel log must stay clean.  With PEER_STRICT=1 every
# case of the peer must pass; with PEER_STRICT=0 (a server that does not
# follow our spec, like the stock one) only the peer's positive control
# must, and the other results are just reported.  With READ_STALL_SYNC=1
# the peer's read-stall case waits for the server guest's half of it
# (nfs-server.sh read_stall_watch) through flags in /out.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

PEER="$RPCRDMA_TOP/selftests/peer/hostile_peer.py"
PEER_TAP=/out/hostile-peer.tap

test_begin
rdma_link eth0
load_stock_rpcrdma
wait_peer server-ready 120
nfs_mount 4.2 192.0.2.1 /mnt
mount_xprt_line /mnt

step "background writer on the NFSv4.2 mount"
start_writer /mnt/background 32 0.2
sleep 2

# The peer's Read chunk case writes into this file with NFSv4 WRITEs of
# its own, and saves what the file must then hold.
: >/mnt/peer-chunks
rm -f /tmp/peer-chunks.expected

step "hostile peer against 192.0.2.1 port $NFS_PORT"
sync=
if [ "${READ_STALL_SYNC:-0}" = 1 ]; then
	sync="--sync-dir /out"
fi
before=$(cat /tmp/written)
/usr/bin/python3 "$PEER" --server 192.0.2.1 --port "$NFS_PORT" \
	--chunk-file peer-chunks --chunk-expect /tmp/peer-chunks.expected \
	--large-io "${LARGE_IO:-0}" $sync \
	${HOSTILE_PEER_ARGS:-} | tee "$PEER_TAP"
peer_rc=${PIPESTATUS[0]}

stop_writer || fail "the background writer failed while the peer ran"
after=$(cat /tmp/written)
echo "background writer: $((after - before)) MiB while the peer ran, $after in all"
[ "$after" -gt "$before" ] || fail "the background writer made no progress"
writer_check /mnt/background || fail "the background writer's file is wrong"

step "the mount still works: write, remount, read back"
write_files /mnt 1 4097 65536 1048576 8388608
umount /mnt
nfs_mount 4.2 192.0.2.1 /mnt
verify_files /mnt
if [ -e /tmp/peer-chunks.expected ]; then
	cmp /mnt/peer-chunks /tmp/peer-chunks.expected ||
		fail "the file the peer wrote through two Read chunks differs on the mount"
	echo "the peer's Read chunk WRITEs read back intact through the mount"
fi
rm -f /mnt/background /mnt/peer-chunks
umount /mnt

# The server checks the same files from its side.
cp /tmp/sums /out/client.sums
signal_peer client-finished
unload_rpcrdma
test_end

grep -q '^ok 1 - positive control' "$PEER_TAP" ||
	fail "the hostile peer's first positive control failed (is the peer working?)"
if [ "$peer_rc" != 0 ]; then
	failed=$(grep -c '^not ok' "$PEER_TAP")
	[ "${PEER_STRICT:-1}" = 1 ] &&
		fail "the hostile peer: $failed case(s) failed (exit $peer_rc)"
	echo "# hostile peer: $failed case(s) differ from our spec (PEER_STRICT=0: reported only)"
fi
step "clean"
