/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trust.h - whether a file memcgtop reads its own settings from (the
 * settings file, a theme) is the user's.
 *
 * Under sudo, or with HOME pointing elsewhere, root's memcgtop would read
 * another user's files: another user's settings could steer it, and a
 * theme that names any file would read it.
 */
#ifndef MEMCGTOP_TRUST_H
#define MEMCGTOP_TRUST_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * st (of a file or a folder) belongs to the effective user, or to root
 * when root_ok (the installed themes are root's), and neither its group
 * nor others may write it.  Returns 0, or -EPERM with the reason in why
 * ("belongs to uid 1000, memcgtop runs as uid 0", "is writable by its
 * group or others").
 */
int trust_stat(const struct stat *st, int root_ok, char *why, size_t len);

#endif
