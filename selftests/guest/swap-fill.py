#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Bounded allocator for the swap test: fill MIB mebibytes with a pattern
that differs per MiB, then read every byte back.  Run inside a memory
cgroup smaller than MIB, the pages it wrote go out to swap and come back.
Prints "verified N MiB" and exits 0, or names the first bad MiB."""
import hashlib
import sys


def pattern(i):
    return hashlib.sha256(b'rpcrdma-swap-%d' % i).digest() * (1 << 15)


def main():
    mib = int(sys.argv[1])
    blocks = [bytearray(pattern(i)) for i in range(mib)]
    for i, block in enumerate(blocks):
        if block != pattern(i):
            print('MiB %d differs after swap' % i)
            return 1
    print('verified %d MiB' % mib)
    return 0


if __name__ == '__main__':
    sys.exit(main())
