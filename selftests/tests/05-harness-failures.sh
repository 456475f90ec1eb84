#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness reports a guest whose kernel crashes and a guest that hangs,
# with a clear message and a failing status, instead of waiting for them.
. "$(dirname "$0")/../lib/common.sh"

vm="$RPCRDMA_TOP/selftests/lib/vm.sh"

"$vm" --kernel debian --name crash --out "$1" --mem 1024 --timeout 120 \
	--script "$RPCRDMA_TOP/selftests/guest/crash.sh" 2>"$1/crash.err"
rc=$?
cat "$1/crash.err"
[ "$rc" = 125 ] || die "a crashing guest gave status $rc, not 125"
grep -q 'guest crash CRASHED (kernel panic)' "$1/crash.err" ||
	die "no clear message for a crashing guest"

start=$(date +%s)
"$vm" --kernel debian --name hang --out "$1" --mem 1024 --timeout 40 \
	--script "$RPCRDMA_TOP/selftests/guest/hang.sh" 2>"$1/hang.err"
rc=$?
secs=$(( $(date +%s) - start ))
cat "$1/hang.err"
[ "$rc" = 124 ] || [ "$rc" = 1 ] || die "a hanging guest gave status $rc"
[ "$secs" -le 60 ] || die "a hanging guest was stopped only after ${secs}s"
grep -Eq 'guest hang (HUNG|finished .* status 124)' "$1/hang.err" ||
	die "no clear message for a hanging guest"
echo "crash reported, hang stopped after ${secs}s"
