#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/dkms.sh install|remove
#
# install: copy this tree to /usr/src/rpcrdma-<version>, register it with
#          DKMS, and build and install rpcrdma.ko for every installed 6.12
#          kernel that has its headers (dkms rebuilds it when a new one
#          is installed).
# remove:  take it out of DKMS and /usr/src; the kernel's own rpcrdma.ko
#          is what modprobe finds again.

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
hver=$(sed -n 's/^#define RPCRDMA_MODULE_VERSION "\(.*\)"$/\1/p' \
	"$top/include/rpcrdma/version.h")
[ "$ver" = "$hver" ] || {
	echo "dkms.conf says $ver, include/rpcrdma/version.h says $hver" >&2
	exit 1
}
command -v dkms >/dev/null || {
	echo "dkms is not installed (make deps)" >&2
	exit 1
}
src=/usr/src/rpcrdma-$ver

case "${1:-}" in
install)
	if dkms status -m rpcrdma -v "$ver" | grep -q .; then
		dkms remove -m rpcrdma -v "$ver" --all >/dev/null
	fi
	rm -rf "$src"
	mkdir -p "$src"
	(cd "$top" && tar --exclude=./build --exclude=./.git \
		--exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' -cf - .) | tar -C "$src" -xf -
	dkms add -m rpcrdma -v "$ver"
	built=0
	for kdir in /lib/modules/6.12* /lib/modules/7.2.*; do
		k=$(basename "$kdir")
		[ -d "$kdir/build" ] || continue
		dkms install -m rpcrdma -v "$ver" -k "$k"
		built=$((built + 1))
	done
	[ "$built" -gt 0 ] || {
		echo "no 6.12 or 7.2 kernel with headers installed (make deps)" >&2
		exit 1
	}
	dkms status -m rpcrdma
	;;
remove)
	if dkms status -m rpcrdma -v "$ver" | grep -q .; then
		dkms remove -m rpcrdma -v "$ver" --all
	fi
	rm -rf "$src"
	;;
*)
	echo "usage: $0 install|remove" >&2
	exit 2
	;;
esac
