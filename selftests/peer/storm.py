#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Connection storm: open COUNT RPC-over-RDMA connections to a server, each
offering RFC 8797 private data, hold them all at once, then close them.

The connections are opened one after another as fast as the server accepts
them, or with --parallel P by P processes at the same time.  Each sends one NFSv4 COMPOUND (PUTROOTFH, GETATTR) and must get a
successful reply: a connection whose peer has never presented a valid
filehandle is one the RPC server may close to make room (it keeps at most
64 such), and a storm of real clients presents one at once.  When all are
established and answered, the peer touches UP_FLAG.
The peer then waits for HOLD_FLAG (the server guest measures its memory
meanwhile), disconnects every connection and touches CLOSED_FLAG.  Every
connection must be accepted and must still be connected when the storm
ends; the exit status says whether they were.
"""

import argparse
import os
import sys
import time

from connection import RECV_COUNT, Connection, ConnectError
from expect import Message
from header import NO_CHUNKS, RDMA_MSG, transport_header
from pyverbs.pyverbs_error import PyverbsError
from rpc import NFS4_OK, OP_PUTROOTFH, compound_args, compound_reply, rpc_compound_call
from xdr import xdr

OP_GETATTR = 9
REPLY_START = 28        # an inline RDMA_MSG: four fields, three empty lists


def present_filehandle(conn, xid, args):
    """Why a COMPOUND of PUTROOTFH and GETATTR (no attributes) on CONN
    did not succeed, or None."""
    call = (transport_header(xid, RDMA_MSG, args) + NO_CHUNKS +
            rpc_compound_call(xid) +
            compound_args([xdr(OP_PUTROOTFH), xdr(OP_GETATTR, 0)]))
    if not conn.send(call):
        return 'the Send failed: %s' % conn.close_reasons
    event = conn.next_event(args.timeout)
    if not isinstance(event, Message):
        return 'no reply: %s' % (event,)
    try:
        status, _ = compound_reply(event.data, REPLY_START, xid)
    except ValueError as err:
        return str(err)
    return None if status == NFS4_OK else 'COMPOUND status %d' % status


def wait_for(path, timeout):
    deadline = time.monotonic() + timeout
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--server', required=True)
    parser.add_argument('--port', type=int, default=20049)
    parser.add_argument('--count', type=int, default=256)
    parser.add_argument('--inline-size', type=int, default=4096)
    parser.add_argument('--remote-invalidate', action='store_true')
    parser.add_argument('--timeout', type=float, default=10)
    parser.add_argument('--credits', type=int, default=RECV_COUNT)
    parser.add_argument('--up-flag', required=True,
                        help='file to create once every connection is up')
    parser.add_argument('--hold-flag', required=True,
                        help='file whose appearance ends the storm')
    parser.add_argument('--closed-flag', required=True,
                        help='file to create once every connection is closed')
    parser.add_argument('--hold-timeout', type=float, default=600)
    parser.add_argument('--parallel', type=int, default=1,
                        help='processes opening connections at the same '
                             'time (default 1: one after another)')
    return parser.parse_args()


def open_connections(args, numbers):
    """Open and answer one connection for each of NUMBERS; returns the
    connections and how many of them failed."""
    conns, failed = [], 0
    for n in numbers:
        try:
            conn = Connection(args)
        except (ConnectError, PyverbsError) as err:
            print('connection %d of %d refused: %s' % (n + 1, args.count, err))
            failed += 1
            continue
        conns.append(conn)
        why = present_filehandle(conn, 0x5700 + n, args)
        if why:
            print('connection %d of %d: %s' % (n + 1, args.count, why))
            failed += 1
    sys.stdout.flush()
    return conns, failed


def hold_and_close(args, conns):
    """Wait for the hold flag, count the connections the server dropped
    meanwhile, close them all; returns that count."""
    failed = 0
    if not wait_for(args.hold_flag, args.hold_timeout):
        print('storm: %s did not appear within %gs' %
              (args.hold_flag, args.hold_timeout))
        failed += 1
    for conn in conns:
        conn.poll()
    dropped = [c for c in conns if c.closed]
    if dropped:
        print('storm: the server dropped %d connections while held: %s' %
              (len(dropped), dropped[0].close_reasons))
        failed += len(dropped)
    start = time.monotonic()
    for conn in conns:
        conn.close()
    if args.parallel <= 1:
        print('storm: %d connections closed in %.1fs' %
              (len(conns), time.monotonic() - start))
    sys.stdout.flush()
    return failed


def worker(args, share, pipe):
    """A child of a parallel storm: report 'up OPEN FAILED' on PIPE once
    its share is open, then hold, close and exit with the failures."""
    conns, failed = open_connections(args, share)
    os.write(pipe, b'up %d %d\n' % (len(conns), failed))
    os._exit(min(failed + hold_and_close(args, conns), 100))


def main():
    args = parse_args()
    start = time.monotonic()
    if args.parallel <= 1:
        conns, failed = open_connections(args, range(args.count))
        opened = len(conns)
    else:
        # Each child opens every PARALLEL-th connection at the same time
        # as the others; the parent only gathers.
        children, opened, failed = [], 0, 0
        for k in range(args.parallel):
            rd, wr = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.close(rd)
                worker(args, range(k, args.count, args.parallel), wr)
            os.close(wr)
            children.append((pid, rd))
        for _pid, rd in children:
            with os.fdopen(rd) as f:
                line = f.readline().split()
            if len(line) != 3 or line[0] != 'up':
                print('storm: a worker ended before its connections were up')
                failed += 1
                continue
            opened += int(line[1])
            failed += int(line[2])
    took = time.monotonic() - start
    print('storm: %d of %d connections up and answered in %.1fs '
          '(%d at a time)' % (opened - failed, args.count, took,
                              max(args.parallel, 1)))
    sys.stdout.flush()
    open(args.up_flag, 'w').close()
    if args.parallel <= 1:
        failed += hold_and_close(args, conns)
    else:
        wait_for(args.hold_flag, args.hold_timeout)
        start = time.monotonic()
        for pid, _rd in children:
            _, status = os.waitpid(pid, 0)
            failed += os.waitstatus_to_exitcode(status)
        print('storm: %d connections closed in %.1fs' %
              (opened, time.monotonic() - start))
    open(args.closed_flag, 'w').close()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
