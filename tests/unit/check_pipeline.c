/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the collector layer (src/collect/): one refresh through the
 * providers over the v1 recording of tests/fixtures/v1-live — the tree's
 * values as the recorded files hold them, the system figures read before
 * the tree, and why each field asked is blank (model.blank), said by the
 * provider that would give it. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "collect/provider.h"
#include "columns.h"
#include "pipeline.h"
#include "units.h"

#define REC "tests/fixtures/v1-live/cg"

/* A number the recording's first sample holds in file rel. */
static unsigned long long recorded(const char *rel)
{
	char path[512];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), REC "/0/%s", rel);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	ck_assert_int_eq(fscanf(f, "%llu", &v), 1);
	fclose(f);
	return v;
}

static const struct mgroup *group(const struct model *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->groups[i]->path, path) == 0)
			return m->groups[i];
	return NULL;
}

START_TEST(providers_v1_recording)
{
	struct cgfs_opts o = { .root = REC };
	const struct column *cols[3];
	struct pipeline_want w = { .cols = cols, .ncols = 3 };
	struct pipeline p;
	struct cgfs *cg = NULL;
	const struct mgroup *g;
	char err[512] = "";

	ck_assert_msg(cgfs_open(&o, &cg, err, sizeof(err)) == 0, "%s", err);
	cols[0] = col_find("usage");
	cols[1] = col_find("sock");
	cols[2] = col_find("pgscan");
	ck_assert(cols[0] && cols[1] && cols[2]);
	pipeline_init(&p, cg, -1, 0);
	ck_assert_uint_eq(p.nprov, 4);
	ck_assert_str_eq(p.prov[0]->ops->name, "system");
	ck_assert_str_eq(p.prov[1]->ops->name, "tree");
	ck_assert_str_eq(p.prov[2]->ops->name, "events");
	ck_assert_str_eq(p.prov[3]->ops->name, "oom");
	ck_assert_msg(pipeline_refresh(&p, &w, err, sizeof(err)) == 0, "%s",
		      err);
	g = group(&p.m, "/fixture");
	ck_assert_ptr_nonnull(g);
	ck_assert(sample_has(&g->cur, FLD_USAGE));
	ck_assert_uint_eq(sample_get(&g->cur, FLD_USAGE),
			  recorded("fixture/memory.usage_in_bytes"));
	ck_assert(!sample_has(&g->cur, FLD_SOCK));
	/* Given: no reason.  Not kept by v1: the tree says.  Only the
	 * reclaim events give v1's pgscan, and not from a recording. */
	ck_assert_ptr_null(p.m.blank[FLD_USAGE]);
	ck_assert_str_eq(p.m.blank[FLD_SOCK], "cgroup v1 keeps no such value");
	ck_assert_str_eq(p.m.blank[FLD_PGSCAN], "the reclaim events: not this "
			 "host's: a copy or a recording (which shows what "
			 "they gave when it was made)");
	/* Not asked: no reason either. */
	ck_assert_ptr_null(p.m.blank[FLD_SWAPPINESS]);
	pipeline_free(&p);
	cgfs_close(cg);
}
END_TEST

Suite *pipeline_suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("providers");

	tcase_add_test(tc, providers_v1_recording);
	suite_add_tcase(s, tc);
	return s;
}
