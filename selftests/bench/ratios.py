#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Median ratio ours/stock per metric from a bench CSV.

Each line is "round,module,metric,value".  For every round that has both
modules, the ratio ours/stock is taken; the median of those ratios is the
figure we report, because single runs on these machines vary by 25%.
"""
import statistics
import sys
from collections import defaultdict


def main():
    path, title = sys.argv[1], sys.argv[2]
    vals = defaultdict(dict)
    for line in open(path):
        rnd, mod, metric, value = line.strip().split(",")
        vals[(metric, rnd)][mod] = float(value)
    metrics = sorted({m for m, _ in vals})
    print(title)
    print(f"{'metric':<20} {'stock (median)':>15} {'ours (median)':>15} "
          f"{'ratio (median)':>15} {'rounds':>7}")
    worst = None
    for metric in metrics:
        ratios, ours, stock = [], [], []
        for (m, _rnd), d in sorted(vals.items()):
            if m != metric or "ours" not in d or "stock" not in d:
                continue
            ours.append(d["ours"])
            stock.append(d["stock"])
            if d["stock"] > 0:
                ratios.append(d["ours"] / d["stock"])
        if not ratios:
            continue
        r = statistics.median(ratios)
        worst = r if worst is None else min(worst, r)
        print(f"{metric:<20} {statistics.median(stock):>15.1f} "
              f"{statistics.median(ours):>15.1f} {r:>15.2f} {len(ratios):>7}")
    if worst is None:
        print("no complete rounds")
        return 1
    print(f"lowest median ratio: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
