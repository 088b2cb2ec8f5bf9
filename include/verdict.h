/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * verdict.h - the detail pane's verdict on one group: a few sentences on
 * where it stands against its limits and protections, whether reclaim
 * takes from it, who reclaims it, what stops reclaim and whether the OOM
 * killer came, each with the figures it rests on.
 *
 * It reads only the model (the refresh's values, rates and derived
 * figures): a sentence whose figures the view did not read is left out,
 * never guessed.
 */
#ifndef MEMCGTOP_VERDICT_H
#define MEMCGTOP_VERDICT_H

#include "model.h"

/* The usage share of a limit from which a group counts as at it: the
 * kernel charges in batches of 64 pages, so a group reclaimed at its
 * limit stays just below it. */
#define VERDICT_AT_LIMIT_PCT	98.0
/* ... and close to it. */
#define VERDICT_NEAR_LIMIT_PCT	90.0

/* The fields its sentences rest on: the screen asks for them while the
 * detail pane is open, where the collector gives them without opening a
 * file (struct pipeline_want's if_free). */
#define VERDICT_FIELDS							\
	(FBIT(FLD_USAGE) | FBIT(FLD_LIMIT) | FBIT(FLD_HIGH) |		\
	 FBIT(FLD_LOW) | FBIT(FLD_MIN) | FBIT(FLD_SOFT) | FBIT(FLD_ANON) | \
	 FBIT(FLD_FILE) | FBIT(FLD_SWAP) | FBIT(FLD_SWAP_LIMIT) |	\
	 FBIT(FLD_PGSCAN) | FBIT(FLD_PGSTEAL) | FBIT(FLD_PGSCAN_KSWAPD) | \
	 FBIT(FLD_PGSCAN_DIRECT) | FBIT(FLD_FAILCNT) | FBIT(FLD_EVL_MAX) | \
	 FBIT(FLD_EVL_HIGH) | FBIT(FLD_EV_OOM_KILL) | FBIT(FLD_STALL) |	\
	 FBIT(FLD_PRIO_MIN) | FBIT(FLD_PRIO_MIN_KSWAPD) |		\
	 FBIT(FLD_PRIO_MIN_DIRECT) | FBIT(FLD_PRIO_MIN_PROACTIVE) |	\
	 FBIT(FLD_PRIO_MIN_SOFT) | FBIT(FLD_PSI_SOME10) |		\
	 FBIT(FLD_PSI_FULL10) | FBIT(FLD_SOFT_TREE) | FBIT(FLD_SOFT_RANK) | \
	 FBIT(FLD_SOFT_PGSCAN) | FBIT(FLD_SOFT_PGSTEAL) |		\
	 /* and the pane's own lines' and graphs' */			\
	 FBIT(FLD_STATS_PENDING) | FBIT(FLD_EFF_MIN_LAST) |		\
	 FBIT(FLD_EFF_LOW_LAST) | FBIT(FLD_REFAULT_ANON) |		\
	 FBIT(FLD_REFAULT_FILE))

/* One group's figures as the verdict reads them: the model's, to which
 * the detail pane adds what its own read of the group's files gives. */
struct verdict_figs {
	fieldset have;		/* FBIT(field): v[field] holds its value */
	fieldset rated;		/* FBIT(field): r[field] its rate */
	uint64_t v[FLD_NR];
	double r[FLD_NR];
	/* the OOM kills at the interval's start, when have_before */
	uint64_t oom_before;
	int have_before;
};

/* g's figures in the model. */
void verdict_figs_of(const struct mgroup *g, struct verdict_figs *f);

typedef void (*verdict_line_fn)(const char *line, void *ctx);

/* Calls line() once per sentence on group g of model m with figures f
 * (verdict_figs_of(g), or more), in order; returns how many. */
int verdict(const struct model *m, const struct mgroup *g,
	    const struct verdict_figs *f, verdict_line_fn line, void *ctx);

#endif
