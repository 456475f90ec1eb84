/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of QEMU's TCG plugin API that insn-count.c uses, declared
 * after QEMU's documentation of its stable C ABI: Debian ships no
 * qemu-plugin.h.  A plugin id is a 64-bit integer; a struct
 * qemu_plugin_u64 names one 64-bit slot of a per-vCPU scoreboard and is
 * passed by value.
 *
 * Version 4 of the API (QEMU 9.2 and later): qemu_plugin_insn_data()
 * copies an instruction's bytes into the caller's buffer (version 3
 * on; QEMU 9.0's returned a pointer), and qemu_plugin_read_memory_vaddr()
 * reads guest memory (version 4).  Registers are read through
 * qemu_plugin_get_registers() and qemu_plugin_read_register() (QEMU 9.0
 * on), only from a callback registered with QEMU_PLUGIN_CB_R_REGS or
 * from a vCPU's init callback.
 */
#ifndef RPCRDMA_QEMU_PLUGIN_API_H
#define RPCRDMA_QEMU_PLUGIN_API_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_register;
struct qemu_plugin_scoreboard;

struct qemu_plugin_u64 {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64,
	QEMU_PLUGIN_INLINE_STORE_U64,
};

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

/* A conditional callback runs when ENTRY COND IMM holds (QEMU 9.0 on). */
enum qemu_plugin_cond {
	QEMU_PLUGIN_COND_NEVER,
	QEMU_PLUGIN_COND_ALWAYS,
	QEMU_PLUGIN_COND_EQ,
	QEMU_PLUGIN_COND_NE,
	QEMU_PLUGIN_COND_LT,
	QEMU_PLUGIN_COND_LE,
	QEMU_PLUGIN_COND_GT,
	QEMU_PLUGIN_COND_GE,
};

/*
 * GLib's GArray and GByteArray, as the register calls pass them (their
 * layout is the ABI; the names are ours): the plugin runs inside QEMU,
 * which links GLib, and calls GLib's own allocators, declared below,
 * on them.
 */
struct glib_array {
	char *data;
	unsigned int len;
};

struct glib_byte_array {
	unsigned char *data;
	unsigned int len;
};

struct glib_byte_array *g_byte_array_new(void);
struct glib_byte_array *g_byte_array_set_size(struct glib_byte_array *array, unsigned int length);
char *g_array_free(struct glib_array *array, int free_segment);

/* The elements of the struct glib_array qemu_plugin_get_registers() returns. */
struct qemu_plugin_reg_descriptor {
	struct qemu_plugin_register *handle;
	const char *name;
	const char *feature;
};

void qemu_plugin_register_vcpu_tb_trans_cb(__u64 id,
					   void (*cb)(__u64 id,
						      struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_init_cb(__u64 id,
				       void (*cb)(__u64 id,
						  unsigned int vcpu_index));
void qemu_plugin_register_atexit_cb(__u64 id,
				    void (*cb)(__u64 id, void *userdata),
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
__u64 qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn,
			     void *dest, size_t len);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
__u64 qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb,
						       enum qemu_plugin_op op,
						       struct qemu_plugin_u64 entry,
						       __u64 imm);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  void (*cb)(unsigned int vcpu_index,
						     void *userdata),
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
void qemu_plugin_register_vcpu_tb_exec_cond_cb(struct qemu_plugin_tb *tb,
					       void (*cb)(unsigned int vcpu_index,
							  void *userdata),
					       enum qemu_plugin_cb_flags flags,
					       enum qemu_plugin_cond cond,
					       struct qemu_plugin_u64 entry,
					       __u64 imm, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    void (*cb)(unsigned int vcpu_index,
						       void *userdata),
					    enum qemu_plugin_cb_flags flags,
					    void *userdata);
struct glib_array *qemu_plugin_get_registers(void);
int qemu_plugin_read_register(struct qemu_plugin_register *handle,
			      struct glib_byte_array *buf);
bool qemu_plugin_read_memory_vaddr(__u64 addr, struct glib_byte_array *data,
				   size_t len);
int qemu_plugin_num_vcpus(void);
struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size);
void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score,
				  unsigned int vcpu_index);
__u64 qemu_plugin_u64_sum(struct qemu_plugin_u64 entry);

#endif
