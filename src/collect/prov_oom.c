// SPDX-License-Identifier: GPL-2.0-or-later
/* prov_oom.c - the OOM kills provider: the OOM tracepoint's program
 * (bpfoom.h) where the BPF collector reads the live tree (it fires only
 * on a kill: no cost otherwise), each victim into the model's log with
 * the path of its group; elsewhere the groups' counters tell of the
 * kills (model_update, oomlog.h) and this provider gives nothing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/bpfoom.h"
#include "parse.h"
#include "provider.h"
#include "xalloc.h"

struct prov_oom {
	struct provider p;
	struct bpfoom *oom;	/* the pipeline's: closed there */
};

static fieldset oom_gives(const struct provider *p)
{
	(void)p;
	return 0;	/* no group's field: the model's log */
}

static fieldset oom_ask(struct provider *p, const struct collect_ask *a)
{
	(void)p;
	(void)a;
	return 0;
}

/* A kill into the model's log, with the path of its group in the tree
 * just read (none: a group not shown, or removed). */
static void note_kill(void *arg, const struct bpfoom_kill *kill)
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

static void oom_fill_model(struct provider *p, struct model *m)
{
	struct prov_oom *o = (struct prov_oom *)p;

	if (o->oom)
		bpfoom_read(o->oom, note_kill, m, NULL);
}

static const char *oom_why(struct provider *p, enum field f)
{
	(void)p;
	(void)f;
	return NULL;
}

static void oom_free(struct provider *p)
{
	free(p);
}

static const struct provider_ops oom_ops = {
	.name = "oom",
	.gives = oom_gives,
	.ask = oom_ask,
	.fill_model = oom_fill_model,
	.why = oom_why,
	.free = oom_free,
};

struct provider *prov_oom_new(struct cgfs *cg, int recording,
			      struct bpfoom **ret_oom, char *why,
			      size_t whylen)
{
	struct prov_oom *o = xcalloc(1, sizeof(*o));
	const char *no = "the collector is not bpf";
	int bpf = strcmp(cgfs_collector(cg), "bpf") == 0;

	o->p.ops = &oom_ops;
	*ret_oom = NULL;
	if (!cgfs_is_live(cg))
		no = "not a live host";
	else if (recording)
		no = "a recording is being made";
	else if (bpf && bpfoom_open(ret_oom, why, whylen) == 0)
		no = NULL;
	else if (bpf)
		no = why;	/* bpfoom_open's reason */
	if (no && no != why)
		snprintf(why, whylen, "%s", no);
	o->oom = *ret_oom;
	return &o->p;
}
