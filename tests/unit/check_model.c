/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: identity across refreshes, rates, derived fields, order. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "parse.h"
#include "units.h"
#include "verdict.h"

/* A snapshot built by hand: groups appended parent first, each with a
 * sample of s->slots. */
static int snap_add(struct snapshot *s, const char *path, int parent)
{
	const char *name = parent < 0 ? path + 1 : strrchr(path, '/') + 1;
	struct snap_group *g;
	int depth = 0;

	for (const char *p = path; *p; p++)
		depth += *p == '/';
	if (strlen(path) == 1)
		depth = 0;
	g = cgfs_add_group(s, parent, name, strlen(name), depth);
	ck_assert_str_eq(snap_path(s, g), path);
	return (int)(g - s->groups);
}

/* A refresh begins: every field has a slot unless the test says. */
static void snap_reset(struct snapshot *s, double mono)
{
	s->n = 0;
	s->paths_len = 0;
	s->slots = FIELDS_ALL;
	s->mono = mono;
	s->wall = 1796000000 + (int64_t)mono;
	s->above_limit = VAL_MAX;
	memset(&s->sys, 0, sizeof(s->sys));
}

static struct sample *smp(struct snapshot *s, int i)
{
	return &s->groups[i].s;
}

static const struct mgroup *find(const struct model *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->groups[i]->path, path) == 0)
			return m->groups[i];
	ck_abort_msg("group %s not in the model", path);
	return NULL;
}

START_TEST(rates_need_two_samples)
{
	struct snapshot s = { 0 };
	struct model m;
	const struct mgroup *g;
	int a;

	model_init(&m, 2);
	snap_reset(&s, 100.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_PGSCAN, 1000);
	sample_set(smp(&s, a), FLD_PGSTEAL, 500);
	model_update(&m, &s);
	g = find(&m, "/a");
	ck_assert_fields_eq(g->rate_valid, 0);
	ck_assert(!mgroup_derived(g, D_RECLAIM_EFF));

	snap_reset(&s, 102.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_PGSCAN, 3000);
	sample_set(smp(&s, a), FLD_PGSTEAL, 1500);
	model_update(&m, &s);
	g = find(&m, "/a");
	ck_assert_double_eq(m.dt, 2.0);
	ck_assert(g->rate_valid & FBIT(FLD_PGSCAN));
	ck_assert_double_eq(mgroup_rate(g, FLD_PGSCAN), 1000.0);
	ck_assert_double_eq(mgroup_rate(g, FLD_PGSTEAL), 500.0);
	ck_assert(mgroup_derived(g, D_RECLAIM_EFF));
	ck_assert_double_eq(g->reclaim_eff, 0.5);
	/* A counter the kernel did not give has no rate. */
	ck_assert(!(g->rate_valid & FBIT(FLD_PGFAULT)));

	/* More stolen than scanned in one interval (a batch in flight):
	 * capped at 1. */
	snap_reset(&s, 102.5);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_PGSCAN, 3000);
	sample_set(smp(&s, a), FLD_PGSTEAL, 1500);
	model_update(&m, &s);
	snap_reset(&s, 102.75);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_PGSCAN, 3032);
	sample_set(smp(&s, a), FLD_PGSTEAL, 1564);
	model_update(&m, &s);
	g = find(&m, "/a");
	ck_assert_double_eq(g->reclaim_eff, 1.0);

	/* Nothing scanned: efficiency is not available, rates are 0. */
	snap_reset(&s, 103.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_PGSCAN, 3032);
	sample_set(smp(&s, a), FLD_PGSTEAL, 1564);
	model_update(&m, &s);
	g = find(&m, "/a");
	ck_assert_double_eq(mgroup_rate(g, FLD_PGSCAN), 0.0);
	ck_assert(!mgroup_derived(g, D_RECLAIM_EFF));
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

START_TEST(counter_reset_and_recreated_group)
{
	static const uint64_t failcnt[] = { 5000, 10, 210 };
	struct snapshot s = { 0 };
	struct model m;
	const struct mgroup *g;

	model_init(&m, 1);
	for (int i = 0; i < 3; i++) {
		int a;

		snap_reset(&s, 10.0 + 2 * i);
		snap_add(&s, "/", -1);
		a = snap_add(&s, "/a", 0);
		sample_set(smp(&s, a), FLD_FAILCNT, failcnt[i]);
		model_update(&m, &s);
	}
	g = find(&m, "/a");
	ck_assert(g->rate_valid & FBIT(FLD_FAILCNT));
	ck_assert_double_eq(mgroup_rate(g, FLD_FAILCNT), 100.0);
	ck_assert_double_eq(model_rate(5000, 10, 2.0), -1);

	/* Gone for one refresh, back the next: a new group, no rate. */
	snap_reset(&s, 20.0);
	snap_add(&s, "/", -1);
	model_update(&m, &s);
	ck_assert_uint_eq(m.n, 1);
	snap_reset(&s, 22.0);
	snap_add(&s, "/", -1);
	sample_set(smp(&s, snap_add(&s, "/a", 0)), FLD_FAILCNT, 400);
	model_update(&m, &s);
	g = find(&m, "/a");
	ck_assert_int_eq(g->has_prev, 0);
	ck_assert_fields_eq(g->rate_valid, 0);

	/* Made again between two refreshes: a new inode.  Its counter went
	 * up (400 -> 900), yet it has no rate; then rates start again. */
	for (int i = 0; i < 4; i++) {
		static const uint64_t ino[] = { 7, 7, 9, 9 };
		static const uint64_t fc[] = { 500, 600, 900, 1100 };
		int a;

		snap_reset(&s, 30.0 + 2 * i);
		snap_add(&s, "/", -1);
		a = snap_add(&s, "/a", 0);
		s.groups[a].ino = ino[i];
		sample_set(smp(&s, a), FLD_FAILCNT, fc[i]);
		model_update(&m, &s);
		g = find(&m, "/a");
		if (i == 2) {
			ck_assert_int_eq(g->has_prev, 0);
			ck_assert_fields_eq(g->rate_valid, 0);
		} else if (i > 0) {
			ck_assert(g->rate_valid & FBIT(FLD_FAILCNT));
			ck_assert_double_eq(mgroup_rate(g, FLD_FAILCNT),
					    50.0 + 50 * (i == 3));
		}
	}
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

START_TEST(identity_over_many_groups)
{
	struct snapshot s = { 0 };
	struct model m;
	char path[32];

	/* Enough groups that the path table grows and probes collide: every
	 * group must still find its own record on the next refresh. */
	model_init(&m, 2);
	for (int round = 0; round < 3; round++) {
		snap_reset(&s, 1.0 + round);
		snap_add(&s, "/", -1);
		for (int i = 0; i < 5000; i++) {
			/* Every third group is gone in round 1. */
			if (round == 1 && i % 3 == 0)
				continue;
			snprintf(path, sizeof(path), "/g%d", i);
			sample_set(smp(&s, snap_add(&s, path, 0)), FLD_PGFAULT,
				   (uint64_t)(i + 10 * round));
		}
		model_update(&m, &s);
	}
	ck_assert_uint_eq(m.n, 5001);
	for (size_t i = 1; i < m.n; i++) {
		const struct mgroup *g = m.groups[i];
		int idx = atoi(g->path + 2);

		ck_assert_int_eq(g->has_prev, idx % 3 != 0);
		if (idx % 3 != 0)
			ck_assert_double_eq(mgroup_rate(g, FLD_PGFAULT), 10.0);
		else
			ck_assert_fields_eq(g->rate_valid, 0);
	}
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

static int in_tree(const char *const *tree, const char *path)
{
	for (; *tree; tree++)
		if (strcmp(*tree, path) == 0)
			return 1;
	return 0;
}

/* A refresh of the tree the last one read keeps the path table (no new
 * table, no walk of the old one); a tree that changed, of the same size
 * or not, gets a new one.  Every group finds its own record throughout:
 * a rate where the last refresh had it, none where it is new. */
START_TEST(table_kept_for_the_same_tree)
{
	static const char *const trees[][4] = {
		{ "/a", "/b", "/c", NULL },
		{ "/a", "/b", "/c", NULL },	/* the same: kept */
		{ "/c", "/a", "/d", NULL },	/* same size: /b gone, /d new */
		{ "/c", "/a", "/d", NULL },	/* kept */
		{ "/b", "/c", NULL },		/* smaller: /b new again */
		{ "/c", "/b", NULL },		/* same size, another order */
		{ "/c", "/b", NULL },		/* kept */
	};
	static const int kept[] = { 0, 1, 0, 1, 0, 0, 1 };
	struct snapshot s = { 0 };
	struct mgroup **table = NULL;
	struct model m;

	model_init(&m, 1);
	for (int r = 0; r < 7; r++) {
		snap_reset(&s, 10.0 + r);
		snap_add(&s, "/", -1);
		for (int i = 0; trees[r][i]; i++)
			sample_set(smp(&s, snap_add(&s, trees[r][i], 0)),
				   FLD_FAILCNT, (uint64_t)(100 * r + i));
		model_update(&m, &s);
		if (r > 0)
			ck_assert_int_eq(m.table == table, kept[r]);
		table = m.table;
		for (int i = 0; trees[r][i]; i++) {
			const struct mgroup *g = find(&m, trees[r][i]);
			int had = r > 0 && in_tree(trees[r - 1], trees[r][i]);

			ck_assert_int_eq(g->has_prev, had);
			ck_assert_int_eq((g->rate_valid & FBIT(FLD_FAILCNT)) != 0,
					 had);
			/* 100 a refresh, a second apart, less the change of
			 * its place in the list */
			if (had) {
				int j = 0;

				while (strcmp(trees[r - 1][j], trees[r][i]))
					j++;
				ck_assert_double_eq(mgroup_rate(g, FLD_FAILCNT),
						    100.0 + i - j);
			}
		}
		ck_assert_uint_eq(m.n, 1 + (r < 4 ? 3 : 2));
	}
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

static int prio(const struct model *m, const char *path);

/* The passes over the groups that make only values no reader wants
 * (model.want) are skipped: the tree's failcnt, the scan priority, v2's
 * effective protections (which v2's excess needs). */
START_TEST(want_skips_passes)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	struct snapshot s = { 0 };
	struct model m;
	int a;

	model_init(&m, 1);
	ck_assert_uint_eq(m.want, ~0u);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, 0), FLD_FAILCNT, 5);
	sample_set(smp(&s, a), FLD_FAILCNT, 7);
	sample_set(smp(&s, a), FLD_OWN_ACTIVE_ANON, 0);
	sample_set(smp(&s, a), FLD_OWN_INACTIVE_ANON, 0);
	sample_set(smp(&s, a), FLD_OWN_ACTIVE_FILE, 40 * 4096);
	sample_set(smp(&s, a), FLD_OWN_INACTIVE_FILE, 0);
	m.want = 1u << D_EXCESS;
	model_update(&m, &s);
	ck_assert(!mgroup_derived(find(&m, "/"), D_FAILCNT_TREE));
	ck_assert(!mgroup_derived(find(&m, "/a"), D_SCAN_PRIO));
	m.want = 1u << D_FAILCNT_TREE;
	model_update(&m, &s);
	ck_assert(mgroup_derived(find(&m, "/"), D_FAILCNT_TREE));
	ck_assert_uint_eq(find(&m, "/")->failcnt_tree, 12);
	ck_assert(!mgroup_derived(find(&m, "/a"), D_SCAN_PRIO));
	m.want = 1u << D_SCAN_PRIO;
	model_update(&m, &s);
	ck_assert(!mgroup_derived(find(&m, "/"), D_FAILCNT_TREE));
	ck_assert_int_eq(prio(&m, "/a"), 5);	/* 40 file pages */
	model_free(&m);

	model_init(&m, 2);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_USAGE, 300 * pg);
	sample_set(smp(&s, a), FLD_MIN, 0);
	sample_set(smp(&s, a), FLD_LOW, 100 * pg);
	m.want = 1u << D_USE_PCT;
	model_update(&m, &s);
	ck_assert(!mgroup_derived(find(&m, "/a"), D_EFF_LOW));
	m.want = 1u << D_EXCESS;
	model_update(&m, &s);
	ck_assert(mgroup_derived(find(&m, "/a"), D_EFF_LOW));
	ck_assert_uint_eq(find(&m, "/a")->excess, 200 * pg);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

START_TEST(excess_v1_and_v2)
{
	struct snapshot s = { 0 };
	struct model m1, m2;
	int a, b, c;

	model_init(&m1, 1);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/over", 0);
	sample_set(smp(&s, a), FLD_USAGE, 300);
	sample_set(smp(&s, a), FLD_SOFT, 100);
	b = snap_add(&s, "/nosoft", 0);
	sample_set(smp(&s, b), FLD_USAGE, 300);
	sample_set(smp(&s, b), FLD_SOFT, VAL_MAX);
	c = snap_add(&s, "/under", 0);
	sample_set(smp(&s, c), FLD_USAGE, 50);
	sample_set(smp(&s, c), FLD_SOFT, 100);
	model_update(&m1, &s);
	ck_assert_uint_eq(find(&m1, "/over")->excess, 200);
	ck_assert_uint_eq(find(&m1, "/nosoft")->excess, 0);
	ck_assert_uint_eq(find(&m1, "/under")->excess, 0);
	ck_assert(!mgroup_derived(find(&m1, "/"), D_EXCESS));

	model_init(&m2, 2);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	sample_set(smp(&s, 0), FLD_USAGE, 900);
	a = snap_add(&s, "/prot", 0);
	sample_set(smp(&s, a), FLD_USAGE, 300);
	sample_set(smp(&s, a), FLD_LOW, 500);
	b = snap_add(&s, "/open", 0);
	sample_set(smp(&s, b), FLD_USAGE, 300);
	sample_set(smp(&s, b), FLD_LOW, 0);
	c = snap_add(&s, "/part", 0);
	sample_set(smp(&s, c), FLD_USAGE, 300);
	sample_set(smp(&s, c), FLD_LOW, 100);
	model_update(&m2, &s);
	ck_assert_uint_eq(find(&m2, "/prot")->excess, 0);
	ck_assert_uint_eq(find(&m2, "/open")->excess, 300);
	ck_assert_uint_eq(find(&m2, "/part")->excess, 200);
	/* The v2 root has no memory.low: excess is not available. */
	ck_assert(!mgroup_derived(find(&m2, "/"), D_EXCESS));
	model_free(&m1);
	model_free(&m2);
	snapshot_free(&s);
}
END_TEST

START_TEST(effective_protection)
{
	uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE);
	struct snapshot s = { 0 };
	struct model m;
	int a, x, y, z;

	/* The kernel's arithmetic (mm/page_counter.c), in pages. */
	ck_assert_uint_eq(model_effective_protection(100, 400, 150, 200, 300, 0), 66);
	ck_assert_uint_eq(model_effective_protection(100, 400, 0, 200, 50, 0), 0);
	ck_assert_uint_eq(model_effective_protection(100, 400, 0, 200, 50, 1), 42);
	ck_assert_uint_eq(model_effective_protection(100, 400, 80, 200, 150, 1), 80 + 50 * 20 / 250);

	/* /a claims 200 pages at the top; x and y claim 100 + 200 of it:
	 * shares in proportion (66, 133); z uses nothing (0); a's excess is
	 * over its own low, x's over its share. */
	model_init(&m, 2);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	x = snap_add(&s, "/a/x", a);
	y = snap_add(&s, "/a/y", a);
	z = snap_add(&s, "/a/z", a);
	sample_set(smp(&s, a), FLD_USAGE, 400 * pg);
	sample_set(smp(&s, a), FLD_LOW, 200 * pg);
	sample_set(smp(&s, a), FLD_MIN, 0);
	sample_set(smp(&s, x), FLD_USAGE, 100 * pg);
	sample_set(smp(&s, x), FLD_LOW, 300 * pg);
	sample_set(smp(&s, x), FLD_MIN, VAL_MAX);
	sample_set(smp(&s, y), FLD_USAGE, 300 * pg);
	sample_set(smp(&s, y), FLD_LOW, 200 * pg);
	sample_set(smp(&s, y), FLD_MIN, 0);
	sample_set(smp(&s, z), FLD_USAGE, 0);
	sample_set(smp(&s, z), FLD_LOW, 50 * pg);
	sample_set(smp(&s, z), FLD_MIN, 0);
	model_update(&m, &s);
	ck_assert(!mgroup_derived(find(&m, "/"), D_EFF_LOW));
	ck_assert_uint_eq(find(&m, "/a")->eff_low, 200 * pg);
	ck_assert_uint_eq(find(&m, "/a")->excess, 200 * pg);
	ck_assert_uint_eq(find(&m, "/a/x")->eff_low, 66 * pg);
	ck_assert_uint_eq(find(&m, "/a/x")->excess, 34 * pg);
	ck_assert_uint_eq(find(&m, "/a/y")->eff_low, 133 * pg);
	/* a's eff_min 0: nothing to share, though x's min is max. */
	ck_assert_uint_eq(find(&m, "/a/x")->eff_min, 0);
	ck_assert_uint_eq(find(&m, "/a/z")->eff_low, 0);
	ck_assert(mgroup_derived(find(&m, "/a/z"), D_EFF_LOW));
	model_free(&m);

	/* A start group below the top level: its parent's is not known. */
	model_init(&m, 2);
	snap_reset(&s, 1.0);
	x = snap_add(&s, "/a/x", -1);
	sample_set(smp(&s, x), FLD_USAGE, 100 * pg);
	sample_set(smp(&s, x), FLD_LOW, 300 * pg);
	sample_set(smp(&s, x), FLD_MIN, 0);
	model_update(&m, &s);
	ck_assert(!mgroup_derived(find(&m, "/a/x"), D_EFF_LOW));
	ck_assert_uint_eq(find(&m, "/a/x")->excess, 0);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

START_TEST(effective_limit)
{
	struct snapshot s = { 0 };
	struct model m;
	const struct mgroup *g;
	int a, b, c;

	model_init(&m, 2);
	snap_reset(&s, 1.0);
	/* Started at /p (above it a 4000-byte limit), as with CGROUP. */
	s.above_limit = 4000;
	snap_add(&s, "/p", -1);
	sample_set(smp(&s, 0), FLD_LIMIT, VAL_MAX);
	a = snap_add(&s, "/p/a", 0);
	sample_set(smp(&s, a), FLD_LIMIT, 1000);
	sample_set(smp(&s, a), FLD_USAGE, 250);
	b = snap_add(&s, "/p/a/b", a);
	sample_set(smp(&s, b), FLD_LIMIT, VAL_MAX);
	sample_set(smp(&s, b), FLD_USAGE, 100);
	c = snap_add(&s, "/p/a/c", a);
	sample_set(smp(&s, c), FLD_LIMIT, 500);
	sample_set(smp(&s, c), FLD_USAGE, 100);
	model_update(&m, &s);
	ck_assert_uint_eq(find(&m, "/p")->eff_limit, 4000);
	g = find(&m, "/p/a");
	ck_assert_uint_eq(g->eff_limit, 1000);
	ck_assert_double_eq(g->use_pct, 25.0);
	ck_assert_uint_eq(find(&m, "/p/a/b")->eff_limit, 1000);
	g = find(&m, "/p/a/c");
	ck_assert_uint_eq(g->eff_limit, 500);
	ck_assert_double_eq(g->use_pct, 20.0);
	model_free(&m);

	/* v1 too: the smallest memory.limit_in_bytes on the path (what its
	 * memory.stat calls hierarchical_memory_limit); unlimited has no
	 * percentage. */
	model_init(&m, 1);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	sample_set(smp(&s, 0), FLD_LIMIT, VAL_MAX);
	sample_set(smp(&s, 0), FLD_USAGE, 100);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_LIMIT, 2048);
	sample_set(smp(&s, a), FLD_USAGE, 1024);
	b = snap_add(&s, "/a/b", a);
	sample_set(smp(&s, b), FLD_LIMIT, 4096);
	sample_set(smp(&s, b), FLD_USAGE, 512);
	model_update(&m, &s);
	g = find(&m, "/");
	ck_assert_uint_eq(g->eff_limit, VAL_MAX);
	ck_assert(!mgroup_derived(g, D_USE_PCT));
	g = find(&m, "/a");
	ck_assert_uint_eq(g->eff_limit, 2048);
	ck_assert_double_eq(g->use_pct, 50.0);
	g = find(&m, "/a/b");
	ck_assert_uint_eq(g->eff_limit, 2048);
	ck_assert_double_eq(g->use_pct, 25.0);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

static int by_usage_desc(const struct mgroup *a, const struct mgroup *b,
			 void *ctx)
{
	(void)ctx;
	return sample_get(&a->cur, FLD_USAGE) > sample_get(&b->cur, FLD_USAGE) ? -1 :
		sample_get(&a->cur, FLD_USAGE) < sample_get(&b->cur, FLD_USAGE);
}

START_TEST(tree_order)
{
	struct snapshot s = { 0 };
	struct model m;
	int order[8], a, b;
	/* Siblings by usage, each followed by its own subtree. */
	static const char *const want[] = {
		"/", "/b", "/b/y", "/b/x", "/a", "/a/z", "/c"
	};
	size_t n;

	model_init(&m, 2);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_USAGE, 10);
	sample_set(smp(&s, snap_add(&s, "/a/z", a)), FLD_USAGE, 5);
	b = snap_add(&s, "/b", 0);
	sample_set(smp(&s, b), FLD_USAGE, 30);
	sample_set(smp(&s, snap_add(&s, "/b/x", b)), FLD_USAGE, 1);
	sample_set(smp(&s, snap_add(&s, "/b/y", b)), FLD_USAGE, 2);
	/* /c ties with /a: path order breaks the tie. */
	sample_set(smp(&s, snap_add(&s, "/c", 0)), FLD_USAGE, 10);
	model_update(&m, &s);
	n = model_order(&m, by_usage_desc, NULL, order);
	ck_assert_uint_eq(n, 7);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(m.groups[order[i]]->path, want[i]);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

START_TEST(system_rates)
{
	struct snapshot s = { 0 };
	struct model m;

	model_init(&m, 1);
	snap_reset(&s, 5.0);
	snap_add(&s, "/", -1);
	s.sys.v[SYS_PGSCAN] = 100;
	s.sys.v[SYS_PGSTEAL] = 50;
	s.sys.valid = SBIT(SYS_PGSCAN) | SBIT(SYS_PGSTEAL);
	model_update(&m, &s);
	ck_assert_uint_eq(m.sys_rate_valid, 0);
	snap_reset(&s, 9.0);
	snap_add(&s, "/", -1);
	s.sys.v[SYS_PGSCAN] = 900;
	s.sys.v[SYS_PGSTEAL] = 450;
	s.sys.v[SYS_MEM_TOTAL] = 1 << 30;
	s.sys.valid = SBIT(SYS_PGSCAN) | SBIT(SYS_PGSTEAL) | SBIT(SYS_MEM_TOTAL);
	model_update(&m, &s);
	/* Counters only: MemTotal, in both samples, has no rate. */
	ck_assert_uint_eq(m.sys_rate_valid, SBIT(SYS_PGSCAN) | SBIT(SYS_PGSTEAL));
	ck_assert_double_eq(m.sys_rate[SYS_PGSCAN], 200.0);
	ck_assert_double_eq(m.sys_rate[SYS_PGSTEAL], 100.0);
	/* A counter that went back has none; one the last sample lacked has
	 * none either. */
	snap_reset(&s, 10.0);
	snap_add(&s, "/", -1);
	s.sys.v[SYS_PGSCAN] = 800;
	s.sys.valid = SBIT(SYS_PGSCAN);
	model_update(&m, &s);
	ck_assert_uint_eq(m.sys_rate_valid, 0);
	snap_reset(&s, 12.0);
	snap_add(&s, "/", -1);
	s.sys.v[SYS_PGSCAN] = 1000;
	s.sys.v[SYS_PGSTEAL] = 500;
	s.sys.valid = SBIT(SYS_PGSCAN) | SBIT(SYS_PGSTEAL);
	model_update(&m, &s);
	ck_assert_uint_eq(m.sys_rate_valid, SBIT(SYS_PGSCAN));
	ck_assert_double_eq(m.sys_rate[SYS_PGSCAN], 100.0);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

START_TEST(scan_prio_floor)
{
	ck_assert_int_eq(model_scan_prio(0), -1);
	ck_assert_int_eq(model_scan_prio(1), 0);
	ck_assert_int_eq(model_scan_prio(2), 1);
	ck_assert_int_eq(model_scan_prio(3), 1);
	ck_assert_int_eq(model_scan_prio(4095), 11);
	ck_assert_int_eq(model_scan_prio(4096), 12);
	ck_assert_int_eq(model_scan_prio(UINT64_C(1) << 40), 12);
	ck_assert_int_eq(model_scan_prio(UINT64_MAX), 12);
}
END_TEST

static void lru(struct sample *x, uint64_t aa, uint64_t ia, uint64_t af,
		uint64_t inf)
{
	sample_set(x, FLD_ACTIVE_ANON, aa * 4096);
	sample_set(x, FLD_INACTIVE_ANON, ia * 4096);
	sample_set(x, FLD_ACTIVE_FILE, af * 4096);
	sample_set(x, FLD_INACTIVE_FILE, inf * 4096);
}

/* Swap used, the one system figure the model derives. */
START_TEST(system_swap_used)
{
	struct snapshot s = { 0 };
	struct model m;

	model_init(&m, 1);
	snap_reset(&s, 5.0);
	snap_add(&s, "/", -1);
	s.sys.v[SYS_SWAP_TOTAL] = 4096;
	s.sys.v[SYS_SWAP_FREE] = 1024;
	s.sys.valid = SBIT(SYS_SWAP_TOTAL) | SBIT(SYS_SWAP_FREE);
	model_update(&m, &s);
	ck_assert(m.sys.valid & SBIT(SYS_SWAP_USED));
	ck_assert_uint_eq(m.sys.v[SYS_SWAP_USED], 3072);
	/* More free than total (a torn read): no figure, not a huge one. */
	s.sys.v[SYS_SWAP_FREE] = 8192;
	model_replace(&m, &s);
	ck_assert(!(m.sys.valid & SBIT(SYS_SWAP_USED)));
	s.sys.valid = SBIT(SYS_SWAP_TOTAL);
	model_update(&m, &s);
	ck_assert(!(m.sys.valid & SBIT(SYS_SWAP_USED)));
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

static int prio(const struct model *m, const char *path)
{
	const struct mgroup *g = find(m, path);

	return mgroup_derived(g, D_SCAN_PRIO) ? g->scan_prio : -1;
}

/* v2: own lists are the group's less its children's; anon counts only
 * with free host swap and room under every swap.max on the path. */
START_TEST(scan_prio_v2)
{
	struct snapshot s = { 0 };
	struct model m;
	int r, a, b, c;

	model_init(&m, 2);
	snap_reset(&s, 100.0);
	r = snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", r);
	b = snap_add(&s, "/a/b", a);
	c = snap_add(&s, "/c", r);
	/* /a own: anon 5000 + 0, file 100 + 20; /a/b: anon 300, file 1 */
	lru(smp(&s, r), 6000, 0, 200, 30);
	lru(smp(&s, a), 5300, 0, 101, 20);
	lru(smp(&s, b), 300, 0, 1, 0);
	lru(smp(&s, c), 0, 0, 0, 0);
	sample_set(smp(&s, a), FLD_SWAP_ROOM, VAL_MAX);
	sample_set(smp(&s, b), FLD_SWAP_ROOM, 4096);
	s.sys.v[SYS_SWAP_FREE] = 1 << 30;
	s.sys.valid = SBIT(SYS_SWAP_FREE);
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), 12);	/* 5000 anon pages */
	ck_assert_int_eq(prio(&m, "/a/b"), 8);	/* 300 */
	ck_assert_int_eq(prio(&m, "/"), 9);	/* 700 anon */
	ck_assert_int_eq(prio(&m, "/c"), -1);	/* nothing */

	/* No free host swap: file lists only. */
	s.sys.v[SYS_SWAP_FREE] = 0;
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), 6);	/* 100 file */
	ck_assert_int_eq(prio(&m, "/a/b"), 0);
	ck_assert_int_eq(prio(&m, "/"), 6);	/* 99 file */

	/* Swap but no room at /a: neither /a nor /a/b counts anon. */
	s.sys.v[SYS_SWAP_FREE] = 1 << 30;
	sample_set(smp(&s, a), FLD_SWAP_ROOM, 0);
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), 6);
	ck_assert_int_eq(prio(&m, "/a/b"), 0);
	ck_assert_int_eq(prio(&m, "/"), 9);

	/* A child without lists: the parent's own are not known. */
	smp(&s, b)->valid = 0;
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), -1);
	ck_assert_int_eq(prio(&m, "/"), 9);	/* its children have them */
	lru(smp(&s, b), 300, 0, 1, 0);

	/* Groups at the depth limit: their children were not read. */
	s.cut_depth1 = 2;
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), -1);
	ck_assert_int_eq(prio(&m, "/c"), -1);
	ck_assert_int_eq(prio(&m, "/"), 9);
	s.cut_depth1 = 0;

	/* The multi-gen LRU: not available anywhere. */
	s.sys.v[SYS_LRU_GEN] = 7;
	s.sys.valid |= SBIT(SYS_LRU_GEN);
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), -1);
	ck_assert_int_eq(prio(&m, "/"), -1);
	s.sys.v[SYS_LRU_GEN] = 0;
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a/b"), 0);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

/* v1: the own lists are memory.stat's own keys, children not needed. */
START_TEST(scan_prio_v1)
{
	struct snapshot s = { 0 };
	struct model m;
	int r, a;

	model_init(&m, 1);
	snap_reset(&s, 100.0);
	r = snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", r);
	lru(smp(&s, r), 9000, 9000, 9000, 9000);
	sample_set(smp(&s, a), FLD_OWN_ACTIVE_ANON, 2048 * 4096);
	sample_set(smp(&s, a), FLD_OWN_INACTIVE_ANON, 0);
	sample_set(smp(&s, a), FLD_OWN_ACTIVE_FILE, 40 * 4096);
	sample_set(smp(&s, a), FLD_OWN_INACTIVE_FILE, 33 * 4096);
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/"), -1);	/* no own keys read */
	ck_assert_int_eq(prio(&m, "/a"), 5);	/* no swap: 40 file */
	s.sys.v[SYS_SWAP_FREE] = 4096;
	s.sys.valid = SBIT(SYS_SWAP_FREE);
	model_update(&m, &s);
	ck_assert_int_eq(prio(&m, "/a"), 11);	/* 2048 anon */
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

/* Packed samples (sample.h): values in field order, in slots only. */
START_TEST(sample_sparse_slots)
{
	uint64_t v[4] = { 0 }, w[3] = { 0 };
	struct sample a = { 0, FBIT(FLD_LIMIT) | FBIT(FLD_SWAP) | FBIT(FLD_FAILCNT) |
			    FBIT(FLD_FLUSHES), v };
	struct sample b = { 0, FBIT(FLD_USAGE) | FBIT(FLD_SWAP) | FBIT(FLD_FLUSHES),
			    w };

	ck_assert_uint_eq(sample_nslots(a.slots), 4);
	/* Set out of field order: each lands at its place. */
	sample_set(&a, FLD_FLUSHES, 4);
	sample_set(&a, FLD_LIMIT, 1);
	sample_set(&a, FLD_FAILCNT, 3);
	sample_set(&a, FLD_SWAP, 2);
	ck_assert_uint_eq(v[0], 1);
	ck_assert_uint_eq(v[1], 2);
	ck_assert_uint_eq(v[2], 3);
	ck_assert_uint_eq(v[3], 4);
	ck_assert_uint_eq(sample_get(&a, FLD_SWAP), 2);
	ck_assert_uint_eq(sample_get(&a, FLD_FAILCNT), 3);
	/* No slot: not stored, not available, nothing overwritten. */
	sample_set(&a, FLD_USAGE, 99);
	sample_set(&a, FLD_PGSCAN, 98);
	ck_assert(!sample_has(&a, FLD_USAGE));
	ck_assert(!sample_has(&a, FLD_PGSCAN));
	ck_assert_uint_eq(sample_get(&a, FLD_USAGE), 0);
	ck_assert_fields_eq(a.valid, FBIT(FLD_LIMIT) | FBIT(FLD_SWAP) |
			  FBIT(FLD_FAILCNT) | FBIT(FLD_FLUSHES));
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(v[i], (uint64_t)i + 1);
	/* Into other slots: the shared fields, by field. */
	sample_copy(&b, &a);
	ck_assert_fields_eq(b.valid, FBIT(FLD_SWAP) | FBIT(FLD_FLUSHES));
	ck_assert_uint_eq(w[0], 0);
	ck_assert_uint_eq(w[1], 2);
	ck_assert_uint_eq(w[2], 4);
	/* A slot with no value reads 0. */
	sample_clear(&a);
	ck_assert_fields_eq(a.valid, 0);
	ck_assert_uint_eq(sample_get(&a, FLD_SWAP), 0);
}
END_TEST

/* Room added to a snapshot's samples keeps their values. */
START_TEST(snapshot_more_slots)
{
	struct snapshot s = { 0 };
	int a, b;

	snap_reset(&s, 1.0);
	s.slots = FBIT(FLD_USAGE) | FBIT(FLD_FAILCNT);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	b = snap_add(&s, "/a/b", a);
	sample_set(smp(&s, 0), FLD_USAGE, 10);
	sample_set(smp(&s, a), FLD_USAGE, 20);
	sample_set(smp(&s, b), FLD_USAGE, 30);
	sample_set(smp(&s, b), FLD_FAILCNT, 31);
	sample_set(smp(&s, a), FLD_PGSCAN, 1);	/* no slot yet */
	ck_assert(!sample_has(smp(&s, a), FLD_PGSCAN));
	snapshot_add_slots(&s, FBIT(FLD_LIMIT) | FBIT(FLD_PGSCAN));
	ck_assert_fields_eq(s.slots, FBIT(FLD_USAGE) | FBIT(FLD_LIMIT) |
			  FBIT(FLD_FAILCNT) | FBIT(FLD_PGSCAN));
	sample_set(smp(&s, a), FLD_PGSCAN, 21);
	sample_set(smp(&s, b), FLD_LIMIT, 32);
	ck_assert_uint_eq(sample_get(smp(&s, 0), FLD_USAGE), 10);
	ck_assert_uint_eq(sample_get(smp(&s, a), FLD_USAGE), 20);
	ck_assert_uint_eq(sample_get(smp(&s, a), FLD_PGSCAN), 21);
	ck_assert(!sample_has(smp(&s, a), FLD_FAILCNT));
	ck_assert_uint_eq(sample_get(smp(&s, b), FLD_USAGE), 30);
	ck_assert_uint_eq(sample_get(smp(&s, b), FLD_LIMIT), 32);
	ck_assert_uint_eq(sample_get(smp(&s, b), FLD_FAILCNT), 31);
	/* One pool, 4 values a group, in group order. */
	ck_assert_ptr_eq(smp(&s, b)->v, s.vals + 2 * 4);
	ck_assert_uint_eq(s.vals[2 * 4 + 3], 31);	/* usage limit pgscan failcnt */
	snapshot_free(&s);
}
END_TEST

/*
 * Refreshes whose slots differ (a column added, the same moment read
 * again with more fields): the previous sample keeps the counters it was
 * read with, rates come only where both samples have the counter.
 */
START_TEST(model_slots_change)
{
	struct snapshot s = { 0 };
	struct model m;
	const struct mgroup *g;
	int a;

	model_init(&m, 1);
	snap_reset(&s, 100.0);
	s.slots = FBIT(FLD_USAGE) | FBIT(FLD_PGSCAN) | FBIT(FLD_FAILCNT);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_USAGE, 100);
	sample_set(smp(&s, a), FLD_PGSCAN, 1000);
	sample_set(smp(&s, a), FLD_FAILCNT, 5);
	model_update(&m, &s);

	snap_reset(&s, 101.0);
	s.slots = FBIT(FLD_USAGE) | FBIT(FLD_PGSTEAL) | FBIT(FLD_PGFAULT) |
		FBIT(FLD_FAILCNT);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_USAGE, 200);
	sample_set(smp(&s, a), FLD_PGSTEAL, 9);
	sample_set(smp(&s, a), FLD_PGFAULT, 7);
	sample_set(smp(&s, a), FLD_FAILCNT, 15);
	model_update(&m, &s);
	g = find(&m, "/a");
	/* The previous sample keeps the counters it was read with. */
	ck_assert_fields_eq(g->prev.slots, FBIT(FLD_PGSCAN) | FBIT(FLD_FAILCNT));
	ck_assert(!sample_has(&g->prev, FLD_USAGE));
	ck_assert_uint_eq(sample_get(&g->prev, FLD_PGSCAN), 1000);
	ck_assert_uint_eq(sample_get(&g->prev, FLD_FAILCNT), 5);
	ck_assert_uint_eq(sample_get(&g->cur, FLD_USAGE), 200);
	ck_assert_uint_eq(sample_get(&g->cur, FLD_PGFAULT), 7);
	ck_assert(!sample_has(&g->cur, FLD_PGSCAN));
	ck_assert_fields_eq(g->rate_valid, FBIT(FLD_FAILCNT));
	ck_assert_double_eq(mgroup_rate(g, FLD_FAILCNT), 10.0);
	ck_assert_double_eq(mgroup_rate(g, FLD_PGFAULT), 0.0);

	/* The same slots again: three rates, each at its place. */
	snap_reset(&s, 103.0);
	s.slots = FBIT(FLD_USAGE) | FBIT(FLD_PGSTEAL) | FBIT(FLD_PGFAULT) |
		FBIT(FLD_FAILCNT);
	snap_add(&s, "/", -1);
	a = snap_add(&s, "/a", 0);
	sample_set(smp(&s, a), FLD_USAGE, 300);
	sample_set(smp(&s, a), FLD_PGSTEAL, 11);
	sample_set(smp(&s, a), FLD_PGFAULT, 17);
	sample_set(smp(&s, a), FLD_FAILCNT, 35);
	model_update(&m, &s);
	g = find(&m, "/a");
	ck_assert_fields_eq(g->rate_valid, FBIT(FLD_PGSTEAL) | FBIT(FLD_PGFAULT) |
			  FBIT(FLD_FAILCNT));
	ck_assert_double_eq(mgroup_rate(g, FLD_PGSTEAL), 1.0);
	ck_assert_double_eq(mgroup_rate(g, FLD_PGFAULT), 5.0);
	ck_assert_double_eq(mgroup_rate(g, FLD_FAILCNT), 10.0);
	ck_assert_uint_eq(sample_get(&g->prev, FLD_PGSTEAL), 9);
	ck_assert_uint_eq(sample_get(&g->prev, FLD_PGFAULT), 7);
	ck_assert_uint_eq(sample_get(&g->cur, FLD_USAGE), 300);

	/* The same moment with one more field: cur replaced, prev and
	 * the interval kept; the new counter has no rate (no prev). */
	sample_set(smp(&s, a), FLD_PGSCAN, 50);	/* no slot: left out */
	snapshot_add_slots(&s, FBIT(FLD_PGSCAN));
	sample_set(smp(&s, a), FLD_PGSCAN, 50);
	model_replace(&m, &s);
	g = find(&m, "/a");
	ck_assert_uint_eq(sample_get(&g->cur, FLD_PGSCAN), 50);
	ck_assert_uint_eq(sample_get(&g->cur, FLD_FAILCNT), 35);
	ck_assert_uint_eq(sample_get(&g->prev, FLD_FAILCNT), 15);
	ck_assert_uint_eq(sample_get(&g->prev, FLD_PGFAULT), 7);
	ck_assert_fields_eq(g->rate_valid, FBIT(FLD_PGSTEAL) | FBIT(FLD_PGFAULT) |
			  FBIT(FLD_FAILCNT));
	ck_assert_double_eq(mgroup_rate(g, FLD_PGSTEAL), 1.0);
	ck_assert_double_eq(mgroup_rate(g, FLD_PGFAULT), 5.0);
	ck_assert_double_eq(mgroup_rate(g, FLD_FAILCNT), 10.0);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

/* The verdict's sentences of one group, joined by newlines. */
struct vtext {
	char buf[4096];
	size_t len;
};

static void vcollect(const char *line, void *ctx)
{
	struct vtext *v = ctx;

	v->len += (size_t)snprintf(v->buf + v->len, sizeof(v->buf) - v->len,
				   "%s\n", line);
}

static const char *verdict_of(const struct model *m, const char *path,
			      struct vtext *v)
{
	const struct mgroup *g = find(m, path);
	struct verdict_figs f;

	v->len = 0;
	v->buf[0] = '\0';
	verdict_figs_of(g, &f);
	verdict(m, g, &f, vcollect, v);
	return v->buf;
}

#define MIB (1024ULL * 1024)

/* v1: a group reclaimed at its own limit, over its soft limit, without
 * swap, with an OOM kill in the interval; a child of a full parent. */
static void v1_tree(struct snapshot *s, double mono, uint64_t k,
		    int lru_gen, uint64_t host_direct)
{
	int a, b, c, r;

	snap_reset(s, mono);
	snap_add(s, "/", -1);
	sample_set(smp(s, 0), FLD_USAGE, 500 * MIB);
	sample_set(smp(s, 0), FLD_LIMIT, VAL_MAX);
	sample_set(smp(s, 0), FLD_PGSCAN, 2000 + 5000 * k);
	a = snap_add(s, "/a", 0);
	sample_set(smp(s, a), FLD_USAGE, 99 * MIB);
	sample_set(smp(s, a), FLD_LIMIT, 100 * MIB);
	sample_set(smp(s, a), FLD_SOFT, 10 * MIB);
	sample_set(smp(s, a), FLD_ANON, 60 * MIB);
	sample_set(smp(s, a), FLD_FILE, 39 * MIB);
	sample_set(smp(s, a), FLD_FAILCNT, 50 * k);
	sample_set(smp(s, a), FLD_PGSCAN, 1000 + 2000 * k);
	sample_set(smp(s, a), FLD_PGSTEAL, 500 + 1000 * k);
	sample_set(smp(s, a), FLD_PGSCAN_KSWAPD, 7);
	sample_set(smp(s, a), FLD_PGSCAN_DIRECT, 993 + 2000 * k);
	sample_set(smp(s, a), FLD_EV_OOM_KILL, k);
	sample_set(smp(s, a), FLD_SOFT_TREE, 0);
	sample_set(smp(s, a), FLD_SOFT_PGSCAN, 40);
	b = snap_add(s, "/a/b", a);
	sample_set(smp(s, b), FLD_USAGE, 20 * MIB);
	sample_set(smp(s, b), FLD_LIMIT, VAL_MAX);
	sample_set(smp(s, b), FLD_SOFT, 30 * MIB);
	sample_set(smp(s, b), FLD_PGSCAN, 5);
	c = snap_add(s, "/q", 0);
	sample_set(smp(s, c), FLD_USAGE, 3 * MIB);
	sample_set(smp(s, c), FLD_LIMIT, VAL_MAX);
	sample_set(smp(s, c), FLD_SOFT, 1 * MIB);
	sample_set(smp(s, c), FLD_PGSCAN, 100 + 400 * k);
	sample_set(smp(s, c), FLD_PGSCAN_KSWAPD, 100 + 400 * k);
	sample_set(smp(s, c), FLD_PGSCAN_DIRECT, 0);
	sample_set(smp(s, c), FLD_PRIO_MIN, 9);
	sample_set(smp(s, c), FLD_PRIO_MIN_KSWAPD, 9);
	/* soft-limit reclaim scanned it too, at its fixed 0 */
	sample_set(smp(s, c), FLD_PRIO_MIN_SOFT, 0);
	sample_set(smp(s, c), FLD_STALL, 0);
	sample_set(smp(s, c), FLD_SOFT_TREE, 2 * MIB);
	sample_set(smp(s, c), FLD_SOFT_RANK, 1);
	sample_set(smp(s, c), FLD_SOFT_PGSCAN, 300 * k);
	sample_set(smp(s, c), FLD_SOFT_PGSTEAL, 200 * k);
	/* close to its limit, scanned by tasks, no limit hit counted */
	r = snap_add(s, "/r", 0);
	sample_set(smp(s, r), FLD_USAGE, 95 * MIB);
	sample_set(smp(s, r), FLD_LIMIT, 100 * MIB);
	sample_set(smp(s, r), FLD_FAILCNT, 0);
	sample_set(smp(s, r), FLD_PGSCAN, 600 * k);
	sample_set(smp(s, r), FLD_PGSCAN_KSWAPD, 0);
	sample_set(smp(s, r), FLD_PGSCAN_DIRECT, 600 * k);
	s->sys.v[SYS_SWAP_TOTAL] = 0;
	s->sys.v[SYS_LRU_GEN] = lru_gen ? 7 : 0;
	s->sys.v[SYS_PGSCAN_DIRECT] = host_direct * k;
	s->sys.valid = SBIT(SYS_SWAP_TOTAL) | SBIT(SYS_LRU_GEN) |
		SBIT(SYS_PGSCAN_DIRECT);
}

START_TEST(verdict_v1)
{
	struct snapshot s = { 0 };
	struct model m;
	struct vtext v;

	model_init(&m, 1);
	v1_tree(&s, 1.0, 0, 0, 0);
	model_update(&m, &s);
	/* One sample: no rates, so no reclaim sentence, and the OOM kills
	 * have no interval. */
	ck_assert_str_eq(verdict_of(&m, "/a", &v),
		"At its limit: usage 99.0M of 100M (99.0%).\n"
		"Over its soft limit by 89.0M (usage 99.0M, soft 10.0M): "
		"global reclaim takes from the largest excess first, but only "
		"for single-page allocations; larger ones (such as "
		"readahead's) skip soft-limit reclaim.\n"
		"Not on the kernel's soft-limit tree yet: it is put there at "
		"its next update (every 1,024 page charges or uncharges on a "
		"CPU).\n"
		"No swap on the host: its anon (60.0M) cannot be reclaimed; "
		"only its file pages (39.0M) can.\n");
	v1_tree(&s, 3.0, 1, 0, 0);
	model_update(&m, &s);
	/* Two seconds later: 4000 pages scanned, 2000 taken, 50 limit hits,
	 * one kill. */
	ck_assert_str_eq(verdict_of(&m, "/a", &v),
		"At its limit: usage 99.0M of 100M (99.0%).\n"
		"Over its soft limit by 89.0M (usage 99.0M, soft 10.0M): "
		"global reclaim takes from the largest excess first, but only "
		"for single-page allocations; larger ones (such as "
		"readahead's) skip soft-limit reclaim.\n"
		"Not on the kernel's soft-limit tree yet: it is put there at "
		"its next update (every 1,024 page charges or uncharges on a "
		"CPU).\n"
		"Soft-limit reclaim took nothing from it in the interval (0 "
		"pages/s scanned): any reclaim of it was ordinary.\n"
		"Reclaimed, it and its descendants: 1.0k pages/s scanned, "
		"500/s taken (50%); kswapd scanned 0.0/s, allocating tasks "
		"(direct) 1.0k/s.\n"
		"Reclaimed by: its own limit (25.0 limit hits/s).\n"
		"No swap on the host: its anon (60.0M) cannot be reclaimed; "
		"only its file pages (39.0M) can.\n"
		"OOM killer: 1 kill in the interval, 1 since the group was "
		"made (its own).\n");
	/* Its child: no limit of its own, under a full parent; within its
	 * soft limit; not scanned. */
	ck_assert_str_eq(verdict_of(&m, "/a/b", &v),
		"No limit of its own (usage 20.0M); the fullest above it is "
		"/a's: 99.0M of 100M (99.0%).\n"
		"Within its soft limit: usage 20.0M, soft 30.0M.\n"
		"Not reclaimed in the interval: 0 pages scanned, it and its "
		"descendants.\n");
	/* The root: its pages scanned are its descendants', and one of them
	 * is at its limit. */
	ck_assert_ptr_nonnull(strstr(verdict_of(&m, "/", &v),
		"Reclaimed, it and its descendants: 2.5k pages/s scanned.\n"
		"Reclaimed by: the limit of /a below it.\n"));
	/* kswapd alone, no limit on the path: the host's reclaim. */
	ck_assert_str_eq(verdict_of(&m, "/q", &v),
		"No limit on its path: only the host's memory bounds it "
		"(usage 3.0M).\n"
		"Over its soft limit by 2.0M (usage 3.0M, soft 1.0M): global "
		"reclaim takes from the largest excess first, but only for "
		"single-page allocations; larger ones (such as readahead's) "
		"skip soft-limit reclaim.\n"
		"The kernel's soft-limit tree holds it with 2.0M excess, in "
		"place 1 (1 is reclaimed first).\n"
		"Soft-limit reclaim ran: 150 pages/s scanned, 100/s taken, it "
		"and its descendants.\n"
		"Reclaimed, it and its descendants: 200 pages/s scanned; "
		"kswapd scanned 200/s, allocating tasks (direct) 0.0/s.\n"
		"Reclaimed by: kswapd (the host's free memory is below the "
		"low watermark).\n"
		"Its own lists were scanned at priority 9 at the lowest "
		"(kswapd 9, direct -): reclaim starts at 12; lower means it "
		"had to scan harder.\n"
		"Soft-limit reclaim scanned its own lists at priority 0: the "
		"kernel runs soft-limit reclaim at that fixed priority, so it "
		"is not a sign of trouble, and it is not in the figure of the "
		"other reclaimers.\n"
		"Its tasks spent 0.0 ms per second in reclaim.\n");
	/* No global direct reclaim on the host: a group close to its limit
	 * scanned by its tasks is reclaimed by its limit. */
	ck_assert_ptr_nonnull(strstr(verdict_of(&m, "/r", &v),
		"Close to its limit: usage 95.0M of 100M (95.0%).\n"
		"Reclaimed, it and its descendants: 300 pages/s scanned; "
		"kswapd scanned 0.0/s, allocating tasks (direct) 300/s.\n"
		"Reclaimed by: its own limit.\n"));
	/* With global direct reclaim (400 pages/s) the same figures may be
	 * either. */
	model_free(&m);
	model_init(&m, 1);
	v1_tree(&s, 1.0, 0, 0, 800);
	model_update(&m, &s);
	v1_tree(&s, 3.0, 1, 0, 800);
	model_update(&m, &s);
	ck_assert_ptr_nonnull(strstr(verdict_of(&m, "/r", &v),
		"Reclaimed by: tasks short of memory host-wide (global direct "
		"reclaim: the host's 400 pages/s).\n"));
	ck_assert_ptr_nonnull(strstr(verdict_of(&m, "/a", &v),
		"Reclaimed by: its own limit (25.0 limit hits/s), perhaps tasks "
		"short of memory host-wide (global direct reclaim: the host's "
		"400 pages/s).\n"));
	/* The multi-gen LRU: no soft-limit reclaim at all. */
	model_free(&m);
	model_init(&m, 1);
	v1_tree(&s, 1.0, 0, 1, 0);
	model_update(&m, &s);
	ck_assert_ptr_nonnull(strstr(verdict_of(&m, "/q", &v),
		"Over its soft limit by 2.0M (usage 3.0M, soft 1.0M), but the "
		"multi-gen LRU runs: the kernel does no soft-limit reclaim.\n"));
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

/* v2: protection as reclaim from the root counts it; a limit above. */
START_TEST(verdict_v2)
{
	struct snapshot s = { 0 };
	struct model m;
	struct vtext v;
	int p, c, t, u, k;

	model_init(&m, 2);
	snap_reset(&s, 1.0);
	snap_add(&s, "/", -1);
	sample_set(smp(&s, 0), FLD_USAGE, 900 * MIB);
	p = snap_add(&s, "/p", 0);
	c = snap_add(&s, "/p/c", p);
	t = snap_add(&s, "/t", 0);
	u = snap_add(&s, "/u", 0);
	k = snap_add(&s, "/u/k", u);
	for (int i = 1; i <= 5; i++) {
		sample_set(smp(&s, i), FLD_LIMIT, VAL_MAX);
		sample_set(smp(&s, i), FLD_HIGH, VAL_MAX);
		sample_set(smp(&s, i), FLD_LOW, 0);
		sample_set(smp(&s, i), FLD_MIN, 0);
	}
	sample_set(smp(&s, p), FLD_USAGE, 200 * MIB);
	sample_set(smp(&s, c), FLD_USAGE, 30 * MIB);
	sample_set(smp(&s, c), FLD_LOW, 40 * MIB);
	sample_set(smp(&s, t), FLD_USAGE, 40 * MIB);
	sample_set(smp(&s, t), FLD_LOW, 50 * MIB);
	sample_set(smp(&s, u), FLD_USAGE, 95 * MIB);
	sample_set(smp(&s, u), FLD_LIMIT, 100 * MIB);
	sample_set(smp(&s, u), FLD_HIGH, 90 * MIB);
	sample_set(smp(&s, u), FLD_MIN, 10 * MIB);
	sample_set(smp(&s, k), FLD_USAGE, 95 * MIB);
	sample_set(smp(&s, k), FLD_SWAP_LIMIT, 0);
	sample_set(smp(&s, k), FLD_ANON, 80 * MIB);
	sample_set(smp(&s, k), FLD_FILE, 15 * MIB);
	model_update(&m, &s);
	ck_assert_str_eq(verdict_of(&m, "/p/c", &v),
		"No limit on its path: only the host's memory bounds it "
		"(usage 30.0M).\n"
		"Its memory.low 40.0M protects nothing here: effective low 0, "
		"as its parent's protection does not reach it.\n"
		"Reclaim: no pgscan figure in this view; the reclaim set (Tab) "
		"shows it where it can be had.\n");
	ck_assert_str_eq(verdict_of(&m, "/t", &v),
		"No limit on its path: only the host's memory bounds it "
		"(usage 40.0M).\n"
		"Protected by memory.low: usage 40.0M within its effective "
		"low 50.0M: reclaim takes from it only when no unprotected "
		"memory is left.\n"
		"Reclaim: no pgscan figure in this view; the reclaim set (Tab) "
		"shows it where it can be had.\n");
	ck_assert_str_eq(verdict_of(&m, "/u", &v),
		"Close to its limit: usage 95.0M of 100M (95.0%).\n"
		"Above memory.high: usage 95.0M over 90.0M: its tasks are "
		"throttled and reclaim on their way back to user space.\n"
		"Partly protected: usage 95.0M, effective min 10.0M: the "
		"85.0M above it may be reclaimed.\n"
		"Reclaim: no pgscan figure in this view; the reclaim set (Tab) "
		"shows it where it can be had.\n");
	ck_assert_str_eq(verdict_of(&m, "/u/k", &v),
		"No limit of its own (usage 95.0M); the fullest above it is "
		"/u's: 95.0M of 100M (95.0%).\n"
		"Reclaim: no pgscan figure in this view; the reclaim set (Tab) "
		"shows it where it can be had.\n"
		"memory.swap.max is 0: its anon (80.0M) cannot be reclaimed; "
		"only its file pages (15.0M) can.\n");
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

/* One refresh of / /a /a/b with these OOM kill counters. */
static void oom_refresh(struct model *m, struct snapshot *s, double mono,
			uint64_t root, uint64_t a, uint64_t b)
{
	int ia, ib;

	snap_reset(s, mono);
	sample_set(smp(s, snap_add(s, "/", -1)), FLD_EV_OOM_KILL, root);
	ia = snap_add(s, "/a", 0);
	sample_set(smp(s, ia), FLD_EV_OOM_KILL, a);
	sample_set(smp(s, ia), FLD_LIMIT, 32 << 20);
	ib = snap_add(s, "/a/b", ia);
	sample_set(smp(s, ib), FLD_EV_OOM_KILL, b);
	model_update(m, s);
}

START_TEST(oom_kills_from_counters)
{
	struct snapshot s = { 0 };
	const struct oom_kill *k;
	struct model m;

	/* v2: memory.events counts the subtree's kills; a kill in /a/b
	 * rises / and /a too, and is /a/b's only. */
	model_init(&m, 2);
	oom_refresh(&m, &s, 100.0, 5, 5, 0);
	ck_assert_uint_eq(m.oom.n, 0);	/* no interval yet */
	oom_refresh(&m, &s, 101.0, 6, 6, 1);
	ck_assert_uint_eq(m.oom.n, 1);
	k = oomlog_get(&m.oom, 0);
	ck_assert_str_eq(k->path, "/a/b");
	ck_assert_int_eq(k->pid, -1);
	ck_assert(!k->has_rss);
	ck_assert(!k->has_limit);
	ck_assert_int_eq(k->wall_ms, (1796000000 + 101) * INT64_C(1000));
	/* Two in /a itself: newest first, with /a's limit. */
	oom_refresh(&m, &s, 102.0, 8, 8, 1);
	ck_assert_uint_eq(m.oom.n, 3);
	k = oomlog_get(&m.oom, 0);
	ck_assert_str_eq(k->path, "/a");
	ck_assert(k->has_limit);
	ck_assert_uint_eq(k->limit, 32 << 20);
	ck_assert_uint_eq(k->seq, 3);
	ck_assert_str_eq(oomlog_get(&m.oom, 2)->path, "/a/b");
	/* Bounded: the oldest go. */
	oom_refresh(&m, &s, 103.0, 8 + 100, 8 + 100, 1);
	ck_assert_uint_eq(m.oom.n, OOMLOG_MAX);
	ck_assert_uint_eq(m.oom.seen, 3 + OOMLOG_MAX);
	ck_assert_str_eq(oomlog_get(&m.oom, OOMLOG_MAX - 1)->path, "/a");
	model_free(&m);

	/* v1: memory.oom_control counts the group's own. */
	model_init(&m, 1);
	oom_refresh(&m, &s, 100.0, 0, 0, 0);
	oom_refresh(&m, &s, 101.0, 0, 1, 1);
	ck_assert_uint_eq(m.oom.n, 2);
	ck_assert_str_eq(oomlog_get(&m.oom, 0)->path, "/a/b");
	ck_assert_str_eq(oomlog_get(&m.oom, 1)->path, "/a");
	model_free(&m);

	/* The tracepoint gives the kills: the counters add none. */
	model_init(&m, 1);
	m.oom.from_events = 1;
	oom_refresh(&m, &s, 100.0, 0, 0, 0);
	oom_refresh(&m, &s, 101.0, 0, 1, 1);
	ck_assert_uint_eq(m.oom.n, 0);
	model_free(&m);
	snapshot_free(&s);
}
END_TEST

Suite *model_suite(void)
{
	Suite *s = suite_create("model");
	TCase *t = tcase_create("core");

	tcase_add_test(t, rates_need_two_samples);
	tcase_add_test(t, counter_reset_and_recreated_group);
	tcase_add_test(t, identity_over_many_groups);
	tcase_add_test(t, table_kept_for_the_same_tree);
	tcase_add_test(t, want_skips_passes);
	tcase_add_test(t, excess_v1_and_v2);
	tcase_add_test(t, effective_limit);
	tcase_add_test(t, effective_protection);
	tcase_add_test(t, tree_order);
	tcase_add_test(t, system_rates);
	tcase_add_test(t, system_swap_used);
	tcase_add_test(t, scan_prio_floor);
	tcase_add_test(t, scan_prio_v2);
	tcase_add_test(t, scan_prio_v1);
	tcase_add_test(t, sample_sparse_slots);
	tcase_add_test(t, snapshot_more_slots);
	tcase_add_test(t, model_slots_change);
	tcase_add_test(t, verdict_v1);
	tcase_add_test(t, verdict_v2);
	tcase_add_test(t, oom_kills_from_counters);
	suite_add_tcase(s, t);
	return s;
}
