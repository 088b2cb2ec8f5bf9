/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_nodes.bpf.h - the BPF collector's values per NUMA node: a group's
 * LRU lists (own and hierarchical, classic or multi-gen) and v1's
 * soft-limit tree.
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_NODES_BPF_H
#define MEMCGTOP_ITER_NODES_BPF_H

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

#endif
