# SPDX-License-Identifier: GPL-2.0
"""The hostile peer's cases: the Case record, the cases that run a whole
exchange of their own (NFSv4 WRITEs in Read chunks, a credit flood), and
the CASES table, in the order the cases run.  Each case's key names what
it sends; --only selects cases by key.
"""

import dataclasses
import random
import time
from typing import Callable

from expect import (ERR_CHUNK_REPLY, ERR_VERS_REPLY, RPC_NULL_REPLY, Closed,
                    Message, NoAnswer, RdmaError, ServerCloses, describe,
                    judge)
from header import (BOGUS_HANDLE, BOGUS_OFFSET, RDMA_DONE, RDMA_MSG,
                    RDMA_MSGP, RDMA_NOMSG,
                    bogus_reply_chunk, compound_results,
                    huge_write_chunk, long_call_bogus_handle,
                    nomsg_without_chunks, null_call, rdma_msg_with_read_chunks,
                    read_list_discriminator_2, reply_chunk_lists,
                    truncated_read_list, unknown_proc_flood, version_2,
                    with_proc, write_chunks, xid_and_vers_only)
from connection import (WC_RNR_RETRY_EXC, ConnectError, Connection,
                        RemoteReadable, parse_private_data, wc_status_name)
from mutations import Outcome, generated_cases
from read_stall import (PeerSync, ReadRequestDrop, interface_to,
                        null_call_with_read_chunk, run_command)
from rpc import (NFS4_OK, NFS4ERR_DELAY, NFS4ERR_GRACE, OP_GETFH,
                 OP_PUTROOTFH, OP_READ, OP_WRITE, ReadChunk, compound_args,
                 compound_reply, op_lookups, op_read, op_write_chunk,
                 rpc_compound_call)
from xdr import words, xdr, xdr_hyper

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
    peer_error: bool = None     # counts towards the server's limit of
                                # malformed messages (None: from expect)

    def __post_init__(self):
        if self.peer_error is None:
            self.peer_error = any(isinstance(o, (RdmaError, NoAnswer))
                                  for o in self.expect)


# Bytes per READ when the Read chunk cases read their file back.  The
# replies must fit inline: within RFC 8797's default 1024-byte inline
# size too, should a peer run without private data.
READ_PIECE = 512

# How long a COMPOUND answered NFS4ERR_DELAY or NFS4ERR_GRACE is retried.
NFS4_RETRY_SECONDS = 40


def compound_call(runner, conn, xid, rpc_parts, label, long_call=False):
    """Send one COMPOUND (RPC_PARTS as for rdma_msg_with_read_chunks), and
    retry it while the server says NFS4ERR_DELAY or NFS4ERR_GRACE.
    Returns (results, None) or (None, why it failed)."""
    deadline = time.monotonic() + NFS4_RETRY_SECONDS
    while True:
        why = runner.unasked(conn, 'before this call')
        if why:
            return None, why
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
        read = lookups + [op_read(offset,
                                  min(READ_PIECE, length - len(data)))]
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


def test_pattern(length, seed):
    """LENGTH bytes that differ from any other (length, seed) pattern."""
    return bytes((i * 7 + seed + (i >> 8)) & 0xff for i in range(length))


def compound_parts(ops):
    """COMPOUND4args (NFSv4.0, empty tag) of OPS, as the parts of
    rdma_msg_with_read_chunks(): each op is encoded bytes, and a WRITE's
    data a ReadChunk after them (op_write_chunk())."""
    count = sum(1 for op in ops if isinstance(op, bytes))
    parts = [xdr(0, 0, count)]
    for op in ops:
        if isinstance(op, bytes) and isinstance(parts[-1], bytes):
            parts[-1] += op
        else:
            parts.append(op)
    return parts


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
        results, why = compound_call(runner, conn, xid, compound_parts(ops),
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
    and the connection up: that is data loss a client cannot see.  How
    the connection ended must be one of those refusals (flood_end())."""
    if not conn.send(null_call(xid, runner.args)[0]):
        return 'the first NULL call could not be sent'
    flood_start = conn.sends_posted
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
        why, how = flood_end(conn, flood_start, grant)
        runner.note('the connection ended: ' + how)
        return why
    if answered == count:
        return None
    return ('the server went silent with %d of %d calls unanswered and the '
            'connection up' % (count - answered, count))


def flood_end(conn, flood_start, grant):
    """Whether the way the credit flood's connection ended is the server
    refusing the calls beyond its credits: (why not, or None; what ended
    it).  FLOOD_START is the index of the flood's first Send, GRANT the
    credits the server granted before it.

    RFC 8166 section 3.3.1: a requester that sends more than its credits
    may find that "the RDMA layer" signals an error, "possibly
    terminating the connection".  Our server posts a Receive for every
    credit it grants and accepts with an RNR retry count of 0, so a Send
    beyond the credits that finds no Receive fails at once on our side
    with RNR retry exceeded: that is the server refusing, through the
    RDMA layer, and it passes, as the server disconnecting does.  It
    does not pass when a Send within the credits gets the RNR (the
    grant promised a Receive for it; only the first GRANT Sends of the
    flood are certainly within them, as answers may have returned
    credits before the later ones), when our Send fails in any other
    way (a local error is the peer's own, a flush or a retry exceeded
    with no disconnect is no refusal), when a Send never completes while
    the connection stays up (the server neither answers nor refuses),
    or when the connection ends in anything else first (a Receive or
    verbs error of ours): none of those has a cause on the server's
    side that RFC 8166 allows."""
    first = conn.close_reasons[0] if conn.close_reasons else 'nothing'
    if conn.disconnected_first:
        return None, 'the server disconnected'
    if conn.local_send_error and conn.send_error is not None:
        status, index = conn.send_error
        call = index - flood_start + 1
        if status == WC_RNR_RETRY_EXC and call > grant:
            return None, ('call %d of the flood, past the %d credits granted, '
                          'found no Receive (RNR): the server refused it'
                          % (call, grant))
        if status == WC_RNR_RETRY_EXC:
            return ('call %d of the flood, within the %d credits granted, '
                    'found no Receive (RNR)' % (call, grant)), first
        return ('our Send of call %d of the flood failed with %s, which is '
                'no refusal by the server'
                % (call, wc_status_name(status))), first
    return ('the connection ended with no cause on the server\'s side: '
            + first), first


def call_at_receive_size(runner, conn, xid):
    """A NULL call padded to exactly the Receive size the server's private
    data advertised (RFC 8797: the largest Send it takes) must be
    answered; one byte more must end the connection, the server's Receive
    failing, which shows its Receives are no larger than it said."""
    sizes = parse_private_data(conn.server_private)
    if sizes is None:
        return 'the server sent no private data'
    recv = sizes[1]
    if recv + 1 > conn.send_size:
        return ('the server receives %d bytes, more than we send (%d): '
                'nothing to test' % (recv, conn.send_size))
    call = null_call(xid, runner.args)[0]
    runner.note('the server receives at most %d bytes' % recv)
    why = runner.exchange(conn, [call + bytes(recv - len(call))],
                          (RPC_NULL_REPLY,), xid,
                          label='a %d-byte call received' % recv)
    if why:
        return 'the %d-byte call: %s' % (recv, why)
    call = null_call(xid + 1, runner.args)[0]
    return runner.exchange(conn, [call + bytes(recv + 1 - len(call))],
                           (ServerCloses(),), xid + 1,
                           label='a %d-byte call received' % (recv + 1))


def write_to_read_back(runner, conn, xid, start, data):
    """Write DATA at START of the chunk file with a WRITE in a Read chunk,
    for a case to read back; returns why that failed, or None."""
    ops = op_lookups(runner.args.chunk_file) + \
        op_write_chunk(start, ReadChunk(data))
    _, why = compound_call(runner, conn, xid, compound_parts(ops),
                           'WRITE received')
    if why:
        return 'writing the data to read: ' + why
    runner.file_written(start, data)
    return None


def call_with_chunks(runner, conn, xid, compound, label, timeout=None,
                     **chunks):
    """Send a COMPOUND with arguments COMPOUND, inline, offering CHUNKS
    (write_list, reply_chunk: see rdma_msg_with_read_chunks()), and wait
    TIMEOUT seconds (default --timeout) for the answer.  Returns (the
    answer, None), or (None, why there was none)."""
    rpc = rpc_compound_call(xid) + compound
    for message in rdma_msg_with_read_chunks(xid, runner.args, [rpc], None,
                                             **chunks):
        if not conn.send(message):
            return None, 'could not send the COMPOUND'
    event = conn.next_event(timeout or runner.args.timeout)
    runner.note('%s: %s' % (label, describe(event)))
    if not isinstance(event, Message):
        return None, 'expected a reply, got ' + describe(event, False)
    return event, None


def read_into_write_list(runner, conn, xid, ops, write_list, label,
                         timeout=None):
    """Send a COMPOUND of OPS (READs among them) offering WRITE_LIST and
    no Reply chunk, and check that the answer is an RDMA_MSG without a
    Reply chunk whose COMPOUND succeeded.  Returns ((its results, the
    bytes written into each segment of each chunk as its Write list says,
    the length of the RPC message sent inline), None), or (None, why
    not)."""
    event, why = call_with_chunks(runner, conn, xid, compound_args(ops),
                                  label, timeout=timeout,
                                  write_list=write_list)
    if why:
        return None, why
    try:
        proc, chunks, reply, start_of_rpc = reply_chunk_lists(event.data)
        status, results = compound_reply(event.data, start_of_rpc, xid,
                                         reads_moved=True)
    except ValueError as err:
        return None, str(err)
    if proc != RDMA_MSG or reply is not None:
        return None, ('not an RDMA_MSG without a Reply chunk: ' +
                      describe(event, False))
    if status != NFS4_OK:
        return None, 'COMPOUND status %d' % status
    written = [[length for _, length, _ in segs] for segs in chunks]
    return (results, written, len(event.data) - start_of_rpc), None


# GETFHs in the write-chunk-reads case: their results (about 40 bytes
# each) make its reply message larger than 1 KiB.
GETFHS = 32


def reads_in_write_chunks(start, seed):
    """Case builder: an NFSv4.0 COMPOUND with two READs, offered a Write
    list of two chunks.  The first READ asks for no bytes, so its chunk
    must come back with nothing written; the second reads 1501 bytes
    (not a multiple of four) into a chunk of two segments.  The server
    must say in its reply's Write list how much went into each segment,
    and send the rest of the reply inline with both data items and their
    XDR pads cut out (RFC 8166 section 3.4.6): a message in three pieces,
    which it copies rather than gathers.  GETFHs after the READs make
    that message larger than 1 KiB, more than a Send context's buffer
    holds before it grows (svcrdma/send.c).  The data is first written
    at START with a WRITE in a Read chunk.

    Both READs cannot return data: the 6.12 nfsd returns the wrong bytes
    for a second READ with data in one COMPOUND, inline as well as in a
    Write chunk, from the stock server as from ours (nfsd4_encode_readv()
    reads into the page after the one its XDR encoder reserved)."""
    def run(runner, conn, xid):
        data = test_pattern(1501, seed)
        why = write_to_read_back(runner, conn, xid, start, data)
        if why:
            return why

        xid += 0x100
        mem = conn.writable()
        offered = [[512], [1000, 501]]
        write_list, where = write_chunks(mem, offered)
        reads = (op_lookups(runner.args.chunk_file) +
                 [op_read(start, 0), op_read(start, len(data))] +
                 [xdr(OP_GETFH)] * GETFHS)
        answer, why = read_into_write_list(
            runner, conn, xid, reads, write_list,
            'READs with two Write chunks received')
        if why:
            return why
        results, written, inline = answer
        if written != [[0], [1000, 501]]:
            return ('Write list says %s written, expected [[0], [1000, 501]]'
                    % written)
        lengths = [res[1] for op, _, res in results if op == OP_READ]
        if lengths != [0, len(data)]:
            return 'READ lengths %s, expected [0, 1501]' % lengths
        handles = [res for op, _, res in results if op == OP_GETFH]
        if len(handles) != GETFHS or len(set(handles)) != 1:
            return ('%d GETFH results, %d different: expected %d of one'
                    % (len(handles), len(set(handles)), GETFHS))
        runner.note('reply message of %d bytes in three pieces' % inline)
        offset, length = where[1]
        got = mem.read(length, offset)
        if got != data:
            bad = next(i for i in range(length) if got[i] != data[i])
            return ('the bytes in the second Write chunk differ from those '
                    'written from byte %d: %s, expected %s' %
                    (bad, got[bad:bad + 8].hex(), data[bad:bad + 8].hex()))
        return None
    return run


def read_in_reply_chunk(start, seed):
    """Case builder: an NFSv4 READ of 6000 bytes, more than the peer
    receives inline, offered no Write list and a Reply chunk of two
    segments (4000 and 4192 bytes) in the peer's writable memory.  The
    server must answer RDMA_NOMSG with the whole reply in the Reply chunk
    (a Long Reply, RFC 8166 section 3.5.4), filling the first segment
    before the second, its header saying how much went into each; the
    READ must return what a WRITE in a Read chunk put at START first."""
    def run(runner, conn, xid):
        data = test_pattern(6000, seed)
        why = write_to_read_back(runner, conn, xid, start, data)
        if why:
            return why

        xid += 0x100
        mem = conn.writable()
        offered = [4000, 4192]
        reply_chunk, _ = write_chunks(mem, [offered])
        read = op_lookups(runner.args.chunk_file) + [op_read(start, len(data))]
        event, why = call_with_chunks(runner, conn, xid, compound_args(read),
                                      'READ with a Reply chunk received',
                                      reply_chunk=reply_chunk)
        if why:
            return why
        try:
            proc, chunks, reply, start_of_rpc = reply_chunk_lists(event.data)
        except ValueError as err:
            return str(err)
        if proc != RDMA_NOMSG or chunks or reply is None or \
                start_of_rpc != len(event.data):
            return ('not an RDMA_NOMSG with only a Reply chunk: ' +
                    describe(event, False))
        written = [length for _, length, _ in reply]
        if len(written) != 2 or written[0] != offered[0] or \
                not 0 < written[1] <= offered[1]:
            return ('Reply chunk says %s written into segments of %s'
                    % (written, offered))
        runner.note('a %d-byte reply in the Reply chunk' % sum(written))
        try:
            status, results = compound_reply(mem.read(sum(written), 0), 0,
                                             xid)
        except ValueError as err:
            return 'the reply in the Reply chunk: %s' % err
        if status != NFS4_OK:
            return 'COMPOUND status %d' % status
        got = [res[1] for op, _, res in results if op == OP_READ]
        if got != [data]:
            return 'the READ in the Reply chunk did not return the data written'
        return None
    return run


# Where in the chunk file the large-io case writes: past every other
# case's bytes.
LARGE_IO_START = 65536
# How long its READ may take: 4 MiB read from tmpfs and placed by RDMA
# Write took more than --timeout's 10 s on the 7.2 debug kernel under
# TCG, and less than 60 s.
LARGE_IO_TIMEOUT = 90


def large_io(runner, conn, xid):
    """Write --large-io bytes (the server's largest payload) with one
    NFSv4 WRITE whose data is a Read chunk of one segment, then read
    them back with one READ offered a Write chunk of one segment: the
    server must take the whole WRITE (its count), place the whole READ
    in the chunk (its Write list), and return the bytes written."""
    size = runner.args.large_io
    data = random.Random(size).randbytes(size)
    conn.readable(size + 64)
    lookups = op_lookups(runner.args.chunk_file)
    ops = lookups + op_write_chunk(LARGE_IO_START, ReadChunk(data))
    results, why = compound_call(runner, conn, xid, compound_parts(ops),
                                 'a %d-byte WRITE in a Read chunk received'
                                 % size)
    if why:
        return why
    counts = [r.u32() for op, _, r in results if op == OP_WRITE]
    if counts != [size]:
        return 'WRITE counts %s, expected [%d]' % (counts, size)
    runner.file_written(LARGE_IO_START, data)

    xid += 0x100
    mem = conn.writable(size + 64)
    write_list, _ = write_chunks(mem, [[size]])
    read = lookups + [op_read(LARGE_IO_START, size)]
    answer, why = read_into_write_list(
        runner, conn, xid, read, write_list,
        'a %d-byte READ with a Write chunk received' % size,
        timeout=max(LARGE_IO_TIMEOUT, runner.args.timeout))
    if why:
        return 'READ: ' + why
    _, written, _ = answer
    if written != [[size]]:
        return 'Write list says %s written, expected [[%d]]' % (written, size)
    if mem.read(size, 0) != data:
        return 'the Write chunk does not hold the %d bytes written' % size
    return None


def read_big_file(runner, conn, xid, length, chunks, expect, label):
    """Send an NFSv4 READ of LENGTH bytes from the start of the mount's
    background file, after an empty Read list and CHUNKS (the encoded
    Write list and Reply chunk), again while the server answers
    NFS4ERR_DELAY or NFS4ERR_GRACE; then judge the answer against EXPECT.
    Returns why it is wrong, or None."""
    lookups = op_lookups(runner.args.big_file)
    read = lookups + [op_read(0, length)]
    wait = max(o.wait(runner.args) for o in expect)
    deadline = time.monotonic() + NFS4_RETRY_SECONDS
    while True:
        call = rpc_compound_call(xid) + compound_args(read)
        message = xdr(xid, 1, runner.args.credits, 0, 0) + chunks + call
        if not conn.send(message):
            return 'could not send the READ'
        event = conn.next_event(wait)
        runner.note('%s: %s' % (label, describe(event)))
        if isinstance(event, Message) and words(event.data)[3:4] == [0] \
                and words(event.data)[4:7] == [0, 0, 0]:
            try:
                status, _ = compound_results(event.data, xid)
            except ValueError as err:
                return str(err)
            if status in (NFS4ERR_DELAY, NFS4ERR_GRACE) and \
                    time.monotonic() < deadline:
                time.sleep(1)
                xid += 1
                continue
        if isinstance(event, Closed) and not event.cm_disconnected and \
                any(isinstance(o, ServerCloses) for o in expect):
            conn.wait_cm_disconnect(wait)
            event = conn.closed_event()
        return judge(expect, event, range(xid, xid + 1))


def large_reply_without_chunks(reply_chunk_length):
    """Case builder: an NFSv4 READ of 64 KiB from the mount's background
    file, whose reply cannot go inline, offered no Write list and either
    no Reply chunk (REPLY_CHUNK_LENGTH None) or a Reply chunk too small
    for it.  The server must answer ERR_CHUNK (RFC 8166 section 4.5.2);
    the stock 6.12 server wrote past its Send buffer on such a call."""
    def run(runner, conn, xid):
        reply_chunk = xdr(0)
        if reply_chunk_length is not None:
            reply_chunk = (xdr(1, 1, BOGUS_HANDLE, reply_chunk_length) +
                           xdr_hyper(BOGUS_OFFSET))
        return read_big_file(runner, conn, xid, 65536, xdr(0) + reply_chunk,
                             (ERR_CHUNK_REPLY,), 'READ of 64 KiB received')
    return run


# What the write-chunk cases fill the peer's writable memory with first.
UNWRITTEN = 0xee


def read_into_bad_write_chunk(chunk_length, handle_xor, expect):
    """Case builder: an NFSv4 READ of 1501 bytes offered a Write chunk of
    CHUNK_LENGTH bytes in the peer's writable memory, its handle XORed
    with HANDLE_XOR (0: the real one), and nothing else: the answer must
    be one of EXPECT, and neither the chunk nor the memory after it may
    have been written."""
    def run(runner, conn, xid):
        mem = conn.writable()
        mem.write(bytes([UNWRITTEN]) * 2 * chunk_length, 0)
        write_list, _ = write_chunks(mem, [[chunk_length]])
        if handle_xor:
            write_list = (write_list[:8] +
                          xdr(mem.rkey ^ handle_xor) + write_list[12:])
        why = read_big_file(runner, conn, xid, 1501,
                            write_list + xdr(0, 0), expect,
                            'READ of 1501 bytes received')
        after = mem.read(2 * chunk_length, 0)
        inside = sum(b != UNWRITTEN for b in after[:chunk_length])
        past = sum(b != UNWRITTEN for b in after[chunk_length:])
        runner.note('bytes changed in the Write chunk: %d, past its end: %d'
                    % (inside, past))
        if not why and (inside or past):
            why = 'the server wrote into a Write chunk it answered with an error'
        return why
    return run


# The Send Queue stall case: how long the server may keep a connection
# whose Send Queue retires nothing (its sq_stall_timeout sysctl: 10 s by
# default, 2 s in test 70), counted from the last call sent.
SQ_STALL_LIMIT = 40


def read_status(runner, conn, xid, length):
    """An NFSv4 READ of LENGTH bytes (inline, no chunks) from the mount's
    background file, again while the server answers NFS4ERR_DELAY or
    NFS4ERR_GRACE.  Returns (why it did not succeed or None, the credits
    the answer granted)."""
    read = compound_args(op_lookups(runner.args.big_file) +
                         [op_read(0, length)])
    deadline = time.monotonic() + NFS4_RETRY_SECONDS
    while True:
        message = (xdr(xid, 1, runner.args.credits, RDMA_MSG, 0, 0, 0) +
                   rpc_compound_call(xid) + read)
        if not conn.send(message):
            return 'could not send the READ', 0
        event = conn.next_event(runner.args.timeout)
        if not isinstance(event, Message):
            return 'the READ got ' + describe(event), 0
        try:
            status, _ = compound_results(event.data, xid)
        except ValueError as err:
            return str(err), 0
        if status in (NFS4ERR_DELAY, NFS4ERR_GRACE) and \
                time.monotonic() < deadline:
            time.sleep(1)
            xid += 1
            continue
        grant = words(event.data)[2]
        if status != NFS4_OK:
            return 'the READ failed: %d' % status, grant
        return None, grant


def raise_grant(runner, conn, xid, grant):
    """Bursts of as many NULL calls as the grant allows, until the grant
    the replies carry stops growing (a server that adapts its grant, as
    ours does, grows it while a third of it is held).  Returns (why it
    failed or None, the grant reached)."""
    steady = 0
    for burst in range(32):
        first = xid + burst * 256
        for i in range(grant):
            if not conn.send(null_call(first + i, runner.args)[0]):
                return 'a NULL call of burst %d could not be sent' % burst, grant
        best = grant
        for _ in range(grant):
            event = conn.next_event(runner.args.timeout)
            why = RPC_NULL_REPLY.check(event, range(first, first + grant))
            if why:
                return 'burst %d: %s' % (burst, why), grant
            best = max(best, words(event.data)[2])
        if best == grant:
            steady += 1
            if steady == 3:
                break
        else:
            steady = 0
            grant = best
    return None, grant


def read_then_raise_grant(runner, conn, xid):
    """A READ to learn the server's first grant, then raise_grant().
    Returns (why it failed or None, the grant reached)."""
    why, grant = read_status(runner, conn, xid, 512)
    if why:
        return 'the READ before the stall: ' + why, grant
    first_grant = grant
    why, grant = raise_grant(runner, conn, xid + 0x10000, grant)
    if why:
        return 'raising the grant: ' + why, grant
    runner.note('the grant went from %d to %d under bursts of NULL calls'
                % (first_grant, grant))
    return None, grant


def send_queue_stall(runner, conn, xid):
    """A client that stops posting Receives, on a connection whose RNR
    retry count (7, from our connect request) makes the server's Sends
    retry for ever, then asks for its whole credit grant of 64 KiB
    READs, each into a Write chunk of 16 segments of 4 KiB: 17 Send Queue
    entries a reply (an RDMA Write a segment, then the Send), where the
    server's Send Queue holds about 4 per credit of its largest grant.
    A server that starts with a small grant is first made to raise it
    with bursts of NULL calls (raise_grant()).  The server's nfsd
    threads must not wait for room for ever (a remote denial of
    service): the server must close this connection within
    SQ_STALL_LIMIT seconds, and serve the others meanwhile (the control
    case after this one, the mount's writer)."""
    why, grant = read_then_raise_grant(runner, conn, xid)
    if why:
        return why
    mem = conn.writable()
    write_list, _ = write_chunks(mem, [[4096] * 16])
    read = compound_args(op_lookups(runner.args.big_file) +
                         [op_read(0, 65536)])
    conn.stop_reposting()
    count = grant
    sent = 0
    for i in range(count):
        x = xid + 0x100 + i
        message = (xdr(x, 1, runner.args.credits, RDMA_MSG, 0) +
                   write_list + xdr(0, 0) + rpc_compound_call(x) + read)
        if not conn.send(message):
            break
        sent += 1
    start = time.monotonic()
    conn.wait_cm_disconnect(SQ_STALL_LIMIT)
    waited = time.monotonic() - start
    answered = len(conn.drain())
    runner.note('%d of %d 64 KiB READs sent, %d answered before our '
                'Receives ran out; then %s after %.1f s' %
                (sent, count, answered,
                 'the server disconnected' if conn.cm_disconnected
                 else 'nothing', waited))
    if not conn.cm_disconnected:
        return ('the server kept a connection whose Send Queue made no '
                'progress for %d s' % SQ_STALL_LIMIT)
    if sent < count:
        return 'the server closed before every READ was sent'
    return None


# The Read stall case: how long the server may keep a connection whose
# RDMA Reads go unanswered (its read_timeout sysctl: 10 s by default; the
# server's half of the case in test 70 sets 1 s for this case's
# connection), counted from the last call sent; the size of each call's
# Read chunk without the server's half (with it, read_stall_chunk());
# the largest it may be (nfsd's largest payload on 7.2; a chunk past the
# server's sv_max_mesg is refused with ERR_CHUNK, no Read posted); and
# how long the server's half may take (--sync-dir).
READ_STALL_LIMIT = 30
READ_STALL_CHUNK = 256 << 10
READ_STALL_CHUNK_MAX = 4 << 20


def read_stall_chunk(said):
    """The read-stall case's Read chunk size: SAID, nfsd's largest
    payload as the server's half reads it (max_block_size), within
    READ_STALL_CHUNK and READ_STALL_CHUNK_MAX; READ_STALL_CHUNK when it
    said nothing.  A Call of that payload fits the server's sv_max_mesg,
    and three of them are more than a connection's Read limit (twice a
    largest Call), so that a small grant still finds the limit."""
    try:
        size = int(said)
    except ValueError:
        return READ_STALL_CHUNK
    return max(READ_STALL_CHUNK, min(size, READ_STALL_CHUNK_MAX))
READ_STALL_SYNC = 180


def read_stall(runner, conn, xid):
    """A client whose adapter stops answering RDMA Reads: on a connection
    of its own, it raises its grant with bursts of NULL calls, then keeps
    the server's RDMA READ requests from reaching its adapter
    (read_stall.py) and sends its whole grant of NULL calls, each with a
    data item in a Read chunk (read_stall_chunk()).  The server must close the
    connection within READ_STALL_LIMIT seconds (by its read_timeout,
    before its QP's own retries run out), answer none of those calls,
    and serve the others meanwhile (the shared connection after this
    case, the control case after it, the mount's writer).  With
    --sync-dir the server guest measures its side (nfs-server.sh
    read_stall_watch): it is told before the connection is made, so that
    the connection gets a short read_timeout, when the calls are sent and
    when the connection has closed, and it says when it is done."""
    args = runner.args
    sync = PeerSync(args.sync_dir) if args.sync_dir else None
    if sync:
        sync.signal('read-stall-begin')
        why = sync.wait('read-stall-ready', READ_STALL_SYNC)
        if why:
            return why
        chunk = read_stall_chunk(sync.text('read-stall-ready'))
    else:
        chunk = READ_STALL_CHUNK
    # A connection of its own, made after the server's half set its bound.
    try:
        stall = Connection(args)
    except ConnectError as err:
        if sync:
            sync.signal('read-stall-closed')
        return 'cannot connect again: %s' % err
    drop = None
    try:
        runner.note('connected again to ' + stall.describe_server())
        why, grant = read_then_raise_grant(runner, stall, xid)
        if why:
            return why
        dev = interface_to(args.server)
        if dev is None:
            return 'no route to %s' % args.server
        drop = ReadRequestDrop(dev, stall.qp.qp_num)
        why = drop.install()
        if why:
            return why
        stall.remote_mr = RemoteReadable(stall.pd, chunk)
        sent = 0
        for i in range(grant):
            x = xid + 0x100 + i
            if not stall.send(null_call_with_read_chunk(
                    x, args, stall.remote_mr, chunk)):
                break
            sent += 1
        start = time.monotonic()
        if sync:
            sync.signal('read-stall-sent',
                        '%d\n' % (sent * chunk // 1024))
        stall.wait_cm_disconnect(READ_STALL_LIMIT)
        waited = time.monotonic() - start
        answered = len(stall.drain())
        dropped = drop.dropped()
        drop.remove()
        runner.note('%d of %d NULL calls with a %d KiB Read chunk sent; '
                    '%s RDMA READ requests dropped before our adapter; '
                    '%d calls answered; then %s after %.1f s' %
                    (sent, grant, chunk // 1024,
                     'some' if dropped is None else dropped, answered,
                     'the server disconnected' if stall.cm_disconnected
                     else 'nothing', waited))
        if not stall.cm_disconnected:
            return ('the server kept a connection whose RDMA Reads went '
                    'unanswered for %d s' % READ_STALL_LIMIT)
        if answered:
            return ('%d calls whose Read chunks were never read were '
                    'answered: the READ requests were not withheld'
                    % answered)
        if dropped == 0:
            return 'no RDMA READ request reached the filter'
        if sent < grant:
            return 'the server closed before every call was sent'
    finally:
        if drop is not None:
            drop.remove()
        stall.close()
        # The server's half waits for this, whatever became of the case.
        if sync:
            sync.signal('read-stall-closed')
    if sync:
        return sync.wait('read-stall-measured', READ_STALL_SYNC)
    return None


# The share-keys case: one host, six IPv6 addresses of its /64.
SHARE_KEY_ADDRS = ['2001:db8::5:%x' % n for n in range(1, 7)]


def server_ipv6(server):
    """The server's IPv6 address: the guests number 2001:db8::/64 as
    they number 192.0.2.0/24 (selftests/lib/guest-init.sh)."""
    if ':' in server:
        return server
    return '2001:db8::' + server.rsplit('.', 1)[1]


def share_keys(runner, conn, xid):
    """One host that shows six IPv6 addresses of its /64, a connection
    from each, all open at once: each must have its NULL call answered.
    The server guest checks that the six were one client for the credit
    budget's shares (nfs-server.sh share_keys_checks): a host chooses its
    interface identifiers, not its subnet."""
    server = server_ipv6(runner.args.server)
    dev = interface_to(server)
    if not dev:
        return 'no route to %s' % server
    added = []
    conns = []
    try:
        for addr in SHARE_KEY_ADDRS:
            status, out = run_command(['ip', '-6', 'addr', 'add',
                                       addr + '/64', 'dev', dev, 'nodad'])
            if status:
                return 'cannot add %s to %s: %s' % (addr, dev, out.strip())
            added.append(addr)
        # The provider lists the new addresses' GIDs from a work item.
        time.sleep(1)
        for n, addr in enumerate(SHARE_KEY_ADDRS):
            try:
                conns.append(Connection(runner.args, src=addr, server=server))
            except ConnectError as err:
                return 'cannot connect from %s: %s' % (addr, err)
            why = runner.exchange(conns[-1], null_call(xid + n, runner.args),
                                  (RPC_NULL_REPLY,), xid + n,
                                  label='from %s' % addr)
            if why:
                return 'from %s: %s' % (addr, why)
        runner.note('%d connections open at once, from %s to %s' %
                    (len(conns), ', '.join(SHARE_KEY_ADDRS), server))
    finally:
        for c in conns:
            c.close()
        for addr in added:
            run_command(['ip', '-6', 'addr', 'del', addr + '/64', 'dev', dev])
    return None


CASES = [
    Case('null',
         'positive control: inline RDMA_MSG with an RPC NULL call',
         null_call, (RPC_NULL_REPLY,)),
    Case('version-2',
         'transport header version 2',
         version_2, (ERR_VERS_REPLY,)),
    Case('msgp',
         'procedure RDMA_MSGP (2)',
         with_proc(RDMA_MSGP), (ERR_CHUNK_REPLY,)),
    Case('done',
         'procedure RDMA_DONE (3)',
         with_proc(RDMA_DONE), (ERR_CHUNK_REPLY,)),
    Case('proc-7',
         'unknown procedure 7',
         with_proc(7), (ERR_CHUNK_REPLY,)),
    Case('truncated-read-list',
         'Read list truncated after its "present" discriminator',
         truncated_read_list, (ERR_CHUNK_REPLY,)),
    Case('huge-write-chunk',
         'Write chunk claiming 1,000,000 segments, 8 bytes follow',
         huge_write_chunk, (ERR_CHUNK_REPLY,)),
    Case('nomsg-no-chunks',
         'RDMA_NOMSG with all three chunk lists empty',
         nomsg_without_chunks, (ERR_CHUNK_REPLY,)),
    Case('xid-vers-only',
         '8-byte header (xid and vers only) is dropped silently',
         xid_and_vers_only, (NoAnswer(),), control_after=True),
    Case('read-discrim-2',
         'Read list discriminator 2 (neither FALSE nor TRUE)',
         read_list_discriminator_2, (ERR_CHUNK_REPLY,)),
    Case('bogus-reply-chunk',
         'small reply comes back inline despite a bogus Reply chunk',
         bogus_reply_chunk, (RPC_NULL_REPLY,), control_after=True),
    Case('null',
         'positive control again on the same connection',
         null_call, (RPC_NULL_REPLY,)),
    Case('read-chunk-writes',
         'NFSv4 COMPOUND whose two WRITEs come in two Read chunks '
         '(one unaligned, one of two segments), then READ them back',
         None, (), action=writes_in_read_chunks(False, 0, 1)),
    Case('long-call-writes',
         'the same as a Long Call: the COMPOUND in a position-zero '
         'Read chunk, the two WRITEs in two more',
         None, (), action=writes_in_read_chunks(True, 2801, 3)),
    Case('write-chunk-reads',
         'NFSv4 COMPOUND with two READs offered two Write chunks (one '
         'READ of no bytes, one unaligned into two segments)',
         None, (), action=reads_in_write_chunks(5602, 5)),
    Case('reply-chunk-read',
         'NFSv4 READ of 6000 bytes offered only a Reply chunk of two '
         'segments',
         None, (), action=read_in_reply_chunk(7103, 7)),
    Case('write-chunk-too-small',
         'READ of 1501 bytes offered a 1000-byte Write chunk',
         None, (), OWN, control_after=True,
         action=read_into_bad_write_chunk(1000, 0, (ERR_CHUNK_REPLY,))),
    Case('write-chunk-bad-handle',
         'READ into a Write chunk whose handle was never registered',
         None, (), OWN,
         action=read_into_bad_write_chunk(2048, 0x80, (ServerCloses(),))),
    Case('large-reply-no-chunks',
         'READ of 64 KiB offering neither a Write list nor a Reply chunk',
         None, (), action=large_reply_without_chunks(None), peer_error=True),
    Case('large-reply-small-reply-chunk',
         'READ of 64 KiB offering only a 256-byte Reply chunk',
         None, (), action=large_reply_without_chunks(256), peer_error=True),
    Case('malformed-flood',
         'flood of malformed headers (procedure 7) gets the peer '
         'disconnected',
         unknown_proc_flood, (ServerCloses(tolerate=ERR_CHUNK_REPLY),), OWN),
    Case('long-call-bad-handle',
         'Long Call whose Read chunk handle was never registered',
         long_call_bogus_handle, (ServerCloses(), ERR_CHUNK_REPLY), OWN),
    Case('call-at-receive-size',
         'a call as large as the Receive the server advertised, then '
         'one byte larger',
         None, (), OWN, action=call_at_receive_size),
    Case('credit-flood',
         'ten times the credit grant of NULL calls without waiting',
         None, (), OWN, action=credit_flood),
    Case('send-queue-stall',
         'a peer that stops posting Receives while large READ replies '
         'fill the Send Queue gets disconnected',
         None, (), OWN, action=send_queue_stall),
    Case('read-stall',
         'a peer that stops answering RDMA Reads while its whole grant of '
         'calls with Read chunks of the largest payload nfsd takes waits '
         'gets disconnected',
         None, (), OWN, action=read_stall),
    Case('share-keys',
         'one host connecting from six IPv6 addresses of its /64 is one '
         'client for the credit budget',
         None, (), OWN, action=share_keys),
    Case('large-io',
         'NFSv4 WRITE of the server\'s largest payload in one Read chunk, '
         'then a READ of it into one Write chunk',
         None, (), OWN, action=large_io),
    Case('null',
         'positive control on a fresh connection after the attacks',
         null_call, (RPC_NULL_REPLY,), OWN),
]


def generated(args, count=None):
    """The generated cases (mutations.py) as Case records, keyed
    gen-seed, gen-field and gen-random; with COUNT, an evenly spread
    subset of that many."""
    cases = []
    for m in generated_cases(args, args.random, args.random_seed):
        cases.append(Case('gen-' + m.key, '%s: %s' % (m.name, m.outcome),
                          None, (),
                          OWN if m.outcome in (Outcome.CLOSES,
                                               Outcome.RPC_CLOSES) else SHARED,
                          action=m.run,
                          peer_error=m.outcome in (Outcome.ERR_VERS,
                                                   Outcome.ERR_CHUNK,
                                                   Outcome.DROPPED)))
    if count is not None and count < len(cases):
        step = len(cases) / count
        cases = [cases[int(i * step)] for i in range(count)]
    return cases
