# SPDX-License-Identifier: GPL-2.0
#
# rpcrdma: out-of-tree build of the RPC-over-RDMA transport module.
#
#   make                 build rpcrdma.ko against $(KDIR)
#   make install         install into /lib/modules/<release>/updates + depmod
#   make deps            install every Debian package build and tests need
#   make check           build checks, KUnit and selftests (what CI runs)
#   make kunit           KUnit suites in the test kernel under QEMU
#   make selftests       integration tests in QEMU guests with soft-RoCE
#   make demo            boot guests, load the module, show what it does
#   make bench           ours vs the stock module (client, then server), median
#                        ratios (not in check)
#   make test-kernel     build (or reuse) the cached test kernel

# The running kernel's build tree when there is one, otherwise the newest
# Debian 6.12 headers.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(shell ls -d /usr/src/linux-headers-6.12*-amd64 2>/dev/null | sort -V | tail -n 1))

ifeq ($(KDIR),)
$(error no kernel build tree found: install linux-headers-6.12-amd64 (make deps) or set KDIR)
endif

MAKEFLAGS += --no-print-directory

.PHONY: all modules clean install deps check kunit selftests demo bench \
	test-kernel checkpatch

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean

install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(shell $(MAKE) -s -C $(KDIR) kernelrelease)

deps:
	scripts/install-deps.sh

test-kernel:
	selftests/lib/build-kernel.sh

kunit:
	selftests/kunit.sh

selftests:
	selftests/run.sh

check:
	selftests/check.sh

demo:
	scripts/demo.sh

bench:
	scripts/install-deps.sh
	selftests/bench/client.sh
	selftests/bench/server.sh

checkpatch:
	selftests/lib/checkpatch.sh
