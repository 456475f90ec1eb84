#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness reports a guest whose kernel crashes and a guest that hangs,
# with a clear message and a failing status, instead of waiting for them;
# and it tells a soft-RoCE crash (retried once) from any other, keeping the
# first report.
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/crash.sh"

# The crashes below are made on purpose: run.sh's census leaves them out.
touch "$1/deliberate-crashes"

# Synthetic guest logs: the first report decides, and only an rxe_wq
# report inside rxe or the receive path counts as soft-RoCE's.
fake_log() {
	mkdir -p "$1/guest"
	printf '%s\n' "[    1.0] booting" "$2" "$3" "$4" \
		"[    1.5] ---[ end trace 0000000000000000 ]---" \
		"[    2.0] BUG: KASAN: use-after-free in srdma_recvfrom" \
		>"$1/guest/console.log"
}
fake_log "$1/rxe" "[    1.1] traps: PANIC: double fault, error_code: 0x0" \
	"[    1.2] Workqueue: rxe_wq do_work [rdma_rxe]" \
	"[    1.3]  rxe_requester+0x1a/0x400 [rdma_rxe]"
rxe_crash "$1/rxe" || die "an rxe_wq double fault in rxe_requester was not recognised"
grep -q 'rxe_requester' "$1/rxe/crash-report.txt" ||
	die "the first report was not kept"
! grep -q 'srdma_recvfrom' "$1/rxe/crash-report.txt" ||
	die "the kept report runs past its end of trace"
fake_log "$1/ours" "[    1.1] BUG: KASAN: slab-out-of-bounds in srdma_arg_fill" \
	"[    1.2] Workqueue: rxe_wq do_work [rdma_rxe]" \
	"[    1.3]  srdma_arg_fill+0x1a/0x400 [rpcrdma]"
! rxe_crash "$1/ours" || die "a report in our module was taken for rxe's"
fake_log "$1/other" "[    1.1] WARNING: CPU: 0 at net/core/skbuff.c" \
	"[    1.2] Workqueue: events_unbound" "[    1.3]  __alloc_skb+0x1a/0x400"
! rxe_crash "$1/other" || die "a report outside rxe_wq was taken for rxe's"
echo "rdma_rxe crashes told apart from ours; first report kept"

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
