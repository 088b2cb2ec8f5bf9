/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests: src/source/reclaim.c maps the reclaim events' per-cgroup-id counts
 * onto a snapshot: hierarchical sums, 0 for a group never scanned, the
 * counts of removed groups kept in their ancestors, v2 left to memory.stat,
 * and the system figures, which the model rates.  No BPF:
 * reclaim_fill_from gets the reads.
 */
#include <check.h>
#include <string.h>

#include "bpf/bpfev.h"
#include "model.h"
#include "reclaim.h"
#include "sysfig.h"
#include "units.h"

/*
 *   / (ino 1)
 *   +- a (2)
 *   |  +- x (3)
 *   +- b (4)
 */
struct tree {
	struct snapshot snap;
	struct snap_group g[4];
	uint64_t vals[4][FLD_NR];
};

/* The groups of ids (in that order; absent ones left out). */
static void tree(struct tree *t, int has_a, int has_x)
{
	static const uint64_t ino[4] = { 1, 2, 3, 4 };
	static const int parent[4] = { -1, 0, 1, 0 };
	int idx[4], n = 0;

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < 4; i++) {
		idx[i] = -1;
		if ((i == 1 && !has_a) || (i == 2 && (!has_x || !has_a)))
			continue;
		idx[i] = n;
		t->g[n].s.slots = FIELDS_ALL;
		t->g[n].s.v = t->vals[n];
		t->g[n].ino = ino[i];
		t->g[n].parent = parent[i] >= 0 ? idx[parent[i]] : -1;
		n++;
	}
	t->snap.groups = t->g;
	t->snap.n = (size_t)n;
	t->snap.slots = FIELDS_ALL;
}

/* The reclaim events' system figures. */
#define EV_IDS \
	(sysfig_ids(SYS_SCAN_PRIO) | SBIT(SYS_FLUSHES) | SBIT(SYS_OWN_FLUSHES) | \
	 SBIT(SYS_FLUSH_CALLS) | SBIT(SYS_OWN_FLUSH_CALLS))

/* The model takes in the system figures of t's snapshot (its groups have
 * no paths, so it gets none of them). */
static void model_take(struct model *m, const struct tree *t)
{
	struct snapshot s = { 0 };

	s.mono = t->snap.mono;
	s.sys = t->snap.sys;
	model_update(m, &s);
}

static const struct sample *of(const struct tree *t, uint64_t ino)
{
	for (size_t i = 0; i < t->snap.n; i++)
		if (t->g[i].ino == ino)
			return &t->g[i].s;
	ck_abort_msg("no group %llu", (unsigned long long)ino);
	return NULL;
}

static struct bpfev_count grp(uint64_t id, uint64_t scan_direct,
			      uint64_t steal_direct, uint64_t scan_kswapd,
			      int prio)
{
	struct bpfev_count g;

	memset(&g, 0, sizeof(g));
	g.id = id;
	g.ev[BPFEV_SCAN_DIRECT] = scan_direct;
	g.ev[BPFEV_STEAL_DIRECT] = steal_direct;
	g.ev[BPFEV_SCAN_KSWAPD] = scan_kswapd;
	g.ev[BPFEV_STEAL_KSWAPD] = scan_kswapd;
	g.prio_min = prio;
	g.prio_min_kswapd = g.prio_min_direct = -1;
	g.prio_min_proactive = g.prio_min_soft = -1;
	return g;
}

START_TEST(v1_subtree_sums)
{
	struct reclaim *rc = reclaim_new_test(1);
	struct bpfev_count gs[2] = { grp(2, 0, 0, 10, -1),
				     grp(3, 100, 80, 0, 5) };
	struct bpfev_sys sys;
	struct model m;
	struct tree t;

	memset(&sys, 0, sizeof(sys));
	gs[1].flushes = 7;
	gs[1].prio_min_kswapd = -1;
	gs[1].prio_min_direct = 5;
	gs[1].prio_min_soft = 0;
	gs[1].flushes_done = 2;
	tree(&t, 1, 1);
	reclaim_fill_from(rc, &t.snap, gs, 2, &sys);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN), 110);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSTEAL), 90);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN_KSWAPD), 10);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN_DIRECT), 100);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSTEAL_KSWAPD), 10);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSTEAL_DIRECT), 80);
	ck_assert_uint_eq(sample_get(of(&t, 2), FLD_PGSCAN), 110);
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_PGSCAN), 100);
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_PGSTEAL), 80);
	/* Never scanned: 0, a value, not "not available". */
	ck_assert(sample_has(of(&t, 4), FLD_PGSCAN));
	ck_assert(sample_has(of(&t, 4), FLD_PGSTEAL_DIRECT));
	ck_assert_uint_eq(sample_get(of(&t, 4), FLD_PGSCAN), 0);
	/* The priority is the group's own lists', not summed. */
	ck_assert(sample_has(of(&t, 3), FLD_PRIO_MIN));
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_PRIO_MIN), 5);
	ck_assert(!sample_has(of(&t, 3), FLD_PRIO_MIN_KSWAPD));
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_PRIO_MIN_DIRECT), 5);
	/* Soft-limit reclaim's apart, and none of proactive's. */
	ck_assert(sample_has(of(&t, 3), FLD_PRIO_MIN_SOFT));
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_PRIO_MIN_SOFT), 0);
	ck_assert(!sample_has(of(&t, 3), FLD_PRIO_MIN_PROACTIVE));
	ck_assert(!sample_has(of(&t, 2), FLD_PRIO_MIN_SOFT));
	ck_assert(!sample_has(of(&t, 2), FLD_PRIO_MIN));
	ck_assert(!sample_has(of(&t, 1), FLD_PRIO_MIN));
	/* FLUSHES: the requests that flushed; FLUSH_CALLS: every one. */
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_FLUSHES), 2);
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_FLUSH_CALLS), 7);
	ck_assert(sample_has(of(&t, 4), FLD_FLUSHES));
	ck_assert_uint_eq(sample_get(of(&t, 4), FLD_FLUSHES), 0);
	ck_assert(sample_has(of(&t, 4), FLD_FLUSH_CALLS));
	ck_assert_uint_eq(sample_get(of(&t, 4), FLD_FLUSH_CALLS), 0);
	/* Loaded: the system figures are there, without rates yet. */
	ck_assert_uint_eq(t.snap.sys.valid & EV_IDS, EV_IDS);
	model_init(&m, 1);
	model_take(&m, &t);
	ck_assert_uint_eq(m.sys_rate_valid & EV_IDS, 0);
	model_free(&m);
	reclaim_free(rc);
}
END_TEST

START_TEST(v2_keeps_memory_stat)
{
	struct reclaim *rc = reclaim_new_test(2);
	struct bpfev_count gs[1] = { grp(3, 100, 80, 0, 0) };
	struct bpfev_sys sys;
	struct tree t;

	memset(&sys, 0, sizeof(sys));
	tree(&t, 1, 1);
	reclaim_fill_from(rc, &t.snap, gs, 1, &sys);
	for (uint64_t i = 1; i <= 4; i++) {
		ck_assert(!sample_has(of(&t, i), FLD_PGSCAN));
		ck_assert(!sample_has(of(&t, i), FLD_PGSTEAL));
		ck_assert(!sample_has(of(&t, i), FLD_PGSCAN_DIRECT));
	}
	ck_assert(sample_has(of(&t, 3), FLD_PRIO_MIN));
	ck_assert_uint_eq(sample_get(of(&t, 3), FLD_PRIO_MIN), 0);
	ck_assert_fields_eq(reclaim_fields(2), FBIT(FLD_PRIO_MIN) |
			  FBIT(FLD_PRIO_MIN_KSWAPD) | FBIT(FLD_PRIO_MIN_DIRECT) |
			  FBIT(FLD_PRIO_MIN_PROACTIVE) | FBIT(FLD_FLUSHES) | FBIT(FLD_FLUSH_CALLS) |
			  FBIT(FLD_STALL));
	ck_assert(reclaim_fields(1) & FBIT(FLD_PGSTEAL_DIRECT));
	reclaim_free(rc);
}
END_TEST

/* A removed group's counts stay in its ancestors, also what it counts
 * while dying, and what its removed children left in it. */
START_TEST(removed_groups_stay_counted)
{
	struct reclaim *rc = reclaim_new_test(1);
	struct bpfev_count r1[2] = { grp(2, 10, 0, 0, -1), grp(3, 100, 0, 0, -1) };
	struct bpfev_count r2[2] = { grp(2, 10, 0, 0, -1), grp(3, 150, 0, 0, -1) };
	struct bpfev_count r3[1] = { grp(2, 12, 0, 0, -1) };
	struct bpfev_count r4[3] = { grp(2, 12, 0, 0, -1), grp(3, 5, 0, 0, -1),
				     grp(99, 1000, 0, 0, -1) };
	const uint64_t *drop;
	struct bpfev_sys sys;
	struct tree t;

	memset(&sys, 0, sizeof(sys));
	tree(&t, 1, 1);
	reclaim_fill_from(rc, &t.snap, r1, 2, &sys);
	ck_assert_uint_eq(sample_get(of(&t, 2), FLD_PGSCAN), 110);
	ck_assert_uint_eq(reclaim_dropped_test(rc, &drop), 0);
	/* x removed: its 150 go to a (its map entry would be dropped). */
	tree(&t, 1, 0);
	reclaim_fill_from(rc, &t.snap, r2, 2, &sys);
	ck_assert_uint_eq(reclaim_dropped_test(rc, &drop), 1);
	ck_assert_uint_eq(drop[0], 3);
	ck_assert_uint_eq(sample_get(of(&t, 2), FLD_PGSCAN), 160);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN), 160);
	/* Its entry gone from the map: a keeps them. */
	tree(&t, 1, 0);
	reclaim_fill_from(rc, &t.snap, r3, 1, &sys);
	ck_assert_uint_eq(sample_get(of(&t, 2), FLD_PGSCAN), 162);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN), 162);
	/* a removed too: its own 12, what x left in it (150) and x counted
	 * again while dying (5) go to the root; 99, never seen, nowhere. */
	tree(&t, 0, 0);
	reclaim_fill_from(rc, &t.snap, r4, 3, &sys);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN), 167);
	ck_assert_uint_eq(sample_get(of(&t, 4), FLD_PGSCAN), 0);
	/* Every entry of a group not in the tree leaves the map: the removed
	 * ones after their counts moved, 99 too (it would fill the map). */
	ck_assert_uint_eq(reclaim_dropped_test(rc, &drop), 3);
	ck_assert_uint_eq(drop[0], 2);
	ck_assert_uint_eq(drop[1], 3);
	ck_assert_uint_eq(drop[2], 99);
	tree(&t, 0, 0);
	reclaim_fill_from(rc, &t.snap, NULL, 0, &sys);
	ck_assert_uint_eq(sample_get(of(&t, 1), FLD_PGSCAN), 167);
	reclaim_free(rc);
}
END_TEST

/* The events' system figures go into the snapshot; the model rates them
 * over the interval, as it rates the procfs' counters. */
START_TEST(system_rates)
{
	struct reclaim *rc = reclaim_new_test(1);
	struct bpfev_sys sys;
	struct model m;
	struct tree t;

	memset(&sys, 0, sizeof(sys));
	model_init(&m, 1);
	tree(&t, 1, 1);
	t.snap.mono = 10.0;
	sys.scanned[12] = 100;
	sys.scanned[3] = 7;
	sys.flushes = 400;
	sys.flushes_done = 40;
	sys.own_flushes = 30;
	sys.own_flushes_done = 4;
	reclaim_fill_from(rc, &t.snap, NULL, 0, &sys);
	model_take(&m, &t);
	ck_assert_uint_eq(m.sys_rate_valid & EV_IDS, 0);
	ck_assert_uint_eq(m.sys.v[SYS_SCAN_PRIO + 12], 100);
	ck_assert_uint_eq(m.sys.v[SYS_FLUSHES], 40);
	ck_assert_uint_eq(m.sys.v[SYS_FLUSH_CALLS], 400);
	tree(&t, 1, 1);
	t.snap.mono = 12.0;
	sys.scanned[12] = 300;
	sys.scanned[0] = 8;
	sys.flushes = 1000;
	sys.flushes_done = 50;
	sys.own_flushes = 50;
	sys.own_flushes_done = 6;
	reclaim_fill_from(rc, &t.snap, NULL, 0, &sys);
	model_take(&m, &t);
	ck_assert_uint_eq(m.sys_rate_valid & EV_IDS, EV_IDS);
	ck_assert(m.sys_rate[SYS_SCAN_PRIO + 12] == 100.0);
	ck_assert(m.sys_rate[SYS_SCAN_PRIO + 3] == 0.0);
	ck_assert(m.sys_rate[SYS_SCAN_PRIO + 0] == 4.0);
	ck_assert(m.sys_rate[SYS_FLUSHES] == 5.0);
	ck_assert(m.sys_rate[SYS_OWN_FLUSHES] == 1.0);
	ck_assert_uint_eq(m.sys.v[SYS_OWN_FLUSHES], 6);
	ck_assert(m.sys_rate[SYS_FLUSH_CALLS] == 300.0);
	ck_assert(m.sys_rate[SYS_OWN_FLUSH_CALLS] == 10.0);
	/* Nothing loaded: nothing filled, the system figures off. */
	tree(&t, 1, 1);
	t.snap.mono = 14.0;
	reclaim_fill(NULL, &t.snap);
	ck_assert_uint_eq(t.snap.sys.valid & EV_IDS, 0);
	ck_assert(!sample_has(of(&t, 1), FLD_PGSCAN));
	model_take(&m, &t);
	ck_assert_uint_eq(m.sys.valid & EV_IDS, 0);
	ck_assert_uint_eq(m.sys_rate_valid & EV_IDS, 0);
	model_free(&m);
	reclaim_free(rc);
}
END_TEST

Suite *reclaim_suite(void)
{
	Suite *s = suite_create("reclaim");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, v1_subtree_sums);
	tcase_add_test(tc, v2_keeps_memory_stat);
	tcase_add_test(tc, removed_groups_stay_counted);
	tcase_add_test(tc, system_rates);
	suite_add_tcase(s, tc);
	return s;
}
