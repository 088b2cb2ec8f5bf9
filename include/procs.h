/* SPDX-License-Identifier: GPL-2.0-or-later */
/* procs.h - the processes of a group, through libproc2. */
#ifndef MEMCGTOP_PROCS_H
#define MEMCGTOP_PROCS_H

#include <stddef.h>
#include <stdint.h>

struct proc_row {
	int pid;
	char user[32];
	uint64_t rss, swap;	/* bytes */
	int oom_adj;		/* oom_score_adj */
	char cmd[256];		/* command line, or the name in brackets */
};

/*
 * Looks up the given pids; processes that exited in between are left out.
 * Rows are sorted by RSS, largest first.  Returns 0 or a negative errno.
 */
int procs_lookup(const int *pids, size_t n, struct proc_row **ret_rows,
		 size_t *ret_n);

#endif
