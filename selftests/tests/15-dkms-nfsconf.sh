#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS and nfs-utils on Debian's kernel, in one guest whose /lib/modules is
# an overlay (the host's tree is not touched): dkms builds and installs our
# module into updates/; a mount -o rdma and an rpc.nfsd started from
# /etc/nfs.conf ([nfsd] rdma=y, rdma-port) each autoload it, with no
# insmod; after dkms remove both load the kernel's own module.
. "$(dirname "$0")/../lib/common.sh"

exec "$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel debian --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/dkms-nfsconf.sh" \
	--timeout 1500
