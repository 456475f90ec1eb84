# SPDX-License-Identifier: GPL-2.0
# Guest: NFS over RDMA with the kernel's own rpcrdma, client and server in
# one guest over soft-RoCE on a dummy interface.  Proves the harness.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

SIZES="0 1 1023 1024 1025 4095 4096 4097 65536 1048576 ${BIG_FILE:-8388608}"

test_begin
step "soft-RoCE on a dummy interface"
dummy_link 192.0.2.1/24
rdma_link rdma0
load_stock_rpcrdma
step "NFS server on 192.0.2.1, rdma port $NFS_PORT"
nfs_server_start
for vers in 3 4.2; do
	step "NFSv$vers: write, remount, verify"
	nfs_mount "$vers" 192.0.2.1 /mnt
	write_files /mnt $SIZES
	umount /mnt
	nfs_mount "$vers" 192.0.2.1 /mnt
	verify_files /mnt
	verify_files "$EXPORT"
	rm -f /mnt/f.*
	umount /mnt
done
step "shutting down"
nfs_server_stop
unload_rpcrdma
test_end
step "clean"
