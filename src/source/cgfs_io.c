/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_io.c - reading the files of a group's directory: opening without
 * following links, a whole small file into one reused buffer, the lines of
 * a long one counted; the plain reader of a sample and the recording one,
 * which hands what the plain one read to a sink (sink.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "cgfs_int.h"
#include "parse.h"
#include "sink.h"
#include "xalloc.h"

void cgfs_io_init(struct cgfs_io *io)
{
	io->cap = 65536;
	io->buf = xmalloc(io->cap);
	io->kernfs = 0;
}

void cgfs_io_free(struct cgfs_io *io)
{
	free(io->buf);
	io->buf = NULL;
	io->cap = 0;
}

void cgfs_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t nc = *cap ? *cap : 64;

	if (need <= *cap)
		return;
	while (nc < need)
		nc *= 2;
	*p = xreallocarray(*p, nc, elem);
	*cap = nc;
}

/* "/a//b/" -> "a/b"; refuses ".." and "." components. */
int cgfs_normalise(const char *in, char **ret)
{
	char *out = xmalloc(strlen(in) + 1), *o = out;

	while (*in) {
		size_t l;

		in += strspn(in, "/");
		l = strcspn(in, "/");
		if (l == 0)
			break;
		if ((l == 1 && in[0] == '.') ||
		    (l == 2 && in[0] == '.' && in[1] == '.')) {
			free(out);
			return -EINVAL;
		}
		if (o != out)
			*o++ = '/';
		memcpy(o, in, l);
		o += l;
		in += l;
	}
	*o = '\0';
	*ret = out;
	return 0;
}

/*
 * openat2() (Linux 5.6+) resolves the whole path in one call, refusing a
 * symbolic link in any component (RESOLVE_NO_SYMLINKS: ELOOP, as
 * O_NOFOLLOW on each component does) and any escape from dirfd; the walk
 * one component at a time costs two system calls a level (an open, a
 * close): 26 for a group 12 levels down, where the BPF pass names a group
 * by its path and a file of it must be read.  0 if the kernel or a
 * seccomp filter has no openat2 (the walk then).
 */
static int open_beneath(int dirfd, const char *rel)
{
	static int none;
	struct open_how how = {
		.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			RESOLVE_BENEATH,
	};
	long fd;

	if (none)
		return 0;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno == ENOSYS || errno == EPERM) {
		none = 1;
		return 0;
	}
	/* EAGAIN: a rename or mount meanwhile; ENAMETOOLONG: a path
	 * beyond PATH_MAX (a deep tree), which the walk opens a component
	 * at a time; ELOOP and ENOENT as the walk would say them. */
	return errno == EAGAIN || errno == EXDEV || errno == ENAMETOOLONG ?
		0 : -errno;
}

int cgfs_open_rel(int dirfd, const char *rel)
{
	char comp[NAME_MAX + 1];
	int fd;

	if (*rel && (fd = open_beneath(dirfd, rel)) != 0)
		return fd;
	fd = dup(dirfd);
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
 * Grows io->buf, up to 1 MiB: 0 at that size, else 1.  A control file is
 * read whole up to there, and so kept whole by a recording; the largest
 * (memory.stat, a big cgroup.procs) stay far below it.  What a file holds
 * beyond it (a device or a huge file planted below --root) is not read.
 */
static int grow_buf(struct cgfs_io *io)
{
	if (io->cap >= (1u << 20))
		return 0;
	io->buf = xreallocarray(io->buf, io->cap, 2);
	io->cap *= 2;
	return 1;
}

/* Reads fd from offset 0 to its end into io->buf; the length or -errno. */
static ssize_t read_whole(struct cgfs_io *io, int fd)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (len == io->cap && !grow_buf(io))
			break;
		n = pread(fd, io->buf + len, io->cap - len, (off_t)len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		/* A read that did not fill the buffer reached the end: a
		 * regular file's does, and so does cgroupfs' seq_file, which
		 * fills all it is given before it returns.  That saves the
		 * second call that would read nothing. */
		if (len < io->cap)
			break;
	}
	return (ssize_t)len;
}

/*
 * Opens a file of a group.  O_NOFOLLOW: a symlink planted where a control
 * file should be is not followed out of the hierarchy.  O_NONBLOCK: a FIFO
 * planted in a fixture does not hang us.  A mounted cgroup filesystem has
 * only regular files; a tree given with --root or a recording may hold
 * anything where a control file should be, and what is not a regular file
 * (a device such as /dev/zero, whose reads never end; a FIFO) is not read:
 * -EINVAL.
 */
static int open_cf(const struct cgfs_io *io, int dirfd, const char *name)
{
	struct stat st;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
			O_NONBLOCK);

	if (fd < 0)
		return -errno;
	if (io->kernfs)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		/* A directory says so, as read() on it would. */
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	return fd;
}

ssize_t cgfs_read_small(struct cgfs_io *io, int dirfd, const char *name)
{
	int fd = open_cf(io, dirfd, name);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read_whole(io, fd);
	close(fd);
	return n;
}

/* The most of cgroup.procs read: every pid up to the largest pid_max
 * (2^22), 8 bytes a line, is 32 MiB. */
#define PROCS_MAX (64 << 20)

/* cgroup.procs can be long (the root lists every process): counted in
 * passes through the buffer instead of held whole. */
int cgfs_count_lines(struct cgfs_io *io, int dirfd, const char *name,
		     uint64_t *ret_n)
{
	uint64_t n = 0;
	off_t off = 0;
	int fd, in_line = 0, r = 0;

	fd = open_cf(io, dirfd, name);
	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t got;

		if (off >= PROCS_MAX) {
			r = -EFBIG;
			break;
		}
		got = pread(fd, io->buf, io->cap, off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			break;
		}
		if (got == 0)
			break;
		off += got;
		for (ssize_t i = 0; i < got; i++) {
			if (io->buf[i] == '\n') {
				n += (uint64_t)in_line;
				in_line = 0;
			} else {
				in_line = 1;
			}
		}
	}
	close(fd);
	if (r == 0)
		*ret_n = n + (uint64_t)in_line;
	return r;
}

/* The plain reader: the files, read. */

static void plain_begin(struct cgfs_reader *rd, int rootfd, const char *vfile)
{
	(void)rd;
	(void)rootfd;
	(void)vfile;
}

static void plain_group(struct cgfs_reader *rd, const char *path)
{
	(void)rd;
	(void)path;
}

static ssize_t plain_read(struct cgfs_reader *rd, int dirfd, const char *name)
{
	return cgfs_read_small(rd->io, dirfd, name);
}

static int plain_count(struct cgfs_reader *rd, int dirfd, const char *name,
		       uint64_t *ret_n)
{
	return cgfs_count_lines(rd->io, dirfd, name, ret_n);
}

static int plain_end(struct cgfs_reader *rd, const struct snapshot *snap,
		     char *err, size_t errlen)
{
	(void)rd;
	(void)snap;
	(void)err;
	(void)errlen;
	return 0;
}

static void plain_free(struct cgfs_reader *rd)
{
	free(rd);
}

static const struct cgfs_reader_ops plain_ops = {
	.begin = plain_begin,
	.group = plain_group,
	.read = plain_read,
	.count_lines = plain_count,
	.end = plain_end,
	.free = plain_free,
};

struct cgfs_reader *cgfs_plain_reader(struct cgfs_io *io)
{
	struct cgfs_reader *rd = xcalloc(1, sizeof(*rd));

	rd->ops = &plain_ops;
	rd->io = io;
	return rd;
}

/* The recording reader: what the inner one reads, and the sink told. */
struct tee {
	struct cgfs_reader rd;
	struct cgfs_reader *inner;
	struct sink *sink;
};

/* A sink that cannot begin keeps none of the sample's files and says so
 * at its end: the refresh goes on. */
static void tee_begin(struct cgfs_reader *rd, int rootfd, const char *vfile)
{
	struct tee *t = (struct tee *)rd;

	if (t->sink->ops->begin(t->sink) < 0)
		return;
	/* What tells the version on replay, whatever the start group. */
	t->sink->ops->group(t->sink, "/");
	(void)rd->ops->read(rd, rootfd, vfile);
	t->sink->ops->group(t->sink, NULL);
}

static void tee_group(struct cgfs_reader *rd, const char *path)
{
	struct tee *t = (struct tee *)rd;

	t->sink->ops->group(t->sink, path);
}

static ssize_t tee_read(struct cgfs_reader *rd, int dirfd, const char *name)
{
	struct tee *t = (struct tee *)rd;
	ssize_t n = t->inner->ops->read(t->inner, dirfd, name);

	if (n >= 0)
		t->sink->ops->file(t->sink, name, rd->io->buf, (size_t)n);
	return n;
}

static void tee_kept(struct cgfs_reader *rd, const char *name,
		     const char *text, size_t len)
{
	struct tee *t = (struct tee *)rd;

	t->sink->ops->file(t->sink, name, text, len);
}

/* Recorded: read whole (up to 1 MiB) so that the file is kept. */
static int tee_count(struct cgfs_reader *rd, int dirfd, const char *name,
		     uint64_t *ret_n)
{
	ssize_t n = tee_read(rd, dirfd, name);

	if (n < 0)
		return (int)n;
	*ret_n = parse_count_lines(rd->io->buf, (size_t)n);
	return 0;
}

/* Tells the sink which groups the sample kept: one read but then left
 * out (gone meanwhile) must not come back on replay. */
static int tee_end(struct cgfs_reader *rd, const struct snapshot *snap,
		   char *err, size_t errlen)
{
	struct tee *t = (struct tee *)rd;
	char **paths = xreallocarray(NULL, snap->n ? snap->n : 1,
				     sizeof(*paths));

	for (size_t i = 0; i < snap->n; i++)
		paths[i] = snap->paths + snap->groups[i].path_off;
	t->sink->ops->groups(t->sink, paths, snap->n);
	free(paths);
	return t->sink->ops->end(t->sink, snap->mono, snap->wall, err, errlen);
}

static void tee_free(struct cgfs_reader *rd)
{
	struct tee *t = (struct tee *)rd;

	t->sink->ops->close(t->sink);
	t->inner->ops->free(t->inner);
	free(t);
}

static const struct cgfs_reader_ops tee_ops = {
	.begin = tee_begin,
	.group = tee_group,
	.read = tee_read,
	.kept = tee_kept,
	.count_lines = tee_count,
	.end = tee_end,
	.free = tee_free,
};

struct cgfs_reader *cgfs_tee_reader(struct cgfs_reader *inner,
				    struct sink *sink)
{
	struct tee *t = xcalloc(1, sizeof(*t));

	t->rd.ops = &tee_ops;
	t->rd.io = inner->io;
	t->inner = inner;
	t->sink = sink;
	return &t->rd;
}

void cgfs_short_error(char *err, size_t errlen, const char *root,
		      const char *rel, int e)
{
	struct rlimit rl;

	if (e == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
		snprintf(err, errlen, "%s/%s: %s (RLIMIT_NOFILE is %llu)",
			 root, rel, strerror(-e),
			 (unsigned long long)rl.rlim_cur);
	else
		snprintf(err, errlen, "%s/%s: %s", root, rel, strerror(-e));
}
