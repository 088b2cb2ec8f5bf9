/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iter_counters.bpf.h - the BPF collector's page counters: a struct
 * page_counter read whole, and its fields at their CO-RE offsets.
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

#endif
