# SPDX-License-Identifier: GPL-2.0
# Guest "server": a hostile RPC-over-RDMA server (selftests/peer/
# hostile_server.py) in front of the kernel NFS server, which listens on
# TCP only.  The client guest's driver arms its crafted replies one at a
# time; this guest checks that the server itself ran to the end and that
# its kernel stayed clean.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

SERVER="$RPCRDMA_TOP/selftests/peer/hostile_server.py"

test_begin
rdma_link eth0
step "NFS server on TCP, hostile RPC-over-RDMA server on 192.0.2.1 port $NFS_PORT"
nfs_server_start tcp-only
rm -f /out/hs-*
/usr/bin/python3 "$SERVER" --addr 192.0.2.1 --port "$NFS_PORT" &
server=$!
for _ in $(seq 150); do
	[ -e /out/hs-ready ] && break
	kill -0 "$server" 2>/dev/null || fail "the hostile server exited early"
	sleep 0.2
done
[ -e /out/hs-ready ] || fail "the hostile server did not start"
signal_peer server-ready
# The client unmounts before the server goes (an NFSv3 umount talks to
# mountd).
wait_peer client-finished 0
kill -TERM "$server"
wait "$server" || fail "the hostile server failed"
nfs_server_stop
test_end
