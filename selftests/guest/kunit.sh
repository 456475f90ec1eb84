# SPDX-License-Identifier: GPL-2.0
# Guest: load rpcrdma.ko built with its KUnit suites (they run at load),
# unload it, and require silence from KASAN, lockdep and kmemleak.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

CHECK_KMEMLEAK=1
test_begin
step "loading $RPCRDMA_KO: its KUnit suites run now"
load_our_rpcrdma "$RPCRDMA_KO"
unload_rpcrdma
test_end
step "clean"
