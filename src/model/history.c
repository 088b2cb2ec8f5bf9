/* SPDX-License-Identifier: GPL-2.0-or-later */
/* history.c - rings of the shown groups' recent figures (history.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "history.h"
#include "parse.h"
#include "xalloc.h"

/* Two times closer than this are the same sample (a re-read). */
#define SAME_TIME 1e-6

unsigned history_points(double window)
{
	double n;

	if (window <= 0)
		return 0;
	n = ceil(window) + 1;
	return n > HISTORY_POINTS_MAX ? HISTORY_POINTS_MAX : (unsigned)n;
}

size_t history_bytes_per_group(unsigned cap)
{
	/* The ring, and its slot in a table kept at most half full. */
	return sizeof(struct history_ring) +
		(size_t)cap * sizeof(struct history_point) +
		2 * sizeof(struct history_ring *);
}

void history_init(struct history *h, double window, size_t max_groups)
{
	memset(h, 0, sizeof(*h));
	h->window = window > 0 ? window : 0;
	h->cap = history_points(h->window);
	h->max_groups = max_groups;
}

void history_free(struct history *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->table_cap; i++)
		free(h->table[i]);
	free(h->table);
	h->table = NULL;
	h->table_cap = h->n = 0;
}

static size_t slot_of(struct history_ring **table, size_t cap, uint64_t hash)
{
	size_t i = (size_t)hash & (cap - 1);

	while (table[i] && table[i]->hash != hash)
		i = (i + 1) & (cap - 1);
	return i;
}

/* The table again at cap slots, with only the rings that keep(). */
static void rehash(struct history *h, size_t cap, unsigned keep_gen, int all)
{
	struct history_ring **nt = xcalloc(cap, sizeof(*nt));

	h->n = 0;
	for (size_t i = 0; i < h->table_cap; i++) {
		struct history_ring *r = h->table[i];

		if (!r)
			continue;
		if (!all && r->gen != keep_gen) {
			free(r);
			continue;
		}
		nt[slot_of(nt, cap, r->hash)] = r;
		h->n++;
	}
	free(h->table);
	h->table = nt;
	h->table_cap = cap;
}

const struct history_ring *history_find(const struct history *h,
					uint64_t hash)
{
	size_t i;

	if (!h->table_cap)
		return NULL;
	i = slot_of(h->table, h->table_cap, hash);
	return h->table[i];
}

/* r copied into a ring of cap points, the newest kept. */
static struct history_ring *ring_copy(const struct history_ring *r,
				      unsigned cap)
{
	struct history_ring *nr = xmalloc(sizeof(*nr) +
					  (size_t)cap * sizeof(nr->p[0]));
	unsigned skip = r->n > cap ? r->n - cap : 0;

	nr->hash = r->hash;
	nr->gen = r->gen;
	nr->head = 0;
	nr->cap = cap;
	nr->n = r->n - skip;
	for (unsigned k = 0; k < nr->n; k++)
		nr->p[k] = *history_point(r, skip + k);
	return nr;
}

void history_resize(struct history *h, double window)
{
	unsigned cap;

	h->window = window > 0 ? window : 0;
	h->cap = cap = history_points(h->window);
	if (!h->cap) {
		history_free(h);
		return;
	}
	for (size_t i = 0; i < h->table_cap; i++) {
		struct history_ring *r = h->table[i];

		if (!r || r->cap == cap)
			continue;
		h->table[i] = ring_copy(r, cap);
		free(r);
	}
}

static struct history_point *newest(struct history_ring *r)
{
	return &r->p[(r->head + r->n - 1) % r->cap];
}

int history_feed(struct history *h, uint64_t hash, double mono,
		 const float v[HF_NR])
{
	struct history_ring *r;
	struct history_point *p;
	size_t i;

	if (!h->cap)
		return 0;
	if ((h->n + 1) * 2 > h->table_cap)
		rehash(h, h->table_cap ? h->table_cap * 2 : 64, 0, 1);
	i = slot_of(h->table, h->table_cap, hash);
	r = h->table[i];
	if (!r) {
		if (h->n >= h->max_groups)
			return -ENOSPC;
		r = xmalloc(sizeof(*r) + (size_t)h->cap * sizeof(r->p[0]));
		r->hash = hash;
		r->head = r->n = 0;
		r->cap = h->cap;
		h->table[i] = r;
		h->n++;
	}
	r->gen = h->gen;
	/* Stepped back: what came after this moment is not history yet. */
	while (r->n && newest(r)->mono > mono + SAME_TIME)
		r->n--;
	if (r->n && newest(r)->mono >= mono - SAME_TIME) {
		/* The same sample read again: its figures fill in. */
		p = newest(r);
		for (int f = 0; f < HF_NR; f++)
			if (!isnan(v[f]))
				p->v[f] = v[f];
	} else if (r->n && newest(r)->mono > mono - h->window / (h->cap - 1) +
		   SAME_TIME) {
		/* Sooner than the spacing: one point with the newest. */
		p = newest(r);
		for (int f = 0; f < HF_NR; f++) {
			if (isnan(v[f]))
				continue;
			if (isnan(p->v[f]))
				p->v[f] = v[f];
			else if (f == HF_OOM)
				p->v[f] += v[f];
			else if (v[f] > p->v[f])
				p->v[f] = v[f];
		}
	} else {
		if (r->n == r->cap) {
			r->head = (r->head + 1) % r->cap;
			r->n--;
		}
		r->n++;
		p = newest(r);
		p->mono = mono;
		memcpy(p->v, v, sizeof(p->v));
	}
	/* Older than the window before the newest: dropped. */
	while (r->n > 1 && history_point(r, 0)->mono < mono - h->window -
	       SAME_TIME) {
		r->head = (r->head + 1) % r->cap;
		r->n--;
	}
	return 0;
}

static float bytes_or_none(const struct mgroup *g, enum field f)
{
	uint64_t v;

	if (!sample_has(&g->cur, f))
		return NAN;
	v = sample_get(&g->cur, f);
	if (v == VAL_MAX || v >= V1_UNLIMITED_MIN)
		return INFINITY;
	return (float)v;
}

static float rate_or_none(const struct mgroup *g, enum field f)
{
	return g->rate_valid & FBIT(f) ? (float)mgroup_rate(g, f) : NAN;
}

void history_figs(const struct model *m, const struct mgroup *g,
		  float v[HF_NR])
{
	float ra = rate_or_none(g, FLD_REFAULT_ANON);
	float rf = rate_or_none(g, FLD_REFAULT_FILE);
	float oom = rate_or_none(g, FLD_EV_OOM_KILL);

	v[HF_USAGE] = sample_has(&g->cur, FLD_USAGE) ?
		(float)sample_get(&g->cur, FLD_USAGE) : NAN;
	v[HF_LIMIT] = bytes_or_none(g, FLD_LIMIT);
	v[HF_HIGH] = bytes_or_none(g, FLD_HIGH);
	v[HF_SCAN] = rate_or_none(g, FLD_PGSCAN);
	v[HF_STEAL] = rate_or_none(g, FLD_PGSTEAL);
	/* Either kind alone is still refaults; neither is no value. */
	v[HF_REFAULT] = isnan(ra) ? rf : isnan(rf) ? ra : ra + rf;
	v[HF_STALL] = rate_or_none(g, FLD_STALL);
	/* The kills in the interval: the rate times the interval. */
	v[HF_OOM] = isnan(oom) ? NAN : roundf(oom * (float)m->dt);
	v[HF_SORT] = NAN;
}

void history_forget(struct history *h, enum history_fig fig)
{
	for (size_t i = 0; i < h->table_cap; i++) {
		struct history_ring *r = h->table[i];

		for (unsigned k = 0; r && k < r->n; k++)
			r->p[(r->head + k) % r->cap].v[fig] = NAN;
	}
}

static void feed_group(struct history *h, const struct model *m,
		       const struct mgroup *g, history_value_fn sort,
		       void *ctx, int *ret)
{
	float v[HF_NR];

	history_figs(m, g, v);
	if (sort)
		v[HF_SORT] = (float)sort(g, ctx);
	*ret = history_feed(h, g->hash, m->mono, v);
}

void history_update(struct history *h, const struct model *m,
		    const uint64_t *first, history_value_fn sort, void *ctx)
{
	size_t fed = 0;
	int r;

	if (!h->cap)
		return;
	h->gen++;
	for (size_t i = 0; first && i < m->n; i++) {
		if (m->groups[i]->hash != *first)
			continue;
		feed_group(h, m, m->groups[i], sort, ctx, &r);
		fed += r == 0;
	}
	for (size_t i = 0; i < m->n; i++) {
		if (first && m->groups[i]->hash == *first)
			continue;
		feed_group(h, m, m->groups[i], sort, ctx, &r);
		if (r < 0)
			break;
		fed++;
	}
	/* The groups this refresh did not see are gone (a new table only
	 * then: no allocation at a refresh that drops none). */
	if (fed < h->n)
		rehash(h, h->table_cap, h->gen, 0);
}

double history_columns(const struct history_ring *r, enum history_fig fig,
		       double end, double window, double *ret, int ncols)
{
	double step = window / ncols, top = NAN;

	for (int c = 0; c < ncols; c++)
		ret[c] = NAN;
	if (!r || ncols <= 0 || window <= 0)
		return NAN;
	for (unsigned k = 0; k < r->n; k++) {
		const struct history_point *p = history_point(r, k);
		double v = p->v[fig];
		/* Column c holds (end - (ncols - c) * step, end - (ncols -
		 * c - 1) * step]: a point on a boundary is the earlier
		 * column's. */
		double back = (end - p->mono) / step;
		long c;

		if (isnan(v) || p->mono > end + SAME_TIME)
			continue;
		c = ncols - 1 - (long)floor(back + SAME_TIME);
		if (c < 0 || c >= ncols)
			continue;
		if (isnan(ret[c]) || v > ret[c])
			ret[c] = v;
		if (isnan(top) || v > top)
			top = v;
	}
	return top;
}
