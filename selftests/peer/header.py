# SPDX-License-Identifier: GPL-2.0
"""RPC-over-RDMA version 1 transport headers (RFC 8166) for the hostile peer:
the well-formed ones it sends, the malformed ones its cases send, and the
decoding of what comes back.

Every field is an XDR unsigned int: 4 bytes, big-endian.

Transport header (RFC 8166 section 4):
    xid, vers, credits, proc, then a body that depends on proc.
The body of RDMA_MSG and RDMA_NOMSG is three chunk lists:
    Read list:   { 1, position, handle, length, offset (u64) } ... 0
    Write list:  { 1, count, count x segment } ... 0
    Reply chunk: 0, or 1, count, count x segment
    segment:     handle, length, offset (u64)
RDMA_MSG is followed by the RPC message itself; with RDMA_NOMSG the RPC
message travels in a position-zero Read chunk (a Long Call) or comes back
in the Reply chunk (a Long Reply).  The body of RDMA_ERROR is an error
code; ERR_VERS adds the lowest and highest versions the server supports.

A builder takes the case's first xid and the command-line arguments and
returns the list of messages to send.
"""

import struct

from rpc import compound_reply, rpc_null_call
from xdr import XdrReader, words, xdr, xdr_hyper

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

# A handle this peer never registers.  Apart from the buffers of the Read
# and Write chunk cases (remote read only, remote write only), none of the
# peer's memory allows remote access: any RDMA Read or Write the server
# aims at it fails.
BOGUS_HANDLE = 0xbad0bad0
BOGUS_OFFSET = 0x10000

NO_CHUNKS = xdr(0, 0, 0)    # empty Read list, Write list and Reply chunk


def transport_header(xid, proc, args, vers=RPCRDMA_VERSION):
    """The four fixed fields of a transport header."""
    return xdr(xid, vers, args.credits, proc)


# ---------------------------------------------------------------------------
# Well-formed calls.

def null_call(xid, args):
    """The positive control: an inline RDMA_MSG with an RPC NULL call."""
    return [transport_header(xid, RDMA_MSG, args) + NO_CHUNKS +
            rpc_null_call(xid, args)]


def rdma_msg_with_read_chunks(xid, args, rpc_parts, readable, long_call=False,
                              write_list=b'', reply_chunk=None):
    """A Call carrying RPC_PARTS (bytes, and ReadChunks whose data item is
    moved out of the Payload stream, RFC 8166 section 3.4.5).  The chunks'
    data is placed in READABLE, the peer's remotely readable memory; a
    chunk's position is the XDR offset of its data item in the unreduced
    Payload stream, and neither the reduced stream nor the chunk carries
    the item's XDR pad.  The reduced stream goes inline after an RDMA_MSG
    header, or with LONG_CALL in a position-zero Read chunk after an
    RDMA_NOMSG header (a Long Call, section 3.5.3).  WRITE_LIST is the
    encoded Write chunks (write_chunks()), without the list's end, and
    REPLY_CHUNK an encoded Reply chunk (one of write_chunks()'s)."""
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
            write_list + xdr(0) + (reply_chunk or xdr(0)) +
            (b'' if long_call else inline)]


def write_chunks(writable, chunks):
    """The Write chunks of a Write list (without the list's end): CHUNKS
    lists each chunk's segment lengths; the segments follow one another
    in WRITABLE, the peer's remotely writable memory, each chunk starting
    on a 64-byte boundary.  Returns (encoded chunks, [(offset in
    WRITABLE, length) of each chunk])."""
    encoded, where, offset = b'', [], 0
    for segments in chunks:
        where.append((offset, sum(segments)))
        encoded += xdr(1, len(segments))
        for length in segments:
            encoded += (xdr(writable.rkey, length) +
                        xdr_hyper(writable.addr(offset)))
            offset += length
        offset = (offset + 63) & ~63
    return encoded, where


# ---------------------------------------------------------------------------
# Malformed headers, each wrong in one way.

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


# ---------------------------------------------------------------------------
# What comes back.

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


def reply_chunk_lists(data):
    """Parse the transport header of an RDMA_MSG or RDMA_NOMSG reply,
    whose Read list must be empty.  Returns (proc, [the segments of each
    Write chunk], the segments of the Reply chunk or None, where the RPC
    message starts), a segment being (handle, length, offset); raises
    ValueError if the header is something else."""
    r = XdrReader(data)

    def segments():
        return [(r.u32(), r.u32(), r.hyper()) for _ in range(r.u32())]

    try:
        _, vers, _, proc = r.u32(), r.u32(), r.u32(), r.u32()
        if vers != RPCRDMA_VERSION or proc not in (RDMA_MSG, RDMA_NOMSG) \
                or r.u32() != 0:
            raise ValueError('not an RDMA_MSG or RDMA_NOMSG without a Read '
                             'list: ' + describe_message(data))
        chunks = []
        while r.u32():
            chunks.append(segments())
        reply = segments() if r.u32() else None
    except (IndexError, struct.error) as err:
        raise ValueError('transport header cut short: %s' % err)
    return proc, chunks, reply, r.pos


def compound_results(data, xid):
    """Parse an inline RDMA_MSG carrying the reply to COMPOUND call XID.
    Returns (status, [(op, op status, reader positioned at the op's
    result)]), or raises ValueError saying what is wrong."""
    w = words(data[:28])
    if len(w) < 7 or w[3] != RDMA_MSG or w[4:7] != [0, 0, 0]:
        raise ValueError('not an inline RDMA_MSG: ' + describe_message(data))
    if w[0] != xid:
        raise ValueError('transport xid %#x, not %#x' % (w[0], xid))
    return compound_reply(data, 28, xid)
