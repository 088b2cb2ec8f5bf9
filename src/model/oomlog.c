/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oomlog.c - the OOM kills seen during the run: see include/oomlog.h. */
#include <stdlib.h>
#include <string.h>

#include "oomlog.h"
#include "xalloc.h"

void oomlog_free(struct oomlog *log)
{
	if (!log)
		return;
	for (size_t k = 0; k < log->n; k++)
		free(log->e[(log->head + k) % OOMLOG_MAX].path);
	log->n = 0;
	log->head = 0;
}

const struct oom_kill *oomlog_get(const struct oomlog *log, size_t k)
{
	return &log->e[(log->head + k) % OOMLOG_MAX];
}

void oomlog_add(struct oomlog *log, const struct oom_kill *kill,
		const char *path)
{
	struct oom_kill *e;

	/* The newest goes before the head: the oldest's place when full. */
	log->head = (log->head + OOMLOG_MAX - 1) % OOMLOG_MAX;
	e = &log->e[log->head];
	if (log->n == OOMLOG_MAX)
		free(e->path);
	else
		log->n++;
	*e = *kill;
	e->path = path ? xstrdup(path) : NULL;
	e->seq = ++log->seen;
}
