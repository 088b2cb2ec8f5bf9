/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: which words of memcg->vmstats are which memory.stat values
 * (src/source/cgfs_prove.c), on arrays and files made here: the layouts
 * of Linux 6.18 (tables, measured on the host) and 6.1 (enum-indexed). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "bpf/bpfcol.h"
#include "source/cgfs_int.h"
#include "units.h"

#define PG 4096ULL

static int64_t raw[MR_NARR][MR_ARR_WORDS];
static struct memcg_layout lay;
static char text[4096];

/* 6.18's layout, as the host's BTF and the kernel's tables give it. */
static void layout_618(void)
{
	static const int ev[MR_NEV] = {
		[MR_EV_PGPGIN] = 0, [MR_EV_PGPGOUT] = 1, [MR_EV_PGFAULT] = 23,
		[MR_EV_PGMAJFAULT] = 24, [MR_EV_PGSCAN_KSWAPD] = 32,
		[MR_EV_PGSCAN_DIRECT] = 33, [MR_EV_PGSCAN_KHUGEPAGED] = 34,
		[MR_EV_PGSCAN_PROACTIVE] = 35, [MR_EV_PGSTEAL_KSWAPD] = 28,
		[MR_EV_PGSTEAL_DIRECT] = 29, [MR_EV_PGSTEAL_KHUGEPAGED] = 30,
		[MR_EV_PGSTEAL_PROACTIVE] = 31, [MR_EV_NR_VM_EVENT_ITEMS] = 119,
	};

	memset(&lay, 0, sizeof(lay));
	memset(raw, 0, sizeof(raw));
	lay.vmstats = 1;
	lay.words[MR_ARR_STATE] = 40;
	lay.words[MR_ARR_EVENTS] = 31;
	lay.words[MR_ARR_STATE_LOCAL] = 40;
	lay.words[MR_ARR_EVENTS_LOCAL] = 31;
	memcpy(lay.ev, ev, sizeof(ev));
	/* state: the five lists, then other items; anon 14, file 16,
	 * shmem 19 (positions made up: found by value). */
	raw[0][0] = 776; raw[0][1] = 377; raw[0][2] = 8179; raw[0][3] = 19662;
	raw[0][4] = 2654; raw[0][7] = 0; raw[0][8] = 88057;
	raw[0][14] = 1465; raw[0][16] = 30233; raw[0][19] = 2392;
	/* events: pgpgin, pgpgout, pswpin, pswpout, 4 scans, 4 steals,
	 * pgfault, pgmajfault. */
	raw[1][0] = 1973111; raw[1][1] = 1943674;
	raw[1][4] = 11; raw[1][5] = 2200; raw[1][6] = 3; raw[1][7] = 40;
	raw[1][8] = 7; raw[1][9] = 1500; raw[1][10] = 1; raw[1][11] = 30;
	raw[1][12] = 3502154; raw[1][13] = 1088;
	/* state_local: the root's own lists (inactive_anon 0). */
	raw[2][0] = 0; raw[2][1] = 374; raw[2][2] = 83; raw[2][3] = 150;
}

/* Arrays of zeros, a layout with no enum value and no local arrays. */
static void layout_bare(unsigned vmstats, unsigned state, unsigned events)
{
	memset(&lay, 0, sizeof(lay));
	memset(raw, 0, sizeof(raw));
	lay.vmstats = vmstats;
	lay.words[MR_ARR_STATE] = state;
	lay.words[MR_ARR_EVENTS] = events;
	for (int i = 0; i < MR_NEV; i++)
		lay.ev[i] = -1;
}

/* The v1 memory.stat those arrays make (the root's own keys beside). */
static size_t text_v1(long pgpgin)
{
	return (size_t)snprintf(text, sizeof(text),
		"cache 10752000\nrss 2605056\nshmem 9797632\n"
		"inactive_anon 0\nactive_anon %llu\ninactive_file %llu\n"
		"active_file %llu\nunevictable %llu\n"
		"total_cache %llu\ntotal_rss %llu\ntotal_shmem %llu\n"
		"total_workingset_refault_anon 0\n"
		"total_workingset_refault_file 88057\n"
		"total_pgpgin %ld\ntotal_pgpgout 1943674\n"
		"total_pgfault 3502154\ntotal_pgmajfault 1088\n"
		"total_inactive_anon %llu\ntotal_active_anon %llu\n"
		"total_inactive_file %llu\ntotal_active_file %llu\n"
		"total_unevictable %llu\n",
		374 * PG, 83 * PG, 150 * PG, 2654 * PG,
		30233 * PG, 1465 * PG, 2392 * PG, pgpgin,
		776 * PG, 377 * PG, 8179 * PG, 19662 * PG, 2654 * PG);
}

static const struct memcg_sel *sel(const struct cgfs_prove *pr, int slot)
{
	return &cgfs_prove_sels(pr)->sel[slot - MR_FIRST_STAT];
}

static void assert_sel(const struct cgfs_prove *pr, int slot, int arr,
		       int n, const int *idx)
{
	const struct memcg_sel *s = sel(pr, slot);

	ck_assert_msg(cgfs_prove_proven(pr) & MR_SET(slot),
		      "slot %d not proven", slot);
	ck_assert_int_eq(s->arr, arr);
	ck_assert_int_eq(s->n, n);
	for (int k = 0; k < n; k++)
		ck_assert_int_eq(s->idx[k], idx[k]);
}

START_TEST(v1_618_all_proven)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(1), PG);
	size_t n;

	layout_618();
	n = text_v1(1973111);
	/* The lists at once (their own places); a search's word the
	 * second time it is found, and the rule with pgfault's. */
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_ANON)));
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_PGSCAN)));
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	ck_assert(cgfs_prove_complete(pr));
	/* The lists at their own places, the root's own lists at the same
	 * places of state_local (inactive_anon's 0 there too). */
	assert_sel(pr, MR_ST_INACTIVE_ANON, MR_ARR_STATE, 1, (int[]){ 0 });
	assert_sel(pr, MR_ST_UNEVICTABLE, MR_ARR_STATE, 1, (int[]){ 4 });
	assert_sel(pr, MR_ST_OWN_INACTIVE_ANON, MR_ARR_STATE_LOCAL, 1, (int[]){ 0 });
	assert_sel(pr, MR_ST_OWN_ACTIVE_FILE, MR_ARR_STATE_LOCAL, 1, (int[]){ 3 });
	/* By value: anon, file, shmem; refaults (anon's 0 beside file's). */
	assert_sel(pr, MR_ST_ANON, MR_ARR_STATE, 1, (int[]){ 14 });
	assert_sel(pr, MR_ST_FILE, MR_ARR_STATE, 1, (int[]){ 16 });
	assert_sel(pr, MR_ST_SHMEM, MR_ARR_STATE, 1, (int[]){ 19 });
	assert_sel(pr, MR_ST_REFAULT_FILE, MR_ARR_STATE, 1, (int[]){ 8 });
	assert_sel(pr, MR_ST_REFAULT_ANON, MR_ARR_STATE, 1, (int[]){ 7 });
	assert_sel(pr, MR_ST_PGFAULT, MR_ARR_EVENTS, 1, (int[]){ 12 });
	assert_sel(pr, MR_ST_PGMAJFAULT, MR_ARR_EVENTS, 1, (int[]){ 13 });
	/* The events rule: 4 scans and 4 steals just before pgfault. */
	assert_sel(pr, MR_ST_PGSCAN_KSWAPD, MR_ARR_EVENTS, 1, (int[]){ 4 });
	assert_sel(pr, MR_ST_PGSCAN_DIRECT, MR_ARR_EVENTS, 1, (int[]){ 5 });
	assert_sel(pr, MR_ST_PGSTEAL_DIRECT, MR_ARR_EVENTS, 1, (int[]){ 9 });
	assert_sel(pr, MR_ST_PGSCAN, MR_ARR_EVENTS, 4, (int[]){ 4, 5, 6, 7 });
	assert_sel(pr, MR_ST_PGSTEAL, MR_ARR_EVENTS, 4, (int[]){ 8, 9, 10, 11 });
	/* Words to read: up to pgmajfault's, the lists' and shmem's. */
	ck_assert_uint_eq(cgfs_prove_sels(pr)->words[MR_ARR_EVENTS], 14);
	ck_assert_uint_eq(cgfs_prove_sels(pr)->words[MR_ARR_STATE], 20);
	ck_assert_uint_eq(cgfs_prove_sels(pr)->words[MR_ARR_STATE_LOCAL], 4);
	/* Nothing new the second time. */
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 0);
	cgfs_prove_free(pr);
}
END_TEST

/* v1's pgscan has no key: without the pgpgin check the rule is refused. */
START_TEST(v1_rule_refused_unchecked)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(1), PG);
	size_t n;

	layout_618();
	n = text_v1(1973112);
	cgfs_prove_update(pr, text, n, &lay, raw);
	cgfs_prove_update(pr, text, n, &lay, raw);
	ck_assert(!cgfs_prove_complete(pr));
	ck_assert(cgfs_prove_proven(pr) & MR_BIT(ST_PGFAULT));
	ck_assert(!(cgfs_prove_proven(pr) & (MR_BIT(ST_PGSCAN) |
		    MR_BIT(ST_PGSTEAL) | MR_BIT(ST_PGSCAN_DIRECT))));
	/* No file value: not known 0 either. */
	ck_assert(!(cgfs_prove_zero(pr) & MR_BIT(ST_PGSCAN)));
	cgfs_prove_free(pr);
}
END_TEST

/* A start group no task ever ran in: every value 0, pgfault's word
 * unprovable, the rule waiting for it, the proof not complete (the pass
 * then proves at the root); another group's file and arrays (the root's)
 * prove the words, which then hold for the start too. */
START_TEST(v1_empty_start_needs_root)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(1), PG);
	static const char empty[] =
		"total_pgpgin 0\ntotal_pgpgout 0\ntotal_pgfault 0\n"
		"total_pgmajfault 0\ntotal_inactive_anon 0\n"
		"total_active_anon 0\ntotal_inactive_file 0\n"
		"total_active_file 0\ntotal_unevictable 0\n";
	int64_t zero[MR_NARR][MR_ARR_WORDS] = { { 0 } };
	size_t n;

	layout_618();
	for (int k = 0; k < 3; k++)
		cgfs_prove_update(pr, empty, sizeof(empty) - 1, &lay, zero);
	ck_assert(!cgfs_prove_complete(pr));
	ck_assert(!(cgfs_prove_proven(pr) & CGFS_RULE_SLOTS));
	ck_assert(!(cgfs_prove_zero(pr) & MR_BIT(ST_PGSCAN)));
	/* The root's, twice (a word is taken when found twice running). */
	n = text_v1(1973111);
	cgfs_prove_update(pr, text, n, &lay, raw);
	cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_PGFAULT, MR_ARR_EVENTS, 1, (int[]){ 12 });
	assert_sel(pr, MR_ST_PGSCAN, MR_ARR_EVENTS, 4,
		   (int[]){ 4, 5, 6, 7 });
	/* The start's file again: the words stay, its zeros apply. */
	cgfs_prove_update(pr, empty, sizeof(empty) - 1, &lay, zero);
	ck_assert((cgfs_prove_proven(pr) & CGFS_RULE_SLOTS) ==
		  CGFS_RULE_SLOTS);
	ck_assert(cgfs_prove_zero(pr) & MR_BIT(ST_ACTIVE_ANON) ||
		  cgfs_prove_proven(pr) & MR_BIT(ST_ACTIVE_ANON));
	cgfs_prove_free(pr);
}
END_TEST

/* A value two words hold is not proven; a 0 not beside a proven value is
 * known 0 (this refresh), not proven; a size not in whole pages is not. */
START_TEST(ambiguous_and_zero)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(1), PG);
	size_t n;

	layout_618();
	raw[0][30] = 1465;		/* anon's value twice */
	raw[0][19] = 0;			/* shmem 0 */
	n = text_v1(1973111);
	/* shmem 0 in the file; cache not whole pages. */
	char *p = strstr(text, "total_shmem ");
	ck_assert_ptr_nonnull(p);
	memcpy(p, "total_shmex ", 12);
	n += (size_t)snprintf(text + n, sizeof(text) - n, "total_shmem 0\n");
	p = strstr(text, "total_cache ");
	memcpy(p, "total_cachx ", 12);
	n += (size_t)snprintf(text + n, sizeof(text) - n,
			      "total_cache %llu\n", 30233 * PG + 1);
	cgfs_prove_update(pr, text, n, &lay, raw);
	cgfs_prove_update(pr, text, n, &lay, raw);
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_ANON)));
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_SHMEM)));
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_FILE)));
	ck_assert(cgfs_prove_zero(pr) & MR_BIT(ST_SHMEM));
	ck_assert(!(cgfs_prove_zero(pr) & MR_BIT(ST_ANON)));
	/* Values move: proven once they are told apart, twice. */
	raw[0][30] = 1466;
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 0);
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	assert_sel(pr, MR_ST_ANON, MR_ARR_STATE, 1, (int[]){ 14 });
	cgfs_prove_free(pr);
}
END_TEST

/* 6.1: events[] indexed by enum vm_event_item, no local arrays; v2's
 * keys.  The rule's words must hold the file's values where it has
 * them. */
START_TEST(v2_61_enum_indexed)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(2), PG);
	size_t n;

	layout_bare(2, 48, 90);
	lay.ev[MR_EV_PGFAULT] = 20;
	lay.ev[MR_EV_PGMAJFAULT] = 21;
	lay.ev[MR_EV_PGSCAN_KSWAPD] = 40;
	lay.ev[MR_EV_PGSCAN_DIRECT] = 41;
	lay.ev[MR_EV_PGSCAN_KHUGEPAGED] = 42;
	lay.ev[MR_EV_PGSTEAL_KSWAPD] = 36;
	lay.ev[MR_EV_PGSTEAL_DIRECT] = 37;
	lay.ev[MR_EV_PGSTEAL_KHUGEPAGED] = 38;
	lay.ev[MR_EV_NR_VM_EVENT_ITEMS] = 90;
	raw[0][0] = 10; raw[0][1] = 20; raw[0][2] = 30; raw[0][3] = 40;
	raw[0][4] = 0;
	raw[1][20] = 123456; raw[1][40] = 70; raw[1][41] = 30; raw[1][42] = 5;
	raw[1][36] = 60; raw[1][37] = 20; raw[1][38] = 1;
	n = (size_t)snprintf(text, sizeof(text),
		"anon 0\nfile 0\ninactive_anon %llu\nactive_anon %llu\n"
		"inactive_file %llu\nactive_file %llu\nunevictable 0\n"
		"pgfault 123456\npgscan 105\npgsteal 81\n"
		"pgscan_kswapd 70\npgscan_direct 30\n"
		"pgsteal_kswapd 60\npgsteal_direct 19\n",
		10 * PG, 20 * PG, 30 * PG, 40 * PG);
	cgfs_prove_update(pr, text, n, &lay, raw);
	cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_UNEVICTABLE, MR_ARR_STATE, 1, (int[]){ 4 });
	assert_sel(pr, MR_ST_PGFAULT, MR_ARR_EVENTS, 1, (int[]){ 20 });
	assert_sel(pr, MR_ST_PGSCAN, MR_ARR_EVENTS, 3, (int[]){ 40, 41, 42 });
	assert_sel(pr, MR_ST_PGSTEAL, MR_ARR_EVENTS, 3, (int[]){ 36, 37, 38 });
	assert_sel(pr, MR_ST_PGSCAN_DIRECT, MR_ARR_EVENTS, 1, (int[]){ 41 });
	/* pgsteal_direct 19 in the file, 20 in the word: refused. */
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_PGSTEAL_DIRECT)));
	/* anon 0, file 0: known 0, not proven. */
	ck_assert(cgfs_prove_zero(pr) & MR_BIT(ST_ANON));
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_ANON)));
	cgfs_prove_free(pr);
}
END_TEST

/*
 * The regression a v2 VM showed (6.1; 7.x keeps the scans in state[],
 * where no rule applies): with direct reclaim only, memory.stat's pgscan
 * equals the one word of PGSCAN_DIRECT, and was taken for it; kswapd's
 * pages were then missing from pgscan.  A sum is never found by search.
 */
/* 7.x: pgscan and pgsteal have no word of their own and no rule.  The
 * one word that holds the sum's value (direct only, so far) is never
 * proven to be the sum; the sum is taken from its proven parts for one
 * refresh at a time, while the start group's file shows it equal to
 * them. */
START_TEST(sum_not_one_word)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(2), PG);
	size_t n;

	layout_bare(1, 60, 20);		/* 7.x: no PGSCAN_* vm event */
	raw[0][0] = 10; raw[0][1] = 20; raw[0][2] = 30; raw[0][3] = 40;
	raw[0][41] = 6413;		/* PGSCAN_DIRECT */
	raw[0][35] = 2346;		/* PGSTEAL_DIRECT */
	n = (size_t)snprintf(text, sizeof(text),
		"pgscan 6413\npgsteal 2346\npgscan_kswapd 0\n"
		"pgscan_direct 6413\npgsteal_kswapd 0\npgsteal_direct 2346\n");
	for (int i = 0; i < 3; i++)
		cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_PGSCAN_DIRECT, MR_ARR_STATE, 1, (int[]){ 41 });
	assert_sel(pr, MR_ST_PGSTEAL_DIRECT, MR_ARR_STATE, 1, (int[]){ 35 });
	/* kswapd 0 in the start group: the sums are the direct words. */
	assert_sel(pr, MR_ST_PGSCAN, MR_ARR_STATE, 1, (int[]){ 41 });
	assert_sel(pr, MR_ST_PGSTEAL, MR_ARR_STATE, 1, (int[]){ 35 });
	/* kswapd starts: its word is not proven yet (seen once), so the
	 * sums are not the direct words any more: from the files. */
	raw[0][40] = 587;		/* PGSCAN_KSWAPD */
	raw[0][34] = 500;		/* PGSTEAL_KSWAPD */
	n = (size_t)snprintf(text, sizeof(text),
		"pgscan 7000\npgsteal 2846\npgscan_kswapd 587\n"
		"pgscan_direct 6413\npgsteal_kswapd 500\npgsteal_direct 2346\n");
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	ck_assert(!(cgfs_prove_proven(pr) & (MR_BIT(ST_PGSCAN) | MR_BIT(ST_PGSTEAL))));
	/* Seen twice: kswapd proven, the sums are both parts. */
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	assert_sel(pr, MR_ST_PGSCAN, MR_ARR_STATE, 2, (int[]){ 40, 41 });
	assert_sel(pr, MR_ST_PGSTEAL, MR_ARR_STATE, 2, (int[]){ 34, 35 });
	/* The same again: nothing to select anew. */
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 0);
	/* khugepaged scans (no slot of its own): the sum exceeds the parts
	 * in the start group, so below it too, maybe: from the files. */
	n = (size_t)snprintf(text, sizeof(text),
		"pgscan 7100\npgsteal 2846\npgscan_kswapd 587\n"
		"pgscan_direct 6413\npgsteal_kswapd 500\npgsteal_direct 2346\n");
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_PGSCAN)));
	assert_sel(pr, MR_ST_PGSTEAL, MR_ARR_STATE, 2, (int[]){ 34, 35 });
	cgfs_prove_free(pr);
}
END_TEST

/* A value that moved between the read and the walk: the word that holds
 * the old value by chance is found once, and not again: not proven. */
START_TEST(moved_value_coincidence)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(1), PG);
	size_t n;

	layout_618();
	n = text_v1(1973111);
	raw[1][12] = 3502160;		/* pgfault moved on */
	raw[1][20] = 3502154;		/* another word holds the old value */
	cgfs_prove_update(pr, text, n, &lay, raw);
	raw[1][12] = 3502154;		/* at rest: the true word holds it */
	raw[1][20] = 7;
	cgfs_prove_update(pr, text, n, &lay, raw);
	ck_assert(!(cgfs_prove_proven(pr) & MR_BIT(ST_PGFAULT)));
	cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_PGFAULT, MR_ARR_EVENTS, 1, (int[]){ 12 });
	cgfs_prove_free(pr);
}
END_TEST

/* No vmstats in this kernel's BTF: nothing proven, nothing known. */
START_TEST(no_vmstats)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(1), PG);
	size_t n;

	layout_618();
	lay.vmstats = 0;
	n = text_v1(1973111);
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 0);
	ck_assert_uint_eq(cgfs_prove_proven(pr), 0);
	ck_assert_uint_eq(cgfs_prove_zero(pr), 0);
	cgfs_prove_free(pr);
}
END_TEST

/*
 * 7.x with the kernel's memcg kfuncs (memcg_layout.kf): the slots the
 * file shows and the program can read through them are taken at once,
 * by the kernel's enums, even the sums no word proves and values the
 * start group has at 0; a slot the file does not show is not.  The
 * program without them (loaded again) drops them, and they are proven
 * anew from the words.
 */
START_TEST(v2_kfuncs)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(2), PG);
	mr_set kf = MR_BIT(ST_INACTIVE_ANON) | MR_BIT(ST_ACTIVE_ANON) |
		MR_BIT(ST_INACTIVE_FILE) | MR_BIT(ST_ACTIVE_FILE) |
		MR_BIT(ST_UNEVICTABLE) | MR_BIT(ST_PGSCAN) |
		MR_BIT(ST_PGSTEAL) | MR_BIT(ST_ANON) | MR_BIT(ST_ZSWAPPED);
	char d[768];
	size_t n;

	layout_bare(1, 60, 20);
	lay.kf = mr_stat_bits(kf);
	raw[0][0] = 10; raw[0][1] = 20; raw[0][2] = 30; raw[0][3] = 40;
	raw[0][41] = 6413;		/* PGSCAN_DIRECT */
	n = (size_t)snprintf(text, sizeof(text),
		"anon 0\ninactive_anon %llu\nactive_anon %llu\n"
		"inactive_file %llu\nactive_file %llu\nunevictable 0\n"
		"pgscan 6413\npgsteal 2346\npgscan_direct 6413\n",
		10 * PG, 20 * PG, 30 * PG, 40 * PG);
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	for (int s = MR_FIRST_STAT; s < MR_NSLOTS; s++) {
		mr_set bit = MR_SET(s);
		/* zswapped: not in the file */
		int want = (kf & bit) && s != MR_ST_ZSWAPPED;

		/* pgscan_direct's word: found once, not proven yet */
		ck_assert_msg(!!(cgfs_prove_proven(pr) & bit) == want,
			      "slot %s proven %d", bpfcol_slot_key((enum mr_slot)s),
			      !!(cgfs_prove_proven(pr) & bit));
		if (want) {
			ck_assert_uint_eq(cgfs_prove_sels(pr)->sel[s - MR_FIRST_STAT].arr,
					  MR_SEL_KF);
			ck_assert_uint_eq(cgfs_prove_sels(pr)->sel[s - MR_FIRST_STAT].n, 1);
		}
	}
	/* pgscan_direct: no kfunc slot here, so its word as before, once
	 * seen twice; the kfuncs' slots stay as they are. */
	cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_PGSCAN_DIRECT, MR_ARR_STATE, 1, (int[]){ 41 });
	ck_assert_uint_eq(cgfs_prove_sels(pr)->sel[MR_ST_PGSCAN - MR_FIRST_STAT].arr,
			  MR_SEL_KF);
	cgfs_prove_describe(pr, d, sizeof(d));
	/* Of the values the file shows and the rule's (12): kswapd's and
	 * direct's pgsteal and kswapd's pgscan the file lacks. */
	ck_assert_str_eq(d, "memory.stat: 9 of 12 values from the pass (8 "
			 "through the kernel's memcg kfuncs, by its enum items; "
			 "memcg->vmstats: 1 words proven against the start "
			 "group's memory.stat, 0 by the events rule, 0 sums from "
			 "their parts this refresh; 0 at the start group's 0); "
			 "the others from the files");
	/* The program without the kfuncs: their slots go, the lists come
	 * back from their words (the first five of state[]). */
	lay.kf = 0;
	ck_assert_int_eq(cgfs_prove_update(pr, text, n, &lay, raw), 1);
	ck_assert(!(cgfs_prove_proven(pr) & (MR_BIT(ST_PGSCAN) | MR_BIT(ST_PGSTEAL))));
	assert_sel(pr, MR_ST_ACTIVE_FILE, MR_ARR_STATE, 1, (int[]){ 3 });
	cgfs_prove_free(pr);
}
END_TEST

/*
 * A file's pages equal to its inactive list's (the active list empty):
 * two words hold the value.  The list's word is proven at its own place,
 * so the other is the file's; before, the search found two and proved
 * neither, and the file's value came from every group's memory.stat.
 */
/*
 * The kernel's units (memstat.h): file_dirty in pages, slab_reclaimable in
 * bytes, kernel_stack in KiB; each word is proven by the file's value in
 * its own unit (a word holding the value in another unit is no match), and
 * the loader turns it back into bytes by the same unit.
 */
START_TEST(v2_units)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(2), PG);
	size_t n;

	layout_bare(1, 60, 20);
	raw[0][20] = 7;			/* NR_FILE_DIRTY, pages */
	raw[0][30] = 123456;		/* NR_SLAB_RECLAIMABLE_B, bytes */
	raw[0][40] = 96;		/* NR_KERNEL_STACK_KB */
	raw[0][41] = 96 * 1024;		/* kernel_stack's bytes elsewhere */
	n = (size_t)snprintf(text, sizeof(text),
		"file_dirty %llu\nslab_reclaimable 123456\n"
		"kernel_stack 98304\n", 7 * PG);
	cgfs_prove_update(pr, text, n, &lay, raw);
	cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_FILE_DIRTY, MR_ARR_STATE, 1, (int[]){ 20 });
	assert_sel(pr, MR_ST_SLAB_RECLAIMABLE, MR_ARR_STATE, 1, (int[]){ 30 });
	assert_sel(pr, MR_ST_KERNEL_STACK, MR_ARR_STATE, 1, (int[]){ 40 });
	ck_assert_uint_eq(bpfcol_slot_unit(MR_ST_FILE_DIRTY, PG), PG);
	ck_assert_uint_eq(bpfcol_slot_unit(MR_ST_SLAB_RECLAIMABLE, PG), 1);
	ck_assert_uint_eq(bpfcol_slot_unit(MR_ST_KERNEL_STACK, PG), 1024);
	ck_assert_uint_eq(bpfcol_slot_unit(MR_ST_PGFAULT, PG), 1);
	cgfs_prove_free(pr);
}
END_TEST

START_TEST(same_value_taken_word)
{
	struct cgfs_prove *pr = cgfs_prove_new(cgfs_version_of(2), PG);
	size_t n;

	layout_bare(1, 40, 20);
	raw[0][0] = 10; raw[0][1] = 20; raw[0][2] = 300; raw[0][3] = 0;
	raw[0][16] = 300;		/* NR_FILE_PAGES */
	n = (size_t)snprintf(text, sizeof(text),
		"file %llu\ninactive_anon %llu\nactive_anon %llu\n"
		"inactive_file %llu\nactive_file 0\n",
		300 * PG, 10 * PG, 20 * PG, 300 * PG);
	/* The list at once; the file's word found alone from the second
	 * read on, proven at the third (found twice running). */
	for (int i = 0; i < 3; i++)
		cgfs_prove_update(pr, text, n, &lay, raw);
	assert_sel(pr, MR_ST_INACTIVE_FILE, MR_ARR_STATE, 1, (int[]){ 2 });
	assert_sel(pr, MR_ST_FILE, MR_ARR_STATE, 1, (int[]){ 16 });
	cgfs_prove_free(pr);
}
END_TEST

Suite *prove_suite(void)
{
	Suite *s = suite_create("prove");
	TCase *t = tcase_create("words");

	tcase_add_test(t, v1_618_all_proven);
	tcase_add_test(t, v1_rule_refused_unchecked);
	tcase_add_test(t, v1_empty_start_needs_root);
	tcase_add_test(t, ambiguous_and_zero);
	tcase_add_test(t, v2_61_enum_indexed);
	tcase_add_test(t, sum_not_one_word);
	tcase_add_test(t, moved_value_coincidence);
	tcase_add_test(t, no_vmstats);
	tcase_add_test(t, v2_kfuncs);
	tcase_add_test(t, same_value_taken_word);
	tcase_add_test(t, v2_units);
	suite_add_tcase(s, t);
	return s;
}
