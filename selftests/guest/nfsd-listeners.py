#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Set or show the kernel NFS server's listeners through the nfsd generic
netlink family (as in Linux 6.12), without nfs-utils or pyroute2.

Writing "rdma 20049" to /proc/fs/nfsd/portlist always listens on the
wildcard address.  A test that needs nfsd to listen for RPC-over-RDMA on one
address only uses "set", which hands nfsd a struct sockaddr per listener:

    nfsd-listeners.py set rdma:192.0.2.1:20049 tcp:0.0.0.0:2049 tcp:[::]:2049
    nfsd-listeners.py get

"set" replaces the whole set: nfsd closes every listener not named, but
refuses (EBUSY) to close any while nfsd threads run.  "get" prints one line
per listener, "TRANSPORT ADDRESS PORT".  An error exits 1 naming the errno
and the kernel's extended ack message, if it sent one.
"""

import errno
import os
import socket
import struct
import sys

# include/uapi/linux/netlink.h
NETLINK_GENERIC = 16
NLM_F_REQUEST = 0x01
NLM_F_ACK = 0x04
NLM_F_CAPPED = 0x100
NLM_F_ACK_TLVS = 0x200
NLMSG_ERROR = 0x2
NLMSG_DONE = 0x3
NLA_F_NESTED = 0x8000
NLA_TYPE_MASK = 0x3fff
NLMSGERR_ATTR_MSG = 1
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11

# include/uapi/linux/genetlink.h
GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID = 1
CTRL_ATTR_FAMILY_NAME = 2

# include/uapi/linux/nfsd_netlink.h
NFSD_FAMILY_NAME = 'nfsd'
NFSD_FAMILY_VERSION = 1
NFSD_CMD_LISTENER_SET = 6
NFSD_CMD_LISTENER_GET = 7
NFSD_A_SERVER_SOCK_ADDR = 1
NFSD_A_SOCK_ADDR = 1
NFSD_A_SOCK_TRANSPORT_NAME = 2

NLMSGHDR = struct.Struct('=IHHII')      # len, type, flags, seq, pid
GENLMSGHDR = struct.Struct('=BBH')      # cmd, version, reserved
NLATTR = struct.Struct('=HH')           # len, type


class NetlinkError(Exception):
    """A negative ack: its errno by name, and the kernel's message if any."""
    def __init__(self, err, text):
        name = errno.errorcode.get(err, 'errno %d' % err)
        super().__init__('%s (%s)%s' % (name, os.strerror(err),
                                        ': ' + text if text else ''))
        self.errno = err


def align4(n):
    return (n + 3) & ~3


def attr(kind, payload):
    """One netlink attribute, padded to a multiple of 4 bytes."""
    length = NLATTR.size + len(payload)
    return NLATTR.pack(length, kind) + payload + bytes(align4(length) - length)


def parse_attrs(data):
    """Split DATA into a list of (type, payload); flag bits are dropped."""
    attrs = []
    offset = 0
    while offset + NLATTR.size <= len(data):
        length, kind = NLATTR.unpack_from(data, offset)
        if length < NLATTR.size:
            break
        attrs.append((kind & NLA_TYPE_MASK,
                      data[offset + NLATTR.size:offset + length]))
        offset += align4(length)
    return attrs


def genl_message(family, cmd, version, flags, seq, payload):
    body = GENLMSGHDR.pack(cmd, version, 0) + payload
    return NLMSGHDR.pack(NLMSGHDR.size + len(body), family, flags, seq, 0) + body


def error_message(msg):
    """The extended ack text in an NLMSG_ERROR message, if there is one."""
    length, _, flags, _, _ = NLMSGHDR.unpack_from(msg)
    if not flags & NLM_F_ACK_TLVS:
        return ''
    offset = NLMSGHDR.size + 4
    if flags & NLM_F_CAPPED:
        offset += NLMSGHDR.size
    else:
        offset += NLMSGHDR.unpack_from(msg, offset)[0]
    for kind, payload in parse_attrs(msg[align4(offset):length]):
        if kind == NLMSGERR_ATTR_MSG:
            return payload.rstrip(b'\0').decode(errors='replace')
    return ''


def request(sock, message, seq):
    """Send MESSAGE and return the attributes of each reply, until the ack."""
    sock.send(message)
    replies = []
    while True:
        data = sock.recv(65536)
        offset = 0
        while offset + NLMSGHDR.size <= len(data):
            length, kind, _, reply_seq, _ = NLMSGHDR.unpack_from(data, offset)
            msg = data[offset:offset + length]
            offset += align4(length)
            if reply_seq != seq:
                continue
            if kind == NLMSG_ERROR:
                err = -struct.unpack_from('=i', msg, NLMSGHDR.size)[0]
                if err:
                    raise NetlinkError(err, error_message(msg))
                return replies
            if kind == NLMSG_DONE:
                return replies
            replies.append(parse_attrs(msg[NLMSGHDR.size + GENLMSGHDR.size:]))


def family_id(sock, name):
    payload = attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b'\0')
    msg = genl_message(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1,
                       NLM_F_REQUEST | NLM_F_ACK, 1, payload)
    try:
        replies = request(sock, msg, 1)
    except NetlinkError as e:
        if e.errno == errno.ENOENT:
            sys.exit('generic netlink family "%s" not found: is the nfsd '
                     'module loaded?' % name)
        raise
    for reply in replies:
        for kind, payload in reply:
            if kind == CTRL_ATTR_FAMILY_ID:
                return struct.unpack('=H', payload[:2])[0]
    sys.exit('no family id in the reply for "%s"' % name)


def encode_sockaddr(address, port):
    """A struct sockaddr_in or sockaddr_in6 for ADDRESS and PORT."""
    if ':' in address:
        return (struct.pack('=H', socket.AF_INET6) + struct.pack('!HI', port, 0)
                + socket.inet_pton(socket.AF_INET6, address)
                + struct.pack('=I', 0))
    return (struct.pack('=H', socket.AF_INET) + struct.pack('!H', port)
            + socket.inet_pton(socket.AF_INET, address) + bytes(8))


def decode_sockaddr(data):
    """(address, port) from a struct sockaddr_in, sockaddr_in6 or storage."""
    family = struct.unpack_from('=H', data)[0]
    port = struct.unpack_from('!H', data, 2)[0]
    if family == socket.AF_INET:
        return socket.inet_ntop(socket.AF_INET, data[4:8]), port
    if family == socket.AF_INET6:
        return '[%s]' % socket.inet_ntop(socket.AF_INET6, data[8:24]), port
    return 'family-%d' % family, port


def parse_listener(spec):
    """TRANSPORT:ADDRESS:PORT, an IPv6 ADDRESS in brackets: tcp:[::]:2049."""
    transport, _, rest = spec.partition(':')
    if rest.startswith('['):
        address, _, port = rest[1:].partition(']:')
    else:
        address, _, port = rest.rpartition(':')
    if not transport or not address or not port.isdigit() or \
            (':' in address and not rest.startswith('[')):
        raise ValueError('bad listener "%s": want TRANSPORT:ADDRESS:PORT' % spec)
    try:
        return transport, encode_sockaddr(address, int(port))
    except (OSError, struct.error):
        raise ValueError('bad address or port in "%s"' % spec) from None


def encode_listeners(listeners):
    """The NFSD_CMD_LISTENER_SET payload for (transport, sockaddr) pairs."""
    payload = b''
    for transport, sockaddr in listeners:
        nested = (attr(NFSD_A_SOCK_ADDR, sockaddr)
                  + attr(NFSD_A_SOCK_TRANSPORT_NAME, transport.encode() + b'\0'))
        payload += attr(NFSD_A_SERVER_SOCK_ADDR | NLA_F_NESTED, nested)
    return payload


def decode_listeners(attrs):
    """(transport, address, port) for each listener in a reply."""
    listeners = []
    for kind, payload in attrs:
        if kind != NFSD_A_SERVER_SOCK_ADDR:
            continue
        fields = dict(parse_attrs(payload))
        transport = fields[NFSD_A_SOCK_TRANSPORT_NAME].rstrip(b'\0').decode()
        listeners.append((transport, *decode_sockaddr(fields[NFSD_A_SOCK_ADDR])))
    return listeners


def main():
    usage = 'usage: nfsd-listeners.py set TRANSPORT:ADDRESS:PORT... | get'
    if len(sys.argv) < 2 or sys.argv[1] not in ('set', 'get') or \
            (sys.argv[1] == 'set') != (len(sys.argv) > 2):
        sys.exit(usage)
    try:
        listeners = [parse_listener(spec) for spec in sys.argv[2:]]
    except ValueError as e:
        sys.exit(str(e))

    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                             NETLINK_GENERIC)
        sock.bind((0, 0))
        sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
    except OSError as e:
        sys.exit('cannot open a generic netlink socket: %s' % e)
    # Both commands are "do" operations (fs/nfsd/netlink.c): NLM_F_DUMP would
    # get EOPNOTSUPP.  Only get has a reply, which comes before the ack.
    if sys.argv[1] == 'set':
        cmd = NFSD_CMD_LISTENER_SET
    else:
        cmd = NFSD_CMD_LISTENER_GET
    try:
        family = family_id(sock, NFSD_FAMILY_NAME)
        msg = genl_message(family, cmd, NFSD_FAMILY_VERSION,
                           NLM_F_REQUEST | NLM_F_ACK, 2,
                           encode_listeners(listeners))
        for reply in request(sock, msg, 2):
            for transport, address, port in decode_listeners(reply):
                print(transport, address, port)
    except NetlinkError as e:
        sys.exit('nfsd listener-%s: %s' % (sys.argv[1], e))
    return 0


if __name__ == '__main__':
    sys.exit(main())
