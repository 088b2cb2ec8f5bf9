/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * provider.h - the collector layer's one interface: every source of a
 * refresh's values is a provider, and the pipeline (pipeline.c) is the one
 * door by which values enter a refresh.  It asks its providers in order:
 *
 *   system  the host's figures (meminfo, vmstat, PSI, zoneinfo)
 *   tree    the groups and their values: the cgroup files by a walk, the
 *           BPF pass, or a recorded series (cgfs.h chooses once); or,
 *           alone, a Prometheus server's (prov_prom.c)
 *   events  the reclaim events' counts (reclaim.h)
 *   oom     the OOM killer's victims (bpfoom.h), into the model's log
 *
 * A refresh: each provider is asked what this refresh wants (ask: it loads
 * or unloads what that needs and says which fields it adds to the sample),
 * the sample begins, each fills it in order, the sample ends (a recording
 * keeps all they filled), the model takes it, then each adds to the model
 * what is not a group's field (fill_model).  A field asked that no
 * provider gives is blank, and the provider that would give it says why
 * (the model keeps it: model.blank).  A new source is one more provider.
 */
#ifndef MEMCGTOP_PROVIDER_H
#define MEMCGTOP_PROVIDER_H

#include <stddef.h>

#include "cgfs.h"
#include "model.h"

/* What a refresh asks of the providers. */
struct collect_ask {
	fieldset fields;	/* read this refresh (pipeline_fields) */
	fieldset shown;		/* of them, shown or sorted by (not the
				 * screen's colours) */
	int events;		/* the reclaim events even if no field
				 * needs them (pipeline_want.events) */
};

struct provider;

struct provider_ops {
	const char *name;
	/* The fields it can give on this source (for the asking). */
	fieldset (*gives)(const struct provider *p);
	/* This refresh's ask: loads or unloads what it needs; returns the
	 * fields it adds to the groups' samples (snapshot.more_slots). */
	fieldset (*ask)(struct provider *p, const struct collect_ask *a);
	/* The tree provider's alone (the pipeline's first, p->tree): the
	 * sample begins (snap emptied, room for fields and
	 * snap->more_slots), ends (a recording writes it), or is given up.
	 * The others' are NULL. */
	int (*begin)(struct provider *p, fieldset fields, int maxdepth,
		     struct snapshot *snap, char *err, size_t errlen);
	int (*end)(struct provider *p, struct snapshot *snap, char *err,
		   size_t errlen);
	void (*abort)(struct provider *p);
	/* Fills the sample between begin and end: 0, or a
	 * negative errno with a one-line reason in err.  May be NULL. */
	int (*fill)(struct provider *p, struct snapshot *snap, char *err,
		    size_t errlen);
	/* After model_update: what it adds to the model.  May be NULL. */
	void (*fill_model)(struct provider *p, struct model *m);
	/* Why field f, asked, is blank: one line, or NULL when it is
	 * given (or not this provider's). */
	const char *(*why)(struct provider *p, enum field f);
	void (*free)(struct provider *p);
};

/* Each provider's own struct begins with this. */
struct provider {
	const struct provider_ops *ops;
};

struct reclaim;
struct bpfoom;

struct provider *prov_system_new(struct cgfs *cg);
struct provider *prov_tree_new(struct cgfs *cg);
/* --prometheus URL [--match {SELECTOR}] [--host-label NAME]: a tree over
 * a Prometheus server's series of memcgtop --listen (prov_prom.c), its
 * first query made (which series it has: *ret_version, 2 where a field
 * only v2 keeps has one); NULL with a one-line reason in err. */
struct provider *prov_prom_new(const char *url, const char *match,
			       const char *host_label, int *ret_version,
			       char *err, size_t errlen);
/* Over the pipeline's reclaim handle (it stays the pipeline's). */
struct provider *prov_events_new(struct cgfs *cg, struct reclaim *rc);
/* The OOM tracepoint's program where the BPF collector reads a live tree
 * and no recording is made: *ret_oom (NULL otherwise, with the reason in
 * why) — the pipeline's, for the screen's OOM pane. */
struct provider *prov_oom_new(struct cgfs *cg, int recording,
			      struct bpfoom **ret_oom, char *why,
			      size_t whylen);

/* The screen's pane's records (model.focus, focus.c) freed. */
void focus_free(struct model_focus *f);

#endif
