/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_kfunc.bpf.h - the BPF collector's memory.stat items through the
 * kernel's memcg kfuncs (memcg_iter_kf only, Linux 7.0+): which rows of
 * memstat.h this kernel's enums have, and their values.
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_KFUNC_BPF_H
#define MEMCGTOP_ITER_KFUNC_BPF_H

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

#endif
