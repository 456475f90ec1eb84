# SPDX-License-Identifier: GPL-2.0
"""The hostile server's side of RDMA-CM and verbs (pyverbs): a listener
that accepts RPC-over-RDMA clients with RFC 8797 private data of its
choosing, and one ServerConnection per accepted client, which receives
calls, sends replies, and moves chunk data with RDMA Read and Write.

pyverbs 44 quirks this works around:
- A CMID made from a CONNECT_REQUEST event shares the listener's device
  context and PD objects, and closing it clears them.  Accepted CMIDs are
  therefore never closed, only disconnected, and kept until the process
  ends; each connection has a PD, CQ and QP of its own.
- A CMEvent does not say which CMID it is for.  Only CONNECT_REQUEST
  matters here; a connection's end shows as flushed Receives on its CQ.
"""

import select
import time

import pyverbs.cm_enums as ce
import pyverbs.enums as e
from pyverbs.cmid import AddrInfo, CMEvent, CMID, ConnParam
from pyverbs.cq import CQ
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.pyverbs_error import PyverbsError
from pyverbs.qp import QP, QPCap, QPInitAttr
from pyverbs.wr import RecvWR, SGE, SendWR

from connection import (ConnectError, open_event_channel, pack_private_data,
                        parse_private_data, wc_status_name)

RECV_COUNT = 32             # also the credits the server grants
SEND_SLOTS = 32
SLOT_SIZE = 65536           # a Receive, a Send, or a chunk bounce buffer
RDMA_SLOTS = 2              # bounce buffers for RDMA Read and Write
OP_TIMEOUT = 10.0

KIND_RECV, KIND_SEND, KIND_RDMA = 0, 1, 2


class Listener:
    """An RDMA-CM listener on ADDR:PORT."""

    def __init__(self, addr, port):
        self.channel, self.fd = open_event_channel()
        self.cmid = CMID(creator=self.channel, port_space=ce.RDMA_PS_TCP)
        self.ai = AddrInfo(src=addr, src_service=str(port),
                           port_space=ce.RDMA_PS_TCP, flags=ce.RAI_PASSIVE)
        self.cmid.bind_addr(self.ai)
        self.cmid.listen(16)
        self.accepted = []      # never closed: see the module's comment

    def poll(self, timeout, recv_size, send_size):
        """A ServerConnection for a client that asked to connect within
        TIMEOUT seconds (offering RECV_SIZE and SEND_SIZE), else None."""
        deadline = time.monotonic() + timeout
        while True:
            left = max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return None
            event = CMEvent(self.channel)
            if event.event_type != ce.RDMA_CM_EVENT_CONNECT_REQUEST:
                event.ack_cm_event()
                continue
            child = CMID(creator=event, listen_id=self.cmid)
            client_private = bytes(event.private_data or b'')
            event.ack_cm_event()
            self.accepted.append(child)
            try:
                return ServerConnection(child, client_private, recv_size,
                                        send_size)
            except (PyverbsError, ConnectError) as err:
                print('# could not accept a connection: %s' % err)
                try:
                    child.reject()
                except PyverbsError:
                    pass


class ServerConnection:
    """One accepted client.  Receives are reposted as they are consumed."""

    def __init__(self, cmid, client_private, recv_size, send_size):
        self.cmid = cmid
        # RFC 8797's defaults for a client without private data.
        self.client_send, self.client_recv, self.client_inv = \
            parse_private_data(client_private) or (1024, 1024, False)
        self.recv_size = recv_size
        self.send_size = min(send_size, self.client_recv)
        self.inbox = []
        self.dead = None
        self.rdma_done = {}
        self.next_send = 0
        self.sends_in_flight = 0
        ctx = cmid.context
        self.pd = PD(ctx)
        self.cq = CQ(ctx, RECV_COUNT + SEND_SLOTS + 64, None, None, 0)
        cap = QPCap(max_send_wr=SEND_SLOTS + 32, max_recv_wr=RECV_COUNT,
                    max_send_sge=1, max_recv_sge=1)
        self.qp = QP(self.pd, QPInitAttr(qp_type=e.IBV_QPT_RC, scq=self.cq,
                                         rcq=self.cq, cap=cap))
        slots = RECV_COUNT + SEND_SLOTS + RDMA_SLOTS
        self.mr = MR(self.pd, slots * SLOT_SIZE, e.IBV_ACCESS_LOCAL_WRITE)
        attr, mask = cmid.init_qp_attr(e.IBV_QPS_INIT)
        self.qp.modify(attr, mask)
        for slot in range(RECV_COUNT):
            self._post_recv(slot)
        attr, mask = cmid.init_qp_attr(e.IBV_QPS_RTR)
        self.qp.modify(attr, mask)
        # ConnParam carries as much private data as its data_len made
        # room for, and set_private_data() silently drops the rest:
        # without data_len the client saw none (zeros) at all.
        pdata = pack_private_data(send_size, recv_size)
        param = ConnParam(resources=1, depth=4, rnr_retry=7,
                          qp_num=self.qp.qp_num, data_len=len(pdata))
        param.set_private_data(pdata)
        cmid.accept(param)
        attr, mask = cmid.init_qp_attr(e.IBV_QPS_RTS)
        self.qp.modify(attr, mask)

    # -- buffers and work requests --

    def _slot_addr(self, slot):
        return self.mr.buf + slot * SLOT_SIZE

    def _post_recv(self, slot):
        # Room for more than was offered, so that a client that ignores
        # the offer is caught (hostile_server.py checks each message).
        sge = SGE(self._slot_addr(slot), SLOT_SIZE, self.mr.lkey)
        self.qp.post_recv(RecvWR(wr_id=slot, num_sge=1, sg=[sge]))

    def _wr_id(self, kind, slot):
        return (kind << 32) | slot

    def poll(self):
        """Take in completions; received calls go to self.inbox."""
        while True:
            count, wcs = self.cq.poll(16)
            if count == 0:
                return
            for wc in wcs[:count]:
                self._completion(wc)

    def _completion(self, wc):
        kind, slot = wc.wr_id >> 32, wc.wr_id & 0xffffffff
        if wc.status != e.IBV_WC_SUCCESS:
            if self.dead is None:
                self.dead = '%s completed with %s' % (
                    ('Receive', 'Send', 'RDMA')[kind], wc_status_name(wc.status))
            if kind == KIND_RDMA:
                self.rdma_done[slot] = False
            if kind == KIND_SEND:
                self.sends_in_flight -= 1
            return
        if kind == KIND_RECV:
            off = slot * SLOT_SIZE
            self.inbox.append(self.mr.read(wc.byte_len, off))
            try:
                self._post_recv(slot)
            except PyverbsError as err:
                self.dead = 'cannot repost a Receive: %s' % err
        elif kind == KIND_SEND:
            self.sends_in_flight -= 1
        else:
            self.rdma_done[slot] = True

    def _wait_rdma(self, slot):
        deadline = time.monotonic() + OP_TIMEOUT
        while slot not in self.rdma_done:
            if self.dead or time.monotonic() > deadline:
                return False
            self.poll()
            time.sleep(0.0005)
        return self.rdma_done.pop(slot)

    def send(self, data, invalidate=None):
        """Post one Send of DATA (with Send With Invalidate of rkey
        INVALIDATE if given); False if the connection is gone."""
        while self.sends_in_flight >= SEND_SLOTS and not self.dead:
            self.poll()
        if self.dead:
            return False
        slot = RECV_COUNT + self.next_send
        self.next_send = (self.next_send + 1) % SEND_SLOTS
        self.mr.write(data, len(data), slot * SLOT_SIZE)
        sge = SGE(self._slot_addr(slot), len(data), self.mr.lkey)
        if invalidate is None:
            wr = SendWR(wr_id=self._wr_id(KIND_SEND, slot),
                        opcode=e.IBV_WR_SEND, num_sge=1, sg=[sge],
                        send_flags=e.IBV_SEND_SIGNALED)
        else:
            wr = SendWR(wr_id=self._wr_id(KIND_SEND, slot),
                        opcode=e.IBV_WR_SEND_WITH_INV, num_sge=1, sg=[sge],
                        send_flags=e.IBV_SEND_SIGNALED, imm_data=invalidate)
        try:
            self.qp.post_send(wr)
        except PyverbsError as err:
            self.dead = 'cannot post a Send: %s' % err
            return False
        self.sends_in_flight += 1
        return True

    def _rdma(self, opcode, segments, data=None):
        """RDMA Write DATA across SEGMENTS [(handle, length, offset)], or
        RDMA Read them; returns the bytes read (or True), None on failure."""
        slot = RECV_COUNT + SEND_SLOTS + (0 if opcode == e.IBV_WR_RDMA_READ else 1)
        pos = 0
        for handle, length, offset in segments:
            if opcode == e.IBV_WR_RDMA_WRITE:
                length = min(length, len(data) - pos)
                if length <= 0:
                    break
                self.mr.write(data[pos:pos + length], length,
                              slot * SLOT_SIZE + pos)
            if pos + length > SLOT_SIZE:
                return None
            sge = SGE(self._slot_addr(slot) + pos, length, self.mr.lkey)
            wr = SendWR(wr_id=self._wr_id(KIND_RDMA, slot), opcode=opcode,
                        num_sge=1, sg=[sge], send_flags=e.IBV_SEND_SIGNALED)
            wr.set_wr_rdma(handle, offset)
            try:
                self.qp.post_send(wr)
            except PyverbsError as err:
                self.dead = 'cannot post an RDMA operation: %s' % err
                return None
            if not self._wait_rdma(slot):
                return None
            pos += length
        if opcode == e.IBV_WR_RDMA_READ:
            return self.mr.read(pos, slot * SLOT_SIZE) if pos else b''
        return True

    def rdma_read(self, segments):
        return self._rdma(e.IBV_WR_RDMA_READ, segments)

    def rdma_write(self, segments, data):
        return self._rdma(e.IBV_WR_RDMA_WRITE, segments, data)

    def disconnect(self):
        if self.dead is None:
            self.dead = 'disconnected by the server'
        try:
            self.cmid.disconnect()
        except PyverbsError:
            pass

    def close(self):
        """Free the verbs objects (the CMID stays: see the module)."""
        self.disconnect()
        for obj in (self.qp, self.mr, self.cq, self.pd):
            try:
                obj.close()
            except PyverbsError:
                pass
