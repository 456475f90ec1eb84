#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# DKMS and nfs-utils on Debian's kernel.  On the host, in a private mount
# namespace over overlays (selftests/lib/dkms-stage.sh: the host's trees
# are not touched), dkms adds, builds and installs our module into
# updates/ and then removes it; a guest lays each resulting module tree
# over its own.  With no insmod, a mount -o rdma and an rpc.nfsd started
# from /etc/nfs.conf ([nfsd] rdma=y, rdma-port) must each load our module
# after the install, and the kernel's own after the removal.
. "$(dirname "$0")/../lib/common.sh"

"$RPCRDMA_TOP/selftests/lib/dkms-stage.sh" "$1/dkms" >"$1/dkms.log" 2>&1 ||
	{ tail -n 40 "$1/dkms.log"; exit 1; }
exec "$RPCRDMA_TOP/selftests/lib/vm.sh" --kernel debian --name guest \
	--out "$1" --script "$RPCRDMA_TOP/selftests/guest/dkms-nfsconf.sh" \
	--timeout 600
