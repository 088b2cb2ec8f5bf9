/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trust.c - a settings file or theme is the effective user's own. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "trust.h"

int trust_stat(const struct stat *st, int root_ok, char *why, size_t len)
{
	uid_t me = geteuid();

	if (st->st_uid != me && !(root_ok && st->st_uid == 0)) {
		snprintf(why, len, "belongs to uid %u, memcgtop runs as uid %u",
			 (unsigned)st->st_uid, (unsigned)me);
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(why, len, "is writable by its group or others "
			 "(mode %04o)", (unsigned)(st->st_mode & 07777));
		return -EPERM;
	}
	return 0;
}
