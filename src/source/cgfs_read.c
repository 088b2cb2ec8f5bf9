/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_read.c - the values of a group: each cgroup version's descriptor
 * (its control files, the keys and the BPF slots of include/fields.h, its
 * root and what it makes of several files) and the reading of a group's
 * files that it drives, whether the directory walk or the BPF pass found
 * the group. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf/bpfcol.h"
#include "cgfs_int.h"
#include "parse.h"
#include "xalloc.h"

/* Where a version keeps a field (fields.h: NONE, IN, PASS, SLOT, MADE,
 * EVENTS). */
enum src_kind { SRC_NONE, SRC_IN, SRC_SLOT, SRC_MADE, SRC_EVENTS };

struct src {
	unsigned char kind;
	signed char cf;		/* SRC_IN: enum cgfile */
	signed char slot;	/* SRC_IN, SRC_SLOT: enum mr_slot the pass
				 * carries, -1 */
	unsigned char made[2];	/* SRC_MADE: the fields it is made of */
	const char *key;	/* SRC_IN: NULL for the whole file */
	/* SRC_IN of a recording: the key may be in memcgtop.events too
	 * (what the events gave of a SLOT row, cgfs_event_lines) */
	unsigned char also_recev;
};

#define NONE { SRC_NONE, -1, -1, { 0, 0 }, NULL, 0 }
#define IN(f, k) { SRC_IN, CF_##f, -1, { 0, 0 }, k, 0 }
#define PASS(f, k, s) { SRC_IN, CF_##f, MR_##s, { 0, 0 }, k, 0 }
#define SLOT(s, k) { SRC_SLOT, -1, MR_##s, { 0, 0 }, k, 0 }
#define MADE(a, b) { SRC_MADE, -1, -1, { FLD_##a, FLD_##b }, NULL, 0 }
#define EVENTS(k) { SRC_EVENTS, -1, -1, { 0, 0 }, k, 0 }

#define V1_SRC(name, flags, v1, v2) [FLD_##name] = v1,
#define V2_SRC(name, flags, v1, v2) [FLD_##name] = v2,
static const struct src v1_src[FLD_NR] = { FIELDS(V1_SRC) };
static const struct src v2_src[FLD_NR] = { FIELDS(V2_SRC) };

/* A recording's: what the pass carried of a SLOT row is its memory.stat
 * line (keep_pass), what the events gave its memcgtop.events line
 * (cgfs_event_lines). */
#undef SLOT
#define SLOT(s, k) { SRC_IN, CF_STAT, MR_##s, { 0, 0 }, k, 1 }
#undef EVENTS
#define EVENTS(k) { SRC_IN, CF_RECEV, -1, { 0, 0 }, k, 0 }
static const struct src v1_replay_src[FLD_NR] = { FIELDS(V1_SRC) };
static const struct src v2_replay_src[FLD_NR] = { FIELDS(V2_SRC) };
#undef V1_SRC
#undef V2_SRC

#undef NONE
#undef IN
#undef PASS
#undef SLOT
#undef MADE
#undef EVENTS

/* How a control file is read. */
enum file_kind {
	FK_VALUE,	/* one number: its field */
	FK_KEYS,	/* "key value" lines: each key to its field */
	FK_PSI,		/* a pressure file: "some" and "full" avg10 */
	FK_PROCS,	/* one pid a line: counted */
	FK_NUMA,	/* kept whole for the JSON numa object (FLD_NUMA) */
};

struct vfile {
	enum cgfile cf;
	const char *name;
	enum file_kind kind;
};

/*
 * Values a version's own code needs that are no field (keys of memory.stat
 * read with the rest): the v1 swap without swap accounting.
 */
enum extra { X_STAT_SWAP, X_NR };

struct vextra {
	enum cgfile cf;
	const char *key;
	enum extra x;
};

struct keymap {
	const char *key;
	unsigned char len;	/* strlen(key): most keys differ in length */
	signed char field;	/* enum field, or -1: extra */
	unsigned char x;	/* enum extra, field -1 */
};

struct gread;

struct cgfs_version {
	int n;
	/* Its control files, in the order a group's are read: v1 memsw and
	 * usage first and back to back (v1 swap is their difference, and
	 * the v1 root's usage adds its kmem), so that the group moves as
	 * little as possible in between. */
	const struct vfile *files;
	size_t nfiles;
	const struct src *src;
	const struct vextra *extras;
	size_t nextras;
	/* The hierarchy root's files for `files`. */
	unsigned (*root_files)(unsigned files);
	/* What the version makes of the values read (MADE fields). */
	void (*finish)(struct gread *g);
	const char *const *detail;
	const char *version_file;
	int renames;		/* a group can be renamed (v1's rename(2)) */
	struct numa_view numa[2];	/* by enum cgfs_numa_for */

	/* Derived from the above once (version_derive()). */
	int ready;
	const char *name_of[CF_NR];
	enum file_kind kind_of[CF_NR];
	unsigned need[FLD_NR];		/* files each field needs */
	signed char value_field[CF_NR];	/* FK_VALUE, FK_PROCS, FK_NUMA */
	struct keymap keys[FLD_NR + X_NR];
	unsigned char kfirst[CF_NR], kcount[CF_NR];
	mr_set file_slots[CF_NR];	/* MR_BIT of the pass's slots */
	fieldset in_fields[CF_NR];	/* the fields SRC_IN of each file */
	unsigned pass_files;		/* files it carries whole */
};

/* One group being read. */
struct gread {
	const struct cgfs_version *v;
	struct cgfs_reader *rd;
	const struct cgfs_want *w;
	const struct cgfs_group_src *src;
	int dirfd, own_fd, dir_err;
	unsigned want;		/* the files the refresh reads of a group */
	unsigned files;		/* this group's, from its directory */
	unsigned tried;		/* read or tried */
	int stale;
	int short_of;		/* -EMFILE, -ENFILE, -ENOMEM: a file could
				 * not be read for want of them */
	uint64_t seen;		/* FBIT of the fields whose key came */
	uint64_t all[FLD_NR];
	struct sample s;	/* room for every field (all) */
	uint64_t extra[X_NR];
	unsigned has_extra, seen_extra;
};

static int has(const struct gread *g, enum field f)
{
	return sample_has(&g->s, f);
}

static uint64_t get(const struct gread *g, enum field f)
{
	return sample_get(&g->s, f);
}

static void set(struct gread *g, enum field f, uint64_t v)
{
	sample_set(&g->s, f, v);
}

static void read_file(struct gread *g, enum cgfile cf);

/* ---- cgroup v1 ---- */

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
	int has_memsw = has(g, FLD_USAGE_SWAP);

	/* Read back to back with the usage: their difference is swap, at
	 * most what the host has (see cgfs_want.swap_ceiling). */
	if (has_memsw && has(g, FLD_USAGE)) {
		uint64_t swap = get(g, FLD_USAGE_SWAP) > get(g, FLD_USAGE) ?
			get(g, FLD_USAGE_SWAP) - get(g, FLD_USAGE) : 0;

		set(g, FLD_SWAP, swap < g->w->swap_ceiling ? swap :
		    g->w->swap_ceiling);
	}
	if ((g->files & CFBIT(CF_MEMSW)) && !has_memsw) {
		/* Without swap accounting there is no memsw file;
		 * memory.stat's total_swap is then the figure (absent too
		 * when swap accounting is off entirely).  The stat is read
		 * for it only then: it costs the kernel more than three
		 * value files. */
		read_file(g, CF_STAT);
		if (g->has_extra & (1u << X_STAT_SWAP))
			set(g, FLD_SWAP, g->extra[X_STAT_SWAP]);
	}
	if (g->src->is_root && has(g, FLD_KERNEL)) {
		/* With the kmem counter the root is not smaller than its
		 * children; without the file the kernel's figures stay.
		 * Like its usage, the root's memsw leaves that out. */
		if (has(g, FLD_USAGE))
			set(g, FLD_USAGE, get(g, FLD_USAGE) +
			    get(g, FLD_KERNEL));
		if (has_memsw)
			set(g, FLD_USAGE_SWAP, get(g, FLD_USAGE_SWAP) +
			    get(g, FLD_KERNEL));
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

/* ---- cgroup v2 ---- */

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
	if (has(g, FLD_SWAP) && has(g, FLD_SWAP_LIMIT)) {
		uint64_t lim = get(g, FLD_SWAP_LIMIT), swap = get(g, FLD_SWAP);

		set(g, FLD_SWAP_ROOM, lim == VAL_MAX ? VAL_MAX :
		    lim > swap ? lim - swap : 0);
	}
	if (has(g, FLD_USAGE) && has(g, FLD_SWAP))
		set(g, FLD_USAGE_SWAP, get(g, FLD_USAGE) + get(g, FLD_SWAP));
	if (g->src->is_root && (g->want & CFBIT(CF_USAGE)) &&
	    (g->tried & CFBIT(CF_STAT))) {
		/* The v2 root's usage: anon + file + kernel + sock. */
		g->s.valid &= ~FBIT(FLD_USAGE);
		if (has(g, FLD_ANON) && has(g, FLD_FILE) &&
		    has(g, FLD_KERNEL) && has(g, FLD_SOCK))
			set(g, FLD_USAGE, get(g, FLD_ANON) + get(g, FLD_FILE) +
			    get(g, FLD_KERNEL) + get(g, FLD_SOCK));
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

#define N(t) (sizeof(t) / sizeof((t)[0]))

static struct cgfs_version versions[2], replays[2];

static const struct cgfs_version version_rows[2] = {
	{
		.n = 1, .files = v1_files, .nfiles = N(v1_files),
		.src = v1_src, .extras = v1_extras, .nextras = N(v1_extras),
		.root_files = v1_root_files, .finish = v1_finish,
		.detail = v1_detail, .version_file = "memory.limit_in_bytes",
		.renames = 1,
		.numa = {
			{ v1_numa_json_keys, v1_numa_json_names,
			  N(v1_numa_json_keys), 1, "", 0, 0 },
			{ v1_numa_pane_keys, v1_numa_pane_titles,
			  N(v1_numa_pane_keys), 1,
			  " (the group's own, then H-: with its descendants)",
			  0, 0 },
		},
	},
	{
		.n = 2, .files = v2_files, .nfiles = N(v2_files),
		.src = v2_src, .extras = NULL, .nextras = 0,
		.root_files = v2_root_files, .finish = v2_finish,
		.detail = v2_detail, .version_file = "cgroup.controllers",
		.numa = {
			{ v2_numa_json_keys, v2_numa_json_names,
			  N(v2_numa_json_keys), 0, "", 1, 0 },
			{ v2_numa_pane_keys, v2_numa_pane_titles,
			  N(v2_numa_pane_keys), 0, " (with descendants)", 0,
			  5 },
		},
	},
};

/* The files field f needs, through what it is made of. */
static unsigned need_of(const struct cgfs_version *v, enum field f, int depth)
{
	const struct src *s = &v->src[f];

	if (s->kind == SRC_IN)
		return CFBIT(s->cf) | (s->also_recev ? CFBIT(CF_RECEV) : 0);
	if (s->kind != SRC_MADE || depth > FLD_NR)
		return 0;
	return need_of(v, (enum field)s->made[0], depth + 1) |
		need_of(v, (enum field)s->made[1], depth + 1);
}

static void add_key(struct cgfs_version *v, size_t *n, const char *key,
		    int field, enum extra x)
{
	struct keymap *k = &v->keys[(*n)++];

	k->key = key;
	k->len = (unsigned char)strlen(key);
	k->field = (signed char)field;
	k->x = (unsigned char)x;
}

/* The tables a descriptor's rows imply: names and kinds by file, what
 * each field needs, the key maps of each key file (in the order of the
 * fields), the pass's slots by file. */
static void version_derive(struct cgfs_version *v)
{
	size_t nk = 0;

	memset(v->value_field, -1, sizeof(v->value_field));
	for (size_t i = 0; i < v->nfiles; i++) {
		v->name_of[v->files[i].cf] = v->files[i].name;
		v->kind_of[v->files[i].cf] = v->files[i].kind;
	}
	for (int f = 0; f < FLD_NR; f++)
		v->need[f] = need_of(v, (enum field)f, 0);
	for (int cf = 0; cf < CF_NR; cf++) {
		int all_pass = 0;

		v->kfirst[cf] = (unsigned char)nk;
		for (int f = 0; f < FLD_NR; f++) {
			const struct src *s = &v->src[f];

			if (s->kind == SRC_IN && s->also_recev && s->key &&
			    cf == CF_RECEV)
				add_key(v, &nk, s->key, f, 0);
			if (s->kind != SRC_IN || s->cf != cf)
				continue;
			v->in_fields[cf] |= FBIT(f);
			if (s->key)
				add_key(v, &nk, s->key, f, 0);
			else
				v->value_field[cf] = (signed char)f;
			if (s->slot >= 0) {
				v->file_slots[cf] |= MR_SET(s->slot);
				all_pass = all_pass >= 0 ? 1 : -1;
			} else {
				all_pass = -1;
			}
		}
		for (size_t i = 0; i < v->nextras; i++)
			if (v->extras[i].cf == (enum cgfile)cf)
				add_key(v, &nk, v->extras[i].key, -1,
					v->extras[i].x);
		v->kcount[cf] = (unsigned char)(nk - v->kfirst[cf]);
		if (all_pass > 0)
			v->pass_files |= CFBIT(cf);
	}
	v->ready = 1;
}

const struct cgfs_version *cgfs_version_of(int n)
{
	struct cgfs_version *v = &versions[n == 2];

	if (!v->ready) {
		*v = version_rows[n == 2];
		version_derive(v);
	}
	return v;
}

const struct cgfs_version *cgfs_version_replay(int n)
{
	struct cgfs_version *v = &replays[n == 2];

	if (!v->ready) {
		*v = version_rows[n == 2];
		v->src = n == 2 ? v2_replay_src : v1_replay_src;
		version_derive(v);
	}
	return v;
}

const char *cgfs_file_name(const struct cgfs_version *v, enum cgfile f)
{
	return v->name_of[f];
}

int cgfs_is_control_name(const struct cgfs_version *v, const char *name)
{
	for (size_t i = 0; i < v->nfiles; i++)
		if (strcmp(v->files[i].name, name) == 0)
			return 1;
	return 0;
}

int cgfs_version_renames(const struct cgfs_version *v)
{
	return v->renames;
}

const char *cgfs_version_file(const struct cgfs_version *v)
{
	return v->version_file;
}

const char *const *cgfs_detail_files(const struct cgfs_version *v)
{
	return v->detail;
}

unsigned cgfs_pass_files(const struct cgfs_version *v)
{
	return v->pass_files;
}

fieldset cgfs_pass_fields(const struct cgfs_version *v, mr_set slots)
{
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if ((v->src[f].kind == SRC_IN || v->src[f].kind == SRC_SLOT) &&
		    v->src[f].slot >= 0 && (slots & MR_SET(v->src[f].slot)))
			fields |= FBIT(f);
	return fields;
}

size_t cgfs_stat_rows(const struct cgfs_version *v, struct cgfs_stat_row *ret,
		      size_t max)
{
	size_t n = 0;

	for (int f = 0; f < FLD_NR; f++) {
		const struct src *s = &v->src[f];

		if (s->slot < 0 || !(MR_STATS & MR_SET(s->slot)) ||
		    (s->kind == SRC_IN && s->cf != CF_STAT))
			continue;
		if (n < max)
			ret[n] = (struct cgfs_stat_row){
				s->slot, s->kind == SRC_IN ? s->key : NULL, f };
		n++;
	}
	return n;
}

int cgfs_version_n(const struct cgfs_version *v)
{
	return v->n;
}

mr_set cgfs_file_slots(const struct cgfs_version *v, enum cgfile f)
{
	return v->file_slots[f];
}

void cgfs_want_for(const struct cgfs_version *v, fieldset fields,
		   struct cgfs_want *ret)
{
	fieldset raw = fields, more;

	/* What MADE fields are made of is read too. */
	do {
		more = 0;
		for (fieldset r = raw; r; r &= r - 1) {
			const struct src *s = &v->src[fieldset_first(r)];

			if (s->kind == SRC_MADE)
				more |= FBIT(s->made[0]) | FBIT(s->made[1]);
		}
		more &= ~raw;
		raw |= more;
	} while (more);
	memset(ret, 0, sizeof(*ret));
	ret->fields = raw;
	ret->swap_ceiling = VAL_MAX;
	for (fieldset r = raw; r; r &= r - 1) {
		const struct src *s = &v->src[fieldset_first(r)];

		if (s->kind != SRC_IN && s->kind != SRC_SLOT)
			continue;
		if (s->kind == SRC_SLOT) {
			ret->pass_slots |= MR_SET(s->slot);
			continue;
		}
		ret->files |= CFBIT(s->cf);
		if (s->also_recev)
			ret->files |= CFBIT(CF_RECEV);
		if (s->slot >= 0)
			ret->pass_slots |= MR_SET(s->slot);
	}
	/* The pass says which groups hold no task (take_pass). */
	if (ret->files & CFBIT(CF_PROCS))
		ret->pass_slots |= MR_BIT(POPULATED);
	ret->root_files = v->root_files(ret->files);
}

fieldset cgfs_fields_of(const struct cgfs_version *v, unsigned files)
{
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if (v->need[f] & files)
			fields |= FBIT(f);
	return fields;
}

/* ---- reading a group ---- */

/* The directory of the group, opened by path when the caller did not
 * (the BPF pass: only a group with a file to read is opened). */
static int group_dir(struct gread *g)
{
	struct stat st;
	int fd;

	if (g->dirfd >= 0 || g->dir_err)
		return g->dirfd;
	fd = cgfs_open_rel(g->src->rootfd, g->src->rel);
	if (fd < 0) {
		g->dir_err = fd;
		if (cgfs_short_of(fd))
			g->short_of = fd;
		return -1;
	}
	/* The path names another group since the pass saw this one (moved,
	 * or removed and made again): not its files, gone as far as this
	 * refresh goes. */
	if (g->src->ino && fstat(fd, &st) == 0 &&
	    (uint64_t)st.st_ino != g->src->ino) {
		close(fd);
		g->dir_err = -ENODEV;
		return -1;
	}
	g->dirfd = fd;
	g->own_fd = 1;
	return fd;
}

/*
 * A file that cannot be read (ENOENT) may be missing from this group, or
 * the group may have been removed since its directory was opened: kernfs
 * then answers ENOENT for every name in it, and ENODEV for a file of a
 * group being removed.  cgroup.procs exists in every group of both
 * versions, so its absence tells.
 */
static void note_error(struct gread *g, int err)
{
	if (cgfs_short_of(err)) {
		g->short_of = err;
		return;
	}
	if (err == -ENODEV)
		g->stale = 1;
	else if (g->rd->io->kernfs && err == -ENOENT &&
		 faccessat(g->dirfd, "cgroup.procs", F_OK,
			   AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
		g->stale = 1;
}

struct kvctx {
	struct gread *g;
	const struct keymap *map;
	size_t n;
};

static void kv_store(const char *key, size_t keylen, uint64_t val, void *ctx)
{
	struct kvctx *c = ctx;
	struct gread *g = c->g;

	for (size_t i = 0; i < c->n; i++) {
		const struct keymap *m = &c->map[i];

		if (m->len != keylen || memcmp(m->key, key, keylen))
			continue;
		/* A key repeated: the first one counts, even when its value
		 * is out of range (parse_in_range: not a value). */
		if (m->field < 0) {
			if (!(g->seen_extra & (1u << m->x)) &&
			    parse_in_range(val)) {
				g->extra[m->x] = val;
				g->has_extra |= 1u << m->x;
			}
			g->seen_extra |= 1u << m->x;
		} else if (!(g->seen & FBIT(m->field))) {
			g->seen |= FBIT(m->field);
			if (parse_in_range(val))
				set(g, (enum field)m->field, val);
		}
		return;
	}
}

/* A value file.  Only a limit or protection can be unlimited; a usage or
 * a count at v1's "no limit" or beyond is not a value. */
static void take_value(struct gread *g, enum field f, const char *buf,
		       size_t n)
{
	uint64_t v;

	if (parse_value_file(buf, n, &v) == 0 &&
	    (v != VAL_MAX || (FIELDS_MAX & FBIT(f))))
		set(g, f, v);
}

/* Kept whole for the JSON numa object (see snapshot). */
static void take_numa(struct gread *g, enum field f, const char *buf,
		      size_t n)
{
	struct snapshot *snap = g->src->snap;
	void *p = snap->numa_text;

	cgfs_grow(&p, &snap->numa_cap, snap->numa_len + n + 1, 1);
	snap->numa_text = p;
	memcpy(snap->numa_text + snap->numa_len, buf, n);
	snap->numa_text[snap->numa_len + n] = '\0';
	set(g, f, snap->numa_len);
	snap->numa_len += n + 1;
}

/* With PSI disabled (psi=0) the file is missing or reads EOPNOTSUPP: not
 * available, like any unreadable file. */
static void take_psi(struct gread *g, enum cgfile cf, const char *buf,
		     size_t n)
{
	const struct keymap *m = &g->v->keys[g->v->kfirst[cf]];
	struct psi p;

	if (parse_psi(buf, n, &p) < 0)
		return;
	for (size_t i = 0; i < g->v->kcount[cf]; i++, m++) {
		if (m->field < 0)
			continue;
		if (p.has_some && strcmp(m->key, "some") == 0)
			set(g, (enum field)m->field, p.some_avg10);
		if (p.has_full && strcmp(m->key, "full") == 0)
			set(g, (enum field)m->field, p.full_avg10);
	}
}

/* Reads control file cf of the group, once. */
/* ---- what a recording keeps of the pass ---- */

/*
 * "key value" lines of the group's values of key file cf and, for
 * memory.stat, of its SLOT rows (fields.h); with cf CF_NR the SLOT rows'
 * alone (the values the pass gave that no file has).  Appended to buf:
 * the new length.  Only the values the group has; in the fields' order.
 */
static size_t key_lines(const struct gread *g, enum cgfile cf, char *buf,
			size_t cap)
{
	size_t n = 0;

	for (int f = 0; f < FLD_NR; f++) {
		const struct src *s = &g->v->src[f];
		int k;

		if (!s->key || !has(g, (enum field)f) ||
		    !((s->kind == SRC_IN && s->cf == (int)cf) ||
		      (s->kind == SRC_SLOT &&
		       (cf == CF_STAT || cf == CF_NR))))
			continue;
		k = snprintf(buf + n, cap - n, "%s %" PRIu64 "\n", s->key,
			     get(g, (enum field)f));
		if (k < 0 || (size_t)k >= cap - n)
			break;
		n += (size_t)k;
	}
	return n;
}

/*
 * Each file of got (given by the pass, not read) that the group has, kept
 * as its text: a value file's number ("max", or v1's largest page count
 * in bytes, when unlimited), a key file's lines of the values shown.
 * Replay parses them as it parses the kernel's files.
 */
static void keep_pass(struct gread *g, unsigned got)
{
	const struct cgfs_version *v = g->v;
	char buf[4096];

	for (; got; got &= got - 1) {
		enum cgfile cf = (enum cgfile)__builtin_ctz(got);
		int f = v->value_field[cf], k;
		size_t n;

		if (!v->name_of[cf])
			continue;
		if (v->kind_of[cf] == FK_PROCS) {
			/* No task: an empty cgroup.procs. */
			g->rd->ops->kept(g->rd, v->name_of[cf], "", 0);
			continue;
		}
		if (v->kind_of[cf] == FK_NUMA) {
			/* The lists the pass gave, as the file's text. */
			if (g->src->numa_text)
				g->rd->ops->kept(g->rd, v->name_of[cf],
						 g->src->numa_text,
						 g->src->numa_len);
			continue;
		} else if (v->kind_of[cf] == FK_KEYS) {
			n = key_lines(g, cf, buf, sizeof(buf));
		} else if (v->kind_of[cf] == FK_VALUE && f >= 0 &&
			   has(g, (enum field)f)) {
			uint64_t val = get(g, (enum field)f);
			long ps = sysconf(_SC_PAGESIZE);

			if (val == VAL_MAX && v->n == 2)
				k = snprintf(buf, sizeof(buf), "max\n");
			else
				k = snprintf(buf, sizeof(buf), "%" PRIu64 "\n",
					     val != VAL_MAX ? val : ps > 0 ?
					     (uint64_t)(INT64_MAX / ps) *
					     (uint64_t)ps : (uint64_t)INT64_MAX);
			n = k > 0 ? (size_t)k : 0;
		} else {
			continue;
		}
		if (n > 0)
			g->rd->ops->kept(g->rd, v->name_of[cf], buf, n);
	}
}

/* memory.stat as read, kept with the SLOT rows' lines after the kernel's
 * (recording only; text is what was parsed). */
static void keep_stat(struct gread *g, const char *text, size_t len,
		      int read)
{
	char lines[1024], *all;
	size_t n = key_lines(g, CF_NR, lines, sizeof(lines));

	/* Read through the recorder: kept as it was, unless lines follow. */
	if (read && n == 0)
		return;
	all = xmalloc(len + n);
	memcpy(all, text, len);
	memcpy(all + len, lines, n);
	g->rd->ops->kept(g->rd, g->v->name_of[CF_STAT], all, len + n);
	free(all);
}

static void read_file(struct gread *g, enum cgfile cf)
{
	const struct cgfs_version *v = g->v;
	const char *name = v->name_of[cf];
	int fd, f = v->value_field[cf];
	ssize_t n;

	if ((g->tried & CFBIT(cf)) || !name)
		return;
	g->tried |= CFBIT(cf);
	if (cf == CF_STAT && g->src->stat_text) {
		struct kvctx c = { g, &v->keys[v->kfirst[cf]], v->kcount[cf] };

		parse_keyvals(g->src->stat_text, g->src->stat_len, kv_store, &c);
		if (g->rd->ops->kept)
			keep_stat(g, g->src->stat_text, g->src->stat_len, 0);
		return;
	}
	fd = group_dir(g);
	if (fd < 0)
		return;
	if (v->kind_of[cf] == FK_PROCS) {
		uint64_t lines;
		int r = g->rd->ops->count_lines(g->rd, fd, name, &lines);

		if (r < 0)
			note_error(g, r);
		else if (f >= 0)
			set(g, (enum field)f, lines);
		return;
	}
	n = g->rd->ops->read(g->rd, fd, name);
	if (n < 0) {
		note_error(g, (int)n);
		return;
	}
	switch (v->kind_of[cf]) {
	case FK_VALUE:
		if (f >= 0)
			take_value(g, (enum field)f, g->rd->io->buf, (size_t)n);
		break;
	case FK_KEYS: {
		struct kvctx c = { g, &v->keys[v->kfirst[cf]], v->kcount[cf] };

		parse_keyvals(g->rd->io->buf, (size_t)n, kv_store, &c);
		if (cf == CF_STAT && g->rd->ops->kept)
			keep_stat(g, g->rd->io->buf, (size_t)n, 1);
		break;
	}
	case FK_PSI:
		take_psi(g, cf, g->rd->io->buf, (size_t)n);
		break;
	case FK_NUMA:
		if (f >= 0)
			take_numa(g, (enum field)f, g->rd->io->buf, (size_t)n);
		break;
	case FK_PROCS:
		break;
	}
}

/*
 * The files of `files` whose values the group's BPF record gives: each
 * file the pass carries whole whose slots the record has, and each such
 * file this kernel lacks (probed once: the pass has a slot where the file
 * is missing, v1 memsw without swap accounting, v2 memory.peak before
 * 5.19, and then the absence must show, as the files source shows it).
 */
/*
 * The memory.stat values of the fields asked for that the record has
 * (MR_STATS: each slot once its word was proven), and the fields no file
 * has (SLOT); memory.stat counts as given when no field asked of it is
 * left.
 */
static unsigned take_stat(struct gread *g, unsigned files)
{
	const struct cgfs_version *v = g->v;
	const struct bpfcol_rec *r = g->src->pass;
	int missing = 0;

	for (fieldset rest = g->w->fields; rest; rest &= rest - 1) {
		int f = fieldset_first(rest);
		const struct src *s = &v->src[f];
		mr_set bit;

		if ((s->kind == SRC_IN && s->cf != CF_STAT) ||
		    (s->kind != SRC_IN && s->kind != SRC_SLOT))
			continue;
		if (s->slot < 0) {
			missing = 1;	/* a memory.stat key the pass lacks */
			continue;
		}
		bit = MR_SET(s->slot);
		if (r->have & bit) {
			if (parse_in_range(r->v[s->slot]))
				set(g, (enum field)f, r->v[s->slot]);
		} else if (s->kind == SRC_IN) {
			missing = 1;
		}
	}
	/* A root whose usage the version makes of memory.stat (v2: anon +
	 * file + kernel + sock, of which the pass gives a v2 root none)
	 * reads it. */
	if (g->src->is_root && (g->want & CFBIT(CF_USAGE)) &&
	    (v->root_files(CFBIT(CF_USAGE)) & CFBIT(CF_STAT)))
		missing = 1;
	return missing || !(files & CFBIT(CF_STAT)) ? 0 : CFBIT(CF_STAT);
}

static unsigned take_pass(struct gread *g, unsigned files)
{
	const struct cgfs_version *v = g->v;
	const struct bpfcol_rec *r = g->src->pass;
	unsigned got = take_stat(g, files);

	if (g->src->stat_only)
		return got;
	for (unsigned rest = files & v->pass_files; rest; rest &= rest - 1) {
		int cf = __builtin_ctz(rest);

		if (!(g->src->pass_have & CFBIT(cf))) {
			got |= CFBIT(cf);
			continue;
		}
		if (v->file_slots[cf] & ~r->have)
			continue;
		if (v->kind_of[cf] == FK_NUMA) {
			/* Only as the pass's text, once its lists are
			 * proven (cgfs_pass.c). */
			if (g->src->numa_text && v->value_field[cf] >= 0) {
				take_numa(g, (enum field)v->value_field[cf],
					  g->src->numa_text, g->src->numa_len);
				got |= CFBIT(cf);
			}
			continue;
		}
		got |= CFBIT(cf);
		/* The file's fields only: this runs for every group. */
		for (fieldset in = v->in_fields[cf]; in; in &= in - 1) {
			int f = fieldset_first(in);
			const struct src *s = &v->src[f];
			uint64_t val;

			val = (r->unlimited & MR_SET(s->slot)) ? VAL_MAX :
				r->v[s->slot];
			/* As the file would be parsed. */
			if (s->key ? parse_in_range(val) :
			    val != VAL_MAX || (FIELDS_MAX & FBIT(f)))
				set(g, (enum field)f, val);
		}
	}
	/* A group the pass saw without a task: its cgroup.procs is empty
	 * (memcg_iter.bpf.c), not opened. */
	if ((files & CFBIT(CF_PROCS)) && (r->have & MR_BIT(POPULATED)) &&
	    r->v[MR_POPULATED] == 0 && v->value_field[CF_PROCS] >= 0) {
		set(g, (enum field)v->value_field[CF_PROCS], 0);
		got |= CFBIT(CF_PROCS);
	}
	return got;
}

int cgfs_read_group(const struct cgfs_version *v, struct cgfs_reader *rd,
		    const struct cgfs_want *w, const struct cgfs_group_src *src,
		    struct sample *ret)
{
	struct gread g;
	unsigned files = src->is_root ? w->root_files : w->files;

	g.v = v;
	g.rd = rd;
	g.src = src;
	g.dirfd = src->dirfd;
	g.own_fd = 0;
	g.dir_err = 0;
	g.w = w;
	g.want = w->files;
	g.tried = 0;
	g.stale = 0;
	g.short_of = 0;
	g.seen = 0;
	g.has_extra = g.seen_extra = 0;
	/* Read into room for every field, then kept in ret's slots: what
	 * a version makes of several files may come from fields not kept. */
	memset(g.all, 0, sizeof(g.all));
	g.s = (struct sample){ 0, FIELDS_ALL, g.all };
	g.files = files;
	if (src->pass) {
		unsigned got = take_pass(&g, files);

		if (rd->ops->kept)
			keep_pass(&g, got);
		files &= ~got;
		/* The SLOT rows' values when memory.stat is neither read
		 * nor given: kept as its only lines. */
		if (rd->ops->kept && !((files | got) & CFBIT(CF_STAT)))
			keep_stat(&g, "", 0, 1);
	}
	for (size_t i = 0; i < v->nfiles; i++)
		if (files & CFBIT(v->files[i].cf))
			read_file(&g, v->files[i].cf);
	v->finish(&g);
	if (g.own_fd)
		close(g.dirfd);
	if (g.short_of)
		return g.short_of;
	if (g.dir_err == -EACCES || g.dir_err == -EPERM) {
		sample_clear(ret);
		return -EACCES;
	}
	if (g.dir_err)
		return -ENODEV;
	sample_copy(ret, &g.s);
	return g.stale ? -ENODEV : 0;
}

uint64_t cgfs_limit_above(const struct cgfs_version *v, struct cgfs_reader *rd,
			  int rootfd, const char *start)
{
	uint64_t lim = VAL_MAX, val;
	size_t len = strlen(start);
	/* "/a/b/c": each ancestor as shown (for the recorder), cut short at
	 * its end; no PATH_MAX, which a deep start group can pass. */
	char *shown = xmalloc(len + 2), *rel, *p;

	shown[0] = '/';
	memcpy(shown + 1, start, len + 1);
	rel = shown + 1;
	/* Every proper prefix "a", "a/b" of "a/b/c" is an ancestor. */
	for (p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		ssize_t n;
		int fd;

		*p = '\0';
		fd = cgfs_open_rel(rootfd, rel);
		if (fd >= 0) {
			rd->ops->group(rd, shown);
			n = rd->ops->read(rd, fd, v->name_of[CF_LIMIT]);
			if (n >= 0 && parse_value_file(rd->io->buf, (size_t)n,
						       &val) == 0 && val < lim)
				lim = val;
			rd->ops->group(rd, NULL);
			close(fd);
		}
		*p = '/';
	}
	free(shown);
	return lim;
}

int cgfs_field_may_be_max(enum field f)
{
	return (FIELDS_MAX & FBIT(f)) != 0;
}

size_t cgfs_field_files(const struct cgfs *cg, enum field f, int root,
			const char **ret_names, size_t max, int *ret_root_lacks)
{
	const struct cgfs_version *v = cg->ver;
	unsigned files = v->need[f];
	size_t n = 0;

	*ret_root_lacks = 0;
	if (root && files) {
		/* As the root is read (the v2 root has few files). */
		files = v->root_files(files);
		*ret_root_lacks = files == 0;
	}
	for (int i = 0; i < CF_NR && n < max; i++)
		if ((files & CFBIT(i)) && v->name_of[i])
			ret_names[n++] = v->name_of[i];
	return n;
}

size_t cgfs_event_lines(const struct cgfs_version *v, const struct sample *s,
			char *buf, size_t cap)
{
	size_t n = 0;

	for (int f = 0; f < FLD_NR; f++) {
		const struct src *sr = &v->src[f];
		int k;

		/* The SLOT rows too: the events give v1 pgscan where the
		 * pass does not (the files collector). */
		if ((sr->kind != SRC_EVENTS && sr->kind != SRC_SLOT) ||
		    !sr->key || !sample_has(s, (enum field)f))
			continue;
		k = snprintf(buf + n, cap - n, "%s %" PRIu64 "\n", sr->key,
			     sample_get(s, (enum field)f));
		if (k < 0 || (size_t)k >= cap - n)
			break;
		n += (size_t)k;
	}
	return n;
}

fieldset cgfs_version_events(int version)
{
	const struct cgfs_version *v = cgfs_version_of(version);
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if (v->src[f].kind == SRC_EVENTS ||
		    (v->src[f].kind == SRC_SLOT &&
		     (MR_STATS & MR_SET(v->src[f].slot))))
			fields |= FBIT(f);
	return fields;
}

fieldset cgfs_kept_fields(const struct cgfs_version *v)
{
	fieldset fields = 0;

	for (int f = 0; f < FLD_NR; f++)
		if (v->src[f].kind != SRC_NONE)
			fields |= FBIT(f);
	return fields;
}

fieldset cgfs_version_fields(int version)
{
	return cgfs_kept_fields(cgfs_version_of(version));
}

const struct numa_view *cgfs_numa_view(int version,
				       enum cgfs_numa_for what)
{
	return &cgfs_version_of(version)->numa[what];
}

int cgfs_field_source(int version, enum field f, const char **ret_file,
		      const char **ret_key)
{
	const struct cgfs_version *v = cgfs_version_of(version);
	const struct src *s = &v->src[f];

	if (s->kind != SRC_IN)
		return 0;
	*ret_file = v->name_of[s->cf];
	*ret_key = s->key;
	return 1;
}
