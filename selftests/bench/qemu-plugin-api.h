/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin API (version 2, QEMU 9.0 and later) that
 * insn-count.c uses, declared after QEMU's documentation of its stable
 * C ABI: Debian ships no qemu-plugin.h.  A plugin id is a 64-bit
 * integer; a struct qemu_plugin_u64 names one 64-bit slot of a
 * per-vCPU scoreboard and is passed by value.
 */
#ifndef RPCRDMA_QEMU_PLUGIN_API_H
#define RPCRDMA_QEMU_PLUGIN_API_H

#include <linux/types.h>
#include <stddef.h>

struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_scoreboard;

struct qemu_plugin_u64 {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
	QEMU_PLUGIN_INLINE_STORE_U64,
};

void qemu_plugin_register_vcpu_tb_trans_cb(__u64 id,
					   void (*cb)(__u64 id,
						      struct qemu_plugin_tb *tb));
void qemu_plugin_register_atexit_cb(__u64 id,
				    void (*cb)(__u64 id, void *userdata),
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
__u64 qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb,
						       enum qemu_plugin_op op,
						       struct qemu_plugin_u64 entry,
						       __u64 imm);
struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size);
void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score,
				  unsigned int vcpu_index);
__u64 qemu_plugin_u64_sum(struct qemu_plugin_u64 entry);

#endif
