#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Bonding failover under a mount, our client against our server: each
# guest has two links in an active-backup bond (fail_over_mac=active) with
# soft-RoCE on the bond, and the bonds fail over, back and forth, while fio writes
# and verifies (the links are point to point, so both guests fail over at
# once).  A failover changes the bond's MAC address, so the RDMA-CM
# sends RDMA_CM_EVENT_ADDR_CHANGE to the ids on it: the server's
# listener, bound to 192.0.2.1, must listen again (svcrdma_relisten with
# status 0; the listener must stay in nfsd's list), and the client must
# reconnect without giving back MRs whose rkeys the server may still use.
# After each failover I/O must resume within 120 s, and fio's verify and
# the files written must come out intact.  Debian's kernel on both guests
# (the test kernel has no bonding).
. "$(dirname "$0")/../lib/common.sh"

ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" debian) || exit 1
events=${BOND_EVENTS:-4}
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --links 2 \
	--server-script "$RPCRDMA_TOP/selftests/guest/disconnect-server.sh" \
	--client-script "$RPCRDMA_TOP/selftests/guest/disconnect-client.sh" \
	--timeout $((600 + events * 60)) --env "RPCRDMA_KO=$ko" \
	--env RDMA_PROVIDER=rxe --env BOND=1 --env "EVENTS=$events" \
	--server-env SERVER_MODULE=ours --client-env CLIENT_MODULE=ours \
	--client-env KINDS=bond-failover
