/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfoom.h - the OOM killer's victims from the kernel's oom:mark_victim
 * tracepoint (src/bpf/oom.bpf.c; the victim's task as its argument since
 * Linux 6.3), on either cgroup hierarchy: each kill with its process, its
 * memory cgroup, the pages it mapped and that group's limit.
 *
 * The program runs only when the OOM killer kills: loaded, it costs
 * nothing else (a 16 KiB ring buffer).  Embedded through its skeleton
 * (oom.skel.h); nothing is pinned.
 */
#ifndef MEMCGTOP_BPFOOM_H
#define MEMCGTOP_BPFOOM_H

#include <stddef.h>
#include <stdint.h>

struct bpfoom;

/* A kill, as bpfoom_read gives it. */
struct bpfoom_kill {
	int64_t wall_ms;	/* Unix time, milliseconds */
	uint64_t id;		/* the victim's memory cgroup id (its
				 * directory's inode); 0: none */
	int pid;		/* the process (thread group) id */
	char comm[16];		/* its command, NUL-terminated */
	int has_rss;
	uint64_t rss;		/* bytes: anon + file + shmem it mapped */
	uint64_t limit;		/* bytes, its group's memory limit
				 * (v1 limit_in_bytes, v2 memory.max);
				 * UINT64_MAX: none */
};

/*
 * bpfoom_open: loads and attaches the program.  On failure returns -errno
 * with a one-line reason in why (not root, no BTF, a kernel whose
 * mark_victim has no task argument, a refusal).  MEMCGTOP_BPFOOM_FAIL=1
 * in the environment makes it fail (for tests).
 */
int bpfoom_open(struct bpfoom **ret_oom, char *why, size_t whylen);

/*
 * bpfoom_read: calls fn(arg, kill) for each kill since the last read,
 * oldest first; returns how many, or -errno.  *ret_lost (may be NULL):
 * kills the ring had no room for since bpfoom_open.
 */
int bpfoom_read(struct bpfoom *oom,
		void (*fn)(void *arg, const struct bpfoom_kill *kill),
		void *arg, uint64_t *ret_lost);

void bpfoom_close(struct bpfoom *oom);

#endif
