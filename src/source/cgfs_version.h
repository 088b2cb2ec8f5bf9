/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_version.h - a cgroup version's descriptor and a group being read
 * by it: what the version's tables (cgfs_v1.c, cgfs_v2.c), their derived
 * maps (cgfs_version.c), the group reader (cgfs_read.c) and what a
 * recording keeps (cgfs_keep.c) share.  Not for the rest of cgfs, which
 * sees the functions of cgfs_int.h only. */
#ifndef MEMCGTOP_CGFS_VERSION_H
#define MEMCGTOP_CGFS_VERSION_H

#include <stddef.h>
#include <stdint.h>

#include "cgfs_int.h"
#include "parse.h"

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

static inline int gr_has(const struct gread *g, enum field f)
{
	return sample_has(&g->s, f);
}

static inline uint64_t gr_get(const struct gread *g, enum field f)
{
	return sample_get(&g->s, f);
}

static inline void gr_set(struct gread *g, enum field f, uint64_t v)
{
	sample_set(&g->s, f, v);
}

#define CGFS_NELEM(t) (sizeof(t) / sizeof((t)[0]))

/* The versions' tables but their sources (cgfs_version.c sets src). */
extern const struct cgfs_version cgfs_v1_row, cgfs_v2_row;

/* cgfs_read.c: reads control file cf of the group, once. */
void cgfs_gread_file(struct gread *g, enum cgfile cf);

/* cgfs_keep.c: what a recording keeps of the group.  The files of got
 * (given by the pass, not read) as their text; memory.stat's text with the
 * SLOT rows' lines after the kernel's (read: as read through the
 * recorder, kept as it was unless lines follow). */
void cgfs_keep_pass(struct gread *g, unsigned got);
void cgfs_keep_stat(struct gread *g, const char *text, size_t len, int read);

#endif
