# SPDX-License-Identifier: GPL-2.0
# Guest for the harness self-test: never finishes, and ignores SIGTERM.
echo "hanging on purpose"
trap '' TERM
while :; do sleep 1; done
