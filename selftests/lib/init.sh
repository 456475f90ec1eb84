#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the guests' initramfs (busybox).  Mounts the host's root file
# system read-only over 9p with a tmpfs overlay on top, mounts the run's
# output folder read-write at /out, and hands over to guest-init.sh inside
# that root.  Any failure here ends the guest; the host then reports that no
# status was written.

/bin/busybox --install -s /bin
export PATH=/bin

fail() {
	echo "rpcrdma-init: $*"
	reboot -f
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
. /config

# Debian's kernel has 9p and overlayfs as modules: load the ones the host
# resolved (in dependency order) before anything else.
if [ -e /modules/order ]; then
	for m in $(cat /modules/order); do
		insmod "/modules/$m" || fail "cannot load $m"
	done
fi

mkdir -p /lower /rw /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000 hostroot /lower ||
	fail "cannot mount the host root over 9p"
mount -t tmpfs -o mode=0755 tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work \
	overlay /newroot || fail "cannot mount the overlay root"
mkdir -p /newroot/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 out /newroot/out ||
	fail "cannot mount the output folder"
cp /config /newroot/etc/rpcrdma-guest.conf
# Keep the plain host view reachable: guest-init.sh binds the repository
# from it when the repository sits below /tmp or /run, which get a tmpfs.
mkdir -p /newroot/.host
mount --bind /lower /newroot/.host
for d in dev proc sys; do
	mount --move "/$d" "/newroot/$d"
done
exec switch_root /newroot /bin/bash "$GUEST_INIT"
