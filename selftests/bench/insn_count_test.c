// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the instruction counter's decoders and of the sums of its
 * calls and runs, on the host, without QEMU: the plugin's source is
 * included and the few QEMU calls these parts make are answered here.
 * make check builds and runs it (gcc, with -lpthread); it prints
 * "insn_count_test: N passed, N failed" and exits non-zero on a failure.
 */
#include "insn-count.c"

/* An instruction as a test hands it to the plugin. */
struct qemu_plugin_insn {
	unsigned char bytes[15];
	size_t len;
	__u64 vaddr;
};

/* Executions of each site slot, as the site board would sum them. */
static __u64 fake_execs[SITE_SLOTS];
static int passed, failed;

/* The registers these tests answer for: RSP when it is set, RCX, EFLAGS. */
static struct qemu_plugin_register *fake_rsp_handle =
	(struct qemu_plugin_register *)&fake_execs[0];
static struct qemu_plugin_register *fake_rcx_handle =
	(struct qemu_plugin_register *)&fake_execs[1];
static struct qemu_plugin_register *fake_eflags_handle =
	(struct qemu_plugin_register *)&fake_execs[2];
static __u64 fake_rsp, fake_rcx;
static bool fake_rsp_set;

/* What tb_trans()'s callout part registered for the last block. */
struct registered {
	void (*cb)(unsigned int vcpu_index, void *userdata);
	void *userdata;
	enum qemu_plugin_cb_flags flags;
	enum qemu_plugin_cond cond;
	size_t entry_offset;
	bool cond_cb, stored;
	__u64 stored_value;
};

static struct registered reg;

/* A translation block as a test hands it to the plugin. */
struct qemu_plugin_tb {
	__u64 vaddr;
	struct qemu_plugin_insn *insns;
	size_t n;
};

size_t qemu_plugin_insn_data(const struct qemu_plugin_insn *insn,
			     void *dest, size_t len)
{
	if (len > insn->len)
		len = insn->len;
	memcpy(dest, insn->bytes, len);
	return len;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->len;
}

__u64 qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn)
{
	return insn->vaddr;
}

__u64 qemu_plugin_u64_sum(struct qemu_plugin_u64 entry)
{
	if (entry.score == site_board)
		return fake_execs[entry.offset / sizeof(__u64)];
	/* One vCPU: the scoreboard is its entry. */
	if (entry.score && entry.score == callout_board)
		return *(__u64 *)((char *)entry.score + entry.offset);
	return 0;
}

/* What the rest of the plugin calls: never reached by these tests. */
void qemu_plugin_register_vcpu_tb_trans_cb(__u64 id,
					   void (*cb)(__u64 id,
						      struct qemu_plugin_tb *tb))
{
}

void qemu_plugin_register_vcpu_init_cb(__u64 id,
				       void (*cb)(__u64 id,
						  unsigned int vcpu_index))
{
}

void qemu_plugin_register_atexit_cb(__u64 id,
				    void (*cb)(__u64 id, void *userdata),
				    void *userdata)
{
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

__u64 qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb)
{
	return tb->vaddr;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx)
{
	return &tb->insns[idx];
}

void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb,
						       enum qemu_plugin_op op,
						       struct qemu_plugin_u64 entry,
						       __u64 imm)
{
	if (op == QEMU_PLUGIN_INLINE_STORE_U64 && entry.score == counts &&
	    entry.offset == offsetof(struct insn_counts, callout)) {
		reg.stored = true;
		reg.stored_value = imm;
	}
}

void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  void (*cb)(unsigned int vcpu_index,
						     void *userdata),
					  enum qemu_plugin_cb_flags flags,
					  void *userdata)
{
	reg.cb = cb;
	reg.flags = flags;
	reg.userdata = userdata;
}

void qemu_plugin_register_vcpu_tb_exec_cond_cb(struct qemu_plugin_tb *tb,
					       void (*cb)(unsigned int vcpu_index,
							  void *userdata),
					       enum qemu_plugin_cb_flags flags,
					       enum qemu_plugin_cond cond,
					       struct qemu_plugin_u64 entry,
					       __u64 imm, void *userdata)
{
	reg.cb = cb;
	reg.flags = flags;
	reg.userdata = userdata;
	reg.cond_cb = true;
	reg.cond = cond;
	reg.entry_offset = entry.score == counts ? entry.offset : (size_t)-1;
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    void (*cb)(unsigned int vcpu_index,
						       void *userdata),
					    enum qemu_plugin_cb_flags flags,
					    void *userdata)
{
}

struct glib_array *qemu_plugin_get_registers(void)
{
	return NULL;
}

int qemu_plugin_read_register(struct qemu_plugin_register *handle,
			      struct glib_byte_array *buf)
{
	__u64 v;
	unsigned int i;

	if (handle == fake_rsp_handle && fake_rsp_set)
		v = fake_rsp;
	else if (handle == fake_rcx_handle)
		v = fake_rcx;
	else if (handle == fake_eflags_handle)
		v = 0x2;
	else
		return -1;
	g_byte_array_set_size(buf, 8);
	for (i = 0; i < 8; i++)
		buf->data[i] = v >> (8 * i);
	return 8;
}

bool qemu_plugin_read_memory_vaddr(__u64 addr, struct glib_byte_array *data,
				   size_t len)
{
	return false;
}

int qemu_plugin_num_vcpus(void)
{
	return 1;
}

struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size)
{
	return calloc(1, element_size);
}

void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score,
				  unsigned int vcpu_index)
{
	return score;
}

struct glib_byte_array *g_byte_array_new(void)
{
	return calloc(1, sizeof(struct glib_byte_array));
}

struct glib_byte_array *g_byte_array_set_size(struct glib_byte_array *array,
					      unsigned int length)
{
	array->data = realloc(array->data, length ? length : 1);
	array->len = length;
	return array;
}

char *g_array_free(struct glib_array *array, int free_segment)
{
	return NULL;
}

static void check(bool ok, const char *what)
{
	if (ok) {
		passed++;
	} else {
		failed++;
		printf("not ok - %s\n", what);
	}
}

static struct qemu_plugin_insn insn_of(__u64 vaddr, const char *hex)
{
	struct qemu_plugin_insn insn = { .vaddr = vaddr };
	unsigned int byte;

	while (insn.len < sizeof(insn.bytes) && sscanf(hex, "%2x", &byte) == 1) {
		insn.bytes[insn.len++] = byte;
		hex += 2;
	}
	return insn;
}

static unsigned long decode(const char *hex)
{
	struct qemu_plugin_insn insn = insn_of(0, hex);

	return rep_decode(insn.bytes, insn.len);
}

static void test_rep_decode(void)
{
	check(decode("f3a4") == (1 | REP_STORES), "rep movsb moves bytes");
	check(decode("f348a5") == (8 | REP_STORES), "rep movsq, REX.W: 8 bytes");
	check(decode("66f3ab") == (2 | REP_STORES), "rep stosw: 2 bytes");
	check(decode("f367aa") == (1 | REP_STORES | REP_ADDR32), "ECX under 0x67");
	check(decode("f3a6") == 1, "repe cmpsb stores nothing");
	check(!decode("a4"), "movsb without a REP prefix");
	check(!decode("f390"), "pause is no string instruction");
	check(!decode("f3a4a4"), "the opcode must be last");
}

static void test_call_target(void)
{
	const __u64 at = MODULE_AREA_START + 0x1000;
	struct qemu_plugin_insn insn;

	insn = insn_of(at, "e810000000");
	check(call_target(&insn) == at + 5 + 0x10, "call rel32 forward");
	insn = insn_of(at, "e8f0ffffff");
	check(call_target(&insn) == at + 5 - 0x10, "call rel32 backward");
	insn = insn_of(at, "e900010000");
	check(call_target(&insn) == at + 5 + 0x100, "jmp rel32: a tail call");
	insn = insn_of(at, "ebfe");
	check(!call_target(&insn), "jmp rel8 is no call");
	insn = insn_of(at, "ffd0");
	check(!call_target(&insn), "an indirect call has no target");
}

/* Write @text as TEXT and have the plugin read it. */
static void text_set(const char *path, const char *text)
{
	static long ns;
	struct timespec times[2];
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	/* A new mtime every time, as text_reload() looks for. */
	times[0].tv_sec = 1000;
	times[0].tv_nsec = ++ns;
	times[1] = times[0];
	utimensat(AT_FDCWD, path, times, 0);
	text_reload();
}

static void test_calls_and_runs(void)
{
	const __u64 mod = MODULE_AREA_START + 0x100000;
	const __u64 other = MODULE_AREA_START + 0x200000;
	const __u64 wake = 0xffffffff81000000ULL, poll = other + 0x40;
	char path[] = "/tmp/insn_count_test.XXXXXX";
	char text[512];
	int a, b, c, d, e;

	close(mkstemp(path));
	text_path = path;

	/* Blocks translated before TEXT names anything. */
	a = site_find(mod + 0x10, wake);	/* the transport calls wake */
	b = site_find(other + 0x10, wake);	/* another module calls it */
	c = site_find(poll, 0);			/* the poll function's start */
	d = site_find(mod + 0x20, wake + 8);	/* a call elsewhere */
	check(a >= 0 && b >= 0 && c >= 0 && d >= 0, "slots given");
	check(site_find(mod + 0x10, wake) == a, "the same block, the same slot");
	fake_execs[a] = 5;
	fake_execs[b] = 7;
	fake_execs[c] = 3;
	fake_execs[d] = 11;
	check(!sites_sum(SITE_CALL) && !sites_sum(SITE_ENTRY),
	      "nothing counts before TEXT names it");

	snprintf(text, sizeof(text),
		 "rpcrdma %llx %llx\nrdma_rxe 0 0\nsunrpc %llx %llx\n"
		 "call wake %llx\nentry poll %llx\n",
		 (unsigned long long)mod, (unsigned long long)mod + 0x2000,
		 (unsigned long long)other, (unsigned long long)other + 0x1000,
		 (unsigned long long)wake, (unsigned long long)poll);
	text_set(path, text);
	check(sites_sum(SITE_CALL) == 5, "calls from the first range only");
	check(sites_sum(SITE_ENTRY) == 3, "runs of the watched function");

	/* Translated after TEXT: counted from its translation on. */
	e = site_find(mod + 0x30, wake);
	fake_execs[e] = 2;
	check(sites_sum(SITE_CALL) == 7, "a block translated later counts");

	/* New code at an old address: its old target no longer counts. */
	site_find(mod + 0x10, 0);
	check(sites_sum(SITE_CALL) == 2, "a block whose call changed is dropped");
	site_find(mod + 0x10, wake);
	check(sites_sum(SITE_CALL) == 7, "and taken back when it calls again");

	/* The transport moved: the first range is elsewhere now. */
	snprintf(text, sizeof(text), "rpcrdma %llx %llx\ncall wake %llx\n",
		 (unsigned long long)other, (unsigned long long)other + 0x1000,
		 (unsigned long long)wake);
	text_set(path, text);
	check(sites_sum(SITE_CALL) == 7, "the calls of the new range only");
	check(!sites_sum(SITE_ENTRY), "no entry line, no runs");
	unlink(path);
}

/*
 * Translate a block of @n instructions at @pc, of site slot @slot (-1:
 * none), whose last is @last.
 */
static void translate_site(__u64 pc, size_t n, const char *last, int slot)
{
	struct qemu_plugin_insn insns[4];
	struct qemu_plugin_tb tb = { .vaddr = pc, .insns = insns, .n = n };
	size_t i;

	for (i = 0; i + 1 < n; i++)
		insns[i] = insn_of(pc + i, "90");
	insns[n - 1] = insn_of(pc + n - 1, last);
	memset(&reg, 0, sizeof(reg));
	callout_instrument(&tb, pc, n, slot);
}

static void translate(__u64 pc, size_t n, const char *last)
{
	translate_site(pc, n, last, -1);
}

/* The rel32 of a CALL or JMP at @at to @target, as hex bytes. */
static const char *rel32_to(char op, __u64 at, __u64 target)
{
	static char hex[11];
	__u32 rel = (__u32)(target - (at + 5));

	snprintf(hex, sizeof(hex), "%s%02x%02x%02x%02x", op == 'c' ? "e8" : "e9",
		 rel & 0xff, (rel >> 8) & 0xff, (rel >> 16) & 0xff, rel >> 24);
	return hex;
}

static void test_callouts(void)
{
	const __u64 rpcrdma = MODULE_AREA_START + 0x100000;
	const __u64 sunrpc = MODULE_AREA_START + 0x300000;
	const __u64 other = MODULE_AREA_START + 0x500000;
	const __u64 kfree = 0xffffffff81200000ULL, sp = 0xffffc90000123f00ULL;
	struct insn_counts *c;

	counts = qemu_plugin_scoreboard_new(sizeof(struct insn_counts));
	c = qemu_plugin_scoreboard_find(counts, 0);
	text_range_set(0, rpcrdma, rpcrdma + 0x2000);
	text_range_set(1, other, other + 0x1000);
	text_range_set(2, sunrpc, sunrpc + 0x2000);
	reg_rsp = fake_rsp_handle;
	callouts_counting = true;

	/* What each kind of block is given at translation. */
	translate(kfree + 0x40, 3, "c3");
	check(reg.cond_cb && reg.cb == callout_exec &&
	      reg.cond == QEMU_PLUGIN_COND_NE &&
	      reg.entry_offset == offsetof(struct insn_counts, callout) &&
	      reg.flags == QEMU_PLUGIN_CB_R_REGS &&
	      (unsigned long)reg.userdata == callout_exec_data(kfree + 0x40, 3),
	      "a kernel block counts its instructions while a callout is open");
	translate(rpcrdma + 0x10, 2, rel32_to('c', rpcrdma + 0x11, kfree));
	check(!reg.cond_cb && reg.cb == callout_begin && !reg.stored &&
	      (unsigned long)reg.userdata == rpcrdma + 0x10,
	      "a module block calling the kernel may open a callout");
	translate(rpcrdma + 0x20, 2, rel32_to('j', rpcrdma + 0x21, kfree));
	check(reg.cond_cb && reg.cb == callout_leave &&
	      reg.cond == QEMU_PLUGIN_COND_NE &&
	      reg.entry_offset == offsetof(struct insn_counts, callout) &&
	      reg.flags == QEMU_PLUGIN_CB_R_REGS && !reg.stored,
	      "a tail call into the kernel may close the callout");
	translate(rpcrdma + 0x30, 2, rel32_to('c', rpcrdma + 0x31, other));
	check(reg.cond_cb && reg.cb == callout_leave && !reg.stored,
	      "a call to another module may close the callout");
	translate(0x401000, 1, "c3");
	check(!reg.cb && !reg.stored, "user space is not instrumented");
	callouts_counting = false;
	translate(kfree + 0x40, 3, "c3");
	check(!reg.cb && !reg.stored, "no registers: nothing instrumented");
	callouts_counting = true;

	/* rpcrdma calls kfree: its blocks count, on the call's stack. */
	fake_rsp_set = true;
	fake_rsp = sp;
	callout_begin(0, (void *)(unsigned long)(rpcrdma + 0x10));
	check(*callout_slot(sp) == sp && c->callout && callouts_open == 1,
	      "rpcrdma's call opens a callout at its RSP");
	fake_rsp = sp - 0x48;
	callout_exec(0, (void *)7UL);
	check(c->callout_insns[0] == 7 && !c->callout_insns[1],
	      "the callee's block counts for rpcrdma");
	fake_rsp = sp;
	callout_exec(0, (void *)2UL);
	check(c->callout_insns[0] == 9, "at the call's own RSP it counts");
	fake_rsp = sp + 8;
	callout_exec(0, (void *)5UL);
	check(c->callout_insns[0] == 9, "above the call: its caller, not counted");
	fake_rsp = 0xffffc90000003f00ULL;
	callout_exec(0, (void *)5UL);
	check(c->callout_insns[0] == 9,
	      "on another stack (an interrupt, another task): not counted");
	fake_rsp = sp - CALLOUT_STACK;
	callout_exec(0, (void *)5UL);
	check(c->callout_insns[0] == 9, "a stack's length below: not counted");
	/*
	 * A worker whose stack the vmalloc area placed just below the
	 * caller's (16 KiB and a guard page apart), deeper than the call by
	 * less than a stack's length: another task, not counted.
	 */
	fake_rsp = (sp & ~(CALLOUT_STACK - 1)) - 0x1000 - 0x100;
	callout_exec(0, (void *)5UL);
	check(c->callout_insns[0] == 9,
	      "the adjacent stack of another task: not counted");
	fake_rsp = (sp & ~(CALLOUT_STACK - 1)) + 0x10;
	callout_exec(0, (void *)1UL);
	check(c->callout_insns[0] == 10, "the bottom of the call's stack counts");

	/*
	 * A REP MOVSQ of the kernel's text in the callout, deeper than a
	 * leaf the module called (the word at RSP is no return address
	 * into it): charged to the callout.
	 */
	reg_rcx = fake_rcx_handle;
	reg_eflags = fake_eflags_handle;
	fake_rcx = 100;
	fake_rsp = sp - 0x10;
	rep_exec(0, (void *)(8 | REP_STORES | REP_KERNEL));
	check(c->callout_rep_iters[0] == 100 && c->callout_rep_bytes[0] == 800,
	      "a REP string instruction in the callout is charged to it");
	fake_rsp = sp + 0x10;
	rep_exec(0, (void *)(8 | REP_STORES | REP_KERNEL));
	check(c->callout_rep_iters[0] == 100 && c->rep_iters == 200,
	      "one above the call counts in the guest's total only");
	reg_rcx = NULL;
	reg_eflags = NULL;

	/* sunrpc's call: its own counters. */
	fake_rsp = sp;
	callout_begin(0, (void *)(unsigned long)(sunrpc + 0x10));
	check(*callout_slot(sp) == (sp | CALLOUT_SUNRPC) && callouts_open == 1,
	      "sunrpc's call on the same stack replaces it, marked");
	fake_rsp = sp - 0x100;
	callout_exec(0, (void *)4UL);
	callout_rep(c, 3, 0);
	check(c->callout_insns[1] == 4 && c->callout_insns[0] == 10 &&
	      c->callout_rep_iters[1] == 3, "and counts for sunrpc");

	/*
	 * The callee yields (cond_resched()): another task runs a driver's
	 * code and calls into the kernel on its own stack, and an interrupt
	 * on its stack; the callout stays open, and counts when its task
	 * resumes on the call's stack.
	 */
	fake_rsp = 0xffffc90000003f00ULL;
	callout_leave(0, NULL);
	callout_begin(0, (void *)(unsigned long)(other + 0x10));
	check(*callout_slot(sp) == (sp | CALLOUT_SUNRPC) && c->callout,
	      "another stack's module code leaves the callout open");
	/* That task calls from rpcrdma: two callouts, each its own. */
	callout_begin(0, (void *)(unsigned long)(rpcrdma + 0x10));
	check(callouts_open == 2 && *callout_slot(sp) == (sp | CALLOUT_SUNRPC),
	      "another stack's call opens a callout of its own");
	fake_rsp = 0xffffc90000003f00ULL - 0x20;
	callout_exec(0, (void *)3UL);
	check(c->callout_insns[0] == 13 && c->callout_insns[1] == 4,
	      "which counts for its own module");
	fake_rsp = 0xffffc90000003f00ULL + 0x10;
	callout_leave(0, NULL);
	check(callouts_open == 1 && c->callout, "and closes on its return");
	fake_rsp = sp - 0x200;
	callout_exec(0, (void *)6UL);
	check(c->callout_insns[1] == 10,
	      "the callee's work counts when its task resumes");
	/* A module's code on the call's stack: the return, or a call out. */
	fake_rsp = sp + 0x10;
	callout_leave(0, NULL);
	check(!*callout_slot(sp) && !callouts_open && !c->callout,
	      "a module block on the call's stack closes it");
	callout_open(sp, CALLOUT_SUNRPC, 0);
	fake_rsp = sp - 0x300;
	callout_begin(0, (void *)(unsigned long)(other + 0x10));
	check(!*callout_slot(sp) && !callouts_open,
	      "another module's call on the call's stack too");
	/* A stack CALLOUT_SLOTS blocks away shares the slot: no mix-up. */
	callout_open(sp, 0, 0);
	fake_rsp = sp - CALLOUT_SLOTS * CALLOUT_STACK;
	callout_exec(0, (void *)5UL);
	callout_leave(0, NULL);
	check(c->callout_insns[0] == 13 && *callout_slot(sp) == sp,
	      "a stack sharing the slot neither counts nor closes it");
	fake_rsp = sp + 8;
	callout_leave(0, NULL);
	callout_exec(0, (void *)4UL);
	callout_rep(c, 3, 24);
	check(c->callout_insns[0] == 13 && c->callout_insns[1] == 10 &&
	      c->callout_rep_iters[0] == 100 && c->callout_rep_iters[1] == 3,
	      "nothing counts with no callout open");

	/* No RSP: no callout, rather than a wrong one. */
	fake_rsp_set = false;
	callout_begin(0, (void *)(unsigned long)(rpcrdma + 0x10));
	check(!callouts_open, "no RSP: no callout opens");

	/* The fields OUT carries. */
	shared = calloc(OUT_FIELDS, sizeof(__u64));
	rep_counting = true;
	publish();
	check(shared[OUT_CALLOUT_INSNS] == 13 && shared[OUT_CALLOUT_INSNS + 1] == 10 &&
	      shared[OUT_CALLOUT_REP_ITERS] == 100 &&
	      shared[OUT_CALLOUT_REP_BYTES] == 800 &&
	      shared[OUT_CAPS] == (CAPS_REP | CAPS_CALLOUTS),
	      "OUT carries the callouts and what was counted");
	rep_counting = false;
	callouts_counting = false;
	publish();
	check(!shared[OUT_CAPS], "and says when nothing was");
	reg_rsp = NULL;
	memset(ranges, 0, sizeof(ranges));
}

/*
 * Fresh counters, rpcrdma's range at @rpcrdma and an RSP to read: the
 * setup of the callout tests below; the vCPU's counters.
 */
static struct insn_counts *callouts_begin(__u64 rpcrdma)
{
	counts = qemu_plugin_scoreboard_new(sizeof(struct insn_counts));
	text_range_set(0, rpcrdma, rpcrdma + 0x2000);
	reg_rsp = fake_rsp_handle;
	callouts_counting = true;
	fake_rsp_set = true;
	return qemu_plugin_scoreboard_find(counts, 0);
}

/* Undo callouts_begin() and a profile's board. */
static void callouts_end(void)
{
	fake_rsp_set = false;
	callouts_counting = false;
	reg_rsp = NULL;
	callout_board = NULL;
	memset(ranges, 0, sizeof(ranges));
}

/* Profile=1: each call site's callouts, apart. */
static void test_callout_sites(void)
{
	const __u64 rpcrdma = MODULE_AREA_START + 0x100000;
	const __u64 kfree = 0xffffffff81200000ULL, sp = 0xffffc90000123f00ULL;
	const __u64 sp2 = 0xffffc90000456f00ULL;
	struct callout_site_counts *by_site;
	struct insn_counts *c;
	char line[128], want[128];
	int a, b, lines = 0;
	bool found = false;
	FILE *f;

	c = callouts_begin(rpcrdma);
	callout_board = qemu_plugin_scoreboard_new(sizeof(*by_site));
	by_site = qemu_plugin_scoreboard_find(callout_board, 0);

	a = site_find(rpcrdma + 0x40, kfree);
	b = site_find(rpcrdma + 0x80, kfree);
	translate_site(rpcrdma + 0x40, 2, rel32_to('c', rpcrdma + 0x41, kfree), a);
	check(reg.cb == callout_begin &&
	      (unsigned long)reg.userdata == (unsigned long)a + 1,
	      "a calling block's callout knows its site");
	translate(rpcrdma + 0x40, 2, rel32_to('c', rpcrdma + 0x41, kfree));
	check((unsigned long)reg.userdata == rpcrdma + 0x40,
	      "without a site, its address");

	/* Site a's call on one stack, site b's on another: each its own. */
	fake_rsp = sp;
	callout_begin(0, (void *)(unsigned long)(a + 1));
	fake_rsp = sp2;
	callout_begin(0, (void *)(unsigned long)(b + 1));
	fake_rsp = sp - 0x40;
	callout_exec(0, (void *)7UL);
	fake_rsp = sp2 - 0x40;
	callout_exec(0, (void *)5UL);
	callout_exec(0, (void *)1UL);
	fake_rsp = 0xffffc90000003f00ULL;
	callout_exec(0, (void *)100UL);
	check(by_site->insns[a] == 7 && by_site->insns[b] == 6,
	      "each callout's instructions go to the site that opened it");
	check(c->callout_insns[0] == 13, "and to rpcrdma's callouts, as before");
	/* A callout opened from a block of no known site: no site charged. */
	fake_rsp = sp;
	callout_leave(0, NULL);
	callout_begin(0, (void *)(unsigned long)(rpcrdma + 0x40));
	fake_rsp = sp - 0x40;
	callout_exec(0, (void *)9UL);
	check(by_site->insns[a] == 7 && by_site->insns[b] == 6,
	      "a call of no known site charges no site");

	f = tmpfile();
	callouts_write(f);
	rewind(f);
	snprintf(want, sizeof(want), "callout %llx 7\n",
		 (unsigned long long)rpcrdma + 0x40);
	while (fgets(line, sizeof(line), f)) {
		lines++;
		found |= !strcmp(line, want);
	}
	fclose(f);
	check(found && lines == 2, "the profile has a line per site with any");

	fake_rsp = sp + 8;
	callout_leave(0, NULL);
	fake_rsp = sp2 + 8;
	callout_leave(0, NULL);
	check(!callouts_open, "both closed");
	callouts_end();
}

/* A preemption inside a callout (TEXT's "pause" lines) is not counted. */
static void test_callout_pauses(void)
{
	const __u64 rpcrdma = MODULE_AREA_START + 0x100000;
	const __u64 kfree = 0xffffffff81200000ULL, sp = 0xffffc90000123f00ULL;
	const __u64 preempt = 0xffffffff81f00000ULL;
	char path[] = "/tmp/insn_count_test.XXXXXX";
	struct insn_counts *c;
	char text[256];

	close(mkstemp(path));
	text_path = path;
	snprintf(text, sizeof(text),
		 "rpcrdma %llx %llx\npause preempt_schedule_irq %llx\n",
		 (unsigned long long)rpcrdma,
		 (unsigned long long)rpcrdma + 0x2000,
		 (unsigned long long)preempt);
	text_set(path, text);
	check(pause_at[0] == preempt && !pause_at[1], "TEXT names the pause");

	c = callouts_begin(rpcrdma);
	fake_rsp = sp;
	callout_begin(0, (void *)(unsigned long)(rpcrdma + 0x10));
	fake_rsp = sp - 0x40;
	callout_exec(0, (void *)callout_exec_data(kfree, 5));
	check(c->callout_insns[0] == 5, "the callee counts");

	/* An interrupt returns into the callee and preempts it. */
	fake_rsp = sp - 0x80;
	callout_exec(0, (void *)callout_exec_data(preempt, 4));
	check(c->callout_insns[0] == 5, "the pause function's entry does not");
	fake_rsp = sp - 0x200;
	callout_exec(0, (void *)callout_exec_data(kfree + 0x100, 50));
	callout_rep(c, 10, 80);
	fake_rsp = sp - 0x80;
	callout_exec(0, (void *)callout_exec_data(kfree + 0x200, 3));
	check(c->callout_insns[0] == 5 && !c->callout_rep_iters[0],
	      "nor anything below it on the stack until it returns");
	fake_rsp = sp - 0x78;
	callout_exec(0, (void *)callout_exec_data(kfree + 0x300, 2));
	fake_rsp = sp - 0x200;
	callout_exec(0, (void *)callout_exec_data(kfree + 0x100, 1));
	check(c->callout_insns[0] == 8,
	      "past its return the callee counts again, at any depth");

	/* A pause function's entry on a stack with no callout: nothing. */
	fake_rsp = 0xffffc90000003f00ULL;
	callout_exec(0, (void *)callout_exec_data(preempt, 4));
	fake_rsp = sp - 0x40;
	callout_exec(0, (void *)callout_exec_data(kfree, 1));
	check(c->callout_insns[0] == 9, "another stack's pause leaves it alone");

	/* A new callout on the stack starts unpaused. */
	fake_rsp = sp - 0x80;
	callout_exec(0, (void *)callout_exec_data(preempt, 4));
	fake_rsp = sp + 8;
	callout_leave(0, NULL);
	fake_rsp = sp;
	callout_begin(0, (void *)(unsigned long)(rpcrdma + 0x10));
	fake_rsp = sp - 0x200;
	callout_exec(0, (void *)callout_exec_data(kfree, 1));
	check(c->callout_insns[0] == 10, "a new callout is not paused");
	fake_rsp = sp + 8;
	callout_leave(0, NULL);

	text_set(path, "rpcrdma 0 0\n");
	check(!pause_at[0], "and TEXT without it names none");
	unlink(path);
	callouts_end();
}

static void test_rpc_runs(void)
{
	const __u64 sunrpc = MODULE_AREA_START + 0x300000;
	const __u64 complete = sunrpc + 0x400;
	char path[] = "/tmp/insn_count_test.XXXXXX";
	char text[256];
	int a, b;

	close(mkstemp(path));
	text_path = path;
	a = site_find(complete, 0);
	b = site_find(complete + 0x10, 0);
	fake_execs[a] = 40;
	fake_execs[b] = 9;
	snprintf(text, sizeof(text), "rpcrdma 0 0\nrpc xprt_complete_rqst %llx\n",
		 (unsigned long long)complete);
	text_set(path, text);
	check(sites_sum(SITE_RPC) == 40, "the runs of the reply completion");
	check(!sites_sum(SITE_ENTRY), "and not as work runs");
	unlink(path);
}

int main(void)
{
	sites = calloc(1, sizeof(*sites));
	site_board = qemu_plugin_scoreboard_new(sizeof(struct site_counts));
	test_rep_decode();
	test_call_target();
	test_calls_and_runs();
	test_callouts();
	test_callout_sites();
	test_callout_pauses();
	test_rpc_runs();
	printf("insn_count_test: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
