#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Test 72's connection storm against our server on the debug kernel:
# KASAN, lockdep and kmemleak watch STORM_COUNT (256) connections
# accepted from STORM_PARALLEL (8) processes at once, held and closed,
# twice in the same boot (the module is unloaded and loaded again
# between the storms), while an NFSv4.2 mount writes and reads back.
# The kernel log must stay clean and kmemleak find nothing.  Memory is
# compared with the stock server in test 72, on Debian's kernel: here
# KASAN's quarantine keeps what the storm freed, so the memory figures
# are printed but not checked.
STORM_SERVER_KERNEL=test STORM_MODULES="ours ours" \
	exec "$(dirname "$0")/72-connection-storm.sh" "$@"
