# SPDX-License-Identifier: GPL-2.0
# Guest: our rpcrdma.ko ($RPCRDMA_KO) loads and unloads cleanly; with
# CHECK_KMEMLEAK=1 a kmemleak scan after rmmod must find nothing.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

test_begin
step "loading $RPCRDMA_KO on $(uname -r)"
load_our_rpcrdma "$RPCRDMA_KO"
modinfo "$RPCRDMA_KO" | grep -E '^(name|version|alias|license):'
for alias in xprtrdma svcrdma rpcrdma6; do
	modinfo -F alias "$RPCRDMA_KO" | grep -qx "$alias" || fail "alias $alias missing"
done
step "unloading"
unload_rpcrdma
step "loading and unloading again"
load_our_rpcrdma "$RPCRDMA_KO"
unload_rpcrdma
test_end
step "clean"
