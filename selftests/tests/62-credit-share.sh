#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our server's credit budget shared between clients, our client on both
# ends of it, Debian's kernel: with the budget set to 64 credits, a
# client address with an nconnect=16 mount takes it all, then a second
# client address with one connection needs credits.  The first client's
# connections must fall for holding more than its share (their
# svcrdma_grant_fall events say so), the second's grant must grow to its
# share less a batch, /proc/net/rpcrdma must show the two within the
# budget while both are busy, and both must keep doing I/O and verify
# their data afterwards.
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 500 --env "RPCRDMA_KO=$ko" --env STEPS=credit_share
