/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_text.c - top -b style text: a header, then the tree. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "out.h"
#include "xalloc.h"
#include "parse.h"

static void header(struct out_ctx *o)
{
	const struct model *m = o->m;
	char t[32], line[512], dt[32] = "-";

	/* No interval before a second sample (a one-sample recording). */
	if (m->dt > 0)
		snprintf(dt, sizeof(dt), "%.3fs", m->dt);
	fprintf(o->f, "memcgtop - %s  iteration %u  interval %s  "
		"groups %zu\n", out_time(m, t, sizeof(t)), o->iteration, dt,
		o->nrows);
	/* The root is a path, encoded as the names are: a recording's info
	 * may hold any byte in it. */
	fprintf(o->f, "Hierarchy: %s (memcg v%d) ", o->mode, o->version);
	fmt_text_name(o->f, o->root, strlen(o->root));
	fputc('\n', o->f);
	/* The system figures' lines (sysfig.h), then a blank line. */
	for (int l = 1; l <= SYS_LINES; l++)
		if (col_sys_line(m, SYS_AT_TEXT, l, o->human, line,
				 sizeof(line)))
			fprintf(o->f, "%s\n", line);
	fputc('\n', o->f);
}

static int indent_of(const struct out_ctx *o, const struct mgroup *g)
{
	int indent = 2 * (g->depth - o->start_depth);

	if (o->flat)
		return 0;
	return indent > 0 ? indent : 0;
}

/* A name escaped for the terminal, in room that grows to hold it whole
 * (4 bytes a byte), so that no name is cut: the start group's row, and
 * every row of a flat list, show a whole path. */
struct namebuf {
	char *b;
	size_t cap;
};

/* The group's name as printed (its path in a flat list) into NB;
 * returns its width on the terminal. */
static size_t name_of(const struct out_ctx *o, const struct mgroup *g,
		      struct namebuf *nb)
{
	const char *shown = g->parent < 0 || o->flat ? g->path : g->name;
	/* The name is the path's last component (model.c): both end where
	 * the path does. */
	size_t len = g->path_len - (size_t)(shown - g->path);

	if (4 * len + 1 > nb->cap) {
		nb->cap = 4 * len + 1;
		nb->b = xreallocarray(nb->b, nb->cap, 1);
	}
	return fmt_escape(nb->b, nb->cap, shown, len);
}

/* Each value cell of a refresh, formatted once (the widths need them all
 * before the first line): the texts one after the other, row by row, and
 * each cell's length; a cell's offset is the sum of those before it,
 * which the lines, made in the same order, keep (8 bytes less a cell). */
struct cells {
	char *text;
	size_t used, cap;
	unsigned char *len;
};

/*
 * The cells of every row, the widest of each column into w, and, unless
 * GW is NULL, the widest indented name into *GW: one pass over the rows
 * (32,768 groups' model does not fit the CPU's caches, and each pass
 * over the rows, in the tree's order, misses them again).
 */
static void cells_fill(struct cells *cs, const struct out_ctx *o, int *w,
		       size_t *gw, struct namebuf *nb)
{
	size_t n = o->ncols;

	cs->cap = o->nrows * n * 8 + 64;
	cs->text = xmalloc(cs->cap);
	cs->len = xcalloc(o->nrows * n + 1, 1);
	for (size_t r = 0; r < o->nrows; r++) {
		const struct mgroup *g = o->m->groups[o->rows[r]];

		out_rows_ahead(o, r);
		for (size_t i = 0; i < n; i++) {
			const struct column *c = o->cols[i];
			size_t k = r * n + i, l;
			char buf[64];

			if (c->unit == U_PATH)
				continue;
			l = col_format(c, col_value(c, g), o->human, buf,
				       sizeof(buf));
			if (cs->used + l > cs->cap) {
				cs->text = xreallocarray(cs->text, cs->cap, 2);
				cs->cap *= 2;
			}
			memcpy(cs->text + cs->used, buf, l);
			cs->len[k] = (unsigned char)l;
			cs->used += l;
			/* -r prints numbers wider than the titles. */
			if ((int)l > w[i])
				w[i] = (int)l;
		}
		if (gw) {
			size_t cw = (size_t)indent_of(o, g) + name_of(o, g, nb);

			*gw = cw > *gw ? cw : *gw;
		}
	}
}

static void cells_free(struct cells *cs)
{
	free(cs->text);
	free(cs->len);
}

/* The tree's lines, built whole and written a block at a time. */
struct line {
	char *b;
	size_t n, cap;
};

static void line_room(struct line *l, size_t more)
{
	while (l->n + more > l->cap) {
		l->b = xreallocarray(l->b, l->cap ? l->cap : 128, 2);
		l->cap = l->cap ? l->cap * 2 : 256;
	}
}

static void line_pad(struct line *l, int n)
{
	if (n <= 0)
		return;
	line_room(l, (size_t)n);
	memset(l->b + l->n, ' ', (size_t)n);
	l->n += (size_t)n;
}

static void line_put(struct line *l, const char *s, size_t n)
{
	line_room(l, n);
	memcpy(l->b + l->n, s, n);
	l->n += n;
}

/*
 * Columns come in the order of -c; GROUP goes last when the list has no
 * path.  Unless last, GROUP is as wide as its widest indented name.
 */
void out_text(struct out_ctx *o)
{
	size_t n = o->ncols, path = o->ncols, gw = strlen("GROUP");
	struct namebuf nb = { 0 };
	const char *sep;
	int last, *w = xcalloc(n ? n : 1, sizeof(*w));
	struct cells cs = { 0 };
	struct line ln = { 0 };
	size_t at = 0;		/* the next cell's text in cs */

	if (o->iteration > 1)
		fputc('\n', o->f);
	header(o);
	for (size_t i = 0; i < n; i++) {
		if (o->cols[i]->unit == U_PATH && path == n)
			path = i;
		w[i] = o->cols[i]->unit == U_PATH ? 0 : o->cols[i]->width;
	}
	last = path + 1 >= n;
	cells_fill(&cs, o, w, last ? NULL : &gw, &nb);
	/* Cells are separated by one space, with none at the end of a line. */
	sep = "";
	for (size_t i = 0; i < n; i++) {
		const struct column *c = o->cols[i];

		if (c->unit != U_PATH)
			fprintf(o->f, "%s%*s", sep, w[i], c->title);
		else if (i == path && !last)
			fprintf(o->f, "%s%-*s", sep, (int)gw, "GROUP");
		else
			continue;
		sep = " ";
	}
	fprintf(o->f, "%s\n", last ? (*sep ? " GROUP" : "GROUP") : "");
	for (size_t r = 0; r < o->nrows; r++) {
		const struct mgroup *g = o->m->groups[o->rows[r]];
		int indent, first = 1;
		size_t cw, nlen;

		out_rows_ahead(o, r);
		indent = indent_of(o, g);
		cw = (size_t)indent + name_of(o, g, &nb);
		nlen = strlen(nb.b);

		for (size_t i = 0; i < n; i++) {
			const struct column *c = o->cols[i];
			size_t k = r * n + i;

			if (c->unit != U_PATH) {
				line_pad(&ln, w[i] - cs.len[k] + !first);
				line_put(&ln, cs.text + at, cs.len[k]);
				at += cs.len[k];
			} else if (i == path && !last) {
				line_pad(&ln, indent + !first);
				line_put(&ln, nb.b, nlen);
				line_pad(&ln, (int)(gw - cw));
			} else {
				continue;
			}
			first = 0;
		}
		if (last) {
			line_pad(&ln, indent + !first);
			line_put(&ln, nb.b, nlen);
		}
		line_put(&ln, "\n", 1);
		/* Lines gathered, written 64 KiB at a time. */
		if (ln.n >= 65536) {
			fwrite(ln.b, 1, ln.n, o->f);
			ln.n = 0;
		}
	}
	if (ln.n)
		fwrite(ln.b, 1, ln.n, o->f);
	free(nb.b);
	free(ln.b);
	cells_free(&cs);
	free(w);
}
