/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_events.bpf.h - the BPF collector's memory.events: the group's
 * memcg_memory_event counters (hierarchical, or its own on v2 with
 * memory_localevents).
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_EVENTS_BPF_H
#define MEMCGTOP_ITER_EVENTS_BPF_H

#define EVENT(slot, kname)						\
	do {								\
		if (bpf_core_enum_value_exists(enum memcg_memory_event,	\
					       kname)) {		\
			__u32 i = bpf_core_enum_value(			\
				enum memcg_memory_event, kname);	\
			if (i < 16)					\
				put(r, MR_##slot, ev[i].counter);	\
		}							\
	} while (0)

static __always_inline void read_events(struct memcg_rec *r,
					struct mem_cgroup *memcg)
{
	atomic_long_t ev[16] = {};
	__u32 size;

	if (cfg.local_events) {
		if (!bpf_core_field_exists(memcg->memory_events_local))
			return;
		size = bpf_core_field_size(memcg->memory_events_local);
		if (size > sizeof(ev))
			size = sizeof(ev);
		if (bpf_core_read(ev, size, &memcg->memory_events_local))
			return;
	} else {
		if (!bpf_core_field_exists(memcg->memory_events))
			return;
		size = bpf_core_field_size(memcg->memory_events);
		if (size > sizeof(ev))
			size = sizeof(ev);
		if (bpf_core_read(ev, size, &memcg->memory_events))
			return;
	}
	EVENT(EV_LOW, MEMCG_LOW);
	EVENT(EV_HIGH, MEMCG_HIGH);
	EVENT(EV_MAX, MEMCG_MAX);
	EVENT(EV_OOM, MEMCG_OOM);
	EVENT(EV_OOM_KILL, MEMCG_OOM_KILL);
	EVENT(EV_OOM_GROUP_KILL, MEMCG_OOM_GROUP_KILL);
	EVENT(EV_SWAP_HIGH, MEMCG_SWAP_HIGH);
	EVENT(EV_SWAP_MAX, MEMCG_SWAP_MAX);
	EVENT(EV_SWAP_FAIL, MEMCG_SWAP_FAIL);
}

#endif
