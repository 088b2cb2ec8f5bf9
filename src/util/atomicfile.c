/* SPDX-License-Identifier: GPL-2.0-or-later */
/* atomicfile.c - a file replaced whole (see atomicfile.h). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "atomicfile.h"

int atomic_replace(FILE *f, int dirfd, const char *tmp, const char *name)
{
	int r = 0;

	errno = 0;
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
		r = -(errno ? errno : EIO);
	if (fclose(f) != 0 && r == 0)
		r = -(errno ? errno : EIO);
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	return r;
}

/* stdio's write: all of buf, or the errno of the write that failed kept
 * in af->err, where no later call can change it. */
static ssize_t af_write(void *cookie, const char *buf, size_t len)
{
	struct atomic_file *af = cookie;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(af->fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!af->err)
				af->err = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	/* 0, never negative, is how a cookie says it failed. */
	return (ssize_t)done;
}

int atomic_file_open(struct atomic_file *af, int fd)
{
	static const cookie_io_functions_t io = { .write = af_write };

	af->fd = fd;
	af->err = 0;
	af->f = fopencookie(af, "w", io);
	return af->f ? 0 : -errno;
}

int atomic_file_commit(struct atomic_file *af, int dirfd, const char *tmp,
		       const char *name)
{
	int r = 0;

	if (fclose(af->f) != 0 && !af->err)
		af->err = EIO;
	af->f = NULL;
	if (af->err)
		r = -af->err;
	else if (fsync(af->fd) != 0)
		r = -errno;
	if (close(af->fd) != 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	return r;
}
