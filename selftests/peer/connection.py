# SPDX-License-Identifier: GPL-2.0
"""The hostile peer's RDMA connection: RDMA-CM and verbs through pyverbs
(Debian: python3-pyverbs).  Connection is one RC connection offering RFC 8797
private data; RemoteReadable is the memory Read chunks point to and
RemoteWritable the memory Write chunks point to; the rest names CM events
and completion statuses.
"""

import collections
import os
import select
import struct
import time

import pyverbs.cm_enums as ce
import pyverbs.enums as e
from pyverbs.cmid import AddrInfo, CMEvent, CMEventChannel, CMID, ConnParam
from pyverbs.cq import CQ
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError
from pyverbs.qp import QP, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SGE, SendWR

from expect import Closed, Message, Silence

# Connection private data (RFC 8797 section 4): a 32-bit magic, then one
# octet each: version, flags, and the sender's send and receive inline
# sizes, each encoded as (size / 1024) - 1.
RPCRDMA_CMP_MAGIC = 0xf6ab0e18
RPCRDMA_CMP_VERSION = 1
RPCRDMA_CMP_F_SND_W_INV_OK = 1 << 0     # "you may Send With Invalidate"

# One RC connection: RDMA-CM (asynchronous, on an event channel of its own)
# sets it up; the QP, CQ and memory are the peer's own, so that every work
# request carries an id.  One registered buffer holds the receive slots,
# then the send slots.  Only the Read and Write chunk cases register
# memory for remote access (RemoteReadable, RemoteWritable).

RECV_COUNT = 16
SEND_SLOTS = 64
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


# A Send the responder had no Receive for, after the RNR retries it
# granted (RDMA-CM: the accepting side's rnr_retry_count).
WC_RNR_RETRY_EXC = e.IBV_WC_RNR_RETRY_EXC_ERR


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


def pack_private_data(send_size, recv_size, remote_invalidate=True):
    """RFC 8797 private data offering SEND_SIZE and RECV_SIZE (bytes, on
    the 1 KiB grid), for a connect request or its accept."""
    flags = RPCRDMA_CMP_F_SND_W_INV_OK if remote_invalidate else 0
    return struct.pack('>IBBBB', RPCRDMA_CMP_MAGIC, RPCRDMA_CMP_VERSION,
                       flags, send_size // 1024 - 1, recv_size // 1024 - 1)


def connect_private_data(args):
    """RFC 8797 private data for the connect request."""
    return pack_private_data(args.inline_size, args.inline_size,
                             args.remote_invalidate)


def parse_private_data(data):
    """(send size, receive size, remote invalidation allowed) from RFC
    8797 private data, or None if DATA is none."""
    if len(data) < 8:
        return None
    magic, version, flags, send, recv = struct.unpack('>IBBBB', data[:8])
    if magic != RPCRDMA_CMP_MAGIC or version != RPCRDMA_CMP_VERSION:
        return None
    return (send + 1) * 1024, (recv + 1) * 1024, bool(flags & 1)


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
    ACCESS = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_READ

    def __init__(self, pd, size=None):
        self.mr = MR(pd, size or self.SIZE, self.ACCESS)
        self.rkey = self.mr.rkey

    def write(self, data, offset):
        self.mr.write(data, len(data), offset)

    def read(self, length, offset):
        return self.mr.read(length, offset)

    def addr(self, offset):
        return self.mr.buf + offset


class RemoteWritable(RemoteReadable):
    """A buffer registered for remote write: where Write chunks point."""
    ACCESS = e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE


class Connection:
    def __init__(self, args, src=None, server=None):
        """Connect to ARGS.server (or SERVER) from the address the route
        gives (or SRC)."""
        self.args = args
        self.src = src
        self.server = server or args.server
        self.recv_size = args.inline_size
        # A server's Receives hold at most our send size (RFC 8797), so
        # a slot this large can send one just past the largest of them.
        self.send_size = args.inline_size + 64
        self.inbox = collections.deque()
        self.close_reasons = []
        self.cm_disconnected = False
        self.disconnected_first = False     # DISCONNECTED ended it, before any
                                            # failure seen on our side
        self.local_send_error = False
        self.send_error = None      # the first failed Send: (status, index)
        self.repost = True
        self.sends_in_flight = 0
        self.sends_posted = 0       # Sends posted so far; the next one's index
        self.sends_completed = 0    # Sends completed successfully
        self.next_send_slot = 0
        self.server_private = b''
        self.ai = self.pd = self.cq = self.qp = self.mr = None
        self.remote_mr = None
        self.writable_mr = None
        self.channel, self.channel_fd = open_event_channel()
        self.cmid = CMID(creator=self.channel, port_space=ce.RDMA_PS_TCP)
        try:
            self._connect()
        except Exception:
            self.close()
            raise

    # -- setting up --

    def _connect(self):
        self.ai = AddrInfo(src=self.src, dst=self.server,
                           dst_service=str(self.args.port),
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
        # ConnParam carries as much private data as its data_len made
        # room for, and set_private_data() silently drops the rest.
        self._private = connect_private_data(self.args)
        param = ConnParam(resources=1, depth=1, rnr_retry=7,
                          qp_num=self.qp.qp_num,
                          data_len=len(self._private))
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
        # RDMA-CM grants no remote access at INIT; the chunk cases need
        # the server's RDMA Reads and Writes to be allowed (the MR
        # decides which memory they may touch).
        attr.qp_access_flags = (e.IBV_ACCESS_REMOTE_READ |
                                e.IBV_ACCESS_REMOTE_WRITE)
        self.qp.modify(attr, mask | e.IBV_QP_ACCESS_FLAGS)
        self.mr = MR(self.pd, RECV_COUNT * self.recv_size +
                     SEND_SLOTS * self.send_size, e.IBV_ACCESS_LOCAL_WRITE)

    def readable(self, size=None):
        """Memory the server may RDMA Read (registered on first use, of
        SIZE bytes, default RemoteReadable.SIZE)."""
        if self.remote_mr is None:
            self.remote_mr = RemoteReadable(self.pd, size)
        return self.remote_mr

    def writable(self, size=None):
        """Memory the server may RDMA Write (registered on first use, of
        SIZE bytes, default RemoteWritable.SIZE)."""
        if self.writable_mr is None:
            self.writable_mr = RemoteWritable(self.pd, size)
        return self.writable_mr

    def stop_reposting(self):
        """Post no more Receives: once the posted ones are used, the
        server's Sends find none (and, with the RNR retry count of 7 this
        peer connects with, retry for ever)."""
        self.repost = False

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
                self.disconnected_first = not self.close_reasons
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
        if wc.status == e.IBV_WC_SUCCESS:
            self.sends_completed += 1
            return
        if self.send_error is None:
            # Sends complete in the order they were posted (an RC QP,
            # every Send signalled): the one that failed first comes
            # right after those that completed.
            self.send_error = (wc.status, self.sends_completed)
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
        if self.repost:
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
        if len(data) > self.send_size:
            raise ValueError('a %d-byte Send does not fit a %d-byte slot'
                             % (len(data), self.send_size))
        slot = self.next_send_slot
        self.next_send_slot = (slot + 1) % SEND_SLOTS
        offset = RECV_COUNT * self.recv_size + slot * self.send_size
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
        self.sends_posted += 1
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
        remote = [m.mr for m in (self.remote_mr, self.writable_mr) if m]
        for obj in [self.qp, self.mr] + remote + [self.cq, self.pd, self.cmid,
                                                   self.ai, self.channel]:
            if obj is not None:
                try:
                    obj.close()
                except PyverbsError:
                    pass
        self.qp = None
