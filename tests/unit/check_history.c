/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the history's rings (bounds, eviction, no value, merging,
 * stepping back, a new window) and what the model feeds them. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hash.h"
#include "history.h"
#include "parse.h"
#include "units.h"

/* A point with every figure no value but usage. */
static void pt(float v[HF_NR], float usage)
{
	for (int f = 0; f < HF_NR; f++)
		v[f] = NAN;
	v[HF_USAGE] = usage;
}

static const struct history_ring *ring(const struct history *h, uint64_t k)
{
	const struct history_ring *r = history_find(h, k);

	ck_assert_ptr_nonnull(r);
	return r;
}

START_TEST(ring_bounds_and_eviction)
{
	struct history h;
	const struct history_ring *r;
	float v[HF_NR];

	history_init(&h, 10, 4);
	ck_assert_uint_eq(h.cap, 11);
	for (int k = 0; k < 25; k++) {
		pt(v, (float)k);
		ck_assert_int_eq(history_feed(&h, 7, 100.0 + k, v), 0);
	}
	r = ring(&h, 7);
	/* 10 s back from 124, 114 included: 11 points, the oldest 114. */
	ck_assert_uint_eq(r->n, 11);
	ck_assert_double_eq(history_point(r, 0)->mono, 114.0);
	ck_assert_float_eq(history_point(r, 0)->v[HF_USAGE], 14.0f);
	ck_assert_double_eq(history_point(r, 10)->mono, 124.0);
	/* A long pause: the points older than the window go, the newest
	 * stays. */
	pt(v, 99);
	history_feed(&h, 7, 200.0, v);
	ck_assert_uint_eq(r->n, 1);
	ck_assert_float_eq(history_point(r, 0)->v[HF_USAGE], 99.0f);
	history_free(&h);
}
END_TEST

START_TEST(ring_group_cap)
{
	struct history h;
	float v[HF_NR];

	history_init(&h, 60, 3);
	pt(v, 1);
	for (uint64_t k = 1; k <= 3; k++)
		ck_assert_int_eq(history_feed(&h, k, 100.0, v), 0);
	ck_assert_int_eq(history_feed(&h, 4, 100.0, v), -ENOSPC);
	ck_assert_ptr_null(history_find(&h, 4));
	/* Known groups go on. */
	ck_assert_int_eq(history_feed(&h, 2, 101.0, v), 0);
	ck_assert_uint_eq(h.n, 3);
	history_free(&h);
}
END_TEST

START_TEST(ring_missing_values)
{
	struct history h;
	const struct history_ring *r;
	float v[HF_NR];
	double cols[4];

	history_init(&h, 4, 1);
	pt(v, 10);
	history_feed(&h, 1, 100.0, v);
	pt(v, 20);
	v[HF_SCAN] = 0;		/* a value of 0 is a value */
	history_feed(&h, 1, 101.0, v);
	pt(v, 30);
	history_feed(&h, 1, 102.0, v);
	r = ring(&h, 1);
	ck_assert(isnan(history_point(r, 0)->v[HF_SCAN]));
	ck_assert_float_eq(history_point(r, 1)->v[HF_SCAN], 0.0f);
	/* Columns of 1 s ending at 103, the last (102, 103]: no point in
	 * it; scan only at 101. */
	ck_assert(isnan(history_columns(r, HF_STALL, 103, 4, cols, 4)));
	ck_assert_double_eq(history_columns(r, HF_SCAN, 103, 4, cols, 4), 0);
	ck_assert(isnan(cols[0]) && isnan(cols[2]) && isnan(cols[3]));
	ck_assert_double_eq(cols[1], 0);
	ck_assert_double_eq(history_columns(r, HF_USAGE, 103, 4, cols, 4), 30);
	ck_assert_double_eq(cols[0], 10);
	ck_assert_double_eq(cols[1], 20);
	ck_assert_double_eq(cols[2], 30);
	ck_assert(isnan(cols[3]));
	/* The same moment read again fills in, keeps what it had. */
	pt(v, NAN);
	v[HF_SCAN] = 5;
	history_feed(&h, 1, 102.0, v);
	ck_assert_uint_eq(r->n, 3);
	ck_assert_float_eq(history_point(r, 2)->v[HF_USAGE], 30.0f);
	ck_assert_float_eq(history_point(r, 2)->v[HF_SCAN], 5.0f);
	/* The screen paused at 101: nothing after it is drawn. */
	history_columns(r, HF_USAGE, 101, 4, cols, 4);
	ck_assert_double_eq(cols[3], 20);
	ck_assert_double_eq(cols[2], 10);
	history_free(&h);
}
END_TEST

START_TEST(ring_merge_and_step_back)
{
	struct history h;
	const struct history_ring *r;
	float v[HF_NR];

	/* 10 s in 11 points: 1 s apart at least. */
	history_init(&h, 10, 1);
	pt(v, 5);
	v[HF_OOM] = 1;
	history_feed(&h, 1, 100.0, v);
	pt(v, 3);
	v[HF_OOM] = 2;
	history_feed(&h, 1, 100.4, v);
	pt(v, 8);
	v[HF_OOM] = 0;
	history_feed(&h, 1, 100.8, v);
	r = ring(&h, 1);
	ck_assert_uint_eq(r->n, 1);
	ck_assert_float_eq(history_point(r, 0)->v[HF_USAGE], 8.0f);
	ck_assert_float_eq(history_point(r, 0)->v[HF_OOM], 3.0f);
	for (int k = 1; k <= 5; k++) {
		pt(v, (float)(10 * k));
		history_feed(&h, 1, 100.0 + k, v);
	}
	ck_assert_uint_eq(r->n, 6);
	/* A recording stepped back to 102: 103 to 105 are not history. */
	pt(v, 20);
	history_feed(&h, 1, 102.0, v);
	ck_assert_uint_eq(r->n, 3);
	ck_assert_double_eq(history_point(r, 2)->mono, 102.0);
	history_free(&h);
}
END_TEST

START_TEST(ring_window_change)
{
	struct history h;
	const struct history_ring *r;
	float v[HF_NR];

	history_init(&h, 20, 2);
	for (int k = 0; k < 21; k++) {
		pt(v, (float)k);
		history_feed(&h, 1, 100.0 + k, v);
		history_feed(&h, 2, 100.0 + k, v);
	}
	ck_assert_uint_eq(ring(&h, 1)->n, 21);
	history_resize(&h, 5);
	ck_assert_uint_eq(h.cap, 6);
	r = ring(&h, 1);
	ck_assert_uint_eq(r->cap, 6);
	ck_assert_uint_eq(r->n, 6);
	ck_assert_double_eq(history_point(r, 0)->mono, 115.0);
	ck_assert_float_eq(history_point(r, 5)->v[HF_USAGE], 20.0f);
	ck_assert_uint_eq(ring(&h, 2)->n, 6);
	pt(v, 21);
	history_feed(&h, 1, 121.0, v);
	ck_assert_double_eq(history_point(r, 0)->mono, 116.0);
	/* 0 turns it off: nothing kept, feeds take nothing. */
	history_resize(&h, 0);
	ck_assert_ptr_null(history_find(&h, 1));
	ck_assert_int_eq(history_feed(&h, 1, 122.0, v), 0);
	ck_assert_ptr_null(history_find(&h, 1));
	history_free(&h);
}
END_TEST

START_TEST(ring_cost)
{
	/* What --help and the man page say a group costs. */
	ck_assert_uint_eq(sizeof(struct history_point), 48);
	ck_assert_uint_eq(history_points(300), 301);
	ck_assert_uint_eq(history_points(86400), HISTORY_POINTS_MAX);
	printf("history: %zu bytes a group at --history 300 (%u points of "
	       "%zu bytes)\n", history_bytes_per_group(history_points(300)),
	       history_points(300), sizeof(struct history_point));
	ck_assert_uint_eq(history_bytes_per_group(301), 14488);
}
END_TEST

static double sort_usage(const struct mgroup *g, void *ctx)
{
	int *calls = ctx;

	(*calls)++;
	return sample_has(&g->cur, FLD_USAGE) ?
		(double)sample_get(&g->cur, FLD_USAGE) * 2 : NAN;
}

/* The model's groups feed it; a group gone from the model is dropped;
 * a limit of max is +inf; a counter's first sample has no rate. */
START_TEST(update_from_model)
{
	struct snapshot s = { 0 };
	struct model m;
	struct history h;
	const struct history_ring *r;
	struct snap_group *g;
	int calls = 0;

	model_init(&m, 1);
	history_init(&h, 60, 16);
	for (int k = 0; k < 3; k++) {
		s.n = 0;
		s.paths_len = 0;
		s.slots = FIELDS_ALL;
		s.mono = 100.0 + 2 * k;
		s.above_limit = VAL_MAX;
		g = cgfs_add_group(&s, -1, "", 0, 0);
		sample_set(&g->s, FLD_USAGE, 1000);
		sample_set(&g->s, FLD_LIMIT, VAL_MAX);
		if (k < 2) {
			g = cgfs_add_group(&s, 0, "a", 1, 1);
			sample_set(&g->s, FLD_USAGE, 100u * (k + 1));
			sample_set(&g->s, FLD_LIMIT, 4096);
			sample_set(&g->s, FLD_PGSCAN, 10u * k);
			sample_set(&g->s, FLD_EV_OOM_KILL, (uint64_t)k);
		}
		model_update(&m, &s);
		history_update(&h, &m, NULL, k == 1 ? sort_usage : NULL, &calls);
		if (k == 1) {
			r = ring(&h, hash_path("/a", 2));
			ck_assert_uint_eq(r->n, 2);
			ck_assert(isnan(history_point(r, 0)->v[HF_SCAN]));
			ck_assert(isnan(history_point(r, 0)->v[HF_OOM]));
			ck_assert_float_eq(history_point(r, 1)->v[HF_SCAN], 5.0f);
			ck_assert_float_eq(history_point(r, 1)->v[HF_OOM], 1.0f);
			ck_assert_float_eq(history_point(r, 1)->v[HF_USAGE], 200.0f);
			ck_assert_float_eq(history_point(r, 1)->v[HF_LIMIT], 4096.0f);
			ck_assert(isnan(history_point(r, 1)->v[HF_HIGH]));
			ck_assert(isinf(history_point(ring(&h, hash_path("/", 1)),
						      0)->v[HF_LIMIT]));
			/* The sort column's value, for both groups. */
			ck_assert_int_eq(calls, 2);
			ck_assert(isnan(history_point(r, 0)->v[HF_SORT]));
			ck_assert_float_eq(history_point(r, 1)->v[HF_SORT], 400.0f);
			/* Another sort column: the old values go. */
			history_forget(&h, HF_SORT);
			ck_assert(isnan(history_point(r, 1)->v[HF_SORT]));
			ck_assert_float_eq(history_point(r, 1)->v[HF_USAGE], 200.0f);
		}
	}
	ck_assert_ptr_null(history_find(&h, hash_path("/a", 2)));
	ck_assert_uint_eq(h.n, 1);
	history_free(&h);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

Suite *history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *t = tcase_create("core");

	tcase_add_test(t, ring_bounds_and_eviction);
	tcase_add_test(t, ring_group_cap);
	tcase_add_test(t, ring_missing_values);
	tcase_add_test(t, ring_merge_and_step_back);
	tcase_add_test(t, ring_window_change);
	tcase_add_test(t, ring_cost);
	tcase_add_test(t, update_from_model);
	suite_add_tcase(s, t);
	return s;
}
