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
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratios  # noqa: E402

# One round of a 4 KiB job in the server half.  Stock: 1000 IOPS, the two
# QEMUs 900 us of host CPU per operation together, 200k instructions per
# RPC in the two guests.  Ours: the server guest executes 20k fewer, of
# which 2k in its rpcrdma.ko and sunrpc.ko (stock's: 7k), and the host
# ran the slot 10% slower per instruction.
ROUND = """\
1,stock,job_iops,1000
1,stock,job_mrs_allocated,11
1,stock,job_host_cpu_us_client,450
1,stock,job_host_cpu_us_server,450
1,stock,job_kinsns_rpc_client,100
1,stock,job_kinsns_rpc_server,100
1,stock,job_rpcrdma_insns_rpc_server,2000
1,stock,job_sunrpc_insns_rpc_server,5000
1,ours,job_iops,1010.1
1,ours,job_mrs_allocated,0
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
    """REP string instructions and callouts: folded into the transport's
    figure."""

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
    # Stock calls the kernel for 3000 instructions and a 512-byte
    # memset; ours for 2500 and a 4 KiB copy in copy_to_iter().
    CALLOUTS = REP + """\
1,stock,job_rpcrdma_callout_insns_rpc_server,1000
1,stock,job_sunrpc_callout_insns_rpc_server,2000
1,stock,job_rpcrdma_callout_rep_iters_rpc_server,64
1,stock,job_sunrpc_callout_rep_iters_rpc_server,0
1,stock,job_rpcrdma_callout_rep_bytes_rpc_server,512
1,stock,job_sunrpc_callout_rep_bytes_rpc_server,0
1,ours,job_rpcrdma_callout_insns_rpc_server,500
1,ours,job_sunrpc_callout_insns_rpc_server,2000
1,ours,job_rpcrdma_callout_rep_iters_rpc_server,0
1,ours,job_sunrpc_callout_rep_iters_rpc_server,4096
1,ours,job_rpcrdma_callout_rep_bytes_rpc_server,0
1,ours,job_sunrpc_callout_rep_bytes_rpc_server,4096
"""

    def test_rep_counts_once(self):
        # Ours executes 2000 instructions and copies 4 KiB with one REP
        # MOVSB: 2000 in the transport's own figure, against stock's 7000
        # (the bytes are the guard's).
        vals = load(self.REP)
        ratios.add_transport(vals)
        self.assertEqual(vals[("job_transport_own_insns_rpc_server", "1")],
                         {"stock": 7000, "ours": 2000})
        # The bytes need the callouts' too.
        self.assertNotIn(("job_transport_rep_bytes_rpc_server", "1"), vals)

    def test_callouts_count_in_the_transport(self):
        vals = load(self.CALLOUTS)
        ratios.add_transport(vals)
        self.assertEqual(vals[("job_transport_kernel_insns_rpc_server",
                               "1")], {"stock": 3000, "ours": 2500})
        self.assertEqual(vals[("job_transport_insns_rpc_server", "1")],
                         {"stock": 10000, "ours": 4500})
        self.assertEqual(vals[("job_transport_rep_bytes_rpc_server", "1")],
                         {"stock": 612, "ours": 8196})

    def test_no_transport_figure_without_callouts(self):
        # REP strings counted, callouts not: the goal's figure would
        # miss the kernel's work, so there is none.
        vals = load(self.REP)
        ratios.add_transport(vals)
        self.assertNotIn(("job_transport_insns_rpc_server", "1"), vals)

    def test_without_rep_counts_no_transport_figure(self):
        vals = load(ROUND)
        ratios.add_transport(vals)
        self.assertFalse([m for m, _ in vals if "_transport_" in m])

    def test_floors_take_out_instructions_proper(self):
        # The guest's whole count holds a REP instruction once: the
        # floors take out 2000, not 6100; with callouts, those too.
        vals = load(self.REP)
        ratios.add_transport(vals)
        ratios.add_floors(vals, "server")
        ratios.add_host_model(vals, ("server",))
        self.assertEqual(vals[("job_kinsns_rpc_server_less_transport", "1")],
                         {"stock": 100, "ours": 78})
        self.assertEqual(vals[("job_kinsns_rpc_both_less_transport", "1")],
                         {"stock": 200, "ours": 178})
        vals = load(self.CALLOUTS)
        ratios.add_transport(vals)
        ratios.add_floors(vals, "server")
        self.assertEqual(vals[("job_kinsns_rpc_server_less_transport", "1")],
                         {"stock": 100, "ours": 75.5})


# Stock's figures per RPC of every job, in the tested guest (kinsns: the
# whole guest's thousands of instructions, in either guest).
STOCK = {"rpcrdma_insns": 2000, "sunrpc_insns": 5000,
         "rpcrdma_callout_insns": 1000, "sunrpc_callout_insns": 2000,
         "rpcrdma_rep_iters": 0, "sunrpc_rep_iters": 0,
         "rpcrdma_callout_rep_iters": 0, "sunrpc_callout_rep_iters": 0,
         "rxe_insns": 11000, "ibcore_insns": 900, "ctxsw": 3.0,
         "transport_wakes": 1.5,
         "rpcrdma_rep_bytes": 0, "sunrpc_rep_bytes": 64,
         "rpcrdma_callout_rep_bytes": 0, "sunrpc_callout_rep_bytes": 0,
         "rxe_rep_bytes": 4096, "ibcore_rep_bytes": 0,
         "kinsns": 100, "peer_kinsns": 100}
# Ours: transport 0.80 of stock's (8000 of 10000), the rest as stock's.
OURS = dict(STOCK, rpcrdma_insns=1600, sunrpc_insns=4000,
            rpcrdma_callout_insns=800, sunrpc_callout_insns=1600)
# The protocol work of every job, the same for both modules.
PROTO = {"rpcs_op": 1.0, "rpcs_data": 1.0, "rsize": 1048576.0,
         "wsize": 1048576.0, "read_chunks_rpc": 0.0,
         "write_chunks_rpc": 1.0, "reply_chunks_rpc": 0.0,
         "rdma_request_bytes_rpc": 0.0, "rdma_reply_bytes_rpc": 65536.0,
         "connects": 0.0}


def changed(base, mod, fig, ours, short):
    """BASE's figure FIG, or OURS's change to it for module MOD."""
    value = base[fig]
    if mod == "ours" and fig in ours:
        change = ours[fig]
        value = change.get(short, value) if isinstance(change, dict) \
            else change
    return value


def bench_csv(guests=("client",), jobs=None, rounds=8, **ours):
    """A bench CSV of every job (or those of JOBS, BENCH_JOBS's names)
    whose figures are STOCK's and OURS's (and PROTO's for both), OURS
    changed by OURS: a figure=value pair changes every job,
    figure={JOB: value} some, None leaves it out."""
    lines = []
    roles = ("client", "server")
    for short, job in ratios.VERDICT_JOBS:
        if jobs is not None and short not in jobs:
            continue
        for rnd in range(1, rounds + 1):
            for mod, base in (("stock", STOCK), ("ours", OURS)):
                for fig in PROTO:
                    value = changed(PROTO, mod, fig, ours, short)
                    if value is not None:
                        lines.append(f"{rnd},{mod},{job}_{fig},{value}")
                for guest in guests:
                    for fig in base:
                        value = changed(base, mod, fig, ours, short)
                        if value is None:
                            continue
                        g = guest
                        if fig == "peer_kinsns":
                            if len(guests) > 1:
                                continue
                            g = roles[1 - roles.index(guest)]
                        name = fig.replace("peer_", "")
                        name = name.replace("kinsns", "kinsns_rpc")
                        name = name.replace("_insns", "_insns_rpc")
                        name = name.replace("_rep_iters", "_rep_iters_rpc")
                        name = name.replace("_rep_bytes", "_rep_bytes_rpc")
                        name = name.replace("ctxsw", "ctxsw_rpc")
                        name = name.replace("_wakes", "_wakes_rpc")
                        lines.append(f"{rnd},{mod},{job}_{name}_{g},"
                                     f"{value}")
    return "\n".join(lines) + "\n"


def verdict_of(text, label="client", guests=("client",)):
    vals = load(text.strip())
    ratios.add_transport(vals)
    return ratios.verdict(vals, label, guests)


class Verdict(unittest.TestCase):
    def test_pass(self):
        self.assertEqual(verdict_of(bench_csv()),
                         "verdict client: PASS transport <= 0.85 "
                         "(highest 0.80, write); guards ok")

    def test_goal_missed(self):
        line = verdict_of(bench_csv(rpcrdma_insns={"randread": 3600}))
        self.assertEqual(line, "verdict client: FAIL transport 1.00 "
                         "(randread) > 0.85; guards ok")

    def test_goal_missed_in_the_kernel(self):
        # The modules' own text as before; their calls into the kernel
        # cost 1200 more (a list under DEBUG_LIST, an allocation).
        line = verdict_of(bench_csv(rpcrdma_callout_insns={"metadata":
                                                           2000}))
        self.assertIn("FAIL transport 0.92 (metadata) > 0.85", line)
        # A kernel memset of 1000 bytes more: one instruction in the
        # figure, and the bytes guard fails.
        line = verdict_of(bench_csv(sunrpc_callout_rep_iters={"write":
                                                              1000},
                                    sunrpc_callout_rep_bytes={"write":
                                                              1000}))
        self.assertIn("FAIL transport <= 0.85 (highest 0.80, write); "
                      "guards: REP bytes transport", line)
        self.assertIn("+1000 B (write) > 1.02", line)

    def test_goal_missed_by_copying(self):
        # 0.80 in instructions, but ours copies 4 KiB a call in REP MOVSB:
        # the bytes guard fails it.
        line = verdict_of(bench_csv(rpcrdma_rep_iters={"read": 4096},
                                    rpcrdma_rep_bytes={"read": 4096}))
        self.assertIn("FAIL transport <= 0.85 (highest 0.80, write)", line)
        self.assertIn("REP bytes transport 65.00, +4096 B (read) > 1.02",
                      line)

    def test_goal_beyond_any_module(self):
        # Metadata: the RPC layer is most of the figure.  Ours at 0.90,
        # and 0.86 with rpcrdma.ko and its callouts at no cost (8600 of
        # 10000): no module could meet 0.85 there.
        line = verdict_of(bench_csv(rpcrdma_insns={"metadata": 200},
                                    rpcrdma_callout_insns={"metadata": 200},
                                    sunrpc_insns={"metadata": 5000},
                                    sunrpc_callout_insns={"metadata":
                                                          3600}))
        self.assertIn("FAIL transport 0.90 (metadata) > 0.85", line)
        self.assertIn("; beyond any rpcrdma.ko (the transport with ours at "
                      "no cost): 0.860 (metadata)", line)
        # A miss that a cheaper module would fix is not beyond it.
        line = verdict_of(bench_csv(rpcrdma_insns={"randread": 3600}))
        self.assertIn("FAIL transport 1.00 (randread)", line)
        self.assertNotIn("beyond", line)

    def test_goal_floor_row(self):
        vals = load(bench_csv(jobs=("metadata",), rounds=1))
        ratios.add_transport(vals)
        ratios.add_goal_floors(vals, ("client",))
        self.assertEqual(
            vals[("metadata_transport_insns_rpc_client_less_rpcrdma", "1")],
            {"stock": 10000, "ours": 5600})

    def test_rxe_guard(self):
        line = verdict_of(bench_csv(rxe_insns={"write": 11500}))
        self.assertEqual(line, "verdict client: FAIL transport <= 0.85 "
                         "(highest 0.80, write); guards: rxe 1.05 (write) "
                         "> 1.02")

    def test_ib_core_guard(self):
        line = verdict_of(bench_csv(ibcore_insns={"metadata": 1000}))
        self.assertIn("FAIL", line)
        self.assertIn("guards: ib_core 1.11 (metadata) > 1.02", line)

    def test_ctxsw_guard(self):
        line = verdict_of(bench_csv(ctxsw={"nconnect": 3.3}))
        self.assertIn("guards: ctxsw 1.10 (nconnect) > 1.02", line)

    def test_whole_and_peer_guest_guards(self):
        line = verdict_of(bench_csv(kinsns={"write": 105}))
        self.assertIn("guards: whole guest 1.05 (write) > 1.02", line)
        line = verdict_of(bench_csv(peer_kinsns={"read": 110}))
        self.assertIn("guards: peer guest 1.10 (read) > 1.02", line)
        line = verdict_of(bench_csv(peer_kinsns=None))
        self.assertIn("INCOMPLETE", line)
        self.assertIn("guards not measured: peer guest", line)

    def test_transport_wake_up_guard(self):
        # Guest-wide switches as stock's, but the transport asks for
        # more wake-ups: only the transport's own count sees it.
        line = verdict_of(bench_csv(transport_wakes={"randwrite": 1.56}))
        self.assertEqual(line, "verdict client: FAIL transport <= 0.85 "
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
        # Copies moved into the kernel's text count for the transport.
        line = verdict_of(bench_csv(sunrpc_callout_rep_bytes={"read":
                                                              4096}))
        self.assertIn("REP bytes transport 65.00, +4096 B (read)", line)

    def test_rep_bytes_slack(self):
        # 8 bytes per RPC over stock's 64 (1.12) or over nothing pass.
        line = verdict_of(bench_csv(sunrpc_rep_bytes=72,
                                    ibcore_rep_bytes={"write": 4}))
        self.assertIn("PASS", line)

    def test_guards_on_the_goals_rounds(self):
        # Rounds 9 to 12 have no transport figure: their rdma_rxe figures
        # (1.18) are not counted, though they would make the median.
        extra = "".join(f"{r},{m},seq_write_rxe_insns_rpc_client,{v}\n"
                        for r in range(9, 13)
                        for m, v in (("stock", 11000), ("ours", 13000)))
        self.assertIn("PASS", verdict_of(bench_csv() + extra))

    def test_rounds(self):
        # One round passes nothing: eight are needed.
        line = verdict_of(bench_csv(rounds=1))
        self.assertIn("INCOMPLETE", line)
        self.assertIn("fewer than 8 rounds: write 1, read 1, randread 1, "
                      "randwrite 1, metadata 1, nconnect 1", line)
        self.assertIn("PASS", verdict_of(bench_csv(rounds=9)))

    def test_protocol_work_differs(self):
        line = verdict_of(bench_csv(rpcs_data={"write": 1.03}))
        self.assertIn("FAIL", line)
        self.assertIn("protocol work differs: RPCs per READ or WRITE 1.030 "
                      "vs 1.000 (write)", line)
        # Where READ and WRITE RPCs were counted, RPCs per operation (over
        # fio's window) is not compared; where none were, it is.
        self.assertIn("PASS", verdict_of(bench_csv(rpcs_op={"write": 1.2})))
        line = verdict_of(bench_csv(rpcs_op={"write": 1.06},
                                    rpcs_data={"write": None}))
        self.assertIn("FAIL", line)
        self.assertIn("protocol work differs: RPCs per operation 1.060 vs "
                      "1.000 (write)", line)
        line = verdict_of(bench_csv(wsize={"nconnect": 524288}))
        self.assertIn("protocol work differs: wsize 524288 vs 1048576 "
                      "(nconnect)", line)
        line = verdict_of(bench_csv(reply_chunks_rpc={"metadata": 0.05}))
        self.assertIn("protocol work differs: Reply chunks 0.05 vs 0.00 "
                      "(metadata)", line)
        # Fewer segments for the same bytes: one MR where stock has two.
        line = verdict_of(bench_csv(write_chunks_rpc={"read": 0.5}))
        self.assertIn("PASS", line)
        line = verdict_of(bench_csv(rdma_reply_bytes_rpc={"read": 60000}))
        self.assertIn("RDMA reply bytes 60000 vs 65536 B (read)", line)
        # A connection made inside a window, by either module.
        line = verdict_of(bench_csv(connects={"nconnect": 1}))
        self.assertIn("FAIL", line)
        self.assertIn("protocol work differs: connections made in the "
                      "window 8 vs 0 (nconnect)", line)
        # Within the tolerances: the same work.
        line = verdict_of(bench_csv(rpcs_op=1.04, read_chunks_rpc=0.02,
                                    rdma_reply_bytes_rpc=66000))
        self.assertIn("PASS", line)

    def test_protocol_work_not_measured(self):
        line = verdict_of(bench_csv(**{f: None for f in PROTO}))
        self.assertIn("INCOMPLETE", line)
        self.assertIn("protocol work not measured: RPCs per operation, "
                      "rsize, wsize, Read chunks, Write chunks, Reply chunks, "
                      "RDMA request bytes, RDMA reply bytes, connections "
                      "made in the window", line)
        line = verdict_of(bench_csv(rpcs_op={"write": None},
                                    rpcs_data={"write": None}))
        self.assertIn("protocol work not measured: RPCs per operation "
                      "(write)", line)

    def test_jobs_not_measured(self):
        line = verdict_of(bench_csv(jobs=("randread", "randwrite",
                                          "metadata")))
        self.assertEqual(line, "verdict client: INCOMPLETE transport <= "
                         "0.85 (highest 0.80, randread); guards ok; "
                         "not measured: write read nconnect")

    def test_guards_not_measured(self):
        # A run made before ib_core and REP bytes were counted.
        line = verdict_of(bench_csv(**{f: None for f in STOCK
                                       if "ibcore" in f or "bytes" in f}))
        self.assertIn("INCOMPLETE", line)
        self.assertIn("guards ok where measured; guards not measured: "
                      "ib_core, REP bytes transport", line)
        # One made before the transport's wake-ups were counted.
        line = verdict_of(bench_csv(transport_wakes=None))
        self.assertIn("guards ok where measured; guards not measured: "
                      "transport wake-ups", line)

    def test_callouts_not_measured(self):
        line = verdict_of(bench_csv(**{f: None for f in STOCK
                                       if "callout" in f}))
        self.assertEqual(line, "verdict client: NOT MEASURED (no transport "
                         "instruction counts with REP strings and "
                         "callouts)")

    def test_both_ends(self):
        line = verdict_of(bench_csv(guests=("client", "server"),
                                    jobs=("read", "write"),
                                    sunrpc_insns={"read": 5000}),
                          "both", ("client", "server"))
        self.assertEqual(line, "verdict both: FAIL transport 0.90 (read "
                         "client), 0.90 (read server) > 0.85; guards ok; "
                         "not measured: randread randwrite metadata "
                         "nconnect")

    def test_no_counts(self):
        self.assertEqual(verdict_of("1,ours,job_iops,1\n1,stock,job_iops,1"),
                         "verdict client: NOT MEASURED (no transport "
                         "instruction counts with REP strings and "
                         "callouts)")


class Report(unittest.TestCase):
    def test_tables_and_prediction(self):
        with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
            f.write(ROUND)
            f.flush()
            sys.argv = ["ratios.py", f.name, "server: test"]
            out = io.StringIO()
            with redirect_stdout(out):
                # No verdict measured: make bench must fail.
                self.assertEqual(ratios.main(), 1)
        text = out.getvalue()
        # Throughput 1.01: the host's slower slot ate most of the 10%
        # the instructions predict (200 / 180 = 1.11).  The MRs each
        # made in the window (0.00) are set-up work, not throughput.
        self.assertIn("lowest throughput ratio: 1.01", text)
        self.assertIn("the instruction counts predict: 1.11", text)
        host = text.split("the host (cores busy")[1]
        self.assertRegex(host, r"job_host_ns_kinsn .* 1\.10 ")
        self.assertNotIn("job_host_cores_busy", text.split("CPU per")[0])
        # The verdict comes last; this CSV has none of the six jobs.
        self.assertEqual(text.splitlines()[-1], "verdict server: NOT "
                         "MEASURED (no transport instruction counts with "
                         "REP strings and callouts)")

    def test_goal_by_kernel(self):
        # Transport 0.90 of stock's: over 6.12's goal, within 7.2's.
        csv = bench_csv(rpcrdma_insns=1000, sunrpc_insns=5000,
                        rpcrdma_callout_insns=1000, sunrpc_callout_insns=2000)
        self.assertRegex(verdict_of(csv), r"^verdict client: FAIL "
                         r"transport 0\.90 \(write\).* > 0\.85;")
        vals = load(csv.strip())
        ratios.add_transport(vals)
        self.assertRegex(ratios.verdict(vals, "client", ("client",),
                                        goal=ratios.GOALS["7.2"]),
                         r"^verdict client: PASS transport <= 0\.95 "
                         r"\(highest 0\.90, ")
        for kernel, status in (("6.12", 1), ("7.2", 0), ("6.1", 2)):
            with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
                f.write(csv)
                f.flush()
                sys.argv = ["ratios.py", f.name, "client: test", kernel]
                with redirect_stdout(io.StringIO()), \
                        redirect_stderr(io.StringIO()):
                    self.assertEqual(ratios.main(), status, kernel)

    def test_exit_status_is_the_verdict(self):
        for csv, status in ((bench_csv(), 0),
                            (bench_csv(rpcrdma_insns=3000), 1),
                            (bench_csv(rounds=2), 1)):
            with tempfile.NamedTemporaryFile("w", suffix=".csv") as f:
                f.write(csv)
                f.flush()
                sys.argv = ["ratios.py", f.name, "client: test"]
                with redirect_stdout(io.StringIO()):
                    self.assertEqual(ratios.main(), status)


if __name__ == "__main__":
    unittest.main()
