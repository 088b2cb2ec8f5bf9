/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model.h - the tree of groups across refreshes, deltas and derived fields.
 *
 * Pure functions over samples: no I/O, no curses.  Groups are keyed by path;
 * a group keeps its record (and so its previous sample) for as long as
 * consecutive refreshes see it.
 */
#ifndef MEMCGTOP_MODEL_H
#define MEMCGTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "cgfs.h"
#include "oomlog.h"
#include "sample.h"

struct rs_track;

enum derived {
	D_EXCESS,
	D_EFF_LIMIT,
	D_USE_PCT,
	D_RECLAIM_EFF,
	D_WORKINGSET,
	D_SCAN_PRIO,
	D_EFF_MIN,
	D_EFF_LOW,
	D_FAILCNT_TREE,
	D_FAILCNT_TREE_RATE,
	D_REC_LIMIT,
	D_REC_HIGH,
	D_REC_LOW,
	D_NR
};

/* One a group, with its path: at 32,768 groups every byte here is 32 KiB
 * (the fields are ordered so that there is no hole). */
struct mgroup {
	size_t path_len;
	uint64_t hash;		/* hash_path of path: its slot in model.table */
	const char *name;	/* last component of path ("/" for the root) */
	int depth;		/* components below the hierarchy root */
	int parent;		/* index in model.groups, -1 for the start */
	uint64_t ino;		/* its directory's inode, 0: not known */
	unsigned gen;		/* the refresh that last saw it */
	unsigned view;		/* the console's state of it: VIEW_* */
	/* Each in the slots it was read with (sample.h); prev keeps only
	 * counters.  Their values and the rates are one allocation, buf. */
	struct sample cur, prev;
	double *rate;		/* per second over the last interval: the
				 * counters of cur.slots, packed (mgroup_rate) */
	fieldset rate_valid;	/* FBIT(field) */
	void *buf;
	uint64_t excess, eff_limit;
	/* Effective protection (v2), bytes; what its children claim of
	 * their parent's, min(usage, setting) summed, in pages. */
	uint64_t eff_min, eff_low;
	uint64_t kid_min, kid_low;
	int kid_prot_ok;
	/* v1 failcnt of the group and its descendants, and its rate: the
	 * members' rates that are known, summed */
	uint64_t failcnt_tree;
	double failcnt_tree_rate;
	int tree_ok;
	double use_pct, reclaim_eff;
	uint64_t chain_limit;	/* smallest limit on the path (v2) */
	uint64_t workingset;
	unsigned derived_valid;	/* 1u << D_* */
	int scan_prio;
	int has_prev;		/* seen by the previous refresh too */
	/* scan_prio's working state: the children's LRU lists (active anon,
	 * inactive anon, active file, inactive file) summed, whether every
	 * child had them, and whether swap can take the group's pages. */
	int kid_lru_ok, swap_ok;
	uint64_t kid_lru[4];
	/* Its right-size window (rightsize.h), once it had a need. */
	struct rs_track *rs;
	char path[];		/* NUL-terminated, in the same allocation */
};

/* Kept with the group across refreshes for the interactive console. */
#define VIEW_FOLDED 1u
#define VIEW_TAGGED 2u
/* An OOM kill in the group not yet seen (the console's OOM pane, or its
 * key to clear the marks): the name stays marked until then. */
#define VIEW_OOM 4u

/*
 * What the source is and says, as the last refresh (or pipeline_init) saw
 * it: the front ends read this, never the source (model_source.c fills
 * it).  The strings are the source's, good while it is open.
 */
enum model_events {
	MEV_NONE,		/* a copy, a recording, or --record */
	MEV_IDLE,		/* not wanted: nothing loaded */
	MEV_ON,			/* loaded and counting */
	MEV_FAILED,		/* could not be loaded: see events_text */
};

/* What field f is read from on this hierarchy (model_source.files[f]):
 * the control files of a group below the root (name, n) and of the root
 * (root_name, root_n; root_lacks: the v2 root has none of them), and the
 * one file and key that give it where one does (file NULL: none; key
 * NULL: the whole file). */
#define MODEL_FIELD_FILES 4
struct model_field_files {
	const char *name[MODEL_FIELD_FILES];
	const char *root_name[MODEL_FIELD_FILES];
	const char *file, *key;
	unsigned char n, root_n, root_lacks;
};

struct numa_view;

struct model_source {
	int version;		/* 1 or 2 */
	const char *mode;	/* "v1" "v2" "hybrid" */
	const char *root;	/* what is shown as root */
	const char *collector;	/* "bpf" or "files" */
	int live;		/* a mounted hierarchy of this host */
	int readonly;		/* --readonly */
	int series;		/* a recorded series */
	size_t position, count;	/* a series: the sample shown, how many */
	fieldset free_fields;	/* given without opening a file */
	fieldset version_events;	/* what only the events give */
	fieldset event_fields;	/* the reclaim events' fields */
	fieldset event_slots;	/* those the events fill this refresh */
	int events;		/* there are reclaim events at all */
	enum model_events events_state;
	const char *events_text;	/* why not loaded, or failed */
	int64_t events_since;	/* MEV_ON: counting since (wall clock) */
	const char *bpf_why;	/* why not bpf, "" when it is */
	const char *paths;	/* where the values come from, "" files */
	/* Filled once, at pipeline_init: each field's files, and how the
	 * detail pane reads memory.numa_stat (parse.h). */
	struct model_field_files files[FLD_NR];
	const struct numa_view *numa_pane;
	/* What the source said since the front end last cleared note_new
	 * (the bpf collector failed and auto took the files). */
	char note[512];
	int note_new;
};

/*
 * The group a pane of the screen shows and what the pane needs of it,
 * read by the collector when the screen asks (pipeline_focus): never
 * while drawing.  The pipeline owns the memory.
 */
enum model_focus_what { FOCUS_NONE, FOCUS_DETAIL, FOCUS_PROCS };

#define FOCUS_MAX_FILES 20
#define FOCUS_MAX_KNOBS 48

struct proc_row;

struct model_focus {
	char *path;		/* the group ("/a/b"), NULL: none yet */
	enum model_focus_what what;
	unsigned refresh;	/* model.refreshes when read */
	int err;		/* 0, or the negative errno: the group could
				 * not be read (nothing below is) */
	/* FOCUS_DETAIL: its whole detail files (text NULL: err, the read's
	 * errno; the files it lacks are left out) ... */
	size_t nfiles;
	struct {
		const char *name;
		char *text;
		int err;
	} file[FOCUS_MAX_FILES];
	/* ... and every file its fields are read from (files[].name or
	 * root_name), read as a knob: 0 and its trimmed value, or the
	 * negative errno. */
	size_t nknobs;
	struct {
		const char *name;
		int r;
		char val[64];
	} knob[FOCUS_MAX_KNOBS];
	/* FOCUS_PROCS, on a live hierarchy: its processes (procs.h),
	 * largest RSS first. */
	struct proc_row *procs;
	size_t nprocs;
};

struct model {
	int version;		/* 1 or 2 */
	fieldset kept;		/* the fields it keeps (cgfs_version_fields) */
	/* The derived values (1u << D_*) its readers need; a pass over the
	 * groups that makes none of them is skipped.  All, from model_init:
	 * the screen's colours, detail pane and verdicts read more than its
	 * columns. */
	unsigned want;
	struct mgroup **groups;	/* this refresh, parents before children */
	size_t n, cap;
	struct mgroup **table;	/* open addressing, path -> group */
	size_t table_cap;
	double mono, dt;	/* dt 0: no previous refresh */
	int64_t wall;
	unsigned refreshes;
	const char *numa_text;	/* the snapshot's (FLD_NUMA offsets) */
	/* The system figures (sysfig.h) of this refresh and of the last,
	 * and the counters' rates over the interval. */
	struct sysinfo sys, sys_prev;
	double sys_rate[SYS_NR];	/* per second, valid when sys_rate_valid
				 * has SBIT(sysfield) */
	uint64_t sys_rate_valid;
	int recursiveprot;	/* the snapshot's (cgfs.h) */
	/* The OOM kills seen (oomlog.h): model_update adds those the
	 * groups' counters show, unless oom.from_events is set. */
	struct oomlog oom;
	/* Why a field read this refresh is blank, as the collector's
	 * providers say (NULL: given); good until the next refresh. */
	const char *blank[FLD_NR];

	/* The right-size window (rightsize.h): seconds, 0 the whole run;
	 * the margin in percent (model_init: RS_MARGIN_DEFAULT). */
	double rs_window;
	int rs_margin;
	/* Scratch for them: a group's rise of its OOM kill counter. */
	uint64_t *oom_rise;
	size_t oom_rise_cap;
	struct model_source src;
	struct model_focus focus;
};

/* Which fields are counters (rates are computed for those). */

int field_is_counter(enum field f);

void model_init(struct model *m, int version);
void model_free(struct model *m);

/* Takes in one refresh; computes rates against the previous one. */
void model_update(struct model *m, const struct snapshot *snap);

/*
 * Takes in the same moment again, read with more fields: current values
 * are replaced, the previous sample and the interval stay, so rates come
 * out as they would have.
 */
void model_replace(struct model *m, const struct snapshot *snap);

/* The per-second rate between two counter readings; -1 if not defined. */
double model_rate(uint64_t prev, uint64_t cur, double dt);

/*
 * The kernel's effective protection of a group (mm/page_counter.c
 * effective_protection), in pages: usage, its parent's usage, its own
 * setting (memory.min or memory.low), its parent's effective value, what
 * all its siblings (itself too) claim (min(usage, setting) summed) and
 * whether memory_recursiveprot is on.  Unsigned long arithmetic, as the
 * kernel's on 64-bit.
 */
uint64_t model_effective_protection(uint64_t usage, uint64_t parent_usage,
				    uint64_t setting, uint64_t parent_eff,
				    uint64_t siblings, int recursive);

/* min(12, floor(log2(pages))), or -1 for no pages. */
int model_scan_prio(uint64_t pages);

/* The rate of counter f (valid when rate_valid has FBIT(f); else 0). */
static inline double mgroup_rate(const struct mgroup *g, enum field f)
{
	if (!(g->rate_valid & FBIT(f)))
		return 0;
	return g->rate[sample_slot(g->cur.slots & FIELDS_COUNTER, f)];
}

static inline int mgroup_derived(const struct mgroup *g, enum derived d)
{
	return (g->derived_valid & (1u << d)) != 0;
}

/*
 * The filter (-f, the screen's \\): match[i] (m->n of them) is 1 for the
 * groups whose path holds text and for their ancestors, so that a match
 * keeps its place in the tree and its name is read below its parents'.
 */
void model_match(const struct model *m, const char *text,
		 unsigned char *match);

/*
 * Tree order: depth-first from the start group, siblings ordered by cmp.
 * Writes group indices into ret_order (m->n entries); returns the count.
 */
typedef int (*model_cmp_fn)(const struct mgroup *a, const struct mgroup *b,
			    void *ctx);
size_t model_order(const struct model *m, model_cmp_fn cmp, void *ctx,
		   int *ret_order);

#endif
