/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.h - every value a refresh reads of a group, declared once.
 *
 * X(NAME, flags, v1, v2) is one value: NAME becomes the field FLD_NAME of
 * sample.h, the flags say what kind of value it is, and v1 and v2 say
 * where each cgroup version keeps it.  The source's reader (the files it
 * opens, the keys it parses), the BPF pass (the slots it asks for), the
 * help's file names and the recording (the files it keeps) all follow
 * from these rows; the columns (columns.c) show them.
 *
 * flags:
 *   FF_MAX      a limit or protection: may be "max" (unlimited)
 *   FF_COUNTER  a cumulative counter: the model rates it
 * where a version keeps it:
 *   NONE               nowhere: not available on that version
 *   IN(cf, key)        control file CF_cf (cgfs_read.c names it per
 *                      version): the whole file when key is NULL, else the
 *                      number after key on its line; for the pressure file
 *                      "some" or "full" avg10, for cgroup.procs its lines
 *   PASS(cf, key, s)   the same, and the BPF pass (bpf/memcg_rec.h) carries
 *                      it in slot MR_s, so that the file is not read (a
 *                      memory.stat slot only once the loader proved its
 *                      word, cgfs_prove.c; the file until then)
 *   SLOT(s, key)       no file has it; the BPF pass carries it in slot
 *                      MR_s (a memory.stat slot once proven), else, for
 *                      a memory.stat slot, the reclaim events give it
 *                      (EVENTS); a recording keeps the pass's value as
 *                      memory.stat's line `key`, where replay reads it
 *   MADE(a, b)         made from FLD_a and FLD_b by the version's own code
 *                      (cgfs_read.c: v1 swap is memsw - usage ...)
 *   EVENTS(key)        given by the reclaim events (BPF tracepoints,
 *                      reclaim.h), no file; a recording keeps the values
 *                      as the line `key` of each group's memcgtop.events,
 *                      where replay reads them
 *
 * The order is the order of values in a packed sample (sample.h); it
 * means nothing else.
 */
#ifndef MEMCGTOP_FIELDS_H
#define MEMCGTOP_FIELDS_H

#include "memstat.h"

#define FF_MAX		(1U << 0)
#define FF_COUNTER	(1U << 1)

/* A memory.stat row (memstat.h) as a field: where each version keeps it. */
#define FIELD_MS_STAT(key, slot)	PASS(STAT, key, slot)
#define FIELD_MS_SLOT(key, slot)	SLOT(slot, key)
#define FIELD_MS_KMEM(key, slot)	PASS(KMEM, NULL, KMEM)
#define FIELD_MS_NONE(key, slot)	NONE
#define FIELD_MS_SIZE(X, NAME, v1, v1k, v2, v2k, ...)			\
	X(NAME, 0, FIELD_MS_##v1(v1k, ST_##NAME),			\
	  FIELD_MS_##v2(v2k, ST_##NAME))
#define FIELD_MS_COUNT(X, NAME, v1, v1k, v2, v2k, ...)			\
	X(NAME, FF_COUNTER, FIELD_MS_##v1(v1k, ST_##NAME),		\
	  FIELD_MS_##v2(v2k, ST_##NAME))

#define FIELDS(X)							\
	X(USAGE, 0, PASS(USAGE, NULL, USAGE), PASS(USAGE, NULL, USAGE))	\
	X(LIMIT, FF_MAX, PASS(LIMIT, NULL, MAX), PASS(LIMIT, NULL, MAX)) \
	X(HIGH, FF_MAX, NONE, PASS(HIGH, NULL, HIGH))			\
	X(LOW, FF_MAX, NONE, PASS(LOW, NULL, LOW))			\
	X(MIN, FF_MAX, NONE, PASS(MIN, NULL, MIN))			\
	X(SOFT, FF_MAX, PASS(SOFT, NULL, SOFT), NONE)			\
	X(SWAP, 0, MADE(USAGE, USAGE_SWAP), PASS(SWAPCUR, NULL, SWAP_USAGE)) \
	X(SWAP_LIMIT, FF_MAX, NONE, PASS(SWAPMAX, NULL, SWAP_MAX))	\
	X(SWAPPINESS, 0, PASS(SWAPPINESS, NULL, SWAPPINESS), NONE)	\
	/* memory.stat's values, a row each in memstat.h (the group's	\
	 * own LRU lists among them: v1's keys without total_; v2 has	\
	 * none, the model subtracts the children) */			\
	MEMSTATS(X, FIELD_MS_SIZE, FIELD_MS_COUNT, FIELD_MS_SIZE)	\
	X(EV_LOW, FF_COUNTER, NONE, PASS(EVENTS, "low", EV_LOW))	\
	X(EV_HIGH, FF_COUNTER, NONE, PASS(EVENTS, "high", EV_HIGH))	\
	X(EV_MAX, FF_COUNTER, NONE, PASS(EVENTS, "max", EV_MAX))	\
	X(EV_OOM, FF_COUNTER, NONE, PASS(EVENTS, "oom", EV_OOM))	\
	X(EV_OOM_KILL, FF_COUNTER, PASS(OOMCTL, "oom_kill", EV_OOM_KILL), \
	  PASS(EVENTS, "oom_kill", EV_OOM_KILL))			\
	X(FAILCNT, FF_COUNTER, PASS(FAILCNT, NULL, FAILCNT), NONE)	\
	/* PSI: hundredths of a percent */				\
	X(PSI_SOME10, 0, NONE, IN(PRESSURE, "some"))			\
	X(PSI_FULL10, 0, NONE, IN(PRESSURE, "full"))			\
	X(PROCS, 0, IN(PROCS, NULL), IN(PROCS, NULL))			\
	X(PEAK, 0, PASS(PEAK, NULL, PEAK), PASS(PEAK, NULL, PEAK))	\
	X(SWAP_PEAK, 0, NONE, IN(SWAPPEAK, NULL))			\
	/* memory + swap */						\
	X(USAGE_SWAP, 0, PASS(MEMSW, NULL, SWAP_USAGE), MADE(USAGE, SWAP)) \
	X(ZSWAP, 0, NONE, IN(ZSWAP, NULL))				\
	/* v2 memory.events.local */					\
	X(EVL_LOW, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "low"))		\
	X(EVL_HIGH, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "high"))		\
	X(EVL_MAX, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "max"))		\
	X(EVL_OOM, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "oom"))		\
	X(EVL_OOM_KILL, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "oom_kill"))	\
	/* v2 memory.swap.events */					\
	X(SWEV_HIGH, FF_COUNTER, NONE, PASS(SWAPEVENTS, "high", EV_SWAP_HIGH)) \
	X(SWEV_MAX, FF_COUNTER, NONE, PASS(SWAPEVENTS, "max", EV_SWAP_MAX)) \
	X(SWEV_FAIL, FF_COUNTER, NONE, PASS(SWAPEVENTS, "fail", EV_SWAP_FAIL)) \
	X(DYING, 0, NONE, IN(CGSTAT, "nr_dying_descendants"))		\
	/* memory.swap.max - swap.current, at least 0 */		\
	X(SWAP_ROOM, 0, NONE, MADE(SWAP, SWAP_LIMIT))			\
	/* memory.numa_stat kept whole: the value is the offset of its	\
	 * text in the refresh's snapshot.numa_text; the pass gives	\
	 * the lists it shows once proven (cgfs_pass.c), as that text */ \
	X(NUMA, 0, PASS(NUMA, NULL, ST_NODES), PASS(NUMA, NULL, ST_NODES)) \
	/* the lowest priority its own lists were scanned at in the	\
	 * interval, 0..12, soft-limit reclaim's left out */		\
	X(PRIO_MIN, 0, EVENTS("prio_min"), EVENTS("prio_min"))		\
	/* ... of it, kswapd's, and the other tasks' (direct) */	\
	X(PRIO_MIN_KSWAPD, 0, EVENTS("prio_min_kswapd"),		\
	  EVENTS("prio_min_kswapd"))					\
	X(PRIO_MIN_DIRECT, 0, EVENTS("prio_min_direct"),		\
	  EVENTS("prio_min_direct"))					\
	/* ... proactive reclaim's (memory.reclaim), and soft-limit	\
	 * reclaim's (always 0: the kernel's fixed priority) */		\
	X(PRIO_MIN_PROACTIVE, 0, EVENTS("prio_min_proactive"),		\
	  EVENTS("prio_min_proactive"))				\
	X(PRIO_MIN_SOFT, 0, EVENTS("prio_min_soft"), NONE)		\
	/* stats flushes of it that flushed (forced, or past the	\
	 * kernel's threshold), and every request */			\
	X(FLUSHES, FF_COUNTER, EVENTS("flushes"), EVENTS("flushes"))	\
	X(FLUSH_CALLS, FF_COUNTER, EVENTS("flush_calls"),		\
	  EVENTS("flush_calls"))					\
	/* milliseconds its tasks spent in direct and memcg reclaim */	\
	X(STALL, FF_COUNTER, EVENTS("reclaim_stall"),			\
	  EVENTS("reclaim_stall"))					\
	/* v1's soft-limit tree: the excess it orders the group by	\
	 * (the largest over the nodes' trees; 0: on none), and its	\
	 * place, 1 = reclaimed first (cgfs_pass.c soft_ranks) */	\
	X(SOFT_TREE, 0, SLOT(SOFT_TREE, "soft_tree_excess"), NONE)	\
	X(SOFT_RANK, 0, SLOT(SOFT_RANK, "soft_rank"), NONE)		\
	/* pages soft-limit reclaim scanned and took in the group and	\
	 * its descendants (between the vmscan softlimit_reclaim	\
	 * begin and end events) */					\
	X(SOFT_PGSCAN, FF_COUNTER, EVENTS("soft_pgscan"), NONE)	\
	X(SOFT_PGSTEAL, FF_COUNTER, EVENTS("soft_pgsteal"), NONE)	\
	/* v2: the effective protections the kernel stored at the last	\
	 * reclaim that visited the group (page_counter.emin, .elow) */ \
	X(EFF_MIN_LAST, 0, NONE, SLOT(EMIN, "eff_min_last"))		\
	X(EFF_LOW_LAST, 0, NONE, SLOT(ELOW, "eff_low_last"))		\
	/* stat updates pending a flush, as the kernel counts them for	\
	 * its flush threshold (6.8+) */				\
	X(STATS_PENDING, 0, SLOT(STATS_PENDING, "stats_pending"),	\
	  SLOT(STATS_PENDING, "stats_pending"))

#endif
