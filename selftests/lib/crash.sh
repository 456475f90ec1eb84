# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh (and test 05): telling soft-RoCE's own crashes from
# ours in the logs a test's guests left.

# The first kernel report (a panic, or a warning the guest survived) in
# the log $1, up to its end-of-trace line.
first_report() {
	awk '/BUG:|Oops:|WARNING:|general protection|double fault/ { f = 1 }
		f { print } /---\[ end trace/ { if (f) exit }' "$1"
}

# Did a guest of the test in $1 hit soft-RoCE's own memory corruption?  The
# first kernel report must name the rxe work queue and have a frame in an
# rxe function or the network receive path, and none in rpcrdma; anything
# else is a failure of ours.  The report is kept in
# $1/crash-report.txt, with the log it came from.
rxe_crash() {
	local c report

	for c in "$1"/*/console.log "$1"/*/dmesg; do
		[ -e "$c" ] || continue
		report=$(first_report "$c")
		echo "$report" | grep -q "Workqueue: rxe_wq" || continue
		echo "$report" | grep -q '\[rpcrdma\]' && continue
		if echo "$report" |
		   grep -Eq '[ (](rxe_[a-z0-9_]+|__alloc_skb|build_skb|net_rx_action|napi_[a-z_]+)\+0x'; then
			{ echo "# first kernel report, from $c"; echo "$report"; } \
				>"$1/crash-report.txt"
			return 0
		fi
	done
	return 1
}
