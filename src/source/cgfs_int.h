/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_int.h - what the parts of the cgfs source share (not for other
 * modules, which see cgfs.h only).
 *
 * src/cgfs_find.c  finding the hierarchy: the live host's memory mount or
 *                  a --root copy, its version, the host's mode;
 * src/cgfs.c       the live files source (cgfs_live_ops): opening, the
 *                  walk and its kept directories, the refresh;
 * src/cgfs_read.c  a group's control files: the version tables, the reads
 *                  they drive, the sink fed with their bytes;
 * src/cgfs_replay.c  a recorded series: its timestamps, info and seeking,
 *                  and its source ops (cgfs_replay_ops; source.h);
 * src/cgfs_group.c a shown group of either source: detail and pids;
 * src/cgfs_knobs.c the knobs of one group: read, checked, the one write,
 *                  the lock;
 * src/cgfs_bpf.c   the BPF pass (bpfcol.h) in the live source: the tree's
 *                  shape and the page counters, the rest from files.
 */
#ifndef MEMCGTOP_CGFS_INT_H
#define MEMCGTOP_CGFS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cgfs.h"
#include "source.h"

/* The control files a group may be asked for. */
enum cgfile {
	CF_USAGE,
	CF_LIMIT,
	CF_HIGH,
	CF_LOW,
	CF_MIN,
	CF_SOFT,
	CF_MEMSW,
	CF_SWAPCUR,
	CF_SWAPMAX,
	CF_SWAPPINESS,
	CF_KMEM,
	CF_STAT,
	CF_EVENTS,
	CF_OOMCTL,
	CF_FAILCNT,
	CF_PRESSURE,
	CF_PROCS,
	CF_PEAK,
	CF_SWAPPEAK,
	CF_EVENTS_LOCAL,
	CF_SWAPEVENTS,
	CF_ZSWAP,
	CF_CGSTAT,
	CF_NUMA,
	CF_NR
};

#define CFBIT(f) (1u << (f))

struct bpfcol;
struct bpfcol_group;
struct keymap;
struct cf_row;
struct sink;
struct sysinfo_src;

/*
 * What is kept of a group across refreshes of a live hierarchy: its
 * directory descriptor, through which its files are opened without a path
 * lookup, and its last listing (see walk()).  Control file descriptors are
 * not kept: pread on a kept one saves about 1 us a read (measured on 6.18,
 * 8,192 groups) but pins the kernel's read buffer, about 4.4 KiB a
 * descriptor charged to our memory cgroup; a directory costs a struct file.
 */
struct gh {
	char *path;
	size_t len;
	struct gh *next;	/* hash chain */
	unsigned gen;		/* the refresh that last walked it */
	int dirfd;		/* -1: not kept */
	dev_t dev;		/* and what it is */
	ino_t ino;
	/* The subgroup names of its last listing (NUL-separated) and how
	 * many subdirectories that listing saw, or nsub -1. */
	char *sub;
	size_t sublen;
	long nsub;
};

struct cgfs {
	int version;
	const char *mode;
	char *root;		/* hierarchy root (series: the series folder) */
	char *start;		/* "" for the root, else "a/b" */
	int readonly;
	const struct source_ops *src;	/* live files or a series */
	void *priv;			/* the source's own (a series') */
	char *shown_mode, *shown_root;	/* a recording's DIR/info */
	struct sink *sink;	/* --record: the recorder (sink.h) */
	int proc_given;		/* --proc */
	struct sysinfo_src *sys;
	char *buf;
	size_t bufcap;
	char *dents;
	size_t dentscap;
	const struct keymap *stat_keys;
	const struct cf_row *rows;	/* this version's control files */
	size_t nrows;
	const char *file[CF_NR];	/* their names by cgfile; NULL: none */
	unsigned may_max;		/* CFBIT of the files that may say max */
	const unsigned *need;
	/* kept descriptors (not for series: every sample is a new tree) */
	struct gh **gh;
	size_t gh_cap, gh_n;
	unsigned gen;
	long fd_budget;		/* directory descriptors we may keep */
	long fd_dirs;		/* kept now */
	int stale;		/* read_group met a removed group */
	/* The tree is a mounted cgroup filesystem (kernfs), so its pids
	 * are this host's: what cgfs_is_live() answers.  Its link counts
	 * are then trusted to tell a changed listing (see walk_begin). */
	int kernfs;
	unsigned long listings;	/* directory listings made (list_sub) */
	/* This refresh's memory.numa_stat texts, NUL-separated. */
	char *numa;
	size_t numa_len, numa_cap;
	/* The BPF pass (cgfs_bpf.c), or NULL: files only.  bpf_cur is the
	 * record of the group read_group is reading, whose values
	 * read_value takes from it (cgfs_bpf_value). */
	struct bpfcol *bpf;
	const struct bpfcol_group *bpf_cur;
	unsigned bpf_have;	/* CFBIT of the pass's files that exist */
	int bpf_probed;		/* bpf_have is known */
	struct bpf_level *bpf_levels;	/* the walk's parents by level */
	size_t bpf_levels_cap;
	char bpf_why[300];	/* why not bpf; "" when in use */
};

/* "/a//b/" -> "a/b" (malloc'd); -EINVAL for "." and ".." components. */
int cgfs_normalise(const char *in, char **ret);
/* Opens the directory "a/b/c" below dirfd one component at a time,
 * following no link: the fd or -errno. */
int cgfs_open_rel(int dirfd, const char *rel);
/* Opens the directory of a shown path ("/a/b") in the current sample:
 * the fd or -errno. */
int cgfs_open_group(struct cgfs *cg, const char *path);
/* Reads a whole small file of a group's directory into cg->buf: its
 * length or -errno. */
ssize_t cgfs_read_small(struct cgfs *cg, int dirfd, const char *name);
/* cgfs_read.c: this version's tables into cg; the files the fields need
 * (CFBIT mask); the group at path ("/a/b", NULL: none) is read next (the
 * sink is told); a group's files into s (-ENODEV: it was removed, reopen
 * and read again; else 0); the smallest memory limit above the start. */
void cgfs_use_tables(struct cgfs *cg);
unsigned cgfs_files_for(const struct cgfs *cg, uint64_t fields);
/* The fields that reading `files` can set (FBIT mask), from the same
 * tables: a sample with these slots keeps all that was read. */
uint64_t cgfs_fields_of(const struct cgfs *cg, unsigned files);
void cgfs_reading(struct cgfs *cg, const char *path);
int cgfs_read_group(struct cgfs *cg, int dirfd, int is_root,
		    unsigned files, struct sample *s);
uint64_t cgfs_limit_above(struct cgfs *cg, int rootfd);
/* Grows *p (elem-sized items, *cap of them) to hold need: 0. */
int cgfs_grow(void **p, size_t *cap, size_t need, size_t elem);

/* cgfs_find.c: the live files source's open (source.h), the version of
 * the tree in dir (cg->version; 0 or -errno with a reason in err), the
 * host's mode for its memory mount ("v1" "v2" "hybrid") and whether dir
 * is on a mounted cgroup filesystem. */
int cgfs_live_open(struct cgfs *cg, const struct cgfs_opts *opts, char *dir,
		   size_t dirlen, char *err, size_t errlen);
int cgfs_find_version(struct cgfs *cg, const char *dir, char *err,
		      size_t errlen);
const char *cgfs_host_mode(const char *mnt);
int cgfs_on_cgroupfs(const char *dir);

/*
 * The BPF pass (cgfs_bpf.c).  cgfs_bpf_open: loads it for the live tree
 * below cg->start when collector asks for it and it can; with
 * CGFS_COLLECT_BPF a failure is an error (reason in err), else cg->bpf
 * stays NULL and cg->bpf_why says why.  cgfs_bpf_walk: one refresh's
 * groups below the start group (snap->groups[0], already added), read
 * from the pass and the files still in `files`.  cgfs_bpf_value: the
 * value of file f of the group being read, from the pass: 0, -ENOENT (the
 * group has no such file), or 1 (not carried: read the file).
 */
int cgfs_bpf_open(struct cgfs *cg, enum cgfs_collector collector,
		  char *err, size_t errlen);
void cgfs_bpf_close(struct cgfs *cg, const char *why);
int cgfs_bpf_walk(struct cgfs *cg, int rootfd, unsigned files, int maxdepth,
		  struct snapshot *snap, char *err, size_t errlen);
int cgfs_bpf_value(const struct cgfs *cg, enum cgfile f, uint64_t *ret_val);

#endif
