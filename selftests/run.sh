#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make selftests: run the integration tests in selftests/tests/ (all, or the
# ones named on the command line, e.g. "run.sh 30-nfs-stock-loopback") and
# print TAP like kselftest.  Each test is a host script that boots guests;
# it gets an output folder (build/selftests/NAME) as its argument and exits
# 0 (pass), 4 (skip) or anything else (fail).  Guest logs stay in that
# folder.  A skip is printed as TAP's "ok N ... # SKIP", with the test's
# output (its reason) before it, and counted apart.  Last line:
# "selftests: N passed, N failed, N skipped" (check.sh reads it).
#
# Without SELFTESTS_FULL=1 (make stress sets it) the tests named in
# STRESS_ONLY_TESTS are left out of the default list and the others run
# their shorter form (check_or_full in lib/common.sh).

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/crash.sh"

outroot=${SELFTESTS_OUT:-$RPCRDMA_TOP/build/selftests}
if [ $# -gt 0 ]; then
	tests=()
	for t in "$@"; do
		tests+=("$RPCRDMA_TOP/selftests/tests/${t%.sh}.sh")
	done
else
	tests=()
	for t in "$RPCRDMA_TOP"/selftests/tests/*.sh; do
		case " $STRESS_ONLY_TESTS " in
		*" $(basename "$t" .sh) "*)
			[ "${SELFTESTS_FULL:-0}" = 1 ] || continue ;;
		esac
		tests+=("$t")
	done
fi

# Every guest crash of this run, retried or not: "TEST PROVIDER MODULE LOG".
census="$outroot/crashes.txt"
mkdir -p "$outroot"
: >"$census"

echo "TAP version 13"
echo "1..${#tests[@]}"
n=0 passed=0 failed=0 skipped=0 retried=0
for t in "${tests[@]}"; do
	n=$((n + 1))
	name=$(basename "$t" .sh)
	out="$outroot/$name"
	rm -rf "$out"
	mkdir -p "$out"
	# The test's description: its comment block after the SPDX line.
	echo "# $name: $(sed -n '3,/^[^#]/{/^# /s/^# //p}' "$t" | tr '\n' ' ')"
	start=$(date +%s)
	note=
	if [ ! -x "$t" ]; then
		echo "# $t: no such test" >"$out/output"
		rc=1
	else
		"$t" "$out" >"$out/output" 2>&1
		rc=$?
		# Soft-RoCE in Debian's 6.12 kernel sometimes corrupts memory
		# in its own packet work; it happens with the kernel's own
		# rpcrdma on both ends too (Documentation/testing.rst).  Such a
		# crash gets one more attempt, and the result says so; only a
		# plain crash on Debian's 6.12 kernel that failed the test
		# (rxe_crash in lib/crash.sh), and a refusal says why.
		rxe_crash_why=
		if [ "$rc" != 0 ] && [ "$rc" != 4 ] && rxe_crash "$out"; then
			rm -rf "$out.crash1"
			mv "$out" "$out.crash1"
			mkdir -p "$out"
			retried=$((retried + 1))
			echo "# $name: a guest died inside rdma_rxe; retrying once (first attempt: $out.crash1)"
			sed -n '2,12s/^/#   /p' "$out.crash1/crash-report.txt"
			"$t" "$out" >"$out/output" 2>&1
			rc=$?
			note=" (retried after an rdma_rxe crash, see $out.crash1)"
		elif [ -n "$rxe_crash_why" ]; then
			echo "# $name: not retried: $rxe_crash_why"
		fi
	fi
	secs=$(( $(date +%s) - start ))
	for d in "$out.crash1" "$out"; do
		[ -d "$d" ] && crash_census "$d" | sed "s|^|$name |" >>"$census"
	done
	case $rc in
	0)
		echo "ok $n selftests: rpcrdma: $name # ${secs}s$note"
		passed=$((passed + 1))
		;;
	4)
		sed 's/^/# /' "$out/output"
		echo "ok $n selftests: rpcrdma: $name # SKIP"
		skipped=$((skipped + 1))
		;;
	*)
		sed 's/^/# /' "$out/output"
		failure_reports "$out" | sed 's/^/# /'
		headline=$(failure_headline "$out")
		echo "not ok $n selftests: rpcrdma: $name # exit=$rc after ${secs}s (logs: $out)${headline:+; first kernel report: $headline}"
		failed=$((failed + 1))
		;;
	esac
done
echo "# totals: pass:$passed fail:$failed skip:$skipped"
# Crashes per provider and rpcrdma, so that long runs can compare them.
awk -v f="$census" '{ n[$2 "/" $3]++; t++ }
	END { s = ""; for (k in n) s = s sprintf(", %s %d", k, n[k])
	      printf "selftests: %d guest kernel crashes%s%s\n", t,
		     t ? " (provider/rpcrdma:" substr(s, 2) ")" : "", t ? ", see " f : "" }' "$census"
echo "selftests: $retried retried after an rdma_rxe crash"
# The summary: the last line, which check.sh reads (nothing after it).
echo "selftests: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
