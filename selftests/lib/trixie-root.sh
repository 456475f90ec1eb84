#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# trixie-root.sh: a Debian 13 (trixie) root to build rpcrdma.ko for
# Debian's 7.2 kernel in, made once under $RPCRDMA_CACHE/trixie-root and
# kept; prints its path.  Debian's 7.2 headers (trixie-backports) build
# with gcc-14, and their kbuild tools need glibc 2.38 and pahole 1.30:
# none is in Debian 12.  A machine that runs trixie builds with plain
# "make KDIR=/usr/src/linux-headers-ABI" instead.
#
# The archive is the one this machine's apt sources name (the URI
# qemu-backports.sh --mirror prints; DEBIAN_MIRROR overrides it).  The
# root gets the newest linux-headers-7.2.N+deb13-amd64 there and what it
# depends on (gcc-14, the 7.2 kbuild tools); the root's .complete names
# that ABI.  A complete root is used as it is, without the network.
#
# Options combine (--kernel --abi installs the kernel, prints the ABI):
#   trixie-root.sh          make the root if need be, print its path
#   trixie-root.sh --abi    the 7.2 ABI whose headers the root holds
#   trixie-root.sh --kernel the same as the first, and the root holds
#                           that kernel too, for guests: its image
#                           (usr/lib/modules/ABI/vmlinuz.unsigned, from
#                           linux-binary-unsigned-ABI) and its modules
#                           (linux-modules-ABI), unpacked in the root, not
#                           on the machine
#   trixie-root.sh --source the same as the first, and the root holds
#                           linux-source-7.2 of that kernel's version
#                           (usr/src/linux-source-7.2.tar.xz), which
#                           build-kernel.sh makes the 7.2 test kernel from
set -euo pipefail
. "$(dirname "$0")/common.sh"

root=$RPCRDMA_CACHE/trixie-root

want_kernel=0 want_source=0 want_abi=0
for arg in "$@"; do
	case "$arg" in
	--kernel) want_kernel=1 ;;
	--source) want_source=1 ;;
	--abi) want_abi=1 ;;
	*) die "usage: trixie-root.sh [--abi] [--kernel] [--source]" ;;
	esac
done

# print_result: what the command line asked for.
print_result() {
	local abi

	abi=$(cat "$root/.complete")
	if [ "$want_kernel" = 1 ] &&
	   [ ! -e "$root/usr/lib/modules/$abi/vmlinuz.unsigned" ]; then
		echo "trixie-root: installing the $abi kernel in $root" >&2
		chroot "$root" sh -c "DEBIAN_FRONTEND=noninteractive apt-get \
			install -y -q --no-install-recommends \
			linux-binary-unsigned-$abi linux-modules-$abi" \
			>>"$root.log" 2>&1 ||
			{ tail -n 20 "$root.log" >&2; die "installing the $abi kernel failed"; }
	fi
	if [ "$want_source" = 1 ] &&
	   [ ! -e "$root/usr/src/linux-source-7.2.tar.xz" ]; then
		# The source of the very kernel the guests boot: the headers'
		# package version.
		pkgver=$(chroot "$root" dpkg-query -W -f='${Version}' \
			"linux-headers-$abi")
		echo "trixie-root: installing linux-source-7.2 $pkgver in $root" >&2
		chroot "$root" sh -c "DEBIAN_FRONTEND=noninteractive apt-get \
			install -y -q --no-install-recommends \
			linux-source-7.2=$pkgver" >>"$root.log" 2>&1 ||
			{ tail -n 20 "$root.log" >&2; die "installing linux-source-7.2 failed"; }
	fi
	if [ "$want_abi" = 1 ]; then
		echo "$abi"
	else
		echo "$root"
	fi
}

if [ -s "$root/.complete" ]; then
	print_result
	exit 0
fi
[ "$(id -u)" = 0 ] || die "making the trixie root needs root (debootstrap)"
command -v debootstrap >/dev/null || die "debootstrap is missing (make deps)"
mirror=${DEBIAN_MIRROR:-$("$(dirname "$0")/qemu-backports.sh" --mirror)} ||
	die "no Debian archive in this machine's apt sources"

rm -rf "$root"
mkdir -p "$root"
echo "trixie-root: debootstrap trixie into $root" >&2
debootstrap --variant=minbase trixie "$root" "$mirror" >"$root.log" 2>&1 ||
	{ tail -n 20 "$root.log" >&2; die "debootstrap failed ($root.log)"; }
echo "deb $mirror trixie-backports main" \
	>"$root/etc/apt/sources.list.d/backports.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" apt-get update -q >>"$root.log" 2>&1 ||
	{ tail -n 20 "$root.log" >&2; die "apt-get update in the trixie root failed"; }
hdr=$(chroot "$root" apt-cache pkgnames linux-headers-7.2. |
      grep -E '^linux-headers-7\.2\.[0-9]+\+deb13-amd64$' | sort -V | tail -n 1)
[ -n "$hdr" ] || die "no linux-headers-7.2.*+deb13-amd64 in trixie-backports"
if ! chroot "$root" sh -c "DEBIAN_FRONTEND=noninteractive apt-get install \
	-y -q --no-install-recommends make gcc-14 binutils \
	libc6-dev libelf-dev libssl-dev pahole bc bison flex kmod python3 \
	cpio xz-utils $hdr" >>"$root.log" 2>&1; then
	tail -n 20 "$root.log" >&2
	die "installing $hdr in the trixie root failed ($root.log)"
fi
echo "${hdr#linux-headers-}" >"$root/.complete"
print_result
