#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make demo: install what is needed, build rpcrdma.ko for Debian's 6.12
# kernel, boot two guests joined by a soft-RoCE link, load the module in
# both, and mount NFS over RDMA from one to the other, moving data and
# checking it.  Says in plain words what happens and what is not there yet.
# RPCRDMA_KERNEL=7.2 make demo does the same on Debian's 7.2 kernel
# (trixie-backports, unpacked in the trixie root of trixie-root.sh).

set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/selftests/lib/common.sh"

say() { printf '\n== %s\n' "$*"; }

say "Step 1/4: making sure the Debian packages are installed"
"$top/scripts/install-deps.sh"

if [ "$(debian_kind)" = debian ]; then
	release=$(debian_kernel_release)
else
	release=$("$top/selftests/lib/trixie-root.sh" --kernel --abi)
fi
say "Step 2/4: building rpcrdma.ko against Debian's ${RPCRDMA_KERNEL:-6.12} kernel headers"
ko=$("$top/selftests/lib/build-module.sh" debian)
echo "built $ko"
modinfo "$ko" | grep -E '^(version|description|alias|depends):'

out="$top/build/demo"
rm -rf "$out"
say "Step 3/4: booting two guests (Debian's $release kernel under QEMU)"
echo "server 192.0.2.1 and client 192.0.2.2 share a private virtual link;"
echo "soft-RoCE (rdma_rxe) makes it an RDMA network.  This takes a minute or two."
set +e
"$top/selftests/lib/pair.sh" --out "$out" --timeout 400 \
	--server-script "$top/selftests/guest/demo-server.sh" \
	--client-script "$top/selftests/guest/demo-client.sh" \
	--env "RPCRDMA_KO=$ko" 2>"$out.err"
rc=$?
set -e

say "Step 4/4: what happened"
for g in server client; do
	grep -h "^\[$g\]\|^FAIL" "$out/$g/log" 2>/dev/null || true
done
if [ "$rc" != 0 ]; then
	cat "$out.err"
	echo
	echo "The demo FAILED.  Full logs: $out/{server,client}/{log,console.log,dmesg}"
	exit 1
fi
echo
echo "Demo complete.  Logs of both guests are in $out."
