/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcg_iter.bpf.c - a walk over every memory cgroup below a start group,
 * inside the kernel.  Attached as a cgroup iterator (Linux 6.1) that shows
 * one group only: each read() of an iterator fd calls the program once
 * with that group, with cgroup_mutex held, and once more with a NULL
 * cgroup after the kernel dropped it.  The program walks the groups below
 * itself, in pre-order, from the first call.
 *
 * The iterator's text output is one seq_file buffer of 8 pages that cannot
 * resume across reads (measured on 6.18: a text line per group stops at 739
 * groups with EOPNOTSUPP), so the records go into an mmap-able array and
 * the names into one packed buffer; the only text is a struct memcg_sum at
 * the end.  The loader sizes both maps from the group count and grows them
 * when the summary says they were short.
 *
 * Nothing can make or remove a cgroup while the mutex is held, so a walk
 * of the whole tree in one read holds up every mkdir and rmdir on the host
 * (systemd's, container runtimes') for as long as it takes: 40-60 ms at
 * 30,000 groups on 6.18 with the kernel's own pre-order walk.  A pass is
 * therefore made of chunks of a quarter of a millisecond, each a read of
 * its own (struct memcg_chunk, memcg_rec.h).  The kernel's walk cannot
 * start in the middle of a tree, and passing over the groups up to where
 * the chunk before stopped cost about 1 us each (measured: 0.6-1.4 us a
 * group at 18,832 and 30,000 groups, most of the walk's cost), so the
 * program walks the tree's lists itself and starts where the chunk before
 * stopped: the loader attaches each chunk's iterator at that group,
 * opened by its id.  While the mutex is held the lists cannot change; the
 * pointers are read with bpf_probe_read_kernel, which a bad one cannot
 * fault.
 *
 * This file holds the program's maps and state (what the loader sees in
 * the skeleton), the chunk's start and summary, and the entry; its parts,
 * one translation unit so that a pass stays one program and one read,
 * are by what they read:
 *
 *   iter_counters.bpf.h  page counters (memory, swap or memsw);
 *   iter_events.bpf.h    memory.events;
 *   iter_kfunc.bpf.h     memory.stat items through the kernel's kfuncs;
 *   iter_stat.bpf.h      memory.stat items from memcg->vmstats' words;
 *   iter_nodes.bpf.h     the LRU lists per node, v1's soft-limit tree;
 *   iter_record.bpf.h    one group's record, from the parts above;
 *   iter_walk.bpf.h      the walk of the tree's lists.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "memcg_rec.h"

/* enum in the kernel's cgroup-defs.h, unchanged since 3.15. */
#define CSS_ONLINE	(1U << 1)

/* GPL: bpf_probe_read_kernel and bpf_seq_write are GPL-only helpers. */
char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct memcg_rec);
	__uint(max_entries, 1);		/* set by the loader */
} recs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__uint(value_size, 4096);	/* set by the loader */
	__uint(max_entries, 1);
} names SEC(".maps");

/* A group's memory.stat values, at its record's index (memcg_rec.h);
 * one entry until they are asked for.  A value is a struct memcg_stat,
 * or its part before the lists per node (cfg.stat_nodes 0): its size is
 * set by the loader. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__uint(value_size, sizeof(struct memcg_stat));
	__uint(max_entries, 1);		/* set by the loader */
} stats SEC(".maps");

/* Set by the loader before load; the verifier sees them as constants. */
const volatile struct memcg_cfg cfg = {
	.rec_cap = 1,
	.names_size = 4096,
};

/* MR_BIT of the record's slots a walk reads beyond the memory counter
 * and the name, and MS_BIT of the stat slots: set by the loader through
 * the mapped section before a walk. */
__u64 want SEC(".data.want") = ~0ULL;
__u64 want_stat SEC(".data.want") = ~0ULL;

/* The proven words of each stat slot: set by the loader through the
 * mapped section (memcg_rec.h). */
struct memcg_sels sels SEC(".data.want") = {};

/* What this kernel's BTF says (written at each chunk), and the arrays of
 * the pass's first group whole, for the loader's proofs. */
struct memcg_layout layout;
__s64 raw[MR_NARR][MR_ARR_WORDS];
__u64 raw_id;
/* A group's words, being summed. */
__s64 words[MR_NARR][MR_ARR_WORDS];

/* Where this chunk starts and how long it may record: set by the loader
 * through the mapped section before each read. */
struct memcg_chunk chunk SEC(".data.chunk") = {};

/* One chunk's state, reset when a new iterator fd (session) starts. */
__u64 cur_session;
__u32 n_groups;
__u32 names_used;
__u32 n_counted;
__u32 began;		/* the program was called with a group */
__u64 t_first;		/* that call: cgroup_mutex just taken */
__u64 deadline;		/* 0: none */
struct memcg_sum sum;	/* written at the NULL cgroup */

/*
 * The walk: a position and what to do next there, one step per bpf_loop
 * round (the verifier checks one round, not a nest of loops).
 */
enum walk_mode {
	W_VISIT,	/* count and record pos, then go below it */
	W_DOWN,		/* to pos's first child, or W_SIDE */
	W_SIDE,		/* pos's subtree is done: its next sibling, or up */
	W_SEEK,		/* pos and its later siblings: the first made after floor */
	W_END,
};

__u64 w_pos;		/* a struct cgroup's address */
__u32 w_level;		/* its level */
__u32 w_mode;
__u32 w_steps;
__u32 stopped;		/* the budget ended the walk: sum.chain says where */

/* bpf_loop's most; a pass takes about three steps a group. */
#define WALK_STEPS	(1U << 23)

#define CG(a)		((struct cgroup *)(unsigned long)(a))

static __always_inline void put(struct memcg_rec *r, enum mr_slot slot,
				__u64 v)
{
	r->v[slot] = v;
	r->have |= 1ULL << slot;
}

#include "iter_counters.bpf.h"
#include "iter_events.bpf.h"
#include "iter_kfunc.bpf.h"
#include "iter_stat.bpf.h"
#include "iter_nodes.bpf.h"
#include "iter_record.bpf.h"
#include "iter_walk.bpf.h"

/* At the NULL cgroup, which the kernel passes after it dropped the
 * mutex: the chunk's summary. */
static __always_inline void write_sum(struct bpf_iter_meta *meta)
{
	sum.magic = MR_SUM_MAGIC;
	sum.groups = n_groups;
	sum.names_used = names_used;
	sum.session = cur_session;
	sum.counted = n_counted;
	sum.steps = w_steps;
	sum.start_level = chunk.start_level;
	if (!began) {
		/* The attached group is gone (the kernel shows no dead one):
		 * the start group (no groups: the loader says so), or where
		 * the chunk before stopped. */
		sum.flags |= chunk.resume ? MR_SUM_LOST : MR_SUM_DONE;
	} else if (w_mode == W_END) {
		sum.flags |= MR_SUM_DONE;
	} else if (!stopped) {
		sum.flags |= MR_SUM_UNENDED;
	}
	if (t_first)
		sum.held_ns = bpf_ktime_get_ns() - t_first;
	if (!stopped)
		sum.chain_len = 0;
	bpf_seq_write(meta->seq, &sum, sizeof(sum));
}

static __always_inline void start_chunk(struct bpf_iter_meta *meta)
{
	cur_session = meta->session_id;
	n_groups = chunk.base;
	names_used = chunk.names_base;
	n_counted = 0;
	began = 0;
	t_first = 0;
	deadline = 0;
	w_steps = 0;
	stopped = 0;
	w_mode = W_END;
	__builtin_memset(&sum, 0, sizeof(sum));
	find_layout();
}

SEC("iter/cgroup")
int memcg_iter(struct bpf_iter__cgroup *ctx)
{
	struct bpf_iter_meta *meta = ctx->meta;
	struct cgroup *cgrp = ctx->cgroup;
	__u32 ssid;

	if (meta->session_id != cur_session)
		start_chunk(meta);
	if (!cgrp) {
		write_sum(meta);
		return 0;
	}
	if (cfg.inject_refusal)	/* reads above the frame: always refused */
		asm volatile("r1 = *(u64 *)(r10 + 8)" ::: "r1");
	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id,
					memory_cgrp_id)) {
		sum.flags |= MR_SUM_NO_MEMCG;
		return 0;
	}
	ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (ssid >= 16 || began)
		return 0;
	began = 1;
	t_first = bpf_ktime_get_ns();
	if (chunk.budget_ns)
		deadline = t_first + chunk.budget_ns;
	/* Its address as a number: css->cgroup of a cgroup's self css is
	 * the cgroup. */
	w_pos = (__u64)BPF_CORE_READ(cgrp, self.cgroup);
	w_level = BPF_CORE_READ(cgrp, level);
	if (!chunk.resume) {
		chunk.start_level = w_level;
		w_mode = W_VISIT;
	} else {
		w_mode = W_DOWN;
		if (chunk.floor)
			w_mode = first_child(w_pos) ? W_SEEK : W_SIDE;
		if (w_mode == W_SEEK) {
			w_pos = first_child(w_pos);
			w_level++;
		}
	}
	bpf_loop(WALK_STEPS, step, &ssid, 0);
	return 0;
}
