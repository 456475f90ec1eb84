#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (or reuse) the test kernel: Debian's linux-source-6.12, or with
# RPCRDMA_KERNEL=7.2 Debian's linux-source-7.2 (trixie-backports, the same
# version as the 7.2 kernel the guests boot), configured with allnoconfig
# plus selftests/config/test-kernel.config (KUnit, KASAN, lockdep,
# kmemleak, fault injection, rxe, sunrpc, NFS, nfsd, 9p, virtio).  For
# 7.2, test-kernel-7.2.config is merged over it: each option it names
# replaces the base's line, and "# CONFIG_FOO is not set" drops FOO.
#
# The result is cached outside the repository in
#   $RPCRDMA_CACHE/kernel/<key>/{build,bzImage,modroot,release,ready}
# where <key> hashes the source package version, the configuration
# fragment and this script.  $RPCRDMA_CACHE/kernel/current (6.12) and
# current-7.2 point at the newest of each.  A build happens only when the
# key changes.  Prints the kernel directory.

set -euo pipefail
. "$(dirname "$0")/common.sh"

ver=${RPCRDMA_KERNEL:-6.12}
config="$RPCRDMA_TOP/selftests/config"
case "$ver" in
6.12)
	tarball=/usr/src/linux-source-6.12.tar.xz
	srcver=$(debian_pkg_version linux-source-6.12) ||
		die "linux-source-6.12 is not installed (run: make deps)"
	link=current
	;;
7.2)
	# Unpacked in the trixie root, not installed on this machine.
	root=$("$(dirname "$0")/trixie-root.sh" --source) ||
		die "no linux-source-7.2 (selftests/lib/trixie-root.sh --source)"
	tarball="$root/usr/src/linux-source-7.2.tar.xz"
	srcver=$(chroot "$root" dpkg-query -W -f='${Version}' linux-source-7.2)
	link=current-7.2
	;;
*) die "RPCRDMA_KERNEL=$ver: the test kernel is built for 6.12 or 7.2" ;;
esac
[ -r "$tarball" ] || die "$tarball is missing (run: make deps)"

# The fragment for this version: the base, with the version's own lines
# in place of the base's for the options they name.
fragment=$(mktemp)
trap 'rm -f "$fragment"' EXIT
if [ -r "$config/test-kernel-$ver.config" ]; then
	awk 'NR == FNR {
		if (match($0, /^(# )?CONFIG_[A-Za-z0-9_]+/)) {
			opt = substr($0, RSTART, RLENGTH); sub(/^# /, "", opt)
			over[opt] = 1
		}
		next
	}
	{
		opt = $0; sub(/=.*/, "", opt)
		if (!(opt in over))
			print
	}' "$config/test-kernel-$ver.config" "$config/test-kernel.config" >"$fragment"
	grep -E '^(# )?CONFIG_' "$config/test-kernel-$ver.config" >>"$fragment"
else
	cp "$config/test-kernel.config" "$fragment"
fi

key=$( (echo "$srcver"; cat "$fragment" "$0") | sha256sum | cut -c1-16)
kdir="$RPCRDMA_CACHE/kernel/$key"
srcdir="$RPCRDMA_CACHE/src/$srcver/linux-source-$ver"

mkdir -p "$RPCRDMA_CACHE/kernel"
exec 9>"$RPCRDMA_CACHE/kernel/.lock"
flock 9

if [ -e "$kdir/ready" ]; then
	ln -sfn "$key" "$RPCRDMA_CACHE/kernel/$link"
	echo "$kdir"
	exit 0
fi

start=$(date +%s)
if [ ! -e "$srcdir/.extracted" ]; then
	echo "test kernel: extracting linux-source $srcver" >&2
	rm -rf "$(dirname "$srcdir")"
	mkdir -p "$(dirname "$srcdir")"
	tar -C "$(dirname "$srcdir")" -xf "$tarball"
	touch "$srcdir/.extracted"
fi

rm -rf "$kdir"
mkdir -p "$kdir/build"
echo "test kernel: configuring $key (log: $kdir/build.log)" >&2
KCONFIG_ALLCONFIG="$fragment" make -C "$srcdir" O="$kdir/build" \
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
done <"$fragment"
[ "$missing" = 0 ] || die "test kernel configuration is incomplete"

echo "test kernel: building on $(nproc) cores" >&2
if ! make -C "$kdir/build" -j"$(nproc)" bzImage modules >>"$kdir/build.log" 2>&1; then
	tail -n 40 "$kdir/build.log" >&2
	die "test kernel build failed"
fi
make -C "$kdir/build" INSTALL_MOD_PATH="$kdir/modroot" modules_install \
	>>"$kdir/build.log" 2>&1
cp "$kdir/build/arch/x86/boot/bzImage" "$kdir/bzImage"
cp "$fragment" "$kdir/fragment.config"
make -s -C "$kdir/build" kernelrelease >"$kdir/release"
echo "$(( $(date +%s) - start ))" >"$kdir/build-seconds"
touch "$kdir/ready"
ln -sfn "$key" "$RPCRDMA_CACHE/kernel/$link"
echo "test kernel: $(cat "$kdir/release") built in $(cat "$kdir/build-seconds")s" >&2
echo "$kdir"
