#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh debian|test [make options...]
#
# Build rpcrdma.ko for Debian's 6.12 kernel or for the test kernel, each in
# its own copy of the sources under build/<flavour> (Kbuild of 6.12 puts
# objects next to the sources, so one tree cannot hold two builds).  The
# build log is build/<flavour>.log; prints the path of the module.

set -euo pipefail
. "$(dirname "$0")/common.sh"

flavour=${1:?usage: build-module.sh debian|test [make options]}
shift
case "$flavour" in
debian)
	rel=$(debian_kernel_release) || die "linux-image-6.12-amd64 is not installed"
	kdir="/usr/src/linux-headers-$rel"
	;;
test)
	kdir="$(test_kernel_dir)/build" || die "no test kernel: run make test-kernel"
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
if ! make -C "$kdir" M="$dst/src" "$@" modules >"$dst.log" 2>&1; then
	cat "$dst.log" >&2
	die "building rpcrdma.ko for the $flavour kernel failed"
fi
echo "$dst/src/rpcrdma.ko"
