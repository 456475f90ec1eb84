# SPDX-License-Identifier: GPL-2.0
"""ONC RPC and NFSv4 COMPOUND builders and parsers for the hostile peer.

A call: xid, CALL, rpcvers 2, prog, vers, proc, cred, verf, args.  A reply:
xid, REPLY, MSG_ACCEPTED, verf, accept_stat, results.  cred and verf are
opaque_auth: flavor, length, body (RFC 5531).  The COMPOUNDs are NFSv4.0
(RFC 7530), for the cases with several Read chunks.  Nothing here knows
about the RPC-over-RDMA transport header (header.py).
"""

import struct

from xdr import XdrReader, words, xdr, xdr_hyper, xdr_opaque

# ONC RPC (RFC 5531).
RPC_CALL = 0
RPC_REPLY = 1
RPC_VERSION = 2
MSG_ACCEPTED = 0
ACCEPT_SUCCESS = 0
AUTH_NONE = 0
NFS_PROGRAM = 100003
NULLPROC = 0
AUTH_SYS = 1

# NFSv4.0 (RFC 7530) COMPOUND, for the case with several Read chunks.
NFS4_VERSION = 4
NFS4PROC_COMPOUND = 1
OP_GETFH = 10
OP_LOOKUP = 15
OP_PUTROOTFH = 24
OP_READ = 25
OP_WRITE = 38
FILE_SYNC4 = 2
NFS4_OK = 0
NFS4ERR_DELAY = 10008
NFS4ERR_GRACE = 10013
ANONYMOUS_STATEID = bytes(16)   # seqid 0, "other" all zeroes


# ---------------------------------------------------------------------------
# Calls.

def rpc_null_call(xid, args):
    """An RPC call of the NFS NULL procedure, AUTH_NONE, no arguments."""
    return xdr(xid, RPC_CALL, RPC_VERSION, NFS_PROGRAM, args.nfs_version,
               NULLPROC, AUTH_NONE, 0, AUTH_NONE, 0)


def auth_sys_cred():
    """AUTH_SYS credentials of root (the test export has no_root_squash)."""
    body = xdr(0) + xdr_opaque(b'hostile-peer') + xdr(0, 0, 0)
    return xdr(AUTH_SYS) + xdr_opaque(body)


def rpc_compound_call(xid):
    """The RPC call header of an NFSv4 COMPOUND, AUTH_SYS."""
    return (xdr(xid, RPC_CALL, RPC_VERSION, NFS_PROGRAM, NFS4_VERSION,
                NFS4PROC_COMPOUND) + auth_sys_cred() + xdr(AUTH_NONE, 0))


def compound_args(ops):
    """COMPOUND4args, minor version 0, empty tag; OPS are encoded ops."""
    return xdr(0, 0, len(ops)) + b''.join(ops)


def op_lookups(path):
    """PUTROOTFH, then one LOOKUP per component of PATH."""
    ops = [xdr(OP_PUTROOTFH)]
    for name in path.strip('/').split('/'):
        ops.append(xdr(OP_LOOKUP) + xdr_opaque(name.encode()))
    return ops


class ReadChunk:
    """Marks data that travels in a Read chunk made of SEGMENTS (their
    lengths), not inline."""

    def __init__(self, data, segments=None):
        self.data = data
        self.segments = segments or [len(data)]
        assert sum(self.segments) == len(data)


def op_read(offset, count):
    """READ (anonymous stateid) of COUNT bytes from OFFSET."""
    return xdr(OP_READ) + ANONYMOUS_STATEID + xdr_hyper(offset) + xdr(count)


def op_write_chunk(offset, chunk):
    """WRITE (anonymous stateid, FILE_SYNC4) whose data is CHUNK: the
    inline part is the data's length; the bytes come in the Read chunk."""
    return [xdr(OP_WRITE) + ANONYMOUS_STATEID + xdr_hyper(offset) +
            xdr(FILE_SYNC4, len(chunk.data)), chunk]


# ---------------------------------------------------------------------------
# Replies.

def check_rpc_accepted(rpc, xid):
    """Why RPC (a list of words) is not an accepted, successful reply to
    XID, or None."""
    if len(rpc) < 6:
        return 'RPC reply too short (%d words)' % len(rpc)
    if rpc[0] != xid:
        return 'RPC xid %#x' % rpc[0]
    if rpc[1] != RPC_REPLY:
        return 'RPC msg_type %d' % rpc[1]
    if rpc[2] != MSG_ACCEPTED:
        return 'RPC reply_stat %d (denied)' % rpc[2]
    accept_stat = 5 + (rpc[4] + 3) // 4     # after the verifier's body
    if len(rpc) <= accept_stat:
        return 'RPC reply ends inside its verifier'
    if rpc[accept_stat] != ACCEPT_SUCCESS:
        return 'RPC accept_stat %d' % rpc[accept_stat]
    return None


def compound_reply(data, start, xid, reads_moved=False):
    """Parse the reply to COMPOUND call XID that begins at byte START of
    DATA.  Returns (status, [(op, op status, reader positioned at the op's
    result)]), or raises ValueError saying what is wrong.  A READ's result
    is (eof, data); with READS_MOVED its data went into a Write chunk and
    left only its length here (RFC 8166 section 3.4.6): (eof, length)."""
    problem = check_rpc_accepted(words(data[start:]), xid)
    if problem:
        raise ValueError(problem)
    r = XdrReader(data)
    r.pos = start + 16          # xid, msg_type, reply_stat, verifier flavor
    r.opaque()                  # verifier body
    r.u32()                     # accept_stat, checked above
    status = r.u32()
    r.opaque()                  # tag
    results = []
    try:
        for _ in range(r.u32()):
            op, op_status = r.u32(), r.u32()
            results.append((op, op_status, r))
            if op_status != NFS4_OK:
                break
            if op == OP_WRITE:
                results[-1] = (op, op_status, XdrReader(r.opaque(16)))
            elif op == OP_GETFH:
                results[-1] = (op, op_status, r.opaque())
            elif op == OP_READ:
                eof = r.u32()
                data_or_length = r.u32() if reads_moved else r.opaque()
                results[-1] = (op, op_status, (eof, data_or_length))
    except (IndexError, struct.error) as err:
        raise ValueError('COMPOUND reply cut short: %s' % err)
    return status, results
