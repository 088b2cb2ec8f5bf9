/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oom.bpf.c - the OOM killer's victims, from the kernel's oom:mark_victim
 * tracepoint (its task argument since Linux 6.3; only the pid before):
 * one record each (oom_rec.h) into the ring buffer "kills", which the
 * loader (src/bpf/bpfoom.c) reads at each refresh.
 *
 * mark_victim fires in __oom_kill_process with the victim's task locked,
 * after SIGKILL was sent and before its memory is reaped: the task still
 * has its mm (whose counters the kernel's "Killed process" line prints)
 * and its css_set, whose memory css is the group the kill is in.
 * `current` there is the task whose allocation went OOM, which may be
 * in another group (a parent's limit) or not be the victim: the victim's
 * own css_set says where it was.  The program runs only on an OOM kill,
 * so it costs nothing otherwise.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "oom_rec.h"

char LICENSE[] SEC("license") = "GPL";

#pragma clang diagnostic ignored "-Wunused-parameter"

/* UAPI value (linux/bpf.h); kernel_types.h has only the array type. */
#define OOM_MAP_RINGBUF	27

/* The kernel's enum mm counters, the same since 4.5. */
#define OOM_MM_FILEPAGES	0
#define OOM_MM_ANONPAGES	1
#define OOM_MM_SHMEMPAGES	3

struct {
	__uint(type, OOM_MAP_RINGBUF);
	__uint(max_entries, OOM_RING_BYTES);
} kills SEC(".maps");

/* Records the ring had no room for (the loader reads it). */
__u64 lost;

static __always_inline __u64 pages(__s64 n)
{
	return n > 0 ? (__u64)n : 0;
}

SEC("tp_btf/mark_victim")
int BPF_PROG(mark_victim, struct task_struct *task, unsigned int uid)
{
	struct cgroup_subsys_state *css;
	struct mem_cgroup *memcg;
	struct mm_struct *mm;
	struct oom_rec *r;
	int ssid;

	r = bpf_ringbuf_reserve(&kills, sizeof(*r), 0);
	if (!r) {
		__sync_fetch_and_add(&lost, 1);
		return 0;
	}
	r->boot_ns = bpf_ktime_get_boot_ns();
	r->tgid = (__u32)task->tgid;
	bpf_probe_read_kernel(r->comm, sizeof(r->comm), task->comm);
	r->id = 0;
	r->limit_pages = 0;
	ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (ssid >= 0 && ssid < 16) {
		css = task->cgroups->subsys[ssid];
		if (css) {
			/* css is the first member of struct mem_cgroup;
			 * the verifier types it as the css alone, so the
			 * rest is read by bpf_probe_read_kernel. */
			memcg = (struct mem_cgroup *)css;
			r->id = css->cgroup->kn->id;
			r->limit_pages = BPF_CORE_READ(memcg, memory.max);
		}
	}
	mm = task->mm;
	r->has_mm = mm != 0;
	r->rss_pages = 0;
	if (mm)
		r->rss_pages = pages(mm->rss_stat[OOM_MM_FILEPAGES].count) +
			pages(mm->rss_stat[OOM_MM_ANONPAGES].count) +
			pages(mm->rss_stat[OOM_MM_SHMEMPAGES].count);
	bpf_ringbuf_submit(r, 0);
	return 0;
}
