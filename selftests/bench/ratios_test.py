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


if __name__ == "__main__":
    unittest.main()
