/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the column table's invariants, values, order, formatting. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "columns.h"
#include "parse.h"
#include "units.h"

/* The keys scripts rely on, in the order JSON and CSV print them. */
static const char *const required[] = {
	"path", "depth", "usage", "limit", "high", "low", "min", "soft",
	"excess", "eff_min", "eff_low", "eff_limit", "use_pct", "swap", "swap_limit", "swappiness",
	"anon", "file", "shmem", "kernel", "active_anon", "inactive_anon",
	"active_file", "inactive_file", "unevictable",
	"file_mapped", "file_dirty", "file_writeback", "swapcached",
	"anon_thp", "file_thp", "slab_reclaimable", "slab_unreclaimable",
	"kernel_stack", "pagetables", "sock",
	"pgscan", "pgscan_per_s", "pgsteal", "pgsteal_per_s",
	"pgscan_kswapd", "pgscan_kswapd_per_s", "pgscan_direct",
	"pgscan_direct_per_s", "pgsteal_kswapd", "pgsteal_kswapd_per_s",
	"pgsteal_direct", "pgsteal_direct_per_s", "reclaim_eff",
	"refault_anon", "refault_anon_per_s", "refault_file",
	"refault_file_per_s", "pgfault", "pgfault_per_s", "pgmajfault",
	"pgmajfault_per_s", "ev_low", "ev_low_per_s", "ev_high",
	"ev_high_per_s", "ev_max", "ev_max_per_s", "ev_oom", "ev_oom_per_s",
	"ev_oom_kill", "ev_oom_kill_per_s", "failcnt", "failcnt_per_s",
	"failcnt_tree", "failcnt_tree_per_s",
	"psi_some_avg10", "psi_full_avg10", "procs",
	"peak", "swap_peak", "usage_swap", "workingset", "rec_limit",
	"rec_high", "rec_low", "zswap", "zswapped",
	"ev_low_local", "ev_low_local_per_s", "ev_high_local",
	"ev_high_local_per_s", "ev_max_local", "ev_max_local_per_s",
	"ev_oom_local", "ev_oom_local_per_s", "ev_oom_kill_local",
	"ev_oom_kill_local_per_s", "swap_ev_high", "swap_ev_high_per_s",
	"swap_ev_max", "swap_ev_max_per_s", "swap_ev_fail",
	"swap_ev_fail_per_s", "dying", "scan_prio", "prio_min", "reclaim_stall", "reclaim_stall_per_s",
	"soft_tree_excess", "soft_rank", "soft_pgscan", "soft_pgscan_per_s",
	"soft_pgsteal", "soft_pgsteal_per_s", "eff_min_last", "eff_low_last",
	"stats_pending",
	"prio_min_kswapd", "prio_min_direct", "prio_min_proactive",
	"prio_min_soft", "numa",
};

/*
 * A column of a value one file gives (fields.h) says, on each version that
 * has it, where it comes from: the key it is read from, or the file's
 * name, so that help, --list-columns, the man page and the OpenMetrics
 * HELP lines cannot name another file than the one read.  Made values
 * (swap, usage_swap) and the events' are described in prose.
 */
START_TEST(help_names_the_source)
{
	for (size_t i = 0; i < ncolumns; i++) {
		const struct column *c = &columns[i];

		if (c->field < 0 || c->unit == U_RATE || c->kind != CK_VALUE)
			continue;
		for (int v = 1; v <= 2; v++) {
			const char *file, *key, *want;

			if (!cgfs_field_source(v, (enum field)c->field, &file,
					       &key))
				continue;
			want = key ? key : file;
			ck_assert_msg(strstr(c->help, want),
				      "column %s: its help does not say v%d's "
				      "%s", c->key, v, want);
		}
	}
}
END_TEST

START_TEST(table_invariants)
{
	size_t nreq = sizeof(required) / sizeof(required[0]);

	ck_assert_uint_eq(ncolumns, nreq);
	for (size_t i = 0; i < ncolumns; i++) {
		const struct column *c = &columns[i];
		size_t kl = strlen(c->key);

		ck_assert_str_eq(c->key, required[i]);
		ck_assert_ptr_eq(col_find(c->key), c);
		ck_assert_uint_eq(col_index(c), i);
		ck_assert(c->help && strlen(c->help) > 10);
		ck_assert(c->title && *c->title);
		if (c->unit != U_PATH)
			ck_assert_int_ge(c->width, (int)strlen(c->title));
		for (size_t j = 0; j < i; j++) {
			ck_assert_str_ne(columns[j].key, c->key);
			if (c->unit != U_PATH)
				ck_assert_str_ne(columns[j].title, c->title);
		}
		/* A rate is named after its counter and follows it (a
		 * derived count, failcnt_tree, has a derived rate). */
		if (c->unit == U_RATE) {
			ck_assert(kl > 6 && !strcmp(c->key + kl - 6, "_per_s"));
			ck_assert_int_eq(columns[i - 1].unit, U_COUNT);
			ck_assert(!strncmp(columns[i - 1].key, c->key, kl - 6) &&
				  strlen(columns[i - 1].key) == kl - 6);
			if (c->derived < 0) {
				ck_assert(field_is_counter((enum field)c->field));
				ck_assert_int_eq(columns[i - 1].field, c->field);
			}
		}
		if (c->unit == U_COUNT && c->derived < 0)
			ck_assert(field_is_counter((enum field)c->field));
		/* A column that shows a field reads it. */
		if (c->field >= 0)
			ck_assert(c->fields & FBIT(c->field));
	}
	ck_assert_ptr_null(col_find("nonsense"));
	ck_assert_ptr_null(col_find(""));
}
END_TEST

static struct mgroup *mk(uint64_t usage, int has_usage)
{
	struct mgroup *g = calloc(1, sizeof(*g) + sizeof("/x"));

	strcpy(g->path, "/x");
	g->cur.slots = FBIT(FLD_USAGE) | FBIT(FLD_LIMIT);
	g->cur.v = g->buf = calloc(2, sizeof(uint64_t));
	if (has_usage)
		sample_set(&g->cur, FLD_USAGE, usage);
	return g;
}

START_TEST(compare_not_available_last)
{
	const struct column *c = col_find("usage");
	const struct column *lim = col_find("limit");
	struct mgroup *a = mk(10, 1), *b = mk(20, 1), *na = mk(0, 0);
	struct model m;

	model_init(&m, 1);
	ck_assert_int_lt(col_compare(c, a, b, 0), 0);
	ck_assert_int_gt(col_compare(c, a, b, 1), 0);
	ck_assert_int_lt(col_compare(c, a, na, 0), 0);
	ck_assert_int_lt(col_compare(c, a, na, 1), 0);
	ck_assert_int_gt(col_compare(c, na, b, 1), 0);
	ck_assert_int_eq(col_compare(c, na, na, 1), 0);
	/* "max" is above every number. */
	sample_set(&a->cur, FLD_LIMIT, VAL_MAX);
	sample_set(&b->cur, FLD_LIMIT, 1ULL << 40);
	ck_assert_int_lt(col_compare(lim, a, b, 1), 0);
	ck_assert_int_gt(col_compare(lim, a, b, 0), 0);
	ck_assert_int_lt(col_compare(lim, a, na, 0), 0);
	for (struct mgroup *g[] = { a, b, na }, **p = g; p < g + 3; p++) {
		free((*p)->buf);
		free(*p);
	}
}
END_TEST

static const char *show(const char *key, struct cval v, int human)
{
	static char buf[64];

	col_format(col_find(key), v, human, buf, sizeof(buf));
	return buf;
}

START_TEST(formatting_by_unit)
{
	struct cval na = { CV_NA, 0, 0 }, max = { CV_MAX, 0, 0 };
	struct cval b = { CV_NUM, 1610612736, 0 };
	struct cval r = { CV_DBL, 0, 1234.5678 };
	struct cval pct = { CV_DBL, 0, 99.123 };
	struct cval eff = { CV_DBL, 0, 0.80409 };
	struct cval psi = { CV_NUM, 2848, 0 }, psi0 = { CV_NUM, 5, 0 };

	ck_assert_str_eq(show("usage", na, 1), "-");
	ck_assert_str_eq(show("limit", max, 0), "max");
	ck_assert_str_eq(show("usage", b, 1), "1.5G");
	ck_assert_str_eq(show("usage", b, 0), "1610612736");
	ck_assert_str_eq(show("pgscan_per_s", r, 1), "1.2k");
	ck_assert_str_eq(show("pgscan_per_s", r, 0), "1234.568");
	ck_assert_str_eq(show("use_pct", pct, 1), "99.1");
	ck_assert_str_eq(show("use_pct", pct, 0), "99.12");
	ck_assert_str_eq(show("reclaim_eff", eff, 0), "0.8041");
	ck_assert_str_eq(show("psi_some_avg10", psi, 0), "28.48");
	ck_assert_str_eq(show("psi_some_avg10", psi0, 1), "0.05");
}
END_TEST

/* A model with system figures set by hand: the lines of the text
 * header and of the screen's, as sysfig.h places them. */
START_TEST(system_lines)
{
	static struct model m;
	char line[512];

	memset(&m, 0, sizeof(m));
	m.sys.v[SYS_MEM_TOTAL] = 1610612736;
	m.sys.v[SYS_MEM_AVAILABLE] = 536870912;
	m.sys.v[SYS_SWAP_TOTAL] = 4096;
	m.sys.v[SYS_SWAP_USED] = 3072;
	m.sys.v[SYS_PSI_SOME10] = 450;
	m.sys.v[SYS_MEM_FREE] = 268435456;
	m.sys.v[SYS_WMARK_LOW] = 86622208;
	m.sys.valid = SBIT(SYS_MEM_TOTAL) | SBIT(SYS_MEM_AVAILABLE) |
		SBIT(SYS_SWAP_TOTAL) | SBIT(SYS_SWAP_USED) | SBIT(SYS_PSI_SOME10) |
		SBIT(SYS_MEM_FREE) | SBIT(SYS_WMARK_LOW);
	m.sys_rate[SYS_PGSCAN] = 1234.5678;
	m.sys_rate_valid = SBIT(SYS_PGSCAN);
	/* The watermarks summed from zoneinfo: a high not read is "-". */
	ck_assert_int_eq(col_sys_line(&m, SYS_AT_TEXT, 1, 1, line,
				      sizeof(line)), 7);
	ck_assert_str_eq(line, "Mem: 1.5G total, 512M available, 256M free "
			 "(watermarks low 82.6M high -)  Swap: 3.0K used of "
			 "4.0K");
	/* -r: exact rates, sizes still scaled. */
	ck_assert_int_eq(col_sys_line(&m, SYS_AT_TEXT, 1, 0, line,
				      sizeof(line)), 7);
	ck_assert_str_eq(line, "Mem: 1.5G total, 512M available, 256M free "
			 "(watermarks low 82.6M high -)  Swap: 3.0K used of "
			 "4.0K");
	col_sys_line(&m, SYS_AT_TEXT, 2, 0, line, sizeof(line));
	ck_assert_str_eq(line, "Reclaim: pgscan 1234.568/s, pgsteal -/s  "
			 "Pressure: some 4.50 full -");
	col_sys_line(&m, SYS_AT_SCREEN, 1, 1, line, sizeof(line));
	ck_assert_str_eq(line, "Mem 1.5G avail 512M  Swap 3.0K/4.0K  Scan "
			 "1.2k/s Steal -/s PSI 4.50/-  Scan: kswapd - direct - "
			 "khugepaged - proactive - memcg -/s");
	/* The events' line only while they are loaded. */
	ck_assert_int_eq(col_sys_line(&m, SYS_AT_SCREEN, 2, 1, line,
				      sizeof(line)), 0);
	ck_assert_int_eq(col_sys_line(&m, SYS_AT_SCREEN, 2, 1, NULL, 0), 0);
	ck_assert_int_eq(col_sys_line(&m, SYS_AT_TEXT, 3, 1, NULL, 0), 0);
	m.sys.valid |= sysfig_ids(SYS_SCAN_PRIO) | SBIT(SYS_FLUSHES) |
		SBIT(SYS_OWN_FLUSHES) | SBIT(SYS_FLUSH_CALLS) |
		SBIT(SYS_OWN_FLUSH_CALLS);
	ck_assert_int_eq(col_sys_line(&m, SYS_AT_SCREEN, 2, 1, line,
				      sizeof(line)), 5);
	ck_assert_str_eq(line, "Scan by priority/s: -  Flushes -/s (own -/s) "
			 "of - calls/s (own -/s)");
	m.sys_rate_valid |= sysfig_ids(SYS_SCAN_PRIO) | SBIT(SYS_FLUSHES) |
		SBIT(SYS_OWN_FLUSHES) | SBIT(SYS_FLUSH_CALLS) |
		SBIT(SYS_OWN_FLUSH_CALLS);
	col_sys_line(&m, SYS_AT_SCREEN, 2, 1, line, sizeof(line));
	ck_assert_str_eq(line, "Scan by priority/s: none  Flushes 0.0/s (own "
			 "0.0/s) of 0.0 calls/s (own 0.0/s)");
	m.sys_rate[SYS_SCAN_PRIO + 12] = 100.0;
	m.sys_rate[SYS_SCAN_PRIO + 0] = 4.0;
	m.sys_rate[SYS_FLUSHES] = 5.0;
	m.sys_rate[SYS_OWN_FLUSHES] = 1.0;
	m.sys_rate[SYS_FLUSH_CALLS] = 4200.0;
	m.sys_rate[SYS_OWN_FLUSH_CALLS] = 12.0;
	col_sys_line(&m, SYS_AT_SCREEN, 2, 1, line, sizeof(line));
	ck_assert_str_eq(line, "Scan by priority/s: 12:100 0:4.0  Flushes "
			 "5.0/s (own 1.0/s) of 4.2k calls/s (own 12.0/s)");
	/* The data formats' texts: a counter's rate or its count. */
	m.sys.v[SYS_FLUSHES] = 40;
	ck_assert(col_sys_format(&m, SYS_FLUSHES, 0, 0, line, sizeof(line)));
	ck_assert_str_eq(line, "5.000");
	ck_assert(col_sys_value(&m, SYS_FLUSHES, 0, line, sizeof(line)));
	ck_assert_str_eq(line, "40");
	ck_assert(col_sys_format(&m, SYS_MEM_TOTAL, 0, 0, line, sizeof(line)));
	ck_assert_str_eq(line, "1610612736");
	ck_assert(!col_sys_format(&m, SYS_PGSTEAL, 0, 0, line, sizeof(line)));
	ck_assert(!col_sys_value(&m, SYS_PGSTEAL, 0, line, sizeof(line)));
}
END_TEST

START_TEST(parse_column_lists)
{
	const struct column **cols = NULL;
	char err[128];
	size_t n = 0;

	ck_assert_int_eq(col_parse_list("usage,path,failcnt_per_s", &cols, &n,
					err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(cols[0]->key, "usage");
	ck_assert_str_eq(cols[2]->key, "failcnt_per_s");
	free(cols);
	ck_assert_int_eq(col_parse_list("usage,bogus", &cols, &n, err,
					sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "unknown column 'bogus' (memcgtop "
			 "--list-columns shows them)");
	ck_assert_int_eq(col_parse_list("usage,,limit", &cols, &n, err,
					sizeof(err)), -EINVAL);
	ck_assert_int_eq(col_parse_list("", &cols, &n, err, sizeof(err)),
			 -EINVAL);
}
END_TEST

Suite *columns_suite(void)
{
	Suite *s = suite_create("columns");
	TCase *t = tcase_create("core");

	tcase_add_test(t, table_invariants);
	tcase_add_test(t, help_names_the_source);
	tcase_add_test(t, compare_not_available_last);
	tcase_add_test(t, formatting_by_unit);
	tcase_add_test(t, system_lines);
	tcase_add_test(t, parse_column_lists);
	suite_add_tcase(s, t);
	return s;
}
