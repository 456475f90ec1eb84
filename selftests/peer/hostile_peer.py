#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile RPC-over-RDMA version 1 requester, to test a server (responder).

The peer connects to SERVER:PORT with RDMA-CM, offering RFC 8797 connection
private data, and sends hand-made transport headers (RFC 8166): well-formed
RPC NULL calls as positive controls, and headers that are wrong in one way
each.  Every case checks the server's answer against the CASES table (in
cases.py) and prints one TAP line ("ok N - name (key)" or "not ok N - name
(key): why"), then comments saying what was actually received.  Whatever
a case does to a connection of its own must stay there: after it, a NULL
call on the shared connection must be answered without reopening it.  A
message nobody asked for (an extra or a late answer) fails a case too.
The exit status is 0 when every case passed, 1 otherwise.

Needs pyverbs (Debian: python3-pyverbs); run it with /usr/bin/python3.

    hostile_peer.py --server 192.0.2.1 [--port 20049] [--only null,version-2]

The modules beside this one:
    xdr.py          XDR encoding and decoding helpers
    rpc.py          RPC and NFSv4 COMPOUND builders and parsers
    header.py       RPC-over-RDMA transport headers, well-formed and malformed
    connection.py   the RDMA-CM and verbs connection (pyverbs)
    expect.py       what the peer observes, and the answers that pass
    cases.py        the cases, keyed by what they send, in the order they run
    read_stall.py   what the read-stall case needs: a call with a Read
                    chunk, a tc filter that withholds RDMA Reads, flags
                    shared with the server guest
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
from xdr import words

# ---------------------------------------------------------------------------
# Running the cases.

XID_BASE = 0x48500000       # each case gets XID_BASE + (number << 16) ...
CONTROL_XID = 0xffff        # ... and its control call that | 0xffff, ...
SHARED_CONTROL_XID = 0xfffe # ... and, after an OWN case, the NULL call on
                            # the shared connection that | 0xfffe

# The server disconnects a peer after 16 malformed messages
# (SRDMA_MAX_PEER_ERRORS): the shared connection is renewed before a case
# that sends one more than this many.
PEER_ERROR_BUDGET = 12


class Runner:
    def __init__(self, args):
        self.args = args
        self.shared = None
        self.shared_errors = 0
        self.shared_last = None     # the number of the last case that used it
        self.failed = 0
        self.failed_numbers = set()
        self.names = {}             # number: name, of the cases run so far
        self.current = None         # the number of the case running
        self.late_allowed = {}      # xid: a late answer a case's model allows
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

    def shared_connection(self, case):
        """The shared connection, opened if there is none; it is open
        before OWN cases too, for shared_still_up() after them.  Returns
        (the connection, why the case fails or None).  Every SHARED case
        keeps the connection up (the runner itself renews it before the
        server's limit of malformed messages), so a shared connection
        found closed fails the case that finds it, naming the one that
        used it last, unless that one failed already."""
        why = None
        if self.shared is not None and self.shared.closed:
            reason = self.shared.closed_event().reason
            self.note('the shared connection was closed (%s); opening another'
                      % reason)
            last = self.shared_last
            if last is None:
                why = 'the shared connection closed: ' + reason
            elif last not in self.failed_numbers:
                why = ('the shared connection closed after case %d (%s), '
                       'which passed: %s' % (last, self.names[last], reason))
            self.shared.close()
            self.shared = None
        peer_error = case.peer_error and case.connection != OWN
        if self.shared is not None and peer_error and \
                self.shared_errors >= PEER_ERROR_BUDGET:
            self.shared.close()
            self.shared = None
        if self.shared is None:
            self.shared = Connection(self.args)
            self.shared_errors = 0
            self.shared_last = None
            self.note('connected to ' + self.shared.describe_server())
        if peer_error:
            self.shared_errors += 1
        return self.shared, why

    def shared_still_up(self, xid):
        """After an OWN case: the server's answer to it, a disconnect
        included, must stay on that case's connection.  The shared
        connection must still be up and answer a NULL call, without
        being reopened.  Returns why not, or None."""
        conn = self.shared
        if conn.closed:
            return ('the shared connection closed too: ' +
                    conn.closed_event().reason)
        try:
            why = self.exchange(conn, null_call(xid, self.args),
                                (RPC_NULL_REPLY,), xid,
                                'then a NULL call on the shared connection '
                                'received', 'on the shared connection')
        except PyverbsError as err:
            why = 'verbs error: %s' % err
            conn.mark_broken(why)
        return 'then on the shared connection: ' + why if why else None

    def allow_late(self, xid, allowed):
        """A case's model allows an answer to XID after the case ended:
        ALLOWED(data) says whether a message is that answer."""
        self.late_allowed[xid] = allowed

    def case_of(self, xid):
        """The number of the case run so far whose xid XID is, or None."""
        if xid is None or xid < XID_BASE:
            return None
        number = (xid - XID_BASE) >> 16
        return number if number in self.names else None

    def unasked(self, conn, when):
        """Take what CONN received that nobody asked for, noting each;
        returns why that fails the case running, or None.  A server
        answers each call once, when it is asked, so such a message is
        an extra answer or a late one: either fails the case it belongs
        to (by its xid) when that is the case running, or else the case
        running, naming the one it belongs to, which was reported
        before the message came.  Not counted again: a message that
        belongs to a case that failed already, and the late answer a
        case's model allows (allow_late())."""
        whys = []
        for stray in conn.drain():
            xid = words(stray[:4])[0] if len(stray) >= 4 else None
            allowed = self.late_allowed.get(xid)
            if allowed is not None and allowed(stray):
                del self.late_allowed[xid]
                self.note('%s, a late answer to case %s, which its model '
                          'allows: %s' % (when, self.case_of(xid),
                                          describe_message(stray)))
                continue
            self.note('unasked message %s: %s' %
                      (when, describe_message(stray)))
            owner = self.case_of(xid)
            if owner is None:
                whys.append('an answer to no call of ours (%s)' %
                            ('xid %#x' % xid if xid is not None
                             else '%d bytes' % len(stray)))
            elif owner == self.current:
                whys.append('an answer this case did not ask for (xid %#x)'
                            % xid)
            elif owner not in self.failed_numbers:
                whys.append('a late answer to case %d (%s), which passed '
                            '(xid %#x)' % (owner, self.names[owner], xid))
        if not whys:
            return None
        return 'unasked messages %s: %s' % (when, '; '.join(whys))

    def exchange(self, conn, messages, expect, xid, label='received',
                 when='before this case'):
        """Send MESSAGES, then judge the answer; returns why it is wrong."""
        stray = self.unasked(conn, when)
        xids = range(xid, xid + len(messages))
        for message in messages:
            if not conn.send(message):
                break
        event, tolerated = observe(conn, expect, xids, self.args)
        if tolerated:
            self.note('%d answer(s) allowed before that, the first: %s' %
                      (len(tolerated), describe(tolerated[0])))
        self.note('%s: %s' % (label, describe(event)))
        why = judge(expect, event, xids)
        return '; '.join(w for w in (stray, why) if w) or None

    def control(self, conn, xid):
        """A NULL call on CONN after a case; returns why it failed."""
        if conn.closed:
            return 'not sent, the connection is closed'
        return self.exchange(conn, null_call(xid, self.args), (RPC_NULL_REPLY,),
                             xid, label='then the NULL call received',
                             when='before the NULL call')

    def run(self, number, case):
        xid = XID_BASE + (number << 16)
        self.names[number] = case.name
        self.current = number
        try:
            conn, shared_why = self.shared_connection(case)
            if case.connection == OWN:
                conn = Connection(self.args)
                self.note('new connection to ' + conn.describe_server())
        except (ConnectError, PyverbsError) as err:
            self.report(number, case, 'cannot connect: %s' % err)
            return
        whys = [shared_why]
        try:
            if case.action:
                whys.append(case.action(self, conn, xid))
            else:
                whys.append(self.exchange(conn, case.build(xid, self.args),
                                          case.expect, xid))
            if case.control_after:
                control = self.control(conn, xid | CONTROL_XID)
                if control:
                    whys.append('then the NULL call: ' + control)
            if not conn.closed:
                whys.append(self.unasked(conn, 'after the answer'))
            else:
                # A connection that ended may take in what the server
                # sent before it closed only after the close was seen
                # (a tolerated RDMA_ERROR racing the disconnect): noted,
                # not judged.
                for late in conn.drain():
                    self.note('received after the connection closed: ' +
                              describe_message(late))
        except PyverbsError as err:
            whys.append('verbs error: %s' % err)
            conn.mark_broken(whys[-1])
        finally:
            if case.connection == OWN:
                conn.close()
        if case.connection == OWN:
            whys.append(self.shared_still_up(xid | SHARED_CONTROL_XID))
        self.shared_last = number
        self.report(number, case, '; '.join(w for w in whys if w) or None)

    def report(self, number, case, why):
        if why:
            self.failed += 1
            self.failed_numbers.add(number)
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
    parser.add_argument('--large-io', type=int, default=0,
                        help='bytes of the large-io case\'s WRITE and READ: '
                             'the server\'s largest payload (default 0: the '
                             'case is left out)')
    parser.add_argument('--chunk-expect', default=None,
                        help='write what that file must hold afterwards here')
    parser.add_argument('--sync-dir', default=None,
                        help='directory of the flag files shared with the '
                             'server guest (the harness\'s /out), for the '
                             'server\'s half of the read-stall case; '
                             'without it that case runs alone')
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
             if (args.only is None or c.key in args.only) and
             (c.key != 'large-io' or args.large_io)]
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
