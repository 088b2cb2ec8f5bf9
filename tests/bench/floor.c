/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * floor - the cost floor for one memcgtop refresh on cgroup v1.
 *
 *   floor [-n N] [-s MS] [-e] [-p] [-u] [-m MOUNT] [-f FILE,FILE,...] SUBTREE
 *
 * Walks MOUNT/SUBTREE (default mount /sys/fs/cgroup/memory) ONCE, keeping an
 * O_DIRECTORY fd open for every group, then runs N refreshes (default 5).  A
 * refresh is the naive loop: for every group, for every FILE,
 * openat(dirfd, FILE) + read() into a 64 KiB buffer + close(), parsing
 * nothing.  With -s, it sleeps MS milliseconds before each refresh, as a
 * monitor does between its refreshes (the caches cool down meanwhile).
 * With -e each file is read until read() returns 0 (as a reader that does
 * not trust a short read does), else one read().
 *
 * With -p, the kept-descriptor variant, which memcgtop does not use (each
 * kept cgroupfs file holds a kernel read buffer, charged to the reader):
 * the files are opened once, after the walk, as long as the descriptor
 * budget lasts (RLIMIT_NOFILE minus the directory fds minus 64), and a
 * refresh reads them with pread(fd, buf, len, 0) (with -e, pread on at the
 * next offset until it returns 0); files beyond the budget, and cgroup.procs
 * and tasks always (their pid lists are not re-read by pread at offset 0 on
 * v1; memcgtop re-opens them too), take the openat+read+close path.
 *
 * With -u, the io_uring variant, to measure whether batching the system
 * calls lowers the floor: each file is an openat into a registered file
 * slot, a read() of it and a close of the slot, linked, 256 files to a
 * submission (io_uring_submit_and_wait); 64 KiB per read as above, never
 * read to EOF.  Its CPU includes the kernel's io-wq workers (threads of
 * this process), where cgroupfs opens and reads are handed when they
 * cannot complete without blocking.
 *
 * The default FILE list is what memcgtop reads per group for its default
 * JSON columns on v1 (strace -e trace=openat ./memcgtop -b -n 1 -F json):
 * memory.usage_in_bytes, memory.limit_in_bytes, memory.soft_limit_in_bytes,
 * memory.swappiness, memory.kmem.usage_in_bytes, memory.failcnt,
 * memory.stat, memory.memsw.usage_in_bytes, memory.oom_control,
 * cgroup.procs.  A file that a group lacks is tried every refresh anyway, as
 * a naive loop would; the failed opens per refresh are printed.
 *
 * Output (stdout), one line per refresh then a summary line with medians:
 *   refresh I wall_ms W user_ms U sys_ms S
 *   floor groups G files F reads R failed_opens X walk_ms W refreshes N
 *         wall_ms W user_ms U sys_ms S cpu_ms C kept K   (one line)
 * (reads: read/pread calls per refresh; kept: files read by pread.)
 * Times are per refresh: CLOCK_MONOTONIC for wall, getrusage(RUSAGE_SELF)
 * for user and system CPU.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define MAXFILES 64

static const char *default_files =
	"memory.usage_in_bytes,memory.limit_in_bytes,"
	"memory.soft_limit_in_bytes,memory.swappiness,"
	"memory.kmem.usage_in_bytes,memory.failcnt,memory.stat,"
	"memory.memsw.usage_in_bytes,memory.oom_control,cgroup.procs";

static int *dirs;
static size_t ndirs, capdirs;
static int *kept;		/* -p: kept[g * nfiles + f], -1 if not kept */

static double mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void cpu_ms(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = (double)ru.ru_utime.tv_sec * 1e3 +
		(double)ru.ru_utime.tv_usec / 1e3;
	*sys = (double)ru.ru_stime.tv_sec * 1e3 +
	       (double)ru.ru_stime.tv_usec / 1e3;
}

static void add_dir(int fd)
{
	if (ndirs == capdirs) {
		capdirs = capdirs ? capdirs * 2 : 1024;
		dirs = realloc(dirs, capdirs * sizeof(*dirs));
		if (!dirs) {
			perror("floor: realloc");
			exit(1);
		}
	}
	dirs[ndirs++] = fd;
}

/* walk: keeps fd (a group's directory) and recurses into its subgroups. */
static void walk(int fd)
{
	DIR *d;
	struct dirent *e;
	int dup_fd;

	add_dir(fd);
	dup_fd = dup(fd);
	if (dup_fd < 0 || !(d = fdopendir(dup_fd))) {
		perror("floor: fdopendir");
		exit(1);
	}
	while ((e = readdir(d))) {
		int sub;

		if (e->d_type != DT_DIR || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0)
			continue;
		sub = openat(fd, e->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			fprintf(stderr, "floor: openat %s: %s\n", e->d_name,
				strerror(errno));
			exit(1);
		}
		walk(sub);
	}
	closedir(d);
}

#define URING_BATCH 256

/* -u: one refresh through io_uring; returns the reads that gave data. */
static unsigned long long uring_refresh(struct io_uring *ring, char **files,
					int nfiles, char (*bufs)[1 << 16],
					unsigned long long *failed)
{
	size_t total = ndirs * (size_t)nfiles, next = 0;
	unsigned long long ok = 0;

	while (next < total) {
		unsigned batch = 0, seen = 0;
		struct io_uring_cqe *cqe;

		for (; next < total && batch < URING_BATCH; next++, batch++) {
			size_t g = next / (size_t)nfiles;
			int f = (int)(next % (size_t)nfiles);
			struct io_uring_sqe *s;

			s = io_uring_get_sqe(ring);
			io_uring_prep_openat_direct(s, dirs[g], files[f],
						    O_RDONLY, 0, batch);
			s->flags |= IOSQE_IO_LINK;
			s->user_data = 0;
			s = io_uring_get_sqe(ring);
			io_uring_prep_read(s, (int)batch, bufs[batch],
					   sizeof(bufs[batch]), 0);
			s->flags |= IOSQE_FIXED_FILE | IOSQE_IO_LINK;
			s->user_data = 1;
			s = io_uring_get_sqe(ring);
			io_uring_prep_close_direct(s, batch);
			s->user_data = 2;
		}
		io_uring_submit_and_wait(ring, batch * 3);
		while (seen < batch * 3) {
			if (io_uring_wait_cqe(ring, &cqe) < 0) {
				perror("floor: io_uring_wait_cqe");
				exit(1);
			}
			if (cqe->user_data == 0 && cqe->res < 0)
				(*failed)++;
			if (cqe->user_data == 1 && cqe->res > 0)
				ok++;
			io_uring_cqe_seen(ring, cqe);
			seen++;
		}
	}
	return ok;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	const char *mount = "/sys/fs/cgroup/memory";
	char *files_arg = NULL, *files[MAXFILES], *tok, *save;
	char path[4096];
	int nfiles = 0, n = 5, to_eof = 0, use_pread = 0, use_uring = 0;
	int opt, root;
	struct io_uring ring;
	static char ubufs[URING_BATCH][1 << 16];
	int pause_ms = 0;
	size_t nkept = 0;
	unsigned long long reads = 0, failed = 0;	/* over all refreshes */
	double *wall, *user, *sys, *cpu, t0, u0, s0, walk_ms;
	struct rlimit rl = { 0, 0 };

	while ((opt = getopt(argc, argv, "n:epum:f:s:")) != -1) {
		switch (opt) {
		case 's': pause_ms = atoi(optarg); break;
		case 'n': n = atoi(optarg); break;
		case 'e': to_eof = 1; break;
		case 'p': use_pread = 1; break;
		case 'u': use_uring = 1; break;
		case 'm': mount = optarg; break;
		case 'f': files_arg = optarg; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || n < 1 || (use_uring && (use_pread || to_eof)))
		goto usage;
	files_arg = strdup(files_arg ? files_arg : default_files);
	for (tok = strtok_r(files_arg, ",", &save); tok && nfiles < MAXFILES;
	     tok = strtok_r(NULL, ",", &save))
		files[nfiles++] = tok;

	/* one fd per group: raise the soft limit to the hard one */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}

	snprintf(path, sizeof(path), "%s/%s", mount, argv[optind]);
	t0 = mono_ms();
	root = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		fprintf(stderr, "floor: %s: %s\n", path, strerror(errno));
		return 1;
	}
	walk(root);
	if (use_pread) {
		long budget = (long)rl.rlim_cur - (long)ndirs - 64;

		kept = malloc(ndirs * (size_t)nfiles * sizeof(*kept));
		if (!kept)
			return 1;
		for (size_t g = 0; g < ndirs; g++)
			for (int f = 0; f < nfiles; f++) {
				int fd = -1;

				if (budget > 0 &&
				    strcmp(files[f], "cgroup.procs") != 0 &&
				    strcmp(files[f], "tasks") != 0) {
					fd = openat(dirs[g], files[f],
						    O_RDONLY | O_CLOEXEC);
					if (fd >= 0) {
						budget--;
						nkept++;
					}
				}
				kept[g * (size_t)nfiles + (size_t)f] = fd;
			}
	}
	walk_ms = mono_ms() - t0;
	if (use_uring) {
		int slots[URING_BATCH];

		for (int i = 0; i < URING_BATCH; i++)
			slots[i] = -1;
		if (io_uring_queue_init(URING_BATCH * 4, &ring, 0) < 0 ||
		    io_uring_register_files(&ring, slots, URING_BATCH) < 0) {
			fputs("floor: io_uring set-up failed\n", stderr);
			return 1;
		}
	}

	wall = calloc((size_t)n, sizeof(double));
	user = calloc((size_t)n, sizeof(double));
	sys = calloc((size_t)n, sizeof(double));
	cpu = calloc((size_t)n, sizeof(double));
	if (!wall || !user || !sys || !cpu)
		return 1;
	for (int r = 0; r < n; r++) {
		double u1, s1;

		if (pause_ms > 0) {
			struct timespec ts = { pause_ms / 1000,
					       (pause_ms % 1000) * 1000000L };

			nanosleep(&ts, NULL);
		}
		cpu_ms(&u0, &s0);
		t0 = mono_ms();
		if (use_uring)
			reads += uring_refresh(&ring, files, nfiles, ubufs,
					       &failed);
		for (size_t g = 0; !use_uring && g < ndirs; g++) {
			for (int f = 0; f < nfiles; f++) {
				int fd;
				ssize_t got;

				if (kept && (fd = kept[g * (size_t)nfiles +
						       (size_t)f]) >= 0) {
					off_t off = 0;

					do {
						got = pread(fd, buf, sizeof(buf),
							    off);
						reads++;
						off += got > 0 ? got : 0;
					} while (to_eof && got > 0);
					continue;
				}
				fd = openat(dirs[g], files[f], O_RDONLY | O_CLOEXEC);

				if (fd < 0) {
					failed++;
					continue;
				}
				do {
					got = read(fd, buf, sizeof(buf));
					reads++;
				} while (to_eof && got > 0);
				close(fd);
			}
		}
		wall[r] = mono_ms() - t0;
		cpu_ms(&u1, &s1);
		user[r] = u1 - u0;
		sys[r] = s1 - s0;
		cpu[r] = user[r] + sys[r];
		printf("refresh %d wall_ms %.3f user_ms %.3f sys_ms %.3f\n", r + 1,
		       wall[r], user[r], sys[r]);
	}
	printf("floor groups %zu files %d reads %llu failed_opens %llu "
	       "walk_ms %.3f refreshes %d wall_ms %.3f user_ms %.3f "
	       "sys_ms %.3f cpu_ms %.3f kept %zu\n",
	       ndirs, nfiles, reads / (unsigned long long)n,
	       failed / (unsigned long long)n, walk_ms, n, median(wall, n),
	       median(user, n), median(sys, n), median(cpu, n), nkept);
	return 0;
usage:
	fputs("usage: floor [-n N] [-s MS] [-e] [-p | -u] [-m MOUNT] "
	      "[-f FILE,...] SUBTREE\n", stderr);
	return 2;
}
