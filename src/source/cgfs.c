/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs.c - the live files source: opening a hierarchy (through a source),
 * the walk of its tree with the directories it keeps, and a refresh that
 * reads each group (cgfs_read.c) into a snapshot. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "cgfs.h"
#include "cgfs_int.h"
#include "clock.h"
#include "hash.h"
#include "parse.h"
#include "record.h"
#include "sink.h"
#include "sysinfo.h"
#include "xalloc.h"

/* Descriptors left for libraries, panes, the terminal and the audit log. */
#define FD_RESERVE 128

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

void cgfs_set_kernfs(struct cgfs *cg, int kernfs)
{
	cg->kernfs = !cg->src->fresh_tree && kernfs;
}

unsigned long cgfs_listings(const struct cgfs *cg)
{
	return cg->listings;
}

/* Forgets what is kept for a group: its directory may be a new one. */
static void gh_close(struct cgfs *cg, struct gh *h)
{
	if (h->dirfd >= 0) {
		close(h->dirfd);
		h->dirfd = -1;
		cg->fd_dirs--;
	}
	free(h->sub);
	h->sub = NULL;
	h->sublen = 0;
	h->nsub = -1;
}

/*
 * Appends a group whose path is its parent's path + "/" + name (the start
 * group: "/" + name, or "/" when name is empty).  Offsets, not pointers:
 * the arena moves when it grows.
 */
int cgfs_add_group(struct snapshot *snap, int parent, const char *name,
	      size_t nlen, int depth, struct snap_group **ret_g)
{
	size_t plen = 0, poff = 0, len, off;
	size_t k = sample_nslots(snap->slots);
	struct snap_group *g;
	void *gp = snap->groups, *pp = snap->paths, *vp = snap->vals;

	if (parent >= 0 && snap->groups[parent].path_len > 1) {
		plen = snap->groups[parent].path_len;
		poff = snap->groups[parent].path_off;
	}
	len = plen + 1 + nlen;
	if (cgfs_grow(&gp, &snap->cap, snap->n + 1, sizeof(*snap->groups)) < 0)
		return -ENOMEM;
	snap->groups = gp;
	if (cgfs_grow(&pp, &snap->paths_cap, snap->paths_len + len + 1, 1) < 0)
		return -ENOMEM;
	snap->paths = pp;
	if (k && cgfs_grow(&vp, &snap->vals_cap, (snap->n + 1) * k,
			   sizeof(*snap->vals)) < 0)
		return -ENOMEM;
	if (vp != snap->vals) {
		/* The pool moved: the samples follow it. */
		snap->vals = vp;
		for (size_t i = 0; i < snap->n; i++)
			snap->groups[i].s.v = snap->vals + i * k;
	}
	off = snap->paths_len;
	memcpy(snap->paths + off, snap->paths + poff, plen);
	snap->paths[off + plen] = '/';
	memcpy(snap->paths + off + plen + 1, name, nlen);
	snap->paths[off + len] = '\0';
	snap->paths_len += len + 1;
	g = &snap->groups[snap->n++];
	g->path_off = off;
	g->path_len = len;
	g->depth = depth;
	g->parent = parent;
	g->ino = 0;
	g->s.slots = snap->slots;
	g->s.v = k ? snap->vals + (snap->n - 1) * k : NULL;
	sample_clear(&g->s);
	*ret_g = g;
	return 0;
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int gh_grow(struct cgfs *cg)
{
	size_t cap = cg->gh_cap ? cg->gh_cap * 2 : 1024;
	struct gh **t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < cg->gh_cap; i++) {
		struct gh *h = cg->gh[i], *next;

		for (; h; h = next) {
			size_t b = (size_t)hash_path(h->path, h->len) & (cap - 1);

			next = h->next;
			h->next = t[b];
			t[b] = h;
		}
	}
	free(cg->gh);
	cg->gh = t;
	cg->gh_cap = cap;
	return 0;
}

/* The kept descriptors of a group by path; NULL when none are kept
 * (a series, no budget, no memory). */
static struct gh *gh_get(struct cgfs *cg, const char *path, size_t len)
{
	struct gh *h;
	size_t b;

	if (cg->src->fresh_tree || cg->fd_budget <= 0)
		return NULL;
	if (cg->gh_n >= cg->gh_cap && gh_grow(cg) < 0)
		return NULL;
	b = (size_t)hash_path(path, len) & (cg->gh_cap - 1);
	for (h = cg->gh[b]; h; h = h->next)
		if (h->len == len && memcmp(h->path, path, len) == 0)
			goto found;
	h = xcalloc(1, sizeof(*h));
	h->path = xstrndup(path, len);
	h->len = len;
	h->dirfd = -1;
	h->nsub = -1;
	h->next = cg->gh[b];
	cg->gh[b] = h;
	cg->gh_n++;
found:
	h->gen = cg->gen;
	return h;
}

/* Closes the descriptors of groups this refresh did not walk. */
static void gh_sweep(struct cgfs *cg, int all)
{
	for (size_t i = 0; i < cg->gh_cap; i++) {
		struct gh **pp = &cg->gh[i];

		while (*pp) {
			struct gh *h = *pp;

			if (!all && h->gen == cg->gen) {
				pp = &h->next;
				continue;
			}
			*pp = h->next;
			gh_close(cg, h);
			free(h->path);
			free(h);
			cg->gh_n--;
		}
	}
}

/* Keeps fd as the group's directory, with what it is (see walk_sub). */
static int keep_dir(struct cgfs *cg, struct gh *h, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	h->dirfd = fd;
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	cg->fd_dirs++;
	return 0;
}

/*
 * The inode of a group's directory, which tells a group removed and made
 * again under its name (kernfs never reuses one).  0 in a series, whose
 * every sample is a new copy of the tree.
 */
static uint64_t dir_ino(const struct cgfs *cg, int fd, const struct gh *h,
			int kept)
{
	struct stat st;

	if (cg->src->fresh_tree)
		return 0;
	if (kept && h)
		return (uint64_t)h->ino;
	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* A directory descriptor, kept for the group when the budget allows. */
static int group_dirfd(struct cgfs *cg, int parentfd, const char *name,
		       struct gh *h, int *ret_kept)
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
	if (h && cg->fd_dirs < cg->fd_budget &&
	    keep_dir(cg, h, fd) == 0)
		*ret_kept = 1;
	return fd;
}

/*
 * kernfs refuses to create a group whose name is taken by a control file,
 * so a directory named like one (seen only in damaged or hand-made trees)
 * is not a group.
 */
static int is_control_name(const struct cgfs *cg, const char *name)
{
	for (int f = 0; f < CF_NR; f++)
		if (cg->file[f] && strcmp(cg->file[f], name) == 0)
			return 1;
	return 0;
}

/*
 * Lists the subgroup names of a directory into a new NUL-separated buffer;
 * *ret_ndirs counts every subdirectory seen, as kernfs' link count does.
 */
static int list_sub(struct cgfs *cg, int dirfd, char **ret_names,
		    size_t *ret_len, long *ret_ndirs)
{
	char *names = NULL;
	size_t nlen = 0, ncap = 0;
	long ndirs = 0;
	int eof = 0;

	cg->listings++;
	/* A kept directory descriptor is read again from its start. */
	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -errno;
	while (!eof) {
		ssize_t n = getdents64(dirfd, cg->dents, cg->dentscap);

		if (n < 0) {
			int e = errno;

			free(names);
			return -e;
		}
		if (n == 0)
			break;
		/* getdents64 fills what it is given; room left for a
		 * longest entry means the directory ended. */
		if ((size_t)n + 300 < cg->dentscap)
			eof = 1;
		for (ssize_t pos = 0; pos < n;) {
			struct linux_dirent64 *d = (void *)(cg->dents + pos);
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
			if (is_control_name(cg, d->d_name))
				continue;
			if (cgfs_grow((void **)&names, &ncap, nlen + l + 1, 1) < 0) {
				free(names);
				return -ENOMEM;
			}
			memcpy(names + nlen, d->d_name, l + 1);
			nlen += l + 1;
		}
	}
	*ret_names = names;
	*ret_len = nlen;
	*ret_ndirs = ndirs;
	return 0;
}

/* Drops the group just appended, and its path, from the snapshot. */
static void drop_last(struct snapshot *snap, int child)
{
	snap->n--;
	snap->paths_len = snap->groups[child].path_off;
}

/* A subgroup walk_sub() added: its directory, to be walked below. */
struct wchild {
	int idx;		/* in the snapshot */
	int fd;			/* -1: not to be entered (permissions) */
	int kept;		/* fd is h's kept descriptor */
	struct gh *h;
	int have_st;		/* st is the directory's fresh stat */
	struct stat st;
};

/*
 * Adds subgroup name of group idx (directory dirfd) and reads it.  Returns
 * 1 when it turned out to be gone (left out), 0 when it is in the snapshot
 * (ret: its directory, for walk() to walk below it), -ENOMEM.
 */
static int walk_sub(struct cgfs *cg, int dirfd, int idx, const char *name,
		    unsigned files, struct snapshot *snap, struct wchild *ret)
{
	struct snap_group *g;
	struct gh *h;
	struct stat st;
	int fd, child, kept, r, have_st = 0;

	r = cgfs_add_group(snap, idx, name, strlen(name),
		      snap->groups[idx].depth + 1, &g);
	if (r < 0)
		return r;
	child = (int)(g - snap->groups);
	h = gh_get(cg, snap_path(snap, g), g->path_len);
	/* v1 can rename a group (v2 cannot): a kept directory's name must
	 * still lead to it, or the listing kept for its parent is out of
	 * date.  The one lookup also catches a group removed and made again
	 * under its name, and gives walk() the link count it needs. */
	if (h && h->dirfd >= 0 && cg->kernfs && cg->version == 1) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == h->ino && st.st_dev == h->dev)
			have_st = 1;
		else
			gh_close(cg, h);
	}
	fd = group_dirfd(cg, dirfd, name, h, &kept);
	if (fd < 0 && fd != -EACCES && fd != -EPERM) {
		/* Removed while we walked (ENOENT, ENODEV, ENOTDIR, or
		 * whatever a group half torn down answers): not shown. */
		drop_last(snap, child);
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
	cgfs_reading(cg, snap_path(snap, g));
	g->ino = dir_ino(cg, fd, h, kept);
	if (cgfs_read_group(cg, fd, 0, files, &g->s) == -ENODEV) {
		/* Removed since its directory was opened, and maybe made
		 * again under the same name: open it anew, or leave it out. */
		if (!kept)
			close(fd);
		if (h)
			gh_close(cg, h);
		have_st = 0;	/* that stat was of the directory just gone */
		fd = group_dirfd(cg, dirfd, name, h, &kept);
		if (fd < 0) {
			drop_last(snap, child);
			return 1;
		}
		cgfs_reading(cg, snap_path(snap, &snap->groups[child]));
		snap->groups[child].ino = dir_ino(cg, fd, h, kept);
		if (cgfs_read_group(cg, fd, 0, files,
			       &snap->groups[child].s) == -ENODEV) {
			/* Still going away: leave it out. */
			if (!kept)
				close(fd);
			if (h)
				gh_close(cg, h);
			drop_last(snap, child);
			return 1;
		}
	}
	/* Nothing could be read and the name is gone from its parent:
	 * removed in between, whatever the files answered. */
	if (files && !snap->groups[child].s.valid &&
	    faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT) {
		if (!kept)
			close(fd);
		if (h)
			gh_close(cg, h);
		drop_last(snap, child);
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
static int walked(struct cgfs *cg, const char *ppath, size_t plen,
		  const char *name)
{
	size_t nlen = strlen(name), len;
	struct gh *h;
	char *path;
	int r = 0;

	if (!cg->gh_cap)
		return 0;
	if (plen <= 1)
		plen = 0;	/* the root's children: "/name" */
	len = plen + 1 + nlen;
	path = xmalloc(len + 1);
	memcpy(path, ppath, plen);
	path[plen] = '/';
	memcpy(path + plen + 1, name, nlen + 1);
	h = cg->gh[(size_t)hash_path(path, len) & (cg->gh_cap - 1)];
	for (; h; h = h->next)
		if (h->len == len && memcmp(h->path, path, len) == 0) {
			r = h->gen == cg->gen;
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
	struct gh *h;		/* kept descriptors, or NULL */
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
static void walk_unshed(struct wframe *f, int childfd, int rootfd,
			const struct snapshot *snap, size_t *nown)
{
	const char *path = snap_path(snap, &snap->groups[f->idx]);
	int fd = childfd < 0 ? -1 :
		openat(childfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (!same_dir(f, fd)) {
		fd = cgfs_open_rel(rootfd, path + 1);
		if (!same_dir(f, fd))
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
static int walk_begin(struct cgfs *cg, struct wframe *f, const struct stat *st,
		      unsigned files, int maxdepth)
{
	struct gh *h = f->h;
	struct stat own;
	long nsub = -1, ndirs;
	int r;

	if (maxdepth >= 0 && f->reldepth >= maxdepth)
		return 1;
	if (cg->kernfs) {
		if (!st && fstat(f->dirfd, &own) == 0)
			st = &own;
		if (st) {
			if (st->st_nlink == 2)
				return 1;
			nsub = (long)st->st_nlink - 2;
		}
	}
	/* Without files to read, a gone name would go unnoticed. */
	if (h && h->sub && files && nsub >= 0 && h->nsub == nsub) {
		f->names = h->sub;
		f->nlen = h->sublen;
		f->cached = 1;
		return 0;
	}
	r = list_sub(cg, f->dirfd, &f->names, &f->nlen, &ndirs);
	if (r < 0)
		return r;
	if (h && cg->kernfs) {
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
 * done (*ret_r: 0, or the -errno of a listing that failed). */
static const char *walk_next(struct cgfs *cg, struct wframe *f,
			     const struct snapshot *snap, int *ret_r)
{
	*ret_r = 0;
	for (;;) {
		while (f->pos < f->nlen) {
			const struct snap_group *pg = &snap->groups[f->idx];
			const char *name = f->names + f->pos;

			f->pos += strlen(name) + 1;
			if (f->relisted && walked(cg, snap_path(snap, pg),
						  pg->path_len, name))
				continue;
			return name;
		}
		if (!f->cached || !f->gone || f->relisted)
			return NULL;
		/* A name of the kept listing was gone: list anew, and walk
		 * what this refresh has not walked yet. */
		*ret_r = list_sub(cg, f->dirfd, &f->names, &f->nlen,
				  &f->h->nsub);
		if (*ret_r < 0)
			return NULL;
		free(f->h->sub);
		f->h->sub = f->names;
		f->h->sublen = f->nlen;
		f->pos = 0;
		f->relisted = 1;
	}
}

/* Pushes a frame for group idx (directory fd) onto the walk's stack; a
 * group with nothing to walk below it is done at once.  1: pushed, 0: done
 * at once, or -ENOMEM. */
static int walk_push(struct cgfs *cg, struct wframe **stack, size_t *sp,
		     size_t *cap, int fd, int own_fd, struct gh *h,
		     const struct stat *st, int idx, int reldepth,
		     unsigned files, int maxdepth)
{
	void *p = *stack;
	struct wframe *f;
	int r;

	if (cgfs_grow(&p, cap, *sp + 1, sizeof(**stack)) < 0) {
		if (own_fd)
			close(fd);
		return -ENOMEM;
	}
	*stack = p;
	f = &(*stack)[*sp];
	memset(f, 0, sizeof(*f));
	f->dirfd = fd;
	f->own_fd = own_fd;
	f->h = h;
	f->idx = idx;
	f->reldepth = reldepth;
	r = walk_begin(cg, f, st, files, maxdepth);
	if (r != 0) {
		/* A leaf, or a directory that cannot be listed (gone in
		 * between): its group stays as read. */
		walk_end(f);
		return r == -ENOMEM ? r : 0;
	}
	(*sp)++;
	return 1;
}

/*
 * Walks the groups below the start group, index 0, whose directory is dirfd
 * (h: its kept descriptors, when the directory descriptor is kept, else
 * NULL; st: the directory's fresh stat, or NULL; rootfd: the hierarchy
 * root's), depth first in listing order, with a stack of its own.
 * Returns 0 or -ENOMEM.
 */
static int walk(struct cgfs *cg, int rootfd, int dirfd, struct gh *h,
		const struct stat *st, unsigned files, int maxdepth,
		struct snapshot *snap)
{
	struct wframe *stack = NULL;
	size_t sp = 0, cap = 0, nown = 0;
	int r;

	r = walk_push(cg, &stack, &sp, &cap, dirfd, 0, h, st, 0, 0, files,
		      maxdepth);
	if (r > 0)
		r = 0;
	while (r == 0 && sp) {
		struct wframe *f = &stack[sp - 1];
		const char *name = f->dirfd < 0 ? NULL :
			walk_next(cg, f, snap, &r);
		struct wchild c;

		if (!name) {
			/* Done with it (or gone while shed); a listing that
			 * failed leaves the group's subgroups out, not the
			 * rest. */
			if (sp > 1 && f[-1].dirfd < 0)
				walk_unshed(&f[-1], f->dirfd, rootfd, snap,
					    &nown);
			if (f->own_fd && f->dirfd >= 0)
				nown--;
			walk_end(f);
			sp--;
			if (r != -ENOMEM)
				r = 0;
			continue;
		}
		r = walk_sub(cg, f->dirfd, f->idx, name, files, snap, &c);
		if (r == 1) {
			f->gone++;
			r = 0;
		} else if (r == 0 && c.fd >= 0) {
			if (!c.kept)
				nown++;
			r = walk_push(cg, &stack, &sp, &cap, c.fd, !c.kept,
				      c.kept ? c.h : NULL,
				      c.have_st ? &c.st : NULL, c.idx,
				      f->reldepth + 1, files, maxdepth);
			/* Done at once (a leaf): its descriptor is closed. */
			if (!c.kept && r <= 0)
				nown--;
			if (r > 0) {
				r = 0;
				/* All but the new group's own. */
				if (nown > WALK_FDS)
					walk_shed(stack, sp - 1, &nown);
			}
		}
	}
	while (sp)
		walk_end(&stack[--sp]);
	free(stack);
	return r;
}

int cgfs_open_rel(int dirfd, const char *rel)
{
	char comp[NAME_MAX + 1];
	int fd = dup(dirfd);

	if (fd < 0)
		return -errno;
	while (*rel) {
		size_t l = strcspn(rel, "/");
		int nfd;

		if (l > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, rel, l);
		comp[l] = '\0';
		rel += l;
		rel += strspn(rel, "/");
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return -errno;
		fd = nfd;
	}
	return fd;
}

/*
 * No group holds more swap than the host has, and none at all where the
 * host has no swap.  v1's swap is memsw - usage, two files read one after
 * the other: a group that is charged or uncharged in between shows the
 * difference as swap (measured: 100K on the v1 root of a swapless host).
 */
static void clamp_swap(struct snapshot *snap)
{
	uint64_t total = snap->sys.v[S_SWAP_TOTAL];

	if (!(snap->sys.valid & FBIT(S_SWAP_TOTAL)))
		return;
	for (size_t i = 0; i < snap->n; i++) {
		struct sample *s = &snap->groups[i].s;

		if (sample_has(s, F_SWAP) && sample_get(s, F_SWAP) > total)
			sample_set(s, F_SWAP, total);
	}
}

/* The live files: the one tree, read now. */
static int live_begin(struct cgfs *cg, char *dir, size_t dirlen,
		      struct snapshot *snap)
{
	snprintf(dir, dirlen, "%s", cg->root);
	snap->mono = clock_mono();
	snap->wall = (int64_t)time(NULL);
	return 0;
}

static void live_tree(const struct cgfs *cg, char *dir, size_t dirlen)
{
	snprintf(dir, dirlen, "%s", cg->root);
}

static size_t live_sys_slot(const struct cgfs *cg)
{
	(void)cg;
	return 0;
}

static size_t live_position(const struct cgfs *cg, size_t *ret_count)
{
	(void)cg;
	*ret_count = 0;
	return 0;
}

static void live_seek(struct cgfs *cg, size_t index)
{
	(void)cg;
	(void)index;
}

static void live_reread(struct cgfs *cg)
{
	(void)cg;
}

static int live_open_sys(struct cgfs *cg, const char *proc)
{
	return sysinfo_open(proc, &cg->sys);
}

const struct source_ops cgfs_live_ops = {
	.series = 0,
	.fresh_tree = 0,
	.writable = 1,
	.open = cgfs_live_open,
	.close = NULL,
	.begin = live_begin,
	.tree = live_tree,
	.sys_slot = live_sys_slot,
	.position = live_position,
	.seek = live_seek,
	.reread = live_reread,
	.open_sys = live_open_sys,
};

/* Tells the recorder which groups the sample kept: one read but then left
 * out (gone meanwhile) must not come back on replay. */
static void record_kept(struct cgfs *cg, const struct snapshot *snap)
{
	char **paths = xreallocarray(NULL, snap->n ? snap->n : 1,
				     sizeof(*paths));

	for (size_t i = 0; i < snap->n; i++)
		paths[i] = snap->paths + snap->groups[i].path_off;
	cg->sink->ops->groups(cg->sink, paths, snap->n);
	free(paths);
}

int cgfs_refresh(struct cgfs *cg, uint64_t fields, int maxdepth,
		       struct snapshot *snap, char *err, size_t errlen)
{
	unsigned files = cgfs_files_for(cg, fields);
	char dir[PATH_MAX];
	struct snap_group *g;
	struct gh *h;
	struct stat st;
	int rootfd, fd, depth = 0, r, kept = 0, have_st = 0;

	r = cg->src->begin(cg, dir, sizeof(dir), snap);
	if (r < 0)
		return r;
	cg->numa_len = 0;
	snap->n = 0;
	snap->paths_len = 0;
	snap->slots = fields | cgfs_fields_of(cg, files) | snap->more_slots;
	snap->above_limit = VAL_MAX;

	cg->gen++;
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-r));
		return r;
	}
	if (cg->sink) {
		r = cg->sink->ops->begin(cg->sink);
		if (r == 0) {
			/* What tells the version on replay, whatever the
			 * start group. */
			ssize_t n = cgfs_read_small(cg, rootfd, cg->version == 2 ?
					       "cgroup.controllers" :
					       "memory.limit_in_bytes");

			if (n >= 0) {
				cgfs_reading(cg, "/");
				cg->sink->ops->file(cg->sink,
						    cg->version == 2 ?
						    "cgroup.controllers" :
						    "memory.limit_in_bytes",
						    cg->buf, (size_t)n);
				cgfs_reading(cg, NULL);
			}
		}
	}
	for (const char *p = cg->start; *p; p++)
		if (*p == '/')
			depth++;
	if (*cg->start)
		depth++;
	snap->cut_depth1 = maxdepth >= 0 ? depth + maxdepth + 1 : 0;
	r = cgfs_add_group(snap, -1, cg->start, strlen(cg->start), depth, &g);
	if (r < 0) {
		close(rootfd);
		snprintf(err, errlen, "%s", strerror(-r));
		return r;
	}
	if (cg->bpf) {
		/* The BPF pass gives the tree (cgfs_bpf.c). */
		r = cgfs_bpf_walk(cg, rootfd, files, maxdepth, snap, err,
				  errlen);
		if (r == 0 && *cg->start && (fields & FBIT(F_LIMIT)))
			snap->above_limit = cgfs_limit_above(cg, rootfd);
		close(rootfd);
		if (r < 0)
			return r;
		goto walked;
	}
	h = gh_get(cg, snap_path(snap, g), g->path_len);
	cgfs_reading(cg, snap_path(snap, g));
	/* The start group's kept directory must still be the one its path
	 * leads to (see walk_sub). */
	if (h && h->dirfd >= 0 && cg->kernfs) {
		if (fstatat(rootfd, *cg->start ? cg->start : ".", &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && st.st_ino == h->ino &&
		    st.st_dev == h->dev)
			have_st = 1;
		else
			gh_close(cg, h);
	}
	if (h && h->dirfd >= 0) {
		fd = h->dirfd;
		kept = 1;
	} else {
		fd = cgfs_open_rel(rootfd, cg->start);
		if (fd >= 0 && h && cg->fd_dirs < cg->fd_budget &&
		    keep_dir(cg, h, fd) == 0)
			kept = 1;
	}
	if (fd < 0) {
		r = fd;
		snprintf(err, errlen, "%s/%s: %s", dir, cg->start,
			 strerror(-r));
		close(rootfd);
		return r;
	}
	g->ino = dir_ino(cg, fd, h, kept);
	if (cgfs_read_group(cg, fd, *cg->start == '\0', files, &g->s) ==
	    -ENODEV && h) {
		/* The start group itself was made again: reopen it. */
		gh_close(cg, h);
		kept = 0;
		have_st = 0;
		fd = cgfs_open_rel(rootfd, cg->start);
		if (fd < 0) {
			r = fd;
			snprintf(err, errlen, "%s/%s: %s", dir, cg->start,
				 strerror(-r));
			close(rootfd);
			return r;
		}
		g->ino = dir_ino(cg, fd, NULL, 0);
		cgfs_read_group(cg, fd, *cg->start == '\0', files, &g->s);
	}
	if (*cg->start && (fields & FBIT(F_LIMIT)))
		snap->above_limit = cgfs_limit_above(cg, rootfd);
	r = walk(cg, rootfd, fd, kept ? h : NULL, have_st ? &st : NULL, files,
		 maxdepth, snap);
	if (!kept)
		close(fd);
	close(rootfd);
	gh_sweep(cg, 0);
	cgfs_reading(cg, NULL);
	if (r < 0) {
		snprintf(err, errlen, "%s", strerror(-r));
		return r;
	}
	if (cg->sink)
		record_kept(cg, snap);
walked:
	snap->numa_text = cg->numa;
	/* Only scan_prio asks for the own LRU lists. */
	sysinfo_want_lru_gen(cg->sys, (fields & FBIT(F_OWN_INACTIVE_FILE)) != 0);
	sysinfo_read(cg->sys, cg->src->sys_slot(cg), &snap->sys);
	clamp_swap(snap);
	if (cg->sink) {
		r = cg->sink->ops->end(cg->sink, snap->mono, snap->wall, err,
				       errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

int cgfs_record(struct cgfs *cg, const char *dir, long max, char *err,
		size_t errlen)
{
	struct recorder *rec;
	int r;

	if (cg->src->series) {
		snprintf(err, errlen, "--record: a recording cannot be "
			 "recorded again; record the live hierarchy");
		return -EINVAL;
	}
	r = record_open(dir, max, cgfs_mode(cg), cgfs_root(cg), cg->start,
			&rec, err, errlen);
	if (r < 0)
		return r;
	/* A recording keeps the files' bytes: they are read. */
	cgfs_bpf_close(cg, "--record reads the files");
	cg->sink = record_sink(rec);
	/* The system figures come from the files themselves while recording
	 * (not through libproc2), so that the very bytes are kept. */
	if (!cg->proc_given) {
		sysinfo_close(cg->sys);
		cg->sys = NULL;
		if (sysinfo_open("/proc", &cg->sys) < 0)
			return -ENOMEM;
	}
	sysinfo_sink(cg->sys, cg->sink);
	return 0;
}

void snapshot_free(struct snapshot *snap)
{
	if (!snap)
		return;
	free(snap->groups);
	free(snap->paths);
	free(snap->vals);
	memset(snap, 0, sizeof(*snap));
}

void snapshot_add_slots(struct snapshot *snap, uint64_t more)
{
	uint64_t slots = snap->slots | more;
	size_t k = sample_nslots(slots);
	uint64_t *vals;

	if (slots == snap->slots)
		return;
	vals = snap->n ? xcalloc(snap->n * k, sizeof(*vals)) : NULL;
	for (size_t i = 0; i < snap->n; i++) {
		struct sample s = { 0, slots, vals + i * k };

		sample_copy(&s, &snap->groups[i].s);
		snap->groups[i].s = s;
	}
	free(snap->vals);
	snap->vals = vals;
	snap->vals_cap = snap->n * k;
	snap->slots = slots;
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
	char path[PATH_MAX];
	int r;

	cg->src = pick_source(opts);
	cg->bufcap = 65536;
	cg->buf = xmalloc(cg->bufcap);
	cg->dentscap = 32768;
	cg->dents = xmalloc(cg->dentscap);
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
	/* Hybrid is a property of the host: only its own hierarchy (no
	 * --root) can be one. */
	cg->mode = !opts->root ? cgfs_host_mode(cg->root) :
		(cg->version == 2 ? "v2" : "v1");
	cgfs_use_tables(cg);
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
	/* Descriptors kept across refreshes (a live tree only): all the
	 * process may have, less a reserve for everything else. */
	if (!cg->src->fresh_tree) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			if (rl.rlim_cur < rl.rlim_max) {
				rl.rlim_cur = rl.rlim_max;
				setrlimit(RLIMIT_NOFILE, &rl);
				getrlimit(RLIMIT_NOFILE, &rl);
			}
			cg->fd_budget = rl.rlim_cur == RLIM_INFINITY ? 65536 :
				(long)rl.rlim_cur - FD_RESERVE;
		}
	}
	cg->proc_given = opts->proc != NULL;
	if (cg->src->open_sys(cg, opts->proc) < 0) {
		cgfs_close(cg);
		return -ENOMEM;
	}
	r = cgfs_bpf_open(cg, opts->collector, err, errlen);
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
	cgfs_bpf_close(cg, NULL);
	gh_sweep(cg, 1);
	free(cg->gh);
	if (cg->sink)
		cg->sink->ops->close(cg->sink);
	if (cg->src->close)
		cg->src->close(cg);
	free(cg->shown_mode);
	free(cg->shown_root);
	sysinfo_close(cg->sys);
	free(cg->root);
	free(cg->start);
	free(cg->buf);
	free(cg->dents);
	free(cg->numa);
	free(cg);
}
