# SPDX-License-Identifier: GPL-2.0
# Guest: load rpcrdma.ko, then rpcrdma_test.ko next to it (its KUnit
# suites run at load), unload both, and require silence from KASAN,
# lockdep and kmemleak.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

CHECK_KMEMLEAK=1
test_ko=$(dirname "$RPCRDMA_KO")/rpcrdma_test.ko
test_begin
load_our_rpcrdma "$RPCRDMA_KO"
dmesg | grep -q '# Subtest: rpcrdma' &&
	fail "loading rpcrdma.ko ran KUnit suites: they belong in rpcrdma_test.ko"
step "loading $test_ko: its KUnit suites run now"
insmod "$test_ko" || fail "insmod $test_ko failed"
rmmod rpcrdma_test || fail "rmmod rpcrdma_test failed"
unload_rpcrdma
test_end
step "clean"
