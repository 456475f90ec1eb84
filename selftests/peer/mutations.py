# SPDX-License-Identifier: GPL-2.0
"""Generated cases for the hostile peer: well-formed calls (the seeds) with
one field set to a boundary value, cut short at every length, or changed
at random (seeded, so every run sends the same bytes).  Each case's
expected answer comes from call_outcome(), a model of how a responder
must treat a call under RFC 8166 and the limits our server announces in
svcrdma/server.h; the test checks the server against it.

The expected answers:
    ERR_VERS            the version is not 1 (RFC 8166 section 4.2)
    ERR_CHUNK           any other header the server cannot decode or use:
                        bad procedure, bad discriminator, truncated lists,
                        too many chunks or segments, unaligned or
                        overlapping positions, a chunk that does not fit
                        the server's largest message (sections 4.5, 5)
    dropped             fewer than 16 bytes (no xid to answer), or an
                        RDMA_ERROR sent by a requester: nothing comes back
    NULL reply          the call is intact: the RPC NULL reply comes back
    closes              the server must RDMA Read from memory the peer never
                        registered: the Read fails and the connection ends
    RPC layer           the header is valid but the RPC message it frames
                        is not the seed's: the transport must hand it on,
                        so the answer is an RPC reply (any status) or none,
                        never an RDMA_ERROR and never a disconnect
    RPC layer closes    the same, for a call shorter than an RPC call
                        header: svc_process() closes the connection
"""

import dataclasses
import random
import struct

from header import (BOGUS_HANDLE, BOGUS_OFFSET, RDMA_ERROR, RDMA_MSG,
                    RDMA_NOMSG, RPCRDMA_VERSION)
from expect import (ERR_CHUNK_REPLY, ERR_VERS_REPLY, Message, ServerCloses,
                    Silence, describe, judge, observe)
from rpc import check_rpc_accepted, rpc_null_call, RPC_REPLY
from xdr import words, xdr

# The server's decoding limits (svcrdma/server.h) and the largest Call it
# takes (nfsd's sv_max_mesg: at least 64 KiB, at most 1 MiB + a page, by
# the guest's memory).  Generated lengths stay clear of the range between.
MAX_READ_CHUNKS = 8
MAX_READ_SEGS = 16
MAX_WRITE_CHUNKS = 4
MAX_CHUNK_SEGS = 16
MAX_CHUNKS = MAX_READ_CHUNKS + MAX_WRITE_CHUNKS
MAX_SEGS = MAX_READ_SEGS + (MAX_WRITE_CHUNKS + 1) * MAX_CHUNK_SEGS
MESG_AT_LEAST = 65536
MESG_AT_MOST = (1 << 20) + 4096

# Stand-ins in a seed for the handle and address of the peer's remotely
# readable memory (RemoteReadable), filled in when the case is sent.
VALID_HANDLE = 'valid-handle'
VALID_ADDR_HI = 'valid-addr-hi'
VALID_ADDR_LO = 'valid-addr-lo'
READABLE_SIZE = 65536

BOUNDARY = (0, 1, 2, 3, 4, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff)


# ---------------------------------------------------------------------------
# Seeds: a message as named 32-bit header words plus the RPC message.

@dataclasses.dataclass
class Seed:
    name: str
    fields: list            # [(field name, value or stand-in)], in order
    payload: bytes          # the RPC message after the header, if inline
    readable: bytes = b''   # what the peer's readable memory holds

    def header_words(self):
        return [v for _, v in self.fields]


def _segment(prefix, handle, length, offset):
    hi, lo = (offset >> 32, offset & 0xffffffff) if isinstance(offset, int) \
        else offset
    return [(prefix + 'handle', handle), (prefix + 'length', length),
            (prefix + 'offset-hi', hi), (prefix + 'offset-lo', lo)]


def _fixed(xid, proc):
    return [('xid', xid), ('vers', RPCRDMA_VERSION), ('credits', 16),
            ('proc', proc)]


def seeds(xid, args):
    """The well-formed calls every mutation starts from, all RPC NULL."""
    call = rpc_null_call(xid, args)
    return [
        Seed('msg', _fixed(xid, RDMA_MSG) +
             [('read-list', 0), ('write-list', 0), ('reply-chunk', 0)], call),
        Seed('msg-reply-chunk', _fixed(xid, RDMA_MSG) +
             [('read-list', 0), ('write-list', 0), ('reply-chunk', 1),
              ('reply-count', 1)] +
             _segment('reply-', BOGUS_HANDLE, 1024, BOGUS_OFFSET), call),
        Seed('msg-write-chunk', _fixed(xid, RDMA_MSG) +
             [('read-list', 0), ('write-list', 1), ('write-count', 1)] +
             _segment('write-', BOGUS_HANDLE, 4096, BOGUS_OFFSET) +
             [('write-list-end', 0), ('reply-chunk', 0)], call),
        Seed('msg-read-chunk', _fixed(xid, RDMA_MSG) +
             [('read-list', 1), ('read-position', len(call))] +
             _segment('read-', BOGUS_HANDLE, 8, BOGUS_OFFSET) +
             [('read-list-end', 0), ('write-list', 0), ('reply-chunk', 0)],
             call),
        Seed('nomsg-long-call', _fixed(xid, RDMA_NOMSG) +
             [('read-list', 1), ('read-position', 0)] +
             _segment('read-', VALID_HANDLE, len(call),
                      (VALID_ADDR_HI, VALID_ADDR_LO)) +
             [('read-list-end', 0), ('write-list', 0), ('reply-chunk', 0)],
             b'', readable=call),
    ]


# ---------------------------------------------------------------------------
# The model: what a responder must answer to a call.

class Outcome:
    NULL_REPLY = 'NULL reply'
    ERR_VERS = 'ERR_VERS'
    ERR_CHUNK = 'ERR_CHUNK'
    DROPPED = 'dropped'
    CLOSES = 'closes'
    RPC_LAYER = 'RPC layer'
    RPC_CLOSES = 'RPC layer closes'


class _Short(Exception):
    pass


class _Bad(Exception):
    pass


class _Words:
    """The received message as the server's decoder sees it: whole words
    (header words may be stand-ins) and a partial word at the end."""

    def __init__(self, values, tail=b''):
        self.values, self.tail, self.pos = values, tail, 0

    def take(self, n=1):
        if self.pos + n > len(self.values):
            raise _Short()
        got = self.values[self.pos:self.pos + n]
        self.pos += n
        return got

    def remaining_bytes(self):
        return 4 * (len(self.values) - self.pos) + len(self.tail)

    def rest(self):
        """The bytes from here on (the inline Payload stream)."""
        ints = [v if isinstance(v, int) else 0 for v in self.values[self.pos:]]
        return struct.pack('>%dI' % len(ints), *ints) + self.tail


def _discrim(w):
    d, = w.take()
    if d not in (0, 1):
        raise _Bad('discriminator %r' % (d,))
    return d == 1


def _int(v):
    """A stand-in counts as a value that passes every structural rule."""
    return v if isinstance(v, int) else 0x1000


def _read_list(w):
    chunks = []         # [position, length, [segments]]
    nsegs = 0
    while _discrim(w):
        if nsegs >= MAX_READ_SEGS:
            raise _Bad('too many Read segments')
        position, handle, length, hi, lo = w.take(5)
        position, length = _int(position), _int(length)
        if position & 3:
            raise _Bad('unaligned position')
        if chunks and position < chunks[-1][0]:
            raise _Bad('decreasing position')
        if length == 0:
            raise _Bad('zero length')
        new = not chunks or position != chunks[-1][0]
        if new and len(chunks) >= MAX_READ_CHUNKS:
            raise _Bad('too many Read chunks')
        if not new and len(chunks[-1][2]) >= MAX_CHUNK_SEGS:
            raise _Bad('too many segments in a Read chunk')
        if not new and chunks[-1][1] + length > 0xffffffff:
            raise _Bad('chunk length overflows')
        if new:
            chunks.append([position, 0, []])
        chunks[-1][1] += length
        chunks[-1][2].append((handle, length, hi, lo))
        nsegs += 1
    return chunks, nsegs


def _segments(w, used):
    count, = w.take()
    if count > MAX_CHUNK_SEGS:
        raise _Bad('too many segments')
    if count > MAX_SEGS - used:
        raise _Bad('no storage')
    if count > w.remaining_bytes() // 16:
        raise _Short()
    total = 0
    for _ in range(count):
        handle, length, hi, lo = w.take(4)
        if _int(length) == 0:
            raise _Bad('zero length')
        total += _int(length)
        if total > 0xffffffff:
            raise _Bad('chunk length overflows')
    return count


def call_outcome(values, payload, seed):
    """What the server must do with a message made of the header words
    VALUES (numbers, or stand-ins for the peer's readable memory) and the
    bytes PAYLOAD after them, from a peer whose readable memory holds
    SEED.readable.  Returns an Outcome, or None when the answer depends
    on the guest's memory."""
    nbytes = 4 * len(values) + len(payload)
    if nbytes < 16:
        return Outcome.DROPPED
    stream = list(values) + words(payload)
    w = _Words(stream, payload[len(payload) & ~3:])
    xid, vers, credits, proc = w.take(4)
    if vers != RPCRDMA_VERSION:
        return Outcome.ERR_VERS
    if proc == RDMA_ERROR:
        return Outcome.DROPPED
    if proc not in (RDMA_MSG, RDMA_NOMSG):
        return Outcome.ERR_CHUNK
    try:
        chunks, nsegs = _read_list(w)
        nwrite = 0
        while _discrim(w):
            if nwrite >= MAX_WRITE_CHUNKS or len(chunks) + nwrite >= MAX_CHUNKS:
                raise _Bad('too many Write chunks')
            nsegs += _segments(w, nsegs)
            nwrite += 1
        if _discrim(w):
            nsegs += _segments(w, nsegs)
    except (_Short, _Bad):
        return Outcome.ERR_CHUNK
    inline = w.rest()
    long_call = proc == RDMA_NOMSG
    if long_call and not (chunks and chunks[0][0] == 0):
        return Outcome.ERR_CHUNK
    reduced = chunks[0][1] if long_call else len(inline)
    data = chunks[1:] if long_call else chunks
    end = removed = 0
    for position, length, _ in data:
        if position < end or position > reduced + removed:
            return Outcome.ERR_CHUNK
        removed += (length + 3) & ~3
        end = position + ((length + 3) & ~3)
    call = xdr(xid) + (seed.payload or seed.readable)[4:] \
        if isinstance(xid, int) else None
    if not chunks:
        return Outcome.NULL_REPLY if inline == call else \
            _rpc_layer(inline, len(inline))
    total = reduced + removed
    if total > MESG_AT_MOST:
        return Outcome.ERR_CHUNK
    if total > MESG_AT_LEAST:
        return None
    # Every chunk reads the peer's memory, whose start holds the seed's
    # call (the bytes after it are unknown): rebuild the message.
    memory = xdr(xid) + seed.readable[4:] if seed.readable else b''
    pieces = []
    for _, length, segs in chunks:
        offset = _readable_offset(segs)
        if offset is None or offset < 0 or offset + length > READABLE_SIZE:
            return Outcome.CLOSES
        known = offset + length <= len(memory)
        pieces.append(memory[offset:offset + length] if known else None)
    message = pieces[0] if long_call else inline
    for (position, length, _), piece in zip(data, pieces[1:] if long_call
                                            else pieces):
        if message is None or piece is None:
            message = None
            break
        message = (message[:position] + piece + bytes(-length % 4) +
                   message[position:])
    if message is not None and message == call:
        return Outcome.NULL_REPLY
    return _rpc_layer(message, total)


def _readable_offset(segs):
    """Where in the peer's readable memory a one-segment chunk starts, or
    None if it points anywhere else."""
    if len(segs) != 1:
        return None
    handle, _, hi, lo = segs[0]
    if handle != VALID_HANDLE or hi != VALID_ADDR_HI:
        return None
    if lo == VALID_ADDR_LO:
        return 0
    if isinstance(lo, tuple) and lo[0] == 'addr+':
        return lo[1]
    return None


def _rpc_layer(message, length):
    """What the RPC layer does with a call the transport hands it, when it
    is not the seed's: svc_process() closes the connection when the call
    is shorter than its header (at least xid and a CALL direction, then
    fewer than four more words), and otherwise answers or drops it."""
    if 8 <= length < 24:
        if message is None:
            return None
        if words(message[4:8]) == [0]:
            return Outcome.RPC_CLOSES
    return Outcome.RPC_LAYER


# ---------------------------------------------------------------------------
# Checking the answers.

def rpc_reply_words(data):
    """The RPC message of an inline RDMA_MSG reply (as words), after its
    chunk lists: an empty Read list, a Write list whose chunks come back
    (used or not), no Reply chunk.  None if DATA is no such reply."""
    w = words(data)
    if len(w) < 7 or w[1] != RPCRDMA_VERSION or w[3] != RDMA_MSG or w[4]:
        return None
    pos = 5
    try:
        while w[pos] == 1:
            pos += 2 + 4 * w[pos + 1]
        if w[pos] != 0 or w[pos + 1] != 0:
            return None
    except IndexError:
        return None
    return w[pos + 2:]


class NullReplyAnyLists:
    """RDMA_MSG carrying the RPC NULL reply; a Write list, if the call
    offered one, comes back with every segment unused (length 0)."""
    label = 'an RDMA_MSG with an RPC NULL reply'

    def wait(self, args):
        return args.timeout

    def tolerates(self, event, xids):
        return False

    def check(self, event, xids):
        if not isinstance(event, Message):
            return 'expected %s, got %s' % (self.label, describe(event, False))
        rpc = rpc_reply_words(event.data)
        w = words(event.data)
        if rpc is None or w[0] not in xids:
            return 'expected %s, got %s' % (self.label, describe(event, False))
        pos = 5
        while w[pos] == 1:
            lengths = w[pos + 3:pos + 2 + 4 * w[pos + 1]:4]
            if any(lengths):
                return 'Write chunk used for a NULL reply: %s' % lengths
            pos += 2 + 4 * w[pos + 1]
        why = check_rpc_accepted(rpc, w[0])
        return 'expected %s: %s' % (self.label, why) if why else None


NULL_REPLY_ANY_LISTS = NullReplyAnyLists()

CONTROL_XID_BIT = 0x8000    # the control call after a case: xid | this
GRACE = 0.3                 # seconds to wait for a late answer


def _is_rpc_reply(data, xid):
    """DATA is an RDMA_MSG of transport xid XID carrying an RPC reply.
    The reply's own xid is whatever the call's RPC header held, which in
    these cases is not always XID."""
    rpc = rpc_reply_words(data)
    return bool(rpc) and len(rpc) >= 2 and rpc[1] == RPC_REPLY and \
        words(data[:4]) == [xid]


def _dropped_or_rpc(runner, conn, message, xid, allow_rpc):
    """Send MESSAGE, then a NULL call as a control; the control's reply
    must come, and before or just after it either nothing (dropped) or,
    with ALLOW_RPC, one RPC reply to XID."""
    control = (xid & ~0xffff) | CONTROL_XID_BIT | (xid & 0x7fff)
    conn.send(message)
    conn.send(_null_message(control, runner.args))
    seen, control_seen = [], False
    deadline_wait = runner.args.timeout
    while True:
        event = conn.next_event(GRACE if control_seen else deadline_wait)
        if isinstance(event, Silence):
            break
        if not isinstance(event, Message):
            return 'the connection ended: ' + describe(event, False)
        if not control_seen and NULL_REPLY_ANY_LISTS.check(
                event, range(control, control + 1)) is None:
            control_seen = True
            continue
        seen.append(event)
    for event in seen:
        runner.note('received: ' + describe(event))
    if not control_seen:
        return 'no reply to the NULL call sent after it'
    if not seen:
        if allow_rpc:
            # The RPC layer may still answer, later than GRACE: that
            # reply is no stray when it comes (runner.unasked()).
            runner.allow_late(xid, lambda data: _is_rpc_reply(data, xid))
        return None
    if allow_rpc and len(seen) == 1 and _is_rpc_reply(seen[0].data, xid):
        return None
    return 'expected %s, got %s' % (
        'no answer or an RPC reply' if allow_rpc else 'no answer',
        describe(seen[0], False))


def _null_message(xid, args):
    return (xdr(xid, RPCRDMA_VERSION, 16, RDMA_MSG, 0, 0, 0) +
            rpc_null_call(xid, args))


# ---------------------------------------------------------------------------
# The generated cases.

@dataclasses.dataclass
class Mutation:
    key: str
    name: str
    values: list                # header words, stand-ins included
    payload: bytes
    readable: bytes
    outcome: str
    cut: int = None             # send only the first CUT bytes
    seed_xid: int = None        # the seed's xid: replaced by the case's

    def message(self, conn, xid):
        """The bytes to send on CONN, and the xid they carry: the case's
        XID unless the mutation set the xid field itself.  The RPC xid,
        inline or in readable memory, always equals it."""
        values = list(self.values)
        if values[0] == self.seed_xid:
            values[0] = xid
        if isinstance(values[0], int):
            xid = values[0]
        fill, addr = {}, 0
        if self.readable:
            mem = conn.readable()
            mem.write(xdr(xid) + self.readable[4:], 0)
            addr = mem.addr(0)
            fill = {VALID_HANDLE: mem.rkey, VALID_ADDR_HI: addr >> 32,
                    VALID_ADDR_LO: addr & 0xffffffff}
        for i, v in enumerate(values):
            if isinstance(v, str):
                values[i] = fill[v]
            elif isinstance(v, tuple) and v[0] == 'hi^':
                values[i] = (addr >> 32) ^ v[1]
            elif isinstance(v, tuple):      # ('addr+', d): both words
                moved = (addr + v[1]) & ((1 << 64) - 1)
                values[i - 1], values[i] = moved >> 32, moved & 0xffffffff
        payload = xdr(xid) + self.payload[4:] if self.payload else b''
        data = struct.pack('>%dI' % len(values), *values) + payload
        return (data if self.cut is None else data[:self.cut]), xid

    def run(self, runner, conn, xid):
        stray = runner.unasked(conn, 'before this case')
        why = self._run(runner, conn, xid)
        return '; '.join(w for w in (stray, why) if w) or None

    def _run(self, runner, conn, xid):
        data, xid = self.message(conn, xid)
        if self.outcome == Outcome.DROPPED:
            return _dropped_or_rpc(runner, conn, data, xid, False)
        if self.outcome == Outcome.RPC_LAYER:
            return _dropped_or_rpc(runner, conn, data, xid, True)
        expect = {Outcome.NULL_REPLY: (NULL_REPLY_ANY_LISTS,),
                  Outcome.ERR_VERS: (ERR_VERS_REPLY,),
                  Outcome.ERR_CHUNK: (ERR_CHUNK_REPLY,),
                  Outcome.CLOSES: (ServerCloses(),),
                  Outcome.RPC_CLOSES: (ServerCloses(),)}[self.outcome]
        if not conn.send(data):
            return 'could not send: ' + describe(conn.closed_event(), False)
        event, _ = observe(conn, expect, range(xid, xid + 1), runner.args)
        runner.note('received: ' + describe(event))
        return judge(expect, event, range(xid, xid + 1))


def _show(value):
    """A field value as a case name shows it."""
    if isinstance(value, tuple):
        op, n = value
        return ('the address %+#x' % n if op == 'addr+' else
                'the address high word ^ %#x' % n)
    return '%#x' % value


def _field_values(name, value):
    """Boundary values for one field, plus those its meaning suggests."""
    extra = ()
    if name.endswith('count'):
        extra = (MAX_CHUNK_SEGS - 1, MAX_CHUNK_SEGS, MAX_CHUNK_SEGS + 1,
                 1000000)
    elif name.endswith('length'):
        extra = (5, 4096, READABLE_SIZE, READABLE_SIZE + 1, 16 << 20)
    elif name.endswith('position'):
        extra = (36, 40, 44, 64)
    elif name == 'proc':
        extra = (5, 7, 256)
    return [v for v in dict.fromkeys(BOUNDARY + extra) if v != value]


def _mutations_of(seed):
    out = []
    values = seed.header_words()
    fixed_too = seed.name in ('msg', 'nomsg-long-call')
    for i, (name, value) in enumerate(seed.fields):
        if i < 4 and not fixed_too:
            continue
        if value == VALID_ADDR_HI:
            news = [('hi^', m) for m in (1, 0x80000000, 0xffffffff)]
        elif value == VALID_ADDR_LO:
            news = [('addr+', d) for d in
                    (-1, 1, 4, 8, READABLE_SIZE - 40, READABLE_SIZE - 39,
                     READABLE_SIZE, 1 << 31, -(1 << 31), 1 << 32)]
        else:
            news = _field_values(name, value)
        for new in news:
            mutated = list(values)
            mutated[i] = new
            out.append(('%s %s=%s' % (seed.name, name, _show(new)), mutated,
                        None))
    whole = len(values) * 4 + len(seed.payload)
    for cut in range(0, min(whole, len(values) * 4 + 12)):
        out.append(('%s cut to %d bytes' % (seed.name, cut), values, cut))
    return out


def _cut_outcome(values, payload, cut, seed):
    """The outcome of the message cut to its first CUT bytes."""
    data = struct.pack('>%dI' % len(values),
                       *[0 if isinstance(v, str) else v for v in values]) + payload
    nwords = min(len(values), cut // 4)
    return call_outcome(values[:nwords], data[nwords * 4:cut], seed)


def _random_mutations(seed_list, count, rng):
    """COUNT messages with one to three header words of a seed set to a
    random or boundary value, or cut at a random length.  Seeds whose
    Read chunk points at the peer's memory are left out: changing its
    offset or length at random reads bytes no model can predict."""
    plain = [s for s in seed_list if not s.readable]
    out = []
    for n in range(count):
        seed = rng.choice(plain)
        values = seed.header_words()
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(values))
            values[i] = rng.choice(BOUNDARY + (rng.getrandbits(32),
                                               rng.getrandbits(8)))
        cut = rng.randrange(len(values) * 4 + len(seed.payload)) \
            if rng.random() < 0.2 else None
        out.append(('%s random #%d' % (seed.name, n), seed, values, cut))
    return out


def generated_cases(args, random_count=150, random_seed=8166):
    """The generated Mutation list; duplicate messages are dropped, and so
    are those whose answer depends on the guest (call_outcome None)."""
    xid = 0x4d550000
    seen, cases = set(), []
    seed_list = seeds(xid, args)

    def add(key, name, seed, values, cut):
        payload = seed.payload
        if payload and isinstance(values[0], int):
            payload = xdr(values[0]) + payload[4:]     # as message() does
        if cut is None:
            outcome = call_outcome(values, payload, seed)
        else:
            outcome = _cut_outcome(values, payload, cut, seed)
        ident = (seed.name, tuple(values), cut)
        if outcome is None or ident in seen:
            return
        seen.add(ident)
        cases.append(Mutation(key, name, list(values), seed.payload,
                              seed.readable, outcome, cut, xid))

    for seed in seed_list:
        add('seed', seed.name + ' as is', seed, seed.header_words(), None)
    for seed in seed_list:
        for name, values, cut in _mutations_of(seed):
            add('field', name, seed, values, cut)
    rng = random.Random(random_seed)
    for name, seed, values, cut in _random_mutations(seed_list, random_count,
                                                     rng):
        add('random', name, seed, values, cut)
    return cases
