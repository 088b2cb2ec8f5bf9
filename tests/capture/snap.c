/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * snap - copy one sample of a cgroup v2 memory fixture in one process
 * (forks are slow in the TCG test VM).
 *
 *   snap CGROOT SUBTREE CGOUT [PROCOUT]
 *
 * CGOUT/ gets the root's cgroup.controllers, cgroup.subtree_control,
 * cgroup.stat, memory.stat, memory.pressure and memory.numa_stat;
 * CGOUT/SUBTREE/... gets, for SUBTREE and every group below it, the
 * readable memory.* files plus cgroup.procs, cgroup.controllers,
 * cgroup.subtree_control, cgroup.type, cgroup.events and cgroup.stat.  Nothing from other groups.  PROCOUT/ gets /proc/meminfo,
 * /proc/vmstat and /proc/pressure/memory.  A file that cannot be read to EOF
 * (write-only, EOPNOTSUPP, ...) is left out.
 *
 * Build: gcc -O2 -static -o snap tests/capture/snap.c
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *buf;
static size_t bufsz = 1 << 16;
static int nfiles, nskipped;

static int mkdirs(const char *path)
{
	char tmp[PATH_MAX];
	size_t n = strlen(path);

	if (n >= sizeof(tmp))
		return -1;
	memcpy(tmp, path, n + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(tmp, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* read SRC to EOF, then write DST; on any read error write nothing */
static void copy(const char *src, const char *dst)
{
	size_t len = 0;
	int fd = open(src, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		nskipped++;
		return;
	}
	for (;;) {
		ssize_t r;

		if (len == bufsz) {
			char *nb = realloc(buf, bufsz * 2);

			if (!nb) {
				close(fd);
				nskipped++;
				return;
			}
			buf = nb;
			bufsz *= 2;
		}
		r = read(fd, buf + len, bufsz - len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			close(fd);
			nskipped++;
			return;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len) {
		fprintf(stderr, "snap: write %s: %s\n", dst, strerror(errno));
		exit(1);
	}
	close(fd);
	nfiles++;
}

static int wanted(const char *name)
{
	static const char *const cg[] = {
		"cgroup.procs", "cgroup.controllers", "cgroup.subtree_control",
		"cgroup.type", "cgroup.events", "cgroup.stat",
	};

	if (strncmp(name, "memory.", 7) == 0)
		return 1;
	for (size_t i = 0; i < sizeof(cg) / sizeof(cg[0]); i++)
		if (strcmp(name, cg[i]) == 0)
			return 1;
	return 0;
}

static void walk(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	struct dirent *e;

	if (!d) {
		fprintf(stderr, "snap: %s: %s\n", src, strerror(errno));
		return;
	}
	if (mkdirs(dst) != 0) {
		fprintf(stderr, "snap: mkdir %s: %s\n", dst, strerror(errno));
		exit(1);
	}
	while ((e = readdir(d)) != NULL) {
		char s[PATH_MAX], t[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(s, sizeof(s), "%s/%s", src, e->d_name);
		snprintf(t, sizeof(t), "%s/%s", dst, e->d_name);
		if (e->d_type == DT_DIR) {
			walk(s, t);
			continue;
		}
		if (!wanted(e->d_name))
			continue;
		if (stat(s, &st) != 0 || !S_ISREG(st.st_mode) ||
		    !(st.st_mode & S_IRUSR)) {
			nskipped++;
			continue;
		}
		copy(s, t);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	static const char *const rootfiles[] = {
		"cgroup.controllers", "cgroup.subtree_control", "cgroup.stat",
		"memory.stat", "memory.pressure", "memory.numa_stat",
	};
	char s[PATH_MAX], t[PATH_MAX];

	if (argc < 4) {
		fputs("usage: snap CGROOT SUBTREE CGOUT [PROCOUT]\n", stderr);
		return 2;
	}
	buf = malloc(bufsz);
	if (!buf || mkdirs(argv[3]) != 0) {
		fprintf(stderr, "snap: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	for (size_t i = 0; i < sizeof(rootfiles) / sizeof(rootfiles[0]); i++) {
		snprintf(s, sizeof(s), "%s/%s", argv[1], rootfiles[i]);
		snprintf(t, sizeof(t), "%s/%s", argv[3], rootfiles[i]);
		copy(s, t);
	}
	snprintf(s, sizeof(s), "%s/%s", argv[1], argv[2]);
	snprintf(t, sizeof(t), "%s/%s", argv[3], argv[2]);
	walk(s, t);
	if (argc > 4) {
		snprintf(t, sizeof(t), "%s/pressure", argv[4]);
		if (mkdirs(t) != 0) {
			fprintf(stderr, "snap: mkdir %s: %s\n", t, strerror(errno));
			return 1;
		}
		snprintf(t, sizeof(t), "%s/meminfo", argv[4]);
		copy("/proc/meminfo", t);
		snprintf(t, sizeof(t), "%s/vmstat", argv[4]);
		copy("/proc/vmstat", t);
		snprintf(t, sizeof(t), "%s/pressure/memory", argv[4]);
		copy("/proc/pressure/memory", t);
		snprintf(t, sizeof(t), "%s/pressure", argv[4]);
		rmdir(t); /* only succeeds when PSI is missing */
	}
	fprintf(stderr, "snap: %d files, %d skipped\n", nfiles, nskipped);
	return 0;
}
