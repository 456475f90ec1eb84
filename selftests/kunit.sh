#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit: build rpcrdma.ko and rpcrdma_test.ko (the KUnit suites)
# against the test kernel, boot that kernel under QEMU, load both (the
# suites run when rpcrdma_test.ko loads),
# collect the KTAP output from the kernel log and parse it with the same
# tree's kunit.py.  Fails on any failed or crashed test, on any suite that
# is defined in kunit/ but did not report, and on any KASAN, lockdep or
# kmemleak report.  Skipped cases are counted apart (a skip is neither a
# pass nor a failure; each is printed as "kunit: skipped SUITE.CASE").
# Last line: "kunit: N suites, N passed, N failed, N skipped" (check.sh
# reads it).  The guest boots with swiotlb=force, so that every DMA
# mapping of a device the suites make bounces (kunit/dma_bounce_test.c).

set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

out=$(realpath -m "${KUNIT_OUT:-$RPCRDMA_TOP/build/kunit}")
kdir=$("$RPCRDMA_TOP/selftests/lib/build-kernel.sh")
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test W=1)
srcdir=$(readlink -f "$kdir/build/source")

rm -rf "$out"
set +e
"$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel test --name kunit --out "$out" \
	--script "$RPCRDMA_TOP/selftests/guest/kunit.sh" --timeout 420 \
	--append swiotlb=force \
	--env "RPCRDMA_KO=$ko"
vmrc=$?
set -e
sed 's/^/# guest: /' "$out/kunit/log" 2>/dev/null || true

# The suites this tree defines: every kunit_suite's .name in kunit/*.c.
mapfile -t expected < <(awk '/struct kunit_suite .* = \{/ { s = 1 }
	s && /\.name[[:space:]]*=/ { match($0, /"[^"]*"/);
		print substr($0, RSTART + 1, RLENGTH - 2); s = 0 }' \
	"$RPCRDMA_TOP"/kunit/*.c)

ktap="$out/ktap.log"
sed -n '/rpcrdma-selftest: start of test/,$p' "$out/kunit/dmesg" >"$ktap" 2>/dev/null || :
python3 "$srcdir/tools/testing/kunit/kunit.py" parse --json="$out/results.json" \
	"$ktap" | sed 's/\x1b\[[0-9;]*m//g' || true

python3 - "$out/results.json" "$vmrc" "${expected[@]}" <<'PY'
import json, sys

path, vmrc, expected = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
try:
    top = json.load(open(path))
except (OSError, ValueError):
    top = {"sub_groups": [], "test_cases": []}

passed = failed = skipped = 0
def walk(group, prefix):
    global passed, failed, skipped
    for case in group.get("test_cases", []):
        if case["status"] == "PASS":
            passed += 1
        elif case["status"] == "SKIP":
            skipped += 1
            print(f"kunit: skipped {prefix}{case['name']}")
        else:
            failed += 1
            print(f"kunit: FAILED {prefix}{case['name']}: {case['status']}")
    for sub in group.get("sub_groups", []):
        walk(sub, prefix + sub["name"] + ".")

suites = {g["name"]: g for g in top.get("sub_groups", [])}
for g in suites.values():
    walk(g, g["name"] + ".")
for name in expected:
    if name not in suites:
        failed += 1
        print(f"kunit: MISSING suite {name} (defined in kunit/ but never reported)")
if not expected:
    failed += 1
    print("kunit: no suite is defined in kunit/")
if vmrc != 0:
    failed += 1
    print(f"kunit: the guest failed (status {vmrc}): see the log above")
print(f"kunit: {len(suites)} suites, {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
