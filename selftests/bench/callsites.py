#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Calls per RPC from a module's call sites, from a BENCH_INSN_PROFILE run.

    callsites.py OUT GUEST JOB KO [TARGET_REGEX]

OUT is a make bench output directory of a BENCH_INSN_PROFILE=1 run, GUEST
"client" or "server", JOB a label of its marks ("1-ours-seq_write"), KO
the module file that run loaded: build/debian/src/rpcrdma.ko, or the
guest kernel's own sunrpc.ko (uncompressed), whose calls a transport
drives too.  For every direct call in KO's text, this prints how often
it ran per RPC between the job's two marks, most frequent first:
"CALLS CALLOUT TARGET CALLER", where CALLOUT is the kernel's
instructions per RPC in the callouts that call opened (the plugin's
"callout" lines: the work the call caused in vmlinux, on its stack,
however deep; "-" for a call that opens none, into a module).  A
TARGET_REGEX keeps only the calls into matching functions.

insn_profile.py says which kernel functions ran; this says which of
our module's calls made them run: a callout's work (an allocation that
the kernel zeroes, a wake-up) is charged to the module that made the
call, in whatever context it ran, and this finds the call.

The plugin counts each block's instructions, not its runs (a call to
__fentry__, a NOP at run time, is neither a call nor a block's end).  TCG ends a
block at every branch and call, so a call site's block starts at the
nearest instruction before it that follows a branch, a call or a
return, or earlier where a jump lands (a block the profile has); its
runs are its instructions over its length.
"""
import os
import re
import subprocess
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from insn_profile import read_marks, read_snapshot  # noqa: E402

BLOCK_END = re.compile(r'^(j|call|ret|ud2|int3)')
# Calls the kernel turns into NOPs when it loads the module (ftrace).
PATCHED_OUT = ('__fentry__',)


def module_functions(syms_path, module='rpcrdma'):
    funcs = {}
    with open(syms_path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[3] == '[%s]' % module and p[1] in 'tT':
                funcs[p[2]] = int(p[0], 16)
    return funcs


def disassemble(ko):
    """{function: [(offset, mnemonic)]} and [(function, offset, target)]."""
    text = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', ko],
                          capture_output=True, text=True, check=True).stdout
    return parse_disassembly(text)


def parse_disassembly(text):
    insns = defaultdict(list)
    calls = []
    fn, start, last = None, 0, None
    for line in text.splitlines():
        m = re.match(r'^([0-9a-f]+) <([^>]+)>:$', line)
        if m:
            fn, start, last = m.group(2), int(m.group(1), 16), None
            continue
        m = re.match(r'^\s+[0-9a-f]+: R_X86_64_PLT32\s+(\S+?)-0x4$', line)
        if m and fn and last is not None:
            if m.group(1) in PATCHED_OUT:
                # A NOP at run time: no call, no end of a block.
                insns[fn][-1] = (last, 'nop')
            elif insns[fn] and insns[fn][-1][1].startswith('call'):
                calls.append((fn, last, m.group(1)))
            continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S+)', line)
        if m and fn:
            last = int(m.group(1), 16) - start
            insns[fn].append((last, m.group(2)))
    return insns, calls


def call_block(insns, fn, off, base, blocks):
    """The address of the block that makes FN's call at offset OFF."""
    lst = insns[fn]
    idx = [o for o, _ in lst].index(off)
    j = idx
    # Back to a profiled block's start, or to the instruction after the
    # one that ends the block before: a block that ran there (a JMP's)
    # is not the call's.
    while j > 0 and base + lst[j][0] not in blocks and \
            not BLOCK_END.match(lst[j - 1][1]):
        j -= 1
    return base + lst[j][0], idx - j + 1


def call_runs(insns, calls, funcs, blocks, callouts):
    """Runs of each (target, caller) between the two snapshots, and the
    callout instructions of those calls, from CALLOUTS ({block:
    instructions}): two Counters."""
    runs, work = Counter(), Counter()
    for fn, off, target in calls:
        if fn not in funcs:
            continue
        block, length = call_block(insns, fn, off, funcs[fn], blocks)
        runs[(target, fn)] += blocks.get(block, 0) / length
        if block in callouts:
            work[(target, fn)] += callouts[block]
    return runs, work


def job_marks(out, job):
    """The begin and end mark numbers of JOB, and the RPCs between them."""
    begin = end = rpcs = None
    for n, fields in read_marks(out).items():
        if len(fields) >= 2 and fields[1] == job:
            if fields[0] == 'begin':
                begin = n
            elif fields[0] == 'end':
                end, rpcs = n, int(fields[4]) if len(fields) > 4 else 0
    return begin, end, rpcs


def main(argv):
    if len(argv) not in (5, 6):
        sys.exit(__doc__)
    out, guest, job, ko = argv[1:5]
    flt = re.compile(argv[5]) if len(argv) == 6 else None
    begin, end, rpcs = job_marks(out, job)
    if begin is None or end is None or not rpcs:
        sys.exit('callsites.py: no marks with RPCs for %s in %s' % (job, out))
    gdir = os.path.join(out, guest)
    p0 = os.path.join(gdir, 'blocks-%d.txt' % begin)
    p1 = os.path.join(gdir, 'blocks-%d.txt' % end)
    (b0, c0), (b1, c1) = read_snapshot(p0), read_snapshot(p1)
    blocks = {a: n - b0.get(a, 0) for a, n in b1.items()}
    callouts = {a: n - c0.get(a, 0) for a, n in c1.items()}
    # The module of KO's name: rpcrdma.ko, or a kernel's sunrpc.ko.
    module = os.path.basename(ko).split('.')[0]
    funcs = module_functions(os.path.join(gdir, 'syms-%d.txt' % begin),
                             module)
    insns, calls = disassemble(ko)
    runs, work = call_runs(insns, calls, funcs, blocks, callouts)
    for (target, fn), n in sorted(runs.items(), key=lambda r: -r[1]):
        if n and (not flt or flt.search(target)):
            w = work.get((target, fn))
            print('%9.4f %9s  %-34s %s' %
                  (n / rpcs, '%.1f' % (w / rpcs) if w is not None else '-',
                   target, fn))


if __name__ == '__main__':
    main(sys.argv)
