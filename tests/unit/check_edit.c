/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: one change planned and applied on a copied v2 tree (a
 * fixture: the audit line goes nowhere without --audit-log). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cgfs.h"
#include "edit.h"
#include "knob.h"
#include "units.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void get(const char *dir, const char *rel, char *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
}

static void rmtree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const struct knob *knob(const char *name)
{
	const struct knob *k = knob_find(2, name, strlen(name));

	ck_assert_ptr_nonnull(k);
	return k;
}

static struct cgfs *tree(char *dir)
{
	struct cgfs_opts o = { .root = dir };
	struct cgfs *cg = NULL;
	char sub[4200], err[512] = "";

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "cgroup.controllers", "memory\n");
	put(dir, "cgroup.procs", "");
	snprintf(sub, sizeof(sub), "%s/a", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	put(dir, "a/cgroup.procs", "");
	put(dir, "a/memory.current", "3145728\n");
	put(dir, "a/memory.max", "1048576\n");
	put(dir, "a/memory.high", "max\n");
	ck_assert_msg(cgfs_open(&o, &cg, err, sizeof(err)) == 0, "%s", err);
	return cg;
}

START_TEST(plan_apply)
{
	char dir[] = "/tmp/memcgtop-edit-XXXXXX", err[512] = "", now[64];
	struct edit_plan p;
	struct edit_result res;
	struct cgfs *cg = tree(dir);

	/* Relative to what the file holds; usage above it is warned of. */
	ck_assert_msg(edit_plan(cg, "/a", knob("limit"), "+1M", &p, err,
				sizeof(err)) == 0, "%s", err);
	ck_assert_str_eq(p.old, "1048576");
	ck_assert_str_eq(p.value, "2097152");
	ck_assert_str_eq(p.shown, "2097152 (2.0M)");
	ck_assert_str_eq(p.warn, "usage 3.0M is above it: the kernel reclaims "
			 "now and may OOM-kill processes of the group if it "
			 "cannot get below");
	/* Another change meanwhile: the relative one adds to it. */
	put(dir, "a/memory.max", "4194304\n");
	ck_assert_int_eq(edit_apply(cg, &p, &res), 0);
	ck_assert_int_eq(res.err, 0);
	ck_assert_str_eq(res.old, "4194304");
	ck_assert_str_eq(res.value, "5242880");
	ck_assert_str_eq(res.now, "5242880");
	get(dir, "a/memory.max", now, sizeof(now));
	ck_assert_str_eq(now, "5242880\n");
	/* "max" reads back as max; no usage warning for unlimited. */
	ck_assert_int_eq(edit_plan(cg, "/a", knob("high"), "max", &p, err,
				   sizeof(err)), 0);
	ck_assert_str_eq(p.old, "max");
	ck_assert_str_eq(p.shown, "max");
	ck_assert_str_eq(p.warn, "");
	/* Refused before anything is written. */
	ck_assert_int_eq(edit_plan(cg, "/a", knob("low"), "1M", &p, err,
				   sizeof(err)), -EPERM);
	ck_assert_str_eq(err, "low: this group has no such file (not this "
			 "kernel, or swap accounting is off)");
	ck_assert_int_eq(edit_plan(cg, "/b", knob("limit"), "1M", &p, err,
				   sizeof(err)), -EPERM);
	ck_assert_str_eq(err, "limit: no such group");
	ck_assert_int_eq(edit_plan(cg, "/", knob("limit"), "1M", &p, err,
				   sizeof(err)), -EPERM);
	ck_assert_str_eq(err, "limit: the root group has no such file");
	cgfs_set_readonly(cg);
	ck_assert_int_eq(edit_plan(cg, "/a", knob("limit"), "1M", &p, err,
				   sizeof(err)), -EPERM);
	ck_assert_str_eq(err, "limit: --readonly: no changes");
	get(dir, "a/memory.max", now, sizeof(now));
	ck_assert_str_eq(now, "5242880\n");
	cgfs_close(cg);
	rmtree(dir);
}
END_TEST

Suite *edit_suite(void)
{
	Suite *s = suite_create("edit");
	TCase *tc = tcase_create("plan");

	tcase_add_test(tc, plan_apply);
	suite_add_tcase(s, tc);
	return s;
}
