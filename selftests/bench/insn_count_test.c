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
	return entry.score == site_board ? fake_execs[entry.offset / sizeof(__u64)] : 0;
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
	return 0;
}

__u64 qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb)
{
	return 0;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx)
{
	return NULL;
}

void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb,
						       enum qemu_plugin_op op,
						       struct qemu_plugin_u64 entry,
						       __u64 imm)
{
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
	return -1;
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
	return NULL;
}

struct glib_byte_array *g_byte_array_set_size(struct glib_byte_array *array,
					      unsigned int length)
{
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

int main(void)
{
	sites = calloc(1, sizeof(*sites));
	site_board = qemu_plugin_scoreboard_new(sizeof(struct site_counts));
	test_rep_decode();
	test_call_target();
	test_calls_and_runs();
	printf("insn_count_test: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
