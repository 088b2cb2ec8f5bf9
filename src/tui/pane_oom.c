/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_oom.c - the OOM pane: the kills seen during the run. */
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "fmt.h"
#include "parse.h"
#include "pane.h"

/*
 * The OOM kills seen during the run (oomlog.h), newest first: when, the
 * process (where the tracepoint told), its size when killed, its group's
 * limit then, the group.
 */
void oom_lines(struct pane_out *p)
{
	struct tui *t = p->t;
	const struct oomlog *log = &t->pl.m.oom;
	int unknown = 0;
	char kept[32] = "";

	if (log->seen > log->n)
		snprintf(kept, sizeof(kept), ", the last %d kept", OOMLOG_MAX);
	ptitle(p, t->attr[TE_HEADER], "OOM kills seen: %u%s  (newest first; "
	       "J/K scroll, o closes)", log->seen, kept);
	ptitle(p, A_BOLD, "%-8s %7s %-15s %7s %7s %s", "TIME", "PID",
	       "COMMAND", "SIZE", "LIMIT", "GROUP");
	for (size_t k = 0; k < log->n; k++) {
		const struct oom_kill *e = oomlog_get(log, k);
		char when[16] = "-", pid[16] = "-", size[16] = "-",
			limit[16] = "-", id[48];
		time_t s = (time_t)(e->wall_ms / 1000);
		struct tm tm;

		if (localtime_r(&s, &tm))
			strftime(when, sizeof(when), "%H:%M:%S", &tm);
		if (e->pid >= 0)
			snprintf(pid, sizeof(pid), "%d", e->pid);
		else
			unknown = 1;
		if (e->has_rss)
			fmt_bytes(size, sizeof(size), e->rss);
		if (e->has_limit && e->limit == VAL_MAX)
			snprintf(limit, sizeof(limit), "max");
		else if (e->has_limit)
			fmt_bytes(limit, sizeof(limit), e->limit);
		snprintf(id, sizeof(id), "(cgroup id %" PRIu64 ", not shown)",
			 e->id);
		prow(p, "%-8s %7s %-15s %7s %7s %s", when, pid,
		     e->pid >= 0 ? e->comm : "?", size, limit,
		     e->path ? e->path : id);
	}
	if (!log->n)
		pline(p, A_NORMAL, "none since memcgtop started");
	if (unknown)
		pline(p, t->attr[TE_DIM], "PID -: process unknown: %s; the "
		      "group's OOM kill counter rose at that refresh (one row "
		      "a kill), which does not say whom", t->pl.oom_why);
	if (t->pl.oom)
		pline(p, t->attr[TE_DIM], "Source: the kernel's oom:mark_victim "
		      "tracepoint (BPF): the victim, its size (the anon, file "
		      "and shmem pages it mapped) and its group's limit when "
		      "killed");
	else
		pline(p, t->attr[TE_DIM], "Source: the groups' OOM kill "
		      "counters (%s), where a shown column reads them",
		      t->pl.oom_why);
}
