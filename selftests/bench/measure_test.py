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
from host_cpu import CAPS_CALLOUTS, CAPS_REP, FIELDS  # noqa: E402

# Between the marks: 1000 RPCs, 500 operations.  The client guest was
# busy 50 of 200 jiffies, switched context 3000 times and took 250
# interrupts; the server 20 of 200, 1500 and 100; the hosts spent 2 s
# and 1 s of CPU.
GUESTS_BEGIN = [100, 1000, 10, 5, 200, 1000, 20, 7]
GUESTS_END = [150, 1200, 3010, 255, 220, 1200, 1520, 107]
HOSTS_BEGIN = [10 ** 9, 10 ** 9]
HOSTS_END = [3 * 10 ** 9, 2 * 10 ** 9]


RPCS = FIELDS.index("rpcs")
CAPS = FIELDS.index("caps")
ALL_CAPS = CAPS_REP | CAPS_CALLOUTS


def counts(grow, at_begin=False):
    """A mark's insn-count.so part: field i of the client grew by
    grow(i), the server's by twice that; -1 where grow gives None.  The
    caps field is a state, not a count: both guests' is grow(CAPS) at
    either mark."""
    out = []
    for i, _ in enumerate(FIELDS):
        g = grow(i)
        if g is None:
            out += [-1, -1]
        elif i == CAPS:
            out += [g, g]
        else:
            out += [0, 0] if at_begin else [g, 2 * g]
    return out


def marks(grow):
    return (GUESTS_BEGIN + HOSTS_BEGIN + counts(grow, at_begin=True),
            GUESTS_END + HOSTS_END + counts(grow))


def plugin(grow):
    """A plugin whose field i grows by grow(i), with the RPC count of
    the window (1000, as mountstats counted) and every capability,
    unless grow says otherwise."""
    def g(i):
        if i == RPCS:
            return grow(i) if grow(i) is None else 1000
        if i == CAPS:
            return ALL_CAPS if grow(i) is not None else None
        return grow(i)
    return g


def figures(grow, wrpcs=1000):
    begin, end = marks(grow)
    rec, log = measure.figures("job", "iops", "123.4", 500, wrpcs, begin,
                               end)
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
        rec, log = figures(plugin(lambda i: (i + 1) * 10 ** 6))
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
        at = FIELDS.index("sunrpc_callout_insns")
        self.assertEqual(rec["job_sunrpc_callout_insns_rpc_server"],
                         2 * (at + 1) * 1000)
        at = FIELDS.index("rpcrdma_callout_rep_bytes")
        self.assertEqual(rec["job_rpcrdma_callout_rep_bytes_rpc_client"],
                         "%.2f" % ((at + 1) * 1000))
        self.assertIn("job: 1000 RPCs; per RPC: client 1000 insns", log[-1])

    def test_rpcs_of_the_plugins_window(self):
        # mountstats counted 1100 around the marks; the plugin 1000 in.
        rec, log = figures(plugin(lambda i: 10 ** 6), wrpcs=1100)
        self.assertEqual(rec["job_kinsns_rpc_client"], 1)
        self.assertEqual(rec["job_ctxsw_rpc_client"], "3.00")
        self.assertIn("1000 RPCs in the plugin's window, 1100 counted "
                      "by mountstats around it (0.91)", log[1])

    def test_no_rpc_count_no_figures_per_rpc(self):
        # An older plugin: instructions, but no RPC count of its window.
        rec, log = figures(lambda i: 10 ** 6 if i < RPCS else None)
        self.assertFalse([m for m in rec if "insns" in m or "rep_" in m])
        self.assertIn("counted no RPCs in the window", log[1])

    def test_plugin_without_registers(self):
        # Everything counted but the registers' part: zeros for both
        # modules would compare as equal, so no REP or callout figures.
        for have, rep, callouts in ((0, False, False),
                                    (CAPS_REP, True, False),
                                    (CAPS_CALLOUTS, False, True)):
            def grow(i):
                return have if i == CAPS else 1000 if i == RPCS else 0
            rec, log = figures(grow)
            self.assertIn("job_ibcore_insns_rpc_server", rec)
            self.assertEqual(bool([m for m in rec if "_rep_" in m and
                                   "callout" not in m]), rep)
            self.assertEqual(bool([m for m in rec if "callout" in m]),
                             callouts)

    def test_wake_ups_per_rpc(self):
        # 1000 calls and 460 polls (client) over 1000 RPCs.
        calls, runs = FIELDS.index("wake_calls"), FIELDS.index("work_runs")
        grow = {calls: 1000, runs: 460}
        rec, log = figures(plugin(lambda i: grow.get(i, 10 ** 6)))
        self.assertEqual(rec["job_wake_calls_rpc_client"], "1.00")
        self.assertEqual(rec["job_cq_polls_rpc_client"], "0.46")
        self.assertEqual(rec["job_transport_wakes_rpc_client"], "1.46")
        self.assertEqual(rec["job_transport_wakes_rpc_server"], "2.92")
        self.assertEqual(len(log), 3)

    def test_wake_calls_lost(self):
        # Fewer calls than replies: the plugin missed some; no figures.
        calls, runs = FIELDS.index("wake_calls"), FIELDS.index("work_runs")
        grow = {calls: 490, runs: 460}
        rec, log = figures(plugin(lambda i: grow.get(i, 10 ** 6)))
        self.assertFalse([m for m in rec if "wake" in m or "polls" in m])
        self.assertIn("made 490 wake-up calls for 1000 RPCs", log[2])
        grow[calls] = 910
        rec, log = figures(plugin(lambda i: grow.get(i, 10 ** 6)))
        self.assertEqual(rec["job_wake_calls_rpc_client"], "0.91")

    def test_protocol_work(self):
        # 1000 sends, 250 Read chunks, 2000 operations... per RPC.
        rec = dict(measure.xprt_figures("job", 500, [5, 0, 0, 0, 0, 0],
                                        [1005, 250, 1000, 10, 4096000, 0]))
        self.assertEqual(rec["job_rpcs_op"], "2.0000")
        self.assertEqual(rec["job_read_chunks_rpc"], "0.2500")
        self.assertEqual(rec["job_write_chunks_rpc"], "1.0000")
        self.assertEqual(rec["job_reply_chunks_rpc"], "0.0100")
        self.assertEqual(rec["job_rdma_request_bytes_rpc"], "4096.0000")
        # Reply bytes are put per reply received: not without the count.
        self.assertNotIn("job_rdma_reply_bytes_rpc", rec)
        self.assertFalse(measure.xprt_figures("job", 500, [5] * 6, [5] * 6))
        # With the READ and WRITE RPCs and the sizes, but not the RPCs
        # completed: no RPCs per READ or WRITE.
        rec = dict(measure.xprt_figures(
            "job", 500, [5, 0, 0, 0, 0, 0, 100, 1048576, 1048576],
            [1005, 250, 1000, 10, 4096000, 0, 900, 1048576, 524288]))
        self.assertNotIn("job_rpcs_data", rec)
        self.assertEqual(rec["job_rsize"], "1048576")
        self.assertEqual(rec["job_wsize"], "524288")
        self.assertNotIn("job_connects", rec)
        # With what the transport set up in the window.
        setup = ([5, 0, 0, 0, 0, 0, 100, 4096, 4096, 4, 8192, 64],
                 [1005, 250, 1000, 10, 4096000, 0, 100, 4096, 4096, 5,
                  16384, 80])
        rec = dict(measure.xprt_figures("job", 500, *setup))
        self.assertEqual(rec["job_connects"], "1")
        self.assertEqual(rec["job_hardway_bytes"], "8192")
        self.assertEqual(rec["job_mrs_allocated"], "16")
        self.assertNotIn("job_rpcs_data", rec)

    def test_protocol_work_as_rpcs_complete(self):
        # A sequential read's window: 900 READs sent, 1,000 replies of
        # 256 KiB each received (100 were in flight at the first mark),
        # 1,000 RPCs completed, all READs.  Per reply and per RPC
        # completed, the work of each RPC; per send, the RPCs in flight.
        kib256 = 262144
        begin = [0, 0, 0, 0, 0, 0, 0, kib256, kib256, 0, 0, 0, 0, 0]
        end = [900, 0, 1800, 0, 900 * 120, 1000 * kib256, 1000, kib256,
               kib256, 0, 0, 0, 1000, 1000]
        rec = dict(measure.xprt_figures("job", 250, begin, end))
        self.assertEqual(rec["job_rdma_reply_bytes_rpc"], "%.4f" % kib256)
        self.assertEqual(rec["job_rpcs_data"], "1.0000")
        self.assertEqual(rec["job_write_chunks_rpc"], "2.0000")
        self.assertEqual(rec["job_rdma_request_bytes_rpc"], "120.0000")
        self.assertEqual(rec["job_rpcs_op"], "3.6000")
        # A GETATTR completed for each 9 READs: 1.11 RPCs per READ.
        end[-1] = 1111
        end[6] = 1000
        rec = dict(measure.xprt_figures("job", 250, begin, end))
        self.assertEqual(rec["job_rpcs_data"], "1.1110")

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
