/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pipeline.c - one refresh: see include/pipeline.h. */
#include <errno.h>
#include <string.h>

#include "pipeline.h"
#include "reclaim.h"

void pipeline_init(struct pipeline *p, struct cgfs *cg, int maxdepth,
		   int recording)
{
	memset(p, 0, sizeof(*p));
	p->cg = cg;
	p->maxdepth = maxdepth;
	p->rc = reclaim_new(cg, recording);
	model_init(&p->m, cgfs_version(cg));
}

void pipeline_free(struct pipeline *p)
{
	if (!p)
		return;
	model_free(&p->m);
	snapshot_free(&p->snap);
	reclaim_free(p->rc);
	p->rc = NULL;
}

uint64_t pipeline_fields(const struct pipeline *p,
			 const struct pipeline_want *w)
{
	uint64_t f = w->sort ? w->sort->fields : 0;

	for (size_t i = 0; i < w->ncols; i++)
		f |= w->cols[i]->fields;
	return f | (w->if_free & cgfs_free_fields(p->cg));
}

int pipeline_events_wanted(const struct pipeline *p,
			   const struct pipeline_want *w)
{
	uint64_t f = w->sort ? w->sort->fields : 0;

	/* Not for the colours (if_free): they would load the events,
	 * which cost every page fault, always. */
	for (size_t i = 0; i < w->ncols; i++)
		f |= w->cols[i]->fields;
	/* Nor for what the source gives (the BPF pass's v1 pgscan). */
	f &= ~cgfs_free_fields(p->cg);
	return w->events ||
		(f & reclaim_fields(cgfs_version(p->cg))) != 0;
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
	r = cgfs_refresh(p->cg, p->fields, p->maxdepth, &p->snap, err,
			 errlen);
	if (r < 0)
		return r;
	reclaim_fill(p->rc, &p->snap);
	return 0;
}

int pipeline_refresh(struct pipeline *p, const struct pipeline_want *w,
		     char *err, size_t errlen)
{
	int r = read_tree(p, w, err, errlen);

	if (r < 0)
		return r;
	model_update(&p->m, &p->snap);
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
	model_replace(&p->m, &p->snap);
	return 0;
}
