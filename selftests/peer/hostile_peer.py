#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile RPC-over-RDMA version 1 requester, to test a server (responder).

The peer connects to SERVER:PORT with RDMA-CM, offering RFC 8797 connection
private data, and sends hand-made transport headers (RFC 8166): well-formed
RPC NULL calls as positive controls, and headers that are wrong in one way
each.  Every case checks the server's answer against the CASES table below
and prints one TAP line ("ok N - name" or "not ok N - name: why"), then a
comment saying what was actually received.  The exit status is 0 when every
case passed, 1 otherwise.

Needs pyverbs (Debian: python3-pyverbs); run it with /usr/bin/python3.

    hostile_peer.py --server 192.0.2.1 [--port 20049] [--only a,b,l]
"""

import argparse
import collections
import dataclasses
import os
import select
import struct
import sys
import time
from typing import Callable

import pyverbs.cm_enums as ce
import pyverbs.enums as e
from pyverbs.cmid import AddrInfo, CMEvent, CMEventChannel, CMID, ConnParam
from pyverbs.cq import CQ
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError
from pyverbs.qp import QP, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SGE, SendWR

# ---------------------------------------------------------------------------
# Wire format.  Every field is an XDR unsigned int: 4 bytes, big-endian.
#
# Transport header (RFC 8166 section 4):
#     xid, vers, credits, proc, then a body that depends on proc.
# The body of RDMA_MSG and RDMA_NOMSG is three chunk lists:
#     Read list:   { 1, position, handle, length, offset (u64) } ... 0
#     Write list:  { 1, count, count x segment } ... 0
#     Reply chunk: 0, or 1, count, count x segment
#     segment:     handle, length, offset (u64)
# RDMA_MSG is followed by the RPC message itself; with RDMA_NOMSG the RPC
# message travels in a position-zero Read chunk (a Long Call) or comes back
# in the Reply chunk (a Long Reply).  The body of RDMA_ERROR is an error
# code; ERR_VERS adds the lowest and highest versions the server supports.

RPCRDMA_VERSION = 1

RDMA_MSG = 0
RDMA_NOMSG = 1
RDMA_MSGP = 2           # RFC 5666 only: not a valid procedure in RFC 8166
RDMA_DONE = 3           # likewise
RDMA_ERROR = 4
PROC_NAMES = {RDMA_MSG: 'RDMA_MSG', RDMA_NOMSG: 'RDMA_NOMSG',
              RDMA_MSGP: 'RDMA_MSGP', RDMA_DONE: 'RDMA_DONE',
              RDMA_ERROR: 'RDMA_ERROR'}

ERR_VERS = 1
ERR_CHUNK = 2
ERR_NAMES = {ERR_VERS: 'ERR_VERS', ERR_CHUNK: 'ERR_CHUNK'}

# Connection private data (RFC 8797 section 4): a 32-bit magic, then one
# octet each: version, flags, and the sender's send and receive inline
# sizes, each encoded as (size / 1024) - 1.
RPCRDMA_CMP_MAGIC = 0xf6ab0e18
RPCRDMA_CMP_VERSION = 1
RPCRDMA_CMP_F_SND_W_INV_OK = 1 << 0     # "you may Send With Invalidate"

# ONC RPC (RFC 5531).  A call: xid, CALL, rpcvers 2, prog, vers, proc,
# cred, verf, args.  A reply: xid, REPLY, MSG_ACCEPTED, verf, accept_stat,
# results.  cred and verf are opaque_auth: flavor, length, body.
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
OP_LOOKUP = 15
OP_PUTROOTFH = 24
OP_READ = 25
OP_WRITE = 38
FILE_SYNC4 = 2
NFS4_OK = 0
NFS4ERR_DELAY = 10008
NFS4ERR_GRACE = 10013
ANONYMOUS_STATEID = bytes(16)   # seqid 0, "other" all zeroes

# A handle this peer never registers.  Apart from the buffer of the Read
# chunk case (remote read only), none of the peer's memory allows remote
# access: any RDMA Read or Write the server aims at it fails.
BOGUS_HANDLE = 0xbad0bad0
BOGUS_OFFSET = 0x10000


def xdr(*values):
    """Encode XDR unsigned ints."""
    return struct.pack('>%dI' % len(values), *values)


def xdr_hyper(value):
    """Encode an XDR unsigned hyper (the offset of a chunk segment)."""
    return struct.pack('>Q', value)


def words(data):
    """Decode as many whole XDR unsigned ints as DATA holds."""
    count = len(data) // 4
    return list(struct.unpack('>%dI' % count, data[:count * 4]))


# ---------------------------------------------------------------------------
# What the cases send.  A builder takes the case's first xid and the
# command-line arguments and returns the list of messages to send.

NO_CHUNKS = xdr(0, 0, 0)    # empty Read list, Write list and Reply chunk


def transport_header(xid, proc, args, vers=RPCRDMA_VERSION):
    """The four fixed fields of a transport header."""
    return xdr(xid, vers, args.credits, proc)


def rpc_null_call(xid, args):
    """An RPC call of the NFS NULL procedure, AUTH_NONE, no arguments."""
    return xdr(xid, RPC_CALL, RPC_VERSION, NFS_PROGRAM, args.nfs_version,
               NULLPROC, AUTH_NONE, 0, AUTH_NONE, 0)


def null_call(xid, args):
    """The positive control: an inline RDMA_MSG with an RPC NULL call."""
    return [transport_header(xid, RDMA_MSG, args) + NO_CHUNKS +
            rpc_null_call(xid, args)]


def version_2(xid, args):
    """A NULL call under a transport header claiming version 2."""
    return [transport_header(xid, RDMA_MSG, args, vers=2) + NO_CHUNKS +
            rpc_null_call(xid, args)]


def with_proc(proc):
    """Builder: a NULL call under a transport header of procedure PROC."""
    def build(xid, args):
        return [transport_header(xid, proc, args) + NO_CHUNKS +
                rpc_null_call(xid, args)]
    return build


def truncated_read_list(xid, args):
    """RDMA_MSG whose Read list says "present", then the header ends."""
    return [transport_header(xid, RDMA_MSG, args) + xdr(1)]


def huge_write_chunk(xid, args):
    """A Write chunk claiming 1,000,000 segments; 8 bytes follow."""
    write_list = xdr(1, 1000000, BOGUS_HANDLE, 4096)
    return [transport_header(xid, RDMA_MSG, args) + xdr(0) + write_list]


def nomsg_without_chunks(xid, args):
    """RDMA_NOMSG with no chunk at all: the RPC message is nowhere."""
    return [transport_header(xid, RDMA_NOMSG, args) + NO_CHUNKS]


def xid_and_vers_only(xid, args):
    """An 8-byte message: too short to be a transport header."""
    return [xdr(xid, RPCRDMA_VERSION)]


def read_list_discriminator_2(xid, args):
    """A NULL call whose Read list discriminator is 2: an XDR bool is 0 or
    1, nothing else.  A well-formed Read segment (bogus handle, position
    at the end of the call) follows, so that a decoder taking any non-zero
    value as TRUE goes on to an RDMA Read, not to ERR_CHUNK."""
    call = rpc_null_call(xid, args)
    read_list = xdr(2, len(call), BOGUS_HANDLE, 4) + xdr_hyper(BOGUS_OFFSET) + xdr(0)
    return [transport_header(xid, RDMA_MSG, args) + read_list + xdr(0, 0) + call]


def bogus_reply_chunk(xid, args):
    """A NULL call offering a one-segment Reply chunk with a bogus handle.
    The reply is tiny, so the server has no reason to use the chunk."""
    reply_chunk = xdr(1, 1, BOGUS_HANDLE, 1024) + xdr_hyper(BOGUS_OFFSET)
    return [transport_header(xid, RDMA_MSG, args) + xdr(0, 0) + reply_chunk +
            rpc_null_call(xid, args)]


def unknown_proc_flood(xid, args):
    """--misbehave-count headers of unknown procedure 7, back to back."""
    return [transport_header(xid + i, 7, args) + NO_CHUNKS
            for i in range(args.misbehave_count)]


def long_call_bogus_handle(xid, args):
    """RDMA_NOMSG whose call is in a position-zero Read chunk with a handle
    the peer never registered: the server's RDMA Read must fail."""
    length = len(rpc_null_call(xid, args))
    read_list = xdr(1, 0, BOGUS_HANDLE, length) + xdr_hyper(BOGUS_OFFSET) + xdr(0)
    return [transport_header(xid, RDMA_NOMSG, args) + read_list + xdr(0, 0)]


def xdr_opaque(data):
    """An XDR variable-length opaque: length, bytes, zero pad."""
    return xdr(len(data)) + data + bytes(-len(data) % 4)


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


def op_write_chunk(offset, chunk):
    """WRITE (anonymous stateid, FILE_SYNC4) whose data is CHUNK: the
    inline part is the data's length; the bytes come in the Read chunk."""
    return [xdr(OP_WRITE) + ANONYMOUS_STATEID + xdr_hyper(offset) +
            xdr(FILE_SYNC4, len(chunk.data)), chunk]


def rdma_msg_with_read_chunks(xid, args, rpc_parts, readable, long_call=False):
    """A Call carrying RPC_PARTS (bytes, and ReadChunks whose data item is
    moved out of the Payload stream, RFC 8166 section 3.4.5).  The chunks'
    data is placed in READABLE, the peer's remotely readable memory; a
    chunk's position is the XDR offset of its data item in the unreduced
    Payload stream, and neither the reduced stream nor the chunk carries
    the item's XDR pad.  The reduced stream goes inline after an RDMA_MSG
    header, or with LONG_CALL in a position-zero Read chunk after an
    RDMA_NOMSG header (a Long Call, section 3.5.3)."""
    inline, data_chunks, position, offset = b'', [], 0, 0
    for part in rpc_parts:
        if isinstance(part, bytes):
            inline += part
            position += len(part)
            continue
        data_chunks.append((position, part))
        position += len(part.data) + (-len(part.data) % 4)

    def read_chunk(position, data, segments):
        nonlocal offset
        readable.write(data, offset)
        segs = b''
        for length in segments:
            segs += (xdr(1, position, readable.rkey, length) +
                     xdr_hyper(readable.addr(offset)))
            offset += length
        offset = (offset + 63) & ~63
        return segs

    read_list = b''
    if long_call:
        read_list += read_chunk(0, inline, [len(inline)])
    for position, part in data_chunks:
        read_list += read_chunk(position, part.data, part.segments)
    proc = RDMA_NOMSG if long_call else RDMA_MSG
    return [transport_header(xid, proc, args) + read_list + xdr(0) +
            xdr(0, 0) + (b'' if long_call else inline)]


def test_pattern(length, seed):
    """LENGTH bytes that differ from any other (length, seed) pattern."""
    return bytes((i * 7 + seed + (i >> 8)) & 0xff for i in range(length))


# ---------------------------------------------------------------------------
# What the peer observes after sending: a message, the connection closing,
# or nothing at all before the time limit.

@dataclasses.dataclass
class Message:
    data: bytes


@dataclasses.dataclass
class Closed:
    reason: str
    cm_disconnected: bool       # an RDMA_CM_EVENT_DISCONNECTED arrived
    local_send_error: bool      # one of the peer's own Sends failed first


class Silence:
    pass


def describe_message(data, hexdump=True):
    """One line about a received message, with a hex dump of its start."""
    w = words(data[:32])
    if len(w) < 4:
        text = 'a message too short for a transport header'
    else:
        xid, vers, credits, proc = w[:4]
        text = '%s xid=%#x vers=%d credits=%d' % (
            PROC_NAMES.get(proc, 'proc %d' % proc), xid, vers, credits)
        if proc == RDMA_ERROR and len(w) > 4:
            text += ' ' + ERR_NAMES.get(w[4], 'error %d' % w[4])
            if w[4] == ERR_VERS and len(w) >= 7:
                text += ' low=%d high=%d' % (w[5], w[6])
        elif proc in (RDMA_MSG, RDMA_NOMSG) and len(w) >= 7:
            text += ' chunk lists %d %d %d' % tuple(w[4:7])
    if hexdump:
        text += ', %d bytes: %s' % (len(data), data[:32].hex(' ', 4))
    return text


def describe(event, hexdump=True):
    if isinstance(event, Message):
        return describe_message(event.data, hexdump)
    if isinstance(event, Closed):
        return 'connection closed: ' + event.reason
    return 'no answer'


# ---------------------------------------------------------------------------
# Expected answers.  check() returns None when EVENT is this answer to a
# message whose xid is in XIDS, else why not; wait() is how long to wait
# for it.

class RpcNullReply:
    """An inline RDMA_MSG, empty chunk lists, carrying an RPC reply
    MSG_ACCEPTED / SUCCESS with the same xid."""
    label = 'an inline RDMA_MSG with an RPC NULL reply'

    def wait(self, args):
        return args.timeout

    def tolerates(self, event, xids):
        return False

    def check(self, event, xids):
        if not isinstance(event, Message) or len(event.data) < 28:
            return 'expected %s, got %s' % (self.label, describe(event, False))
        w = words(event.data)
        xid, vers, credits, proc = w[:4]
        problems = []
        if xid not in xids:
            problems.append('xid %#x' % xid)
        if vers != RPCRDMA_VERSION:
            problems.append('vers %d' % vers)
        if credits < 1:
            problems.append('credits 0')
        if proc != RDMA_MSG:
            problems.append(PROC_NAMES.get(proc, 'proc %d' % proc))
        elif w[4:7] != [0, 0, 0]:
            problems.append('chunk lists not empty (%d %d %d)' % tuple(w[4:7]))
        else:
            rpc_problem = check_rpc_accepted(w[7:], xid)
            if rpc_problem:
                problems.append(rpc_problem)
        if problems:
            return 'expected %s, got: %s' % (self.label, ', '.join(problems))
        return None


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


class RdmaError:
    """An RDMA_ERROR header: xid, vers 1, credits, RDMA_ERROR, CODE, and for
    ERR_VERS the supported range LOW..HIGH; nothing after that."""

    def __init__(self, code, low=None, high=None):
        self.code, self.low, self.high = code, low, high
        self.label = 'RDMA_ERROR ' + ERR_NAMES[code]
        if code == ERR_VERS:
            self.label += ' low=%d high=%d' % (low, high)

    def wait(self, args):
        return args.timeout

    def tolerates(self, event, xids):
        return False

    def check(self, event, xids):
        if not isinstance(event, Message) or len(event.data) < 20:
            return 'expected %s, got %s' % (self.label, describe(event, False))
        w = words(event.data)
        if w[3] != RDMA_ERROR:
            return 'expected %s, got %s' % (self.label, describe(event, False))
        problems = []
        if w[0] not in xids:
            problems.append('xid %#x' % w[0])
        if w[1] != RPCRDMA_VERSION:
            problems.append('vers %d' % w[1])
        if w[4] != self.code:
            problems.append(ERR_NAMES.get(w[4], 'error %d' % w[4]))
        want_len = 20
        if self.code == ERR_VERS:
            want_len = 28
            if len(w) >= 7 and (w[5], w[6]) != (self.low, self.high):
                problems.append('low=%d high=%d' % (w[5], w[6]))
        if len(event.data) != want_len:
            problems.append('%d bytes long, not %d' % (len(event.data), want_len))
        if problems:
            return 'expected %s, got: %s' % (self.label, ', '.join(problems))
        return None


class NoAnswer:
    """The server drops the message silently."""
    label = 'no answer'

    def wait(self, args):
        return args.quiet_time

    def tolerates(self, event, xids):
        return False

    def check(self, event, xids):
        if isinstance(event, Silence):
            return None
        return 'expected no answer, got %s' % describe(event, False)


class ServerCloses:
    """The server ends the connection: an RDMA_CM_EVENT_DISCONNECTED, or the
    peer's QP going to the error state (its receives flush).  A failure of
    the peer's own Sends (say, the server stopped posting receives) does
    not count unless the DISCONNECTED event follows.  Answers matching
    TOLERATE may come first."""
    label = 'the server closing the connection'

    def __init__(self, tolerate=None):
        self.tolerate = tolerate

    def wait(self, args):
        return args.disconnect_timeout

    def tolerates(self, event, xids):
        return (self.tolerate is not None and isinstance(event, Message) and
                self.tolerate.check(event, xids) is None)

    def check(self, event, xids):
        if isinstance(event, Silence):
            return 'the server kept the connection up'
        if not isinstance(event, Closed):
            return 'expected %s, got %s' % (self.label, describe(event, False))
        if event.local_send_error and not event.cm_disconnected:
            return ('our own Send failed and the server never disconnected: '
                    + event.reason)
        return None


class XdrReader:
    """Reads XDR items from DATA (bytes); raises IndexError or
    struct.error at the end."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def u32(self):
        value, = struct.unpack_from('>I', self.data, self.pos)
        self.pos += 4
        return value

    def opaque(self, length=None):
        if length is None:
            length = self.u32()
        if self.pos + length > len(self.data):
            raise IndexError('opaque runs past the end')
        value = self.data[self.pos:self.pos + length]
        self.pos += length + (-length % 4)
        return value


def compound_results(data, xid):
    """Parse an inline RDMA_MSG carrying the reply to COMPOUND call XID.
    Returns (status, [(op, op status, reader positioned at the op's
    result)]), or raises ValueError saying what is wrong."""
    w = words(data[:28])
    if len(w) < 7 or w[3] != RDMA_MSG or w[4:7] != [0, 0, 0]:
        raise ValueError('not an inline RDMA_MSG: ' + describe_message(data))
    if w[0] != xid:
        raise ValueError('transport xid %#x, not %#x' % (w[0], xid))
    problem = check_rpc_accepted(words(data[28:]), xid)
    if problem:
        raise ValueError(problem)
    r = XdrReader(data)
    r.pos = 28 + 16             # xid, msg_type, reply_stat, verifier flavor
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
            elif op == OP_READ:
                eof = r.u32()
                results[-1] = (op, op_status, (eof, r.opaque()))
    except (IndexError, struct.error) as err:
        raise ValueError('COMPOUND reply cut short: %s' % err)
    return status, results


RPC_NULL_REPLY = RpcNullReply()
ERR_CHUNK_REPLY = RdmaError(ERR_CHUNK)
ERR_VERS_REPLY = RdmaError(ERR_VERS, low=1, high=1)

# ---------------------------------------------------------------------------
# The cases, in the order they run, with the answers that pass (any one).
# SHARED cases run on one long-lived connection (reopened if the server
# closed it); OWN cases get a fresh connection, closed afterwards.  With
# control_after, a NULL call must still be answered on the same
# connection after the case.

SHARED = 'shared'
OWN = 'own'


@dataclasses.dataclass
class Case:
    key: str
    name: str
    build: Callable
    expect: tuple
    connection: str = SHARED
    control_after: bool = False
    action: Callable = None     # runs the case itself: (runner, conn, xid)


# Bytes per READ when the Read chunk cases read their file back.  The
# replies must fit inline: pyverbs 44 does not deliver our connection
# private data, so the server keeps RFC 8797's default 1024-byte inline
# size for this peer.
READ_PIECE = 512

# How long a COMPOUND answered NFS4ERR_DELAY or NFS4ERR_GRACE is retried.
NFS4_RETRY_SECONDS = 40


def compound_call(runner, conn, xid, rpc_parts, label, long_call=False):
    """Send one COMPOUND (RPC_PARTS as for rdma_msg_with_read_chunks), and
    retry it while the server says NFS4ERR_DELAY or NFS4ERR_GRACE.
    Returns (results, None) or (None, why it failed)."""
    deadline = time.monotonic() + NFS4_RETRY_SECONDS
    while True:
        for stray in conn.drain():
            runner.note('unasked message before this call: ' + describe_message(stray))
        parts = [rpc_compound_call(xid) + rpc_parts[0]] + rpc_parts[1:]
        for message in rdma_msg_with_read_chunks(xid, runner.args, parts,
                                                 conn.readable(), long_call):
            if not conn.send(message):
                break
        event = conn.next_event(runner.args.timeout)
        runner.note('%s: %s' % (label, describe(event)))
        if not isinstance(event, Message):
            return None, 'expected a COMPOUND reply, got ' + describe(event, False)
        try:
            status, results = compound_results(event.data, xid)
        except ValueError as err:
            return None, str(err)
        if status in (NFS4ERR_DELAY, NFS4ERR_GRACE) and time.monotonic() < deadline:
            time.sleep(1)
            xid += 1
            continue
        if status != NFS4_OK:
            return None, 'COMPOUND status %d (op %d)' % (status, results[-1][0])
        return results, None


def read_back(runner, conn, xid, lookups, start, length):
    """READ LENGTH bytes of the file from START, in pieces that fit
    inline; returns (data, None) or (None, why)."""
    data, eof = b'', 0
    while not eof and len(data) < length:
        offset = start + len(data)
        read = lookups + [xdr(OP_READ) + ANONYMOUS_STATEID +
                          xdr_hyper(offset) +
                          xdr(min(READ_PIECE, length - len(data)))]
        results, why = compound_call(runner, conn, xid + len(data),
                                     [compound_args(read)],
                                     'then READ at %d received' % offset)
        if why:
            return None, 'READ at %d: %s' % (offset, why)
        eof, piece = results[-1][2]
        if not piece and not eof:
            return None, 'READ at %d returned nothing before the end' % offset
        data += piece
    return data, None


def writes_in_read_chunks(long_call, start, seed):
    """Case builder: an NFSv4.0 COMPOUND whose two WRITEs carry their
    data in two Read chunks at two positions, writing the file from
    START: the first chunk's length is not a multiple of four (so the
    server must put the XDR pad back, RFC 8166 section 3.4.4.4) and the
    second chunk has two segments.  With LONG_CALL the rest of the
    COMPOUND comes in a position-zero Read chunk too.  Both WRITEs must
    report their counts, and READs must return exactly those bytes."""
    def run(runner, conn, xid):
        first = ReadChunk(test_pattern(1301, seed))
        second = ReadChunk(test_pattern(1500, seed + 1), segments=[1000, 500])
        written = first.data + second.data
        lookups = op_lookups(runner.args.chunk_file)
        ops = (lookups + op_write_chunk(start, first) +
               op_write_chunk(start + len(first.data), second) +
               [xdr(OP_PUTROOTFH)])
        parts = [xdr(0, 0, len(lookups) + 3)]   # tag, minor version, op count
        for op in ops:
            if isinstance(op, bytes) and isinstance(parts[-1], bytes):
                parts[-1] += op
            else:
                parts.append(op)
        results, why = compound_call(runner, conn, xid, parts,
                                     'COMPOUND with Read chunks received',
                                     long_call)
        if why:
            return why
        counts = [r.u32() for op, _, r in results if op == OP_WRITE]
        if counts != [len(first.data), len(second.data)]:
            return 'WRITE counts %s, expected [1301, 1500]' % counts
        runner.file_written(start, written)

        data, why = read_back(runner, conn, xid + 0x100, lookups, start,
                              len(written))
        if why:
            return 'after the WRITEs, ' + why
        if data != written:
            return ('READ returned %d bytes that differ from the %d written'
                    % (len(data), len(written)))
        return None
    return run

def credit_flood(runner, conn, xid):
    """Ten times the server's credit grant of NULL calls without waiting
    for a reply.  The server must not buffer without bound: it may answer
    every call (nfsd kept up), or, once it holds two windows of calls,
    let our Sends fail with RNR (it grants no RNR retry) or close the
    connection.  What it may not do is go silent with calls unanswered
    and the connection up: that is data loss a client cannot see."""
    if not conn.send(null_call(xid, runner.args)[0]):
        return 'the first NULL call could not be sent'
    event = conn.next_event(runner.args.timeout)
    why = RPC_NULL_REPLY.check(event, range(xid, xid + 1))
    if why:
        return 'the first NULL call: ' + why
    grant = words(event.data)[2]
    count = 10 * grant
    runner.note('the server grants %d credits; sending %d NULL calls'
                % (grant, count))
    first = xid + 1
    sent = 0
    for i in range(count):
        if not conn.send(null_call(first + i, runner.args)[0]):
            break
        sent += 1
    answered = 0
    while True:
        event = conn.next_event(runner.args.quiet_time)
        if isinstance(event, Message):
            if RPC_NULL_REPLY.check(event, range(first, first + count)):
                return 'an answer that is no NULL reply: ' + describe(event)
            answered += 1
            continue
        break
    runner.note('%d of %d sent, %d answered, then %s'
                % (sent, count, answered, describe(event, False)))
    if isinstance(event, Closed):
        return None
    if answered == count:
        return None
    return ('the server went silent with %d of %d calls unanswered and the '
            'connection up' % (count - answered, count))


CASES = [
    Case('a', 'positive control: inline RDMA_MSG with an RPC NULL call',
         null_call, (RPC_NULL_REPLY,)),
    Case('b', 'transport header version 2',
         version_2, (ERR_VERS_REPLY,)),
    Case('c', 'procedure RDMA_MSGP (2)',
         with_proc(RDMA_MSGP), (ERR_CHUNK_REPLY,)),
    Case('d', 'procedure RDMA_DONE (3)',
         with_proc(RDMA_DONE), (ERR_CHUNK_REPLY,)),
    Case('e', 'unknown procedure 7',
         with_proc(7), (ERR_CHUNK_REPLY,)),
    Case('f', 'Read list truncated after its "present" discriminator',
         truncated_read_list, (ERR_CHUNK_REPLY,)),
    Case('g', 'Write chunk claiming 1,000,000 segments, 8 bytes follow',
         huge_write_chunk, (ERR_CHUNK_REPLY,)),
    Case('h', 'RDMA_NOMSG with all three chunk lists empty',
         nomsg_without_chunks, (ERR_CHUNK_REPLY,)),
    Case('i', '8-byte header (xid and vers only) is dropped silently',
         xid_and_vers_only, (NoAnswer(),), control_after=True),
    Case('j', 'Read list discriminator 2 (neither FALSE nor TRUE)',
         read_list_discriminator_2, (ERR_CHUNK_REPLY,)),
    Case('k', 'small reply comes back inline despite a bogus Reply chunk',
         bogus_reply_chunk, (RPC_NULL_REPLY,), control_after=True),
    Case('a', 'positive control again on the same connection',
         null_call, (RPC_NULL_REPLY,)),
    Case('n', 'NFSv4 COMPOUND whose two WRITEs come in two Read chunks '
         '(one unaligned, one of two segments), then READ them back',
         None, (), action=writes_in_read_chunks(False, 0, 1)),
    Case('o', 'the same as a Long Call: the COMPOUND in a position-zero '
         'Read chunk, the two WRITEs in two more',
         None, (), action=writes_in_read_chunks(True, 2801, 3)),
    Case('l', 'flood of malformed headers (procedure 7) gets the peer '
         'disconnected',
         unknown_proc_flood, (ServerCloses(tolerate=ERR_CHUNK_REPLY),), OWN),
    Case('m', 'Long Call whose Read chunk handle was never registered',
         long_call_bogus_handle, (ServerCloses(), ERR_CHUNK_REPLY), OWN),
    Case('p', 'ten times the credit grant of NULL calls without waiting',
         None, (), OWN, action=credit_flood),
    Case('a', 'positive control on a fresh connection after the attacks',
         null_call, (RPC_NULL_REPLY,), OWN),
]

# ---------------------------------------------------------------------------
# One RC connection: RDMA-CM (asynchronous, on an event channel of its own)
# sets it up; the QP, CQ and memory are the peer's own, so that every work
# request carries an id.  One registered buffer holds the receive slots,
# then the send slots.  Only the Read chunk case registers memory for
# remote access (RemoteReadable).

RECV_COUNT = 16
SEND_SLOTS = 64
SEND_SIZE = 4096
SEND_TAG = 1 << 32          # in a wr_id: a Send, not a Receive
CM_TIMEOUT_MS = 5000
POLL_INTERVAL = 0.005


class ConnectError(Exception):
    pass


def cm_event_name(event_type):
    for name in dir(ce):
        if name.startswith('RDMA_CM_EVENT_') and getattr(ce, name) == event_type:
            return name
    return 'RDMA-CM event %d' % event_type


def wc_status_name(status):
    try:
        return e.ibv_wc_status(status).name
    except ValueError:
        return 'status %d' % status


def rdma_cm_fds():
    """The file descriptors of this process open on the RDMA-CM device."""
    fds = set()
    for fd in os.listdir('/proc/self/fd'):
        try:
            if os.readlink('/proc/self/fd/' + fd) == '/dev/infiniband/rdma_cm':
                fds.add(int(fd))
        except OSError:
            pass
    return fds


def open_event_channel():
    """A CM event channel and its file descriptor.  pyverbs does not expose
    the descriptor, but it is the one rdma_cm file the channel opened; the
    peer needs it to wait for events with a time limit."""
    before = rdma_cm_fds()
    channel = CMEventChannel()
    new = rdma_cm_fds() - before
    if len(new) != 1:
        channel.close()
        raise ConnectError('cannot find the RDMA-CM event channel descriptor')
    return channel, new.pop()


def connect_private_data(args):
    """RFC 8797 private data for the connect request."""
    flags = RPCRDMA_CMP_F_SND_W_INV_OK if args.remote_invalidate else 0
    size = args.inline_size // 1024 - 1
    return struct.pack('>IBBBB', RPCRDMA_CMP_MAGIC, RPCRDMA_CMP_VERSION,
                       flags, size, size)


def describe_private_data(data):
    if len(data) < 8:
        return 'no private data'
    magic, version, flags, send, recv = struct.unpack('>IBBBB', data[:8])
    if magic != RPCRDMA_CMP_MAGIC:
        return 'private data without the RPC-over-RDMA magic (%s)' % data[:8].hex()
    return ('version %d, flags %#x, inline send %d, receive %d' %
            (version, flags, (send + 1) * 1024, (recv + 1) * 1024))


class RemoteReadable:
    """A buffer registered for remote read: where Read chunks point."""
    SIZE = 65536

    def __init__(self, pd):
        self.mr = MR(pd, self.SIZE,
                     e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_READ)
        self.rkey = self.mr.rkey

    def write(self, data, offset):
        self.mr.write(data, len(data), offset)

    def addr(self, offset):
        return self.mr.buf + offset


class Connection:
    def __init__(self, args):
        self.args = args
        self.recv_size = args.inline_size
        self.inbox = collections.deque()
        self.close_reasons = []
        self.cm_disconnected = False
        self.local_send_error = False
        self.sends_in_flight = 0
        self.next_send_slot = 0
        self.server_private = b''
        self.ai = self.pd = self.cq = self.qp = self.mr = None
        self.remote_mr = None
        self.channel, self.channel_fd = open_event_channel()
        self.cmid = CMID(creator=self.channel, port_space=ce.RDMA_PS_TCP)
        try:
            self._connect()
        except Exception:
            self.close()
            raise

    # -- setting up --

    def _connect(self):
        self.ai = AddrInfo(dst=self.args.server, dst_service=str(self.args.port),
                           port_space=ce.RDMA_PS_TCP)
        self.cmid.resolve_addr(self.ai, CM_TIMEOUT_MS)
        self._expect_cm_event(ce.RDMA_CM_EVENT_ADDR_RESOLVED)
        self.cmid.resolve_route(CM_TIMEOUT_MS)
        self._expect_cm_event(ce.RDMA_CM_EVENT_ROUTE_RESOLVED)
        self._create_qp()
        for slot in range(RECV_COUNT):
            self._post_recv(slot)
        # The server reads from us (Read chunks): accept one RDMA Read at a
        # time.  Its Sends wait for our receives as long as needed (7).
        param = ConnParam(resources=1, depth=1, rnr_retry=7,
                          qp_num=self.qp.qp_num)
        self._private = connect_private_data(self.args)
        param.set_private_data(self._private)
        self.cmid.connect(param)
        self.server_private = self._expect_cm_event(
            ce.RDMA_CM_EVENT_CONNECT_RESPONSE)
        for state in (e.IBV_QPS_RTR, e.IBV_QPS_RTS):
            attr, mask = self.cmid.init_qp_attr(state)
            self.qp.modify(attr, mask)
        self.cmid.establish()

    def _create_qp(self):
        ctx = self.cmid.context
        self.pd = PD(ctx)
        self.cq = CQ(ctx, RECV_COUNT + SEND_SLOTS, None, None, 0)
        cap = QPCap(max_send_wr=SEND_SLOTS, max_recv_wr=RECV_COUNT,
                    max_send_sge=1, max_recv_sge=1)
        self.qp = QP(self.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq,
                                         rcq=self.cq, cap=cap))
        attr, mask = self.cmid.init_qp_attr(e.IBV_QPS_INIT)
        # RDMA-CM grants no remote access at INIT; the Read chunk case
        # needs the server's RDMA Reads to be allowed (the MR decides
        # which memory they may touch).
        attr.qp_access_flags = e.IBV_ACCESS_REMOTE_READ
        self.qp.modify(attr, mask | e.IBV_QP_ACCESS_FLAGS)
        self.mr = MR(self.pd, RECV_COUNT * self.recv_size + SEND_SLOTS * SEND_SIZE,
                     e.IBV_ACCESS_LOCAL_WRITE)

    def readable(self):
        """Memory the server may RDMA Read (registered on first use)."""
        if self.remote_mr is None:
            self.remote_mr = RemoteReadable(self.pd)
        return self.remote_mr

    def describe_server(self):
        return '%s port %d, server private data: %s' % (
            self.args.server, self.args.port,
            describe_private_data(self.server_private))

    # -- RDMA-CM events --

    def _get_cm_event(self, timeout):
        """(type, private data) of the next CM event, or None after
        TIMEOUT seconds."""
        ready, _, _ = select.select([self.channel_fd], [], [], timeout)
        if not ready:
            return None
        event = CMEvent(self.channel)
        try:
            private = b''
            if event.event_type in (ce.RDMA_CM_EVENT_CONNECT_RESPONSE,
                                    ce.RDMA_CM_EVENT_ESTABLISHED,
                                    ce.RDMA_CM_EVENT_REJECTED):
                private = bytes(event.private_data or b'')
            return event.event_type, private
        finally:
            event.ack_cm_event()

    def _expect_cm_event(self, expected):
        event = self._get_cm_event(CM_TIMEOUT_MS / 1000)
        if event is None:
            raise ConnectError('no %s within %d ms' %
                               (cm_event_name(expected), CM_TIMEOUT_MS))
        if event[0] != expected:
            raise ConnectError('%s instead of %s' %
                               (cm_event_name(event[0]), cm_event_name(expected)))
        return event[1]

    def _poll_cm(self, timeout=0):
        event = self._get_cm_event(timeout)
        while event is not None:
            if event[0] == ce.RDMA_CM_EVENT_DISCONNECTED:
                self.cm_disconnected = True
            if event[0] != ce.RDMA_CM_EVENT_TIMEWAIT_EXIT:
                self._closed(cm_event_name(event[0]))
            event = self._get_cm_event(0)

    # -- work requests and completions --

    def _post_recv(self, slot):
        sge = SGE(self.mr.buf + slot * self.recv_size, self.recv_size, self.mr.lkey)
        try:
            self.qp.post_recv(RecvWR(wr_id=slot, num_sge=1, sg=[sge]))
        except PyverbsError as err:
            self._closed('cannot post a receive: %s' % err)

    def _poll_cq(self):
        while True:
            count, wcs = self.cq.poll(16)
            if count == 0:
                return
            for wc in wcs[:count]:
                if wc.wr_id & SEND_TAG:
                    self._send_done(wc)
                else:
                    self._recv_done(wc)

    def _send_done(self, wc):
        self.sends_in_flight -= 1
        if wc.status != e.IBV_WC_SUCCESS:
            if not self.close_reasons:
                self.local_send_error = True
            self._closed('Send completed with ' + wc_status_name(wc.status))

    def _recv_done(self, wc):
        if wc.status != e.IBV_WC_SUCCESS:
            self._closed('Receive completed with %s (our QP is in the error state)'
                         % wc_status_name(wc.status))
            return
        slot = wc.wr_id
        self.inbox.append(self.mr.read(wc.byte_len, slot * self.recv_size))
        self._post_recv(slot)

    def mark_broken(self, reason):
        """Stop using this connection (the peer itself failed on it)."""
        self._closed(reason)

    def _closed(self, reason):
        if reason not in self.close_reasons:
            self.close_reasons.append(reason)

    def poll(self, timeout=0):
        """Take in CM events and completions, waiting up to TIMEOUT seconds
        for a CM event."""
        self._poll_cm(timeout)
        self._poll_cq()

    @property
    def closed(self):
        return bool(self.close_reasons)

    def closed_event(self):
        return Closed('; then '.join(self.close_reasons), self.cm_disconnected,
                      self.local_send_error)

    # -- what the cases use --

    def send(self, data):
        """Post one Send of DATA; False if the connection is gone."""
        deadline = time.monotonic() + self.args.timeout
        while self.sends_in_flight >= SEND_SLOTS and not self.closed:
            if time.monotonic() > deadline:
                self._closed('no Send completed within %gs' % self.args.timeout)
            self.poll(POLL_INTERVAL)
        if self.closed:
            return False
        slot = self.next_send_slot
        self.next_send_slot = (slot + 1) % SEND_SLOTS
        offset = RECV_COUNT * self.recv_size + slot * SEND_SIZE
        self.mr.write(data, len(data), offset)
        sge = SGE(self.mr.buf + offset, len(data), self.mr.lkey)
        wr = SendWR(wr_id=SEND_TAG | slot, opcode=e.IBV_WR_SEND, num_sge=1,
                    sg=[sge], send_flags=e.IBV_SEND_SIGNALED)
        try:
            self.qp.post_send(wr)
        except PyverbsError as err:
            self._closed('cannot post a Send: %s' % err)
            return False
        self.sends_in_flight += 1
        return True

    def next_event(self, timeout):
        """The next received message, else the connection's end, else
        Silence after TIMEOUT seconds."""
        deadline = time.monotonic() + timeout
        while True:
            self.poll()
            if self.inbox:
                return Message(self.inbox.popleft())
            if self.closed:
                return self.closed_event()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return Silence()
            self.poll(min(POLL_INTERVAL, remaining))

    def wait_cm_disconnect(self, timeout):
        deadline = time.monotonic() + timeout
        while not self.cm_disconnected and time.monotonic() < deadline:
            self.poll(min(0.1, max(0, deadline - time.monotonic())))

    def drain(self):
        """Messages that arrived unasked."""
        self.poll()
        stray = list(self.inbox)
        self.inbox.clear()
        return stray

    def close(self):
        """Disconnect (politely, if still connected) and free everything."""
        if self.qp is not None and not self.cm_disconnected:
            try:
                self.cmid.disconnect()
                self.wait_cm_disconnect(2)
            except PyverbsError:
                pass
        remote = self.remote_mr.mr if self.remote_mr else None
        for obj in (self.qp, self.mr, remote, self.cq, self.pd, self.cmid,
                    self.ai, self.channel):
            if obj is not None:
                try:
                    obj.close()
                except PyverbsError:
                    pass
        self.qp = None


# ---------------------------------------------------------------------------
# Running the cases.

XID_BASE = 0x48500000       # each case gets XID_BASE + (number << 16) ...
CONTROL_XID = 0xffff        # ... and its control call that | 0xffff


def observe(conn, expect, xids, args):
    """Wait for the first event that decides the case: answers some
    expectation tolerates are skipped (and returned in a list)."""
    deadline = time.monotonic() + max(o.wait(args) for o in expect)
    tolerated = []
    while True:
        event = conn.next_event(max(0, deadline - time.monotonic()))
        if isinstance(event, Message) and any(o.tolerates(event, xids)
                                              for o in expect):
            tolerated.append(event)
            continue
        if (isinstance(event, Closed) and not event.cm_disconnected and
                any(isinstance(o, ServerCloses) for o in expect)):
            # Did the server really hang up?  Its DISCONNECTED may follow.
            conn.wait_cm_disconnect(max(0, deadline - time.monotonic()))
            event = conn.closed_event()
        return event, tolerated


def judge(expect, event, xids):
    """None if EVENT is one of the expected answers, else why not."""
    reasons = [o.check(event, xids) for o in expect]
    if None in reasons:
        return None
    if len(reasons) == 1:
        return reasons[0]
    return 'expected %s; got %s' % (' or '.join(o.label for o in expect),
                                   describe(event, False))


class Runner:
    def __init__(self, args):
        self.args = args
        self.shared = None
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
        if self.shared is None:
            self.shared = Connection(self.args)
            self.note('connected to ' + self.shared.describe_server())
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
    parser.add_argument('--chunk-expect', default=None,
                        help='write what that file must hold afterwards here')
    parser.add_argument('--only', type=lambda s: set(s.split(',')), default=None,
                        help='comma-separated case letters to run (default all)')
    return parser.parse_args()


def main():
    args = parse_args()
    cases = [c for c in CASES if args.only is None or c.key in args.only]
    print('TAP version 13')
    print('1..%d' % len(cases))
    runner = Runner(args)
    try:
        for number, case in enumerate(cases, 1):
            runner.run(number, case)
    finally:
        runner.finish()
    print('# hostile peer: %d passed, %d failed' %
          (len(cases) - runner.failed, runner.failed))
    return 1 if runner.failed else 0


if __name__ == '__main__':
    sys.exit(main())
