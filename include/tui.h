/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tui.h - the interactive ncurses console.
 *
 * It reads the model (model.src: what the source is) and the column
 * table, and asks through the pipeline; the source is an opaque handle
 * here.
 */
#ifndef MEMCGTOP_TUI_H
#define MEMCGTOP_TUI_H

#include <stdio.h>

#include "columns.h"

struct cgfs;

struct tui_opts {
	struct cgfs *cg;
	double delay;
	const struct column *sort;
	int sort_desc;
	const struct column **custom;	/* -c, or NULL */
	size_t ncustom;
	int maxdepth;
	const char *filter;
	int ascii;		/* --ascii: no UTF-8 glyphs */
	double history;		/* --history: seconds kept, 0 none; the
				 * right-size window too */
	int rec_margin;		/* --rec-margin, or the settings file's */
	int no_color;		/* --no-color or NO_COLOR */
	const char *theme;	/* -t NAME|FILE, or NULL */
	const char *set_name;	/* column set to start with, or NULL */
	char *const *folded;	/* group paths to start folded */
	size_t nfolded;
	int recording;		/* --record: a failed sample fails the run */
	long follow;		/* --follow: seconds a change is followed */
};

/* Whether name is a column set of the screen ("overview", "LRU", ...). */
int tui_set_known(const char *name);

/* Prints the key table, one binding a line (--list-keys). */
void tui_list_keys(FILE *f);

/* Runs until the user quits; returns the exit status. */
int tui_run(const struct tui_opts *o);

#endif
