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
#include "kubepath.h"
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
 * --compat cadvisor: the memory figures cAdvisor has, under its names, from
 * the column that gives each (cAdvisor's source: the v1 or v2 file it reads
 * is the column's, but where a row says otherwise).  Its old counters'
 * names lack OpenMetrics' _total: such a one is untyped (Prometheus text
 * format) or unknown (OpenMetrics), as the formats ask of a counter
 * without the suffix; CA_TOTAL ones are counters.  A spec limit that is
 * unlimited is 0 (CA_ZERO_MAX), as cAdvisor's specMemoryValue makes any
 * above 2^62; other values have no sample where the group lacks them.
 * container_memory_failures_total's scope "container" is, in cAdvisor,
 * memory.stat pgfault either way (v1: the group's own count; v2 has no
 * other); memcgtop's pgfault column is the hierarchy's on v1 (total_pgfault)
 * and gives both.  The reservation is v1's soft limit and v2's memory.min
 * (cAdvisor's, not memory.low); the swap limit v2's memory.swap.max (v1's
 * is memory.memsw.limit_in_bytes in cAdvisor, which memcgtop does not read).
 */
enum { CA_TOTAL = 1, CA_ZERO_MAX = 2 };

static const struct {
	const char *name, *key, *labels, *help;
	int counter, flags;
} cadvisor[] = {
	{ "container_memory_usage_bytes", "usage", NULL,
	  "memcgtop usage: the group's memory charge, bytes", 0, 0 },
	{ "container_memory_working_set_bytes", "workingset", NULL,
	  "memcgtop workingset: usage less the inactive file list, bytes",
	  0, 0 },
	{ "container_memory_rss", "anon", NULL,
	  "memcgtop anon: anonymous memory, bytes (v1 total_rss, v2 anon)",
	  0, 0 },
	{ "container_memory_cache", "file", NULL,
	  "memcgtop file: page cache, bytes (v1 total_cache, v2 file)", 0, 0 },
	{ "container_memory_mapped_file", "file_mapped", NULL,
	  "memcgtop file_mapped: page cache mapped into processes, bytes (v1 "
	  "total_mapped_file, v2 file_mapped)", 0, 0 },
	{ "container_memory_kernel_usage", "kernel", NULL,
	  "memcgtop kernel: kernel memory, bytes (v1 "
	  "memory.kmem.usage_in_bytes, v2 memory.stat kernel)", 0, 0 },
	{ "container_memory_total_active_file_bytes", "active_file", NULL,
	  "memcgtop active_file: the active file LRU list, bytes (v1 "
	  "total_active_file, v2 active_file)", 0, 0 },
	{ "container_memory_total_inactive_file_bytes", "inactive_file", NULL,
	  "memcgtop inactive_file: the inactive file LRU list, bytes (v1 "
	  "total_inactive_file, v2 inactive_file)", 0, 0 },
	{ "container_memory_swap", "swap", NULL,
	  "memcgtop swap: swap in use, bytes", 0, 0 },
	{ "container_memory_max_usage_bytes", "peak", NULL,
	  "memcgtop peak: the highest usage seen, bytes (v1 "
	  "memory.max_usage_in_bytes, v2 memory.peak)", 0, 0 },
	{ "container_memory_failcnt", "failcnt", NULL,
	  "memcgtop failcnt: times usage hit the limit (v1 memory.failcnt)",
	  1, 0 },
	{ "container_memory_failures", "pgfault",
	  "failure_type=\"pgfault\",scope=\"container\"",
	  "memcgtop pgfault and pgmajfault: page faults (v1 total_pgfault, "
	  "total_pgmajfault; v2 pgfault, pgmajfault), both scopes", 1,
	  CA_TOTAL },
	{ "container_memory_failures", "pgmajfault",
	  "failure_type=\"pgmajfault\",scope=\"container\"", NULL, 1,
	  CA_TOTAL },
	{ "container_memory_failures", "pgfault",
	  "failure_type=\"pgfault\",scope=\"hierarchy\"", NULL, 1, CA_TOTAL },
	{ "container_memory_failures", "pgmajfault",
	  "failure_type=\"pgmajfault\",scope=\"hierarchy\"", NULL, 1,
	  CA_TOTAL },
	{ "container_spec_memory_limit_bytes", "limit", NULL,
	  "memcgtop limit: the memory limit, bytes (0: unlimited)", 0,
	  CA_ZERO_MAX },
	{ "container_spec_memory_reservation_limit_bytes", NULL, NULL,
	  "memcgtop soft (v1) or min (v2), bytes (0: unlimited)", 0,
	  CA_ZERO_MAX },
	{ "container_spec_memory_swap_limit_bytes", "swap_limit", NULL,
	  "memcgtop swap_limit: v2 memory.swap.max, bytes (0: unlimited)", 0,
	  CA_ZERO_MAX },
	{ "container_oom_events", "ev_oom_kill", NULL,
	  "memcgtop ev_oom_kill: processes the OOM killer took", 1, CA_TOTAL },
};

static const struct column *shown(const struct out_ctx *o, const char *key)
{
	for (size_t i = 0; i < o->ncols; i++)
		if (!strcmp(o->cols[i]->key, key))
			return o->cols[i];
	return NULL;
}

/* A label and its value, escaped as a path is. */
static void om_label(FILE *f, const char *name, const char *v, size_t n)
{
	fprintf(f, ",%s=\"", name);
	fmt_om_name(f, v, n);
	fputc('"', f);
}

/* A sample's labels: id, what the path says of Kubernetes (pod_uid,
 * qos_class, container_id) and of systemd (name), then the row's own. */
static void cadvisor_labels(FILE *f, const struct mgroup *g,
			    const char *own)
{
	struct kubepath k;

	fputs("{id=\"", f);
	fmt_om_name(f, g->path, g->path_len);
	fputc('"', f);
	kubepath_parse(g->path, g->path_len, &k);
	if (k.unit)
		om_label(f, "name", k.unit, k.unit_len);
	if (*k.pod_uid)
		om_label(f, "pod_uid", k.pod_uid, strlen(k.pod_uid));
	if (k.qos)
		om_label(f, "qos_class", k.qos, strlen(k.qos));
	if (k.cid)
		om_label(f, "container_id", k.cid, k.cid_len);
	if (own)
		fprintf(f, ",%s", own);
	fputc('}', f);
}

static void cadvisor_families(struct out_ctx *o)
{
	int prom = o->fmt == FMT_PROMETHEUS;
	const char *said = NULL;	/* the family last given a header */
	char buf[64];

	for (size_t k = 0; k < sizeof(cadvisor) / sizeof(cadvisor[0]); k++) {
		const char *key = cadvisor[k].key ? cadvisor[k].key :
			o->version == 1 ? "soft" : "min";
		const struct column *c = shown(o, key);
		int zero_max = cadvisor[k].flags & CA_ZERO_MAX;
		const char *suffix = cadvisor[k].flags & CA_TOTAL ?
			"_total" : "";
		int any = 0;

		if (!c)
			continue;
		for (size_t r = 0; r < o->nrows && !any; r++) {
			enum cv_kind v = col_value(c,
				o->m->groups[o->rows[r]]).kind;

			any = v == CV_NUM || (zero_max && v == CV_MAX);
		}
		if (!any)
			continue;
		/* a counter without _total: untyped, as the formats
		 * require of such a name; OpenMetrics names a counter's
		 * family without it */
		if (!said || strcmp(said, cadvisor[k].name))
			fprintf(o->f, "# HELP %s%s %s\n# TYPE %s%s %s\n",
				cadvisor[k].name, prom ? suffix : "",
				cadvisor[k].help, cadvisor[k].name,
				prom ? suffix : "",
				!cadvisor[k].counter ? "gauge" : *suffix ?
				"counter" : prom ? "untyped" : "unknown");
		said = cadvisor[k].name;
		for (size_t r = 0; r < o->nrows; r++) {
			const struct mgroup *g = o->m->groups[o->rows[r]];
			struct cval v;

			out_rows_ahead(o, r);
			v = col_value(c, g);
			if (v.kind == CV_MAX && zero_max)
				strcpy(buf, "0");
			else if (v.kind == CV_NUM)
				col_format(c, v, 0, buf, sizeof(buf));
			else
				continue;
			fprintf(o->f, "%s%s", cadvisor[k].name, suffix);
			cadvisor_labels(o->f, g, cadvisor[k].labels);
			fprintf(o->f, " %s\n", buf);
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
