/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rightsize.h - what a group's limit should be: its working set over a
 * window of refreshes, not its usage.
 *
 * Each refresh gives a group's need: what it could not lose without
 * slowing down or being killed.  That is its anonymous and shared memory
 * (v1 total_rss + total_shmem, v2 anon + shmem: no swap takes it here,
 * and taking it costs a fault each page), its active file list (pages
 * read twice: the kernel's own mark of reuse), its kernel memory that
 * reclaim never frees (v2 slab_unreclaimable + kernel_stack + pagetables
 * + sock; v1 memory.kmem.usage_in_bytes, which cannot be split), and,
 * when the pages it loses come back, what it needed beyond its limit:
 *
 *   q     = min(1, refaults / pgsteal) over the interval: the share of
 *           the pages reclaim took that the group faulted in again (no
 *           reclaim: 0)
 *   need  = anon + shmem + kernel + active_file + q * inactive_file
 *           + q * (active_file + inactive_file)
 *
 * The inactive list counts as far as its pages come back; the last term
 * is the thrashing group's shortfall: the pages it faulted in again while
 * reclaim turned its page cache over once, which a limit that much larger
 * would have kept.  A group whose reuse spans more than that shows the
 * same signal again under the larger limit: a second window says more.
 *
 * The window keeps at most RS_POINTS points a group: a window in seconds
 * (the screen: its history's) drops the points older than that and
 * merges refreshes closer than window / (RS_POINTS - 1) into one point;
 * a window of 0 (batch, a recording) covers the whole run and, when full,
 * merges pairs of points.  A merged point keeps the larger need and the
 * larger usage, so that the peak survives and a percentile is one of the
 * intervals' peaks, as the Kubernetes VPA recommender takes it.
 *
 *   rec_limit = peak need * (1 + margin)
 *   rec_high  = p90 need * (1 + margin)        v2, at most rec_limit
 *   rec_low   = rec_high, where memory.low and memory.min are both below
 *               it and one of them is set       v2
 *
 * each rounded up to a page.  The VPA's figure for the same window, p90
 * of usage + 15%, is kept for the verdict's comparison.  Percentiles are
 * by nearest rank: the ceil(p/100 * n)-th smallest of n.  Pure: no I/O.
 */
#ifndef MEMCGTOP_RIGHTSIZE_H
#define MEMCGTOP_RIGHTSIZE_H

#include <stdint.h>

#include "model.h"

#define RS_MARGIN_DEFAULT	10	/* percent */
#define RS_MARGIN_MAX		1000
#define RS_PCT			90	/* the high percentile */
#define RS_VPA_PCT		90	/* the VPA recommender's */
#define RS_VPA_MARGIN		15	/* percent */
#define RS_POINTS		48

/* The fields a group's need is made of. */
#define RS_FIELDS							\
	(FBIT(FLD_USAGE) | FBIT(FLD_ANON) | FBIT(FLD_SHMEM) |		\
	 FBIT(FLD_KERNEL) | FBIT(FLD_SLAB_UNRECLAIMABLE) |		\
	 FBIT(FLD_KERNEL_STACK) | FBIT(FLD_PAGETABLES) | FBIT(FLD_SOCK) | \
	 FBIT(FLD_ACTIVE_FILE) | FBIT(FLD_INACTIVE_FILE) |		\
	 FBIT(FLD_REFAULT_ANON) | FBIT(FLD_REFAULT_FILE) |		\
	 FBIT(FLD_PGSTEAL) | FBIT(FLD_LOW) | FBIT(FLD_MIN) | FBIT(FLD_LIMIT))

/* One refresh's need, with its parts, in bytes. */
struct rs_need {
	double anon;		/* anon + shmem */
	double kernel;		/* the kernel memory reclaim never frees */
	double active, inactive;	/* the file lists */
	double q;		/* the share of reclaimed pages that came back */
	int have_q;		/* q rests on both rates (else 0) */
	double extra;		/* q * (active + inactive) */
	double need;
};

struct rs_point {
	double mono, need, usage;
	double extra;		/* the need's refault part */
};

/* A group's window and what it says; in the group (mgroup.rs). */
struct rs_track {
	unsigned n;		/* points, oldest first */
	double spacing;		/* seconds below which refreshes merge */
	struct rs_point p[RS_POINTS];
	struct rs_need last;	/* the newest refresh's */
	double peak, pct, peak_extra;
	double vpa;		/* p90 usage + 15% */
	uint64_t rec_limit, rec_high, rec_low;
};

/* g's need in m's refresh; 0, or -ENODATA when it lacks usage, anon or
 * the file lists. */
int rightsize_need(const struct model *m, const struct mgroup *g,
		   struct rs_need *ret);

/* Adds a point at mono to t (window and its merging as above). */
void rightsize_add(struct rs_track *t, double window,
		   const struct rs_point *pt);

/* The nearest-rank percentile pct of the points' need (usage: their
 * usage). */
double rightsize_pct(const struct rs_track *t, int pct, int usage);

/* Each group of m gets this refresh's point and its recommendations
 * (D_REC_LIMIT, D_REC_HIGH, D_REC_LOW); model_update calls it when
 * m->want asks for them. */
void rightsize_update(struct model *m);

#endif
