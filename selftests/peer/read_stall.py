# SPDX-License-Identifier: GPL-2.0
"""What the hostile peer's read-stall case needs besides a connection:
a call whose Read chunk the server must RDMA Read, a tc filter that keeps
the server's RDMA READ requests from reaching this peer's adapter, and
the flags shared with the server guest's half of the case.

Soft-RoCE answers RDMA Reads in the kernel, with no help from the
process that registered the memory, so the peer cannot simply not
answer.  It drops the READ requests for its QP as they arrive instead
(a u32 filter on its interface's clsact ingress, action drop): its
adapter never sees them, the server's retransmissions are dropped as
well, and nothing at all comes back, as from a client whose adapter
stopped answering.  Dropping the READ responses on their way out would
not do: soft-RoCE answers a response it could not send with an RNR NAK.
The server's own QP then gives up after its retransmission retries
(seconds on soft-RoCE: retry count times the local ACK timeout); the
server's read_timeout must close the connection before that.
"""

import os
import re
import shutil
import subprocess
import time

from header import RDMA_MSG, transport_header
from rpc import rpc_null_call
from xdr import xdr, xdr_hyper

# RoCEv2's UDP port, and the BTH opcode of an RC RDMA READ request.
ROCE_UDP_PORT = 4791
RC_RDMA_READ_REQUEST = 0x0c
# The filter's preference, so that it is found and deleted again.
FILTER_PREF = 4791


def null_call_with_read_chunk(xid, args, readable, length):
    """An RDMA_MSG carrying an RPC NULL call followed by a data item of
    LENGTH bytes in one Read chunk of READABLE (at its start): the server
    must RDMA Read it before the call can go to nfsd."""
    call = rpc_null_call(xid, args)
    read_list = (xdr(1, len(call), readable.rkey, length) +
                 xdr_hyper(readable.addr(0)) + xdr(0))
    # Then an empty Write list and no Reply chunk.
    return (transport_header(xid, RDMA_MSG, args) + read_list + xdr(0, 0) +
            call)


def _tc():
    return shutil.which('tc') or '/usr/sbin/tc'


def run_command(cmd):
    """(exit status, output) of CMD."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True,
                              timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as err:
        return 1, str(err)
    return done.returncode, (done.stdout + done.stderr).strip()


def interface_to(address):
    """The network interface the route to ADDRESS leaves by, or None."""
    status, out = run_command(['ip', 'route', 'get', address])
    match = re.search(r'\bdev (\S+)', out) if status == 0 else None
    return match.group(1) if match else None


class ReadRequestDrop:
    """A tc filter on DEV's ingress dropping the RDMA READ requests
    (RoCEv2, IPv4 without options) addressed to queue pair QPN."""

    def __init__(self, dev, qpn):
        self.dev = dev
        self.qpn = qpn
        self.own_qdisc = False
        self.installed = False

    def install(self):
        """Returns why the filter could not be installed, or None."""
        for module in ('sch_ingress', 'cls_u32', 'act_gact'):
            run_command(['modprobe', module])
        status, out = run_command([_tc(), 'qdisc', 'add', 'dev', self.dev,
                            'clsact'])
        if status == 0:
            self.own_qdisc = True
        elif 'clsact' not in run_command([_tc(), 'qdisc', 'show', 'dev',
                                   self.dev])[1]:
            return 'cannot add a clsact qdisc on %s: %s' % (self.dev, out)
        status, out = run_command([
            _tc(), 'filter', 'add', 'dev', self.dev, 'ingress',
            'protocol', 'ip', 'pref', str(FILTER_PREF), 'u32',
            'match', 'u8', '0x45', '0xff', 'at', '0',
            'match', 'u8', '17', '0xff', 'at', '9',
            'match', 'u16', str(ROCE_UDP_PORT), '0xffff', 'at', '22',
            'match', 'u8', str(RC_RDMA_READ_REQUEST), '0xff', 'at', '28',
            'match', 'u32', str(self.qpn), '0x00ffffff', 'at', '32',
            'action', 'drop'])
        if status != 0:
            self.remove()
            return 'cannot add the tc filter on %s: %s' % (self.dev, out)
        self.installed = True
        return None

    def dropped(self):
        """Packets the filter dropped, or None if tc does not say."""
        status, out = run_command([_tc(), '-s', 'filter', 'show', 'dev', self.dev,
                            'ingress', 'pref', str(FILTER_PREF)])
        counts = re.findall(r'dropped (\d+)', out) if status == 0 else []
        return sum(int(c) for c in counts) if counts else None

    def remove(self):
        if self.installed:
            run_command([_tc(), 'filter', 'del', 'dev', self.dev, 'ingress', 'pref',
                  str(FILTER_PREF)])
            self.installed = False
        if self.own_qdisc:
            run_command([_tc(), 'qdisc', 'del', 'dev', self.dev, 'clsact'])
            self.own_qdisc = False


class PeerSync:
    """Flags shared with the server guest: NAME.flag files in DIRECTORY,
    as the harness's signal_peer and wait_peer use them (its /out)."""

    def __init__(self, directory):
        self.directory = directory

    def _path(self, name):
        return os.path.join(self.directory, name + '.flag')

    def signal(self, name, text=''):
        with open(self._path(name), 'w') as f:
            f.write(text)

    def text(self, name):
        """What the flag NAME says, or '' if it says nothing or is not
        there."""
        try:
            with open(self._path(name)) as f:
                return f.read().strip()
        except OSError:
            return ''

    def wait(self, name, timeout):
        """Returns why NAME did not come within TIMEOUT seconds, or None."""
        deadline = time.monotonic() + timeout
        while not os.path.exists(self._path(name)):
            if time.monotonic() > deadline:
                return 'the server did not signal %s within %d s' % (
                    name, timeout)
            time.sleep(0.2)
        return None
