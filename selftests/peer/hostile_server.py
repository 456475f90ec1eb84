#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile RPC-over-RDMA version 1 server, to test a client (requester).

It accepts the client's connections on ADDR:PORT (RFC 8797 private data
included) and relays each call to the kernel's NFS server over TCP, so a
real "mount -o rdma" works through it.  Calls come inline or through Read
chunks (RDMA Read); replies go back inline or through the Reply chunk the
call offered (RDMA Write).

The client guest's driver (reply_driver.py) arms one case of
reply_cases.py at a time over a TCP control connection (port 7777; files
shared through 9p hung when both guests touched them), one line each way:

    arm SEQ NAME        -> armed SEQ
    applied SEQ         -> applied SEQ WHAT-WAS-SENT, once the case has
                           answered a call
    violations          -> violations N [WHAT ...]
    stop                -> stopping; the server exits (as on SIGTERM)

An armed case replaces the answer to the next call of its target
procedure; every other call is answered correctly.  Calls larger than the
inline size this server offered are violations.

    hostile_server.py --addr 192.0.2.1 [--port 20049] [--ready-dir /out]
"""

import argparse
import faulthandler
import os
import select
import signal
import socket
import struct
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from pyverbs.pyverbs_error import PyverbsError

from header import RDMA_ERROR, RDMA_MSG, RDMA_NOMSG, ERR_CHUNK, RPCRDMA_VERSION
from listener import RECV_COUNT, Listener
from reply_cases import CASES, TARGET_NAMES, Reply
from xdr import XdrReader, words, xdr

NFS_PROGRAM = 100003
CONTROL_PORT = 7777


class Call:
    """A received call's transport header."""

    def __init__(self, msg):
        r = XdrReader(msg)
        self.xid, self.vers, self.credits, self.proc = (r.u32() for _ in range(4))
        self.read_list, self.write_list, self.reply_chunk = [], [], []
        if self.vers != RPCRDMA_VERSION or self.proc not in (RDMA_MSG, RDMA_NOMSG):
            raise ValueError('version %d procedure %d' % (self.vers, self.proc))
        while r.u32():
            position, handle, length = r.u32(), r.u32(), r.u32()
            self.read_list.append((position, handle, length, self.hyper(r)))
        while r.u32():
            self.write_list.append(self.segments(r))
        if r.u32():
            self.reply_chunk = self.segments(r)
        self.inline = msg[r.pos:]

    @staticmethod
    def hyper(r):
        return r.u32() << 32 | r.u32()

    def segments(self, r):
        return [(r.u32(), r.u32(), self.hyper(r)) for _ in range(r.u32())]


def assemble(conn, call):
    """The RPC call message, with the Read chunks' data put back (RFC 8166
    section 3.5.3: a position-zero chunk holds the whole message)."""
    chunks = {}
    for position, handle, length, offset in call.read_list:
        chunks.setdefault(position, []).append((handle, length, offset))
    data = {}
    for position, segs in chunks.items():
        got = conn.rdma_read(segs)
        if got is None:
            return None
        data[position] = got
    if call.proc == RDMA_NOMSG:
        return data.get(0)
    out, pos = b'', 0
    for position in sorted(data):
        take = position - len(out)
        out += call.inline[pos:pos + take]
        pos += take
        item = data[position]
        out += item + bytes(-len(item) % 4)
    return out + call.inline[pos:]


class NfsRelay:
    """The kernel's NFS server over TCP (RPC record marking, RFC 5531)."""

    def __init__(self, host, port):
        self.addr = (host, port)
        self.sock = None

    def _recv(self, n):
        data = b''
        while len(data) < n:
            got = self.sock.recv(n - len(data))
            if not got:
                raise OSError('nfsd closed the connection')
            data += got
        return data

    def call(self, rpc):
        for attempt in (1, 2):
            try:
                if self.sock is None:
                    self.sock = socket.create_connection(self.addr, timeout=30)
                self.sock.sendall(struct.pack('>I', 0x80000000 | len(rpc)) + rpc)
                reply, last = b'', False
                while not last:
                    mark, = struct.unpack('>I', self._recv(4))
                    last = bool(mark & 0x80000000)
                    reply += self._recv(mark & 0x7fffffff)
                return reply
            except OSError:
                if self.sock:
                    self.sock.close()
                self.sock = None
                if attempt == 2:
                    raise
        return None


class Control:
    """The driver's control connection: lines in, lines out."""

    def __init__(self, addr):
        self.listen = socket.create_server((addr, CONTROL_PORT))
        self.conn, self.buf = None, b''

    def lines(self):
        """Complete lines received so far (accepting the driver first)."""
        socks = [self.listen] + ([self.conn] if self.conn else [])
        ready, _, _ = select.select(socks, [], [], 0)
        if self.listen in ready:
            if self.conn:
                self.conn.close()
            self.conn, _ = self.listen.accept()
            self.buf = b''
        elif self.conn in ready:
            got = self.conn.recv(4096)
            if not got:
                self.conn.close()
                self.conn = None
            self.buf += got
        out = []
        while b'\n' in self.buf:
            line, self.buf = self.buf.split(b'\n', 1)
            out.append(line.decode())
        return out

    def say(self, text):
        if self.conn:
            self.conn.sendall(text.encode() + b'\n')


class Server:
    def __init__(self, args):
        self.args = args
        self.offer = args.inline
        self.listener = Listener(args.addr, args.port)
        self.nfs = NfsRelay(args.nfsd, args.nfsd_port)
        self.conns = []
        self.control = Control(args.addr)
        self.armed = None           # (seq, case)
        self.applied = {}           # seq: what was sent
        self.waiting = None         # seq the driver asked about
        self.violations = []
        self.stop = False
        self.by_name = {c.name: c for c in CASES}
        self.stats = {'connections': 0, 'calls': 0, 'applied': 0}
        self.spray = []             # sent on the next connection at once

    def terminate(self, signum, frame):
        self.stop = True

    def violation(self, text):
        print('# violation: ' + text, flush=True)
        self.violations.append(text)

    def controls(self):
        for line in self.control.lines():
            words_ = line.split()
            if words_[:1] == ['arm'] and len(words_) == 3:
                seq = int(words_[1])
                self.armed = (seq, self.by_name[words_[2]])
                self.control.say('armed %d' % seq)
            elif words_[:1] == ['applied'] and len(words_) == 2:
                self.waiting = int(words_[1])
            elif line == 'violations':
                self.control.say('violations %d %s' % (
                    len(self.violations), ' | '.join(self.violations)))
            elif line == 'stop':
                self.control.say('stopping')
                self.stop = True
        if self.waiting in self.applied:
            self.control.say('applied %d %s' % (self.waiting,
                                                self.applied.pop(self.waiting)))
            self.waiting = None

    def run(self):
        print('# hostile server on %s port %d, offering %d-byte inline, '
              'relaying to nfsd at %s:%d' % (self.args.addr, self.args.port,
                                             self.offer, self.args.nfsd,
                                             self.args.nfsd_port), flush=True)
        signal.signal(signal.SIGTERM, self.terminate)
        with open(os.path.join(self.args.ready_dir, 'hs-ready'), 'w') as f:
            f.write('ready\n')
        watchdog = 0
        while not self.stop:
            if time.monotonic() > watchdog:
                # Where the server is, should an iteration take 30 s.
                faulthandler.dump_traceback_later(30, exit=False,
                                                  file=sys.stdout)
                watchdog = time.monotonic() + 1
            conn = self.listener.poll(0.001 if self.conns else 0.05,
                                      self.offer, self.args.inline)
            if conn:
                self.stats['connections'] += 1
                print('# connection %d: client offers send %d, receive %d, '
                      'remote invalidation %s; we offer %d' % (
                          self.stats['connections'], conn.client_send,
                          conn.client_recv, conn.client_inv, self.offer),
                      flush=True)
                self.conns.append(conn)
                self.spray_now(conn)
            self.controls()
            for conn in list(self.conns):
                conn.poll()
                while conn.inbox and not conn.dead:
                    self.handle(conn, conn.inbox.pop(0))
                if conn.dead:
                    print('# connection closed: %s' % conn.dead, flush=True)
                    conn.close()
                    self.conns.remove(conn)
        print('# %(connections)d connections, %(calls)d calls, '
              '%(applied)d cases applied' % self.stats, flush=True)

    def spray_now(self, conn):
        """Send the messages a case left for the next connection, before
        its first call: replies to calls of the connection that is gone,
        which the client has not sent again yet."""
        for message in self.spray:
            self.execute(conn, ('send', message))
        if self.spray:
            print('# %d message(s) sent as the connection came up' %
                  len(self.spray), flush=True)
        self.spray = []

    def handle(self, conn, msg):
        self.stats['calls'] += 1
        if len(msg) > conn.recv_size:
            self.violation('a %d-byte message; this server offered %d' %
                           (len(msg), conn.recv_size))
        try:
            call = Call(msg)
        except (ValueError, IndexError, struct.error) as err:
            self.violation('a malformed call (%s): %s' % (err, msg[:32].hex()))
            return
        rpc = assemble(conn, call)
        if rpc is None:
            print('# could not read the call\'s chunks', flush=True)
            conn.disconnect()
            return
        w = words(rpc[:24])
        prog, proc = (w[3], w[5]) if len(w) == 6 else (None, None)
        try:
            rpc_reply = self.nfs.call(rpc)
        except OSError as err:
            print('# nfsd: %s' % err, flush=True)
            conn.disconnect()
            return
        reply = Reply(call.xid, RECV_COUNT, rpc_reply,
                      conn.send_size - 28 - len(rpc_reply), call.reply_chunk)
        case = None
        if self.armed and prog == NFS_PROGRAM and proc == self.armed[1].target:
            seq, case = self.armed
            self.armed = None
        if case is None:
            actions = self.correct(reply, call)
        else:
            actions = case.build(reply)
        for action in actions:
            self.execute(conn, action)
        if case is not None:
            self.stats['applied'] += 1
            self.applied[seq] = '%s to %s XID %#x: %s' % (
                case.name, TARGET_NAMES[case.target], call.xid,
                ', '.join(describe(a) for a in actions))

    def correct(self, reply, call):
        if reply.room >= 0:
            return [('send', reply.inline())]
        if call.reply_chunk:
            return reply.reply_chunk_reply()
        self.violation('a %d-byte reply, no Reply chunk offered (Write list '
                       'of %d chunks)' % (len(reply.rpc), len(call.write_list)))
        return [('send', reply.fixed(proc=RDMA_ERROR) + xdr(ERR_CHUNK))]

    def execute(self, conn, action):
        kind = action[0]
        try:
            if kind == 'send':
                conn.send(action[1])
            elif kind == 'send_inv':
                conn.send(action[1], invalidate=action[2])
            elif kind == 'write':
                if action[1]:
                    conn.rdma_write(action[1], action[2])
            elif kind == 'disconnect':
                conn.disconnect()
            elif kind == 'sleep':
                time.sleep(action[1])
            elif kind == 'renegotiate':
                self.offer = action[1]
            elif kind == 'on_reconnect':
                self.spray.append(action[1])
        except PyverbsError as err:
            print('# %s failed: %s' % (kind, err), flush=True)


def describe(action):
    kind = action[0]
    if kind in ('send', 'send_inv', 'on_reconnect'):
        text = '%s of %d bytes %s' % (kind, len(action[1]), action[1][:16].hex())
        return text + (' rkey %#x' % action[2] if kind == 'send_inv' else '')
    if kind == 'write':
        return 'RDMA Write of %d bytes' % sum(s[1] for s in action[1])
    return ' '.join(str(a) for a in action)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--addr', required=True)
    parser.add_argument('--port', type=int, default=20049)
    parser.add_argument('--nfsd', default='127.0.0.1')
    parser.add_argument('--nfsd-port', type=int, default=2049)
    parser.add_argument('--inline', type=int, default=4096,
                        help='the inline sizes offered (default 4096); the '
                        'renegotiate cases change the receive size only')
    parser.add_argument('--ready-dir', default='/out',
                        help='where to write hs-ready once listening')
    Server(parser.parse_args()).run()


if __name__ == '__main__':
    main()
