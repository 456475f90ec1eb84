#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Answer the bench's CPU marks with the host CPU time of each guest.

    host_cpu.py OUT [--profile]

The guest that runs the jobs writes OUT/cpumark-N.flag at the start and
the end of every job (cpu_mark in selftests/guest/bench-lib.sh).  For
each mark, in order, this appends
"N CLIENT_NS SERVER_NS" and then, client and server again, the
instructions executed so far in all, in rpcrdma.ko and in rdma_rxe.ko,
to OUT/cpu-host.csv: the CPU time the host has spent so far running each
guest's QEMU process, every thread summed (/proc/PID/task/*/schedstat,
nanoseconds), and the counts insn-count.so keeps in OUT/GUEST/insns (-1
without it), then creates OUT/hostmarked-N.flag for the guest to read
them.  Runs until killed.

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


def insns(out, guest):
    """Instructions the guest has executed so far, in all, in rpcrdma.ko,
    rdma_rxe.ko and sunrpc.ko (insn-count.so), or -1 four times."""
    try:
        with open(f"{out}/{guest}/insns", "rb") as f:
            data = f.read(32)
    except FileNotFoundError:
        data = b""
    if len(data) != 32:
        return [-1, -1, -1, -1]
    return [int.from_bytes(data[i:i + 8], "little") for i in (0, 8, 16, 24)]


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
        for i in range(4):
            sample += [counts[0][i], counts[1][i]]
        if profile:
            snapshot_blocks(out, mark)
        with open(f"{out}/cpu-host.csv", "a") as f:
            f.write(f"{mark} {' '.join(str(x) for x in sample)}\n")
        open(f"{out}/hostmarked-{mark}.flag", "w").close()
        mark += 1


if __name__ == "__main__":
    main()
