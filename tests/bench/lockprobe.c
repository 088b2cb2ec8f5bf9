/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockprobe - how long other processes wait to make a cgroup: mkdir and
 * rmdir of one directory in a loop, each mkdir timed (CLOCK_MONOTONIC),
 * for tests/bench/lock.sh.  mkdir in a cgroup filesystem takes the
 * kernel's cgroup_mutex, which a reader holding it (a cgroup iterator's
 * walk) makes it wait for.
 *
 *   lockprobe [-r] [-i MEAN_US] DIR SECONDS
 *
 * DIR is the directory to make and remove (its parent must exist, in a
 * cgroup hierarchy).  With -i, the mkdirs are due at random times,
 * MEAN_US apart on average (exponential gaps: a Poisson stream, whose
 * mkdirs meet the lock as often as it is held, whatever its pattern).  A
 * mkdir due while the one before (its mkdir and rmdir) was still under
 * way is timed from when it was due, as another process would have waited for the lock; any other
 * from when it started (a late wake-up is the machine's, not the lock's).
 * Without -i, one after the other, each timed from its start, so that a
 * long hold shows as one slow mkdir only.  Prints one line:
 *
 *   count=N p50_us=X p99_us=X max_us=X
 *
 * -r also prints every mkdir's time in microseconds, one a line, before
 * it (for pooling repetitions).  Exit 1 when a mkdir or rmdir fails.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The value below which a fraction q of the sorted v[0..n) lies. */
static double quantile(const double *v, size_t n, double q)
{
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);

	return v[i < n ? i : n - 1];
}

/* Sleeps until the monotonic time T_US. */
static void sleep_until(double t_us)
{
	struct timespec ts = {
		.tv_sec = (time_t)(t_us / 1e6),
		.tv_nsec = (long)(fmod(t_us, 1e6) * 1e3),
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	size_t n = 0, cap = 1 << 16, i;
	double end, t0, next, prev_end = 0, mean = 0, *v;
	int raw = 0, opt;
	const char *dir;

	while ((opt = getopt(argc, argv, "ri:")) != -1) {
		if (opt == 'r')
			raw = 1;
		else if (opt == 'i')
			mean = atof(optarg);
		else
			return 2;
	}
	if (argc - optind != 2 || mean < 0) {
		fprintf(stderr, "usage: lockprobe [-r] [-i MEAN_US] DIR SECONDS\n");
		return 2;
	}
	dir = argv[optind];
	v = malloc(cap * sizeof(*v));
	if (!v)
		return 1;
	/* Wake-ups on time: the default slack is 50 us. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	srand48((long)now_us() ^ (long)getpid());
	next = now_us();
	end = next + atof(argv[optind + 1]) * 1e6;
	rmdir(dir);
	for (;;) {
		if (mean > 0) {
			next += -mean * log(1.0 - drand48());
			if (next >= end)
				break;
			sleep_until(next);
		}
		if ((t0 = now_us()) >= end)
			break;
		if (mean > 0 && prev_end > next)
			t0 = next;
		if (mkdir(dir, 0755) != 0) {
			fprintf(stderr, "lockprobe: mkdir %s: %s\n", dir,
				strerror(errno));
			return 1;
		}
		if (n == cap) {
			double *nv = realloc(v, 2 * cap * sizeof(*v));

			if (!nv)
				return 1;
			v = nv;
			cap *= 2;
		}
		v[n++] = now_us() - t0;
		if (rmdir(dir) != 0) {
			fprintf(stderr, "lockprobe: rmdir %s: %s\n", dir,
				strerror(errno));
			return 1;
		}
		/* rmdir takes the lock too: the next one due meanwhile waited. */
		prev_end = now_us();
	}
	if (n == 0) {
		fprintf(stderr, "lockprobe: no mkdir in the time given\n");
		return 1;
	}
	if (raw)
		for (i = 0; i < n; i++)
			printf("%.1f\n", v[i]);
	qsort(v, n, sizeof(*v), cmp_double);
	printf("count=%zu p50_us=%.1f p99_us=%.1f max_us=%.1f\n", n,
	       quantile(v, n, 0.5), quantile(v, n, 0.99), v[n - 1]);
	free(v);
	return 0;
}
