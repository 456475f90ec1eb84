# SPDX-License-Identifier: GPL-2.0
# Guest for the harness self-test: panics the kernel on purpose.
echo "crashing on purpose"
echo 1 >/proc/sys/kernel/sysrq
echo c >/proc/sysrq-trigger
sleep 60
