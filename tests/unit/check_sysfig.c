/* SPDX-License-Identifier: GPL-2.0-or-later */
/* check_sysfig.c - unit tests: the table of the system figures has a row
 * for every figure, and the names the outputs print are well formed. */
#include <check.h>
#include <string.h>

#include "sysfig.h"
#include "units.h"

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

/* Every id has its row or lies inside an array's: a row left out in the
 * middle of the table would be all zeros. */
START_TEST(every_id_has_a_row)
{
	int id = 0;

	while (id < SYS_NR) {
		const struct sysfig *r = &sysfigs[id];

		ck_assert_msg(r->n > 0 && r->help, "id %d has no row", id);
		ck_assert_int_le(id + r->n, SYS_NR);
		for (int k = 1; k < r->n; k++)
			ck_assert_msg(sysfigs[id + k].n == 0 &&
				      !sysfigs[id + k].help,
				      "id %d is inside array %d", id + k, id);
		ck_assert_uint_eq(sysfig_ids(id) >> id,
				  (UINT64_C(1) << r->n) - 1);
		id += r->n;
	}
	ck_assert_int_eq(id, SYS_NR);
	ck_assert_int_eq(sysfigs[SYS_SCAN_PRIO].n, SYS_NPRIO);
	ck_assert_uint_eq(sysfig_ids(SYS_SCAN_PRIO + 1), 0);
}
END_TEST

START_TEST(names_and_places)
{
	for (int id = 0; id < SYS_NR; id++) {
		const struct sysfig *r = &sysfigs[id];

		if (!r->n)
			continue;
		/* The JSON rate of a counter says so; the OpenMetrics
		 * family of a size ends in its unit, a counter's does not
		 * end in _total (the sample adds it). */
		if (r->json && r->unit == SU_COUNTER && r->n == 1)
			ck_assert_msg(ends_with(r->json, "_per_s"), "%s",
				      r->json);
		if (r->om) {
			ck_assert_msg(!strncmp(r->om, "memcgtop_system_", 16),
				      "%s", r->om);
			ck_assert_int_eq(ends_with(r->om, "_bytes"),
					 r->unit == SU_BYTES);
			ck_assert(!ends_with(r->om, "_total"));
		}
		ck_assert_int_eq(r->label != NULL, r->om && r->n > 1);
		for (int j = id + 1; j < SYS_NR; j++) {
			if (r->json && sysfigs[j].json)
				ck_assert_str_ne(r->json, sysfigs[j].json);
			if (r->om && sysfigs[j].om)
				ck_assert_str_ne(r->om, sysfigs[j].om);
		}
		for (int a = 0; a < SYS_AT_NR; a++) {
			const struct sys_place *p = &r->at[a];

			ck_assert_int_ge(p->line, 0);
			ck_assert_int_le(p->line, SYS_LINES);
			ck_assert_int_eq(p->line > 0, p->pre && p->post);
		}
	}
}
END_TEST

START_TEST(counters_are_rated)
{
	uint64_t c = sysfig_counters();

	ck_assert(c & SBIT(SYS_PGSCAN));
	ck_assert(c & SBIT(SYS_PGSTEAL));
	ck_assert(!(c & SBIT(SYS_MEM_TOTAL)));
	ck_assert(!(c & SBIT(SYS_PSI_SOME10)));
	ck_assert(!(c & SBIT(SYS_LRU_GEN)));
}
END_TEST

Suite *sysfig_suite(void)
{
	Suite *s = suite_create("sysfig");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_id_has_a_row);
	tcase_add_test(tc, names_and_places);
	tcase_add_test(tc, counters_are_rated);
	suite_add_tcase(s, tc);
	return s;
}
