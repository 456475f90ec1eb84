# SPDX-License-Identifier: GPL-2.0
# Shared by the demo guests: plain-words narration and module selection.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

say() {
	echo "[$GUEST_NAME] $*"
}

# Load our rpcrdma.ko and check (with the command in $1) that it provides
# what this guest needs.
load_transport_for_demo() {
	local need=$1 what=$2

	say "Loading our rpcrdma.ko: $(modinfo -F version "$RPCRDMA_KO" | sed 's/^/version /')"
	RPCRDMA_PARAMS= load_our_rpcrdma "$RPCRDMA_KO"
	eval "$need" || fail "our module does not provide the $what"
	say "Our module provides the $what."
}
