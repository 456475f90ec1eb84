#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Median ratio ours/stock per metric from a bench CSV.

    ratios.py CSV TITLE [KERNEL]

KERNEL (6.12 unless given) is the kernel whose stock module ours ran
against: it picks the goal of the verdict (GOALS).

Each line is "round,module,metric,value".  For every round that has both
modules, the ratio ours/stock is taken; the median of those ratios is the
figure we report, because single runs on these machines vary by 25%.  The
spread (lowest and highest ratio) and every round's ratio follow.

Metrics named *_cpu_us_client or *_cpu_us_server are CPU time per
operation in that guest (*_host_cpu_us_*: the host's CPU time running
it), *_kinsns_rpc_* the thousands of instructions it executed per RPC
and *_{rpcrdma,rxe,sunrpc,ibcore}_insns_rpc_* the instructions it
executed in rpcrdma.ko, rdma_rxe.ko, sunrpc.ko and ib_core.ko per RPC
(a REP string instruction counted once, however long), and
*_ctxsw_rpc_* and *_irqs_rpc_* its context switches and device
interrupts per RPC: lower is better, so their ratios are read the other
way round (0.90 means ours costs 10% less).  *_MODULE_rep_iters_rpc_*
and *_MODULE_rep_bytes_rpc_* are the iterations of the REP string
instructions charged to a module (its own, and those of the kernel's
memcpy(), memset() and memmove() it called) and the bytes they moved or
stored, *_rep_bytes_rpc_* those bytes in the whole guest.

*_transport_insns_rpc_* is the transport's work: the rpcrdma and
sunrpc instruction counts together and the instructions the kernel's
own text executed in their calls into it (*_MODULE_callout_insns_rpc_*:
list and lock helpers, allocations, wake-ups; insn-count.c says what a
callout counts), so that a design which calls the kernel to do its
work does not look free.  A REP string instruction counts once there,
as in the modules' own counts: its work is judged apart, by
*_transport_rep_bytes_rpc_*, the bytes all the transport's REP
instructions and those in its callouts moved or stored, guarded at
1.02 of stock's.  (Counted an instruction per iteration, the REP
STOSB that zeroes every page sunrpc allocates to refill rq_pages, the
same for both modules under Debian's init_on_alloc, was a third of a
4 KiB job's figure and most of a 1 MiB job's.)
*_transport_own_insns_rpc_* is the same without the callouts (the
modules' own text), *_transport_kernel_insns_rpc_* the callouts alone.

*_transport_wakes_rpc_* is the wake-ups the transport asks for per
RPC, counted by insn-count.so at no cost to the guest: the calls
rpcrdma.ko makes to the functions that wake a task or a thread or queue
work (*_wake_calls_rpc_*) and the runs of the completion queues' polls
(*_cq_polls_rpc_*), each a work item.  Unlike *_ctxsw_rpc_*, it does
not count the switches of fio, NFS, rpciod or rdma_rxe, the same work
for both modules, that move with how the two guests' timing lets them
share one wake-up.

The closing "highest CPU-per-operation ratio" is taken over the
*_cpu_us_GUEST rows of the guest whose module is swapped (of both
guests when the title begins "both ends").

*_kinsns_rpc_*_less_rpcrdma, for the guest whose module is swapped (the
title's first word), set its count with ours less what rpcrdma.ko
executed against its whole count with stock, and *_less_transport
take sunrpc.ko's share out as well: the ratio the guest would reach if
our module (and then the RPC layer too) cost nothing, everything else
staying as measured.  They bound what work on the transport can gain.
JOB_transport_insns_rpc_GUEST_less_rpcrdma bounds the goal the same
way: the transport's figure with rpcrdma.ko's own instructions and its
callouts taken out of ours, sunrpc.ko's left in (the RPC layer's work is
the same for both modules, bar the stock module's header codec, which
runs in sunrpc's xdr_stream helpers).  Where the verdict misses the goal
on a job whose median of that floor is above the goal too, it says so:
no rpcrdma.ko could meet the goal there against that stock module.

The last table models the host, whose two CPUs run both guests: while
a job runs, the two QEMU processes together keep JOB_host_cores_busy
host CPUs busy (their host CPU time per operation, summed, times the
operations per second).  When that is close to 2 the host is the
bottleneck, and throughput is the host's CPUs over the host CPU both
guests need per operation: the guests' instructions per operation
times what the host spends on each, JOB_host_ns_kinsn (nanoseconds per
thousand guest instructions, both guests).  The first factor is the
stack's own work and JOB_kinsns_rpc_both counts it (both guests'
thousands of instructions per RPC, a cost row); the second is how fast
the host ran the slot, which moves by tens of percent between slots a
minute apart.  JOB_kinsns_rpc_both_less_transport takes the tested
guest's rpcrdma.ko and sunrpc.ko counts out of ours (both guests' when
the title begins "both ends"); one over its ratio is the throughput
ratio a transport that cost nothing could reach against the same peer
at the same host speed.  (These floors take out the instructions
proper, a REP instruction counted once, as the guest's whole count has
them.)

The last line is the verdict against the goal (VERDICT_JOBS: the six
jobs of BENCH_JOBS), for the guest whose module is swapped (both
guests for "both ends"): JOB_transport_insns_rpc_GUEST at most the
goal of the stock module's kernel (GOALS: 0.85 of 6.12's, 0.95 of
7.2's, whose transport has upstream's later work) on every job, over
at least MIN_ROUNDS (8) rounds with both modules, and, over the same
rounds, the guards:
JOB_rxe_insns_rpc_GUEST, JOB_ibcore_insns_rpc_GUEST,
JOB_ctxsw_rpc_GUEST, JOB_transport_wakes_rpc_GUEST, the whole guest's
instructions (JOB_kinsns_rpc_GUEST) and, where one guest is swapped,
the other's (the peer: JOB_kinsns_rpc_PEER) at most GUARD (1.02) of
stock's, and the REP bytes per RPC charged to the transport, to
rdma_rxe and to ib_core no more than 2% above stock's, or REP_SLACK (8)
bytes above, whichever is more (a figure near zero would fail on a
stray memset otherwise).  Then the protocol work, which must be the
same for both modules (PROTOCOL: the client's mountstats over the
window): RPCs per operation within 5% (fio's window is its own), Read,
Write and Reply chunks (segments) per
RPC within CHUNK_SLACK (0.02) of stock's, and the bytes offered for
RDMA Writes and written per RPC within 2% or BYTES_SLACK (64), and no
connection made inside the window by either.  A job the run did not measure,
too few rounds, or a guard or protocol figure it has none of, is listed
as not measured: the verdict is then INCOMPLETE, not PASS.  ratios.py
exits 0 on PASS only, so make bench fails otherwise.
"""
import statistics
import sys
from collections import defaultdict


THROUGHPUT_UNITS = ("_MBps", "_iops", "_ops_per_s")
HOST_MODEL = ("_host_cores_busy", "_host_ns_kinsn")

# The verdict (see the docstring): BENCH_JOBS's names and their metrics'.
VERDICT_JOBS = (("write", "seq_write"), ("read", "seq_read"),
                ("randread", "rand_read_4k"), ("randwrite", "rand_write_4k"),
                ("metadata", "metadata"),
                ("nconnect", "nconnect4_rand_read_4k"))
# The goal by the kernel whose stock module is measured against
# (RPCRDMA_KERNEL, ratios.py's third argument).
GOALS = {"6.12": 0.85, "7.2": 0.95}
GOAL = GOALS["6.12"]
GUARD = 1.02
REP_SLACK = 8.0
MIN_ROUNDS = 8
# The protocol work both modules must do alike: (label, metric after
# JOB_, how far ours may be from stock's: "ratio" within GUARD either
# way, "chunks" within CHUNK_SLACK per RPC, "bytes" within 2% or
# BYTES_SLACK).
# Chunk segments per RPC may be fewer than stock's (ours registers up
# to 256 pages in one MR where stock's client splits 1 MiB in two), not
# more by over CHUNK_SLACK: the bytes moved by RDMA are compared too.
CHUNK_SLACK = 0.02
BYTES_SLACK = 64.0
# fio counts its operations over a window of its own, a little off the
# marks' (RPCs per operation moved by 0.02 in a round of one module, by
# up to 0.19 with four fio jobs starting apart): the check is the RPCs
# per READ or WRITE RPC, both counted inside the marks as RPCs complete
# (counted as sent, the RPCs in flight at the marks moved a sequential
# read's figure by 3% between two servers), within 2%, and
# RPCs per operation, within RPCS_SLACK, only for a job that sends no
# READ or WRITE (metadata: its operations are counted inside the
# marks).  rsize and wsize must be equal.
RPCS_SLACK = 0.05
PROTOCOL = (("RPCs per READ or WRITE", "rpcs_data", "data"),
            ("RPCs per operation", "rpcs_op", "ratio"),
            ("rsize", "rsize", "equal"),
            ("wsize", "wsize", "equal"),
            ("Read chunks", "read_chunks_rpc", "chunks"),
            ("Write chunks", "write_chunks_rpc", "chunks"),
            ("Reply chunks", "reply_chunks_rpc", "chunks"),
            ("RDMA request bytes", "rdma_request_bytes_rpc", "bytes"),
            ("RDMA reply bytes", "rdma_reply_bytes_rpc", "bytes"),
            ("connections made in the window", "connects", "none"))
# Set-up work inside the window, shown with the protocol work and left
# to the REP-bytes guard (the allocator zeroes what it hands out): buffer
# bytes grown past their first size and MRs allocated.
SETUP = ("hardway_bytes", "mrs_allocated")
# (label, metric between JOB_ and _GUEST, compared as bytes)
GUARDS = (("rxe", "rxe_insns_rpc", False),
          ("ib_core", "ibcore_insns_rpc", False),
          ("whole guest", "kinsns_rpc", False),
          ("ctxsw", "ctxsw_rpc", False),
          ("transport wake-ups", "transport_wakes_rpc", False),
          ("REP bytes transport", "transport_rep_bytes_rpc", True),
          ("REP bytes rxe", "rxe_rep_bytes_rpc", True),
          ("REP bytes ib_core", "ibcore_rep_bytes_rpc", True))


def is_host_model(metric):
    return metric.endswith(HOST_MODEL)


def is_protocol(metric):
    return any(metric.endswith("_" + stem) for _, stem, _ in PROTOCOL) or \
        any(metric.endswith("_" + stem) for stem in SETUP)


def is_cost(metric):
    return not is_host_model(metric) and not is_protocol(metric) and any(
        k in metric for k in ("_cpu_us_", "insns_", "_ctxsw_rpc_",
                              "_irqs_rpc_", "_rep_", "_wake_calls_rpc_",
                              "_cq_polls_rpc_", "_wakes_rpc_"))


def table(vals, metrics, title):
    print(title)
    print(f"{'metric':<46} {'stock':>9} {'ours':>9} {'ratio':>6} "
          f"{'spread':>11}  rounds")
    medians = {}
    for metric in metrics:
        ratios, ours, stock = [], [], []
        for (m, _rnd), d in sorted(vals.items(), key=lambda kv: int(kv[0][1])):
            if m != metric or "ours" not in d or "stock" not in d:
                continue
            ours.append(d["ours"])
            stock.append(d["stock"])
            if d["stock"] > 0:
                ratios.append(d["ours"] / d["stock"])
        if not ratios:
            continue
        r = statistics.median(ratios)
        medians[metric] = r
        every = " ".join(f"{x:.2f}" for x in ratios)
        print(f"{metric:<46} {statistics.median(stock):>9.1f} "
              f"{statistics.median(ours):>9.1f} {r:>6.2f} "
              f"{min(ratios):>5.2f}-{max(ratios):<5.2f}  {every}")
    return medians


def own_insns(vals, metric, rnd):
    """The instructions of JOB_{rpcrdma,transport}_insns_rpc_GUEST in
    round RND, per module, a REP string instruction counted once: what
    the guest's whole count (JOB_kinsns_rpc_GUEST) holds of them."""
    if "_transport_" not in metric:
        return vals.get((metric, rnd), {})
    parts = [vals.get((metric.replace("_transport_", f"_{m}_"), rnd), {})
             for m in ("rpcrdma", "sunrpc")]
    calls = [vals.get((metric.replace("_transport_insns_",
                                      f"_{m}_callout_insns_"), rnd))
             for m in ("rpcrdma", "sunrpc")]
    if all(calls):
        parts += calls
    mods = set.intersection(*(set(p) for p in parts))
    return {mod: sum(p[mod] for p in parts) for mod in mods}


def sum_rows(vals, rnd, metrics, only=None):
    """Per module, the sum of METRICS in round RND (of those whose name
    holds "_ONE_" for ONE in ONLY, if given), for the modules that have
    every one of METRICS."""
    rows = [vals.get((m, rnd), {}) for m in metrics]
    mods = set.intersection(*(set(r) for r in rows))
    if only is not None:
        rows = [r for m, r in zip(metrics, rows)
                if any(f"_{one}_rpc_" in m for one in only)]
    return {mod: sum(r[mod] for r in rows) for mod in mods}


def add_transport(vals):
    """JOB_transport_{own,kernel,}_insns_rpc_GUEST and
    JOB_transport_rep_bytes_rpc_GUEST (see the docstring): the figures
    of rpcrdma.ko and sunrpc.ko together and the callouts into the
    kernel's text, a REP string instruction counted once, and the bytes
    their REP instructions moved.  The transport's figure needs them
    all: a run that did not count REP string instructions or callouts
    has none (the goal would not see the work they hold, nor the guard
    the bytes); its own figure needs the REP iterations.

    The stock module's header codec runs in sunrpc's xdr_stream helpers,
    ours in rpcrdma.ko, so only the sum compares the two transports' own
    work (Documentation/performance.rst)."""
    mods = ("rpcrdma", "sunrpc")
    for (metric, rnd) in list(vals):
        if "_rpcrdma_insns_rpc_" not in metric:
            continue
        job, guest = metric.split("_rpcrdma_insns_rpc_")
        # The REP iterations are required (a run that could not read
        # them has no figure) but not added: see the docstring.
        own = sum_rows(vals, rnd, [f"{job}_{m}_{what}_rpc_{guest}"
                                   for m in mods
                                   for what in ("insns", "rep_iters")],
                       ("insns",))
        kernel = sum_rows(vals, rnd, [f"{job}_{m}_callout_{what}_rpc_{guest}"
                                      for m in mods
                                      for what in ("insns", "rep_iters")],
                          ("insns",))
        if own:
            vals[(f"{job}_transport_own_insns_rpc_{guest}", rnd)] = own
        if kernel:
            vals[(f"{job}_transport_kernel_insns_rpc_{guest}", rnd)] = kernel
        both = own.keys() & kernel.keys()
        if both:
            vals[(f"{job}_transport_insns_rpc_{guest}", rnd)] = {
                mod: own[mod] + kernel[mod] for mod in both}
        nbytes = sum_rows(vals, rnd, [f"{job}_{m}_{what}_rpc_{guest}"
                                      for m in mods
                                      for what in ("rep_bytes",
                                                   "callout_rep_bytes")])
        if nbytes:
            vals[(f"{job}_transport_rep_bytes_rpc_{guest}", rnd)] = nbytes


def add_floors(vals, tested):
    """JOB_kinsns_rpc_GUEST_less_{rpcrdma,transport}: see the docstring."""
    for (metric, rnd), d in list(vals.items()):
        if not metric.endswith(f"_kinsns_rpc_{tested}"):
            continue
        if "ours" not in d or "stock" not in d:
            continue
        job, guest = metric.split("_kinsns_rpc_")
        for part in ("rpcrdma", "transport"):
            own = own_insns(vals, f"{job}_{part}_insns_rpc_{guest}", rnd)
            if "ours" not in own:
                continue
            vals[(f"{metric}_less_{part}", rnd)] = {
                "ours": d["ours"] - own["ours"] / 1000,
                "stock": d["stock"],
            }


def goal_floor(vals, job, guest, rnd):
    """Per module, JOB_transport_insns_rpc_GUEST in round RND less what
    rpcrdma.ko executed and called into the kernel for: ours is the
    figure a module that cost nothing would reach, stock's its own
    ({} without the rows)."""
    full = vals.get((f"{job}_transport_insns_rpc_{guest}", rnd), {})
    own = [vals.get((f"{job}_rpcrdma_{what}_rpc_{guest}", rnd), {})
           for what in ("insns", "callout_insns")]
    if "ours" not in full or "stock" not in full or \
       not all("ours" in d for d in own):
        return {}
    return {"ours": full["ours"] - sum(d["ours"] for d in own),
            "stock": full["stock"]}


def add_goal_floors(vals, guests):
    """JOB_transport_insns_rpc_GUEST_less_rpcrdma for GUESTS, the guests
    whose module is swapped: see goal_floor()."""
    for (metric, rnd) in list(vals):
        for guest in guests:
            if not metric.endswith(f"_transport_insns_rpc_{guest}"):
                continue
            job = metric[:-len(f"_transport_insns_rpc_{guest}")]
            floor = goal_floor(vals, job, guest, rnd)
            if floor:
                vals[(f"{metric}_less_rpcrdma", rnd)] = floor


def add_host_model(vals, guests):
    """JOB_host_cores_busy, JOB_host_ns_kinsn, JOB_kinsns_rpc_both and
    JOB_kinsns_rpc_both_less_transport: see the docstring."""
    for (metric, rnd), host_c in list(vals.items()):
        if not metric.endswith("_host_cpu_us_client"):
            continue
        job = metric[:-len("_host_cpu_us_client")]
        host_s = vals.get((f"{job}_host_cpu_us_server", rnd), {})
        thr = next((vals[(job + u, rnd)] for u in THROUGHPUT_UNITS
                    if (job + u, rnd) in vals), {})
        ins_c = vals.get((f"{job}_kinsns_rpc_client", rnd), {})
        ins_s = vals.get((f"{job}_kinsns_rpc_server", rnd), {})
        for mod in host_c.keys() & host_s.keys():
            host_us = host_c[mod] + host_s[mod]
            if mod in thr:
                vals[(f"{job}_host_cores_busy", rnd)][mod] = \
                    thr[mod] * host_us / 1e6
            if mod not in ins_c or mod not in ins_s:
                continue
            kinsns = ins_c[mod] + ins_s[mod]
            vals[(f"{job}_kinsns_rpc_both", rnd)][mod] = kinsns
            # Host time is per operation, instructions per RPC: the
            # ratio ours/stock is what this row is for, not its units.
            if kinsns > 0:
                vals[(f"{job}_host_ns_kinsn", rnd)][mod] = \
                    host_us * 1000 / kinsns
            if mod != "ours":
                vals[(f"{job}_kinsns_rpc_both_less_transport",
                      rnd)][mod] = kinsns
                continue
            own = [own_insns(vals, f"{job}_transport_insns_rpc_{g}", rnd)
                   for g in guests]
            if all("ours" in o for o in own):
                vals[(f"{job}_kinsns_rpc_both_less_transport", rnd)][mod] = \
                    kinsns - sum(o["ours"] for o in own) / 1000


def round_ratio(ours, stock):
    """ours / stock; for a stock figure of 0, 1 if ours is 0 too."""
    if stock > 0:
        return ours / stock
    return 1.0 if ours <= 0 else float("inf")


def protocol_misses(vals, job, rounds):
    """What of the protocol work of JOB differs between the two modules
    over ROUNDS beyond PROTOCOL's tolerances, and what was not measured:
    two lists of labels."""
    differ, unmeasured = [], []

    def rows_of(stem):
        rows = [vals.get((f"{job}_{stem}", rnd), {}) for rnd in rounds]
        return [d for d in rows if "ours" in d and "stock" in d]

    has_data = bool(rows_of("rpcs_data"))
    for name, stem, kind in PROTOCOL:
        rows = rows_of(stem)
        if (kind == "data" and not rows) or (kind == "ratio" and has_data):
            # A job without READ or WRITE RPCs is checked per
            # operation; one with them, per READ or WRITE.
            continue
        if not rows:
            unmeasured.append(name)
            continue
        ours = statistics.median(d["ours"] for d in rows)
        stock = statistics.median(d["stock"] for d in rows)
        if kind == "none":
            # A connection set up in a round's window (a reconnect, a
            # transport connected late) is work the job does not measure.
            ours = sum(d["ours"] for d in rows)
            stock = sum(d["stock"] for d in rows)
            bad = ours > 0 or stock > 0
            text = f"{ours:.0f} vs {stock:.0f}"
        elif kind in ("ratio", "data"):
            slack = RPCS_SLACK if kind == "ratio" else GUARD - 1
            bad = abs(round_ratio(ours, stock) - 1) > slack
            text = f"{ours:.3f} vs {stock:.3f}"
        elif kind == "equal":
            bad = ours != stock
            text = f"{ours:.0f} vs {stock:.0f}"
        elif kind == "chunks":
            # Segments, as mountstats counts them: fewer for the same
            # bytes is a larger registration, not less protocol work.
            bad = ours - stock > CHUNK_SLACK
            text = f"{ours:.2f} vs {stock:.2f}"
        else:
            bad = abs(ours - stock) > max(BYTES_SLACK,
                                          (GUARD - 1) * stock)
            text = f"{ours:.0f} vs {stock:.0f} B"
        if bad:
            differ.append(f"{name} {text}")
    return differ, unmeasured


def verdict(vals, label, guests, min_rounds=MIN_ROUNDS, goal=GOAL):
    """The verdict line against GOAL, 6.12's unless given (see the
    docstring)."""
    misses, guard_misses, missing, measured = [], [], [], []
    guard_missing = defaultdict(list)
    few, differ, protocol_missing = [], [], defaultdict(list)
    beyond = []
    worst = None
    roles = ("client", "server")
    for short, job in VERDICT_JOBS:
        for guest in guests:
            where = short if len(guests) == 1 else f"{short} {guest}"
            metric = f"{job}_transport_insns_rpc_{guest}"
            rounds = sorted((rnd for (m, rnd), d in vals.items()
                             if m == metric and "ours" in d and "stock" in d
                             and d["stock"] > 0), key=int)
            if not rounds:
                missing.append((short, where))
                continue
            if len(rounds) < min_rounds:
                few.append(f"{where} {len(rounds)}")
            r = statistics.median(vals[(metric, rnd)]["ours"] /
                                  vals[(metric, rnd)]["stock"]
                                  for rnd in rounds)
            measured.append(where)
            if worst is None or r > worst[0]:
                worst = (r, where)
            if r > goal:
                misses.append(f"{r:.2f} ({where})")
                floors = [goal_floor(vals, job, guest, rnd)
                          for rnd in rounds]
                floors = [f["ours"] / f["stock"] for f in floors if f]
                floor = statistics.median(floors) if floors else 0
                if floor > goal:
                    beyond.append(f"{floor:.3f} ({where})")
            guards = [(name, f"{stem}_{guest}", as_bytes)
                      for name, stem, as_bytes in GUARDS]
            if len(guests) == 1:
                peer = roles[1 - roles.index(guest)]
                guards.append(("peer guest", f"kinsns_rpc_{peer}", False))
            if guest == guests[0]:
                d, u = protocol_misses(vals, job, rounds)
                differ += [f"{x} ({short})" for x in d]
                for x in u:
                    protocol_missing[x].append(short)
            for name, stem, as_bytes in guards:
                rows = [vals.get((f"{job}_{stem}", rnd), {})
                        for rnd in rounds]
                rows = [d for d in rows if "ours" in d and "stock" in d]
                if not rows:
                    guard_missing[name].append(where)
                    continue
                g = statistics.median(round_ratio(d["ours"], d["stock"])
                                      for d in rows)
                if g <= GUARD:
                    continue
                if not as_bytes:
                    guard_misses.append(f"{name} {g:.2f} ({where})")
                    continue
                more = statistics.median(d["ours"] - d["stock"] for d in rows)
                if more > REP_SLACK:
                    guard_misses.append(f"{name} {g:.2f}, +{more:.0f} B "
                                        f"({where})")
    if worst is None:
        return (f"verdict {label}: NOT MEASURED (no transport instruction "
                "counts with REP strings and callouts)")
    if misses:
        verdict_goal = f"transport {', '.join(misses)} > {goal:.2f}"
    else:
        verdict_goal = (f"transport <= {goal:.2f} (highest {worst[0]:.2f}, "
                        f"{worst[1]})")
    guards = (f"guards: {', '.join(guard_misses)} > {GUARD:.2f}"
              if guard_misses else "guards ok where measured"
              if guard_missing else "guards ok")
    status = ("FAIL" if misses or guard_misses or differ else
              "INCOMPLETE" if (missing or guard_missing or few or
                               protocol_missing) else "PASS")
    line = f"verdict {label}: {status} {verdict_goal}; {guards}"
    if beyond:
        line += ("; beyond any rpcrdma.ko (the transport with ours at no "
                 "cost): " + ", ".join(beyond))
    if differ:
        line += "; protocol work differs: " + ", ".join(differ)
    if few:
        line += (f"; fewer than {min_rounds} rounds: " + ", ".join(few))
    if missing:
        # A job missing for every guest (not in BENCH_JOBS): its name.
        names = []
        for short, where in missing:
            whole = [s for s, _ in missing].count(short) == len(guests)
            if (short if whole else where) not in names:
                names.append(short if whole else where)
        line += f"; not measured: {' '.join(names)}"
    if guard_missing:
        # A guard missing on every job measured, the usual case (a run
        # made before the figure existed), takes its name alone.
        line += "; guards not measured: " + ", ".join(
            name if wheres == measured else f"{name} ({' '.join(wheres)})"
            for name, wheres in guard_missing.items())
    if protocol_missing:
        jobs = list(dict.fromkeys(w.split()[0] for w in measured))
        line += "; protocol work not measured: " + ", ".join(
            name if wheres == jobs else f"{name} ({' '.join(wheres)})"
            for name, wheres in protocol_missing.items())
    return line


def main():
    path, title = sys.argv[1], sys.argv[2]
    kernel = sys.argv[3] if len(sys.argv) > 3 else "6.12"
    if kernel not in GOALS:
        print(f"ratios.py: no goal against {kernel}'s stock module "
              f"(known: {', '.join(GOALS)})", file=sys.stderr)
        return 2
    vals = defaultdict(dict)
    with open(path) as f:
        for line in f:
            rnd, mod, metric, value = line.strip().split(",")
            vals[(metric, rnd)][mod] = float(value)
    tested = title.split(":")[0]
    # "both ends": each guest runs the module under test.
    guests = ("client", "server") if tested == "both ends" else (tested,)
    add_transport(vals)
    add_floors(vals, tested)
    add_goal_floors(vals, guests)
    add_host_model(vals, guests)
    metrics = sorted({m for m, _ in vals})
    # Protocol and set-up counts have a table of their own below.
    speed = table(vals, [m for m in metrics
                         if not is_cost(m) and not is_host_model(m) and
                         not is_protocol(m)],
                  title + ": throughput, ours/stock (higher is better)")
    print()
    cost = table(vals, [m for m in metrics if is_cost(m)],
                 title + ": CPU per operation, ours/stock (lower is better)")
    print()
    table(vals, [m for m in metrics if is_host_model(m)],
          title + ": the host (cores busy; host time per instruction)")
    print()
    protocol = table(vals, [m for m in metrics if is_protocol(m)],
                     title + ": protocol work, ours/stock (the same work "
                     "is 1.00)")
    if not speed and not protocol:
        print("no complete rounds")
        return 1
    print()
    if speed:
        print(f"lowest throughput ratio: {min(speed.values()):.2f}")
    both = [1 / r for m, r in cost.items()
            if m.endswith("_kinsns_rpc_both") and r > 0]
    if both:
        print("lowest throughput ratio the instruction counts predict: "
              f"{min(both):.2f}")
    cpu = [r for m, r in cost.items()
           if m.endswith(tuple(f"_cpu_us_{g}" for g in guests)) and
           "_host_" not in m]
    if cpu:
        print(f"highest CPU-per-operation ratio: {max(cpu):.2f}")
    line = verdict(vals, "both" if tested == "both ends" else tested, guests,
                   goal=GOALS[kernel])
    print(line)
    return 0 if line.split(": ", 1)[1].startswith("PASS") else 1


if __name__ == "__main__":
    sys.exit(main())
