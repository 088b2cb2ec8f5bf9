/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfcol.h - the BPF collector: every memory cgroup below a start group,
 * read in one kernel pass by a cgroup iterator (Linux 6.1+; the pass in
 * chunks, see struct bpfcol_chunks), as records in tree pre-order.
 * Values are in bytes, as the files show them.
 *
 * The program, src/bpf/memcg_iter.bpf.c, is embedded in the binary
 * through its skeleton (memcg_iter.skel.h, made by bpftool gen skeleton).
 * What it keeps open: the start group's directory fd, the program, its
 * iterator link, the records' and the names' maps (mapped read-only) and
 * its global data (cfg, want and the walk's state, mapped by the
 * skeleton); nothing is pinned, so all of it goes with the process,
 * however it ends.
 */
#ifndef MEMCGTOP_BPFCOL_H
#define MEMCGTOP_BPFCOL_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>

#include "memcg_rec.h"

struct bpfcol;

/* Why the collector is not available (struct bpfcol_why.reason). */
enum bpfcol_reason {
	BPFCOL_OK,
	BPFCOL_NOT_PERMITTED,	/* needs root: CAP_BPF and CAP_PERFMON */
	BPFCOL_NO_BTF,		/* no /sys/kernel/btf/vmlinux */
	BPFCOL_TOO_OLD,		/* no cgroup iterator (Linux < 6.1) */
	BPFCOL_NO_MEMCG,	/* the kernel has no memory controller */
	BPFCOL_LOAD_REFUSED,	/* bpf() or its verifier refused */
	BPFCOL_START,		/* the start is not a cgroup directory */
	BPFCOL_TOO_MANY,	/* more groups or names than the maps can hold */
};

struct bpfcol_why {
	enum bpfcol_reason reason;
	char text[256];		/* one line, no "memcgtop: " prefix */
};

/*
 * One record of a walk, a group as the files show it: v[] indexed by
 * the record's slots (enum mr_slot, memcg_rec.h), in bytes where the
 * kernel keeps pages; a bit (MR_BIT) per slot in have where the kernel has the value
 * for this group and in unlimited where it is the kernel's "no limit".
 */
struct bpfcol_rec {
	uint64_t id;		/* the directory's inode number */
	unsigned int level;	/* 0 for a hierarchy's root */
	const char *name;	/* kernfs name, "" for a root; not escaped */
	size_t name_len;
	mr_set have;
	mr_set unlimited;
	uint64_t v[MR_NSLOTS];
};

/* The slot's flags (MR_PAGES, MR_LIMIT, MR_EVENT) and the tests' name. */
unsigned bpfcol_slot_flags(enum mr_slot slot);
/* The bytes one unit of the slot's kernel counter is (MR_PAGES: PAGESIZE,
 * MR_KB: 1024, else 1: bytes or a count). */
unsigned long bpfcol_slot_unit(enum mr_slot slot, unsigned long pagesize);
const char *bpfcol_slot_key(enum mr_slot slot);

/*
 * Every group below the start is a record, in pre-order (siblings in
 * the order they were made); one whose memory controller is not enabled
 * (v2) has no valid values.  A group removed (rmdir) is not one, even while its
 * memory css lingers.
 *
 * bpfcol_open: loads the program and attaches an iterator below START (a
 * cgroup v1 memory or cgroup v2 directory).  On failure returns -errno and
 * fills RET_WHY.  MEMCGTOP_BPF_FAIL=perm|btf|old|load in the environment
 * makes it fail as if not permitted, without BTF, on an old kernel, or has
 * the kernel's verifier really refuse the program (for tests);
 * MEMCGTOP_BPF_FAIL=unproven loads it but has bpfcol_layout say the
 * kernel has no vmstats, so that no memory.stat word is proven.
 */
int bpfcol_open(const char *start, struct bpfcol **ret_col,
		struct bpfcol_why *ret_why);

/*
 * The slots the next walks need (MR_BIT mask): a slot left out is not
 * read (its have bit stays clear), which spares the walk a read in every
 * group.  The memory counter's slots (usage, max, high, low, min, peak,
 * failcnt) and names always come.  bpfcol_open asks for everything.
 * Returns 0 or -errno.
 */
int bpfcol_want(struct bpfcol *col, mr_set slots);

/*
 * memory.stat in the pass: each stat slot (MR_STATS, memcg_rec.h) is the
 * sum of words of the memcg's vmstats arrays, which the caller proves
 * (src/source/cgfs_prove.c) and selects; ZERO's slots are 0 in every
 * group (the caller knows: 0 in the start group, whose values bound its
 * descendants').  A slot neither selected nor zero is not in have.
 * The selection is kept across loads.
 */
void bpfcol_select(struct bpfcol *col, const struct memcg_sels *sels,
		   mr_set zero);

/*
 * What the last walk saw of the kernel (the layout CO-RE resolved) and
 * the start group's vmstats arrays whole (int64_t[MR_NARR][MR_ARR_WORDS],
 * words past an array's length 0), when a stat slot was asked for: the
 * proofs' material.  -ENOENT when nothing is loaded.
 */
int bpfcol_layout(const struct bpfcol *col, struct memcg_layout *ret_layout,
		  const int64_t (**ret_raw)[MR_ARR_WORDS]);

/*
 * The same, of the group DIRFD names alone (the hierarchy's root, say),
 * read by a link made for it: the records of the last read are then no
 * longer the start's, and bpfcol_read must be called again before
 * bpfcol_record.  -ENOENT when nothing is loaded or the group is not a
 * memory cgroup; else -errno of the link or the read.
 */
int bpfcol_layout_at(struct bpfcol *col, int dirfd,
		     struct memcg_layout *ret_layout,
		     const int64_t (**ret_raw)[MR_ARR_WORDS]);

/* The next bpfcol_read walks anew, even soon after bpfcol_open. */
void bpfcol_stale(struct bpfcol *col);

/* The page size the kernel's page counts are multiplied by. */
unsigned long bpfcol_pagesize(const struct bpfcol *col);

/*
 * NULL where the program loaded is the one with the kernel's memcg kfuncs
 * (Linux 7.0+, v2; memcg_layout.kf the slots it can read through them),
 * else why not: v1, MEMCGTOP_BPF_KFUNC=0 in the environment, a kernel
 * without them, or the verifier's refusal of it (the program without
 * them loaded instead).
 */
const char *bpfcol_kfunc(const struct bpfcol *col);

/*
 * bpfcol_read: one walk (one pass, in chunks); the first, within 0.1 s of
 * bpfcol_open, gives the walk bpfcol_open made to size the maps.
 * RET_N records, each given by bpfcol_record until the next bpfcol_read or
 * bpfcol_close.
 * -ENOENT: the start group is gone (or, on v2, its memory controller was
 * turned off);
 * -E2BIG: more groups than the maps can hold (RET_WHY says how many).
 */
int bpfcol_read(struct bpfcol *col, size_t *ret_n, struct bpfcol_why *ret_why);

/*
 * Record i (< the last bpfcol_read's count) of the walk into RET, one at
 * a time: the records stay in the kernel's maps, read where they are
 * mapped, a window at a time (cheapest in the records' order).  RET's
 * name points into the map, until the next bpfcol_record.  0, or -errno
 * when the kernel refused to map the window (RET then holds nothing).
 */
int bpfcol_record(struct bpfcol *col, size_t i, struct bpfcol_rec *ret);

/*
 * Record i's own LRU lists per NUMA node (memcg_rec.h: struct
 * memcg_stat's node, in pages, enum mr_lru order) into RET, and its
 * hierarchical ones (hnode) into RET_HIER unless NULL, for node ids 0 up
 * to the returned count (at most MR_NODES); -1 when the last walk
 * did not read them (ST_NODES not asked for, the kernel lacks them, the
 * stats map holds too few groups).  bpfcol_node_src: where the last walk
 * found them (MR_NODE_*); bpfcol_node_ids: the kernel's node ids.
 */
int bpfcol_nodes(struct bpfcol *col, size_t i,
		 int64_t (*ret)[MR_NLRU], int64_t (*ret_hier)[MR_NLRU]);
unsigned bpfcol_node_src(const struct bpfcol *col);
unsigned bpfcol_node_ids(const struct bpfcol *col);

/* The maps' capacity and bytes: for measuring what the kernel holds. */
void bpfcol_capacity(const struct bpfcol *col, size_t *ret_groups,
		     size_t *ret_map_bytes);

/*
 * How the last pass went: a pass is read in chunks of a quarter of a
 * millisecond each (the kernel holds cgroup_mutex through each, which
 * every mkdir and rmdir of a cgroup waits for), each resuming after the
 * group the one before ended at.  MEMCGTOP_BPF_CHUNK=BUDGET_US[,GAP_US]
 * sets a chunk's recording time (0: the pass in one read) and the pause
 * between chunks (-1: none, 0: sched_yield, the default), for tests and
 * benchmarks.
 */
struct bpfcol_chunks {
	unsigned chunks;	/* reads of the iterator */
	unsigned restarts;	/* passes begun again: where a chunk stopped was removed */
	uint64_t steps;		/* the program's walk steps, in all */
	uint64_t held_ns;	/* the program's time under the mutex, in all */
	uint64_t max_held_ns;	/* ... the longest chunk's */
};

void bpfcol_chunks(const struct bpfcol *col, struct bpfcol_chunks *ret);

/*
 * The instructions the kernel's verifier went through to accept the
 * loaded iterator (Linux 5.16+), or 0: its work grows with the program's
 * paths, and at a million it refuses the program (E2BIG).
 */
uint32_t bpfcol_verified(const struct bpfcol *col);

/*
 * For tests: FN(ARG, chunks read so far) is called between two chunks of
 * a pass, in place of the pause, before the next chunk's start is looked
 * for: what FN makes or removes is what the next chunk finds.
 */
void bpfcol_chunk_hook(struct bpfcol *col,
		       void (*fn)(void *arg, unsigned chunks), void *arg);


void bpfcol_close(struct bpfcol *col);

#endif
