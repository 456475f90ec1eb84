# SPDX-License-Identifier: GPL-2.0
#
# rpcrdma: out-of-tree build of the RPC-over-RDMA transport module.
#
#   make                 build rpcrdma.ko against $(KDIR)
#   make modules-7.2     build it for Debian's 7.2 kernel (trixie-backports)
#                        in a trixie root made under /var/cache/rpcrdma
#                        (its headers need gcc-14); build/debian-7.2/
#   make install         install into /lib/modules/<release>/updates + depmod,
#                        <release> being KDIR's (make -C KDIR kernelrelease),
#                        which is the running kernel's only when KDIR is
#                        its build tree
#   make dkms-install    register with DKMS: built for every 6.12 kernel
#   make dkms-remove     unregister; the kernel's own module is used again
#   make deps            install every Debian package build and tests need
#   make check           build checks, KUnit and selftests (what CI runs)
#   make checkpatch      checkpatch.pl --strict and kernel-doc on every file
#   make kunit           KUnit suites in the test kernel under QEMU
#   make selftests       integration tests in QEMU guests with soft-RoCE
#   make demo            boot guests, load the module, show what it does
#   make stress          long runs: 2,000 random hostile-peer mutations and
#                        a longer fault injection sweep (not in check)
#   make bench           ours vs the stock module, client and server halves,
#                        median ratios; fails unless every verdict passes
#                        (not in check)
#   make test-kernel     build (or reuse) the cached test kernel
#
# Only the targets that compile against a kernel tree need one: deps, check
# and demo install the headers themselves, so they work on a machine that
# has none yet.

# The running kernel's build tree when there is one, otherwise the newest
# Debian 6.12 headers.  Evaluated when a target uses it, not when the
# Makefile is read.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(shell ls -d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | sort -V | tail -n 1))

MAKEFLAGS += --no-print-directory

# $(call need-kdir) in a recipe stops with a clear message when no kernel
# build tree is there.
need-kdir = $(if $(strip $(KDIR)),@true,$(error no kernel build tree found: \
	install linux-headers-6.12-amd64 (make deps) or set KDIR))

.PHONY: all modules modules-7.2 clean install dkms-install dkms-remove deps check \
	kunit selftests stress demo bench test-kernel checkpatch \
	crash-history

all: modules

modules:
	$(call need-kdir)
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules-7.2: deps
	selftests/lib/build-module.sh debian-7.2 W=1

clean:
	rm -rf build
	$(if $(strip $(KDIR)),$(MAKE) -C $(KDIR) M=$(CURDIR) clean)

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(shell $(MAKE) -s -C $(KDIR) kernelrelease)

dkms-install: deps
	scripts/dkms.sh install

dkms-remove:
	scripts/dkms.sh remove

deps:
	scripts/install-deps.sh

test-kernel: deps
	selftests/lib/build-kernel.sh

kunit: deps
	selftests/kunit.sh

selftests: deps
	selftests/run.sh

check: deps
	selftests/check.sh

stress: deps
	selftests/stress.sh

demo: deps
	scripts/demo.sh

# Every half runs whatever the verdict of the one before; make bench fails
# if any half's verdict is not PASS (selftests/bench/ratios.py).
bench: deps
	@rc=0; for half in client server both; do \
		selftests/bench/bench.sh --half $$half || rc=1; \
	done; \
	[ $$rc = 0 ] || { echo "make bench: a verdict is not PASS" >&2; exit 1; }

crash-history:
	selftests/crash-history.sh

checkpatch: deps
	selftests/lib/checkpatch.sh
