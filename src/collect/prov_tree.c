// SPDX-License-Identifier: GPL-2.0-or-later
/* prov_tree.c - the tree provider: the groups and their values, from the
 * cgroup files by a walk, the BPF pass or a recorded series (cgfs_open
 * chose which, once; cgfs_read_tree). */
#include <stdio.h>
#include <stdlib.h>

#include "provider.h"
#include "xalloc.h"

struct prov_tree {
	struct provider p;
	struct cgfs *cg;
	char why[160];
};

/* What the version keeps, but not what only the reclaim events give
 * (save what the pass gives without a file: its v1 pgscan). */
static fieldset tree_gives(const struct provider *p)
{
	const struct cgfs *cg = ((const struct prov_tree *)p)->cg;
	int v = cgfs_version(cg);

	return (cgfs_version_fields(v) & ~cgfs_version_events(v)) |
		cgfs_free_fields(cg);
}

static fieldset tree_ask(struct provider *p, const struct collect_ask *a)
{
	(void)p;
	(void)a;
	return 0;	/* its slots are the sample's own (cgfs_begin) */
}

static int tree_begin(struct provider *p, fieldset fields, int maxdepth,
		      struct snapshot *snap, char *err, size_t errlen)
{
	return cgfs_begin(((struct prov_tree *)p)->cg, fields, maxdepth, snap,
			  err, errlen);
}

static int tree_end(struct provider *p, struct snapshot *snap, char *err,
		    size_t errlen)
{
	return cgfs_end(((struct prov_tree *)p)->cg, snap, err, errlen);
}

static void tree_abort(struct provider *p)
{
	cgfs_abort(((struct prov_tree *)p)->cg);
}

static int tree_fill(struct provider *p, struct snapshot *snap, char *err,
		     size_t errlen)
{
	return cgfs_read_tree(((struct prov_tree *)p)->cg, snap, err, errlen);
}

static const char *tree_why(struct provider *p, enum field f)
{
	struct prov_tree *t = (struct prov_tree *)p;
	int v = cgfs_version(t->cg);

	if (cgfs_version_fields(v) & FBIT(f))
		return NULL;
	snprintf(t->why, sizeof(t->why), "cgroup v%d keeps no such value", v);
	return t->why;
}

static void tree_free(struct provider *p)
{
	free(p);
}

static const struct provider_ops tree_ops = {
	.name = "tree",
	.gives = tree_gives,
	.ask = tree_ask,
	.begin = tree_begin,
	.fill = tree_fill,
	.end = tree_end,
	.abort = tree_abort,
	.why = tree_why,
	.free = tree_free,
};

struct provider *prov_tree_new(struct cgfs *cg)
{
	struct prov_tree *t = xcalloc(1, sizeof(*t));

	t->p.ops = &tree_ops;
	t->cg = cg;
	return &t->p;
}
