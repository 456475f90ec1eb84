// SPDX-License-Identifier: GPL-2.0
/*
 * QEMU TCG plugin: count the instructions a guest executes, in all and
 * in the text of four kernel modules, for make bench's cost figures.
 *
 *   qemu-system-x86_64 ... -plugin PATH/insn-count.so,out=OUT,text=TEXT
 *
 * OUT holds little-endian 64-bit counts, rewritten every millisecond:
 * the guest's instructions so far (all vCPUs), then those executed in
 * each of the four text ranges that TEXT lists.  Fields are only ever
 * appended: the first four are the whole of the file this plugin wrote
 * when it counted three ranges.  TEXT, which the guest writes
 * (text_ranges in bench-lib.sh) and may rewrite whenever it loads a
 * module, holds one "NAME START END" line per range, addresses in hex:
 * the bench lists rpcrdma.ko, rdma_rxe.ko, sunrpc.ko (where the stock
 * transport's header XDR runs, in the generic xdr_stream helpers) and
 * ib_core.ko.  host_cpu.py reads OUT at every mark the bench makes.
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
 * With profile=1, it also keeps a count for every translation block
 * that starts in kernel code (the kernel's text and every module's), by
 * address, and writes them out on
 * request: when the file OUT.req appears, holding a file name, it writes
 * "ADDRESS INSTRUCTIONS" lines (hex, decimal) for every such block to
 * that file (through a temporary name, renamed when complete) and
 * removes OUT.req.  insn_profile.py turns two such snapshots into the
 * instructions each function executed between them.
 *
 * The plugin API is QEMU's stable C ABI (version 2 and later, QEMU 9.0
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
/* Blocks profiled, at most (their counters: 8 MiB per vCPU). */
#define PROFILE_SLOTS		1048576
#define PROFILE_HASH		(2 * PROFILE_SLOTS)

/* One vCPU's counters: its scoreboard entry. */
struct insn_counts {
	__u64 total;
	__u64 page[AREA_PAGES];
};

struct text_range {
	__u64 first_page;
	__u64 nr_pages;
};

/* One vCPU's counters of profiled blocks: its entry in the profile board. */
struct block_counts {
	__u64 insns[PROFILE_SLOTS];
};

__attribute__((visibility("default"))) int qemu_plugin_version = 2;

static struct qemu_plugin_scoreboard *counts;
static struct qemu_plugin_scoreboard *block_board;
static pthread_mutex_t block_lock = PTHREAD_MUTEX_INITIALIZER;
/* Open addressing, address + 1 (0: free) -> slot + 1. */
static __u64 block_key[PROFILE_HASH];
static unsigned int block_slot[PROFILE_HASH];
static unsigned int nr_blocks;
static char *request_path;
static struct text_range ranges[NR_RANGES];
static const char *text_path;
static struct timespec text_mtime;
static __u64 *shared;

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

/* The profile slot of the block at @pc, a new one if need be; -1 if full. */
static int block_find(__u64 pc)
{
	unsigned int h = (pc >> 2) % PROFILE_HASH;
	int slot = -1;

	pthread_mutex_lock(&block_lock);
	while (block_key[h] && block_key[h] != pc + 1)
		h = (h + 1) % PROFILE_HASH;
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

/* The counter of page @page of the module area. */
static struct qemu_plugin_u64 page_slot(size_t page)
{
	return count_slot(offsetof(struct insn_counts, page[page]));
}

static void tb_trans(__u64 id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	__u64 pc = qemu_plugin_tb_vaddr(tb);
	size_t page;
	int slot;

	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							  count_slot(0), n);
	if (pc < KERNEL_TEXT_START || pc >= MODULE_AREA_END)
		return;
	if (pc >= MODULE_AREA_START) {
		page = (pc - MODULE_AREA_START) >> AREA_PAGE_SHIFT;
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
								  page_slot(page), n);
	}
	if (!block_board)
		return;
	slot = block_find(pc);
	if (slot >= 0)
		qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
								  block_slot_u64(slot), n);
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

/* Reread TEXT if it changed: at most NR_RANGES "NAME START END" lines. */
static void text_reload(void)
{
	unsigned long long start, end;
	struct stat st;
	char name[64];
	FILE *f;
	int i;

	if (!text_path || stat(text_path, &st))
		return;
	if (st.st_mtim.tv_sec == text_mtime.tv_sec &&
	    st.st_mtim.tv_nsec == text_mtime.tv_nsec)
		return;
	f = fopen(text_path, "r");
	if (!f)
		return;
	text_mtime = st.st_mtim;
	memset(ranges, 0, sizeof(ranges));
	for (i = 0; i < NR_RANGES &&
	     fscanf(f, "%63s %llx %llx", name, &start, &end) == 3; i++) {
		if (start < MODULE_AREA_START || end > MODULE_AREA_END ||
		    start >= end)
			continue;
		ranges[i].first_page = (start - MODULE_AREA_START) >>
				       AREA_PAGE_SHIFT;
		ranges[i].nr_pages = ((end - MODULE_AREA_START - 1) >>
				      AREA_PAGE_SHIFT) - ranges[i].first_page + 1;
	}
	fclose(f);
}

static __u64 range_sum(const struct text_range *r)
{
	__u64 sum = 0, p;

	for (p = r->first_page; p < r->first_page + r->nr_pages; p++)
		sum += qemu_plugin_u64_sum(page_slot(p));
	return sum;
}

static void publish(void)
{
	int i;

	__atomic_store_n(&shared[0], qemu_plugin_u64_sum(count_slot(0)),
			 __ATOMIC_RELAXED);
	for (i = 0; i < NR_RANGES; i++)
		__atomic_store_n(&shared[1 + i], range_sum(&ranges[i]),
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
	size_t size = (1 + NR_RANGES) * sizeof(__u64);
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
	if (profile) {
		request_path = malloc(strlen(path) + sizeof(".req"));
		if (!request_path)
			return -1;
		sprintf(request_path, "%s.req", path);
		block_board = qemu_plugin_scoreboard_new(sizeof(struct block_counts));
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	if (pthread_create(&publisher, NULL, publish_loop, NULL)) {
		fprintf(stderr, "insn-count: no publisher thread\n");
		return -1;
	}
	pthread_detach(publisher);
	return 0;
}
