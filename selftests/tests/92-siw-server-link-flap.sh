#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The server's link flapped under a live mount, on soft-iWARP (siw) and
# the debug kernel (KASAN, lockdep): the stock client against
# our server, fio verify and a stamping writer running, eth0 of the
# server taken down for one second and brought back, several times, with
# an nfsd restart among them.  I/O must resume each time and the data
# must verify.  Soft-RoCE cannot run this (its QP1 stays in error after
# a CM message sent while the link is down, Documentation/reliability.rst),
# so test 90 leaves the kind out; siw shows that our server itself comes
# back.  In make stress only; SIW_FLAP_EVENTS events (6).
export DISCONNECT_PROVIDER=siw DISCONNECT_ROLES=our-server
export OUR_SERVER_KINDS="server-link-flap nfsd-restart server-link-flap"
export DISCONNECT_EVENTS=${SIW_FLAP_EVENTS:-6}
exec "$(dirname "$0")/90-forced-disconnects.sh" "$@"
