#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where a make bench job's context switches come from, ours beside stock.

    wakes.py OUTDIR [JOB]

Reads the histograms a BENCH_WAKES=1 run leaves in OUTDIR
(wakes-GUEST-ROUND-MODULE-JOB.txt, written by wakes_stop in
selftests/guest/bench-lib.sh: the RPCs of the window, then one
histogram per traced event) and prints, per guest and job, the medians
over the recorded rounds (round 0, the warm-up, left out) of, per RPC:

  work   the work items each function ran as: each is a kworker woken
         or kept running for it (ib_cq_poll_work: a completion queue's
         polling; do_work: soft-RoCE's tasks; rpc_async_schedule: an RPC
         task run by rpciod);
  switch the context switches into each kind of task (kworker/u and
         kworker/N:NH, the high-priority pool ib_comp_wq uses, apart;
         numbers left out of the other names);
  wakeup the tasks woken, by kind.

A row's ratio is ours/stock of those medians.  Rows below 0.01 per RPC
in both are left out.
"""
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

NAME = re.compile(r"wakes-(?P<guest>[a-z]+)-(?P<round>\d+)-"
                  r"(?P<module>ours|stock)-(?P<job>.+)\.txt$")
HIT = re.compile(r"hitcount:\s+(\d+)")
SECTIONS = {"workqueue/workqueue_execute_start": "work",
            "sched/sched_switch": "switch",
            "sched/sched_wakeup": "wakeup"}


def task_kind(comm):
    """A task's name without its instance numbers."""
    if re.fullmatch(r"kworker/\d+:\d+H", comm):
        return "kworker/N:NH"
    if comm.startswith("kworker/u"):
        return "kworker/u"
    if comm.startswith("kworker/"):
        return "kworker/N"
    return re.sub(r"[/:]\d+$", "", comm) or comm


def parse(text):
    """(rpcs, {(section, key): count}) of one wakes file."""
    rpcs, section, counts = 0, None, defaultdict(int)
    for line in text.splitlines():
        if line.startswith("rpcs "):
            rpcs = int(line.split()[1])
        elif line.startswith("== "):
            section = SECTIONS.get(line[3:].strip())
        elif section and (m := HIT.search(line)):
            if section == "work":
                f = re.search(r"\] (\S+)(?: \[(\S+)\])?", line)
                if not f:
                    continue
                key = f.group(1) + (f" [{f.group(2)}]" if f.group(2) else "")
            elif section == "switch":
                f = re.search(r"next_comm: (\S+)", line)
                if not f:
                    continue
                key = task_kind(f.group(1))
            else:
                f = re.search(r"comm: (\S+)", line)
                if not f:
                    continue
                key = task_kind(f.group(1))
            counts[(section, key)] += int(m.group(1))
    return rpcs, counts


def collect(outdir, only=None):
    """{(guest, job): {module: [per-RPC dict of a round, ...]}}."""
    runs = defaultdict(lambda: defaultdict(list))
    for path in sorted(Path(outdir).glob("wakes-*.txt")):
        m = NAME.match(path.name)
        if not m or m["round"] == "0" or (only and m["job"] != only):
            continue
        rpcs, counts = parse(path.read_text())
        if rpcs <= 0:
            continue
        per = {k: v / rpcs for k, v in counts.items()}
        for section in SECTIONS.values():
            per[(section, "all")] = sum(v for (s, _), v in per.items()
                                        if s == section)
        runs[(m["guest"], m["job"])][m["module"]].append(per)
    return runs


def rows(by_module):
    """(section, key, stock, ours) medians, both modules' rows."""
    keys = set()
    for rounds in by_module.values():
        for per in rounds:
            keys.update(per)
    out = []
    for key in sorted(keys, key=lambda k: (list(SECTIONS.values()).index(k[0]),
                                           k[1] != "all", k[1])):
        med = [statistics.median(per.get(key, 0.0)
                                 for per in by_module.get(mod, [{}]))
               for mod in ("stock", "ours")]
        if max(med) >= 0.01:
            out.append((key[0], key[1], med[0], med[1]))
    return out


def report(outdir, only=None):
    lines = []
    for (guest, job), by_module in sorted(collect(outdir, only).items()):
        if "ours" not in by_module or "stock" not in by_module:
            continue
        lines.append(f"{guest} {job}: per RPC, medians of "
                     f"{len(by_module['ours'])} rounds")
        lines.append(f"  {'':<6} {'':<44} {'stock':>7} {'ours':>7} "
                     f"{'ratio':>6}")
        for section, key, stock, ours in rows(by_module):
            ratio = f"{ours / stock:6.2f}" if stock else "     -"
            lines.append(f"  {section:<6} {key:<44} {stock:7.3f} "
                         f"{ours:7.3f} {ratio}")
    return "\n".join(lines)


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    text = report(argv[1], argv[2] if len(argv) == 3 else None)
    if not text:
        sys.exit(f"wakes.py: no BENCH_WAKES=1 histograms in {argv[1]}")
    print(text)


if __name__ == "__main__":
    main(sys.argv)
