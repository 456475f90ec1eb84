#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness reports a guest whose kernel crashes and a guest that hangs,
# with a clear message and a failing status, instead of waiting for them;
# and it tells a soft-RoCE crash (retried once) from any other, keeping the
# first report: only a plain crash on Debian's 6.12 kernel that failed the
# test.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/crash.sh"

# The crashes below are made on purpose: run.sh's census leaves them out.
touch "$1/deliberate-crashes"

# Synthetic guests: fake_guest DIR NAME KERNEL OUTCOME LINE... leaves what
# vm.sh leaves for guest NAME of a test whose output is in DIR (console.log
# holding LINE..., the kernel file, the outcome file, and vm.sh's line for
# a crashed guest in DIR/output).
fake_guest() {
	local dir=$1 name=$2 kernel=$3 outcome=$4

	shift 4
	mkdir -p "$dir/$name"
	printf '%s\n' "[    1.0] guest $name: running /out/$name/script.sh on ${kernel#* }" \
		"$@" >"$dir/$name/console.log"
	echo "$kernel" >"$dir/$name/kernel"
	echo "$outcome" >"$dir/$name/outcome"
	case "$outcome" in
	crashed*) echo "vm: guest $name CRASHED (kernel panic) after 9s" >>"$dir/output" ;;
	*) echo "vm: guest $name finished in 9s with status 1" >>"$dir/output" ;;
	esac
}
deb="debian 6.12.117+deb12-amd64"
cpu="[    1.2] CPU: 0 UID: 0 PID: 63 Comm: kworker/u4:3 Tainted: G           OE      6.12.117+deb12-amd64 #1"
rxe_wq="[    1.3] Workqueue: rxe_wq do_work [rdma_rxe]"
rxe_frame="[    1.4]  rxe_requester+0x1a/0x400 [rdma_rxe]"
end_trace="[    1.5] ---[ end trace 0000000000000000 ]---"
panic="[    1.6] Kernel panic - not syncing: Fatal exception"
# After the panic, so that a kept report running past its end shows.
after="[    2.0] Oops: srdma_recvfrom+0x10/0x200 [rpcrdma]"
rxe_crash_lines=("[    1.1] traps: PANIC: double fault, error_code: 0x0" "$cpu"
	"$rxe_wq" "$rxe_frame" "$end_trace" "$panic" "$after")

# Every failure below is collected, so that one run against an older
# crash.sh shows each case it gets wrong.
bad=()
# retried CASE: rxe_crash must accept $1/CASE.
retried() {
	rxe_crash "$1/$2" ||
		bad+=("$2: not taken for soft-RoCE's crash (${rxe_crash_why:-no reason})")
}
# refused CASE WHY: rxe_crash must refuse $1/CASE, for a reason that
# contains WHY (any reason, with no WHY).
refused() {
	if rxe_crash "$1/$2"; then
		bad+=("$2: retried as soft-RoCE's crash")
	elif [ -n "${3:-}" ] && [[ "$rxe_crash_why" != *"$3"* ]]; then
		bad+=("$2: refused, but for '$rxe_crash_why', not '$3'")
	fi
}

# A plain rxe_wq double fault in rxe_requester on Debian's kernel, in the
# only guest, which died of it: retried, and its report kept to its end.
fake_guest "$1/rxe" guest "$deb" "crashed 100.0" "${rxe_crash_lines[@]}"
retried "$1" rxe
grep -q 'rxe_requester' "$1/rxe/crash-report.txt" 2>/dev/null ||
	bad+=("rxe: the first report was not kept")
! grep -q 'srdma_recvfrom' "$1/rxe/crash-report.txt" 2>/dev/null ||
	bad+=("rxe: the kept report runs past its end of trace")
# The same in a pair whose other guest failed after the crash (waiting
# for its peer): retried.
fake_guest "$1/rxe-pair" server "$deb" "crashed 100.0" "${rxe_crash_lines[@]}"
fake_guest "$1/rxe-pair" client "$deb" "failed 160.5"
retried "$1" rxe-pair
# A report in our module.
fake_guest "$1/ours" guest "$deb" "crashed 100.0" \
	"[    1.1] BUG: kernel NULL pointer dereference, address: 0000000000000008" \
	"$cpu" "$rxe_wq" "[    1.4]  srdma_arg_fill+0x1a/0x400 [rpcrdma]" "$end_trace" "$panic"
refused "$1" ours "not soft-RoCE's"
# A warning outside rxe_wq that the guest survived.
fake_guest "$1/other" guest "$deb" "failed 100.0" \
	"[    1.1] WARNING: CPU: 0 PID: 9 at net/core/skbuff.c:1 __alloc_skb+0x1a/0x400" \
	"[    1.2] Workqueue: events_unbound" "[    1.3]  __alloc_skb+0x1a/0x400" "$end_trace"
refused "$1" other
# A warning inside rxe_wq that the guest survived: not a crash.
fake_guest "$1/rxe-warning" guest "$deb" "failed 100.0" \
	"[    1.1] WARNING: CPU: 0 PID: 63 at arch/x86/kernel/traps.c:1 exc_debug_kernel+0x1a/0x100" \
	"$cpu" "$rxe_wq" "$rxe_frame" "$end_trace"
refused "$1" rxe-warning
# A KASAN report in rxe's frames (our client's pages freed under a live MR
# look just like this), the guest then panicking.
fake_guest "$1/kasan-rxe" guest "$deb" "crashed 100.0" \
	"[    1.1] BUG: KASAN: slab-use-after-free in rxe_mr_copy+0x1a/0x400 [rdma_rxe]" \
	"$cpu" "$rxe_wq" "[    1.4]  rxe_mr_copy+0x1a/0x400 [rdma_rxe]" "$rxe_frame" \
	"$end_trace" "[    1.6] Kernel panic - not syncing: KASAN: panic_on_warn set ..."
refused "$1" kasan-rxe "sanitizer"
# A kernel a warning had tainted before the crash (W), the warning itself
# not on the console.
fake_guest "$1/tainted" guest "$deb" "crashed 100.0" \
	"[    1.1] traps: PANIC: double fault, error_code: 0x0" \
	"[    1.2] CPU: 0 UID: 0 PID: 63 Comm: kworker/u4:3 Tainted: G        W  OE      6.12.117+deb12-amd64 #1" \
	"$rxe_wq" "$rxe_frame" "$end_trace" "$panic"
refused "$1" tainted "tainted (W)"
# A warning on the console before the crash (in rxe_wq too).
fake_guest "$1/warned" guest "$deb" "crashed 100.0" \
	"[    0.9] WARNING: CPU: 0 PID: 63 at drivers/infiniband/sw/rxe/rxe_comp.c:1 rxe_completer+0x1a/0x400 [rdma_rxe]" \
	"$rxe_wq" "$rxe_frame" "[    0.95] ---[ end trace 0000000000000000 ]---" \
	"[    1.1] traps: PANIC: double fault, error_code: 0x0" \
	"$rxe_wq" "$rxe_frame" "$end_trace" "$panic"
refused "$1" warned "warned before it crashed"
# The debug test kernel.
fake_guest "$1/debug-kernel" guest "test 6.12.117-rpcrdma-test" "crashed 100.0" \
	"[    1.1] traps: PANIC: double fault, error_code: 0x0" \
	"[    1.2] CPU: 0 UID: 0 PID: 63 Comm: kworker/u4:3 Tainted: G           OE      6.12.117-rpcrdma-test #1" \
	"$rxe_wq" "$rxe_frame" "$end_trace" "$panic"
refused "$1" debug-kernel "did not run Debian's 6.12 kernel"
# Debian's 7.2, where soft-RoCE's crash has not been seen.
fake_guest "$1/debian-7.2" guest "debian-7.2 7.2.12+deb13-amd64" "crashed 100.0" \
	"${rxe_crash_lines[@]}"
refused "$1" debian-7.2 "did not run Debian's 6.12 kernel"
# A crash in a guest whose peer had failed first: the peer's failure
# failed the test.
fake_guest "$1/peer-first" server "$deb" "failed 90.0"
fake_guest "$1/peer-first" client "$deb" "crashed 100.0" "${rxe_crash_lines[@]}"
refused "$1" peer-first "server failed (failed) before client crashed"
# Two guests crashed.
fake_guest "$1/two-crashes" server "$deb" "crashed 100.0" "${rxe_crash_lines[@]}"
fake_guest "$1/two-crashes" client "$deb" "crashed 101.0" "${rxe_crash_lines[@]}"
refused "$1" two-crashes "2 guests have kernel reports"
# A crashed guest the test's output does not name as crashed.
fake_guest "$1/unnamed" guest "$deb" "crashed 100.0" "${rxe_crash_lines[@]}"
: >"$1/unnamed/output"
refused "$1" unnamed "did not fail the test by crashing"
if [ ${#bad[@]} != 0 ]; then
	printf 'soft-RoCE crash classifier: %s\n' "${bad[@]}"
	die "the soft-RoCE crash classifier got ${#bad[@]} case(s) wrong"
fi
echo "rdma_rxe crashes told apart from ours; first report kept"

# What a failed test prints of its guests: a sanitizer report two levels
# down (a pair's guest) in full, from its BUG line to its closing line,
# and the end of the guest's log.
mkdir -p "$1/report/pair/client"
printf '%s\n' "[    1.0] ==================================================================" \
	"[    1.1] BUG: KASAN: slab-use-after-free in __ib_process_cq+0x3d1/0x460" \
	"[    1.2] Read of size 8 at addr ffff888012345678 by task kworker/1:1/42" \
	"[    1.3] Freed by task 77:" "[    1.4]  xrdma_mr_pool_destroy+0x1a/0x100 [rpcrdma]" \
	"[    1.5] ==================================================================" \
	"[    1.6] rpcrdma-selftest: after the report" >"$1/report/pair/client/console.log"
echo "guest client: the last line of its log" >"$1/report/pair/client/log"
shown=$(failure_reports "$1/report")
for want in 'BUG: KASAN: slab-use-after-free' 'xrdma_mr_pool_destroy' \
	    'the last line of its log'; do
	grep -q "$want" <<<"$shown" ||
		die "a failed test's output leaves out '$want'"
done
! grep -q 'after the report' <<<"$shown" ||
	die "a failed test's output runs past the sanitizer report's end"
echo "a failed test prints its guests' first kernel reports, at any depth"
# and names the first one on its "not ok" line.
shown=$(failure_headline "$1/report")
[ "$shown" = "pair/client: BUG: KASAN: slab-use-after-free in __ib_process_cq+0x3d1/0x460" ] ||
	die "a failed test's headline is '$shown'"
echo "a failed test's headline is its first guest's first kernel report"

# The crash census: a crash (not a warning) per guest, at any depth, with
# the provider and the rpcrdma read from the module list.
mkdir -p "$1/census/pair/server" "$1/census/pair/client"
printf '%s\n' "[    1.1] BUG: kernel NULL pointer dereference" \
	"[    1.2] Modules linked in: rpcrdma(OE) rdma_ucm rdma_rxe" \
	>"$1/census/pair/server/console.log"
printf '%s\n' "[    1.1] WARNING: CPU: 0 at net/core/skbuff.c" \
	"[    1.2] Modules linked in: rpcrdma(OE) siw" \
	"[    1.3] ---[ end trace 0000000000000000 ]---" \
	"[    2.1] traps: PANIC: double fault, error_code: 0x0" \
	"[    2.2] Modules linked in: rpcrdma siw nfsd" \
	>"$1/census/pair/client/dmesg"
census=$(crash_census "$1/census" | cut -d' ' -f1,2 | tr '\n' ' ')
[ "$census" = "siw stock rxe ours " ] ||
	die "the crash census gave '$census', not 'siw stock rxe ours '"
echo "guest crashes counted per provider and rpcrdma"

# The kernel-log check leaves out the reports of two known defects of
# other code, and only where they are known (known_reports in
# guest-lib.sh).  known CASE STOCK left|kept LINE...: with STOCK_SERVER
# set to STOCK, the report in LINE... must be left out of the log, or
# kept in it.
known() {
	local name=$1 stock=$2 want=$3 got

	shift 3
	got=$(printf '%s\n' "$@" |
	      (. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"
	       STOCK_SERVER=$stock known_reports 2>/dev/null) | grep -c 'WARNING:')
	case "$want:$got" in
	left:0 | kept:1) ;;
	*) bad+=("known report $name: $want expected, $got WARNING lines kept") ;;
	esac
}
cut="[    1.0] ------------[ cut here ]------------"
untainted="[    1.2] CPU: 0 UID: 0 PID: 12 Comm: kworker/u4:0 Not tainted 6.12.117+deb12-amd64 #1"
warned="[    1.2] CPU: 0 UID: 0 PID: 63 Comm: kworker/u4:3 Tainted: G        W  OE      6.12.117+deb12-amd64 #1"
# comp_report CPU_LINE WORKQUEUE_LINE [FRAME]: soft-RoCE's completer
# warning as the stock server's guest printed it, FRAME added to its trace.
comp_report() {
	printf '%s\n' "$cut" \
		"[    1.1] WARNING: CPU: 0 PID: 12 at drivers/infiniband/sw/rxe/rxe_comp.c:827 rxe_completer+0xbd7/0xe30 [rdma_rxe]" \
		"$1" "$2" "[    1.4]  rxe_sender+0x1d/0x40 [rdma_rxe]" ${3:+"$3"} \
		"[    1.4]  do_task+0x68/0x1f0 [rdma_rxe]" \
		"[    1.4]  process_one_work+0x190/0x3a0" \
		"[    1.4]  kthread+0xd2/0x100" "$end_trace"
}
# qp_report CPU_LINE: the stock 6.12 server's known warning.
qp_report() {
	printf '%s\n' "$cut" \
		"[    1.1] WARNING: CPU: 0 PID: 70 at drivers/infiniband/core/verbs.c:2110 ib_destroy_qp_user+0x12/0x190 [ib_core]" \
		"$1" "[    1.4]  svc_rdma_free+0x99/0x200 [rpcrdma]" "$end_trace"
}
mapfile -t r < <(comp_report "$untainted" "$rxe_wq")
known "rxe completer, untainted" 0 left "${r[@]}"
mapfile -t r < <(comp_report "$cpu" "$rxe_wq")
known "rxe completer, out-of-tree module loaded" 0 left "${r[@]}"
known "rxe completer, stock server" 1 left "${r[@]}"
mapfile -t r < <(comp_report "$warned" "$rxe_wq")
known "rxe completer, after another warning" 0 kept "${r[@]}"
mapfile -t r < <(comp_report "$untainted" "$rxe_wq" \
	"[    1.4]  svc_rdma_sendto+0x1d/0x40 [rpcrdma]")
known "rxe completer, called from rpcrdma" 0 kept "${r[@]}"
mapfile -t r < <(comp_report "$untainted" \
	"[    1.3] Workqueue: ib-comp-wq ib_cq_poll_work [ib_core]")
known "rxe completer, another work queue" 0 kept "${r[@]}"
mapfile -t r < <(qp_report "$untainted")
known "stock server's QP in use, untainted" 1 left "${r[@]}"
known "stock server's QP in use, not a stock server" 0 kept "${r[@]}"
mapfile -t r < <(qp_report "$cpu")
known "stock server's QP in use, tainted" 1 kept "${r[@]}"
[ ${#bad[@]} = 0 ] || die "$(printf '%s; ' "${bad[@]}")"
echo "known reports of the stock server and soft-RoCE left out only where they are known"

vm="$RPCRDMA_TOP/selftests/lib/vm.sh"

"$vm" --kernel debian --name crash --out "$1" --mem 1024 --timeout 120 \
	--script "$RPCRDMA_TOP/selftests/guest/crash.sh" 2>"$1/crash.err"
rc=$?
cat "$1/crash.err"
[ "$rc" = 125 ] || die "a crashing guest gave status $rc, not 125"
grep -q 'guest crash CRASHED (kernel panic)' "$1/crash.err" ||
	die "no clear message for a crashing guest"
if ! grep -q '^crashed [0-9]' "$1/crash/outcome" ||
   ! grep -q '^debian ' "$1/crash/kernel"; then
	die "vm.sh left no outcome 'crashed' and kernel 'debian' for rxe_crash"
fi

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
