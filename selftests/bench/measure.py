#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The figures of one measured job, from its two CPU marks.

    measure.py ROUND MODULE JOB UNIT FIGURE OPS WRPCS BEGIN END [CSV]

The bench's guest (bench-lib.sh's measure()) runs the job and takes a
mark when its measured window opens and one when it closes (cpu_mark:
BEGIN and END hold the mark lines); this turns them into the metrics
ratios.py compares, appended to CSV (/out/bench.csv) as
"ROUND,MODULE,METRIC,VALUE" lines, round 0 (the warm-up) left out, and
prints two lines for the log.  A mark line is, for the client guest
then the server guest, busy and all jiffies, context switches and device
interrupts; then the host's CPU time of the client's and the server's
QEMU in nanoseconds; then each count of insn-count.so in host_cpu.py's
FIELDS order, client then server, -1 where it was not counted.
FIGURE is the job's own result (MiB/s or operations per second), OPS the
operations it completed and WRPCS the RPCs sent between the marks:
counts are per RPC, CPU times per operation.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_cpu import FIELDS, MODULES  # noqa: E402

# The fields before the counts: busy, all, ctxt, irqs of each guest,
# then the two hosts' nanoseconds.
GUEST_FIELDS = ("busy", "all", "ctxt", "irqs")
COUNTS_AT = 2 * len(GUEST_FIELDS) + 2
ROLES = ("client", "server")
# Wake-up calls per RPC below which a client's count is a plugin that
# lost them: either module calls xprt_complete_rqst() once a reply, and
# the RPC count's window is a little wider than the marks' (0.91 to 1.00
# a reply in the runs so far, nconnect the lowest).
MIN_CLIENT_WAKE_CALLS = 0.5


def grew(begin, end, i):
    """How much field i grew between the marks; None unless both have it."""
    if i >= len(begin) or i >= len(end) or begin[i] < 0 or end[i] < 0:
        return None
    return end[i] - begin[i]


def guest_delta(begin, end, role, name):
    i = ROLES.index(role) * len(GUEST_FIELDS) + GUEST_FIELDS.index(name)
    return end[i] - begin[i]


def count_grew(begin, end, name, role):
    """How much the insn-count.so count NAME grew for ROLE, or None."""
    i = COUNTS_AT + 2 * FIELDS.index(name) + ROLES.index(role)
    return grew(begin, end, i)


def per_rpc(n, rpcs):
    """N per RPC, two decimals (a count not taken is 0)."""
    return "%.2f" % ((n or 0) / rpcs if rpcs else 0)


def figures(job, unit, figure, ops, wrpcs, begin, end):
    """The metrics of one job, in the order they are recorded, and the
    two log lines."""
    rec = [(f"{job}_{unit}", figure)]
    busy = {r: guest_delta(begin, end, r, "busy") for r in ROLES}
    every = {r: guest_delta(begin, end, r, "all") for r in ROLES}
    host = {r: end[8 + i] - begin[8 + i] for i, r in enumerate(ROLES)}
    # Jiffies are 10 ms: microseconds per operation.
    for r in ROLES:
        rec.append((f"{job}_cpu_us_{r}", busy[r] * 10000 // ops))
    for r in ROLES:
        rec.append((f"{job}_host_cpu_us_{r}", host[r] // 1000 // ops))
    log = [f"  {job}: {figure} {unit}, {ops} ops; CPU busy {busy['client']}"
           f" of {every['client']} jiffies (client), {busy['server']} of"
           f" {every['server']} (server); host CPU"
           f" {host['client'] // 1000000} ms (client),"
           f" {host['server'] // 1000000} ms (server)"]
    # Wake-ups and interrupts cost far more than their instructions under
    # TCG (a guest that halts and is woken leaves translated code).
    for what in ("ctxsw", "irqs"):
        for r in ROLES:
            name = "ctxt" if what == "ctxsw" else "irqs"
            rec.append((f"{job}_{what}_rpc_{r}",
                        per_rpc(guest_delta(begin, end, r, name), wrpcs)))
    # Instructions per RPC: the RPCs are counted at the marks, where fio
    # counts its operations over a window of its own.
    cins = count_grew(begin, end, "insns", "client")
    sins = count_grew(begin, end, "insns", "server")
    if cins is None or sins is None:
        return rec, log
    rec.append((f"{job}_kinsns_rpc_client", cins // 1000 // wrpcs))
    rec.append((f"{job}_kinsns_rpc_server", sins // 1000 // wrpcs))
    for r in ROLES:
        for m in MODULES:
            n = count_grew(begin, end, f"{m}_insns", r)
            if n is not None:
                rec.append((f"{job}_{m}_insns_rpc_{r}", n // wrpcs))
        # REP string instructions: an older plugin has none.
        n = count_grew(begin, end, "rep_bytes", r)
        if n is None:
            continue
        rec.append((f"{job}_rep_bytes_rpc_{r}", per_rpc(n, wrpcs)))
        for m in MODULES:
            for what in ("iters", "bytes"):
                rec.append((f"{job}_{m}_rep_{what}_rpc_{r}",
                            per_rpc(count_grew(begin, end, f"{m}_rep_{what}",
                                               r), wrpcs)))
    # The wake-ups the transport asks for: rpcrdma.ko's calls to the
    # functions that wake a task or queue work, and the completion
    # queues' polls, each a work item run (an older plugin has none).
    # A client count below MIN_CLIENT_WAKE_CALLS: a plugin that lost calls.
    calls = count_grew(begin, end, "wake_calls", "client")
    lost = calls is not None and calls < MIN_CLIENT_WAKE_CALLS * wrpcs
    if lost:
        log.append(f"  {job}: the client's rpcrdma.ko made {calls} wake-up "
                   f"calls for {wrpcs} RPCs, fewer than half a reply's: "
                   "wake-up counts not recorded")
    for r in ROLES:
        calls = count_grew(begin, end, "wake_calls", r)
        runs = count_grew(begin, end, "work_runs", r)
        if lost or calls is None or runs is None:
            continue
        rec.append((f"{job}_wake_calls_rpc_{r}", per_rpc(calls, wrpcs)))
        rec.append((f"{job}_cq_polls_rpc_{r}", per_rpc(runs, wrpcs)))
        rec.append((f"{job}_transport_wakes_rpc_{r}",
                    per_rpc(calls + runs, wrpcs)))
    summary = []
    for r in ROLES:
        out = r
        for name in ("insns", "rpcrdma_insns", "rxe_insns", "ibcore_insns",
                     "rep_bytes"):
            n = count_grew(begin, end, name, r)
            if n is not None:
                out += f" {n // wrpcs} {name.replace('_', ' ')}"
        summary.append(out)
    log.append(f"  {job}: {wrpcs} RPCs; per RPC: {summary[0]}; {summary[1]}")
    return rec, log


def main(argv):
    if len(argv) not in (10, 11):
        sys.exit(__doc__)
    rnd, mod, job, unit, figure = argv[1:6]
    ops, wrpcs = int(argv[6]), int(argv[7])
    begin, end = ([int(v) for v in open(f).read().split()]
                  for f in argv[8:10])
    csv = argv[10] if len(argv) == 11 else "/out/bench.csv"
    if ops <= 0 or wrpcs <= 0:
        sys.exit(f"{job}: no operations or no RPCs measured")
    rec, log = figures(job, unit, figure, ops, wrpcs, begin, end)
    if rnd != "0":
        with open(csv, "a") as f:
            for metric, value in rec:
                f.write(f"{rnd},{mod},{metric},{value}\n")
    print("\n".join(log))


if __name__ == "__main__":
    main(sys.argv)
