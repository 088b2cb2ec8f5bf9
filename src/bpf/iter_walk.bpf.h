/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_walk.bpf.h - the BPF collector's walk of the tree's lists, one
 * step per bpf_loop round, from where the chunk before stopped.
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_WALK_BPF_H
#define MEMCGTOP_ITER_WALK_BPF_H

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

#endif
