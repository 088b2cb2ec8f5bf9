/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_find.c - finding the memory cgroup hierarchy: the live host's mount
 * (libcgroup, else /proc/self/mountinfo) or a --root copy, its version and
 * the host's mode; and the live files source (cgfs_live_ops, source.h):
 * the one tree, read now. */
#include <errno.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "cgfs_int.h"
#include "clock.h"
#include "sysinfo.h"
#include "xalloc.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif

int cgfs_on_cgroupfs(const char *dir)
{
	struct statfs sf;

	return statfs(dir, &sf) == 0 &&
		(sf.f_type == CGROUP2_SUPER_MAGIC ||
		 sf.f_type == CGROUP_SUPER_MAGIC);
}

static int file_exists_at(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* "memory" among the words of a v2 group's cgroup.controllers. */
static int has_memory_controller(struct cgfs *cg, int dirfd)
{
	ssize_t n = cgfs_read_small(&cg->io, dirfd, "cgroup.controllers");
	const char *p, *end;

	if (n < 0)
		return 0;
	p = cg->io.buf;
	end = cg->io.buf + n;
	while (p < end) {
		const char *w = p;

		while (p < end && *p != ' ' && *p != '\n')
			p++;
		if (p - w == 6 && memcmp(w, "memory", 6) == 0)
			return 1;
		p++;
	}
	return 0;
}

int cgfs_find_version(struct cgfs *cg, const char *dir, char *err,
		      size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;

	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-r));
		return r;
	}
	if (file_exists_at(fd, "cgroup.controllers")) {
		if (!has_memory_controller(cg, fd)) {
			snprintf(err, errlen, "%s: the memory controller is "
				 "not enabled in this cgroup v2 hierarchy", dir);
			r = -ENOENT;
		}
		cg->version = 2;
	} else if (file_exists_at(fd, "memory.usage_in_bytes") ||
		   file_exists_at(fd, "memory.limit_in_bytes")) {
		cg->version = 1;
	} else {
		snprintf(err, errlen, "%s: not a memory cgroup hierarchy "
			 "(no cgroup.controllers or memory.usage_in_bytes)",
			 dir);
		r = -ENOENT;
	}
	close(fd);
	return r;
}

/*
 * Whether the cgroup2 mount in a mountinfo (or mounts) file at path has
 * the super option memory_recursiveprot: 1 or 0; -1 when the file cannot
 * be read or has no cgroup2 mount.  at: the mount point to match (NULL:
 * the first cgroup2 mount, as in a copy's --proc).
 */
int cgfs_recursiveprot(const char *path, const char *at)
{
	char line[4096];
	int r = -1;
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	while (r < 0 && fgets(line, sizeof(line), f)) {
		char point[PATH_MAX], fstype[64], opts[1024];
		const char *sep = strstr(line, " - ");

		/* mountinfo: id parent maj:min root point opts [tags] -
		 * fstype src sopts; mounts: src point fstype opts 0 0 */
		if (sep) {
			if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 ||
			    sscanf(sep + 3, "%63s %*s %1023s", fstype,
				   opts) != 2)
				continue;
		} else if (sscanf(line, "%*s %4095s %63s %1023s", point, fstype,
				  opts) != 3) {
			continue;
		}
		if (strcmp(fstype, "cgroup2") != 0 ||
		    (at && strcmp(point, at) != 0))
			continue;
		r = 0;
		for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
			if (strcmp(o, "memory_recursiveprot") == 0)
				r = 1;
	}
	fclose(f);
	return r;
}

/*
 * The memory hierarchy of the live host.  libcgroup reads /proc/cgroups
 * and /proc/mounts; where it cannot initialise (no /proc/cgroups, an odd
 * container), /proc/self/mountinfo is read instead.
 */
static char *find_live_root(void)
{
	char *mnt = NULL, line[4096];
	FILE *f;

	if (cgroup_init() == 0 &&
	    cgroup_get_subsys_mount_point("memory", &mnt) == 0 && mnt)
		return mnt;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return NULL;
	while (!mnt && fgets(line, sizeof(line), f)) {
		char point[PATH_MAX], fstype[64], opts[1024];
		const char *sep = strstr(line, " - ");

		/* id parent maj:min root point opts [tags] - fstype src sopts */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (strcmp(fstype, "cgroup2") == 0) {
			char ctl[PATH_MAX + 32];
			FILE *c;

			snprintf(ctl, sizeof(ctl), "%s/cgroup.controllers",
				 point);
			c = fopen(ctl, "re");
			if (c) {
				char words[512];

				if (fgets(words, sizeof(words), c) &&
				    strstr(words, "memory"))
					mnt = xstrdup(point);
				fclose(c);
			}
		} else if (strcmp(fstype, "cgroup") == 0) {
			for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
				if (strcmp(o, "memory") == 0)
					mnt = xstrdup(point);
		}
	}
	fclose(f);
	return mnt;
}

const char *cgfs_host_mode(const char *mnt)
{
	struct statfs sf;

	if (statfs(mnt, &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC)
		return "v2";
	/* A v1 memory mount beside a cgroup2 mount is a hybrid host. */
	if (statfs("/sys/fs/cgroup/unified", &sf) == 0 &&
	    sf.f_type == CGROUP2_SUPER_MAGIC)
		return "hybrid";
	return "v1";
}

int cgfs_live_open(struct cgfs *cg, const struct cgfs_opts *opts, char *dir,
		   size_t dirlen, char *err, size_t errlen)
{
	cg->root = opts->root ? xstrdup(opts->root) : find_live_root();
	if (!cg->root) {
		snprintf(err, errlen, "no memory cgroup hierarchy found "
			 "(neither a cgroup v1 memory mount nor cgroup2 with "
			 "the memory controller)");
		return -ENOENT;
	}
	snprintf(dir, dirlen, "%s", cg->root);
	return 0;
}

/* The live files: the one tree, read now. */
static int live_begin(struct cgfs *cg, char *dir, size_t dirlen,
		      struct snapshot *snap)
{
	snprintf(dir, dirlen, "%s", cg->root);
	snap->mono = clock_mono();
	snap->wall = (int64_t)time(NULL);
	return 0;
}

static void live_tree(const struct cgfs *cg, char *dir, size_t dirlen)
{
	snprintf(dir, dirlen, "%s", cg->root);
}

static size_t live_sys_slot(const struct cgfs *cg)
{
	(void)cg;
	return 0;
}

static size_t live_position(const struct cgfs *cg, size_t *ret_count)
{
	(void)cg;
	*ret_count = 0;
	return 0;
}

static void live_seek(struct cgfs *cg, size_t index)
{
	(void)cg;
	(void)index;
}

static void live_reread(struct cgfs *cg)
{
	(void)cg;
}

static void live_open_sys(struct cgfs *cg, const char *proc)
{
	sysinfo_open(proc, &cg->sys);
}

const struct source_ops cgfs_live_ops = {
	.series = 0,
	.fresh_tree = 0,
	.writable = 1,
	.open = cgfs_live_open,
	.close = NULL,
	.begin = live_begin,
	.tree = live_tree,
	.sys_slot = live_sys_slot,
	.position = live_position,
	.seek = live_seek,
	.reread = live_reread,
	.open_sys = live_open_sys,
};
