# SPDX-License-Identifier: GPL-2.0
# Guest (Debian's kernel, client and server in one guest over soft-RoCE
# on a dummy interface): the module trees DKMS left on the host after
# "scripts/dkms.sh install" and after "remove" (in /out/dkms, made by
# selftests/lib/dkms-stage.sh) are laid over this guest's /lib/modules
# in turn.  With no insmod anywhere:
#  - a mount -o rdma autoloads our module (its version in sysfs);
#  - /etc/nfs.conf with [nfsd] rdma=y and rdma-port makes rpc.nfsd open
#    the rdma listener through our module, and a mount works over it;
#  - after "scripts/dkms.sh remove" both paths load the kernel's own
#    module again.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

our_version=$(sed -n 's/^#define RPCRDMA_MODULE_VERSION "\(.*\)"$/\1/p' \
	"$RPCRDMA_TOP/include/rpcrdma/version.h")

# The loaded rpcrdma's version, or "stock" for the kernel's own module
# (which declares none).
loaded_rpcrdma() {
	grep -q '^rpcrdma ' /proc/modules || { echo none; return; }
	if [ -e /sys/module/rpcrdma/version ]; then
		cat /sys/module/rpcrdma/version
	else
		echo stock
	fi
}

expect_loaded() {
	local got

	got=$(loaded_rpcrdma)
	[ "$got" = "$1" ] || fail "$2: rpcrdma loaded is '$got', expected '$1'"
	echo "$2: rpcrdma $got"
}

# A mount attempt with no server listening: it fails, but creating the
# transport must have loaded the module through its "xprtrdma" alias.
mount_autoloads() {
	expect_loaded none "before the mount"
	timeout 60 mount -t nfs -o "vers=4.2,proto=rdma,port=$NFS_PORT,retry=0" \
		192.0.2.1:/ /mnt 2>/dev/null && umount /mnt
	expect_loaded "$1" "after mount -o rdma"
	rmmod rpcrdma || fail "rmmod after the mount attempt failed"
}

# nfsd started from /etc/nfs.conf: the rdma listener loads the module
# through its "svcrdma" alias; then a real mount over it.
nfsconf_serves() {
	expect_loaded none "before rpc.nfsd"
	mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
	exportfs -ra || fail "exportfs failed"
	rpc.nfsd || fail "rpc.nfsd (from /etc/nfs.conf) failed"
	grep -q "rdma $NFS_PORT" /proc/fs/nfsd/portlist ||
		{ cat /proc/fs/nfsd/portlist; fail "nfs.conf rdma=y opened no rdma listener"; }
	expect_loaded "$1" "after rpc.nfsd with rdma=y"
	nfs_mount 4.2 192.0.2.1 /mnt
	head -c 100000 /dev/urandom >/tmp/conf.src
	cp /tmp/conf.src /mnt/conf && umount /mnt
	nfs_mount 4.2 192.0.2.1 /mnt
	cmp /tmp/conf.src /mnt/conf || fail "data over the nfs.conf listener differs"
	rm -f /mnt/conf
	umount /mnt
	rpc.nfsd 0 || fail "rpc.nfsd 0 failed"
	rmmod rpcrdma || fail "rmmod after rpc.nfsd 0 failed"
}

test_begin
dummy_link 192.0.2.1/24
rdma_link rdma0
modprobe nfsd
modprobe nfsv4

# use_module_tree NAME: /lib/modules as DKMS left it after NAME.
use_module_tree() {
	local tree=/lib/modules/$(uname -r)

	rm -rf "$tree/updates"
	tar -C "$tree" -xf "/out/dkms/$1.tar" ||
		fail "cannot lay the module tree after dkms $1 over $tree"
}

step "the module tree after dkms install ($our_version for $(uname -r))"
use_module_tree installed
path=$(modinfo -n rpcrdma) || fail "modinfo finds no rpcrdma"
echo "modprobe finds $path"
case "$path" in
*/updates/*) ;;
*) fail "modprobe finds $path, not the DKMS build in updates/" ;;
esac

mkdir -p "$EXPORT" /run/rpcbind /var/lib/nfs/v4recovery
mount -t tmpfs -o size=256m,mode=0777 tmpfs "$EXPORT"
echo "$EXPORT *(rw,insecure,no_root_squash,no_subtree_check,fsid=0)" >/etc/exports
cat >/etc/nfs.conf <<CONF
[nfsd]
threads=4
grace-time=10
lease-time=10
rdma=y
rdma-port=$NFS_PORT
CONF
rpcbind || fail "rpcbind did not start"
rpc.mountd || fail "rpc.mountd did not start"

step "our module from DKMS: mount -o rdma and nfs.conf load it"
mount_autoloads "$our_version"
nfsconf_serves "$our_version"

step "the module tree after dkms remove: the kernel's own module comes back"
use_module_tree removed
path=$(modinfo -n rpcrdma) || fail "modinfo finds no rpcrdma after removal"
case "$path" in
*/updates/*) fail "rpcrdma still resolves to $path after dkms remove" ;;
esac
mount_autoloads stock
nfsconf_serves stock

test_end
step "clean"
