/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.c - the files of each refresh, kept as a replayable series. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

struct stamp {
	double mono;
	int64_t wall;
	long slot;
};

struct recorder {
	char *dir;
	int dirfd, procfd;	/* DIR and DIR/proc */
	int samplefd, procsamplefd;	/* the slot being written */
	long max, count, slot;
	struct stamp *stamps;	/* in order, the newest last */
	size_t nstamps, capstamps;
	int err;		/* first failure of this sample */
	char errwhat[256];
	char lastdir[4096];	/* the group folder opened last */
	int lastfd;
};

static void fail(struct recorder *r, int e, const char *what)
{
	if (r->err)
		return;
	r->err = e;
	snprintf(r->errwhat, sizeof(r->errwhat), "%s", what);
}

/* Removes everything below dirfd/name, then name itself. */
static int rm_tree(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	DIR *d;
	struct dirent *e;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (e->d_type == DT_DIR)
			rm_tree(dirfd(d), e->d_name);
		else
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
	return unlinkat(parent, name, AT_REMOVEDIR) < 0 ? -errno : 0;
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

/* A recording folder is empty or holds one: nothing else is overwritten. */
static int usable(int fd)
{
	DIR *d = fdopendir(dup(fd));
	struct dirent *e;
	int ok = 1, any = 0, has_stamps = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		any = 1;
		if (!strcmp(e->d_name, "timestamps"))
			has_stamps = 1;
	}
	closedir(d);
	if (any && !has_stamps)
		ok = 0;
	return ok;
}

int record_open(const char *dir, long max, const char *mode,
		const char *root, const char *start, struct recorder **ret,
		char *err, size_t errlen)
{
	struct recorder *r = calloc(1, sizeof(*r));
	FILE *f;
	int fd;

	if (!r)
		return -ENOMEM;
	r->dirfd = r->procfd = r->samplefd = r->procsamplefd = -1;
	r->lastfd = -1;
	r->max = max;
	r->dir = strdup(dir);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err, errlen, "--record %s: %s", dir, strerror(errno));
		record_close(r);
		return -errno;
	}
	r->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->dirfd < 0 || !r->dir) {
		int e = r->dir ? errno : ENOMEM;

		snprintf(err, errlen, "--record %s: %s", dir, strerror(e));
		record_close(r);
		return -e;
	}
	if (!usable(r->dirfd)) {
		snprintf(err, errlen, "--record %s: the folder holds other files "
			 "(give an empty folder or an earlier recording)", dir);
		record_close(r);
		return -EEXIST;
	}
	/* Start afresh: an earlier recording in the folder is replaced. */
	unlinkat(r->dirfd, "timestamps", 0);
	r->procfd = open_or_make(r->dirfd, "proc");
	if (r->procfd < 0) {
		snprintf(err, errlen, "--record %s/proc: %s", dir,
			 strerror(-r->procfd));
		record_close(r);
		return r->procfd;
	}
	unlinkat(r->procfd, "timestamps", 0);
	fd = openat(r->dirfd, "info", O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(err, errlen, "--record %s/info: %s", dir,
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		record_close(r);
		return -EIO;
	}
	fprintf(f, "mode %s\nroot %s\n", mode, root);
	/* Where replay starts without a CGROUP; a name with a newline would
	 * not read back as one line, and is left to the command line. */
	if (!strchr(start, '\n'))
		fprintf(f, "start /%s\n", start);
	if (fclose(f) != 0) {
		snprintf(err, errlen, "--record %s/info: %s", dir,
			 strerror(errno));
		record_close(r);
		return -EIO;
	}
	*ret = r;
	return 0;
}

void record_close(struct recorder *r)
{
	if (!r)
		return;
	for (int *fd = &r->dirfd; fd <= &r->procsamplefd; fd++)
		if (*fd >= 0)
			close(*fd);
	if (r->lastfd >= 0)
		close(r->lastfd);
	free(r->stamps);
	free(r->dir);
	free(r);
}

int record_begin(struct recorder *r)
{
	char name[32];

	r->err = 0;
	r->slot = r->max > 0 ? r->count % r->max : r->count;
	snprintf(name, sizeof(name), "%ld", r->slot);
	if (r->samplefd >= 0)
		close(r->samplefd);
	if (r->procsamplefd >= 0)
		close(r->procsamplefd);
	if (r->lastfd >= 0)
		close(r->lastfd);
	r->lastfd = -1;
	r->lastdir[0] = '\0';
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

void record_proc(struct recorder *r, const char *name, const void *buf,
		 size_t len)
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

/* timestamps, rewritten whole and renamed into place. */
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

int record_end(struct recorder *r, double mono, int64_t wall, char *err,
	       size_t errlen)
{
	int e;

	if (r->nstamps == r->capstamps) {
		size_t nc = r->capstamps ? r->capstamps * 2 : 64;
		struct stamp *ns = realloc(r->stamps, nc * sizeof(*ns));

		if (!ns) {
			snprintf(err, errlen, "--record: %s", strerror(ENOMEM));
			return -ENOMEM;
		}
		r->stamps = ns;
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
		e = write_stamps(r, r->dirfd);
		if (e == 0)
			e = write_stamps(r, r->procfd);
		if (e < 0)
			fail(r, -e, "timestamps");
	}
	if (r->err) {
		snprintf(err, errlen, "--record %s: %s: %s", r->dir, r->errwhat,
			 strerror(r->err));
		return -r->err;
	}
	return 0;
}
