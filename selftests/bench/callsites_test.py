#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of callsites.py: call sites in a disassembly, runs from blocks."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callsites  # noqa: E402

DISASSEMBLY = """
0000000000000100 <f>:
 100:	call   105 <f+0x5>
			101: R_X86_64_PLT32	__fentry__-0x4
 105:	push   %rbx
 106:	call   10b <f+0xb>
			107: R_X86_64_PLT32	kmalloc-0x4
 10b:	test   %rax,%rax
 10e:	je     11a <f+0x1a>
 110:	mov    %rax,%rdi
 113:	call   118 <f+0x18>
			114: R_X86_64_PLT32	kfree-0x4
 118:	pop    %rbx
 119:	ret
 11a:	jmp    11f <f+0x1f>
			11b: R_X86_64_PLT32	__x86_return_thunk-0x4
"""

# A bounds check's report call after a function's return: the JMP to
# the return thunk ends a block that runs; the report's block never does.
DISASSEMBLY_TAIL = """
0000000000000200 <g>:
 200:	cmp    $0x8,%rsi
 204:	jae    209 <g+0x9>
 206:	mov    %rax,(%rdi)
 209:	jmp    20e <g+0xe>
			20a: R_X86_64_PLT32	__x86_return_thunk-0x4
 20e:	mov    %rsi,%rdi
 211:	call   216 <g+0x16>
			212: R_X86_64_PLT32	__ubsan_handle_out_of_bounds-0x4
 216:	jmp    206 <g+0x6>
"""


class CallsitesTest(unittest.TestCase):
    def setUp(self):
        self.insns, self.calls = callsites.parse_disassembly(DISASSEMBLY)

    def test_calls_not_fentry_nor_jumps(self):
        self.assertEqual([(f, o, t) for f, o, t in self.calls],
                         [('f', 0x6, 'kmalloc'), ('f', 0x13, 'kfree')])

    def test_fentry_is_no_block_end(self):
        self.assertIn((0x0, 'nop'), self.insns['f'])

    def test_runs_from_instructions(self):
        base = 0xffffffffc0000000
        funcs = {'f': base + 0x100}
        # The entry block runs 10 times (3 instructions each, the NOP'd
        # __fentry__ call, push and call kmalloc); the one after the
        # JE 4 times (mov, call kfree: 2 instructions).
        blocks = {base + 0x100: 30, base + 0x10b: 20, base + 0x110: 8}
        runs, _ = callsites.call_runs(self.insns, self.calls, funcs, blocks,
                                      {})
        self.assertEqual(runs[('kmalloc', 'f')], 10)
        self.assertEqual(runs[('kfree', 'f')], 4)

    def test_block_found_after_a_branch(self):
        # No profiled block starts at 0x110: its start is found as the
        # instruction after the JE, and it did not run.
        base = 0xffffffffc0000000
        funcs = {'f': base + 0x100}
        runs, _ = callsites.call_runs(self.insns, self.calls, funcs,
                                      {base + 0x100: 30}, {})
        self.assertEqual(runs[('kfree', 'f')], 0)

    def test_block_ends_before_an_executed_jump(self):
        # The call's block starts after the JMP: that the JMP's block ran
        # says nothing of it.
        insns, calls = callsites.parse_disassembly(DISASSEMBLY_TAIL)
        base = 0xffffffffc0000000
        blocks = {base + 0x200: 20, base + 0x209: 10}
        runs, _ = callsites.call_runs(insns, calls, {'g': base + 0x200},
                                      blocks, {})
        self.assertEqual(runs[('__ubsan_handle_out_of_bounds', 'g')], 0)

    def test_callout_work_per_call(self):
        # The kmalloc call's block opened callouts of 500 instructions;
        # kfree's block has no "callout" line: it opened none.
        base = 0xffffffffc0000000
        funcs = {'f': base + 0x100}
        blocks = {base + 0x100: 30, base + 0x10b: 20, base + 0x110: 8}
        runs, work = callsites.call_runs(self.insns, self.calls, funcs,
                                         blocks, {base + 0x100: 500})
        self.assertEqual(runs[('kmalloc', 'f')], 10)
        self.assertEqual(work[('kmalloc', 'f')], 500)
        self.assertNotIn(('kfree', 'f'), work)

    def test_profile_lines(self):
        import tempfile
        with tempfile.NamedTemporaryFile('w', suffix='.txt') as f:
            f.write('ffffffffc0000100 30\ncallout ffffffffc0000100 500\n')
            f.flush()
            self.assertEqual(callsites.read_snapshot(f.name),
                             ({0xffffffffc0000100: 30},
                              {0xffffffffc0000100: 500}))

    def test_window_rpcs_after_the_end_mark(self):
        # The RPCs of a window come in their own flag, written after the
        # end mark; an older run's end mark carried them itself.
        import tempfile
        with tempfile.TemporaryDirectory() as out:
            for name, text in (('cpumark-1', 'begin 1-ours-x'),
                               ('cpumark-2', 'end 1-ours-x 0 500'),
                               ('cpurpcs-2', '42'),
                               ('cpumark-3', 'begin 1-stock-x'),
                               ('cpumark-4', 'end 1-stock-x 0 500 37')):
                with open(os.path.join(out, name + '.flag'), 'w') as f:
                    f.write(text + '\n')
            self.assertEqual(callsites.job_marks(out, '1-ours-x'),
                             (1, 2, 42))
            self.assertEqual(callsites.job_marks(out, '1-stock-x'),
                             (3, 4, 37))


if __name__ == '__main__':
    unittest.main()
