/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_counters.bpf.h - the BPF collector's page counters: a struct
 * page_counter read whole, and its fields at their CO-RE offsets: memory's
 * and swap's (v2) or memsw's (v1).
 * Included by memcg_iter.bpf.c alone, after its maps and state.
 */
#ifndef MEMCGTOP_ITER_COUNTERS_BPF_H
#define MEMCGTOP_ITER_COUNTERS_BPF_H

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

/* memory's page counter: usage, limit, peak; on v2 high, the protections
 * and (but the root's) the effective ones; on v1 failcnt. */
static __always_inline void read_memory(struct memcg_rec *r,
				       struct mem_cgroup *memcg, __u64 w,
				       __u32 level)
{
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
		/* Not the root's: reclaim computes no protection of it. */
		if (cfg.v2 && level > 0 &&
		    (w & (MR_BIT(EMIN) | MR_BIT(ELOW))) &&
		    bpf_core_field_exists(memcg->memory.emin) &&
		    bpf_core_field_exists(memcg->memory.elow)) {
			put(r, MR_EMIN, PC_FIELD(emin));
			put(r, MR_ELOW, PC_FIELD(elow));
		}
		/*
		 * v1 memory.failcnt shows the field as it is.  Since 6.12 it
		 * counts only where track_failcnt is set (v1 groups; not the
		 * root, whose file stays 0); v2 has no file.
		 */
		if (!cfg.v2)
			put(r, MR_FAILCNT, PC_FIELD(failcnt));
	}
}

/* swap (v2) and memsw (v1) share a union since 5.x: the whole counter
 * for its limit, high or peak, else one cache line of its three for the
 * usage alone. */
static __always_inline void read_swap(struct memcg_rec *r,
				     struct mem_cgroup *memcg, __u64 w)
{
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
}

#endif
