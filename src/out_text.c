/* out_text.c - top -b style text: a header, then the tree. */
#include <inttypes.h>
#include <string.h>

#include "fmt.h"
#include "out.h"
#include "parse.h"

static void sys_bytes(const struct model *m, enum sysfield f, char *buf,
		      size_t len)
{
	if (m->sys.valid & FBIT(f))
		fmt_bytes(buf, len, m->sys.v[f]);
	else
		snprintf(buf, len, "-");
}

static void header(struct out_ctx *o)
{
	const struct model *m = o->m;
	char t[32], tot[16], avail[16], swt[16], swu[16];
	char scan[32] = "-", steal[32] = "-", some[32] = "-", full[32] = "-";

	sys_bytes(m, S_MEM_TOTAL, tot, sizeof(tot));
	sys_bytes(m, S_MEM_AVAILABLE, avail, sizeof(avail));
	sys_bytes(m, S_SWAP_TOTAL, swt, sizeof(swt));
	if ((m->sys.valid & FBIT(S_SWAP_TOTAL)) &&
	    (m->sys.valid & FBIT(S_SWAP_FREE)) &&
	    m->sys.v[S_SWAP_TOTAL] >= m->sys.v[S_SWAP_FREE])
		fmt_bytes(swu, sizeof(swu),
			  m->sys.v[S_SWAP_TOTAL] - m->sys.v[S_SWAP_FREE]);
	else
		snprintf(swu, sizeof(swu), "-");
	if (m->sys_rates_valid) {
		if (o->human) {
			fmt_rate(scan, sizeof(scan), m->sys_pgscan_rate);
			fmt_rate(steal, sizeof(steal), m->sys_pgsteal_rate);
		} else {
			snprintf(scan, sizeof(scan), "%.3f", m->sys_pgscan_rate);
			snprintf(steal, sizeof(steal), "%.3f",
				 m->sys_pgsteal_rate);
		}
	}
	if (m->sys.valid & FBIT(S_PSI_SOME10))
		snprintf(some, sizeof(some), "%" PRIu64 ".%02" PRIu64,
			 m->sys.v[S_PSI_SOME10] / 100,
			 m->sys.v[S_PSI_SOME10] % 100);
	if (m->sys.valid & FBIT(S_PSI_FULL10))
		snprintf(full, sizeof(full), "%" PRIu64 ".%02" PRIu64,
			 m->sys.v[S_PSI_FULL10] / 100,
			 m->sys.v[S_PSI_FULL10] % 100);

	fprintf(o->f, "memcgtop - %s  iteration %u  interval %.3fs  "
		"groups %zu\n", out_time(m, t, sizeof(t)), o->iteration, m->dt,
		o->nrows);
	fprintf(o->f, "Hierarchy: %s (memcg v%d) %s\n", o->mode, o->version,
		o->root);
	fprintf(o->f, "Mem: %s total, %s available  Swap: %s used of %s\n",
		tot, avail, swu, swt);
	fprintf(o->f, "Reclaim: pgscan %s/s, pgsteal %s/s  "
		"Pressure: some %s full %s\n\n", scan, steal, some, full);
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
