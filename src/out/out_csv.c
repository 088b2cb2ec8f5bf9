/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_csv.c - RFC 4180 CSV: one header row, then one row per group. */
#include <string.h>

#include "fmt.h"
#include "out.h"

void out_csv_header(struct out_ctx *o)
{
	fputs("time,iteration", o->f);
	for (size_t i = 0; i < o->ncols; i++)
		fprintf(o->f, ",%s", o->cols[i]->key);
	fputs("\r\n", o->f);
}

void out_csv(struct out_ctx *o)
{
	char t[32], buf[64];

	out_time(o->m, t, sizeof(t));
	for (size_t r = 0; r < o->nrows; r++) {
		const struct mgroup *g = o->m->groups[o->rows[r]];

		out_rows_ahead(o, r);
		fprintf(o->f, "%s,%u", t, o->iteration);
		for (size_t i = 0; i < o->ncols; i++) {
			const struct column *c = o->cols[i];
			struct cval v;

			fputc(',', o->f);
			if (c->unit == U_PATH) {
				fmt_csv_name(o->f, g->path, g->path_len);
				continue;
			}
			v = col_value(c, g);
			if (v.kind == CV_NA)
				continue;
			col_format(c, v, 0, buf, sizeof(buf));
			fputs(buf, o->f);
		}
		fputs("\r\n", o->f);
	}
}
