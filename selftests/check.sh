#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: everything CI runs.
#   0. the Makefile's targets read and plan without a kernel tree;
#   1. rpcrdma.ko against Debian's 6.12 headers with W=1 and sparse
#      (C=2: every file), and against Debian's 7.2 headers with W=1 (in
#      the trixie root of lib/trixie-root.sh), not a single warning;
#   2. checkpatch --strict on every source file, every knob the harness
#      reads documented, the list of selftests in Documentation/ as their
#      headers say, and the unit tests of the bench's arithmetic and of
#      its instruction counter;
#   3. KUnit in the debug test kernels built from 6.12's and 7.2's
#      sources (each test case counts, on each kernel);
#   4. the QEMU selftests (each test counts).
# Ends with "N passed, N failed" (CI reads that last line), after a line
# "N skipped"; exits non-zero on any failure.  Each skipped KUnit case or
# selftest is printed by name ("skipped - ...").

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

passed=0 failed=0 skipped=0
count() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok - $2"
	else
		failed=$((failed + 1)); echo "not ok - $2"
	fi
}

# add_counts LOG RUNNER: add the counts of the summary the sub-runner
# (kunit or selftests) prints as its last line, and name each case or test
# it skipped.  Only that line counts: a "3 passed, 0 failed" in a test's
# own output elsewhere in the log is not a result.
add_counts() {
	local line p f s names n name

	case "$2" in
	kunit | kunit-7.2)
		line=$(tail -n 1 "$1" | sed -En \
			's/^kunit: [0-9]+ suites, ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p')
		names=$(sed -n 's/^kunit: skipped //p' "$1") ;;
	selftests)
		line=$(tail -n 1 "$1" | sed -En \
			's/^selftests: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\1 \2 \3/p')
		names=$(sed -n 's/^ok [0-9]* selftests: rpcrdma: \([^ ]*\) # SKIP$/\1/p' "$1") ;;
	*)
		line='' names='' ;;
	esac
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		echo "not ok - $2 printed no summary line (the log's last line: $(tail -n 1 "$1"))"
		return
	fi
	read -r p f s <<<"$line"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	n=0
	while read -r name; do
		[ -n "$name" ] || continue
		echo "skipped - $2: $name"
		n=$((n + 1))
	done <<<"$names"
	if [ "$n" != "$s" ]; then
		failed=$((failed + 1))
		echo "not ok - $2 counted $s skipped but named $n"
	fi
}

log=$RPCRDMA_TOP/build/check
mkdir -p "$log"
start=$(date +%s)

echo "== guests run on $("$(guest_qemu)" --version | head -n 1)"

echo "== Makefile: every target the README names works without a kernel tree"
# A fresh machine has no headers until "make deps" installs them, so make
# must not need KDIR to read the Makefile; only the compiling targets may
# ask for it, and they must say what to do.
mk=$log/makefile.log
if make -C "$RPCRDMA_TOP" -n deps demo check kunit selftests stress \
	test-kernel checkpatch bench KDIR= >"$mk" 2>&1 &&
   grep -q 'scripts/install-deps.sh' "$mk" &&
   grep -q 'selftests/check.sh' "$mk" &&
   ! make -C "$RPCRDMA_TOP" -n modules KDIR= >>"$mk" 2>&1 &&
   grep -q 'no kernel build tree found.*make deps' "$mk"; then
	count 0 "make -n deps demo check ... KDIR= works; make modules KDIR= says what to install"
else
	cat "$mk"
	count 1 "the Makefile works without a kernel tree"
fi

# build_check FLAVOUR WHAT MAKE-OPTIONS...: build rpcrdma.ko for FLAVOUR
# (build-module.sh) and count it: any warning or error fails.
build_check() {
	local flavour=$1 what=$2 ko warnings

	shift 2
	rm -rf "$RPCRDMA_TOP/build/$flavour"
	if ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" "$flavour" "$@" \
		2>"$log/build-$flavour.err"); then
		warnings=$(grep -E 'warning:|error:' "$RPCRDMA_TOP/build/$flavour.log")
		[ -z "$warnings" ] || echo "$warnings"
		[ -z "$warnings" ]
		count $? "$what is warning-free ($ko)"
	else
		cat "$log/build-$flavour.err"
		count 1 "$what"
	fi
}

echo "== build: W=1, sparse, against Debian's headers"
build_check debian "build with W=1 and C=2 (sparse)" W=1 C=2

echo "== build: W=1 against Debian's 7.2 headers (in a trixie root)"
build_check debian-7.2 "build for 7.2 with W=1" W=1

echo "== checkpatch --strict"
"$RPCRDMA_TOP/selftests/lib/checkpatch.sh" >"$log/checkpatch.log" 2>&1
rc=$?
cat "$log/checkpatch.log"
count $rc "checkpatch --strict --no-tree is clean"

echo "== knobs"
"$RPCRDMA_TOP/selftests/lib/knobs-check.sh" >"$log/knobs.log" 2>&1
rc=$?
cat "$log/knobs.log"
count $rc "every knob the harness reads is documented (testing.rst)"

"$RPCRDMA_TOP/selftests/lib/test-table.sh" --check >"$log/test-table.log" 2>&1
rc=$?
cat "$log/test-table.log"
count $rc "Documentation/selftests.rst is the tests' headers"

echo "== the bench's arithmetic"
python3 "$RPCRDMA_TOP/selftests/bench/ratios_test.py" >"$log/ratios.log" 2>&1
rc=$?
tail -n 3 "$log/ratios.log"
count $rc "ratios.py computes the medians and the host model it prints"
python3 "$RPCRDMA_TOP/selftests/bench/measure_test.py" >"$log/measure.log" 2>&1
rc=$?
tail -n 3 "$log/measure.log"
count $rc "measure.py works out a job's figures from its two marks"
python3 "$RPCRDMA_TOP/selftests/bench/wakes_test.py" >"$log/wakes.log" 2>&1
rc=$?
tail -n 3 "$log/wakes.log"
count $rc "wakes.py sets a job's wake-ups per RPC side by side"
python3 "$RPCRDMA_TOP/selftests/bench/callsites_test.py" >"$log/callsites.log" 2>&1
rc=$?
tail -n 3 "$log/callsites.log"
count $rc "callsites.py counts a module's calls from a profile's blocks"
{ gcc -O2 -Wall -Werror -o "$log/insn_count_test" \
	"$RPCRDMA_TOP/selftests/bench/insn_count_test.c" -lpthread &&
	"$log/insn_count_test"; } >"$log/insn-count.log" 2>&1
rc=$?
tail -n 3 "$log/insn-count.log"
count $rc "insn-count.so decodes REP strings and calls, sums calls and runs"

echo "== test kernel"
if "$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >"$log/kernel.log" 2>&1; then
	count 0 "test kernel $(cat "$(test_kernel_dir)/release") is built"
else
	cat "$log/kernel.log"
	count 1 "test kernel build"
fi

echo "== KUnit"
"$RPCRDMA_TOP/selftests/kunit.sh" 2>&1 | tee "$log/kunit.log"
add_counts "$log/kunit.log" "kunit"

echo "== test kernel and KUnit on 7.2"
if RPCRDMA_KERNEL=7.2 "$RPCRDMA_TOP/selftests/lib/build-kernel.sh" \
	>"$log/kernel-7.2.log" 2>&1; then
	count 0 "7.2 test kernel $(cat "$(test_kernel_dir 7.2)/release") is built"
	RPCRDMA_KERNEL=7.2 KUNIT_OUT="$RPCRDMA_TOP/build/kunit-7.2" \
		"$RPCRDMA_TOP/selftests/kunit.sh" 2>&1 | tee "$log/kunit-7.2.log"
	add_counts "$log/kunit-7.2.log" "kunit-7.2"
else
	cat "$log/kernel-7.2.log"
	count 1 "7.2 test kernel build"
fi

echo "== selftests"
"$RPCRDMA_TOP/selftests/run.sh" 2>&1 | tee "$log/selftests.log"
add_counts "$log/selftests.log" "selftests"

retried=$(sed -n 's/^selftests: \([0-9]*\) retried.*/\1/p' "$log/selftests.log")
echo "== make check took $(( $(date +%s) - start ))s"
# CI reads the last line, which must stay "N passed, N failed": the skips
# are counted just before it (each was named above), and the selftests
# retried after a soft-RoCE crash before that.
echo "${retried:-0} selftests retried after an rdma_rxe crash (first reports: build/selftests/*.crash1/crash-report.txt)"
echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
