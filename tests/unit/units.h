/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit test suites, one per module. */
#ifndef MEMCGTOP_UNITS_H
#define MEMCGTOP_UNITS_H

#include <check.h>
#include <errno.h>

Suite *parse_suite(void);
Suite *fmt_suite(void);
Suite *model_suite(void);
Suite *columns_suite(void);
Suite *sysfig_suite(void);
Suite *config_suite(void);
Suite *knob_suite(void);
Suite *theme_suite(void);
Suite *cgfs_suite(void);
Suite *sysinfo_suite(void);
Suite *edit_suite(void);
Suite *reclaim_suite(void);
Suite *xalloc_suite(void);
Suite *prove_suite(void);

#endif
