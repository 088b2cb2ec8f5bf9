/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.c - the files of each refresh, kept as a replayable series. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "fmt.h"
#include "record.h"
#include "sink.h"
#include "xalloc.h"

/* The first line of DIR/info: what tells a folder memcgtop recorded into
 * from one that merely looks like it. */
#define FORMAT_LINE "format memcgtop-recording 1"
#define LOCK_NAME "memcgtop.lock"

struct stamp {
	double mono;
	int64_t wall;
	long slot;
};

struct recorder {
	struct sink sink;	/* first: record_sink's ops cast back */
	char *dir;
	int dirfd, procfd;	/* DIR and DIR/proc */
	int samplefd, procsamplefd;	/* the slot being written */
	int lockfd;		/* DIR/memcgtop.lock, flock()ed */
	long max, count, slot;
	long base;		/* slots of this recording start here */
	int replaced;		/* the earlier recording is gone */
	char *mode, *collector, *root, *start;	/* for DIR/info */
	int recursiveprot;
	struct stamp *stamps;	/* in order, the newest last */
	size_t nstamps, capstamps;
	char **paths;		/* the groups written in this sample */
	size_t npaths, cappaths;
	int err;		/* first failure of this sample */
	char errwhat[256];
	char lastdir[4096];	/* the group folder opened last */
	int lastfd;
	/* The group the sink's files are of (sink.h: group); cur_len 0:
	 * none. */
	char *cur;
	size_t cur_len, cur_cap;
};

static void fail(struct recorder *r, int e, const char *what)
{
	if (r->err)
		return;
	r->err = e;
	snprintf(r->errwhat, sizeof(r->errwhat), "%s", what);
}

struct rm_level {
	dev_t dev;
	ino_t ino;
	char name[NAME_MAX + 1];	/* its name in the level above */
};

/*
 * Removes everything below parent/name, then name itself.  Without
 * recursion, and with two descriptors whatever the depth: it goes down
 * into the first folder it meets and back up through "..", checking that
 * ".." is the folder it came from (a folder moved meanwhile stops it).
 */
static int rm_tree(int parent, const char *name)
{
	struct rm_level *lv = NULL;
	size_t depth = 0, cap = 0;
	struct stat st;
	int fd, r = 0;

	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	for (;;) {
		DIR *d;
		struct dirent *e;
		int sub = -1;

		d = fdopendir(fd);
		if (!d) {
			r = -errno;
			close(fd);
			goto out;
		}
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") ||
			    !strcmp(e->d_name, ".."))
				continue;
			if (e->d_type != DT_DIR &&
			    unlinkat(dirfd(d), e->d_name, 0) == 0)
				continue;
			sub = openat(dirfd(d), e->d_name, O_RDONLY |
				     O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0)
				continue;	/* not a folder: could not go */
			if (depth == cap) {
				size_t nc = cap ? cap * 2 : 16;

				lv = xreallocarray(lv, nc, sizeof(*lv));
				cap = nc;
			}
			if (fstat(dirfd(d), &st) < 0) {
				r = -errno;
				close(sub);
				closedir(d);
				goto out;
			}
			lv[depth].dev = st.st_dev;
			lv[depth].ino = st.st_ino;
			snprintf(lv[depth].name, sizeof(lv[depth].name), "%s",
				 e->d_name);
			depth++;
			break;
		}
		if (sub >= 0) {
			closedir(d);
			fd = sub;
			continue;
		}
		/* Emptied: up one level and remove it there. */
		if (depth == 0) {
			closedir(d);
			break;
		}
		fd = openat(dirfd(d), "..", O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
		closedir(d);
		depth--;
		if (fd < 0 || fstat(fd, &st) < 0 ||
		    st.st_dev != lv[depth].dev || st.st_ino != lv[depth].ino) {
			r = fd < 0 ? -errno : -ESTALE;
			if (fd >= 0)
				close(fd);
			goto out;
		}
		if (unlinkat(fd, lv[depth].name, AT_REMOVEDIR) < 0) {
			r = -errno;
			close(fd);
			goto out;
		}
	}
	if (unlinkat(parent, name, AT_REMOVEDIR) < 0)
		r = -errno;
out:
	free(lv);
	return r;
}

static int open_or_make(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);

	if (fd >= 0 || errno != ENOENT)
		return fd < 0 ? -errno : fd;
	if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* A slot's name: digits only, short enough that base + count fits. */
static long slot_number(const char *name)
{
	size_t l = strspn(name, "0123456789");

	if (l == 0 || name[l] || l > 12)
		return -1;
	return strtol(name, NULL, 10);
}

/* Whether dirfd/info begins with the format line only memcgtop writes. */
static int has_marker(int dirfd)
{
	char buf[sizeof(FORMAT_LINE)];	/* the line and its '\n' */
	ssize_t n;
	int fd = openat(dirfd, "info", O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == (ssize_t)sizeof(buf) &&
	       !memcmp(buf, FORMAT_LINE "\n", sizeof(buf));
}

/*
 * What a folder holds: 1 when nothing, or a recording memcgtop made (info
 * with its format line, and only the names a recording has), 0 when
 * anything else, which is then never overwritten nor removed.  ret_max:
 * the highest slot number in DIR or DIR/proc, -1 without any.
 */
static int usable(int fd, long *ret_max)
{
	int ours = has_marker(fd), ok = 1;
	long max = -1;

	for (int pass = 0; pass < 2 && ok; pass++) {
		int sub = pass == 0 ? dup(fd) :
			openat(fd, "proc", O_RDONLY | O_DIRECTORY |
			       O_NOFOLLOW | O_CLOEXEC);
		DIR *d = sub >= 0 ? fdopendir(sub) : NULL;
		struct dirent *e;

		if (!d) {
			if (sub >= 0)
				close(sub);
			if (pass == 0)
				return 0;
			break;
		}
		rewinddir(d);	/* a dup() shares the offset of the last look */
		while ((e = readdir(d))) {
			const char *n = e->d_name;
			long s = slot_number(n);

			if (!strcmp(n, ".") || !strcmp(n, ".."))
				continue;
			if (pass == 0 && !strcmp(n, LOCK_NAME))
				continue;
			if (ours && s >= 0) {
				if (s > max)
					max = s;
				continue;
			}
			if (ours && (!strcmp(n, "timestamps") ||
				     !strcmp(n, "timestamps.tmp") ||
				     (pass == 0 && (!strcmp(n, "info") ||
						    !strcmp(n, "info.tmp") ||
						    !strcmp(n, "proc")))))
				continue;
			ok = 0;
			break;
		}
		closedir(d);
	}
	*ret_max = max;
	return ok;
}

/* s in the names' encoding (fmt.h), allocated. */
static char *escaped(const char *s)
{
	size_t len = strlen(s), cap = 4 * len + 1;
	char *e = xmalloc(cap);

	fmt_escape(e, cap, s, len);
	return e;
}

/* DIR/info, written beside and renamed into place. */
static int write_info(struct recorder *r)
{
	char *root, *start;
	FILE *f;
	int fd;

	fd = openat(r->dirfd, "info.tmp", O_WRONLY | O_CREAT | O_TRUNC |
		    O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	/* The root and the start (where replay starts without a CGROUP) in
	 * the names' encoding, said by "paths escaped": a path holds any
	 * byte but NUL, a newline too, and must read back as one line. */
	root = escaped(r->root);
	start = escaped(r->start);
	fprintf(f, FORMAT_LINE "\nmode %s\ncollector %s\n", r->mode,
		r->collector);
	if (r->recursiveprot >= 0)
		fprintf(f, "memory_recursiveprot %d\n", r->recursiveprot);
	fprintf(f, "root %s\nstart /%s\npaths escaped\n", root, start);
	free(root);
	free(start);
	if (fclose(f) != 0)
		return -errno;
	return renameat(r->dirfd, "info.tmp", r->dirfd, "info") < 0 ? -errno :
	       0;
}

/* Whether path, or the folder it would be made in, is on a cgroup file
 * system: a folder made there is a cgroup. */
static int on_cgroupfs(const char *path)
{
	struct statfs sf;
	char *parent, *slash;
	int r;

	if (statfs(path, &sf) == 0)
		return sf.f_type == CGROUP_SUPER_MAGIC ||
		       sf.f_type == CGROUP2_SUPER_MAGIC;
	parent = xstrdup(path);
	/* "a/b/" and "a/b" both live in "a". */
	for (size_t l = strlen(parent); l > 1 && parent[l - 1] == '/'; l--)
		parent[l - 1] = '\0';
	slash = strrchr(parent, '/');
	if (!slash)
		strcpy(parent, ".");
	else if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	r = statfs(parent, &sf) == 0 && (sf.f_type == CGROUP_SUPER_MAGIC ||
					 sf.f_type == CGROUP2_SUPER_MAGIC);
	free(parent);
	return r;
}

/* "--record DIR[what]: reason", and nothing kept. */
static int refuse(struct recorder *r, int e, char *err, size_t errlen,
		  const char *dir, const char *what)
{
	snprintf(err, errlen, "--record %s%s: %s", dir, what, strerror(e));
	record_close(r);
	return -e;
}

int record_open(const char *dir, long max, const char *mode,
		const char *collector, int recursiveprot, const char *root,
		const char *start, struct recorder **ret, char *err,
		size_t errlen)
{
	struct recorder *r = xcalloc(1, sizeof(*r));
	struct statfs sf;
	long top = -1;

	r->dirfd = r->procfd = r->samplefd = r->procsamplefd = -1;
	r->lockfd = r->lastfd = -1;
	r->max = max;
	r->dir = xstrdup(dir);
	r->mode = xstrdup(mode);
	r->collector = xstrdup(collector);
	r->recursiveprot = recursiveprot;
	r->root = xstrdup(root);
	r->start = xstrdup(start);
	if (on_cgroupfs(dir)) {
		snprintf(err, errlen, "--record %s: inside a cgroup file "
			 "system (a folder made there is a cgroup)", dir);
		record_close(r);
		return -EINVAL;
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return refuse(r, errno, err, errlen, dir, "");
	r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0)
		return refuse(r, errno, err, errlen, dir, "");
	/* Before anything is written, not just before the first folder is
	 * made: the path may have led elsewhere. */
	if (fstatfs(r->dirfd, &sf) == 0 && (sf.f_type == CGROUP_SUPER_MAGIC ||
					    sf.f_type == CGROUP2_SUPER_MAGIC)) {
		snprintf(err, errlen, "--record %s: inside a cgroup file "
			 "system (a folder made there is a cgroup)", dir);
		record_close(r);
		return -EINVAL;
	}
	/* Looked at before the lock file is made, so that a folder of the
	 * user's gets nothing at all, and again once the folder is ours. */
	for (int i = 0; i < 2; i++) {
		if (!usable(r->dirfd, &top)) {
			/* A series of older memcgtop or of another tool? */
			int series = faccessat(r->dirfd, "timestamps", F_OK,
					       AT_SYMLINK_NOFOLLOW) == 0 &&
				     !has_marker(r->dirfd);

			snprintf(err, errlen, "--record %s: %s", dir, series ?
				 "a series memcgtop did not mark as its "
				 "recording (no format line in info) is not "
				 "written over (give an empty folder)" :
				 "the folder holds other files (give an empty "
				 "folder or an earlier recording)");
			record_close(r);
			return -EEXIST;
		}
		if (i == 1)
			break;
		r->lockfd = openat(r->dirfd, LOCK_NAME, O_RDWR | O_CREAT |
				   O_NOFOLLOW | O_CLOEXEC, 0644);
		if (r->lockfd < 0)
			return refuse(r, errno, err, errlen, dir,
				      "/" LOCK_NAME);
		if (flock(r->lockfd, LOCK_EX | LOCK_NB) < 0) {
			if (errno != EWOULDBLOCK)
				return refuse(r, errno, err, errlen,
					      dir, "/" LOCK_NAME);
			snprintf(err, errlen, "--record %s: another memcgtop "
				 "is recording into this folder", dir);
			record_close(r);
			return -EBUSY;
		}
	}
	/*
	 * An earlier recording stays whole until this one has a first
	 * sample to replace it with: new slots are numbered after the old
	 * ones, and timestamps and info are renamed over theirs.
	 */
	r->base = top + 1;
	if (top < 0) {
		/* Nothing to keep: marked as memcgtop's at once, so that
		 * an interrupted start leaves a folder it can use again. */
		int e = write_info(r);

		if (e < 0)
			return refuse(r, -e, err, errlen, dir,
				      "/info");
		r->replaced = 1;
	}
	r->procfd = open_or_make(r->dirfd, "proc");
	if (r->procfd < 0)
		return refuse(r, -r->procfd, err, errlen, dir,
			      "/proc");
	*ret = r;
	return 0;
}

static void forget_paths(struct recorder *r)
{
	for (size_t i = 0; i < r->npaths; i++)
		free(r->paths[i]);
	r->npaths = 0;
}

void record_close(struct recorder *r)
{
	if (!r)
		return;
	for (int *fd = &r->dirfd; fd <= &r->lockfd; fd++)
		if (*fd >= 0)
			close(*fd);
	if (r->lastfd >= 0)
		close(r->lastfd);
	forget_paths(r);
	free(r->paths);
	free(r->cur);
	free(r->stamps);
	free(r->mode);
	free(r->collector);
	free(r->root);
	free(r->start);
	free(r->dir);
	free(r);
}

int record_begin(struct recorder *r)
{
	char name[32];

	r->err = 0;
	r->slot = r->base + (r->max > 0 ? r->count % r->max : r->count);
	snprintf(name, sizeof(name), "%ld", r->slot);
	if (r->samplefd >= 0)
		close(r->samplefd);
	if (r->procsamplefd >= 0)
		close(r->procsamplefd);
	if (r->lastfd >= 0)
		close(r->lastfd);
	r->samplefd = r->procsamplefd = r->lastfd = -1;
	r->lastdir[0] = '\0';
	forget_paths(r);
	/* A reused slot is emptied first: no file of the old sample stays. */
	rm_tree(r->dirfd, name);
	rm_tree(r->procfd, name);
	r->samplefd = open_or_make(r->dirfd, name);
	r->procsamplefd = open_or_make(r->procfd, name);
	if (r->samplefd < 0 || r->procsamplefd < 0) {
		fail(r, r->samplefd < 0 ? -r->samplefd : -r->procsamplefd,
		     "a sample folder");
		return -r->err;
	}
	return 0;
}

/* Remembers path as written to in this sample. */
static void note_path(struct recorder *r, const char *path)
{
	if (r->npaths == r->cappaths) {
		size_t nc = r->cappaths ? r->cappaths * 2 : 64;

		r->paths = xreallocarray(r->paths, nc, sizeof(*r->paths));
		r->cappaths = nc;
	}
	r->paths[r->npaths++] = xstrdup(path);
}

/* The folder of a group in the slot, made as needed: "/a/b" -> a/b. */
static int group_dir(struct recorder *r, const char *path)
{
	int fd;

	if (r->lastfd >= 0 && !strcmp(r->lastdir, path))
		return r->lastfd;
	if (r->lastfd >= 0)
		close(r->lastfd);
	r->lastfd = -1;
	fd = dup(r->samplefd);
	for (const char *p = path; fd >= 0 && *p;) {
		char comp[256];
		size_t l;
		int nfd;

		p += strspn(p, "/");
		l = strcspn(p, "/");
		if (l == 0)
			break;
		if (l >= sizeof(comp)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, l);
		comp[l] = '\0';
		p += l;
		nfd = open_or_make(fd, comp);
		close(fd);
		fd = nfd;
	}
	if (fd < 0)
		return fd;
	note_path(r, path);
	snprintf(r->lastdir, sizeof(r->lastdir), "%s", path);
	r->lastfd = fd;
	return fd;
}

static void write_at(struct recorder *r, int dirfd, const char *name,
		     const void *buf, size_t len)
{
	int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
			O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0) {
		fail(r, errno, name);
		return;
	}
	n = write(fd, buf, len);
	if (n < 0 || (size_t)n != len)
		fail(r, n < 0 ? errno : EIO, name);
	if (close(fd) < 0)
		fail(r, errno, name);
}

void record_file(struct recorder *r, const char *path, const char *name,
		 const void *buf, size_t len)
{
	int fd;

	if (!r || r->samplefd < 0)
		return;
	fd = group_dir(r, path);
	if (fd < 0) {
		fail(r, -fd, path);
		return;
	}
	write_at(r, fd, name, buf, len);
}

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether s sorts before path followed by tail ("" or "/"). */
static int before(const char *s, const char *path, size_t l, char tail)
{
	int c = strncmp(s, path, l);

	if (c)
		return c < 0;
	return (unsigned char)s[l] < (unsigned char)tail;
}

/* The first of the sorted v that does not sort before path + tail. */
static size_t lower(char **v, size_t n, const char *path, size_t l, char tail)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (before(v[mid], path, l, tail))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether path, or a group below it, is among the sorted paths v. */
static int covered(char **v, size_t n, const char *path)
{
	size_t l = strlen(path), i;

	if (l <= 1)
		return 1;	/* the sample's root */
	i = lower(v, n, path, l, '\0');
	if (i < n && !strcmp(v[i], path))
		return 1;
	i = lower(v, n, path, l, '/');
	return i < n && !strncmp(v[i], path, l) && v[i][l] == '/';
}

void record_groups(struct recorder *r, char **kept, size_t n)
{
	if (!r || r->samplefd < 0 || r->err)
		return;
	qsort(kept, n, sizeof(*kept), cmp_path);
	qsort(r->paths, r->npaths, sizeof(*r->paths), cmp_path);
	/* Read but left out (gone while it was read): taken out again. */
	for (size_t i = 0; i < r->npaths; i++) {
		const char *p = r->paths[i] + strspn(r->paths[i], "/");

		if (i > 0 && !strcmp(r->paths[i], r->paths[i - 1]))
			continue;
		if (!covered(kept, n, r->paths[i]) && *p) {
			int e = rm_tree(r->samplefd, p);

			if (e < 0)
				fail(r, -e, r->paths[i]);
		}
	}
	/* Kept with no file read (no access, or every file gone): its
	 * folder still tells replay it was there. */
	for (size_t i = 0; i < n; i++) {
		if (bsearch(&kept[i], r->paths, r->npaths, sizeof(*r->paths),
			    cmp_path))
			continue;
		int fd = group_dir(r, kept[i]);

		if (fd < 0)
			fail(r, -fd, kept[i]);
	}
}

static void record_proc(struct recorder *r, const char *name,
			const void *buf, size_t len)
{
	const char *slash = strchr(name, '/');

	if (!r || r->procsamplefd < 0)
		return;
	if (slash) {
		char sub[64];
		int fd;

		snprintf(sub, sizeof(sub), "%.*s", (int)(slash - name), name);
		fd = open_or_make(r->procsamplefd, sub);
		if (fd < 0) {
			fail(r, -fd, name);
			return;
		}
		write_at(r, fd, slash + 1, buf, len);
		close(fd);
		return;
	}
	write_at(r, r->procsamplefd, name, buf, len);
}

/*
 * timestamps, rewritten whole and renamed into place: a replay started
 * meanwhile reads the old file or the new one, never half.  Not
 * atomic_replace(): its fsync would add two disk flushes to every sample
 * (this file and proc's), up to 20 a second, and buy nothing, as the
 * sample's own files are not flushed either; after a crash the file
 * system's order of rename and data is what there is.
 */
static int write_stamps(struct recorder *r, int dirfd)
{
	char tmp[] = "timestamps.tmp";
	FILE *f;
	int fd;

	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -errno;
	}
	/* %.17g: the replayed time is the very double that was measured, so
	 * rates come out the same to the last digit. */
	for (size_t i = 0; i < r->nstamps; i++)
		fprintf(f, "%.17g %" PRId64 " %ld\n", r->stamps[i].mono,
			r->stamps[i].wall, r->stamps[i].slot);
	if (fclose(f) != 0)
		return -errno;
	return renameat(dirfd, tmp, dirfd, "timestamps") < 0 ? -errno : 0;
}

/* Once the new timestamps are in place: the earlier recording's info
 * replaced, its slots (all numbered below base) removed. */
static int replace_old(struct recorder *r)
{
	int e = write_info(r);

	for (int pass = 0; pass < 2 && e == 0; pass++) {
		int fd = dup(pass == 0 ? r->dirfd : r->procfd);
		DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
		struct dirent *ent;

		if (!d) {
			if (fd >= 0)
				close(fd);
			return -errno;
		}
		rewinddir(d);
		while (e == 0 && (ent = readdir(d))) {
			long s = slot_number(ent->d_name);

			if (s >= 0 && s < r->base)
				e = rm_tree(dirfd(d), ent->d_name);
		}
		closedir(d);
	}
	return e;
}

int record_end(struct recorder *r, double mono, int64_t wall, char *err,
	       size_t errlen)
{
	int e;

	if (r->nstamps == r->capstamps) {
		size_t nc = r->capstamps ? r->capstamps * 2 : 64;
		r->stamps = xreallocarray(r->stamps, nc, sizeof(*r->stamps));
		r->capstamps = nc;
	}
	if (r->max > 0 && r->nstamps == (size_t)r->max) {
		memmove(r->stamps, r->stamps + 1,
			(r->nstamps - 1) * sizeof(*r->stamps));
		r->nstamps--;
	}
	r->stamps[r->nstamps++] = (struct stamp){ mono, wall, r->slot };
	r->count++;
	if (!r->err) {
		e = write_stamps(r, r->procfd);
		if (e == 0)
			e = write_stamps(r, r->dirfd);
		if (e < 0)
			fail(r, -e, "timestamps");
	}
	if (!r->err && !r->replaced) {
		e = replace_old(r);
		if (e < 0)
			fail(r, -e, "the earlier recording");
		else
			r->replaced = 1;
	}
	if (r->err) {
		snprintf(err, errlen, "--record %s: %s: %s", r->dir, r->errwhat,
			 strerror(r->err));
		return -r->err;
	}
	return 0;
}

static int sink_begin(struct sink *s)
{
	return record_begin((struct recorder *)s);
}

static void sink_group(struct sink *s, const char *path)
{
	struct recorder *r = (struct recorder *)s;

	r->cur_len = 0;
	if (!path)
		return;
	r->cur_len = strlen(path) + 1;
	if (r->cur_len > r->cur_cap) {
		r->cur = xreallocarray(r->cur, r->cur_len, 1);
		r->cur_cap = r->cur_len;
	}
	memcpy(r->cur, path, r->cur_len);
}

static void sink_file(struct sink *s, const char *name, const void *buf,
		      size_t len)
{
	struct recorder *r = (struct recorder *)s;

	if (r->cur_len)
		record_file(r, r->cur, name, buf, len);
}

static void sink_proc(struct sink *s, const char *name, const void *buf,
		      size_t len)
{
	record_proc((struct recorder *)s, name, buf, len);
}

static void sink_groups(struct sink *s, char **kept, size_t n)
{
	record_groups((struct recorder *)s, kept, n);
}

static int sink_end(struct sink *s, double mono, int64_t wall, char *err,
		    size_t errlen)
{
	return record_end((struct recorder *)s, mono, wall, err, errlen);
}

static void sink_close(struct sink *s)
{
	record_close((struct recorder *)s);
}

static const struct sink_ops record_ops = {
	.begin = sink_begin,
	.group = sink_group,
	.file = sink_file,
	.proc = sink_proc,
	.groups = sink_groups,
	.end = sink_end,
	.close = sink_close,
};

struct sink *record_sink(struct recorder *r)
{
	r->sink.ops = &record_ops;
	return &r->sink;
}
