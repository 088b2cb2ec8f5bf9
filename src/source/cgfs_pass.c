/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgfs_pass.c - the tree of a refresh by the BPF pass (bpf/bpfcol.h): one
 * cgroup-iterator read per refresh gives every group below the start, in
 * pre-order, with its id (the directory's inode), its level, its name and
 * the values of the record's slots: the tree's shape in place of the
 * walk's listings, and the values the pass carries (include/fields.h:
 * PASS), which the group reader (cgfs_read.c) takes from the record in
 * place of opening the files.  A group whose shown columns need other
 * files (memory.stat, PSI) has its directory opened by path below the
 * hierarchy root for them; none is kept across refreshes.  The hierarchy
 * root is read from its files, as the walk reads it: the v1 root's usage
 * is made from statistics, not from its page counter, and the v2 root has
 * no counter files.
 *
 * What it keeps open: what bpfcol keeps (the start group's directory, the
 * program, its link, two mapped maps).  A recording (--record) and a copy
 * or recording below --root are walked (cgfs_walk.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf/bpfcol.h"
#include "cgfs_int.h"
#include "clock.h"
#include "xalloc.h"

struct pass {
	struct cgfs_tree tree;
	struct bpfcol *col;
	char *dir;		/* the start group's directory */
	unsigned have;		/* CFBIT of the pass's files that exist */
	int probed;		/* have is known */
	int *levels;		/* the walk's parents by level (below) */
	size_t levels_cap;
	int err;		/* a group's files could not be read for want
				 * of descriptors or memory (cgfs_short_of) */
	/* memory.stat in the pass (cgfs_prove.c): the start group's file,
	 * read once a refresh that wants a stat slot, before the walk. */
	const struct cgfs_version *ver;
	struct cgfs_prove *pr;
	char *stat;
	size_t stat_len, stat_cap;
	int stat_ok;		/* stat holds this refresh's file */
	char paths[400];
	int said_unproven;	/* say_unproven said it */
};

/*
 * The start group's memory.stat, whole, into p->stat.  Reading it makes
 * the kernel flush the statistics of the group's subtree when enough
 * updates are pending (64 per online CPU on 6.x; else the periodic flush
 * every 2 s has them): this read is the refresh's one flush, and the
 * walk right after reads what it flushed.
 */
static int read_start_stat(struct pass *p, int dirfd)
{
	int fd = openat(dirfd, cgfs_file_name(p->ver, CF_STAT),
			O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n;

	p->stat_ok = 0;
	p->stat_len = 0;
	if (fd < 0)
		return -errno;
	for (;;) {
		if (p->stat_cap - p->stat_len < 4096) {
			p->stat_cap = p->stat_cap ? p->stat_cap * 2 : 8192;
			p->stat = xreallocarray(p->stat, p->stat_cap, 1);
		}
		n = read(fd, p->stat + p->stat_len, p->stat_cap - p->stat_len);
		if (n <= 0)
			break;
		p->stat_len += (size_t)n;
	}
	close(fd);
	if (n < 0)
		return -EIO;
	p->stat_ok = 1;
	return 0;
}

/* The proofs on this refresh's file and walk; 1 when the walk must be
 * made again for newly proven words. */
static int prove(struct pass *p)
{
	struct memcg_layout lay;
	const int64_t (*raw)[MR_ARR_WORDS];
	int more;

	if (!p->stat_ok || bpfcol_layout(p->col, &lay, &raw) < 0)
		return 0;
	if (!p->pr)
		p->pr = cgfs_prove_new(p->ver, bpfcol_pagesize(p->col));
	more = cgfs_prove_update(p->pr, p->stat, p->stat_len, &lay, raw);
	bpfcol_select(p->col, cgfs_prove_sels(p->pr), cgfs_prove_zero(p->pr));
	cgfs_prove_describe(p->pr, p->paths, sizeof(p->paths));
	return more;
}

/*
 * Which of the pass's files exist: the same in every group with the
 * memory controller but the root (their cftypes are the hierarchy's), so
 * one such group's directory tells, once.
 */
static void probe(struct pass *p, const struct cgfs_version *v, int fd)
{
	unsigned files = cgfs_pass_files(v);

	p->have = 0;
	for (int cf = 0; cf < CF_NR; cf++)
		if ((files & CFBIT(cf)) &&
		    faccessat(fd, cgfs_file_name(v, (enum cgfile)cf), F_OK,
			      AT_SYMLINK_NOFOLLOW) == 0)
			p->have |= CFBIT(cf);
	p->probed = 1;
}

/*
 * Reads group idx of the snapshot (record g): from the record, and from
 * its directory, opened by path below rootfd, what the record lacks.
 * Returns 0, or 1 when the group turned out gone (left out) or, with
 * p->err set, when the process ran short (the pass fails).
 */
static int read_one(struct pass *p, struct cgfs *cg, int rootfd,
		    const struct cgfs_want *w, struct snapshot *snap, int idx,
		    const struct bpfcol_rec *g)
{
	struct snap_group *sg = &snap->groups[idx];
	struct cgfs_group_src src = {
		.dirfd = -1, .rootfd = rootfd, .rel = snap_path(snap, sg) + 1,
		/* The root as the walk reads it (a --root mount's top). */
		.is_root = sg->depth == 0, .snap = snap,
		.ino = sg->depth == 0 ? 0 : g->id,
	};
	int r = 0;

	sample_clear(&sg->s);
	sg->ino = g->id;
	/* The record gives values: not the root's; none until a group with
	 * the memory controller told which files exist (v2: a group
	 * without it has no memory files). */
	if (idx == 0 && p->stat_ok) {
		src.stat_text = p->stat;
		src.stat_len = p->stat_len;
	}
	if (src.is_root) {
		/* Its memory.stat values only (v1: its total_* are its
		 * vmstats too); its counters from the files. */
		src.pass = g;
		src.stat_only = 1;
	} else if (p->probed || (g->have & MR_BIT(USAGE))) {
		if (!p->probed) {
			int fd = cgfs_open_rel(rootfd, src.rel);

			if (fd < 0 && cgfs_short_of(fd)) {
				p->err = fd;
				return 1;
			}
			/* Shown, nothing available, as the walk shows a
			 * directory it cannot enter; or gone. */
			if (fd < 0)
				return fd == -EACCES || fd == -EPERM ? 0 : 1;
			probe(p, cg->ver, fd);
			close(fd);
		}
		src.pass = g;
		src.pass_have = p->have;
	}
	cg->rd->ops->group(cg->rd, snap_path(snap, sg));
	/* Removed since the pass, maybe made again: once more. */
	for (int tries = 0; tries < 2; tries++) {
		r = cgfs_read_group(cg->ver, cg->rd, w, &src, &sg->s);
		if (r != -ENODEV)
			break;
	}
	cg->rd->ops->group(cg->rd, NULL);
	if (cgfs_short_of(r)) {
		p->err = r;
		return 1;
	}
	return r == -ENODEV;
}

/*
 * A walk of the pass.  The sample is of its time: a refresh that loads
 * the program again first (the stats map grown, a group renamed) would
 * otherwise date its values to before the load.
 */
static int pass_read(struct pass *p, struct snapshot *snap, size_t *ret_n,
		     struct bpfcol_why *why)
{
	snap->mono = clock_mono();
	return bpfcol_read(p->col, ret_n, why);
}

/*
 * Under --collector bpf, what the pass does not carry of what is shown
 * is said, once a run (auto takes the files for it quietly): the
 * memory.stat values whose words are not proven on this kernel (not
 * those known 0 this refresh).
 */
static void say_unproven(struct pass *p, struct cgfs *cg, uint64_t slots)
{
	uint64_t left = slots & MR_STATS;
	char keys[200];
	size_t off = 0;

	if (cg->collector != CGFS_COLLECT_BPF || p->said_unproven || !p->pr)
		return;
	left &= ~(cgfs_prove_proven(p->pr) | cgfs_prove_zero(p->pr));
	if (!left)
		return;
	keys[0] = '\0';
	for (uint64_t l = left; l && off < sizeof(keys) - 1; l &= l - 1) {
		int n = snprintf(keys + off, sizeof(keys) - off, "%s%s",
				 off ? ", " : "",
				 bpfcol_slot_key((enum mr_slot)__builtin_ctzll(l)));

		off += n > 0 ? (size_t)n : 0;
	}
	snprintf(cg->note, sizeof(cg->note), "bpf collector: memory.stat's "
		 "%.200s read from the files (not proven in the kernel's "
		 "statistics)", keys);
	cg->note_new = 1;
	p->said_unproven = 1;
}

/* The inode of the directory at rel below rootfd; 0 when there is none. */
static uint64_t path_ino(int rootfd, const char *rel)
{
	struct stat st;

	return fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		S_ISDIR(st.st_mode) ? (uint64_t)st.st_ino : 0;
}

/*
 * Asks the pass for the slots of this refresh's fields only.  Were the
 * kernel to refuse, the pass would go on reading everything: no harm.
 */
static int pass_walk(struct cgfs_tree *t, struct cgfs *cg, int rootfd,
		     const struct cgfs_want *w, int maxdepth,
		     struct snapshot *snap, char *err, size_t errlen)
{
	struct pass *p = (struct pass *)t;
	/* One record at a time, converted where the kernel's map has it:
	 * no copy of the whole walk. */
	struct bpfcol_rec g;
	struct bpfcol_why why;
	char what[300];
	size_t deepest, n;
	unsigned level0;
	int *lv, r;

	p->err = 0;
	p->stat_ok = 0;
	if (w->pass_slots & MR_STATS) {
		int fd = cgfs_open_rel(rootfd, cg->start);

		if (fd >= 0) {
			read_start_stat(p, fd);
			close(fd);
		}
	} else {
		/* No zeros known without this refresh's file. */
		if (p->pr)
			bpfcol_select(p->col, cgfs_prove_sels(p->pr), 0);
	}
	bpfcol_want(p->col, w->pass_slots);
	r = pass_read(p, snap, &n, &why);
	/* The iterator holds the group it was opened on, whatever its name
	 * now: the start path must still name it (renamed away, or another
	 * group made under the name), else the pass follows the path. */
	if (r == 0 && *cg->start) {
		bpfcol_record(p->col, 0, &g);
		if (path_ino(rootfd, cg->start) != g.id)
			r = -ENOENT;
	}
	if (r == -ENOENT) {
		/* The start group is gone, moved, or made again: the walk
		 * says the same, or reads the group the path names now. */
		int fd = cgfs_open_rel(rootfd, cg->start);

		if (fd < 0) {
			snprintf(err, errlen, "%s/%s: %s", cg->root, cg->start,
				 strerror(-fd));
			return fd;
		}
		close(fd);
		bpfcol_close(p->col);
		p->col = NULL;
		r = bpfcol_open(p->dir, &p->col, &why);
		if (r == 0) {
			bpfcol_want(p->col, w->pass_slots);
			r = pass_read(p, snap, &n, &why);
		}
	}
	if (r == 0 && (w->pass_slots & MR_STATS) && prove(p))
		r = pass_read(p, snap, &n, &why);
	if (r == 0 && (w->pass_slots & MR_STATS))
		say_unproven(p, cg, w->pass_slots);
	if (r < 0) {
		snprintf(err, errlen, "bpf collector: %s", why.text);
		snprintf(t->failed, sizeof(t->failed), "%s", why.text);
		return r;
	}
	bpfcol_record(p->col, 0, &g);
	level0 = g.level;
	if (read_one(p, cg, rootfd, w, snap, 0, &g)) {
		if (p->err)
			goto short_of;
		snprintf(err, errlen, "%s/%s: %s", cg->root, cg->start,
			 strerror(ENOENT));
		return -ENOENT;
	}
	if (p->levels_cap == 0) {
		p->levels_cap = 64;
		p->levels = xreallocarray(NULL, p->levels_cap,
					  sizeof(*p->levels));
	}
	lv = p->levels;
	lv[0] = 0;
	deepest = 0;
	for (size_t i = 1; i < n; i++) {
		struct snap_group *sg;
		int parent, idx;
		size_t rel;

		bpfcol_record(p->col, i, &g);
		rel = g.level - level0;
		/* Pre-order: a group comes after its parent, which is the
		 * last group seen one level up. */
		if (g.level <= level0 || (maxdepth >= 0 &&
					  rel > (size_t)maxdepth))
			continue;
		if (rel >= p->levels_cap) {
			p->levels = xreallocarray(p->levels, p->levels_cap * 2,
						  sizeof(*lv));
			p->levels_cap *= 2;
			lv = p->levels;
		}
		/* Every group of an online group's path is online (rmdir
		 * refuses a group with children), so levels never skip one;
		 * were one to, its records are left out, not misplaced. */
		if (rel > deepest + 1)
			continue;
		deepest = rel;
		lv[rel] = -1;
		parent = lv[rel - 1];
		if (parent < 0 || g.name_len == 0)
			continue;	/* under a group left out */
		sg = cgfs_add_group(snap, parent, g.name, g.name_len,
				    snap->groups[parent].depth + 1);
		idx = (int)(sg - snap->groups);
		if (read_one(p, cg, rootfd, w, snap, idx, &g)) {
			cgfs_drop_last(snap);
			if (p->err)
				goto short_of;
			continue;
		}
		lv[rel] = idx;
	}
	return 0;
short_of:
	/* Not the whole tree: the pass fails (auto: the walk may do with
	 * fewer descriptors, or says the same). */
	cgfs_short_error(what, sizeof(what), cg->root, cg->start, p->err);
	snprintf(t->failed, sizeof(t->failed), "reading the groups' files: %.*s",
		 (int)sizeof(t->failed) - 32, what);
	snprintf(err, errlen, "bpf collector: %s", t->failed);
	return p->err;
}

static void pass_free(struct cgfs_tree *t)
{
	struct pass *p = (struct pass *)t;

	bpfcol_close(p->col);
	cgfs_prove_free(p->pr);
	free(p->stat);
	free(p->levels);
	free(p->dir);
	free(p);
}

static uint64_t pass_carried(const struct cgfs_tree *t,
			     const struct cgfs_version *v)
{
	const struct pass *p = (const struct pass *)t;
	uint64_t slots = ~MR_STATS;

	if (p->pr)
		slots |= cgfs_prove_proven(p->pr) | cgfs_prove_zero(p->pr);
	return cgfs_pass_fields(v, slots);
}

static const char *pass_paths(const struct cgfs_tree *t)
{
	return ((const struct pass *)t)->paths;
}

static const struct cgfs_tree_ops pass_ops = {
	.name = "bpf",
	.walk = pass_walk,
	.carried = pass_carried,
	.paths = pass_paths,
	.free = pass_free,
};

struct cgfs_tree *cgfs_pass_new(const struct cgfs_version *v, const char *dir,
				char *why, size_t whylen)
{
	struct pass *p = xcalloc(1, sizeof(*p));
	struct bpfcol_why w;
	int fd;

	p->tree.ops = &pass_ops;
	p->ver = v;
	p->dir = xstrdup(dir);
	/*
	 * A walk right after a read of the start group's memory.stat (the
	 * flush), reading everything, the group's statistics whole among
	 * it: what can be proven is, now, so that the first refresh knows
	 * which values the pass carries (v1's pgscan: no reclaim
	 * tracepoints loaded for it).  Its zeros are not kept: the first
	 * refresh reads the file again.
	 */
	if (bpfcol_open(dir, &p->col, &w) < 0) {
		snprintf(why, whylen, "%s", w.text);
		p->col = NULL;
		pass_free(&p->tree);
		return NULL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* A search proves a word the second time it finds it; a value that
	 * moved between the read and the walk (a flush by another reader)
	 * proves nothing that time: three times at most, and no third
	 * when the second proved nothing. */
	for (int tries = 0; fd >= 0 && tries < 3; tries++) {
		size_t n;
		int more;

		bpfcol_stale(p->col);
		if (read_start_stat(p, fd) < 0 ||
		    bpfcol_read(p->col, &n, &w) < 0)
			break;
		more = prove(p);
		if (cgfs_prove_complete(p->pr) || (tries > 0 && !more))
			break;
	}
	if (fd >= 0)
		close(fd);
	p->stat_ok = 0;
	return &p->tree;
}
