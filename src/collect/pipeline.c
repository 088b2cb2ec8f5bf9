// SPDX-License-Identifier: GPL-2.0-or-later
/* pipeline.c - one refresh through the collector layer's providers: see
 * include/pipeline.h and src/collect/provider.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpf/bpfoom.h"
#include "pipeline.h"
#include "provider.h"
#include "reclaim.h"

void pipeline_init(struct pipeline *p, struct cgfs *cg, int maxdepth,
		   int recording)
{
	memset(p, 0, sizeof(*p));
	p->cg = cg;
	p->maxdepth = maxdepth;
	p->rc = reclaim_new(cg);
	model_init(&p->m, cgfs_version(cg));
	/* In the order they fill a sample: the system figures bound the
	 * tree's v1 swap; the events' counts go into the groups read. */
	p->prov[p->nprov++] = prov_system_new(cg);
	p->tree = prov_tree_new(cg);
	p->prov[p->nprov++] = p->tree;
	p->prov[p->nprov++] = prov_events_new(cg, p->rc);
	p->prov[p->nprov++] = prov_oom_new(cg, recording, &p->oom,
					   p->oom_why, sizeof(p->oom_why));
	p->m.oom.from_events = p->oom != NULL;
	model_source_fill(&p->m.src, cg, p->rc);
	model_source_files(&p->m.src, cg);
}

void pipeline_init_tree(struct pipeline *p, struct provider *tree,
			int version, int maxdepth)
{
	memset(p, 0, sizeof(*p));
	p->maxdepth = maxdepth;
	model_init(&p->m, version);
	p->tree = tree;
	p->prov[p->nprov++] = tree;
	snprintf(p->oom_why, sizeof(p->oom_why), "the source is not a host");
	p->m.src.version = version;
	p->m.src.readonly = 1;
	p->m.src.events_text = p->m.src.bpf_why = p->m.src.paths = "";
}

void pipeline_free(struct pipeline *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nprov; i++)
		p->prov[i]->ops->free(p->prov[i]);
	p->nprov = 0;
	bpfoom_close(p->oom);
	p->oom = NULL;
	focus_free(&p->m.focus);
	model_free(&p->m);
	snapshot_free(&p->snap);
	reclaim_free(p->rc);
	p->rc = NULL;
}

/* The fields the columns and the sort show. */
static fieldset shown_fields(const struct pipeline_want *w)
{
	fieldset f = w->sort ? w->sort->fields : 0;

	for (size_t i = 0; i < w->ncols; i++)
		f |= w->cols[i]->fields;
	return f;
}

fieldset pipeline_fields(const struct pipeline *p,
			 const struct pipeline_want *w)
{
	fieldset f = shown_fields(w);

	/* The counters' kills with the group's limit (the tracepoint's
	 * have theirs). */
	if (w->oom && !p->oom)
		f |= FBIT(FLD_EV_OOM_KILL) | FBIT(FLD_LIMIT);
	return f | (p->cg ? w->if_free & cgfs_free_fields(p->cg) : 0);
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

/* Why each field asked is blank: the first provider that says. */
static void note_blanks(struct pipeline *p)
{
	fieldset given = 0;

	for (size_t i = 0; i < p->nprov; i++)
		given |= p->prov[i]->ops->gives(p->prov[i]);
	for (int f = 0; f < FLD_NR; f++) {
		const char *why = NULL;

		p->m.blank[f] = NULL;
		if (!(p->fields & FBIT(f)))
			continue;
		for (size_t i = 0; i < p->nprov && !why; i++)
			why = p->prov[i]->ops->why(p->prov[i], (enum field)f);
		if (!why && !(given & FBIT(f)))
			why = "no source of this host gives it";
		p->m.blank[f] = why;
	}
}

/*
 * The providers asked, the sample begun, each provider's part filled in
 * order, the sample ended (a recording keeps all they filled).
 */
static int read_steps(struct pipeline *p, const struct pipeline_want *w,
		      char *err, size_t errlen)
{
	struct collect_ask a;
	fieldset more = 0;
	int r;

	p->fields = pipeline_fields(p, w);
	a.fields = p->fields;
	a.shown = shown_fields(w);
	a.events = w->events;
	/* Asked before the sample: loaded now, their counts are the
	 * baseline of the next interval; the samples get room for what
	 * they fill. */
	for (size_t i = 0; i < p->nprov; i++)
		more |= p->prov[i]->ops->ask(p->prov[i], &a);
	p->snap.more_slots = more;
	r = p->tree->ops->begin(p->tree, p->fields, p->maxdepth, &p->snap,
				err, errlen);
	if (r < 0)
		return r;
	for (size_t i = 0; i < p->nprov; i++) {
		if (!p->prov[i]->ops->fill)
			continue;
		r = p->prov[i]->ops->fill(p->prov[i], &p->snap, err, errlen);
		if (r < 0) {
			p->tree->ops->abort(p->tree);
			return r;
		}
	}
	return p->tree->ops->end(p->tree, &p->snap, err, errlen);
}

/* ... and the source's record in the model (its note, a series'
 * position), whether the read went well or not. */
static int read_sample(struct pipeline *p, const struct pipeline_want *w,
		       char *err, size_t errlen)
{
	int r = read_steps(p, w, err, errlen);

	if (p->cg)	/* pipeline_init_tree's record stays as it set it */
		model_source_fill(&p->m.src, p->cg, p->rc);
	return r;
}

/* What the providers add to the model once it has the sample. */
static void fill_model(struct pipeline *p)
{
	for (size_t i = 0; i < p->nprov; i++)
		if (p->prov[i]->ops->fill_model)
			p->prov[i]->ops->fill_model(p->prov[i], &p->m);
	note_blanks(p);
}

int pipeline_refresh(struct pipeline *p, const struct pipeline_want *w,
		     char *err, size_t errlen)
{
	int r = read_sample(p, w, err, errlen);

	if (r < 0)
		return r;
	derive_want(p, w);
	model_update(&p->m, &p->snap);
	fill_model(p);
	return 0;
}

int pipeline_reread(struct pipeline *p, const struct pipeline_want *w,
		    char *err, size_t errlen)
{
	int r;

	if (p->cg)
		cgfs_reread(p->cg);
	r = read_sample(p, w, err, errlen);
	if (r < 0)
		return r;
	derive_want(p, w);
	model_replace(&p->m, &p->snap);
	note_blanks(p);
	return 0;
}
