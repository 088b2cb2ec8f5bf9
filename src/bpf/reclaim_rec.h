/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reclaim_rec.h - the maps and read-only data of reclaim.bpf.c, shared
 * with its loader (src/bpf/bpfev.c).  Uses __u64 and friends: the BPF side
 * gets them from kernel_types.h, user space from <linux/types.h>.
 * Counts are in pages, as the kernel counts the events.
 */
#ifndef MEMCGTOP_RECLAIM_REC_H
#define MEMCGTOP_RECLAIM_REC_H

#include "reclaim_items.h"

/* Slots of struct reclaim_val.ev[], one per counted item
 * (reclaim_items.h). */
#define RE_SLOT(slot, name, kind) RE_##slot,
enum re_slot {
	RECLAIM_ITEMS(RE_SLOT)
	RE_NSLOTS
};
#undef RE_SLOT

#define RE_NPRIO	13	/* priorities 0..DEF_PRIORITY (12) */
#define RE_MAX_GROUPS	65536	/* memcg ids are 16 bits */
#define RE_MAX_STALLERS	16384	/* tasks in reclaim at once */
#define RE_MAX_SOFT	4096	/* tasks in soft-limit reclaim at once */
/*
 * item - cfg.item_lo indexes cfg.slot_of[]: the counted items lie within
 * this many of each other (8 consecutive numbers on 6.13 to 6.18).
 */
#define RE_ITEM_SPAN	32

/*
 * The hash map "groups": key the cgroup id (the directory's inode),
 * value this.  prio[] holds, for two alternating intervals (the loader's
 * epoch & 1), epoch << 8 | the lowest priority seen in it.
 */
struct reclaim_val {
	__u64 ev[RE_NSLOTS];
	__u64 flushes;		/* memcg_flush_stats requests on this group */
	__u64 flushes_done;	/* of them, forced or needing a flush */
	__u64 prio[2];
	/* ... per reclaimer: kswapd's, the allocating tasks' (direct and
	 * limit reclaim, khugepaged), soft-limit reclaim's and proactive
	 * reclaim's (memory.reclaim).  prio[] is that of all but
	 * soft-limit reclaim, whose priority is fixed at 0 (reclaim.bpf.c). */
	__u64 prio_kswapd[2];
	__u64 prio_direct[2];
	__u64 prio_soft[2];
	__u64 prio_proactive[2];
	__u64 stall_ns;		/* its tasks' time in direct and memcg reclaim */
	__u64 soft_scan;	/* of ev[]'s PGSCAN_*, soft-limit reclaim's */
	__u64 soft_steal;	/* ... and of its PGSTEAL_* */
	__u64 scanned[RE_NPRIO];	/* its own lists' pages scanned at each
					 * priority, by the shrink events given
					 * to it, soft-limit reclaim's left out */
};

/* The per-CPU array "sys", one entry, summed over the CPUs by the loader. */
struct reclaim_sys {
	__u64 scanned[RE_NPRIO];	/* nr_scanned by priority, soft-limit
					 * reclaim's left out */
	__u64 soft_scanned[RE_NPRIO];	/* soft-limit reclaim's alone */
	__u64 shrinks;			/* mm_vmscan_lru_shrink_inactive events */
	__u64 attributed;		/* of them, after this task's PGSTEAL
					 * (or PGSCAN: multi-gen LRU) */
	__u64 exact;			/* ... with its PGSCAN, values equal */
	__u64 flushes;			/* memcg_flush_stats requests */
	__u64 flushes_done;		/* of them, forced or needing a flush */
	__u64 own_flushes;		/* requests by cfg.own_tgid */
	__u64 own_flushes_done;		/* of them, forced or needing a flush */
	__u64 dropped;			/* events of groups the map had no room for */
};

/* The per-CPU array "last": this CPU's latest PGSCAN/PGSTEAL event. */
struct reclaim_last {
	__u64 id;		/* cgroup id */
	__u64 scan_val;		/* its PGSCAN value; ~0: not on this CPU */
	__u64 steal_val;	/* its PGSTEAL value */
	__u32 pid;		/* the task (thread) that counted them */
	__u32 steal_seen;	/* a PGSTEAL followed the PGSCAN */
	__u32 scan_seen;	/* a PGSCAN, not yet followed by a shrink event */
	__u32 scan_slot;	/* that PGSCAN's enum re_slot (who reclaims) */
};

/* The program's .rodata, set by the loader before load. */
struct reclaim_cfg {
	__u32 item_lo;			/* the lowest counted item number */
	__u32 own_tgid;			/* memcgtop's process */
	__u32 inject_refusal;		/* tests: make the verifier refuse */
	__u32 pad;
	__u8 slot_of[RE_ITEM_SPAN];	/* item - item_lo -> slot + 1; 0: not counted */
};

/* The program's .bss: the interval prio[] is kept for; set by the loader. */
struct reclaim_bss {
	__u64 epoch;
};

#endif
