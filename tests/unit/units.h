/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unit test suites, one per module. */
#ifndef MEMCGTOP_UNITS_H
#define MEMCGTOP_UNITS_H

#include <check.h>
#include <errno.h>

#include "sample.h"

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
Suite *history_suite(void);
Suite *pipeline_suite(void);
Suite *rightsize_suite(void);
Suite *preview_suite(void);
Suite *probe_suite(void);

/* Two field sets (sample.h) equal, all 128 bits; both printed if not. */
#define ck_assert_fields_eq(a, b) do {					\
		fieldset a_ = (a), b_ = (b);				\
		ck_assert_msg(a_ == b_, "fields %016llx%016llx != %016llx%016llx", \
			      (unsigned long long)(a_ >> 64),		\
			      (unsigned long long)a_,			\
			      (unsigned long long)(b_ >> 64),		\
			      (unsigned long long)b_);			\
	} while (0)

#endif
