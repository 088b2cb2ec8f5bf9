/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the sources of cgfs.c on trees made here.  The walk of a
 * copied v2 tree, as a copy and taken for kernfs (whose listing cache
 * trusts link counts: ext4 and tmpfs keep them the same way); the recorder
 * fed by the walk; the replay of what it wrote, with seek and reread. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs.h"
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

/* A v2 group at rel ("" for the root) using `current` bytes. */
static void mkgroup(const char *root, const char *rel, const char *current)
{
	char dir[4096], name[4200];

	snprintf(dir, sizeof(dir), "%s%s%s", root, *rel ? "/" : "", rel);
	ck_assert(mkdir(dir, 0755) == 0 || (!*rel && errno == EEXIST));
	put(dir, "cgroup.procs", "");
	if (!*rel) {
		put(dir, "cgroup.controllers", "cpu memory pids\n");
		/* The v2 root's usage: anon + file + kernel + sock. */
		put(dir, "memory.stat", "anon 1\nfile 2\nkernel 3\nsock 4\n");
		return;
	}
	snprintf(name, sizeof(name), "%s\n", current);
	put(dir, "memory.current", name);
}

static void rmgroup(const char *root, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s/memory.current", root, rel);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/%s/cgroup.procs", root, rel);
	ck_assert_int_eq(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(rmdir(path), 0);
}

static void rmtree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static const struct snap_group *find(const struct snapshot *s,
				     const char *path)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(snap_path(s, &s->groups[i]), path) == 0)
			return &s->groups[i];
	return NULL;
}

/* The usage of the group at path, or -1 when it is not in the snapshot
 * or has none. */
static long long usage(const struct snapshot *s, const char *path)
{
	const struct snap_group *g = find(s, path);

	return g && sample_has(&g->s, FLD_USAGE) ?
		(long long)sample_get(&g->s, FLD_USAGE) : -1;
}

static struct cgfs *open_tree(const char *root, const char *start)
{
	struct cgfs_opts o = { .root = root, .proc = NULL, .start = start };
	struct cgfs *cg = NULL;
	char err[512] = "";

	ck_assert_msg(cgfs_open(&o, &cg, err, sizeof(err)) == 0, "%s", err);
	return cg;
}

static void refresh(struct cgfs *cg, struct snapshot *s)
{
	char err[512] = "";

	ck_assert_msg(cgfs_refresh(cg, FBIT(FLD_USAGE), -1, s, err,
				   sizeof(err)) == 0, "%s", err);
}

static void tree(char *dir)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	mkgroup(dir, "", NULL);
	mkgroup(dir, "a", "100");
	mkgroup(dir, "a/x", "110");
	mkgroup(dir, "b", "200");
}

START_TEST(walk_copy)
{
	char dir[] = "/tmp/memcgtop-walk-XXXXXX";
	struct snapshot s = { 0 };
	const struct snap_group *x, *a;
	struct cgfs *cg;

	tree(dir);
	cg = open_tree(dir, NULL);
	ck_assert_int_eq(cgfs_version(cg), 2);
	ck_assert_int_eq(cgfs_is_series(cg), 0);
	/* A copy on ext4 is no cgroup filesystem. */
	ck_assert_int_eq(cgfs_is_live(cg), 0);
	refresh(cg, &s);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_int_eq(usage(&s, "/"), 10);
	ck_assert_int_eq(usage(&s, "/a"), 100);
	ck_assert_int_eq(usage(&s, "/a/x"), 110);
	ck_assert_int_eq(usage(&s, "/b"), 200);
	x = find(&s, "/a/x");
	a = find(&s, "/a");
	ck_assert_int_eq(x->depth, 2);
	ck_assert_int_eq(a->depth, 1);
	ck_assert_ptr_eq(&s.groups[x->parent], a);
	ck_assert_int_eq(s.groups[0].parent, -1);
	/* Not kernfs: every group is listed at every refresh. */
	ck_assert_uint_eq(cgfs_listings(cg), 4);
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_listings(cg), 8);
	/* A start group: only it and below, paths still from the root. */
	cgfs_close(cg);
	cg = open_tree(dir, "/a");
	refresh(cg, &s);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(usage(&s, "/a/x"), 110);
	ck_assert_int_eq(find(&s, "/a/x")->depth, 2);
	snapshot_free(&s);
	cgfs_close(cg);
	rmtree(dir);
}
END_TEST

START_TEST(walk_kernfs_cache)
{
	char dir[] = "/tmp/memcgtop-walk-XXXXXX";
	struct snapshot s = { 0 };
	struct cgfs *cg;

	tree(dir);
	cg = open_tree(dir, NULL);
	cgfs_set_kernfs(cg, 1);
	ck_assert_int_eq(cgfs_is_live(cg), 1);
	refresh(cg, &s);
	ck_assert_uint_eq(s.n, 4);
	/* Leaves (link count 2) are not listed: the root and /a are. */
	ck_assert_uint_eq(cgfs_listings(cg), 2);
	/* Nothing changed: the kept listings serve. */
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_listings(cg), 2);
	ck_assert_int_eq(usage(&s, "/a/x"), 110);
	/* A new subgroup raises /b's link count: /b is listed. */
	mkgroup(dir, "b/y", "300");
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_listings(cg), 3);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_int_eq(usage(&s, "/b/y"), 300);
	/* One gone and one come under the same count (v2 renames no group):
	 * /a's kept listing names a group gone, so /a is listed again and
	 * the newcomer read. */
	rmgroup(dir, "a/x");
	mkgroup(dir, "a/z", "110");
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_listings(cg), 4);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_ptr_null(find(&s, "/a/x"));
	ck_assert_int_eq(usage(&s, "/a/z"), 110);
	/* A leaf again: /b is not listed, /b/y is gone. */
	rmgroup(dir, "b/y");
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_listings(cg), 4);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_ptr_null(find(&s, "/b/y"));
	snapshot_free(&s);
	cgfs_close(cg);
	rmtree(dir);
}
END_TEST

/* The recorder, fed by the walk, writes what replay gives back: each
 * sample's values, times in order, and the start group. */
START_TEST(record_replay)
{
	char dir[] = "/tmp/memcgtop-walk-XXXXXX", rec[4200], err[512] = "";
	char path[4300], text[256];
	struct snapshot s = { 0 };
	double mono[3];
	size_t count;
	struct cgfs *cg;
	FILE *f;

	tree(dir);
	snprintf(rec, sizeof(rec), "%s.rec", dir);
	cg = open_tree(dir, "/a");
	ck_assert_msg(cgfs_record(cg, rec, 0, err, sizeof(err)) == 0, "%s",
		      err);
	for (int i = 0; i < 3; i++) {
		char v[32];

		snprintf(v, sizeof(v), "%d\n", 1000 + i);
		put(dir, "a/x/memory.current", v);
		refresh(cg, &s);
		mono[i] = s.mono;
	}
	cgfs_close(cg);
	/* The bytes as read, in the slot of the group. */
	snprintf(path, sizeof(path), "%s/1/a/x/memory.current", rec);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	fclose(f);
	ck_assert_str_eq(text, "1001\n");
	snprintf(path, sizeof(path), "%s/info", rec);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(text, sizeof(text), f));
	ck_assert_str_eq(text, "format memcgtop-recording 1\n");
	fclose(f);

	/* Replay starts at the recorded start group. */
	cg = open_tree(rec, NULL);
	ck_assert_int_eq(cgfs_is_series(cg), 1);
	ck_assert_int_eq(cgfs_is_live(cg), 0);
	cgfs_set_kernfs(cg, 1);	/* a series is never kernfs */
	ck_assert_int_eq(cgfs_is_live(cg), 0);
	ck_assert_str_eq(cgfs_root(cg), dir);
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_position(cg, &count), 0);
	ck_assert_uint_eq(count, 3);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_int_eq(usage(&s, "/a"), 100);
	ck_assert_int_eq(usage(&s, "/a/x"), 1000);
	ck_assert(s.mono == mono[0]);
	refresh(cg, &s);
	ck_assert_int_eq(usage(&s, "/a/x"), 1001);
	ck_assert(s.mono == mono[1]);
	/* Read again: the same sample. */
	cgfs_reread(cg);
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_position(cg, &count), 1);
	ck_assert_int_eq(usage(&s, "/a/x"), 1001);
	cgfs_seek(cg, 2);
	refresh(cg, &s);
	ck_assert_uint_eq(cgfs_position(cg, &count), 2);
	ck_assert_int_eq(usage(&s, "/a/x"), 1002);
	ck_assert(s.mono == mono[2]);
	/* The end of the series. */
	ck_assert_int_eq(cgfs_refresh(cg, FBIT(FLD_USAGE), -1, &s, err,
				      sizeof(err)), -ENODATA);
	/* A seek past the end lands on the last sample. */
	cgfs_seek(cg, 99);
	refresh(cg, &s);
	ck_assert_int_eq(usage(&s, "/a/x"), 1002);
	cgfs_seek(cg, 0);
	refresh(cg, &s);
	ck_assert_int_eq(usage(&s, "/a/x"), 1000);
	snapshot_free(&s);
	cgfs_close(cg);
	rmtree(rec);
	rmtree(dir);
}
END_TEST

/* A series whose timestamps names a line that does not parse fails to
 * open, naming the file and the line. */
START_TEST(replay_bad_line)
{
	char dir[] = "/tmp/memcgtop-walk-XXXXXX", err[512] = "", want[600];
	struct cgfs_opts o = { .root = dir };
	struct cgfs *cg = NULL;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "timestamps", "1 1 0\n2 2 0\n3 x 0\n");
	ck_assert_int_eq(cgfs_open(&o, &cg, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s/timestamps: line 3: malformed wall "
		 "clock time", dir);
	ck_assert_str_eq(err, want);
	rmtree(dir);
}
END_TEST

Suite *cgfs_suite(void)
{
	Suite *s = suite_create("cgfs");
	TCase *tc = tcase_create("sources");

	tcase_add_test(tc, walk_copy);
	tcase_add_test(tc, walk_kernfs_cache);
	tcase_add_test(tc, record_replay);
	tcase_add_test(tc, replay_bad_line);
	suite_add_tcase(s, tc);
	return s;
}
