// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU TCG plugin: count the instructions a guest executes, in all and
 * in the text of four kernel modules, and the work of its REP string
 * instructions, for make bench's cost figures.
 *
 *   qemu-system-x86_64 ... -plugin PATH/insn-count.so,out=OUT,text=TEXT
 *
 * OUT holds little-endian 64-bit counts, rewritten every millisecond
 * (OUT_FIELDS of them; fields are only ever appended, so a reader that
 * knows the first N still finds them where they were):
 *
 *   0       the guest's instructions so far (all vCPUs);
 *   1-4     those executed in each of the four text ranges TEXT lists;
 *   5       the iterations of the guest's REP string instructions;
 *   6-9     those charged to each range (below);
 *   10      the bytes REP MOVS, STOS, INS and OUTS moved or stored;
 *   11-14   those charged to each range;
 *   15      the calls the code of the first range made to the functions
 *           TEXT's "call" lines name (below);
 *   16      the runs of the functions TEXT's "entry" lines name;
 *   17-18   the instructions the kernel's own text executed on behalf of
 *           the first and the third range: callouts (below);
 *   19-20   the iterations of REP string instructions in those callouts;
 *   21-22   the bytes they moved or stored;
 *   23      the runs of the functions TEXT's "rpc" lines name (the
 *           RPC layer's reply completion: the bench's RPC count);
 *   24      what this run counts: 1, REP string instructions; 2,
 *           callouts (both need the registers, below).
 *
 * Fields 0-3 are the whole of the file this plugin wrote when it counted
 * three ranges.  TEXT, which the guest writes (text_ranges in
 * bench-lib.sh) and may rewrite whenever it loads a module, holds one
 * "NAME START END" line per range, addresses in hex: the bench lists
 * rpcrdma.ko, rdma_rxe.ko, sunrpc.ko (where the stock transport's header
 * XDR runs, in the generic xdr_stream helpers) and ib_core.ko.
 * host_cpu.py reads OUT at every mark the bench makes.
 *
 * TEXT may also hold "call NAME ADDRESS" and "entry NAME ADDRESS" lines
 * (at most NR_WATCHED of each): the functions that wake a task or queue
 * work (queue_work_on(), svc_xprt_enqueue(), xprt_complete_rqst(), ...),
 * whose calls from the first range (the transport) are counted, and
 * functions that run as work items (ib_cq_poll_work(), a completion
 * queue's poll), whose runs are counted.  These count, without costing
 * the guest an instruction, the wake-ups the transport asks for, where
 * the guest's context switches also count those of everything else.
 *
 * Callouts.  The kernel work a module asks for is done in the kernel's
 * own text (vmlinux): list_add() and list_del() under DEBUG_LIST, spin
 * locks, kmalloc(), queue_work_on(), a wake-up.  A block of the first
 * or the third range (the transport: rpcrdma.ko and sunrpc.ko) that
 * ends in a CALL rel32 into the kernel's text opens a callout: a
 * callback notes, for the stack it runs on, the stack pointer at the
 * block's start and which range called.  Every block of the
 * kernel's text has a conditional callback that runs only while a
 * callout may be open, and adds the block's instructions to the
 * callout's range if its stack pointer lies on the same kernel stack as
 * the one noted (the same CALLOUT_STACK-aligned block), deeper than the
 * call.  So an interrupt (on its own stack), another task the callee
 * switched to (a worker whose stack the vmalloc area put next to the
 * caller's, too) and the code that returns past the call are not
 * counted; the callee's sleep and wake-up are, but not a preemption:
 * TEXT's "pause NAME ADDRESS" lines name the functions where the kernel
 * preempts a task on its stack, and from the entry of one to its
 * return the callout counts nothing (callout_exec()).  Any other kernel block
 * outside the kernel's text closes the callout if it runs on the call's
 * stack (a conditional callback, only while one may be open): the
 * return into the module, a call the kernel made into another module's
 * code (what follows it in the kernel is then not counted).  On another
 * stack it leaves the callout open: an interrupt's handler in a driver,
 * or the task the callee yielded to (cond_resched() in the allocator, a
 * sleep), running its modules' code, does not end the callee's work,
 * which goes on when its task resumes, on whichever vCPU
 * (callout_table: one callout per kernel stack).  User space cannot be
 * on a kernel stack and is not instrumented.  A tail call (JMP rel32)
 * opens none: it returns to the module's caller.  A REP string
 * instruction in a callout that was not charged to a module page
 * (below) is charged to the callout's range.  What the kernel does for
 * the module later, in another context (a work item's dispatch,
 * softirq processing of the packets it sent), is not counted here: the
 * wake-up counts stand for it.
 *
 * Unlike any clock, these counts do not depend on how fast the host
 * runs the guest or how often it is descheduled, so the instructions a
 * guest needs per operation measure its work apart from the speed of
 * these shared machines, and the instructions spent in a module's own
 * code measure that module's share of it.
 *
 * Every translation block adds its instructions as it starts executing
 * (so a block left early, by an exception or an interrupt, counts in
 * full: an overcount far below the rest of the noise) to the total and,
 * when it starts in the kernel's module area, to a counter for its page.
 * A range's count is the sum over its pages, so a module's code is
 * counted wherever and whenever it was translated; the counters of a
 * page a module left are simply not summed once TEXT no longer lists it.
 *
 * Calls and runs.  Every block that starts in the module area gets a
 * counter of its executions (a slot, by address), and the slot keeps the
 * target of the CALL rel32 or JMP rel32 (a tail call) the block ends
 * with.  TCG ends a block at every call, so a block ending in a call
 * makes that call each time it runs (a block left early by a fault
 * counts anyway: rare), and a function's first block runs each time the
 * function does.  Counting every block, not only the watched ones, lets
 * TEXT name its functions after they were translated: which slots add
 * up to fields 15 and 16 is worked out whenever TEXT changes, and for
 * every block translated since.  An indirect call is not counted; the
 * functions watched are called directly.
 *
 * REP string instructions.  QEMU 10 runs a REP MOVS, STOS, CMPS, SCAS,
 * LODS, INS or OUTS to its end inside its translation block, so the
 * count above takes it for one instruction whatever its length: copying
 * a page costs as much as one move.  So every such instruction (found
 * by its bytes at translation: legacy prefixes, F2 or F3, an optional
 * REX, then the opcode) gets a callback, and only those do, which reads
 * RCX (ECX under an 0x67 prefix) before it runs: the iterations it will
 * make, and, times the element size (1; 2, 4 or 8 by 0x66 and REX.W),
 * the bytes it will move or store.  QEMU leaves a long one every 64 Ki
 * iterations and re-enters it with EFLAGS.RF set, as it does after an
 * interrupt or a fault in the middle; a callback that finds RF set
 * counts nothing, as the count at its start took the whole.  REPE and
 * REPNE CMPS and SCAS count RCX, their bound, whether or not the
 * comparison ends them early; a fault whose fixup abandons the copy
 * (a bad user address) leaves its remaining iterations counted.
 *
 * A REP instruction in the module area is charged to its own page.  One
 * in the kernel's own text (nokaslr: below the module area) is charged
 * to its caller's page when it runs in a leaf string function that a
 * module called directly: memcpy(), memset() and memmove() end in REP
 * MOVSB or STOSB on CPUs with FSRM and FSRS (QEMU's "max" has both: the
 * bench's profiles show no memcpy_orig() or memset_orig()) and push
 * nothing, so the word at RSP is the module's return address.  The
 * callback reads it and charges the module only if that address lies in
 * the module area right after a CALL rel32 into the kernel's text.  A
 * copy made deeper in the kernel on a module's behalf (copy_to_iter(),
 * an skb helper) is in the guest's total only, as its instructions are.
 *
 * With profile=1, it also keeps a count for every translation block
 * that starts in kernel code (the kernel's text and every module's), by
 * address, and writes them out on
 * request: when the file OUT.req appears, holding a file name, it writes
 * "ADDRESS INSTRUCTIONS" lines (hex, decimal) for every such block to
 * that file (through a temporary name, renamed when complete) and
 * removes OUT.req.  insn_profile.py turns two such snapshots into the
 * instructions each function executed between them.  The same file has
 * a "callout ADDRESS INSTRUCTIONS" line for every module block that
 * opened a callout: the kernel's instructions charged to callouts
 * opened by that block's call (callsites.py prints them per call).
 *
 * The plugin API is QEMU's stable C ABI (version 4 and later, QEMU 9.2
 * on); qemu-plugin-api.h declares the few calls used here, since Debian
 * ships no qemu-plugin.h.
 */
#include <fcntl.h>
#include <linux/types.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "qemu-plugin-api.h"

/* x86-64 module area, from MODULES_VADDR (lowest layout) to MODULES_END. */
#define MODULE_AREA_START	0xffffffffa0000000ULL
#define MODULE_AREA_END		0xffffffffff000000ULL
#define AREA_PAGE_SHIFT		12
#define AREA_PAGES		((MODULE_AREA_END - MODULE_AREA_START) >> \
				 AREA_PAGE_SHIFT)
#define NR_RANGES		4
/* The kernel's own text (__START_KERNEL_map up), profiled with the modules. */
#define KERNEL_TEXT_START	0xffffffff80000000ULL
/* Below this, user space (x86-64's canonical lower half and the hole). */
#define KERNEL_SPACE_START	0xffff800000000000ULL
/* Blocks profiled, at most (their counters: 8 MiB per vCPU). */
#define PROFILE_SLOTS		1048576
#define PROFILE_HASH		(2 * PROFILE_SLOTS)
/* Module-area blocks with an execution count, at most (2 MiB per vCPU). */
#define SITE_SLOTS		262144
#define SITE_HASH		(2 * SITE_SLOTS)
/* TEXT's "call" and "entry" lines, at most, each. */
#define NR_WATCHED		32
/* TEXT's "pause" lines, at most. */
#define NR_PAUSES		4
/* Slots summed into each of fields 15, 16 and 23, at most. */
#define MAX_COUNTED		8192
/*
 * A kernel stack: THREAD_SIZE bytes at an address aligned to its size
 * (x86-64 with VMAP_STACK; 16 KiB in Debian's kernels, which the bench
 * boots; 32 KiB under KASAN).  Two stack pointers lie on the same
 * task's stack if they lie in the same CALLOUT_STACK-aligned block:
 * another task's stack, adjacent in the vmalloc area, never does.
 */
#define CALLOUT_STACK		0x4000ULL
/* The ranges whose calls into the kernel's text are callouts. */
#define CALLOUT_RANGE_RPCRDMA	0
#define CALLOUT_RANGE_SUNRPC	2
/* A callout's origin: 0, the first range; this bit, the third. */
#define CALLOUT_SUNRPC		0x1ULL

/* The fields of OUT: see the top of this file. */
enum {
	OUT_INSNS = 0,
	OUT_REP_ITERS = 1 + NR_RANGES,
	OUT_REP_BYTES = 2 * (1 + NR_RANGES),
	OUT_WAKE_CALLS = 3 * (1 + NR_RANGES),
	OUT_WORK_RUNS,
	OUT_CALLOUT_INSNS,			/* 2: rpcrdma, sunrpc */
	OUT_CALLOUT_REP_ITERS = OUT_CALLOUT_INSNS + 2,
	OUT_CALLOUT_REP_BYTES = OUT_CALLOUT_REP_ITERS + 2,
	OUT_RPC_RUNS = OUT_CALLOUT_REP_BYTES + 2,
	OUT_CAPS,
	OUT_FIELDS,
};

/* OUT_CAPS's bits. */
#define CAPS_REP		0x1ULL
#define CAPS_CALLOUTS		0x2ULL

/* What a slot's executions are summed into, if anything. */
enum site_kind {
	SITE_CALL,	/* a call from the first range to a watched function */
	SITE_ENTRY,	/* the first block of a watched work function */
	SITE_RPC,	/* the first block of a watched reply completion */
	NR_SITE_KINDS,
	SITE_NONE = NR_SITE_KINDS,
};

/*
 * A REP string instruction as decoded at translation, passed to its
 * callback as the callback's userdata: the element size, whether ECX
 * counts, whether it moves or stores bytes, and where it is (a page of
 * the module area, or the kernel's text).
 */
#define REP_SIZE_MASK		0x0fUL
#define REP_ADDR32		0x10UL
#define REP_STORES		0x20UL
#define REP_KERNEL		0x40UL
#define REP_MODULE		0x80UL
#define REP_PAGE_SHIFT		8

#define EFLAGS_RF		0x10000ULL	/* bit 16 */
#define CALL_REL32		0xe8
#define JMP_REL32		0xe9

/*
 * One vCPU's counters: its scoreboard entry.  @callout is not 0 while a
 * callout may be open (see callout_table): the condition of the
 * callbacks that count callouts, evaluated inline.
 */
struct insn_counts {
	__u64 total;
	__u64 rep_iters;
	__u64 rep_bytes;
	__u64 callout;
	__u64 callout_insns[2];
	__u64 callout_rep_iters[2];
	__u64 callout_rep_bytes[2];
	__u64 page[AREA_PAGES];
	__u64 rep_page_iters[AREA_PAGES];
	__u64 rep_page_bytes[AREA_PAGES];
};

struct text_range {
	__u64 first_page;
	__u64 nr_pages;
};

/* One vCPU's counters of profiled blocks: its entry in the profile board. */
struct block_counts {
	__u64 insns[PROFILE_SLOTS];
};

/* One vCPU's executions of module-area blocks: its entry in site_board. */
struct site_counts {
	__u64 execs[SITE_SLOTS];
};

/*
 * One vCPU's kernel instructions in callouts, by the site slot of the
 * module block whose call opened them: its entry in callout_board
 * (profile=1 only).
 */
struct callout_site_counts {
	__u64 insns[SITE_SLOTS];
};

/*
 * The module-area blocks, by address (open addressing, address + 1, 0:
 * free, -> slot + 1), the target each slot's block ends with a call to
 * (0: none), and the slots whose executions fields 15 and 16 sum, all
 * under site_lock, as are the watched addresses and ranges[0] they are
 * judged by.
 */
struct site_table {
	__u64 key[SITE_HASH];
	unsigned int slot[SITE_HASH];
	__u64 pc[SITE_SLOTS];
	__u64 target[SITE_SLOTS];
	unsigned char kind[SITE_SLOTS];
	unsigned int nr_slots;
	bool full_warned;
	unsigned int counted[NR_SITE_KINDS][MAX_COUNTED];
	unsigned int nr_counted[NR_SITE_KINDS];
	__u64 watched[NR_SITE_KINDS][NR_WATCHED];
	unsigned int nr_watched[NR_SITE_KINDS];
};

__attribute__((visibility("default"))) int qemu_plugin_version = 4;

static struct qemu_plugin_scoreboard *counts;
static struct qemu_plugin_scoreboard *block_board;
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;
/* Open addressing, address + 1 (0: free) -> slot + 1. */
static __u64 block_key[PROFILE_HASH];
static unsigned int block_slot[PROFILE_HASH];
static unsigned int nr_blocks;
static char *request_path;
static struct text_range ranges[NR_RANGES];
static struct qemu_plugin_scoreboard *site_board;
static struct qemu_plugin_scoreboard *callout_board;
/*
 * The kernel functions TEXT's "pause" lines name (0: none), read by
 * callout_exec() without a lock: each is one aligned word.
 */
static __u64 pause_at[NR_PAUSES];
static pthread_mutex_t site_lock = PTHREAD_MUTEX_INITIALIZER;
static struct site_table *sites;
static const char *text_path;
static struct timespec text_mtime;
static __u64 *shared;
/* The registers a REP callback reads, found when the first vCPU starts. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static bool regs_looked_up;
static struct qemu_plugin_register *reg_rcx, *reg_rsp, *reg_eflags;
static bool rep_counting;
static bool callouts_counting;
/* Each vCPU thread's buffer for register and memory reads. */
static __thread struct glib_byte_array *scratch;

static struct qemu_plugin_u64 count_slot(size_t offset)
{
	return (struct qemu_plugin_u64){ .score = counts, .offset = offset };
}

static struct qemu_plugin_u64 block_slot_u64(unsigned int slot)
{
	return (struct qemu_plugin_u64){
		.score = block_board,
		.offset = slot * sizeof(__u64),
	};
}

/*
 * Where @pc is, or goes, in the open-addressing table @key of @size
 * entries (address + 1; 0: free) that the profile and the site table use.
 */
static unsigned int addr_probe(const __u64 *key, unsigned int size, __u64 pc)
{
	unsigned int h = (pc >> 2) % size;

	while (key[h] && key[h] != pc + 1)
		h = (h + 1) % size;
	return h;
}

/* The profile slot of the block at @pc, a new one if need be; -1 if full. */
static int block_find(__u64 pc)
{
	unsigned int h;
	int slot = -1;

	pthread_mutex_lock(&block_lock);
	h = addr_probe(block_key, PROFILE_HASH, pc);
	if (block_key[h]) {
		slot = block_slot[h] - 1;
	} else if (nr_blocks < PROFILE_SLOTS) {
		block_key[h] = pc + 1;
		block_slot[h] = ++nr_blocks;
		slot = nr_blocks - 1;
	}
	pthread_mutex_unlock(&block_lock);
	return slot;
}

/* Little-endian bytes to a number. */
static __u64 le_bytes(const unsigned char *b, size_t len)
{
	__u64 v = 0;

	while (len--)
		v = v << 8 | b[len];
	return v;
}

static struct qemu_plugin_u64 site_slot_u64(unsigned int slot)
{
	return (struct qemu_plugin_u64){
		.score = site_board,
		.offset = slot * sizeof(__u64),
	};
}

static bool site_watched(enum site_kind kind, __u64 addr)
{
	unsigned int i;

	for (i = 0; i < sites->nr_watched[kind]; i++)
		if (sites->watched[kind][i] == addr)
			return true;
	return false;
}

/* Whether @pc, in the module area, lies in range @i. */
static bool in_range(int i, __u64 pc)
{
	__u64 page = (pc - MODULE_AREA_START) >> AREA_PAGE_SHIFT;

	return page >= ranges[i].first_page &&
	       page < ranges[i].first_page + ranges[i].nr_pages;
}

/* What @slot's executions count as now; site_lock held. */
static enum site_kind site_judge(unsigned int slot)
{
	if (site_watched(SITE_RPC, sites->pc[slot]))
		return SITE_RPC;
	if (site_watched(SITE_ENTRY, sites->pc[slot]))
		return SITE_ENTRY;
	if (sites->target[slot] && in_range(0, sites->pc[slot]) &&
	    site_watched(SITE_CALL, sites->target[slot]))
		return SITE_CALL;
	return SITE_NONE;
}

/* Judge @slot and add it to the slots summed; site_lock held. */
static void site_add(unsigned int slot)
{
	enum site_kind kind = site_judge(slot);

	sites->kind[slot] = kind;
	if (kind == SITE_NONE)
		return;
	if (sites->nr_counted[kind] == MAX_COUNTED) {
		sites->kind[slot] = SITE_NONE;
		return;
	}
	sites->counted[kind][sites->nr_counted[kind]++] = slot;
}

/* Take @slot out of the slots summed, if it is in; site_lock held. */
static void site_remove(unsigned int slot)
{
	enum site_kind kind = sites->kind[slot];
	unsigned int i;

	if (kind == SITE_NONE)
		return;
	for (i = 0; i < sites->nr_counted[kind]; i++)
		if (sites->counted[kind][i] == slot)
			break;
	if (i < sites->nr_counted[kind])
		sites->counted[kind][i] =
			sites->counted[kind][--sites->nr_counted[kind]];
	sites->kind[slot] = SITE_NONE;
}

/* Judge every slot again (TEXT changed, or a slot's target); lock held. */
static void sites_rejudge(void)
{
	unsigned int slot;

	memset(sites->nr_counted, 0, sizeof(sites->nr_counted));
	for (slot = 0; slot < sites->nr_slots; slot++)
		site_add(slot);
}

/*
 * The slot of the module-area block at @pc, which ends in a call to
 * @target (0: no call), a new one if need be; -1 if the table is full.
 */
static int site_find(__u64 pc, __u64 target)
{
	unsigned int h;
	int slot = -1;

	pthread_mutex_lock(&site_lock);
	h = addr_probe(sites->key, SITE_HASH, pc);
	if (sites->key[h]) {
		slot = sites->slot[h] - 1;
		/* New code at an old address: a module was loaded there. */
		if (sites->target[slot] != target) {
			sites->target[slot] = target;
			site_remove(slot);
			site_add(slot);
		}
	} else if (sites->nr_slots < SITE_SLOTS) {
		slot = sites->nr_slots++;
		sites->key[h] = pc + 1;
		sites->slot[h] = slot + 1;
		sites->pc[slot] = pc;
		sites->target[slot] = target;
		site_add(slot);
	} else if (!sites->full_warned) {
		sites->full_warned = true;
		fprintf(stderr, "insn-count: over %d module blocks: calls and runs undercounted\n",
			SITE_SLOTS);
	}
	pthread_mutex_unlock(&site_lock);
	return slot;
}

/* Count the executions of @tb in @slot. */
static void site_count_execs(struct qemu_plugin_tb *tb, int slot)
{
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							  site_slot_u64(slot), 1);
}

/* The target of the CALL rel32 or JMP rel32 @insn is, or 0. */
static __u64 call_target(struct qemu_plugin_insn *insn)
{
	unsigned char b[5];

	if (qemu_plugin_insn_size(insn) != sizeof(b) ||
	    qemu_plugin_insn_data(insn, b, sizeof(b)) != sizeof(b) ||
	    (b[0] != CALL_REL32 && b[0] != JMP_REL32))
		return 0;
	return qemu_plugin_insn_vaddr(insn) + sizeof(b) +
	       (__s64)(__s32)le_bytes(b + 1, 4);
}

/* The counter of page @page of the module area. */
static struct qemu_plugin_u64 page_slot(size_t page)
{
	return count_slot(offsetof(struct insn_counts, page[page]));
}

/*
 * If the @len bytes at @b are a REP string instruction, its REP_SIZE_MASK,
 * REP_ADDR32 and REP_STORES bits (the size never 0); else 0.
 */
static unsigned long rep_decode(const unsigned char *b, size_t len)
{
	bool rep = false, opsize = false, addr32 = false, rexw = false;
	unsigned long wide, info;
	size_t i;

	for (i = 0; i < len; i++) {
		switch (b[i]) {
		case 0xf2: case 0xf3:
			rep = true;
			continue;
		case 0x66:
			opsize = true;
			continue;
		case 0x67:
			addr32 = true;
			continue;
		case 0x26: case 0x2e: case 0x36: case 0x3e: case 0x64:
		case 0x65: case 0xf0:
			continue;
		}
		break;
	}
	if (i < len && (b[i] & 0xf0) == 0x40) {
		rexw = b[i] & 0x08;
		i++;
	}
	/* A string instruction has no operand bytes: the opcode is last. */
	if (!rep || i + 1 != len)
		return 0;
	wide = rexw ? 8 : opsize ? 2 : 4;
	switch (b[i]) {
	case 0xa4: case 0xaa:			/* MOVSB, STOSB */
		info = 1 | REP_STORES;
		break;
	case 0xa5: case 0xab:			/* MOVS, STOS W/D/Q */
		info = wide | REP_STORES;
		break;
	case 0xa6: case 0xac: case 0xae:	/* CMPSB, LODSB, SCASB */
		info = 1;
		break;
	case 0xa7: case 0xad: case 0xaf:	/* CMPS, LODS, SCAS W/D/Q */
		info = wide;
		break;
	case 0x6c: case 0x6e:			/* INSB, OUTSB */
		info = 1 | REP_STORES;
		break;
	case 0x6d: case 0x6f:			/* INS, OUTS W/D: no REX.W form */
		info = (opsize ? 2 : 4) | REP_STORES;
		break;
	default:
		return 0;
	}
	return info | (addr32 ? REP_ADDR32 : 0);
}

/* The userdata of @insn's REP callback, or 0 if it is no REP string insn. */
static unsigned long rep_info(struct qemu_plugin_insn *insn)
{
	unsigned char bytes[16];
	size_t len = qemu_plugin_insn_size(insn);
	unsigned long info;
	__u64 pc;

	if (len < 2 || len > 15 ||
	    qemu_plugin_insn_data(insn, bytes, len) != len)
		return 0;
	info = rep_decode(bytes, len);
	if (!info)
		return 0;
	pc = qemu_plugin_insn_vaddr(insn);
	if (pc >= MODULE_AREA_START && pc < MODULE_AREA_END)
		info |= REP_MODULE | ((pc - MODULE_AREA_START) >> AREA_PAGE_SHIFT)
					<< REP_PAGE_SHIFT;
	else if (pc >= KERNEL_TEXT_START && pc < MODULE_AREA_START)
		info |= REP_KERNEL;
	return info;
}

static struct glib_byte_array *scratch_buffer(void)
{
	if (!scratch)
		scratch = g_byte_array_new();
	return scratch;
}

/* Register @reg of the vCPU running the callback, in @val. */
static bool reg_read(struct qemu_plugin_register *reg, __u64 *val)
{
	struct glib_byte_array *buf = scratch_buffer();
	int len;

	g_byte_array_set_size(buf, 0);	/* the register is appended */
	len = qemu_plugin_read_register(reg, buf);
	if (len <= 0 || len > 8 || buf->len < (unsigned int)len)
		return false;
	*val = le_bytes(buf->data, len);
	return true;
}

/* @len (at most 8) bytes of guest memory at virtual address @addr. */
static bool mem_read(__u64 addr, unsigned char *dest, size_t len)
{
	struct glib_byte_array *buf = scratch_buffer();

	if (!qemu_plugin_read_memory_vaddr(addr, buf, len) || buf->len < len)
		return false;
	memcpy(dest, buf->data, len);
	return true;
}

/*
 * For a REP instruction in the kernel's text: the module-area page of
 * the call that led to it, if the word at RSP is a return address right
 * after a CALL rel32 in the module area into the kernel's text (a leaf
 * string function a module called); -1 otherwise.
 */
static long caller_page(void)
{
	unsigned char word[8], call[5];
	__u64 sp, ret, target;

	if (!reg_read(reg_rsp, &sp) || !mem_read(sp, word, 8))
		return -1;
	ret = le_bytes(word, 8);
	if (ret < MODULE_AREA_START + 5 || ret > MODULE_AREA_END)
		return -1;
	if (!mem_read(ret - 5, call, 5) || call[0] != CALL_REL32)
		return -1;
	target = ret + (__s64)(__s32)le_bytes(call + 1, 4);
	if (target < KERNEL_TEXT_START || target >= MODULE_AREA_START)
		return -1;
	return (ret - 5 - MODULE_AREA_START) >> AREA_PAGE_SHIFT;
}

static void add(__u64 *counter, __u64 n)
{
	__atomic_store_n(counter, *counter + n, __ATOMIC_RELAXED);
}

/* Whether stack pointers @a and @b lie on the same kernel stack. */
static bool same_stack(__u64 a, __u64 b)
{
	return (a & ~(CALLOUT_STACK - 1)) == (b & ~(CALLOUT_STACK - 1));
}

/*
 * The open callouts, at most one per kernel stack (a task's), on any
 * vCPU: an entry is 0 or the stack pointer at the call, its low bit
 * CALLOUT_SUNRPC, in the slot of its stack's CALLOUT_STACK-aligned
 * block.  A task keeps its callout while it sleeps or is preempted,
 * wherever it resumes, until a module block runs on its stack.  Two
 * stacks CALLOUT_SLOTS blocks apart share a slot: the later call
 * replaces the other's callout, whose rest is then not counted.
 * callout_from[] holds, in the same slot, the site slot + 1 of the
 * block whose call opened it (0: none known), for the profile, and
 * callout_paused[] the stack pointer at the entry of a pause function
 * the callout is in (0: none): see callout_exec().
 */
#define CALLOUT_SLOTS		1024
static __u64 callout_table[CALLOUT_SLOTS];
static unsigned int callout_from[CALLOUT_SLOTS];
static __u64 callout_paused[CALLOUT_SLOTS];
static unsigned long callouts_open;

/* The slot of the callout tables for the stack @sp lies on. */
static unsigned int callout_index(__u64 sp)
{
	return (sp / CALLOUT_STACK) % CALLOUT_SLOTS;
}

static __u64 *callout_slot(__u64 sp)
{
	return &callout_table[callout_index(sp)];
}

/*
 * Open a callout at @sp, its module's bit @sunrpc, made by the block of
 * site slot @from - 1 (0: none known): every vCPU counts.
 */
static void callout_open(__u64 sp, __u64 sunrpc, unsigned int from)
{
	int vcpu, vcpus = qemu_plugin_num_vcpus();
	struct insn_counts *c;

	__atomic_store_n(&callout_from[callout_index(sp)], from,
			 __ATOMIC_RELAXED);
	__atomic_store_n(&callout_paused[callout_index(sp)], 0,
			 __ATOMIC_RELAXED);
	if (!__atomic_exchange_n(callout_slot(sp), (sp & ~CALLOUT_SUNRPC) |
				 sunrpc, __ATOMIC_RELAXED))
		__atomic_add_fetch(&callouts_open, 1, __ATOMIC_RELAXED);
	for (vcpu = 0; vcpu < vcpus; vcpu++) {
		c = qemu_plugin_scoreboard_find(counts, vcpu);
		__atomic_store_n(&c->callout, 1, __ATOMIC_RELAXED);
	}
}

/* Close the callout of @sp's stack, if one is open. */
static void callout_close(__u64 sp)
{
	__u64 *slot = callout_slot(sp);
	__u64 open = __atomic_load_n(slot, __ATOMIC_RELAXED);

	if (open && same_stack(open, sp) &&
	    __atomic_compare_exchange_n(slot, &open, 0, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		__atomic_sub_fetch(&callouts_open, 1, __ATOMIC_RELAXED);
}

/* Whether @pc is the entry of a function TEXT's "pause" lines name. */
static bool pause_entry(__u64 pc)
{
	int i;

	for (i = 0; i < NR_PAUSES; i++)
		if (pc && __atomic_load_n(&pause_at[i], __ATOMIC_RELAXED) == pc)
			return true;
	return false;
}

/*
 * The range (0 or 1: rpcrdma, sunrpc) of the callout open on the stack
 * the vCPU runs on now, if the stack pointer lies deeper than its call
 * and the callout is not paused there, and in *@from the site slot + 1
 * of the block that opened it (0: none known); -1 otherwise.  @pc is
 * the kernel block about to run (0: not known): at a pause function's
 * entry the callout pauses until the stack pointer is back above it,
 * past the function's return (callout_exec()).
 */
static int callout_origin(__u64 pc, unsigned int *from)
{
	__u64 open, at, sp, paused;
	unsigned int i;

	if (!reg_rsp || !reg_read(reg_rsp, &sp))
		return -1;
	i = callout_index(sp);
	open = __atomic_load_n(&callout_table[i], __ATOMIC_RELAXED);
	at = open & ~CALLOUT_SUNRPC;
	if (!open || sp > at || !same_stack(sp, at))
		return -1;
	paused = __atomic_load_n(&callout_paused[i], __ATOMIC_RELAXED);
	if (paused && sp <= paused)
		return -1;
	if (paused)
		__atomic_store_n(&callout_paused[i], 0, __ATOMIC_RELAXED);
	if (pause_entry(pc)) {
		__atomic_store_n(&callout_paused[i], sp, __ATOMIC_RELAXED);
		return -1;
	}
	*from = __atomic_load_n(&callout_from[i], __ATOMIC_RELAXED);
	return open & CALLOUT_SUNRPC ? 1 : 0;
}

/* A REP string instruction of the kernel's text, in a callout if any. */
static void callout_rep(struct insn_counts *c, __u64 n, __u64 bytes)
{
	unsigned int from;
	int origin = callout_origin(0, &from);

	if (origin < 0)
		return;
	add(&c->callout_rep_iters[origin], n);
	add(&c->callout_rep_bytes[origin], bytes);
}

/*
 * The userdata of callout_exec() for a block of the kernel's text at
 * @pc of @n instructions: both, the address's low 32 bits (the kernel's
 * text spans less) above the count (TCG makes at most 512 per block).
 */
static unsigned long callout_exec_data(__u64 pc, size_t n)
{
	return (unsigned long)(pc & 0xffffffffULL) << 16 | n;
}

/*
 * A block of the kernel's text while a callout is open on @vcpu (the
 * condition is evaluated inline; @userdata: callout_exec_data()): its
 * instructions count for the callout if it runs on the call's stack,
 * and for the call site that opened it when profiling.
 *
 * Pauses.  A preemption is not the callee's work: a tick or a wake-up
 * marks the task, and the kernel switches away where an interrupt
 * returns or preemption is enabled again (preempt_schedule_irq(),
 * preempt_schedule(), under Debian 7.2's PREEMPT_LAZY), on the task's
 * stack, inside the callout.  TEXT's "pause" lines name those
 * functions: from the entry of one to its return (the stack pointer
 * back above where it was at the entry), the callout counts nothing,
 * the scheduler's way out and back in included.
 */
static void callout_exec(unsigned int vcpu, void *userdata)
{
	struct insn_counts *c = qemu_plugin_scoreboard_find(counts, vcpu);
	unsigned long data = (unsigned long)userdata, n = data & 0xffff;
	struct callout_site_counts *by_site;
	unsigned int from;
	int origin = callout_origin(0xffffffff00000000ULL | data >> 16, &from);

	if (origin < 0)
		return;
	add(&c->callout_insns[origin], n);
	if (callout_board && from) {
		by_site = qemu_plugin_scoreboard_find(callout_board, vcpu);
		add(&by_site->insns[from - 1], n);
	}
}

/*
 * A kernel block outside the kernel's text, on the vCPU whose counters
 * are @c, while a callout may be open: it closes the callout of the
 * stack it runs on; with none open anywhere, the vCPU stops looking.
 */
static void callout_leave_on(struct insn_counts *c)
{
	__u64 sp;

	if (reg_rsp && reg_read(reg_rsp, &sp))
		callout_close(sp);
	if (!__atomic_load_n(&callouts_open, __ATOMIC_RELAXED))
		__atomic_store_n(&c->callout, 0, __ATOMIC_RELAXED);
}

/* callout_leave_on() as a callback, for the vCPU @vcpu. */
static void callout_leave(unsigned int vcpu, void *userdata)
{
	callout_leave_on(qemu_plugin_scoreboard_find(counts, vcpu));
}

/*
 * The userdata of callout_begin() for the module-area block at @pc, of
 * site slot @slot: the slot + 1, or the block's address if it has no
 * slot (the site table is full).  Addresses lie far above any slot.
 */
static unsigned long callout_begin_data(__u64 pc, int slot)
{
	return slot >= 0 ? (unsigned long)slot + 1 : pc;
}

/*
 * A module-area block (@userdata: callout_begin_data()) that ends in a
 * CALL rel32 into the kernel's text: a callout opens if the block is
 * the transport's, with the stack pointer now; else it is a block that
 * may close the one open (callout_leave_on()).
 */
static void callout_begin(unsigned int vcpu, void *userdata)
{
	struct insn_counts *c = qemu_plugin_scoreboard_find(counts, vcpu);
	unsigned long data = (unsigned long)userdata;
	unsigned int from = data < MODULE_AREA_START ? data : 0;
	/* A slot's address is set before its block can run. */
	__u64 pc = from ? sites->pc[from - 1] : data, sp;
	bool sunrpc = in_range(CALLOUT_RANGE_SUNRPC, pc);

	if (!sunrpc && !in_range(CALLOUT_RANGE_RPCRDMA, pc)) {
		callout_leave_on(c);
		return;
	}
	if (reg_rsp && reg_read(reg_rsp, &sp) && sp)
		callout_open(sp, sunrpc ? CALLOUT_SUNRPC : 0, from);
}

/* Before a REP string instruction runs: count what it will do. */
static void rep_exec(unsigned int vcpu, void *userdata)
{
	unsigned long info = (unsigned long)userdata;
	struct insn_counts *c;
	__u64 flags, n, bytes;
	long page = -1;

	/* Re-entered (after 64 Ki iterations, an interrupt, a fault). */
	if (!reg_read(reg_eflags, &flags) || (flags & EFLAGS_RF))
		return;
	if (!reg_read(reg_rcx, &n))
		return;
	if (info & REP_ADDR32)
		n &= 0xffffffffULL;
	if (!n)
		return;
	bytes = info & REP_STORES ? n * (info & REP_SIZE_MASK) : 0;
	c = qemu_plugin_scoreboard_find(counts, vcpu);
	add(&c->rep_iters, n);
	add(&c->rep_bytes, bytes);
	if (info & REP_MODULE)
		page = info >> REP_PAGE_SHIFT;
	else if (info & REP_KERNEL)
		page = caller_page();
	if (page >= 0) {
		add(&c->rep_page_iters[page], n);
		add(&c->rep_page_bytes[page], bytes);
		return;
	}
	if (info & REP_KERNEL)
		callout_rep(c, n, bytes);
}

/* Whether @addr is in the kernel's own text. */
static bool in_kernel_text(__u64 addr)
{
	return addr >= KERNEL_TEXT_START && addr < MODULE_AREA_START;
}

/*
 * Callouts (see the top of this file): a block of the kernel's text
 * counts while one is open; a module block that calls into the kernel's
 * text may open one; every other kernel block may close it; user space
 * is left alone.  @slot is a module block's site slot (-1: none).
 */
static void callout_instrument(struct qemu_plugin_tb *tb, __u64 pc, size_t n,
			       int slot)
{
	struct qemu_plugin_u64 open = count_slot(offsetof(struct insn_counts,
							  callout));
	struct qemu_plugin_insn *last;
	unsigned char op;

	if (!__atomic_load_n(&callouts_counting, __ATOMIC_ACQUIRE))
		return;
	if (in_kernel_text(pc)) {
		qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, callout_exec,
							  QEMU_PLUGIN_CB_R_REGS,
							  QEMU_PLUGIN_COND_NE,
							  open, 0,
							  (void *)callout_exec_data(pc, n));
		return;
	}
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	if (pc >= MODULE_AREA_START && pc < MODULE_AREA_END &&
	    in_kernel_text(call_target(last)) &&
	    qemu_plugin_insn_data(last, &op, 1) == 1 && op == CALL_REL32) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, callout_begin,
						     QEMU_PLUGIN_CB_R_REGS,
						     (void *)callout_begin_data(pc, slot));
		return;
	}
	if (pc < KERNEL_SPACE_START)
		return;
	qemu_plugin_register_vcpu_tb_exec_cond_cb(tb, callout_leave,
						  QEMU_PLUGIN_CB_R_REGS,
						  QEMU_PLUGIN_COND_NE, open, 0,
						  NULL);
}

static void tb_trans(__u64 id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	__u64 pc = qemu_plugin_tb_vaddr(tb);
	struct qemu_plugin_insn *insn;
	unsigned long info;
	size_t page, i;
	int slot = -1;

	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							  count_slot(0), n);
	if (__atomic_load_n(&rep_counting, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < n; i++) {
			insn = qemu_plugin_tb_get_insn(tb, i);
			info = rep_info(insn);
			if (info)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, rep_exec,
								       QEMU_PLUGIN_CB_R_REGS,
								       (void *)info);
		}
	}
	if (pc >= MODULE_AREA_START && pc < MODULE_AREA_END) {
		page = (pc - MODULE_AREA_START) >> AREA_PAGE_SHIFT;
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
								  page_slot(page), n);
		slot = site_find(pc, call_target(qemu_plugin_tb_get_insn(tb, n - 1)));
		if (slot >= 0)
			site_count_execs(tb, slot);
	}
	callout_instrument(tb, pc, n, slot);
	if (pc < KERNEL_TEXT_START || pc >= MODULE_AREA_END)
		return;
	if (!block_board)
		return;
	slot = block_find(pc);
	if (slot >= 0)
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
								  block_slot_u64(slot), n);
}

/* The first vCPU to start: find the registers the REP callback reads. */
static void vcpu_init(__u64 id, unsigned int vcpu)
{
	const struct qemu_plugin_reg_descriptor *reg;
	struct glib_array *regs;
	unsigned int i;

	pthread_mutex_lock(&reg_lock);
	if (regs_looked_up)
		goto out;
	regs_looked_up = true;
	regs = qemu_plugin_get_registers();
	for (i = 0; regs && i < regs->len; i++) {
		reg = (const struct qemu_plugin_reg_descriptor *)regs->data + i;
		if (!strcmp(reg->name, "rcx"))
			reg_rcx = reg->handle;
		else if (!strcmp(reg->name, "rsp"))
			reg_rsp = reg->handle;
		else if (!strcmp(reg->name, "eflags"))
			reg_eflags = reg->handle;
	}
	if (regs)
		g_array_free(regs, 1);
	if (reg_rcx && reg_rsp && reg_eflags)
		__atomic_store_n(&rep_counting, true, __ATOMIC_RELEASE);
	else
		fprintf(stderr,
			"insn-count: no rcx, rsp or eflags register: REP string instructions not counted\n");
	if (reg_rsp)
		__atomic_store_n(&callouts_counting, true, __ATOMIC_RELEASE);
	else
		fprintf(stderr,
			"insn-count: no rsp register: callouts not counted\n");
out:
	pthread_mutex_unlock(&reg_lock);
}

/*
 * Lines "callout ADDRESS INSTRUCTIONS" to @f: for every module block
 * whose call opened callouts, the kernel's instructions charged to them.
 */
static void callouts_write(FILE *f)
{
	struct qemu_plugin_u64 entry = { .score = callout_board };
	unsigned int slot;
	__u64 n;

	if (!callout_board)
		return;
	pthread_mutex_lock(&site_lock);
	for (slot = 0; slot < sites->nr_slots; slot++) {
		entry.offset = offsetof(struct callout_site_counts, insns[slot]);
		n = qemu_plugin_u64_sum(entry);
		if (n)
			fprintf(f, "callout %llx %llu\n",
				(unsigned long long)sites->pc[slot],
				(unsigned long long)n);
	}
	pthread_mutex_unlock(&site_lock);
}

/* Lines "ADDRESS INSTRUCTIONS" of every profiled block, to @path. */
static void profile_write(const char *path)
{
	char tmp[4200];
	unsigned int h;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	pthread_mutex_lock(&block_lock);
	for (h = 0; h < PROFILE_HASH; h++)
		if (block_key[h])
			fprintf(f, "%llx %llu\n",
				(unsigned long long)block_key[h] - 1,
				(unsigned long long)
				qemu_plugin_u64_sum(block_slot_u64(block_slot[h] - 1)));
	pthread_mutex_unlock(&block_lock);
	callouts_write(f);
	fclose(f);
	rename(tmp, path);
}

/* Answer OUT.req, if it is there. */
static void profile_request(void)
{
	char path[4096];
	FILE *f;
	int got;

	f = fopen(request_path, "r");
	if (!f)
		return;
	got = fscanf(f, "%4095s", path);
	fclose(f);
	if (got == 1)
		profile_write(path);
	unlink(request_path);
}

/* One "NAME START END" line of TEXT, for range @i. */
static void text_range_set(int i, unsigned long long start,
			   unsigned long long end)
{
	if (start < MODULE_AREA_START || end > MODULE_AREA_END || start >= end)
		return;
	ranges[i].first_page = (start - MODULE_AREA_START) >> AREA_PAGE_SHIFT;
	ranges[i].nr_pages = ((end - MODULE_AREA_START - 1) >> AREA_PAGE_SHIFT) -
			     ranges[i].first_page + 1;
}

/* One "call", "entry" or "rpc" line ("KIND NAME ADDRESS") of TEXT. */
static void text_watch(enum site_kind kind, unsigned long long addr)
{
	if (sites->nr_watched[kind] < NR_WATCHED)
		sites->watched[kind][sites->nr_watched[kind]++] = addr;
}

/* One "pause NAME ADDRESS" line of TEXT, the *@nr-th. */
static void text_pause(int *nr, unsigned long long addr)
{
	if (*nr < NR_PAUSES)
		__atomic_store_n(&pause_at[(*nr)++], addr, __ATOMIC_RELAXED);
}

/*
 * Reread TEXT if it changed: at most NR_RANGES "NAME START END" lines,
 * in order, and the "call", "entry", "rpc" and "pause" lines.
 */
static void text_reload(void)
{
	unsigned long long start, end;
	char line[256], name[64], kind[16];
	struct stat st;
	int nr_ranges = 0, nr_pauses = 0;
	FILE *f;

	if (!text_path || stat(text_path, &st))
		return;
	if (st.st_mtim.tv_sec == text_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == text_mtime.tv_nsec)
		return;
	f = fopen(text_path, "r");
	if (!f)
		return;
	text_mtime = st.st_mtim;
	pthread_mutex_lock(&site_lock);
	memset(ranges, 0, sizeof(ranges));
	memset(sites->nr_watched, 0, sizeof(sites->nr_watched));
	while (fgets(line, sizeof(line), f)) {
		/* The first word whole: "rpc" is also where "rpcrdma" starts. */
		if (sscanf(line, "%15s %63s %llx", kind, name, &start) != 3)
			continue;
		if (!strcmp(kind, "call"))
			text_watch(SITE_CALL, start);
		else if (!strcmp(kind, "entry"))
			text_watch(SITE_ENTRY, start);
		else if (!strcmp(kind, "rpc"))
			text_watch(SITE_RPC, start);
		else if (!strcmp(kind, "pause"))
			text_pause(&nr_pauses, start);
		else if (nr_ranges < NR_RANGES &&
			 sscanf(line, "%63s %llx %llx", name, &start, &end) == 3)
			text_range_set(nr_ranges++, start, end);
	}
	while (nr_pauses < NR_PAUSES)
		__atomic_store_n(&pause_at[nr_pauses++], 0, __ATOMIC_RELAXED);
	sites_rejudge();
	pthread_mutex_unlock(&site_lock);
	fclose(f);
}

/* The executions of the slots that count as @kind, every vCPU summed. */
static __u64 sites_sum(enum site_kind kind)
{
	__u64 sum = 0;
	unsigned int i;

	pthread_mutex_lock(&site_lock);
	for (i = 0; i < sites->nr_counted[kind]; i++)
		sum += qemu_plugin_u64_sum(site_slot_u64(sites->counted[kind][i]));
	pthread_mutex_unlock(&site_lock);
	return sum;
}

/* The sum over every vCPU of the @n counters from @offset of its entry. */
static __u64 board_sum(size_t offset, size_t n)
{
	int vcpu, vcpus = qemu_plugin_num_vcpus();
	const __u64 *p;
	__u64 sum = 0;
	size_t i;

	for (vcpu = 0; vcpu < vcpus; vcpu++) {
		p = (const __u64 *)((const char *)
				    qemu_plugin_scoreboard_find(counts, vcpu) + offset);
		for (i = 0; i < n; i++)
			sum += __atomic_load_n(&p[i], __ATOMIC_RELAXED);
	}
	return sum;
}

/* Sum of the counters of range @r's pages, from the array at @offset. */
static __u64 range_sum(const struct text_range *r, size_t offset)
{
	if (!r->nr_pages)
		return 0;
	return board_sum(offset + r->first_page * sizeof(__u64), r->nr_pages);
}

static void publish(void)
{
	static const size_t field_offset[3][2] = {
		{ offsetof(struct insn_counts, total),
		  offsetof(struct insn_counts, page) },
		{ offsetof(struct insn_counts, rep_iters),
		  offsetof(struct insn_counts, rep_page_iters) },
		{ offsetof(struct insn_counts, rep_bytes),
		  offsetof(struct insn_counts, rep_page_bytes) },
	};
	int kind, i;

	for (kind = 0; kind < 3; kind++) {
		__u64 *out = shared + kind * (1 + NR_RANGES);

		__atomic_store_n(&out[0], board_sum(field_offset[kind][0], 1),
				 __ATOMIC_RELAXED);
		for (i = 0; i < NR_RANGES; i++)
			__atomic_store_n(&out[1 + i],
					 range_sum(&ranges[i], field_offset[kind][1]),
					 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&shared[OUT_WAKE_CALLS], sites_sum(SITE_CALL),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&shared[OUT_WORK_RUNS], sites_sum(SITE_ENTRY),
			 __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&shared[OUT_CALLOUT_INSNS + i],
				 board_sum(offsetof(struct insn_counts,
						    callout_insns[i]), 1),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&shared[OUT_CALLOUT_REP_ITERS + i],
				 board_sum(offsetof(struct insn_counts,
						    callout_rep_iters[i]), 1),
				 __ATOMIC_RELAXED);
		__atomic_store_n(&shared[OUT_CALLOUT_REP_BYTES + i],
				 board_sum(offsetof(struct insn_counts,
						    callout_rep_bytes[i]), 1),
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&shared[OUT_RPC_RUNS], sites_sum(SITE_RPC),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&shared[OUT_CAPS],
			 (__atomic_load_n(&rep_counting, __ATOMIC_ACQUIRE) ?
			  CAPS_REP : 0) |
			 (__atomic_load_n(&callouts_counting, __ATOMIC_ACQUIRE) ?
			  CAPS_CALLOUTS : 0),
			 __ATOMIC_RELAXED);
}

static void *publish_loop(void *unused)
{
	const struct timespec ms = { .tv_nsec = 1000000 };
	unsigned int tick = 0;

	for (;;) {
		/*
		 * TEXT changes only when a module is loaded, and a profile
		 * is asked for at a mark: look every 20 ms.
		 */
		if (tick++ % 20 == 0) {
			text_reload();
			if (block_board)
				profile_request();
		}
		publish();
		nanosleep(&ms, NULL);
	}
	return NULL;
}

static void at_exit(__u64 id, void *unused)
{
	publish();
}

__attribute__((visibility("default")))
int qemu_plugin_install(__u64 id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	size_t size = OUT_FIELDS * sizeof(__u64);
	const char *path = NULL;
	bool profile = false;
	pthread_t publisher;
	void *map;
	int fd, i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			path = argv[i] + 4;
		else if (!strncmp(argv[i], "text=", 5))
			text_path = argv[i] + 5;
		else if (!strcmp(argv[i], "profile=1"))
			profile = true;
	}
	if (!path) {
		fprintf(stderr, "insn-count: no out=PATH argument\n");
		return -1;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, size)) {
		perror(path);
		return -1;
	}
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		perror(path);
		return -1;
	}
	shared = map;
	counts = qemu_plugin_scoreboard_new(sizeof(struct insn_counts));
	sites = calloc(1, sizeof(*sites));
	if (!sites)
		return -1;
	site_board = qemu_plugin_scoreboard_new(sizeof(struct site_counts));
	if (profile) {
		request_path = malloc(strlen(path) + sizeof(".req"));
		if (!request_path)
			return -1;
		sprintf(request_path, "%s.req", path);
		block_board = qemu_plugin_scoreboard_new(sizeof(struct block_counts));
		callout_board = qemu_plugin_scoreboard_new(sizeof(struct callout_site_counts));
	}
	qemu_plugin_register_vcpu_init_cb(id, vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	if (pthread_create(&publisher, NULL, publish_loop, NULL)) {
		fprintf(stderr, "insn-count: no publisher thread\n");
		return -1;
	}
	pthread_detach(publisher);
	return 0;
}
