#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch.pl --strict --no-tree on every C source and header of the
# module.  checkpatch comes from Debian's linux-source-6.12 (only its
# scripts/ are extracted when the test kernel's source is not there yet).

set -euo pipefail
. "$(dirname "$0")/common.sh"

srcver=$(debian_pkg_version linux-source-6.12) ||
	die "linux-source-6.12 is not installed (run: make deps)"
ckp="$RPCRDMA_CACHE/src/$srcver/linux-source-6.12/scripts/checkpatch.pl"
if [ ! -e "$ckp" ]; then
	mkdir -p "$RPCRDMA_CACHE/src/$srcver"
	tar -C "$RPCRDMA_CACHE/src/$srcver" -xf /usr/src/linux-source-6.12.tar.xz \
		linux-source-6.12/scripts/checkpatch.pl \
		linux-source-6.12/scripts/spelling.txt \
		linux-source-6.12/scripts/const_structs.checkpatch \
		linux-source-6.12/scripts/kernel-doc
fi
kdoc="$RPCRDMA_CACHE/src/$srcver/linux-source-6.12/scripts/kernel-doc"
[ -e "$kdoc" ] || tar -C "$RPCRDMA_CACHE/src/$srcver" -xf /usr/src/linux-source-6.12.tar.xz \
	linux-source-6.12/scripts/kernel-doc

cd "$RPCRDMA_TOP"
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' |
		     grep -v '^build/')
status=0
for f in "${files[@]}"; do
	# TRACE_EVENT() bodies cannot follow these two layout rules; the
	# kernel's own trace headers do not either.  Everything else applies.
	ignore=()
	case $f in
	*/trace.h) ignore=(--ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT) ;;
	esac
	if ! perl "$ckp" --strict --no-tree --quiet --show-types "${ignore[@]}" -f "$f"; then
		status=1
	fi
done
# Every kernel-doc comment must be complete and match its function.
kdoc_out=$(perl "$kdoc" -Wall -none "${files[@]}" 2>&1)
if [ -n "$kdoc_out" ]; then
	echo "$kdoc_out"
	status=1
fi
echo "checkpatch: ${#files[@]} files, $([ $status = 0 ] && echo clean || echo 'NOT clean') (checkpatch --strict, kernel-doc -Wall)"
exit $status
