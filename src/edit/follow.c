/* SPDX-License-Identifier: GPL-2.0-or-later */
/* follow.c - what a change did: the group read before it is written and
 * again some seconds after, set against its preview. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit.h"
#include "fmt.h"
#include "parse.h"
#include "preview.h"
#include "procs.h"

void edit_watch_read(struct cgfs *cg, const char *path, int version,
		     struct edit_watch *w)
{
	static const enum field f[W_NR] = {
		[W_USAGE] = FLD_USAGE, [W_PGSTEAL] = FLD_PGSTEAL,
		[W_OOM_KILL] = FLD_EV_OOM_KILL,
		[W_REFAULT_FILE] = FLD_REFAULT_FILE,
		[W_REFAULT_ANON] = FLD_REFAULT_ANON, [W_EV_HIGH] = FLD_EV_HIGH,
		[W_EV_MAX] = FLD_EV_MAX, [W_FAILCNT] = FLD_FAILCNT,
	};
	char buf[512];
	struct psi psi;
	int ok;

	memset(w, 0, sizeof(*w));
	for (int i = 0; i < W_NR; i++) {
		if (i == W_STALL_US || i == W_AVG10)
			continue;
		w->v[i] = edit_field(cg, path, version, f[i], &ok);
		if (ok)
			w->has |= 1u << i;
	}
	if (version == 2 &&
	    cgfs_read_knob(cg, path, "memory.pressure", buf,
			   sizeof(buf) - 1) == 0) {
		size_t n = strlen(buf);

		buf[n++] = '\n';
		if (parse_psi(buf, n, &psi) == 0 && psi.has_some) {
			w->v[W_STALL_US] = psi.some_total;
			w->v[W_AVG10] = psi.some_avg10;
			w->has |= 1u << W_STALL_US | 1u << W_AVG10;
		}
	}
	if (cgfs_pids(cg, path, &w->pids, &w->npids) < 0) {
		w->pids = NULL;
		w->npids = 0;
	}
}

void edit_watch_free(struct edit_watch *w)
{
	free(w->pids);
	free(w->rows);
	w->pids = NULL;
	w->rows = NULL;
}

static int both(const struct edit_watch *a, const struct edit_watch *b,
		int i)
{
	return (a->has & b->has & (1u << i)) != 0;
}

static uint64_t rise(const struct edit_watch *a, const struct edit_watch *b,
		     int i)
{
	return b->v[i] > a->v[i] ? b->v[i] - a->v[i] : 0;
}

/* The processes of before gone in after: with an OOM kill, its victims. */
static void gone(const struct edit_watch *a, const struct edit_watch *b,
		 char *buf, size_t len)
{
	size_t o = 0;
	int *lost = calloc(a->npids ? a->npids : 1, sizeof(int));
	size_t nl = 0;

	buf[0] = '\0';
	if (!lost)
		return;
	for (size_t i = 0; i < a->npids; i++) {
		size_t j = 0;

		while (j < b->npids && b->pids[j] != a->pids[i])
			j++;
		if (j == b->npids)
			lost[nl++] = a->pids[i];
	}
	/* Its command as it was: the process is gone now. */
	for (size_t i = 0; i < nl && o + 1 < len; i++) {
		size_t k = 0;

		while (k < a->nrows && a->rows[k].pid != lost[i])
			k++;
		o += (size_t)snprintf(buf + o, len - o, "%s%d%s%.60s%s",
				      o ? "," : "", lost[i],
				      k < a->nrows ? "(" : "",
				      k < a->nrows ? a->rows[k].cmd : "",
				      k < a->nrows ? ")" : "");
		if (o >= len)
			o = len - 1;
	}
	free(lost);
}

void edit_watch_procs(struct edit_watch *w)
{
	if (procs_lookup(w->pids, w->npids, &w->rows, &w->nrows) < 0) {
		w->rows = NULL;
		w->nrows = 0;
	}
}

enum preview_outcome edit_observed(const struct edit_plan *p, int err,
				   const struct edit_watch *a,
				   const struct edit_watch *b)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (err)
		return err == EBUSY ? PV_EBUSY : PV_NOTHING;
	if (both(a, b, W_OOM_KILL) && rise(a, b, W_OOM_KILL))
		return PV_OOM;
	if (!strcmp(p->k->name, "high") && both(a, b, W_EV_HIGH) &&
	    rise(a, b, W_EV_HIGH) && both(a, b, W_USAGE)) {
		uint64_t v;

		if (parse_value(p->value, strlen(p->value), &v) == 0 &&
		    b->v[W_USAGE] + 32 * page > v)
			return PV_THROTTLE;
	}
	if (both(a, b, W_PGSTEAL) ? rise(a, b, W_PGSTEAL) != 0 :
	    both(a, b, W_USAGE) && a->v[W_USAGE] > b->v[W_USAGE])
		return PV_FITS;
	return PV_NOTHING;
}

/* Appends to buf (of len) what fmt says. */
static void add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t o = strlen(buf);
	va_list ap;

	if (o + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + o, len - o, fmt, ap);
	va_end(ap);
}

void edit_follow_report(const struct edit_plan *p, int err, long secs,
			const struct preview *pv,
			const struct edit_watch *a, const struct edit_watch *b,
			char *line, size_t len, char *audit, size_t alen)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	enum preview_outcome o = edit_observed(p, err, a, b);
	uint64_t reclaimed = 0, refaults = 0;
	char ub[32], ua[32], rc[32], nd[32], victims[600];
	const char *how = "usage fell by";
	static const int counts[] = { W_EV_HIGH, W_EV_MAX, W_FAILCNT };
	static const char *const cname[] = { "high", "max", "failcnt" };

	fmt_bytes(ub, sizeof(ub), a->v[W_USAGE]);
	fmt_bytes(ua, sizeof(ua), b->v[W_USAGE]);
	/* Reclaimed: pgsteal where the files count it (v2), else what
	 * usage fell by (v1's memory.stat has no pgsteal). */
	if (both(a, b, W_PGSTEAL)) {
		reclaimed = rise(a, b, W_PGSTEAL) * page;
		how = "pgsteal";
	} else if (a->v[W_USAGE] > b->v[W_USAGE]) {
		reclaimed = a->v[W_USAGE] - b->v[W_USAGE];
	}
	fmt_bytes(rc, sizeof(rc), reclaimed);
	/* What reclaim was to take: need, or all it can when that is less
	 * (v1's EBUSY loop, v2's memory.max before the kill). */
	fmt_bytes(nd, sizeof(nd), pv->reclaimable < pv->need ?
		  pv->reclaimable : pv->need);
	gone(a, b, victims, sizeof(victims));
	for (int i = W_REFAULT_FILE; i <= W_REFAULT_ANON; i++)
		if (both(a, b, i))
			refaults += rise(a, b, i);
	line[0] = '\0';
	add(line, len, "after %lds: usage %s -> %s, reclaimed %s (%s; "
	    "predicted %s), OOM kills +%" PRIu64, secs, ub, ua, rc, how, nd,
	    rise(a, b, W_OOM_KILL));
	if (rise(a, b, W_OOM_KILL) && victims[0])
		add(line, len, " (gone: %s)", victims);
	add(line, len, ", refaults +%" PRIu64, refaults);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (both(a, b, counts[i]))
			add(line, len, ", %s +%" PRIu64, cname[i],
			    rise(a, b, counts[i]));
	if (both(a, b, W_STALL_US))
		add(line, len, ", stalled +%" PRIu64 "us",
		    rise(a, b, W_STALL_US));
	add(line, len, ": %s, %s predicted", preview_word(o),
	    o == pv->outcome ? "as" : "not as");
	audit[0] = '\0';
	add(audit, alen, "followup=%lds predicted=%s observed=%s "
	    "usage_before=%" PRIu64 " usage_after=%" PRIu64 " reclaimed=%"
	    PRIu64 " oom_kills=%" PRIu64 " refaults=%" PRIu64, secs,
	    preview_word(pv->outcome), preview_word(o), a->v[W_USAGE],
	    b->v[W_USAGE], reclaimed, rise(a, b, W_OOM_KILL), refaults);
	if (rise(a, b, W_OOM_KILL))
		for (size_t i = 0, first = 1; i < a->npids; i++) {
			size_t j = 0;

			while (j < b->npids && b->pids[j] != a->pids[i])
				j++;
			if (j < b->npids)
				continue;
			add(audit, alen, "%s%d", first ? " victims=" : ",",
			    a->pids[i]);
			first = 0;
		}
}
