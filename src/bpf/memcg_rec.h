/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcg_rec.h - the records memcg_iter.bpf.c writes into its maps, shared
 * with the loader (src/bpfcol.c).  Uses __u64 and friends: the BPF side
 * gets them from kernel_types.h, user space from <linux/types.h>.
 *
 * Values are in pages, as the kernel keeps them; the loader converts.
 */
#ifndef MEMCGTOP_MEMCG_REC_H
#define MEMCGTOP_MEMCG_REC_H

/* memcg_rec.have: the kernel has this field (bpf_core_field_exists). */
#define MR_HAVE_MEMSW		(1U << 0)	/* swap/memsw page counter */
#define MR_HAVE_KMEM		(1U << 1)
#define MR_HAVE_SOFT		(1U << 2)
#define MR_HAVE_SWAPPINESS	(1U << 3)
#define MR_HAVE_OOM_GROUP	(1U << 4)
#define MR_HAVE_FAILCNT		(1U << 5)
#define MR_HAVE_WATERMARK	(1U << 6)
#define MR_HAVE_PROTECTION	(1U << 7)	/* min, low */
#define MR_HAVE_HIGH		(1U << 8)
#define MR_HAVE_NAME		(1U << 9)	/* name read whole */
#define MR_HAVE_MEMCG		(1U << 10)	/* memory controller enabled */
#define MR_HAVE_MEMSW_USAGE	(1U << 11)	/* that counter's usage only */

/*
 * What a walk reads besides the name and the memory page counter (the
 * program's `want`, which the loader sets before a walk): each costs cache
 * misses in every group, so a refresh asks only for what it shows.
 */
#define MR_WANT_MEMSW		MR_HAVE_MEMSW		/* all of it */
#define MR_WANT_MEMSW_USAGE	MR_HAVE_MEMSW_USAGE	/* one cache line */
#define MR_WANT_KMEM		MR_HAVE_KMEM
#define MR_WANT_SOFT		MR_HAVE_SOFT
#define MR_WANT_SWAPPINESS	MR_HAVE_SWAPPINESS
#define MR_WANT_OOM_GROUP	MR_HAVE_OOM_GROUP
#define MR_WANT_EVENTS		(1U << 16)	/* v2 memory(.swap).events */
#define MR_WANT_ALL		(MR_WANT_MEMSW | MR_WANT_KMEM | MR_WANT_SOFT | \
				 MR_WANT_SWAPPINESS | MR_WANT_OOM_GROUP | \
				 MR_WANT_EVENTS)

/* memcg_rec.events[]: slots, filled from the kernel's enum by name. */
enum mr_event {
	MR_EV_LOW,
	MR_EV_HIGH,
	MR_EV_MAX,
	MR_EV_OOM,
	MR_EV_OOM_KILL,
	MR_EV_OOM_GROUP_KILL,
	MR_EV_SWAP_HIGH,
	MR_EV_SWAP_MAX,
	MR_EV_SWAP_FAIL,
	MR_EV_N
};

struct mr_counter {
	__u64 usage;
	__u64 max;
	__u64 high;
	__u64 watermark;
};

struct memcg_rec {
	__u64 id;		/* cgroup id = the directory's inode number */
	__u32 level;		/* 0 for a hierarchy's root */
	__u32 have;		/* MR_HAVE_* */
	__u32 name_off;		/* in the names map's one value */
	__u32 name_len;		/* without the NUL */
	struct mr_counter mem;
	struct mr_counter memsw;	/* v1 memsw or v2 swap (one union) */
	__u64 min;
	__u64 low;
	__u64 failcnt;
	__u64 kmem_usage;
	__u64 soft_limit;
	__s32 swappiness;
	__u32 oom_group;
	__u32 events_have;	/* bit per enum mr_event the kernel has */
	__u32 pad;
	__u64 events[MR_EV_N];
};

/*
 * The only text the iterator writes: one summary when the walk ends (the
 * program sees a NULL cgroup then).  groups and names_used count on past
 * the maps' capacity, so the loader knows how much to grow them.
 */
#define MR_SUM_MAGIC		0x6d656d63U	/* "memc" */
#define MR_SUM_NO_MEMCG		(1U << 0)	/* kernel has no memory_cgrp_id */

struct memcg_sum {
	__u32 magic;
	__u32 flags;
	__u32 groups;		/* memory cgroups seen */
	__u32 names_used;	/* bytes the names needed */
	__u64 session;		/* the bpf_iter_meta session id */
};

/* The program's only read-only data, set by the loader before load. */
struct memcg_cfg {
	__u32 rec_cap;		/* entries of the recs map */
	__u32 names_size;	/* bytes of the names map's one value */
	__u32 v2;		/* a cgroup v2 hierarchy (else v1) */
	__u32 local_events;	/* v2 mounted with memory_localevents */
	__u32 inject_refusal;	/* tests: make the verifier refuse */
};

/* Names are packed NUL-terminated, each at an 8-byte aligned offset. */
#define MR_NAME_MAX	256	/* NAME_MAX + NUL */

#endif
