/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memcg_iter.bpf.c - one walk over every memory cgroup below a start group,
 * inside the kernel.  Attached as a cgroup iterator (Linux 6.1) in
 * pre-order; each read() of an iterator fd runs it once per cgroup, with
 * cgroup_mutex held, and once more with a NULL cgroup at the end.
 *
 * The iterator's text output is one seq_file buffer of 8 pages that cannot
 * resume across reads (measured on 6.18: a text line per group stops at 739
 * groups with EOPNOTSUPP), so the records go into an mmap-able array and
 * the names into one packed buffer; the only text is a struct memcg_sum at
 * the end.  The loader sizes both maps from the group count and grows them
 * when the summary says they were short.
 */
#include "kernel_types.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "memcg_rec.h"

/* enum in the kernel's cgroup-defs.h, unchanged since 3.15. */
#define CSS_ONLINE	(1U << 1)

/* GPL: bpf_probe_read_kernel and bpf_seq_write are GPL-only helpers. */
char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct memcg_rec);
	__uint(max_entries, 1);		/* set by the loader */
} recs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__uint(value_size, 4096);	/* set by the loader */
	__uint(max_entries, 1);
} names SEC(".maps");

/* Set by the loader before load; the verifier sees them as constants. */
const volatile struct memcg_cfg cfg = {
	.rec_cap = 1,
	.names_size = 4096,
};

/* MR_BIT of the slots a walk reads beyond the memory counter and the
 * name: set by the loader through the mapped section before a walk. */
__u64 want SEC(".data.want") = ~0ULL;

/* One walk's state, reset when a new iterator fd (session) starts. */
__u64 cur_session;
__u32 n_groups;
__u32 names_used;
__u32 sum_flags;

/*
 * A struct page_counter is read whole, with one helper call, and its
 * fields are taken at their CO-RE offsets: 192 bytes on 6.18, and one
 * bpf_probe_read_kernel per field would cost about as much each.  The
 * buffer is global, not on the 512-byte stack: walks do not overlap (one
 * reader, cgroup_mutex held).
 */
#define PC_BUF 512
__u64 pc_buf[PC_BUF / 8];

#define PC_FIELD(f)							\
	({								\
		__u32 o_ = bpf_core_field_offset(struct page_counter, f); \
		o_ <= PC_BUF - 8 ? *(__u64 *)((char *)pc_buf + o_) : 0;	\
	})

/* Reads a page counter whole into pc_buf, for PC_FIELD: 0 or -1. */
static __always_inline int read_counter(struct page_counter *pc)
{
	__u32 size = bpf_core_type_size(struct page_counter);

	if (size > PC_BUF)
		size = PC_BUF;
	return bpf_probe_read_kernel(pc_buf, size, pc) ? -1 : 0;
}

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

static __always_inline void put(struct memcg_rec *r, enum mr_slot slot,
				__u64 v)
{
	r->v[slot] = v;
	r->have |= 1ULL << slot;
}

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

static __always_inline void read_name(struct memcg_rec *r,
				      const char *kname)
{
	__u32 zero = 0, off = names_used;
	char *buf;
	long len;

	/*
	 * Past the buffer's end the name is not read; counting a whole
	 * MR_NAME_MAX for it tells the loader enough to grow.
	 */
	buf = bpf_map_lookup_elem(&names, &zero);
	if (!buf || off > cfg.names_size - MR_NAME_MAX) {
		names_used = off + MR_NAME_MAX;
		return;
	}
	len = bpf_probe_read_kernel_str(buf + off, MR_NAME_MAX, kname);
	if (len <= 0) {
		names_used = off + 8;
		return;
	}
	r->name_off = off;
	r->name_len = len - 1;
	r->flags |= MR_NAME;
	names_used = off + ((len + 7) & ~7);
}

static __always_inline void write_sum(struct bpf_iter_meta *meta)
{
	struct memcg_sum sum = {
		.magic = MR_SUM_MAGIC,
		.flags = sum_flags,
		.groups = n_groups,
		.names_used = names_used,
		.session = cur_session,
	};

	bpf_seq_write(meta->seq, &sum, sizeof(sum));
}

SEC("iter/cgroup")
int memcg_iter(struct bpf_iter__cgroup *ctx)
{
	struct bpf_iter_meta *meta = ctx->meta;
	struct cgroup *cgrp = ctx->cgroup;
	struct cgroup_subsys_state *css;
	struct kernfs_node *kn;
	struct mem_cgroup *memcg;
	struct memcg_rec *r;
	__u32 idx, ssid;
	__u64 w = want;

	if (meta->session_id != cur_session) {
		cur_session = meta->session_id;
		n_groups = 0;
		names_used = 0;
		sum_flags = 0;
	}
	if (!cgrp) {
		write_sum(meta);
		return 0;
	}
	if (cfg.inject_refusal)	/* reads above the frame: always refused */
		asm volatile("r1 = *(u64 *)(r10 + 8)" ::: "r1");
	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id,
					memory_cgrp_id)) {
		sum_flags |= MR_SUM_NO_MEMCG;
		return 0;
	}
	ssid = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (ssid >= 16)
		return 0;
	/*
	 * rmdir clears CSS_ONLINE under cgroup_mutex, which the walk holds,
	 * as it removes the directory; the memory css stays until its
	 * offline work runs.  A group whose directory is gone is not shown.
	 */
	if (!(cgrp->self.flags & CSS_ONLINE))
		return 0;
	idx = n_groups++;
	if (idx >= cfg.rec_cap)
		return 0;
	r = bpf_map_lookup_elem(&recs, &idx);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));

	/*
	 * The cgroup side: trusted pointers, plain (PROBE_MEM) loads.  The
	 * verifier looks each pointer load up by name in the kernel's BTF
	 * (about a millisecond each on 6.18), so there are two: the parent
	 * is the group before at the level above, in pre-order.
	 */
	kn = cgrp->kn;
	r->id = kn->id;
	r->level = cgrp->level;
	read_name(r, kn->name);
	/* NULL where the controller is not enabled (v2): a group without
	 * memory files, shown as the directory walk shows it. */
	css = cgrp->subsys[ssid];
	if (!css)
		return 0;
	r->flags |= MR_MEMCG;
	memcg = (void *)css - bpf_core_field_offset(struct mem_cgroup, css);

	if (read_counter(&memcg->memory) == 0) {
		put(r, MR_USAGE, PC_FIELD(usage));
		put(r, MR_MAX, PC_FIELD(max));
		put(r, MR_PEAK, PC_FIELD(watermark));
		/* page_counter.high: 5.8+ (memory.high was in struct
		 * mem_cgroup); min and low: the v2 protections. */
		if (cfg.v2 && bpf_core_field_exists(memcg->memory.high))
			put(r, MR_HIGH, PC_FIELD(high));
		if (cfg.v2 && bpf_core_field_exists(memcg->memory.min)) {
			put(r, MR_MIN, PC_FIELD(min));
			put(r, MR_LOW, PC_FIELD(low));
		}
		/*
		 * v1 memory.failcnt shows the field as it is.  Since 6.12 it
		 * counts only where track_failcnt is set (v1 groups; not the
		 * root, whose file stays 0); v2 has no file.
		 */
		if (!cfg.v2)
			put(r, MR_FAILCNT, PC_FIELD(failcnt));
	}
	/* swap (v2) and memsw (v1) share a union since 5.x: the whole
	 * counter for its limit, high or peak, else one cache line of its
	 * three for the usage alone. */
	if (w & (MR_BIT(SWAP_MAX) | MR_BIT(SWAP_HIGH) | MR_BIT(SWAP_PEAK))) {
		struct page_counter *pc = 0;

		if (bpf_core_field_exists(memcg->memsw))
			pc = &memcg->memsw;
		else if (bpf_core_field_exists(memcg->swap))
			pc = &memcg->swap;
		if (pc && read_counter(pc) == 0) {
			put(r, MR_SWAP_USAGE, PC_FIELD(usage));
			put(r, MR_SWAP_MAX, PC_FIELD(max));
			put(r, MR_SWAP_PEAK, PC_FIELD(watermark));
			if (cfg.v2 && bpf_core_field_exists(memcg->memory.high))
				put(r, MR_SWAP_HIGH, PC_FIELD(high));
		}
	} else if (w & MR_BIT(SWAP_USAGE)) {
		if (bpf_core_field_exists(memcg->memsw))
			put(r, MR_SWAP_USAGE,
			    BPF_CORE_READ(memcg, memsw.usage.counter));
		else if (bpf_core_field_exists(memcg->swap))
			put(r, MR_SWAP_USAGE,
			    BPF_CORE_READ(memcg, swap.usage.counter));
	}
	/* Each hierarchy's own files only: every read is a helper call. */
	if (cfg.v2) {
		if ((w & MR_BIT(OOM_GROUP)) &&
		    bpf_core_field_exists(memcg->oom_group))
			put(r, MR_OOM_GROUP, BPF_CORE_READ(memcg, oom_group));
		if (w & MR_EVENTS)
			read_events(r, memcg);
		return 0;
	}
	if ((w & MR_BIT(KMEM)) && bpf_core_field_exists(memcg->kmem))
		put(r, MR_KMEM, BPF_CORE_READ(memcg, kmem.usage.counter));
	if ((w & MR_BIT(SOFT)) && bpf_core_field_exists(memcg->soft_limit))
		put(r, MR_SOFT, BPF_CORE_READ(memcg, soft_limit));
	if ((w & MR_BIT(SWAPPINESS)) &&
	    bpf_core_field_exists(memcg->swappiness))
		put(r, MR_SWAPPINESS, BPF_CORE_READ(memcg, swappiness));
	return 0;
}
