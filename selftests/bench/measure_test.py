#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of measure.py on two marks whose figures are known.

Run: python3 selftests/bench/measure_test.py (make check runs it).
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402
from host_cpu import FIELDS  # noqa: E402

# Between the marks: 1000 RPCs, 500 operations.  The client guest was
# busy 50 of 200 jiffies, switched context 3000 times and took 250
# interrupts; the server 20 of 200, 1500 and 100; the hosts spent 2 s
# and 1 s of CPU.
GUESTS_BEGIN = [100, 1000, 10, 5, 200, 1000, 20, 7]
GUESTS_END = [150, 1200, 3010, 255, 220, 1200, 1520, 107]
HOSTS_BEGIN = [10 ** 9, 10 ** 9]
HOSTS_END = [3 * 10 ** 9, 2 * 10 ** 9]


def counts(grow):
    """A mark's insn-count.so part: field i of the client grew by
    grow(i), the server's by twice that; -1 where grow gives None."""
    out = []
    for i, _ in enumerate(FIELDS):
        g = grow(i)
        out += [-1, -1] if g is None else [g, 2 * g]
    return out


def marks(grow):
    zero = counts(lambda i: None if grow(i) is None else 0)
    return (GUESTS_BEGIN + HOSTS_BEGIN + zero,
            GUESTS_END + HOSTS_END + counts(grow))


def figures(grow):
    begin, end = marks(grow)
    rec, log = measure.figures("job", "iops", "123.4", 500, 1000, begin, end)
    return dict(rec), log


class Figures(unittest.TestCase):
    def test_cpu_per_operation(self):
        rec, log = figures(lambda i: None)
        self.assertEqual(rec["job_iops"], "123.4")
        # 50 jiffies of 10 ms over 500 operations: 1000 us each.
        self.assertEqual(rec["job_cpu_us_client"], 1000)
        self.assertEqual(rec["job_cpu_us_server"], 400)
        self.assertEqual(rec["job_host_cpu_us_client"], 4000)
        self.assertEqual(rec["job_host_cpu_us_server"], 2000)
        self.assertEqual(rec["job_ctxsw_rpc_client"], "3.00")
        self.assertEqual(rec["job_irqs_rpc_server"], "0.10")
        self.assertIn("CPU busy 50 of 200 jiffies (client)", log[0])

    def test_no_counts_no_count_figures(self):
        rec, log = figures(lambda i: None)
        self.assertFalse([m for m in rec if "insns" in m or "rep_" in m])
        self.assertEqual(len(log), 1)

    def test_counts_per_rpc(self):
        # Field i grew by (i + 1) million (client), twice that (server).
        rec, log = figures(lambda i: (i + 1) * 10 ** 6)
        self.assertEqual(rec["job_kinsns_rpc_client"], 1)
        self.assertEqual(rec["job_kinsns_rpc_server"], 2)
        at = FIELDS.index("rpcrdma_insns")
        self.assertEqual(rec["job_rpcrdma_insns_rpc_client"],
                         (at + 1) * 1000)
        self.assertEqual(rec["job_rpcrdma_insns_rpc_server"],
                         2 * (at + 1) * 1000)
        at = FIELDS.index("sunrpc_rep_bytes")
        self.assertEqual(rec["job_sunrpc_rep_bytes_rpc_client"],
                         "%.2f" % ((at + 1) * 1000))
        self.assertIn("job: 1000 RPCs; per RPC: client 1000 insns", log[1])

    def test_old_plugin_without_rep_counts(self):
        # A plugin that counted instructions but not REP strings.
        rec, _ = figures(lambda i: 10 ** 6 if i < 5 else None)
        self.assertIn("job_ibcore_insns_rpc_server", rec)
        self.assertFalse([m for m in rec if "rep_" in m])

    def test_wake_ups_per_rpc(self):
        # 1000 calls and 460 polls (client) over 1000 RPCs.
        calls, runs = FIELDS.index("wake_calls"), FIELDS.index("work_runs")
        grow = {calls: 1000, runs: 460}
        rec, log = figures(lambda i: grow.get(i, 10 ** 6))
        self.assertEqual(rec["job_wake_calls_rpc_client"], "1.00")
        self.assertEqual(rec["job_cq_polls_rpc_client"], "0.46")
        self.assertEqual(rec["job_transport_wakes_rpc_client"], "1.46")
        self.assertEqual(rec["job_transport_wakes_rpc_server"], "2.92")
        self.assertEqual(len(log), 2)

    def test_wake_calls_lost(self):
        # Fewer calls than replies: the plugin missed some; no figures.
        calls, runs = FIELDS.index("wake_calls"), FIELDS.index("work_runs")
        grow = {calls: 490, runs: 460}
        rec, log = figures(lambda i: grow.get(i, 10 ** 6))
        self.assertFalse([m for m in rec if "wake" in m or "polls" in m])
        self.assertIn("made 490 wake-up calls for 1000 RPCs", log[1])
        # A window's edges: 0.91 a reply is a count, not a loss.
        grow[calls] = 910
        rec, log = figures(lambda i: grow.get(i, 10 ** 6))
        self.assertEqual(rec["job_wake_calls_rpc_client"], "0.91")

    def test_old_plugin_without_wake_counts(self):
        calls = FIELDS.index("wake_calls")
        rec, _ = figures(lambda i: 10 ** 6 if i < calls else None)
        self.assertIn("job_ibcore_rep_bytes_rpc_server", rec)
        self.assertFalse([m for m in rec if "wake" in m or "polls" in m])

    def test_warm_up_round_not_recorded(self):
        begin, end = marks(lambda i: None)
        d = os.path.join(os.environ.get("TMPDIR", "/tmp"),
                         f"measure_test.{os.getpid()}")
        os.makedirs(d)
        try:
            for name, mark in (("b", begin), ("e", end)):
                with open(f"{d}/{name}", "w") as f:
                    f.write(" ".join(map(str, mark)) + "\n")
            for rnd in ("0", "1"):
                measure.main(["measure.py", rnd, "ours", "job", "iops",
                              "1", "500", "1000", f"{d}/b", f"{d}/e",
                              f"{d}/csv"])
            with open(f"{d}/csv") as f:
                rows = f.read().splitlines()
            self.assertTrue(rows)
            self.assertTrue(all(r.startswith("1,ours,") for r in rows))
        finally:
            for name in ("b", "e", "csv"):
                if os.path.exists(f"{d}/{name}"):
                    os.remove(f"{d}/{name}")
            os.rmdir(d)


if __name__ == "__main__":
    unittest.main()
