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
	struct sys_text st;
	char t[32];

	/* Swap used stays in human units: -r is for the group columns. */
	col_sys_text(m, 1, &st);
	if (!o->human) {
		struct sys_text raw;

		col_sys_text(m, 0, &raw);
		memcpy(st.scan, raw.scan, sizeof(st.scan));
		memcpy(st.steal, raw.steal, sizeof(st.steal));
	}
	fprintf(o->f, "memcgtop - %s  iteration %u  interval %.3fs  "
		"groups %zu\n", out_time(m, t, sizeof(t)), o->iteration, m->dt,
		o->nrows);
	fprintf(o->f, "Hierarchy: %s (memcg v%d) %s\n", o->mode, o->version,
		o->root);
	fprintf(o->f, "Mem: %s total, %s available  Swap: %s used of %s\n",
		st.total, st.avail, st.swap_used, st.swap_total);
	fprintf(o->f, "Reclaim: pgscan %s/s, pgsteal %s/s  "
		"Pressure: some %s full %s\n\n", st.scan, st.steal, st.some,
		st.full);
}

static int indent_of(const struct out_ctx *o, const struct mgroup *g)
{
	int indent = 2 * (g->depth - o->start_depth);

	return indent > 0 ? indent : 0;
}

/* The group's name as printed; returns its width on the terminal. */
static size_t name_of(const struct mgroup *g, char *buf, size_t len)
{
	const char *shown = g->parent < 0 ? g->path : g->name;

	return fmt_escape(buf, len, shown, strlen(shown));
}

/* Columns of a value column: its widest value, at least its own width
 * (-r prints numbers wider than the titles). */
static int value_width(const struct out_ctx *o, const struct column *c)
{
	char buf[64];
	int w = c->width;

	for (size_t r = 0; r < o->nrows; r++) {
		col_format(c, col_value(c, o->m->groups[o->rows[r]]),
			   o->human, buf, sizeof(buf));
		if ((int)strlen(buf) > w)
			w = (int)strlen(buf);
	}
	return w;
}

/*
 * Columns come in the order of -c; GROUP goes last when the list has no
 * path.  Unless last, GROUP is as wide as its widest indented name.
 */
void out_text(struct out_ctx *o)
{
	char buf[64], name[1100];
	size_t n = o->ncols, path = o->ncols, gw = strlen("GROUP");
	const char *sep;
	int last, *w = xcalloc(n, sizeof(*w));

	if (o->iteration > 1)
		fputc('\n', o->f);
	header(o);
	for (size_t i = 0; i < n; i++)
		if (o->cols[i]->unit == U_PATH && path == n)
			path = i;
	last = path + 1 >= n;
	for (size_t i = 0; i < n; i++)
		w[i] = o->cols[i]->unit == U_PATH ? 0 : value_width(o, o->cols[i]);
	for (size_t r = 0; !last && r < o->nrows; r++) {
		const struct mgroup *g = o->m->groups[o->rows[r]];
		size_t cw = (size_t)indent_of(o, g) + name_of(g, name,
							      sizeof(name));

		gw = cw > gw ? cw : gw;
	}
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
		int indent = indent_of(o, g);
		size_t cw = (size_t)indent + name_of(g, name, sizeof(name));

		sep = "";
		for (size_t i = 0; i < n; i++) {
			const struct column *c = o->cols[i];

			if (c->unit != U_PATH) {
				col_format(c, col_value(c, g), o->human,
					   buf, sizeof(buf));
				fprintf(o->f, "%s%*s", sep, w[i], buf);
			} else if (i == path && !last) {
				fprintf(o->f, "%s%*s%s%*s", sep, indent, "",
					name, (int)(gw - cw), "");
			} else {
				continue;
			}
			sep = " ";
		}
		if (last)
			fprintf(o->f, "%s%*s%s", sep, indent, "", name);
		fputc('\n', o->f);
	}
	free(w);
}
