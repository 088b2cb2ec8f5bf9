/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipeline.c - one refresh: see include/pipeline.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf/bpfoom.h"
#include "parse.h"
#include "pipeline.h"
#include "reclaim.h"

/*
 * The OOM tracepoint's program where the BPF collector reads the live
 * tree (it fires only on a kill: no cost otherwise); else the groups'
 * counters tell of the kills.
 */
static void fill_events(void *ctx, struct snapshot *snap)
{
	struct pipeline *p = ctx;

	reclaim_fill(p->rc, snap);
}

static void oom_open(struct pipeline *p, int recording)
{
	const char *why = "the collector is not bpf";

	if (!cgfs_is_live(p->cg))
		why = "not a live host";
	else if (recording)
		why = "a recording is being made";
	else if (strcmp(cgfs_collector(p->cg), "bpf") == 0 &&
		 bpfoom_open(&p->oom, p->oom_why, sizeof(p->oom_why)) == 0)
		why = NULL;
	else if (strcmp(cgfs_collector(p->cg), "bpf") == 0)
		why = p->oom_why;
	if (why && why != p->oom_why)
		snprintf(p->oom_why, sizeof(p->oom_why), "%s", why);
	p->m.oom.from_events = p->oom != NULL;
}

void pipeline_init(struct pipeline *p, struct cgfs *cg, int maxdepth,
		   int recording)
{
	memset(p, 0, sizeof(*p));
	p->cg = cg;
	p->maxdepth = maxdepth;
	p->rc = reclaim_new(cg);
	cgfs_set_fill(cg, fill_events, p);
	model_init(&p->m, cgfs_version(cg));
	oom_open(p, recording);
	model_source_fill(&p->m.src, cg, p->rc);
}

void pipeline_free(struct pipeline *p)
{
	if (!p)
		return;
	bpfoom_close(p->oom);
	p->oom = NULL;
	model_free(&p->m);
	snapshot_free(&p->snap);
	reclaim_free(p->rc);
	p->rc = NULL;
	if (p->cg)
		cgfs_set_fill(p->cg, NULL, NULL);
}

fieldset pipeline_fields(const struct pipeline *p,
			 const struct pipeline_want *w)
{
	fieldset f = w->sort ? w->sort->fields : 0;

	for (size_t i = 0; i < w->ncols; i++)
		f |= w->cols[i]->fields;
	/* The counters' kills with the group's limit (the tracepoint's
	 * have theirs). */
	if (w->oom && !p->oom)
		f |= FBIT(FLD_EV_OOM_KILL) | FBIT(FLD_LIMIT);
	return f | (w->if_free & cgfs_free_fields(p->cg));
}

int pipeline_events_wanted(const struct pipeline *p,
			   const struct pipeline_want *w)
{
	fieldset f = w->sort ? w->sort->fields : 0;

	/* Not for the colours (if_free): they would load the events,
	 * which cost every page fault, always. */
	for (size_t i = 0; i < w->ncols; i++)
		f |= w->cols[i]->fields;
	/* Nor for what the source gives (the BPF pass's v1 pgscan). */
	f &= ~cgfs_free_fields(p->cg);
	return w->events ||
		(f & reclaim_fields(cgfs_version(p->cg))) != 0;
}

/* The derived values the model makes this refresh (model.want). */
static void derive_want(struct pipeline *p, const struct pipeline_want *w)
{
	unsigned want = 0;

	if (!w->only_shown) {
		p->m.want = ~0u;
		return;
	}
	if (w->sort && w->sort->derived >= 0)
		want |= 1u << w->sort->derived;
	for (size_t i = 0; i < w->ncols; i++)
		if (w->cols[i]->derived >= 0)
			want |= 1u << w->cols[i]->derived;
	p->m.want = want;
}

/* The source read for fields (into p->snap), the events' counts put in. */
static int read_tree(struct pipeline *p, const struct pipeline_want *w,
		     char *err, size_t errlen)
{
	int r;

	p->fields = pipeline_fields(p, w);
	/* Loaded before the sample whose counts are then the baseline of
	 * the next interval; the snapshot gets room for what they fill. */
	reclaim_want(p->rc, pipeline_events_wanted(p, w));
	p->snap.more_slots = reclaim_slots(p->rc);
	/* The events' counts go in before the sample ends (fill_events),
	 * so that a recording keeps them. */
	r = cgfs_refresh(p->cg, p->fields, p->maxdepth, &p->snap, err,
			 errlen);
	model_source_fill(&p->m.src, p->cg, p->rc);
	if (r < 0)
		return r;
	return 0;
}

/* A kill from the tracepoint into the model's log, with the path of
 * its group in the tree just read (none: a group not shown, or removed). */
static void oom_note(void *arg, const struct bpfoom_kill *kill)
{
	struct model *m = arg;
	const char *path = NULL;
	struct oom_kill k;

	for (size_t i = 0; kill->id && i < m->n && !path; i++)
		if (m->groups[i]->ino == kill->id)
			path = m->groups[i]->path;
	memset(&k, 0, sizeof(k));
	k.wall_ms = kill->wall_ms;
	k.id = kill->id;
	k.pid = kill->pid;
	memcpy(k.comm, kill->comm, sizeof(k.comm));
	k.rss = kill->rss;
	k.has_rss = kill->has_rss != 0;
	k.limit = kill->limit == UINT64_MAX ? VAL_MAX : kill->limit;
	k.has_limit = kill->id != 0;
	oomlog_add(&m->oom, &k, path);
}

int pipeline_refresh(struct pipeline *p, const struct pipeline_want *w,
		     char *err, size_t errlen)
{
	int r = read_tree(p, w, err, errlen);

	if (r < 0)
		return r;
	derive_want(p, w);
	model_update(&p->m, &p->snap);
	if (p->oom)
		bpfoom_read(p->oom, oom_note, &p->m, NULL);
	return 0;
}

int pipeline_reread(struct pipeline *p, const struct pipeline_want *w,
		    char *err, size_t errlen)
{
	int r;

	cgfs_reread(p->cg);
	r = read_tree(p, w, err, errlen);
	if (r < 0)
		return r;
	derive_want(p, w);
	model_replace(&p->m, &p->snap);
	return 0;
}
