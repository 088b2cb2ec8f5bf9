/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * preview.h - what the kernel will do when a knob changes, before it is
 * written.  Pure arithmetic on a group's values (bytes): how much must be
 * reclaimed, what reclaim can take and in which order, what it cannot, and
 * the outcome by the kernel's rule for that knob (mm/memcontrol.c,
 * memcontrol-v1.c, page_counter.c, vmscan.c of 6.1 to 7.x).  No I/O: the
 * edit layer fills struct preview_in (edit_preview, edit.h).
 */
#ifndef MEMCGTOP_PREVIEW_H
#define MEMCGTOP_PREVIEW_H

#include <stddef.h>
#include <stdint.h>

/* What the change sets, as the preview tells them apart. */
enum preview_knob {
	PK_LIMIT,	/* v1 memory.limit_in_bytes, v2 memory.max */
	PK_HIGH,	/* v2 memory.high */
	PK_MEMSW,	/* v1 memory.memsw.limit_in_bytes */
	PK_RECLAIM,	/* v2 memory.reclaim */
	PK_SOFT,	/* v1 memory.soft_limit_in_bytes */
	PK_LOW,		/* v2 memory.low */
	PK_MIN,		/* v2 memory.min */
	PK_OTHER,	/* swappiness, swap.max, oom.group */
};

enum preview_outcome {
	PV_NOTHING,	/* no reclaim now */
	PV_FITS,	/* reclaim gets below the new value */
	PV_EBUSY,	/* v1: the write fails, the old value stays */
	PV_OOM,		/* v2 memory.max: OOM kills in the group */
	PV_THROTTLE,	/* v2 memory.high: the group's allocations slowed */
	PV_EAGAIN,	/* v2 memory.reclaim: less than asked, EAGAIN */
};

/* What reclaim can take, in the order the preview counts it. */
enum preview_part {
	PP_INACTIVE_FILE,	/* clean page cache, inactive list */
	PP_ACTIVE_FILE,		/* clean page cache, active list */
	PP_SLAB,		/* reclaimable slab (v2) */
	PP_DIRTY,		/* dirty and writeback cache: after its I/O */
	PP_ANON,		/* anon (and shmem) to swap, as far as it has room */
	PP_NR
};

/* The parts reclaim frees without waiting for I/O. */
#define PREVIEW_QUICK(p) ((p) <= PP_SLAB)

#define PREVIEW_SIBLINGS 64

struct preview_victim {
	int pid;		/* 0: no process in the group */
	uint64_t size;		/* the kernel's badness, in bytes */
	uint64_t rss, swap;
	int oom_adj;
	char cmd[128];
};

struct preview_in {
	int version;			/* 1 or 2 */
	enum preview_knob knob;
	int unlimited;			/* "max" */
	uint64_t value;			/* the new value, bytes */
	/* The group's figures, bytes. */
	uint64_t usage;			/* v1 memsw: memory+swap usage */
	uint64_t inactive_file, active_file, dirty, writeback;
	uint64_t slab_reclaimable;
	uint64_t anon_lru;		/* active_anon + inactive_anon (shmem too) */
	uint64_t swap_room;		/* where anon can go: the least of the
					 * host's free swap, memsw or swap.max room */
	unsigned swappiness;		/* the group's (v1), vm.swappiness (v2) */
	uint64_t protected;		/* descendants' effective memory.min */
	int oom_group;			/* v2 memory.oom.group */
	struct preview_victim victim;	/* the highest badness, or pid 0 */
	/* low/min: the parent and its children (the group among them). */
	uint64_t page;			/* the page size: the kernel counts pages */
	uint64_t parent_usage, parent_eff;
	int top_level;			/* the parent is the root: eff = setting */
	int recursive;			/* memory_recursiveprot */
	size_t nsib, self;		/* children of the parent; the group's index */
	uint64_t sib_usage[PREVIEW_SIBLINGS], sib_setting[PREVIEW_SIBLINGS];
	const char *sib_path[PREVIEW_SIBLINGS];	/* for the caller: shown */
	/* soft (v1): every group's soft-limit excess now, the group's too */
	size_t ngroups, soft_self;
	const uint64_t *soft_excess;
};

struct preview {
	enum preview_outcome outcome;
	uint64_t need, reclaimable, shortfall, quick, slow;
	uint64_t part[PP_NR];
	uint64_t active_taken;		/* of PP_ACTIVE_FILE, what need takes */
	/* low/min: the new effective protection of each sibling */
	size_t nsib;
	uint64_t eff_before[PREVIEW_SIBLINGS], eff_after[PREVIEW_SIBLINGS];
	/* soft: the new excess and its rank (1: reclaimed first; 0: none) */
	uint64_t soft_excess;
	size_t soft_rank;
};

/* The outcome's one word: "fits", "ebusy", "oom", "throttle", "eagain",
 * "nothing". */
const char *preview_word(enum preview_outcome o);
/* A part's name ("inactive_file" ...). */
const char *preview_part_name(enum preview_part p);

void preview_compute(const struct preview_in *in, struct preview *ret);

/* The one sentence that says the outcome and why (the group's victim
 * named for oom). */
void preview_sentence(const struct preview_in *in, const struct preview *p,
		      char *buf, size_t len);

/*
 * The kernel's OOM badness (mm/oom_kill.c oom_badness), in pages: rss +
 * swap entries + oom_score_adj * totalpages / 1000 (totalpages: the
 * group's limit and swap, in pages); -1 for oom_score_adj -1000 (never
 * chosen).
 */
int64_t preview_badness(uint64_t rss_pages, uint64_t swap_pages, int oom_adj,
			uint64_t totalpages);

#endif
