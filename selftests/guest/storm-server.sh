# SPDX-License-Identifier: GPL-2.0
# Guest "server" of the connection storm: the kernel NFS server over our
# rpcrdma, then over the stock one, in the same boot.  For each, the memory
# in use is read before the storm, with STORM_COUNT connections held, and
# after they are closed: per connection, and back where it was.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

count=${STORM_COUNT:-256}

# KiB of memory in use (not free, not page cache) and of slab.
mem_used() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 1
	awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 }
	     /^Buffers:/ { b = $2 } /^Cached:/ { c = $2 } /^Slab:/ { s = $2 }
	     END { print t - f - b - c, s }' /proc/meminfo
}

# RDMA-CM ids of this server that are connections, not listeners.
connected_ids() {
	rdma resource show cm_id 2>/dev/null | grep -c 'state CONNECT'
}

test_begin
rdma_link eth0
for module in ours stock; do
	load_rpcrdma "$module"
	nfs_server_start
	set -- $(mem_used)
	before=$1 slab_before=$2
	signal_peer "storm-ready-$module"
	wait_peer "storm-up-$module" 0
	held=$(connected_ids)
	set -- $(mem_used)
	during=$1 slab_during=$2
	echo "$module: $held connections held"
	signal_peer "storm-measured-$module"
	wait_peer "storm-closed-$module" 0
	for _ in $(seq 120); do
		[ "$(connected_ids)" -le 1 ] && break
		sleep 0.5
	done
	left=$(connected_ids)
	set -- $(mem_used)
	after=$1 slab_after=$2
	per=$(((during - before) / count))
	slab_per=$(((slab_during - slab_before) / count))
	echo "storm $module: $count connections, $per KiB each ($slab_per KiB slab); in use before $before KiB, during $during, after $after"
	echo "$module $per $slab_per $before $during $after $held $left" >>/out/storm-figures
	[ "$held" -ge "$count" ] ||
		fail "$module: $held connections held, $count expected"
	# The mount's own connection may remain.
	[ "$left" -le 1 ] ||
		fail "$module: $left connections still there after the storm closed"
	# What the storm took must come back (slack: 8 MiB, or a tenth).
	slack=$(((during - before) / 10))
	[ "$slack" -lt 8192 ] && slack=8192
	[ "$after" -le $((before + slack)) ] ||
		fail "$module: $((after - before)) KiB still in use after the storm"
	wait_peer "storm-done-$module" 0
	nfs_server_stop
	unload_rpcrdma
done
awk '{ a[$1] = $2 } END { if (a["stock"] > 0)
	printf "storm: memory per connection, ours/stock: %.2f\n", a["ours"] / a["stock"] }' /out/storm-figures
test_end
