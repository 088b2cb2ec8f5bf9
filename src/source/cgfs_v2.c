/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_v2.c - cgroup v2's descriptor: its control files in the order a
 * group's are read, its root's, what it makes of several files, the
 * detail pane's files and its NUMA views. */
#include <stdint.h>

#include "cgfs_version.h"

static const struct vfile v2_files[] = {
	{ CF_USAGE, "memory.current", FK_VALUE },
	{ CF_LIMIT, "memory.max", FK_VALUE },
	{ CF_HIGH, "memory.high", FK_VALUE },
	{ CF_LOW, "memory.low", FK_VALUE },
	{ CF_MIN, "memory.min", FK_VALUE },
	{ CF_SWAPCUR, "memory.swap.current", FK_VALUE },
	{ CF_SWAPMAX, "memory.swap.max", FK_VALUE },
	{ CF_PEAK, "memory.peak", FK_VALUE },
	{ CF_SWAPPEAK, "memory.swap.peak", FK_VALUE },
	{ CF_ZSWAP, "memory.zswap.current", FK_VALUE },
	{ CF_STAT, "memory.stat", FK_KEYS },
	{ CF_NUMA, "memory.numa_stat", FK_NUMA },
	{ CF_EVENTS_LOCAL, "memory.events.local", FK_KEYS },
	{ CF_SWAPEVENTS, "memory.swap.events", FK_KEYS },
	{ CF_CGSTAT, "cgroup.stat", FK_KEYS },
	{ CF_EVENTS, "memory.events", FK_KEYS },
	{ CF_PRESSURE, "memory.pressure", FK_PSI },
	{ CF_PROCS, "cgroup.procs", FK_PROCS },
	{ CF_RECEV, CGFS_RECEV_FILE, FK_KEYS },
};


/* The v2 root has only memory.stat, memory.pressure, memory.numa_stat and
 * memory.reclaim (6.1), and the cgroup files: its usage comes from
 * memory.stat (see v2_finish), its limits are not applicable. */
static unsigned v2_root_files(unsigned files)
{
	if (files & CFBIT(CF_USAGE))
		files |= CFBIT(CF_STAT);
	return files & (CFBIT(CF_STAT) | CFBIT(CF_PRESSURE) | CFBIT(CF_PROCS) |
			CFBIT(CF_CGSTAT) | CFBIT(CF_NUMA) | CFBIT(CF_RECEV));
}

static void v2_finish(struct gread *g)
{
	if (gr_has(g, FLD_SWAP) && gr_has(g, FLD_SWAP_LIMIT)) {
		uint64_t lim = gr_get(g, FLD_SWAP_LIMIT);
		uint64_t swap = gr_get(g, FLD_SWAP);

		gr_set(g, FLD_SWAP_ROOM, lim == VAL_MAX ? VAL_MAX :
		    lim > swap ? lim - swap : 0);
	}
	if (gr_has(g, FLD_USAGE) && gr_has(g, FLD_SWAP))
		gr_set(g, FLD_USAGE_SWAP,
		       gr_get(g, FLD_USAGE) + gr_get(g, FLD_SWAP));
	if (g->src->is_root && (g->want & CFBIT(CF_USAGE)) &&
	    (g->tried & CFBIT(CF_STAT))) {
		/* The v2 root's usage: anon + file + kernel + sock. */
		g->s.valid &= ~FBIT(FLD_USAGE);
		if (gr_has(g, FLD_ANON) && gr_has(g, FLD_FILE) &&
		    gr_has(g, FLD_KERNEL) && gr_has(g, FLD_SOCK))
			gr_set(g, FLD_USAGE, gr_get(g, FLD_ANON) +
			       gr_get(g, FLD_FILE) + gr_get(g, FLD_KERNEL) +
			       gr_get(g, FLD_SOCK));
	}
}

static const char *const v2_detail[] = {
	"memory.current", "memory.peak", "memory.max", "memory.high",
	"memory.low", "memory.min", "memory.swap.current", "memory.swap.max",
	"memory.swap.high", "memory.zswap.current", "memory.zswap.max",
	"memory.oom.group", "memory.events", "memory.events.local",
	"memory.pressure", "memory.stat", "memory.numa_stat", NULL
};

/*
 * v2 memory.numa_stat is in bytes, its lists hierarchical; the group's
 * own lists (own_*) are the BPF pass's (cgfs_pass.c), which the kernel's
 * file lacks.  JSON's anon and file are the lists' sums (as v1's are),
 * not the file's anon and file lines (mapped anon, the page cache).
 */
static const char *const v2_numa_json_keys[] = {
	"active_anon", "inactive_anon", "active_file", "inactive_file",
	"unevictable", "active_anon", "inactive_anon", "active_file",
	"inactive_file", "own_active_anon", "own_inactive_anon",
	"own_active_file", "own_inactive_file", "own_unevictable",
};
static const char *const v2_numa_json_names[] = {
	"anon", "file", "unevictable", "active_anon", "inactive_anon",
	"active_file", "inactive_file", "own_active_anon", "own_inactive_anon",
	"own_active_file", "own_inactive_file", "own_unevictable",
};
static const char *const v2_numa_pane_keys[] = {
	"active_anon", "inactive_anon", "active_file", "inactive_file",
	"unevictable", "own_active_anon", "own_inactive_anon",
	"own_active_file", "own_inactive_file", "own_unevictable",
};
static const char *const v2_numa_pane_titles[] = {
	"A-ANON", "I-ANON", "A-FILE", "I-FILE", "UNEVIC",
	"A-ANON", "I-ANON", "A-FILE", "I-FILE", "UNEVIC",
};

const struct cgfs_version cgfs_v2_row = {
	.n = 2, .files = v2_files, .nfiles = CGFS_NELEM(v2_files),
	.extras = NULL, .nextras = 0,
	.root_files = v2_root_files, .finish = v2_finish,
	.detail = v2_detail, .version_file = "cgroup.controllers",
	.numa = {
		{ v2_numa_json_keys, v2_numa_json_names,
		  CGFS_NELEM(v2_numa_json_keys), 0, "", 1, 0 },
		{ v2_numa_pane_keys, v2_numa_pane_titles,
		  CGFS_NELEM(v2_numa_pane_keys), 0, " (with descendants)",
		  0, 5 },
	},
};
