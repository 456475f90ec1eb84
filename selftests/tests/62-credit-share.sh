#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Our server's credit budget shared between clients, our client on both
# ends of it, Debian's kernel: with the budget set to 64 credits, a
# client address with an nconnect=16 mount takes it all and then goes
# quiet.  Its 16 connections must fall to the floor within 10 s of the
# quiet period (credit_quiet_timeout, CREDIT_QUIET_TIMEOUT: 5 s), and a
# second client address with one connection, started then, must reach
# its share of the budget (a grant of 40) within 15 s.  Once both are
# quiet again, the first takes the budget and the second needs credits
# while it is busy: the first client's connections must fall for holding
# more than its share (their svcrdma_grant_fall events say so), the
# second's grant must grow to its share less a batch, /proc/net/rpcrdma
# must show the two within the budget while both are busy (within 45 s
# of the second's start: a busy guest starts its fio late), and both must
# keep doing I/O, starting with the grants they were told before their
# quiet falls, and verify their data afterwards.
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/nfs-client.sh" \
	--timeout 600 --env "RPCRDMA_KO=$ko" --env STEPS=credit_share \
	--server-env "CREDIT_QUIET_TIMEOUT=${CREDIT_QUIET_TIMEOUT:-5}"
