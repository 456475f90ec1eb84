#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of ratios.py on a bench CSV whose answers are known.

Run: python3 selftests/bench/ratios_test.py (make check runs it).
"""
import io
import os
import sys
import tempfile
import unittest
from collections import defaultdict
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratios  # noqa: E402

# One round of a 4 KiB job in the server half.  Stock: 1000 IOPS, the two
# QEMUs 900 us of host CPU per operation together, 200k instructions per
# RPC in the two guests.  Ours: the server guest executes 20k fewer, of
# which 2k in its rpcrdma.ko and sunrpc.ko (stock's: 7k), and the host
# ran the slot 10% slower per instruction.
ROUND = """\
1,stock,job_iops,1000
1,stock,job_host_cpu_us_client,450
1,stock,job_host_cpu_us_server,450
1,stock,job_kinsns_rpc_client,100
1,stock,job_kinsns_rpc_server,100
1,stock,job_rpcrdma_insns_rpc_server,2000
1,stock,job_sunrpc_insns_rpc_server,5000
1,ours,job_iops,1010.1
1,ours,job_host_cpu_us_client,445.5
1,ours,job_host_cpu_us_server,445.5
1,ours,job_kinsns_rpc_client,100
1,ours,job_kinsns_rpc_server,80
1,ours,job_rpcrdma_insns_rpc_server,1500
1,ours,job_sunrpc_insns_rpc_server,500
"""


def load(text):
    vals = defaultdict(dict)
    for line in text.splitlines():
        rnd, mod, metric, value = line.split(",")
        vals[(metric, rnd)][mod] = float(value)
    return vals


class HostModel(unittest.TestCase):
    def setUp(self):
        self.vals = load(ROUND)
        ratios.add_transport(self.vals)
        ratios.add_host_model(self.vals, ("server",))

    def row(self, metric):
        return self.vals[(metric, "1")]

    def test_cores_busy(self):
        self.assertAlmostEqual(self.row("job_host_cores_busy")["stock"], 0.9)
        self.assertAlmostEqual(self.row("job_host_cores_busy")["ours"],
                               1010.1 * 891 / 1e6)

    def test_instructions_of_both_guests(self):
        self.assertEqual(self.row("job_kinsns_rpc_both"),
                         {"stock": 200, "ours": 180})

    def test_host_time_per_instruction(self):
        row = self.row("job_host_ns_kinsn")
        self.assertAlmostEqual(row["stock"], 4500)
        self.assertAlmostEqual(row["ours"] / row["stock"], 1.1)

    def test_less_transport_takes_the_tested_guest_only(self):
        # 180k less our server's 1500 + 500 instructions.
        self.assertEqual(self.row("job_kinsns_rpc_both_less_transport"),
                         {"stock": 200, "ours": 178})

    def test_both_ends_take_both_guests(self):
        vals = load(ROUND + "1,ours,job_rpcrdma_insns_rpc_client,1000\n"
                    "1,ours,job_sunrpc_insns_rpc_client,3000\n"
                    "1,stock,job_rpcrdma_insns_rpc_client,1000\n"
                    "1,stock,job_sunrpc_insns_rpc_client,3000\n")
        ratios.add_transport(vals)
        ratios.add_host_model(vals, ("client", "server"))
        self.assertEqual(vals[("job_kinsns_rpc_both_less_transport", "1")],
                         {"stock": 200, "ours": 174})

    def test_no_instruction_counts_no_rows(self):
        vals = load("\n".join(line for line in ROUND.splitlines()
                              if "insns" not in line))
        ratios.add_host_model(vals, ("server",))
        self.assertIn(("job_host_cores_busy", "1"), vals)
        self.assertNotIn(("job_kinsns_rpc_both", "1"), vals)


class RepStrings(unittest.TestCase):
    """REP string instructions: folded into the transport's figure."""

    REP = ROUND + """\
1,stock,job_rpcrdma_rep_iters_rpc_server,10
1,stock,job_sunrpc_rep_iters_rpc_server,20
1,stock,job_rpcrdma_rep_bytes_rpc_server,80
1,stock,job_sunrpc_rep_bytes_rpc_server,20
1,ours,job_rpcrdma_rep_iters_rpc_server,4096
1,ours,job_sunrpc_rep_iters_rpc_server,4
1,ours,job_rpcrdma_rep_bytes_rpc_server,4096
1,ours,job_sunrpc_rep_bytes_rpc_server,4
"""

    def test_iterations_count_in_the_transport(self):
        # Ours executes 2000 instructions but copies 4 KiB with one REP
        # MOVSB: 6100 in the transport's figure, against stock's 7030.
        vals = load(self.REP)
        ratios.add_transport(vals)
        self.assertEqual(vals[("job_transport_insns_rpc_server", "1")],
                         {"stock": 7030, "ours": 6100})
        self.assertEqual(vals[("job_transport_rep_bytes_rpc_server", "1")],
                         {"stock": 100, "ours": 4100})

    def test_without_rep_counts_the_sum_alone(self):
        vals = load(ROUND)
        ratios.add_transport(vals)
        self.assertEqual(vals[("job_transport_insns_rpc_server", "1")],
                         {"stock": 7000, "ours": 2000})
        self.assertNotIn(("job_transport_rep_bytes_rpc_server", "1"), vals)

    def test_floors_take_out_instructions_proper(self):
        # The guest's whole count holds a REP instruction once: the
        # floors take out 2000, not 6100.
        vals = load(self.REP)
        ratios.add_transport(vals)
        ratios.add_floors(vals, "server")
        ratios.add_host_model(vals, ("server",))
        self.assertEqual(vals[("job_kinsns_rpc_server_less_transport", "1")],
                         {"stock": 100, "ours": 78})
        self.assertEqual(vals[("job_kinsns_rpc_both_less_transport", "1")],
                         {"stock": 200, "ours": 178})


# Stock's figures per RPC of every job, in the tested guest.
STOCK = {"rpcrdma_insns": 2000, "sunrpc_insns": 5000,
         "rpcrdma_rep_iters": 0, "sunrpc_rep_iters": 0,
         "rxe_insns": 11000, "ibcore_insns": 900, "ctxsw": 3.0,
         "transport_wakes": 1.5,
         "rpcrdma_rep_bytes": 0, "sunrpc_rep_bytes": 64,
         "rxe_rep_bytes": 4096, "ibcore_rep_bytes": 0}
# Ours: transport 0.80 of stock's, the rest as stock's.
OURS = dict(STOCK, rpcrdma_insns=1600, sunrpc_insns=4000)


def bench_csv(guests=("client",), jobs=None, rounds=3, **ours):
    """A bench CSV of every job (or those of JOBS, BENCH_JOBS's names)
    whose figures are STOCK's and OURS's, OURS changed by OURS: a
    figure=value pair changes every job, figure={JOB: value} some."""
    lines = []
    for short, job in ratios.VERDICT_JOBS:
        if jobs is not None and short not in jobs:
            continue
        for rnd in range(1, rounds + 1):
            for guest in guests:
                for mod, base in (("stock", STOCK), ("ours", OURS)):
                    for fig, value in base.items():
                        if mod == "ours" and fig in ours:
                            change = ours[fig]
                            if isinstance(change, dict):
                                value = change.get(short, value)
                            else:
                                value = change
                        if value is None:
                            continue
                        name = fig.replace("_insns", "_insns_rpc")
                        name = name.replace("_rep_iters", "_rep_iters_rpc")
                        name = name.replace("_rep_bytes", "_rep_bytes_rpc")
                        name = name.replace("ctxsw", "ctxsw_rpc")
                        name = name.replace("_wakes", "_wakes_rpc")
                        lines.append(f"{rnd},{mod},{job}_{name}_{guest},"
                                     f"{value}")
    return "\n".join(lines) + "\n"


def verdict_of(text, label="client", guests=("client",)):
    vals = load(text.strip())
    ratios.add_transport(vals)
    return ratios.verdict(vals, label, guests)


class Verdict(unittest.TestCase):
    def test_pass(self):
        self.assertEqual(verdict_of(bench_csv()),
                         "verdict client: PASS transport <= 0.90 "
                         "(highest 0.80, write); guards ok")

    def test_goal_missed(self):
        line = verdict_of(bench_csv(rpcrdma_insns={"randread": 2930}))
        self.assertEqual(line, "verdict client: FAIL transport 0.99 "
                         "(randread) > 0.90; guards ok")

    def test_goal_missed_by_copying(self):
        # 0.80 in instructions, but ours copies 4 KiB a call in REP MOVSB.
        line = verdict_of(bench_csv(rpcrdma_rep_iters={"read": 4096},
                                    rpcrdma_rep_bytes={"read": 4096}))
        self.assertIn("FAIL transport 1.39 (read) > 0.90", line)
        self.assertIn("REP bytes transport 65.00, +4096 B (read) > 1.02",
                      line)

    def test_rxe_guard(self):
        line = verdict_of(bench_csv(rxe_insns={"write": 11500}))
        self.assertEqual(line, "verdict client: FAIL transport <= 0.90 "
                         "(highest 0.80, write); guards: rxe 1.05 (write) "
                         "> 1.02")

    def test_ib_core_guard(self):
        line = verdict_of(bench_csv(ibcore_insns={"metadata": 1000}))
        self.assertIn("FAIL", line)
        self.assertIn("guards: ib_core 1.11 (metadata) > 1.02", line)

    def test_ctxsw_guard(self):
        line = verdict_of(bench_csv(ctxsw={"nconnect": 3.3}))
        self.assertIn("guards: ctxsw 1.10 (nconnect) > 1.02", line)

    def test_transport_wake_up_guard(self):
        # Guest-wide switches as stock's, but the transport asks for
        # more wake-ups: only the transport's own count sees it.
        line = verdict_of(bench_csv(transport_wakes={"randwrite": 1.56}))
        self.assertEqual(line, "verdict client: FAIL transport <= 0.90 "
                         "(highest 0.80, write); guards: transport wake-ups "
                         "1.04 (randwrite) > 1.02")

    def test_rep_bytes_guard(self):
        # Work moved from the transport into rdma_rxe's copies.
        line = verdict_of(bench_csv(rxe_rep_bytes={"randwrite": 8192}))
        self.assertIn("guards: REP bytes rxe 2.00, +4096 B (randwrite) "
                      "> 1.02", line)
        # From nothing: any ratio is infinite; the bytes say how much.
        line = verdict_of(bench_csv(ibcore_rep_bytes={"randread": 100}))
        self.assertIn("REP bytes ib_core inf, +100 B (randread)", line)

    def test_rep_bytes_slack(self):
        # 8 bytes per RPC over stock's 64 (1.12) or over nothing pass.
        line = verdict_of(bench_csv(sunrpc_rep_bytes=72,
                                    ibcore_rep_bytes={"write": 4}))
        self.assertIn("PASS", line)

    def test_guards_on_the_goals_rounds(self):
        # Rounds 4 to 7 have no transport figure: their rdma_rxe figures
        # (1.18) are not counted, though they would make the median.
        extra = "".join(f"{r},{m},seq_write_rxe_insns_rpc_client,{v}\n"
                        for r in range(4, 8)
                        for m, v in (("stock", 11000), ("ours", 13000)))
        self.assertIn("PASS", verdict_of(bench_csv(rounds=3) + extra))

    def test_jobs_not_measured(self):
        line = verdict_of(bench_csv(jobs=("randread", "randwrite",
                                          "metadata")))
        self.assertEqual(line, "verdict client: INCOMPLETE transport <= "
                         "0.90 (highest 0.80, randread); guards ok; "
                         "not measured: write read nconnect")

    def test_guards_not_measured(self):
        # A run made before ib_core and REP instructions were counted.
        line = verdict_of(bench_csv(**{f: None for f in STOCK
                                       if "ibcore" in f or "bytes" in f}))
        self.assertIn("INCOMPLETE", line)
        self.assertIn("guards ok where measured; guards not measured: "
                      "ib_core, REP bytes transport", line)
        # One made before the transport's wake-ups were counted.
        line = verdict_of(bench_csv(transport_wakes=None))
        self.assertIn("guards ok where measured; guards not measured: "
                      "transport wake-ups", line)

    def test_both_ends(self):
        line = verdict_of(bench_csv(guests=("client", "server"),
                                    jobs=("read", "write"),
                                    sunrpc_insns={"read": 6000}),
                          "both", ("client", "server"))
        self.assertEqual(line, "verdict both: FAIL transport 1.09 (read "
                         "client), 1.09 (read server) > 0.90; guards ok; "
                         "not measured: randread randwrite metadata "
                         "nconnect")

    def test_no_counts(self):
        self.assertEqual(verdict_of("1,ours,job_iops,1\n1,stock,job_iops,1"),
                         "verdict client: NOT MEASURED (no transport "
                         "instruction counts)")


class Report(unittest.TestCase):
    def test_tables_and_prediction(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
            f.write(ROUND)
            f.flush()
            sys.argv = ["ratios.py", f.name, "server: test"]
            out = io.StringIO()
            with redirect_stdout(out):
                self.assertEqual(ratios.main(), 0)
        text = out.getvalue()
        # Throughput 1.01: the host's slower slot ate most of the 10%
        # the instructions predict (200 / 180 = 1.11).
        self.assertIn("lowest throughput ratio: 1.01", text)
        self.assertIn("the instruction counts predict: 1.11", text)
        host = text.split("the host (cores busy")[1]
        self.assertRegex(host, r"job_host_ns_kinsn .* 1\.10 ")
        self.assertNotIn("job_host_cores_busy", text.split("CPU per")[0])
        # The verdict comes last; this CSV has none of the six jobs.
        self.assertEqual(text.splitlines()[-1], "verdict server: NOT "
                         "MEASURED (no transport instruction counts)")


if __name__ == "__main__":
    unittest.main()
