/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reclaim.bpf.c - reclaim as the kernel counts it per memory cgroup, on
 * either hierarchy (Linux 6.13+ tracepoints):
 *
 *   memcg:count_memcg_events      PGSCAN_* and PGSTEAL_* pages summed per
 *                                 (cgroup id, item) in the hash map groups
 *                                 (memcg:mod_memcg_lruvec_state on 7.3+,
 *                                 where they are node stats);
 *   vmscan:mm_vmscan_lru_shrink_inactive
 *                                 pages scanned per priority, system-wide,
 *                                 and per group the lowest priority, the
 *                                 group being the one this CPU's latest
 *                                 PGSCAN/PGSTEAL event was counted in;
 *   memcg:memcg_flush_stats       rstat flush requests, memcgtop's own apart.
 *
 * The programs are tp_btf (BTF-typed raw tracepoints): they attach by
 * name, without tracefs (not mounted everywhere) and without the BPF
 * trampolines fentry needs, and read the tracepoint's arguments, not its
 * formatted record.  count_memcg_events also fires for every page fault
 * (PGFAULT): every other item returns after one compare.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "reclaim_rec.h"

char LICENSE[] SEC("license") = "GPL";

/* BPF_PROG names every tracepoint argument, read or not. */
#pragma clang diagnostic ignored "-Wunused-parameter"

/* UAPI values (linux/bpf.h); kernel_types.h has only the array type. */
#define RE_MAP_HASH		1
#define RE_MAP_PERCPU_ARRAY	6
#define RE_F_NO_PREALLOC	1U
#define RE_NOEXIST		1
#define RE_PF_KSWAPD		0x00020000U

struct {
	__uint(type, RE_MAP_HASH);
	/* Entries are made when a group first reclaims or flushes. */
	__uint(map_flags, RE_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, struct reclaim_val);
	__uint(max_entries, RE_MAX_GROUPS);
} groups SEC(".maps");

struct {
	__uint(type, RE_MAP_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct reclaim_sys);
	__uint(max_entries, 1);
} sys SEC(".maps");

struct {
	__uint(type, RE_MAP_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, struct reclaim_last);
	__uint(max_entries, 1);
} last SEC(".maps");

/* Reclaim stalls: when each task began its direct or memcg reclaim. */
struct {
	__uint(type, RE_MAP_HASH);
	__uint(map_flags, RE_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, RE_MAX_STALLERS);
} stall_start SEC(".maps");

/* The tasks (thread ids) in soft-limit reclaim now: between the
 * kernel's softlimit_reclaim begin and end events, which bracket the
 * shrink of one group (mem_cgroup_shrink_node). */
struct {
	__uint(type, RE_MAP_HASH);
	__uint(map_flags, RE_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u8);
	__uint(max_entries, RE_MAX_SOFT);
} soft_tids SEC(".maps");

const volatile struct reclaim_cfg cfg = { .item_lo = 0 };

/* The interval prio[] is kept for: the loader advances it at each read. */
__u64 epoch;

static __always_inline struct reclaim_sys *sys_here(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&sys, &zero);
}

static __always_inline struct reclaim_val *group(__u64 id)
{
	struct reclaim_val zero = {}, *v;
	struct reclaim_sys *s;

	v = bpf_map_lookup_elem(&groups, &id);
	if (v)
		return v;
	/* EEXIST: another CPU made it meanwhile; the lookup finds it. */
	bpf_map_update_elem(&groups, &id, &zero, RE_NOEXIST);
	v = bpf_map_lookup_elem(&groups, &id);
	if (!v && (s = sys_here()))
		s->dropped++;
	return v;
}

static __always_inline int note_event(struct mem_cgroup *memcg, int item,
				      unsigned long val)
{
	__u32 i = (__u32)item - cfg.item_lo, zero = 0, slot;
	struct reclaim_last *l;
	struct reclaim_val *v;
	__u64 id;

	if (i >= RE_ITEM_SPAN)
		return 0;
	slot = cfg.slot_of[i];
	if (!slot)
		return 0;
	slot--;
	if (cfg.inject_refusal)	/* reads above the frame: always refused */
		asm volatile("r1 = *(u64 *)(r10 + 8)" ::: "r1");
	if (!memcg || slot >= RE_NSLOTS)
		return 0;
	id = memcg->css.cgroup->kn->id;
	v = group(id);
	if (v) {
		__u32 tid = (__u32)bpf_get_current_pid_tgid();

		__sync_fetch_and_add(&v->ev[slot], val);
		/* Only PGSCAN and PGSTEAL come here: a lookup for them
		 * alone, never for a page fault. */
		if (bpf_map_lookup_elem(&soft_tids, &tid)) {
			if (slot < RE_STEAL_KSWAPD)
				__sync_fetch_and_add(&v->soft_scan, val);
			else
				__sync_fetch_and_add(&v->soft_steal, val);
		}
	}
	l = bpf_map_lookup_elem(&last, &zero);
	if (!l)
		return 0;
	if (slot < RE_STEAL_KSWAPD) {
		l->id = id;
		l->scan_val = val;
		l->steal_val = 0;
		l->steal_seen = 0;
		l->scan_seen = 1;
		l->scan_slot = slot;
		l->pid = (__u32)bpf_get_current_pid_tgid();
	} else {
		/*
		 * The PGSTEAL decides: shrink_inactive_list may have slept
		 * and moved here since its PGSCAN, whose value this CPU
		 * then does not have.
		 */
		__u32 pid = (__u32)bpf_get_current_pid_tgid();

		if (l->id != id || l->pid != pid)
			l->scan_val = ~0ULL;
		l->id = id;
		l->pid = pid;
		l->steal_val = val;
		l->steal_seen = 1;
	}
	return 0;
}

/* Up to 7.2: PGSCAN_* and PGSTEAL_* are enum vm_event_item events. */
SEC("tp_btf/count_memcg_events")
int BPF_PROG(count_event, struct mem_cgroup *memcg, int item, unsigned long val)
{
	return note_event(memcg, item, val);
}

/*
 * 7.3 counts them as node stats (enum node_stat_item) per lruvec: this
 * fires for every LRU size change too, and every other item returns at
 * the first compare.  The loader loads one of the two programs.
 */
SEC("tp_btf/mod_memcg_lruvec_state")
int BPF_PROG(lruvec_state, struct mem_cgroup *memcg, int item, long val)
{
	if (val <= 0)
		return 0;
	return note_event(memcg, item, (unsigned long)val);
}

/* slots[e & 1] = epoch << 8 | lowest priority; exact under concurrent
 * CPUs. */
static __always_inline void lower_prio(__u64 *slots, __u64 prio)
{
	__u64 e = epoch, old, want;
	__u64 *p = &slots[e & 1];
	int tries;

	for (tries = 0; tries < 4; tries++) {
		old = *p;
		if (old >> 8 == e && (old & 0xff) <= prio)
			return;
		want = e << 8 | prio;
		if (__sync_val_compare_and_swap(p, old, want) == old)
			return;
	}
}

SEC("tp_btf/mm_vmscan_lru_shrink_inactive")
int BPF_PROG(shrink_inactive, int nid, unsigned long nr_scanned,
	     unsigned long nr_reclaimed, void *stat, int priority, int file)
{
	struct reclaim_sys *s = sys_here();
	__u32 zero = 0, p, tid = (__u32)bpf_get_current_pid_tgid();
	struct reclaim_last *l;
	struct reclaim_val *v;
	int soft;

	if (!s)
		return 0;
	p = priority < 0 ? 0 : priority > RE_NPRIO - 1 ? RE_NPRIO - 1 : priority;
	/* Bounded again where the verifier sees it (clang folds the above). */
	asm volatile("" : "+r"(p));
	if (p >= RE_NPRIO)
		return 0;
	/*
	 * Soft-limit reclaim is a reclaimer of its own.  Its scan_control
	 * (mem_cgroup_shrink_node in mm/vmscan.c, the one caller being
	 * mem_cgroup_soft_limit_reclaim in mm/memcontrol.c on 6.1,
	 * memcg1_soft_limit_reclaim in mm/memcontrol-v1.c on 7.3) sets no
	 * priority: it is 0, by construction, on 6.1 and 7.3 (the kernel's
	 * comment there: "We hack the priority and make it zero"), and this
	 * event was at 0 for every soft-limit shrink on the host's 6.18
	 * (tests/live/soft-v1.sh).  shrink_lruvec runs between the
	 * softlimit_reclaim begin and end events, in the task (kswapd or
	 * one in direct reclaim) that called balance_pgdat or
	 * shrink_zones: soft_tids holds it then.  Its scans at 0 say
	 * nothing of how hard the other reclaimers scan, and are kept out
	 * of their figures.
	 */
	soft = bpf_map_lookup_elem(&soft_tids, &tid) != NULL;
	if (soft)
		s->soft_scanned[p] += nr_scanned;
	else
		s->scanned[p] += nr_scanned;
	s->shrinks++;
	/*
	 * shrink_inactive_list counts PGSCAN, may sleep in shrink_folio_list
	 * (and move to another CPU), counts PGSTEAL with the LRU lock held,
	 * then emits this event: the shrink is the group of this CPU's
	 * latest PGSTEAL when this task counted it.  exact: its PGSCAN
	 * came on this CPU too, and both values are this event's.  The
	 * multi-gen LRU's evict_folios (Debian's default since 6.1) emits
	 * the event before it counts PGSTEAL: there the group is that of
	 * this task's PGSCAN on this CPU, and the event's nr_scanned also
	 * counts folios sorted, not isolated (never exact).
	 */
	l = bpf_map_lookup_elem(&last, &zero);
	if (!l || !(l->steal_seen || l->scan_seen) || l->pid != tid)
		return 0;
	s->attributed++;
	if (l->steal_seen && l->scan_val == nr_scanned && l->steal_val == nr_reclaimed)
		s->exact++;
	l->steal_seen = 0;
	l->scan_seen = 0;
	v = group(l->id);
	if (!v)
		return 0;
	if (soft) {
		lower_prio(v->prio_soft, p);
		return 0;
	}
	__sync_fetch_and_add(&v->scanned[p], nr_scanned);
	lower_prio(v->prio, p);
	/*
	 * Who reclaims: kswapd; proactive reclaim (memory.reclaim), whose
	 * PGSCAN the kernel counts as PGSCAN_PROACTIVE (reclaimer_offset,
	 * 6.13+: sc->proactive); or the allocating task itself (global
	 * direct reclaim, a group's limit or high, khugepaged).
	 */
	if (bpf_get_current_task_btf()->flags & RE_PF_KSWAPD)
		lower_prio(v->prio_kswapd, p);
	else if (l->scan_slot == RE_SCAN_PROACTIVE)
		lower_prio(v->prio_proactive, p);
	else
		lower_prio(v->prio_direct, p);
	return 0;
}

SEC("tp_btf/memcg_flush_stats")
int BPF_PROG(flush_stats, struct mem_cgroup *memcg, __s64 stats_updates,
	     bool force, bool needs_flush)
{
	struct reclaim_sys *s = sys_here();
	struct reclaim_val *v;

	if (!s)
		return 0;
	/* The kernel flushes only when forced or past its threshold
	 * (__mem_cgroup_flush_stats returns at once otherwise). */
	s->flushes++;
	if (force || needs_flush)
		s->flushes_done++;
	if (cfg.own_tgid && bpf_get_current_pid_tgid() >> 32 == cfg.own_tgid) {
		s->own_flushes++;
		if (force || needs_flush)
			s->own_flushes_done++;
	}
	if (!memcg)
		return 0;
	v = group(memcg->css.cgroup->kn->id);
	if (v) {
		__sync_fetch_and_add(&v->flushes, 1);
		if (force || needs_flush)
			__sync_fetch_and_add(&v->flushes_done, 1);
	}
	return 0;
}

/*
 * Reclaim stalls: the time a task spends in direct reclaim (the page
 * allocator's, try_to_free_pages) and in memcg reclaim (a group's limit,
 * high or memory.reclaim: try_to_free_mem_cgroup_pages), given to the
 * task's own memory cgroup.  The begin and end events bracket each.
 */
static __always_inline int stall_begin(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 now = bpf_ktime_get_ns();

	bpf_map_update_elem(&stall_start, &tid, &now, 0);
	return 0;
}

static __always_inline int stall_end(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct cgroup_subsys_state *css;
	struct reclaim_val *v;
	__u64 *t0, d;
	int ssid;

	t0 = bpf_map_lookup_elem(&stall_start, &tid);
	if (!t0)
		return 0;
	d = bpf_ktime_get_ns() - *t0;
	bpf_map_delete_elem(&stall_start, &tid);
	ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (ssid < 0 || ssid >= 16)
		return 0;
	css = bpf_get_current_task_btf()->cgroups->subsys[ssid];
	if (!css)
		return 0;
	v = group(css->cgroup->kn->id);
	if (v)
		__sync_fetch_and_add(&v->stall_ns, d);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_begin)
{
	return stall_begin();
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_end)
{
	return stall_end();
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin)
{
	return stall_begin();
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_end)
{
	return stall_end();
}

/*
 * Soft-limit reclaim (v1): the kernel shrinks one group of the soft-limit
 * tree's choice between these two events, in the task's own context
 * (kswapd, or a task in direct reclaim); the PGSCAN and PGSTEAL counts
 * in between are soft reclaim's (note_event).
 */
SEC("tp_btf/mm_vmscan_memcg_softlimit_reclaim_begin")
int BPF_PROG(soft_begin)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u8 one = 1;

	bpf_map_update_elem(&soft_tids, &tid, &one, 0);
	return 0;
}

SEC("tp_btf/mm_vmscan_memcg_softlimit_reclaim_end")
int BPF_PROG(soft_end)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&soft_tids, &tid);
	return 0;
}
