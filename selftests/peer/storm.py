#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Connection storm: open COUNT RPC-over-RDMA connections to a server, each
offering RFC 8797 private data, hold them all at once, then close them.

The connections are opened one after another as fast as the server accepts
them.  Each sends one NFSv4 COMPOUND (PUTROOTFH, GETATTR) and must get a
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
    return parser.parse_args()


def main():
    args = parse_args()
    conns = []
    failed = 0
    start = time.monotonic()
    try:
        for n in range(args.count):
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
        took = time.monotonic() - start
        print('storm: %d of %d connections up and answered in %.1fs' %
              (len(conns) - failed, args.count, took))
        if conns:
            print('storm: first one: %s' % conns[0].describe_server())
        sys.stdout.flush()
        open(args.up_flag, 'w').close()
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
    finally:
        start = time.monotonic()
        for conn in conns:
            conn.close()
        print('storm: %d connections closed in %.1fs' %
              (len(conns), time.monotonic() - start))
        open(args.closed_flag, 'w').close()
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
