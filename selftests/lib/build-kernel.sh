#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the test kernel: Debian's linux-source-6.12 configured
# with allnoconfig plus selftests/config/test-kernel.config (KUnit, KASAN,
# lockdep, kmemleak, fault injection, rxe, sunrpc, NFS, nfsd, 9p, virtio).
#
# The result is cached outside the repository in
#   $RPCRDMA_CACHE/kernel/<key>/{build,bzImage,modroot,release,ready}
# where <key> hashes the source package version, the configuration fragment
# and this script.  $RPCRDMA_CACHE/kernel/current points at the newest one.
# A build happens only when the key changes.  Prints the kernel directory.

set -euo pipefail
. "$(dirname "$0")/common.sh"

FRAGMENT="$RPCRDMA_TOP/selftests/config/test-kernel.config"
TARBALL=/usr/src/linux-source-6.12.tar.xz

srcver=$(debian_pkg_version linux-source-6.12) ||
	die "linux-source-6.12 is not installed (run: make deps)"
[ -r "$TARBALL" ] || die "$TARBALL is missing (run: make deps)"

key=$( (echo "$srcver"; cat "$FRAGMENT" "$0") | sha256sum | cut -c1-16)
kdir="$RPCRDMA_CACHE/kernel/$key"
srcdir="$RPCRDMA_CACHE/src/$srcver/linux-source-6.12"

mkdir -p "$RPCRDMA_CACHE/kernel"
exec 9>"$RPCRDMA_CACHE/kernel/.lock"
flock 9

if [ -e "$kdir/ready" ]; then
	ln -sfn "$key" "$RPCRDMA_CACHE/kernel/current"
	echo "$kdir"
	exit 0
fi

start=$(date +%s)
if [ ! -e "$srcdir/.extracted" ]; then
	echo "test kernel: extracting linux-source $srcver" >&2
	rm -rf "$(dirname "$srcdir")"
	mkdir -p "$(dirname "$srcdir")"
	tar -C "$(dirname "$srcdir")" -xf "$TARBALL"
	touch "$srcdir/.extracted"
fi

rm -rf "$kdir"
mkdir -p "$kdir/build"
echo "test kernel: configuring $key (log: $kdir/build.log)" >&2
KCONFIG_ALLCONFIG="$FRAGMENT" make -C "$srcdir" O="$kdir/build" \
	allnoconfig >"$kdir/build.log" 2>&1

# Kconfig drops an option whose dependencies are not met without a word:
# insist that every line of the fragment made it into .config.
missing=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n)
		opt=${line%%=*}
		if grep -q "^$opt=" "$kdir/build/.config"; then
			echo "test kernel: $opt should be off" >&2
			missing=1
		fi
		;;
	CONFIG_*)
		if ! grep -qxF "$line" "$kdir/build/.config"; then
			echo "test kernel: $line did not survive Kconfig" >&2
			missing=1
		fi
		;;
	esac
done <"$FRAGMENT"
[ "$missing" = 0 ] || die "test kernel configuration is incomplete"

echo "test kernel: building on $(nproc) cores" >&2
if ! make -C "$kdir/build" -j"$(nproc)" bzImage modules >>"$kdir/build.log" 2>&1; then
	tail -n 40 "$kdir/build.log" >&2
	die "test kernel build failed"
fi
make -C "$kdir/build" INSTALL_MOD_PATH="$kdir/modroot" modules_install \
	>>"$kdir/build.log" 2>&1
cp "$kdir/build/arch/x86/boot/bzImage" "$kdir/bzImage"
make -s -C "$kdir/build" kernelrelease >"$kdir/release"
echo "$(( $(date +%s) - start ))" >"$kdir/build-seconds"
touch "$kdir/ready"
ln -sfn "$key" "$RPCRDMA_CACHE/kernel/current"
echo "test kernel: $(cat "$kdir/release") built in $(cat "$kdir/build-seconds")s" >&2
echo "$kdir"
