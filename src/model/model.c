/* SPDX-License-Identifier: GPL-2.0-or-later */
/* model.c - groups by path, deltas, derived fields, tree order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "hash.h"
#include "parse.h"
#include "rightsize.h"
#include "sysfig.h"
#include "xalloc.h"

int field_is_counter(enum field f)
{
	return (FIELDS_COUNTER & FBIT(f)) != 0;
}

void model_init(struct model *m, int version)
{
	memset(m, 0, sizeof(*m));
	m->version = version;
	m->kept = cgfs_version_fields(version);
	m->want = ~0u;
	m->rs_margin = RS_MARGIN_DEFAULT;
}

static void group_free(struct mgroup *g)
{
	if (!g)
		return;
	free(g->buf);
	free(g->rs);
	free(g);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->table_cap; i++)
		group_free(m->table[i]);
	free(m->table);
	free(m->groups);
	oomlog_free(&m->oom);
	free(m->oom_rise);
	memset(m, 0, sizeof(*m));
}

/* The slot of path (whose hash_path is h) in an open table. */
static struct mgroup **slot(struct mgroup **table, size_t cap, uint64_t h,
			    const char *path, size_t len)
{
	size_t i = (size_t)h & (cap - 1);

	while (table[i] && (table[i]->path_len != len ||
			    memcmp(table[i]->path, path, len) != 0))
		i = (i + 1) & (cap - 1);
	return &table[i];
}

double model_rate(uint64_t prev, uint64_t cur, double dt)
{
	/* A counter that went backwards belongs to a group recreated under
	 * the same path: it starts again, with no rate for this interval. */
	if (dt <= 0 || cur < prev)
		return -1;
	return (double)(cur - prev) / dt;
}

/* Reclaim efficiency, stolen / scanned over the interval; capped: the
 * kernel counts pgscan when it isolates a batch and pgsteal after
 * reclaiming it, so an interval can end between the two and see more
 * stolen than scanned (by one batch, measured on 6.1). */
static void set_eff(struct mgroup *g, double stolen, double scanned)
{
	g->reclaim_eff = stolen / scanned;
	if (g->reclaim_eff > 1.0)
		g->reclaim_eff = 1.0;
	g->derived_valid |= 1u << D_RECLAIM_EFF;
}

/* The rates a source gave for g (snapshot.rates: NaN none), in place of
 * the model's own; its reclaim efficiency, their ratio. */
static void given_rates(struct mgroup *g, const double *given)
{
	fieldset c = g->cur.slots & FIELDS_COUNTER, both = FBIT(FLD_PGSCAN) |
		FBIT(FLD_PGSTEAL);

	for (fieldset k = c & g->cur.valid; k; k &= k - 1) {
		enum field f = (enum field)fieldset_first(k);
		double r = given[sample_slot(c, f)];

		if (r >= 0) {	/* not NaN */
			g->rate[sample_slot(c, f)] = r;
			g->rate_valid |= FBIT(f);
		}
	}
	if ((g->rate_valid & both) == both && mgroup_rate(g, FLD_PGSCAN) > 0)
		set_eff(g, mgroup_rate(g, FLD_PGSTEAL),
			mgroup_rate(g, FLD_PGSCAN));
}

static void derive(struct model *m, struct mgroup *g, const struct mgroup *p,
		   uint64_t above_limit, const double *given)
{
	const struct sample *s = &g->cur;

	g->rate_valid = 0;
	g->derived_valid = 0;
	if (given) {
		given_rates(g, given);
	} else if (g->has_prev && m->dt > 0) {
		fieldset both = s->valid & g->prev.valid & FIELDS_COUNTER;

		for (; both; both &= both - 1) {
			enum field f = (enum field)fieldset_first(both);
			double r = model_rate(sample_get(&g->prev, f),
					      sample_get(s, f), m->dt);

			if (r >= 0) {
				g->rate[sample_slot(s->slots & FIELDS_COUNTER,
						    f)] = r;
				g->rate_valid |= FBIT(f);
			}
		}
		if ((g->rate_valid & FBIT(FLD_PGSCAN)) &&
		    (g->rate_valid & FBIT(FLD_PGSTEAL)) &&
		    sample_get(s, FLD_PGSCAN) >
		    sample_get(&g->prev, FLD_PGSCAN))
			set_eff(g, (double)(sample_get(s, FLD_PGSTEAL) -
					    sample_get(&g->prev, FLD_PGSTEAL)),
				(double)(sample_get(s, FLD_PGSCAN) -
					 sample_get(&g->prev, FLD_PGSCAN)));
	}

	/* excess: over the soft limit where the version has one (v1:
	 * default unlimited, 0), else over memory.low (v2: default 0, all
	 * of it). */
	if ((m->kept & FBIT(FLD_SOFT)) && sample_has(s, FLD_USAGE) &&
	    sample_has(s, FLD_SOFT)) {
		uint64_t use = sample_get(s, FLD_USAGE);
		uint64_t soft = sample_get(s, FLD_SOFT);

		g->excess = soft == VAL_MAX || use <= soft ? 0 : use - soft;
		g->derived_valid |= 1u << D_EXCESS;
	} else if (!(m->kept & FBIT(FLD_SOFT)) && sample_has(s, FLD_USAGE) &&
		   sample_has(s, FLD_LOW)) {
		g->excess = sample_get(s, FLD_USAGE) > sample_get(s, FLD_LOW) ?
			sample_get(s, FLD_USAGE) - sample_get(s, FLD_LOW) : 0;
		g->derived_valid |= 1u << D_EXCESS;
	}

	/* The working set as cadvisor and the kubelet define it. */
	if (sample_has(s, FLD_USAGE) && sample_has(s, FLD_INACTIVE_FILE)) {
		uint64_t use = sample_get(s, FLD_USAGE);
		uint64_t inact = sample_get(s, FLD_INACTIVE_FILE);

		g->workingset = use > inact ? use - inact : 0;
		g->derived_valid |= 1u << D_WORKINGSET;
	}

	/* Effective limit: the smallest on the path to the root. */
	g->chain_limit = p ? p->chain_limit : above_limit;
	if (sample_has(s, FLD_LIMIT) &&
	    sample_get(s, FLD_LIMIT) < g->chain_limit)
		g->chain_limit = sample_get(s, FLD_LIMIT);
	if (sample_has(s, FLD_LIMIT)) {
		g->eff_limit = g->chain_limit;
		g->derived_valid |= 1u << D_EFF_LIMIT;
	}
	if (mgroup_derived(g, D_EFF_LIMIT) && g->eff_limit != VAL_MAX &&
	    g->eff_limit > 0 && sample_has(s, FLD_USAGE)) {
		g->use_pct = 100.0 * (double)sample_get(s, FLD_USAGE) /
			(double)g->eff_limit;
		g->derived_valid |= 1u << D_USE_PCT;
	}
}

uint64_t model_effective_protection(uint64_t usage, uint64_t parent_usage,
				    uint64_t setting, uint64_t parent_eff,
				    uint64_t siblings, int recursive)
{
	uint64_t prot = usage < setting ? usage : setting, ep, unclaimed;

	/* The siblings claim more than the parent has: shares in
	 * proportion to what each claims. */
	if (siblings > parent_eff)
		return prot * parent_eff / siblings;
	ep = prot;
	if (!recursive)
		return ep;
	/* Protection the parent has and no child claims: shared in
	 * proportion to the children's unprotected usage. */
	if (parent_eff > siblings && parent_usage > siblings &&
	    usage > prot) {
		unclaimed = parent_eff - siblings;
		unclaimed *= usage - prot;
		unclaimed /= parent_usage - siblings;
		ep += unclaimed;
	}
	return ep;
}

/*
 * eff_min and eff_low (v2): the protection reclaim from the hierarchy
 * root gives each group now, top-down as the kernel computes it at each
 * reclaim (page_counter_calculate_protection): a top-level group its own
 * settings, a group below its share of its parent's effective value.  A
 * group whose parent's is not known (the start group below the top
 * level, a sibling unread) has none.  v2's excess is then what reclaim may
 * take: usage above eff_low.
 */
static void protection_all(struct model *m, const struct snapshot *snap)
{
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t page = ps > 0 ? (uint64_t)ps : 4096;
	uint64_t pcmax = (uint64_t)INT64_MAX / page;	/* PAGE_COUNTER_MAX */
	const fieldset need = FBIT(FLD_USAGE) | FBIT(FLD_MIN) | FBIT(FLD_LOW);

	m->recursiveprot = snap->recursiveprot;
	/* v2's excess is over the effective low. */
	if (m->version != 2 ||
	    !(m->want & (1u << D_EFF_MIN | 1u << D_EFF_LOW | 1u << D_EXCESS)))
		return;
#define PAGES(v) ((v) == VAL_MAX ? pcmax : (v) / page)
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];

		g->kid_min = g->kid_low = 0;
		g->kid_prot_ok = !(snap->cut_depth1 &&
				   g->depth + 1 >= snap->cut_depth1);
	}
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i], *p;
		uint64_t use, mn, lo;

		if (g->parent < 0)
			continue;
		p = m->groups[g->parent];
		if ((g->cur.valid & need) != need) {
			p->kid_prot_ok = 0;
			continue;
		}
		use = PAGES(sample_get(&g->cur, FLD_USAGE));
		mn = PAGES(sample_get(&g->cur, FLD_MIN));
		lo = PAGES(sample_get(&g->cur, FLD_LOW));
		p->kid_min += use < mn ? use : mn;
		p->kid_low += use < lo ? use : lo;
	}
	/* Parents come before their children. */
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];
		const struct mgroup *p = g->parent >= 0 ?
			m->groups[g->parent] : NULL;
		const struct sample *s = &g->cur;
		uint64_t use, emin, elow;

		if ((s->valid & need) != need || g->depth == 0)
			continue;
		use = PAGES(sample_get(s, FLD_USAGE));
		if (use == 0) {
			emin = elow = 0;
		} else if (g->depth == 1) {
			emin = PAGES(sample_get(s, FLD_MIN));
			elow = PAGES(sample_get(s, FLD_LOW));
		} else if (p && mgroup_derived(p, D_EFF_MIN) &&
			   mgroup_derived(p, D_EFF_LOW) && p->kid_prot_ok) {
			uint64_t pu = PAGES(sample_get(&p->cur, FLD_USAGE));

			emin = model_effective_protection(use, pu,
				PAGES(sample_get(s, FLD_MIN)),
				PAGES(p->eff_min), p->kid_min,
				m->recursiveprot > 0);
			elow = model_effective_protection(use, pu,
				PAGES(sample_get(s, FLD_LOW)),
				PAGES(p->eff_low), p->kid_low,
				m->recursiveprot > 0);
		} else {
			continue;
		}
		g->eff_min = emin >= pcmax ? VAL_MAX : emin * page;
		g->eff_low = elow >= pcmax ? VAL_MAX : elow * page;
		g->derived_valid |= 1u << D_EFF_MIN | 1u << D_EFF_LOW;
		g->excess = sample_get(s, FLD_USAGE) > g->eff_low ?
			sample_get(s, FLD_USAGE) - g->eff_low : 0;
		g->derived_valid |= 1u << D_EXCESS;
	}
#undef PAGES
}

/*
 * failcnt_tree (v1, whose memory.failcnt counts only the group's own
 * limit hits): the group's with its descendants', so that a parent's row
 * leads to the offender below it.  Only over a whole subtree: a group
 * whose subtree was cut (--depth) or has a member without failcnt has
 * none.  Its rate: the members' own rates summed, those known (a group
 * new in the interval has none yet).
 */
static void failcnt_tree_all(struct model *m, const struct snapshot *snap)
{
	if (!(m->kept & FBIT(FLD_FAILCNT)) ||
	    !(m->want & (1u << D_FAILCNT_TREE | 1u << D_FAILCNT_TREE_RATE)))
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];

		g->tree_ok = sample_has(&g->cur, FLD_FAILCNT) &&
			!(snap->cut_depth1 && g->depth + 1 >= snap->cut_depth1);
		g->failcnt_tree = sample_get(&g->cur, FLD_FAILCNT);
		g->failcnt_tree_rate = mgroup_rate(g, FLD_FAILCNT);
	}
	/* Children come after their parents: backwards, each subtree is
	 * whole before it is added to its parent. */
	for (size_t i = m->n; i-- > 0;) {
		struct mgroup *g = m->groups[i], *p;

		if (g->tree_ok) {
			g->derived_valid |= 1u << D_FAILCNT_TREE;
			if (g->rate_valid & FBIT(FLD_FAILCNT))
				g->derived_valid |= 1u << D_FAILCNT_TREE_RATE;
		}
		if (g->parent < 0)
			continue;
		p = m->groups[g->parent];
		p->tree_ok &= g->tree_ok;
		p->failcnt_tree += g->failcnt_tree;
		p->failcnt_tree_rate += g->failcnt_tree_rate;
	}
}

/*
 * The OOM kills the counters show (oomlog.h): a group's rise of its
 * oom_kill counter over the interval, less its children's on v2, whose
 * memory.events counts the kills of the subtree (v1's memory.oom_control
 * counts the group's own: mm/memcontrol.c memcg_memory_event stops at the
 * group on v1).  A kill in a child new in the interval, or removed in it,
 * shows as its parent's.  Each kill is an entry at the refresh's time,
 * without the process; at most OOMLOG_MAX a refresh.
 */
static void oom_from_counters(struct model *m)
{
	struct oom_kill k;

	if (m->oom.from_events || !m->n)
		return;
	if (m->n > m->oom_rise_cap) {
		m->oom_rise = xreallocarray(m->oom_rise, m->n,
					    sizeof(*m->oom_rise));
		m->oom_rise_cap = m->n;
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct mgroup *g = m->groups[i];
		uint64_t c = sample_get(&g->cur, FLD_EV_OOM_KILL),
			p = sample_get(&g->prev, FLD_EV_OOM_KILL);

		m->oom_rise[i] = (g->rate_valid & FBIT(FLD_EV_OOM_KILL)) &&
			c > p ? c - p : 0;
	}
	/* Parents come before children: each child's whole rise is taken
	 * from its parent's before the child's own children take theirs. */
	if (m->version == 2)
		for (size_t i = 0; i < m->n; i++) {
			int pi = m->groups[i]->parent;

			if (pi >= 0)
				m->oom_rise[pi] -= m->oom_rise[pi] >
					m->oom_rise[i] ? m->oom_rise[i] :
					m->oom_rise[pi];
		}
	for (size_t i = 0; i < m->n; i++) {
		const struct mgroup *g = m->groups[i];

		for (uint64_t r = 0; r < m->oom_rise[i] && r < OOMLOG_MAX; r++) {
			memset(&k, 0, sizeof(k));
			k.wall_ms = m->wall * 1000;
			k.id = g->ino;
			k.pid = -1;
			k.has_limit = sample_has(&g->cur, FLD_LIMIT);
			k.limit = sample_get(&g->cur, FLD_LIMIT);
			oomlog_add(&m->oom, &k, g->path);
		}
	}
}

static const enum field lru_fields[4] = {
	FLD_ACTIVE_ANON, FLD_INACTIVE_ANON, FLD_ACTIVE_FILE, FLD_INACTIVE_FILE,
};
static const enum field own_fields[4] = {
	FLD_OWN_ACTIVE_ANON, FLD_OWN_INACTIVE_ANON, FLD_OWN_ACTIVE_FILE,
	FLD_OWN_INACTIVE_FILE,
};

int model_scan_prio(uint64_t pages)
{
	int p = 0;

	if (pages == 0)
		return -1;
	while (p < 12 && (pages >> (p + 1)) != 0)
		p++;
	return p;
}

/*
 * scan_prio: classic LRU reclaim scans lru_size >> priority pages of a
 * list, from priority 12 down, so the highest priority at which it scans
 * anything of the group's own lists is floor(log2) of the largest, at most
 * 12.  Anon lists count only where swap can take pages.  v2's memory.stat
 * is hierarchical: the group's own lists are its values less its
 * children's.  Not available under the multi-gen LRU, whose reclaim does
 * not work that way.
 */
static void scan_prio_all(struct model *m, const struct snapshot *snap)
{
	const struct sysinfo *sys = &snap->sys;
	int host_swap = (sys->valid & SBIT(SYS_SWAP_FREE)) &&
		sys->v[SYS_SWAP_FREE] > 0;
	int mglru = (sys->valid & SBIT(SYS_LRU_GEN)) && sys->v[SYS_LRU_GEN];

	if (!(m->want & 1u << D_SCAN_PRIO))
		return;
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];

		memset(g->kid_lru, 0, sizeof(g->kid_lru));
		g->kid_lru_ok = !(snap->cut_depth1 &&
				  g->depth + 1 >= snap->cut_depth1);
	}
	for (size_t i = 1; i < m->n; i++) {
		struct mgroup *g = m->groups[i], *p;

		if (g->parent < 0)
			continue;
		p = m->groups[g->parent];
		for (int l = 0; l < 4; l++) {
			if (!sample_has(&g->cur, lru_fields[l]))
				p->kid_lru_ok = 0;
			else
				p->kid_lru[l] += sample_get(&g->cur,
							    lru_fields[l]);
		}
	}
	/* Parents come before their children. */
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];
		const struct sample *s = &g->cur;
		uint64_t own[4], top = 0;
		int ok = 1;

		g->swap_ok = g->parent >= 0 ? m->groups[g->parent]->swap_ok :
			host_swap;
		/* A group without swap files has no swap limit of its own
		 * (swap accounting off, or the v2 root). */
		if (sample_has(s, FLD_SWAP_ROOM) &&
		    sample_get(s, FLD_SWAP_ROOM) == 0)
			g->swap_ok = 0;
		if (mglru)
			continue;
		for (int l = 0; l < 4; l++) {
			/* The version keeps the group's own lists (v1), or
			 * they are its lists less its children's (v2). */
			if (m->kept & FBIT(own_fields[l])) {
				ok &= sample_has(s, own_fields[l]);
				own[l] = sample_get(s, own_fields[l]);
				continue;
			}
			ok &= sample_has(s, lru_fields[l]) && g->kid_lru_ok;
			own[l] = sample_get(s, lru_fields[l]) > g->kid_lru[l] ?
				sample_get(s, lru_fields[l]) - g->kid_lru[l] : 0;
		}
		if (!ok)
			continue;
		for (int l = g->swap_ok ? 0 : 2; l < 4; l++)
			if (own[l] > top)
				top = own[l];
		g->scan_prio = model_scan_prio(top / 4096);
		if (g->scan_prio >= 0)
			g->derived_valid |= 1u << D_SCAN_PRIO;
	}
}

/*
 * g's samples after a refresh: cur takes snapshot sample sn; prev takes
 * the counters cur held when `shift`, else stays.  Only counters are kept
 * from the previous refresh: the rates (and the reasons the detail pane
 * gives for a missing one) are all that read it.  Each keeps the slots it
 * was read with; cur, prev and the rates share one allocation, made again
 * only when the slots differ (a column added, a group first seen).
 */
static void group_store(struct mgroup *g, const struct sample *sn, int shift)
{
	fieldset pslots = shift ? g->cur.slots & FIELDS_COUNTER :
		g->prev.slots;
	size_t kc, kp, kr;
	struct sample cur, prev;
	uint64_t *buf;

	if (!g->buf)	/* new: room for the next refresh's prev */
		pslots = sn->slots & FIELDS_COUNTER;
	if (g->buf && sn->slots == g->cur.slots && pslots == g->prev.slots) {
		if (shift)
			sample_copy(&g->prev, &g->cur);
		sample_copy(&g->cur, sn);
		return;
	}
	kc = sample_nslots(sn->slots);
	kp = sample_nslots(pslots);
	kr = sample_nslots(sn->slots & FIELDS_COUNTER);
	buf = xmalloc((kc + kp + kr) * sizeof(uint64_t) + 1);
	cur = (struct sample){ 0, sn->slots, buf };
	prev = (struct sample){ 0, pslots, buf + kc };
	sample_copy(&cur, sn);
	if (g->buf)
		sample_copy(&prev, shift ? &g->cur : &g->prev);
	free(g->buf);
	g->buf = buf;
	g->cur = cur;
	g->prev = prev;
	g->rate = (double *)(void *)(buf + kc + kp);
}

static void ensure_table(struct model *m, size_t n)
{
	size_t cap = 64;

	while (cap < n * 2)
		cap *= 2;
	if (cap <= m->table_cap)
		return;
	/* Grows only; rehashing happens in model_update anyway. */
	struct mgroup **t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < m->table_cap; i++)
		if (m->table[i])
			*slot(t, cap, m->table[i]->hash, m->table[i]->path,
			      m->table[i]->path_len) = m->table[i];
	free(m->table);
	m->table = t;
	m->table_cap = cap;
}

/* The system figures no source gives: swap used. */
static void sys_derive(struct sysinfo *sys)
{
	uint64_t both = SBIT(SYS_SWAP_TOTAL) | SBIT(SYS_SWAP_FREE);

	uint64_t total = sys->v[SYS_SWAP_TOTAL], free = sys->v[SYS_SWAP_FREE];

	if ((sys->valid & both) == both && total >= free) {
		sys->v[SYS_SWAP_USED] = total - free;
		sys->valid |= SBIT(SYS_SWAP_USED);
	}
}

/*
 * Every system counter's rate (sysfig.h), the procfs' and the reclaim
 * events' alike, each on its own: only when this refresh and the last both
 * have it, as a group's counters.  A figure a source stops giving (the
 * events unloaded) has none, and when it gives it again its first refresh
 * has none either, since the last had no value: the events count anew
 * from each load.
 */
static void sys_rates(struct model *m)
{
	uint64_t both = m->sys.valid & m->sys_prev.valid & sysfig_counters();

	m->sys_rate_valid = 0;
	if (!m->refreshes || m->dt <= 0)
		return;
	for (; both; both &= both - 1) {
		int f = __builtin_ctzll(both);
		double r = model_rate(m->sys_prev.v[f], m->sys.v[f], m->dt);

		if (r >= 0) {
			m->sys_rate[f] = r;
			m->sys_rate_valid |= SBIT(f);
		}
	}
}

/* The right-size windows, where the readers want them. */
static void rightsize_all(struct model *m)
{
	if (m->want & (1u << D_REC_LIMIT | 1u << D_REC_HIGH | 1u << D_REC_LOW))
		rightsize_update(m);
}

/* Group i's rates in snap, where the source gives them (snapshot.rates). */
static const double *given_of(const struct snapshot *snap, size_t i)
{
	if (!snap->rates_given)
		return NULL;
	return snap->rates + i * sample_nslots(snap->slots & FIELDS_COUNTER);
}

/* The interval of the rates: the source's window, or since the last. */
static double interval_of(const struct model *m, const struct snapshot *snap)
{
	if (snap->rates_given)
		return snap->rate_window;
	return m->refreshes ? snap->mono - m->mono : 0;
}

void model_replace(struct model *m, const struct snapshot *snap)
{
	if (!m->refreshes || snap->mono != m->mono || snap->n != m->n) {
		model_update(m, snap);
		return;
	}
	for (size_t i = 0; i < snap->n; i++) {
		const struct snap_group *sg = &snap->groups[i];

		/* The same tree, read a moment ago: same paths, same order. */
		if (sg->path_len != m->groups[i]->path_len ||
		    memcmp(snap_path(snap, sg), m->groups[i]->path,
			   sg->path_len) != 0) {
			model_update(m, snap);
			return;
		}
	}
	for (size_t i = 0; i < snap->n; i++)
		group_store(m->groups[i], &snap->groups[i].s, 0);
	/* The same moment: its system figures may hold more now (whether
	 * the multi-gen LRU runs); the rates against the last stay. */
	m->sys = snap->sys;
	sys_derive(&m->sys);
	m->numa_text = snap->numa_text;
	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];

		derive(m, g, g->parent >= 0 ? m->groups[g->parent] : NULL,
		       snap->above_limit, given_of(snap, i));
	}
	scan_prio_all(m, snap);
	protection_all(m, snap);
	failcnt_tree_all(m, snap);
	rightsize_all(m);
}

void model_update(struct model *m, const struct snapshot *snap)
{
	size_t oldn = m->n;
	/* Every group where the last refresh had it: the table holds
	 * the same groups, and nothing vanished. */
	int same = snap->n == oldn;

	ensure_table(m, snap->n + 1);
	if (snap->n > m->cap) {
		m->groups = xreallocarray(m->groups, snap->n,
					  sizeof(*m->groups));
		m->cap = snap->n;
	}

	m->dt = interval_of(m, snap);
	m->mono = snap->mono;
	m->wall = snap->wall;

	for (size_t i = 0; i < snap->n; i++) {
		const struct snap_group *sg = &snap->groups[i];
		const char *path = snap_path(snap, sg);
		struct mgroup *g = NULL;
		uint64_t h = 0;

		/* Mostly the tree of the last refresh, in the same order:
		 * the group at the same index, without hashing its path. */
		if (i < oldn && m->groups[i]->path_len == sg->path_len &&
		    memcmp(m->groups[i]->path, path, sg->path_len) == 0)
			g = m->groups[i];
		if (!g) {
			same = 0;
			h = hash_path(path, sg->path_len);
			g = *slot(m->table, m->table_cap, h, path,
				  sg->path_len);
		}
		if (g) {
			/* Left in the old table (a hole would break its probe
			 * chains); the generation tells it was carried over.
			 * A new directory under the same path is a group made
			 * again: its counters start anew, so it has no rates
			 * for this interval (they might not have gone back). */
			group_store(g, &sg->s, 1);
			g->has_prev = !(sg->ino && g->ino && sg->ino != g->ino);
		} else {
			const char *slash;

			g = xcalloc(1, sizeof(*g) + sg->path_len + 1);
			memcpy(g->path, path, sg->path_len + 1);
			g->path_len = sg->path_len;
			g->hash = h;
			slash = strrchr(g->path, '/');
			g->name = slash && slash[1] ? slash + 1 : g->path;
			group_store(g, &sg->s, 0);
		}
		g->gen = m->refreshes + 1;
		g->ino = sg->ino;
		g->depth = sg->depth;
		g->parent = sg->parent;
		m->groups[i] = g;
	}
	/*
	 * A tree that changed gets a new table: its groups in it, and what
	 * is left in the old one vanished since the last refresh.  The
	 * same tree keeps it: at 32,768 groups a new table was 1 MiB for
	 * the kernel to zero, and the walk of the old one, in hash order,
	 * a cache miss a group: most of this function's time.
	 */
	if (!same) {
		struct mgroup **newt = xcalloc(m->table_cap, sizeof(*newt));

		for (size_t i = 0; i < snap->n; i++) {
			struct mgroup *g = m->groups[i];

			*slot(newt, m->table_cap, g->hash, g->path,
			      g->path_len) = g;
		}
		for (size_t i = 0; i < m->table_cap; i++)
			if (m->table[i] &&
			    m->table[i]->gen != m->refreshes + 1)
				group_free(m->table[i]);
		free(m->table);
		m->table = newt;
	}
	m->n = snap->n;

	for (size_t i = 0; i < m->n; i++) {
		struct mgroup *g = m->groups[i];

		derive(m, g, g->parent >= 0 ? m->groups[g->parent] : NULL,
		       snap->above_limit, given_of(snap, i));
	}
	scan_prio_all(m, snap);
	protection_all(m, snap);
	failcnt_tree_all(m, snap);
	oom_from_counters(m);
	rightsize_all(m);

	m->sys_prev = m->sys;
	m->sys = snap->sys;
	sys_derive(&m->sys);
	sys_rates(m);
	m->numa_text = snap->numa_text;
	m->refreshes++;
}

struct sortctx {
	const struct model *m;
	model_cmp_fn cmp;
	void *ctx;
};

static int cmp_idx(const void *a, const void *b, void *arg)
{
	const struct sortctx *c = arg;
	const struct mgroup *ga = c->m->groups[*(const int *)a];
	const struct mgroup *gb = c->m->groups[*(const int *)b];
	int r = c->cmp ? c->cmp(ga, gb, c->ctx) : 0;

	if (r)
		return r;
	/* Ties in path order, so the output is the same every time. */
	return strcmp(ga->path, gb->path);
}

size_t model_order(const struct model *m, model_cmp_fn cmp, void *ctx,
		   int *ret_order)
{
	struct sortctx sc = { m, cmp, ctx };
	int *kids, *start, *stack;
	size_t n = m->n, out = 0, sp = 0;

	if (n == 0)
		return 0;
	/* Children of each group, contiguous (CSR); then sorted per level. */
	kids = xreallocarray(NULL, n, sizeof(int));
	start = xcalloc(n + 1, sizeof(int));
	stack = xreallocarray(NULL, n, sizeof(int));
	for (size_t i = 1; i < n; i++)
		start[m->groups[i]->parent + 1]++;
	for (size_t i = 0; i < n; i++)
		start[i + 1] += start[i];
	{
		int *fill = xcalloc(n, sizeof(int));

		for (size_t i = 1; i < n; i++) {
			int p = m->groups[i]->parent;

			kids[start[p] + fill[p]++] = (int)i;
		}
		free(fill);
	}
	for (size_t i = 0; i < n; i++)
		if (start[i + 1] - start[i] > 1)
			qsort_r(kids + start[i],
				(size_t)(start[i + 1] - start[i]), sizeof(int),
				cmp_idx, &sc);
	stack[sp++] = 0;
	while (sp) {
		int g = stack[--sp];

		ret_order[out++] = g;
		for (int k = start[g + 1] - 1; k >= start[g]; k--)
			stack[sp++] = kids[k];
	}
	free(kids);
	free(start);
	free(stack);
	return out;
}

void model_match(const struct model *m, const char *text,
		 unsigned char *match)
{
	memset(match, 0, m->n);
	for (size_t i = 0; i < m->n; i++) {
		if (!strstr(m->groups[i]->path, text))
			continue;
		for (int g = (int)i; g >= 0 && !match[g];
		     g = m->groups[g]->parent)
			match[g] = 1;
	}
}
