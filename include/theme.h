/* SPDX-License-Identifier: GPL-2.0-or-later */
/* theme.h - colour themes: built-in styles and theme files. */
#ifndef MEMCGTOP_THEME_H
#define MEMCGTOP_THEME_H

#include <stddef.h>

/* The parts of the screen a theme styles. */
enum theme_elem {
	TE_HEADER,	/* the summary lines at the top */
	TE_COLHEAD,	/* the column headings */
	TE_COLSORT,	/* the heading of the sort column */
	TE_ROW,		/* an ordinary group row */
	TE_SELECTED,	/* the row under the cursor */
	TE_TAGGED,	/* a row the user tagged */
	TE_NEAR_LIMIT,	/* usage near its effective limit */
	TE_EXCESS,	/* in excess */
	TE_RECLAIM,	/* being reclaimed now */
	TE_OOM,		/* OOM events in the interval */
	TE_STATUS,	/* the status line */
	TE_ERROR,	/* error messages */
	TE_HELP,	/* the help screen */
	TE_DIM,		/* values of little interest, such as zeroes */
	TE_NR
};

/* Attribute bits; the TUI maps them to curses attributes. */
#define THEME_BOLD	1u
#define THEME_DIM	2u
#define THEME_UNDERLINE	4u
#define THEME_REVERSE	8u
#define THEME_STANDOUT	16u

/* A colour of -1 is the terminal's default; otherwise 0..255. */
#define THEME_COLOR_DEFAULT	(-1)

/* Longest theme file line in bytes (without its newline). */
#define THEME_LINE_MAX	256
/* Largest theme file theme_load() accepts, in bytes. */
#define THEME_FILE_MAX	(64 * 1024)

struct theme_style {
	short fg, bg;		/* -1 = terminal default, 0..255 */
	unsigned attrs;		/* THEME_* bits */
};

struct theme {
	char name[64];
	struct theme_style el[TE_NR];
};

/*
 * "header", "colhead", "colsort", "row", "selected", "tagged",
 * "near_limit", "excess", "reclaim", "oom", "status", "error", "help",
 * "dim"; NULL for a value outside the enum.
 */
const char *theme_elem_name(enum theme_elem e);

/* The built-in dark default, identical to themes/default.theme. */
void theme_default(struct theme *ret);

/*
 * Attributes only, every fg/bg -1 (identical to themes/mono.theme): for
 * NO_COLOR, --no-color and terminals without colour.
 */
void theme_mono(struct theme *ret);

/*
 * Parses a theme file's text: "element = fg bg [attr ...]" lines, '#'
 * comments.  Elements not mentioned keep theme_default()'s style; ret->name
 * is left empty.  Reads no byte at or past buf + len and needs no NUL.
 * Returns 0, or -EINVAL with a one-line message "line N: ..." in err (ret
 * is then untouched).
 */
int theme_parse(const char *buf, size_t len, struct theme *ret,
		char *err, size_t errlen);

/*
 * Loads a theme file: a path when the argument holds a '/', otherwise
 * NAME.theme searched in $XDG_CONFIG_HOME/memcgtop/themes (default
 * ~/.config/memcgtop/themes), THEMEDIR, and themes/ beside the running
 * executable.  Sets ret->name to the theme's name.  Returns 0 or a negative
 * errno with a one-line message in err (no program name prefix).
 */
int theme_load(const char *name_or_path, struct theme *ret,
	       char *err, size_t errlen);

#endif
