/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * faultbench - a page-fault microbenchmark: maps CHUNK MiB of anonymous
 * memory, writes one byte per page (a fault each), unmaps it, until
 * TOTAL MiB have been faulted in; prints the CPU time (user + system) and
 * the wall time in seconds and the nanoseconds of CPU per fault:
 *
 *   faultbench [TOTAL_MIB [CHUNK_MIB]]     (default 1024 and 64)
 *   cpu=S wall=S faults=N ns_per_fault=N
 *
 * Every fault reaches memcg:count_memcg_events (PGFAULT), so it shows what
 * a program on that tracepoint costs the fault path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static double wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long total = argc > 1 ? atol(argv[1]) : 1024;
	long chunk = argc > 2 ? atol(argv[2]) : 64;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len, off;
	unsigned long long faults = 0;
	double c0, w0, c, w;
	long done;

	if (total <= 0 || chunk <= 0) {
		fprintf(stderr, "usage: faultbench [TOTAL_MIB [CHUNK_MIB]]\n");
		return 2;
	}
	len = (size_t)chunk << 20;
	c0 = cpu_s();
	w0 = wall_s();
	for (done = 0; done < total; done += chunk) {
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("faultbench: mmap");
			return 1;
		}
		for (off = 0; off < len; off += page)
			p[off] = 1;
		faults += len / page;
		munmap((void *)p, len);
	}
	c = cpu_s() - c0;
	w = wall_s() - w0;
	printf("cpu=%.4f wall=%.4f faults=%llu ns_per_fault=%.1f\n", c, w,
	       faults, c * 1e9 / (double)faults);
	return 0;
}
