// SPDX-License-Identifier: GPL-2.0-or-later
/* prov_system.c - the system figures provider: the host's meminfo,
 * vmstat, PSI and zoneinfo (or a recording's), read through the hierarchy
 * so that a recording keeps them and a replay gives them back. */
#include <stdlib.h>

#include "provider.h"
#include "xalloc.h"

struct prov_system {
	struct provider p;
	struct cgfs *cg;
};

static fieldset system_gives(const struct provider *p)
{
	(void)p;
	return 0;	/* no group's field: the snapshot's sys */
}

static fieldset system_ask(struct provider *p, const struct collect_ask *a)
{
	(void)p;
	(void)a;
	return 0;
}

static int system_fill(struct provider *p, struct snapshot *snap, char *err,
		       size_t errlen)
{
	(void)err;
	(void)errlen;
	cgfs_read_system(((struct prov_system *)p)->cg, snap);
	return 0;
}

static const char *system_why(struct provider *p, enum field f)
{
	(void)p;
	(void)f;
	return NULL;
}

static void system_free(struct provider *p)
{
	free(p);
}

static const struct provider_ops system_ops = {
	.name = "system",
	.gives = system_gives,
	.ask = system_ask,
	.fill = system_fill,
	.why = system_why,
	.free = system_free,
};

struct provider *prov_system_new(struct cgfs *cg)
{
	struct prov_system *s = xcalloc(1, sizeof(*s));

	s->p.ops = &system_ops;
	s->cg = cg;
	return &s->p;
}
