#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh debian|debian-7.2|test|test-7.2 [make options...]
#
# Build rpcrdma.ko for Debian's 6.12 kernel, Debian's 7.2 kernel (in the
# trixie root of trixie-root.sh, whose tools those headers need) or the
# test kernel built from either version's source (build-kernel.sh),
# each in its own copy of the sources under build/<flavour>
# (Kbuild puts objects next to the sources, so one tree cannot hold two
# builds).  The build log is build/<flavour>.log; prints the path of the
# module.

set -euo pipefail
. "$(dirname "$0")/common.sh"

flavour=${1:?usage: build-module.sh debian|debian-7.2|test|test-7.2 [make options]}
shift
# RPCRDMA_KERNEL=7.2: Debian's kernel is its 7.2, and the test kernel the
# one built from its source (as in vm.sh).
[ "$flavour" != debian ] || flavour=$(debian_kind)
[ "$flavour" != test ] || flavour=$(test_kind)
root=
case "$flavour" in
debian-7.2)
	root=$("$(dirname "$0")/trixie-root.sh") || die "no trixie root to build for 7.2 in"
	kdir="$root/usr/src/linux-headers-$(cat "$root/.complete")"
	;;
debian)
	rel=$(debian_kernel_release) || die "linux-image-6.12-amd64 is not installed"
	kdir="/usr/src/linux-headers-$rel"
	;;
test | test-7.2)
	ver=$(kind_version "$flavour")
	kdir=$(test_kernel_dir "$ver") ||
		die "no $ver test kernel: run RPCRDMA_KERNEL=$ver make test-kernel"
	kdir="$kdir/build"
	;;
*) die "unknown flavour $flavour" ;;
esac
[ -d "$kdir" ] || die "kernel build tree $kdir is missing (run: make deps)"

dst="$RPCRDMA_TOP/build/$flavour"
mkdir -p "$dst"
# One build per tree at a time (make check and make kunit may overlap).
exec 9>"$dst.lock"
flock 9
rsync -a --delete --exclude=/build/ --exclude=/.git/ --exclude='*.o' \
	--exclude='*.ko' --exclude='*.mod*' --exclude='.*.cmd' \
	--exclude=Module.symvers --exclude=modules.order \
	"$RPCRDMA_TOP/" "$dst/src/"
if [ -n "$root" ]; then
	# The root sees the copy at /mnt/rpcrdma; objtool reads /proc.
	mkdir -p "$root/mnt/rpcrdma" "$root/proc"
	cleanup() {
		umount "$root/mnt/rpcrdma" 2>/dev/null || true
		umount "$root/proc" 2>/dev/null || true
	}
	trap cleanup EXIT
	mount --bind "$dst/src" "$root/mnt/rpcrdma"
	mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
	build=(chroot "$root" make -C "${kdir#"$root"}" M=/mnt/rpcrdma)
else
	build=(make -C "$kdir" M="$dst/src")
fi
if ! "${build[@]}" "$@" modules >"$dst.log" 2>&1; then
	cat "$dst.log" >&2
	die "building rpcrdma.ko for the $flavour kernel failed"
fi
echo "$dst/src/rpcrdma.ko"
