#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-backports.sh: a newer QEMU for the guests without touching the
# machine's own.  Downloads qemu-system-x86 and the two packages it needs
# from Debian's bookworm-backports (signature of InRelease checked with
# the Debian archive keyring, then the checksums of Packages.xz and of
# every .deb), unpacks them under $RPCRDMA_CACHE/qemu-backports/VERSION
# and prints the two variables selftests/lib/vm.sh reads:
#
#   eval "$(selftests/lib/qemu-backports.sh)"   # sets and exports them
#   selftests/run.sh 60-client-vs-our-server
#
# It also points $QEMU_BACKPORT (common.sh) at that version,
# which vm.sh then runs by default: guests crashed about once per six
# guest-minutes on QEMU 7.2 (Debian 12's) and not once in 35 on the
# backport (Documentation/reliability.rst).  make deps runs this once.
set -euo pipefail
. "$(dirname "$0")/common.sh"

mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm-backports
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
pkgs="qemu-system-x86 qemu-system-common qemu-system-data"

for tool in curl gpgv xz dpkg-deb sha256sum; do
	command -v "$tool" >/dev/null || die "qemu-backports: $tool is missing"
done
[ -r "$keyring" ] || die "qemu-backports: no $keyring (debian-archive-keyring)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fetch FILE URL
fetch() {
	curl -fsS --connect-timeout 20 --retry 2 -o "$1" "$2"
}

fetch "$tmp/InRelease" "$mirror/dists/$suite/InRelease" ||
	die "qemu-backports: cannot fetch $suite/InRelease"
gpgv --keyring "$keyring" --output "$tmp/Release" "$tmp/InRelease" \
	2>"$tmp/gpgv.log" ||
	{ cat "$tmp/gpgv.log" >&2; die "qemu-backports: bad signature on InRelease"; }

index=main/binary-amd64/Packages.xz
sum=$(awk -v f="$index" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 }
	s && $3 == f { print $1 }' "$tmp/Release")
[ -n "$sum" ] || die "qemu-backports: $index not in Release"
fetch "$tmp/Packages.xz" "$mirror/dists/$suite/$index" ||
	die "qemu-backports: cannot fetch $index"
echo "$sum  $tmp/Packages.xz" | sha256sum -c --quiet - ||
	die "qemu-backports: $index checksum mismatch"

# "PACKAGE VERSION FILENAME SHA256" for each package wanted.
xz -dc "$tmp/Packages.xz" | awk -v want=" $pkgs " '
	/^Package:/ { p = $2; v = f = s = "" }
	/^Version:/ { v = $2 }
	/^Filename:/ { f = $2 }
	/^SHA256:/ { s = $2 }
	/^$/ { if (index(want, " " p " ") && f != "") print p, v, f, s; p = "" }
	' >"$tmp/wanted"
[ "$(wc -l <"$tmp/wanted")" = 3 ] ||
	die "qemu-backports: $suite lacks one of: $pkgs"

version=$(awk '$1 == "qemu-system-x86" { print $2 }' "$tmp/wanted")
dest=$RPCRDMA_CACHE/qemu-backports/${version//[:~+]/_}
if [ ! -x "$dest/usr/bin/qemu-system-x86_64" ]; then
	mkdir -p "$dest.new"
	while read -r pkg _ file sha; do
		fetch "$tmp/$pkg.deb" "$mirror/$file" ||
			die "qemu-backports: cannot fetch $file"
		echo "$sha  $tmp/$pkg.deb" | sha256sum -c --quiet - ||
			die "qemu-backports: $file checksum mismatch"
		dpkg-deb -x "$tmp/$pkg.deb" "$dest.new"
	done <"$tmp/wanted"
	rm -rf "$dest"
	mv "$dest.new" "$dest"
fi
# The emulator vm.sh uses when RPCRDMA_QEMU is not set.
ln -sfn "$(basename "$dest")" "$QEMU_BACKPORT"
"$dest/usr/bin/qemu-system-x86_64" --version | head -1 >&2
echo "export RPCRDMA_QEMU=$dest/usr/bin/qemu-system-x86_64"
echo "export RPCRDMA_QEMU_DATADIR=$dest/usr/share/qemu"
