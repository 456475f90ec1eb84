# SPDX-License-Identifier: GPL-2.0
"""XDR (RFC 4506) encoding and decoding helpers for the hostile peer.

Every field the peer sends or parses is XDR: unsigned ints of 4 bytes,
big-endian; unsigned hypers of 8; opaques with their length and a zero pad
to a multiple of four.
"""

import struct


def xdr(*values):
    """Encode XDR unsigned ints."""
    return struct.pack('>%dI' % len(values), *values)


def xdr_hyper(value):
    """Encode an XDR unsigned hyper (the offset of a chunk segment)."""
    return struct.pack('>Q', value)


def xdr_opaque(data):
    """An XDR variable-length opaque: length, bytes, zero pad."""
    return xdr(len(data)) + data + bytes(-len(data) % 4)


def words(data):
    """Decode as many whole XDR unsigned ints as DATA holds."""
    count = len(data) // 4
    return list(struct.unpack('>%dI' % count, data[:count * 4]))


class XdrReader:
    """Reads XDR items from DATA (bytes); raises IndexError or
    struct.error at the end."""

    def __init__(self, data):
        self.data, self.pos = data, 0

    def u32(self):
        value, = struct.unpack_from('>I', self.data, self.pos)
        self.pos += 4
        return value

    def hyper(self):
        value, = struct.unpack_from('>Q', self.data, self.pos)
        self.pos += 8
        return value

    def opaque(self, length=None):
        if length is None:
            length = self.u32()
        if self.pos + length > len(self.data):
            raise IndexError('opaque runs past the end')
        value = self.data[self.pos:self.pos + length]
        self.pos += length + (-length % 4)
        return value
