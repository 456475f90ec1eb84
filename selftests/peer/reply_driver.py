#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The client guest's half of the hostile-server test: on an NFSv3 mount
over RDMA whose server is hostile_server.py, arm each case of
reply_cases.py, run the operation it targets, and check what the
application saw against what the case says it must see.

    reply_driver.py --mnt /mnt --server 192.0.2.1 [--fast] [--only a,b]

For each case: the target operation (a 1 KiB direct-I/O read of a file
whose contents are known, or the listing of a directory not listed
before), then a stat(2) of the file, which the server answers correctly
and which makes the client reconnect if its connection is gone.  The
outcome is EIO if the operation failed with EIO, else OK or RECONNECT by
whether the mount's connect count (mountstats) grew.  A successful
operation must also return the right data.  A case that expected OK or
EIO and saw a reconnect runs once more: the mount's RPC timeout is short
(5 s) and can fire before a slow guest's reply.  Prints TAP; exits 1 if
any case failed.
"""

import argparse
import os
import socket
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hostile_server import CONTROL_PORT
from reply_cases import (EIO, NFS3_READ, NFS3_READDIRPLUS, OK, RECONNECT,
                         TARGET_NAMES, select)

OP_TIMEOUT = 120
PATTERN = bytes((i * 7 + 3) & 0xff for i in range(1024))



# The fields of an "xprt: rdma" mountstats line after "rdma", in order
# (guest-lib.sh's RDMA_XPRT_FIELDS; Documentation/admin-guide.rst).
XPRT_FIELDS = (
    'srcport', 'bind_count', 'connect_count', 'connect_time', 'idle_time',
    'sends', 'recvs', 'bad_xids', 'req_u', 'bklog_u', 'read_chunk_count',
    'write_chunk_count', 'reply_chunk_count', 'total_rdma_request',
    'total_rdma_reply', 'pullup_copy_count', 'fixup_copy_count',
    'hardway_register_count', 'failed_marshal_count', 'bad_reply_count',
    'nomsg_call_count', 'mrs_recycled', 'mrs_orphaned', 'mrs_allocated',
    'local_inv_needed', 'empty_sendctx_q', 'unused')

class Driver:
    def __init__(self, args):
        self.args = args
        self.mnt = args.mnt
        self.dir = os.path.join(args.mnt, 'hs')
        self.data = os.path.join(self.dir, 'data')
        self.seq = 0
        self.dirs = 0
        self.sock = socket.create_connection((args.server, CONTROL_PORT), 30)
        self.lines = self.sock.makefile('r')

    def ask(self, line, timeout=30):
        """Send LINE to the server; its answer, or None after TIMEOUT."""
        self.sock.sendall(line.encode() + b'\n')
        self.sock.settimeout(timeout)
        try:
            return self.lines.readline().strip()
        except socket.timeout:
            return None

    def xprt_fields(self):
        """This mount's xprt line: its numbers after "rdma", by name."""
        mine = False
        with open('/proc/self/mountstats') as f:
            for line in f:
                w = line.split()
                if w and w[0] == 'device':
                    mine = len(w) > 4 and w[4] == self.mnt
                elif mine and w[:2] == ['xprt:', 'rdma']:
                    return dict(zip(XPRT_FIELDS, (int(x) for x in w[2:])))
        raise RuntimeError('no xprt: rdma line for ' + self.mnt)

    def connect_count(self):
        return self.xprt_fields()['connect_count']

    def setup(self, cases):
        os.makedirs(self.dir, exist_ok=True)
        with open('/tmp/hs.pattern', 'wb') as f:
            f.write(PATTERN)
        run(['dd', 'if=/tmp/hs.pattern', 'of=' + self.data, 'bs=1024',
             'oflag=direct', 'status=none'], check=True)
        for n in range(sum(c.target == NFS3_READDIRPLUS for c in cases)):
            d = os.path.join(self.dir, 'd%d' % n)
            os.makedirs(d, exist_ok=True)
            for i in range(8):
                open(os.path.join(d, 'entry-with-a-longish-name-%02d' % i),
                     'w').close()

    def operation(self, target):
        """(outcome of the target operation, what went wrong or '')."""
        if target == NFS3_READ:
            p = run(['dd', 'if=' + self.data, 'of=/proc/self/fd/1', 'bs=1024',
                     'count=1', 'iflag=direct', 'status=none'])
            if p.returncode == 0 and p.stdout != PATTERN:
                return OK, 'the read returned other data (%d bytes: %s)' % (
                    len(p.stdout), p.stdout[:16].hex())
        else:
            d = os.path.join(self.dir, 'd%d' % self.dirs)
            self.dirs += 1
            p = run(['ls', '-l', d])
            if p.returncode == 0 and p.stdout.count(b'entry-with') != 8:
                return OK, 'the listing is wrong: %r' % p.stdout[:200]
        if p.returncode == 0:
            return OK, ''
        if b'Input/output error' in p.stderr:
            return EIO, ''
        return None, 'failed: %s' % p.stderr.decode(errors='replace').strip()

    def run_case(self, case):
        self.seq += 1
        if self.ask('arm %d %s' % (self.seq, case.name)) != 'armed %d' % self.seq:
            return 'the server did not arm the case'
        before = self.connect_count()
        got, wrong = self.operation(case.target)
        try:
            os.stat(self.data)
        except OSError as err:
            return 'stat after the case failed: %s' % err
        applied = self.ask('applied %d' % self.seq, 10)
        if not applied:
            return 'the server never saw a %s to apply it to' % \
                TARGET_NAMES[case.target]
        print('# %s' % applied.split(' ', 2)[2])
        after = self.connect_count()
        if got == OK and after != before:
            got = RECONNECT
        if got == EIO and after != before:
            got = 'EIO, with a reconnect'
        print('# %s; connect count %d -> %d' % (got, before, after))
        if wrong:
            return wrong
        if got != case.expect:
            return 'saw %s, expected %s' % (got, case.expect)
        if case.write_after:
            return self.write_check()
        return None

    def write_check(self):
        """A 1 KiB direct write and its read-back, through whatever inline
        size the server now offers (the server flags oversized calls)."""
        data = os.path.join(self.dir, 'written')
        pattern = bytes(reversed(PATTERN))
        with open('/tmp/hs.written', 'wb') as f:
            f.write(pattern)
        p = run(['dd', 'if=/tmp/hs.written', 'of=' + data, 'bs=1024',
                 'oflag=direct', 'status=none'])
        if p.returncode:
            return 'a 1 KiB write after the case failed: %s' % p.stderr
        p = run(['dd', 'if=' + data, 'of=/proc/self/fd/1', 'bs=1024',
                 'count=1', 'iflag=direct', 'status=none'])
        if p.returncode or p.stdout != pattern:
            return 'the 1 KiB written after the case does not read back'
        fields = self.xprt_fields()
        print('# 1 KiB write and read-back after the case: ok '
              '(Read chunks so far %d, RDMA_NOMSG calls %d)' %
              (fields['read_chunk_count'], fields['nomsg_call_count']))
        return None

    def burst(self):
        """Many direct reads at once: the credit window and the Receive
        queue survived the cases."""
        procs = [subprocess.Popen(['dd', 'if=' + self.data, 'of=/dev/null',
                                   'bs=1024', 'count=1', 'iflag=direct',
                                   'status=none']) for _ in range(48)]
        return all(p.wait(OP_TIMEOUT) == 0 for p in procs)

    def main(self):
        cases = select(self.args.only.split(',') if self.args.only else None,
                       self.args.fast)
        self.setup(cases)
        print('TAP version 13')
        print('1..%d' % (len(cases) + 2))
        failed = 0
        t0 = time.monotonic()
        retried = 0
        for n, case in enumerate(cases, 1):
            t = time.monotonic()
            why = self.run_case(case)
            if why and why.startswith('saw %s,' % RECONNECT):
                # An RPC timeout that fired before the reply came (timeo
                # is short, and this guest is slow): once more.
                print('# took %.1f s; once more' % (time.monotonic() - t))
                retried += 1
                why = self.run_case(case)
            if why:
                failed += 1
                print('not ok %d - %s (%s): %s' % (n, case.name, case.expect, why))
            else:
                print('ok %d - %s (%s)' % (n, case.name, case.expect))
            sys.stdout.flush()
        n = len(cases) + 1
        if self.burst():
            print('ok %d - 48 concurrent reads after the cases' % n)
        else:
            failed += 1
            print('not ok %d - 48 concurrent reads after the cases' % n)
        n += 1
        violations = self.ask('violations') or 'violations ? no answer'
        if not violations.startswith('violations 0'):
            failed += 1
            print('not ok %d - the client kept to RPC-over-RDMA' % n)
            print('# ' + violations)
        else:
            print('ok %d - the client kept to RPC-over-RDMA (sizes, chunks)' % n)
        fields = self.xprt_fields()
        print('# %d cases in %.0f s, %d failed, %d run twice after an '
              'unexpected reconnect; connect count %d, bad replies %d'
              % (len(cases), time.monotonic() - t0, failed, retried,
                 fields['connect_count'], fields['bad_reply_count']))
        return 1 if failed else 0


def run(argv, check=False):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=OP_TIMEOUT, check=check)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--mnt', required=True)
    parser.add_argument('--server', required=True)
    parser.add_argument('--fast', action='store_true',
                        help='only the fast subset of the cases')
    parser.add_argument('--only', help='comma-separated case names')
    sys.exit(Driver(parser.parse_args()).main())


if __name__ == '__main__':
    main()
