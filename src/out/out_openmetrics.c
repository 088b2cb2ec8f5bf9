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
#include <inttypes.h>
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

static void sys_gauge(struct out_ctx *o, const char *name, const char *help,
		      enum sysfield s)
{
	if (!(o->m->sys.valid & FBIT(s)))
		return;
	family(o, name, "gauge", "bytes", help);
	fprintf(o->f, "%s %" PRIu64 "\n", name, o->m->sys.v[s]);
}

static void sys_counter(struct out_ctx *o, const char *name, const char *help,
			enum sysfield s)
{
	if (!(o->m->sys.valid & FBIT(s)))
		return;
	family(o, name, "counter", NULL, help);
	fprintf(o->f, "%s_total %" PRIu64 "\n", name, o->m->sys.v[s]);
}

static void sys_psi(struct out_ctx *o, const char *name, const char *help,
		    enum sysfield s)
{
	char v[32];

	if (!col_sys_psi(o->m, s, v, sizeof(v)))
		return;
	family(o, name, "gauge", NULL, help);
	fprintf(o->f, "%s %s\n", name, v);
}

/* The reclaim events' system counters (since memcgtop loaded them), only
 * while they are loaded. */
static void sys_events(struct out_ctx *o)
{
	const struct model *m = o->m;
	const char *name = "memcgtop_system_scan_by_priority";

	family(o, name, "counter", NULL, "pages scanned by reclaim at each "
	       "priority (12 down to 0), system-wide, since memcgtop loaded "
	       "its BPF events (vmscan:mm_vmscan_lru_shrink_inactive)");
	for (int p = SYS_NPRIO - 1; p >= 0; p--)
		fprintf(o->f, "%s_total{priority=\"%d\"} %" PRIu64 "\n", name,
			p, m->sys.v[S_SCAN_PRIO + p]);
	family(o, "memcgtop_system_flushes", "counter", NULL, "memory cgroup "
	       "stats flush requests, system-wide, since memcgtop loaded its "
	       "BPF events (memcg:memcg_flush_stats)");
	fprintf(o->f, "memcgtop_system_flushes_total %" PRIu64 "\n",
		m->sys.v[S_FLUSHES]);
	family(o, "memcgtop_system_own_flushes", "counter", NULL, "of them, "
	       "those memcgtop's own reads made");
	fprintf(o->f, "memcgtop_system_own_flushes_total %" PRIu64 "\n",
		m->sys.v[S_OWN_FLUSHES]);
}

void out_openmetrics(struct out_ctx *o)
{
	char name[96], buf[64];

	sys_gauge(o, "memcgtop_system_mem_total_bytes",
		  "MemTotal from /proc/meminfo", S_MEM_TOTAL);
	sys_gauge(o, "memcgtop_system_mem_available_bytes",
		  "MemAvailable from /proc/meminfo", S_MEM_AVAILABLE);
	sys_gauge(o, "memcgtop_system_swap_total_bytes",
		  "SwapTotal from /proc/meminfo", S_SWAP_TOTAL);
	sys_gauge(o, "memcgtop_system_swap_free_bytes",
		  "SwapFree from /proc/meminfo", S_SWAP_FREE);
	sys_counter(o, "memcgtop_system_pgscan",
		    "pages scanned by reclaim, system-wide (/proc/vmstat)",
		    S_PGSCAN);
	sys_counter(o, "memcgtop_system_pgsteal",
		    "pages reclaimed, system-wide (/proc/vmstat)", S_PGSTEAL);
	sys_psi(o, "memcgtop_system_psi_some_avg10",
		"system memory pressure, some, avg10 (percent)", S_PSI_SOME10);
	sys_psi(o, "memcgtop_system_psi_full_avg10",
		"system memory pressure, full, avg10 (percent)", S_PSI_FULL10);
	if (o->m->sys.valid & FBIT(S_FLUSHES))
		sys_events(o);

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
			struct cval v = col_value(c, g);

			if (v.kind == CV_NA)
				continue;
			fprintf(o->f, "%s%s{cgroup=\"", name, sample_suffix);
			fmt_om_label(o->f, g->path, g->path_len);
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
	if (o->fmt == FMT_OPENMETRICS)
		fputs("# EOF\n", o->f);
}
