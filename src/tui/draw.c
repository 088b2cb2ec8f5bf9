/* SPDX-License-Identifier: GPL-2.0-or-later */
/* draw.c - the screen: header, column titles, the tree, panes, status.
 *
 * Every frame is drawn into curses' buffer in full and curses sends only
 * what changed; nothing clears the terminal, so a steady screen costs a
 * few bytes per refresh over a slow link.
 */
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <wchar.h>

#include "fmt.h"
#include "parse.h"
#include "tui_int.h"

static const char *const set_names[SET_NR] = {
	[SET_OVERVIEW] = "overview", [SET_MEMORY] = "memory", [SET_LRU] = "LRU",
	[SET_RECLAIM] = "reclaim", [SET_EVENTS] = "events",
	[SET_LIMITS] = "limits", [SET_CUSTOM] = "custom",
};

const char *tui_set_name(int set)
{
	return set_names[set];
}

/* Header lines above the list and the status line below it. */
#define HEADER_LINES 4

int tui_list_rows(const struct tui *t)
{
	int rows = LINES - HEADER_LINES - 1;

	if (t->pane != PANE_NONE)
		rows = rows >= 16 ? rows / 2 : rows;
	return rows > 0 ? rows : 0;
}

/* Display columns of the UTF-8 character at s (1 in ASCII mode). */
static int char_cols(const struct tui *t, const char *s, size_t n)
{
	wchar_t wc;
	int w;

	if (!t->utf8 || n == 1)
		return 1;
	if (mbtowc(&wc, s, n) <= 0)
		return 1;
	w = wcwidth(wc);
	return w < 0 ? 1 : w;
}

/*
 * Draws text at virtual column *vx of line y, clipped by the horizontal
 * scroll (when scroll) and the screen width.  The text is safe for the
 * terminal already (escaped).
 */
static void put(const struct tui *t, int y, int *vx, const char *s, int attr,
		int scroll)
{
	int off = scroll ? t->hscroll : 0;

	attrset(attr);
	while (*s) {
		size_t n = fmt_utf8_len((const unsigned char *)s, strlen(s));
		int w;

		if (n == 0)
			n = 1;
		w = char_cols(t, s, n);
		if (*vx - off + w > COLS)
			break;
		if (*vx >= off)
			mvaddnstr(y, *vx - off, s, (int)n);
		*vx += w;
		s += n;
	}
	attrset(A_NORMAL);
}

/*
 * Where a line of screen text that is wider than cols is broken: after
 * the last space that fits (the next line starts after it), else at cols.
 * Returns the end of this line's text; *ret_next is where the next starts.
 */
const char *tui_wrap(const char *s, int cols, const char **ret_next)
{
	const char *end = s, *space = NULL;
	int n = 0;

	while (*end && n < cols) {
		size_t l = fmt_utf8_len((const unsigned char *)end, strlen(end));

		if (*end == ' ')
			space = end;
		end += l ? l : 1;
		n++;
	}
	if (*end == ' ') {
		*ret_next = end + 1;
		return end;
	}
	if (!*end || !space || space == s) {
		*ret_next = end;
		return end;
	}
	*ret_next = space + 1;
	return space;
}

/* Fills the rest of line y with attr (a highlighted row, the title bar). */
static void fill(int y, int x, int attr)
{
	if (x >= COLS)
		return;
	attrset(attr);
	mvhline(y, x < 0 ? 0 : x, ' ', COLS - (x < 0 ? 0 : x));
	attrset(A_NORMAL);
}

/* Escapes a name for the screen; in ASCII mode every byte >= 0x80 too. */
static void screen_name(const struct tui *t, const char *name, char *buf,
			size_t len)
{
	char tmp[1024];
	size_t o = 0;

	fmt_escape(tmp, sizeof(tmp), name, strlen(name));
	if (t->utf8) {
		snprintf(buf, len, "%s", tmp);
		return;
	}
	for (const unsigned char *p = (const unsigned char *)tmp;
	     *p && o + 5 < len; p++) {
		if (*p >= 0x80)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02X", *p);
		else
			buf[o++] = (char)*p;
	}
	buf[o] = '\0';
}

static void draw_header(const struct tui *t)
{
	const struct model *m = &t->m;
	struct utsname u;
	char line[600], clock[16];
	struct sys_text st;
	time_t now = m->refreshes ? (time_t)m->wall : time(NULL);
	struct tm tm;
	int vx = 0;

	if (uname(&u) < 0) {
		snprintf(u.nodename, sizeof(u.nodename), "?");
		snprintf(u.release, sizeof(u.release), "?");
	}
	localtime_r(&now, &tm);
	strftime(clock, sizeof(clock), "%H:%M:%S", &tm);
	/* What changes first, what is cut first last: at 80 columns the
	 * host and kernel give way to the interval and the pause mark. */
	{
		size_t n, k = cgfs_position(t->cg, &n);
		char pos[48] = "";

		/* A recording shows where in it the screen is. */
		if (n)
			snprintf(pos, sizeof(pos), "sample %zu/%zu  ", k + 1, n);
		/* 0.05 s is shown as such, not rounded to 0.1. */
		snprintf(line, sizeof(line), "memcgtop %s  every %.*fs%s  %s%s "
			 "%s  %s %s", clock, t->delay * 10 ==
			 (double)(long)(t->delay * 10) ? 1 : 2, t->delay,
			 t->paused ? " [paused]" : "", pos, cgfs_mode(t->cg),
			 cgfs_root(t->cg), u.nodename, u.release);
	}
	put(t, 0, &vx, line, t->attr[TE_HEADER], 0);
	fill(0, vx, t->attr[TE_HEADER]);

	col_sys_text(m, 1, &st);
	snprintf(line, sizeof(line), "Mem %s avail %s  Swap %s/%s  Scan %s/s "
		 "Steal %s/s PSI %s/%s", st.total, st.avail, st.swap_used,
		 st.swap_total, st.scan, st.steal, st.some, st.full);
	vx = 0;
	put(t, 1, &vx, line, A_NORMAL, 0);
	fill(1, vx, A_NORMAL);

	snprintf(line, sizeof(line), "Columns: %s  Sort: %s %s  Groups: %zu "
		 "shown of %zu%s%s%s", set_names[t->cur_set], t->sort->key,
		 t->sort_desc ? "desc" : "asc", t->nvis, m->n,
		 t->filter[0] ? "  Filter: " : "", t->filter,
		 t->search[0] ? "" : "");
	vx = 0;
	put(t, 2, &vx, line, A_NORMAL, 0);
	fill(2, vx, A_NORMAL);
}

/* Where the set has the group column; setn when it has none. */
static size_t path_index(const struct tui *t)
{
	for (size_t i = 0; i < t->setn[t->cur_set]; i++)
		if (t->set[t->cur_set][i]->unit == U_PATH)
			return i;
	return t->setn[t->cur_set];
}

static void draw_titles(const struct tui *t, int y)
{
	const struct column *const *cols = t->set[t->cur_set];
	int vx = 0;

	put(t, y, &vx, " ", t->attr[TE_COLHEAD], 1);
	/* The group column has no width of its own: it always comes last,
	 * wherever the set puts it. */
	for (size_t j = 0; j <= t->setn[t->cur_set]; j++) {
		size_t i = j < t->setn[t->cur_set] ? j : path_index(t);
		const struct column *c;

		if (i >= t->setn[t->cur_set] ||
		    (j < t->setn[t->cur_set] && cols[i]->unit == U_PATH))
			continue;
		c = cols[i];
		int sorted = c == t->sort;
		const char *mark = !sorted ? " " : t->utf8 ?
			(t->sort_desc ? "\xE2\x96\xBC" : "\xE2\x96\xB2") :
			(t->sort_desc ? "v" : "^");
		char cell[64];

		if (c->unit == U_PATH) {
			put(t, y, &vx, mark, t->attr[sorted ? TE_COLSORT :
				       TE_COLHEAD], 1);
			put(t, y, &vx, c->title, t->attr[sorted ? TE_COLSORT :
				       TE_COLHEAD], 1);
			continue;
		}
		snprintf(cell, sizeof(cell), "%*s", c->width, c->title);
		put(t, y, &vx, mark, t->attr[sorted ? TE_COLSORT : TE_COLHEAD], 1);
		put(t, y, &vx, cell, t->attr[sorted ? TE_COLSORT : TE_COLHEAD], 1);
	}
	fill(y, vx - t->hscroll, t->attr[TE_COLHEAD]);
}

/* The colour a value earns by its meaning. */
static int cell_attr(const struct tui *t, const struct column *c,
		     const struct mgroup *g)
{
	const struct sample *s = &g->cur;

	switch (c->unit) {
	case U_RATE:
		if ((c->field == F_PGSCAN || c->field == F_PGSTEAL ||
		     c->field == F_PGSCAN_KSWAPD || c->field == F_PGSCAN_DIRECT ||
		     c->field == F_PGSTEAL_KSWAPD || c->field == F_PGSTEAL_DIRECT) &&
		    (g->rate_valid & FBIT(c->field)) && g->rate[c->field] > 0)
			return t->attr[TE_RECLAIM];
		if ((c->field == F_EV_OOM_KILL || c->field == F_EV_OOM) &&
		    (g->rate_valid & FBIT(c->field)) && g->rate[c->field] > 0)
			return t->attr[TE_OOM];
		break;
	default:
		if ((c->field == F_USAGE || c->derived == D_USE_PCT) &&
		    mgroup_derived(g, D_USE_PCT) && g->use_pct >= 90.0)
			return t->attr[TE_NEAR_LIMIT];
		/* Excess matters where a protection or soft limit is set. */
		if (c->derived == D_EXCESS && mgroup_derived(g, D_EXCESS) &&
		    g->excess > 0 &&
		    ((sample_has(s, F_SOFT) && s->v[F_SOFT] != VAL_MAX) ||
		     (sample_has(s, F_LOW) && s->v[F_LOW] > 0)))
			return t->attr[TE_EXCESS];
		break;
	}
	return t->attr[TE_ROW];
}

static int has_children(const struct tui *t, size_t vis_idx, int *ret_folded)
{
	const struct mgroup *g = t->m.groups[t->vis[vis_idx]];

	*ret_folded = (g->view & VIEW_FOLDED) != 0;
	return t->kids[t->vis[vis_idx]];
}

static void draw_row(const struct tui *t, int y, size_t vis_idx)
{
	const struct mgroup *g = t->m.groups[t->vis[vis_idx]];
	const struct column *const *cols = t->set[t->cur_set];
	int selected = (int)vis_idx == t->sel;
	int tagged = (g->view & VIEW_TAGGED) != 0;
	int oom = (g->rate_valid & FBIT(F_EV_OOM_KILL)) &&
		g->rate[F_EV_OOM_KILL] > 0;
	int base = selected ? t->attr[TE_SELECTED] : t->attr[TE_ROW];
	int start_depth = t->m.n ? t->m.groups[0]->depth : 0;
	int vx = 0;

	put(t, y, &vx, tagged ? "*" : " ", selected ? base : t->attr[TE_TAGGED],
	    1);
	for (size_t j = 0; j <= t->setn[t->cur_set]; j++) {
		size_t i = j < t->setn[t->cur_set] ? j : path_index(t);
		const struct column *c;
		char val[64], cell[80], name[1100];
		int folded, kids, a;

		if (i >= t->setn[t->cur_set] ||
		    (j < t->setn[t->cur_set] && cols[i]->unit == U_PATH))
			continue;
		c = cols[i];

		if (c->unit == U_PATH) {
			const char *glyph;

			kids = has_children(t, vis_idx, &folded);
			glyph = !kids ? "  " : t->utf8 ?
				(folded ? "\xE2\x96\xB8 " : "\xE2\x96\xBE ") :
				(folded ? "+ " : "- ");
			snprintf(cell, sizeof(cell), " %*s", 2 * (g->depth -
				 start_depth), "");
			put(t, y, &vx, cell, base, 1);
			put(t, y, &vx, glyph, base, 1);
			screen_name(t, g->parent < 0 ? g->path : g->name, name,
				    sizeof(name));
			a = selected ? base : oom ? t->attr[TE_OOM] :
				tagged ? t->attr[TE_TAGGED] : base;
			put(t, y, &vx, name, a, 1);
			continue;
		}
		col_format(c, col_value(c, &t->m, g), 1, val, sizeof(val));
		snprintf(cell, sizeof(cell), " %*s", c->width, val);
		put(t, y, &vx, cell, selected ? base : cell_attr(t, c, g), 1);
	}
	fill(y, vx - t->hscroll, base);
}

/* Keeps the selected row inside the list's window. */
static void scroll_to_selection(struct tui *t, int rows)
{
	if (t->sel < t->top)
		t->top = t->sel;
	if (rows > 0 && t->sel >= t->top + rows)
		t->top = t->sel - rows + 1;
	if (t->top > 0 && (size_t)t->top + (size_t)rows > t->nvis)
		t->top = t->nvis > (size_t)rows ? (int)(t->nvis - (size_t)rows) : 0;
	if (t->top < 0)
		t->top = 0;
}

struct helpctx {
	struct tui *t;
	int y, skip;
};

static void help_line(const char *keys, const char *help, void *ctx)
{
	struct helpctx *h = ctx;
	char line[256];
	int vx = 0;

	if (h->skip > 0) {
		h->skip--;
		return;
	}
	if (h->y >= LINES - 1)
		return;
	snprintf(line, sizeof(line), " %-16s %s", keys, help);
	put(h->t, h->y, &vx, line, h->t->attr[TE_HELP], 0);
	h->y++;
}

static void draw_help(struct tui *t)
{
	struct helpctx h = { t, 2, t->help_top };
	int vx = 0;

	put(t, 0, &vx, "memcgtop keys (Up/Down scroll, any other key returns)",
	    t->attr[TE_HEADER], 0);
	fill(0, vx, t->attr[TE_HEADER]);
	tui_help_lines(help_line, &h);
}

static void draw_status(const struct tui *t)
{
	char line[300];
	int vx = 0, y = LINES - 1;

	switch (t->input) {
	case IN_SEARCH:
		snprintf(line, sizeof(line), "Search: %s", t->line);
		break;
	case IN_FILTER:
		snprintf(line, sizeof(line), "Filter: %s", t->line);
		break;
	case IN_DELAY:
		snprintf(line, sizeof(line), "Interval in seconds: %s", t->line);
		break;
	case IN_EDIT: {
		char p[200];

		snprintf(line, sizeof(line), "%s%s",
			 tui_dialog_prompt((struct tui *)t, p, sizeof(p)),
			 t->line);
		break;
	}
	default:
		snprintf(line, sizeof(line), "%s", t->status);
		break;
	}
	/* Typed text and messages may hold any byte: no control byte may
	 * reach the terminal. */
	for (char *c = line; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7F)
			*c = '?';
	if (!t->utf8)
		for (char *c = line; *c; c++)
			if ((unsigned char)*c >= 0x80)
				*c = '?';
	put(t, y, &vx, line, t->status_error && t->input == IN_NONE ?
	    t->attr[TE_ERROR] : t->attr[TE_STATUS], 0);
	fill(y, vx, t->attr[TE_STATUS]);
	/* A typed value the dialog refused: the reason above the prompt. */
	if (t->input == IN_EDIT && t->status_error && y > 0) {
		int ex = 0;
		char msg[300];

		snprintf(msg, sizeof(msg), "%s", t->status);
		for (char *c = msg; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7F)
				*c = '?';
		put(t, y - 1, &ex, msg, t->attr[TE_ERROR], 0);
		fill(y - 1, ex, A_NORMAL);
	}
	if (t->input != IN_NONE) {
		curs_set(1);
		move(y, vx < COLS ? vx : COLS - 1);
	} else {
		curs_set(0);
	}
}

void tui_draw(struct tui *t)
{
	int rows, y;

	erase();
	if (LINES < 5 || COLS < 20) {
		char msg[64];
		int vx = 0;

		snprintf(msg, sizeof(msg), "terminal too small (%dx%d)", COLS,
			 LINES);
		put(t, 0, &vx, msg, A_NORMAL, 0);
		refresh();
		return;
	}
	if (t->ed.stage != ED_NONE) {
		tui_draw_dialog(t);
		draw_status(t);
		refresh();
		return;
	}
	if (t->setup) {
		tui_draw_setup(t);
		draw_status(t);
		refresh();
		return;
	}
	if (t->help) {
		draw_help(t);
		draw_status(t);
		refresh();
		return;
	}
	draw_header(t);
	draw_titles(t, HEADER_LINES - 1);
	rows = tui_list_rows(t);
	scroll_to_selection(t, rows);
	for (y = 0; y < rows && (size_t)(t->top + y) < t->nvis; y++)
		draw_row(t, HEADER_LINES + y, (size_t)(t->top + y));
	if (t->pane != PANE_NONE)
		tui_draw_pane(t, HEADER_LINES + rows, LINES - 1 - HEADER_LINES -
			      rows);
	draw_status(t);
	refresh();
}
