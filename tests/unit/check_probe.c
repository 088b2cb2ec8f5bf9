/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: where --probe stops, and what each step asks for. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "edit/probe.h"
#include "units.h"

#define MIB (1ull << 20)

static const struct probe_limits lim = {
	.refaults = MIB, .stall_us = 100000, .max = 100 * MIB, .secs = 60,
};

START_TEST(stops)
{
	struct probe_sofar so = { 0 };

	ck_assert_int_eq(probe_check(&lim, &so), PROBE_GOING);
	/* "Past" a limit is more than it; the caps are reached at them. */
	so.refaulted = MIB;
	so.stall_us = 100000;
	so.reclaimed = 100 * MIB - 1;
	so.secs = 59.99;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_GOING);
	so.refaulted = MIB + 1;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_REFAULTS);
	so.refaulted = 0;
	so.stall_us = 100001;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_STALL);
	so.stall_us = 0;
	so.reclaimed = 100 * MIB;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_CAP);
	so.reclaimed = 0;
	so.secs = 60;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_TIME);
	/* The pressure comes first: with it the last step was not cold. */
	so.reclaimed = 200 * MIB;
	so.refaulted = 2 * MIB;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_REFAULTS);
	so.refaulted = 0;
	so.stall_us = 200000;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_STALL);
	so.stall_us = 0;
	ck_assert_int_eq(probe_check(&lim, &so), PROBE_CAP);
}
END_TEST

START_TEST(next_step)
{
	ck_assert_uint_eq(probe_next(&lim, 8 * MIB, 0), 8 * MIB);
	ck_assert_uint_eq(probe_next(&lim, 8 * MIB, 92 * MIB), 8 * MIB);
	ck_assert_uint_eq(probe_next(&lim, 8 * MIB, 95 * MIB), 5 * MIB);
	ck_assert_uint_eq(probe_next(&lim, 8 * MIB, 100 * MIB), 0);
	/* A step that took more than it asked (the kernel's 32 pages a
	 * call) past the cap: nothing more. */
	ck_assert_uint_eq(probe_next(&lim, 8 * MIB, 101 * MIB), 0);
}
END_TEST

START_TEST(words)
{
	static const char *const w[] = {
		"going", "refaults", "stall", "cap", "time", "eagain",
		"signal", "error",
	};

	for (int i = PROBE_GOING; i <= PROBE_ERROR; i++)
		ck_assert_str_eq(probe_word((enum probe_stop)i), w[i]);
}
END_TEST

Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *t = tcase_create("core");

	tcase_add_test(t, stops);
	tcase_add_test(t, next_step);
	tcase_add_test(t, words);
	suite_add_tcase(s, t);
	return s;
}
