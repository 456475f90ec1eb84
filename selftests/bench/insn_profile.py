#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per function of the kernel and its modules, per job.

    insn_profile.py OUT

After a make bench run with BENCH_INSN_PROFILE=1, OUT holds for every
mark N (OUT/cpumark-N.flag: "begin|end LABEL [RPCS OPS]"; for an end
mark, OUT/cpurpcs-N.flag: the RPCs sent between the begin and the end
mark, counted after it) and each guest the
instructions every profiled translation block had executed by then
(OUT/GUEST/blocks-N.txt, "ADDRESS INSTRUCTIONS") and the kernel's
functions of the moment (OUT/GUEST/syms-N.txt, from /proc/kallsyms).
For each job (a begin and an end mark with the same LABEL) and guest,
this writes OUT/insn-profile-GUEST-LABEL.txt: the instructions each
module executed between the two marks per RPC sent between them, then
every function that executed any, by instructions per RPC.  The kernel proper
counts as "vmlinux"; what is left of the total is user space (fio, the
harness) and the guest's firmware-free rest, reported as "(not kernel)".

A block is charged to the function whose symbol is the closest at or
below its address (unless it lies too far beyond it: "(no module)"); its instructions are counted as it starts, so the
figures are exact up to blocks left early (an interrupt, an exception).
"""
import bisect
import glob
import os
import re
import sys
from collections import defaultdict

# Beyond this distance from the closest symbol below it, a block is not
# in that function: the module area also holds code of no module (BPF
# programs, ftrace trampolines), after the last module's last function.
MAX_FUNCTION_SIZE = 16384


def read_snapshot(path):
    """A profile snapshot's {block address: instructions} and its
    {calling block's address: kernel instructions in its callouts}."""
    blocks, callouts = {}, {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 2:
                blocks[int(fields[0], 16)] = int(fields[1])
            elif len(fields) == 3 and fields[0] == 'callout':
                callouts[int(fields[1], 16)] = int(fields[2])
    return blocks, callouts


def read_blocks(path):
    """{block address: instructions} of a profile snapshot."""
    return read_snapshot(path)[0]


def read_syms(path):
    syms = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 3:
                mod = fields[3].strip("[]") if len(fields) > 3 else "vmlinux"
                syms.append((int(fields[0], 16), fields[2], mod))
    syms.sort()
    return syms


def guest_total(out, guest, begin, end):
    """All the instructions the guest executed from mark BEGIN to END."""
    col = 3 if guest == "client" else 4
    at = {}
    with open(f"{out}/cpu-host.csv") as f:
        for line in f:
            fields = line.split()
            at[int(fields[0])] = int(fields[col])
    return at[end] - at[begin]


def report(out, guest, label, begin, end, ops):
    gdir = f"{out}/{guest}"
    try:
        before = read_blocks(f"{gdir}/blocks-{begin}.txt")
        after = read_blocks(f"{gdir}/blocks-{end}.txt")
        syms = read_syms(f"{gdir}/syms-{end}.txt")
    except FileNotFoundError:
        return
    addrs = [s[0] for s in syms]
    per_func = defaultdict(int)
    per_mod = defaultdict(int)
    for addr, count in after.items():
        n = count - before.get(addr, 0)
        i = bisect.bisect_right(addrs, addr) - 1
        if n <= 0:
            continue
        if i < 0 or addr - addrs[i] > MAX_FUNCTION_SIZE:
            func, mod = "?", "(no module)"
        else:
            _, func, mod = syms[i]
        per_func[(mod, func)] += n
        per_mod[mod] += n
    with open(f"{out}/insn-profile-{guest}-{label}.txt", "w") as f:
        f.write(f"{guest}, {label}: {ops} RPCs, "
                f"{guest_total(out, guest, begin, end) / ops:.0f} "
                "instructions per RPC in all\n")
        total = guest_total(out, guest, begin, end)
        per_mod["(not kernel)"] = total - sum(per_mod.values())
        for mod, n in sorted(per_mod.items(), key=lambda kv: -kv[1]):
            f.write(f"{mod}: {n / ops:.0f} instructions per RPC\n")
        for (mod, func), n in sorted(per_func.items(), key=lambda kv: -kv[1]):
            f.write(f"{n / ops:10.1f}  {mod:<9} {func}\n")


def read_marks(out):
    """{mark number: its fields} of OUT's cpumark-N.flag files, an end
    mark's with the window's RPCs (cpurpcs-N.flag) as its fifth field,
    where an older run had it in the mark's own flag."""
    marks = {}
    for path in glob.glob(f"{out}/cpumark-*.flag"):
        mark = int(re.search(r"cpumark-(\d+)\.flag$", path).group(1))
        with open(path) as f:
            marks[mark] = f.read().split()
        rpcs = f"{out}/cpurpcs-{mark}.flag"
        if len(marks[mark]) == 4 and os.path.exists(rpcs):
            with open(rpcs) as f:
                marks[mark] += f.read().split()[:1]
    return marks


def main():
    out = sys.argv[1]
    marks = read_marks(out)
    begins = {f[1]: mark for mark, f in marks.items()
              if len(f) >= 2 and f[0] == "begin"}
    for mark, fields in marks.items():
        if len(fields) < 5 or fields[0] != "end" or fields[1] not in begins:
            continue
        ops = int(fields[4])        # the RPCs sent between the two marks
        if ops <= 0:
            continue
        for guest in ("client", "server"):
            if os.path.isdir(f"{out}/{guest}"):
                report(out, guest, fields[1], begins[fields[1]], mark, ops)


if __name__ == "__main__":
    main()
