# SPDX-License-Identifier: GPL-2.0
# Guest "client": our rpcrdma.ko ($RPCRDMA_KO) as the NFS client transport
# against the server guest.  For each NFS version: files around the inline
# thresholds written, remounted and compared; a directory of thousands of
# entries listed (Long Reply); a symlink with a several-KiB target (Long
# Call); then concurrent fio verify; finally umount, rmmod, clean dmesg.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

SIZES="0 1 1023 1024 1025 4095 4096 4097 65536 1048576 ${BIG_FILE:-8388608}"
DIR_ENTRIES=${DIR_ENTRIES:-3000}

long_target() {
	local i t=""

	for i in $(seq 1 80); do
		t="${t}component-$(printf %04d "$i")-of-a-long-symlink-target-padding-/"
	done
	echo "${t}end"
}

test_begin
rxe_link eth0
load_our_rpcrdma "$RPCRDMA_KO"
[ -e /proc/sys/sunrpc/rdma_max_inline_read ] ||
	fail "our module did not register its client tunables"
wait_peer server-ready 120
target=$(long_target)
for vers in ${NFS_VERSIONS:-3 4.0 4.1 4.2}; do
	step "NFSv$vers: write, remount, verify"
	nfs_mount "$vers" 192.0.2.1 /mnt
	mount_xprt_line /mnt
	rm -rf /mnt/f.* /mnt/dir /mnt/link
	write_files /mnt $SIZES
	umount /mnt
	nfs_mount "$vers" 192.0.2.1 /mnt
	verify_files /mnt

	step "NFSv$vers: symlink with a ${#target}-byte target (Long Call)"
	ln -s "$target" /mnt/link || fail "creating the long symlink failed"
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
	rm -rf /mnt/dir /mnt/link
	mount_xprt_line /mnt
	umount /mnt
done

if [ -n "${FIO_SIZE:-16M}" ] && command -v fio >/dev/null; then
	step "fio: 4 writers then 4 readers with verify, NFSv4.2"
	nfs_mount 4.2 192.0.2.1 /mnt
	mkdir -p /mnt/fio
	fio --name=verify --directory=/mnt/fio --numjobs=4 \
		--size="${FIO_SIZE:-16M}" --bs=64k --rw=randwrite --direct=1 \
		--ioengine=psync --verify=crc32c --do_verify=1 \
		--verify_fatal=1 --group_reporting --output=/tmp/fio.out ||
		{ cat /tmp/fio.out; fail "fio verify failed"; }
	grep -E 'WRITE:|READ:' /tmp/fio.out
	rm -rf /mnt/fio
	umount /mnt
fi

# Leave files for the server to check from its side.
nfs_mount 4.2 192.0.2.1 /mnt
rm -f /mnt/f.*
write_files /mnt $SIZES
umount /mnt
cp /tmp/sums /out/client.sums
signal_peer client-finished
unload_rpcrdma
test_end
step "clean"
