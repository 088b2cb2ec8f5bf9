/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
#define _GNU_SOURCE
 * memload - small, predictable memory loads for the live tests and the
 * fixture capture tools.  Built statically so that it runs inside the test
 * VM's busybox initramfs as well as on the host.
 *
 *   memload anon MIB [SECS]   map MIB of anonymous memory, touch every page,
 *                             then keep re-touching it for SECS seconds
 *                             (0 or absent: until killed)
 *   memload file PATH [SECS]  read PATH with buffered reads, from the start
 *                             again at EOF, for SECS seconds (0: until killed)
 *   memload faults N [SECS]   N page faults a second, paced: every 10 ms a
 *                             fresh mapping of N/100 pages (no huge pages)
 *                             touched once and unmapped, on a fixed
 *                             schedule, so that any window of T seconds
 *                             holds N*T faults within N/100
 *
 * It prints "ready" on stdout once the first pass is done, so a test can
 * wait for the load to be in place before it samples.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int expired(double start, double secs)
{
	return secs > 0 && now() - start >= secs;
}

static void ready(void)
{
	fputs("ready\n", stdout);
	fflush(stdout);
}

static int load_anon(unsigned long mib, double secs)
{
	size_t len = (size_t)mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	double start = now();
	unsigned char *p;
	int first = 1;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "memload: mmap %lu MiB: %s\n", mib,
			strerror(errno));
		return 1;
	}
	for (unsigned char v = 1;; v++) {
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = v;
		if (first) {
			ready();
			first = 0;
		}
		if (expired(start, secs))
			break;
		usleep(20000);
	}
	munmap(p, len);
	return 0;
}

static int load_file(const char *path, double secs)
{
	static char buf[1 << 16];
	double start = now();
	int first = 1;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "memload: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0) {
			fprintf(stderr, "memload: read %s: %s\n", path,
				strerror(errno));
			close(fd);
			return 1;
		}
		if (n == 0) {
			if (first) {
				ready();
				first = 0;
			}
			if (expired(start, secs))
				break;
			if (lseek(fd, 0, SEEK_SET) < 0)
				break;
			usleep(20000);
		}
	}
	close(fd);
	return 0;
}

static int load_faults(long rate, double secs)
{
	long page = sysconf(_SC_PAGESIZE), per = rate / 100;
	size_t len = (size_t)per * (size_t)page;
	double start = now();

	if (per < 1) {
		fputs("memload: faults: at least 100 a second\n", stderr);
		return 2;
	}
	ready();
	for (long tick = 1; !expired(start, secs); tick++) {
		unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		double wait;

		if (p == MAP_FAILED) {
			fprintf(stderr, "memload: mmap: %s\n", strerror(errno));
			return 1;
		}
		/* One fault a page: a huge page would take 512 in one. */
		madvise(p, len, MADV_NOHUGEPAGE);
		for (size_t off = 0; off < len; off += (size_t)page)
			p[off] = 1;
		munmap(p, len);
		/* The schedule, not the time the work took: a late tick is
		 * caught up by the next ones. */
		wait = start + (double)tick * 0.01 - now();
		if (wait > 0)
			usleep((useconds_t)(wait * 1e6));
	}
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 3 ? strtod(argv[3], NULL) : 0;

	if (argc >= 3 && strcmp(argv[1], "anon") == 0)
		return load_anon(strtoul(argv[2], NULL, 10), secs);
	if (argc >= 3 && strcmp(argv[1], "file") == 0)
		return load_file(argv[2], secs);
	if (argc >= 3 && strcmp(argv[1], "faults") == 0)
		return load_faults(strtol(argv[2], NULL, 10), secs);
	fputs("usage: memload anon MIB [SECS] | memload file PATH [SECS] | "
	      "memload faults N [SECS]\n", stderr);
	return 2;
}
