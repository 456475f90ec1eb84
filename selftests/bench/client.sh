#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench (client): our client against the stock client, same stock
# server, same two guests, one run.  Prints, per metric, the median over
# the rounds of the ratio ours/stock (each round measures both modules
# back to back), and writes the raw figures to build/bench/client/.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/lib.sh"

out=${1:-$RPCRDMA_TOP/build/bench/client}
rm -rf "$out"
mkdir -p "$out"
# BENCH_KERNEL=test runs both guests on the debug test kernel, which has
# the function profiler BENCH_PROFILE=1 needs (slower, for profiles only).
kernel=${BENCH_KERNEL:-debian}
[ "$kernel" = debian ] || "$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null ||
	exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" "$kernel") || exit 1
bench_instruments "$out"
"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$out" \
	--server-kernel "$kernel" --client-kernel "$kernel" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--server-env SERVER_MODULE=stock \
	--client-script "$RPCRDMA_TOP/selftests/guest/bench-client.sh" \
	--timeout 5400 --env "RPCRDMA_KO=$ko" --env PEER_TIMEOUT=5300 \
	--server-env CPU_SAMPLER=1 \
	--env "BENCH_ROUNDS=${BENCH_ROUNDS:-8}" \
	--env "BENCH_RUNTIME=${BENCH_RUNTIME:-8}" \
	${BENCH_JOBS:+--env "BENCH_JOBS=$BENCH_JOBS"} \
	${BENCH_VERSUS:+--client-env "BENCH_VERSUS=$BENCH_VERSUS"} \
	${BENCH_SYSCTL_OURS:+--client-env "BENCH_SYSCTL_OURS=$BENCH_SYSCTL_OURS"} \
	${BENCH_SYSCTL_STOCK:+--client-env "BENCH_SYSCTL_STOCK=$BENCH_SYSCTL_STOCK"} \
	${BENCH_PROFILE:+--env "BENCH_PROFILE=$BENCH_PROFILE"} \
	${RPCRDMA_INSN_PROFILE:+--env BENCH_INSN_PROFILE=1} \
	${BENCH_PROFILE_FILTER:+--env "BENCH_PROFILE_FILTER=$BENCH_PROFILE_FILTER"} ||
	exit 1
bench_instruments_stop "$out"
python3 "$RPCRDMA_TOP/selftests/bench/ratios.py" "$out/bench.csv" \
	"client: ours vs stock (stock server)"
