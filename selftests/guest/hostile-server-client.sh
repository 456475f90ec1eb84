# SPDX-License-Identifier: GPL-2.0
# Guest "client": our rpcrdma mounts NFSv3 from the hostile server in the
# other guest, and selftests/peer/reply_driver.py runs the crafted replies
# of selftests/peer/reply_cases.py against it (the fast subset unless
# HOSTILE_SERVER_ALL=1), checking what each RPC saw.  The mount must then
# unmount, the module unload, kmemleak (CHECK_KMEMLEAK=1) find nothing,
# and the kernel log stay clean.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

DRIVER="$RPCRDMA_TOP/selftests/peer/reply_driver.py"

test_begin
rdma_link eth0
load_our_rpcrdma "$RPCRDMA_KO"
wait_peer server-ready 180
step "NFSv3 over RDMA from the hostile server (timeo=5s, hard)"
mkdir -p /mnt
mount -t nfs -o vers=3,proto=rdma,port=$NFS_PORT,nolock,noac,lookupcache=none,rsize=8192,wsize=1024,timeo=50 \
	"192.0.2.1:$EXPORT" /mnt || fail "mount through the hostile server failed"
mount_xprt_line /mnt
args=--fast
[ "${HOSTILE_SERVER_ALL:-0}" = 1 ] && args=
# shellcheck disable=SC2086
/usr/bin/python3 "$DRIVER" --mnt /mnt --server 192.0.2.1 $args ${HOSTILE_SERVER_ARGS:-} |
	tee /out/hostile-server.tap
rc=${PIPESTATUS[0]}
mount_xprt_line /mnt
umount /mnt || fail "cannot unmount after the crafted replies"
signal_peer client-finished
unload_rpcrdma
test_end
[ "$rc" = 0 ] || fail "crafted replies: some cases failed (/out/hostile-server.tap)"
