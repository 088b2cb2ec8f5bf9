// SPDX-License-Identifier: GPL-2.0-or-later
/* prov_events.c - the reclaim events provider (reclaim.h): loaded while a
 * refresh asks for a field only they give, or for them outright (the
 * detail pane); their counts go into the sample before it ends, so that
 * a recording keeps them. */
#include <stdio.h>
#include <stdlib.h>

#include "provider.h"
#include "reclaim.h"
#include "xalloc.h"

struct prov_events {
	struct provider p;
	struct cgfs *cg;
	struct reclaim *rc;
	char why[300];
};

/* Not what the tree gives without a file (the BPF pass's v1 pgscan). */
static fieldset events_only(const struct prov_events *e)
{
	return reclaim_fields(cgfs_version(e->cg)) & ~cgfs_free_fields(e->cg);
}

static fieldset events_gives(const struct provider *p)
{
	return events_only((const struct prov_events *)p);
}

/* Not for the colours alone (fields asked but not shown): they would
 * load the events, which cost every page fault, always. */
static fieldset events_ask(struct provider *p, const struct collect_ask *a)
{
	struct prov_events *e = (struct prov_events *)p;

	reclaim_want(e->rc, a->events || (a->shown & events_only(e)) != 0);
	return reclaim_slots(e->rc);
}

static int events_fill(struct provider *p, struct snapshot *snap, char *err,
		       size_t errlen)
{
	(void)err;
	(void)errlen;
	reclaim_fill(((struct prov_events *)p)->rc, snap);
	return 0;
}

static const char *events_why(struct provider *p, enum field f)
{
	struct prov_events *e = (struct prov_events *)p;
	const char *text = NULL;

	if (!(events_only(e) & FBIT(f)))
		return NULL;
	if (reclaim_state(e->rc, &text, NULL) == RECLAIM_ON)
		return NULL;
	snprintf(e->why, sizeof(e->why), "the reclaim events: %s", text);
	return e->why;
}

static void events_free(struct provider *p)
{
	free(p);
}

static const struct provider_ops events_ops = {
	.name = "events",
	.gives = events_gives,
	.ask = events_ask,
	.fill = events_fill,
	.why = events_why,
	.free = events_free,
};

struct provider *prov_events_new(struct cgfs *cg, struct reclaim *rc)
{
	struct prov_events *e = xcalloc(1, sizeof(*e));

	e->p.ops = &events_ops;
	e->cg = cg;
	e->rc = rc;
	return &e->p;
}
