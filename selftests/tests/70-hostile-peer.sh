#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A hostile RPC-over-RDMA peer (selftests/peer/hostile_peer.py) against our
# server while an NFSv4.2 mount (stock client) writes to it: each malformed
# header must get the answer RFC 8166 asks for (ERR_VERS, ERR_CHUNK, or
# silence), a peer that keeps misbehaving must be disconnected, a Read
# chunk with a bad handle must close only that connection, a large reply
# with no chunk to carry it must get ERR_CHUNK, a peer that stops posting
# Receives while large replies fill the Send Queue must be disconnected
# within seconds (nfsd threads are not pinned), a peer that stops
# answering RDMA Reads while its calls' Read chunks (nfsd's largest
# payload each) wait must be
# disconnected by read_timeout, with no more pages of Reads in flight
# than its connection's limit and the server's memory back once it is
# gone, a host connecting from six IPv6 addresses of its /64 must count
# as one client for the credit budget, a WRITE and a READ of sunrpc's
# largest payload (1 MiB on 6.12, 4 MiB on 7.2), each in one chunk, must
# move the bytes intact, and about 800 generated
# cases (five seeds mutated field by field, cut at every length, and at
# random) must each get the answer selftests/peer/mutations.py's model
# gives; the mount's I/O must carry on during and after.  Our server runs
# the debug kernel: KASAN, lockdep and kmemleak must stay silent throughout.
. "$(dirname "$0")/../lib/common.sh"

# SERVER_MODULE=stock runs the same peer against the stock server; it does not follow RFC 8166 in every case, so there only
# the peer's mechanics are checked (PEER_STRICT=0) and the per-case
# results are reported.  HOSTILE_PEER_ARGS passes options to the peer
# (e.g. "--only null,malformed-flood --misbehave-count 100"; against the
# stock server "--skip 439,622", whose zero-length Read segments crash it).
# The stock server runs on Debian's kernel: on the debug kernel its known
# overruns would fail the run before the peer could report.
case "${SERVER_MODULE:-ours}" in
stock) strict=0 kernel=debian kmemleak=0 watch=0 ;;
*) strict=1 kernel=test kmemleak=1 watch=1 ;;
esac

# The write-chunk-reads case makes a Send context grow and the
# send-queue-stall case closes a connection; when HOSTILE_PEER_ARGS picks
# cases (--only, --skip) they may not run (EXPECT_SEND_GROW=yes,
# EXPECT_SQ_STALL=yes to check anyway).  Other options, like make
# stress's "--random 2000", keep both checks.  The stall bound is 2 s
# here: soft-RoCE ends a stalled Send by itself after about 6 s (its
# retransmission timer runs out while the peer answers RNR), which would
# hide whether ours works.  So would the read-stall case's: soft-RoCE
# gives up an unanswered RDMA Read after a few seconds of retries, so
# the server guest's half of that case (READ_STALL_WATCH=1, for ours)
# sets read_timeout to 1 s for the case's connection, measures what the
# server pins meanwhile, and EXPECT_READ_STALL=yes checks it.  The
# share-keys case's check (EXPECT_SHARE_KEYS) reads our server's
# svcrdma_accept events, which the stock server does not have.
grow=${EXPECT_SEND_GROW:-yes}
stall=${EXPECT_SQ_STALL:-yes}
rstall=${EXPECT_READ_STALL:-yes}
keys=${EXPECT_SHARE_KEYS:-yes}
if [[ "${HOSTILE_PEER_ARGS:-}" == *--only* ||
      "${HOSTILE_PEER_ARGS:-}" == *--skip* ]]; then
	grow=${EXPECT_SEND_GROW:-any}
	stall=${EXPECT_SQ_STALL:-any}
	rstall=${EXPECT_READ_STALL:-any}
	keys=${EXPECT_SHARE_KEYS:-any}
fi
[ "$watch" = 1 ] || rstall=any
[ "$strict" = 1 ] || keys=any
if [ "$kernel" = test ]; then
	"$RPCRDMA_TOP/selftests/lib/build-kernel.sh" >/dev/null || exit 1
fi
ko=$("$RPCRDMA_TOP/selftests/lib/build-module.sh" "$kernel") || exit 1
# The large-io case moves the largest payload nfsd may have, sunrpc's
# (1 MiB on 6.12, 4 MiB on 7.2), with nfsd's max_block_size raised to it.
# The client runs no NFS step (STEPS=none): the server's checks of
# fio_verify's grant, which once failed here on whatever the peer's own
# cases left, are not this test's.
large_io=$(svc_max_payload)
blksize=()
[ "$large_io" = 0 ] || blksize=(--server-env "NFSD_MAX_BLOCK_SIZE=$large_io")
exec "$RPCRDMA_TOP/selftests/lib/pair.sh" --out "$1" --server-kernel "$kernel" \
	--server-script "$RPCRDMA_TOP/selftests/guest/nfs-server.sh" \
	--server-env "SERVER_MODULE=${SERVER_MODULE:-ours}" --server-env STEPS=none \
	--client-script "$RPCRDMA_TOP/selftests/guest/hostile-peer-client.sh" \
	--timeout 1200 --env "RPCRDMA_KO=$ko" --server-env CHECK_ORD=0 \
	--server-env "CHECK_KMEMLEAK=$kmemleak" \
	--server-env "EXPECT_SEND_GROW=$grow" \
	--server-env "EXPECT_SQ_STALL=$stall" --server-env SQ_STALL_TIMEOUT=2 \
	--server-env "EXPECT_READ_STALL=$rstall" \
	--server-env "EXPECT_SHARE_KEYS=$keys" \
	--server-env "READ_STALL_WATCH=$watch" \
	"${blksize[@]}" \
	--client-env "LARGE_IO=$large_io" \
	--client-env "READ_STALL_SYNC=$watch" \
	--client-env "PEER_STRICT=${PEER_STRICT:-$strict}" \
	${HOSTILE_PEER_ARGS:+--client-env "HOSTILE_PEER_ARGS=$HOSTILE_PEER_ARGS"}
