#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Answer the bench's CPU marks with the host CPU time of each guest.

    host_cpu.py OUT [--profile]

The guest that runs the jobs writes OUT/cpumark-N.flag at the start and
the end of every job (cpu_mark in selftests/guest/bench-lib.sh).  For
each mark, in order, this appends
"N CLIENT_NS SERVER_NS" and then, client and server again, each count
insn-count.so keeps in OUT/GUEST/insns, to OUT/cpu-host.csv: the CPU
time the host has spent so far running each guest's QEMU process, every
thread summed (/proc/PID/task/*/schedstat, nanoseconds), then the
counts in the order of FIELDS (-1 for those the plugin does not write,
all of them without it), then creates OUT/hostmarked-N.flag for the
guest to read them.  Runs until killed.

The counts, so far: the instructions executed in all, in rpcrdma.ko,
rdma_rxe.ko, sunrpc.ko and ib_core.ko; the iterations of REP string
instructions, in all and charged to each of the four modules; the bytes
they moved or stored, the same way (insn-count.c says how); the calls
rpcrdma.ko made to the functions that wake a task or queue work, and
the runs of completion-queue polls; the instructions, REP iterations
and REP bytes the kernel's own text executed in calls from rpcrdma.ko
and from sunrpc.ko (callouts); the runs of the RPC layer's reply
completion (the RPCs of the window); and what the plugin could count
(CAPS_REP, CAPS_CALLOUTS: both need the guest's registers).  New counts
are only ever appended, here as in the plugin's file, so a column keeps
its place: column 3 and 4 are always the two guests' instructions.

With --profile (BENCH_INSN_PROFILE=1), each mark also snapshots every
guest's per-block instruction counts and module symbols, which
insn_profile.py reads after the run.

Under TCG a guest's CPU time on the host is the work of emulating it.
Unlike the jiffies a guest counts itself, it does not grow while the
host has the guest's threads descheduled.  With both guests CPU bound,
though, it tracks the wall clock, and the speed of these shared
machines moves it; the instruction counts do not move with it.
"""
import os
import shutil
import sys
import time


def process_ns(pid):
    """CPU time of every thread of process PID so far, in nanoseconds."""
    total = 0
    task_dir = f"/proc/{pid}/task"
    for tid in os.listdir(task_dir):
        try:
            with open(f"{task_dir}/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass            # a thread that ended between the two calls
    return total


def qemu_pid(out, guest):
    """PID of a guest's QEMU (vm.sh writes OUT/GUEST/qemu.pid), or None."""
    try:
        with open(f"{out}/{guest}/qemu.pid") as f:
            return int(f.read().split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return None


# The counts of OUT/GUEST/insns, in the plugin's order (insn-count.c).
MODULES = ("rpcrdma", "rxe", "sunrpc", "ibcore")
# The transport's two modules, whose calls into the kernel's own text
# the plugin counts (callouts).
TRANSPORT = ("rpcrdma", "sunrpc")
FIELDS = (("insns",) + tuple(f"{m}_insns" for m in MODULES) +
          ("rep_iters",) + tuple(f"{m}_rep_iters" for m in MODULES) +
          ("rep_bytes",) + tuple(f"{m}_rep_bytes" for m in MODULES) +
          ("wake_calls", "work_runs") +
          tuple(f"{m}_callout_insns" for m in TRANSPORT) +
          tuple(f"{m}_callout_rep_iters" for m in TRANSPORT) +
          tuple(f"{m}_callout_rep_bytes" for m in TRANSPORT) +
          ("rpcs", "caps"))
# The bits of "caps": what the plugin could count (insn-count.c).
CAPS_REP = 1
CAPS_CALLOUTS = 2


def insns(out, guest):
    """The counts insn-count.so keeps for the guest (FIELDS), -1 for each
    it does not write: an older plugin wrote the first four, and without
    the plugin there are none."""
    try:
        with open(f"{out}/{guest}/insns", "rb") as f:
            data = f.read(8 * len(FIELDS))
    except FileNotFoundError:
        data = b""
    if len(data) < 32:
        return [-1] * len(FIELDS)
    n = len(data) // 8
    return [int.from_bytes(data[8 * i:8 * i + 8], "little") if i < n else -1
            for i in range(len(FIELDS))]


def snapshot_blocks(out, mark):
    """Ask each guest's insn-count.so for its per-block counts now
    (OUT/GUEST/blocks-MARK.txt) and keep the guest's module symbols of the
    moment beside them (OUT/GUEST/syms-MARK.txt), for insn_profile.py."""
    for guest in ("client", "server"):
        gdir = f"{out}/{guest}"
        blocks = f"{gdir}/blocks-{mark}.txt"
        if not os.path.exists(f"{gdir}/insns"):
            continue
        with open(f"{gdir}/insns.req.tmp", "w") as f:
            f.write(blocks + "\n")
        os.rename(f"{gdir}/insns.req.tmp", f"{gdir}/insns.req")
        if os.path.exists(f"{gdir}/text-syms"):
            shutil.copyfile(f"{gdir}/text-syms", f"{gdir}/syms-{mark}.txt")
    for guest in ("client", "server"):
        gdir = f"{out}/{guest}"
        for _ in range(500):
            if not os.path.exists(f"{gdir}/insns.req"):
                break
            time.sleep(0.01)


def main():
    out = sys.argv[1]
    profile = len(sys.argv) > 2 and sys.argv[2] == "--profile"
    pids = {}
    mark = 1
    while True:
        if not os.path.exists(f"{out}/cpumark-{mark}.flag"):
            time.sleep(0.02)
            continue
        sample = []
        for guest in ("client", "server"):
            if guest not in pids:
                pids[guest] = qemu_pid(out, guest)
            try:
                sample.append(process_ns(pids[guest]) if pids[guest] else -1)
            except FileNotFoundError:
                sample.append(-1)       # the guest has ended
        counts = [insns(out, guest) for guest in ("client", "server")]
        for i in range(len(FIELDS)):
            sample += [counts[0][i], counts[1][i]]
        if profile:
            snapshot_blocks(out, mark)
        with open(f"{out}/cpu-host.csv", "a") as f:
            f.write(f"{mark} {' '.join(str(x) for x in sample)}\n")
        open(f"{out}/hostmarked-{mark}.flag", "w").close()
        mark += 1


if __name__ == "__main__":
    main()
