/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs.h - the memory cgroup hierarchy: the only module that reads it.
 *
 * It finds the memory cgroup hierarchy (libcgroup on a live host, or
 * --root DIR), walks it, reads the control files that the requested fields
 * need and turns them into version-neutral samples.  It also reads the
 * system figures (meminfo, vmstat, PSI) from the procfs.  Every read and
 * write of a group's files goes through it; knob.c and edit.c hold the
 * knobs' file names.  Other modules touch files of their own: the settings
 * (config.c), themes (theme.c), the audit log (audit.c), --output
 * (output.c) and the recording (record.c).
 *
 * It is the seam between the kernel and the rest: the model, the columns
 * and the views see only snapshots (cgfs_refresh, for the fields asked),
 * a group's detail and pids (cgfs_detail, cgfs_pids: asked by the
 * collector for the screen's panes, src/collect/focus.c), and the knobs
 * (cgfs_read_knob; cgfs_write, the only write, under cgfs_lock_group).
 *
 * Behind it (src/source/, whose parts src/source/cgfs_int.h lists), three
 * choices, each made once, when the hierarchy is opened:
 *  - the source (src/source/source.h): the live files (found by
 *    cgfs_find.c: a mounted hierarchy, or a copy below --root) or a
 *    recorded series (DIR/timestamps, cgfs_replay.c: each sample's slot
 *    folder, which can seek: cgfs_seek, cgfs_reread);
 *  - the tree: a walk of the directories (cgfs_walk.c), or on a live
 *    tree as root the BPF pass (cgfs_pass.c over bpf/bpfcol.h,
 *    --collector): one cgroup-iterator pass a refresh (read in chunks:
 *    bpf/bpfcol.h) gives every group's
 *    id (its inode, as snap_group.ino), level and name, and the values of
 *    the slots it carries, which the group reader takes in place of the
 *    files (a group whose fields need other files has its directory
 *    opened by path for those only);
 *  - the reader of the files' bytes: plain, or with --record the one that
 *    hands each file, the groups kept and the sample's times to the
 *    recorder (record.h, a sink: sink.h).
 * What a group's values are, on each version, is include/fields.h: which
 * file and key, which BPF slot, what is made of what.  The group reader
 * (cgfs_read.c) reads them by it, whichever tree found the group.
 * The reclaim events (reclaim.h over bpf/bpfev.h) give the fields
 * fields.h marks EVENTS, after the refresh, in the slots the caller adds
 * (snapshot.more_slots).
 */
#ifndef MEMCGTOP_CGFS_H
#define MEMCGTOP_CGFS_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct cgfs;

/* Where the page counters and the tree's shape come from (--collector). */
enum cgfs_collector {
	CGFS_COLLECT_FILES,	/* the control files, by a directory walk */
	CGFS_COLLECT_AUTO,	/* bpf where it can load, else files, silently;
				 * files from a failed refresh on (a note) */
	CGFS_COLLECT_BPF,	/* bpf, or cgfs_open fails with the reason */
};

struct cgfs_opts {
	const char *root;	/* --root DIR, or NULL for the live host */
	const char *proc;	/* --proc DIR, or NULL for /proc */
	const char *start;	/* CGROUP argument, or NULL for "/" */
	enum cgfs_collector collector;	/* 0: files */
	/* Descriptors the caller keeps open beside the hierarchy's (the
	 * connections of --listen): the walk keeps that many fewer. */
	unsigned fd_keep;
};

/* One group as one refresh saw it. */
struct snap_group {
	size_t path_off;	/* offset of its path in snapshot.paths */
	size_t path_len;
	int depth;		/* path components below the hierarchy root */
	int parent;		/* index in snapshot.groups, -1 for the start */
	uint64_t ino;		/* its directory's inode; 0: not known */
	struct sample s;	/* its values in snapshot.vals */
};

struct snapshot {
	struct snap_group *groups;
	size_t n, cap;
	char *paths;		/* NUL-separated path strings */
	size_t paths_len, paths_cap;
	/* Every group's sample has these slots (sample.h): the fields of
	 * the files the refresh reads, those asked and more_slots.  Their
	 * values are one pool, popcount(slots) a group, in group order. */
	fieldset slots;
	fieldset more_slots;	/* set by the caller: fields it fills in
				 * after the refresh (reclaim_fill) */
	uint64_t *vals;
	size_t vals_cap;
	double mono;		/* CLOCK_MONOTONIC seconds of this refresh */
	int64_t wall;		/* Unix time of this refresh */
	uint64_t above_limit;	/* smallest memory limit above the start */
	char *numa_text;	/* memory.numa_stat texts (FLD_NUMA: offset),
				 * NUL-separated; valid until the next
				 * refresh */
	size_t numa_len, numa_cap;
	int cut_depth1;		/* 1 + the depth of groups whose subgroups
				 * were not read (maxdepth); 0: none */
	int recursiveprot;	/* cgfs_recursiveprot_of at the refresh */
	struct sysinfo sys;
	/* A source that gives the counters' rates itself (a Prometheus
	 * server's rate() over rate_window seconds): rates holds, a group
	 * after another, a double for each counter of slots (in slot
	 * order), NaN for none, and the model takes them in place of its
	 * own.  rates_given 0: the model's, from two refreshes. */
	int rates_given;
	double rate_window;
	double *rates;
	size_t rates_cap;
};

static inline const char *snap_path(const struct snapshot *s,
				    const struct snap_group *g)
{
	return s->paths + g->path_off;
}

/*
 * Opens the hierarchy.  On failure returns a negative errno and writes a
 * one-line reason (no "memcgtop: " prefix) to err.
 */
int cgfs_open(const struct cgfs_opts *opts, struct cgfs **ret_cg,
	      char *err, size_t errlen);
void cgfs_close(struct cgfs *cg);

int cgfs_version(const struct cgfs *cg);	/* 1 or 2 */
const char *cgfs_mode(const struct cgfs *cg);	/* "v1" "v2" "hybrid" */
const char *cgfs_root(const struct cgfs *cg);	/* what is shown as root */
int cgfs_is_series(const struct cgfs *cg);
/* A recording made with the reclaim events loaded, whose samples keep
 * what they gave (its replay shows those columns). */
int cgfs_series_events(const struct cgfs *cg);
/* The collector in use: "bpf" or "files". */
const char *cgfs_collector(const struct cgfs *cg);
/* v2's memory_recursiveprot mount option: 1, 0, or -1 not known (a copy
 * without --proc, a recording made before it was kept, v1). */
int cgfs_recursiveprot_of(const struct cgfs *cg);
/* The refreshes are for the screen, whose header shows no watermarks:
 * /proc/zoneinfo is not read. */
void cgfs_for_screen(struct cgfs *cg);
/* The fields the collector gives every group below the hierarchy root
 * without opening a file (the BPF pass's; none for the files). */
fieldset cgfs_free_fields(const struct cgfs *cg);
/* Why the bpf collector is not in use (one line), or "" when it is. */
const char *cgfs_bpf_why(const struct cgfs *cg);
/* Where the collector takes each kind of value from (one line: which
 * memory.stat values the BPF pass gives, and how their words were
 * proven), "" for the files collector. */
const char *cgfs_paths(const struct cgfs *cg);
/* What the source has to say since last asked (one line: the bpf
 * collector failed mid-run and auto took the files), or NULL.  The
 * caller says it: stderr, the status line. */
const char *cgfs_take_note(struct cgfs *cg);
/* The hierarchy is a mounted cgroup filesystem of this host (its pids are
 * this host's), not a copy or a recording.  Decided once, by cgfs_open();
 * cheap to ask every frame. */
int cgfs_is_live(const struct cgfs *cg);
/* For the unit tests: take a copied tree for a mounted cgroup filesystem
 * or not (see cgfs_is_live), so that the walk's listing cache, which
 * trusts only kernfs' link counts, runs on a fixture; and the number of
 * directory listings the walks have made so far. */
void cgfs_set_kernfs(struct cgfs *cg, int kernfs);
unsigned long cgfs_listings(const struct cgfs *cg);

/*
 * One refresh into snap (its buffers are reused), in the steps the
 * collector layer (src/collect/) puts its providers' work between:
 *  cgfs_begin: the sample begins (a series: the next one), for the fields
 *    in `fields` (FBIT mask), no group more than maxdepth levels below the
 *    start (-1: no limit); snap's samples have room for those and for
 *    snap->more_slots, which the caller sets before;
 *  cgfs_read_system: the system figures (meminfo, vmstat, PSI) into
 *    snap->sys, before the tree (which bounds v1's swap by SwapTotal);
 *  cgfs_read_tree: the groups and their values (the walk or the BPF
 *    pass; auto's failed pass gives way to the walk here);
 *  cgfs_end: the sample ends (a recording writes it, with what the
 *    caller added to snap since cgfs_begin).
 * Each returns 0, or a negative errno with a reason in err when the
 * hierarchy itself cannot be read (cgfs_begin: -ENODATA at the end of a
 * recorded series); after a failure, cgfs_abort.  cgfs_refresh makes
 * them all, for a caller with nothing to add (the unit tests).
 */
int cgfs_begin(struct cgfs *cg, fieldset fields, int maxdepth,
	       struct snapshot *snap, char *err, size_t errlen);
void cgfs_read_system(struct cgfs *cg, struct snapshot *snap);
int cgfs_read_tree(struct cgfs *cg, struct snapshot *snap, char *err,
		   size_t errlen);
int cgfs_end(struct cgfs *cg, struct snapshot *snap, char *err,
	     size_t errlen);
void cgfs_abort(struct cgfs *cg);
int cgfs_refresh(struct cgfs *cg, fieldset fields, int maxdepth,
		 struct snapshot *snap, char *err, size_t errlen);

void snapshot_free(struct snapshot *snap);

/*
 * Appends a group to snap, below group parent (-1: the start group; its
 * path is the parent's + "/" + name), with a sample of snap->slots and no
 * value.  The pointer into snap->groups is good until the next one.
 */
struct snap_group *cgfs_add_group(struct snapshot *snap, int parent,
				  const char *name, size_t nlen, int depth);

/* Gives every group's sample room for the fields of `more` too, their
 * values kept. */
void snapshot_add_slots(struct snapshot *snap, fieldset more);

/* A series: the next refresh reads the sample just read again (to fill in
 * fields asked for since).  No effect on a live tree. */
void cgfs_reread(struct cgfs *cg);

/* A series: the sample the last refresh read (0-based) and how many there
 * are; a live tree: 0 and 0. */
size_t cgfs_position(const struct cgfs *cg, size_t *ret_count);
/* A series: the next refresh reads sample `index`. */
void cgfs_seek(struct cgfs *cg, size_t index);

/* --record DIR [--record-max N]: every refresh from now on also writes
 * the files it read as a series in DIR (see record.h). */
int cgfs_record(struct cgfs *cg, const char *dir, long max, char *err,
		size_t errlen);


/* Everything the detail pane shows of one group: whole control files. */
#define DETAIL_MAX_FILES 20

struct cg_detail {
	size_t n;
	struct {
		const char *name;	/* the control file */
		char *text;		/* its contents, NUL-terminated */
		int err;		/* 0, or the errno of the read */
	} file[DETAIL_MAX_FILES];
};

/*
 * Reads the detail files of the group at `path` (as shown: "/a/b") of the
 * current sample.  Returns 0 or a negative errno (the group is gone).
 */
int cgfs_detail(struct cgfs *cg, const char *path, struct cg_detail *ret);
void cgfs_detail_free(struct cg_detail *d);

/*
 * The control files that field f is read from on this hierarchy, for the
 * hierarchy root (root 1) or another group: up to max names into ret_names.
 * Returns how many; 0 when this version has no such file (or the v2 root
 * has none of them: *ret_root_lacks is then 1).
 */
size_t cgfs_field_files(const struct cgfs *cg, enum field f, int root,
			const char **ret_names, size_t max, int *ret_root_lacks);

/* Whether field f may hold "max" (a limit or protection of either
 * version: unlimited; fields.h FF_MAX). */
int cgfs_field_may_be_max(enum field f);

/* How memory.numa_stat reads on a version (parse.h struct numa_view): one
 * view for the JSON numa object, one for the detail pane. */
struct numa_view;

enum cgfs_numa_for { CGFS_NUMA_JSON, CGFS_NUMA_PANE };

const struct numa_view *cgfs_numa_view(int version,
				       enum cgfs_numa_for what);

/* Where version (1 or 2) keeps field f when one control file gives it
 * (fields.h IN or PASS): the file's name and its key (NULL: the whole
 * file) into ret_file and ret_key, and 1; else 0. */
int cgfs_field_source(int version, enum field f, const char **ret_file,
		      const char **ret_key);

/* The fields cgroup version (1 or 2) keeps (fields.h: not NONE). */
fieldset cgfs_version_fields(int version);

/* The fields the reclaim events give on cgroup version (1 or 2):
 * fields.h's EVENTS, which no file has. */
fieldset cgfs_version_events(int version);

/* The pids in the group's cgroup.procs (malloc'd; caller frees). */
int cgfs_pids(struct cgfs *cg, const char *path, int **ret_pids,
	      size_t *ret_n);

/* No write, ever (--readonly): cgfs_write refuses with -EPERM. */
void cgfs_set_readonly(struct cgfs *cg);
int cgfs_readonly(const struct cgfs *cg);

/*
 * A control file of the group at `path` ("/a/b"), whitespace-trimmed into
 * buf.  Returns 0 or a negative errno.
 */
int cgfs_read_knob(struct cgfs *cg, const char *path, const char *file,
		   char *buf, size_t len);
/* 1 when the group exists (a directory reached without links), else 0. */
int cgfs_group_exists(struct cgfs *cg, const char *path);
/* 0 when the file exists and this user may write it, else -errno. */
int cgfs_can_write(struct cgfs *cg, const char *path, const char *file);
/*
 * The only write memcgtop makes: `value` into the group's own control
 * file, opened O_WRONLY|O_NOFOLLOW below the hierarchy root without
 * following any link.  Returns 0 or the kernel's negative errno.
 */
int cgfs_write(struct cgfs *cg, const char *path, const char *file,
	       const char *value);
/*
 * Waits for and takes the advisory lock of the group at `path` (flock on
 * its directory), which every memcgtop holds while it changes the group;
 * *ret_fd is for cgfs_unlock_group.  Returns 0 or a negative errno.
 */
int cgfs_lock_group(struct cgfs *cg, const char *path, int *ret_fd);
void cgfs_unlock_group(int fd);

#endif
