/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the preview of a change (preview.h), by hand and on the
 * v2-live fixture, whose memory.stat the test reads itself. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "edit.h"
#include "knob.h"
#include "parse.h"
#include "preview.h"
#include "units.h"

#define M (1ULL << 20)

static struct preview_in base(int version, enum preview_knob k, uint64_t v)
{
	struct preview_in in;

	memset(&in, 0, sizeof(in));
	in.version = version;
	in.knob = k;
	in.value = v;
	in.page = 4096;
	/* 300M used: 100M inactive file of which 20M dirty, 50M active,
	 * 10M slab, 120M anon, no swap. */
	in.usage = 300 * M;
	in.inactive_file = 100 * M;
	in.active_file = 50 * M;
	in.dirty = 15 * M;
	in.writeback = 5 * M;
	in.slab_reclaimable = 10 * M;
	in.anon_lru = 120 * M;
	in.swappiness = 60;
	return in;
}

START_TEST(reclaim_outcomes)
{
	struct preview_in in = base(2, PK_LIMIT, 200 * M);
	struct preview p;
	char s[400];

	preview_compute(&in, &p);
	ck_assert_uint_eq(p.need, 100 * M);
	ck_assert_uint_eq(p.part[PP_INACTIVE_FILE], 80 * M);
	ck_assert_uint_eq(p.part[PP_ACTIVE_FILE], 50 * M);
	ck_assert_uint_eq(p.part[PP_DIRTY], 20 * M);
	ck_assert_uint_eq(p.part[PP_SLAB], 10 * M);
	ck_assert_uint_eq(p.part[PP_ANON], 0);	/* no swap room */
	ck_assert_uint_eq(p.quick, 140 * M);
	ck_assert_uint_eq(p.slow, 20 * M);
	ck_assert_uint_eq(p.reclaimable, 160 * M);
	ck_assert_uint_eq(p.shortfall, 0);
	ck_assert_uint_eq(p.active_taken, 20 * M);
	ck_assert_int_eq(p.outcome, PV_FITS);
	preview_sentence(&in, &p, s, sizeof(s));
	ck_assert_str_eq(s, "the kernel reclaims 100M, file cache; 20.0M from "
			 "the active file list: refaults likely if it is in use");
	/* Below anon on v2: OOM, the victim named. */
	in.value = 100 * M;
	in.victim.pid = 42;
	in.victim.size = 118 * M;
	snprintf(in.victim.cmd, sizeof(in.victim.cmd), "memload anon 118");
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.shortfall, 40 * M);
	ck_assert_int_eq(p.outcome, PV_OOM);
	preview_sentence(&in, &p, s, sizeof(s));
	ck_assert_str_eq(s, "40.0M beyond what reclaim can free: the kernel "
			 "OOM-kills in the group, likely pid 42 (memload anon "
			 "118, 118M)");
	/* The same on v1: EBUSY (and v1's memory.stat has no slab). */
	in.version = 1;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.reclaimable, 150 * M);
	ck_assert_int_eq(p.outcome, PV_EBUSY);
	/* memory.high: throttle; memory.reclaim: EAGAIN. */
	in.version = 2;
	in.knob = PK_HIGH;
	preview_compute(&in, &p);
	ck_assert_int_eq(p.outcome, PV_THROTTLE);
	in.knob = PK_RECLAIM;
	in.value = 200 * M;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.need, 200 * M);
	ck_assert_int_eq(p.outcome, PV_EAGAIN);
	/* Swap room lets anon go, as far as the room; swappiness 0 not. */
	in.knob = PK_LIMIT;
	in.value = 100 * M;
	in.swap_room = 30 * M;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.part[PP_ANON], 30 * M);
	ck_assert_uint_eq(p.shortfall, 10 * M);
	in.swappiness = 0;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.part[PP_ANON], 0);
	/* v1 memsw: swapping does not lower memory+swap. */
	in.version = 1;
	in.knob = PK_MEMSW;
	in.swappiness = 60;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.part[PP_ANON], 0);
	/* The descendants' memory.min is not reclaimed. */
	in = base(2, PK_LIMIT, 200 * M);
	in.protected = 70 * M;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.reclaimable, 90 * M);
	ck_assert_uint_eq(p.shortfall, 10 * M);
	ck_assert_int_eq(p.outcome, PV_OOM);
	/* Above usage, or max: nothing. */
	in.value = 400 * M;
	preview_compute(&in, &p);
	ck_assert_int_eq(p.outcome, PV_NOTHING);
	in.unlimited = 1;
	in.value = VAL_MAX;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.need, 0);
}
END_TEST

/* Dirty cache beyond the inactive list is taken from the active one. */
START_TEST(dirty_split)
{
	struct preview_in in = base(2, PK_LIMIT, 200 * M);
	struct preview p;

	in.dirty = 110 * M;
	in.writeback = 10 * M;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.part[PP_INACTIVE_FILE], 0);
	ck_assert_uint_eq(p.part[PP_ACTIVE_FILE], 30 * M);
	ck_assert_uint_eq(p.part[PP_DIRTY], 120 * M);
	ck_assert_uint_eq(p.quick, 40 * M);
	ck_assert_uint_eq(p.slow, 120 * M);
}
END_TEST

/*
 * The parent (effective low 100M, usage 400M) of a (usage 200M, low 80M)
 * and b (usage 200M, low 40M): they claim 120M, more than 100M, so each
 * gets its claim * 100 / 120 (page_counter.c effective_protection): a
 * 66.67M, b 33.33M, in pages.  Raising b's to 80M: claims 160M, each
 * 80 * 100 / 160 = 50M.
 */
START_TEST(protection_overcommitted)
{
	struct preview_in in = base(2, PK_LOW, 80 * M);
	struct preview p;

	in.parent_usage = 400 * M;
	in.parent_eff = 100 * M;
	in.nsib = 2;
	in.self = 1;
	in.sib_usage[0] = in.sib_usage[1] = 200 * M;
	in.sib_setting[0] = 80 * M;
	in.sib_setting[1] = 40 * M;
	preview_compute(&in, &p);
	ck_assert_int_eq(p.outcome, PV_NOTHING);
	ck_assert_uint_eq(p.nsib, 2);
	/* 20480 pages * 25600 / 30720 = 17066 pages */
	ck_assert_uint_eq(p.eff_before[0], 17066ULL * 4096);
	ck_assert_uint_eq(p.eff_before[1], 8533ULL * 4096);
	ck_assert_uint_eq(p.eff_after[0], 50 * M);
	ck_assert_uint_eq(p.eff_after[1], 50 * M);
	/* Top level: the setting itself. */
	in.top_level = 1;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.eff_after[1], 80 * M);
	ck_assert_uint_eq(p.eff_before[1], 40 * M);
}
END_TEST

START_TEST(soft_rank)
{
	uint64_t ex[4] = { 50 * M, 10 * M, 0, 30 * M };
	struct preview_in in = base(1, PK_SOFT, 280 * M);
	struct preview p;

	in.ngroups = 4;
	in.soft_self = 2;
	in.soft_excess = ex;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.soft_excess, 20 * M);
	ck_assert_uint_eq(p.soft_rank, 3);	/* after 50M and 30M */
	in.value = 300 * M;
	preview_compute(&in, &p);
	ck_assert_uint_eq(p.soft_rank, 0);
}
END_TEST

START_TEST(badness)
{
	/* adj * (totalpages / 1000): 500 * (262144 / 1000) = 500 * 262 */
	ck_assert_int_eq(preview_badness(1000, 24, 500, 262144),
			 1024 + 500 * 262);
	ck_assert_int_eq(preview_badness(1000, 0, -999, 262144),
			 1000 - 999 * 262);
	ck_assert_int_eq(preview_badness(1000, 0, -1000, 262144), -1);
}
END_TEST

/* A memory.stat line's value, as the test reads it. */
static uint64_t stat_key(const char *file, const char *key)
{
	char k[64];
	unsigned long long v, r = 0;
	FILE *f = fopen(file, "r");

	ck_assert_ptr_nonnull(f);
	while (fscanf(f, "%63s %llu", k, &v) == 2)
		if (!strcmp(k, key))
			r = v;
	fclose(f);
	return r;
}

/* memory.max of fixture/bulk in sample 3 of v2-live: its parts are its
 * memory.stat's, the need its memory.current less 64M. */
START_TEST(fixture_bulk)
{
	const char *st = "tests/fixtures/v2-live/cg/3/fixture/bulk/memory.stat";
	struct cgfs_opts o = { .root = "tests/fixtures/v2-live/cg/3" };
	const struct knob *k = knob_find(2, "limit", 5);
	struct cgfs *cg = NULL;
	struct edit_plan plan;
	struct preview_in in;
	struct preview p;
	char err[512] = "";
	FILE *f;
	unsigned long long cur = 0;

	ck_assert_msg(cgfs_open(&o, &cg, err, sizeof(err)) == 0, "%s", err);
	ck_assert_msg(edit_plan(cg, "/fixture/bulk", k, "64M", &plan, err,
				sizeof(err)) == 0, "%s", err);
	edit_preview(cg, NULL, &plan, &in, &p);
	f = fopen("tests/fixtures/v2-live/cg/3/fixture/bulk/memory.current",
		  "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%llu", &cur), 1);
	fclose(f);
	ck_assert_uint_eq(p.need, cur - 64 * M);
	ck_assert_uint_eq(p.part[PP_INACTIVE_FILE],
			  stat_key(st, "inactive_file") -
			  stat_key(st, "file_dirty") -
			  stat_key(st, "file_writeback"));
	ck_assert_uint_eq(p.part[PP_ACTIVE_FILE], stat_key(st, "active_file"));
	ck_assert_uint_eq(p.part[PP_SLAB], stat_key(st, "slab_reclaimable"));
	/* No model: no system figures, so no swap room known. */
	ck_assert_uint_eq(p.part[PP_ANON], 0);
	ck_assert_int_eq(p.outcome, PV_FITS);
	cgfs_close(cg);
}
END_TEST

Suite *preview_suite(void)
{
	Suite *s = suite_create("preview");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reclaim_outcomes);
	tcase_add_test(tc, dirty_split);
	tcase_add_test(tc, protection_overcommitted);
	tcase_add_test(tc, soft_rank);
	tcase_add_test(tc, badness);
	tcase_add_test(tc, fixture_bulk);
	suite_add_tcase(s, tc);
	return s;
}
