/* SPDX-License-Identifier: GPL-2.0-or-later */
/* theme.c - colour themes: the built-in ones and the theme file parser. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fmt.h"
#include "theme.h"
#include "trust.h"
#include "xalloc.h"

#ifndef THEMEDIR
#define THEMEDIR "/usr/local/share/memcgtop/themes"
#endif

static const char *const elem_names[TE_NR] = {
	[TE_HEADER] = "header",
	[TE_COLHEAD] = "colhead",
	[TE_COLSORT] = "colsort",
	[TE_ROW] = "row",
	[TE_SELECTED] = "selected",
	[TE_TAGGED] = "tagged",
	[TE_NEAR_LIMIT] = "near_limit",
	[TE_EXCESS] = "excess",
	[TE_RECLAIM] = "reclaim",
	[TE_OOM] = "oom",
	[TE_STATUS] = "status",
	[TE_ERROR] = "error",
	[TE_HELP] = "help",
	[TE_DIM] = "dim",
};

/* The eight base colours in their curses order (COLOR_BLACK is 0). */
static const char *const colour_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
};

static const struct {
	const char *name;
	unsigned bit;
} attr_names[] = {
	{ "bold", THEME_BOLD },
	{ "dim", THEME_DIM },
	{ "underline", THEME_UNDERLINE },
	{ "reverse", THEME_REVERSE },
	{ "standout", THEME_STANDOUT },
};

/* The lists the error messages offer, kept beside the tables above. */
#define ELEM_LIST "header, colhead, colsort, row, selected, tagged, " \
	"near_limit, excess, reclaim, oom, status, error, help, dim"
#define COLOUR_LIST "default, black, red, green, yellow, blue, magenta, " \
	"cyan, white, bright-NAME or 0-255"
#define ATTR_LIST "bold, dim, underline, reverse, standout"
#define SYNTAX "(element = fg bg [attr ...])"

enum { DEF = -1, BLACK, RED, GREEN, YELLOW, BLUE, MAGENTA, CYAN, WHITE };
#define S(f, b, a) { .fg = (f), .bg = (b), .attrs = (a) }

/*
 * themes/default.theme must say exactly this; a unit test holds the two
 * together.  Only the eight base colours are used so that the default
 * looks the same on every colour terminal.
 */
static const struct theme_style default_el[TE_NR] = {
	[TE_HEADER] = S(CYAN, DEF, THEME_BOLD),
	[TE_COLHEAD] = S(BLACK, GREEN, 0),
	[TE_COLSORT] = S(BLACK, CYAN, THEME_BOLD),
	[TE_ROW] = S(DEF, DEF, 0),
	[TE_SELECTED] = S(BLACK, WHITE, 0),
	[TE_TAGGED] = S(YELLOW, DEF, THEME_BOLD),
	[TE_NEAR_LIMIT] = S(RED, DEF, 0),
	[TE_EXCESS] = S(MAGENTA, DEF, 0),
	[TE_RECLAIM] = S(CYAN, DEF, 0),
	[TE_OOM] = S(WHITE, RED, THEME_BOLD),
	[TE_STATUS] = S(DEF, DEF, THEME_BOLD),
	[TE_ERROR] = S(RED, DEF, THEME_BOLD),
	[TE_HELP] = S(DEF, DEF, 0),
	[TE_DIM] = S(DEF, DEF, THEME_DIM),
};

/*
 * themes/mono.theme must say exactly this.  With attributes alone not
 * every element can differ, so the row-wide styles (selected, tagged) and
 * the alarms (oom, error) get the strongest ones.
 */
static const struct theme_style mono_el[TE_NR] = {
	[TE_HEADER] = S(DEF, DEF, THEME_BOLD),
	[TE_COLHEAD] = S(DEF, DEF, THEME_REVERSE),
	[TE_COLSORT] = S(DEF, DEF, THEME_REVERSE | THEME_BOLD |
			 THEME_UNDERLINE),
	[TE_ROW] = S(DEF, DEF, 0),
	[TE_SELECTED] = S(DEF, DEF, THEME_REVERSE | THEME_BOLD),
	[TE_TAGGED] = S(DEF, DEF, THEME_UNDERLINE),
	[TE_NEAR_LIMIT] = S(DEF, DEF, THEME_BOLD),
	[TE_EXCESS] = S(DEF, DEF, THEME_BOLD | THEME_UNDERLINE),
	[TE_RECLAIM] = S(DEF, DEF, THEME_UNDERLINE),
	[TE_OOM] = S(DEF, DEF, THEME_STANDOUT | THEME_BOLD),
	[TE_STATUS] = S(DEF, DEF, THEME_BOLD),
	[TE_ERROR] = S(DEF, DEF, THEME_STANDOUT | THEME_BOLD),
	[TE_HELP] = S(DEF, DEF, 0),
	[TE_DIM] = S(DEF, DEF, THEME_DIM),
};

const char *theme_elem_name(enum theme_elem e)
{
	if ((unsigned)e >= TE_NR)
		return NULL;
	return elem_names[e];
}

/* Copies at most sizeof(name) - 1 bytes: a long name is cut, not refused. */
static void set_name(struct theme *t, const char *s, size_t len)
{
	if (len >= sizeof(t->name))
		len = sizeof(t->name) - 1;
	memcpy(t->name, s, len);
	t->name[len] = '\0';
}

void theme_default(struct theme *ret)
{
	memset(ret, 0, sizeof(*ret));
	set_name(ret, "default", strlen("default"));
	memcpy(ret->el, default_el, sizeof(ret->el));
}

void theme_mono(struct theme *ret)
{
	memset(ret, 0, sizeof(*ret));
	set_name(ret, "mono", strlen("mono"));
	memcpy(ret->el, mono_el, sizeof(ret->el));
}

__attribute__((format(printf, 3, 4)))
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/*
 * "line N: WHAT 'NAME'TAIL", NAME an element's name from elem_names: a
 * word of the file is never quoted (fail_at), as a theme may be any file
 * memcgtop can read, one of root's too.
 */
static int fail_elem(char *err, size_t errlen, size_t line, const char *what,
		     enum theme_elem e, const char *tail)
{
	set_err(err, errlen, "line %zu: %s '%s'%s", line, what, elem_names[e],
		tail);
	return -EINVAL;
}

/* "line N, column C: WHAT": where the word that is not understood starts
 * (C counts bytes from 1). */
static int fail_at(char *err, size_t errlen, size_t line, size_t col,
		   const char *what)
{
	set_err(err, errlen, "line %zu, column %zu: %s", line, col, what);
	return -EINVAL;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int word_is(const char *w, size_t wlen, const char *s)
{
	return strlen(s) == wlen && memcmp(w, s, wlen) == 0;
}

/*
 * The next blank-separated word at or after *pos.  A word starting with
 * '#' begins a comment that runs to the end of the line, so it ends the
 * words too.  Returns 1 with the word, or 0 at the end of the words.
 */
static int next_word(const char *s, size_t n, size_t *pos,
		     const char **ret_w, size_t *ret_len)
{
	size_t p = *pos, start;

	while (p < n && is_blank(s[p]))
		p++;
	if (p == n || s[p] == '#') {
		*pos = n;
		return 0;
	}
	start = p;
	while (p < n && !is_blank(s[p]))
		p++;
	*ret_w = s + start;
	*ret_len = p - start;
	*pos = p;
	return 1;
}

static int base_colour(const char *w, size_t wlen)
{
	for (int i = 0; i < 8; i++)
		if (word_is(w, wlen, colour_names[i]))
			return i;
	return -1;
}

/* Returns 0, -EINVAL for a word that is no colour, -ERANGE above 255. */
static int parse_colour(const char *w, size_t wlen, short *ret_c)
{
	static const char bright[] = "bright-";
	const size_t blen = sizeof(bright) - 1;
	unsigned v = 0;
	int c;

	if (word_is(w, wlen, "default")) {
		*ret_c = THEME_COLOR_DEFAULT;
		return 0;
	}
	if (wlen > blen && memcmp(w, bright, blen) == 0) {
		c = base_colour(w + blen, wlen - blen);
		if (c < 0)
			return -EINVAL;
		*ret_c = (short)(c + 8);
		return 0;
	}
	c = base_colour(w, wlen);
	if (c >= 0) {
		*ret_c = (short)c;
		return 0;
	}
	for (size_t i = 0; i < wlen; i++) {
		if (w[i] < '0' || w[i] > '9')
			return -EINVAL;
		/* Stops growing once too large, so no length can overflow. */
		if (v <= 255)
			v = v * 10 + (unsigned)(w[i] - '0');
	}
	if (v > 255)
		return -ERANGE;
	*ret_c = (short)v;
	return 0;
}

static int colour_word(const char *w, size_t wlen, size_t line, size_t col,
		       short *ret_c, char *err, size_t errlen)
{
	int r = parse_colour(w, wlen, ret_c);

	if (r == -ERANGE)
		return fail_at(err, errlen, line, col,
			       "colour number out of range (0-255)");
	if (r < 0)
		return fail_at(err, errlen, line, col,
			       "unknown colour (" COLOUR_LIST ")");
	return 0;
}

/*
 * One line without its newline: blank, a comment, or
 * "element = fg bg [attr ...]".  first[] holds the line each element was
 * set on, 0 while it is not.
 */
static int parse_line(const char *s, size_t n, size_t line, struct theme *t,
		      size_t first[TE_NR], char *err, size_t errlen)
{
	struct theme_style st = { .fg = DEF, .bg = DEF, .attrs = 0 };
	const char *ew, *w;
	size_t p = 0, elen, wlen;
	char tail[64];
	int e, r;

	while (p < n && is_blank(s[p]))
		p++;
	if (p == n || s[p] == '#')
		return 0;
	/* "row=default default" needs no blank before the '='. */
	ew = s + p;
	while (p < n && !is_blank(s[p]) && s[p] != '=')
		p++;
	elen = (size_t)(s + p - ew);
	if (elen == 0) {
		set_err(err, errlen,
			"line %zu: missing element name before '='", line);
		return -EINVAL;
	}
	for (e = 0; e < TE_NR; e++)
		if (word_is(ew, elen, elem_names[e]))
			break;
	if (e == TE_NR)
		return fail_at(err, errlen, line, (size_t)(ew - s) + 1,
			       "unknown element (" ELEM_LIST ")");
	if (first[e]) {
		snprintf(tail, sizeof(tail), " set twice (first on line %zu)",
			 first[e]);
		return fail_elem(err, errlen, line, "element", e, tail);
	}
	while (p < n && is_blank(s[p]))
		p++;
	if (p == n || s[p] != '=')
		return fail_elem(err, errlen, line, "missing '=' after", e,
				 " " SYNTAX);
	p++;

	if (!next_word(s, n, &p, &w, &wlen))
		return fail_elem(err, errlen, line, "missing fg colour for", e,
				 " " SYNTAX);
	r = colour_word(w, wlen, line, (size_t)(w - s) + 1, &st.fg, err,
			errlen);
	if (r < 0)
		return r;
	if (!next_word(s, n, &p, &w, &wlen))
		return fail_elem(err, errlen, line, "missing bg colour for", e,
				 " " SYNTAX);
	r = colour_word(w, wlen, line, (size_t)(w - s) + 1, &st.bg, err,
			errlen);
	if (r < 0)
		return r;
	while (next_word(s, n, &p, &w, &wlen)) {
		size_t i;

		for (i = 0; i < sizeof(attr_names) / sizeof(attr_names[0]); i++)
			if (word_is(w, wlen, attr_names[i].name))
				break;
		if (i == sizeof(attr_names) / sizeof(attr_names[0]))
			return fail_at(err, errlen, line, (size_t)(w - s) + 1,
				       "unknown attribute (" ATTR_LIST ")");
		st.attrs |= attr_names[i].bit;
	}
	t->el[e] = st;
	first[e] = line;
	return 0;
}

int theme_parse(const char *buf, size_t len, struct theme *ret,
		char *err, size_t errlen)
{
	size_t first[TE_NR] = { 0 };
	size_t pos = 0, line = 0;
	struct theme t;
	int r;

	theme_default(&t);
	t.name[0] = '\0';
	while (pos < len) {
		const char *s = buf + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		const char *nul = memchr(s, '\0', n);

		line++;
		pos += n + (nl ? 1 : 0);
		/* A NUL says "not a text file" better than any length does. */
		if (nul) {
			set_err(err, errlen, "line %zu: NUL byte in column %zu",
				line, (size_t)(nul - s) + 1);
			return -EINVAL;
		}
		if (n > THEME_LINE_MAX) {
			set_err(err, errlen, "line %zu: longer than %d bytes",
				line, THEME_LINE_MAX);
			return -EINVAL;
		}
		r = parse_line(s, n, line, &t, first, err, errlen);
		if (r < 0)
			return r;
	}
	*ret = t;
	return 0;
}

/*
 * Reads at most THEME_FILE_MAX bytes; one more tells a file that is too
 * large.  Only a regular file: O_NONBLOCK, so that opening a FIFO does not
 * wait for a writer, then -EINVAL for anything else (a FIFO, a device such
 * as /dev/zero, a directory).
 */
static int read_file(const char *path, char **ret_buf, size_t *ret_len,
		     char *why, size_t whylen)
{
	struct stat st;
	size_t len = 0;
	char *buf;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	/* The user's own, or root's (the installed themes): a theme names
	 * a file, and root's memcgtop under sudo must not take one another
	 * user chose or may change (trust.h). */
	if (trust_stat(&st, 1, why, whylen) < 0) {
		close(fd);
		return -EPERM;
	}
	buf = xmalloc(THEME_FILE_MAX + 1);
	while (len < THEME_FILE_MAX + 1) {
		ssize_t n = read(fd, buf + len, THEME_FILE_MAX + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r == 0 && len > THEME_FILE_MAX)
		r = -EFBIG;
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret_buf = buf;
	*ret_len = len;
	return 0;
}

/* The theme's name from a path: its file name without ".theme". */
static void name_from_path(struct theme *t, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strlen(base);
	if (len > 6 && strcmp(base + len - 6, ".theme") == 0)
		len -= 6;
	set_name(t, base, len);
}

static int load_path(const char *path, struct theme *ret, char *err,
		     size_t errlen)
{
	char perr[THEME_LINE_MAX * 4 + 256], why[96];
	struct theme t;
	size_t len = 0;
	char *buf = NULL;
	int r;

	r = read_file(path, &buf, &len, why, sizeof(why));
	if (r == -EPERM) {
		set_err(err, errlen, "%s %s: not reading it", path, why);
		return r;
	}
	if (r == -EFBIG) {
		set_err(err, errlen, "%s: larger than %d KiB", path,
			THEME_FILE_MAX / 1024);
		return r;
	}
	if (r == -EINVAL) {
		set_err(err, errlen, "%s: not a regular file", path);
		return r;
	}
	if (r < 0) {
		set_err(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	r = theme_parse(buf, len, &t, perr, sizeof(perr));
	free(buf);
	if (r < 0) {
		set_err(err, errlen, "%s: %s", path, perr);
		return r;
	}
	*ret = t;
	return 0;
}

/* Whether dirs[nr] repeats one before it, as an installed copy might. */
static int seen(char dirs[][PATH_MAX], int nr)
{
	for (int i = 0; i < nr; i++)
		if (strcmp(dirs[i], dirs[nr]) == 0)
			return 1;
	return 0;
}

/*
 * The directories a theme name is looked up in, most personal first.  One
 * that cannot be known (no HOME, no /proc) is left out.
 */
static int theme_dirs(char dirs[3][PATH_MAX])
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char exe[PATH_MAX];
	ssize_t n;
	int nr = 0, w;

	/* The XDG spec says a relative XDG_CONFIG_HOME is to be ignored. */
	if (xdg && xdg[0] == '/')
		w = snprintf(dirs[nr], PATH_MAX, "%s/memcgtop/themes", xdg);
	else if (home && home[0])
		w = snprintf(dirs[nr], PATH_MAX, "%s/.config/memcgtop/themes",
			     home);
	else
		w = -1;
	if (w > 0 && w < PATH_MAX)
		nr++;
	snprintf(dirs[nr], PATH_MAX, "%s", THEMEDIR);
	if (!seen(dirs, nr))
		nr++;
	/* So that ./memcgtop -t light works from the source tree. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			w = snprintf(dirs[nr], PATH_MAX, "%s/themes", exe);
			if (w > 0 && w < PATH_MAX && !seen(dirs, nr))
				nr++;
		}
	}
	return nr;
}

int theme_load(const char *name_or_path, struct theme *ret, char *err,
	       size_t errlen)
{
	char dirs[3][PATH_MAX], path[PATH_MAX], looked[3 * PATH_MAX + 8];
	size_t llen = 0;
	int nr, r;

	if (strchr(name_or_path, '/')) {
		r = load_path(name_or_path, ret, err, errlen);
		if (r == 0)
			name_from_path(ret, name_or_path);
		return r;
	}
	if (!name_or_path[0]) {
		set_err(err, errlen, "empty theme name");
		return -EINVAL;
	}
	looked[0] = '\0';
	nr = theme_dirs(dirs);
	for (int i = 0; i < nr; i++) {
		int w = snprintf(path, sizeof(path), "%s/%s.theme", dirs[i],
				 name_or_path);

		llen += (size_t)snprintf(looked + llen, sizeof(looked) - llen,
					 "%s%s", i ? ", " : "", dirs[i]);
		if (w < 0 || (size_t)w >= sizeof(path))
			continue;
		r = load_path(path, ret, err, errlen);
		if (r == 0) {
			set_name(ret, name_or_path, strlen(name_or_path));
			return 0;
		}
		/*
		 * Only a missing file moves on: a theme that is there but
		 * broken or unreadable must be reported, not silently
		 * replaced by one further down the list.
		 */
		if (r != -ENOENT && r != -ENOTDIR)
			return r;
	}
	set_err(err, errlen, "theme '%s' not found (looked in %s)",
		name_or_path, looked);
	return -ENOENT;
}
