#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of wakes.py on histograms whose per-RPC figures are known.

Run: python3 selftests/bench/wakes_test.py (make check runs it).
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wakes  # noqa: E402


def wakes_file(rpcs, polls, rxe, switches):
    """A wakes file as wakes_stop writes it: RPCS, then the histograms
    (ftrace's header and totals lines included)."""
    return f"""rpcs {rpcs}
== workqueue/workqueue_execute_start
# event histogram
#
# trigger info: hist:keys=function.sym:vals=hitcount:sort=hitcount.descending:size=2048 [active]
#

{{ function: [ffffffffc046c790] rpc_async_schedule [sunrpc]   }} hitcount:  {2 * rpcs}
{{ function: [ffffffffc0418b80] do_work [rdma_rxe]             }} hitcount:  {rxe}
{{ function: [ffffffffc0353280] ib_cq_poll_work [ib_core]      }} hitcount:  {polls}
{{ function: [ffffffff81365420] vmstat_shepherd               }} hitcount:  1

Totals:
    Hits: {2 * rpcs + rxe + polls + 1}
    Entries: 4
    Dropped: 0
== sched/sched_switch
{{ prev_comm: fio , next_comm: kworker/u4:3 }} hitcount:  {switches}
{{ prev_comm: kworker/u4:3 , next_comm: kworker/0:1H }} hitcount:  {polls}
{{ prev_comm: swapper/0 , next_comm: python3 }} hitcount:  {rpcs}
== sched/sched_wakeup
{{ comm: kworker/1:1H }} hitcount:  {polls}
{{ comm: ksoftirqd/1 }} hitcount:  {rpcs}
"""


class WakesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        with open(os.path.join(self.dir.name, name), "w") as f:
            f.write(text)

    def test_task_kind(self):
        self.assertEqual(wakes.task_kind("kworker/0:1H"), "kworker/N:NH")
        self.assertEqual(wakes.task_kind("kworker/u4:6"), "kworker/u")
        self.assertEqual(wakes.task_kind("kworker/1:2"), "kworker/N")
        self.assertEqual(wakes.task_kind("swapper/0"), "swapper")
        self.assertEqual(wakes.task_kind("python3"), "python3")

    def test_parse(self):
        rpcs, counts = wakes.parse(wakes_file(1000, 300, 800, 1500))
        self.assertEqual(rpcs, 1000)
        self.assertEqual(counts[("work", "ib_cq_poll_work [ib_core]")], 300)
        self.assertEqual(counts[("work", "vmstat_shepherd")], 1)
        self.assertEqual(counts[("switch", "kworker/N:NH")], 300)
        self.assertEqual(counts[("switch", "python3")], 1000)
        self.assertEqual(counts[("wakeup", "ksoftirqd")], 1000)
        # ftrace's totals are not entries.
        self.assertEqual(sum(v for (s, _), v in counts.items()
                             if s == "work"), 2000 + 800 + 300 + 1)

    def test_report(self):
        # Two recorded rounds and the warm-up, which does not count.
        for name, figures in (
                ("0-stock-rand_write_4k", (1000, 900, 900, 9000)),
                ("1-ours-rand_write_4k", (1000, 300, 800, 1500)),
                ("1-stock-rand_write_4k", (2000, 900, 1500, 3000)),
                ("2-ours-rand_write_4k", (1000, 320, 760, 1500)),
                ("2-stock-rand_write_4k", (1000, 470, 750, 1500)),
                ("1-ours-seq_read", (1000, 1, 1, 1))):
            self.write(f"wakes-client-{name}.txt", wakes_file(*figures))
        rows = {(s, k): (st, o) for s, k, st, o in
                wakes.rows(wakes.collect(self.dir.name,
                                         "rand_write_4k")[
                                             ("client", "rand_write_4k")])}
        st, o = rows[("work", "ib_cq_poll_work [ib_core]")]
        self.assertAlmostEqual(st, (0.45 + 0.47) / 2)
        self.assertAlmostEqual(o, 0.31)
        st, o = rows[("switch", "kworker/u")]
        self.assertAlmostEqual(st, 1.5)
        self.assertAlmostEqual(o, 1.5)
        # Below 0.01 per RPC in both: left out.
        self.assertNotIn(("work", "vmstat_shepherd"), rows)
        text = wakes.report(self.dir.name)
        self.assertIn("client rand_write_4k: per RPC, medians of 2 rounds",
                      text)
        # A job only one module ran is not compared.
        self.assertNotIn("seq_read", text)


if __name__ == "__main__":
    unittest.main()
