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
 */
int atomic_replace(FILE *f, int dirfd, const char *tmp, const char *name);

#endif
