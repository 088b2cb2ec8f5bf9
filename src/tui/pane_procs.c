/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pane_procs.c - the process pane: the group's processes by RSS. */
#include <curses.h>
#include <stdlib.h>

#include "fmt.h"
#include "procs.h"
#include "pane.h"
#include "xalloc.h"

void proc_lines(struct pane_out *p, const struct mgroup *g)
{
	struct tui *t = p->t;
	char *cut = NULL;
	size_t ncut = 0;

	if (!t->pl.m.src.live) {
		ptitle(p, t->attr[TE_HEADER], "Processes of %s", g->path);
		pline(p, A_NORMAL, "not shown: a copy or a recording; its pids "
		      "are not this host's processes");
		return;
	}
	ptitle(p, t->attr[TE_HEADER], "Processes of %s: %zu  (by RSS; J/K "
	       "scroll, p closes)", g->path, t->pl.m.focus.nprocs);
	ptitle(p, A_BOLD, "%8s %-12s %8s %8s %s", "PID", "USER", "RSS", "SWAP",
	       "COMMAND");
	cut = xcalloc(t->pl.m.focus.nprocs, 1);
	for (size_t i = 0; i < t->pl.m.focus.nprocs; i++) {
		const struct proc_row *r = &t->pl.m.focus.procs[i];
		char rss[16], swp[16];

		fmt_bytes(rss, sizeof(rss), r->rss);
		fmt_bytes(swp, sizeof(swp), r->swap);
		if (prow(p, "%8d %-12.12s %8s %8s %s", r->pid, r->user, rss,
			 swp, r->cmd)) {
			cut[i] = 1;
			ncut++;
		}
	}
	if (!ncut) {
		free(cut);
		return;
	}
	/* Rows cut at the screen's edge: their whole command lines below
	 * the table, one process each, wrapped. */
	pline(p, A_BOLD, "Command lines cut above");
	for (size_t i = 0; i < t->pl.m.focus.nprocs; i++) {
		const struct proc_row *r = &t->pl.m.focus.procs[i];

		if (cut[i])
			pline(p, A_NORMAL, "%8d %s", r->pid, r->cmd);
	}
	free(cut);
}
