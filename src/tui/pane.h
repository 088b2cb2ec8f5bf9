/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane.h - the panes' lines (pane.c) and each pane's (pane_*.c). */
#ifndef MEMCGTOP_PANE_H
#define MEMCGTOP_PANE_H

#include "tui_int.h"

/* The pane's title lines stay put; the lines below them scroll (J/K). */
struct pane_out {
	struct tui *t;
	int y, y0, rows, skip, total;
};

/* A title line: drawn at the top of the pane, outside the scroll. */
void ptitle(struct pane_out *p, int attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A table row: cut at the screen's edge, as top and htop do.  Returns
 * whether it was cut. */
int prow(struct pane_out *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A line, wrapped at a space where there is one. */
void pline(struct pane_out *p, int attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A line of our own making (no names in it), as wide as the screen. */
void praw(struct pane_out *p, const char *line);

/* pane_detail.c */
void pane_detail_load(struct tui *t, const struct mgroup *g, int same);
void detail_lines(struct pane_out *p, const struct mgroup *g);
/* pane_procs.c */
void proc_lines(struct pane_out *p, const struct mgroup *g);
/* pane_oom.c */
void oom_lines(struct pane_out *p);

#endif
