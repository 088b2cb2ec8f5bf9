/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.c - the one monotonic clock (see clock.h). */
#include <time.h>

#include "clock.h"

double clock_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
