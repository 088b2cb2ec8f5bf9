/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * oom_rec.h - the records of oom.bpf.c, shared with its loader
 * (src/bpf/bpfoom.c).  Uses __u64 and friends: the BPF side gets them from
 * kernel_types.h, user space from <linux/types.h>.
 */
#ifndef MEMCGTOP_OOM_REC_H
#define MEMCGTOP_OOM_REC_H

/* The ring buffer "kills": room for some 200 records between two reads
 * (a record and its header are 72 bytes). */
#define OOM_RING_BYTES	(16U << 10)

/* One OOM kill, as the kernel marks its victim. */
struct oom_rec {
	__u64 boot_ns;		/* bpf_ktime_get_boot_ns() */
	__u64 id;		/* the victim's memory cgroup's id; 0: none */
	__u64 rss_pages;	/* anon + file + shmem pages it maps */
	__u64 limit_pages;	/* its memory cgroup's memory.max */
	__u32 tgid;		/* the process */
	__u32 has_mm;		/* rss_pages read (the victim has its mm) */
	char comm[16];
};

#endif
