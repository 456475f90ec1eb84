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
		linux-source-6.12/scripts/const_structs.checkpatch
fi

cd "$RPCRDMA_TOP"
mapfile -t files < <(git ls-files -co --exclude-standard -- '*.c' '*.h' |
		     grep -v '^build/')
status=0
for f in "${files[@]}"; do
	if ! perl "$ckp" --strict --no-tree --quiet --show-types -f "$f"; then
		status=1
	fi
done
echo "checkpatch: ${#files[@]} files, $([ $status = 0 ] && echo clean || echo 'NOT clean')"
exit $status
