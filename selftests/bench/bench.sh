#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: ours against the stock rpcrdma in the same two guests, one
# run per half, swapping modules between rounds without rebooting (the
# order alternates).  Prints, per metric, the median over the rounds of
# the ratio ours/stock, and writes the raw figures to build/bench/HALF/.
#
#   bench.sh --half client|server|both [OUTDIR]
#
#   client  our client against the stock client, both against the stock
#           server (the client guest swaps)
#   server  our server against the stock server, for the stock client
#           (the server guest swaps, nfsd restarted around the swap)
#   both    our client with our server against the stock client with the
#           stock server (both guests swap; BENCH_VERSUS and
#           BENCH_SYSCTL_* then apply to both)
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/lib.sh"

half=
while [ $# -gt 0 ]; do
	case "$1" in
	--half) half=$2; shift 2 ;;
	-*) die "bench.sh: unknown option $1" ;;
	*) break ;;
	esac
done
guest=(--server-script "$RPCRDMA_TOP/selftests/guest/bench-server.sh"
	--client-script "$RPCRDMA_TOP/selftests/guest/bench-server-client.sh")
# Where the settings of the swapped module go.
swapped=--server-env
case "$half" in
client)
	title="client: ours vs stock (stock server)"
	guest=(--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh"
		--server-env SERVER_MODULE=stock --server-env CPU_SAMPLER=1
		--client-script "$RPCRDMA_TOP/selftests/guest/bench-client.sh")
	swapped=--client-env ;;
server)
	title="server: ours vs stock (stock client)" ;;
both)
	title="both ends: ours vs stock (same module in client and server)"
	guest+=(--env BENCH_PAIR=1)
	swapped=--env ;;
*) die "usage: bench.sh --half client|server|both [OUTDIR]" ;;
esac
# A job name the guests do not know would run nothing and leave no
# figures: refuse it before booting them.
all_jobs=$(sed -n 's/^BENCH_ALL_JOBS="\(.*\)"$/\1/p' \
	"$RPCRDMA_TOP/selftests/guest/bench-lib.sh")
for job in ${BENCH_JOBS:-}; do
	case " $all_jobs " in
	*" $job "*) ;;
	*) die "BENCH_JOBS: no job \"$job\" (jobs: $all_jobs)" ;;
	esac
done
out=${1:-$RPCRDMA_TOP/build/bench/$half}
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
	--server-kernel "$kernel" --client-kernel "$kernel" "${guest[@]}" \
	--timeout 5400 --env "RPCRDMA_KO=$ko" --env PEER_TIMEOUT=5300 \
	--env "BENCH_ROUNDS=${BENCH_ROUNDS:-8}" \
	--env "BENCH_RUNTIME=${BENCH_RUNTIME:-8}" \
	${BENCH_JOBS:+--env "BENCH_JOBS=$BENCH_JOBS"} \
	${BENCH_VERSUS:+$swapped "BENCH_VERSUS=$BENCH_VERSUS"} \
	${BENCH_SYSCTL_OURS:+$swapped "BENCH_SYSCTL_OURS=$BENCH_SYSCTL_OURS"} \
	${BENCH_SYSCTL_STOCK:+$swapped "BENCH_SYSCTL_STOCK=$BENCH_SYSCTL_STOCK"} \
	${BENCH_PROFILE:+--env "BENCH_PROFILE=$BENCH_PROFILE"} \
	${RPCRDMA_INSN_PROFILE:+--env BENCH_INSN_PROFILE=1} \
	${BENCH_WAKES:+--env "BENCH_WAKES=$BENCH_WAKES"} \
	${BENCH_PROFILE_FILTER:+--env "BENCH_PROFILE_FILTER=$BENCH_PROFILE_FILTER"} ||
	exit 1
bench_instruments_stop "$out"
# The title names the kernel of both guests and of the stock module when
# it is not 6.12; its goal is 7.2's then (ratios.py).
kver=${RPCRDMA_KERNEL:-6.12}
[ "$kver" = 6.12 ] || title="$title on $kver"
python3 "$RPCRDMA_TOP/selftests/bench/ratios.py" "$out/bench.csv" "$title" "$kver"
