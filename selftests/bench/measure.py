#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The figures of one measured job, from its two CPU marks.

    measure.py [--xprt XBEGIN XEND] ROUND MODULE JOB UNIT FIGURE OPS WRPCS
               BEGIN END [CSV]

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
operations it completed and WRPCS the RPCs mountstats counted around
the marks.  Counts are per RPC, CPU times per operation.  The RPCs are
those the plugin counted in the client guest inside the marks (runs of
xprt_complete_rqst(): one a reply, either module): without that count
(an older plugin) no instruction, REP or wake-up figure is recorded, as
none could be put per RPC of the same window.  REP figures need the
plugin's CAPS_REP, callout figures its CAPS_CALLOUTS, for that guest: a
plugin that could not read the registers counts zero for both modules,
which would compare as equal.

With --xprt, XBEGIN and XEND hold the client's RPC-over-RDMA counters
around the window ("SENDS READ_CHUNKS WRITE_CHUNKS REPLY_CHUNKS
RDMA_REQUEST_BYTES RDMA_REPLY_BYTES", mountstats' xprt: rdma lines
summed, then "DATA_RPCS RSIZE WSIZE": the READ and WRITE RPCs and the
mount's sizes, then "CONNECTS HARDWAY MRS", then "RECVS DONE_RPCS":
the replies received and the RPCs of every kind completed): the
protocol work per RPC, which ratios.py compares between the two
modules, the RPCs per operation (fio's operations, over fio's window, a
little off the marks'), the RPCs per READ or WRITE RPC, the negotiated
rsize and wsize, and what the transport set up inside the window:
connections made, buffer bytes grown past their first size and MRs
allocated.  What a client counts as it sends (chunks, request bytes) is
put per RPC sent; what it counts as a reply arrives (RDMA reply bytes)
per reply received, and the RPCs per READ or WRITE RPC are both counted
as RPCs complete.  A window opens and closes with RPCs in flight, and
how many depends on the server's pace: per RPC sent, a sequential
read's reply bytes moved with the RPCs in flight at the marks (by 3%
between two servers), not with the work each RPC did.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from host_cpu import CAPS_CALLOUTS, CAPS_REP, FIELDS, MODULES  # noqa: E402
from host_cpu import TRANSPORT  # noqa: E402

# The fields before the counts: busy, all, ctxt, irqs of each guest,
# then the two hosts' nanoseconds.
GUEST_FIELDS = ("busy", "all", "ctxt", "irqs")
COUNTS_AT = 2 * len(GUEST_FIELDS) + 2
ROLES = ("client", "server")
# Wake-up calls per RPC below which a client's count is a plugin that
# lost them: either module calls xprt_complete_rqst() once a reply.
MIN_CLIENT_WAKE_CALLS = 0.5
# The client's RPC-over-RDMA counters --xprt passes, in order.
XPRT_COUNTS = ("sends", "read_chunks", "write_chunks", "reply_chunks",
               "rdma_request_bytes", "rdma_reply_bytes")
# What follows them: the READ and WRITE RPCs (grown), rsize and wsize.
XPRT_MORE = ("data_rpcs", "rsize", "wsize")
# Then what the transport set up inside the window: connections made,
# bytes of buffers grown past their first size ("hardway") and MRs
# allocated.  Either is work a round should not hold: connection setup
# and allocations, each zeroed by the allocator under init_on_alloc.
XPRT_SETUP = ("connects", "hardway_bytes", "mrs_allocated")
# Last, what is counted as RPCs complete: the replies the transport
# received and the RPCs of every kind the per-op statistics counted.
XPRT_DONE = ("recvs", "done_rpcs")
# Of XPRT_COUNTS, what is counted as a reply arrives, not as a call goes.
XPRT_PER_REPLY = ("rdma_reply_bytes",)


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


def xprt_figures(job, ops, xbegin, xend):
    """The protocol work per RPC, RPCs per operation and per READ or
    WRITE RPC, and the sizes, from the client's counters around the
    window.  A figure whose counts are not in both lists is left out."""
    layout = XPRT_COUNTS + XPRT_MORE + XPRT_SETUP + XPRT_DONE
    n = min(len(xbegin), len(xend), len(layout))
    d = {name: xend[i] - xbegin[i] for i, name in enumerate(layout[:n])}
    sends = d["sends"]
    if sends <= 0:
        return []
    recvs = d.get("recvs", 0)
    rec = [(f"{job}_rpcs_op", "%.4f" % (sends / ops))]
    for name in XPRT_COUNTS[1:]:
        per = recvs if name in XPRT_PER_REPLY else sends
        if per > 0:
            rec.append((f"{job}_{name}_rpc", "%.4f" % (d[name] / per)))
    if d.get("data_rpcs", 0) > 0 and d.get("done_rpcs", 0) > 0:
        rec.append((f"{job}_rpcs_data",
                    "%.4f" % (d["done_rpcs"] / d["data_rpcs"])))
    for name in ("rsize", "wsize"):
        if name in d:
            rec.append((f"{job}_{name}", str(xend[layout.index(name)])))
    for name in XPRT_SETUP:
        if name in d:
            rec.append((f"{job}_{name}", str(d[name])))
    return rec


def caps(begin, end, role):
    """What the plugin could count for ROLE (CAPS_*), 0 if it says not."""
    i = COUNTS_AT + 2 * FIELDS.index("caps") + ROLES.index(role)
    if i >= len(end) or end[i] < 0:
        return 0
    return end[i]


def figures(job, unit, figure, ops, wrpcs, begin, end):
    """The metrics of one job, in the order they are recorded, and the
    log lines."""
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
    # The RPCs of the window, as the plugin counted them, if it did.
    rpcs = count_grew(begin, end, "rpcs", "client")
    # Wake-ups and interrupts cost far more than their instructions under
    # TCG (a guest that halts and is woken leaves translated code).
    for what in ("ctxsw", "irqs"):
        for r in ROLES:
            name = "ctxt" if what == "ctxsw" else "irqs"
            rec.append((f"{job}_{what}_rpc_{r}",
                        per_rpc(guest_delta(begin, end, r, name),
                                rpcs or wrpcs)))
    # Instructions per RPC: the RPCs the plugin counted in the window.
    cins = count_grew(begin, end, "insns", "client")
    sins = count_grew(begin, end, "insns", "server")
    if cins is None or sins is None:
        return rec, log
    if not rpcs:
        log.append(f"  {job}: the plugin counted no RPCs in the window "
                   "(an older plugin?): no figures per RPC recorded")
        return rec, log
    log.append(f"  {job}: {rpcs} RPCs in the plugin's window, {wrpcs} "
               f"counted by mountstats around it ({rpcs / wrpcs:.2f})")
    wrpcs = rpcs
    rec.append((f"{job}_kinsns_rpc_client", cins // 1000 // wrpcs))
    rec.append((f"{job}_kinsns_rpc_server", sins // 1000 // wrpcs))
    for r in ROLES:
        for m in MODULES:
            n = count_grew(begin, end, f"{m}_insns", r)
            if n is not None:
                rec.append((f"{job}_{m}_insns_rpc_{r}", n // wrpcs))
        have = caps(begin, end, r)
        # REP string instructions, when the plugin could read RCX.
        n = count_grew(begin, end, "rep_bytes", r)
        if n is not None and have & CAPS_REP:
            rec.append((f"{job}_rep_bytes_rpc_{r}", per_rpc(n, wrpcs)))
            for m in MODULES:
                for what in ("iters", "bytes"):
                    rec.append((f"{job}_{m}_rep_{what}_rpc_{r}",
                                per_rpc(count_grew(begin, end,
                                                   f"{m}_rep_{what}", r),
                                        wrpcs)))
        elif n is not None:
            log.append(f"  {job}: the {r}'s plugin could not count REP "
                       "string instructions: no REP figures")
        # The kernel's own work in the transport's calls (callouts).
        if not have & CAPS_CALLOUTS:
            log.append(f"  {job}: the {r}'s plugin could not count "
                       "callouts: no transport figure")
            continue
        for m in TRANSPORT:
            n = count_grew(begin, end, f"{m}_callout_insns", r)
            rec.append((f"{job}_{m}_callout_insns_rpc_{r}", n // wrpcs))
            for what in ("iters", "bytes"):
                rec.append((f"{job}_{m}_callout_rep_{what}_rpc_{r}",
                            per_rpc(count_grew(begin, end,
                                               f"{m}_callout_rep_{what}", r),
                                    wrpcs)))
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
        for name in ("insns", "rpcrdma_insns", "rpcrdma_callout_insns",
                     "sunrpc_callout_insns", "rxe_insns", "ibcore_insns",
                     "rep_bytes"):
            n = count_grew(begin, end, name, r)
            if n is not None:
                out += f" {n // wrpcs} {name.replace('_', ' ')}"
        summary.append(out)
    log.append(f"  {job}: {wrpcs} RPCs; per RPC: {summary[0]}; {summary[1]}")
    return rec, log


def read_ints(path):
    with open(path) as f:
        return [int(v) for v in f.read().split()]


def main(argv):
    xprt = None
    if len(argv) > 1 and argv[1] == "--xprt":
        xprt = [read_ints(f) for f in argv[2:4]]
        argv = argv[:1] + argv[4:]
    if len(argv) not in (10, 11):
        sys.exit(__doc__)
    rnd, mod, job, unit, figure = argv[1:6]
    ops, wrpcs = int(argv[6]), int(argv[7])
    begin, end = (read_ints(f) for f in argv[8:10])
    csv = argv[10] if len(argv) == 11 else "/out/bench.csv"
    if ops <= 0 or wrpcs <= 0:
        sys.exit(f"{job}: no operations or no RPCs measured")
    rec, log = figures(job, unit, figure, ops, wrpcs, begin, end)
    if xprt:
        rec += xprt_figures(job, ops, *xprt)
    if rnd != "0":
        with open(csv, "a") as f:
            for metric, value in rec:
                f.write(f"{rnd},{mod},{metric},{value}\n")
    print("\n".join(log))


if __name__ == "__main__":
    main(sys.argv)
