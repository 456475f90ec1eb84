#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the long runs, not part of make check (about 135 minutes on
# a 2-core machine under TCG).  Every selftest in its full form
# (SELFTESTS_FULL=1): the stock-only harness checks on the debug kernel,
# every NFS version and nconnect=8 as well as 16 in the interoperability
# tests, the siw matrix with the stock module on either side as well as
# ours against ours; and on top, the hostile peer with 2,000 random
# mutations beyond the generated cases (a new seed each run, printed, so
# that a failure can be replayed with STRESS_SEED), every crafted reply of
# the hostile server (make check runs a subset), fault injection with
# eight rounds per phase at a higher failure rate, 80 forced disconnects
# per role under verified I/O, 20 of each kind (make check does 4), and
# the server's link flapped on siw (test 92).
# STRESS_TESTS="70-hostile-peer 90-forced-disconnects" runs only those.
# Logs go to build/stress/<test>; the last line is "selftests: N passed,
# N failed, N skipped", the line before it counts the tests retried after an
# rdma_rxe crash, and the one before that the guest kernel crashes per
# provider and rpcrdma.

set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

seed=${STRESS_SEED:-$(date +%s)}
echo "# stress: random mutation seed $seed (STRESS_SEED=$seed replays it)"
export SELFTESTS_OUT=$RPCRDMA_TOP/build/stress
export HOSTILE_PEER_ARGS="--random ${STRESS_RANDOM:-2000} --random-seed $seed"
export HOSTILE_SERVER_ALL=1
export FI_ROUNDS=${FI_ROUNDS:-8} FI_PERCENT=${FI_PERCENT:-30}
export FI_TIMES=${FI_TIMES:-40} FI_TIMEOUT=${FI_TIMEOUT:-3000}
export DISCONNECT_EVENTS=${DISCONNECT_EVENTS:-80} SIW_ALL=1
export SELFTESTS_FULL=1
# shellcheck disable=SC2086
exec "$RPCRDMA_TOP/selftests/run.sh" ${STRESS_TESTS:-}
