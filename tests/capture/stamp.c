/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * stamp - print "MONO WALL": CLOCK_MONOTONIC seconds with 9 decimals and
 * CLOCK_REALTIME seconds (integer), read back to back.  One line of a
 * fixture series' timestamps file (busybox date cannot print the monotonic
 * clock).  Build: gcc -O2 -static -o stamp tests/capture/stamp.c
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec mono, wall;

	if (clock_gettime(CLOCK_MONOTONIC, &mono) != 0 ||
	    clock_gettime(CLOCK_REALTIME, &wall) != 0) {
		perror("stamp: clock_gettime");
		return 1;
	}
	printf("%lld.%09ld %lld\n", (long long)mono.tv_sec, mono.tv_nsec,
	       (long long)wall.tv_sec);
	return fflush(stdout) != 0;
}
