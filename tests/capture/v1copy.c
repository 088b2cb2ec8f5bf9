/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * v1copy - copy cgroup and procfs files for one fixture sample in a single
 * process, so that the files of one sample are read within a few
 * milliseconds of each other (a shell loop with one cat per file spreads a
 * sample over a few hundred milliseconds on this kind of machine).
 *
 *   v1copy [-d SRCDIR DSTDIR | -f SRCFILE DSTFILE]...
 *
 * -d copies the readable memory.* files and cgroup.procs of SRCDIR (not its
 *    subdirectories) into DSTDIR, which must exist.  memory.kmem.slabinfo is
 *    skipped (it can be large).  Files the kernel refuses to read
 *    (memory.force_empty, memory.pressure_level and cgroup.event_control on
 *    6.18 answer EINVAL) are skipped: a fixture holds only readable files.
 * -f copies one file; a missing source (no PSI) is skipped silently.
 *
 * Output files are written whole, only after the source was read to EOF,
 * so a failed read leaves no partial file behind.
 *
 * Build: gcc -O2 -o v1copy tests/capture/v1copy.c (capture-v1.sh does it)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 20];

/* Returns the byte count read, or -errno. */
static long read_all(int dfd, const char *path)
{
	size_t len = 0;
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n = read(fd, buf + len, sizeof(buf) - len);

		if (n < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == sizeof(buf)) {
			close(fd);
			return -EFBIG;
		}
	}
	close(fd);
	return (long)len;
}

static int write_all(const char *dst, size_t len)
{
	int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t off = 0;

	if (fd < 0)
		return -errno;
	while (off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0) {
			int e = errno;

			close(fd);
			return -e;
		}
		off += (size_t)n;
	}
	return close(fd) == 0 ? 0 : -errno;
}

static int copy_file(int dfd, const char *src, const char *dst, int quiet)
{
	long n = read_all(dfd, src);

	if (n < 0) {
		if (!quiet)
			fprintf(stderr, "v1copy: skip %s: %s\n", src,
				strerror((int)-n));
		return 0;
	}
	n = write_all(dst, (size_t)n);
	if (n < 0) {
		fprintf(stderr, "v1copy: %s: %s\n", dst, strerror((int)-n));
		return 1;
	}
	return 0;
}

static int wanted(const char *name)
{
	if (strcmp(name, "cgroup.procs") == 0)
		return 1;
	if (strncmp(name, "memory.", 7) != 0)
		return 0;
	/* Write-only or unreadable (EINVAL on read), or large. */
	return strcmp(name, "memory.kmem.slabinfo") != 0 &&
	       strcmp(name, "memory.force_empty") != 0 &&
	       strcmp(name, "memory.pressure_level") != 0;
}

static int copy_dir(const char *src, const char *dst)
{
	DIR *d = opendir(src);
	struct dirent *de;
	char out[4096];
	int rc = 0;

	if (!d) {
		fprintf(stderr, "v1copy: %s: %s\n", src, strerror(errno));
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_type != DT_REG || !wanted(de->d_name))
			continue;
		if (snprintf(out, sizeof(out), "%s/%s", dst, de->d_name) >=
		    (int)sizeof(out)) {
			rc = 1;
			continue;
		}
		rc |= copy_file(dirfd(d), de->d_name, out, 0);
	}
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i += 3) {
		if (i + 2 >= argc) {
			fputs("usage: v1copy [-d SRCDIR DSTDIR | -f SRC DST]...\n",
			      stderr);
			return 2;
		}
		if (strcmp(argv[i], "-d") == 0)
			rc |= copy_dir(argv[i + 1], argv[i + 2]);
		else if (strcmp(argv[i], "-f") == 0)
			rc |= copy_file(AT_FDCWD, argv[i + 1], argv[i + 2], 1);
		else {
			fprintf(stderr, "v1copy: bad option %s\n", argv[i]);
			return 2;
		}
	}
	return rc;
}
