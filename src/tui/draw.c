/* SPDX-License-Identifier: GPL-2.0-or-later */
/* draw.c - the screen: header, column titles, the tree, panes, status.
 *
 * Every frame is drawn into curses' buffer in full and curses sends only
 * what changed; nothing clears the terminal, so a steady screen costs a
 * few bytes per refresh over a slow link.
 */
#include <curses.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <wchar.h>

#include "fmt.h"
#include "parse.h"
#include "tui_int.h"

const char *tui_set_name(int set)
{
	return set == SET_CUSTOM ? "custom" : col_set_name(set);
}

int tui_set_known(const char *name)
{
	for (int s = 0; s < SET_NR; s++)
		if (!strcmp(name, tui_set_name(s)))
			return 1;
	return 0;
}

/* Header lines above the list: the title, the system figures' lines
 * that have something (sysfig.h: the reclaim events' only while they are
 * loaded), the view's line and the column titles. */
static int header_lines(const struct tui *t)
{
	int n = 3;

	for (int l = 1; l <= SYS_LINES; l++)
		n += col_sys_line(&t->pl.m, SYS_AT_SCREEN, l, 1, NULL, 0) > 0;
	return n;
}

int tui_list_rows(const struct tui *t)
{
	int rows = LINES - header_lines(t) - 1;

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
 * Draws text at virtual column *vx of line y, clipped on the left at
 * column off (0: not at all) and on the right at screen column right.
 * The text is safe for the terminal already (escaped).
 */
static void put_upto(const struct tui *t, int y, int *vx, const char *s,
		     int attr, int off, int right)
{
	attrset(attr);
	while (*s) {
		size_t n = fmt_utf8_len((const unsigned char *)s, strlen(s));
		int w;

		if (n == 0)
			n = 1;
		w = char_cols(t, s, n);
		if (*vx - off + w > right)
			break;
		if (*vx >= off)
			mvaddnstr(y, *vx - off, s, (int)n);
		*vx += w;
		s += n;
	}
	attrset(A_NORMAL);
}

/* The same, clipped at the screen's right edge. */
static void put(const struct tui *t, int y, int *vx, const char *s, int attr,
		int off)
{
	put_upto(t, y, vx, s, attr, off, COLS);
}

/*
 * Draws text at column x of line y, at most maxw columns of it; returns
 * the columns drawn.  For boxes, whose right border must stay where it
 * is.
 */
int tui_put(const struct tui *t, int y, int x, const char *s, int maxw,
	    int attr)
{
	int vx = x;

	put_upto(t, y, &vx, s, attr, 0, x + maxw < COLS ? x + maxw : COLS);
	return vx - x;
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
	const struct model *m = &t->pl.m;
	struct utsname u;
	char line[600], clock[16];
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
		size_t n = t->pl.m.src.count, k = t->pl.m.src.position;
		char pos[48] = "", root[300];

		/* A recording shows where in it the screen is. */
		if (n)
			snprintf(pos, sizeof(pos), "sample %zu/%zu  ", k + 1, n);
		/* A path, encoded as the names are (a recording's info may
		 * hold any byte); the line is cut at the screen's width. */
		screen_name(t, t->pl.m.src.root, root, sizeof(root));
		/* 0.05 s is shown as such, not rounded to 0.1. */
		snprintf(line, sizeof(line), "memcgtop %s  every %.*fs%s  %s%s "
			 "%s %s  %s %s", clock, t->delay * 10 ==
			 (double)(long)(t->delay * 10) ? 1 : 2, t->delay,
			 t->paused ? " [paused]" : "", pos, t->pl.m.src.mode,
			 t->pl.m.src.collector, root, u.nodename, u.release);
	}
	put(t, 0, &vx, line, t->attr[TE_HEADER], 0);
	fill(0, vx, t->attr[TE_HEADER]);

	/* The system figures' first line, the view's, then the other
	 * system lines that have something (the reclaim events'). */
	for (int l = 1, y = 1; l <= SYS_LINES; l++) {
		if (!col_sys_line(m, SYS_AT_SCREEN, l, 1, line, sizeof(line)))
			continue;
		vx = 0;
		put(t, y, &vx, line, A_NORMAL, 0);
		fill(y, vx, A_NORMAL);
		y += y == 1 ? 2 : 1;
	}

	snprintf(line, sizeof(line), "Columns: %s  Sort: %s %s  Groups: %zu "
		 "shown of %zu%s%s", tui_set_name(t->cur_set), t->sort->key,
		 t->sort_desc ? "desc" : "asc", t->nvis, m->n,
		 t->filter[0] ? "  Filter: " : "", t->filter);
	{
		char safe[sizeof(line)];

		/* The filter is typed text (or -f's): any byte. */
		fmt_safe(safe, sizeof(safe), line, strlen(line), !t->utf8);
		vx = 0;
		put(t, 2, &vx, safe, A_NORMAL, 0);
	}
	fill(2, vx, A_NORMAL);
}

/*
 * The table's layout.  The group column is always drawn, where the set
 * has it or last when the set has none; [ and ] scroll the other columns
 * by whole columns while the group column stays.  Columns that do not
 * fit are left out from the right, never the group name, which keeps at
 * least NAME_MIN columns (its glyph and the end of its name).
 */
#define NAME_MIN 12
#define TABLE_MIN_COLS 24	/* the tag, a 9-column cell and the name */

struct layout {
	const struct column *col[SET_MAX_COLS + 2];
	int w[SET_MAX_COLS + 2];	/* width of the cell after its space */
	size_t n;
};

/*
 * The history column (H): the sort column's values over the history's
 * window, a sparkline before the names.  Not a column of the table
 * (columns.c): it is the screen's alone, and only a drawing.
 */
#define SPARK_W 10
static const struct column spark_col = {
	.key = "", .title = "HISTORY", .width = SPARK_W, .unit = U_INT,
	.field = -1, .derived = -1,
};

/* Display width of escaped text (the text as put() draws it). */
static int text_cols(const struct tui *t, const char *s)
{
	int w = 0;

	while (*s) {
		size_t n = fmt_utf8_len((const unsigned char *)s, strlen(s));

		if (n == 0)
			n = 1;
		w += char_cols(t, s, n);
		s += n;
	}
	return w;
}

/* The marker of the sort column, before its title. */
static const char *sort_mark(const struct tui *t)
{
	return t->utf8 ? (t->sort_desc ? "\xE2\x96\xBC" : "\xE2\x96\xB2") :
		(t->sort_desc ? "v" : "^");
}

/* A value column's width: one more for the sort column when its title
 * fills it, so that a space always separates the marker from the title
 * on its left. */
static int value_cols(const struct tui *t, const struct column *c)
{
	return c->width + (c == t->sort && (int)strlen(c->title) >= c->width);
}

/* The set's columns other than the group column, and how many come
 * before the group column. */
static size_t value_list(const struct tui *t, const struct column **ret,
			 size_t *ret_before)
{
	size_t n = 0;

	*ret_before = SIZE_MAX;
	for (size_t i = 0; i < t->setn[t->cur_set]; i++) {
		const struct column *c = t->set[t->cur_set][i];

		if (c->unit == U_PATH) {
			if (*ret_before == SIZE_MAX)
				*ret_before = n;
			continue;
		}
		ret[n++] = c;
	}
	if (*ret_before == SIZE_MAX)
		*ret_before = n;
	return n;
}

/* How many value columns from the first one fit beside the name. */
static size_t fitting(const struct tui *t, const struct column **vals,
		      size_t n, size_t first)
{
	int room = COLS - 1 - (1 + NAME_MIN) - (t->spark ? 1 + SPARK_W : 0);
	size_t k = 0;

	for (size_t i = first; i < n; i++, k++) {
		room -= 1 + value_cols(t, vals[i]);
		if (room < 0)
			break;
	}
	return k;
}

/* The largest horizontal scroll: the last column is in view. */
int tui_hscroll_max(const struct tui *t)
{
	const struct column *vals[SET_MAX_COLS];
	size_t before, n = value_list(t, vals, &before), h = 0;

	while (h < n && h + fitting(t, vals, n, h) < n)
		h++;
	return (int)h;
}

/* Indent, glyph and name of the widest row on the screen. */
static int names_width(const struct tui *t, int rows)
{
	int start_depth = t->pl.m.n ? t->pl.m.groups[0]->depth : 0, w = 0;
	char name[1100];

	for (int y = 0; y < rows && (size_t)(t->top + y) < t->nvis; y++) {
		const struct mgroup *g = t->pl.m.groups[t->vis[t->top + y]];
		int cw;

		screen_name(t, g->parent < 0 ? g->path : g->name, name,
			    sizeof(name));
		cw = 2 * (g->depth - start_depth) + 2 + text_cols(t, name);
		w = cw > w ? cw : w;
	}
	return w;
}

/* The group column's entry, after the history column's when it is shown;
 * the columns the latter takes. */
static int name_entry(const struct tui *t, struct layout *ret)
{
	int used = 0;

	if (t->spark) {
		ret->col[ret->n] = &spark_col;
		ret->w[ret->n++] = SPARK_W;
		used = 1 + SPARK_W;
	}
	ret->col[ret->n++] = NULL;
	return used;
}

static void layout(struct tui *t, int rows, struct layout *ret)
{
	const struct column *vals[SET_MAX_COLS];
	size_t before, n = value_list(t, vals, &before), k, name;
	int used = 1, room;

	if (t->hscroll > tui_hscroll_max(t))
		t->hscroll = tui_hscroll_max(t);
	if (t->hscroll < 0)
		t->hscroll = 0;
	k = fitting(t, vals, n, (size_t)t->hscroll);
	name = before < (size_t)t->hscroll ? 0 :
		before - (size_t)t->hscroll > k ? k : before - (size_t)t->hscroll;
	ret->n = 0;
	for (size_t i = 0; i < k; i++) {
		if (i == name)
			used += name_entry(t, ret);
		ret->col[ret->n] = vals[(size_t)t->hscroll + i];
		ret->w[ret->n] = value_cols(t, ret->col[ret->n]);
		used += 1 + ret->w[ret->n++];
	}
	if (name == k)
		used += name_entry(t, ret);
	/* The group column takes the rest of the line; in the middle, no
	 * more than its widest row needs. */
	room = COLS - used - 1;
	for (size_t i = 0; i < ret->n; i++) {
		if (ret->col[i])
			continue;
		ret->w[i] = room;
		if (i + 1 < ret->n) {
			int want = names_width(t, rows);

			want = want > (int)strlen("GROUP") + 1 ? want :
				(int)strlen("GROUP") + 1;
			ret->w[i] = want < room ? want : room;
		}
	}
}

static void draw_titles(const struct tui *t, int y, const struct layout *l)
{
	const struct column *path = col_find("path");
	int vx = 0;

	put(t, y, &vx, " ", t->attr[TE_COLHEAD], 0);
	for (size_t i = 0; i < l->n; i++) {
		const struct column *c = l->col[i] ? l->col[i] : path;
		int sorted = c == t->sort;
		int attr = t->attr[sorted ? TE_COLSORT : TE_COLHEAD];
		const char *mark = sorted ? sort_mark(t) : "";
		char cell[80];

		/* The marker touches its own title: on the left of a
		 * right-aligned one, a space always before it. */
		if (!l->col[i]) {
			int end = vx + 1 + l->w[i];

			snprintf(cell, sizeof(cell), " %s%s", mark, c->title);
			put(t, y, &vx, cell, attr, 0);
			while (i + 1 < l->n && vx < end && vx < COLS)
				put(t, y, &vx, " ", attr, 0);
			continue;
		}
		snprintf(cell, sizeof(cell), "%*s%s%s", l->w[i] + 1 -
			 (int)strlen(c->title) - (sorted ? 1 : 0), "", mark,
			 c->title);
		put(t, y, &vx, cell, attr, 0);
	}
	fill(y, vx, t->attr[TE_COLHEAD]);
}

/* The colour a value earns by its meaning. */
static int cell_attr(const struct tui *t, const struct column *c,
		     const struct mgroup *g)
{
	const struct sample *s = &g->cur;

	switch (c->unit) {
	case U_RATE:
		if ((c->field == FLD_PGSCAN || c->field == FLD_PGSTEAL ||
		     c->field == FLD_PGSCAN_KSWAPD ||
		     c->field == FLD_PGSCAN_DIRECT ||
		     c->field == FLD_PGSTEAL_KSWAPD ||
		     c->field == FLD_PGSTEAL_DIRECT) &&
		    mgroup_rate(g, (enum field)c->field) > 0)
			return t->attr[TE_RECLAIM];
		if ((c->field == FLD_EV_OOM_KILL || c->field == FLD_EV_OOM) &&
		    mgroup_rate(g, (enum field)c->field) > 0)
			return t->attr[TE_OOM];
		break;
	default:
		if ((c->field == FLD_USAGE || c->derived == D_USE_PCT) &&
		    mgroup_derived(g, D_USE_PCT) && g->use_pct >= 90.0)
			return t->attr[TE_NEAR_LIMIT];
		/* Excess matters where a protection or soft limit is set. */
		if (c->derived == D_EXCESS && mgroup_derived(g, D_EXCESS) &&
		    g->excess > 0 &&
		    ((sample_has(s, FLD_SOFT) &&
		      sample_get(s, FLD_SOFT) != VAL_MAX) ||
		     (sample_has(s, FLD_LOW) && sample_get(s, FLD_LOW) > 0)))
			return t->attr[TE_EXCESS];
		break;
	}
	return t->attr[TE_ROW];
}

static int has_children(const struct tui *t, size_t vis_idx, int *ret_folded)
{
	const struct mgroup *g = t->pl.m.groups[t->vis[vis_idx]];

	/* The filter shows the matches below a folded group: not folded
	 * while it is on. */
	*ret_folded = (g->view & VIEW_FOLDED) && !t->filter[0];
	return t->kids[t->vis[vis_idx]];
}

/*
 * The group's cell of w columns: indent, glyph, name.  When they do not
 * fit, the indent shrinks and "…/" before the name says that ancestors'
 * levels are missing; a name wider than the cell keeps its end after "…".
 */
static void draw_name(const struct tui *t, int y, int *vx, size_t vis_idx,
		      int w, int base, int attr)
{
	const struct mgroup *g = t->pl.m.groups[t->vis[vis_idx]];
	int start_depth = t->pl.m.n ? t->pl.m.groups[0]->depth : 0;
	int indent = 2 * (g->depth - start_depth), folded, kids, nw;
	const char *glyph, *more = t->utf8 ? "\xE2\x80\xA6/" : "../";
	const char *cut = t->utf8 ? "\xE2\x80\xA6" : "..";
	char name[1100];
	const char *shown = name;

	kids = has_children(t, vis_idx, &folded);
	glyph = !kids ? "  " : t->utf8 ? (folded ? "\xE2\x96\xB8 " :
					  "\xE2\x96\xBE ") :
		(folded ? "+ " : "- ");
	screen_name(t, g->parent < 0 ? g->path : g->name, name, sizeof(name));
	nw = text_cols(t, name);
	if (indent < 0)
		indent = 0;
	if (indent + 2 + nw > w) {
		int mw = text_cols(t, more), cw = text_cols(t, cut);

		if (indent > 0 && 2 + mw + nw <= w) {
			indent = w - 2 - mw - nw;
		} else {
			/* Drop leading characters until the rest fits. */
			indent = 0;
			more = "";
			while (*shown && 2 + cw + nw > w) {
				size_t n = fmt_utf8_len(
					(const unsigned char *)shown,
					strlen(shown));

				n = n ? n : 1;
				nw -= char_cols(t, shown, n);
				shown += n;
			}
			if (shown != name)
				more = cut;
		}
	} else {
		more = "";
	}
	for (int i = 0; i < indent; i++)
		put(t, y, vx, " ", base, 0);
	put(t, y, vx, glyph, base, 0);
	put(t, y, vx, more, base, 0);
	put(t, y, vx, shown, attr, 0);
}

/* g's history column: the sort column's values, each cell a slice of
 * the window (its largest value) against the window's peak; blank until
 * a refresh has fed the sort column now chosen. */
static void draw_spark(const struct tui *t, int y, int *vx,
		       const struct mgroup *g, int attr)
{
	const struct history_ring *r = history_find(&t->hist, g->hash);
	double cols[SPARK_W], top = NAN;

	if (r && t->sort == t->hist_sort)
		top = history_columns(r, HF_SORT, t->pl.m.mono, t->hist.window,
				      cols, SPARK_W);
	put(t, y, vx, " ", attr, 0);
	for (int c = 0; c < SPARK_W; c++)
		put(t, y, vx, tui_graph_glyph(t, isnan(top) ? NAN : cols[c],
					      top), attr, 0);
}

static void draw_row(const struct tui *t, int y, size_t vis_idx,
		     const struct layout *l)
{
	const struct mgroup *g = t->pl.m.groups[t->vis[vis_idx]];
	int selected = (int)vis_idx == t->sel;
	int tagged = (g->view & VIEW_TAGGED) != 0;
	int oom = (g->view & VIEW_OOM) || mgroup_rate(g, FLD_EV_OOM_KILL) > 0;
	int base = selected ? t->attr[TE_SELECTED] : t->attr[TE_ROW];
	int vx = 0;

	put(t, y, &vx, tagged ? "*" : " ", selected ? base : t->attr[TE_TAGGED],
	    0);
	for (size_t i = 0; i < l->n; i++) {
		const struct column *c = l->col[i];
		char val[64], cell[80];

		if (!c) {
			int end = vx + 1 + l->w[i];

			put(t, y, &vx, " ", base, 0);
			draw_name(t, y, &vx, vis_idx, l->w[i], base, selected ?
				  base : oom ? t->attr[TE_OOM] : tagged ?
				  t->attr[TE_TAGGED] : base);
			while (i + 1 < l->n && vx < end && vx < COLS)
				put(t, y, &vx, " ", base, 0);
			continue;
		}
		if (c == &spark_col) {
			draw_spark(t, y, &vx, g, selected ? base :
				   t->attr[TE_ROW]);
			continue;
		}
		col_format(c, col_value(c, g), 1, val, sizeof(val));
		snprintf(cell, sizeof(cell), " %*s", l->w[i], val);
		put(t, y, &vx, cell, selected ? base : cell_attr(t, c, g), 0);
	}
	fill(y, vx, base);
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
	int y, skip, total;
};

/* One line of the help screen; lines scrolled off the top are skipped. */
static void help_put(struct helpctx *h, const char *keys, int keys_attr,
		     const char *help)
{
	char line[256];
	int vx = 0;

	h->total++;
	if (h->skip > 0) {
		h->skip--;
		return;
	}
	if (h->y >= LINES - 1)
		return;
	snprintf(line, sizeof(line), " %-16s", keys);
	put(h->t, h->y, &vx, line, keys_attr, 0);
	snprintf(line, sizeof(line), " %s", help);
	put(h->t, h->y, &vx, line, h->t->attr[TE_HELP], 0);
	h->y++;
}

static void help_line(const char *keys, const char *help, void *ctx)
{
	struct helpctx *h = ctx;

	help_put(h, keys, h->t->attr[TE_HELP], help);
}

/* What the colours of the list mean, each name in its own colour (the
 * names are those of the theme files). */
static void help_legend(struct helpctx *h)
{
	static const struct {
		enum theme_elem e;
		const char *what;
	} legend[] = {
		{ TE_NEAR_LIMIT, "USAGE, USE%: 90% or more of the effective limit" },
		{ TE_EXCESS, "EXCESS where a soft limit (v1) or memory.low (v2) is set" },
		{ TE_RECLAIM, "pages scanned or stolen per second: reclaim now" },
		{ TE_OOM, "the name: an OOM kill not yet seen (o, O); KILL/s" },
		{ TE_TAGGED, "the name and *: tagged with Space" },
	};

	help_put(h, "", h->t->attr[TE_HELP], "");
	help_put(h, "Colours", h->t->attr[TE_HELP] | A_BOLD, "");
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++)
		help_put(h, theme_elem_name(legend[i].e),
			 h->t->attr[legend[i].e], legend[i].what);
}

static void draw_help(struct tui *t)
{
	struct helpctx h = { t, 2, t->help_top, 0 };
	int vx = 0, rows = LINES - 3;

	put(t, 0, &vx, "memcgtop keys (Up/Down scroll, any other key returns)",
	    t->attr[TE_HEADER], 0);
	fill(0, vx, t->attr[TE_HEADER]);
	tui_help_lines(help_line, &h);
	help_legend(&h);
	/* The scroll ends where the last line is at the bottom; a screen
	 * that grew is drawn again from there. */
	t->help_max_top = h.total > rows ? h.total - rows : 0;
	if (t->help_top > t->help_max_top) {
		t->help_top = t->help_max_top;
		for (int y = 2; y < LINES - 1; y++) {
			move(y, 0);
			clrtoeol();
		}
		h = (struct helpctx){ t, 2, t->help_top, 0 };
		tui_help_lines(help_line, &h);
		help_legend(&h);
	}
}

static void draw_status(const struct tui *t)
{
	char line[600];
	int vx = 0, y = LINES - 1, err;

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
	case IN_EDIT:
		/* The prompt is in the dialog's box; here, what the keys do. */
		snprintf(line, sizeof(line), "Enter asks to confirm; Enter on "
			 "an empty line keeps the value; Esc cancels");
		break;
	default:
		/* With no message, the tree's status line says where help
		 * is. */
		snprintf(line, sizeof(line), "%s", t->status[0] ||
			 t->ed.stage != ED_NONE || t->setup || t->help ?
			 t->status : t->refresh_err[0] ? t->refresh_err :
			 "F1 help  Tab columns  < > sort  / search  "
			 "\\ filter  d detail  q quit");
		break;
	}
	/* Typed text and messages may hold any byte: none may reach the
	 * terminal as a control (fmt_safe, as every message). */
	{
		char safe[sizeof(line)];

		fmt_safe(safe, sizeof(safe), line, strlen(line), 0);
		memcpy(line, safe, sizeof(line));
	}
	if (!t->utf8)
		for (char *c = line; *c; c++)
			if ((unsigned char)*c >= 0x80)
				*c = '?';
	err = t->status_error || (!t->status[0] && t->refresh_err[0]);
	put(t, y, &vx, line, err && t->input == IN_NONE ?
	    t->attr[TE_ERROR] : t->attr[TE_STATUS], 0);
	fill(y, vx, t->attr[TE_STATUS]);
	if (t->input == IN_EDIT) {
		curs_set(1);
		move(t->ed.cur_y, t->ed.cur_x);
	} else if (t->input != IN_NONE) {
		curs_set(1);
		move(y, vx < COLS ? vx : COLS - 1);
	} else {
		curs_set(0);
	}
}

void tui_draw(struct tui *t)
{
	struct layout l;
	int rows, y;

	erase();
	if (LINES < 5) {
		char msg[64];
		int vx = 0;

		snprintf(msg, sizeof(msg), "terminal too small (%dx%d)", COLS,
			 LINES);
		put(t, 0, &vx, msg, A_NORMAL, 0);
		refresh();
		return;
	}
	/* Narrower than this the table would lose the names. */
	if (COLS < TABLE_MIN_COLS) {
		char msg[64];
		const char *s = msg, *next, *end;

		snprintf(msg, sizeof(msg), "terminal too narrow (need %d "
			 "columns)", TABLE_MIN_COLS);
		for (y = 0; *s && y < LINES; y++, s = next) {
			char part[64];
			int vx = 0;

			end = tui_wrap(s, COLS, &next);
			snprintf(part, sizeof(part), "%.*s", (int)(end - s), s);
			put(t, y, &vx, part, A_NORMAL, 0);
		}
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
	rows = tui_list_rows(t);
	scroll_to_selection(t, rows);
	layout(t, rows, &l);
	draw_titles(t, header_lines(t) - 1, &l);
	for (y = 0; y < rows && (size_t)(t->top + y) < t->nvis; y++)
		draw_row(t, header_lines(t) + y, (size_t)(t->top + y), &l);
	if (t->pane != PANE_NONE)
		tui_draw_pane(t, header_lines(t) + rows, LINES - 1 -
			      header_lines(t) - rows);
	draw_status(t);
	refresh();
}
