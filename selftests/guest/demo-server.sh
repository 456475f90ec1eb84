# SPDX-License-Identifier: GPL-2.0
# Demo guest "server": kernel NFS server exporting /export over RDMA.
. "$RPCRDMA_TOP/selftests/guest/demo-lib.sh"

test_begin
say "I am the NFS server, 192.0.2.1, running Linux $(uname -r)."
say "Turning my virtual Ethernet card into an RDMA device with soft-RoCE:"
rdma_link eth0
rdma link show | sed "s/^/[$GUEST_NAME]   /"
load_transport_for_demo "[ -d /proc/sys/sunrpc/svc_rdma ]" \
	"NFS server transport (svcrdma)"
nfs_server_start
say "nfsd now listens on: $(tr '\n' ' ' </proc/fs/nfsd/portlist)"
signal_peer server-ready
wait_peer client-finished 300
say "The client is done; what it left in /export, seen from the server:"
ls -l "$EXPORT" | sed "s/^/[$GUEST_NAME]   /"
say "Our server's counters (/proc/sys/sunrpc/svc_rdma/): $(
	for c in recv read write; do
		printf '%s=%s ' "rdma_stat_$c" "$(cat /proc/sys/sunrpc/svc_rdma/rdma_stat_$c)"
	done)"
say "(recv: messages received; read: Read chunks pulled with RDMA Read;"
say " write: replies that used RDMA Write into the client's chunks)"
nfs_server_stop
unload_rpcrdma
test_end
say "Server shut down cleanly; no kernel warnings."
