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
	local c mods

	[ -e "$1/deliberate-crashes" ] && return 0
	for c in $(guest_logs "$1"); do
		case "$c" in
		*/dmesg) [ -e "${c%/dmesg}/console.log" ] && continue ;;
		esac
		mods=$(guest_crash_modules "$c")
		[ -n "$mods" ] && echo "$mods $c"
	done
	return 0
}

# guest_crash_modules LOG: "PROVIDER MODULE" of the first crash in the
# kernel log LOG, read from the report's module list and the log's marks
# (PROVIDER: rxe, siw or none; MODULE: ours, which is out of tree and so
# listed as "rpcrdma(O...)", stock, or none), or nothing if the guest did
# not crash.
guest_crash_modules() {
	local report mods provider module

	report=$(first_crash "$1")
	[ -n "$report" ] || return 0
	mods=" $(echo "$report" | sed -n 's/.*Modules linked in://p' | head -1) "
	case "$mods" in
	*" siw "* | *" siw("*) provider=siw ;;
	*" rdma_rxe "* | *" rdma_rxe("*) provider=rxe ;;
	*) provider=none ;;
	esac
	# siw is built into the test kernel, so no module list names it:
	# the mark rdma_link (guest-lib.sh) leaves in the log says which.
	if grep -q 'rpcrdma-selftest: siw link' "$1"; then
		grep -q 'rpcrdma-selftest: rxe link' "$1" || provider=siw
	fi
	if echo "$mods" | grep -Eq ' rpcrdma\([A-Z]*O[A-Z]*\) '; then
		module=ours
	elif echo "$mods" | grep -Eq ' rpcrdma[ (]'; then
		module=stock
	else
		module=none
	fi
	echo "$provider $module"
}

# guest_history_add GDIR SECONDS OUTCOME QEMU KERNEL: append a line for a
# guest that has ended to $RPCRDMA_CACHE/guest-history.txt, so that crash
# rates can be counted over many runs (selftests/crash-history.sh):
# "EPOCH QEMU KERNEL SECONDS OUTCOME PROVIDER MODULE GDIR [REPORT]"
# (KERNEL: the guest kernel, debian or test, as vm.sh --kernel names it),
# OUTCOME one of ok, failed, crashed, hung, and for a crash REPORT the
# first line of its report (e.g. "kernel BUG at lib/sg_pool.c:117!").  PROVIDER and MODULE are those of the crash
# report for a crashed guest; otherwise the RDMA provider and the rpcrdma
# (ours, stock, both or none) its kernel log shows loaded at any time
# (load_our_rpcrdma and load_stock_rpcrdma mark it).
# Guests of a test whose crashes are deliberate (test 05) are left out.
guest_history_add() {
	local gdir=$1 secs=$2 outcome=$3 qemu=$4 kernel=$5 log mods kind=
	local hist=${RPCRDMA_CACHE:-/var/cache/rpcrdma}/guest-history.txt

	[ -e "$gdir/../deliberate-crashes" ] && return 0
	log=$gdir/console.log
	[ -s "$gdir/dmesg" ] && log=$gdir/dmesg
	mods=$(guest_crash_modules "$gdir/console.log")
	if [ -n "$mods" ]; then
		outcome=crashed
		# What it was: the report's first line, from "BUG:" etc. on.
		kind=$(grep -m 1 -E 'kernel BUG at|BUG:|Oops:|general protection|double fault|Kernel panic' \
			"$gdir/console.log" |
			sed -E 's/^\[[ 0-9.]*\] *//; s/[[:space:]]+/ /g; s/ $//') || true
	else
		# The provider rdma_link marked (the kernel's own messages
		# for older logs); a guest with links of both is "both".
		mods=$(awk '
			/rdma_rxe: loaded|infiniband rxe/ { p = "rxe" }
			/ siw[0-9_:]| siw: |infiniband siw/ { p = "siw" }
			/rpcrdma-selftest: rxe link/ { r = 1 }
			/rpcrdma-selftest: siw link/ { w = 1 }
			/rpcrdma-selftest: our rpcrdma loaded/ { o = 1 }
			/rpcrdma-selftest: stock rpcrdma loaded/ { s = 1 }
			END { if (r || w) p = r && w ? "both" : r ? "rxe" : "siw"
			      m = o && s ? "both" : o ? "ours" : s ? "stock" : "none"
			      print (p ? p : "none"), m }' "$log" 2>/dev/null) || true
	fi
	echo "$(date +%s) $qemu $kernel $secs $outcome ${mods:-none none} $gdir${kind:+ $kind}" \
		>>"$hist" 2>/dev/null || true
}
