/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the settings file. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "units.h"

static int parse(const char *text, struct config *c, char *err)
{
	/* An exact-length copy: the parser must not need a NUL. */
	size_t len = strlen(text);
	char *buf = malloc(len ? len : 1);
	int r;

	memcpy(buf, text, len);
	r = config_parse(buf, len, c, err, 256);
	free(buf);
	return r;
}

START_TEST(settings)
{
	struct config c;
	char err[256];

	ck_assert_int_eq(parse("# comment\n\ninterval = 2.5\n"
			       "sort=+path\r\n  columns =  reclaim  \n"
			       "custom = usage,path\ntheme = light\n"
			       "folded = /a b\nfolded = /c", &c, err), 0);
	ck_assert_uint_eq(c.has, CONFIG_HAS_DELAY | CONFIG_HAS_SORT |
			  CONFIG_HAS_SET | CONFIG_HAS_CUSTOM | CONFIG_HAS_THEME);
	ck_assert_double_eq(c.delay, 2.5);
	ck_assert_str_eq(c.sort, "+path");
	ck_assert_str_eq(c.set, "reclaim");
	ck_assert_str_eq(c.custom, "usage,path");
	ck_assert_str_eq(c.theme, "light");
	ck_assert_uint_eq(c.nfolded, 2);
	ck_assert_str_eq(c.folded[0], "/a b");
	ck_assert_str_eq(c.folded[1], "/c");
	config_free(&c);
	ck_assert_int_eq(parse("", &c, err), 0);
	ck_assert_uint_eq(c.has, 0);
}
END_TEST

START_TEST(errors)
{
	struct config c;
	char err[256];

	ck_assert_int_eq(parse("interval = 1\nbogus = 3\n", &c, err), -EINVAL);
	ck_assert_str_eq(err, "line 2: unknown setting 'bogus' (interval, "
			 "sort, columns, custom, theme, collector, folded)");
	ck_assert_int_eq(parse("interval = 0.01\n", &c, err), -EINVAL);
	ck_assert_str_eq(err, "line 1: interval '0.01' is not a number of "
			 "seconds from 0.05 to 86400 (decimal, e.g. 2 or "
			 "0.5)");
	ck_assert_int_eq(parse("interval = 0x1\n", &c, err), -EINVAL);
	ck_assert_int_eq(parse("interval = 1e1\n", &c, err), -EINVAL);
	ck_assert_int_eq(parse("interval = 1x\n", &c, err), -EINVAL);
	ck_assert_int_eq(parse("just words\n", &c, err), -EINVAL);
	ck_assert_str_eq(err, "line 1: expected 'key = value', got 'just "
			 "words'");
	ck_assert_int_eq(parse("folded = relative\n", &c, err), -EINVAL);
	ck_assert_str_eq(err, "line 1: folded needs a group path starting "
			 "with '/'");
	ck_assert_int_eq(parse("\x1b[2J = 1\n", &c, err), -EINVAL);
	ck_assert_str_eq(err, "line 1: unknown setting '\\x1B[2J' (interval, "
			 "sort, columns, custom, theme, collector, folded)");
	ck_assert_int_eq(parse("collector = kernel\n", &c, err), -EINVAL);
	ck_assert_str_eq(err, "line 1: collector 'kernel' is not auto, bpf or "
			 "files");
	ck_assert_int_eq(parse("collector = bpf\n", &c, err), 0);
	ck_assert_uint_eq(c.has, CONFIG_HAS_COLLECTOR);
	ck_assert_str_eq(c.collector, "bpf");
	config_free(&c);
	ck_assert_int_eq(config_parse("sort = a\0b\n", 11, &c, err, 256),
			 -EINVAL);
	ck_assert_str_eq(err, "line 1: NUL byte");
}
END_TEST

START_TEST(save_and_load)
{
	char dir[] = "/tmp/memcgtop-cfg-XXXXXX", err[600];
	char *old = getenv("XDG_CONFIG_HOME") ?
		strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	char *f[] = { (char *)"/x/y" };
	struct config c = { 0 }, back;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
	/* No file: nothing set, no error. */
	ck_assert_int_eq(config_load(&back, err, sizeof(err)), 0);
	ck_assert_uint_eq(back.has, 0);
	c.has = CONFIG_HAS_DELAY | CONFIG_HAS_SORT;
	c.delay = 0.5;
	strcpy(c.sort, "-excess");
	c.folded = f;
	c.nfolded = 1;
	ck_assert_int_eq(config_save(&c, err, sizeof(err)), 0);
	ck_assert_int_eq(config_load(&back, err, sizeof(err)), 0);
	ck_assert_uint_eq(back.has, CONFIG_HAS_DELAY | CONFIG_HAS_SORT);
	ck_assert_double_eq(back.delay, 0.5);
	ck_assert_str_eq(back.sort, "-excess");
	ck_assert_uint_eq(back.nfolded, 1);
	ck_assert_str_eq(back.folded[0], "/x/y");
	config_free(&back);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	if (old)
		setenv("XDG_CONFIG_HOME", old, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(old);
}
END_TEST

/*
 * HOME is never created, and not written when it belongs to another user
 * than the real and effective one (sudo keeps HOME): nothing is made
 * there, the reason names it.
 */
START_TEST(save_foreign_home)
{
	char dir[] = "/tmp/memcgtop-home-XXXXXX", home[64], want[256];
	char err[600], cfg[128], *oh = getenv("HOME") ? strdup(getenv("HOME"))
		: NULL, *ox = getenv("XDG_CONFIG_HOME") ?
		strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	struct config c = { 0 };
	struct stat st;
	uid_t other;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	unsetenv("XDG_CONFIG_HOME");
	c.has = CONFIG_HAS_SORT;
	strcpy(c.sort, "-usage");

	/* A HOME that does not exist stays so. */
	snprintf(home, sizeof(home), "%s/gone", dir);
	setenv("HOME", home, 1);
	ck_assert_int_eq(config_save(&c, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "HOME %s: No such file or directory "
		 "(not creating it)", home);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(stat(home, &st), -1);

	/* Another user's HOME: root chowns it away; others use / (root's). */
	if (getuid() == 0) {
		snprintf(home, sizeof(home), "%s/user", dir);
		ck_assert_int_eq(mkdir(home, 0755), 0);
		ck_assert_int_eq(chown(home, 65534, 65534), 0);
		other = 65534;
	} else {
		snprintf(home, sizeof(home), "/");
		other = 0;
	}
	setenv("HOME", home, 1);
	ck_assert_int_eq(config_save(&c, err, sizeof(err)), -EPERM);
	snprintf(want, sizeof(want), "HOME %s belongs to uid %u, memcgtop "
		 "runs as uid %u (effective %u): not writing there", home,
		 (unsigned)other, (unsigned)getuid(), (unsigned)geteuid());
	ck_assert_str_eq(err, want);
	snprintf(cfg, sizeof(cfg), "%s/.config", strcmp(home, "/") ? home : "");
	ck_assert_int_eq(stat(cfg, &st) == 0 && st.st_uid == getuid(), 0);

	/* The user's own HOME: ~/.config/memcgtop made 0700. */
	snprintf(home, sizeof(home), "%s", dir);
	setenv("HOME", home, 1);
	ck_assert_int_eq(config_save(&c, err, sizeof(err)), 0);
	snprintf(cfg, sizeof(cfg), "%s/.config/memcgtop/memcgtoprc", dir);
	ck_assert_int_eq(stat(cfg, &st), 0);
	snprintf(cfg, sizeof(cfg), "%s/.config", dir);
	ck_assert_int_eq(stat(cfg, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0700);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	if (oh)
		setenv("HOME", oh, 1);
	else
		unsetenv("HOME");
	if (ox)
		setenv("XDG_CONFIG_HOME", ox, 1);
	free(oh);
	free(ox);
}
END_TEST

/*
 * The settings file and its folder belong to the effective user and are
 * not writable by others; otherwise the file is not read (its content
 * never reaches the reason).
 */
START_TEST(load_refuses_foreign)
{
	char dir[] = "/tmp/memcgtop-trust-XXXXXX", err[600], want[600];
	char sub[64], file[96];
	char *ox = getenv("XDG_CONFIG_HOME") ?
		strdup(getenv("XDG_CONFIG_HOME")) : NULL;
	struct config c = { 0 }, back;
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_CONFIG_HOME", dir, 1);
	c.has = CONFIG_HAS_SORT;
	strcpy(c.sort, "-usage");
	ck_assert_int_eq(config_save(&c, err, sizeof(err)), 0);
	snprintf(sub, sizeof(sub), "%s/memcgtop", dir);
	snprintf(file, sizeof(file), "%s/memcgtoprc", sub);
	/* A line that is quoted when the file is read. */
	f = fopen(file, "a");
	ck_assert_ptr_nonnull(f);
	fputs("secret:*:20228:0:99999:7:::\n", f);
	ck_assert_int_eq(fclose(f), 0);
	/* The user's own file is read: its error may quote it. */
	ck_assert_int_eq(config_load(&back, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: line 4: expected 'key = value', "
		 "got 'secret:*:20228:0:99999:7:::'", file);
	ck_assert_str_eq(err, want);

	ck_assert_int_eq(chmod(file, 0620), 0);
	ck_assert_int_eq(config_load(&back, err, sizeof(err)), -EPERM);
	snprintf(want, sizeof(want), "%s is writable by its group or others "
		 "(mode 0620): not reading it", file);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chmod(file, 0600), 0);

	ck_assert_int_eq(chmod(sub, 0777), 0);
	ck_assert_int_eq(config_load(&back, err, sizeof(err)), -EPERM);
	snprintf(want, sizeof(want), "%s (the settings file's folder) is "
		 "writable by its group or others (mode 0777): not reading %s",
		 sub, file);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chmod(sub, 0700), 0);

	/* Another user's file, root's memcgtop too. */
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(file, 65534, 65534), 0);
		ck_assert_int_eq(config_load(&back, err, sizeof(err)), -EPERM);
		snprintf(want, sizeof(want), "%s belongs to uid 65534, "
			 "memcgtop runs as uid 0: not reading it", file);
		ck_assert_str_eq(err, want);
		ck_assert_int_eq(chown(file, 0, 0), 0);
		ck_assert_int_eq(chown(sub, 65534, 65534), 0);
		ck_assert_int_eq(config_load(&back, err, sizeof(err)), -EPERM);
		snprintf(want, sizeof(want), "%s (the settings file's folder) "
			 "belongs to uid 65534, memcgtop runs as uid 0: not "
			 "reading %s", sub, file);
		ck_assert_str_eq(err, want);
		ck_assert_int_eq(chown(sub, 0, 0), 0);
	}

	/* Not a regular file: a FIFO would wait, a device go on. */
	ck_assert_int_eq(unlink(file), 0);
	ck_assert_int_eq(mkfifo(file, 0600), 0);
	ck_assert_int_eq(config_load(&back, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", file);
	ck_assert_str_eq(err, want);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		ck_assert_int_eq(system(cmd), 0);
	}
	if (ox)
		setenv("XDG_CONFIG_HOME", ox, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	free(ox);
}
END_TEST

Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *t = tcase_create("core");

	tcase_add_test(t, settings);
	tcase_add_test(t, errors);
	tcase_add_test(t, save_and_load);
	tcase_add_test(t, save_foreign_home);
	tcase_add_test(t, load_refuses_foreign);
	suite_add_tcase(s, t);
	return s;
}
