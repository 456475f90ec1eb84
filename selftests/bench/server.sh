#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench (server): our server against the stock server, same stock
# client, same two guests, one run.  The server guest swaps the two
# modules between rounds without rebooting; the order alternates.  Prints,
# per metric, the median over the rounds of the ratio ours/stock, and
# writes the raw figures to build/bench/server/.
#
# BENCH_PAIR=1 swaps the client's module with the server's (our client
# with our server against the stock client with the stock server);
# BENCH_VERSUS and BENCH_SYSCTL_* then apply to both guests.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/lib.sh"

out=${1:-$RPCRDMA_TOP/build/bench/server}
title="server: ours vs stock (stock client)"
both=--server-env
if [ "${BENCH_PAIR:-0}" = 1 ]; then
	out=${1:-$RPCRDMA_TOP/build/bench/pair}
	title="both ends: ours vs stock (same module in client and server)"
	both=--env
fi
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
	--server-script "$RPCRDMA_TOP/selftests/guest/bench-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/bench-server-client.sh" \
	--timeout 5400 --env "RPCRDMA_KO=$ko" --env PEER_TIMEOUT=5300 \
	--env "BENCH_ROUNDS=${BENCH_ROUNDS:-8}" \
	--env "BENCH_RUNTIME=${BENCH_RUNTIME:-8}" \
	${BENCH_JOBS:+--env "BENCH_JOBS=$BENCH_JOBS"} \
	${BENCH_PAIR:+--env "BENCH_PAIR=$BENCH_PAIR"} \
	${BENCH_VERSUS:+$both "BENCH_VERSUS=$BENCH_VERSUS"} \
	${BENCH_SYSCTL_OURS:+$both "BENCH_SYSCTL_OURS=$BENCH_SYSCTL_OURS"} \
	${BENCH_SYSCTL_STOCK:+$both "BENCH_SYSCTL_STOCK=$BENCH_SYSCTL_STOCK"} \
	${BENCH_PROFILE:+--env "BENCH_PROFILE=$BENCH_PROFILE"} \
	${RPCRDMA_INSN_PROFILE:+--env BENCH_INSN_PROFILE=1} \
	${BENCH_PROFILE_FILTER:+--env "BENCH_PROFILE_FILTER=$BENCH_PROFILE_FILTER"} ||
	exit 1
bench_instruments_stop "$out"
python3 "$RPCRDMA_TOP/selftests/bench/ratios.py" "$out/bench.csv" "$title"
