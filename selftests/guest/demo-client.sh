# SPDX-License-Identifier: GPL-2.0
# Demo guest "client": mounts the server over RDMA and moves data.
. "$RPCRDMA_TOP/selftests/guest/demo-lib.sh"

test_begin
MiB=${DEMO_MIB:-32}
say "I am the NFS client, 192.0.2.2, running Linux $(uname -r)."
rdma_link eth0
load_transport_for_demo "[ -e /proc/sys/sunrpc/rdma_max_inline_read ]" \
	"NFS client transport (xprtrdma)"
wait_peer server-ready 180
say "Mounting 192.0.2.1:/ with NFSv4.2 over RDMA (port $NFS_PORT), using our rpcrdma:"
nfs_mount 4.2 192.0.2.1 /mnt
say "  $(mount_xprt_line /mnt | sed 's/^[[:space:]]*//')"
head -c "$((MiB * 1048576))" /dev/urandom >/tmp/data
sum=$(sha256sum </tmp/data | cut -c1-16)
t0=$(date +%s%N)
cp /tmp/data /mnt/data && sync
t1=$(date +%s%N)
say "Wrote $MiB MiB in $(( (t1 - t0) / 1000000 )) ms."
say "  $(xprt_field /mnt read_chunk_count) WRITEs sent their data in Read chunks (the server pulled it by RDMA Read)."
umount /mnt
nfs_mount 4.2 192.0.2.1 /mnt
t0=$(date +%s%N)
rsum=$(sha256sum </mnt/data | cut -c1-16)
t1=$(date +%s%N)
say "Read it back after a fresh mount in $(( (t1 - t0) / 1000000 )) ms."
say "  $(xprt_field /mnt write_chunk_count) READs offered Write chunks (the server placed the data by RDMA Write)."
[ "$sum" = "$rsum" ] || fail "checksums differ: wrote $sum, read $rsum"
say "Checksums match ($sum): the data went over RDMA and came back intact."
say "Transport counters: $(mount_xprt_line /mnt | sed 's/^[[:space:]]*//')"
umount /mnt
signal_peer client-finished
unload_rpcrdma
test_end
say "Unmounted and unloaded; no kernel warnings."
