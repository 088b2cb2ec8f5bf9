/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_text.c - top -b style text: a header, then the tree. */
#include <inttypes.h>
#include <string.h>

#include "fmt.h"
#include "out.h"
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

void out_text(struct out_ctx *o)
{
	char buf[64], name[1024];

	if (o->iteration > 1)
		fputc('\n', o->f);
	header(o);
	for (size_t i = 0; i < o->ncols; i++) {
		const struct column *c = o->cols[i];

		if (c->unit == U_PATH)
			continue;
		fprintf(o->f, "%*s ", c->width, c->title);
	}
	fputs("GROUP\n", o->f);
	for (size_t r = 0; r < o->nrows; r++) {
		const struct mgroup *g = o->m->groups[o->rows[r]];
		int indent = 2 * (g->depth - o->start_depth);
		const char *shown = g->parent < 0 ? g->path : g->name;

		for (size_t i = 0; i < o->ncols; i++) {
			const struct column *c = o->cols[i];

			if (c->unit == U_PATH)
				continue;
			col_format(c, col_value(c, o->m, g), o->human, buf,
				   sizeof(buf));
			fprintf(o->f, "%*s ", c->width, buf);
		}
		fmt_escape(name, sizeof(name), shown, strlen(shown));
		fprintf(o->f, "%*s%s\n", indent, "", name);
	}
}
