#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Every knob the harness reads from the environment with a default, as
# ${NAME:-...} or ${NAME:=...}, in selftests/ (tests, guest scripts, the
# bench) must be named in Documentation/testing.rst or, for the bench,
# Documentation/performance.rst.  Prints the ones that are not and
# fails; with -l, lists the knobs found.
#
# Usage: knobs-check.sh [-l] [TOP]
set -uo pipefail

list=0
[ "${1:-}" = -l ] && { list=1; shift; }
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}

knobs=$(grep -rhoE '\$\{[A-Z][A-Z0-9_]+:[-=]' "$top/selftests" \
		--include='*.sh' --include='*.py' --include='*.c' |
	sed 's/^\${//; s/:.$//' | sort -u)
if [ "$list" = 1 ]; then
	echo "$knobs"
	exit 0
fi
missing=
for k in $knobs; do
	grep -qw -- "$k" "$top/Documentation/testing.rst" \
		"$top/Documentation/performance.rst" || missing="$missing $k"
done
n=$(echo "$knobs" | wc -w)
if [ -n "$missing" ]; then
	echo "knobs read by selftests/ and named in no document:$missing"
	exit 1
fi
echo "all $n knobs the harness reads are documented"
