# SPDX-License-Identifier: GPL-2.0
# Sourced by run.sh (and test 05): telling soft-RoCE's own crashes from
# ours in the logs a test's guests left.

# The first kernel report (a panic, or a warning the guest survived) in
# the log $1, up to its end-of-trace line (a sanitizer's report, which
# has none, up to its closing line of "=").
first_report() {
	awk '/BUG:|Oops:|WARNING:|general protection|double fault/ { f = 1 }
		f { print } /---\[ end trace/ { if (f) exit }
		/(^|\] )=+$/ { if (f) exit }' "$1"
}

# The kernel logs the guests of the test in $1 left, at any depth (a test
# with several guest pairs has a folder per pair).
guest_logs() {
	find "$1" -name console.log -o -name dmesg 2>/dev/null | sort
}

# guest_first_report GUEST_DIR: the first kernel report of the guest,
# from its console.log, else its dmesg (up to 150 lines), or nothing.
guest_first_report() {
	local c report

	for c in "$1/console.log" "$1/dmesg"; do
		[ -e "$c" ] || continue
		report=$(first_report "$c" | head -n 150)
		[ -n "$report" ] || continue
		echo "$report"
		return 0
	done
}

# failure_reports DIR: for each guest of the failed test in DIR, at any
# depth, the end of its log and its first kernel report: a CI run keeps
# only the output, not DIR.
failure_reports() {
	local d report

	for d in $(guest_dirs "$1"); do
		if [ -e "$d/log" ]; then
			echo "---- $d/log"
			tail -n 30 "$d/log"
		fi
		report=$(guest_first_report "$d")
		[ -n "$report" ] || continue
		echo "---- first kernel report in $d"
		echo "$report"
	done
}

# failure_headline DIR: the first line of the first kernel report any
# guest of the failed test in DIR printed, after the guest's folder
# ("server: WARNING: CPU: 1 PID: 9 at ..."), or nothing: run.sh puts it
# on the test's "not ok" line, which a shortened log still shows.
failure_headline() {
	local d line

	for d in $(guest_dirs "$1"); do
		line=$(guest_first_report "$d" | head -n 1 |
		       sed 's/^\[ *[0-9.]*\] *//' | cut -c 1-160)
		[ -n "$line" ] || continue
		echo "${d#"$1"/}: $line"
		return 0
	done
}

# The folders of the guests of the test in $1 (a console.log or a dmesg).
guest_dirs() {
	find "$1" \( -name console.log -o -name dmesg \) -printf '%h\n' 2>/dev/null |
		sort -u
}

# Taint flags other than G (no proprietary module), O (out of tree) and E
# (unsigned): the ones that any "Tainted:" line in the logs $@ shows, e.g.
# W after a warning, B after a bad page, D after an earlier oops.
bad_taints() {
	cat "$@" 2>/dev/null |
		sed -n 's/.* Tainted: \([A-Z ]*\) [0-9].*/\1/p' | tr -d 'GOE \n' |
		fold -w 1 | sort -u | tr -d '\n'
}

# rxe_crash DIR: may the failed test whose output is in DIR be retried as a
# victim of soft-RoCE's own memory corruption (Documentation/testing.rst)?
# Only a plain crash on Debian's 6.12 kernel, in the guest whose failure
# failed the test:
#  - one guest of the test, and only one, has a kernel report (a crash, a
#    warning or a sanitizer report, in its console or its dmesg), and that
#    report is a crash: no warning before it, and the kernel tainted by
#    nothing but our out-of-tree, unsigned module (no W, B, D...);
#  - no guest of the test has a sanitizer report (KASAN, KFENCE, UBSAN),
#    whatever the frames;
#  - that guest ran Debian's 6.12 kernel ("debian" in the kernel file
#    vm.sh leaves), never its 7.2 ("debian-7.2", where the crash has not
#    been seen) nor a debug test kernel (release *-rpcrdma-test);
#  - the guest died of that crash ("crashed" in vm.sh's outcome file, and
#    "vm: guest NAME CRASHED" in the test's output, DIR/output), and no
#    other guest of the test had failed before it (the times in their
#    outcome files): the crash failed the test, not a failure of ours
#    that came first, whose peer then crashed;
#  - the report names the rxe work queue and has a frame in an rxe function
#    or the network receive path, and none in rpcrdma.
# The report is kept in DIR/crash-report.txt, with the log it came from.
# A refusal leaves its reason in rxe_crash_why (empty when no guest of the
# test crashed).
rxe_crash() {
	local d c g='' n=0 report first outcome='' when='' t='' name taints other

	rxe_crash_why=
	for d in $(guest_dirs "$1"); do
		if grep -Eqs 'BUG: KASAN|BUG: KFENCE|UBSAN:' "$d/console.log" "$d/dmesg"; then
			rxe_crash_why="a sanitizer report in $d"
			return 1
		fi
		for c in "$d/console.log" "$d/dmesg"; do
			[ -e "$c" ] || continue
			if [ -n "$(first_report "$c")" ]; then
				g=$d n=$((n + 1))
				break
			fi
		done
	done
	[ "$n" = 1 ] || {
		[ "$n" = 0 ] || rxe_crash_why="$n guests have kernel reports"
		return 1
	}
	name=$(basename "$g")
	# A warning the guest survived is a failure, not a crash: not retried
	# (and no reason given, as for a test without a crash).
	[ -n "$(first_crash "$g/console.log")" ] || return 1
	report=$(first_report "$g/console.log")
	first=$(echo "$report" | head -n 1)
	if echo "$first" | grep -q 'WARNING:' ||
	   [ -n "$(awk '/BUG:|Oops:|general protection|double fault|Kernel panic/ { exit }
			/WARNING:/ { print; exit }' "$g/console.log")" ]; then
		rxe_crash_why="$name warned before it crashed ($g)"
		return 1
	fi
	taints=$(bad_taints "$g/console.log" "$g/dmesg")
	if [ -n "$taints" ]; then
		rxe_crash_why="$name's kernel was tainted ($taints) before it crashed ($g)"
		return 1
	fi
	if ! grep -qs '^debian ' "$g/kernel" ||
	   grep -qs 'rpcrdma-test' "$g/kernel" "$g/console.log" "$g/dmesg"; then
		rxe_crash_why="$name did not run Debian's 6.12 kernel ($(cat "$g/kernel" 2>/dev/null || echo unknown); $g)"
		return 1
	fi
	read -r outcome when 2>/dev/null <"$g/outcome" || outcome=unknown
	if [ "$outcome" != crashed ] || [ -z "$when" ] ||
	   ! grep -qs "^vm: guest $name CRASHED" "$1/output"; then
		rxe_crash_why="$name did not fail the test by crashing (vm.sh's outcome: $outcome; the test's output must say \"vm: guest $name CRASHED\"; $g)"
		return 1
	fi
	for d in $(guest_dirs "$1"); do
		[ "$d" != "$g" ] || continue
		other=ok t=
		read -r other t 2>/dev/null <"$d/outcome" || other=unknown
		[ "$other" != ok ] || continue
		if [ -z "$t" ] || awk -v a="$t" -v b="$when" 'BEGIN { exit !(a <= b) }'; then
			rxe_crash_why="$(basename "$d") failed ($other) before $name crashed ($d)"
			return 1
		fi
	done
	if ! echo "$report" | grep -q "Workqueue: rxe_wq" ||
	   echo "$report" | grep -q '\[rpcrdma\]' ||
	   ! echo "$report" |
		grep -Eq '[ (](rxe_[a-z0-9_]+|__alloc_skb|build_skb|net_rx_action|napi_[a-z_]+)\+0x'; then
		rxe_crash_why="$name's crash is not soft-RoCE's ($g)"
		return 1
	fi
	{ echo "# first kernel report, from $g/console.log"; echo "$report"; } \
		>"$1/crash-report.txt"
	return 0
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
