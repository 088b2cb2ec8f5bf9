/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_walk.c - the tree of a refresh by a walk of its directories (the
 * files collector, a copy below --root and each sample of a recording):
 * the subgroups of each group listed, or the last listing trusted where
 * kernfs' link counts say nothing changed, each group read (cgfs_read.c)
 * through its directory, kept open across refreshes within a budget of
 * descriptors. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs_int.h"
#include "hash.h"
#include "xalloc.h"

/* Descriptors left for libraries, panes, the terminal and the audit log. */
#define FD_RESERVE 128

/*
 * What is kept of a group across refreshes of a live hierarchy: its
 * directory descriptor, through which its files are opened without a path
 * lookup, and its last listing (see walk()).  Control file descriptors are
 * not kept: pread on a kept one saves about 1 us a read (measured on 6.18,
 * 8,192 groups) but pins the kernel's read buffer, about 4.4 KiB a
 * descriptor charged to our memory cgroup; a directory costs a struct file.
 */
struct kept_dir {
	char *path;
	size_t len;
	struct kept_dir *next;	/* hash chain */
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

struct walk {
	struct cgfs_tree tree;
	/* Each sample is a new copy of the tree (a series): no descriptor
	 * is kept across refreshes and inodes tell nothing. */
	int fresh_tree;
	/* kernfs' link counts are trusted to tell a changed listing. */
	int kernfs;
	char *dents;
	size_t dentscap;
	/* kept descriptors (not for series: every sample is a new tree) */
	struct kept_dir **kept;
	size_t kept_cap, kept_n;
	unsigned gen;
	long fd_budget;		/* directory descriptors we may keep */
	long fd_dirs;		/* kept now */
	unsigned long listings;	/* directory listings made (list_sub) */
	/* This refresh's. */
	const struct cgfs_version *v;
	struct cgfs_reader *rd;
	const struct cgfs_want *w;
	int rootfd;
	int err;		/* ran short (cgfs_short_of): the walk stops */
};

/* Whether e says the process ran short; the walk stops at the first. */
static int walk_short(struct walk *wk, int e)
{
	if (!cgfs_short_of(e))
		return 0;
	if (!wk->err)
		wk->err = e;
	return 1;
}

static int read_one(struct walk *wk, int fd, struct snapshot *snap, int idx);

static void kept_close(struct walk *wk, struct kept_dir *h)
{
	if (h->dirfd >= 0) {
		close(h->dirfd);
		h->dirfd = -1;
		wk->fd_dirs--;
	}
	free(h->sub);
	h->sub = NULL;
	h->sublen = 0;
	h->nsub = -1;
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static void kept_grow(struct walk *wk)
{
	size_t cap = wk->kept_cap ? wk->kept_cap * 2 : 1024;
	struct kept_dir **t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < wk->kept_cap; i++) {
		struct kept_dir *h = wk->kept[i], *next;

		for (; h; h = next) {
			size_t b = (size_t)hash_path(h->path, h->len) & (cap - 1);

			next = h->next;
			h->next = t[b];
			t[b] = h;
		}
	}
	free(wk->kept);
	wk->kept = t;
	wk->kept_cap = cap;
}

/* The kept descriptors of a group by path; NULL when none are kept
 * (a series, no budget, no memory). */
static struct kept_dir *kept_get(struct walk *wk, const char *path, size_t len)
{
	struct kept_dir *h;
	size_t b;

	if (wk->fresh_tree || wk->fd_budget <= 0)
		return NULL;
	if (wk->kept_n >= wk->kept_cap)
		kept_grow(wk);
	b = (size_t)hash_path(path, len) & (wk->kept_cap - 1);
	for (h = wk->kept[b]; h; h = h->next)
		if (h->len == len && memcmp(h->path, path, len) == 0)
			goto found;
	h = xcalloc(1, sizeof(*h));
	h->path = xstrndup(path, len);
	h->len = len;
	h->dirfd = -1;
	h->nsub = -1;
	h->next = wk->kept[b];
	wk->kept[b] = h;
	wk->kept_n++;
found:
	h->gen = wk->gen;
	return h;
}

/* Closes the descriptors of groups this refresh did not walk. */
static void kept_sweep(struct walk *wk, int all)
{
	for (size_t i = 0; i < wk->kept_cap; i++) {
		struct kept_dir **pp = &wk->kept[i];

		while (*pp) {
			struct kept_dir *h = *pp;

			if (!all && h->gen == wk->gen) {
				pp = &h->next;
				continue;
			}
			*pp = h->next;
			kept_close(wk, h);
			free(h->path);
			free(h);
			wk->kept_n--;
		}
	}
}

/* Keeps fd as the group's directory, with what it is (see walk_sub). */
static int keep_dir(struct walk *wk, struct kept_dir *h, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	h->dirfd = fd;
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	wk->fd_dirs++;
	return 0;
}

/*
 * The inode of a group's directory, which tells a group removed and made
 * again under its name (kernfs never reuses one).  0 in a series, whose
 * every sample is a new copy of the tree.
 */
static uint64_t dir_ino(const struct walk *wk, int fd, const struct kept_dir *h,
			int kept)
{
	struct stat st;

	if (wk->fresh_tree)
		return 0;
	if (kept && h)
		return (uint64_t)h->ino;
	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* A directory descriptor, kept for the group when the budget allows. */
static int group_dirfd(struct walk *wk, int parentfd, const char *name,
		       struct kept_dir *h, int *ret_kept)
{
	int fd;

	*ret_kept = 0;
	if (h && h->dirfd >= 0) {
		*ret_kept = 1;
		return h->dirfd;
	}
	fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (h && wk->fd_dirs < wk->fd_budget &&
	    keep_dir(wk, h, fd) == 0)
		*ret_kept = 1;
	return fd;
}

/*
 * Lists the subgroup names of a directory into a new NUL-separated buffer;
 * *ret_ndirs counts every subdirectory seen, as kernfs' link count does.
 */
static int list_sub(struct walk *wk, int dirfd, char **ret_names,
		    size_t *ret_len, long *ret_ndirs)
{
	char *names = NULL;
	size_t nlen = 0, ncap = 0;
	long ndirs = 0;
	int eof = 0;

	wk->listings++;
	/* A kept directory descriptor is read again from its start. */
	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -errno;
	while (!eof) {
		ssize_t n = getdents64(dirfd, wk->dents, wk->dentscap);

		if (n < 0) {
			int e = errno;

			free(names);
			return -e;
		}
		if (n == 0)
			break;
		/* getdents64 fills what it is given; room left for a
		 * longest entry means the directory ended. */
		if ((size_t)n + 300 < wk->dentscap)
			eof = 1;
		for (ssize_t pos = 0; pos < n;) {
			struct linux_dirent64 *d = (void *)(wk->dents + pos);
			size_t l;

			pos += d->d_reclen;
			/* Most entries are control files: the type rules them
			 * out before any name is looked at. */
			if (d->d_type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(dirfd, d->d_name, &st,
					    AT_SYMLINK_NOFOLLOW) < 0 ||
				    !S_ISDIR(st.st_mode))
					continue;
			} else if (d->d_type != DT_DIR) {
				continue;
			}
			l = strlen(d->d_name);
			if (d->d_name[0] == '.' && (l == 1 ||
			    (l == 2 && d->d_name[1] == '.')))
				continue;
			ndirs++;
			if (cgfs_is_control_name(wk->v, d->d_name))
				continue;
			cgfs_grow((void **)&names, &ncap, nlen + l + 1, 1);
			memcpy(names + nlen, d->d_name, l + 1);
			nlen += l + 1;
		}
	}
	*ret_names = names;
	*ret_len = nlen;
	*ret_ndirs = ndirs;
	return 0;
}

/* A subgroup walk_sub() added: its directory, to be walked below. */
struct wchild {
	int idx;		/* in the snapshot */
	int fd;			/* -1: not to be entered (permissions) */
	int kept;		/* fd is h's kept descriptor */
	struct kept_dir *h;
	int have_st;		/* st is the directory's fresh stat */
	struct stat st;
};

/*
 * Adds subgroup name of group idx (directory dirfd) and reads it.  Returns
 * 1 when it turned out to be gone (left out), 0 when it is in the snapshot
 * (ret: its directory, for walk() to walk below it).
 */
static int walk_sub(struct walk *wk, int dirfd, int idx, const char *name,
		    struct snapshot *snap, struct wchild *ret)
{
	struct snap_group *g;
	struct kept_dir *h;
	struct stat st;
	int fd, child, kept, have_st = 0, r;

	g = cgfs_add_group(snap, idx, name, strlen(name),
			   snap->groups[idx].depth + 1);
	child = (int)(g - snap->groups);
	h = kept_get(wk, snap_path(snap, g), g->path_len);
	/* v1 can rename a group (v2 cannot): a kept directory's name must
	 * still lead to it, or the listing kept for its parent is out of
	 * date.  The one lookup also catches a group removed and made again
	 * under its name, and gives walk() the link count it needs. */
	if (h && h->dirfd >= 0 && wk->kernfs && cgfs_version_renames(wk->v)) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == h->ino && st.st_dev == h->dev)
			have_st = 1;
		else
			kept_close(wk, h);
	}
	fd = group_dirfd(wk, dirfd, name, h, &kept);
	if (fd < 0 && walk_short(wk, fd)) {
		cgfs_drop_last(snap);
		return 1;
	}
	if (fd < 0 && fd != -EACCES && fd != -EPERM) {
		/* Removed while we walked (ENOENT, ENODEV, ENOTDIR, or
		 * whatever a group half torn down answers): not shown. */
		cgfs_drop_last(snap);
		return 1;
	}
	ret->idx = child;
	ret->fd = -1;
	if (fd < 0) {
		/* Cannot enter it (permissions): shown, nothing available. */
		sample_clear(&g->s);
		g->ino = 0;
		return 0;
	}
	g->ino = dir_ino(wk, fd, h, kept);
	r = read_one(wk, fd, snap, child);
	if (walk_short(wk, r)) {
		if (!kept)
			close(fd);
		cgfs_drop_last(snap);
		return 1;
	}
	if (r == -ENODEV) {
		/* Removed since its directory was opened, and maybe made
		 * again under the same name: open it anew, or leave it out. */
		if (!kept)
			close(fd);
		if (h)
			kept_close(wk, h);
		have_st = 0;	/* that stat was of the directory just gone */
		fd = group_dirfd(wk, dirfd, name, h, &kept);
		if (fd < 0) {
			cgfs_drop_last(snap);
			return 1;
		}
		snap->groups[child].ino = dir_ino(wk, fd, h, kept);
		if (read_one(wk, fd, snap, child) == -ENODEV) {
			/* Still going away: leave it out. */
			if (!kept)
				close(fd);
			if (h)
				kept_close(wk, h);
			cgfs_drop_last(snap);
			return 1;
		}
	}
	/* Nothing could be read and the name is gone from its parent:
	 * removed in between, whatever the files answered. */
	if (wk->w->files && !snap->groups[child].s.valid &&
	    faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT) {
		if (!kept)
			close(fd);
		if (h)
			kept_close(wk, h);
		cgfs_drop_last(snap);
		return 1;
	}
	ret->fd = fd;
	ret->kept = kept;
	ret->h = h;
	ret->have_st = have_st;
	if (have_st)
		ret->st = st;
	return 0;
}

/* Whether subgroup name of the group at path ppath was walked already in
 * this refresh.  Paths have no length limit: a nesting of long names
 * goes past PATH_MAX. */
static int walked(struct walk *wk, const char *ppath, size_t plen,
		  const char *name)
{
	size_t nlen = strlen(name), len;
	struct kept_dir *h;
	char *path;
	int r = 0;

	if (!wk->kept_cap)
		return 0;
	if (plen <= 1)
		plen = 0;	/* the root's children: "/name" */
	len = plen + 1 + nlen;
	path = xmalloc(len + 1);
	memcpy(path, ppath, plen);
	path[plen] = '/';
	memcpy(path + plen + 1, name, nlen + 1);
	h = wk->kept[(size_t)hash_path(path, len) & (wk->kept_cap - 1)];
	for (; h; h = h->next)
		if (h->len == len && memcmp(h->path, path, len) == 0) {
			r = h->gen == wk->gen;
			break;
		}
	free(path);
	return r;
}

/*
 * A group whose subgroups walk() is going through: one frame of its own
 * stack.  The walk does not recurse: whoever may make groups (a delegated
 * subtree, a container) can nest them deeper than any process stack.
 */
struct wframe {
	int dirfd;		/* -1: shed (see walk_shed) */
	int own_fd;		/* opened for the walk: closed when done */
	dev_t dev;		/* what a shed dirfd was */
	ino_t ino;
	struct kept_dir *h;		/* kept descriptors, or NULL */
	int idx;		/* the group in the snapshot */
	int reldepth;		/* levels below the start group */
	char *names;		/* subgroup names, NUL-separated */
	size_t nlen, pos;	/* their length; the next one */
	int own_names;		/* names is ours to free (else h->sub) */
	int cached;		/* names is the last refresh's listing */
	int relisted;		/* names is the listing made after a gone name */
	int gone;		/* names of a cached listing found gone */
};

static void walk_end(struct wframe *f)
{
	if (f->own_names)
		free(f->names);
	if (f->own_fd && f->dirfd >= 0)
		close(f->dirfd);
}

/*
 * Directory descriptors of groups being walked that are not kept (beyond
 * the budget, or a recording) stay open while the walk is below them: as
 * many as the chain is deep.  Past WALK_FDS of them they are closed, all
 * at once, and each is opened again through ".." of its child when the
 * walk comes back up to it (walk_unshed), so a chain deeper than
 * RLIMIT_NOFILE is walked whole, and the reserve of descriptors is left
 * for the files read.
 */
#define WALK_FDS 32

static void walk_shed(struct wframe *stack, size_t sp, size_t *nown)
{
	for (size_t i = 0; i < sp; i++) {
		struct wframe *f = &stack[i];
		struct stat st;

		if (!f->own_fd || f->dirfd < 0 || fstat(f->dirfd, &st) < 0)
			continue;
		close(f->dirfd);
		f->dirfd = -1;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		(*nown)--;
	}
}

/* Whether fd is the directory a shed frame had; closes it if not. */
static int same_dir(const struct wframe *f, int fd)
{
	struct stat st;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino)
		return 1;
	close(fd);
	return 0;
}

/*
 * Opens shed frame f again: as ".." of its child's directory childfd (v1
 * renames a group only within its parent, v2 not at all), else (the child
 * went away) by its path below the hierarchy root rootfd.  If neither is
 * the directory f had, f went away itself: its dirfd stays -1.
 */
static void walk_unshed(struct walk *wk, struct wframe *f, int childfd,
			int rootfd, const struct snapshot *snap, size_t *nown)
{
	const char *path = snap_path(snap, &snap->groups[f->idx]);
	int fd = childfd < 0 ? -1 :
		openat(childfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0 && childfd >= 0 && walk_short(wk, -errno))
		return;
	if (!same_dir(f, fd)) {
		fd = cgfs_open_rel(rootfd, path + 1);
		if (walk_short(wk, fd) || !same_dir(f, fd))
			return;
	}
	f->dirfd = fd;
	(*nown)++;
}

/*
 * Finds the names to walk below frame f's group (st: its directory's fresh
 * stat, or NULL).  Returns 1 when there are none to walk, 0, or -errno.
 *
 * On kernfs a directory's link count is 2 + its subdirectories, current at
 * every fstat.  A group without subgroups (most of a big tree) needs no
 * listing of its thirty-odd control files; and a group whose count equals
 * its last listing's needs none either, as long as every name of that
 * listing is still there: the walk finds out, by reading each.  If one is
 * gone, another may have come under the same count, so the group is
 * listed again and the newcomers walked (see walk_next).
 */
static int walk_begin(struct walk *wk, struct wframe *f, const struct stat *st,
		      int maxdepth)
{
	struct kept_dir *h = f->h;
	struct stat own;
	long nsub = -1, ndirs;
	int r;

	if (maxdepth >= 0 && f->reldepth >= maxdepth)
		return 1;
	if (wk->kernfs) {
		if (!st && fstat(f->dirfd, &own) == 0)
			st = &own;
		if (st) {
			if (st->st_nlink == 2)
				return 1;
			nsub = (long)st->st_nlink - 2;
		}
	}
	/* Without files to read, a gone name would go unnoticed. */
	if (h && h->sub && wk->w->files && nsub >= 0 && h->nsub == nsub) {
		f->names = h->sub;
		f->nlen = h->sublen;
		f->cached = 1;
		return 0;
	}
	r = list_sub(wk, f->dirfd, &f->names, &f->nlen, &ndirs);
	if (r < 0)
		return r;
	if (h && wk->kernfs) {
		free(h->sub);
		h->sub = f->names;
		h->sublen = f->nlen;
		h->nsub = ndirs;
	} else {
		f->own_names = 1;
	}
	return 0;
}

/* The next subgroup name of frame f to walk, or NULL when its group is
 * done (or when a new listing of it failed). */
static const char *walk_next(struct walk *wk, struct wframe *f,
			     const struct snapshot *snap)
{
	for (;;) {
		while (f->pos < f->nlen) {
			const struct snap_group *pg = &snap->groups[f->idx];
			const char *name = f->names + f->pos;

			f->pos += strlen(name) + 1;
			if (f->relisted && walked(wk, snap_path(snap, pg),
						  pg->path_len, name))
				continue;
			return name;
		}
		if (!f->cached || !f->gone || f->relisted)
			return NULL;
		/* A name of the kept listing was gone: list anew, and walk
		 * what this refresh has not walked yet. */
		if (list_sub(wk, f->dirfd, &f->names, &f->nlen,
			     &f->h->nsub) < 0)
			return NULL;	/* its other subgroups left out */
		free(f->h->sub);
		f->h->sub = f->names;
		f->h->sublen = f->nlen;
		f->pos = 0;
		f->relisted = 1;
	}
}

/* Pushes a frame for group idx (directory fd) onto the walk's stack; a
 * group with nothing to walk below it is done at once.  1: pushed, 0: done
 * at once. */
static int walk_push(struct walk *wk, struct wframe **stack, size_t *sp,
		     size_t *cap, int fd, int own_fd, struct kept_dir *h,
		     const struct stat *st, int idx, int reldepth,
		     int maxdepth)
{
	void *p = *stack;
	struct wframe *f;
	int r;

	cgfs_grow(&p, cap, *sp + 1, sizeof(**stack));
	*stack = p;
	f = &(*stack)[*sp];
	memset(f, 0, sizeof(*f));
	f->dirfd = fd;
	f->own_fd = own_fd;
	f->h = h;
	f->idx = idx;
	f->reldepth = reldepth;
	r = walk_begin(wk, f, st, maxdepth);
	walk_short(wk, r);
	if (r != 0) {
		/* A leaf, or a directory that cannot be listed (gone in
		 * between): its group stays as read. */
		walk_end(f);
		return 0;
	}
	(*sp)++;
	return 1;
}

/*
 * Walks the groups below the start group, index 0, whose directory is dirfd
 * (h: its kept descriptors, when the directory descriptor is kept, else
 * NULL; st: the directory's fresh stat, or NULL; rootfd: the hierarchy
 * root's), depth first in listing order, with a stack of its own.
 */
static void walk(struct walk *wk, int rootfd, int dirfd, struct kept_dir *h,
		 const struct stat *st, int maxdepth, struct snapshot *snap)
{
	struct wframe *stack = NULL;
	size_t sp = 0, cap = 0, nown = 0;

	walk_push(wk, &stack, &sp, &cap, dirfd, 0, h, st, 0, 0, maxdepth);
	while (sp) {
		struct wframe *f = &stack[sp - 1];
		const char *name = f->dirfd < 0 || wk->err ? NULL :
			walk_next(wk, f, snap);
		struct wchild c;

		if (!name) {
			/* Done with it (or gone while shed); a listing that
			 * failed leaves the group's subgroups out, not the
			 * rest.  Short of descriptors: every frame ends. */
			if (sp > 1 && f[-1].dirfd < 0 && !wk->err)
				walk_unshed(wk, &f[-1], f->dirfd, rootfd, snap,
					    &nown);
			if (f->own_fd && f->dirfd >= 0)
				nown--;
			walk_end(f);
			sp--;
			continue;
		}
		if (walk_sub(wk, f->dirfd, f->idx, name, snap, &c)) {
			f->gone++;
		} else if (c.fd >= 0) {
			int pushed;

			if (!c.kept)
				nown++;
			pushed = walk_push(wk, &stack, &sp, &cap, c.fd, !c.kept,
					   c.kept ? c.h : NULL,
					   c.have_st ? &c.st : NULL, c.idx,
					   f->reldepth + 1, maxdepth);
			/* Done at once (a leaf): its descriptor is closed. */
			if (!c.kept && !pushed)
				nown--;
			/* All but the new group's own. */
			if (pushed && nown > WALK_FDS)
				walk_shed(stack, sp - 1, &nown);
		}
	}
	free(stack);
}

/* Reads group idx of the snapshot through its directory fd. */
static int read_one(struct walk *wk, int fd, struct snapshot *snap, int idx)
{
	struct snap_group *g = &snap->groups[idx];
	struct cgfs_group_src src = {
		.dirfd = fd, .rootfd = wk->rootfd, .rel = snap_path(snap, g) + 1,
		.is_root = g->depth == 0, .snap = snap,
	};
	int r;

	wk->rd->ops->group(wk->rd, snap_path(snap, g));
	r = cgfs_read_group(wk->v, wk->rd, wk->w, &src, &g->s);
	wk->rd->ops->group(wk->rd, NULL);
	return r;
}

/*
 * The refresh's tree: the start group (snap->groups[0], added), whose kept
 * directory must still be the one its path leads to (see walk_sub), then
 * every group below it.
 */
static int walk_tree(struct cgfs_tree *t, struct cgfs *cg, int rootfd,
		     const struct cgfs_want *w, int maxdepth,
		     struct snapshot *snap, char *err, size_t errlen)
{
	struct walk *wk = (struct walk *)t;
	struct snap_group *g = &snap->groups[0];
	const char *start = snap_path(snap, g) + 1;
	struct stat st;
	struct kept_dir *h;
	int fd, kept = 0, have_st = 0, r;

	wk->v = cg->ver;
	wk->rd = cg->rd;
	wk->w = w;
	wk->rootfd = rootfd;
	wk->err = 0;
	wk->gen++;
	h = kept_get(wk, snap_path(snap, g), g->path_len);
	if (h && h->dirfd >= 0 && wk->kernfs) {
		if (fstatat(rootfd, *start ? start : ".", &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && st.st_ino == h->ino &&
		    st.st_dev == h->dev)
			have_st = 1;
		else
			kept_close(wk, h);
	}
	if (h && h->dirfd >= 0) {
		fd = h->dirfd;
		kept = 1;
	} else {
		fd = cgfs_open_rel(rootfd, start);
		if (fd >= 0 && h && wk->fd_dirs < wk->fd_budget &&
		    keep_dir(wk, h, fd) == 0)
			kept = 1;
	}
	if (fd < 0)
		goto fail;
	g->ino = dir_ino(wk, fd, h, kept);
	r = read_one(wk, fd, snap, 0);
	walk_short(wk, r);
	if (r == -ENODEV && h) {
		/* The start group itself was made again: reopen it. */
		kept_close(wk, h);
		kept = 0;
		have_st = 0;
		fd = cgfs_open_rel(rootfd, start);
		if (fd < 0)
			goto fail;
		g->ino = dir_ino(wk, fd, NULL, 0);
		walk_short(wk, read_one(wk, fd, snap, 0));
	}
	walk(wk, rootfd, fd, kept ? h : NULL, have_st ? &st : NULL, maxdepth,
	     snap);
	if (!kept)
		close(fd);
	kept_sweep(wk, 0);
	if (!wk->err)
		return 0;
	fd = wk->err;
fail:
	/* The walk added groups: the paths may have moved. */
	start = snap_path(snap, &snap->groups[0]) + 1;
	cgfs_short_error(err, errlen, cg->root, start, fd);
	return fd;
}

static void walk_free(struct cgfs_tree *t)
{
	struct walk *wk = (struct walk *)t;

	kept_sweep(wk, 1);
	free(wk->kept);
	free(wk->dents);
	free(wk);
}

/* Every value is a file's. */
static fieldset walk_carried(const struct cgfs_tree *t,
			     const struct cgfs_version *v)
{
	(void)t;
	(void)v;
	return 0;
}

static const struct cgfs_tree_ops walk_ops = {
	.name = "files",
	.walk = walk_tree,
	.carried = walk_carried,
	.free = walk_free,
};

struct cgfs_tree *cgfs_walk_new(int fresh_tree, int kernfs, unsigned fd_keep)
{
	struct walk *wk = xcalloc(1, sizeof(*wk));

	wk->tree.ops = &walk_ops;
	wk->fresh_tree = fresh_tree;
	wk->kernfs = !fresh_tree && kernfs;
	wk->dentscap = 32768;
	wk->dents = xmalloc(wk->dentscap);
	/* Descriptors kept across refreshes (a live tree only): all the
	 * process may have, less a reserve for everything else and what
	 * the caller keeps (fd_keep). */
	if (!fresh_tree) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			if (rl.rlim_cur < rl.rlim_max) {
				rl.rlim_cur = rl.rlim_max;
				setrlimit(RLIMIT_NOFILE, &rl);
				getrlimit(RLIMIT_NOFILE, &rl);
			}
			wk->fd_budget = rl.rlim_cur == RLIM_INFINITY ? 65536 :
				(long)rl.rlim_cur - FD_RESERVE - (long)fd_keep;
		}
	}
	return &wk->tree;
}

void cgfs_walk_set_kernfs(struct cgfs_tree *t, int kernfs)
{
	struct walk *wk = (struct walk *)t;

	if (t->ops == &walk_ops)
		wk->kernfs = !wk->fresh_tree && kernfs;
}

unsigned long cgfs_walk_listings(const struct cgfs_tree *t)
{
	const struct walk *wk = (const struct walk *)t;

	return t->ops == &walk_ops ? wk->listings : 0;
}
