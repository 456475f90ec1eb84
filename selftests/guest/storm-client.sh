# SPDX-License-Identifier: GPL-2.0
# Guest "client" of the connection storm: for each server module in turn,
# an NFSv4.2 mount over the stock rpcrdma writes files, the storm peer
# (selftests/peer/storm.py) opens STORM_COUNT connections from
# STORM_PARALLEL (8) processes at once, holds them while the server
# measures, and closes them; then the mount must still read back what it
# wrote and write more.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

PEER="$RPCRDMA_TOP/selftests/peer/storm.py"

test_begin
rdma_link eth0
load_stock_rpcrdma
n=0
for module in ${STORM_MODULES:?set by test 72 or 73}; do
	n=$((n + 1))
	wait_peer "storm-ready-$n-$module" 0
	nfs_mount 4.2 192.0.2.1 /mnt
	write_files /mnt 4096 1048576
	step "storm of ${STORM_COUNT:-256} connections against the $module server"
	python3 "$PEER" --server 192.0.2.1 --port "$NFS_PORT" \
		--count "${STORM_COUNT:-256}" --remote-invalidate \
		--parallel "${STORM_PARALLEL:-8}" \
		--up-flag "/out/storm-up-$n-$module.flag" \
		--hold-flag "/out/storm-measured-$n-$module.flag" \
		--closed-flag "/out/storm-closed-$n-$module.flag" \
		>/tmp/storm.out || { cat /tmp/storm.out
		fail "the storm against the $module server failed"; }
	cat /tmp/storm.out
	echo "$module $(sed -n 's/.* up and answered in \([0-9.]*\)s.*/\1/p' /tmp/storm.out)" \
		>>/tmp/storm-times
	verify_files /mnt
	write_files /mnt 65536 4194304
	umount /mnt
	nfs_mount 4.2 192.0.2.1 /mnt
	verify_files /mnt
	umount /mnt
	signal_peer "storm-done-$n-$module"
done
# The last storm of each module: the first one in a guest also pays for
# growing the caches every later storm finds ready (slab, page tables).
awk '{ t[$1] = $2 } END { if (t["stock"] > 0)
	printf "storm: time to bring them up, ours/stock: %.2f\n", t["ours"] / t["stock"] }' \
	/tmp/storm-times
unload_rpcrdma
test_end
