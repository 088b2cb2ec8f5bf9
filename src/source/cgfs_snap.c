/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_snap.c - a snapshot being built: its groups, their paths and their
 * packed values, in arenas reused from one refresh to the next. */
#include <stdlib.h>
#include <string.h>

#include "cgfs_int.h"
#include "xalloc.h"

/*
 * Appends a group whose path is its parent's path + "/" + name (the start
 * group: "/" + name, or "/" when name is empty).  Offsets, not pointers:
 * the arena moves when it grows.
 */
struct snap_group *cgfs_add_group(struct snapshot *snap, int parent,
				  const char *name, size_t nlen, int depth)
{
	size_t plen = 0, poff = 0, len, off;
	size_t k = sample_nslots(snap->slots);
	struct snap_group *g;
	void *gp = snap->groups, *pp = snap->paths, *vp = snap->vals;

	if (parent >= 0 && snap->groups[parent].path_len > 1) {
		plen = snap->groups[parent].path_len;
		poff = snap->groups[parent].path_off;
	}
	len = plen + 1 + nlen;
	cgfs_grow(&gp, &snap->cap, snap->n + 1, sizeof(*snap->groups));
	snap->groups = gp;
	cgfs_grow(&pp, &snap->paths_cap, snap->paths_len + len + 1, 1);
	snap->paths = pp;
	if (k)
		cgfs_grow(&vp, &snap->vals_cap, (snap->n + 1) * k,
			  sizeof(*snap->vals));
	if (vp != snap->vals) {
		/* The pool moved: the samples follow it. */
		snap->vals = vp;
		for (size_t i = 0; i < snap->n; i++)
			snap->groups[i].s.v = snap->vals + i * k;
	}
	off = snap->paths_len;
	memcpy(snap->paths + off, snap->paths + poff, plen);
	snap->paths[off + plen] = '/';
	memcpy(snap->paths + off + plen + 1, name, nlen);
	snap->paths[off + len] = '\0';
	snap->paths_len += len + 1;
	g = &snap->groups[snap->n++];
	g->path_off = off;
	g->path_len = len;
	g->depth = depth;
	g->parent = parent;
	g->ino = 0;
	g->s.slots = snap->slots;
	g->s.v = k ? snap->vals + (snap->n - 1) * k : NULL;
	sample_clear(&g->s);
	return g;
}

/*
 * Room for GROUPS groups in all, made at once when the source knows how
 * many come (the pass): doubling from 64 would give 32,769 groups room
 * for 65,536, and copy them on the way.
 */
void cgfs_reserve(struct snapshot *snap, size_t groups)
{
	size_t k = sample_nslots(snap->slots);

	if (groups > snap->cap) {
		snap->groups = xreallocarray(snap->groups, groups,
					     sizeof(*snap->groups));
		snap->cap = groups;
	}
	if (k && groups * k > snap->vals_cap) {
		snap->vals = xreallocarray(snap->vals, groups * k,
					   sizeof(*snap->vals));
		snap->vals_cap = groups * k;
		/* The pool moved: the samples follow it. */
		for (size_t i = 0; i < snap->n; i++)
			snap->groups[i].s.v = snap->vals + i * k;
	}
}

void cgfs_drop_last(struct snapshot *snap)
{
	snap->n--;
	snap->paths_len = snap->groups[snap->n].path_off;
}

void snapshot_free(struct snapshot *snap)
{
	if (!snap)
		return;
	free(snap->groups);
	free(snap->paths);
	free(snap->vals);
	free(snap->numa_text);
	free(snap->rates);
	memset(snap, 0, sizeof(*snap));
}

void snapshot_add_slots(struct snapshot *snap, fieldset more)
{
	fieldset slots = snap->slots | more;
	size_t k = sample_nslots(slots);
	uint64_t *vals;

	if (slots == snap->slots)
		return;
	vals = snap->n ? xcalloc(snap->n * k, sizeof(*vals)) : NULL;
	for (size_t i = 0; i < snap->n; i++) {
		struct sample s = { 0, slots, vals + i * k };

		sample_copy(&s, &snap->groups[i].s);
		snap->groups[i].s = s;
	}
	free(snap->vals);
	snap->vals = vals;
	snap->vals_cap = snap->n * k;
	snap->slots = slots;
}
