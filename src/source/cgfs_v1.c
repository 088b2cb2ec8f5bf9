/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_v1.c - cgroup v1's descriptor: its control files in the order a
 * group's are read, its root's, what it makes of several files, the
 * detail pane's files and its NUMA views. */
#include <stdint.h>

#include "cgfs_version.h"

static const struct vfile v1_files[] = {
	{ CF_MEMSW, "memory.memsw.usage_in_bytes", FK_VALUE },
	{ CF_USAGE, "memory.usage_in_bytes", FK_VALUE },
	{ CF_KMEM, "memory.kmem.usage_in_bytes", FK_VALUE },
	{ CF_LIMIT, "memory.limit_in_bytes", FK_VALUE },
	{ CF_SOFT, "memory.soft_limit_in_bytes", FK_VALUE },
	{ CF_PEAK, "memory.max_usage_in_bytes", FK_VALUE },
	{ CF_SWAPPINESS, "memory.swappiness", FK_VALUE },
	{ CF_FAILCNT, "memory.failcnt", FK_VALUE },
	{ CF_STAT, "memory.stat", FK_KEYS },
	{ CF_NUMA, "memory.numa_stat", FK_NUMA },
	{ CF_OOMCTL, "memory.oom_control", FK_KEYS },
	{ CF_PROCS, "cgroup.procs", FK_PROCS },
	{ CF_RECEV, CGFS_RECEV_FILE, FK_KEYS },
};

static const struct vextra v1_extras[] = {
	{ CF_STAT, "total_swap", X_STAT_SWAP },
};

/* The kernel makes the v1 root's usage from the global file and anon page
 * counts, leaving out the kernel memory it charges to the groups below;
 * the root's kmem counter holds all of that (see v1_finish). */
static unsigned v1_root_files(unsigned files)
{
	if (files & (CFBIT(CF_USAGE) | CFBIT(CF_MEMSW)))
		files |= CFBIT(CF_KMEM);
	return files;
}

static void v1_finish(struct gread *g)
{
	int has_memsw = gr_has(g, FLD_USAGE_SWAP);

	/* Read back to back with the usage: their difference is swap, at
	 * most what the host has (see cgfs_want.swap_ceiling). */
	if (has_memsw && gr_has(g, FLD_USAGE)) {
		uint64_t memsw = gr_get(g, FLD_USAGE_SWAP);
		uint64_t usage = gr_get(g, FLD_USAGE);
		uint64_t swap = memsw > usage ? memsw - usage : 0;

		gr_set(g, FLD_SWAP, swap < g->w->swap_ceiling ? swap :
		    g->w->swap_ceiling);
	}
	if ((g->files & CFBIT(CF_MEMSW)) && !has_memsw) {
		/* Without swap accounting there is no memsw file;
		 * memory.stat's total_swap is then the figure (absent too
		 * when swap accounting is off entirely).  The stat is read
		 * for it only then: it costs the kernel more than three
		 * value files. */
		cgfs_gread_file(g, CF_STAT);
		if (g->has_extra & (1u << X_STAT_SWAP))
			gr_set(g, FLD_SWAP, g->extra[X_STAT_SWAP]);
	}
	if (g->src->is_root && gr_has(g, FLD_KERNEL)) {
		/* With the kmem counter the root is not smaller than its
		 * children; without the file the kernel's figures stay.
		 * Like its usage, the root's memsw leaves that out. */
		if (gr_has(g, FLD_USAGE))
			gr_set(g, FLD_USAGE, gr_get(g, FLD_USAGE) +
			    gr_get(g, FLD_KERNEL));
		if (has_memsw)
			gr_set(g, FLD_USAGE_SWAP, gr_get(g, FLD_USAGE_SWAP) +
			    gr_get(g, FLD_KERNEL));
	}
}

static const char *const v1_detail[] = {
	"memory.usage_in_bytes", "memory.max_usage_in_bytes",
	"memory.limit_in_bytes", "memory.soft_limit_in_bytes",
	"memory.memsw.usage_in_bytes", "memory.memsw.limit_in_bytes",
	"memory.kmem.usage_in_bytes", "memory.swappiness", "memory.failcnt",
	"memory.use_hierarchy", "memory.oom_control", "memory.stat",
	"memory.numa_stat", NULL
};

/* v1 memory.numa_stat counts pages: its hierarchical lists as total_*
 * elsewhere, then the group's own (JSON); the group's own, then the
 * hierarchical ones (the pane). */
static const char *const v1_numa_json_keys[] = {
	"hierarchical_anon", "hierarchical_file", "hierarchical_unevictable",
	"anon", "file", "unevictable",
};
static const char *const v1_numa_json_names[] = {
	"anon", "file", "unevictable", "own_anon", "own_file",
	"own_unevictable",
};
static const char *const v1_numa_pane_keys[] = {
	"anon", "file", "unevictable", "hierarchical_anon",
	"hierarchical_file", "hierarchical_unevictable",
};
static const char *const v1_numa_pane_titles[] = {
	"ANON", "FILE", "UNEVIC", "H-ANON", "H-FILE", "H-UNEV",
};

const struct cgfs_version cgfs_v1_row = {
	.n = 1, .files = v1_files, .nfiles = CGFS_NELEM(v1_files),
	.extras = v1_extras, .nextras = CGFS_NELEM(v1_extras),
	.root_files = v1_root_files, .finish = v1_finish,
	.detail = v1_detail, .version_file = "memory.limit_in_bytes",
	.renames = 1,
	.numa = {
		{ v1_numa_json_keys, v1_numa_json_names,
		  CGFS_NELEM(v1_numa_json_keys), 1, "", 0, 0 },
		{ v1_numa_pane_keys, v1_numa_pane_titles,
		  CGFS_NELEM(v1_numa_pane_keys), 1,
		  " (the group's own, then H-: with its descendants)",
		  0, 0 },
	},
};
