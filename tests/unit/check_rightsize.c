/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: a group's need and its recommendations (rightsize.c), from
 * hand-built refreshes whose figures give them exactly. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "model.h"
#include "parse.h"
#include "rightsize.h"
#include "units.h"

#define PG 4096u

/* One refresh of a v1 or v2 tree: the root and /a, the figures in pages,
 * the counters refault_file, refault_anon and pgsteal as given. */
static void refresh(struct model *m, struct snapshot *s, double mono,
		    uint64_t usage, uint64_t rfile, uint64_t ranon,
		    uint64_t steal, uint64_t low)
{
	struct snap_group *g;

	s->n = 0;
	s->paths_len = 0;
	s->slots = FIELDS_ALL;
	s->mono = mono;
	s->above_limit = VAL_MAX;
	cgfs_add_group(s, -1, "", 0, 0);
	g = cgfs_add_group(s, 0, "a", 1, 1);
	sample_set(&g->s, FLD_USAGE, usage * PG);
	sample_set(&g->s, FLD_ANON, 1000 * PG);
	sample_set(&g->s, FLD_SHMEM, 100 * PG);
	if (m->version == 1) {
		sample_set(&g->s, FLD_KERNEL, 20 * PG);
	} else {
		sample_set(&g->s, FLD_KERNEL, 999 * PG);	/* not counted */
		sample_set(&g->s, FLD_SLAB_UNRECLAIMABLE, 10 * PG);
		sample_set(&g->s, FLD_KERNEL_STACK, 5 * PG);
		sample_set(&g->s, FLD_PAGETABLES, 3 * PG);
		sample_set(&g->s, FLD_SOCK, 2 * PG);
		sample_set(&g->s, FLD_LOW, low * PG);
		sample_set(&g->s, FLD_MIN, 0);
	}
	sample_set(&g->s, FLD_ACTIVE_FILE, 2000 * PG);
	sample_set(&g->s, FLD_INACTIVE_FILE, 4000 * PG);
	sample_set(&g->s, FLD_REFAULT_FILE, rfile);
	sample_set(&g->s, FLD_REFAULT_ANON, ranon);
	sample_set(&g->s, FLD_PGSTEAL, steal);
	model_update(m, s);
}

static const struct mgroup *group_a(const struct model *m)
{
	ck_assert_uint_eq(m->n, 2);
	ck_assert_str_eq(m->groups[1]->path, "/a");
	return m->groups[1];
}

/*
 * v2: anon 1000 + shmem 100 + kernel 10 + 5 + 3 + 2 (memory.stat kernel
 * not counted) + active 2000 = 3120 pages with no rates yet; then 400 +
 * 100 refaults against 1000 pages stolen in 2 s: q = 0.5, need 3120 +
 * 0.5 * 4000 + 0.5 * 6000 = 8120 pages; the margin 10%: 8932 pages.
 */
START_TEST(need_and_recommendations_v2)
{
	struct snapshot s = { 0 };
	struct model m;
	const struct mgroup *g;
	struct rs_need n;

	model_init(&m, 2);
	refresh(&m, &s, 100, 7000, 0, 0, 0, 100);
	g = group_a(&m);
	ck_assert_int_eq(rightsize_need(&m, g, &n), 0);
	ck_assert_int_eq(n.have_q, 0);
	ck_assert_double_eq(n.need, 3120.0 * PG);
	ck_assert_uint_eq(g->rs->rec_limit, 3432u * PG);	/* 3120 * 1.1 */
	refresh(&m, &s, 102, 7100, 400, 100, 1000, 100);
	g = group_a(&m);
	ck_assert_int_eq(rightsize_need(&m, g, &n), 0);
	ck_assert_int_eq(n.have_q, 1);
	ck_assert_double_eq(n.q, 0.5);
	ck_assert_double_eq(n.kernel, 20.0 * PG);
	ck_assert_double_eq(n.extra, 3000.0 * PG);
	ck_assert_double_eq(n.need, 8120.0 * PG);
	ck_assert(mgroup_derived(g, D_REC_LIMIT));
	ck_assert_uint_eq(g->rs->rec_limit, 8932u * PG);
	/* p90 of 2 points by nearest rank: the second, 8120. */
	ck_assert_uint_eq(g->rs->rec_high, 8932u * PG);
	ck_assert(mgroup_derived(g, D_REC_LOW));
	ck_assert_uint_eq(g->rs->rec_low, 8932u * PG);
	/* VPA: p90 of usage (7100 pages) + 15%. */
	ck_assert_double_eq(g->rs->vpa, 7100.0 * PG * 1.15);
	/* More refaults than steals: q is 1; need 1120 + 2000 + 4000 +
	 * 6000 pages; margin 0. */
	m.rs_margin = 0;
	refresh(&m, &s, 104, 7100, 2400, 100, 1500, 100);
	g = group_a(&m);
	ck_assert_uint_eq(g->rs->rec_limit, 13120u * PG);
	ck_assert_double_eq(g->rs->peak_extra, 6000.0 * PG);
	/* A protection at the need or above it: no rec_low. */
	refresh(&m, &s, 106, 7100, 2400, 100, 1500, 20000);
	ck_assert(!mgroup_derived(group_a(&m), D_REC_LOW));
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

/* v1: memory.kmem is the kernel part; no rec_high or rec_low. */
START_TEST(need_v1)
{
	struct snapshot s = { 0 };
	struct model m;
	const struct mgroup *g;

	model_init(&m, 1);
	refresh(&m, &s, 100, 7000, 0, 0, 0, 0);
	refresh(&m, &s, 101, 7000, 0, 0, 0, 0);
	g = group_a(&m);
	/* No reclaim: q 0, need 1000 + 100 + 20 + 2000 pages. */
	ck_assert_uint_eq(g->rs->rec_limit, 3432u * PG);
	ck_assert(!mgroup_derived(g, D_REC_HIGH));
	ck_assert(!mgroup_derived(g, D_REC_LOW));
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

static void add(struct rs_track *t, double window, double mono, double need)
{
	struct rs_point p = { mono, need, need * 2, 0 };

	rightsize_add(t, window, &p);
}

/* The nearest rank: 20 points 1..20, p90 the 18th. */
START_TEST(percentile_nearest_rank)
{
	struct rs_track t;

	memset(&t, 0, sizeof(t));
	ck_assert(isnan(rightsize_pct(&t, 90, 0)));
	for (int k = 20; k >= 1; k--)
		add(&t, 0, 100.0 + (20 - k), k);
	ck_assert_uint_eq(t.n, 20);
	ck_assert_double_eq(rightsize_pct(&t, 90, 0), 18.0);
	ck_assert_double_eq(rightsize_pct(&t, 90, 1), 36.0);
	ck_assert_double_eq(rightsize_pct(&t, 100, 0), 20.0);
}
END_TEST

/* A whole-run window: full, pairs merge (the larger kept), and then
 * refreshes closer than the new spacing merge into the newest point. */
START_TEST(whole_run_merges_pairs)
{
	struct rs_track t;

	memset(&t, 0, sizeof(t));
	for (int k = 0; k < RS_POINTS; k++)
		add(&t, 0, k, k % 2 ? 1 : 100 + k);
	ck_assert_uint_eq(t.n, RS_POINTS);
	add(&t, 0, RS_POINTS, 7);
	/* 24 pairs: the first of each, need 100 + 2j, time 2j; spacing
	 * (46 - 0) / 23 = 2: the 49th refresh (at 48) is a point. */
	ck_assert_uint_eq(t.n, RS_POINTS / 2 + 1);
	ck_assert_double_eq(t.p[0].need, 100.0);
	ck_assert_double_eq(t.p[23].need, 146.0);
	ck_assert_double_eq(t.p[23].mono, 46.0);
	ck_assert_double_eq(t.spacing, 2.0);
	add(&t, 0, RS_POINTS + 1, 500);
	ck_assert_uint_eq(t.n, RS_POINTS / 2 + 1);
	ck_assert_double_eq(t.p[24].need, 500.0);
	/* The same moment again: one point. */
	add(&t, 0, RS_POINTS + 1, 1);
	ck_assert_uint_eq(t.n, RS_POINTS / 2 + 1);
	ck_assert_double_eq(t.p[24].need, 500.0);
}
END_TEST

/* A window in seconds: older points go, closer refreshes merge. */
START_TEST(window_seconds)
{
	struct rs_track t;

	memset(&t, 0, sizeof(t));
	/* window 47: spacing 1 s */
	for (int k = 0; k < 100; k++)
		add(&t, 47, k, k);
	ck_assert_uint_eq(t.n, 48);
	ck_assert_double_eq(t.p[0].mono, 52.0);
	/* At 99.5 the window starts at 52.5: 52 goes, and 99.5 merges
	 * into 99. */
	add(&t, 47, 99.5, 1000);
	ck_assert_uint_eq(t.n, 47);
	ck_assert_double_eq(t.p[46].need, 1000.0);
	/* A recording stepped back to 60: the later points go (53..60
	 * stay), and 60 again is the same point. */
	add(&t, 47, 60, 3);
	ck_assert_uint_eq(t.n, 8);
	ck_assert_double_eq(t.p[7].need, 60.0);
}
END_TEST

Suite *rightsize_suite(void)
{
	Suite *s = suite_create("rightsize");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, need_and_recommendations_v2);
	tcase_add_test(tc, need_v1);
	tcase_add_test(tc, percentile_nearest_rank);
	tcase_add_test(tc, whole_run_merges_pairs);
	tcase_add_test(tc, window_seconds);
	suite_add_tcase(s, tc);
	return s;
}
