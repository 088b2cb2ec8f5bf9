/* SPDX-License-Identifier: GPL-2.0-or-later */
/* atomicfile.h - a file replaced whole: written to a temporary file beside
 * it, flushed to the disk, then renamed over it.  A reader (a collector, a
 * later start) sees the old file or the new one, never half of either,
 * also after a crash. */
#ifndef MEMCGTOP_ATOMICFILE_H
#define MEMCGTOP_ATOMICFILE_H

#include <stdio.h>

/*
 * f holds the new content, written to tmp (relative to dirfd, or
 * AT_FDCWD): f is flushed, fsync'd and closed, and tmp renamed to name.
 * f is closed in any case; on failure tmp is removed.  0 or -errno.
 * Only for content that f has not flushed before (a file smaller than its
 * buffer): stdio keeps that a write failed, not why, so the errno of an
 * earlier flush is lost.  Larger content goes through struct atomic_file.
 */
int atomic_replace(FILE *f, int dirfd, const char *tmp, const char *name);

/*
 * The same for content of any size: f writes to fd (open on tmp) through
 * a stream that keeps the errno of the first write that failed, so that a
 * full disk is named ENOSPC (or EDQUOT) whenever stdio flushed.
 */
struct atomic_file {
	FILE *f;		/* write the content here */
	int fd;
	int err;		/* the first write's errno, or 0 */
};

/* af->f on fd; 0 or -errno (fd is then left open). */
int atomic_file_open(struct atomic_file *af, int fd);
/* As atomic_replace: af->f flushed and closed, fd fsync'd and closed, tmp
 * renamed to name; on failure tmp removed.  0 or -errno of the first call
 * that failed. */
int atomic_file_commit(struct atomic_file *af, int dirfd, const char *tmp,
		       const char *name);

#endif
