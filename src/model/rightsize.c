/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rightsize.c - a group's working set over a window, and the limits it
 * asks for: see include/rightsize.h. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rightsize.h"
#include "xalloc.h"

#define RS_PAGE 4096.0

static double val(const struct mgroup *g, enum field f)
{
	return sample_has(&g->cur, f) ? (double)sample_get(&g->cur, f) : 0;
}

int rightsize_need(const struct model *m, const struct mgroup *g,
		   struct rs_need *ret)
{
	const struct sample *s = &g->cur;
	double refault, steal;

	memset(ret, 0, sizeof(*ret));
	if (!sample_has(s, FLD_USAGE) || !sample_has(s, FLD_ANON) ||
	    !sample_has(s, FLD_ACTIVE_FILE) || !sample_has(s, FLD_INACTIVE_FILE))
		return -ENODATA;
	ret->anon = val(g, FLD_ANON) + val(g, FLD_SHMEM);
	/* v1 keeps its kernel memory in one counter, memory.kmem, whose
	 * reclaimable slab cannot be told apart: all of it counts. */
	if (m->version == 1)
		ret->kernel = val(g, FLD_KERNEL);
	else
		ret->kernel = val(g, FLD_SLAB_UNRECLAIMABLE) +
			val(g, FLD_KERNEL_STACK) + val(g, FLD_PAGETABLES) +
			val(g, FLD_SOCK);
	ret->active = val(g, FLD_ACTIVE_FILE);
	ret->inactive = val(g, FLD_INACTIVE_FILE);
	/*
	 * mm/workingset.c counts a refault (workingset_refault_anon/file)
	 * when a page faults in while its eviction's shadow entry is still
	 * in the page cache or swap cache: a page reclaim took (pgsteal)
	 * that the group wanted back.  Both are the group's and its
	 * descendants' (memory.stat's hierarchical counts).
	 */
	if ((g->rate_valid & FBIT(FLD_PGSTEAL)) &&
	    (g->rate_valid & (FBIT(FLD_REFAULT_FILE) | FBIT(FLD_REFAULT_ANON)))) {
		refault = mgroup_rate(g, FLD_REFAULT_FILE) +
			mgroup_rate(g, FLD_REFAULT_ANON);
		steal = mgroup_rate(g, FLD_PGSTEAL);
		ret->have_q = 1;
		if (steal > 0)
			ret->q = refault >= steal ? 1.0 : refault / steal;
	}
	ret->extra = ret->q * (ret->active + ret->inactive);
	ret->need = ret->anon + ret->kernel + ret->active +
		ret->q * ret->inactive + ret->extra;
	return 0;
}

/* b folded into a: the larger need (with its refault part) and usage. */
static void merge(struct rs_point *a, const struct rs_point *b)
{
	if (b->need > a->need) {
		a->need = b->need;
		a->extra = b->extra;
	}
	if (b->usage > a->usage)
		a->usage = b->usage;
}

void rightsize_add(struct rs_track *t, double window,
		   const struct rs_point *pt)
{
	unsigned k = 0;

	/* A recording stepped back: the points after it go. */
	while (t->n && t->p[t->n - 1].mono > pt->mono)
		t->n--;
	if (window > 0) {
		t->spacing = window / (RS_POINTS - 1);
		while (k < t->n && t->p[k].mono < pt->mono - window)
			k++;
		memmove(t->p, t->p + k, (t->n - k) * sizeof(t->p[0]));
		t->n -= k;
	}
	/* The same moment read again (with more fields) is one point. */
	if (t->n && (pt->mono == t->p[t->n - 1].mono ||
		     pt->mono - t->p[t->n - 1].mono < t->spacing)) {
		merge(&t->p[t->n - 1], pt);
		return;
	}
	if (t->n == RS_POINTS) {
		/* The whole run: pairs become one point, and refreshes
		 * merge at the points' new mean spacing from now on. */
		for (k = 0; k < RS_POINTS / 2; k++) {
			t->p[k] = t->p[2 * k];
			merge(&t->p[k], &t->p[2 * k + 1]);
		}
		t->n = RS_POINTS / 2;
		t->spacing = (t->p[t->n - 1].mono - t->p[0].mono) /
			(t->n - 1);
		if (pt->mono - t->p[t->n - 1].mono < t->spacing) {
			merge(&t->p[t->n - 1], pt);
			return;
		}
	}
	t->p[t->n++] = *pt;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double rightsize_pct(const struct rs_track *t, int pct, int usage)
{
	double v[RS_POINTS];
	unsigned rank;

	if (!t->n)
		return NAN;
	for (unsigned k = 0; k < t->n; k++)
		v[k] = usage ? t->p[k].usage : t->p[k].need;
	qsort(v, t->n, sizeof(v[0]), cmp_double);
	rank = (unsigned)ceil((double)pct / 100.0 * t->n);
	return v[rank ? rank - 1 : 0];
}

static uint64_t page_up(double bytes)
{
	return (uint64_t)(ceil(bytes / RS_PAGE) * RS_PAGE);
}

static void recommend(const struct model *m, struct mgroup *g)
{
	struct rs_track *t = g->rs;
	/* (100 + margin) / 100 after the product: exact for whole pages. */
	double grow = 100.0 + m->rs_margin;
	uint64_t low = 0, min = 0;

	t->peak = t->peak_extra = 0;
	for (unsigned k = 0; k < t->n; k++)
		if (t->p[k].need >= t->peak) {
			t->peak = t->p[k].need;
			t->peak_extra = t->p[k].extra;
		}
	t->pct = rightsize_pct(t, RS_PCT, 0);
	t->vpa = rightsize_pct(t, RS_VPA_PCT, 1) * (1.0 + RS_VPA_MARGIN / 100.0);
	t->rec_limit = page_up(t->peak * grow / 100.0);
	g->derived_valid |= 1u << D_REC_LIMIT;
	if (m->version != 2)
		return;
	t->rec_high = page_up(t->pct * grow / 100.0);
	if (t->rec_high > t->rec_limit)
		t->rec_high = t->rec_limit;
	g->derived_valid |= 1u << D_REC_HIGH;
	if (sample_has(&g->cur, FLD_LOW))
		low = sample_get(&g->cur, FLD_LOW);
	if (sample_has(&g->cur, FLD_MIN))
		min = sample_get(&g->cur, FLD_MIN);
	if ((low || min) && low < t->rec_high && min < t->rec_high) {
		t->rec_low = t->rec_high;
		g->derived_valid |= 1u << D_REC_LOW;
	}
}

void rightsize_update(struct model *m)
{
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];
		struct rs_need n;
		struct rs_point pt;

		if (rightsize_need(m, g, &n) < 0)
			continue;
		if (!g->rs)
			g->rs = xcalloc(1, sizeof(*g->rs));
		else if (!g->has_prev)
			/* A group made again under the same path. */
			memset(g->rs, 0, sizeof(*g->rs));
		g->rs->last = n;
		pt.mono = m->mono;
		pt.need = n.need;
		pt.extra = n.extra;
		pt.usage = (double)sample_get(&g->cur, FLD_USAGE);
		rightsize_add(g->rs, m->rs_window, &pt);
		recommend(m, g);
	}
}
