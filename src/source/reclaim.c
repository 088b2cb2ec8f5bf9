/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reclaim.c - the reclaim events behind a refresh: loads bpfev when
 * wanted and maps its per-cgroup-id counts onto a snapshot's groups.
 * See reclaim.h.
 *
 * The kernel counts each event in the one group whose lists were scanned.
 * A group's figure is its own plus its descendants' (bpfev_subtree_sums
 * over the groups this refresh saw), plus what removed descendants had
 * counted: when a group leaves the tree its counts move to its nearest
 * ancestor still in it ("carry") and its map entry is dropped, so the
 * figures never go back, as v2's memory.stat keeps a removed child's
 * events in its parent.  Groups the walk does not reach (below --depth,
 * outside the start group) are not added anywhere, and their entries are
 * dropped.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf/bpfev.h"
#include "reclaim.h"
#include "xalloc.h"

_Static_assert(SYS_NPRIO == BPFEV_NPRIO, "reclaim priorities differ");

/*
 * The tree kept from one refresh to the next (now, prev) is of rc_nodes;
 * the sums (nodes) are bpfev's (bpfev.h): a group's own counts with its
 * carry, then with its descendants'.
 */

/* A group of the tree kept from one refresh to the next, and what its
 * removed descendants left ("carry"): NULL while they left nothing, as
 * most groups. */
struct rc_node {
	uint64_t id, parent_id;
	uint64_t *carry;	/* BPFEV_NSUM counts */
};

/* A group that left the tree: where its later counts go. */
struct rc_gone {
	uint64_t id, parent;
	unsigned long gen;	/* the refresh it left at */
};

/* Removed groups remembered (a dying group may still be reclaimed),
 * as many as the kernel's map holds. */
#define GONE_MAX 65536

struct reclaim {
	int version;
	int live;
	struct bpfev *ev;
	int stalls;		/* bpfev_stalls: FLD_STALL has values */
	int soft;		/* bpfev_soft: FLD_SOFT_PGSCAN ... have */
	enum reclaim_state state;
	struct bpfev_why why;
	char text[320];
	int64_t since;		/* wall clock of the load */
	unsigned long gen;
	struct rc_node *now, *prev;
	size_t nnow, nprev, capnow, capprev;
	struct rc_gone *gone;
	size_t ngone, capgone;
	struct bpfev_node *nodes;
	size_t capnodes;
	long start;		/* the start group's index in nodes, or -1 */
	uint64_t *dropped;	/* the ids the last fill dropped from the map */
	size_t ndropped, capdropped;
};

fieldset reclaim_fields(int version)
{
	return cgfs_version_events(version);
}

fieldset reclaim_slots(const struct reclaim *rc)
{
	return rc && rc->ev ? reclaim_fields(rc->version) : 0;
}

/* The state and what the detail pane says of it. */
static void set_state(struct reclaim *rc, enum reclaim_state st)
{
	rc->state = st;
	switch (st) {
	case RECLAIM_NONE:
		snprintf(rc->text, sizeof(rc->text), "not this host's: a "
			 "copy or a recording (which shows what they gave "
			 "when it was made)");
		break;
	case RECLAIM_IDLE:
		snprintf(rc->text, sizeof(rc->text), "not loaded: no column "
			 "shown needs them");
		break;
	case RECLAIM_ON:
		snprintf(rc->text, sizeof(rc->text), "counting");
		break;
	case RECLAIM_FAILED:
		snprintf(rc->text, sizeof(rc->text), "not available: %s",
			 rc->why.text);
		break;
	}
}

struct reclaim *reclaim_new(const struct cgfs *cg)
{
	struct reclaim *rc = xcalloc(1, sizeof(*rc));

	rc->version = cgfs_version(cg);
	/* The events are this host's: a copy or a recording has others
	 * (a recording made keeps what they gave, cgfs_keep_events). */
	rc->live = cgfs_is_live(cg) && !cgfs_is_series(cg);
	set_state(rc, rc->live ? RECLAIM_IDLE : RECLAIM_NONE);
	return rc;
}

static void free_carry(struct rc_node *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].carry);
}

static void forget_tree(struct reclaim *rc)
{
	free_carry(rc->now, rc->nnow);
	free_carry(rc->prev, rc->nprev);
	rc->nnow = rc->nprev = rc->ngone = 0;
}

void reclaim_free(struct reclaim *rc)
{
	if (!rc)
		return;
	bpfev_close(rc->ev);
	forget_tree(rc);
	free(rc->now);
	free(rc->prev);
	free(rc->gone);
	free(rc->nodes);
	free(rc->dropped);
	free(rc);
}

enum reclaim_state reclaim_want(struct reclaim *rc, int want)
{
	if (!rc->live || rc->state == RECLAIM_FAILED)
		return rc->state;
	if (!want && rc->ev) {
		bpfev_close(rc->ev);
		rc->ev = NULL;
		set_state(rc, RECLAIM_IDLE);
		forget_tree(rc);
	} else if (want && !rc->ev) {
		if (bpfev_open(&rc->ev, &rc->why) < 0) {
			rc->ev = NULL;
			set_state(rc, RECLAIM_FAILED);
			return rc->state;
		}
		set_state(rc, RECLAIM_ON);
		rc->stalls = bpfev_stalls(rc->ev);
		rc->soft = bpfev_soft(rc->ev);
		rc->since = (int64_t)time(NULL);
		forget_tree(rc);
	}
	return rc->state;
}

static int by_node_id(const void *a, const void *b)
{
	const struct rc_node *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_gone_id(const void *a, const void *b)
{
	const struct rc_gone *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_gone_gen_desc(const void *a, const void *b)
{
	const struct rc_gone *x = a, *y = b;

	return x->gen > y->gen ? -1 : x->gen < y->gen;
}

static int by_group_id(const void *a, const void *b)
{
	const struct bpfev_count *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static struct rc_node *find_node(struct rc_node *v, size_t n, uint64_t id)
{
	struct rc_node key = { .id = id };

	return n ? bsearch(&key, v, n, sizeof(*v), by_node_id) : NULL;
}

static struct rc_gone *find_gone(struct reclaim *rc, uint64_t id)
{
	struct rc_gone key = { .id = id };

	return rc->ngone ? bsearch(&key, rc->gone, rc->ngone, sizeof(key),
				   by_gone_id) : NULL;
}

/* Adds counts to the nearest ancestor of a removed group still in the
 * tree, from its parent id up; lost when none is known. */
static void lift(struct reclaim *rc, uint64_t parent, const uint64_t *ev)
{
	/* A chain of removed groups is at most as long as their list. */
	for (size_t steps = 0; parent && steps <= rc->ngone; steps++) {
		struct rc_node *n = find_node(rc->now, rc->nnow, parent);
		struct rc_gone *g;

		if (n) {
			if (!n->carry)
				n->carry = xcalloc(BPFEV_NSUM, sizeof(*n->carry));
			for (int k = 0; k < BPFEV_NSUM; k++)
				n->carry[k] += ev[k];
			return;
		}
		g = find_gone(rc, parent);
		if (!g)
			return;
		parent = g->parent;
	}
}

/* The tree of this refresh by id; the removed groups and their carry. */
static void track_tree(struct reclaim *rc, const struct snapshot *snap)
{
	struct rc_node *t;
	size_t t_cap, ngone0;

	/* The last refresh's tree becomes prev; now is built anew. */
	t = rc->prev;
	rc->prev = rc->now;
	rc->now = t;
	t_cap = rc->capprev;
	rc->capprev = rc->capnow;
	rc->capnow = t_cap;
	rc->nprev = rc->nnow;
	rc->nnow = 0;
	if (snap->n > rc->capnow) {
		rc->now = xreallocarray(rc->now, snap->n, sizeof(*rc->now));
		rc->capnow = snap->n;
	}
	for (size_t i = 0; i < snap->n; i++) {
		const struct snap_group *g = &snap->groups[i];

		if (!g->ino)
			continue;
		rc->now[rc->nnow++] = (struct rc_node){ g->ino,
			g->parent >= 0 ? snap->groups[g->parent].ino : 0, NULL };
	}
	qsort(rc->now, rc->nnow, sizeof(*rc->now), by_node_id);
	ngone0 = rc->ngone;
	for (size_t i = 0; i < rc->nprev; i++) {
		struct rc_node *p = &rc->prev[i];
		struct rc_node *n = find_node(rc->now, rc->nnow, p->id);

		if (n) {
			/* Still there: its carry goes with it. */
			n->carry = p->carry;
			p->carry = NULL;
			continue;
		}
		if (rc->ngone == rc->capgone) {
			rc->capgone = rc->capgone ? rc->capgone * 2 : 64;
			rc->gone = xreallocarray(rc->gone, rc->capgone,
						 sizeof(*rc->gone));
		}
		rc->gone[rc->ngone++] = (struct rc_gone){ p->id, p->parent_id,
							  rc->gen };
	}
	if (rc->ngone == ngone0)
		return;	/* every carry went with its group */
	if (rc->ngone > GONE_MAX) {
		/* The oldest removals go first. */
		qsort(rc->gone, rc->ngone, sizeof(*rc->gone), by_gone_gen_desc);
		rc->ngone = GONE_MAX;
	}
	qsort(rc->gone, rc->ngone, sizeof(*rc->gone), by_gone_id);
	/* What the removed groups held for their removed descendants. */
	for (size_t i = 0; i < rc->nprev; i++) {
		struct rc_node *p = &rc->prev[i];

		if (p->carry)
			lift(rc, p->parent_id, p->carry);
		free(p->carry);
		p->carry = NULL;
	}
}

/* Which items a sum takes (reclaim_items.h). */
#define ITEM_KIND(slot, name, kind) kind,
static const enum reclaim_item_kind item_kind[BPFEV_NITEMS] = {
	RECLAIM_ITEMS(ITEM_KIND)
};
#undef ITEM_KIND

/* v1's pgscan and pgsteal, and their kswapd and direct parts, from a
 * group's counts with its descendants'. */
static void set_scans(struct sample *s, const uint64_t *ev)
{
	uint64_t sum[2] = { 0, 0 };

	sample_set(s, FLD_PGSCAN_KSWAPD, ev[BPFEV_SCAN_KSWAPD]);
	sample_set(s, FLD_PGSCAN_DIRECT, ev[BPFEV_SCAN_DIRECT]);
	sample_set(s, FLD_PGSTEAL_KSWAPD, ev[BPFEV_STEAL_KSWAPD]);
	sample_set(s, FLD_PGSTEAL_DIRECT, ev[BPFEV_STEAL_DIRECT]);
	/* As v2's pgscan: every reclaimer's items together. */
	for (size_t k = 0; k < BPFEV_NITEMS; k++)
		sum[item_kind[k]] += ev[k];
	sample_set(s, FLD_PGSCAN, sum[RI_SCAN]);
	sample_set(s, FLD_PGSTEAL, sum[RI_STEAL]);
}

/* The lowest priorities per reclaimer: a field each, where scanned. */
static const struct {
	enum field f;
	size_t off;
} prio_figs[] = {
	{ FLD_PRIO_MIN, offsetof(struct bpfev_count, prio_min) },
	{ FLD_PRIO_MIN_KSWAPD, offsetof(struct bpfev_count, prio_min_kswapd) },
	{ FLD_PRIO_MIN_DIRECT, offsetof(struct bpfev_count, prio_min_direct) },
	{ FLD_PRIO_MIN_PROACTIVE,
	  offsetof(struct bpfev_count, prio_min_proactive) },
	/* v1 only: sample_set keeps to the version's slots. */
	{ FLD_PRIO_MIN_SOFT, offsetof(struct bpfev_count, prio_min_soft) },
};

static void set_prios(struct sample *s, const struct bpfev_count *own)
{
	for (size_t i = 0; i < sizeof(prio_figs) / sizeof(prio_figs[0]); i++) {
		int p;

		memcpy(&p, (const char *)own + prio_figs[i].off, sizeof(p));
		if (p >= 0)
			sample_set(s, prio_figs[i].f, (uint64_t)p);
	}
}

void reclaim_fill_from(struct reclaim *rc, struct snapshot *snap,
		       const struct bpfev_count *gs, size_t ngs,
		       const struct bpfev_sys *sys)
{
	struct sysinfo *fig = &snap->sys;

	rc->gen++;
	track_tree(rc, snap);
	/*
	 * Counts of groups that left: to their ancestors, and the map entry
	 * dropped (a dying group counted again comes back here).  Groups
	 * never in the tree (outside the start group, below --depth, other
	 * tools' groups whose stats were flushed) are dropped too: nothing
	 * shows them, and kept they would fill the kernel's map, whose
	 * later events would then be lost.  A group made since the walk
	 * loses the few events it counted before the next one.
	 */
	rc->ndropped = 0;
	for (size_t i = 0; i < ngs; i++) {
		struct rc_gone *g;

		if (find_node(rc->now, rc->nnow, gs[i].id))
			continue;
		if ((g = find_gone(rc, gs[i].id)))
			lift(rc, g->parent, gs[i].ev);
		if (rc->ndropped == rc->capdropped) {
			rc->capdropped = rc->capdropped ? rc->capdropped * 2 : 64;
			rc->dropped = xreallocarray(rc->dropped, rc->capdropped,
						    sizeof(*rc->dropped));
		}
		rc->dropped[rc->ndropped++] = gs[i].id;
		if (rc->ev)
			bpfev_forget(rc->ev, gs[i].id);
	}
	if (rc->nnow > rc->capnodes) {
		rc->nodes = xreallocarray(rc->nodes, rc->nnow,
					  sizeof(*rc->nodes));
		rc->capnodes = rc->nnow;
	}
	for (size_t i = 0; i < rc->nnow; i++) {
		struct bpfev_count key = { .id = rc->now[i].id };
		const struct bpfev_count *own = ngs ?
			bsearch(&key, gs, ngs, sizeof(*gs), by_group_id) : NULL;

		rc->nodes[i].id = rc->now[i].id;
		rc->nodes[i].parent_id = rc->now[i].parent_id;
		for (int k = 0; k < BPFEV_NSUM; k++)
			rc->nodes[i].ev[k] = (rc->now[i].carry ?
					      rc->now[i].carry[k] : 0) +
				(own ? own->ev[k] : 0);
	}
	/* Ids are the kernel's and unique: -EINVAL cannot come from them. */
	if (bpfev_subtree_sums(rc->nodes, rc->nnow) < 0)
		return;
	rc->start = -1;
	for (size_t i = 0; i < snap->n; i++) {
		struct rc_node *n;

		if (snap->groups[i].parent < 0 && snap->groups[i].ino &&
		    (n = find_node(rc->now, rc->nnow, snap->groups[i].ino)))
			rc->start = n - rc->now;
	}
	/* Room for them, if the refresh was not told (more_slots). */
	snapshot_add_slots(snap, reclaim_fields(rc->version));
	for (size_t i = 0; i < snap->n; i++) {
		struct snap_group *g = &snap->groups[i];
		struct bpfev_count key = { .id = g->ino };
		const struct bpfev_count *own;
		const uint64_t *ev;
		struct rc_node *n;

		if (!g->ino || !(n = find_node(rc->now, rc->nnow, g->ino)))
			continue;
		ev = rc->nodes[n - rc->now].ev;
		own = ngs ? bsearch(&key, gs, ngs, sizeof(*gs), by_group_id) :
			NULL;
		/* Where no file has them (v1), and the source did not give
		 * the kernel's own counters (the BPF pass). */
		if ((reclaim_fields(rc->version) & FBIT(FLD_PGSCAN)) &&
		    !sample_has(&g->s, FLD_PGSCAN))
			set_scans(&g->s, ev);
		if (own)
			set_prios(&g->s, own);
		sample_set(&g->s, FLD_FLUSHES, own ? own->flushes_done : 0);
		sample_set(&g->s, FLD_FLUSH_CALLS, own ? own->flushes : 0);
		if (rc->stalls)
			sample_set(&g->s, FLD_STALL,
				   own ? own->stall_ns / 1000000 : 0);
		/* Hierarchical, as pgscan; set where the version has them
		 * (v1: sample_set keeps to the slots it was given). */
		if (rc->soft &&
		    (reclaim_fields(rc->version) & FBIT(FLD_SOFT_PGSCAN))) {
			sample_set(&g->s, FLD_SOFT_PGSCAN, ev[BPFEV_SOFT_SCAN]);
			sample_set(&g->s, FLD_SOFT_PGSTEAL,
				   ev[BPFEV_SOFT_STEAL]);
		}
	}
	/* The counts since the load; the model rates them. */
	for (int p = 0; p < BPFEV_NPRIO; p++) {
		fig->v[SYS_SCAN_PRIO + p] = sys->scanned[p];
		fig->valid |= SBIT(SYS_SCAN_PRIO + p);
		/* Where soft-limit reclaim can run (v1) and is counted. */
		if (rc->soft && rc->version == 1) {
			fig->v[SYS_SOFT_SCAN_PRIO + p] = sys->soft_scanned[p];
			fig->valid |= SBIT(SYS_SOFT_SCAN_PRIO + p);
		}
	}
	for (int p = 0; p < SYS_NPRIO; p++) {
		if (rc->start < 0)
			break;
		fig->v[SYS_SUB_SCAN_PRIO + p] =
			rc->nodes[rc->start].ev[BPFEV_SCANNED + p];
		fig->valid |= SBIT(SYS_SUB_SCAN_PRIO + p);
	}
	fig->v[SYS_FLUSHES] = sys->flushes_done;
	fig->v[SYS_OWN_FLUSHES] = sys->own_flushes_done;
	fig->v[SYS_FLUSH_CALLS] = sys->flushes;
	fig->v[SYS_OWN_FLUSH_CALLS] = sys->own_flushes;
	fig->valid |= SBIT(SYS_FLUSHES) | SBIT(SYS_OWN_FLUSHES) |
		SBIT(SYS_FLUSH_CALLS) | SBIT(SYS_OWN_FLUSH_CALLS);
	/* The kernel's threshold (memcg_vmstats_needs_flush: more than
	 * MEMCG_CHARGE_BATCH a CPU online); the events run live only. */
	if (rc->ev) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		if (cpus > 0) {
			fig->v[SYS_FLUSH_THRESHOLD] = 64 * (uint64_t)cpus;
			fig->valid |= SBIT(SYS_FLUSH_THRESHOLD);
		}
	}
}

void reclaim_fill(struct reclaim *rc, struct snapshot *snap)
{
	const struct bpfev_count *gs;
	struct bpfev_sys sys;
	size_t n;

	if (!rc || !rc->ev)
		return;
	if (bpfev_read(rc->ev, &gs, &n, &sys) < 0) {
		/* The maps are ours: a read fails only without memory.  The
		 * columns go blank rather than show a stale count. */
		return;
	}
	reclaim_fill_from(rc, snap, gs, n, &sys);
}

enum reclaim_state reclaim_state(const struct reclaim *rc,
				 const char **ret_text, int64_t *ret_since)
{
	if (ret_since)
		*ret_since = rc->since;
	if (ret_text)
		*ret_text = rc->text;
	return rc->state;
}

struct reclaim *reclaim_new_test(int version)
{
	struct reclaim *rc = xcalloc(1, sizeof(*rc));

	rc->version = version;
	rc->live = 1;
	set_state(rc, RECLAIM_ON);
	return rc;
}

size_t reclaim_dropped_test(const struct reclaim *rc, const uint64_t **ret_ids)
{
	*ret_ids = rc->dropped;
	return rc->ndropped;
}
