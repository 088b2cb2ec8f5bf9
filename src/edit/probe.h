/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.h - --probe PATH: how much of a v2 group's memory is cold.
 *
 * Reclaims the group in small steps through memory.reclaim (the write
 * path of --set: each step checked, written under the group's lock and
 * recorded in the audit trail), reads its refaults, stall time and usage
 * after each, and stops as soon as the group shows it needed what was
 * taken, or at a cap.  What was reclaimed before that is the cold memory.
 */
#ifndef MEMCGTOP_PROBE_H
#define MEMCGTOP_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "cgfs.h"

/* Why a probe stopped (PROBE_GOING: it has not). */
enum probe_stop {
	PROBE_GOING, PROBE_REFAULTS, PROBE_STALL, PROBE_CAP, PROBE_TIME,
	PROBE_EAGAIN, PROBE_SIGNAL, PROBE_ERROR,
};

/* Where a probe stops: bytes refaulted, microseconds stalled (both past,
 * i.e. more than), bytes reclaimed (at), seconds run (at). */
struct probe_limits {
	uint64_t refaults, stall_us, max;
	double secs;
};

/* What a probe has done so far, since its start. */
struct probe_sofar {
	uint64_t reclaimed, refaulted, stall_us;
	double secs;
};

/* The first limit so reaches, in the order of the fields of
 * probe_limits, or PROBE_GOING. */
enum probe_stop probe_check(const struct probe_limits *l,
			    const struct probe_sofar *so);
/* The bytes the next step asks for: step, or what is left below the cap
 * (0: none left). */
uint64_t probe_next(const struct probe_limits *l, uint64_t step,
		    uint64_t reclaimed);
/* The reason's word (refaults, stall, cap, time, eagain, signal, error). */
const char *probe_word(enum probe_stop s);

/* The options; 0 for a size (refaults: not given) its default, from the
 * group's usage at the start (step 1%, max 50%, refaults the step). */
struct probe_opts {
	uint64_t step, max, refaults;
	int refaults_given;
	double stall, secs, pause;	/* seconds */
	int json;			/* -F json: one object */
};

/* The probe of the group at path (below the hierarchy root); audit_log
 * the --audit-log FILE or NULL.  Exit status: 0 done, 1 a failure at run
 * time, 2 the group or the hierarchy cannot be probed (v1: no
 * memory.reclaim).  *ret_sig: the stop signal that ended it, or 0. */
int probe_run(struct cgfs *cg, const char *path, const char *audit_log,
	      const struct probe_opts *po, int *ret_sig);

#endif
