/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kernel_types.h - the few kernel types memcg_iter.bpf.c reads, written by
 * hand instead of a vmlinux.h dumped from the build machine's kernel, so
 * that every build is the same.  Every struct carries
 * preserve_access_index: libbpf relocates each field access against the
 * running kernel's BTF when it loads the program, so the order, offsets and
 * sizes below need not match any kernel; only the names and types do.
 * Fields that some kernels lack are guarded with bpf_core_field_exists()
 * at the place that reads them.
 */
#ifndef MEMCGTOP_KERNEL_TYPES_H
#define MEMCGTOP_KERNEL_TYPES_H

/* The memory.stat rows: the enum items below that the program reads. */
#include "memstat.h"

typedef signed char __s8;
typedef unsigned char __u8;
typedef short __s16;
typedef unsigned short __u16;
typedef int __s32;
typedef unsigned int __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef _Bool bool;
#define true 1
#define false 0

/* UAPI constants (linux/bpf.h), stable by definition. */
enum bpf_map_type {
	BPF_MAP_TYPE_ARRAY = 2,
};
#define BPF_F_MMAPABLE (1U << 10)

#define __pai __attribute__((preserve_access_index))

/* Not relocated: one long since ever (each relocated type costs libbpf a
 * search through every type of the kernel's BTF). */
typedef struct {
	long counter;
} atomic_long_t;

struct seq_file;

/*
 * The iterator's context types are not relocated: their layout is fixed
 * by the kernel's BPF ABI (each pointer in a 64-bit slot), and the
 * verifier checks context reads by offset.  Each relocated type costs
 * libbpf a search through every type of the kernel's BTF at load.
 */
struct bpf_iter_meta {
	struct seq_file *seq;
	__u64 session_id;
	__u64 seq_num;
};

struct css_set;

/*
 * The pages a process maps, by kind (enum mm counters: MM_FILEPAGES 0,
 * MM_ANONPAGES 1, MM_SWAPENTS 2, MM_SHMEMPAGES 3 since 4.5): per-CPU
 * counters since 6.2, whose count is what get_mm_counter() reads.
 */
struct percpu_counter {
	__s64 count;
} __pai;

struct mm_struct {
	struct percpu_counter rss_stat[4];
} __pai;

/* flags: PF_KSWAPD (0x00020000 since ever), who reclaims; cgroups: its
 * css_set, whose memory css is the task's memory cgroup. */
struct task_struct {
	unsigned int flags;
	int pid;
	int tgid;
	char comm[16];
	struct mm_struct *mm;
	struct css_set *cgroups;
} __pai;

struct kernfs_node {
	const char *name;
	__u64 id;
} __pai;

struct cgroup;

/* Not relocated: two pointers, next first, since ever. */
struct list_head {
	struct list_head *next;
	struct list_head *prev;
};

struct cgroup_subsys_state {
	struct cgroup *cgroup;
	struct cgroup_subsys_state *parent;
	/* On the parent's children list, which the kernel keeps in the
	 * order of serial_nr (the order the groups were made) since 3.12. */
	struct list_head sibling;
	struct list_head children;
	unsigned int flags;	/* CSS_ONLINE: (1 << 1) since 3.15 */
	__u64 serial_nr;
} __pai;

struct cgroup {
	struct cgroup_subsys_state self;
	int level;
	/* css_sets with a task (on their tasks or mg_tasks lists) that
	 * link this cgroup: 0 when it holds no task. */
	int nr_populated_csets;
	int nr_threaded_children;
	struct cgroup *dom_cgrp;	/* itself, unless threaded (v2) */
	struct kernfs_node *kn;
	/* Indexed by enum cgroup_subsys_id; its length is the kernel's. */
	struct cgroup_subsys_state *subsys[16];
} __pai;

struct bpf_iter__cgroup {
	struct bpf_iter_meta *meta;
	struct cgroup *cgroup;
};

/* The values are the kernel's, read with bpf_core_enum_value(). */
enum cgroup_subsys_id {
	memory_cgrp_id = 4,
};

/* Indexed by enum cgroup_subsys_id, as cgroup.subsys. */
struct css_set {
	struct cgroup_subsys_state *subsys[16];
} __pai;

/* The values are the kernel's, read with bpf_core_enum_value(). */
enum memcg_memory_event {
	MEMCG_LOW,
	MEMCG_HIGH,
	MEMCG_MAX,
	MEMCG_OOM,
	MEMCG_OOM_KILL,
	MEMCG_OOM_GROUP_KILL,
	MEMCG_SWAP_HIGH,
	MEMCG_SWAP_MAX,
	MEMCG_SWAP_FAIL,
};

/* In pages. */
struct page_counter {
	atomic_long_t usage;
	unsigned long failcnt;
	unsigned long watermark;
	unsigned long min;
	unsigned long low;
	unsigned long high;
	unsigned long max;
	unsigned long emin;	/* effective protections, set by reclaim */
	unsigned long elow;
} __pai;

/*
 * The memcg's own statistics, what memory.stat prints.  The arrays'
 * lengths are the running kernel's (bpf_core_field_size); which item is
 * at which index depends on the kernel's version and configuration, and
 * the loader proves each before it reads it (memcg_rec.h: memcg_sel).
 * state_local and events_local: 6.5+.
 */
struct memcg_vmstats {
	long state[1];
	unsigned long events[1];
	long state_local[1];
	unsigned long events_local[1];
	/* pending updates (6.8+): atomic64_t, since 6.x atomic_t; read
	 * by its size (a struct, as the kernel's, for CO-RE to match) */
	struct { int counter; } stats_updates;
} __pai;

/* The items the memory.stat rows (memstat.h) name, by their kf kind. */
#define KT_NODE_NODE(item)	item,
#define KT_NODE_MEMCG(item)
#define KT_NODE_EVENT(item)
#define KT_NODE_RECLAIM(item)
#define KT_NODE_RSUM(item)
#define KT_NODE_NOKF(item)
#define KT_MEMCG_NODE(item)
#define KT_MEMCG_MEMCG(item)	item,
#define KT_MEMCG_EVENT(item)
#define KT_MEMCG_RECLAIM(item)
#define KT_MEMCG_RSUM(item)
#define KT_MEMCG_NOKF(item)
#define KT_EVENT_NODE(item)
#define KT_EVENT_MEMCG(item)
#define KT_EVENT_EVENT(item)	item,
#define KT_EVENT_RECLAIM(item)
#define KT_EVENT_RSUM(item)
#define KT_EVENT_NOKF(item)
#define KT_SIZE(K, NAME, v1, v1k, v2, v2k, unit, kf, item, ...) K##_##kf(item)
#define KT_COUNT(K, NAME, v1, v1k, v2, v2k, kf, item, ...) K##_##kf(item)
#define KT_OWN(...)

/* The values are the kernel's, read with bpf_core_enum_value(). */
enum vm_event_item {
	/* the loader's rules' (memcg_layout.ev) ... */
	PGPGIN,
	PGPGOUT,
	PGSCAN_KSWAPD,
	PGSCAN_DIRECT,
	PGSCAN_KHUGEPAGED,
	PGSCAN_PROACTIVE,
	PGSTEAL_KSWAPD,
	PGSTEAL_DIRECT,
	PGSTEAL_KHUGEPAGED,
	PGSTEAL_PROACTIVE,
	NR_VM_EVENT_ITEMS,
	/* ... and the memory.stat rows' (memstat.h) */
	MEMSTATS(KT_EVENT, KT_SIZE, KT_COUNT, KT_OWN)
};

/*
 * What the memcg kfuncs (Linux 7.0+) take: bpf_mem_cgroup_page_state()
 * an item of enum node_stat_item or enum memcg_stat_item (the two are one
 * range: memcg_stat_item's first value is NR_VM_NODE_STAT_ITEMS),
 * bpf_mem_cgroup_vm_events() one of enum vm_event_item.  The values are
 * the kernel's, read with bpf_core_enum_value().
 */

enum node_stat_item {
	MEMSTATS(KT_NODE, KT_SIZE, KT_COUNT, KT_OWN)
};

/* The reclaim counts that later kernels keep as node items instead of
 * vm events: a flavour (libbpf drops the ___ suffix of the type's and
 * of each enumerator's name), since a C enumerator has one name only. */
enum node_stat_item___reclaim {
	PGSCAN_KSWAPD___n,
	PGSCAN_DIRECT___n,
	PGSCAN_KHUGEPAGED___n,
	PGSCAN_PROACTIVE___n,
	PGSTEAL_KSWAPD___n,
	PGSTEAL_DIRECT___n,
	PGSTEAL_KHUGEPAGED___n,
	PGSTEAL_PROACTIVE___n,
};

enum memcg_stat_item {
	MEMSTATS(KT_MEMCG, KT_SIZE, KT_COUNT, KT_OWN)
};

/* The values are the kernel's, read with bpf_core_enum_value(). */
enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS,
};

/*
 * The multi-gen LRU of a lruvec (CONFIG_LRU_GEN; struct lru_gen_struct
 * on 6.1 and 6.2, struct lru_gen_folio since: a nested struct's name is
 * not matched, its fields are).  nr_pages is [MAX_NR_GENS][ANON_AND_FILE]
 * [MAX_NR_ZONES], which the kernel's BTF (pahole) keeps as one flat
 * array, as CO-RE matches it; the lengths are the running kernel's
 * (field sizes).
 */
struct lru_gen_folio {
	unsigned long max_seq;
	long nr_pages[1];
	bool enabled;
} __pai;

struct lruvec {
	struct lru_gen_folio lrugen;
} __pai;

/* A node's statistics of a memcg, what memory.numa_stat prints: state
 * hierarchical (after a flush); its first five words the LRU lists (on
 * 6.1 indexed by enum node_stat_item, since 6.11 by the kernel's
 * memcg_node_stat_items[]: the lists first in both), proven against the
 * file before they are used. */
struct lruvec_stats {
	long state[1];
} __pai;

/* memcg->nodeinfo[nid]; lru_zone_size is [MAX_NR_ZONES][NR_LRU_LISTS],
 * flat in the kernel's BTF. */
struct mem_cgroup_per_node {
	struct lruvec lruvec;
	unsigned long lru_zone_size[1];
	/* the v1 soft-limit tree (CONFIG_MEMCG_V1 on 6.11+) */
	unsigned long usage_in_excess;
	bool on_tree;
} __pai;

/* Two flavours of it (libbpf drops the ___ suffix): lruvec_stats a
 * pointer (6.10+) or embedded (6.1). */
struct mem_cgroup_per_node___ptr {
	struct lruvec_stats *lruvec_stats;
} __pai;

struct mem_cgroup_per_node___emb {
	struct lruvec_stats lruvec_stats;
} __pai;

struct mem_cgroup {
	struct cgroup_subsys_state css;
	struct page_counter memory;
	union {
		struct page_counter swap;	/* v2 */
		struct page_counter memsw;	/* v1 */
	};
	struct page_counter kmem;		/* v1 (CONFIG_MEMCG_V1 on 6.11+) */
	unsigned long soft_limit;		/* v1 (CONFIG_MEMCG_V1 on 6.11+) */
	int swappiness;
	bool oom_group;
	atomic_long_t memory_events[16];
	atomic_long_t memory_events_local[16];
	/* Indexed by node id, nr_node_ids long. */
	struct mem_cgroup_per_node *nodeinfo[1];
} __pai;

/* Two flavours of struct mem_cgroup (libbpf drops the ___ suffix):
 * vmstats a pointer (6.3+) or embedded (6.1, 6.2). */
struct mem_cgroup___ptr {
	struct memcg_vmstats *vmstats;
} __pai;

struct mem_cgroup___emb {
	struct memcg_vmstats vmstats;
} __pai;

#undef __pai
#endif
