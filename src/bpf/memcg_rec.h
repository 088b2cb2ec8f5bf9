/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcg_rec.h - the records memcg_iter.bpf.c writes into its maps, shared
 * with the loader (src/bpf/bpfcol_*.c).  Uses __u64 and friends: the BPF side
 * gets them from kernel_types.h, user space from <linux/types.h>.
 *
 * A record is an array of values, one slot per value the program can
 * carry, with a bit per slot saying that the kernel has it.  The loader
 * converts every slot the same way, by the flags of its row below, so a
 * new value is a row here and the code in the program that reads it; the
 * value table of the source (include/fields.h) names the slot that gives
 * each group value.
 */
#ifndef MEMCGTOP_MEMCG_REC_H
#define MEMCGTOP_MEMCG_REC_H

#include "memstat.h"

/* How the loader turns a slot into what the file shows. */
#define MR_PAGES	(1U << 0)	/* kept in pages: shown in bytes */
#define MR_LIMIT	(1U << 1)	/* PAGE_COUNTER_MAX or more: "max" */
#define MR_EVENT	(1U << 2)	/* a v2 memory(.swap).events key */
#define MR_MADE		(1U << 4)	/* the loader's, from other slots */
#define MR_KB		(1U << 5)	/* kept in KiB: shown in bytes */
#define MR_STAT		(1U << 3)	/* memcg->vmstats: a memory.stat value,
					 * in the stats map, at the word(s) the
					 * loader proved (struct memcg_sel) */

/*
 * X(SLOT, key, flags): the slots in record order.  The key is the tests'
 * name of the slot (tests/bpf/bpfdump.c prints it).
 */
#define MR_SLOTS(X)							\
	X(USAGE, "usage", MR_PAGES)		/* v1 usage_in_bytes, v2 memory.current */ \
	X(MAX, "max", MR_PAGES | MR_LIMIT)	/* v1 limit_in_bytes, v2 memory.max */ \
	X(HIGH, "high", MR_PAGES | MR_LIMIT)	/* v2 memory.high */	\
	X(LOW, "low", MR_PAGES | MR_LIMIT)	/* v2 memory.low */	\
	X(MIN, "min", MR_PAGES | MR_LIMIT)	/* v2 memory.min */	\
	X(SOFT, "soft", MR_PAGES | MR_LIMIT)	/* v1 soft_limit_in_bytes */ \
	X(SWAP_USAGE, "swap_usage", MR_PAGES)	/* v1 memsw.usage_in_bytes, v2 swap.current */ \
	X(SWAP_MAX, "swap_max", MR_PAGES | MR_LIMIT) /* v1 memsw.limit_in_bytes, v2 swap.max */ \
	X(SWAP_HIGH, "swap_high", MR_PAGES | MR_LIMIT) /* v2 memory.swap.high */ \
	X(KMEM, "kmem", MR_PAGES)		/* v1 kmem.usage_in_bytes */ \
	X(FAILCNT, "failcnt", 0)		/* v1 memory.failcnt */	\
	X(PEAK, "peak", MR_PAGES)		/* v1 max_usage_in_bytes, v2 memory.peak */ \
	X(SWAP_PEAK, "swap_peak", MR_PAGES)	/* v1 memsw.max_usage_in_bytes, v2 swap.peak */ \
	X(SWAPPINESS, "swappiness", 0)		/* v1 memory.swappiness */ \
	X(OOM_GROUP, "oom_group", 0)		/* v2 memory.oom.group */ \
	X(EV_LOW, "ev_low", MR_EVENT)		/* v2 memory.events ... */ \
	X(EV_HIGH, "ev_high", MR_EVENT)					\
	X(EV_MAX, "ev_max", MR_EVENT)					\
	X(EV_OOM, "ev_oom", MR_EVENT)					\
	X(EV_OOM_KILL, "ev_oom_kill", MR_EVENT)				\
	X(EV_OOM_GROUP_KILL, "ev_oom_group_kill", MR_EVENT)		\
	X(EV_SWAP_HIGH, "ev_swap_high", MR_EVENT) /* ... memory.swap.events */ \
	X(EV_SWAP_MAX, "ev_swap_max", MR_EVENT)				\
	X(EV_SWAP_FAIL, "ev_swap_fail", MR_EVENT)			\
	/* v2: page_counter.emin and .elow, the effective protections	\
	 * the last reclaim that visited the group computed */		\
	X(EMIN, "emin", MR_PAGES)					\
	X(ELOW, "elow", MR_PAGES)					\
	/* vmstats->stats_updates: the pending stat updates the kernel	\
	 * weighs against its flush threshold (6.8+) */		\
	X(STATS_PENDING, "stats_pending", 0)				\
	/* cgroup.nr_populated_csets, where it tells whether the group	\
	 * holds a task (v1; v2 outside threaded subtrees): 0 means an	\
	 * empty cgroup.procs, which is then not read */		\
	X(POPULATED, "populated_csets", 0)				\
	/* v1 soft-limit tree: nodeinfo[nid]->usage_in_excess where the	\
	 * group is on node nid's tree (on_tree), else 0 */		\
	X(SOFT_NODE0, "soft_node0", MR_PAGES)				\
	X(SOFT_NODE1, "soft_node1", MR_PAGES)				\
	X(SOFT_NODE2, "soft_node2", MR_PAGES)				\
	X(SOFT_NODE3, "soft_node3", MR_PAGES)				\
	/* made by the loader (cgfs_pass.c) from every record of the	\
	 * pass, not read by the program: the largest of SOFT_NODE*,	\
	 * and the group's place in its node's tree (1: reclaimed	\
	 * first; the best over the nodes) */				\
	X(SOFT_TREE, "soft_tree_excess", MR_MADE)			\
	X(SOFT_RANK, "soft_rank", MR_MADE)

/*
 * Then the stat slots: memory.stat's values, one a row of memstat.h, in
 * pages, KiB, bytes or counts as the kernel keeps them; then the group's
 * own LRU lists per NUMA node (memcg_stat.node), whose value is the number
 * of nodes read.  MR_ALL_SLOTS is every slot, each as MR_ROW(SLOT, key,
 * flags), MR_ROW defined by the user.
 */
#define MR_UNIT_PG	MR_PAGES
#define MR_UNIT_KB	MR_KB
#define MR_UNIT_B	0
#define MR_MS_SIZE(X, NAME, v1, v1k, v2, v2k, unit, kf, item, ...)	\
	MR_ROW(ST_##NAME, v2k, MR_STAT | MR_UNIT_##unit)
#define MR_MS_COUNT(X, NAME, v1, v1k, v2, v2k, kf, item, ...)		\
	MR_ROW(ST_##NAME, v2k, MR_STAT)
#define MR_MS_OWN(X, NAME, v1, v1k, v2, v2k, unit, slotkey)		\
	MR_ROW(ST_##NAME, slotkey, MR_STAT | MR_UNIT_##unit)
#define MR_ALL_SLOTS							\
	MR_SLOTS(MR_ROW)						\
	MEMSTATS(_, MR_MS_SIZE, MR_MS_COUNT, MR_MS_OWN)			\
	MR_ROW(ST_NODES, "nodes", MR_STAT)

enum mr_slot {
#define MR_ROW(slot, key, flags) MR_##slot,
	MR_ALL_SLOTS
#undef MR_ROW
	MR_NSLOTS
};

/* The memory.stat slots: the last ones, in a map of their own (struct
 * memcg_stat), which has room for every group only while they are asked
 * for. */
#define MR_FIRST_STAT	(MR_SOFT_RANK + 1)
#define MR_NSTAT	(MR_NSLOTS - MR_FIRST_STAT)
_Static_assert(MR_FIRST_STAT <= 64, "more record slots than a __u64 has bits");
_Static_assert(MR_NSTAT <= 64, "more stat slots than a __u64 has bits");

/*
 * Two kinds of slot set.  The program and the maps keep each kind in a
 * __u64: a record's slots (memcg_rec.have, the walk's want) by MR_BIT,
 * the stat slots (memcg_stat.have, want_stat, memcg_layout.kf) by
 * MS_BIT, counted from MR_FIRST_STAT.  The loader and the source keep
 * both in one mr_set, by MR_BIT, whatever the slot.
 */
#define MS_BIT(slot)	(1ULL << (MR_##slot - MR_FIRST_STAT))
#ifdef __bpf__
/* A record's slot only: a stat slot's bit is MS_BIT. */
#define MR_BIT(slot)	(1ULL << (MR_##slot) |				\
			 0 * sizeof(char[MR_##slot < MR_FIRST_STAT ? 1 : -1]))
#else
typedef unsigned __int128 mr_set;
#define MR_BIT(slot)	((mr_set)1 << (MR_##slot))
#define MR_SET(slot)	((mr_set)1 << (slot))
/* The lowest slot of a set that is not empty, and how many it holds. */
static inline unsigned mr_first(mr_set s)
{
	__u64 lo = (__u64)s;

	return lo ? (unsigned)__builtin_ctzll(lo) :
		64 + (unsigned)__builtin_ctzll((__u64)(s >> 64));
}

static inline unsigned mr_count(mr_set s)
{
	return (unsigned)(__builtin_popcountll((__u64)s) +
			  __builtin_popcountll((__u64)(s >> 64)));
}

/* The stat slots of a set as the program keeps them (MS_BIT), and back. */
static inline __u64 mr_stat_bits(mr_set s)
{
	return (__u64)(s >> MR_FIRST_STAT);
}

static inline mr_set mr_of_stat_bits(__u64 bits)
{
	return (mr_set)bits << MR_FIRST_STAT;
}

#define MR_STATS	((MR_SET(MR_NSLOTS) - 1) & ~(MR_SET(MR_FIRST_STAT) - 1))
#endif

_Static_assert(MR_NSLOTS < 128, "more slots than an mr_set has bits");

#define MR_SOFT_NODES	(MR_BIT(SOFT_NODE0) | MR_BIT(SOFT_NODE1) |	\
			 MR_BIT(SOFT_NODE2) | MR_BIT(SOFT_NODE3))
#define MR_SOFT_MADE	(MR_BIT(SOFT_TREE) | MR_BIT(SOFT_RANK))

#define MR_EVENTS	(MR_BIT(EV_LOW) | MR_BIT(EV_HIGH) | MR_BIT(EV_MAX) | \
			 MR_BIT(EV_OOM) | MR_BIT(EV_OOM_KILL) |		 \
			 MR_BIT(EV_OOM_GROUP_KILL) | MR_BIT(EV_SWAP_HIGH) | \
			 MR_BIT(EV_SWAP_MAX) | MR_BIT(EV_SWAP_FAIL))

/*
 * The group's own LRU lists per NUMA node, in pages, in the kernel's
 * enum lru_list order: what reclaim scans.  Without the multi-gen LRU
 * memcg->nodeinfo[nid]->lru_zone_size[zone][lru] summed over the zones;
 * where the multi-gen LRU is enabled in the node's lruvec its lists are
 * the generations of lrugen.nr_pages[gen][type][zone]: the youngest two
 * generations counted active, the others inactive, as the kernel counts
 * them for memory.stat and memory.numa_stat (lru_gen_update_size(),
 * inc_max_seq()); the unevictable list stays in lru_zone_size.  Nodes
 * 0 .. MR_NODES - 1 at most (memcg_cfg.nodes: the kernel's nr_node_ids).
 */
#define MR_NODES	4
enum mr_lru { MR_LRU_INACTIVE_ANON, MR_LRU_ACTIVE_ANON, MR_LRU_INACTIVE_FILE,
	      MR_LRU_ACTIVE_FILE, MR_LRU_UNEVICTABLE, MR_NLRU };

/* memcg_node_src: where the walk found the per-node lists. */
#define MR_NODE_ZONE_SIZE	(1U << 0)	/* lru_zone_size */
#define MR_NODE_LRUGEN		(1U << 1)	/* lrugen.nr_pages */
#define MR_NODE_NONE		(1U << 2)	/* a group's not read */
#define MR_NODE_NO_HIER		(1U << 3)	/* no lruvec_stats */

/* A group's memory.stat values (MR_STATS), at the index of its record. */
struct memcg_stat {
	__u64 have;		/* MS_BIT of the stat slots read */
	__s64 v[MR_NSTAT];	/* sums of kernel words: may be below 0 */
	__s64 node[MR_NODES][MR_NLRU];	/* ST_NODES */
	/* ... and with its descendants: nodeinfo[nid]->lruvec_stats'
	 * state[0..4] (the kernel's, flushed: what memory.numa_stat
	 * prints), dying groups' lists among them */
	__s64 hnode[MR_NODES][MR_NLRU];
};

/*
 * The arrays of struct memcg_vmstats (memcg->vmstats: a pointer since
 * 6.3, embedded in struct mem_cgroup before).  state and events are
 * hierarchical, what memory.stat shows after a flush (v1: total_*);
 * state_local and events_local (6.5+) the group's own.
 */
enum mr_arr { MR_ARR_STATE, MR_ARR_EVENTS, MR_ARR_STATE_LOCAL,
	      MR_ARR_EVENTS_LOCAL, MR_NARR };

/* Words of an array the program reads at most (the largest seen: 6.1's
 * events[], indexed by enum vm_event_item, about 100). */
#define MR_ARR_WORDS	128
/* Words a slot may be the sum of (pgscan: kswapd, direct, khugepaged,
 * proactive). */
#define MR_SEL_WORDS	4

/*
 * Where a stat slot is: the loader proves each word against memory.stat
 * (src/source/cgfs_prove.c) before it selects it; n 0: not read.
 */
/* memcg_sel.arr of a slot read through the kernel's memcg kfuncs (Linux
 * 7.0+, mm/bpf_memcontrol.c: bpf_mem_cgroup_page_state() and
 * bpf_mem_cgroup_vm_events()) by the kernel's own enum values, which
 * CO-RE gives: no word to prove.  The hierarchical slots only (the
 * kfuncs read no group's own values); n 1, idx unused. */
#define MR_SEL_KF	0x80

struct memcg_sel {
	__u8 arr;			/* enum mr_arr, or MR_SEL_KF */
	__u8 n;				/* words summed */
	__u8 idx[MR_SEL_WORDS];		/* their indexes, < MR_ARR_WORDS */
};

struct memcg_sels {
	__u32 words[MR_NARR];		/* of each array to read: the highest
					 * selected index + 1 */
	struct memcg_sel sel[MR_NSTAT];
};

/* enum vm_event_item values the loader's rules need (memcg_layout.ev). */
enum mr_ev { MR_EV_PGPGIN, MR_EV_PGPGOUT, MR_EV_PGFAULT, MR_EV_PGMAJFAULT,
	     MR_EV_PGSCAN_KSWAPD, MR_EV_PGSCAN_DIRECT, MR_EV_PGSCAN_KHUGEPAGED,
	     MR_EV_PGSCAN_PROACTIVE, MR_EV_PGSTEAL_KSWAPD,
	     MR_EV_PGSTEAL_DIRECT, MR_EV_PGSTEAL_KHUGEPAGED,
	     MR_EV_PGSTEAL_PROACTIVE, MR_EV_NR_VM_EVENT_ITEMS, MR_NEV };

/*
 * What the running kernel's BTF says, written by the program at each
 * chunk (CO-RE relocations, resolved at load): where memcg->vmstats is,
 * the words of each of its arrays (0: absent) and the enum values.
 */
struct memcg_layout {
	__u32 vmstats;			/* 0 none, 1 a pointer, 2 embedded */
	__u32 words[MR_NARR];
	__s32 ev[MR_NEV];		/* -1: not in this kernel's enum */
	/* MS_BIT of the stat slots the program can read through the
	 * kernel's memcg kfuncs (MR_SEL_KF): 0 but in the program built
	 * with them (memcg_iter_kf), on v2, where this kernel's enums
	 * have every item the slot sums. */
	__u64 kf;
};

/* memcg_rec.flags */
#define MR_NAME		(1U << 0)	/* name read whole */
#define MR_MEMCG	(1U << 1)	/* memory controller enabled */

struct memcg_rec {
	__u64 id;		/* cgroup id = the directory's inode number */
	__u32 level;		/* 0 for a hierarchy's root */
	__u32 flags;		/* MR_NAME, MR_MEMCG */
	__u32 name_off;		/* in the names map's one value */
	__u32 name_len;		/* without the NUL */
	__u64 have;		/* MR_BIT of the slots the kernel has here */
	__u64 v[MR_FIRST_STAT];	/* as the kernel keeps them (MR_PAGES: pages);
				 * the stat slots are in the stats map */
};

/*
 * The only text the iterator writes: one summary when the walk ends (the
 * program sees a NULL cgroup then, after the kernel dropped cgroup_mutex).
 * groups and names_used count on past the maps' capacity, so the loader
 * knows how much to grow them.
 *
 * A pass is one or more chunks, each a read of a new iterator fd (the
 * kernel's cgroup iterator cannot go on across reads): the first attached
 * at the start group, each later one at the group the one before stopped
 * at (struct memcg_chunk).  groups and names_used count from the pass's
 * start.
 */
#define MR_SUM_MAGIC		0x6d656d63U	/* "memc" */
#define MR_SUM_NO_MEMCG		(1U << 0)	/* kernel has no memory_cgrp_id */
#define MR_SUM_DONE		(1U << 1)	/* the walk reached its end */
#define MR_SUM_LOST		(1U << 2)	/* the attached group was gone */
#define MR_SUM_UNENDED		(1U << 3)	/* ran out of steps: a bug */

/*
 * Where a chunk stopped: the group it counted last and its ancestors
 * above it, nearest first, up to the start group or MR_CHAIN of them.  The
 * next chunk goes on from the first of them that still exists: after the
 * children of it that come no later than the one before in the chain
 * (siblings are kept in the order of their serial numbers).
 */
#define MR_CHAIN		16

struct memcg_resume {
	__u64 id;		/* kernfs id: the directory's inode number */
	__u64 serial;		/* the css's serial_nr */
};

struct memcg_sum {
	__u32 magic;
	__u32 flags;
	__u32 groups;		/* memory cgroups seen */
	__u32 names_used;	/* bytes the names needed */
	__u64 session;		/* the bpf_iter_meta session id */
	__u64 held_ns;		/* the program's first call to its last */
	__u32 counted;		/* groups this chunk counted */
	__u32 steps;		/* walk steps this chunk took */
	__u32 start_level;	/* the start group's level */
	__u32 chain_len;	/* entries of chain: 0 once done */
	struct memcg_resume chain[MR_CHAIN];
};

/*
 * How a chunk starts, set by the loader through the mapped section
 * before each read.  resume 0: the pass's first chunk, attached at the
 * start group, which it records first; 1: attached at a group of the
 * chunk before's chain, whose children of serial number floor or below
 * are done.  Each chunk records for at most budget_ns (0: no limit) and
 * at least one group.
 */
struct memcg_chunk {
	__u64 budget_ns;
	__u64 floor;
	__u32 resume;
	__u32 start_level;
	__u32 base;		/* the pass's records so far */
	__u32 names_base;	/* the pass's name bytes so far */
	__u32 self_only;	/* the attached group alone (a proof's read) */
	__u32 pad_;
};

/* The program's only read-only data, set by the loader before load. */
struct memcg_cfg {
	__u32 rec_cap;		/* entries of the recs map */
	__u32 names_size;	/* bytes of the names map's one value */
	__u32 v2;		/* a cgroup v2 hierarchy (else v1) */
	__u32 local_events;	/* v2 mounted with memory_localevents */
	__u32 inject_refusal;	/* tests: make the verifier refuse */
	__u32 stat_cap;		/* entries of the stats map */
	__u32 nodes;		/* NUMA node ids (nr_node_ids), at most
				 * MR_NODES read */
	__u32 page_size;	/* bytes: the kfuncs give sizes in bytes */
	__u32 stat_nodes;	/* the stats map's values hold node and
				 * hnode (MR_STAT_SIZE), else they end
				 * before them (MR_STAT_SHORT) */
};

/* A stats map value's size: with the lists per node, or without (the
 * map holds every group while a stat slot is asked for: 320 bytes a
 * group less where the lists per node are not). */
#define MR_STAT_SIZE	sizeof(struct memcg_stat)
#define MR_STAT_SHORT	__builtin_offsetof(struct memcg_stat, node)

/* Names are packed NUL-terminated, each at an 8-byte aligned offset. */
#define MR_NAME_MAX	256	/* NAME_MAX + NUL */

#endif
