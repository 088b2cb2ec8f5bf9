/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane.c - the panes below the tree: what each shows is its file
 * (pane_detail.c, pane_procs.c, pane_oom.c); here their loading, their
 * lines and their scroll. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "pane.h"
#include "xalloc.h"

void tui_pane_free(struct tui *t)
{
	free(t->detail_path);
	free(t->stat_cur);
	free(t->stat_prev);
	t->detail_path = NULL;
	t->stat_cur = t->stat_prev = NULL;
	t->nstat_cur = t->nstat_prev = 0;
}

/* Has the collector read what the pane shows of the selected group when
 * the pane opens, when the selection changes and once per refresh
 * (model.focus); drawing reads what is kept. */
void tui_pane_load(struct tui *t)
{
	const struct mgroup *g = tui_selected(t);
	int same, r;

	/* The OOM pane shows the model's log: nothing to read. */
	if (t->pane == PANE_NONE || t->pane == PANE_OOM || !g)
		return;
	r = pipeline_focus(&t->pl, g->path, g->depth == 0,
			   t->pane == PANE_PROCS ? FOCUS_PROCS : FOCUS_DETAIL);
	/* What is loaded depends on the group, the refresh and the pane. */
	if (r == 0)
		return;
	same = t->detail_path && strcmp(t->detail_path, g->path) == 0;
	if (!same) {
		free(t->detail_path);
		t->detail_path = xstrdup(g->path);
		t->nstat_cur = 0;
		t->detail_top = 0;
	}
	if (t->pane == PANE_PROCS || r < 0)
		return;
	pane_detail_load(t, g, same);
}

/* Formats a pane line and escapes what the terminal must not see raw
 * (group names, command lines). */
static void pfmt(char *safe, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void pfmt(char *safe, size_t len, const char *fmt, va_list ap)
{
	char raw[512];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	fmt_escape(safe, len, raw, strlen(raw));
}

void ptitle(struct pane_out *p, int attr, const char *fmt, ...)
{
	char safe[1100];
	va_list ap;

	va_start(ap, fmt);
	pfmt(safe, sizeof(safe), fmt, ap);
	va_end(ap);
	if (p->rows <= 0)
		return;
	attrset(attr);
	mvaddnstr(p->y0, 0, safe, COLS);
	attrset(A_NORMAL);
	p->y0++;
	p->y++;
	p->rows--;
}

int prow(struct pane_out *p, const char *fmt, ...)
{
	char safe[1100];
	int cols = 0;
	va_list ap;

	va_start(ap, fmt);
	pfmt(safe, sizeof(safe), fmt, ap);
	va_end(ap);
	p->total++;
	if (p->skip > 0) {
		p->skip--;
	} else if (p->y < p->y0 + p->rows) {
		mvaddnstr(p->y, 0, safe, COLS);
		p->y++;
	}
	/* Characters, not bytes: UTF-8 continuation bytes do not count. */
	for (const unsigned char *c = (const unsigned char *)safe; *c; c++)
		cols += (*c & 0xC0) != 0x80;
	return cols > COLS;
}

void pline(struct pane_out *p, int attr, const char *fmt, ...)
{
	char safe[1100];
	va_list ap;

	va_start(ap, fmt);
	pfmt(safe, sizeof(safe), fmt, ap);
	va_end(ap);
	/* Long lines wrap, at a space where there is one. */
	for (const char *c = safe; ; ) {
		const char *next, *end = tui_wrap(c, COLS, &next);

		p->total++;
		if (p->skip > 0) {
			p->skip--;
		} else if (p->y < p->y0 + p->rows) {
			attrset(attr);
			mvaddnstr(p->y, 0, c, (int)(end - c));
			attrset(A_NORMAL);
			p->y++;
		}
		if (!*next)
			break;
		c = next;
	}
}

void praw(struct pane_out *p, const char *line)
{
	p->total++;
	if (p->skip > 0) {
		p->skip--;
	} else if (p->y < p->y0 + p->rows) {
		mvaddstr(p->y, 0, line);
		p->y++;
	}
}

static void draw_lines(struct tui *t, const struct mgroup *g,
		       struct pane_out *p)
{
	if (t->pane == PANE_OOM)
		oom_lines(p);
	else if (t->pane == PANE_PROCS)
		proc_lines(p, g);
	else
		detail_lines(p, g);
}

void tui_draw_pane(struct tui *t, int y0, int rows)
{
	const struct mgroup *g = tui_selected(t);
	struct pane_out p = { t, y0, y0, rows, t->detail_top, 0 };

	if (!g || rows <= 0)
		return;
	draw_lines(t, g, &p);
	/* The scroll ends where the last line is at the pane's bottom; a
	 * pane that shrank (fewer lines, a smaller screen) is drawn again
	 * from there. */
	t->detail_max_top = p.total > p.rows ? p.total - p.rows : 0;
	if (t->detail_top > t->detail_max_top) {
		t->detail_top = t->detail_max_top;
		for (int y = y0; y < y0 + rows; y++) {
			move(y, 0);
			clrtoeol();
		}
		p = (struct pane_out){ t, y0, y0, rows, t->detail_top, 0 };
		draw_lines(t, g, &p);
	}
}
