#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-stage.sh OUT
#
# Run "scripts/dkms.sh install", then "scripts/dkms.sh remove", for
# Debian's 6.12 kernel on this machine, in a private mount namespace
# whose /usr/src, /var/lib/dkms and /lib/modules/<release> are overlays
# on a tmpfs: DKMS does its real work, and the host's trees never
# change.  After each step the kernel's module tree (updates/ and the
# modules.* indexes depmod wrote) is saved as OUT/installed.tar and
# OUT/removed.tar, for a guest to lay over its own /lib/modules.

set -euo pipefail
. "$(dirname "$0")/common.sh"

out=${1:?usage: dkms-stage.sh OUT}
rel=$(debian_kernel_release) || die "linux-image-6.12-amd64 is not installed"
command -v dkms >/dev/null || die "dkms is not installed (make deps)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
mkdir -p /var/lib/dkms

exec unshare --mount --propagation private \
	bash -s "$RPCRDMA_TOP" "$rel" "$out" <<'NAMESPACE'
set -euo pipefail
top=$1 rel=$2 out=$3
scratch=$(mktemp -d)
mount -t tmpfs tmpfs "$scratch"
for dir in /usr/src /var/lib/dkms "/lib/modules/$rel"; do
	name=$(echo "$dir" | tr / _)
	mkdir -p "$scratch/$name.upper" "$scratch/$name.work"
	mount -t overlay overlay -o "lowerdir=$dir,upperdir=$scratch/$name.upper,workdir=$scratch/$name.work" "$dir"
done

# The module tree as modprobe sees it: updates/ and the indexes.
snapshot() {
	(cd "/lib/modules/$rel" &&
	 tar -cf "$out/$1.tar" $(ls -d updates modules.* 2>/dev/null))
}

"$top/scripts/dkms.sh" install
snapshot installed
"$top/scripts/dkms.sh" remove
snapshot removed
NAMESPACE
