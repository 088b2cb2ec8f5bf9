/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_stat.bpf.h - the BPF collector's memory.stat items from the words
 * of memcg->vmstats (node and memcg stat items, vm events): the layout
 * CO-RE resolved, the arrays read, each slot's proven words summed, and
 * the updates not yet flushed.
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_STAT_BPF_H
#define MEMCGTOP_ITER_STAT_BPF_H

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

#endif
