/* SPDX-License-Identifier: GPL-2.0-or-later */
/* verdict.c - the detail pane's verdict: see include/verdict.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "parse.h"
#include "rightsize.h"
#include "verdict.h"

struct vout {
	verdict_line_fn line;
	void *ctx;
	int n;
};

static void say(struct vout *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(struct vout *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	o->line(buf, o->ctx);
	o->n++;
}

void verdict_figs_of(const struct mgroup *g, struct verdict_figs *f)
{
	memset(f, 0, sizeof(*f));
	for (int i = 0; i < FLD_NR; i++) {
		if (sample_has(&g->cur, (enum field)i)) {
			f->have |= FBIT(i);
			f->v[i] = sample_get(&g->cur, (enum field)i);
		}
		if (g->rate_valid & FBIT(i)) {
			f->rated |= FBIT(i);
			f->r[i] = mgroup_rate(g, (enum field)i);
		}
	}
	if (g->has_prev && sample_has(&g->prev, FLD_EV_OOM_KILL)) {
		f->oom_before = sample_get(&g->prev, FLD_EV_OOM_KILL);
		f->have_before = 1;
	}
}

static int has(const struct verdict_figs *g, enum field f)
{
	return (g->have & FBIT(f)) != 0;
}

static uint64_t get(const struct verdict_figs *g, enum field f)
{
	return g->v[f];
}

static int rated(const struct verdict_figs *g, enum field f)
{
	return (g->rated & FBIT(f)) != 0;
}

static double rate_of(const struct verdict_figs *g, enum field f)
{
	return g->r[f];
}

/* A size, or "max". */
static const char *bytes(char *buf, size_t len, uint64_t v)
{
	if (v == VAL_MAX)
		snprintf(buf, len, "max");
	else
		fmt_bytes(buf, len, v);
	return buf;
}

static const char *rate(char *buf, size_t len, double r)
{
	fmt_rate(buf, len, r);
	return buf;
}

/* Usage as a share of a set limit, or -1 where either is not known. */
static double share(const struct verdict_figs *g, enum field lim)
{
	if (!has(g, FLD_USAGE) || !has(g, lim) || get(g, lim) == VAL_MAX ||
	    get(g, lim) == 0)
		return -1;
	return 100.0 * (double)get(g, FLD_USAGE) / (double)get(g, lim);
}

/* An ancestor's usage as a share of its limit, or -1. */
static double group_share(const struct mgroup *a)
{
	if (!sample_has(&a->cur, FLD_USAGE) || !sample_has(&a->cur, FLD_LIMIT))
		return -1;
	if (sample_get(&a->cur, FLD_LIMIT) == VAL_MAX ||
	    sample_get(&a->cur, FLD_LIMIT) == 0)
		return -1;
	return 100.0 * (double)sample_get(&a->cur, FLD_USAGE) /
		(double)sample_get(&a->cur, FLD_LIMIT);
}

/* The ancestor whose limit is the fullest, with its share; NULL when no
 * ancestor has a known limit. */
static const struct mgroup *fullest_above(const struct model *m,
					  const struct mgroup *g, double *pct)
{
	const struct mgroup *best = NULL;

	*pct = -1;
	for (int i = g->parent; i >= 0; i = m->groups[i]->parent) {
		double s = group_share(m->groups[i]);

		if (s > *pct) {
			*pct = s;
			best = m->groups[i];
		}
	}
	return best;
}

/* Whether the usage and limit of g and of every ancestor are known (the
 * hierarchy root has none on v2, and none that counts on v1). */
static int path_known(const struct model *m, const struct mgroup *grp,
		      const struct verdict_figs *g)
{
	if (!has(g, FLD_USAGE) || !has(g, FLD_LIMIT))
		return 0;
	for (int i = grp->parent; i >= 0; i = m->groups[i]->parent)
		if (m->groups[i]->depth > 0 &&
		    (!sample_has(&m->groups[i]->cur, FLD_USAGE) ||
		     !sample_has(&m->groups[i]->cur, FLD_LIMIT)))
			return 0;
	return 1;
}

static void standing(struct vout *o, const struct model *m,
		     const struct mgroup *grp, const struct verdict_figs *g)
{
	char u[32], l[32];
	double pct = share(g, FLD_LIMIT), apct;
	const struct mgroup *a = fullest_above(m, grp, &apct);

	if (!has(g, FLD_USAGE))
		return;
	bytes(u, sizeof(u), get(g, FLD_USAGE));
	if (pct >= 0) {
		say(o, "%s: usage %s of %s (%.1f%%).",
		    pct >= VERDICT_AT_LIMIT_PCT ? "At its limit" :
		    pct >= VERDICT_NEAR_LIMIT_PCT ? "Close to its limit" :
		    "Below its limit", u,
		    bytes(l, sizeof(l), get(g, FLD_LIMIT)), pct);
	} else if (has(g, FLD_LIMIT) && apct < 0 && !path_known(m, grp, g)) {
		say(o, "No limit of its own (usage %s); the limits above it "
		    "are not read in this view.", u);
	} else if (has(g, FLD_LIMIT) && apct < 0) {
		say(o, "No limit on its path: only the host's memory bounds "
		    "it (usage %s).", u);
	} else if (has(g, FLD_LIMIT)) {
		char au[32];

		say(o, "No limit of its own (usage %s); the fullest above it "
		    "is %s's: %s of %s (%.1f%%).", u, a->path,
		    bytes(au, sizeof(au), sample_get(&a->cur, FLD_USAGE)),
		    bytes(l, sizeof(l), sample_get(&a->cur, FLD_LIMIT)), apct);
	}
	if (pct >= 0 && apct >= VERDICT_NEAR_LIMIT_PCT) {
		char au[32];

		say(o, "Above it, %s is %s its limit: %s of %s (%.1f%%).",
		    a->path, apct >= VERDICT_AT_LIMIT_PCT ? "at" : "close to",
		    bytes(au, sizeof(au), sample_get(&a->cur, FLD_USAGE)),
		    bytes(l, sizeof(l), sample_get(&a->cur, FLD_LIMIT)), apct);
	}
	if (has(g, FLD_HIGH) && get(g, FLD_HIGH) != VAL_MAX &&
	    get(g, FLD_USAGE) > get(g, FLD_HIGH))
		say(o, "Above memory.high: usage %s over %s: its tasks are "
		    "throttled and reclaim on their way back to user space.",
		    u, bytes(l, sizeof(l), get(g, FLD_HIGH)));
}

/* v2: memory.min and memory.low as reclaim from the root would count
 * them (model.c's effective protection). */
static void protection(struct vout *o, const struct mgroup *grp,
		       const struct verdict_figs *g)
{
	char u[32], e[32], s[32];
	uint64_t usage, emin, elow;

	if (!mgroup_derived(grp, D_EFF_LOW) || !has(g, FLD_USAGE) ||
	    !has(g, FLD_LOW) || !has(g, FLD_MIN))
		return;
	usage = get(g, FLD_USAGE);
	emin = grp->eff_min;
	elow = grp->eff_low;
	bytes(u, sizeof(u), usage);
	if (usage && emin >= usage) {
		say(o, "Protected by memory.min: usage %s within its "
		    "effective min %s: reclaim does not take from it.", u,
		    bytes(e, sizeof(e), emin));
		return;
	}
	if (usage && elow >= usage) {
		say(o, "Protected by memory.low: usage %s within its "
		    "effective low %s: reclaim takes from it only when no "
		    "unprotected memory is left.", u,
		    bytes(e, sizeof(e), elow));
		return;
	}
	if (elow > 0 || emin > 0) {
		fmt_bytes(s, sizeof(s), usage - (elow > emin ? elow : emin));
		say(o, "Partly protected: usage %s, effective %s %s: the %s "
		    "above it may be reclaimed.", u, elow > emin ? "low" : "min",
		    bytes(e, sizeof(e), elow > emin ? elow : emin), s);
		return;
	}
	if (usage && (get(g, FLD_LOW) > 0 || get(g, FLD_MIN) > 0)) {
		int low = get(g, FLD_LOW) > 0;

		say(o, "Its memory.%s %s protects nothing here: effective "
		    "%s 0, as its parent's protection does not reach it.",
		    low ? "low" : "min",
		    bytes(s, sizeof(s), get(g, low ? FLD_LOW : FLD_MIN)),
		    low ? "low" : "min");
	}
}

/* v1: the soft limit, and when soft-limit reclaim runs at all. */
static void soft(struct vout *o, const struct model *m,
		 const struct verdict_figs *g)
{
	char u[32], s[32], x[32];
	int mglru = (m->sys.valid & SBIT(SYS_LRU_GEN)) &&
		(m->sys.v[SYS_LRU_GEN] & 1);

	if (!has(g, FLD_SOFT) || !has(g, FLD_USAGE) ||
	    get(g, FLD_SOFT) == VAL_MAX)
		return;
	bytes(u, sizeof(u), get(g, FLD_USAGE));
	bytes(s, sizeof(s), get(g, FLD_SOFT));
	if (get(g, FLD_USAGE) <= get(g, FLD_SOFT)) {
		say(o, "Within its soft limit: usage %s, soft %s.", u, s);
		return;
	}
	fmt_bytes(x, sizeof(x), get(g, FLD_USAGE) - get(g, FLD_SOFT));
	if (mglru)
		say(o, "Over its soft limit by %s (usage %s, soft %s), but "
		    "the multi-gen LRU runs: the kernel does no soft-limit "
		    "reclaim.", x, u, s);
	else
		say(o, "Over its soft limit by %s (usage %s, soft %s): "
		    "global reclaim takes from the largest excess first, but "
		    "only for single-page allocations; larger ones (such as "
		    "readahead's) skip soft-limit reclaim.", x, u, s);
	if (mglru)
		return;
	/* What the kernel's tree holds (the BPF pass), and what soft-limit
	 * reclaim did (the events). */
	if (has(g, FLD_SOFT_TREE) && get(g, FLD_SOFT_TREE) == 0)
		say(o, "Not on the kernel's soft-limit tree yet: it is put "
		    "there at its next update (every 1,024 page charges or "
		    "uncharges on a CPU).");
	else if (has(g, FLD_SOFT_TREE) && has(g, FLD_SOFT_RANK))
		say(o, "The kernel's soft-limit tree holds it with %s excess, "
		    "in place %" PRIu64 " (1 is reclaimed first).",
		    bytes(x, sizeof(x), get(g, FLD_SOFT_TREE)),
		    get(g, FLD_SOFT_RANK));
	else if (has(g, FLD_SOFT_TREE))
		say(o, "The kernel's soft-limit tree holds it with %s excess.",
		    bytes(x, sizeof(x), get(g, FLD_SOFT_TREE)));
	if (rated(g, FLD_SOFT_PGSCAN) && rate_of(g, FLD_SOFT_PGSCAN) > 0) {
		char sc[32], st[32];

		fmt_rate(sc, sizeof(sc), rate_of(g, FLD_SOFT_PGSCAN));
		fmt_rate(st, sizeof(st), rated(g, FLD_SOFT_PGSTEAL) ?
			 rate_of(g, FLD_SOFT_PGSTEAL) : 0);
		say(o, "Soft-limit reclaim ran: %s pages/s scanned, %s/s "
		    "taken, it and its descendants.", sc, st);
	} else if (rated(g, FLD_SOFT_PGSCAN)) {
		say(o, "Soft-limit reclaim took nothing from it in the "
		    "interval (0 pages/s scanned): any reclaim of it was "
		    "ordinary.");
	}
}

static int is_below(const struct model *m, const struct mgroup *d,
		    const struct mgroup *g)
{
	for (int i = d->parent; i >= 0; i = m->groups[i]->parent)
		if (m->groups[i] == g)
			return 1;
	return 0;
}

/* Its descendants at their own limit (pgscan counts their reclaim too):
 * the first names into buf, how many in all; *unknown set when a
 * descendant's usage or limit was not read. */
static int full_below(const struct model *m, const struct mgroup *g,
		      char *buf, size_t len, int *unknown)
{
	int n = 0;
	size_t l = 0;

	*unknown = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < m->n; i++) {
		const struct mgroup *d = m->groups[i];

		if (d->depth <= g->depth || !is_below(m, d, g))
			continue;
		if (!sample_has(&d->cur, FLD_USAGE) ||
		    !sample_has(&d->cur, FLD_LIMIT)) {
			*unknown = 1;
			continue;
		}
		if (group_share(d) < VERDICT_AT_LIMIT_PCT)
			continue;
		if (n++ < 3 && l < len)
			l += (size_t)snprintf(buf + l, len - l, "%s%s",
					      n > 1 ? ", " : "", d->path);
	}
	if (n > 3 && l < len)
		snprintf(buf + l, len - l, " and %d more", n - 3);
	return n;
}

static void reclaim(struct vout *o, const struct model *m,
		    const struct mgroup *grp, const struct verdict_figs *g)
{
	char sc[32], st[32], k[32], d[32], why[600] = "", below[300];
	int nbelow, below_unknown, memcg_only;
	double hostd, hostm;
	double scan, steal, kswapd = 0, direct = 0, pct, apct;
	int split = rated(g, FLD_PGSCAN_KSWAPD) && rated(g, FLD_PGSCAN_DIRECT);
	int limited = 0;
	const struct mgroup *a = fullest_above(m, grp, &apct);
	enum field hits = m->version == 1 ? FLD_FAILCNT : FLD_EVL_MAX;

	if (!has(g, FLD_PGSCAN)) {
		say(o, "Reclaim: no pgscan figure in this view; the reclaim "
		    "set (Tab) shows it where it can be had.");
		return;
	}
	if (!rated(g, FLD_PGSCAN))
		return;
	scan = rate_of(g, FLD_PGSCAN);
	if (scan <= 0) {
		say(o, "Not reclaimed in the interval: 0 pages scanned, it "
		    "and its descendants.");
		return;
	}
	steal = rated(g, FLD_PGSTEAL) ? rate_of(g, FLD_PGSTEAL) : -1;
	if (split) {
		kswapd = rate_of(g, FLD_PGSCAN_KSWAPD);
		direct = rate_of(g, FLD_PGSCAN_DIRECT);
		snprintf(why, sizeof(why), "; kswapd scanned %s/s, "
			 "allocating tasks (direct) %s/s",
			 rate(k, sizeof(k), kswapd),
			 rate(d, sizeof(d), direct));
	}
	if (steal >= 0)
		say(o, "Reclaimed, it and its descendants: %s pages/s scanned, "
		    "%s/s taken (%.0f%%)%s.", rate(sc, sizeof(sc), scan),
		    rate(st, sizeof(st), steal), 100.0 * steal / scan, why);
	else
		say(o, "Reclaimed, it and its descendants: %s pages/s "
		    "scanned%s.", rate(sc, sizeof(sc), scan), why);

	/*
	 * Who.  Global direct reclaim counts in /proc/vmstat's pgscan_direct,
	 * memcg reclaim (a limit, memory.high, memory.reclaim) does not: with
	 * the host's rate at 0, the group's direct scans are memcg reclaim,
	 * and a group close to its limit is reclaimed by it (limit reclaim
	 * takes it below the limit between two readings).
	 */
	hostd = (m->sys_rate_valid & SBIT(SYS_PGSCAN_DIRECT)) ?
		m->sys_rate[SYS_PGSCAN_DIRECT] : -1;
	hostm = (m->sys_rate_valid & SBIT(SYS_PGSCAN_MEMCG)) ?
		m->sys_rate[SYS_PGSCAN_MEMCG] : -1;
	memcg_only = split && direct > 0 && hostd == 0;
	why[0] = '\0';
	pct = share(g, FLD_LIMIT);
	if (pct >= VERDICT_AT_LIMIT_PCT ||
	    (memcg_only && pct >= VERDICT_NEAR_LIMIT_PCT) ||
	    (rated(g, hits) && rate_of(g, hits) > 0)) {
		size_t l = strlen(why);

		limited = 1;
		/* v1 counts in memory.failcnt only the hits of the memory
		 * limit, not those of memory+swap: 0 says little. */
		if (rated(g, hits) && rate_of(g, hits) > 0)
			snprintf(why + l, sizeof(why) - l, ", its own limit "
				 "(%s limit hits/s)",
				 rate(d, sizeof(d), rate_of(g, hits)));
		else
			snprintf(why + l, sizeof(why) - l, ", its own limit");
	}
	if (a && apct >= VERDICT_AT_LIMIT_PCT) {
		size_t l = strlen(why);

		limited = 1;
		snprintf(why + l, sizeof(why) - l, ", the limit of %s",
			 a->path);
	}
	nbelow = full_below(m, grp, below, sizeof(below), &below_unknown);
	if (nbelow) {
		size_t l = strlen(why);

		limited = 1;
		snprintf(why + l, sizeof(why) - l, ", the limit%s of %s "
			 "below it", nbelow > 1 ? "s" : "", below);
	}
	if ((has(g, FLD_HIGH) && has(g, FLD_USAGE) &&
	     get(g, FLD_USAGE) > get(g, FLD_HIGH)) ||
	    (rated(g, FLD_EVL_HIGH) && rate_of(g, FLD_EVL_HIGH) > 0)) {
		size_t l = strlen(why);

		limited = 1;
		snprintf(why + l, sizeof(why) - l, ", its memory.high");
	}
	if (split && kswapd > 0) {
		size_t l = strlen(why);

		snprintf(why + l, sizeof(why) - l, ", kswapd (the host's free "
			 "memory is below the low watermark)");
	}
	if (memcg_only && !limited) {
		size_t l = strlen(why);

		snprintf(why + l, sizeof(why) - l, ", memcg reclaim: a limit "
			 "on its path or below it, memory.high or "
			 "memory.reclaim (the host did no global direct "
			 "reclaim%s%s%s)", hostm > 0 ? "; its memcg-targeted "
			 "reclaim scanned " : "", hostm > 0 ?
			 rate(k, sizeof(k), hostm) : "",
			 hostm > 0 ? " pages/s" : "");
	} else if (split && direct > 0 && hostd > 0) {
		size_t l = strlen(why);

		snprintf(why + l, sizeof(why) - l, ", %stasks short of memory "
			 "host-wide (global direct reclaim: the host's %s "
			 "pages/s)", limited ? "perhaps " : "",
			 rate(k, sizeof(k), hostd));
	} else if (((split && direct > 0) || !split) && !limited) {
		size_t l = strlen(why);

		if (!path_known(m, grp, g) || below_unknown)
			snprintf(why + l, sizeof(why) - l, ", %s (the limits on "
				 "its path or below it are not read in this "
				 "view)",
				 split ? "allocating tasks" : "someone");
		else
			snprintf(why + l, sizeof(why) - l, ", %s: no limit on "
				 "its path or below it is reached", split ?
				 "tasks short of memory host-wide (direct "
				 "reclaim)" : "the host's reclaim");
	}
	if (why[0])
		say(o, "Reclaimed by: %s.", why + 2);

	if (has(g, FLD_PRIO_MIN)) {
		char p[32] = "";

		snprintf(k, sizeof(k), "-");
		snprintf(d, sizeof(d), "-");
		if (has(g, FLD_PRIO_MIN_KSWAPD))
			snprintf(k, sizeof(k), "%" PRIu64,
				 get(g, FLD_PRIO_MIN_KSWAPD));
		if (has(g, FLD_PRIO_MIN_DIRECT))
			snprintf(d, sizeof(d), "%" PRIu64,
				 get(g, FLD_PRIO_MIN_DIRECT));
		if (has(g, FLD_PRIO_MIN_PROACTIVE))
			snprintf(p, sizeof(p), ", proactive %" PRIu64,
				 get(g, FLD_PRIO_MIN_PROACTIVE));
		say(o, "Its own lists were scanned at priority %" PRIu64
		    " at the lowest (kswapd %s, direct %s%s): reclaim starts "
		    "at 12; lower means it had to scan harder.",
		    get(g, FLD_PRIO_MIN), k, d, p);
	}
	/* Not a reclaimer's urgency: mem_cgroup_shrink_node's priority. */
	if (has(g, FLD_PRIO_MIN_SOFT))
		say(o, "Soft-limit reclaim scanned its own lists at priority "
		    "%" PRIu64 ": the kernel runs soft-limit reclaim at that "
		    "fixed priority, so it is not a sign of trouble, and it "
		    "is not in the figure of the other reclaimers.",
		    get(g, FLD_PRIO_MIN_SOFT));
}

static void stalls(struct vout *o, const struct verdict_figs *g)
{
	char r[32], f[32];

	if (rated(g, FLD_STALL))
		say(o, "Its tasks spent %s ms per second in reclaim.",
		    rate(r, sizeof(r), rate_of(g, FLD_STALL)));
	if (has(g, FLD_PSI_SOME10) && has(g, FLD_PSI_FULL10)) {
		fmt_hundredths(r, sizeof(r), get(g, FLD_PSI_SOME10));
		fmt_hundredths(f, sizeof(f), get(g, FLD_PSI_FULL10));
		say(o, "Memory pressure (avg10): some %s%%, full %s%%.", r, f);
	}
}

/* What keeps reclaim from taking its anon pages. */
static void stops(struct vout *o, const struct model *m,
		  const struct verdict_figs *g)
{
	char a[32], f[32], s[32], l[32];
	const char *file;

	if (!has(g, FLD_ANON) || get(g, FLD_ANON) == 0)
		return;
	bytes(a, sizeof(a), get(g, FLD_ANON));
	file = has(g, FLD_FILE) ? bytes(f, sizeof(f), get(g, FLD_FILE)) :
		"-";
	if ((m->sys.valid & SBIT(SYS_SWAP_TOTAL)) &&
	    m->sys.v[SYS_SWAP_TOTAL] == 0) {
		say(o, "No swap on the host: its anon (%s) cannot be "
		    "reclaimed; only its file pages (%s) can.", a, file);
		return;
	}
	if (has(g, FLD_SWAP_LIMIT) && get(g, FLD_SWAP_LIMIT) == 0) {
		say(o, "memory.swap.max is 0: its anon (%s) cannot be "
		    "reclaimed; only its file pages (%s) can.", a, file);
		return;
	}
	if (has(g, FLD_SWAP_LIMIT) && has(g, FLD_SWAP) &&
	    get(g, FLD_SWAP_LIMIT) != VAL_MAX &&
	    get(g, FLD_SWAP) >= get(g, FLD_SWAP_LIMIT)) {
		say(o, "Its swap is full (%s of %s): its anon (%s) cannot be "
		    "reclaimed; only its file pages (%s) can.",
		    bytes(s, sizeof(s), get(g, FLD_SWAP)),
		    bytes(l, sizeof(l), get(g, FLD_SWAP_LIMIT)), a, file);
		return;
	}
	if ((m->sys.valid & SBIT(SYS_SWAP_FREE)) &&
	    (m->sys.valid & SBIT(SYS_SWAP_TOTAL)) &&
	    m->sys.v[SYS_SWAP_FREE] == 0)
		say(o, "The host's swap is full: its anon (%s) cannot be "
		    "reclaimed; only its file pages (%s) can.", a, file);
}

static void oom(struct vout *o, const struct model *m,
		const struct verdict_figs *g)
{
	uint64_t now, before;
	const char *whose = m->version == 2 ? "it and its descendants" :
		"its own";

	if (!has(g, FLD_EV_OOM_KILL))
		return;
	now = get(g, FLD_EV_OOM_KILL);
	if (g->have_before && (before = g->oom_before) < now) {
		say(o, "OOM killer: %" PRIu64 " kill%s in the interval, %" PRIu64
		    " since the group was made (%s).", now - before,
		    now - before == 1 ? "" : "s", now, whose);
		return;
	}
	if (now)
		say(o, "OOM kills: %" PRIu64 " since the group was made (%s)%s.",
		    now, whose, g->have_before ? ", none in the interval" : "");
}

/* What its limit should be (rightsize.h), with what that rests on. */
static void rightsize(struct vout *o, const struct model *m,
		      const struct mgroup *g)
{
	const struct rs_track *t = g->rs;
	char lim[16], peak[16], pct[16], anon[16], kern[16], act[16];
	char extra[16], vpa[16];

	/* One refresh has no rates: nothing says whether its pages came
	 * back, and a window of one is no window. */
	if (!t || t->n < 2 || !mgroup_derived(g, D_REC_LIMIT))
		return;
	fmt_bytes(lim, sizeof(lim), t->rec_limit);
	fmt_bytes(peak, sizeof(peak), (uint64_t)t->peak);
	fmt_bytes(pct, sizeof(pct), (uint64_t)t->pct);
	fmt_bytes(anon, sizeof(anon), (uint64_t)t->last.anon);
	fmt_bytes(kern, sizeof(kern), (uint64_t)t->last.kernel);
	fmt_bytes(act, sizeof(act), (uint64_t)t->last.active);
	fmt_bytes(extra, sizeof(extra), (uint64_t)t->peak_extra);
	fmt_bytes(vpa, sizeof(vpa), (uint64_t)t->vpa);
	say(o, "Right-size: limit %s, its need's peak %s over %u points "
	    "(p%d %s) + %d%%; now anon+shmem %s, unreclaimable kernel %s, "
	    "active file %s; refaults asked for %s more at the peak; "
	    "usage-peak sizing (p%d of usage + %d%%) says %s.",
	    lim, peak, t->n, RS_PCT, pct, m->rs_margin, anon, kern, act,
	    extra, RS_VPA_PCT, RS_VPA_MARGIN, vpa);
}

int verdict(const struct model *m, const struct mgroup *g,
	    const struct verdict_figs *f, verdict_line_fn line, void *ctx)
{
	struct vout o = { line, ctx, 0 };

	standing(&o, m, g, f);
	if (m->version == 2)
		protection(&o, g, f);
	else
		soft(&o, m, f);
	reclaim(&o, m, g, f);
	stalls(&o, f);
	stops(&o, m, f);
	oom(&o, m, f);
	rightsize(&o, m, g);
	return o.n;
}
