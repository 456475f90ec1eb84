#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# crash-history.sh [FILE]: the guest kernel crash rates over every guest
# this machine has run (make check, make stress, make bench, the demo),
# from the history selftests/lib/vm.sh appends to
# ($RPCRDMA_CACHE/guest-history.txt; see guest_history_add in
# selftests/lib/crash.sh).  Per QEMU version, then per QEMU version,
# RDMA provider and rpcrdma (ours, stock, both, none): guests, guest
# hours, crashes, crashes per guest hour.  A crashed guest is counted
# under the provider and rpcrdma its crash report lists; the others under
# what their kernel log shows loaded.  Then the crashes by the first line
# of their report, which tells a bug a test provoked on purpose (the
# stock server's, in test 70 run against it) from an unexplained one.
. "$(dirname "$0")/lib/common.sh"

hist=${1:-$RPCRDMA_CACHE/guest-history.txt}
[ -s "$hist" ] || die "no guest history in $hist yet"

awk '
	NF >= 7 {
		q = $2; k = q " " $6 "/" $7
		g[q]++; s[q] += $4; gk[k]++; sk[k] += $4
		if ($5 == "crashed") {
			c[q]++; ck[k]++
			r = "(report not recorded)"
			if (NF > 8) {
				r = $9
				for (i = 10; i <= NF; i++)
					r = r " " $i
			}
			kinds[q " " r]++
		}
		if (!first || $1 < first) first = $1
		if ($1 > last) last = $1
	}
	function row(name, n, secs, crashes) {
		printf "%-28s %7d %9.1f %8d %12.2f\n", name, n, secs / 3600,
			crashes, secs ? crashes * 3600 / secs : 0
	}
	END {
		printf "guest history: %s to %s\n",
			strftime("%Y-%m-%d %H:%M", first, 1),
			strftime("%Y-%m-%d %H:%M", last, 1)
		printf "%-28s %7s %9s %8s %12s\n", "QEMU [provider/rpcrdma]",
			"guests", "hours", "crashes", "per hour"
		for (q in g) {
			row(q, g[q], s[q], c[q])
			for (k in gk) {
				split(k, p, " ")
				if (p[1] == q)
					row("  " p[2], gk[k], sk[k], ck[k])
			}
		}
		print "crash reports, per QEMU version:"
		for (k in kinds)
			printf "%5d  %s\n", kinds[k], k
	}' "$hist"
