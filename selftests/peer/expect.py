# SPDX-License-Identifier: GPL-2.0
"""What the hostile peer observes after sending, and how it judges that:
the events (Message, Closed, Silence), describe(), the expected answers
(RpcNullReply, RdmaError, NoAnswer, ServerCloses), observe() and judge().
"""

import dataclasses
import time

from header import (ERR_CHUNK, ERR_NAMES, ERR_VERS, PROC_NAMES, RDMA_ERROR,
                    RDMA_MSG, RPCRDMA_VERSION, describe_message)
from rpc import check_rpc_accepted
from xdr import words


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


RPC_NULL_REPLY = RpcNullReply()
ERR_CHUNK_REPLY = RdmaError(ERR_CHUNK)
ERR_VERS_REPLY = RdmaError(ERR_VERS, low=1, high=1)


# ---------------------------------------------------------------------------
# Deciding a case.

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
