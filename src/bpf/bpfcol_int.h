/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfcol_int.h - what the parts of the BPF collector share (not for other
 * modules, which see bpfcol.h only).  From the bottom up:
 *
 * src/bpf/bpfcol_map.c     windows onto the pass's maps: a record, a
 *                          group's stats entry, a name, mapped as read;
 * src/bpf/bpfcol_load.c    the program through its skeleton (with or
 *                          without the memcg kfuncs): loaded, attached,
 *                          its maps sized to the tree and made again;
 * src/bpf/bpfcol_walk.c    one pass over the tree, chunk after chunk, and
 *                          the read that gives its records;
 * src/bpf/bpfcol_select.c  what the program reads: the slots asked for
 *                          and the proven words of each statistic;
 * src/bpf/bpfcol_layout.c  the kernel's layout the pass found, for the
 *                          proof (source/cgfs_prove.c);
 * src/bpf/bpfcol_convert.c a record as the files show it: units, limits,
 *                          the lists per node;
 * src/bpf/bpfcol_open.c    what the host has (version, mount options,
 *                          groups, nodes), the collector opened and closed.
 */
#ifndef MEMCGTOP_BPFCOL_INT_H
#define MEMCGTOP_BPFCOL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfcol.h"
/* The skeleton's .rodata is a struct memcg_cfg (memcg_rec.h, through
 * bpfcol.h), whose size its _Static_assert checks against the object's
 * BTF.  Its functions are static inline: only bpfcol_load.c calls them. */
#include "memcg_iter.skel.h"

/*
 * The kernel's memcg ids are 16 bits (MEM_CGROUP_ID_MAX, 65,535 live and
 * dying groups); an array map's one value may not pass KMALLOC_MAX_SIZE
 * (4 MiB on x86-64), which bounds the packed names.
 */
#define BPFCOL_MAX_GROUPS	65536U

#define BPFCOL_MAX_NAMES	(4U << 20)

struct mapwin {
	int fd;			/* the map's; -1: none loaded */
	size_t size;		/* its mappable bytes, page-rounded */
	const char *at;		/* the window mapped read-only, or NULL */
	size_t off, len;	/* its bytes in the map */
};

struct bpfcol {
	int dirfd;		/* the start group: the iterator's start */
	bool v2;
	bool v2_swap_peak;	/* the kernel has memory.swap.peak (6.5+) */
	bool local_events;
	bool inject_refusal;
	bool inject_unproven;	/* tests: no word is proven */
	bool inject_unmapped;	/* tests: no window maps after the load */
	/* The program with the kernel's memcg kfuncs (v2): 1 loaded, 0 not
	 * tried yet, -1 not to be (kf_why says why). */
	int kf;
	char kf_why[160];
	unsigned long pagesize;
	uint64_t counter_max;	/* PAGE_COUNTER_MAX: "no limit" */
	uint32_t rec_cap;
	uint32_t names_cap;
	struct memcg_iter *skel;	/* the object, its maps, program, link */
	mr_set want;			/* MR_BIT of the slots asked for */
	struct mapwin recs;
	/* The stats map: one entry until a stat slot is asked for, then
	 * as many as recs (a load again). */
	uint32_t stat_cap;
	struct mapwin stats;
	struct memcg_sels sels;		/* the proven words */
	mr_set zero;			/* stat slots 0 in every group */
	bool stats_refused;		/* the map could not grow: not again */
	uint32_t nodes;			/* the kernel's nr_node_ids */
	bool stat_nodes;		/* the stats map has the lists per node */
	struct mapwin names;
	int map_err;			/* -errno of a window the last
					 * bpfcol_record could not map */
	size_t win_bytes;		/* a window's least size */
	size_t nread;			/* records of the last bpfcol_read */
	/* The walk bpfcol_open made to size the maps, given to the first
	 * bpfcol_read when it comes soon enough (see FRESH_S). */
	struct memcg_sum open_sum;
	double open_s;		/* clock_mono() of that walk; 0: none */
	struct bpfcol_chunks chunks;	/* of the last pass */
	uint64_t budget_ns;	/* a chunk's recording time; 0: no chunks */
	long gap_ns;		/* between chunks: -1 none, 0 sched_yield */
	bool chunk_set;		/* budget_ns and gap_ns read */
	void (*hook)(void *arg, unsigned chunks);	/* tests: in the gap */
	void *hook_arg;
};

__attribute__((format(printf, 3, 4)))
int bpfcol_why_set(struct bpfcol_why *w, enum bpfcol_reason reason,
		   const char *fmt, ...);

/* bpfcol_map.c */
size_t bpfcol_win_bytes(unsigned long pagesize);
size_t bpfcol_page_round(size_t n, unsigned long pagesize);
size_t bpfcol_stat_size(const struct bpfcol *col);
void bpfcol_win_drop(struct mapwin *w);
void bpfcol_win_close(struct mapwin *w);
const void *bpfcol_win_at(struct bpfcol *col, struct mapwin *w, size_t pos,
			  size_t need);
const struct memcg_rec *bpfcol_rec_of(struct bpfcol *col, size_t i);
const struct memcg_stat *bpfcol_stat_of(struct bpfcol *col, size_t i);

/* bpfcol_load.c */
int bpfcol_load(struct bpfcol *col, struct bpfcol_why *w);
void bpfcol_unload(struct bpfcol *col);
int bpfcol_map_windows(struct bpfcol *col);
void bpfcol_size(struct bpfcol *col, uint64_t groups, uint64_t names);
int bpfcol_oversized(const struct bpfcol *col, const struct memcg_sum *sum);
int bpfcol_fit(struct bpfcol *col, struct memcg_sum *ret_sum,
	       struct bpfcol_why *w);
void bpfcol_grow_stats(struct bpfcol *col);

/* bpfcol_walk.c */
int bpfcol_start_memcg(struct bpfcol *col, struct bpfcol_why *w);
int bpfcol_walk_chunk(int link, struct memcg_sum *ret_sum);
int bpfcol_walk(struct bpfcol *col, struct memcg_sum *ret_sum);

/* bpfcol_select.c */
void bpfcol_set_want(struct bpfcol *col);
void bpfcol_apply_sels(struct bpfcol *col);

#endif
