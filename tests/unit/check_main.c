/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Runs every unit test suite; Check prints its closing line. */
#include <check.h>
#include <stdlib.h>

#include "units.h"

int main(void)
{
	SRunner *sr;
	int failed;

	/*
	 * Check's timeout guards against a hang, not a slow run: its 4 s
	 * default came within reach of fmt's 400,000 printf comparisons
	 * under ASan on a loaded machine.  A caller's own setting stays.
	 * Read by tcase_create, so before the suites are made.
	 */
	setenv("CK_DEFAULT_TIMEOUT", "120", 0);
	sr = srunner_create(parse_suite());

	srunner_add_suite(sr, fmt_suite());
	srunner_add_suite(sr, model_suite());
	srunner_add_suite(sr, columns_suite());
	srunner_add_suite(sr, sysfig_suite());
	srunner_add_suite(sr, config_suite());
	srunner_add_suite(sr, knob_suite());
	srunner_add_suite(sr, theme_suite());
	srunner_add_suite(sr, cgfs_suite());
	srunner_add_suite(sr, sysinfo_suite());
	srunner_add_suite(sr, edit_suite());
	srunner_add_suite(sr, reclaim_suite());
	srunner_add_suite(sr, xalloc_suite());
	srunner_add_suite(sr, prove_suite());
	srunner_add_suite(sr, history_suite());
	srunner_add_suite(sr, pipeline_suite());
	srunner_add_suite(sr, rightsize_suite());
	srunner_add_suite(sr, preview_suite());
	srunner_add_suite(sr, probe_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
