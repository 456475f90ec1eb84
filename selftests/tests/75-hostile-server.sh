#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A hostile RPC-over-RDMA server (selftests/peer/hostile_server.py, a relay
# to the kernel NFS server over TCP) against our client on the debug kernel
# (KASAN, lockdep, kmemleak): about 200 crafted replies (wrong XIDs and
# versions, credits 0 and 65535, chunk lists that lie, Reply chunk misuse,
# RDMA_ERROR of both kinds, headers cut short, messages larger than the
# Receive buffer, backchannel garbage, Send With Invalidate of rkeys never
# offered, disconnects in the middle of a reply, renegotiated inline
# sizes); each must give the RPC the outcome the case states.  make check
# runs the fast subset; HOSTILE_SERVER_ALL=1 (make stress) runs them all.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" test) || exit 1
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --client-kernel test \
	--server-script "$RPCRDMA_TOP/selftests/guest/hostile-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/hostile-server-client.sh" \
	--timeout "${HOSTILE_SERVER_TIMEOUT:-900}" --env "RPCRDMA_KO=$ko" \
	--client-env CHECK_KMEMLEAK=1 \
	--client-env "HOSTILE_SERVER_ALL=${HOSTILE_SERVER_ALL:-0}" \
	${HOSTILE_SERVER_ARGS:+--client-env "HOSTILE_SERVER_ARGS=$HOSTILE_SERVER_ARGS"}
