/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysfig.c - the table of the system figures: a row per figure. */
#include <stddef.h>

#include "sysfig.h"

/* Where a figure stands in the text header and in the screen's. */
#define TEXT(l, pre, post) .at[SYS_AT_TEXT] = { l, pre, post }
#define SCREEN(l, pre, post) .at[SYS_AT_SCREEN] = { l, pre, post }

/*
 * The text header reads "Mem: 457M total, 259M available, 120M free
 * (watermarks low 82.6M high 99.1M)  Swap: 33.0M used of 256M", then
 * "Reclaim: pgscan 3.2k/s, pgsteal 3.1k/s  Pressure: some 0.87 full
 * 0.00"; the screen has them on one line, shorter, without
 * free memory and the watermarks (80 columns hold no more), and the
 * reclaim events' on a line of their own while they are loaded.
 */
const struct sysfig sysfigs[] = {
	[SYS_MEM_TOTAL] = {
		.unit = SU_BYTES, .n = 1,
		.json = "mem_total",
		.om = "memcgtop_system_mem_total_bytes",
		.help = "MemTotal from /proc/meminfo",
		TEXT(1, "Mem: ", " total"),
		SCREEN(1, "Mem ", ""),
	},
	[SYS_MEM_AVAILABLE] = {
		.unit = SU_BYTES, .n = 1,
		.json = "mem_available",
		.om = "memcgtop_system_mem_available_bytes",
		.help = "MemAvailable from /proc/meminfo",
		TEXT(1, ", ", " available"),
		SCREEN(1, " avail ", ""),
	},
	[SYS_MEM_FREE] = {
		.unit = SU_BYTES, .n = 1,
		.json = "mem_free",
		.om = "memcgtop_system_mem_free_bytes",
		.help = "MemFree from /proc/meminfo",
		TEXT(1, ", ", " free"),
	},
	[SYS_WMARK_LOW] = {
		.unit = SU_BYTES, .n = 1,
		.json = "wmark_low",
		.om = "memcgtop_system_wmark_low_bytes",
		.help = "the low watermarks of every zone (/proc/zoneinfo), "
			"summed: kswapd wakes when a zone's free memory falls "
			"below its low",
		TEXT(1, " (watermarks low ", ""),
	},
	[SYS_WMARK_HIGH] = {
		.unit = SU_BYTES, .n = 1,
		.json = "wmark_high",
		.om = "memcgtop_system_wmark_high_bytes",
		.help = "the high watermarks of every zone (/proc/zoneinfo), "
			"summed: kswapd reclaims until free memory is above "
			"them",
		TEXT(1, " high ", ")"),
	},
	[SYS_SWAP_USED] = {
		.unit = SU_BYTES, .n = 1,
		.help = "swap used: SwapTotal - SwapFree",
		TEXT(1, "  Swap: ", " used"),
		SCREEN(1, "  Swap ", ""),
	},
	[SYS_SWAP_TOTAL] = {
		.unit = SU_BYTES, .n = 1,
		.json = "swap_total",
		.om = "memcgtop_system_swap_total_bytes",
		.help = "SwapTotal from /proc/meminfo",
		TEXT(1, " of ", ""),
		SCREEN(1, "/", ""),
	},
	[SYS_SWAP_FREE] = {
		.unit = SU_BYTES, .n = 1,
		.json = "swap_free",
		.om = "memcgtop_system_swap_free_bytes",
		.help = "SwapFree from /proc/meminfo",
	},
	[SYS_PGSCAN] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgscan_per_s",
		.om = "memcgtop_system_pgscan",
		.help = "pages scanned by reclaim, system-wide (/proc/vmstat)",
		TEXT(2, "Reclaim: pgscan ", "/s"),
		SCREEN(1, "  Scan ", "/s"),
	},
	[SYS_PGSTEAL] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgsteal_per_s",
		.om = "memcgtop_system_pgsteal",
		.help = "pages reclaimed, system-wide (/proc/vmstat)",
		TEXT(2, ", pgsteal ", "/s"),
		SCREEN(1, " Steal ", "/s"),
	},
	/* The parts of pgscan, which add up to it (sysinfo.c set_reclaim),
	 * on the screen's first line after the kswapd time. */
	[SYS_PGSCAN_KSWAPD] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgscan_kswapd_per_s",
		.om = "memcgtop_system_pgscan_kswapd",
		.help = "of pgscan, kswapd's global reclaim (/proc/vmstat "
			"pgscan_kswapd; up to Linux 7.2 without memcg-targeted "
			"reclaim)",
		SCREEN(1, "  Scan: kswapd ", ""),
	},
	[SYS_PGSCAN_DIRECT] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgscan_direct_per_s",
		.om = "memcgtop_system_pgscan_direct",
		.help = "of pgscan, global direct reclaim by tasks short of "
			"memory (/proc/vmstat pgscan_direct; up to Linux 7.2 "
			"without memcg-targeted reclaim)",
		SCREEN(1, " direct ", ""),
	},
	[SYS_PGSCAN_KHUGEPAGED] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgscan_khugepaged_per_s",
		.om = "memcgtop_system_pgscan_khugepaged",
		.help = "of pgscan, khugepaged's global reclaim (/proc/vmstat "
			"pgscan_khugepaged, Linux 6.2+; before, in "
			"pgscan_direct)",
		SCREEN(1, " khugepaged ", ""),
	},
	[SYS_PGSCAN_PROACTIVE] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgscan_proactive_per_s",
		.om = "memcgtop_system_pgscan_proactive",
		.help = "of pgscan, proactive reclaim not aimed at a group "
			"(/proc/vmstat pgscan_proactive, Linux 6.13+)",
		SCREEN(1, " proactive ", ""),
	},
	[SYS_PGSCAN_MEMCG] = {
		.unit = SU_COUNTER, .n = 1,
		.json = "pgscan_memcg_per_s",
		.om = "memcgtop_system_pgscan_memcg",
		.help = "of pgscan, memcg-targeted reclaim: a group's limit or "
			"high, v1 soft-limit reclaim, a group's memory.reclaim; "
			"the rest of /proc/vmstat pgscan_anon + pgscan_file "
			"(0 from Linux 7.3, whose reclaimers' counters hold it)",
		SCREEN(1, " memcg ", "/s"),
	},
	[SYS_PSI_SOME10] = {
		.unit = SU_PSI, .n = 1,
		.json = "psi_some_avg10",
		.om = "memcgtop_system_psi_some_avg10",
		.help = "system memory pressure, some, avg10 (percent)",
		TEXT(2, "  Pressure: some ", ""),
		SCREEN(1, " PSI ", ""),
	},
	[SYS_PSI_FULL10] = {
		.unit = SU_PSI, .n = 1,
		.json = "psi_full_avg10",
		.om = "memcgtop_system_psi_full_avg10",
		.help = "system memory pressure, full, avg10 (percent)",
		TEXT(2, " full ", ""),
		SCREEN(1, "/", ""),
	},
	[SYS_KSWAPD_MS] = {
		.unit = SU_COUNTER, .n = 1, .flags = SF_LOADED,
		.json = "kswapd_ms_per_s",
		.om = "memcgtop_system_kswapd_cpu",
		.help = "CPU time of the kswapd threads, milliseconds "
			"(/proc/PID/stat utime + stime)",
		TEXT(2, "  kswapd ", " ms/s"),
		SCREEN(1, " kswapd ", "ms/s"),
	},
	[SYS_LRU_GEN] = {
		.unit = SU_FLAG, .n = 1,
		.help = "/sys/kernel/mm/lru_gen/enabled: non-zero while the "
			"multi-gen LRU runs (scan_prio does not hold then)",
	},
	[SYS_SCAN_PRIO] = {
		.unit = SU_COUNTER, .n = SYS_NPRIO,
		.flags = SF_LOADED | SF_LAST_FIRST,
		.json = "scan_by_priority",
		.om = "memcgtop_system_scan_by_priority",
		.label = "priority",
		.help = "pages scanned by reclaim at each priority (12 down to "
			"0), system-wide, since memcgtop loaded its BPF events "
			"(vmscan:mm_vmscan_lru_shrink_inactive), soft-limit "
			"reclaim's left out (soft_scan_by_priority)",
		SCREEN(2, "Scan by priority/s: ", ""),
	},
	[SYS_SOFT_SCAN_PRIO] = {
		.unit = SU_COUNTER, .n = SYS_NPRIO,
		.flags = SF_LOADED | SF_LAST_FIRST,
		.json = "soft_scan_by_priority",
		.om = "memcgtop_system_soft_scan_by_priority",
		.label = "priority",
		.help = "v1: pages soft-limit reclaim scanned at each priority, "
			"system-wide, not in scan_by_priority: all at 0, the "
			"priority the kernel gives it (mem_cgroup_shrink_node), "
			"not a sign of trouble",
		SCREEN(2, "  soft ", ""),
	},
	[SYS_SUB_SCAN_PRIO] = {
		.unit = SU_COUNTER, .n = SYS_NPRIO,
		.flags = SF_LOADED | SF_LAST_FIRST,
		.json = "subtree_scan_by_priority",
		.om = "memcgtop_system_subtree_scan_by_priority",
		.label = "priority",
		.help = "of them, the pages of the shown subtree's groups' own "
			"lists (the start group and its descendants within "
			"--depth), as the shrink events were given to groups",
		SCREEN(2, "  subtree ", ""),
	},
	[SYS_FLUSHES] = {
		.unit = SU_COUNTER, .n = 1, .flags = SF_LOADED,
		.json = "flushes_per_s",
		.om = "memcgtop_system_flushes",
		.help = "memory cgroup stats flushes that flushed (forced, or "
			"with more pending updates than the kernel's "
			"threshold), system-wide, since memcgtop loaded its "
			"BPF events (memcg:memcg_flush_stats with force or "
			"needs_flush)",
		SCREEN(2, "  Flushes ", "/s"),
	},
	[SYS_OWN_FLUSHES] = {
		.unit = SU_COUNTER, .n = 1, .flags = SF_LOADED,
		.json = "own_flushes_per_s",
		.om = "memcgtop_system_own_flushes",
		.help = "of them, those memcgtop's own reads made",
		SCREEN(2, " (own ", "/s)"),
	},
	[SYS_FLUSH_CALLS] = {
		.unit = SU_COUNTER, .n = 1, .flags = SF_LOADED,
		.json = "flush_calls_per_s",
		.om = "memcgtop_system_flush_calls",
		.help = "memory cgroup stats flush requests, flushing or not "
			"(most return at once: too few pending updates), "
			"system-wide (memcg:memcg_flush_stats)",
		SCREEN(2, " of ", " calls/s"),
	},
	[SYS_OWN_FLUSH_CALLS] = {
		.unit = SU_COUNTER, .n = 1, .flags = SF_LOADED,
		.json = "own_flush_calls_per_s",
		.om = "memcgtop_system_own_flush_calls",
		.help = "of them, those memcgtop's own reads made",
		SCREEN(2, " (own ", "/s)"),
	},
	[SYS_FLUSH_THRESHOLD] = {
		.unit = SU_NUMBER, .n = 1, .flags = SF_LOADED,
		.json = "flush_threshold",
		.om = "memcgtop_system_flush_threshold",
		.help = "the pending statistics updates above which a read "
			"flushes them: 64 (MEMCG_CHARGE_BATCH) x the online "
			"CPUs; given with the flush figures",
		SCREEN(2, " threshold ", ""),
	},
};

/* A row for every id (the later ids of an array have an empty one): the
 * last id's row is the last row.  A row left out in the middle is found
 * by the unit tests (check_sysfig.c). */
_Static_assert(sizeof(sysfigs) / sizeof(sysfigs[0]) == SYS_NR,
	       "the table of system figures and enum sysfield differ");

uint64_t sysfig_ids(int id)
{
	int n = sysfigs[id].n;

	return n <= 0 ? 0 : (~UINT64_C(0) >> (64 - n)) << id;
}

uint64_t sysfig_counters(void)
{
	uint64_t ids = 0;

	for (int id = 0; id < SYS_NR; id++)
		if (sysfigs[id].unit == SU_COUNTER)
			ids |= sysfig_ids(id);
	return ids;
}
