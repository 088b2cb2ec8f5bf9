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
