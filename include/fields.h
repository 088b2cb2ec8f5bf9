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
 *                      it in slot MR_s, so that the file is not read
 *   MADE(a, b)         made from FLD_a and FLD_b by the version's own code
 *                      (cgfs_read.c: v1 swap is memsw - usage ...)
 *   EVENTS             given by the reclaim events (BPF tracepoints,
 *                      reclaim.h), no file
 *
 * The order is the order of values in a packed sample (sample.h); it
 * means nothing else.
 */
#ifndef MEMCGTOP_FIELDS_H
#define MEMCGTOP_FIELDS_H

#define FF_MAX		(1U << 0)
#define FF_COUNTER	(1U << 1)

#define FIELDS(X)							\
	X(USAGE, 0, PASS(USAGE, NULL, USAGE), PASS(USAGE, NULL, USAGE)) \
	X(LIMIT, FF_MAX, PASS(LIMIT, NULL, MAX), PASS(LIMIT, NULL, MAX)) \
	X(HIGH, FF_MAX, NONE, PASS(HIGH, NULL, HIGH))			\
	X(LOW, FF_MAX, NONE, PASS(LOW, NULL, LOW))			\
	X(MIN, FF_MAX, NONE, PASS(MIN, NULL, MIN))			\
	X(SOFT, FF_MAX, PASS(SOFT, NULL, SOFT), NONE)			\
	X(SWAP, 0, MADE(USAGE, USAGE_SWAP), PASS(SWAPCUR, NULL, SWAP_USAGE)) \
	X(SWAP_LIMIT, FF_MAX, NONE, PASS(SWAPMAX, NULL, SWAP_MAX))	\
	X(SWAPPINESS, 0, PASS(SWAPPINESS, NULL, SWAPPINESS), NONE)	\
	X(ANON, 0, IN(STAT, "total_rss"), IN(STAT, "anon"))	\
	X(FILE, 0, IN(STAT, "total_cache"), IN(STAT, "file"))	\
	X(SHMEM, 0, IN(STAT, "total_shmem"), IN(STAT, "shmem"))	\
	X(KERNEL, 0, PASS(KMEM, NULL, KMEM), IN(STAT, "kernel"))	\
	X(ACTIVE_ANON, 0, IN(STAT, "total_active_anon"),		\
	  IN(STAT, "active_anon"))					\
	X(INACTIVE_ANON, 0, IN(STAT, "total_inactive_anon"),		\
	  IN(STAT, "inactive_anon"))					\
	X(ACTIVE_FILE, 0, IN(STAT, "total_active_file"),		\
	  IN(STAT, "active_file"))					\
	X(INACTIVE_FILE, 0, IN(STAT, "total_inactive_file"),		\
	  IN(STAT, "inactive_file"))					\
	X(UNEVICTABLE, 0, IN(STAT, "total_unevictable"),		\
	  IN(STAT, "unevictable"))					\
	X(PGSCAN, FF_COUNTER, EVENTS, IN(STAT, "pgscan"))		\
	X(PGSTEAL, FF_COUNTER, EVENTS, IN(STAT, "pgsteal"))		\
	X(PGSCAN_KSWAPD, FF_COUNTER, EVENTS, IN(STAT, "pgscan_kswapd")) \
	X(PGSCAN_DIRECT, FF_COUNTER, EVENTS, IN(STAT, "pgscan_direct")) \
	X(PGSTEAL_KSWAPD, FF_COUNTER, EVENTS, IN(STAT, "pgsteal_kswapd")) \
	X(PGSTEAL_DIRECT, FF_COUNTER, EVENTS, IN(STAT, "pgsteal_direct")) \
	X(REFAULT_ANON, FF_COUNTER, IN(STAT, "total_workingset_refault_anon"), \
	  IN(STAT, "workingset_refault_anon"))			\
	X(REFAULT_FILE, FF_COUNTER, IN(STAT, "total_workingset_refault_file"), \
	  IN(STAT, "workingset_refault_file"))			\
	X(PGFAULT, FF_COUNTER, IN(STAT, "total_pgfault"), IN(STAT, "pgfault")) \
	X(PGMAJFAULT, FF_COUNTER, IN(STAT, "total_pgmajfault"),	\
	  IN(STAT, "pgmajfault"))					\
	X(EV_LOW, FF_COUNTER, NONE, PASS(EVENTS, "low", EV_LOW))	\
	X(EV_HIGH, FF_COUNTER, NONE, PASS(EVENTS, "high", EV_HIGH))	\
	X(EV_MAX, FF_COUNTER, NONE, PASS(EVENTS, "max", EV_MAX))	\
	X(EV_OOM, FF_COUNTER, NONE, PASS(EVENTS, "oom", EV_OOM))	\
	X(EV_OOM_KILL, FF_COUNTER, IN(OOMCTL, "oom_kill"),		\
	  PASS(EVENTS, "oom_kill", EV_OOM_KILL))			\
	X(FAILCNT, FF_COUNTER, PASS(FAILCNT, NULL, FAILCNT), NONE)	\
	/* PSI: hundredths of a percent */				\
	X(PSI_SOME10, 0, NONE, IN(PRESSURE, "some"))			\
	X(PSI_FULL10, 0, NONE, IN(PRESSURE, "full"))			\
	X(PROCS, 0, IN(PROCS, NULL), IN(PROCS, NULL))		\
	X(PEAK, 0, PASS(PEAK, NULL, PEAK), PASS(PEAK, NULL, PEAK))	\
	X(SWAP_PEAK, 0, NONE, IN(SWAPPEAK, NULL))			\
	/* memory + swap */						\
	X(USAGE_SWAP, 0, PASS(MEMSW, NULL, SWAP_USAGE), MADE(USAGE, SWAP)) \
	X(ZSWAP, 0, NONE, IN(ZSWAP, NULL))				\
	X(ZSWAPPED, 0, NONE, IN(STAT, "zswapped"))			\
	/* v2 memory.events.local */					\
	X(EVL_LOW, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "low"))		\
	X(EVL_HIGH, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "high"))	\
	X(EVL_MAX, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "max"))		\
	X(EVL_OOM, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "oom"))		\
	X(EVL_OOM_KILL, FF_COUNTER, NONE, IN(EVENTS_LOCAL, "oom_kill")) \
	/* v2 memory.swap.events */					\
	X(SWEV_HIGH, FF_COUNTER, NONE, PASS(SWAPEVENTS, "high", EV_SWAP_HIGH)) \
	X(SWEV_MAX, FF_COUNTER, NONE, PASS(SWAPEVENTS, "max", EV_SWAP_MAX)) \
	X(SWEV_FAIL, FF_COUNTER, NONE, PASS(SWAPEVENTS, "fail", EV_SWAP_FAIL)) \
	X(DYING, 0, NONE, IN(CGSTAT, "nr_dying_descendants"))	\
	/* The group's own LRU lists, without its descendants' (v1's	\
	 * memory.stat keys without total_; v2 has none: the model	\
	 * subtracts the children). */					\
	X(OWN_ACTIVE_ANON, 0, IN(STAT, "active_anon"), NONE)		\
	X(OWN_INACTIVE_ANON, 0, IN(STAT, "inactive_anon"), NONE)	\
	X(OWN_ACTIVE_FILE, 0, IN(STAT, "active_file"), NONE)		\
	X(OWN_INACTIVE_FILE, 0, IN(STAT, "inactive_file"), NONE)	\
	/* memory.swap.max - swap.current, at least 0 */		\
	X(SWAP_ROOM, 0, NONE, MADE(SWAP, SWAP_LIMIT))			\
	/* memory.numa_stat kept whole: the value is the offset of its	\
	 * text in the refresh's snapshot.numa_text */			\
	X(NUMA, 0, IN(NUMA, NULL), IN(NUMA, NULL))			\
	/* the lowest priority its own lists were scanned at in the	\
	 * interval, 0..12 */						\
	X(PRIO_MIN, 0, EVENTS, EVENTS)					\
	/* stats flush requests on it */				\
	X(FLUSHES, FF_COUNTER, EVENTS, EVENTS)

#endif
