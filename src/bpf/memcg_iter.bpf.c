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
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "memcg_rec.h"

#ifdef MEMCG_KFUNC
/*
 * Built twice: memcg_iter without kfuncs, and memcg_iter_kf with the
 * kernel's memcg kfuncs (Linux 7.0+, mm/bpf_memcontrol.c), which the
 * loader loads where the running kernel's BTF has every one of these
 * (libbpf 1.1 has no weak kfuncs: one it cannot find fails the load).
 * The walk's pointers are numbers to the verifier, which the kfuncs
 * refuse: a group's trusted memcg comes from its id (the default
 * hierarchy's: v2 only), as the kernel's selftests take it.
 */
extern struct cgroup *bpf_cgroup_from_id(__u64 cgid) __ksym;
extern void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
extern struct mem_cgroup *bpf_get_mem_cgroup(struct cgroup_subsys_state *css) __ksym;
extern void bpf_put_mem_cgroup(struct mem_cgroup *memcg) __ksym;
extern unsigned long bpf_mem_cgroup_page_state(struct mem_cgroup *memcg,
					       int idx) __ksym;
extern unsigned long bpf_mem_cgroup_vm_events(struct mem_cgroup *memcg,
					      enum vm_event_item event) __ksym;
#endif

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
/*
 * A struct page_counter is read whole, with one helper call, and its
 * fields are taken at their CO-RE offsets: 192 bytes on 6.18, and one
 * bpf_probe_read_kernel per field would cost about as much each.  The
 * buffer is global, not on the 512-byte stack: walks do not overlap (one
 * reader, cgroup_mutex held).
 */
#define PC_BUF 512
__u64 pc_buf[PC_BUF / 8];

#define PC_FIELD(f)							\
	({								\
		__u32 o_ = bpf_core_field_offset(struct page_counter, f); \
		o_ <= PC_BUF - 8 ? *(__u64 *)((char *)pc_buf + o_) : 0;	\
	})

/* Reads a page counter whole into pc_buf, for PC_FIELD: 0 or -1. */
static __always_inline int read_counter(struct page_counter *pc)
{
	__u32 size = bpf_core_type_size(struct page_counter);

	if (size > PC_BUF)
		size = PC_BUF;
	return bpf_probe_read_kernel(pc_buf, size, pc) ? -1 : 0;
}

#define EVENT(slot, kname)						\
	do {								\
		if (bpf_core_enum_value_exists(enum memcg_memory_event,	\
					       kname)) {		\
			__u32 i = bpf_core_enum_value(			\
				enum memcg_memory_event, kname);	\
			if (i < 16)					\
				put(r, MR_##slot, ev[i].counter);	\
		}							\
	} while (0)

static __always_inline void put(struct memcg_rec *r, enum mr_slot slot,
				__u64 v)
{
	r->v[slot] = v;
	r->have |= 1ULL << slot;
}

static __always_inline void read_events(struct memcg_rec *r,
					struct mem_cgroup *memcg)
{
	atomic_long_t ev[16] = {};
	__u32 size;

	if (cfg.local_events) {
		if (!bpf_core_field_exists(memcg->memory_events_local))
			return;
		size = bpf_core_field_size(memcg->memory_events_local);
		if (size > sizeof(ev))
			size = sizeof(ev);
		if (bpf_core_read(ev, size, &memcg->memory_events_local))
			return;
	} else {
		if (!bpf_core_field_exists(memcg->memory_events))
			return;
		size = bpf_core_field_size(memcg->memory_events);
		if (size > sizeof(ev))
			size = sizeof(ev);
		if (bpf_core_read(ev, size, &memcg->memory_events))
			return;
	}
	EVENT(EV_LOW, MEMCG_LOW);
	EVENT(EV_HIGH, MEMCG_HIGH);
	EVENT(EV_MAX, MEMCG_MAX);
	EVENT(EV_OOM, MEMCG_OOM);
	EVENT(EV_OOM_KILL, MEMCG_OOM_KILL);
	EVENT(EV_OOM_GROUP_KILL, MEMCG_OOM_GROUP_KILL);
	EVENT(EV_SWAP_HIGH, MEMCG_SWAP_HIGH);
	EVENT(EV_SWAP_MAX, MEMCG_SWAP_MAX);
	EVENT(EV_SWAP_FAIL, MEMCG_SWAP_FAIL);
}

static __always_inline void read_name(struct memcg_rec *r,
				      const char *kname)
{
	__u32 zero = 0, off = names_used;
	char *buf;
	long len;

	/*
	 * Past the buffer's end the name is not read; counting a whole
	 * MR_NAME_MAX for it tells the loader enough to grow.
	 */
	buf = bpf_map_lookup_elem(&names, &zero);
	if (!buf || off > cfg.names_size - MR_NAME_MAX) {
		names_used = off + MR_NAME_MAX;
		return;
	}
	len = bpf_probe_read_kernel_str(buf + off, MR_NAME_MAX, kname);
	if (len <= 0) {
		names_used = off + 8;
		return;
	}
	r->name_off = off;
	r->name_len = len - 1;
	r->flags |= MR_NAME;
	names_used = off + ((len + 7) & ~7);
}

#ifdef MEMCG_KFUNC
/* A node (or memcg) item by name: its value in the kernel's enum. */
#define NODE_ITEM(name)	bpf_core_enum_value(enum node_stat_item, name)
#define HAS_NODE(name)	bpf_core_enum_value_exists(enum node_stat_item, name)
#define HAS_MEMCG(name)	bpf_core_enum_value_exists(enum memcg_stat_item, name)
/* A reclaim count: a vm event (7.0), or a node item (7.1+). */
#define HAS_RECLAIM(name)						\
	(bpf_core_enum_value_exists(enum vm_event_item, name) ||	\
	 bpf_core_enum_value_exists(enum node_stat_item___reclaim, name##___n))

/* Whether this kernel's enums have a row's item (memstat.h: kf, item). */
#define KF_HAS_NODE(item)	HAS_NODE(item)
#define KF_HAS_MEMCG(item)	HAS_MEMCG(item)
#define KF_HAS_EVENT(item)	bpf_core_enum_value_exists(enum vm_event_item, item)
#define KF_HAS_RECLAIM(item)	HAS_RECLAIM(item)
/* memory.stat's sums: kswapd, direct, khugepaged and proactive. */
#define KF_HAS_RSUM(p)							\
	(HAS_RECLAIM(p##_KSWAPD) && HAS_RECLAIM(p##_DIRECT) &&		\
	 HAS_RECLAIM(p##_KHUGEPAGED) && HAS_RECLAIM(p##_PROACTIVE))
#define KS_SIZE(X, NAME, v1, v1k, v2, v2k, unit, kf, item, ...)		\
	KS_##kf(NAME, item)
#define KS_COUNT(X, NAME, v1, v1k, v2, v2k, kf, item, ...)			\
	KS_##kf(NAME, item)
#define KS_OWN(...)
#define KS_ROW(NAME, kf, item)						\
	if (KF_HAS_##kf(item))						\
		m |= MS_BIT(ST_##NAME);
#define KS_NODE(NAME, item)	KS_ROW(NAME, NODE, item)
#define KS_MEMCG(NAME, item)	KS_ROW(NAME, MEMCG, item)
#define KS_EVENT(NAME, item)	KS_ROW(NAME, EVENT, item)
#define KS_RECLAIM(NAME, item)	KS_ROW(NAME, RECLAIM, item)
#define KS_RSUM(NAME, item)	KS_ROW(NAME, RSUM, item)
#define KS_NOKF(NAME, item)

/* The stat slots this kernel's enums give every item of. */
static __always_inline __u64 kf_slots(void)
{
	__u64 m = 0;

	MEMSTATS(_, KS_SIZE, KS_COUNT, KS_OWN)
	return m;
}
#endif

#define LAYOUT_EV(i, name)						\
	(layout.ev[i] = bpf_core_enum_value_exists(enum vm_event_item, name) ? \
	 (__s32)bpf_core_enum_value(enum vm_event_item, name) : -1)
#define LAYOUT_ARR(a, field)						\
	(layout.words[a] = bpf_core_field_exists(struct memcg_vmstats, field) ? \
	 bpf_core_field_size(struct memcg_vmstats, field) / 8 : 0)

/* The layout as CO-RE resolved it at load, for the loader. */
static __always_inline void find_layout(void)
{
	layout.vmstats = bpf_core_field_exists(struct mem_cgroup___ptr, vmstats) ?
		1 : bpf_core_field_exists(struct mem_cgroup___emb, vmstats) ?
		2 : 0;
	LAYOUT_ARR(MR_ARR_STATE, state);
	LAYOUT_ARR(MR_ARR_EVENTS, events);
	LAYOUT_ARR(MR_ARR_STATE_LOCAL, state_local);
	LAYOUT_ARR(MR_ARR_EVENTS_LOCAL, events_local);
	LAYOUT_EV(MR_EV_PGPGIN, PGPGIN);
	LAYOUT_EV(MR_EV_PGPGOUT, PGPGOUT);
	LAYOUT_EV(MR_EV_PGFAULT, PGFAULT);
	LAYOUT_EV(MR_EV_PGMAJFAULT, PGMAJFAULT);
	LAYOUT_EV(MR_EV_PGSCAN_KSWAPD, PGSCAN_KSWAPD);
	LAYOUT_EV(MR_EV_PGSCAN_DIRECT, PGSCAN_DIRECT);
	LAYOUT_EV(MR_EV_PGSCAN_KHUGEPAGED, PGSCAN_KHUGEPAGED);
	LAYOUT_EV(MR_EV_PGSCAN_PROACTIVE, PGSCAN_PROACTIVE);
	LAYOUT_EV(MR_EV_PGSTEAL_KSWAPD, PGSTEAL_KSWAPD);
	LAYOUT_EV(MR_EV_PGSTEAL_DIRECT, PGSTEAL_DIRECT);
	LAYOUT_EV(MR_EV_PGSTEAL_KHUGEPAGED, PGSTEAL_KHUGEPAGED);
	LAYOUT_EV(MR_EV_PGSTEAL_PROACTIVE, PGSTEAL_PROACTIVE);
	LAYOUT_EV(MR_EV_NR_VM_EVENT_ITEMS, NR_VM_EVENT_ITEMS);
	layout.kf = 0;
#ifdef MEMCG_KFUNC
	if (cfg.v2)
		layout.kf = kf_slots();
#endif
}

/* The address of memcg->vmstats, 0 where this kernel has none. */
static __always_inline __u64 vmstats_of(struct mem_cgroup *memcg)
{
	if (bpf_core_field_exists(struct mem_cgroup___ptr, vmstats))
		return (__u64)BPF_CORE_READ((struct mem_cgroup___ptr *)memcg,
					    vmstats);
	if (bpf_core_field_exists(struct mem_cgroup___emb, vmstats))
		return (__u64)memcg +
			bpf_core_field_offset(struct mem_cgroup___emb, vmstats);
	return 0;
}

/*
 * The first n words of one array of vmstats at vs into dst: each array
 * in one helper call.  Returns 0 or -1 (absent, or not read: its words
 * are then not used).
 */
#define READ_ARR(dst, field, want_n)					\
	({								\
		int r_ = -1;						\
		if (bpf_core_field_exists(struct memcg_vmstats, field)) { \
			__u32 n_ = (want_n);				\
			__u32 max_ = bpf_core_field_size(struct memcg_vmstats, \
							 field) / 8;	\
			if (n_ > max_)					\
				n_ = max_;				\
			if (n_ > MR_ARR_WORDS)				\
				n_ = MR_ARR_WORDS;			\
			if (n_ > 0 && bpf_probe_read_kernel(		\
				(dst), n_ * 8, (void *)(vs +		\
				bpf_core_field_offset(struct memcg_vmstats, \
						      field))) == 0)	\
				r_ = 0;					\
		}							\
		r_;							\
	})

static __always_inline void read_arrays(__u64 vs, __s64 (*dst)[MR_ARR_WORDS],
					const __u32 *n, int *ok)
{
	ok[MR_ARR_STATE] = n[MR_ARR_STATE] ?
		READ_ARR(dst[MR_ARR_STATE], state, n[MR_ARR_STATE]) : -1;
	ok[MR_ARR_EVENTS] = n[MR_ARR_EVENTS] ?
		READ_ARR(dst[MR_ARR_EVENTS], events, n[MR_ARR_EVENTS]) : -1;
	ok[MR_ARR_STATE_LOCAL] = n[MR_ARR_STATE_LOCAL] ?
		READ_ARR(dst[MR_ARR_STATE_LOCAL], state_local,
			 n[MR_ARR_STATE_LOCAL]) : -1;
	ok[MR_ARR_EVENTS_LOCAL] = n[MR_ARR_EVENTS_LOCAL] ?
		READ_ARR(dst[MR_ARR_EVENTS_LOCAL], events_local,
			 n[MR_ARR_EVENTS_LOCAL]) : -1;
}

#ifdef MEMCG_KFUNC
#define KF_WANT(slot)	(sels.sel[MR_##slot - MR_FIRST_STAT].arr == MR_SEL_KF && \
			 sels.sel[MR_##slot - MR_FIRST_STAT].n)

/* A slot's value, what the kfunc gave (-1: refused, the slot not had). */
static __always_inline void kf_put(struct memcg_stat *st, __u32 s, __u64 v,
				   __u32 unit)
{
	if (v == (__u64)-1 || !unit)
		return;
	st->v[s - MR_FIRST_STAT] = (__s64)(v / unit);
	st->have |= 1ULL << (s - MR_FIRST_STAT);
}

/* A row's value through the kfuncs (memstat.h: kf, item): sizes in
 * bytes, counts as they are; -1 where refused. */
#define KF_GET_NODE(item)						\
	bpf_mem_cgroup_page_state(m, NODE_ITEM(item))
#define KF_GET_MEMCG(item)						\
	bpf_mem_cgroup_page_state(m, bpf_core_enum_value(		\
		enum memcg_stat_item, item))
#define KF_GET_EVENT(item)						\
	bpf_mem_cgroup_vm_events(m, bpf_core_enum_value(		\
		enum vm_event_item, item))
#define KF_GET_RECLAIM(item)	KF_RECLAIM(item)
#define KF_GET_RSUM(p)							\
	kf_sum4(KF_RECLAIM(p##_KSWAPD), KF_RECLAIM(p##_DIRECT),		\
		KF_RECLAIM(p##_KHUGEPAGED), KF_RECLAIM(p##_PROACTIVE))
/* ... in the slot's unit, the kernel's own (memstat.h: unit). */
#define KF_UNIT_PG	ps
#define KF_UNIT_KB	1024
#define KF_UNIT_B	1
#define KF_UNIT_CNT	1
#define KR_SIZE(X, NAME, v1, v1k, v2, v2k, unit, kf, item, ...)		\
	KR_##kf(NAME, item, unit)
#define KR_COUNT(X, NAME, v1, v1k, v2, v2k, kf, item, ...)			\
	KR_##kf(NAME, item, CNT)
#define KR_OWN(...)
#define KR_ROW(NAME, kf, item, unit)					\
	if (KF_WANT(ST_##NAME))						\
		kf_put(st, MR_ST_##NAME, KF_GET_##kf(item), KF_UNIT_##unit);
#define KR_NODE(NAME, item, unit)	KR_ROW(NAME, NODE, item, unit)
#define KR_MEMCG(NAME, item, unit)	KR_ROW(NAME, MEMCG, item, unit)
#define KR_EVENT(NAME, item, unit)	KR_ROW(NAME, EVENT, item, unit)
#define KR_RECLAIM(NAME, item, unit)	KR_ROW(NAME, RECLAIM, item, unit)
#define KR_RSUM(NAME, item, unit)	KR_ROW(NAME, RSUM, item, unit)
#define KR_NOKF(NAME, item, unit)

/* A reclaim count: -1 where this kernel has it in neither enum. */
#define KF_RECLAIM(name)						\
	(bpf_core_enum_value_exists(enum vm_event_item, name) ?	\
	 bpf_mem_cgroup_vm_events(m, bpf_core_enum_value(		\
		enum vm_event_item, name)) :				\
	 bpf_core_enum_value_exists(enum node_stat_item___reclaim,	\
				    name##___n) ?			\
	 bpf_mem_cgroup_page_state(m, bpf_core_enum_value(		\
		enum node_stat_item___reclaim, name##___n)) :		\
	 (unsigned long)-1)

/* memory.stat's pgscan and pgsteal: the four parts summed, as the kernel
 * sums them; refused if one is. */
static __always_inline __u64 kf_sum4(__u64 a, __u64 b, __u64 c, __u64 d)
{
	if (a == (__u64)-1 || b == (__u64)-1 || c == (__u64)-1 ||
	    d == (__u64)-1)
		return (__u64)-1;
	return a + b + c + d;
}

/*
 * The hierarchical stat slots selected as MR_SEL_KF, through the kernel's
 * kfuncs: each what the group's memory.stat prints (memcg_page_state_
 * output(), memcg_events()), as of the last stats flush.  The walk holds
 * cgroup_mutex: the group cannot go away, and bpf_cgroup_from_id() takes
 * the kernfs id lock only.
 */
static __always_inline void read_kf(struct memcg_stat *st, __u64 id)
{
	struct mem_cgroup *m;
	struct cgroup *cg;
	__u32 ps = cfg.page_size;

	if (!layout.kf)
		return;
	cg = bpf_cgroup_from_id(id);
	if (!cg)
		return;
	m = bpf_get_mem_cgroup(&cg->self);
	if (!m) {
		bpf_cgroup_release(cg);
		return;
	}
	MEMSTATS(_, KR_SIZE, KR_COUNT, KR_OWN)
	bpf_put_mem_cgroup(m);
	bpf_cgroup_release(cg);
}
#endif

/*
 * The group's memory.stat values: the proven words of each stat slot,
 * summed.  The pass's first group gives its arrays whole too, which the
 * loader holds against its memory.stat to prove words.
 */
static __always_inline void read_stats(struct memcg_rec *r,
				       struct mem_cgroup *memcg, __u32 idx)
{
	static const __u32 all[MR_NARR] = {
		MR_ARR_WORDS, MR_ARR_WORDS, MR_ARR_WORDS, MR_ARR_WORDS,
	};
	struct memcg_stat *st;
	__u64 vs = vmstats_of(memcg);
	int ok[MR_NARR];

	if (!vs)
		return;
	if (idx == 0) {
		read_arrays(vs, raw, all, ok);
		raw_id = r->id;
	}
	st = bpf_map_lookup_elem(&stats, &idx);
	if (!st)
		return;
	st->have = 0;
	read_arrays(vs, words, sels.words, ok);
	for (__u32 s = 0; s < MR_NSTAT; s++) {
		const struct memcg_sel *sel = &sels.sel[s];
		__u32 a = sel->arr & (MR_NARR - 1);
		__s64 sum = 0;

		if (!sel->n || sel->arr == MR_SEL_KF || ok[a])
			continue;
		for (__u32 k = 0; k < MR_SEL_WORDS; k++)
			if (k < sel->n)
				sum += words[a][sel->idx[k] & (MR_ARR_WORDS - 1)];
		st->v[s] = sum;
		st->have |= 1ULL << s;
	}
#ifdef MEMCG_KFUNC
	read_kf(st, r->id);
#endif
}

/* A node's lru_zone_size and lrugen.nr_pages, read whole (not on the
 * stack), and where the walk found the lists (MR_NODE_*, memcg_rec.h):
 * the loader clears it before a pass. */
#define NODE_WORDS	64
__u64 zone_buf[NODE_WORDS];
__s64 gen_buf[NODE_WORDS];
__u32 node_src;

/*
 * lrugen.nr_pages of a node ([gen][type][zone], in gen_buf) into sum
 * (enum mr_lru): a type's youngest two generations (max_seq and the one
 * before, modulo the generations) on its active list, the others on its
 * inactive one, as lru_gen_is_active() counts them.
 */
static __always_inline void sum_gens(__s64 *sum, __u32 gens, __u32 zones,
				     __u64 seq)
{
	__u32 young = seq % gens, older = (seq - 1) % gens;

	for (__u32 i = 0; i < NODE_WORDS; i++) {
		__u32 g = i / (2 * zones), t = i / zones % 2;

		if (g >= gens)
			break;
		sum[(t * 2 + (g == young || g == older)) & 3] += gen_buf[i];
	}
}

/* The node's lists with its descendants' (memcg_stat.hnode), of the
 * mem_cgroup_per_node at pn. */
static __always_inline void read_hier(struct memcg_stat *st, __u64 pn,
				      __u32 nid)
{
	__u64 at = 0;

	if (nid >= MR_NODES)
		return;
	if (bpf_core_field_exists(struct mem_cgroup_per_node___ptr,
				  lruvec_stats))
		at = (__u64)BPF_CORE_READ(
			(struct mem_cgroup_per_node___ptr *)pn, lruvec_stats);
	else if (bpf_core_field_exists(struct mem_cgroup_per_node___emb,
				       lruvec_stats))
		at = pn + bpf_core_field_offset(
			struct mem_cgroup_per_node___emb, lruvec_stats);
	if (!at || !bpf_core_field_exists(struct lruvec_stats, state) ||
	    bpf_core_field_size(struct lruvec_stats, state) < 8 * MR_NLRU ||
	    bpf_probe_read_kernel(st->hnode[nid], 8 * MR_NLRU, (void *)(at +
		bpf_core_field_offset(struct lruvec_stats, state)))) {
		node_src |= MR_NODE_NO_HIER;
		__builtin_memset(st->hnode[nid], 0, sizeof(st->hnode[nid]));
	}
}

/*
 * The group's own LRU lists per node (memcg_rec.h: struct memcg_stat's
 * node): nodeinfo[nid] for each node id the kernel has, at most
 * MR_NODES.  Every node's lists or none (ST_NODES not in have).
 */
static __always_inline void read_nodes(struct mem_cgroup *memcg, __u32 idx)
{
	struct mem_cgroup_per_node *pn = 0;
	struct memcg_stat *st;
	__u32 zones, zsize, gens = 0, gsize = 0, n = 0, src = 0;
	__u64 base;

	/* A constant to the verifier: without room in the map's values,
	 * the code below is not loaded. */
	if (!cfg.stat_nodes)
		return;
	st = bpf_map_lookup_elem(&stats, &idx);
	if (!st)
		return;
	st->have &= ~MS_BIT(ST_NODES);
	if (!bpf_core_field_exists(memcg->nodeinfo) ||
	    !bpf_core_field_exists(pn->lru_zone_size) ||
	    !bpf_core_enum_value_exists(enum lru_list, NR_LRU_LISTS) ||
	    bpf_core_enum_value(enum lru_list, NR_LRU_LISTS) != MR_NLRU) {
		node_src |= MR_NODE_NONE;
		return;
	}
	zsize = bpf_core_field_size(pn->lru_zone_size);
	zones = zsize / (8 * MR_NLRU);
	if (zones == 0 || zsize > sizeof(zone_buf)) {
		node_src |= MR_NODE_NONE;
		return;
	}
	if (bpf_core_field_exists(pn->lruvec.lrugen.nr_pages) &&
	    bpf_core_field_exists(pn->lruvec.lrugen.enabled) &&
	    bpf_core_field_exists(pn->lruvec.lrugen.max_seq)) {
		gsize = bpf_core_field_size(pn->lruvec.lrugen.nr_pages);
		gens = gsize / (8 * 2 * zones);
		if (gsize > sizeof(gen_buf) || gens == 0)
			gens = 0;
	}
	base = (__u64)memcg +
		bpf_core_field_offset(struct mem_cgroup, nodeinfo);
	for (__u32 nid = 0; nid < MR_NODES; nid++) {
		__s64 sum[MR_NLRU] = {};
		__u64 p = 0;

		if (nid >= cfg.nodes)
			break;
		if (bpf_probe_read_kernel(&p, sizeof(p),
					  (void *)(base + nid * 8)) || !p) {
			node_src |= MR_NODE_NONE;
			return;
		}
		pn = (struct mem_cgroup_per_node *)p;
		if (bpf_probe_read_kernel(zone_buf, zsize, (void *)(p +
		    bpf_core_field_offset(struct mem_cgroup_per_node,
					  lru_zone_size)))) {
			node_src |= MR_NODE_NONE;
			return;
		}
		for (__u32 z = 0; z < 8; z++) {
			if (z >= zones)
				break;
			for (__u32 l = 0; l < MR_NLRU; l++)
				sum[l] += zone_buf[(z * MR_NLRU + l) &
						   (NODE_WORDS - 1)];
		}
		if (gens && BPF_CORE_READ(pn, lruvec.lrugen.enabled)) {
			if (bpf_probe_read_kernel(gen_buf, gsize, (void *)(p +
			    bpf_core_field_offset(struct mem_cgroup_per_node,
						  lruvec.lrugen.nr_pages)))) {
				node_src |= MR_NODE_NONE;
				return;
			}
			/* The lists come from the generations, but for the
			 * unevictable one: classic lists hold nothing. */
			for (__u32 l = 0; l < MR_LRU_UNEVICTABLE; l++)
				sum[l] = 0;
			sum_gens(sum, gens, zones,
				 BPF_CORE_READ(pn, lruvec.lrugen.max_seq));
			src |= MR_NODE_LRUGEN;
		} else {
			src |= MR_NODE_ZONE_SIZE;
		}
		for (__u32 l = 0; l < MR_NLRU; l++)
			st->node[nid][l] = sum[l];
		read_hier(st, p, nid);
		n++;
	}
	node_src |= src;
	st->v[MR_ST_NODES - MR_FIRST_STAT] = n;
	st->have |= MS_BIT(ST_NODES);
}

/*
 * The group's stat updates not yet flushed, as the kernel counts them for
 * its flush threshold (memcg_vmstats_needs_flush): each CPU adds its own
 * count here, to the group and its ancestors, once it reaches 64 (the
 * CPUs' counts below that are not in it).  Linux 6.8+; before, the
 * kernel kept one count for the whole host.
 */
static __always_inline void read_pending(struct memcg_rec *r,
					 struct mem_cgroup *memcg)
{
	__u64 vs = vmstats_of(memcg), v = 0;
	__u32 size;

	if (!vs || !bpf_core_field_exists(struct memcg_vmstats, stats_updates))
		return;
	size = bpf_core_field_size(struct memcg_vmstats, stats_updates);
	if (size != 4 && size != 8)
		return;
	if (bpf_probe_read_kernel(&v, size & 12, (void *)(vs +
	    bpf_core_field_offset(struct memcg_vmstats, stats_updates))))
		return;
	/* an atomic_t: a signed int */
	if (size == 4)
		v = (__u64)(__s64)(__s32)v;
	put(r, MR_STATS_PENDING, (__s64)v < 0 ? 0 : v);
}

/*
 * v1's soft-limit tree: for each node (at most MR_NODES), the excess the
 * node's tree orders the group by, where it is on that tree; none under
 * the multi-gen LRU.  The kernel
 * updates both at most every 1,024 page events of the group
 * (memcg1_check_events), under the tree's lock this read does not take:
 * a group being moved reads as it was or as it is.
 */
static __always_inline void read_soft(struct memcg_rec *r,
				      struct mem_cgroup *memcg)
{
	struct mem_cgroup_per_node *pn = 0;
	__u64 base;

	if (!bpf_core_field_exists(memcg->nodeinfo) ||
	    !bpf_core_field_exists(pn->usage_in_excess) ||
	    !bpf_core_field_exists(pn->on_tree))
		return;
	base = (__u64)memcg +
		bpf_core_field_offset(struct mem_cgroup, nodeinfo);
	for (__u32 nid = 0; nid < MR_NODES; nid++) {
		__u64 p = 0;

		if (nid >= cfg.nodes)
			break;
		if (bpf_probe_read_kernel(&p, sizeof(p),
					  (void *)(base + nid * 8)) || !p)
			return;
		pn = (struct mem_cgroup_per_node *)p;
		/* The multi-gen LRU keeps no tree (memcg1_update_tree
		 * returns before it): nothing, rather than a stale 0. */
		if (bpf_core_field_exists(pn->lruvec.lrugen.enabled) &&
		    BPF_CORE_READ(pn, lruvec.lrugen.enabled))
			return;
		put(r, MR_SOFT_NODE0 + nid, BPF_CORE_READ(pn, on_tree) ?
		    BPF_CORE_READ(pn, usage_in_excess) : 0);
	}
}

/*
 * Group idx of the pass, the cgroup at address cg at level, into its
 * record.  Every field is read with bpf_probe_read_kernel
 * (BPF_CORE_READ): the walk's pointers are numbers to the verifier.  The
 * record has no parent: it is the group before at the level above, in
 * pre-order.
 *
 * A global function: the verifier checks it once, on its own, with
 * unknown arguments.  Inlined in the walk's step, it was checked again
 * for each state of the walk that reaches it, and Linux 6.18.44 gave up
 * at its million instructions (E2BIG); on its own it takes about 20,000.
 */
__attribute__((noinline)) int record(__u64 cg, __u32 level, __u32 idx,
				     __u32 ssid)
{
	struct cgroup *cgrp = CG(cg);
	struct cgroup_subsys_state *css;
	struct kernfs_node *kn;
	struct mem_cgroup *memcg;
	struct memcg_rec *r;
	__u64 w = want, ws = want_stat;

	r = bpf_map_lookup_elem(&recs, &idx);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	kn = BPF_CORE_READ(cgrp, kn);
	r->id = BPF_CORE_READ(kn, id);
	r->level = level;
	read_name(r, BPF_CORE_READ(kn, name));
	/*
	 * No task in the group: its cgroup.procs is empty (v1's lists the
	 * tasks on the tasks and mg_tasks lists of the css_sets that link
	 * it, exactly those that make a css_set populated).  v2 also lists
	 * a dying leader whose live threads are in another cgroup of a
	 * threaded subtree: there only for a domain cgroup without
	 * threaded children, whose processes are whole in it.
	 */
	if ((w & MR_BIT(POPULATED)) &&
	    bpf_core_field_exists(cgrp->nr_populated_csets) &&
	    (!cfg.v2 || (bpf_core_field_exists(cgrp->dom_cgrp) &&
			 bpf_core_field_exists(cgrp->nr_threaded_children) &&
			 BPF_CORE_READ(cgrp, dom_cgrp) == cgrp &&
			 BPF_CORE_READ(cgrp, nr_threaded_children) == 0)))
		put(r, MR_POPULATED, (__u64)BPF_CORE_READ(cgrp,
							  nr_populated_csets));
	/* NULL where the controller is not enabled (v2): a group without
	 * memory files, shown as the directory walk shows it. */
	css = BPF_CORE_READ(cgrp, subsys[ssid]);
	if (!css)
		return 0;
	r->flags |= MR_MEMCG;
	memcg = (void *)css - bpf_core_field_offset(struct mem_cgroup, css);

	if (read_counter(&memcg->memory) == 0) {
		put(r, MR_USAGE, PC_FIELD(usage));
		put(r, MR_MAX, PC_FIELD(max));
		put(r, MR_PEAK, PC_FIELD(watermark));
		/* page_counter.high: 5.8+ (memory.high was in struct
		 * mem_cgroup); min and low: the v2 protections. */
		if (cfg.v2 && bpf_core_field_exists(memcg->memory.high))
			put(r, MR_HIGH, PC_FIELD(high));
		if (cfg.v2 && bpf_core_field_exists(memcg->memory.min)) {
			put(r, MR_MIN, PC_FIELD(min));
			put(r, MR_LOW, PC_FIELD(low));
		}
		/* Not the root's: reclaim computes no protection of it. */
		if (cfg.v2 && level > 0 &&
		    (w & (MR_BIT(EMIN) | MR_BIT(ELOW))) &&
		    bpf_core_field_exists(memcg->memory.emin) &&
		    bpf_core_field_exists(memcg->memory.elow)) {
			put(r, MR_EMIN, PC_FIELD(emin));
			put(r, MR_ELOW, PC_FIELD(elow));
		}
		/*
		 * v1 memory.failcnt shows the field as it is.  Since 6.12 it
		 * counts only where track_failcnt is set (v1 groups; not the
		 * root, whose file stays 0); v2 has no file.
		 */
		if (!cfg.v2)
			put(r, MR_FAILCNT, PC_FIELD(failcnt));
	}
	/* swap (v2) and memsw (v1) share a union since 5.x: the whole
	 * counter for its limit, high or peak, else one cache line of its
	 * three for the usage alone. */
	if (w & (MR_BIT(SWAP_MAX) | MR_BIT(SWAP_HIGH) | MR_BIT(SWAP_PEAK))) {
		struct page_counter *pc = 0;

		if (bpf_core_field_exists(memcg->memsw))
			pc = &memcg->memsw;
		else if (bpf_core_field_exists(memcg->swap))
			pc = &memcg->swap;
		if (pc && read_counter(pc) == 0) {
			put(r, MR_SWAP_USAGE, PC_FIELD(usage));
			put(r, MR_SWAP_MAX, PC_FIELD(max));
			put(r, MR_SWAP_PEAK, PC_FIELD(watermark));
			if (cfg.v2 && bpf_core_field_exists(memcg->memory.high))
				put(r, MR_SWAP_HIGH, PC_FIELD(high));
		}
	} else if (w & MR_BIT(SWAP_USAGE)) {
		if (bpf_core_field_exists(memcg->memsw))
			put(r, MR_SWAP_USAGE,
			    BPF_CORE_READ(memcg, memsw.usage.counter));
		else if (bpf_core_field_exists(memcg->swap))
			put(r, MR_SWAP_USAGE,
			    BPF_CORE_READ(memcg, swap.usage.counter));
	}
	if (ws)
		read_stats(r, memcg, idx);
	if (w & MR_BIT(STATS_PENDING))
		read_pending(r, memcg);
	if (ws & MS_BIT(ST_NODES))
		read_nodes(memcg, idx);
	/* Each hierarchy's own files only: every read is a helper call. */
	if (cfg.v2) {
		if ((w & MR_BIT(OOM_GROUP)) &&
		    bpf_core_field_exists(memcg->oom_group))
			put(r, MR_OOM_GROUP, BPF_CORE_READ(memcg, oom_group));
		if (w & MR_EVENTS)
			read_events(r, memcg);
		return 0;
	}
	/* v1 memory.oom_control's oom_kill is memory_events[] as it is
	 * (v1 counts each event in the group alone). */
	if (w & MR_BIT(EV_OOM_KILL)) {
		read_events(r, memcg);
		r->have &= ~(MR_EVENTS & ~MR_BIT(EV_OOM_KILL));
	}
	if ((w & MR_BIT(KMEM)) && bpf_core_field_exists(memcg->kmem))
		put(r, MR_KMEM, BPF_CORE_READ(memcg, kmem.usage.counter));
	if ((w & MR_BIT(SOFT)) && bpf_core_field_exists(memcg->soft_limit))
		put(r, MR_SOFT, BPF_CORE_READ(memcg, soft_limit));
	if (w & MR_SOFT_NODES)
		read_soft(r, memcg);
	if ((w & MR_BIT(SWAPPINESS)) &&
	    bpf_core_field_exists(memcg->swappiness))
		put(r, MR_SWAPPINESS, BPF_CORE_READ(memcg, swappiness));
	return 0;
}

/*
 * The tree's lists, as the kernel's css_next_child() reads them: a
 * group's self css is on its parent's self.children through its
 * self.sibling, in the order the groups were made.  A cgroup is its self
 * css (at offset 0 on every kernel, taken from BTF all the same).
 */
static __always_inline __u64 of_sibling(__u64 node)
{
	return node - bpf_core_field_offset(struct cgroup_subsys_state, sibling) -
	       bpf_core_field_offset(struct cgroup, self);
}

static __always_inline __u64 children_head(__u64 cg)
{
	return cg + bpf_core_field_offset(struct cgroup, self) +
	       bpf_core_field_offset(struct cgroup_subsys_state, children);
}

static __always_inline __u64 first_child(__u64 cg)
{
	__u64 next = (__u64)BPF_CORE_READ(CG(cg), self.children.next);

	return !next || next == children_head(cg) ? 0 : of_sibling(next);
}

static __always_inline __u64 parent_of(__u64 cg)
{
	__u64 css = (__u64)BPF_CORE_READ(CG(cg), self.parent);

	return css ? css - bpf_core_field_offset(struct cgroup, self) : 0;
}

/* The next sibling of cg, a child of parent; 0 after the last. */
static __always_inline __u64 next_sibling(__u64 cg, __u64 parent)
{
	__u64 next = (__u64)BPF_CORE_READ(CG(cg), self.sibling.next);

	return !next || next == children_head(parent) ? 0 : of_sibling(next);
}

/* Where the walk stops: cg and its ancestors up to the start group. */
static __always_inline void save_chain(__u64 cg, __u32 level)
{
	__u32 i;

	for (i = 0; i < MR_CHAIN; i++) {
		if (!cg)
			break;
		sum.chain[i].id = BPF_CORE_READ(CG(cg), kn, id);
		sum.chain[i].serial = BPF_CORE_READ(CG(cg), self.serial_nr);
		if (level <= chunk.start_level) {
			i++;
			break;
		}
		cg = parent_of(cg);
		level--;
	}
	sum.chain_len = i;
}

/* A visit: the group at w_pos counted, and recorded if there is room;
 * returns 1 when the budget ends the walk after it. */
static __always_inline int visit(__u32 ssid)
{
	__u32 flags = BPF_CORE_READ(CG(w_pos), self.flags);
	__u32 idx;

	/*
	 * rmdir clears CSS_ONLINE under cgroup_mutex, which the walk holds,
	 * as it removes the directory; the css stays on its parent's list
	 * until it is released.  A group whose directory is gone is not
	 * shown, and has no live groups below it.
	 */
	if (!(flags & CSS_ONLINE)) {
		w_mode = W_SIDE;
		return 0;
	}
	w_mode = W_DOWN;
	idx = n_groups++;
	n_counted++;
	if (idx < cfg.rec_cap)
		record(w_pos, w_level, idx, ssid);
	if (chunk.self_only) {
		w_mode = W_END;
		return 1;
	}
	/* At least one group a chunk: the budget is looked at after it. */
	if (!deadline || bpf_ktime_get_ns() < deadline)
		return 0;
	save_chain(w_pos, w_level);
	stopped = 1;
	return 1;
}

static long step(__u32 i, void *ctx)
{
	__u32 ssid = *(__u32 *)ctx;
	__u64 up, next;

	(void)i;
	w_steps++;
	switch (w_mode) {
	case W_VISIT:
		return visit(ssid);
	case W_DOWN:
		next = first_child(w_pos);
		if (next) {
			w_pos = next;
			w_level++;
			w_mode = W_VISIT;
		} else {
			w_mode = W_SIDE;
		}
		return 0;
	case W_SEEK:
		if (BPF_CORE_READ(CG(w_pos), self.serial_nr) > chunk.floor) {
			w_mode = W_VISIT;
			return 0;
		}
		break;
	case W_SIDE:
		if (w_level <= chunk.start_level) {
			w_mode = W_END;
			return 1;
		}
		break;
	default:
		return 1;
	}
	/* W_SEEK and W_SIDE: on to the next sibling, or up a level. */
	up = parent_of(w_pos);
	next = next_sibling(w_pos, up);
	if (next) {
		w_pos = next;
		if (w_mode == W_SIDE)
			w_mode = W_VISIT;
	} else {
		w_pos = up;
		w_level--;
		w_mode = W_SIDE;
	}
	return 0;
}

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
