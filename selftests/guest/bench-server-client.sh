# SPDX-License-Identifier: GPL-2.0
# Guest "client" of make bench (server): the stock client measures
# whichever server module the server guest has loaded (see
# bench-server.sh).  Each measurement runs the jobs of bench-lib.sh with
# the CPU time per operation of both guests.  Results go to
# /out/bench.csv as "round,module,metric,value", where module names the
# server's module.  With BENCH_PAIR=1 the client swaps its module too, so
# that each slot runs the same module at both ends: what an administrator
# who replaces it on clients and servers gets.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"
. "$RPCRDMA_TOP/selftests/guest/bench-lib.sh"

ROUNDS=${BENCH_ROUNDS:-8}

test_begin
rdma_link eth0
pair=${BENCH_PAIR:-0}
[ "$pair" = 1 ] || load_module stock
for round in $(seq 0 "$ROUNDS"); do
	for mod in $(round_order "$round"); do
		wait_peer "serve-$round-$mod" "${PEER_TIMEOUT:-600}"
		[ "$pair" != 1 ] || load_module "$mod"
		step "round $round: measuring the $mod server"
		bench_round "$round" "$mod"
		[ "$pair" != 1 ] || unload_rpcrdma
		signal_peer "measured-$round-$mod"
	done
done
signal_peer client-finished
[ "$pair" = 1 ] || unload_rpcrdma
test_end
