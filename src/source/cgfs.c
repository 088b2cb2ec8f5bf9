/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs.c - a hierarchy opened through its source (the live files or a
 * recording, source.h) and its tree (the directory walk or the BPF pass),
 * read a refresh at a time: the one entry of the source layer (cgfs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs_int.h"
#include "parse.h"
#include "record.h"
#include "sink.h"
#include "sysinfo.h"
#include "xalloc.h"

int cgfs_version(const struct cgfs *cg)
{
	return cg->version;
}

const char *cgfs_mode(const struct cgfs *cg)
{
	return cg->shown_mode ? cg->shown_mode : cg->mode;
}

const char *cgfs_root(const struct cgfs *cg)
{
	return cg->shown_root ? cg->shown_root : cg->root;
}

int cgfs_is_live(const struct cgfs *cg)
{
	return cg->kernfs;
}

int cgfs_is_series(const struct cgfs *cg)
{
	return cg->src->series;
}

const char *cgfs_collector(const struct cgfs *cg)
{
	/* A recording says how it was read live, as its mode and root. */
	if (cg->src->series && cg->replay_bpf)
		return "bpf";
	return cg->tree->ops->name;
}

fieldset cgfs_free_fields(const struct cgfs *cg)
{
	/* A recording the pass made: what it carried, as it was live. */
	if (cg->src->series && cg->replay_bpf)
		return cgfs_pass_fields(cg->ver, ~(mr_set)0);
	return cg->tree->ops->carried(cg->tree, cg->ver);
}

const char *cgfs_tree_paths(const struct cgfs_tree *t)
{
	return t->ops->paths ? t->ops->paths(t) : "";
}

const char *cgfs_paths(const struct cgfs *cg)
{
	return cgfs_tree_paths(cg->tree);
}

const char *cgfs_bpf_why(const struct cgfs *cg)
{
	return cg->bpf_why;
}

void cgfs_set_kernfs(struct cgfs *cg, int kernfs)
{
	cg->kernfs = !cg->src->fresh_tree && kernfs;
	cg->io.kernfs = cg->kernfs;
	cgfs_walk_set_kernfs(cg->tree, cg->kernfs);
}

unsigned long cgfs_listings(const struct cgfs *cg)
{
	return cgfs_walk_listings(cg->tree);
}

size_t cgfs_position(const struct cgfs *cg, size_t *ret_count)
{
	return cg->src->position(cg, ret_count);
}

void cgfs_seek(struct cgfs *cg, size_t index)
{
	cg->src->seek(cg, index);
}

void cgfs_reread(struct cgfs *cg)
{
	cg->src->reread(cg);
}

/* Path components of the start group below the hierarchy root. */
static int start_depth(const char *start)
{
	int depth = *start ? 1 : 0;

	for (const char *p = start; *p; p++)
		depth += *p == '/';
	return depth;
}

const char *cgfs_take_note(struct cgfs *cg)
{
	if (!cg->note_new)
		return NULL;
	cg->note_new = 0;
	return cg->note;
}

static void use_walk(struct cgfs *cg, const char *why);

/* What the reclaim events gave, kept beside the files of the sample:
 * each group's in its memcgtop.events, the system's in the procfs
 * folder's. */
static void keep_events(struct cgfs *cg, const struct snapshot *snap)
{
	char buf[4096];
	size_t n;

	for (size_t i = 0; i < snap->n; i++) {
		n = cgfs_event_lines(cg->ver, &snap->groups[i].s, buf,
				     sizeof(buf));
		if (!n)
			continue;
		cg->rd->ops->group(cg->rd, snap_path(snap, &snap->groups[i]));
		cg->rd->ops->kept(cg->rd, CGFS_RECEV_FILE, buf, n);
		cg->rd->ops->group(cg->rd, NULL);
	}
	n = sysinfo_event_lines(&snap->sys, buf, sizeof(buf));
	if (n)
		cg->sink->ops->proc(cg->sink, CGFS_RECEV_FILE, buf, n);
}

/* The sample's slots, the root opened, the reader begun and the start
 * group added: what a walk starts from (again, after a failed pass). */
static int start_sample(struct cgfs *cg, struct snapshot *snap, char *err,
			size_t errlen)
{
	struct cgfs_want *w = &cg->ask.want;
	int r;

	snap->n = 0;
	snap->paths_len = 0;
	snap->numa_len = 0;
	/* Room for every field of the files read, but not for the fields
	 * the pass carries that were not asked for: it reads only those
	 * asked (the mission view's samples had 24 slots where 11 are
	 * asked: 3.4 MiB of the snapshot's 11 at 32,768 groups), nor for
	 * those the version keeps nowhere (v2's on v1: -F json's every
	 * column asks for them). */
	snap->slots = ((cg->ask.fields | w->fields |
			(cgfs_fields_of(cg->ver, w->files | w->root_files) &
			 ~cgfs_free_fields(cg))) & cgfs_kept_fields(cg->ver)) |
		snap->more_slots;
	snap->above_limit = VAL_MAX;
	snap->recursiveprot = cg->recursiveprot;
	cg->ask.rootfd = open(cg->ask.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cg->ask.rootfd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", cg->ask.dir, strerror(-r));
		return r;
	}
	cg->rd->ops->begin(cg->rd, cg->ask.rootfd, cgfs_version_file(cg->ver));
	cgfs_add_group(snap, -1, cg->start, strlen(cg->start),
		       start_depth(cg->start));
	return 0;
}

void cgfs_abort(struct cgfs *cg)
{
	if (cg->ask.rootfd >= 0)
		close(cg->ask.rootfd);
	cg->ask.rootfd = -1;
}

int cgfs_begin(struct cgfs *cg, fieldset fields, int maxdepth,
	       struct snapshot *snap, char *err, size_t errlen)
{
	int r;

	cgfs_abort(cg);
	r = cg->src->begin(cg, cg->ask.dir, sizeof(cg->ask.dir), snap);
	if (r < 0)
		return r;
	cg->ask.fields = fields;
	cg->ask.maxdepth = maxdepth;
	cgfs_want_for(cg->ver, fields, &cg->ask.want);
	snap->cut_depth1 = maxdepth >= 0 ?
		start_depth(cg->start) + maxdepth + 1 : 0;
	return start_sample(cg, snap, err, errlen);
}

void cgfs_read_system(struct cgfs *cg, struct snapshot *snap)
{
	const struct sysinfo *sys = &snap->sys;

	sysinfo_want_zoneinfo(cg->sys, !cg->screen);
	/* Whether the multi-gen LRU runs: for scan_prio (the own LRU lists)
	 * and the soft-limit tree, which it does without. */
	sysinfo_want_lru_gen(cg->sys,
			     (cg->ask.fields & (FBIT(FLD_OWN_INACTIVE_FILE) |
						FBIT(FLD_SOFT_TREE) |
						FBIT(FLD_SOFT_RANK))) != 0);
	sysinfo_read(cg->sys, cg->src->sys_slot(cg), &snap->sys);
	if (cg->sys_is_trees && (sys->valid & SBIT(SYS_SWAP_TOTAL)))
		cg->ask.want.swap_ceiling = sys->v[SYS_SWAP_TOTAL];
}

static int walk_once(struct cgfs *cg, struct snapshot *snap, char *err,
		     size_t errlen)
{
	int r;

	r = cg->tree->ops->walk(cg->tree, cg, cg->ask.rootfd, &cg->ask.want,
				cg->ask.maxdepth, snap, err, errlen);
	if (r == 0 && *cg->start && (cg->ask.fields & FBIT(FLD_LIMIT)))
		snap->above_limit = cgfs_limit_above(cg->ver, cg->rd,
						     cg->ask.rootfd, cg->start);
	return r;
}

/*
 * auto is never worse than files: a BPF pass that fails for a reason of
 * its own gives way to the walk, for the rest of the run, and the tree
 * is read again by it; the reason is said once (cgfs_take_note).
 */
int cgfs_read_tree(struct cgfs *cg, struct snapshot *snap, char *err,
		   size_t errlen)
{
	int r;

	cg->tree->failed[0] = '\0';
	r = walk_once(cg, snap, err, errlen);
	if (r >= 0 || !cg->tree->failed[0] ||
	    cg->collector != CGFS_COLLECT_AUTO)
		return r;
	snprintf(cg->note, sizeof(cg->note), "bpf collector: %s; the files "
		 "collector from now on", cg->tree->failed);
	cg->note_new = 1;
	use_walk(cg, cg->tree->failed);
	cgfs_abort(cg);
	r = start_sample(cg, snap, err, errlen);
	return r < 0 ? r : walk_once(cg, snap, err, errlen);
}

int cgfs_end(struct cgfs *cg, struct snapshot *snap, char *err,
	     size_t errlen)
{
	cgfs_abort(cg);
	if (cg->sink)
		keep_events(cg, snap);
	return cg->rd->ops->end(cg->rd, snap, err, errlen);
}

int cgfs_refresh(struct cgfs *cg, fieldset fields, int maxdepth,
		 struct snapshot *snap, char *err, size_t errlen)
{
	int r = cgfs_begin(cg, fields, maxdepth, snap, err, errlen);

	if (r < 0)
		return r;
	cgfs_read_system(cg, snap);
	r = cgfs_read_tree(cg, snap, err, errlen);
	if (r < 0) {
		cgfs_abort(cg);
		return r;
	}
	return cgfs_end(cg, snap, err, errlen);
}

/* The directory walk in place of the BPF pass, saying why. */
static void use_walk(struct cgfs *cg, const char *why)
{
	/* why may be the old tree's own words */
	snprintf(cg->bpf_why, sizeof(cg->bpf_why), "%s", why);
	if (cg->tree)
		cg->tree->ops->free(cg->tree);
	cg->tree = cgfs_walk_new(cg->src->fresh_tree, cg->kernfs, cg->fd_keep);
}

/*
 * The tree for the collector asked: the BPF pass where it can load below
 * the start group of a live tree, else the walk (with CGFS_COLLECT_BPF a
 * failure is an error, with the reason in err).
 */
static int pick_tree(struct cgfs *cg, enum cgfs_collector collector,
		     char *err, size_t errlen)
{
	char why[300];
	char *path;

	if (collector == CGFS_COLLECT_FILES) {
		use_walk(cg, "--collector files");
		return 0;
	}
	if (cg->src->series || !cg->kernfs) {
		snprintf(why, sizeof(why), "%s is %s, not a mounted cgroup "
			 "hierarchy", cg->root, cg->src->series ?
			 "a recording" : "a copy");
	} else {
		path = xmalloc(strlen(cg->root) + strlen(cg->start) + 2);
		sprintf(path, "%s/%s", cg->root, cg->start);
		cg->tree = cgfs_pass_new(cg->ver, *cg->start ? cg->root : NULL,
					 path, why, sizeof(why));
		free(path);
		if (cg->tree) {
			cg->bpf_why[0] = '\0';
			return 0;
		}
	}
	use_walk(cg, why);
	if (collector != CGFS_COLLECT_BPF)
		return 0;
	snprintf(err, errlen, "bpf collector: %s", why);
	return -EOPNOTSUPP;
}

/*
 * v2's memory_recursiveprot, which effective protection follows: the
 * mount's super options, from --proc's self/mountinfo (else its mounts)
 * where given, else this host's for a live tree; a recording's info says
 * it (cgfs_replay.c); else not known.
 */
static void find_recursiveprot(struct cgfs *cg, const char *proc)
{
	char path[PATH_MAX];

	if (cg->version != 2)
		return;
	if (proc) {
		snprintf(path, sizeof(path), "%s/self/mountinfo", proc);
		cg->recursiveprot = cgfs_recursiveprot(path, NULL);
		if (cg->recursiveprot < 0) {
			snprintf(path, sizeof(path), "%s/mounts", proc);
			cg->recursiveprot = cgfs_recursiveprot(path, NULL);
		}
	} else if (cg->kernfs) {
		cg->recursiveprot =
			cgfs_recursiveprot("/proc/self/mountinfo", cg->root);
	}
}

void cgfs_for_screen(struct cgfs *cg)
{
	cg->screen = 1;
}

int cgfs_series_events(const struct cgfs *cg)
{
	return cg->series_events;
}

int cgfs_recursiveprot_of(const struct cgfs *cg)
{
	return cg->recursiveprot;
}

int cgfs_record(struct cgfs *cg, const char *dir, long max, char *err,
		size_t errlen)
{
	struct recorder *rec;
	struct sink *sink;
	int r;

	if (cg->src->series) {
		snprintf(err, errlen, "--record: a recording cannot be "
			 "recorded again; record the live hierarchy");
		return -EINVAL;
	}
	r = record_open(dir, max, cgfs_mode(cg), cgfs_collector(cg),
			cg->recursiveprot, cgfs_root(cg), cg->start, &rec,
			err, errlen);
	if (r < 0)
		return r;
	/* A recording keeps the files' bytes as read, and what the BPF
	 * pass gave in their place as their text (cgfs_keep.c). */
	sink = record_sink(rec);
	cg->rd = cgfs_tee_reader(cg->rd, sink);
	cg->sink = sink;
	/* The system figures come from the files themselves while recording
	 * (not through libproc2), so that the very bytes are kept. */
	if (!cg->proc_given) {
		sysinfo_close(cg->sys);
		cg->sys = NULL;
		sysinfo_open("/proc", &cg->sys);
	}
	sysinfo_sink(cg->sys, sink);
	return 0;
}

/* A --root folder with a timestamps file holds a recording. */
static const struct source_ops *pick_source(const struct cgfs_opts *opts)
{
	char path[PATH_MAX + 16];
	struct stat st;

	if (!opts->root)
		return &cgfs_live_ops;
	snprintf(path, sizeof(path), "%s/timestamps", opts->root);
	return stat(path, &st) == 0 ? &cgfs_replay_ops : &cgfs_live_ops;
}

int cgfs_open(const struct cgfs_opts *opts, struct cgfs **ret_cg,
	      char *err, size_t errlen)
{
	struct cgfs *cg = xcalloc(1, sizeof(*cg));

	cg->recursiveprot = -1;
	cg->ask.rootfd = -1;
	char path[PATH_MAX];
	int r;

	cg->src = pick_source(opts);
	cgfs_io_init(&cg->io);
	cg->rd = cgfs_plain_reader(&cg->io);
	r = cgfs_normalise(opts->start ? opts->start : "", &cg->start);
	if (r < 0) {
		snprintf(err, errlen, "%s: not a cgroup path (no '.' or '..' "
			 "components)", opts->start);
		cgfs_close(cg);
		return r;
	}
	r = cg->src->open(cg, opts, path, sizeof(path), err, errlen);
	if (r == 0)
		r = cgfs_find_version(cg, path, err, errlen);
	if (r < 0) {
		cgfs_close(cg);
		return r;
	}
	cg->ver = cg->src->series ? cgfs_version_replay(cg->version) :
		cgfs_version_of(cg->version);
	/* Hybrid is a property of the host: only its own hierarchy (no
	 * --root) can be one. */
	cg->mode = !opts->root ? cgfs_host_mode(cg->root) :
		(cg->version == 2 ? "v2" : "v1");
	if (*cg->start) {
		int rootfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int fd = rootfd < 0 ? -errno : cgfs_open_rel(rootfd, cg->start);

		if (rootfd >= 0)
			close(rootfd);
		if (fd < 0) {
			snprintf(err, errlen, "/%s: no such group under %s: %s",
				 cg->start, cg->root, strerror(-fd));
			cgfs_close(cg);
			return fd;
		}
		close(fd);
	}
	/* Asked once: callers may ask every frame (cgfs_is_live). */
	cg->kernfs = !cg->src->fresh_tree && cgfs_on_cgroupfs(cg->root);
	cg->io.kernfs = cg->kernfs;
	cg->proc_given = opts->proc != NULL;
	/* This host's system figures belong to its own hierarchy only: a
	 * copy read without --proc is another host's (or a container's),
	 * and a recording replays its own or none (cgfs_replay.c). */
	cg->sys_is_trees = cg->kernfs || cg->proc_given || cg->src->series;
	cg->src->open_sys(cg, opts->proc);
	find_recursiveprot(cg, opts->proc);
	cg->collector = opts->collector;
	cg->fd_keep = opts->fd_keep;
	r = pick_tree(cg, opts->collector, err, errlen);
	if (r < 0) {
		cgfs_close(cg);
		return r;
	}
	*ret_cg = cg;
	return 0;
}

void cgfs_close(struct cgfs *cg)
{
	if (!cg)
		return;
	cgfs_abort(cg);
	if (cg->tree)
		cg->tree->ops->free(cg->tree);
	if (cg->rd)
		cg->rd->ops->free(cg->rd);
	if (cg->src->close)
		cg->src->close(cg);
	free(cg->shown_mode);
	free(cg->shown_root);
	sysinfo_close(cg->sys);
	free(cg->root);
	free(cg->start);
	cgfs_io_free(&cg->io);
	free(cg);
}
