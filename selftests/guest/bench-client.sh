# SPDX-License-Identifier: GPL-2.0
# Guest "client" of make bench: alternates two client modules in the same
# guest, against the same server, without rebooting.  Each round loads one
# module, runs the jobs of bench-lib.sh (fio sequential 1 MiB write and
# read, 4 KiB random read and write, a metadata job, nconnect=4 with 4
# fio jobs) with the CPU time per operation of both guests, and unloads
# it; the order of the two modules alternates between rounds (ABBA),
# after a warm-up round with the stock module that is not recorded.
# Results go to /out/bench.csv as "round,module,metric,value".
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"
. "$RPCRDMA_TOP/selftests/guest/bench-lib.sh"

ROUNDS=${BENCH_ROUNDS:-8}

test_begin
rdma_link eth0
wait_peer server-ready 120
for round in $(seq 0 "$ROUNDS"); do
	for mod in $(round_order "$round"); do
		step "round $round: $mod"
		load_module "$mod"
		bench_round "$round" "$mod"
		unload_rpcrdma
	done
done
signal_peer client-finished
test_end
