#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Forced disconnects of mixed kinds under verified I/O, for each role: our
# client against the stock server (the client's link down for 3 s, its RDMA
# device deleted and added, its transport disconnected through sysfs,
# nfsd restarted), then the stock client against our server (nfsd
# restarted, the server's RDMA device deleted and added, its rpcrdma
# swapped for the stock one and back under the live mount: two events,
# so that every other event finds our server in place).  After each
# event I/O must resume within 120 s, and within 5 s (RESUME_LIMIT) after
# our client's link flap, device re-add and sysfs disconnect: it
# reconnects as soon as the link is back (xprtrdma/linkwatch.c); the
# resume times are printed; fio's
# verify and the files written must come out intact.  EVENTS per role:
# 4 in make check (each kind once), 20 in make stress.  OUR_CLIENT_KINDS and
# OUR_SERVER_KINDS choose other kinds (disconnect-client.sh lists them),
# DISCONNECT_ROLES one role (our-client or our-server) and
# DISCONNECT_PROVIDER=siw soft-iWARP instead of soft-RoCE (on the debug
# test kernel: Debian's kernel has no siw).
# A flap of the server's link is left out: when the server sends a CM
# message while its link is down, soft-RoCE puts QP1 into the error state
# for good and no client can connect until the device is added again,
# whichever rpcrdma runs on either side (Documentation/reliability.rst).
. "$(dirname "$0")/../lib/common.sh"

provider=${DISCONNECT_PROVIDER:-rxe}
kernel=debian
[ "$provider" = rxe ] || kernel=test
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" "$kernel") || exit 1
events=${DISCONNECT_EVENTS:-4}
# role NAME SERVER_MODULE CLIENT_MODULE KINDS: one guest pair.
role() {
	"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1/$2" \
		--server-script "$RPCRDMA_TOP/selftests/guest/disconnect-server.sh" \
		--client-script "$RPCRDMA_TOP/selftests/guest/disconnect-client.sh" \
		--timeout $((600 + events * 60)) --env "RPCRDMA_KO=$ko" \
		--server-kernel "$kernel" --client-kernel "$kernel" \
		--env "RDMA_PROVIDER=$provider" \
		--env "EVENTS=$events" --server-env "SERVER_MODULE=$3" \
		--client-env "CLIENT_MODULE=$4" --client-env "KINDS=$5" \
		${6:+--client-env "RESUME_KINDS=$6"} \
		--client-env "RESUME_LIMIT=${RESUME_LIMIT:-5}" \
		--client-env "FLAP_SECONDS=${FLAP_SECONDS:-3}"
}

rc=0
for r in ${DISCONNECT_ROLES:-our-client our-server}; do
	case $r in
	our-client)
		role "$1" our-client stock ours \
			"${OUR_CLIENT_KINDS:-link-flap nfsd-restart device-readd sysfs-disconnect}" \
			"link-flap device-readd sysfs-disconnect" ||
			rc=1 ;;
	our-server)
		role "$1" our-server ours stock \
			"${OUR_SERVER_KINDS:-nfsd-restart server-device-readd module-swap module-swap}" ||
			rc=1 ;;
	*) die "DISCONNECT_ROLES: no role $r" ;;
	esac
done
grep -h "resume times\|resumed after" "$1"/our-*/client/log 2>/dev/null
exit $rc
