#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building rpcrdma.ko, the test kernel,
# the QEMU guests and the tests need.  Idempotent: packages already present
# are left alone, and apt is not even asked when nothing is missing.

set -euo pipefail

PACKAGES=(
	# module and kernel builds
	build-essential bc flex bison libelf-dev libssl-dev dwarves rsync
	cpio kmod xz-utils zstd sparse python3 dkms
	# the trixie root that builds for Debian's 7.2 (trixie-root.sh)
	debootstrap
	# the 6.12 kernel we target: image for guests, headers for the module,
	# source for the test kernel (the metapackages pick the version)
	linux-image-6.12-amd64 linux-headers-6.12-amd64 linux-source-6.12
	# guests
	qemu-system-x86 busybox-static
	# RDMA, NFS and load generation inside the guests
	rdma-core ibverbs-utils ibverbs-providers rdmacm-utils perftest
	python3-pyverbs iproute2 nfs-kernel-server nfs-common rpcbind fio
	procps psmisc
	# fetching the guests' QEMU from bookworm-backports (below)
	curl gpgv debian-archive-keyring
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "deps: all ${#PACKAGES[@]} packages present"
else
	[ "$(id -u)" = 0 ] ||
		{ echo "deps: run as root (apt-get)" >&2; exit 1; }
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The guests' emulator: QEMU from bookworm-backports, unpacked into the
# cache beside Debian's (selftests/lib/qemu-backports.sh says why).  Once
# it is there, no network is needed.  Without it the guests run on
# Debian's QEMU 7.2, which works but crashes more often.
. "$(dirname "$0")/../selftests/lib/common.sh"
if [ -z "${RPCRDMA_QEMU:-}" ] && [ "$(guest_qemu)" = qemu-system-x86_64 ]; then
	mkdir -p "$RPCRDMA_CACHE/qemu-backports"
	"$(dirname "$0")/../selftests/lib/qemu-backports.sh" >/dev/null ||
		echo "deps: warning: no QEMU from bookworm-backports; the guests run on Debian's QEMU" >&2
fi
