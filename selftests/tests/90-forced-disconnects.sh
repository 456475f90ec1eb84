#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Forced disconnects of mixed kinds under verified I/O, for each role: our
# client against the stock server (the client's link down for 3 s, its
# RDMA device deleted and added, its transport disconnected through sysfs,
# nfsd restarted), then the stock client against our server (nfsd
# restarted, the server's RDMA device deleted and added, its rpcrdma
# swapped for the stock one and back under the live mount: two events, so
# that every other event finds our server in place), then our server on
# the debug kernel (KASAN, lockdep, kmemleak; role our-server-debug): nfsd
# restarted, then our rpcrdma swapped for the stock one under the mount
# (OUR_SERVER_DEBUG_KINDS, one event each), and a kmemleak scan at the
# end.  After each event I/O must resume within 120 s, and within 5 s
# (RESUME_LIMIT) after our client's link flap, device re-add and sysfs
# disconnect: it reconnects as soon as the link is back
# (xprtrdma/linkwatch.c); the resume times are printed; fio's verify and
# the files written must come out intact.  DISCONNECT_EVENTS per role but
# the debug one: 4 in make check (each kind once), 80 in make stress
# (20 of each kind).
# OUR_CLIENT_KINDS and OUR_SERVER_KINDS choose other kinds
# (disconnect-client.sh lists them), DISCONNECT_ROLES some of the roles
# (our-client, our-server, our-server-debug, and stock-sysfs, not run by
# default: the stock modules at both ends, the sysfs disconnect alone),
# SYSFS_WRITES the dstaddr writes in a row of each sysfs disconnect,
# and DISCONNECT_PROVIDER=siw soft-iWARP instead of soft-RoCE (on the
# debug test kernel: Debian's kernel has no siw).
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
# role NAME SERVER_MODULE CLIENT_MODULE KINDS [RESUME_KINDS]: one guest
# pair, the server on $server_kernel.
role() {
	local server_ko=$ko

	[ "$server_kernel" = "$kernel" ] ||
		server_ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" "$server_kernel") ||
		return 1
	"$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1/$2" \
		--server-script "$RPCRDMA_TOP/selftests/guest/disconnect-server.sh" \
		--client-script "$RPCRDMA_TOP/selftests/guest/disconnect-client.sh" \
		--timeout $((600 + ${role_events:-$events} * 60)) \
		--server-env "RPCRDMA_KO=$server_ko" --client-env "RPCRDMA_KO=$ko" \
		--server-kernel "$server_kernel" --client-kernel "$kernel" \
		${server_env:+--server-env "$server_env"} \
		${client_env:+--client-env "$client_env"} \
		--env "RDMA_PROVIDER=$provider" \
		--env "EVENTS=${role_events:-$events}" --server-env "SERVER_MODULE=$3" \
		--client-env "CLIENT_MODULE=$4" --client-env "KINDS=$5" \
		${6:+--client-env "RESUME_KINDS=$6"} \
		--client-env "RESUME_LIMIT=${RESUME_LIMIT:-5}" \
		--client-env "FLAP_SECONDS=${FLAP_SECONDS:-3}"
}

rc=0
for r in ${DISCONNECT_ROLES:-our-client our-server our-server-debug}; do
	server_kernel=$kernel server_env= client_env= role_events=
	case $r in
	our-client)
		client_env="SYSFS_WRITES=${SYSFS_WRITES:-5}"
		role "$1" our-client stock ours \
			"${OUR_CLIENT_KINDS:-link-flap nfsd-restart device-readd sysfs-disconnect}" \
			"link-flap device-readd sysfs-disconnect" ||
			rc=1 ;;
	our-server)
		role "$1" our-server ours stock \
			"${OUR_SERVER_KINDS:-nfsd-restart server-device-readd module-swap module-swap}" ||
			rc=1 ;;
	our-server-debug)
		# Each kind once, ending on the swap to the stock server:
		# that server is never stopped under the mount (the 6.12
		# server leaves a connection request that comes in while
		# nfsd stops unanswered, Documentation/reliability.rst).
		# The debug kernel serves slowly: smaller fio files get
		# verified between the events.
		kinds=${OUR_SERVER_DEBUG_KINDS:-nfsd-restart module-swap}
		role_events=$(wc -w <<<"$kinds")
		server_kernel=test server_env=CHECK_KMEMLEAK=1
		client_env=FIO_SIZE=1M
		"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
		role "$1" our-server-debug ours stock "$kinds" || rc=1 ;;
	stock-sysfs)
		# Not in the default roles: the stock client against the
		# stock server, its dstaddr rewritten SYSFS_WRITES (20) times
		# in each of DISCONNECT_EVENTS events, to compare with ours
		# (Documentation/reliability.rst says what it showed).
		client_env="SYSFS_WRITES=${SYSFS_WRITES:-20}"
		role "$1" stock-sysfs stock stock sysfs-disconnect || rc=1 ;;
	*) die "DISCONNECT_ROLES: no role $r" ;;
	esac
done
grep -h "resume times\|resumed after" "$1"/*/client/log 2>/dev/null
exit $rc
