/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_detail.c - the detail pane: the verdict, the history graphs, the blank
 * columns' reasons, protection, reclaim events and the group's files. */
#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fmt.h"
#include "history.h"
#include "parse.h"
#include "pane.h"
#include "verdict.h"
#include "xalloc.h"

struct kvbuild {
	struct statkv *kv;
	size_t n, cap;
};

static void kv_add(const char *k, size_t kl, uint64_t v, void *ctx)
{
	struct kvbuild *b = ctx;

	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 64;
		b->kv = xreallocarray(b->kv, b->cap, sizeof(*b->kv));
	}
	if (kl >= sizeof(b->kv[0].key))
		kl = sizeof(b->kv[0].key) - 1;
	memcpy(b->kv[b->n].key, k, kl);
	b->kv[b->n].key[kl] = '\0';
	b->kv[b->n].val = v;
	b->n++;
}

/* The text of detail file name, or NULL. */
static const char *detail_text(const struct tui *t, const char *name)
{
	const struct model_focus *fo = &t->pl.m.focus;

	for (size_t i = 0; i < fo->nfiles; i++)
		if (!strcmp(fo->file[i].name, name))
			return fo->file[i].text;
	return NULL;
}

/* The verdict's figures that the group's detail files hold, into
 * vfile_cur: a value file's number, or the number after a key at the
 * start of a line ("max" is VAL_MAX). */
static void verdict_files(struct tui *t)
{
	t->vfile_cur.have = 0;
	t->vfile_cur.mono = t->pl.m.mono;
	for (int f = 0; f < FLD_NR; f++) {
		const char *key = t->pl.m.src.files[f].key, *text, *s;
		size_t kl;
		uint64_t val;

		if (!(VERDICT_FIELDS & FBIT(f)) || !t->pl.m.src.files[f].file ||
		    !(text = detail_text(t, t->pl.m.src.files[f].file)))
			continue;
		s = text;
		if (key) {
			kl = strlen(key);
			while (s && (strncmp(s, key, kl) || s[kl] != ' ')) {
				s = strchr(s, '\n');
				s = s ? s + 1 : NULL;
			}
			if (!s)
				continue;
			s += kl + 1;
		}
		if (parse_value(s, strcspn(s, "\n"), &val) < 0)
			continue;
		t->vfile_cur.have |= FBIT(f);
		t->vfile_cur.v[f] = val;
	}
}

/* The verdict's figures of g: the model's, and where it has none, the
 * detail files' (their counters rated between two of the pane's reads). */
static void verdict_figs_pane(const struct tui *t, const struct mgroup *g,
			      struct verdict_figs *f)
{
	double dt = t->vfile_cur.mono - t->vfile_prev.mono;

	verdict_figs_of(g, f);
	for (int i = 0; i < FLD_NR; i++) {
		fieldset b = FBIT(i);
		double r;

		if (!(t->vfile_cur.have & b) || (f->have & b))
			continue;
		f->have |= b;
		f->v[i] = t->vfile_cur.v[i];
		if (!(t->vfile_prev.have & b) || (f->rated & b) ||
		    !field_is_counter((enum field)i))
			continue;
		r = model_rate(t->vfile_prev.v[i], t->vfile_cur.v[i], dt);
		if (r >= 0) {
			f->rated |= b;
			f->r[i] = r;
		}
		if (i == FLD_EV_OOM_KILL && !f->have_before) {
			f->oom_before = t->vfile_prev.v[i];
			f->have_before = 1;
		}
	}
}

/* The history's point of this refresh for g gets what the detail files
 * gave beyond the model's figures (the verdict's, and their rates). */
static void history_files(struct tui *t, const struct mgroup *g)
{
	struct verdict_figs f;
	float v[HF_NR];
	static const struct {
		enum history_fig h;
		enum field f;
		int rate;
	} from[] = {
		{ HF_USAGE, FLD_USAGE, 0 }, { HF_LIMIT, FLD_LIMIT, 0 },
		{ HF_HIGH, FLD_HIGH, 0 }, { HF_SCAN, FLD_PGSCAN, 1 },
		{ HF_STEAL, FLD_PGSTEAL, 1 }, { HF_STALL, FLD_STALL, 1 },
		{ HF_OOM, FLD_EV_OOM_KILL, 1 },
	};

	if (!t->hist.cap)
		return;
	verdict_figs_pane(t, g, &f);
	history_figs(&t->pl.m, g, v);
	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		fieldset b = FBIT(from[i].f);

		if (!isnan(v[from[i].h]))
			continue;
		if (!from[i].rate && (f.have & b))
			v[from[i].h] = f.v[from[i].f] >= V1_UNLIMITED_MIN ?
				INFINITY :
				(float)f.v[from[i].f];
		else if (from[i].rate && (f.rated & b))
			v[from[i].h] = (float)f.r[from[i].f];
	}
	/* The kills in the interval, not per second. */
	if (!isnan(v[HF_OOM]) && !(g->rate_valid & FBIT(FLD_EV_OOM_KILL)))
		v[HF_OOM] = roundf(v[HF_OOM] * (float)(t->vfile_cur.mono -
						       t->vfile_prev.mono));
	history_feed(&t->hist, g->hash, t->pl.m.mono, v);
}

/* The pane's records just read (model.focus): the verdict's figures, the
 * history's point and memory.stat's values, rated against the last read
 * of the same group (same). */
void pane_detail_load(struct tui *t, const struct mgroup *g, int same)
{
	const struct model_focus *fo = &t->pl.m.focus;

	t->vfile_prev = t->vfile_cur;
	if (!same)
		t->vfile_prev.have = 0;
	verdict_files(t);
	history_files(t, g);
	for (size_t i = 0; i < fo->nfiles; i++) {
		struct kvbuild b = { 0 };

		if (strcmp(fo->file[i].name, "memory.stat") ||
		    !fo->file[i].text)
			continue;
		parse_keyvals(fo->file[i].text, strlen(fo->file[i].text),
			      kv_add, &b);
		free(t->stat_prev);
		t->stat_prev = same ? t->stat_cur : NULL;
		t->nstat_prev = same ? t->nstat_cur : 0;
		t->stat_prev_mono = t->stat_cur_mono;
		if (!same)
			free(t->stat_cur);
		t->stat_cur = b.kv;
		t->nstat_cur = b.n;
		t->stat_cur_mono = t->pl.m.mono;
	}
}

/* memory.stat keys that count pages or events; the rest are bytes. */
static int is_count_key(const char *k)
{
	static const char *const prefixes[] = {
		"pg", "total_pg", "workingset_", "total_workingset_", "thp_",
		"zswp", "numa_", NULL
	};

	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(k, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

static void stat_lines(struct pane_out *p)
{
	struct tui *t = p->t;
	double dt = t->stat_cur_mono - t->stat_prev_mono;

	pline(p, A_BOLD, "memory.stat%s", t->nstat_prev ? "" :
	      "  (rates after the next refresh)");
	for (size_t i = 0; i < t->nstat_cur; i++) {
		const struct statkv *kv = &t->stat_cur[i];
		int count = is_count_key(kv->key);
		char val[32], rate[32] = "";

		if (count)
			snprintf(val, sizeof(val), "%" PRIu64, kv->val);
		else
			fmt_bytes(val, sizeof(val), kv->val >= V1_UNLIMITED_MIN ?
				  0 : kv->val);
		if (!count && kv->val >= V1_UNLIMITED_MIN)
			snprintf(val, sizeof(val), "max");
		for (size_t j = 0; count && j < t->nstat_prev; j++) {
			double r;

			if (strcmp(t->stat_prev[j].key, kv->key))
				continue;
			/* As every rate: none for a counter that went back. */
			r = model_rate(t->stat_prev[j].val, kv->val, dt);
			if (r >= 0) {
				fmt_rate(rate, sizeof(rate), r);
				strncat(rate, "/s", sizeof(rate) - strlen(rate) - 1);
			}
			break;
		}
		pline(p, A_NORMAL, "  %-30s %12s %10s", kv->key, val, rate);
	}
}

/* How the collector's read of file name of the pane's group went: 0 or
 * a negative errno (model.focus). */
static int knob_read(const struct tui *t, const char *name)
{
	const struct model_focus *fo = &t->pl.m.focus;

	for (size_t i = 0; i < fo->nknobs; i++)
		if (!strcmp(fo->knob[i].name, name))
			return fo->knob[i].r;
	return fo->err < 0 ? fo->err : -ENOENT;
}

/* Why raw field f of group g is not available. */
static void field_reason(struct tui *t, const struct mgroup *g,
			 enum field f, char *buf, size_t len)
{
	const struct model_field_files *ff = &t->pl.m.src.files[f];
	int root = g->depth == 0, v = t->pl.m.src.version;
	const char *const *names = root ? ff->root_name : ff->name;
	size_t n = root ? ff->root_n : ff->n;

	if (root && ff->root_lacks) {
		snprintf(buf, len, "the v%d root has no such file", v);
		return;
	}
	if (n == 0) {
		snprintf(buf, len, "v%d only: cgroup v%d has no such file",
			 3 - v, v);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int r = knob_read(t, names[i]);

		if (r == -ENOENT) {
			snprintf(buf, len, "%s is absent %s", names[i],
				 t->pl.m.src.live ? "on this kernel" :
				 "from this copy");
			return;
		}
		if (r < 0) {
			snprintf(buf, len, "%s is not readable: %s", names[i],
				 strerror(-r));
			return;
		}
	}
	snprintf(buf, len, "%s%s has no value for it: the collector cannot "
		 "give it", names[0], n > 1 ? " (or another file)" : "");
}

/* Why a rate of counter f is not available, "" when it is its counter's
 * fault (see field_reason). */
static const char *rate_reason(const struct tui *t, const struct mgroup *g,
			       enum field f)
{
	if (!sample_has(&g->cur, f))
		return "";
	if (t->pl.m.dt <= 0)
		return "no earlier reading to rate against: rates after the "
			"next refresh";
	if (!g->has_prev)
		return "a new group (or one made again): rates after the next "
			"refresh";
	if (!sample_has(&g->prev, f))
		return "not read in the last refresh: rates after the next";
	if (sample_get(&g->cur, f) < sample_get(&g->prev, f))
		return "the counter went back (the group was made again): "
			"rates after the next refresh";
	return "";
}

/* Whether this hierarchy's version has a file for field f. */
static int version_reads(const struct tui *t, enum field f)
{
	return t->pl.m.src.files[f].n > 0;
}

/* Why column c of group g is blank when the reclaim events give it;
 * 0 when they do not, or another reason is the one to tell. */
static int events_reason(struct tui *t, const struct mgroup *g,
			 const struct column *c, char *buf, size_t len)
{
	const struct model_source *src = &t->pl.m.src;
	fieldset ev = src->event_fields;

	if (!(c->fields & ev) || !src->events || (c->field >= 0 &&
	    !(FBIT(c->field) & ev)))
		return 0;
	if (src->events_state == MEV_ON) {
		/* Every group the events were mapped to has its flushes:
		 * then a blank PRIO means no scan of its own lists. */
		if (c->field != FLD_PRIO_MIN ||
		    !sample_has(&g->cur, FLD_FLUSHES))
			return 0;
		snprintf(buf, len, "its own lists were not scanned in the "
			 "interval");
		return 1;
	}
	snprintf(buf, len, "reclaim events (BPF) %s", src->events_text);
	return 1;
}

/* Why column c of group g is blank. */
/* Under the multi-gen LRU, why a column that needs the classic LRU is
 * blank: "the multi-gen LRU runs (lru_gen/enabled 0x0007): WHAT". */
static int mglru_reason(const struct tui *t, const char *what, char *buf,
			size_t len)
{
	if (!(t->pl.m.sys.valid & SBIT(SYS_LRU_GEN)) ||
	    !t->pl.m.sys.v[SYS_LRU_GEN])
		return 0;
	snprintf(buf, len, "the multi-gen LRU runs (lru_gen/enabled 0x%04"
		 PRIx64 "): %s", t->pl.m.sys.v[SYS_LRU_GEN], what);
	return 1;
}

static void blank_reason(struct tui *t, const struct mgroup *g,
			 const struct column *c, char *buf, size_t len)
{
	const struct sample *s = &g->cur;

	if (events_reason(t, g, c, buf, len))
		return;

	if (c->derived == D_FAILCNT_TREE || c->derived == D_FAILCNT_TREE_RATE) {
		snprintf(buf, len, "%s", !g->tree_ok ? "its subtree is not "
			 "whole: cut by --depth, or a group without "
			 "memory.failcnt" : "a rate after the next refresh");
		return;
	}
	if (c->unit == U_RATE) {
		const char *r = rate_reason(t, g, (enum field)c->field);

		if (*r)
			snprintf(buf, len, "%s", r);
		else
			field_reason(t, g, (enum field)c->field, buf, len);
		return;
	}
	if (c->derived == D_USE_PCT && mgroup_derived(g, D_EFF_LIMIT) &&
	    g->eff_limit == VAL_MAX) {
		snprintf(buf, len, "no limit on the path");
		return;
	}
	if (c->derived == D_RECLAIM_EFF && (g->rate_valid & FBIT(FLD_PGSCAN))) {
		snprintf(buf, len, "nothing scanned in the interval");
		return;
	}
	if (c->derived == D_RECLAIM_EFF &&
	    *rate_reason(t, g, FLD_PGSCAN)) {
		snprintf(buf, len, "%s", rate_reason(t, g, FLD_PGSCAN));
		return;
	}
	if (c->derived == D_SCAN_PRIO) {
		/* Its own lists are a file's (v1), or its lists less its
		 * children's (v2). */
		int own_lists = (t->pl.m.kept & FBIT(FLD_OWN_ACTIVE_FILE)) != 0;

		if (mglru_reason(t, "the classic rule does not hold", buf,
				 len))
			return;
		if (!own_lists && sample_has(s, FLD_ACTIVE_FILE) &&
		    !g->kid_lru_ok) {
			snprintf(buf, len, "its children's LRU lists are not "
				 "all known (depth limit or an unreadable "
				 "child)");
			return;
		}
		if (sample_has(s, FLD_OWN_ACTIVE_FILE) ||
		    (!own_lists && sample_has(s, FLD_ACTIVE_FILE))) {
			snprintf(buf, len, "no pages on its own evictable "
				 "lists that reclaim may scan (P = 0)");
			return;
		}
	}
	if ((c->field == FLD_SOFT_TREE || c->field == FLD_SOFT_RANK) &&
	    t->pl.m.version == 1) {
		if (mglru_reason(t, "the kernel keeps no soft-limit tree", buf,
				 len))
			return;
		if (c->field == FLD_SOFT_RANK && sample_has(s, FLD_SOFT_TREE) &&
		    sample_get(s, FLD_SOFT_TREE) == 0) {
			snprintf(buf, len, "on no soft-limit tree (no excess "
				 "at its last update)");
			return;
		}
		if (c->field == FLD_SOFT_RANK && sample_has(s, FLD_SOFT_TREE)) {
			snprintf(buf, len, "the tree holds every group of the "
				 "hierarchy: a place is known only when "
				 "memcgtop starts at its root");
			return;
		}
		if (!t->pl.m.src.live || t->pl.m.src.series) {
			snprintf(buf, len, "the BPF pass alone reads the "
				 "kernel's soft-limit tree: not in this copy "
				 "or recording");
			return;
		}
		if (*t->pl.m.src.bpf_why) {
			snprintf(buf, len, "the BPF pass alone reads the "
				 "kernel's soft-limit tree: %s",
				 t->pl.m.src.bpf_why);
			return;
		}
	}
	/* A raw value, or a derived one whose first missing input says. */
	for (int f = 0; f < FLD_NR; f++) {
		if (!(c->fields & FBIT(f)) || sample_has(s, (enum field)f))
			continue;
		/* Only what this version reads counts as an input. */
		if (c->field < 0 && !version_reads(t, (enum field)f))
			continue;
		field_reason(t, g, (enum field)f, buf, len);
		return;
	}
	snprintf(buf, len, "the collector cannot give it");
}

/* A line for every blank of the shown column set. */
static void blank_lines(struct pane_out *p, const struct mgroup *g)
{
	struct tui *t = p->t;
	int head = 0;

	for (size_t i = 0; i < t->setn[t->cur_set]; i++) {
		const struct column *c = t->set[t->cur_set][i];
		char why[300];

		if (c->kind == CK_PATH || col_value(c, g).kind != CV_NA)
			continue;
		if (!head++)
			pline(p, A_BOLD, "Blank columns");
		blank_reason(t, g, c, why, sizeof(why));
		pline(p, A_NORMAL, "  %-24s %s", c->key, why);
	}
}

/*
 * memory.numa_stat as a table of the LRU lists per node: v2's in bytes,
 * v1's (the group's own and the hierarchical ones) in pages.
 */
static void numa_table(struct pane_out *p, const struct numa_view *nv,
		       const struct numa_stat *ns, uint64_t unit, size_t k0,
		       size_t k1);

static void numa_lines(struct pane_out *p, const char *text)
{
	const struct numa_view *nv = p->t->pl.m.src.numa_pane;
	uint64_t unit = nv->pages ? (uint64_t)sysconf(_SC_PAGESIZE) : 1;
	struct numa_stat *ns = xmalloc(sizeof(*ns));

	parse_numa_stat(text, strlen(text), nv->keys, nv->n, ns);
	if (!ns->n) {
		free(ns);
		return;
	}
	for (size_t part = 0; part < 2; part++) {
		size_t k0 = part ? nv->split : 0, k1 = nv->split && !part ?
			nv->split : nv->n;
		int any = 0;

		if (part && !nv->split)
			break;
		for (size_t i = 0; i < ns->n; i++)
			for (size_t k = k0; k < k1; k++)
				any |= ns->has[i][k];
		if (!any)
			continue;
		if (part)
			pline(p, A_BOLD, "Own LRU lists per NUMA node (what "
			      "reclaim scans; from the BPF pass)");
		else
			pline(p, A_BOLD, "LRU lists per NUMA node%s",
			      nv->note);
		numa_table(p, nv, ns, unit, k0, k1);
	}
	free(ns);
}

/* Keys k0 .. k1 - 1 of the view, one row per node. */
static void numa_table(struct pane_out *p, const struct numa_view *nv,
		       const struct numa_stat *ns, uint64_t unit, size_t k0,
		       size_t k1)
{
	char line[300];
	int len;

	len = snprintf(line, sizeof(line), "  %-6s", "NODE");
	for (size_t k = k0; k < k1; k++)
		len += snprintf(line + len, sizeof(line) - (size_t)len, " %7s",
				nv->names[k]);
	pline(p, A_NORMAL, "%s", line);
	for (size_t i = 0; i < ns->n; i++) {
		len = snprintf(line, sizeof(line), "  N%-5u", ns->node[i]);
		for (size_t k = k0; k < k1; k++) {
			char b[32] = "-";

			if (ns->has[i][k])
				fmt_bytes(b, sizeof(b), ns->v[i][k] * unit);
			len += snprintf(line + len, sizeof(line) - (size_t)len,
					" %7s", b);
		}
		pline(p, A_NORMAL, "%s", line);
	}
}

/*
 * The reclaim events' state and what they give of the group: its lowest
 * scan priority and its stats flushes.  Nothing on a copy or a recording.
 */
static void events_lines(struct pane_out *p, const struct mgroup *g)
{
	struct tui *t = p->t;
	enum model_events st;
	const char *text;
	int64_t since;
	char when[16], rate[32];
	struct tm tm;
	time_t w;
	/* pgscan and pgsteal come from memory.stat (v2), the kernel's
	 * counters in the BPF pass (v1, once proven), else the events. */
	int v1_scan = (t->pl.m.src.version_events &
		       FBIT(FLD_PGSCAN)) != 0;
	int ev_scan = v1_scan &&
		!(t->pl.m.src.free_fields & FBIT(FLD_PGSCAN));
	const char *scan_from = v1_scan ?
		"the kernel's counters (the BPF pass)" : "memory.stat";

	if (!t->pl.m.src.events)
		return;
	st = t->pl.m.src.events_state;
	text = t->pl.m.src.events_text;
	since = t->pl.m.src.events_since;
	/* A copy or a recording: nothing to say of this host's events. */
	if (st == MEV_NONE && !t->pl.m.src.live)
		return;
	if (st == MEV_NONE) {
		pline(p, A_BOLD, "Reclaim events (BPF): %s", text);
		return;
	}
	if (st == MEV_IDLE) {
		pline(p, A_BOLD, "Reclaim events (BPF): loaded at the next "
		      "refresh");
		return;
	}
	if (st == MEV_FAILED) {
		pline(p, A_BOLD, "Reclaim events (BPF): %s", text);
		if (ev_scan)
			pline(p, A_NORMAL, "  v1 pgscan and pgsteal, PRIO and "
			      "flushes stay blank");
		else
			pline(p, A_NORMAL, "  PRIO and flushes stay blank; "
			      "pgscan and pgsteal come from %s", scan_from);
		return;
	}
	w = (time_t)since;
	localtime_r(&w, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	pline(p, A_BOLD, "Reclaim events (BPF), counting since %s", when);
	if (ev_scan)
		pline(p, A_NORMAL, "  v1 pgscan and pgsteal: pages since then, "
		      "the group's and its descendants'");
	if (sample_has(&g->cur, FLD_PRIO_MIN))
		pline(p, A_NORMAL, "  %-28s %" PRIu64, "lowest scan priority",
		      sample_get(&g->cur, FLD_PRIO_MIN));
	else
		pline(p, A_NORMAL, "  %-28s -  (own lists not scanned in the "
		      "interval)", "lowest scan priority");
	if (sample_has(&g->cur, FLD_PRIO_MIN)) {
		char k[8] = "-", d[8] = "-", a[8] = "-";

		if (sample_has(&g->cur, FLD_PRIO_MIN_KSWAPD))
			snprintf(k, sizeof(k), "%" PRIu64,
				 sample_get(&g->cur, FLD_PRIO_MIN_KSWAPD));
		if (sample_has(&g->cur, FLD_PRIO_MIN_DIRECT))
			snprintf(d, sizeof(d), "%" PRIu64,
				 sample_get(&g->cur, FLD_PRIO_MIN_DIRECT));
		if (sample_has(&g->cur, FLD_PRIO_MIN_PROACTIVE))
			snprintf(a, sizeof(a), "%" PRIu64,
				 sample_get(&g->cur, FLD_PRIO_MIN_PROACTIVE));
		pline(p, A_NORMAL, "  %-28s kswapd %s, the tasks' own %s, "
		      "proactive %s", "  of it", k, d, a);
	}
	/* Not in prio_min: the kernel fixes it at 0. */
	if (sample_has(&g->cur, FLD_PRIO_MIN_SOFT))
		pline(p, A_NORMAL, "  %-28s %" PRIu64 "  (fixed by the kernel, "
		      "not a sign of trouble)", "soft-limit reclaim's priority",
		      sample_get(&g->cur, FLD_PRIO_MIN_SOFT));
	if (g->rate_valid & FBIT(FLD_FLUSHES) &&
	    g->rate_valid & FBIT(FLD_FLUSH_CALLS)) {
		char calls[32];

		/* Most requests return at once: too few pending updates. */
		fmt_rate(rate, sizeof(rate), mgroup_rate(g, FLD_FLUSHES));
		fmt_rate(calls, sizeof(calls),
			 mgroup_rate(g, FLD_FLUSH_CALLS));
		pline(p, A_NORMAL, "  %-28s %s/s of %s requests/s",
		      "stats flushes", rate, calls);
		if (sample_has(&g->cur, FLD_STATS_PENDING) &&
		    (p->t->pl.m.sys.valid & SBIT(SYS_FLUSH_THRESHOLD)))
			pline(p, A_NORMAL, "  %-28s %" PRIu64 " (a read "
			      "flushes above %" PRIu64 ")",
			      "updates pending a flush",
			      sample_get(&g->cur, FLD_STATS_PENDING),
			      p->t->pl.m.sys.v[SYS_FLUSH_THRESHOLD]);
		/* Its tasks' time in direct and memcg reclaim. */
		if (g->rate_valid & FBIT(FLD_STALL)) {
			fmt_rate(rate, sizeof(rate),
				 mgroup_rate(g, FLD_STALL));
			pline(p, A_NORMAL, "  %-28s %s ms/s (%" PRIu64
			      " ms since loaded)", "its tasks in reclaim", rate,
			      sample_get(&g->cur, FLD_STALL));
		}
	} else {
		pline(p, A_NORMAL, "  %-28s -  (a rate after the next refresh)",
		      "stats flushes");
	}
}

/* v2's effective protection (model.c), and what it rests on. */
static void protection_lines(struct pane_out *p, const struct mgroup *g)
{
	const struct model *m = &p->t->pl.m;
	char mn[32], lo[32];

	if (m->version != 2 || g->depth == 0)
		return;
	if (!mgroup_derived(g, D_EFF_LOW)) {
		const struct mgroup *top = g;

		while (top->parent >= 0)
			top = m->groups[top->parent];
		pline(p, p->t->attr[TE_DIM], "  %-28s -  (%s)",
		      "effective protection", top->depth >= 2 ?
		      "the start group's parent is not read: start at / or "
		      "a top-level group" :
		      "a value of it or of a sibling is missing");
		return;
	}
	if (g->eff_min == VAL_MAX)
		snprintf(mn, sizeof(mn), "max");
	else
		fmt_bytes(mn, sizeof(mn), g->eff_min);
	if (g->eff_low == VAL_MAX)
		snprintf(lo, sizeof(lo), "max");
	else
		fmt_bytes(lo, sizeof(lo), g->eff_low);
	/* memory_recursiveprot: the mount's option; not known (a copy
	 * without --proc) counts as off. */
	pline(p, A_NORMAL, "  %-28s min %s, low %s, recursiveprot %s",
	      "effective protection", mn, lo, m->recursiveprot > 0 ? "on" :
	      m->recursiveprot == 0 ? "off" : "assumed off");
}

/*
 * The history graphs: one row a figure, a column a slice of the window
 * (its largest value), ending at the sample shown.  A column's height is
 * its value against the row's top: the limit (or memory.high, the lower)
 * for usage, else the window's peak.  The lowest block is a 0, a blank is
 * no value.
 */
static const char *const graph_utf8[] = {
	"\xE2\x96\x81", "\xE2\x96\x82", "\xE2\x96\x83", "\xE2\x96\x84",
	"\xE2\x96\x85", "\xE2\x96\x86", "\xE2\x96\x87", "\xE2\x96\x88",
};
static const char graph_ascii[] = "_.:-=+*#";

#define GRAPH_LABEL 11		/* "stall ms/s " */
#define GRAPH_TOP 9		/* " 1023.9M" */
#define GRAPH_MAX 320		/* columns at most, on the widest screens */

/* 0 for 0, else 1 to 7 by v's share of top. */
static int graph_level(double v, double top)
{
	int l;

	if (v <= 0 || !(top > 0))
		return 0;
	l = 1 + (int)(v * 6 / top);
	return l > 7 ? 7 : l;
}

/* The glyph of v in a graph whose top is top: a blank for no value. */
const char *tui_graph_glyph(const struct tui *t, double v, double top)
{
	static char ascii[2];

	if (isnan(v))
		return " ";
	if (t->utf8)
		return graph_utf8[graph_level(v, top)];
	ascii[0] = graph_ascii[graph_level(v, top)];
	return ascii;
}

/* "-5m", "-2m30s", "-45s". */
static void graph_ago(char *buf, size_t len, double s)
{
	long n = lround(s);

	if (n >= 120 && n % 60 == 0)
		snprintf(buf, len, "-%ldm", n / 60);
	else if (n >= 120)
		snprintf(buf, len, "-%ldm%02lds", n / 60, n % 60);
	else
		snprintf(buf, len, "-%lds", n);
}

/* The last finite value of fig at or before end in r (NaN: none). */
static double graph_last(const struct history_ring *r, enum history_fig fig,
			 double end)
{
	for (unsigned k = r->n; k-- > 0;) {
		const struct history_point *pt = history_point(r, k);

		if (pt->mono <= end + 1e-6 && isfinite(pt->v[fig]))
			return pt->v[fig];
	}
	return NAN;
}


static void graph_row(struct pane_out *p, const struct history_ring *r,
		      enum history_fig fig, const char *label, int width,
		      double *cols)
{
	struct tui *t = p->t;
	double end = t->pl.m.mono, top, peak;
	char line[1100], topbuf[32] = "";
	size_t o;

	peak = history_columns(r, fig, end, t->hist.window, cols, width);
	if (isnan(peak)) {
		pline(p, A_NORMAL, "%-*s not available in the window",
		      GRAPH_LABEL - 1, label);
		return;
	}
	top = peak;
	if (fig == HF_USAGE) {
		double lim = graph_last(r, HF_LIMIT, end);
		double high = graph_last(r, HF_HIGH, end);

		if (!isnan(high) && (isnan(lim) || high < lim))
			lim = high;
		if (!isnan(lim) && lim > 0)
			top = lim;
		fmt_bytes(topbuf, sizeof(topbuf), (uint64_t)top);
	} else if (fig == HF_OOM) {
		fmt_count(topbuf, sizeof(topbuf), (uint64_t)top);
	} else {
		fmt_rate(topbuf, sizeof(topbuf), top);
	}
	o = (size_t)snprintf(line, sizeof(line), "%-*s", GRAPH_LABEL, label);
	for (int c = 0; c < width && o + 8 < sizeof(line); c++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%s",
				      tui_graph_glyph(t, cols[c], top));
	snprintf(line + o, sizeof(line) - o, " %*s", GRAPH_TOP - 1, topbuf);
	praw(p, line);
}

static void history_lines(struct pane_out *p, const struct mgroup *g)
{
	struct tui *t = p->t;
	const struct history_ring *r = history_find(&t->hist, g->hash);
	int width = COLS - GRAPH_LABEL - GRAPH_TOP;
	char left[32], mid[32], axis[GRAPH_LABEL + GRAPH_MAX + 1];
	double cols[GRAPH_MAX];
	static const struct {
		enum history_fig fig;
		const char *label;
	} rows[] = {
		{ HF_USAGE, "usage" }, { HF_SCAN, "scan/s" },
		{ HF_STEAL, "steal/s" }, { HF_REFAULT, "refault/s" },
		{ HF_STALL, "stall ms/s" }, { HF_OOM, "OOM kills" },
	};

	if (width > GRAPH_MAX)
		width = GRAPH_MAX;
	if (!t->hist.cap || width < 10)
		return;
	if (!r) {
		pline(p, A_BOLD, "History: none kept for this group (the first "
		      "%d groups of the tree have one)", HISTORY_GROUPS_MAX);
		return;
	}
	graph_ago(left, sizeof(left), t->hist.window);
	pline(p, A_BOLD, "History %s..now  (scale at right: usage's limit or "
	      "high, else the peak)", left);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		graph_row(p, r, rows[i].fig, rows[i].label, width, cols);
	/* The time axis: the window's start, its middle, the sample shown. */
	graph_ago(mid, sizeof(mid), t->hist.window / 2);
	memset(axis, ' ', sizeof(axis) - 1);
	memcpy(axis + GRAPH_LABEL, left, strlen(left));
	memcpy(axis + GRAPH_LABEL + width / 2 - (int)strlen(mid) / 2, mid,
	       strlen(mid));
	memcpy(axis + GRAPH_LABEL + width - 3, "now", 3);
	axis[GRAPH_LABEL + width] = '\0';
	praw(p, axis);
}

static void verdict_line(const char *line, void *ctx)
{
	struct pane_out *p = ctx;

	pline(p, A_NORMAL, "  %s", line);
}

void detail_lines(struct pane_out *p, const struct mgroup *g)
{
	struct tui *t = p->t;
	struct verdict_figs f;

	ptitle(p, t->attr[TE_HEADER], "Detail of %s  (J/K scroll, d closes)",
	       g->path);
	tui_follow_pane(p, g);
	pline(p, A_BOLD, "Verdict%s", t->pl.m.dt > 0 ? "" :
	      "  (rates after the next refresh)");
	verdict_figs_pane(t, g, &f);
	if (!verdict(&t->pl.m, g, &f, verdict_line, p))
		pline(p, t->attr[TE_DIM], "  nothing to say: this view read "
		      "none of its figures");
	history_lines(p, g);
	blank_lines(p, g);
	protection_lines(p, g);
	events_lines(p, g);
	for (size_t i = 0; i < t->pl.m.focus.nfiles; i++) {
		const char *name = t->pl.m.focus.file[i].name;
		const char *text = t->pl.m.focus.file[i].text;

		if (!text) {
			pline(p, t->attr[TE_DIM], "%-24s not available: %s", name,
			      strerror(t->pl.m.focus.file[i].err));
			continue;
		}
		if (!strcmp(name, "memory.stat")) {
			stat_lines(p);
			continue;
		}
		/* The refresh's lists where it has them (the BPF pass's,
		 * v2's own among them), else the file's. */
		if (!strcmp(name, "memory.numa_stat"))
			numa_lines(p, sample_has(&g->cur, FLD_NUMA) &&
				   t->pl.m.numa_text ? t->pl.m.numa_text +
				   sample_get(&g->cur, FLD_NUMA) : text);
		if (!strchr(text, '\n') || strchr(text, '\n')[1] == '\0') {
			uint64_t v;
			char human[32] = "";
			size_t l = strcspn(text, "\n");

			if (parse_value(text, l, &v) == 0 && v == VAL_MAX) {
				/* v1 spells no limit 9223372036854771712;
				 * the table says max, and so does this. */
				pline(p, A_NORMAL, "%-28s max", name);
				continue;
			}
			if (parse_value(text, l, &v) == 0 && v >= 1024 &&
			    strstr(name, "swappiness") == NULL &&
			    strstr(name, "failcnt") == NULL &&
			    strstr(name, "hierarchy") == NULL)
				fmt_bytes(human, sizeof(human), v);
			pline(p, A_NORMAL, "%-28s %.*s%s%s%s", name, (int)l, text,
			      human[0] ? "  (" : "", human, human[0] ? ")" : "");
			continue;
		}
		pline(p, A_BOLD, "%s", name);
		for (const char *s = text; *s;) {
			size_t l = strcspn(s, "\n");

			pline(p, A_NORMAL, "  %.*s", (int)l, s);
			s += l + (s[l] == '\n');
		}
	}
	/* Where the table's values came from (the bpf collector's pass:
	 * which memory.stat values, and how their words were proven). */
	if (*t->pl.m.src.paths)
		pline(p, t->attr[TE_DIM], "Source: %s", t->pl.m.src.paths);
}
