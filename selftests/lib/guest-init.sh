#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of a guest, inside the overlay root.  Prepares the system (tmpfs,
# debugfs, the test kernel's modules, the network), runs the test script,
# then saves its exit status and the kernel log in /out/$GUEST_NAME and
# powers the guest off.

. /etc/rpcrdma-guest.conf
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
out="/out/$GUEST_NAME"
mkdir -p "$out"

mount -t tmpfs -o mode=0755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null

# A repository or cache below /tmp or /run (a CI clone, say) was hidden by
# the tmpfs mounts above: bind it back from the host view.
for dir in "$RPCRDMA_TOP" "$RPCRDMA_CACHE"; do
	case "$dir" in
	/tmp/*|/run/*)
		mkdir -p "$dir"
		mount --bind "/.host$dir" "$dir"
		;;
	esac
done

# The test kernel's modules live in the host's cache, not in /lib/modules.
if [ -n "$GUEST_MODDIR" ]; then
	mkdir -p "/lib/modules/$GUEST_RELEASE"
	mount --bind "$GUEST_MODDIR" "/lib/modules/$GUEST_RELEASE"
fi

hostname "$GUEST_NAME"
ip link set lo up
if [ -n "$GUEST_IP" ]; then
	# Built into the test kernel, a module in Debian's; modprobe alone
	# costs seconds on the debug kernel under TCG.
	[ -e /sys/class/net/eth0 ] || modprobe -q virtio_net
	# The same host number in 2001:db8::/64 (documentation range), for
	# the IPv6 (rdma6) tests.  One ip process for the three commands.
	v6host=${GUEST_IP%/*}
	ip -force -batch - 2>/dev/null <<-EOF
	addr add $GUEST_IP dev eth0
	addr add 2001:db8::${v6host##*.}/64 dev eth0 nodad
	link set eth0 up
	EOF
fi

echo "guest $GUEST_NAME: running $GUEST_SCRIPT on $(uname -r)" >/dev/console
cd "$out" || exit 1
export GUEST_NAME GUEST_OUT="$out" RPCRDMA_TOP GUEST_RELEASE
# tee ends when the last writer of its pipe has gone, and a process the
# script left behind (a writer blocked on a stuck mount, a hung "rdma link
# delete") may never go: tee gets 10 s, then the guest carries on.
# Process substitution opens /dev/fd/N, which devtmpfs does not have.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
exec 3> >(tee "$out/log" >/dev/console)
tee_pid=$!
timeout -k 5 "$GUEST_SCRIPT_TIMEOUT" bash "$GUEST_SCRIPT" >&3 2>&1
rc=$?
# When the script ended, by the host's clock (the file's time on 9p):
# vm.sh records it as the time of a failure (crash.sh orders them).
: >"$out/script-ended"
exec 3>&-
for _ in $(seq 50); do
	kill -0 "$tee_pid" 2>/dev/null || break
	sleep 0.2
done
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	# What the script was waiting for: the stacks of the blocked tasks.
	{
		echo "guest $GUEST_NAME: script timed out; blocked tasks:"
		echo 1 >/proc/sys/kernel/sysrq
		echo w >/proc/sysrq-trigger
		sleep 1
		dmesg | sed -n '/sysrq: Show Blocked State/,$p' | head -n 150
	} 2>&1 | tee -a "$out/log"
fi

dmesg >"$out/dmesg"
echo "$rc" >"$out/status"
touch "/out/$GUEST_NAME.done"
sync
echo "guest $GUEST_NAME: exit status $rc" >/dev/console
reboot -f
