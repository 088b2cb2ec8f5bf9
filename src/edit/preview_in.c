/* SPDX-License-Identifier: GPL-2.0-or-later */
/* preview_in.c - a planned change's preview: the group's figures read,
 * the tree's from the model, then preview_compute (preview.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "edit.h"
#include "model.h"
#include "parse.h"
#include "preview.h"
#include "procs.h"

/* A value file of the group: 0 when it cannot be read. */
static uint64_t read_value(struct cgfs *cg, const char *path,
			   const char *file, int *ok)
{
	char buf[64];
	uint64_t v;

	if (cgfs_read_knob(cg, path, file, buf, sizeof(buf)) < 0 ||
	    parse_value(buf, strlen(buf), &v) < 0) {
		if (ok)
			*ok = 0;
		return 0;
	}
	if (ok)
		*ok = 1;
	return v;
}

/* The value of field f where a keyed file gives it (memory.stat,
 * memory.events): the file is read again for each, small as it is. */
struct kv_find {
	const char *key;
	uint64_t val;
	int found;
};

static void kv_match(const char *key, size_t keylen, uint64_t val, void *ctx)
{
	struct kv_find *f = ctx;

	if (strlen(f->key) == keylen && !memcmp(f->key, key, keylen)) {
		f->val = val;
		f->found = 1;
	}
}

uint64_t edit_field(struct cgfs *cg, const char *path, int version,
		    enum field f, int *ok)
{
	static char buf[16384];
	const char *file, *key;
	struct kv_find kf = { 0 };
	size_t n;

	if (ok)
		*ok = 0;
	if (!cgfs_field_source(version, f, &file, &key))
		return 0;
	if (!key)
		return read_value(cg, path, file, ok);
	if (cgfs_read_knob(cg, path, file, buf, sizeof(buf) - 1) < 0)
		return 0;
	n = strlen(buf);
	buf[n++] = '\n';	/* the read trims the last newline */
	kf.key = key;
	parse_keyvals(buf, n, kv_match, &kf);
	if (ok)
		*ok = kf.found;
	return kf.val;
}

static enum preview_knob knob_of(const struct knob *k)
{
	static const struct {
		const char *name;
		enum preview_knob pk;
	} map[] = {
		{ "limit", PK_LIMIT }, { "high", PK_HIGH },
		{ "memsw", PK_MEMSW }, { "reclaim", PK_RECLAIM },
		{ "soft", PK_SOFT }, { "low", PK_LOW }, { "min", PK_MIN },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(k->name, map[i].name))
			return map[i].pk;
	return PK_OTHER;
}

static const struct mgroup *find(const struct model *m, const char *path,
				 int *ret_i)
{
	for (size_t i = 0; m && i < m->n; i++)
		if (!strcmp(m->groups[i]->path, path)) {
			*ret_i = (int)i;
			return m->groups[i];
		}
	return NULL;
}

/* Where anon can go: the host's free swap (the model's system figures;
 * none without them), less where the group's own memsw (v1) or swap.max
 * (v2) leaves less room. */
static uint64_t swap_room(struct cgfs *cg, const struct model *m,
			  const char *path, int version)
{
	uint64_t room = 0, lim, use;
	int ok1, ok2;

	if (m && (m->sys.valid & SBIT(SYS_SWAP_FREE)))
		room = m->sys.v[SYS_SWAP_FREE];
	if (version == 1) {
		lim = read_value(cg, path, "memory.memsw.limit_in_bytes", &ok1);
		use = read_value(cg, path, "memory.memsw.usage_in_bytes", &ok2);
	} else {
		lim = read_value(cg, path, "memory.swap.max", &ok1);
		use = read_value(cg, path, "memory.swap.current", &ok2);
		ok2 = 1;	/* the limit alone bounds it */
		use = use > lim ? lim : use;
	}
	if (ok1 && ok2 && lim != VAL_MAX) {
		/* v1's memsw holds memory too: room is memsw - memsw usage. */
		uint64_t r = lim > use ? lim - use : 0;

		room = r < room ? r : room;
	}
	return room;
}

/* The process the kernel's OOM killer picks first in the group and its
 * descendants (mem_cgroup_scan_tasks, oom_badness). */
static void victim(struct cgfs *cg, const struct model *m, const char *path,
		   uint64_t totalpages, struct preview_victim *v)
{
	size_t plen = strlen(path);
	int64_t best = -1;
	long ps = sysconf(_SC_PAGESIZE);
	uint64_t page = ps > 0 ? (uint64_t)ps : 4096;

	memset(v, 0, sizeof(*v));
	for (size_t i = 0; m && i < m->n; i++) {
		const char *gp = m->groups[i]->path;
		struct proc_row *rows;
		size_t nr = 0, np;
		int *pids;

		if (strncmp(gp, path, plen) ||
		    (gp[plen] && gp[plen] != '/' && strcmp(path, "/")))
			continue;
		if (cgfs_pids(cg, gp, &pids, &np) < 0)
			continue;
		if (procs_lookup(pids, np, &rows, &nr) == 0)
			for (size_t j = 0; j < nr; j++) {
				int64_t b = preview_badness(rows[j].rss / page,
					rows[j].swap / page, rows[j].oom_adj,
					totalpages);

				if (b > best) {
					best = b;
					v->pid = rows[j].pid;
					v->size = (uint64_t)b * page;
					v->rss = rows[j].rss;
					v->swap = rows[j].swap;
					v->oom_adj = rows[j].oom_adj;
					snprintf(v->cmd, sizeof(v->cmd), "%.*s",
						 (int)sizeof(v->cmd) - 1,
						 rows[j].cmd);
				}
			}
		free(rows);
		free(pids);
	}
}

/* The parent's children, their usage and setting, for low and min. */
static void siblings(struct cgfs *cg, const struct model *m, int gi,
		     const struct knob *k, struct preview_in *in)
{
	const struct mgroup *g = m->groups[gi], *p;
	int low = in->knob == PK_LOW;

	if (g->parent < 0)
		return;
	p = m->groups[g->parent];
	in->top_level = g->depth == 1;
	if (!in->top_level &&
	    !mgroup_derived(p, low ? D_EFF_LOW : D_EFF_MIN))
		return;
	in->parent_eff = low ? p->eff_low : p->eff_min;
	in->parent_usage = read_value(cg, p->path, "memory.current", NULL);
	in->recursive = m->recursiveprot > 0;
	for (size_t i = 0; i < m->n && in->nsib < PREVIEW_SIBLINGS; i++) {
		const struct mgroup *s = m->groups[i];

		if (s->parent != g->parent)
			continue;
		if ((int)i == gi)
			in->self = in->nsib;
		in->sib_path[in->nsib] = s->path;
		in->sib_usage[in->nsib] = read_value(cg, s->path,
						     "memory.current", NULL);
		in->sib_setting[in->nsib++] = read_value(cg, s->path, k->file,
							 NULL);
	}
}

/* Every group's soft-limit excess now (v1), for the new rank. */
static void soft_excess(struct cgfs *cg, const struct model *m, int gi,
			struct preview_in *in, uint64_t **ret)
{
	uint64_t *ex = calloc(m->n ? m->n : 1, sizeof(*ex));

	*ret = ex;
	if (!ex)
		return;
	for (size_t i = 0; i < m->n; i++) {
		const char *gp = m->groups[i]->path;
		uint64_t u = read_value(cg, gp, "memory.usage_in_bytes", NULL);
		uint64_t s = read_value(cg, gp, "memory.soft_limit_in_bytes",
					NULL);

		ex[i] = u > s ? u - s : 0;
	}
	in->ngroups = m->n;
	in->soft_self = (size_t)gi;
	in->soft_excess = ex;
}

static const enum field part_fields[] = {
	FLD_INACTIVE_FILE, FLD_ACTIVE_FILE, FLD_FILE_DIRTY, FLD_FILE_WRITEBACK,
	FLD_SLAB_RECLAIMABLE, FLD_ACTIVE_ANON, FLD_INACTIVE_ANON,
};

void edit_preview(struct cgfs *cg, const struct model *m,
		  const struct edit_plan *p, struct preview_in *in,
		  struct preview *ret)
{
	const struct knob *k = p->k;
	int v = k->version, gi = -1;
	const struct mgroup *g = find(m, p->path, &gi);
	uint64_t vals[7], *ex = NULL;
	long ps = sysconf(_SC_PAGESIZE);

	memset(in, 0, sizeof(*in));
	in->version = v;
	in->knob = knob_of(k);
	in->page = ps > 0 ? (uint64_t)ps : 4096;
	if (parse_value(p->value, strcspn(p->value, " "), &in->value) < 0 ||
	    in->value == VAL_MAX)
		in->unlimited = 1;
	in->usage = in->knob == PK_MEMSW ?
		read_value(cg, p->path, "memory.memsw.usage_in_bytes", NULL) :
		edit_field(cg, p->path, v, FLD_USAGE, NULL);
	for (size_t i = 0; i < 7; i++)
		vals[i] = edit_field(cg, p->path, v, part_fields[i], NULL);
	in->inactive_file = vals[0];
	in->active_file = vals[1];
	in->dirty = vals[2];
	in->writeback = vals[3];
	in->slab_reclaimable = vals[4];
	in->anon_lru = vals[5] + vals[6];
	in->swap_room = swap_room(cg, m, p->path, v);
	/* v2 has no memory.swappiness: the host's vm.swappiness, not read
	 * here, is taken as above 0 (its default is 60). */
	in->swappiness = v == 1 ? (unsigned)read_value(cg, p->path,
						       "memory.swappiness",
						       NULL) : 60;
	if (v == 2) {
		in->oom_group = read_value(cg, p->path, "memory.oom.group",
					   NULL) == 1;
		for (size_t i = 0; g && i < m->n; i++)
			if (m->groups[i]->parent == gi &&
			    mgroup_derived(m->groups[i], D_EFF_MIN))
				in->protected += m->groups[i]->eff_min;
	}
	if (g && (in->knob == PK_LOW || in->knob == PK_MIN))
		siblings(cg, m, gi, k, in);
	if (g && in->knob == PK_SOFT)
		soft_excess(cg, m, gi, in, &ex);
	if (in->knob == PK_LIMIT && !in->unlimited && v == 2)
		victim(cg, m, p->path, (in->value + in->swap_room) / in->page,
		       &in->victim);
	preview_compute(in, ret);
	in->soft_excess = NULL;
	free(ex);
}
