/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfev.h - reclaim events from the kernel's memcg and vmscan tracepoints
 * (Linux 6.13+; src/bpf/reclaim.bpf.c), on either cgroup hierarchy:
 * per group the PGSCAN and PGSTEAL pages counted since bpfev_open, the
 * lowest reclaim priority its lists were scanned at since the last read
 * (per reclaimer: kswapd, direct, proactive, soft-limit reclaim),
 * and its stats flush requests; system-wide the pages scanned per
 * priority and the flush requests, memcgtop's own apart.
 *
 * The kernel counts each event in one group (the one whose LRU lists were
 * scanned, a leaf or not): a group's figure including its descendants, as
 * v2's memory.stat shows it, is bpfev_subtree_sums().
 *
 * The programs are embedded in the binary through their skeleton
 * (reclaim.skel.h, made by bpftool gen skeleton).  Nothing is pinned: the
 * programs and maps go with the process, however it ends.
 */
#ifndef MEMCGTOP_BPFEV_H
#define MEMCGTOP_BPFEV_H

#include <stddef.h>
#include <stdint.h>

#include "reclaim_items.h"

struct bpfev;

/* Why the events are not available (struct bpfev_why.reason). */
enum bpfev_reason {
	BPFEV_OK,
	BPFEV_NOT_PERMITTED,	/* needs root: CAP_BPF and CAP_PERFMON */
	BPFEV_NO_BTF,		/* no /sys/kernel/btf/vmlinux */
	BPFEV_TOO_OLD,		/* no memcg tracepoints (Linux < 6.13) */
	BPFEV_LOAD_REFUSED,	/* bpf(), its verifier or an attach refused */
};

/*
 * BPFEV_TOO_OLD is no error: the kernel just cannot tell, and a caller
 * shows no columns for it and logs nothing.
 */
struct bpfev_why {
	enum bpfev_reason reason;
	char text[256];		/* one line, no "memcgtop: " prefix */
};

/* Index of the counts: the kernel's items (reclaim_items.h), in the
 * program's slot order. */
#define BPFEV_ITEM(slot, name, kind) BPFEV_##slot,
enum bpfev_item {
	RECLAIM_ITEMS(BPFEV_ITEM)
	BPFEV_NITEMS
};
#undef BPFEV_ITEM

#define BPFEV_NPRIO	13	/* reclaim priorities 0 to 12 (DEF_PRIORITY) */
/* ev[]: the items, then from BPFEV_SCANNED on the pages of the group's
 * own lists scanned at each priority (the shrink events given to it),
 * all summed up the tree alike. */
#define BPFEV_SCANNED	BPFEV_NITEMS
/* ... then the pages soft-limit reclaim scanned and took of them */
#define BPFEV_SOFT_SCAN	(BPFEV_SCANNED + BPFEV_NPRIO)
#define BPFEV_SOFT_STEAL	(BPFEV_SOFT_SCAN + 1)
#define BPFEV_NSUM	(BPFEV_SOFT_STEAL + 1)

/* A group the kernel counted an event or a flush in since bpfev_open. */
struct bpfev_count {
	uint64_t id;			/* cgroup id = the directory's inode */
	uint64_t ev[BPFEV_NSUM];	/* pages, since bpfev_open */
	int prio_min;			/* 0..12 since the last read; -1: not
					 * scanned (soft-limit reclaim's left
					 * out: see prio_min_soft) */
	int prio_min_kswapd;		/* of it, by kswapd */
	int prio_min_direct;		/* by the other tasks */
	int prio_min_proactive;		/* by proactive reclaim (memory.reclaim) */
	int prio_min_soft;		/* by soft-limit reclaim (always 0) */
	uint64_t stall_ns;		/* its tasks' time in reclaim */
	uint64_t flushes;		/* flush requests on it, since bpfev_open */
	uint64_t flushes_done;		/* of them, that flushed (forced or
					 * past the kernel's threshold) */
};

/* System-wide, since bpfev_open. */
struct bpfev_sys {
	uint64_t scanned[BPFEV_NPRIO];	/* pages scanned at each priority,
					 * soft-limit reclaim's left out */
	uint64_t soft_scanned[BPFEV_NPRIO];	/* soft-limit reclaim's */
	uint64_t shrinks;	/* mm_vmscan_lru_shrink_inactive events */
	uint64_t attributed;	/* of them, given to a group's prio_min */
	uint64_t exact;		/* of those, PGSCAN and PGSTEAL values equal */
	uint64_t flushes;	/* memcg_flush_stats requests */
	uint64_t flushes_done;	/* of them, forced or with updates to flush */
	uint64_t own_flushes;	/* requests by this process */
	uint64_t own_flushes_done;	/* of them, that flushed */
	uint64_t dropped;	/* events lost: the group map was full */
};

/*
 * bpfev_open: loads the programs and attaches them.  On failure returns
 * -errno and fills RET_WHY.  MEMCGTOP_BPFEV_FAIL=perm|btf|old|load in the
 * environment makes it fail as if not permitted, without BTF, on a kernel
 * before 6.13, or has the kernel's verifier really refuse (for tests).
 */
int bpfev_open(struct bpfev **ret_ev, struct bpfev_why *ret_why);

/*
 * bpfev_items: bit (1U << enum bpfev_item) for each item the running
 * kernel has (e.g. PGSCAN_PROACTIVE is 6.13+); the others stay 0.
 */
uint32_t bpfev_items(const struct bpfev *ev);
/* Whether the reclaim stalls are counted (the kernel has the vmscan
 * direct and memcg reclaim begin/end tracepoints). */
int bpfev_stalls(const struct bpfev *ev);
/* Whether soft-limit reclaim is counted (the kernel has the vmscan
 * softlimit_reclaim begin/end tracepoints). */
int bpfev_soft(const struct bpfev *ev);

/*
 * bpfev_read: the groups the kernel counted in, sorted by id, and the
 * system-wide figures; starts the next prio_min interval.  RET_GROUPS
 * stays valid until the next bpfev_read or bpfev_close.
 */
int bpfev_read(struct bpfev *ev, const struct bpfev_count **ret_groups,
	       size_t *ret_n, struct bpfev_sys *ret_sys);

/* bpfev_forget: drops a removed group's entry (the map holds 65,536). */
int bpfev_forget(struct bpfev *ev, uint64_t id);

void bpfev_close(struct bpfev *ev);

/* One group of a tree for bpfev_subtree_sums. */
struct bpfev_node {
	uint64_t id;
	uint64_t parent_id;		/* not in the array: a root */
	uint64_t ev[BPFEV_NSUM];	/* in: its own; out: with descendants */
};

/*
 * bpfev_subtree_sums: adds each node's counts into all its ancestors in
 * NODES.  Any order; 0, or -EINVAL for an id twice or a cycle (nothing
 * is changed then).
 */
int bpfev_subtree_sums(struct bpfev_node *nodes, size_t n);

#endif
