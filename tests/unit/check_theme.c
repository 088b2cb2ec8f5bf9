/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the built-in themes, the shipped theme files, the parser. */
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "theme.h"
#include "units.h"

#define DEF THEME_COLOR_DEFAULT

static char err[1024];

/*
 * Parses a copy of exactly len bytes on the heap, without a NUL after
 * them, so that a sanitizer build catches any read past the end.
 */
static int parse_n(const char *s, size_t len, struct theme *ret)
{
	char *copy = malloc(len ? len : 1);
	int r;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, s, len);
	err[0] = '\0';
	r = theme_parse(copy, len, ret, err, sizeof(err));
	free(copy);
	return r;
}

static int parse(const char *s, struct theme *ret)
{
	return parse_n(s, strlen(s), ret);
}

/* Parses s, which must fail, and returns the message. */
static const char *parse_err(const char *s)
{
	struct theme t;

	ck_assert_int_eq(parse(s, &t), -EINVAL);
	return err;
}

static char text[THEME_FILE_MAX + 64];

static size_t read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len;

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	len = fread(text, 1, THEME_FILE_MAX, f);
	fclose(f);
	return len;
}

/*
 * Parses a shipped theme file, and checks that it spells out every
 * element rather than leaning on the built-in default: each one added
 * again must be refused as set twice.
 */
static void parse_file(const char *path, struct theme *ret)
{
	size_t len = read_text(path);

	ck_assert_msg(parse_n(text, len, ret) == 0, "%s: %s", path, err);
	for (int e = 0; e < TE_NR; e++) {
		const char *name = theme_elem_name((enum theme_elem)e);
		struct theme t;
		int n;

		n = snprintf(text + len, sizeof(text) - len, "\n%s = red red\n",
			     name);
		ck_assert_int_eq(parse_n(text, len + (size_t)n, &t), -EINVAL);
		ck_assert_msg(strstr(err, "set twice") != NULL, "%s: %s: %s",
			      path, name, err);
	}
}

static void assert_style(const struct theme *t, enum theme_elem e, short fg,
			 short bg, unsigned attrs)
{
	const struct theme_style *s = &t->el[e];

	ck_assert_msg(s->fg == fg && s->bg == bg && s->attrs == attrs,
		      "%s: got %d %d %u, want %d %d %u", theme_elem_name(e),
		      s->fg, s->bg, s->attrs, fg, bg, attrs);
}

static void assert_same_styles(const struct theme *a, const struct theme *b)
{
	for (int e = 0; e < TE_NR; e++)
		assert_style(a, (enum theme_elem)e, b->el[e].fg, b->el[e].bg,
			     b->el[e].attrs);
}

START_TEST(element_names)
{
	static const char *const want[TE_NR] = {
		"header", "colhead", "colsort", "row", "selected", "tagged",
		"near_limit", "excess", "reclaim", "oom", "status", "error",
		"help", "dim",
	};

	for (int e = 0; e < TE_NR; e++)
		ck_assert_str_eq(theme_elem_name((enum theme_elem)e), want[e]);
	ck_assert_ptr_null(theme_elem_name(TE_NR));
}
END_TEST

START_TEST(builtin_themes)
{
	struct theme t;

	theme_default(&t);
	ck_assert_str_eq(t.name, "default");
	assert_style(&t, TE_OOM, 7, 1, THEME_BOLD);
	assert_style(&t, TE_COLSORT, 0, 6, THEME_BOLD);
	theme_mono(&t);
	ck_assert_str_eq(t.name, "mono");
	for (int e = 0; e < TE_NR; e++) {
		ck_assert_int_eq(t.el[e].fg, DEF);
		ck_assert_int_eq(t.el[e].bg, DEF);
	}
	assert_style(&t, TE_SELECTED, DEF, DEF, THEME_REVERSE | THEME_BOLD);
}
END_TEST

START_TEST(default_file_is_builtin)
{
	struct theme t, def;

	parse_file("themes/default.theme", &t);
	theme_default(&def);
	assert_same_styles(&t, &def);
	/* theme_parse leaves naming to theme_load. */
	ck_assert_str_eq(t.name, "");
}
END_TEST

START_TEST(mono_file_is_builtin)
{
	struct theme t, mono;

	parse_file("themes/mono.theme", &t);
	theme_mono(&mono);
	assert_same_styles(&t, &mono);
}
END_TEST

START_TEST(default_file_palette)
{
	struct theme t;

	parse_file("themes/default.theme", &t);
	assert_style(&t, TE_HEADER, 6, DEF, THEME_BOLD);
	assert_style(&t, TE_COLHEAD, 0, 2, 0);
	assert_style(&t, TE_SELECTED, 0, 7, 0);
	assert_style(&t, TE_TAGGED, 3, DEF, THEME_BOLD);
	assert_style(&t, TE_NEAR_LIMIT, 1, DEF, 0);
	assert_style(&t, TE_EXCESS, 5, DEF, 0);
	assert_style(&t, TE_RECLAIM, 6, DEF, 0);
	assert_style(&t, TE_OOM, 7, 1, THEME_BOLD);
	assert_style(&t, TE_ROW, DEF, DEF, 0);
	assert_style(&t, TE_DIM, DEF, DEF, THEME_DIM);
}
END_TEST

START_TEST(light_file_palette)
{
	struct theme t;

	parse_file("themes/light.theme", &t);
	assert_style(&t, TE_HEADER, 4, DEF, THEME_BOLD);
	assert_style(&t, TE_COLHEAD, 7, 4, 0);
	assert_style(&t, TE_SELECTED, DEF, DEF, THEME_REVERSE);
	assert_style(&t, TE_TAGGED, 4, DEF, THEME_BOLD);
	assert_style(&t, TE_NEAR_LIMIT, 1, DEF, 0);
	assert_style(&t, TE_RECLAIM, 30, DEF, 0);
	assert_style(&t, TE_OOM, 7, 1, THEME_BOLD);
	/* No yellow text: a white background washes it out. */
	for (int e = 0; e < TE_NR; e++)
		ck_assert_int_ne(t.el[e].fg, 3);
}
END_TEST

START_TEST(high_contrast_file_palette)
{
	struct theme t;

	parse_file("themes/high-contrast.theme", &t);
	assert_style(&t, TE_COLSORT, 0, 15, THEME_BOLD | THEME_UNDERLINE);
	assert_style(&t, TE_SELECTED, DEF, DEF, THEME_REVERSE | THEME_BOLD);
	assert_style(&t, TE_NEAR_LIMIT, 0, 11, THEME_BOLD);
	assert_style(&t, TE_EXCESS, 0, 13, THEME_BOLD);
	assert_style(&t, TE_RECLAIM, 0, 14, THEME_BOLD);
	assert_style(&t, TE_OOM, 15, 1, THEME_BOLD);
	assert_style(&t, TE_DIM, 7, 0, 0);
	for (int e = 0; e < TE_NR; e++)
		ck_assert_uint_eq(t.el[e].attrs & THEME_DIM, 0);
}
END_TEST

START_TEST(syntax_accepted)
{
	struct theme t, def;

	theme_default(&def);
	ck_assert_int_eq(parse("", &t), 0);
	assert_same_styles(&t, &def);
	ck_assert_int_eq(parse("\n\n   \t\n# only a comment\n  # indented\n",
			       &t), 0);
	assert_same_styles(&t, &def);
	/* Unmentioned elements keep the default; attrs accumulate. */
	ck_assert_int_eq(parse("row = green blue bold underline\n", &t), 0);
	assert_style(&t, TE_ROW, 2, 4, THEME_BOLD | THEME_UNDERLINE);
	assert_style(&t, TE_OOM, def.el[TE_OOM].fg, def.el[TE_OOM].bg,
		     def.el[TE_OOM].attrs);
	ck_assert_int_eq(parse("row=default bright-black", &t), 0);
	assert_style(&t, TE_ROW, DEF, 8, 0);
	ck_assert_int_eq(parse("\trow\t=\tbright-white  0 dim standout"
			       " reverse\r\n", &t), 0);
	assert_style(&t, TE_ROW, 15, 0,
		     THEME_DIM | THEME_STANDOUT | THEME_REVERSE);
	/* A word starting with '#' begins a comment. */
	ck_assert_int_eq(parse("row = red blue # bold\n", &t), 0);
	assert_style(&t, TE_ROW, 1, 4, 0);
}
END_TEST

START_TEST(no_nul_no_newline)
{
	static const char s[] = "row = red blue\noom = 200 17 bold";
	struct theme t;

	/* The parser gets exactly the text, no NUL, no final newline. */
	ck_assert_int_eq(parse_n(s, sizeof(s) - 1, &t), 0);
	assert_style(&t, TE_ROW, 1, 4, 0);
	assert_style(&t, TE_OOM, 200, 17, THEME_BOLD);
	/* Cut mid-word: "oom = 200 1" is a valid line too. */
	ck_assert_int_eq(parse_n(s, sizeof(s) - 7, &t), 0);
	assert_style(&t, TE_OOM, 200, 1, 0);
	/* Cut before the bg. */
	ck_assert_int_eq(parse_n(s, sizeof(s) - 9, &t), -EINVAL);
	ck_assert_str_eq(err, "line 2: missing bg colour for 'oom' "
			 "(element = fg bg [attr ...])");
}
END_TEST

START_TEST(colour_numbers)
{
	struct theme t;

	ck_assert_int_eq(parse("row = 0 255\n", &t), 0);
	assert_style(&t, TE_ROW, 0, 255, 0);
	ck_assert_int_eq(parse("row = 0255 007\n", &t), 0);
	assert_style(&t, TE_ROW, 255, 7, 0);
	ck_assert_str_eq(parse_err("row = 256 0\n"),
			 "line 1, column 7: colour number out of range (0-255)");
	ck_assert_str_eq(parse_err("row = 0 99999999999999999999999\n"),
			 "line 1, column 9: colour number out of range "
			 "(0-255)");
	ck_assert_str_eq(parse_err("row = -1 0\n"),
			 "line 1, column 7: unknown colour (default, black, red, "
			 "green, yellow, blue, magenta, cyan, white, "
			 "bright-NAME or 0-255)");
}
END_TEST

START_TEST(error_messages)
{
	ck_assert_str_eq(parse_err("# x\n\nrow = default default\n"
				   "rows = red blue\n"),
			 "line 4, column 1: unknown element (header, colhead, "
			 "colsort, row, selected, tagged, near_limit, excess, "
			 "reclaim, oom, status, error, help, dim)");
	ck_assert_str_eq(parse_err("\n\nrow = purple black\n"),
			 "line 3, column 7: unknown colour (default, black, "
			 "red, green, yellow, blue, magenta, cyan, white, "
			 "bright-NAME or 0-255)");
	ck_assert_str_eq(parse_err("row = red bright-purple\n"),
			 "line 1, column 11: unknown colour (default, "
			 "black, red, green, yellow, blue, magenta, cyan, "
			 "white, bright-NAME or 0-255)");
	ck_assert_str_eq(parse_err("row = red bright-\n"),
			 "line 1, column 11: unknown colour (default, black, "
			 "red, green, yellow, blue, magenta, cyan, white, "
			 "bright-NAME or 0-255)");
	ck_assert_str_eq(parse_err("row = Red blue\n"),
			 "line 1, column 7: unknown colour (default, black, red, "
			 "green, yellow, blue, magenta, cyan, white, "
			 "bright-NAME or 0-255)");
	ck_assert_str_eq(parse_err("row = red blue bold blink\n"),
			 "line 1, column 21: unknown attribute (bold, dim, "
			 "underline, reverse, standout)");
	ck_assert_str_eq(parse_err("row red blue\n"),
			 "line 1: missing '=' after 'row' "
			 "(element = fg bg [attr ...])");
	ck_assert_str_eq(parse_err("row\n"),
			 "line 1: missing '=' after 'row' "
			 "(element = fg bg [attr ...])");
	ck_assert_str_eq(parse_err("= red blue\n"),
			 "line 1: missing element name before '='");
	ck_assert_str_eq(parse_err("row =\n"),
			 "line 1: missing fg colour for 'row' "
			 "(element = fg bg [attr ...])");
	ck_assert_str_eq(parse_err("row = red\n"),
			 "line 1: missing bg colour for 'row' "
			 "(element = fg bg [attr ...])");
	ck_assert_str_eq(parse_err("row = red # blue\n"),
			 "line 1: missing bg colour for 'row' "
			 "(element = fg bg [attr ...])");
	ck_assert_str_eq(parse_err("oom = red blue\nrow = red blue\n"
				   "oom = red blue\n"),
			 "line 3: element 'oom' set twice (first on line 1)");
	/* A word of the file is never quoted: a theme may be any file. */
	ck_assert_str_eq(parse_err("row = \x1b[31m blue\n"),
			 "line 1, column 7: unknown colour (default, black, "
			 "red, green, yellow, blue, magenta, cyan, white, "
			 "bright-NAME or 0-255)");
}
END_TEST

START_TEST(nul_byte)
{
	static const char s[] = "row = red blue\n# a\0b\n";
	struct theme t;

	ck_assert_int_eq(parse_n(s, sizeof(s) - 1, &t), -EINVAL);
	ck_assert_str_eq(err, "line 2: NUL byte in column 4");
}
END_TEST

START_TEST(line_length)
{
	char line[THEME_LINE_MAX + 3];
	struct theme t;
	size_t n;

	/* 256 bytes is the longest line: padded with blanks. */
	n = (size_t)snprintf(line, sizeof(line), "row = red blue");
	memset(line + n, ' ', THEME_LINE_MAX - n);
	line[THEME_LINE_MAX] = '\n';
	ck_assert_int_eq(parse_n(line, THEME_LINE_MAX + 1, &t), 0);
	assert_style(&t, TE_ROW, 1, 4, 0);
	/* Without a final newline the last line is held to it too. */
	ck_assert_int_eq(parse_n(line, THEME_LINE_MAX, &t), 0);
	line[THEME_LINE_MAX] = ' ';
	line[THEME_LINE_MAX + 1] = '\n';
	ck_assert_int_eq(parse_n(line, THEME_LINE_MAX + 2, &t), -EINVAL);
	ck_assert_str_eq(err, "line 1: longer than 256 bytes");
	/* Even a comment. */
	line[0] = '#';
	ck_assert_int_eq(parse_n(line, THEME_LINE_MAX + 1, &t), -EINVAL);
	ck_assert_str_eq(err, "line 1: longer than 256 bytes");
}
END_TEST

START_TEST(error_leaves_theme)
{
	struct theme t, mono;

	theme_mono(&t);
	theme_mono(&mono);
	ck_assert_int_eq(parse("row = red blue\noom = x y\n", &t), -EINVAL);
	ck_assert_int_eq(memcmp(&t, &mono, sizeof(t)), 0);
	/* A NULL or empty err buffer is allowed. */
	ck_assert_int_eq(theme_parse("oom", 3, &t, NULL, 0), -EINVAL);
	err[0] = 'x';
	ck_assert_int_eq(theme_parse("oom", 3, &t, err, 0), -EINVAL);
	ck_assert_int_eq(err[0], 'x');
}
END_TEST

static void write_file(const char *path, const char *s, size_t len)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	ck_assert_uint_eq(fwrite(s, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
	/* Whatever the umask: a theme others may write is refused. */
	ck_assert_int_eq(chmod(path, 0644), 0);
}

START_TEST(load_by_path)
{
	char tmpdir[] = "/tmp/check_theme.XXXXXX";
	char path[PATH_MAX], want[PATH_MAX + 128];
	struct theme t, def;
	char *big;

	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	theme_default(&def);

	ck_assert_int_eq(theme_load("themes/light.theme", &t, err,
				    sizeof(err)), 0);
	ck_assert_str_eq(t.name, "light");
	assert_style(&t, TE_SELECTED, DEF, DEF, THEME_REVERSE);
	ck_assert_int_eq(theme_load("./themes/default.theme", &t, err,
				    sizeof(err)), 0);
	ck_assert_str_eq(t.name, "default");
	assert_same_styles(&t, &def);

	snprintf(path, sizeof(path), "%s/mine", tmpdir);
	write_file(path, "oom = 1 2\n", strlen("oom = 1 2\n"));
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), 0);
	ck_assert_str_eq(t.name, "mine");
	assert_style(&t, TE_OOM, 1, 2, 0);

	snprintf(path, sizeof(path), "%s/bad.theme", tmpdir);
	write_file(path, "row = red blue\n\nrow = red blue\n",
		   strlen("row = red blue\n\nrow = red blue\n"));
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: line 3: element 'row' set twice "
		 "(first on line 1)", path);
	ck_assert_str_eq(err, want);

	snprintf(path, sizeof(path), "%s/none.theme", tmpdir);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	ck_assert_str_eq(err, want);

	/* Only a regular file: a FIFO would block in open(). */
	ck_assert_int_eq(theme_load(tmpdir, &t, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", tmpdir);
	ck_assert_str_eq(err, want);
	snprintf(path, sizeof(path), "%s/fifo.theme", tmpdir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", path);
	ck_assert_str_eq(err, want);
	unlink(path);

	/* 64 KiB of comments is allowed, one byte more is not. */
	big = malloc(THEME_FILE_MAX + 1);
	ck_assert_ptr_nonnull(big);
	memset(big, '#', THEME_FILE_MAX + 1);
	for (size_t i = 100; i < THEME_FILE_MAX + 1; i += 100)
		big[i] = '\n';
	snprintf(path, sizeof(path), "%s/big.theme", tmpdir);
	write_file(path, big, THEME_FILE_MAX);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), 0);
	write_file(path, big, THEME_FILE_MAX + 1);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), -EFBIG);
	snprintf(want, sizeof(want), "%s: larger than 64 KiB", path);
	ck_assert_str_eq(err, want);
	free(big);
	unlink(path);
	snprintf(path, sizeof(path), "%s/bad.theme", tmpdir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/mine", tmpdir);
	unlink(path);
	rmdir(tmpdir);
}
END_TEST

/*
 * A theme is the effective user's or root's (the installed ones), and not
 * writable by group or others; a word of it is never quoted, so a theme
 * that names any root-owned file shows none of its content.
 */
START_TEST(load_refuses_foreign)
{
	char tmpdir[] = "/tmp/check_theme.XXXXXX";
	char path[PATH_MAX], want[PATH_MAX + 256];
	struct theme t;

	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(path, sizeof(path), "%s/x.theme", tmpdir);
	write_file(path, "row = red blue\n", strlen("row = red blue\n"));
	ck_assert_int_eq(chmod(path, 0664), 0);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), -EPERM);
	snprintf(want, sizeof(want), "%s is writable by its group or others "
		 "(mode 0664): not reading it", path);
	ck_assert_str_eq(err, want);
	ck_assert_int_eq(chmod(path, 0602), 0);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), -EPERM);
	ck_assert_int_eq(chmod(path, 0644), 0);
	ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)), 0);
	if (geteuid() == 0) {
		ck_assert_int_eq(chown(path, 65534, 65534), 0);
		ck_assert_int_eq(theme_load(path, &t, err, sizeof(err)),
				 -EPERM);
		snprintf(want, sizeof(want), "%s belongs to uid 65534, "
			 "memcgtop runs as uid 0: not reading it", path);
		ck_assert_str_eq(err, want);
	}
	unlink(path);
	rmdir(tmpdir);

	/* Root's /etc/passwd is read (root's files are trusted) and refused
	 * as a theme, with no word of it in the reason. */
	ck_assert_int_eq(theme_load("/etc/passwd", &t, err, sizeof(err)),
			 -EINVAL);
	ck_assert_str_eq(err, "/etc/passwd: line 1, column 1: unknown element "
			 "(header, colhead, colsort, row, selected, tagged, "
			 "near_limit, excess, reclaim, oom, status, error, "
			 "help, dim)");
}
END_TEST

START_TEST(load_by_name)
{
	char tmpdir[] = "/tmp/check_theme.XXXXXX";
	char cfg[256], dir[512], path[1024], want[2048];
	const char *old_xdg = getenv("XDG_CONFIG_HOME");
	const char *old_home = getenv("HOME");
	char *xdg = old_xdg ? strdup(old_xdg) : NULL;
	char *home = old_home ? strdup(old_home) : NULL;
	struct theme t;
	const char *s;

	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	snprintf(cfg, sizeof(cfg), "%s/memcgtop", tmpdir);
	snprintf(dir, sizeof(dir), "%s/themes", cfg);
	ck_assert_int_eq(mkdir(cfg, 0700), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);

	snprintf(path, sizeof(path), "%s/mine.theme", dir);
	s = "tagged = 9 default underline\n";
	write_file(path, s, strlen(s));
	ck_assert_int_eq(theme_load("mine", &t, err, sizeof(err)), 0);
	ck_assert_str_eq(t.name, "mine");
	assert_style(&t, TE_TAGGED, 9, DEF, THEME_UNDERLINE);

	/* A broken theme is reported, not passed over for another. */
	s = "tagged = 9\n";
	write_file(path, s, strlen(s));
	ck_assert_int_eq(theme_load("mine", &t, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: line 1: missing bg colour for "
		 "'tagged' (element = fg bg [attr ...])", path);
	ck_assert_str_eq(err, want);

	ck_assert_int_eq(theme_load("no-such-theme", &t, err, sizeof(err)),
			 -ENOENT);
	snprintf(want, sizeof(want), "theme 'no-such-theme' not found "
		 "(looked in %s, ", dir);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
	ck_assert_msg(strstr(err, "/themes)") != NULL, "%s", err);
	ck_assert_int_eq(theme_load("", &t, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "empty theme name");

	/* A relative XDG_CONFIG_HOME is ignored, as the XDG spec says. */
	setenv("XDG_CONFIG_HOME", "relative", 1);
	setenv("HOME", tmpdir, 1);
	ck_assert_int_eq(theme_load("no-such-theme", &t, err, sizeof(err)),
			 -ENOENT);
	snprintf(want, sizeof(want), "theme 'no-such-theme' not found "
		 "(looked in %s/.config/memcgtop/themes, ", tmpdir);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);

	/* Check may run the tests without forking: put the env back. */
	if (xdg)
		setenv("XDG_CONFIG_HOME", xdg, 1);
	else
		unsetenv("XDG_CONFIG_HOME");
	if (home)
		setenv("HOME", home, 1);
	else
		unsetenv("HOME");
	free(xdg);
	free(home);
	unlink(path);
	rmdir(dir);
	rmdir(cfg);
	rmdir(tmpdir);
}
END_TEST

Suite *theme_suite(void)
{
	Suite *s = suite_create("theme");
	TCase *t = tcase_create("core");

	tcase_add_test(t, element_names);
	tcase_add_test(t, builtin_themes);
	tcase_add_test(t, default_file_is_builtin);
	tcase_add_test(t, mono_file_is_builtin);
	tcase_add_test(t, default_file_palette);
	tcase_add_test(t, light_file_palette);
	tcase_add_test(t, high_contrast_file_palette);
	tcase_add_test(t, syntax_accepted);
	tcase_add_test(t, no_nul_no_newline);
	tcase_add_test(t, colour_numbers);
	tcase_add_test(t, error_messages);
	tcase_add_test(t, nul_byte);
	tcase_add_test(t, line_length);
	tcase_add_test(t, error_leaves_theme);
	tcase_add_test(t, load_by_path);
	tcase_add_test(t, load_by_name);
	tcase_add_test(t, load_refuses_foreign);
	suite_add_tcase(s, t);
	return s;
}
