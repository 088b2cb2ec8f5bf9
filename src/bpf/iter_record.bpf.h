/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_record.bpf.h - one group of the BPF collector's pass into its
 * record: its id, level and name, then what each part reads of it.
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_RECORD_BPF_H
#define MEMCGTOP_ITER_RECORD_BPF_H

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

	read_memory(r, memcg, w, level);
	read_swap(r, memcg, w);
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

#endif
