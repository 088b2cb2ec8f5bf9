/* SPDX-License-Identifier: GPL-2.0-or-later */
/* history.h - the last minutes of the shown groups' figures, in memory.
 *
 * Per group (keyed by the hash of its path, as the model keys it) a ring
 * of points: a time and a few figures.  Bounded twice: a ring holds at
 * most `cap` points and none older than `window` seconds before its
 * newest, and at most `max_groups` groups have a ring.  Points are at
 * least window / (cap - 1) seconds apart: refreshes that come sooner are
 * merged into the newest point (the largest value of each figure, the OOM
 * kills summed), so that a ring covers its window at any interval and its
 * size does not depend on the interval.  A figure that was
 * not available is NaN in its point ("no value"), never 0.  Pure: no I/O,
 * no curses.
 */
#ifndef MEMCGTOP_HISTORY_H
#define MEMCGTOP_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The figures kept of each refresh. */
enum history_fig {
	HF_USAGE,	/* bytes */
	HF_LIMIT,	/* bytes; +inf: no limit */
	HF_HIGH,	/* bytes (v2 memory.high); +inf: none */
	HF_SCAN,	/* pages scanned per second */
	HF_STEAL,	/* pages reclaimed per second */
	HF_REFAULT,	/* refaults per second, anon and file */
	HF_STALL,	/* ms per second its tasks spent in reclaim */
	HF_OOM,		/* OOM kills in the interval */
	HF_SORT,	/* the screen's sort column's value (its sparkline) */
	HF_NR
};

struct history_point {
	double mono;		/* CLOCK_MONOTONIC (or recorded) seconds */
	float v[HF_NR];		/* NaN: no value */
};

struct history_ring {
	uint64_t hash;
	unsigned gen;		/* the update that last fed it */
	unsigned head, n, cap;	/* oldest point at p[head] */
	struct history_point p[];
};

struct history {
	double window;		/* seconds; 0: off */
	unsigned cap;		/* points a ring holds */
	size_t max_groups;
	struct history_ring **table;	/* open addressing by hash */
	size_t table_cap, n;
	unsigned gen;
};

/* Defaults: five minutes, and rings for the first 1,024 groups of the
 * tree (parents first; the selected group always). */
#define HISTORY_WINDOW_DEFAULT 300
#define HISTORY_GROUPS_MAX 1024
/* A ring never holds more points than this, whatever the window. */
#define HISTORY_POINTS_MAX 601

/* The points a ring holds for a window of that many seconds: one a second
 * and one more for the window's start, at most HISTORY_POINTS_MAX; 0 for
 * a window of 0. */
unsigned history_points(double window);

/* The bytes one group's history takes with rings of cap points. */
size_t history_bytes_per_group(unsigned cap);

void history_init(struct history *h, double window, size_t max_groups);
void history_free(struct history *h);

/* A new window: each ring keeps its newest points that fit. */
void history_resize(struct history *h, double window);

/*
 * One group's figures at time mono.  A point older than the ring's newest
 * (a recording stepped back) first drops the points after it; one at the
 * newest point's time fills in the figures that point lacks; one sooner
 * than the spacing after it is merged into it.  Returns 0,
 * or -ENOSPC when the group is new and max_groups have rings.
 */
int history_feed(struct history *h, uint64_t hash, double mono,
		 const float v[HF_NR]);

/* g's figures in model m (NaN where it has none; HF_SORT too). */
void history_figs(const struct model *m, const struct mgroup *g,
		  float v[HF_NR]);

/* A group's value of the figure HF_SORT keeps; NaN for none. */
typedef double (*history_value_fn)(const struct mgroup *g, void *ctx);

/*
 * Feeds every group of m (first the one whose hash is first, if any, then
 * parents before children) up to max_groups, HF_SORT from sort (if not
 * NULL), then drops the rings of the groups m no longer holds.
 */
void history_update(struct history *h, const struct model *m,
		    const uint64_t *first, history_value_fn sort, void *ctx);

/* Figure fig becomes no value in every point (HF_SORT: another column). */
void history_forget(struct history *h, enum history_fig fig);

/* The ring of a group, or NULL. */
const struct history_ring *history_find(const struct history *h,
					uint64_t hash);

/* Point k of r, 0 the oldest. */
static inline const struct history_point *
history_point(const struct history_ring *r, unsigned k)
{
	return &r->p[(r->head + k) % r->cap];
}

/*
 * Figure fig of r over the window seconds that end at `end`, in ncols
 * columns of window/ncols seconds each (the last ends at `end`): each
 * column's largest value, NaN for a column without one.  Points after
 * `end` are not drawn (the screen paused or stepped back).  Returns the
 * largest value of all columns, or NaN.
 */
double history_columns(const struct history_ring *r, enum history_fig fig,
		       double end, double window, double *ret, int ncols);

#endif
