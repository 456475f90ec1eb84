#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile RPC-over-RDMA version 1 requester, to test a server (responder).

The peer connects to SERVER:PORT with RDMA-CM, offering RFC 8797 connection
private data, and sends hand-made transport headers (RFC 8166): well-formed
RPC NULL calls as positive controls, and headers that are wrong in one way
each.  Every case checks the server's answer against the CASES table (in
cases.py) and prints one TAP line ("ok N - name (key)" or "not ok N - name
(key): why"), then comments saying what was actually received.  The exit
status is 0 when every case passed, 1 otherwise.

Needs pyverbs (Debian: python3-pyverbs); run it with /usr/bin/python3.

    hostile_peer.py --server 192.0.2.1 [--port 20049] [--only null,version-2]

The modules beside this one:
    xdr.py          XDR encoding and decoding helpers
    rpc.py          RPC and NFSv4 COMPOUND builders and parsers
    header.py       RPC-over-RDMA transport headers, well-formed and malformed
    connection.py   the RDMA-CM and verbs connection (pyverbs)
    expect.py       what the peer observes, and the answers that pass
    cases.py        the cases, keyed by what they send, in the order they run
    mutations.py    generated cases: seeds mutated field by field, cut short
                    and at random, with the answer a model of RFC 8166 expects
This file runs the cases and parses the command line.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True      # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pyverbs.pyverbs_error import PyverbsError

from cases import CASES, OWN, generated
from connection import RECV_COUNT, ConnectError, Connection
from expect import RPC_NULL_REPLY, describe, judge, observe
from header import describe_message, null_call

# ---------------------------------------------------------------------------
# Running the cases.

XID_BASE = 0x48500000       # each case gets XID_BASE + (number << 16) ...
CONTROL_XID = 0xffff        # ... and its control call that | 0xffff

# The server disconnects a peer after 16 malformed messages
# (SRDMA_MAX_PEER_ERRORS): the shared connection is renewed before a case
# that sends one more than this many.
PEER_ERROR_BUDGET = 12


class Runner:
    def __init__(self, args):
        self.args = args
        self.shared = None
        self.shared_errors = 0
        self.failed = 0
        self.notes = []
        self.chunk_file = bytearray()

    def file_written(self, start, data):
        """Record what the Read chunk cases wrote, and save the whole
        expected content of the file for the client to compare."""
        end = start + len(data)
        if len(self.chunk_file) < end:
            self.chunk_file.extend(bytes(end - len(self.chunk_file)))
        self.chunk_file[start:end] = data
        if self.args.chunk_expect:
            with open(self.args.chunk_expect, 'wb') as f:
                f.write(self.chunk_file)

    def note(self, text):
        self.notes.append(text)

    def connection_for(self, case):
        if case.connection == OWN:
            conn = Connection(self.args)
            self.note('new connection to ' + conn.describe_server())
            return conn
        if self.shared is not None and self.shared.closed:
            self.note('the shared connection was closed (%s); opening another'
                      % self.shared.closed_event().reason)
            self.shared.close()
            self.shared = None
        if self.shared is not None and case.peer_error and \
                self.shared_errors >= PEER_ERROR_BUDGET:
            self.shared.close()
            self.shared = None
        if self.shared is None:
            self.shared = Connection(self.args)
            self.shared_errors = 0
            self.note('connected to ' + self.shared.describe_server())
        if case.peer_error:
            self.shared_errors += 1
        return self.shared

    def exchange(self, conn, messages, expect, xid, label='received'):
        """Send MESSAGES, then judge the answer; returns why it is wrong."""
        for stray in conn.drain():
            self.note('unasked message before this case: ' + describe_message(stray))
        xids = range(xid, xid + len(messages))
        for message in messages:
            if not conn.send(message):
                break
        event, tolerated = observe(conn, expect, xids, self.args)
        if tolerated:
            self.note('%d answer(s) allowed before that, the first: %s' %
                      (len(tolerated), describe(tolerated[0])))
        self.note('%s: %s' % (label, describe(event)))
        return judge(expect, event, xids)

    def control(self, conn, xid):
        """A NULL call on CONN after a case; returns why it failed."""
        if conn.closed:
            return 'not sent, the connection is closed'
        return self.exchange(conn, null_call(xid, self.args), (RPC_NULL_REPLY,),
                             xid, label='then the NULL call received')

    def run(self, number, case):
        xid = XID_BASE + (number << 16)
        try:
            conn = self.connection_for(case)
        except (ConnectError, PyverbsError) as err:
            self.report(number, case, 'cannot connect: %s' % err)
            return
        try:
            if case.action:
                why = case.action(self, conn, xid)
            else:
                why = self.exchange(conn, case.build(xid, self.args),
                                    case.expect, xid)
            if case.control_after:
                control = self.control(conn, xid | CONTROL_XID)
                if control:
                    why = (why + '; ' if why else '') + 'then the NULL call: ' + control
        except PyverbsError as err:
            why = 'verbs error: %s' % err
            conn.mark_broken(why)
        finally:
            if case.connection == OWN:
                conn.close()
        self.report(number, case, why)

    def report(self, number, case, why):
        if why:
            self.failed += 1
            print('not ok %d - %s (%s): %s' % (number, case.name, case.key, why))
        else:
            print('ok %d - %s (%s)' % (number, case.name, case.key))
        for text in self.notes:
            print('#   ' + text)
        self.notes = []
        sys.stdout.flush()

    def finish(self):
        if self.shared is not None:
            self.shared.close()


def inline_size(text):
    size = int(text, 0)
    if size % 1024 or not 1024 <= size <= 256 * 1024:
        raise argparse.ArgumentTypeError('a multiple of 1024 from 1024 to 262144')
    return size


def parse_args():
    parser = argparse.ArgumentParser(
        description='Send malformed RPC-over-RDMA headers to a server and '
                    'check its answers (TAP output).')
    parser.add_argument('--server', required=True, help='server address')
    parser.add_argument('--port', type=int, default=20049)
    parser.add_argument('--timeout', type=float, default=10,
                        help='seconds to wait for an answer (default 10)')
    parser.add_argument('--quiet-time', type=float, default=3,
                        help='seconds of silence that count as "no answer" (default 3)')
    parser.add_argument('--disconnect-timeout', type=float, default=20,
                        help='seconds to wait for the server to disconnect (default 20)')
    parser.add_argument('--misbehave-count', type=int, default=40,
                        help='malformed headers sent in the flood case (default 40)')
    parser.add_argument('--credits', type=int, default=RECV_COUNT,
                        help='credits requested in each header (default %d)' % RECV_COUNT)
    parser.add_argument('--inline-size', type=inline_size, default=4096,
                        help='inline send and receive size offered (default 4096)')
    parser.add_argument('--remote-invalidate', action='store_true',
                        help='offer to accept Send With Invalidate (RFC 8797 flag)')
    parser.add_argument('--nfs-version', type=int, default=3,
                        help='NFS version of the NULL calls (default 3)')
    parser.add_argument('--chunk-file', default='peer-chunks',
                        help='path below the NFSv4 root of an existing, writable '
                             'file for the Read chunk case (default peer-chunks)')
    parser.add_argument('--big-file', default='background',
                        help='path below the NFSv4 root of a file of 64 KiB or '
                             'more, for the large-reply cases (default background)')
    parser.add_argument('--chunk-expect', default=None,
                        help='write what that file must hold afterwards here')
    parser.add_argument('--generated', default='all',
                        help='generated cases to run after the others: all '
                             '(default), none, or a number for an evenly '
                             'spread subset')
    parser.add_argument('--random', type=int, default=150,
                        help='randomly mutated messages among the generated '
                             'cases (default 150)')
    parser.add_argument('--random-seed', type=int, default=8166,
                        help='seed of the random mutations (default 8166)')
    keys = list(dict.fromkeys(c.key for c in CASES)) + [
        'gen-seed', 'gen-field', 'gen-random']
    parser.add_argument('--skip', type=lambda s: {int(n) for n in s.split(',')},
                        default=set(),
                        help='comma-separated case numbers to leave out, '
                             'reported as skipped (e.g. 439,622: zero-length '
                             'Read segments, which crash the stock 6.12 '
                             'server)')
    parser.add_argument('--only', type=lambda s: set(s.split(',')), default=None,
                        help='comma-separated case keys to run (default all): '
                             + ', '.join(keys))
    return parser.parse_args()


def main():
    args = parse_args()
    extra = []
    if args.generated != 'none':
        extra = generated(args, None if args.generated == 'all'
                          else int(args.generated))
    cases = [c for c in CASES + extra
             if args.only is None or c.key in args.only]
    print('TAP version 13')
    print('1..%d' % len(cases))
    runner = Runner(args)
    try:
        for number, case in enumerate(cases, 1):
            if number in args.skip:
                print('ok %d - %s (%s) # SKIP --skip' %
                      (number, case.name, case.key))
                continue
            runner.run(number, case)
    finally:
        runner.finish()
    skipped = len(args.skip & set(range(1, len(cases) + 1)))
    print('# hostile peer: %d passed, %d failed, %d skipped' %
          (len(cases) - runner.failed - skipped, runner.failed, skipped))
    return 1 if runner.failed else 0


if __name__ == '__main__':
    sys.exit(main())
