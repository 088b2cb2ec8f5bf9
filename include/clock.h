/* SPDX-License-Identifier: GPL-2.0-or-later */
/* clock.h - the one monotonic clock: samples, intervals and messages. */
#ifndef MEMCGTOP_CLOCK_H
#define MEMCGTOP_CLOCK_H

/* CLOCK_MONOTONIC in seconds. */
double clock_mono(void);

#endif
