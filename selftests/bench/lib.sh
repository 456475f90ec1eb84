# SPDX-License-Identifier: GPL-2.0
# What both halves of make bench set up on the host around the guests.

# bench_instruments OUT: count each guest's instructions and its REP
# string instructions' work (insn-count.so, a QEMU TCG plugin of API
# version 4: QEMU 9.2 or later, which make deps provides) and answer
# the jobs' CPU marks from the host (host_cpu.py, left running as
# $BENCH_SAMPLER until bench_instruments_stop).  BENCH_INSN_PROFILE=1
# also counts the instructions of every block of kernel code, for a
# per-function profile of each job.
bench_instruments() {
	local out=$1 qemu version so=$RPCRDMA_TOP/build/insn-count.so

	qemu=$(guest_qemu)
	# MAJOR * 100 + MINOR: 902 for 9.2.
	version=$("$qemu" --version |
		awk 'NR == 1 { split($4, v, "."); print v[1] * 100 + v[2] }')
	if [ "${version:-0}" -ge 902 ]; then
		mkdir -p "$RPCRDMA_TOP/build"
		gcc -O2 -Wall -shared -fPIC -o "$so" \
			"$RPCRDMA_TOP/selftests/bench/insn-count.c" -lpthread ||
			die "cannot build the instruction-count plugin"
		export RPCRDMA_INSN_PLUGIN=$so
	else
		echo "bench: $qemu is older than 9.2: no instruction counts" \
			"(make deps installs a newer one)" >&2
	fi
	# RPCRDMA_INSN_PROFILE alone would make the plugin count blocks
	# that nobody snapshots: either knob asks for the whole profile.
	local profile=()
	[ -z "${RPCRDMA_INSN_PROFILE:-}" ] || BENCH_INSN_PROFILE=1
	if [ "${BENCH_INSN_PROFILE:-0}" = 1 ] && [ -n "${RPCRDMA_INSN_PLUGIN:-}" ]; then
		export RPCRDMA_INSN_PROFILE=1
		profile=(--profile)
	fi
	python3 "$RPCRDMA_TOP/selftests/bench/host_cpu.py" "$out" "${profile[@]}" &
	BENCH_SAMPLER=$!
	trap bench_instruments_stop EXIT
}

# bench_instruments_stop OUT: stop answering marks; with
# BENCH_INSN_PROFILE=1, write each job's instruction profile
# (OUT/insn-profile-GUEST-LABEL.txt).
bench_instruments_stop() {
	kill "$BENCH_SAMPLER" 2>/dev/null || true
	[ -z "${RPCRDMA_INSN_PROFILE:-}" ] || [ -z "${1:-}" ] ||
		python3 "$RPCRDMA_TOP/selftests/bench/insn_profile.py" "$1"
}
