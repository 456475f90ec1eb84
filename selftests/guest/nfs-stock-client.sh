# SPDX-License-Identifier: GPL-2.0
# Guest "client": mounts the server's export over the stock rpcrdma, writes
# files around the inline thresholds, remounts and verifies them.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

SIZES="0 1 1023 1024 1025 4095 4096 4097 65536 1048576 ${BIG_FILE:-8388608}"

test_begin
rdma_link eth0
load_stock_rpcrdma
wait_peer server-ready 120
for vers in ${NFS_VERSIONS:-3 4.2}; do
	step "NFSv$vers: write, remount, verify"
	nfs_mount "$vers" 192.0.2.1 /mnt
	mount_xprt_line /mnt
	rm -f /mnt/f.*
	write_files /mnt $SIZES
	umount /mnt
	nfs_mount "$vers" 192.0.2.1 /mnt
	verify_files /mnt
	umount /mnt
done
cp /tmp/sums /out/client.sums
signal_peer client-finished
unload_rpcrdma
test_end
step "clean"
