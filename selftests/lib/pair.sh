#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot two guests joined by a private virtio-net link (192.0.2.0/24, the
# documentation range, carried over a unix socket that never leaves this
# machine): "server" at 192.0.2.1 and "client" at 192.0.2.2.
#
#   pair.sh --out DIR --server-script FILE --client-script FILE
#           [--server-kernel debian|test] [--client-kernel debian|test]
#           [--timeout SECONDS] [--pcap] [--links 1|2] [--env NAME=VALUE ...]
#           [--server-env NAME=VALUE ...] [--client-env NAME=VALUE ...]
#
# With --links 2 the guests are joined by a second link as well (eth1 in
# each, no address: a bonding test makes its own setup).  Each guest gets
# one CPU.  The scripts meet through flag files in /out
# (signal_peer / wait_peer in guest-lib.sh).  When one guest ends, the other
# gets 60 seconds to finish before it is killed.  Exit status: 0 only when
# both guests report 0.

set -euo pipefail
. "$(dirname "$0")/common.sh"

out= sscript= cscript= skernel=debian ckernel=debian timeout=400 pcap=
links=1
common=() senv=() cenv=()
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=$2; shift ;;
	--server-script) sscript=$2; shift ;;
	--client-script) cscript=$2; shift ;;
	--server-kernel) skernel=$2; shift ;;
	--client-kernel) ckernel=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--pcap) pcap=1 ;;
	--links) links=$2; shift ;;
	--env) common+=(--env "$2"); shift ;;
	--server-env) senv+=(--env "$2"); shift ;;
	--client-env) cenv+=(--env "$2"); shift ;;
	*) die "pair.sh: unknown option $1" ;;
	esac
	shift
done
[ -n "$out" ] && [ -n "$sscript" ] && [ -n "$cscript" ] ||
	die "usage: pair.sh --out DIR --server-script FILE --client-script FILE [...]"

mkdir -p "$out"
rm -f "$out"/*.flag "$out"/*.done
sock=$(mktemp -u /tmp/rpcrdma-link.XXXXXX)
vm="$(dirname "$0")/vm.sh"

spcap=()
[ -z "$pcap" ] || spcap=(--pcap "$out/server.pcap")
snet2=() cnet2=() sock2=
if [ "$links" = 2 ]; then
	sock2=$(mktemp -u /tmp/rpcrdma-link.XXXXXX)
	snet2=(--net2-listen "$sock2")
	cnet2=(--net2-connect "$sock2")
fi

"$vm" --name server --kernel "$skernel" --script "$sscript" --out "$out" \
	--cpus 1 --mem 2048 --timeout "$timeout" --net-listen "$sock" \
	--ip 192.0.2.1/24 "${spcap[@]}" "${snet2[@]}" "${common[@]}" \
	"${senv[@]}" &
spid=$!
# Before its QEMU opens the link, vm.sh may have a kernel to unpack and
# an initramfs to build (minutes on a cold machine, for 7.2's guests):
# wait as long as it runs, up to the guest's own timeout.
sockets_open() {
	[ -S "$sock" ] && { [ -z "$sock2" ] || [ -S "$sock2" ]; }
}
deadline=$((SECONDS + timeout))
until sockets_open || ! kill -0 "$spid" 2>/dev/null ||
	[ "$SECONDS" -ge "$deadline" ]; do
	sleep 0.1
done
sockets_open ||
	{ kill "$spid" 2>/dev/null; die "server guest did not open $sock"; }
"$vm" --name client --kernel "$ckernel" --script "$cscript" --out "$out" \
	--cpus 1 --mem 2048 --timeout "$timeout" --net-connect "$sock" \
	--ip 192.0.2.2/24 "${cnet2[@]}" "${common[@]}" "${cenv[@]}" &
cpid=$!

# When the first guest to end failed, its peer may be waiting for it for
# good: the peer gets a grace period to finish.  When it passed, the peer
# still has its own work to end with (the server's teardown, rmmod and
# kmemleak scans can take over a minute on the debug kernel), bounded by
# --timeout.
alive() {
	kill -0 "$spid" 2>/dev/null || kill -0 "$cpid" 2>/dev/null
}
set +e
if ! wait -n "$spid" "$cpid"; then
	for _ in $(seq 60); do
		alive || break
		sleep 1
	done
	for pid in "$spid" "$cpid"; do
		if kill -0 "$pid" 2>/dev/null; then
			echo "pair: stopping a guest that did not finish with its peer" >&2
			pkill -P "$pid"
		fi
	done
fi
wait "$spid"; src=$?
wait "$cpid"; crc=$?
set -e
rm -f "$sock" ${sock2:+"$sock2"}
echo "pair: server status $src, client status $crc" >&2
[ "$src" = 0 ] && [ "$crc" = 0 ]
