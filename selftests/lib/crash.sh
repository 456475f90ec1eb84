# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh (and test 05): telling soft-RoCE's own crashes from
# ours in the logs a test's guests left.

# The first kernel report (a panic, or a warning the guest survived) in
# the log $1, up to its end-of-trace line.
first_report() {
	awk '/BUG:|Oops:|WARNING:|general protection|double fault/ { f = 1 }
		f { print } /---\[ end trace/ { if (f) exit }' "$1"
}

# The kernel logs the guests of the test in $1 left, at any depth (a test
# with several guest pairs has a folder per pair).
guest_logs() {
	find "$1" -name console.log -o -name dmesg 2>/dev/null | sort
}

# Did a guest of the test in $1 hit soft-RoCE's own memory corruption?  The
# first kernel report must name the rxe work queue and have a frame in an
# rxe function or the network receive path, and none in rpcrdma; anything
# else is a failure of ours.  The report is kept in
# $1/crash-report.txt, with the log it came from.
rxe_crash() {
	local c report

	for c in $(guest_logs "$1"); do
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

# The first report in the log $1 that is a crash (an oops, a BUG, a fault
# or a panic), not a warning the guest survived.
first_crash() {
	awk '/BUG:|Oops:|general protection|double fault|Kernel panic/ { f = 1 }
		f { print } /---\[ end trace|Kernel panic/ { if (f) exit }' "$1"
}

# crash_census DIR: a line "PROVIDER MODULE LOG" for each guest of the test
# in DIR whose kernel crashed.  PROVIDER is the RDMA provider loaded (rxe,
# siw or none) and MODULE the rpcrdma (ours, which is out of tree and so
# listed as "rpcrdma(O...)", stock, or none), both read from the report's
# module list.  A guest's console.log is read, or its dmesg without one.
# A test whose crashes are deliberate (test 05) leaves a file
# deliberate-crashes in DIR, and none of its guests is counted.
crash_census() {
	local c report mods provider module

	[ -e "$1/deliberate-crashes" ] && return 0
	for c in $(guest_logs "$1"); do
		case "$c" in
		*/dmesg) [ -e "${c%/dmesg}/console.log" ] && continue ;;
		esac
		report=$(first_crash "$c")
		[ -n "$report" ] || continue
		mods=" $(echo "$report" | sed -n 's/.*Modules linked in://p' | head -1) "
		case "$mods" in
		*" siw "* | *" siw("*) provider=siw ;;
		*" rdma_rxe "* | *" rdma_rxe("*) provider=rxe ;;
		*) provider=none ;;
		esac
		if echo "$mods" | grep -Eq ' rpcrdma\([A-Z]*O[A-Z]*\) '; then
			module=ours
		elif echo "$mods" | grep -Eq ' rpcrdma[ (]'; then
			module=stock
		else
			module=none
		fi
		echo "$provider $module $c"
	done
}
