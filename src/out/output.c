/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.c - --output FILE, the batch printers' file sink (see output.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomicfile.h"
#include "out.h"
#include "out/output.h"

/*
 * --output FILE writes each iteration to FILE.memcgtop-tmp.XXXXXX in the
 * same folder, locked (flock) while it is written, then renames it over
 * FILE.  One left by a killed run is unlocked: the next start removes it.
 */
#define OUT_TMP ".memcgtop-tmp."

/* A new locked temporary file beside file: its descriptor, name in tmp. */
static int output_tmp(const char *file, char *tmp, size_t len)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat st;
		int fd;

		if (snprintf(tmp, len, "%s" OUT_TMP "XXXXXX", file) >= (int)len)
			return -ENAMETOOLONG;
		fd = mkstemp(tmp);
		if (fd < 0)
			return -errno;
		/* A start cleaning up may have taken it for a stale one
		 * before the lock: then it is gone, and another is made. */
		if (flock(fd, LOCK_EX) == 0 && fstat(fd, &st) == 0 &&
		    st.st_nlink > 0)
			return fd;
		close(fd);
	}
	return -EAGAIN;
}

/* The folder of file, and its base name in ret_base; -errno. */
static int output_dir(const char *file, const char **ret_base)
{
	const char *slash = strrchr(file, '/');
	char dir[PATH_MAX];
	int fd;

	if (!slash) {
		*ret_base = file;
		fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	*ret_base = slash + 1;
	if ((size_t)(slash - file) >= sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(dir, sizeof(dir), "%.*s", slash == file ? 1 :
		 (int)(slash - file), file);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* Whether name is one of our temporary files of base. */
static int output_tmp_name(const char *name, const char *base)
{
	size_t bl = strlen(base), tl = strlen(OUT_TMP);

	if (strncmp(name, base, bl) || strncmp(name + bl, OUT_TMP, tl))
		return 0;
	name += bl + tl;
	/* What mkstemp() puts in place of the six X. */
	return strlen(name) == 6 &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") == 6;
}

int output_prepare(const char *file, char *err, size_t errlen)
{
	char tmp[PATH_MAX];
	const char *base;
	struct dirent *e;
	DIR *d;
	int fd = output_dir(file, &base);

	if (fd >= 0 && !*base)
		fd = -EISDIR;
	if (fd < 0 || !(d = fdopendir(fd))) {
		int r = fd < 0 ? fd : -errno;

		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "--output %s: %s", file, strerror(-r));
		return r;
	}
	while ((e = readdir(d))) {
		struct stat st, fst;
		int tfd;

		if (!output_tmp_name(e->d_name, base) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		tfd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW |
			     O_NONBLOCK | O_CLOEXEC);
		if (tfd < 0)
			continue;
		if (flock(tfd, LOCK_EX | LOCK_NB) == 0 &&
		    fstat(tfd, &fst) == 0 && fst.st_ino == st.st_ino &&
		    fst.st_dev == st.st_dev)
			unlinkat(dirfd(d), e->d_name, 0);
		close(tfd);
	}
	closedir(d);
	fd = output_tmp(file, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, errlen, "--output %s: %s", file, strerror(-fd));
		return fd;
	}
	unlink(tmp);
	close(fd);
	return 0;
}

int output_write(struct out_ctx *out, const char *file, char *err,
		 size_t errlen)
{
	struct atomic_file af;
	char tmp[PATH_MAX];
	int fd, r;

	fd = output_tmp(file, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, errlen, "--output %s: %s", file, strerror(-fd));
		return fd;
	}
	/* Readable by a collector running as another user, like a file
	 * written by a shell redirection. */
	fchmod(fd, 0644);
	/* Through atomic_file: a full disk is named as such (ENOSPC,
	 * EDQUOT), whichever of the iteration's flushes found it; FILE
	 * itself is left as it was. */
	r = atomic_file_open(&af, fd);
	if (r < 0) {
		close(fd);
		unlink(tmp);
		snprintf(err, errlen, "--output %s: %s", file, strerror(-r));
		return r;
	}
	out->f = af.f;
	out_begin(out);
	out_iteration(out);
	out->f = stdout;
	r = atomic_file_commit(&af, AT_FDCWD, tmp, file);
	if (r < 0)
		snprintf(err, errlen, "--output %s: %s", file, strerror(-r));
	return r;
}
