/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_json.c - one JSON object per iteration, one line each. */
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "out.h"
#include "parse.h"

static void sys_num(FILE *f, const char *key, const struct model *m,
		    enum sysfield s, int first)
{
	fprintf(f, "%s\"%s\":", first ? "" : ",", key);
	if (m->sys.valid & FBIT(s))
		fprintf(f, "%" PRIu64, m->sys.v[s]);
	else
		fputs("null", f);
}

static void sys_rate(FILE *f, const char *key, const struct model *m,
		     enum sysfield s)
{
	fprintf(f, ",\"%s\":", key);
	if (m->sys_rate_valid & FBIT(s))
		fprintf(f, "%.3f", m->sys_rate[s]);
	else
		fputs("null", f);
}

static void sys_psi(FILE *f, const char *key, const struct model *m,
		    enum sysfield s)
{
	char v[32];

	fprintf(f, ",\"%s\":%s", key,
		col_sys_psi(m, s, v, sizeof(v)) ? v : "null");
}

/*
 * The reclaim events' system figures, per second over the interval; only
 * while they are loaded (reclaim.h), so that a copy, a recording or a host
 * without them prints what it always did.
 */
static void sys_events(FILE *f, const struct model *m)
{
	uint64_t ids = sysfig_ids(S_SCAN_PRIO) | FBIT(S_FLUSHES) |
		FBIT(S_OWN_FLUSHES);

	if ((m->sys_rate_valid & ids) != ids) {
		fputs(",\"scan_by_priority\":null,\"flushes_per_s\":null,"
		      "\"own_flushes_per_s\":null", f);
		return;
	}
	fputs(",\"scan_by_priority\":[", f);
	for (int p = 0; p < SYS_NPRIO; p++)
		fprintf(f, "%s%.3f", p ? "," : "", m->sys_rate[S_SCAN_PRIO + p]);
	fprintf(f, "],\"flushes_per_s\":%.3f,\"own_flushes_per_s\":%.3f",
		m->sys_rate[S_FLUSHES], m->sys_rate[S_OWN_FLUSHES]);
}

/* The numa column: {"N0":{"anon":B,...},...}, or null. */
static void numa_object(FILE *f, const struct model *m,
			const struct mgroup *g, int v1)
{
	static const char *const names[] = {
		"anon", "file", "unevictable", "active_anon", "inactive_anon",
		"active_file", "inactive_file",
	};
	/* v1 counts pages; its hierarchical lists, as total_* elsewhere. */
	static const char *const v1_keys[] = {
		"hierarchical_anon", "hierarchical_file",
		"hierarchical_unevictable",
	};
	static struct numa_stat ns;
	uint64_t unit = v1 ? (uint64_t)sysconf(_SC_PAGESIZE) : 1;
	const char *text;

	if (!sample_has(&g->cur, F_NUMA) || !m->numa_text) {
		fputs("null", f);
		return;
	}
	text = m->numa_text + sample_get(&g->cur, F_NUMA);
	parse_numa_stat(text, strlen(text), v1 ? v1_keys : names,
			v1 ? 3 : 7, &ns);
	fputc('{', f);
	for (size_t i = 0; i < ns.n; i++) {
		int first = 1;

		fprintf(f, "%s\"N%u\":{", i ? "," : "", ns.node[i]);
		for (size_t k = 0; k < (v1 ? 3u : 7u); k++) {
			if (!ns.has[i][k])
				continue;
			fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",",
				names[k], ns.v[i][k] * unit);
			first = 0;
		}
		fputc('}', f);
	}
	fputc('}', f);
}

void out_json(struct out_ctx *o)
{
	const struct model *m = o->m;
	char t[32], buf[64];

	fprintf(o->f, "{\"time\":\"%s\",\"iteration\":%u,\"interval_s\":%.3f,"
		"\"mode\":\"%s\",\"memcg\":\"v%d\",\"collector\":\"%s\","
		"\"root\":", out_time(m, t, sizeof(t)), o->iteration, m->dt,
		o->mode, o->version, o->collector);
	fmt_json_string(o->f, o->root, strlen(o->root));
	fputs(",\"system\":{", o->f);
	sys_num(o->f, "mem_total", m, S_MEM_TOTAL, 1);
	sys_num(o->f, "mem_available", m, S_MEM_AVAILABLE, 0);
	sys_num(o->f, "swap_total", m, S_SWAP_TOTAL, 0);
	sys_num(o->f, "swap_free", m, S_SWAP_FREE, 0);
	sys_rate(o->f, "pgscan_per_s", m, S_PGSCAN);
	sys_rate(o->f, "pgsteal_per_s", m, S_PGSTEAL);
	sys_psi(o->f, "psi_some_avg10", m, S_PSI_SOME10);
	sys_psi(o->f, "psi_full_avg10", m, S_PSI_FULL10);
	if (m->sys.valid & FBIT(S_FLUSHES))
		sys_events(o->f, m);
	fputs("},\"groups\":[", o->f);
	for (size_t r = 0; r < o->nrows; r++) {
		const struct mgroup *g = m->groups[o->rows[r]];

		fputs(r ? ",{" : "{", o->f);
		for (size_t i = 0; i < o->ncols; i++) {
			const struct column *c = o->cols[i];
			struct cval v;

			fprintf(o->f, "%s\"%s\":", i ? "," : "", c->key);
			if (c->unit == U_PATH) {
				fmt_json_string(o->f, g->path, g->path_len);
				continue;
			}
			if (c->kind == CK_NUMA) {
				numa_object(o->f, m, g, o->version == 1);
				continue;
			}
			v = col_value(c, g);
			if (v.kind == CV_NA) {
				fputs("null", o->f);
			} else if (v.kind == CV_MAX) {
				fputs("\"max\"", o->f);
			} else {
				col_format(c, v, 0, buf, sizeof(buf));
				fputs(buf, o->f);
			}
		}
		fputc('}', o->f);
	}
	fputs("]}\n", o->f);
}
