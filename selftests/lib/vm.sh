#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot one QEMU guest, run a script inside it and return its exit status.
#
#   vm.sh --kernel debian|debian-7.2|test|test-7.2|PATH --script FILE --out DIR [options]
#
# The guest sees the host's root read-only over 9p with a tmpfs overlay on
# top and DIR read-write at /out; it leaves console.log, log (the script's
# output), dmesg and status in DIR/NAME, and for selftests/lib/crash.sh
# "kernel" (debian, test or path, then the release) and "outcome" (ok,
# failed, hung, crashed or died, then when the guest's failure happened:
# when its script ended, else when QEMU exited; host clock).  The guest is always killed after
# --timeout seconds, and a guest that dies or hangs is reported, never
# waited for.
#
# Options:
#   --name NAME            guest name (default: guest)
#   --timeout SECONDS      hard limit for the whole guest (default: 300)
#   --cpus N, --mem MIB    guest size (default: 2, 2048)
#   --net-listen SOCK      virtio-net on a unix stream socket, listening side
#   --net-connect SOCK     virtio-net on a unix stream socket, connecting side
#   --net2-listen SOCK, --net2-connect SOCK
#                          a second such NIC (eth1), for bonding tests
#   --ip ADDR/PREFIX       address of eth0 in the guest
#   --accel tcg|kvm        QEMU accelerator (default: $RPCRDMA_ACCEL or tcg)
#                          (TCG CPU model: $RPCRDMA_QEMU_CPU, default max;
#                          TCG threading: $RPCRDMA_TCG_THREAD, default multi;
#                          emulator: $RPCRDMA_QEMU, default the backport
#                          make deps put in the cache, else Debian's
#                          qemu-system-x86_64; $RPCRDMA_QEMU_DATADIR is
#                          searched first for its firmware, see
#                          selftests/lib/qemu-backports.sh;
#                          $RPCRDMA_INSN_PLUGIN: insn-count.so, which then
#                          counts the guest's instructions in DIR/NAME/insns,
#                          and those of the modules DIR/NAME/text-ranges lists;
#                          per block too if $RPCRDMA_INSN_PROFILE is set)
#   --pcap FILE            record the guest's link (needs --net-*)
#   --env NAME=VALUE       exported to the guest script (repeatable)
#   --append ARGS          more kernel command-line arguments

set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/crash.sh"

name=guest
timeout=300
cpus=2
mem=2048
accel=${RPCRDMA_ACCEL:-tcg}
kernel= script= out= net= net2= ip= pcap= extra_append=
envs=()

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift ;;
	--script) script=$2; shift ;;
	--out) out=$2; shift ;;
	--name) name=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--append) extra_append+=" $2"; shift ;;
	--cpus) cpus=$2; shift ;;
	--mem) mem=$2; shift ;;
	--net-listen) net="server=on,addr.type=unix,addr.path=$2"; shift ;;
	--net-connect) net="server=off,addr.type=unix,addr.path=$2"; shift ;;
	--net2-listen) net2="server=on,addr.type=unix,addr.path=$2"; shift ;;
	--net2-connect) net2="server=off,addr.type=unix,addr.path=$2"; shift ;;
	--ip) ip=$2; shift ;;
	--accel) accel=$2; shift ;;
	--pcap) pcap=$2; shift ;;
	--env) envs+=("$2"); shift ;;
	*) die "vm.sh: unknown option $1" ;;
	esac
	shift
done
[ -n "$kernel" ] && [ -n "$script" ] && [ -n "$out" ] ||
	die "usage: vm.sh --kernel debian|debian-7.2|test|test-7.2|PATH --script FILE --out DIR [...]"

# Resolve the kernel image, its release and where its modules are.
# RPCRDMA_KERNEL=7.2 runs Debian's 7.2 wherever Debian's kernel is asked
# for (testing.rst).
moddir=
[ "$kernel" != debian ] || kernel=$(debian_kind)
[ "$kernel" != test ] || kernel=$(test_kind)
case "$kernel" in
debian-7.2)
	troot=$("$(dirname "$0")/trixie-root.sh" --kernel) ||
		die "no Debian 7.2 kernel (selftests/lib/trixie-root.sh)"
	release=$(cat "$troot/.complete")
	image="$troot/usr/lib/modules/$release/vmlinuz.unsigned"
	modroot=$troot
	moddir="$troot/usr/lib/modules/$release"
	;;
debian)
	release=$(debian_kernel_release) || die "linux-image-6.12-amd64 is not installed"
	image="/boot/vmlinuz-$release"
	modroot=/
	;;
test | test-7.2)
	ver=$(kind_version "$kernel")
	kdir=$(test_kernel_dir "$ver") ||
		die "no $ver test kernel: run RPCRDMA_KERNEL=$ver selftests/lib/build-kernel.sh"
	release=$(cat "$kdir/release")
	image="$kdir/bzImage"
	modroot="$kdir/modroot"
	moddir="$modroot/lib/modules/$release"
	;;
*)
	image=$kernel
	release=${RPCRDMA_RELEASE:?set RPCRDMA_RELEASE for a kernel given by path}
	modroot=${RPCRDMA_MODROOT:-/}
	[ "$modroot" = / ] || moddir="$modroot/lib/modules/$release"
	;;
esac
[ -r "$image" ] || die "kernel image $image is not readable"

[ -r "$script" ] || die "script $script is not readable"
out=$(mkdir -p "$out" && cd "$out" && pwd)
gdir="$out/$name"
rm -rf "$gdir" "$out/$name.done"
mkdir -p "$gdir"
# The guest runs its own copy: host paths like /tmp are not what it sees.
cp "$script" "$gdir/script.sh"
# Which kernel the guest runs: rxe_crash (crash.sh) retries a crash only
# on Debian's.
case "$kernel" in
debian | debian-7.2 | test | test-7.2) echo "$kernel $release" ;;
*) echo "path $release" ;;
esac >"$gdir/kernel"

# Base initramfs: busybox, /init, and the modules the kernel needs to reach
# the host root (9p, overlayfs) when they are not built in.  Cached per
# kernel release and version of init.sh.
initkey=$( (echo "$release $modroot"; cat "$RPCRDMA_TOP/selftests/lib/init.sh") |
	  sha256sum | cut -c1-16)
base="$RPCRDMA_CACHE/initramfs/$release-$initkey.cpio"
if [ ! -e "$base" ]; then
	tmp=$(mktemp -d)
	mkdir -p "$tmp"/{bin,proc,sys,dev,modules}
	cp /bin/busybox "$tmp/bin/busybox"
	ln -s busybox "$tmp/bin/sh"
	cp "$RPCRDMA_TOP/selftests/lib/init.sh" "$tmp/init"
	chmod +x "$tmp/init"
	for m in 9pnet_virtio 9p overlay; do
		modprobe -d "$modroot" -S "$release" --show-depends "$m" 2>/dev/null
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r ko; do
		m=$(basename "$ko")
		m=${m%.xz}; m=${m%.zst}
		case "$ko" in
		*.xz) xz -dc "$ko" >"$tmp/modules/$m" ;;
		*.zst) zstd -qdc "$ko" >"$tmp/modules/$m" ;;
		*) cp "$ko" "$tmp/modules/$m" ;;
		esac
		echo "$m" >>"$tmp/modules/order"
	done
	mkdir -p "$RPCRDMA_CACHE/initramfs"
	(cd "$tmp" && find . | cpio -o -H newc --quiet) >"$base.tmp"
	mv "$base.tmp" "$base"
	rm -rf "$tmp"
fi

# Per-run settings go into a second cpio archive appended to the first.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/config" <<CONF
GUEST_NAME='$name'
GUEST_INIT='$RPCRDMA_TOP/selftests/lib/guest-init.sh'
GUEST_SCRIPT='/out/$name/script.sh'
GUEST_SCRIPT_TIMEOUT=$((timeout > 60 ? timeout - 30 : timeout))
GUEST_IP='$ip'
GUEST_RELEASE='$release'
GUEST_MODDIR='$moddir'
RPCRDMA_TOP='$RPCRDMA_TOP'
RPCRDMA_CACHE='$RPCRDMA_CACHE'
CONF
for e in "${envs[@]}"; do
	echo "export ${e%%=*}='${e#*=}'" >>"$tmp/config"
done
(cd "$tmp" && echo config | cpio -o -H newc --quiet) >"$tmp/config.cpio"
cat "$base" "$tmp/config.cpio" >"$gdir/initramfs.cpio"

case "$accel" in
kvm) accel_args=(-accel kvm -cpu host) ;;
tcg) accel_args=(-accel "tcg,thread=${RPCRDMA_TCG_THREAD:-multi}"
		-cpu "${RPCRDMA_QEMU_CPU:-max}") ;;
*) die "unknown accelerator $accel" ;;
esac

net_args=()
if [ -n "$net" ]; then
	# A MAC of its own per guest, from the last byte of its address.
	last=${ip%%/*}; last=${last##*.}
	mac=$(printf '52:54:00:c0:00:%02x' "${last:-1}")
	net_args=(-netdev "stream,id=n0,$net" -device "virtio-net-pci,netdev=n0,mac=$mac")
	[ -z "$pcap" ] || net_args+=(-object "filter-dump,id=f0,netdev=n0,file=$pcap,maxlen=400")
fi
if [ -n "$net2" ]; then
	mac2=$(printf '52:54:00:c1:00:%02x' "${last:-1}")
	net_args+=(-netdev "stream,id=n1,$net2" -device "virtio-net-pci,netdev=n1,mac=$mac2")
fi

# loglevel=5: the console prints warnings (KERN_WARNING is 4) and errors,
# so that a warning before a crash is in console.log, which is all that a
# crashed guest leaves (rxe_crash in crash.sh reads it).
append="console=ttyS0 acpi=off reboot=t panic=-1 oops=panic loglevel=5"
append+=" printk.devkmsg=on hung_task_panic=0 nokaslr"
# allnoconfig leaves KUNIT_DEFAULT_ENABLED off, and from 7.0 on
# KUNIT_AUTORUN_ENABLED too: suites in modules run only when KUnit is
# enabled at boot, and (7.2) asked to run them as they load.  6.12 has no
# kunit.autorun and hands it to init, which ignores it.
case "$kernel" in
test | test-*) append+=" kunit.enable=1 kunit.autorun=1" ;;
esac
append+=$extra_append

start=$(date +%s)
set +e
qemu=$(guest_qemu)
[ "$qemu" != "$QEMU_BACKPORT/usr/bin/qemu-system-x86_64" ] ||
	RPCRDMA_QEMU_DATADIR=$QEMU_BACKPORT/usr/share/qemu
qemu_version=$("$qemu" --version | awk 'NR == 1 { print $4 }')
qemu_data=()
[ -z "${RPCRDMA_QEMU_DATADIR:-}" ] || qemu_data=(-L "$RPCRDMA_QEMU_DATADIR")
# make bench counts each guest's instructions (selftests/bench/insn-count.c).
plugin=()
[ -z "${RPCRDMA_INSN_PLUGIN:-}" ] ||
	plugin=(-plugin "$RPCRDMA_INSN_PLUGIN,out=$gdir/insns,text=$gdir/text-ranges${RPCRDMA_INSN_PROFILE:+,profile=1}")
timeout -k 10 "$timeout" "$qemu" "${qemu_data[@]}" "${plugin[@]}" \
	-nodefaults -nographic -no-reboot -machine pc \
	"${accel_args[@]}" -smp "$cpus" -m "$mem" \
	-kernel "$image" -initrd "$gdir/initramfs.cpio" -append "$append" \
	-serial "file:$gdir/console.log" -monitor none -pidfile "$gdir/qemu.pid" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$out,mount_tag=out,security_model=none,multidevs=remap" \
	"${net_args[@]}" >"$gdir/qemu.log" 2>&1
qrc=$?
set -e
rm -f "$gdir/initramfs.cpio"
secs=$(( $(date +%s) - start ))

report_tail() {
	local first

	first=$(grep -m 1 -A 15 -E 'BUG:|Oops|general protection|KASAN|WARNING:|Kernel panic' \
		"$gdir/console.log" 2>/dev/null)
	if [ -n "$first" ]; then
		echo "---- first kernel report in $gdir/console.log ----" >&2
		echo "$first" >&2
	fi
	echo "---- last lines of $gdir/console.log ----" >&2
	tail -n 15 "$gdir/console.log" >&2
	cat "$gdir/qemu.log" >&2
}

# outcome OUTCOME [now]: how the guest ended and when it failed: when its
# script ended (guest-init.sh's script-ended), else (or with "now") now.
outcome() {
	local t=

	[ "${2:-}" = now ] || t=$(stat -c %.9Y "$gdir/script-ended" 2>/dev/null) || t=
	echo "$1 ${t:-$(date +%s.%N)}" >"$gdir/outcome"
}

if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
	outcome hung
	echo "vm: guest $name HUNG: killed after ${timeout}s" >&2
	report_tail
	guest_history_add "$gdir" "$secs" hung "$qemu_version" "$kernel" || true
	exit 124
fi
if [ ! -s "$gdir/status" ]; then
	if grep -q 'Kernel panic' "$gdir/console.log" 2>/dev/null; then
		# QEMU exits at the panic (panic=-1, -no-reboot).
		outcome crashed now
		echo "vm: guest $name CRASHED (kernel panic) after ${secs}s" >&2
	else
		outcome died
		echo "vm: guest $name ended after ${secs}s without reporting a status (qemu exit $qrc)" >&2
	fi
	report_tail
	guest_history_add "$gdir" "$secs" failed "$qemu_version" "$kernel" || true
	exit 125
fi
rc=$(cat "$gdir/status")
echo "vm: guest $name finished in ${secs}s with status $rc" >&2
if [ "$rc" = 0 ]; then
	outcome ok
else
	outcome failed
fi
if [ "$rc" = 0 ]; then
	guest_history_add "$gdir" "$secs" ok "$qemu_version" "$kernel" || true
else
	guest_history_add "$gdir" "$secs" failed "$qemu_version" "$kernel" || true
fi
exit "$rc"
