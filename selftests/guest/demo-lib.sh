# SPDX-License-Identifier: GPL-2.0
# Shared by the demo guests: plain-words narration and module selection.
. "$RPCRDMA_TOP/selftests/lib/guest-lib.sh"

say() {
	echo "[$GUEST_NAME] $*"
}

# Load our rpcrdma.ko; if it does not yet provide what this guest needs
# (checked by the command in $1), say so and use the kernel's own module.
load_transport_for_demo() {
	local need=$1 what=$2 issue=$3

	say "Loading our rpcrdma.ko: $(modinfo -F version "$RPCRDMA_KO" | sed 's/^/version /')"
	load_our_rpcrdma "$RPCRDMA_KO"
	if eval "$need"; then
		say "Our module provides the $what."
		USING=ours
		return
	fi
	say "Our module loads and unloads cleanly, but it does not provide the"
	say "$what yet ($issue).  For now this guest uses the kernel's own"
	say "rpcrdma.ko instead, so you can still see NFS over RDMA working here."
	unload_rpcrdma
	load_stock_rpcrdma
	USING=stock
}
