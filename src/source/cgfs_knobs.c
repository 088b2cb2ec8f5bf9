/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_knobs.c - the knobs of one group of the live source: read,
 * checked, written (the only write memcgtop makes) and locked. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs_int.h"

void cgfs_set_readonly(struct cgfs *cg)
{
	cg->readonly = 1;
}

int cgfs_readonly(const struct cgfs *cg)
{
	return cg->readonly;
}

/*
 * Opens the group for a change: the path must be clean ("/a/b", no "." or
 * ".." components), every component is opened without following links,
 * and a recorded series is never written.
 */
static int open_group_rw(struct cgfs *cg, const char *path)
{
	char *clean;
	int r;

	if (!cg->src->writable)
		return -EROFS;
	r = cgfs_normalise(path, &clean);
	if (r < 0)
		return r;
	free(clean);
	return cgfs_open_group(cg, path);
}

/* Control file names come from memcgtop's own tables, never from input;
 * still, refuse anything that is not a plain name. */
static int plain_name(const char *file)
{
	return file[0] && file[0] != '.' && !strchr(file, '/');
}

int cgfs_read_knob(struct cgfs *cg, const char *path, const char *file,
		   char *buf, size_t len)
{
	ssize_t n;
	int fd;

	if (!plain_name(file))
		return -EINVAL;
	fd = cgfs_open_group(cg, path);
	if (fd < 0)
		return fd;
	n = cgfs_read_small(&cg->io, fd, file);
	close(fd);
	if (n < 0)
		return (int)n;
	while (n > 0 && (cg->io.buf[n - 1] == '\n' || cg->io.buf[n - 1] == ' '))
		n--;
	snprintf(buf, len, "%.*s", (int)n, cg->io.buf);
	return 0;
}

int cgfs_group_exists(struct cgfs *cg, const char *path)
{
	char *clean;
	int fd;

	if (cgfs_normalise(path, &clean) < 0)
		return 0;
	free(clean);
	fd = cgfs_open_group(cg, path);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int cgfs_can_write(struct cgfs *cg, const char *path, const char *file)
{
	int fd, r = 0;

	if (cg->readonly)
		return -EPERM;
	if (!plain_name(file))
		return -EINVAL;
	fd = open_group_rw(cg, path);
	if (fd < 0)
		return fd;
	if (faccessat(fd, file, W_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW) < 0)
		r = -errno;
	close(fd);
	return r;
}

int cgfs_write(struct cgfs *cg, const char *path, const char *file,
	       const char *value)
{
	char line[256];
	size_t len;
	struct stat st;
	ssize_t n;
	int dfd, fd, fl, r = 0;

	if (cg->readonly)
		return -EPERM;
	if (!plain_name(file))
		return -EINVAL;
	/* As echo(1) writes it; the kernel takes it with its newline. */
	len = (size_t)snprintf(line, sizeof(line), "%s\n", value);
	if (len >= sizeof(line) || strchr(value, '\n'))
		return -EINVAL;
	dfd = open_group_rw(cg, path);
	if (dfd < 0)
		return dfd;
	/* No O_CREAT: only a file the kernel (or the fixture) has.  O_TRUNC
	 * is what a shell redirection does; cgroupfs ignores it, a fixture's
	 * plain file needs it.  Opened O_NONBLOCK, so that a FIFO planted in
	 * a fixture does not hang the open; only a regular file (every
	 * cgroupfs control file is one) is written, and in blocking mode:
	 * since Linux 6.16 ("memcg: introduce non-blocking limit setting
	 * option"), memory.max and memory.high written O_NONBLOCK take the
	 * new value and skip the reclaim (and, for memory.max, the OOM
	 * kill) that the write otherwise does before it returns
	 * (memory_max_write, memory_high_write), as echo(1)'s does. */
	fd = openat(dfd, file, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK);
	close(dfd);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		close(fd);
		return -EINVAL;
	}
	/* cgroupfs takes the whole value in one write() and answers it with
	 * the result of applying it. */
	do {
		n = write(fd, line, len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		r = -errno;
	else if ((size_t)n != len)
		r = -EIO;
	if (close(fd) < 0 && r == 0 && errno != EINTR)
		r = -errno;
	return r;
}

/*
 * flock(2) on the group's directory: every memcgtop takes it around the
 * read, compute, write and read-back of a change, so relative changes of
 * the same group in parallel runs add up.  Advisory: other tools writing
 * the files do not take it.
 */
int cgfs_lock_group(struct cgfs *cg, const char *path, int *ret_fd)
{
	int fd, r;

	fd = open_group_rw(cg, path);
	if (fd < 0)
		return fd;
	do {
		r = flock(fd, LOCK_EX);
	} while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	*ret_fd = fd;
	return 0;
}

void cgfs_unlock_group(int fd)
{
	if (fd >= 0)
		close(fd);
}
