#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench (client): our client against the stock client, same stock
# server, same two guests, one run.  Prints, per metric, the median over
# the rounds of the ratio ours/stock (each round measures both modules
# back to back), and writes the raw figures to build/bench/client/.
. "$(dirname "$0")/../lib/common.sh"

out=${1:-$RPCRDMA_TOP/build/bench/client}
rm -rf "$out"
mkdir -p "$out"
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$out" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-stock-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/bench-client.sh" \
	--timeout 3000 --env "RPCRDMA_KO=$ko" --env PEER_TIMEOUT=2900 \
	--env "BENCH_ROUNDS=${BENCH_ROUNDS:-5}" \
	--env "BENCH_RUNTIME=${BENCH_RUNTIME:-8}" || exit 1
exec python3 "$RPCRDMA_TOP/selftests/bench/ratios.py" "$out/bench.csv" \
	"client: ours vs stock (stock server)"
