/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_openmetrics.c - OpenMetrics and Prometheus text exposition.
 *
 * Names are memcgtop_<column key> with the unit as suffix: byte gauges end
 * in _bytes, counters are TYPE counter with samples ending in _total.
 * The two formats differ only where the standards do: OpenMetrics names a
 * counter's family without _total and has # UNIT and # EOF lines; the
 * Prometheus text format (0.0.4, what node_exporter's textfile collector
 * and promtool read) names the family like its sample and has neither.
 * Per-second rates are left to the scraper (Prometheus' rate()); depth is
 * implied by the label.  Unlimited is +Inf, not available is no sample.
 */
#include <string.h>

#include "fmt.h"
#include "out.h"

static int exported(const struct column *c)
{
	return c->kind == CK_VALUE && c->unit != U_RATE;
}

static void family(struct out_ctx *o, const char *name, const char *type,
		   const char *unit, const char *help)
{
	int prom = o->fmt == FMT_PROMETHEUS;
	const char *suffix = prom && !strcmp(type, "counter") ? "_total" : "";

	fprintf(o->f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help,
		name, suffix, type);
	if (unit && !prom)
		fprintf(o->f, "# UNIT %s %s\n", name, unit);
}

/*
 * The system figures (sysfig.h) that have a family: a counter's count (the
 * scraper rates it), an array's elements labelled by their index.
 */
static void sys_families(struct out_ctx *o)
{
	char v[32];

	for (int id = 0; id < SYS_NR; id++) {
		const struct sysfig *r = &sysfigs[id];
		int counter = r->unit == SU_COUNTER;

		if (!r->om || !col_sys_has(o->m, id))
			continue;
		family(o, r->om, counter ? "counter" : "gauge",
		       r->unit == SU_BYTES ? "bytes" : NULL, r->help);
		for (int i = 0; i < r->n; i++) {
			int k = r->flags & SF_LAST_FIRST ? r->n - 1 - i : i;

			col_sys_value(o->m, id, k, v, sizeof(v));
			fprintf(o->f, "%s%s", r->om, counter ? "_total" : "");
			if (r->label)
				fprintf(o->f, "{%s=\"%d\"}", r->label, k);
			fprintf(o->f, " %s\n", v);
		}
	}
}

/*
 * --compat cadvisor: the figures cAdvisor has, under its names and with
 * its label (id, the cgroup's path), from the column that gives each.
 * Its counters' names predate OpenMetrics' _total: such a one is untyped
 * (Prometheus text format) or unknown (OpenMetrics), as the formats ask of
 * a counter without the suffix; container_oom_events_total is a counter.  A limit that is
 * unlimited has no sample (cAdvisor's raw numbers for it differ by
 * version).
 */
static const struct {
	const char *name, *key, *type, *help;
} cadvisor[] = {
	{ "container_memory_usage_bytes", "usage", "gauge",
	  "memcgtop usage: the group's memory charge, bytes" },
	{ "container_memory_working_set_bytes", "workingset", "gauge",
	  "memcgtop workingset: usage less the inactive file list, bytes" },
	{ "container_memory_rss", "anon", "gauge",
	  "memcgtop anon: anonymous memory, bytes (v1 total_rss, v2 anon)" },
	{ "container_memory_cache", "file", "gauge",
	  "memcgtop file: page cache, bytes (v1 total_cache, v2 file)" },
	{ "container_memory_swap", "swap", "gauge",
	  "memcgtop swap: swap in use, bytes" },
	{ "container_memory_max_usage_bytes", "peak", "gauge",
	  "memcgtop peak: the highest usage seen, bytes" },
	{ "container_memory_failcnt", "failcnt", "counter",
	  "memcgtop failcnt: times usage hit the limit (v1 memory.failcnt)" },
	{ "container_spec_memory_limit_bytes", "limit", "gauge",
	  "memcgtop limit: the memory limit, bytes (none when unlimited)" },
	{ "container_spec_memory_reservation_limit_bytes", NULL, "gauge",
	  "memcgtop soft (v1) or low (v2), bytes (none when unlimited)" },
	{ "container_spec_memory_swap_limit_bytes", "swap_limit", "gauge",
	  "memcgtop swap_limit: v2 memory.swap.max, bytes (none when "
	  "unlimited)" },
	{ "container_oom_events", "ev_oom_kill", "counter",
	  "memcgtop ev_oom_kill: processes the OOM killer took" },
};

static const struct column *shown(const struct out_ctx *o, const char *key)
{
	for (size_t i = 0; i < o->ncols; i++)
		if (!strcmp(o->cols[i]->key, key))
			return o->cols[i];
	return NULL;
}

static void cadvisor_families(struct out_ctx *o)
{
	int prom = o->fmt == FMT_PROMETHEUS;
	char buf[64];

	for (size_t k = 0; k < sizeof(cadvisor) / sizeof(cadvisor[0]); k++) {
		const char *key = cadvisor[k].key ? cadvisor[k].key :
			o->version == 1 ? "soft" : "low";
		const struct column *c = shown(o, key);
		int counter = !strcmp(cadvisor[k].type, "counter");
		/* OpenMetrics: a counter's samples end in _total */
		int om_total = counter && !prom &&
			!strcmp(cadvisor[k].name, "container_oom_events");
		const char *suffix = om_total || (counter && prom &&
			!strcmp(cadvisor[k].name, "container_oom_events")) ?
			"_total" : "";
		int any = 0;

		if (!c)
			continue;
		for (size_t r = 0; r < o->nrows && !any; r++)
			any = col_value(c, o->m->groups[o->rows[r]]).kind ==
				CV_NUM;
		if (!any)
			continue;
		/* a counter without _total: untyped, as the formats
		 * require of such a name */
		fprintf(o->f, "# HELP %s%s %s\n# TYPE %s%s %s\n",
			cadvisor[k].name, prom ? suffix : "", cadvisor[k].help,
			cadvisor[k].name, prom ? suffix : "",
			!counter || *suffix ? cadvisor[k].type :
			prom ? "untyped" : "unknown");
		for (size_t r = 0; r < o->nrows; r++) {
			const struct mgroup *g = o->m->groups[o->rows[r]];
			struct cval v;

			out_rows_ahead(o, r);
			v = col_value(c, g);
			if (v.kind != CV_NUM)
				continue;
			fprintf(o->f, "%s%s{id=\"", cadvisor[k].name, suffix);
			fmt_om_name(o->f, g->path, g->path_len);
			col_format(c, v, 0, buf, sizeof(buf));
			fprintf(o->f, "\"} %s\n", buf);
		}
	}
}

void out_openmetrics(struct out_ctx *o)
{
	char name[96], buf[64];

	sys_families(o);

	for (size_t i = 0; i < o->ncols; i++) {
		const struct column *c = o->cols[i];
		const char *sample_suffix = "";
		int any = 0;

		if (!exported(c))
			continue;
		for (size_t r = 0; r < o->nrows && !any; r++)
			any = col_value(c, o->m->groups[o->rows[r]]).kind
				!= CV_NA;
		if (!any)
			continue;	/* a family with no sample says nothing */
		if (c->unit == U_BYTES) {
			snprintf(name, sizeof(name), "memcgtop_%s_bytes", c->key);
			family(o, name, "gauge", "bytes", c->help);
		} else if (c->unit == U_COUNT) {
			snprintf(name, sizeof(name), "memcgtop_%s", c->key);
			family(o, name, "counter", NULL, c->help);
			sample_suffix = "_total";
		} else {
			snprintf(name, sizeof(name), "memcgtop_%s", c->key);
			family(o, name, "gauge", NULL, c->help);
		}
		for (size_t r = 0; r < o->nrows; r++) {
			const struct mgroup *g = o->m->groups[o->rows[r]];
			struct cval v;

			out_rows_ahead(o, r);
			v = col_value(c, g);
			if (v.kind == CV_NA)
				continue;
			fprintf(o->f, "%s%s{cgroup=\"", name, sample_suffix);
			fmt_om_name(o->f, g->path, g->path_len);
			fputs("\"} ", o->f);
			if (v.kind == CV_MAX)
				fputs("+Inf", o->f);
			else {
				col_format(c, v, 0, buf, sizeof(buf));
				fputs(buf, o->f);
			}
			fputc('\n', o->f);
		}
	}
	if (o->cadvisor)
		cadvisor_families(o);
	if (o->fmt == FMT_OPENMETRICS)
		fputs("# EOF\n", o->f);
}
