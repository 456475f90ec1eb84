# SPDX-License-Identifier: GPL-2.0
"""The hostile server's crafted replies, and what the client's RPC must
see for each.

A case replaces the server's answer to one call (its target: an NFSv3
READ, WRITE, or READDIRPLUS; the client chooses READDIRPLUS replies to
come back in a Reply chunk) by a list of actions:

    ('send', bytes)             a Send of these bytes
    ('send_inv', bytes, rkey)   a Send With Invalidate of RKEY
    ('write', segments, bytes)  RDMA Write into the client's segments
    ('disconnect',)             the server closes the connection
    ('sleep', seconds)
    ('renegotiate', size)       later connections offer this inline size
    ('on_reconnect', bytes)     a Send of these bytes on the next connection,
                                as soon as it is accepted

Every case states the outcome the application must see:

    OK          the call succeeds and the connection stays
    RECONNECT   the call succeeds, and the connection is replaced: the
                reply was lost to the client (the RPC timed out, the
                client reconnected and retransmitted), or the connection
                was reset around it
    EIO         the call fails with EIO and the connection stays (a reply
                the client matched to the call but cannot use:
                RDMA_ERROR, a malformed header, chunks it did not offer)

The outcomes follow from RFC 8166 and the client's design: a message too
short for the fixed header, of another version, with an XID that is not
outstanding, or larger than the Receive buffer cannot be matched, so the
RPC waits for its retransmission; a matched reply that is wrong fails
the RPC; the credit value is clamped to [1, what the client asked for].
"""

from header import (RDMA_DONE, RDMA_ERROR, RDMA_MSG, RDMA_MSGP, RDMA_NOMSG,
                    ERR_CHUNK, ERR_VERS, RPCRDMA_VERSION)
from xdr import xdr, xdr_hyper

OK, RECONNECT, EIO = 'ok', 'reconnect', 'eio'

NFS3_GETATTR, NFS3_READ, NFS3_WRITE, NFS3_READDIRPLUS = 1, 6, 7, 17
TARGET_NAMES = {NFS3_GETATTR: 'GETATTR', NFS3_READ: 'READ',
                NFS3_WRITE: 'WRITE', NFS3_READDIRPLUS: 'READDIRPLUS'}

BOUNDARY = (0, 1, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff)
BOGUS_HANDLE = 0xbad0bad0


class Reply:
    """What a case builds from: the call it answers and the correct
    answer.  FIELDS are the transport header's four fixed words; LISTS
    the encoded chunk lists (three zero words when inline)."""

    def __init__(self, xid, credits, rpc, room, offered_reply=None):
        self.xid, self.credits, self.rpc = xid, credits, rpc
        # Bytes that may follow inline(): within the inline threshold,
        # which is also the size of the client's Receive buffers (the
        # smaller of its private data's Receive size and our Send size:
        # RFC 8797 clients post no more than the server sends).
        self.room = room
        self.offered_reply = offered_reply or []    # [(handle, length, offset)]

    def fixed(self, xid=None, vers=RPCRDMA_VERSION, credits=None, proc=RDMA_MSG):
        return xdr(self.xid if xid is None else xid & 0xffffffff, vers,
                   self.credits if credits is None else credits, proc)

    def inline(self, **kw):
        """The correct inline reply, with fixed-header fields overridden."""
        return self.fixed(**kw) + xdr(0, 0, 0) + self.rpc

    def with_lists(self, lists, proc=RDMA_MSG, body=True):
        return self.fixed(proc=proc) + lists + (self.rpc if body else b'')

    def reply_chunk_reply(self, lengths=None, handles=None, proc=RDMA_NOMSG,
                          body=False):
        """Actions of a reply through the offered Reply chunk: the RDMA
        Write of the RPC reply, then the header returning the chunk with
        LENGTHS and HANDLES (default: what was written, the offered ones)."""
        segs, pos = [], 0
        for handle, length, offset in self.offered_reply:
            used = max(0, min(length, len(self.rpc) - pos))
            segs.append((handle, used, offset))
            pos += used
        lengths = lengths or [s[1] for s in segs]
        handles = handles or [s[0] for s in segs]
        chunk = xdr(1, len(lengths))
        for i, length in enumerate(lengths):
            offset = segs[min(i, len(segs) - 1)][2]
            chunk += xdr(handles[i], length) + xdr_hyper(offset)
        hdr = self.fixed(proc=proc) + xdr(0, 0) + chunk
        return [('write', [s for s in segs if s[1]], self.rpc),
                ('send', hdr + (self.rpc if body else b''))]


class Case:
    """NAME, the TARGET procedure, BUILD(Reply) giving the actions, the
    outcome EXPECTed, whether make check runs it (FAST), and whether the
    driver then checks a 1 KiB write (WRITE_AFTER: with a 1 KiB inline
    size the client must move the data to a Read chunk)."""

    def __init__(self, name, target, build, expect, fast=False,
                 write_after=False):
        self.name, self.target, self.build = name, target, build
        self.expect, self.fast, self.write_after = expect, fast, write_after


def seg(handle=BOGUS_HANDLE, length=4096, offset=0x10000):
    return xdr(handle, length) + xdr_hyper(offset)


def send(build):
    """A case builder sending the one message BUILD(reply) returns."""
    return lambda r: [('send', build(r))]


def cases():
    out = []

    def add(name, build, expect, target=NFS3_READ, fast=False,
            write_after=False):
        out.append(Case(name, target, build, expect, fast, write_after))

    # Positive controls.
    add('control-inline', send(lambda r: r.inline()), OK, fast=True)
    add('control-reply-chunk', lambda r: r.reply_chunk_reply(), OK,
        NFS3_READDIRPLUS, fast=True)
    add('control-inline-not-using-reply-chunk', send(lambda r: r.inline()),
        OK, NFS3_READDIRPLUS)

    # The fixed header, field by field, at boundary values.
    for v in BOUNDARY + ('xid+1', 'xid-1', 'xid^msb'):
        def xid_of(r, v=v):
            if v == 'xid+1':
                return r.xid + 1
            if v == 'xid-1':
                return r.xid - 1
            if v == 'xid^msb':
                return r.xid ^ 0x80000000
            return v
        add('xid-%s' % (v if isinstance(v, str) else '%#x' % v),
            send(lambda r, f=xid_of: r.inline(xid=f(r))), RECONNECT,
            fast=v == 'xid+1')
    for v in (0, 2, 3, 255, 256) + BOUNDARY[2:]:
        add('version-%#x' % v, send(lambda r, v=v: r.inline(vers=v)), RECONNECT,
            fast=v == 2)
    for v in (0, 1, 2, 31, 32, 33, 255, 256, 65535, 65536) + BOUNDARY[2:]:
        add('credits-%#x' % v, send(lambda r, v=v: r.inline(credits=v)), OK,
            fast=v in (0, 65535))
    for v in (RDMA_MSGP, RDMA_DONE, 5, 6, 255) + BOUNDARY[2:]:
        add('proc-%#x' % v, send(lambda r, v=v: r.inline(proc=v)), EIO,
            fast=v == RDMA_MSGP)
    add('proc-nomsg-without-reply-chunk',
        send(lambda r: r.inline(proc=RDMA_NOMSG)), EIO, fast=True)
    add('proc-error-without-body',
        send(lambda r: r.fixed(proc=RDMA_ERROR)), EIO)

    # Cut short: without the 16-byte fixed header nothing can be matched.
    for n in range(0, 16):
        add('cut-at-%d' % n, send(lambda r, n=n: r.inline()[:n]), RECONNECT,
            fast=n in (0, 15))
    for n in (16, 17, 19, 20, 23, 24, 27):
        add('cut-at-%d' % n, send(lambda r, n=n: r.inline()[:n]), EIO,
            fast=n == 20)

    # The transport header is right but the RPC reply in it is cut.  In
    # the RPC header (24 bytes here), sunrpc counts garbage and
    # retransmits, disconnecting first on a stream-like transport (NFS
    # sets "discrtry" for RDMA); without the NFS status, the call fails;
    # inside the READ data, NFS takes the short read and asks again for
    # the rest, which the server then answers correctly.
    for n in (4, 8, 12, 16, 20):
        add('rpc-header-cut-at-%d' % n,
            send(lambda r, n=n: r.inline()[:28 + n]), RECONNECT, fast=n == 12)
    add('nfs-status-missing', send(lambda r: r.inline()[:28 + 24]), EIO,
        fast=True)
    # Not a whole number of XDR words: sunrpc treats it as garbage too.
    add('rpc-reply-of-26-bytes', send(lambda r: r.inline()[:28 + 26]),
        RECONNECT)
    add('rpc-reply-one-byte-short', send(lambda r: r.inline()[:-1]),
        RECONNECT)
    for n in (4, 8):
        add('read-data-cut-by-%d' % n,
            send(lambda r, n=n: r.inline()[:-n]), OK, fast=n == 4)
    add('read-data-cut-in-half',
        send(lambda r: r.inline()[:-(len(r.rpc) // 2)]), OK)

    # Chunk lists on an inline reply to a call that offered none.
    for v in (2, 3) + BOUNDARY[2:]:
        add('read-list-discriminator-%#x' % v,
            send(lambda r, v=v: r.with_lists(xdr(v) + seg() + xdr(0, 0, 0))),
            EIO)
        add('write-list-discriminator-%#x' % v,
            send(lambda r, v=v: r.with_lists(xdr(0, v, 1) + seg() + xdr(0, 0))),
            EIO)
        add('reply-chunk-discriminator-%#x' % v,
            send(lambda r, v=v: r.with_lists(xdr(0, 0, v, 1) + seg())), EIO)
    for pos in (0, 1, 0xffffffff):
        for length in (0, 4096):
            add('read-list-in-reply-position-%#x-length-%d' % (pos, length),
                send(lambda r, p=pos, n=length:
                     r.with_lists(xdr(1, p) + seg(length=n) + xdr(0, 0, 0))),
                EIO, fast=(pos, length) == (0, 4096))
    for field in ('handle', 'length', 'offset'):
        for v in BOUNDARY:
            kw = {field: v if field != 'offset' else v << 32 | v}
            add('read-list-in-reply-%s-%#x' % (field, v),
                send(lambda r, kw=kw: r.with_lists(
                    xdr(1, 0) + seg(**kw) + xdr(0, 0, 0))), EIO)
    for count in (0, 1, 2, 16, 17, 255) + BOUNDARY[2:]:
        add('write-chunk-not-offered-%d-segments' % count,
            send(lambda r, c=count: r.with_lists(
                xdr(0, 1, c) + seg() * min(c, 2) + xdr(0, 0))),
            EIO, fast=count == 1)
    for field in ('handle', 'length', 'offset'):
        for v in BOUNDARY:
            kw = {field: v if field != 'offset' else v << 32 | v}
            add('write-chunk-not-offered-%s-%#x' % (field, v),
                send(lambda r, kw=kw: r.with_lists(
                    xdr(0, 1, 1) + seg(**kw) + xdr(0, 0))), EIO)
    add('two-write-chunks-not-offered',
        send(lambda r: r.with_lists(xdr(0, 1, 1) + seg() + xdr(1, 1) + seg() +
                                    xdr(0, 0))), EIO)
    for count in (0, 1, 2) + BOUNDARY[2:]:
        add('reply-chunk-not-offered-%d-segments' % count,
            send(lambda r, c=count: r.with_lists(
                xdr(0, 0, 1, c) + seg() * min(c, 2))),
            EIO, fast=count == 1)
    for length in (0, 1, 4096, 0xffffffff):
        add('nomsg-reply-chunk-not-offered-length-%#x' % length,
            send(lambda r, n=length: r.with_lists(
                xdr(0, 0, 1, 1) + seg(length=n), proc=RDMA_NOMSG, body=False)),
            EIO)

    # The Reply chunk the call offered, misused.
    def rc_case(name, build, expect, fast=False):
        add(name, build, expect, NFS3_READDIRPLUS, fast)

    rc_case('reply-chunk-in-rdma-msg',
            lambda r: r.reply_chunk_reply(proc=RDMA_MSG, body=True), EIO,
            fast=True)
    rc_case('reply-chunk-longer-than-offered',
            lambda r: r.reply_chunk_reply(
                lengths=[r.offered_reply[0][1] + 4] +
                [s[1] for s in r.offered_reply[1:]]), EIO)
    rc_case('reply-chunk-other-handle',
            lambda r: r.reply_chunk_reply(
                handles=[BOGUS_HANDLE] + [s[0] for s in r.offered_reply[1:]]),
            EIO, fast=True)
    rc_case('reply-chunk-more-segments-than-offered',
            lambda r: r.reply_chunk_reply(
                lengths=[s[1] for s in r.offered_reply] + [4],
                handles=[s[0] for s in r.offered_reply] + [BOGUS_HANDLE]),
            EIO)
    rc_case('reply-chunk-length-0',
            lambda r: r.reply_chunk_reply(lengths=[0] * len(r.offered_reply)),
            EIO)
    rc_case('reply-chunk-and-write-chunk',
            lambda r: r.reply_chunk_reply()[:1] + [
                ('send', r.fixed(proc=RDMA_NOMSG) + xdr(1, 1) + seg() +
                 xdr(0, 1, 1) + seg(*r.offered_reply[0]))], EIO)
    rc_case('reply-chunk-written-then-disconnect',
            lambda r: r.reply_chunk_reply()[:1] + [('disconnect',)], RECONNECT,
            fast=True)
    rc_case('reply-chunk-send-with-invalidate-of-its-handle',
            lambda r: r.reply_chunk_reply()[:1] + [
                ('send_inv', r.reply_chunk_reply()[1][1],
                 r.offered_reply[0][0])], OK)

    # RDMA_ERROR, with good bodies and bad ones.
    for low, high in ((1, 1), (2, 2), (0, 0), (1, 0xffffffff), (0xffffffff, 0)):
        add('err-vers-%d-%d' % (low, high),
            send(lambda r, lo=low, hi=high:
                 r.fixed(proc=RDMA_ERROR) + xdr(ERR_VERS, lo, hi)), EIO,
            fast=(low, high) == (2, 2))
    add('err-chunk', send(lambda r: r.fixed(proc=RDMA_ERROR) + xdr(ERR_CHUNK)),
        EIO, fast=True)
    add('err-chunk-with-trailing-words',
        send(lambda r: r.fixed(proc=RDMA_ERROR) + xdr(ERR_CHUNK, 7, 7)), EIO)
    add('err-vers-without-versions',
        send(lambda r: r.fixed(proc=RDMA_ERROR) + xdr(ERR_VERS)), EIO)
    add('err-vers-without-high',
        send(lambda r: r.fixed(proc=RDMA_ERROR) + xdr(ERR_VERS, 1)), EIO)
    for code in (0, 3, 0x7fffffff, 0xffffffff):
        add('err-code-%#x' % code,
            send(lambda r, c=code: r.fixed(proc=RDMA_ERROR) + xdr(c)), EIO)
    add('err-chunk-version-2',
        send(lambda r: r.fixed(proc=RDMA_ERROR, vers=2) + xdr(ERR_CHUNK)), RECONNECT)
    add('err-chunk-unknown-xid',
        send(lambda r: r.fixed(proc=RDMA_ERROR, xid=r.xid + 1) + xdr(ERR_CHUNK)),
        RECONNECT)

    # More than the client's Receive buffer holds (our Send size, or its
    # private data's Receive size if smaller): the Receive fails and
    # takes the connection down.
    for extra in (1, 4, 4096, 30000):
        add('oversize-by-%d' % extra,
            lambda r, x=extra: [('send', r.inline() + bytes(r.room + x))],
            RECONNECT, fast=extra == 1)

    # Extra messages around the right one.
    add('reply-twice', lambda r: [('send', r.inline())] * 2, OK, fast=True)
    add('reply-then-garbage-same-xid',
        lambda r: [('send', r.inline()), ('send', r.fixed() + b'\xff' * 12)], OK)
    add('garbage-other-xid-then-reply',
        lambda r: [('send', r.inline(xid=r.xid + 7)), ('send', r.inline())], OK)
    add('short-message-then-reply',
        lambda r: [('send', xdr(r.xid)), ('send', r.inline())], OK)
    # Backchannel Calls on a mount without a backchannel (NFSv3): the
    # client resets the connection, and the reply after them may or may
    # not arrive first.
    for name, body in (('empty', b''), ('short', xdr(1)),
                       ('bad-rpc-version', xdr(2, 3, 0x40000000, 1, 0)),
                       ('cb-null', xdr(2, 0x40000000, 1, 0, 0, 0, 0, 0)),
                       ('huge-program', xdr(2, 0xffffffff, 0xffffffff, 0xffffffff))):
        add('backchannel-call-%s-then-reply' % name,
            lambda r, b=body: [('send', r.fixed(xid=r.xid ^ 0x40000000) +
                                xdr(0, 0, 0, r.xid ^ 0x40000000, 0) + b),
                               ('send', r.inline())], RECONNECT,
            fast=name == 'cb-null')

    # Send With Invalidate of rkeys this call never offered.
    for rkey in (0, 1, BOGUS_HANDLE, 0xffffffff):
        add('send-with-invalidate-not-offered-%#x' % rkey,
            lambda r, k=rkey: [('send_inv', r.inline(), k)], RECONNECT,
            fast=rkey == BOGUS_HANDLE)

    # The connection itself.
    add('disconnect-instead-of-reply', lambda r: [('disconnect',)], RECONNECT,
        fast=True)
    add('reply-then-disconnect',
        lambda r: [('send', r.inline()), ('disconnect',)], RECONNECT)
    add('reply-after-2s', lambda r: [('sleep', 2), ('send', r.inline())], OK)
    # The reply to a call of a connection that is gone, sent the moment
    # the next connection comes up, before (or while) the client sends
    # the call again there: the client must not let it race the
    # retransmission, which rebuilds the same slot.  Its content is
    # right, so the client may take it once the call is sent again.
    add('disconnect-then-reply-on-the-next-connection',
        lambda r: [('on_reconnect', r.inline()), ('disconnect',)],
        RECONNECT, fast=True)
    add('renegotiate-1024-byte-inline',
        lambda r: [('renegotiate', 1024), ('disconnect',)], RECONNECT,
        fast=True, write_after=True)
    add('renegotiate-4096-byte-inline',
        lambda r: [('renegotiate', 4096), ('disconnect',)], RECONNECT, fast=True)
    return out


CASES = cases()


def select(names=None, fast=False):
    """The cases to run: all, the fast subset, or those NAMES."""
    if names:
        wanted = set(names)
        chosen = [c for c in CASES if c.name in wanted]
        unknown = wanted - {c.name for c in chosen}
        if unknown:
            raise KeyError('unknown cases: ' + ', '.join(sorted(unknown)))
        return chosen
    return [c for c in CASES if c.fast or not fast]


def check_unique():
    names = [c.name for c in CASES]
    dup = {n for n in names if names.count(n) > 1}
    assert not dup, dup


check_unique()
