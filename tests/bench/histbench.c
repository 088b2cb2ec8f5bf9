/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * histbench.c - the history's cost per refresh: a model of N groups
 * (default 8,192, one level under the root) is updated 600 times, one
 * refresh a second, and the history fed after each (history_update, the
 * sort column's value too), with rings for at most CAP groups (default
 * the screen's HISTORY_GROUPS_MAX).  Prints the CPU time of
 * history_update and of model_update per refresh over the last 300
 * refreshes (the rings full), and the rings' size.
 *
 *   make build/default/histbench && build/default/histbench [N [CAP]]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "history.h"
#include "parse.h"

#define REFRESHES 600

static double cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double usage_of(const struct mgroup *g, void *ctx)
{
	(void)ctx;
	return sample_has(&g->cur, FLD_USAGE) ?
		(double)sample_get(&g->cur, FLD_USAGE) : NAN;
}

/* Refresh k of a tree of n groups. */
static void snap_fill(struct snapshot *s, size_t n, int k)
{
	struct snap_group *g;

	s->n = 0;
	s->paths_len = 0;
	s->slots = FIELDS_ALL;
	s->mono = 100.0 + k;
	s->above_limit = VAL_MAX;
	g = cgfs_add_group(s, -1, "", 0, 0);
	sample_set(&g->s, FLD_USAGE, 1);
	for (size_t i = 1; i < n; i++) {
		char name[32];
		int l = snprintf(name, sizeof(name), "g%zu", i);

		g = cgfs_add_group(s, 0, name, (size_t)l, 1);
		sample_set(&g->s, FLD_USAGE, 1000u + (unsigned)k);
		sample_set(&g->s, FLD_LIMIT, 1u << 30);
		sample_set(&g->s, FLD_PGSCAN, 10u * (unsigned)k);
		sample_set(&g->s, FLD_EV_OOM_KILL, 0);
	}
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 8192;
	size_t cap = argc > 2 ? strtoul(argv[2], NULL, 10) : HISTORY_GROUPS_MAX;
	struct snapshot s = { 0 };
	double model_s = 0, hist_s = 0;
	struct model m;
	struct history h;

	if (n < 1)
		n = 1;
	model_init(&m, 1);
	history_init(&h, HISTORY_WINDOW_DEFAULT, cap);
	for (int k = 0; k < REFRESHES; k++) {
		double a, b, c;

		snap_fill(&s, n, k);
		a = cpu_s();
		model_update(&m, &s);
		b = cpu_s();
		history_update(&h, &m, NULL, usage_of, NULL);
		c = cpu_s();
		if (k >= REFRESHES - 300) {
			model_s += b - a;
			hist_s += c - b;
		}
	}
	printf("groups %zu, rings %zu (at most %zu): history_update %.1f us "
	       "a refresh, model_update %.1f us; rings %zu KiB\n", n, h.n,
	       cap, hist_s / 300 * 1e6, model_s / 300 * 1e6,
	       h.n * history_bytes_per_group(h.cap) / 1024);
	history_free(&h);
	model_free(&m);
	snapshot_free(&s);
	return 0;
}
