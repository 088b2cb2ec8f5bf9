/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procs.c - pid, user, RSS, swap, command and oom_score_adj of given pids
 * (libproc2). */
#include <errno.h>
#include <libproc2/pids.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "procs.h"
#include "xalloc.h"

enum { I_PID, I_USER, I_RSS, I_SWAP, I_CMDLINE, I_CMD, I_OOM_ADJ, I_NR };

static int by_rss(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	if (x->rss != y->rss)
		return x->rss > y->rss ? -1 : 1;
	return x->pid - y->pid;
}

int procs_lookup(const int *pids, size_t n, struct proc_row **ret_rows,
		 size_t *ret_n)
{
	static enum pids_item items[I_NR] = {
		PIDS_ID_PID, PIDS_ID_EUSER, PIDS_MEM_RES, PIDS_VM_SWAP,
		PIDS_CMDLINE, PIDS_CMD, PIDS_OOM_ADJ,
	};
	struct pids_info *info = NULL;
	struct proc_row *rows;
	unsigned batch[255];
	size_t out = 0;

	*ret_rows = NULL;
	*ret_n = 0;
	if (n == 0)
		return 0;
	rows = xcalloc(n, sizeof(*rows));
	if (procps_pids_new(&info, items, I_NR) < 0) {
		free(rows);
		return -EIO;
	}
	/* libproc2 takes at most 255 pids a call (4.0.2). */
	for (size_t off = 0; off < n; off += 255) {
		size_t k = n - off < 255 ? n - off : 255;
		struct pids_fetch *f;

		for (size_t i = 0; i < k; i++)
			batch[i] = (unsigned)pids[off + i];
		f = procps_pids_select(info, batch, (int)k, PIDS_SELECT_PID);
		if (!f)
			continue;
		for (int i = 0; i < f->counts->total && out < n; i++) {
			struct pids_stack *s = f->stacks[i];
			struct proc_row *r = &rows[out++];
			const char *cl = PIDS_VAL(I_CMDLINE, str, s, info);

			r->pid = PIDS_VAL(I_PID, s_int, s, info);
			snprintf(r->user, sizeof(r->user), "%s",
				 PIDS_VAL(I_USER, str, s, info));
			r->rss = (uint64_t)PIDS_VAL(I_RSS, ul_int, s, info) * 1024;
			r->swap = (uint64_t)PIDS_VAL(I_SWAP, ul_int, s, info) *
				1024;
			r->oom_adj = PIDS_VAL(I_OOM_ADJ, s_int, s, info);
			/* Kernel threads have no command line: show the name
			 * in brackets, as ps does. */
			if (cl && *cl && strcmp(cl, "-") != 0)
				snprintf(r->cmd, sizeof(r->cmd), "%s", cl);
			else
				snprintf(r->cmd, sizeof(r->cmd), "[%s]",
					 PIDS_VAL(I_CMD, str, s, info));
		}
	}
	procps_pids_unref(&info);
	qsort(rows, out, sizeof(*rows), by_rss);
	*ret_rows = rows;
	*ret_n = out;
	return 0;
}
