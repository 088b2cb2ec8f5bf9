/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgfs_bpf.c - the BPF pass (bpfcol.h) as a part of the live files source
 * (see cgfs.h).  One cgroup-iterator read per refresh gives every group
 * below the start, in pre-order, with its id (the directory's inode), its
 * parent's id, its level, its name and its page counters: the tree's shape
 * in place of the walk's listings, and the values of the files it carries
 * (usage, limits, peak, failcnt...), which read_value takes from it
 * (cgfs_bpf_value) in place of opening the file.  A group whose shown
 * columns need other files (memory.stat, PSI, events the pass lacks) has
 * its directory opened by path below the hierarchy root for them; none is
 * kept across refreshes.  The hierarchy root is read from its files, as
 * the files source reads it: the v1 root's usage is made from statistics,
 * not from its page counter, and the v2 root has no counter files.
 *
 * What it keeps open: what bpfcol keeps (the start group's directory, the
 * program, its link, two mapped maps).  The recorder (--record) and a
 * copy or recording below --root read files only.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf/bpfcol.h"
#include "cgfs_int.h"
#include "parse.h"
#include "xalloc.h"

/* The files the pass carries, each with its value in the record. */
struct pass_file {
	enum cgfile cf;
	enum bpfcol_value v;
};

static const struct pass_file v1_pass[] = {
	{ CF_USAGE, BPFCOL_USAGE },
	{ CF_MEMSW, BPFCOL_SWAP_USAGE },
	{ CF_LIMIT, BPFCOL_MAX },
	{ CF_SOFT, BPFCOL_SOFT },
	{ CF_PEAK, BPFCOL_PEAK },
	{ CF_SWAPPINESS, BPFCOL_SWAPPINESS },
	{ CF_KMEM, BPFCOL_KMEM },
	{ CF_FAILCNT, BPFCOL_FAILCNT },
};

static const struct pass_file v2_pass[] = {
	{ CF_USAGE, BPFCOL_USAGE },
	{ CF_LIMIT, BPFCOL_MAX },
	{ CF_HIGH, BPFCOL_HIGH },
	{ CF_LOW, BPFCOL_LOW },
	{ CF_MIN, BPFCOL_MIN },
	{ CF_SWAPCUR, BPFCOL_SWAP_USAGE },
	{ CF_SWAPMAX, BPFCOL_SWAP_MAX },
	{ CF_PEAK, BPFCOL_PEAK },
};

/* v2 memory.events and memory.swap.events: each key's field and slot. */
struct pass_event {
	enum cgfile cf;
	enum field field;
	enum bpfcol_event ev;
};

static const struct pass_event v2_events[] = {
	{ CF_EVENTS, F_EV_LOW, BPFCOL_EV_LOW },
	{ CF_EVENTS, F_EV_HIGH, BPFCOL_EV_HIGH },
	{ CF_EVENTS, F_EV_MAX, BPFCOL_EV_MAX },
	{ CF_EVENTS, F_EV_OOM, BPFCOL_EV_OOM },
	{ CF_EVENTS, F_EV_OOM_KILL, BPFCOL_EV_OOM_KILL },
	{ CF_SWAPEVENTS, F_SWEV_HIGH, BPFCOL_EV_SWAP_HIGH },
	{ CF_SWAPEVENTS, F_SWEV_MAX, BPFCOL_EV_SWAP_MAX },
	{ CF_SWAPEVENTS, F_SWEV_FAIL, BPFCOL_EV_SWAP_FAIL },
};

#define N(t) (sizeof(t) / sizeof((t)[0]))

/* The most recent group of each level below the start: the parent of the
 * next group one level down, in pre-order. */
struct bpf_level {
	int idx;		/* in the snapshot; -1: left out */
};

const char *cgfs_collector(const struct cgfs *cg)
{
	return cg->bpf ? "bpf" : "files";
}

const char *cgfs_bpf_why(const struct cgfs *cg)
{
	return cg->bpf ? "" : cg->bpf_why;
}

int cgfs_bpf_open(struct cgfs *cg, enum cgfs_collector collector,
		  char *err, size_t errlen)
{
	struct bpfcol_why why;
	char *path;
	int r;

	if (collector == CGFS_COLLECT_FILES) {
		snprintf(cg->bpf_why, sizeof(cg->bpf_why), "--collector files");
		return 0;
	}
	if (cg->src->series || !cg->kernfs) {
		snprintf(cg->bpf_why, sizeof(cg->bpf_why), "%s is %s, not a "
			 "mounted cgroup hierarchy", cg->root, cg->src->series ?
			 "a recording" : "a copy");
		r = -EOPNOTSUPP;
		goto fail;
	}
	path = xmalloc(strlen(cg->root) + strlen(cg->start) + 2);
	sprintf(path, "%s/%s", cg->root, cg->start);
	r = bpfcol_open(path, &cg->bpf, &why);
	free(path);
	if (r < 0) {
		cg->bpf = NULL;
		snprintf(cg->bpf_why, sizeof(cg->bpf_why), "%s", why.text);
		goto fail;
	}
	cg->bpf_why[0] = '\0';
	return 0;
fail:
	if (collector != CGFS_COLLECT_BPF)
		return 0;
	snprintf(err, errlen, "bpf collector: %s", cg->bpf_why);
	return r;
}

void cgfs_bpf_close(struct cgfs *cg, const char *why)
{
	if (cg->bpf && why)
		snprintf(cg->bpf_why, sizeof(cg->bpf_why), "%s", why);
	bpfcol_close(cg->bpf);
	cg->bpf = NULL;
	free(cg->bpf_levels);
	cg->bpf_levels = NULL;
	cg->bpf_levels_cap = 0;
}

static const struct pass_file *pass_files(const struct cgfs *cg, size_t *ret_n)
{
	*ret_n = cg->version == 2 ? N(v2_pass) : N(v1_pass);
	return cg->version == 2 ? v2_pass : v1_pass;
}

int cgfs_bpf_value(const struct cgfs *cg, enum cgfile f, uint64_t *ret_val)
{
	const struct bpfcol_group *g = cg->bpf_cur;
	const struct pass_file *p;
	size_t n;

	p = pass_files(cg, &n);
	for (size_t i = 0; i < n; i++, p++) {
		if (p->cf != f)
			continue;
		/* As opening it would answer. */
		if (!(cg->bpf_have & CFBIT(f)))
			return -ENOENT;
		if (!(g->valid & (1U << p->v)))
			return 1;
		*ret_val = (g->unlimited & (1U << p->v)) ? VAL_MAX : g->v[p->v];
		/* As read_value: only a limit can say max. */
		if (*ret_val == VAL_MAX && !(cg->may_max & CFBIT(f)))
			return -ERANGE;
		return 0;
	}
	return 1;
}

/*
 * Which of the pass's files exist: the same in every group with the
 * memory controller but the root (their cftypes are the hierarchy's), so
 * one such group's directory tells, once.
 * The pass has a field where this kernel lacks the file (v1 memsw without
 * swap accounting, v2 memory.peak before 5.19), and then the file's
 * absence must show, as the files source shows it.  Returns 0, or -errno
 * when the group's directory cannot be opened (gone: ask the next one).
 */
static int probe(struct cgfs *cg, int fd)
{
	const struct pass_file *p;
	size_t n;

	p = pass_files(cg, &n);
	cg->bpf_have = 0;
	for (size_t i = 0; i < n; i++)
		if (faccessat(fd, cg->file[p[i].cf], F_OK,
			      AT_SYMLINK_NOFOLLOW) == 0)
			cg->bpf_have |= CFBIT(p[i].cf);
	for (size_t i = 0; cg->version == 2 && i < N(v2_events); i++)
		if (faccessat(fd, cg->file[v2_events[i].cf], F_OK,
			      AT_SYMLINK_NOFOLLOW) == 0)
			cg->bpf_have |= CFBIT(v2_events[i].cf);
	cg->bpf_probed = 1;
	return 0;
}

/* The files of `files` the pass gives this group, events included. */
static unsigned from_pass(const struct cgfs *cg, const struct bpfcol_group *g,
			  unsigned files)
{
	const struct pass_file *p;
	unsigned got = 0;
	size_t n;

	p = pass_files(cg, &n);
	for (size_t i = 0; i < n; i++)
		if (!(cg->bpf_have & CFBIT(p[i].cf)) ||
		    (g->valid & (1U << p[i].v)))
			got |= CFBIT(p[i].cf);
	if (cg->version == 2) {
		unsigned ev = CFBIT(CF_EVENTS) | CFBIT(CF_SWAPEVENTS);

		/* A file whose every key the pass has; else it is read. */
		for (size_t i = 0; i < N(v2_events); i++)
			if (!(g->events_valid & (1U << v2_events[i].ev)) ||
			    !(cg->bpf_have & CFBIT(v2_events[i].cf)))
				ev &= ~CFBIT(v2_events[i].cf);
		got |= ev;
	}
	return got & files;
}

/*
 * Reads group idx of the snapshot (record g): from the pass, and from its
 * directory, opened by path below rootfd, what the pass lacks.  Returns 0,
 * 1 when the group turned out gone (left out), or -errno.
 */
static int read_one(struct cgfs *cg, int rootfd, struct snapshot *snap,
		    int idx, const struct bpfcol_group *g, unsigned files)
{
	struct snap_group *sg = &snap->groups[idx];
	const char *rel = snap_path(snap, sg) + 1;
	/* The root as the files source reads it (a --root mount's top). */
	int is_root = idx == 0 && !*cg->start;
	/* The files the pass may give: not the root's; none until a group
	 * with the memory controller told which exist (v2: a group without
	 * it has no memory files). */
	int use = !is_root && (cg->bpf_probed ||
			       (g->valid & (1U << BPFCOL_USAGE)));
	unsigned pass = 0, disk = files, ev = 0;
	int fd = -1, r, tries;

	sample_clear(&sg->s);
	sg->ino = g->id;
	if (use) {
		if (!cg->bpf_probed) {
			/* Shown, nothing available, as the walk shows a
			 * directory it cannot enter; or gone. */
			fd = cgfs_open_rel(rootfd, rel);
			if (fd < 0)
				return fd == -EACCES || fd == -EPERM ? 0 : 1;
			probe(cg, fd);
		}
		pass = from_pass(cg, g, files);
		ev = pass & (CFBIT(CF_EVENTS) | CFBIT(CF_SWAPEVENTS));
		disk = files & ~pass;
		/* v1 swap's fallback reads memory.stat (read_group). */
		if (cg->version == 1 && (files & CFBIT(CF_MEMSW)) &&
		    !(pass & CFBIT(CF_MEMSW)))
			disk |= CFBIT(CF_STAT);
	}
	for (tries = 0; tries < 2; tries++) {
		if (disk && fd < 0) {
			fd = cgfs_open_rel(rootfd, rel);
			if (fd == -EACCES || fd == -EPERM) {
				/* As the walk: shown, nothing available. */
				sample_clear(&sg->s);
				return 0;
			}
			if (fd < 0)
				return 1;
		}
		cg->bpf_cur = use ? g : NULL;
		r = cgfs_read_group(cg, fd, is_root, files & ~ev, &sg->s);
		cg->bpf_cur = NULL;
		if (fd >= 0)
			close(fd);
		fd = -1;
		/* Removed since the pass, maybe made again: once more. */
		if (r != -ENODEV)
			break;
	}
	if (r == -ENODEV)
		return 1;
	for (size_t i = 0; ev && i < N(v2_events); i++)
		if ((ev & CFBIT(v2_events[i].cf)) &&
		    parse_in_range(g->events[v2_events[i].ev]))
			sample_set(&sg->s, v2_events[i].field,
				   g->events[v2_events[i].ev]);
	return 0;
}

static void drop(struct snapshot *snap, int idx)
{
	snap->n--;
	snap->paths_len = snap->groups[idx].path_off;
}

/*
 * Asks the pass for the values of this refresh's files only.  Were the
 * kernel to refuse, the pass would go on reading everything: no harm.
 */
static void want_pass(struct cgfs *cg, unsigned files)
{
	const struct pass_file *p;
	uint32_t values = 0;
	size_t n;

	p = pass_files(cg, &n);
	for (size_t i = 0; i < n; i++)
		if (files & CFBIT(p[i].cf))
			values |= 1U << p[i].v;
	bpfcol_want(cg->bpf, values, (files & (CFBIT(CF_EVENTS) |
					       CFBIT(CF_SWAPEVENTS))) != 0);
}

int cgfs_bpf_walk(struct cgfs *cg, int rootfd, unsigned files, int maxdepth,
		  struct snapshot *snap, char *err, size_t errlen)
{
	/* One record at a time, converted where the kernel's map has it:
	 * no copy of the whole walk. */
	struct bpfcol_group g;
	struct bpfcol_why why;
	struct bpf_level *lv;
	size_t deepest;
	unsigned level0;
	size_t n;
	int r;

	want_pass(cg, files);
	r = bpfcol_read(cg->bpf, &n, &why);
	if (r == -ENOENT) {
		/* The start group is gone, or was made again: the files
		 * source says the same, or reads the new one. */
		int fd = cgfs_open_rel(rootfd, cg->start);

		if (fd < 0) {
			snprintf(err, errlen, "%s/%s: %s", cg->root, cg->start,
				 strerror(-fd));
			return fd;
		}
		close(fd);
		bpfcol_close(cg->bpf);
		cg->bpf = NULL;
		r = cgfs_bpf_open(cg, CGFS_COLLECT_BPF, err, errlen);
		if (r < 0)
			return r;
		r = bpfcol_read(cg->bpf, &n, &why);
	}
	if (r < 0) {
		snprintf(err, errlen, "bpf collector: %s", why.text);
		return r;
	}
	bpfcol_group(cg->bpf, 0, &g);
	level0 = g.level;
	r = read_one(cg, rootfd, snap, 0, &g, files);
	if (r < 0)
		return r;
	if (r == 1) {
		snprintf(err, errlen, "%s/%s: %s", cg->root, cg->start,
			 strerror(ENOENT));
		return -ENOENT;
	}
	if (cg->bpf_levels_cap == 0) {
		cg->bpf_levels_cap = 64;
		cg->bpf_levels = xreallocarray(NULL, cg->bpf_levels_cap,
					       sizeof(*cg->bpf_levels));
	}
	lv = cg->bpf_levels;
	lv[0].idx = 0;
	deepest = 0;
	for (size_t i = 1; i < n; i++) {
		size_t rel;
		struct snap_group *sg;
		int parent, idx;

		bpfcol_group(cg->bpf, i, &g);
		rel = g.level - level0;
		/* Pre-order: a group comes after its parent, which is the
		 * last group seen one level up. */
		if (g.level <= level0 || (maxdepth >= 0 &&
					  rel > (size_t)maxdepth))
			continue;
		if (rel >= cg->bpf_levels_cap) {
			cg->bpf_levels = xreallocarray(cg->bpf_levels,
						       cg->bpf_levels_cap * 2,
						       sizeof(*lv));
			cg->bpf_levels_cap *= 2;
			lv = cg->bpf_levels;
		}
		/* Every group of an online group's path is online (rmdir
		 * refuses a group with children), so levels never skip one;
		 * were one to, its records are left out, not misplaced. */
		if (rel > deepest + 1)
			continue;
		deepest = rel;
		lv[rel].idx = -1;
		parent = lv[rel - 1].idx;
		if (parent < 0 || g.name_len == 0)
			continue;	/* under a group left out */
		r = cgfs_add_group(snap, parent, g.name, g.name_len,
			      snap->groups[parent].depth + 1, &sg);
		if (r < 0)
			break;
		idx = (int)(sg - snap->groups);
		r = read_one(cg, rootfd, snap, idx, &g, files);
		if (r < 0)
			break;
		if (r == 1) {
			drop(snap, idx);
			r = 0;
			continue;
		}
		lv[rel].idx = idx;
	}
	if (r < 0)
		snprintf(err, errlen, "%s", strerror(-r));
	return r;
}
