# SPDX-License-Identifier: GPL-2.0
# Shared definitions for the host-side scripts (sourced, not run).

RPCRDMA_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RPCRDMA_CACHE=${RPCRDMA_CACHE:-/var/cache/rpcrdma}

die() {
	echo "error: $*" >&2
	exit 1
}

# The Debian package version of a 6.12 kernel package, e.g. 6.12.117-1~deb12u1.
debian_pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null
}

# debian_kind: what "Debian's kernel" is in this run, for vm.sh and
# build-module.sh: debian (6.12), or debian-7.2 with RPCRDMA_KERNEL=7.2.
debian_kind() {
	if [ "${RPCRDMA_KERNEL:-6.12}" = 6.12 ]; then
		echo debian
	else
		echo "debian-$RPCRDMA_KERNEL"
	fi
}

# The kernel release Debian's 6.12 image and headers resolve to, from the
# metapackages rather than a hard-coded number: 6.12.117+deb12-amd64.
debian_kernel_release() {
	local dep

	dep=$(dpkg-query -W -f='${Depends}' linux-image-6.12-amd64 2>/dev/null |
	      grep -o 'linux-image-6\.12[^ ,]*-amd64' | head -n 1)
	[ -n "$dep" ] || return 1
	echo "${dep#linux-image-}"
}

debian_vmlinuz() {
	local rel

	rel=$(debian_kernel_release) || return 1
	[ -r "/boot/vmlinuz-$rel" ] && echo "/boot/vmlinuz-$rel"
}

# svc_max_payload: the largest READ or WRITE payload sunrpc lets nfsd have
# (RPCSVC_MAXPAYLOAD) in this run's kernel: 1 MiB in 6.12, 4 MiB in 7.2.
svc_max_payload() {
	if [ "${RPCRDMA_KERNEL:-6.12}" = 6.12 ]; then
		echo 1048576
	else
		echo 4194304
	fi
}

# test_kind: the debug test kernel of this run, for vm.sh and
# build-module.sh: test (built from linux-source-6.12), or test-7.2 (from
# linux-source-7.2) with RPCRDMA_KERNEL=7.2.
test_kind() {
	if [ "${RPCRDMA_KERNEL:-6.12}" = 6.12 ]; then
		echo test
	else
		echo "test-$RPCRDMA_KERNEL"
	fi
}

# kind_version KIND: the kernel version a kind of vm.sh and build-module.sh
# runs or builds for: 6.12 for debian and test, 7.2 for debian-7.2 and
# test-7.2.
kind_version() {
	case "$1" in
	*-*) echo "${1#*-}" ;;
	*) echo 6.12 ;;
	esac
}

# test_kernel_dir [VERSION]: the directory of the test kernel built from
# VERSION's linux-source (default: RPCRDMA_KERNEL's, 6.12), see
# build-kernel.sh.
test_kernel_dir() {
	local ver=${1:-${RPCRDMA_KERNEL:-6.12}} dir

	dir="$RPCRDMA_CACHE/kernel/current"
	[ "$ver" = 6.12 ] || dir="$dir-$ver"
	[ -e "$dir/ready" ] || return 1
	readlink -f "$dir"
}

# make check must finish well inside CI's 90 minutes on a cold machine, so
# some tests run a shorter form there and their full form in make stress,
# which exports SELFTESTS_FULL=1.  "check_or_full CHECK FULL" prints the
# value for the current run.
check_or_full() {
	if [ "${SELFTESTS_FULL:-0}" = 1 ]; then
		echo "$2"
	else
		echo "$1"
	fi
}

# The QEMU that make deps unpacked from bookworm-backports
# (qemu-backports.sh), which the guests run on when it is there.
QEMU_BACKPORT=$RPCRDMA_CACHE/qemu-backports/current

# guest_qemu: the emulator vm.sh runs: $RPCRDMA_QEMU, else the backport,
# else Debian's.
guest_qemu() {
	if [ -n "${RPCRDMA_QEMU:-}" ]; then
		echo "$RPCRDMA_QEMU"
	elif [ -x "$QEMU_BACKPORT/usr/bin/qemu-system-x86_64" ]; then
		echo "$QEMU_BACKPORT/usr/bin/qemu-system-x86_64"
	else
		echo qemu-system-x86_64
	fi
}

# Tests that only make stress runs: harness checks of the stock module
# alone on the debug kernel, which test none of our code, the server
# link flap on siw (six minutes on the debug kernel), the hostile
# suites and forced disconnects on 7.2 (make check runs them on 6.12,
# and KUnit and the interop tests on both), and, to leave room in CI's
# 90 minutes for the 7.2 debug kernel a cold machine builds (17 minutes
# on 2 cores), the two longest runs on the debug kernel: our client's
# NFS matrix and swap (55; KUnit and test 75 keep our client on the
# debug kernel in make check) and fault injection (85); and, since a
# cold run on a slow day took 84 of the 90 minutes (notes/timings.md),
# the connection storm on the debug kernel (73; 65, 70 and 90 keep our
# server's accept and teardown under KASAN and kmemleak in make check).
STRESS_ONLY_TESTS="35-nfs-stock-loopback-debug 45-nfs-stock-mixed-kernels 55-client-debug-kernel 71-hostile-peer-7.2 73-connection-storm-debug 76-hostile-server-7.2 85-fault-injection 92-siw-server-link-flap 93-forced-disconnects-7.2"
