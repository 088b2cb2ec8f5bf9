/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oomlog.h - the OOM kills seen during the run, newest first, at most
 * OOMLOG_MAX of them (older ones are dropped; oomlog.seen counts all).
 *
 * Two ways in, one a run:
 *  - the kernel's oom:mark_victim tracepoint (src/bpf/bpfoom.c, where the
 *    BPF collector runs): each kill with its process, the size of its
 *    memory (rss) and the limit of its group at the time;
 *  - else the groups' OOM kill counters (v1 memory.oom_control, v2
 *    memory.events oom_kill), whose rise between two refreshes is a kill
 *    of some process in the group, at the refresh that saw it: no pid, no
 *    command, no size.
 * Pure: the model feeds it (model_update), the pipeline adds the
 * tracepoint's kills; no I/O.
 */
#ifndef MEMCGTOP_OOMLOG_H
#define MEMCGTOP_OOMLOG_H

#include <stddef.h>
#include <stdint.h>

#define OOMLOG_MAX	64
#define OOM_COMM_LEN	16	/* TASK_COMM_LEN */

struct oom_kill {
	int64_t wall_ms;	/* Unix time, milliseconds */
	char *path;		/* the group; NULL: not in the tree shown */
	uint64_t id;		/* its cgroup id (directory inode), 0: unknown */
	int pid;		/* -1: the process is not known (counters) */
	char comm[OOM_COMM_LEN];	/* "" when pid is -1 */
	uint64_t rss;		/* bytes: anon + file + shmem pages mapped */
	uint64_t limit;		/* bytes, the group's (VAL_MAX: no limit) */
	unsigned has_rss : 1;
	unsigned has_limit : 1;
	unsigned seq;		/* 1, 2, ...: the order seen */
};

struct oomlog {
	struct oom_kill e[OOMLOG_MAX];	/* a ring: e[(head + k) % MAX] */
	size_t head, n;
	unsigned seen;		/* kills ever added (seq of the newest) */
	/* The kills come from the tracepoint: the counters add none. */
	int from_events;
};

void oomlog_free(struct oomlog *log);

/* Kill k, 0 the newest (k < log->n). */
const struct oom_kill *oomlog_get(const struct oomlog *log, size_t k);

/* Adds a copy of *kill with a copy of path (NULL: not in the tree) in
 * place of its own, seq set, dropping the oldest when full. */
void oomlog_add(struct oomlog *log, const struct oom_kill *kill,
		const char *path);

#endif
