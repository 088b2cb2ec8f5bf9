/* SPDX-License-Identifier: GPL-2.0-or-later */
/* columns.c - the column table, values, comparison and formatting. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgfs.h"
#include "columns.h"
#include "xalloc.h"
#include "fmt.h"
#include "parse.h"
#include "rightsize.h"

#define RAW(k, t, w, u, f, h) \
	{ k, t, w, u, f, -1, FBIT(f), h, CK_VALUE }
#define RATE(k, t, f, h) \
	{ k "_per_s", t, 7, U_RATE, f, -1, FBIT(f), h, CK_VALUE }
#define DER(k, t, w, u, d, need, h) \
	{ k, t, w, u, -1, d, need, h, CK_VALUE }
/* memory.stat's values: each row of memstat.h its column(s). */
#define COL_SIZE(X, NAME, v1, v1k, v2, v2k, unit, kf, item, k, t, w, h) \
	RAW(k, t, w, U_BYTES, FLD_##NAME, h),
#define COL_COUNT(X, NAME, v1, v1k, v2, v2k, kf, item, k, t, w, h, rt, rh) \
	RAW(k, t, w, U_COUNT, FLD_##NAME, h), RATE(k, rt, FLD_##NAME, rh),
#define COL_OWN(...)

const struct column columns[] = {
	{ "path", "GROUP", 0, U_PATH, -1, -1, 0,
	  "the group's path below the hierarchy root (\"/\" is the root)",
	  CK_PATH },
	{ "depth", "DEP", 3, U_INT, -1, -1, 0,
	  "levels below the hierarchy root (the root is 0)", CK_DEPTH },
	RAW("usage", "USAGE", 6, U_BYTES, FLD_USAGE,
	    "memory charged to the group and its descendants: v1 "
	    "memory.usage_in_bytes (v1 root: plus memory.kmem.usage_in_bytes), "
	    "v2 memory.current (v2 root: memory.stat anon + file + kernel + "
	    "sock)"),
	RAW("limit", "LIMIT", 6, U_BYTES, FLD_LIMIT,
	    "hard limit: v1 memory.limit_in_bytes, v2 memory.max"),
	RAW("high", "HIGH", 6, U_BYTES, FLD_HIGH,
	    "v2 memory.high: above it the group is throttled and reclaimed"),
	RAW("low", "LOW", 6, U_BYTES, FLD_LOW,
	    "v2 memory.low: best-effort protection from reclaim"),
	RAW("min", "MIN", 6, U_BYTES, FLD_MIN,
	    "v2 memory.min: hard protection from reclaim"),
	RAW("soft", "SOFT", 6, U_BYTES, FLD_SOFT,
	    "v1 memory.soft_limit_in_bytes: reclaimed down toward it first "
	    "under global pressure, where soft-limit reclaim runs (global "
	    "reclaim of order-0 pages on the classic LRU; soft_pgscan shows "
	    "whether it does)"),
	DER("excess", "EXCESS", 6, U_BYTES, D_EXCESS,
	    FBIT(FLD_USAGE) | FBIT(FLD_SOFT) | FBIT(FLD_LOW) | FBIT(FLD_MIN),
	    "v1: usage above the soft limit (0 when unlimited), what "
	    "soft-limit reclaim aims at, which runs only in global reclaim "
	    "of order-0 pages on the classic LRU; v2: what reclaim may take, "
	    "usage above its effective low (eff_low; above memory.low where "
	    "that is not known: a start group below the top level)"),
	DER("eff_min", "EMIN", 6, U_BYTES, D_EFF_MIN,
	    FBIT(FLD_USAGE) | FBIT(FLD_MIN) | FBIT(FLD_LOW),
	    "v2 effective memory.min: the hard protection reclaim from the "
	    "root gives the group now, computed top-down by the kernel's rules "
	    "(a top-level group its own; below, its share of its parent's, "
	    "shared in proportion to protected usage when overcommitted, "
	    "with memory_recursiveprot the unclaimed rest in proportion to "
	    "unprotected usage); 0 when it uses nothing"),
	DER("eff_low", "ELOW", 6, U_BYTES, D_EFF_LOW,
	    FBIT(FLD_USAGE) | FBIT(FLD_MIN) | FBIT(FLD_LOW),
	    "v2 effective memory.low: the best-effort protection reclaim "
	    "from the root gives the group now, as eff_min computes it"),
	DER("eff_limit", "EFFLIM", 6, U_BYTES, D_EFF_LIMIT,
	    FBIT(FLD_LIMIT),
	    "effective limit, the smallest memory limit on the path to the "
	    "root (v1 memory.limit_in_bytes, v2 memory.max)"),
	DER("use_pct", "USE%", 5, U_PCT, D_USE_PCT,
	    FBIT(FLD_USAGE) | FBIT(FLD_LIMIT),
	    "usage as a percentage of the effective limit"),
	RAW("swap", "SWAP", 6, U_BYTES, FLD_SWAP,
	    "swap used: v1 memory.memsw.usage_in_bytes minus usage (at most "
	    "the host's SwapTotal; or memory.stat total_swap), v2 "
	    "memory.swap.current"),
	RAW("swap_limit", "SWPMAX", 6, U_BYTES, FLD_SWAP_LIMIT,
	    "v2 memory.swap.max"),
	RAW("swappiness", "SWPNS", 5, U_INT, FLD_SWAPPINESS,
	    "v1 memory.swappiness"),
	MEMSTAT_SIZES(_, COL_SIZE, COL_COUNT, COL_OWN)
	MEMSTAT_SCAN(_, COL_SIZE, COL_COUNT, COL_OWN)
	DER("reclaim_eff", "EFF", 5, U_RATIO, D_RECLAIM_EFF,
	    FBIT(FLD_PGSCAN) | FBIT(FLD_PGSTEAL),
	    "reclaim efficiency over the interval: pages reclaimed / pages "
	    "scanned (not available when nothing was scanned)"),
	MEMSTAT_FAULTS(_, COL_SIZE, COL_COUNT, COL_OWN)
	RAW("ev_low", "EVLOW", 7, U_COUNT, FLD_EV_LOW,
	    "v2 memory.events low: reclaimed although below memory.low"),
	RATE("ev_low", "LOW/s", FLD_EV_LOW, "memory.events low per second"),
	RAW("ev_high", "EVHIGH", 7, U_COUNT, FLD_EV_HIGH,
	    "v2 memory.events high: throttled above memory.high"),
	RATE("ev_high", "HIGH/s", FLD_EV_HIGH, "memory.events high per second"),
	RAW("ev_max", "EVMAX", 7, U_COUNT, FLD_EV_MAX,
	    "v2 memory.events max: usage about to go over memory.max"),
	RATE("ev_max", "MAX/s", FLD_EV_MAX, "memory.events max per second"),
	RAW("ev_oom", "EVOOM", 6, U_COUNT, FLD_EV_OOM,
	    "v2 memory.events oom: allocations that failed at the limit"),
	RATE("ev_oom", "OOM/s", FLD_EV_OOM, "memory.events oom per second"),
	RAW("ev_oom_kill", "OOMKILL", 7, U_COUNT, FLD_EV_OOM_KILL,
	    "processes killed by the OOM killer in the group: v1 "
	    "memory.oom_control oom_kill (the group's own kills only, so "
	    "kills in a subgroup removed before the next refresh are not "
	    "seen), v2 memory.events oom_kill (its subgroups' too, removed "
	    "ones included)"),
	RATE("ev_oom_kill", "KILL/s", FLD_EV_OOM_KILL, "OOM kills per second"),
	RAW("failcnt", "FAILCNT", 8, U_COUNT, FLD_FAILCNT,
	    "v1 memory.failcnt: times usage hit the limit"),
	RATE("failcnt", "FAIL/s", FLD_FAILCNT, "memory.failcnt per second"),
	DER("failcnt_tree", "HFAILS", 8, U_COUNT, D_FAILCNT_TREE,
	    FBIT(FLD_FAILCNT),
	    "v1 memory.failcnt of the group and its descendants (the file "
	    "counts the group's own limit hits only): a parent leads to the "
	    "group below it that hits its limit; not with --depth's cut"),
	DER("failcnt_tree_per_s", "HFAIL/s", 7, U_RATE, D_FAILCNT_TREE_RATE,
	    FBIT(FLD_FAILCNT),
	    "failcnt_tree per second: the known rates of the group and its "
	    "descendants, summed"),
	RAW("psi_some_avg10", "PSI-S", 6, U_PSI, FLD_PSI_SOME10,
	    "v2 memory.pressure some avg10: percent of the last 10 s in which "
	    "some task waited for memory"),
	RAW("psi_full_avg10", "PSI-F", 6, U_PSI, FLD_PSI_FULL10,
	    "v2 memory.pressure full avg10: percent of the last 10 s in which "
	    "all tasks waited for memory"),
	RAW("procs", "PROCS", 5, U_INT, FLD_PROCS,
	    "processes in the group itself (lines of cgroup.procs)"),
	RAW("peak", "PEAK", 6, U_BYTES, FLD_PEAK,
	    "highest usage recorded: v1 memory.max_usage_in_bytes, v2 "
	    "memory.peak (5.19+)"),
	RAW("swap_peak", "SWPEAK", 6, U_BYTES, FLD_SWAP_PEAK,
	    "highest swap usage recorded: v2 memory.swap.peak (6.5+)"),
	RAW("usage_swap", "MEM+SW", 6, U_BYTES, FLD_USAGE_SWAP,
	    "memory and swap: v1 memory.memsw.usage_in_bytes (v1 root: plus "
	    "memory.kmem.usage_in_bytes), v2 memory.current + "
	    "memory.swap.current"),
	DER("workingset", "WSET", 6, U_BYTES, D_WORKINGSET,
	    FBIT(FLD_USAGE) | FBIT(FLD_INACTIVE_FILE),
	    "working set as cadvisor and the kubelet define it: usage minus "
	    "the inactive file list (v1 total_inactive_file), at least 0"),
	DER("rec_limit", "RECLIM", 6, U_BYTES, D_REC_LIMIT, RS_FIELDS,
	    "recommended hard limit (v1 memory.limit_in_bytes, v2 "
	    "memory.max): the peak of the group's need over the window "
	    "(anon + shmem + unreclaimable kernel memory + active file, and "
	    "as much again of its page cache as its refaults say it lacked) "
	    "plus the margin (--rec-margin); the window is the screen's "
	    "history, a batch run's refreshes or a whole recording"),
	DER("rec_high", "RECHIGH", 7, U_BYTES, D_REC_HIGH,
	    RS_FIELDS | FBIT(FLD_HIGH),
	    "v2: recommended memory.high: the 90th percentile of the need "
	    "over the window plus the margin, at most rec_limit"),
	DER("rec_low", "RECLOW", 6, U_BYTES, D_REC_LOW,
	    RS_FIELDS | FBIT(FLD_HIGH),
	    "v2: recommended memory.low, for a group whose memory.low or "
	    "memory.min is set below its need: rec_high"),
	RAW("zswap", "ZSWAP", 6, U_BYTES, FLD_ZSWAP,
	    "compressed swap pool used: v2 memory.zswap.current"),
	MEMSTAT_ZSWAP(_, COL_SIZE, COL_COUNT, COL_OWN)
	RAW("ev_low_local", "LOWL", 7, U_COUNT, FLD_EVL_LOW,
	    "v2 memory.events.local low: in the group itself, not its "
	    "descendants"),
	RATE("ev_low_local", "LOWL/s", FLD_EVL_LOW,
	     "memory.events.local low per second"),
	RAW("ev_high_local", "HIGHL", 7, U_COUNT, FLD_EVL_HIGH,
	    "v2 memory.events.local high"),
	RATE("ev_high_local", "HIGHL/s", FLD_EVL_HIGH,
	     "memory.events.local high per second"),
	RAW("ev_max_local", "MAXL", 7, U_COUNT, FLD_EVL_MAX,
	    "v2 memory.events.local max"),
	RATE("ev_max_local", "MAXL/s", FLD_EVL_MAX,
	     "memory.events.local max per second"),
	RAW("ev_oom_local", "OOML", 7, U_COUNT, FLD_EVL_OOM,
	    "v2 memory.events.local oom"),
	RATE("ev_oom_local", "OOML/s", FLD_EVL_OOM,
	     "memory.events.local oom per second"),
	RAW("ev_oom_kill_local", "KILLL", 7, U_COUNT, FLD_EVL_OOM_KILL,
	    "v2 memory.events.local oom_kill: OOM kills of the group's own "
	    "processes"),
	RATE("ev_oom_kill_local", "KILLL/s", FLD_EVL_OOM_KILL,
	     "memory.events.local oom_kill per second"),
	RAW("swap_ev_high", "SWHIGH", 7, U_COUNT, FLD_SWEV_HIGH,
	    "v2 memory.swap.events high: swap usage went over "
	    "memory.swap.high"),
	RATE("swap_ev_high", "SWHI/s", FLD_SWEV_HIGH,
	     "memory.swap.events high per second"),
	RAW("swap_ev_max", "SWMAX", 7, U_COUNT, FLD_SWEV_MAX,
	    "v2 memory.swap.events max: swap usage about to go over "
	    "memory.swap.max"),
	RATE("swap_ev_max", "SWMX/s", FLD_SWEV_MAX,
	     "memory.swap.events max per second"),
	RAW("swap_ev_fail", "SWFAIL", 7, U_COUNT, FLD_SWEV_FAIL,
	    "v2 memory.swap.events fail: swap allocations that failed"),
	RATE("swap_ev_fail", "SWFL/s", FLD_SWEV_FAIL,
	     "memory.swap.events fail per second"),
	RAW("dying", "DYING", 5, U_INT, FLD_DYING,
	    "v2 cgroup.stat nr_dying_descendants: removed groups the kernel "
	    "still holds"),
	DER("scan_prio", "PFLOOR", 6, U_INT, D_SCAN_PRIO,
	    FBIT(FLD_ACTIVE_ANON) | FBIT(FLD_INACTIVE_ANON) |
	    FBIT(FLD_ACTIVE_FILE) | FBIT(FLD_INACTIVE_FILE) |
	    FBIT(FLD_OWN_ACTIVE_ANON) | FBIT(FLD_OWN_INACTIVE_ANON) |
	    FBIT(FLD_OWN_ACTIVE_FILE) | FBIT(FLD_OWN_INACTIVE_FILE) |
	    FBIT(FLD_SWAP_ROOM),
	    "scan-priority floor, computed from list sizes, not a priority "
	    "reclaim was seen at (that is PRIO): min(12, floor(log2(P))), P "
	    "the largest of "
	    "the group's own evictable LRU lists in 4 KiB pages (anon lists "
	    "only where swap can take pages); the highest priority at which "
	    "classic LRU reclaim scans any of them (not available under the "
	    "multi-gen LRU)"),
	RAW("prio_min", "PRIO", 4, U_INT, FLD_PRIO_MIN,
	    "lowest reclaim priority (12 down to 0) at which the group's own "
	    "LRU lists were scanned in the interval, from the kernel's "
	    "vmscan:mm_vmscan_lru_shrink_inactive events (BPF, Linux 6.13+, "
	    "root; either version), soft-limit reclaim's scans left out "
	    "(prio_min_soft: the kernel fixes its priority at 0); not "
	    "available when they were not scanned"),
	RAW("reclaim_stall", "STALLMS", 8, U_COUNT, FLD_STALL,
	    "milliseconds the group's own tasks spent in reclaim: direct "
	    "reclaim and memcg reclaim (a limit, high, memory.reclaim), "
	    "from the kernel's vmscan begin and end events (BPF, root; either "
	    "version); v1's stand-in for per-group pressure"),
	RATE("reclaim_stall", "STALL/s", FLD_STALL,
	     "reclaim_stall per second: milliseconds of reclaim a second"),
	RAW("soft_tree_excess", "STREE", 6, U_BYTES, FLD_SOFT_TREE,
	    "v1: the excess the kernel's soft-limit tree holds for the group, "
	    "what soft-limit reclaim orders groups by (the largest over the "
	    "NUMA nodes' trees; 0: on no tree): usage above the soft limit "
	    "as of the group's last update, every 1,024 page charges or "
	    "uncharges, so it lags EXCESS; from the BPF pass only; not "
	    "available under the multi-gen LRU, which keeps no tree"),
	RAW("soft_rank", "SRANK", 5, U_INT, FLD_SOFT_RANK,
	    "v1: the group's place on the soft-limit tree, 1 = reclaimed "
	    "first (the best over the nodes' trees; groups of equal excess "
	    "share a place); not available for a group on no tree, for a "
	    "start group below the hierarchy root (the tree holds groups "
	    "outside it), without the BPF pass, or under the multi-gen LRU"),
	RAW("soft_pgscan", "SSCAN", 8, U_COUNT, FLD_SOFT_PGSCAN,
	    "v1: pages soft-limit reclaim scanned in the group and its "
	    "descendants since memcgtop loaded its reclaim events (the "
	    "kernel's vmscan softlimit_reclaim begin/end events bracket the "
	    "PGSCAN counts; BPF, Linux 6.13+, root).  Soft-limit reclaim "
	    "runs only from global reclaim of order-0 pages (kswapd or "
	    "direct) on the classic LRU: 0 while only limits reclaim, for "
	    "large-folio readahead, and under the multi-gen LRU"),
	RATE("soft_pgscan", "SSCN/s", FLD_SOFT_PGSCAN,
	     "soft_pgscan per second"),
	RAW("soft_pgsteal", "SSTEAL", 8, U_COUNT, FLD_SOFT_PGSTEAL,
	    "v1: pages soft-limit reclaim took from the group and its "
	    "descendants, as soft_pgscan counts them"),
	RATE("soft_pgsteal", "SSTL/s", FLD_SOFT_PGSTEAL,
	     "soft_pgsteal per second"),
	RAW("eff_min_last", "EMINL", 6, U_BYTES, FLD_EFF_MIN_LAST,
	    "v2: the effective memory.min the kernel stored for the group at "
	    "the last reclaim that visited it (page_counter.emin), as of that "
	    "reclaim, from the BPF pass alone; eff_min is the one computed "
	    "now"),
	RAW("eff_low_last", "ELOWL", 6, U_BYTES, FLD_EFF_LOW_LAST,
	    "v2: the effective memory.low the kernel stored at the last "
	    "reclaim that visited the group (page_counter.elow), as "
	    "eff_min_last"),
	RAW("stats_pending", "PEND", 6, U_INT, FLD_STATS_PENDING,
	    "statistics updates of the group and its descendants not yet "
	    "flushed, as the kernel counts them for its flush threshold "
	    "(vmstats stats_updates, Linux 6.8+, from the BPF pass alone): "
	    "a read of memory.stat flushes once they pass 64 x the online "
	    "CPUs (the header's flush threshold); each CPU adds its own "
	    "count at 64"),
	RAW("prio_min_kswapd", "PRIOK", 5, U_INT, FLD_PRIO_MIN_KSWAPD,
	    "prio_min of kswapd's scans alone (global background reclaim), "
	    "soft-limit reclaim's left out"),
	RAW("prio_min_direct", "PRIOD", 5, U_INT, FLD_PRIO_MIN_DIRECT,
	    "prio_min of the allocating tasks' scans alone: global direct "
	    "reclaim, the reclaim of a group's own limit or high, "
	    "khugepaged; soft-limit and proactive reclaim's left out"),
	RAW("prio_min_proactive", "PRIOP", 5, U_INT, FLD_PRIO_MIN_PROACTIVE,
	    "prio_min of proactive reclaim's scans alone (memory.reclaim, "
	    "Linux 6.13+)"),
	RAW("prio_min_soft", "PRIOS", 5, U_INT, FLD_PRIO_MIN_SOFT,
	    "v1: the lowest priority soft-limit reclaim scanned the group's "
	    "own lists at in the interval: always 0, the priority the kernel "
	    "gives it (mem_cgroup_shrink_node), not a sign of trouble; not "
	    "available when it did not scan them"),
	{ "numa", "NUMA", 4, U_NUMA, -1, -1, FBIT(FLD_NUMA),
	  "the LRU lists per NUMA node (memory.numa_stat, or the BPF pass) "
	  "in JSON only (-F json -c ...,numa): an object keyed by node "
	  "(\"N0\") of bytes: with descendants anon, file (each the sum of "
	  "its lists) and unevictable, on v2 also active_anon, inactive_anon, "
	  "active_file and inactive_file; the group's own lists, what reclaim "
	  "scans: v1 own_anon, own_file and own_unevictable, v2 (the BPF pass "
	  "only) own_active_anon, own_inactive_anon, own_active_file, "
	  "own_inactive_file and own_unevictable", CK_NUMA },
};

const size_t ncolumns = sizeof(columns) / sizeof(columns[0]);

const struct column *col_find(const char *key)
{
	for (size_t i = 0; i < ncolumns; i++)
		if (strcmp(columns[i].key, key) == 0)
			return &columns[i];
	return NULL;
}

size_t col_index(const struct column *c)
{
	return (size_t)(c - columns);
}

int col_on_version(const struct column *c, int version)
{
	fieldset kept = cgfs_version_fields(version);

	if (c->field >= 0)
		return (kept & FBIT(c->field)) != 0;
	/* Effective protection needs the protections (v2), not only the
	 * usage every version has. */
	if (c->derived == D_EFF_MIN || c->derived == D_EFF_LOW ||
	    c->derived == D_REC_HIGH || c->derived == D_REC_LOW)
		return (kept & FBIT(FLD_LOW)) != 0;
	return c->fields == 0 || (c->fields & kept) != 0;
}

/*
 * The sets, by key, each version's columns picked from them (a key a
 * version has no value for is left out there, col_on_version), unless a
 * set has a list of its own for v1:
 *  - soft (v1) and low (v2) take the same place of the overview;
 *  - v1 memory.stat has no pgscan or pgsteal and v1 groups no pressure
 *    file: the v1 overview takes the limit hits, one small file (the
 *    reclaim events that give v1 pgscan cost every page fault, and
 *    refaults would need memory.stat of every group at every refresh:
 *    about twice the kernel time, and an rstat flush each);
 *  - the v1 overview has the OOM kills (memory.oom_control, which the
 *    BPF pass carries), in the place of STEAL/s: with SCAN/s (where the
 *    pass gives it) its nine values take 64 columns, 66 of 80 are left
 *    beside the name's 12 and 1 for the tag; the reclaim set has the
 *    steal rates, split;
 *  - the v1 reclaim set mirrors v2's kswapd/direct split (the BPF pass's
 *    kernel counters, else the events, reclaim.h, which it loads on
 *    purpose) and has the refaults beside them (the limit hits are in
 *    the overview and the events set; 80 columns hold no more); past
 *    them, scrolled to with ] (the events it loads for prio_min give
 *    them too): the reclaim stalls and soft-limit reclaim's rates, and
 *    on v2 the stalls and the protections the kernel stored at the last
 *    reclaim.
 *  - the v1 limits set has the soft limit as reclaim sees it: the
 *    excess, the tree's excess and place, and soft-limit reclaim's scans
 *    and steals (the events, loaded for them), in the place of v2's
 *    protections (eff_limit is in the overview's USE%).
 * The overview has no room for workingset: with it, 65 of 80 columns go
 * to values and 15 are left for the indented tree of names.
 */
static const struct {
	const char *name;
	const char *keys[16];
	const char *v1_keys[16];	/* v1's own list, if any */
} sets[CSET_NR] = {
	[CSET_OVERVIEW] = { "overview",
		{ "usage", "limit", "low", "excess", "use_pct", "swap",
		  "pgscan_per_s", "pgsteal_per_s" },
		{ "usage", "limit", "soft", "excess", "use_pct", "swap",
		  "?pgscan_per_s", "failcnt_per_s", "ev_oom_kill" } },
	[CSET_MEMORY] = { "memory",
		{ "usage", "peak", "workingset", "swap", "usage_swap", "zswap",
		  "anon", "file" }, { NULL } },
	[CSET_LRU] = { "LRU",
		{ "usage", "active_anon", "inactive_anon", "active_file",
		  "inactive_file", "unevictable", "refault_anon_per_s",
		  "refault_file_per_s" }, { NULL } },
	[CSET_RECLAIM] = { "reclaim",
		{ "pgscan_kswapd_per_s", "pgscan_direct_per_s",
		  "pgsteal_kswapd_per_s", "pgsteal_direct_per_s",
		  "reclaim_eff", "refault_anon_per_s", "refault_file_per_s",
		  "psi_some_avg10", "psi_full_avg10", "scan_prio",
		  "prio_min", "reclaim_stall_per_s", "eff_low_last",
		  "eff_min_last" },
		{ "pgscan_kswapd_per_s", "pgscan_direct_per_s",
		  "pgsteal_kswapd_per_s", "pgsteal_direct_per_s",
		  "reclaim_eff", "prio_min", "refault_anon_per_s",
		  "refault_file_per_s", "scan_prio", "reclaim_stall_per_s",
		  "soft_pgscan_per_s", "soft_pgsteal_per_s" } },
	[CSET_EVENTS] = { "events",
		{ "ev_oom", "ev_oom_kill", "ev_oom_kill_per_s",
		  "ev_oom_kill_local", "ev_max", "ev_max_per_s",
		  "ev_max_local_per_s", "ev_high", "ev_high_per_s",
		  "swap_ev_max_per_s", "swap_ev_fail_per_s", "failcnt",
		  "failcnt_per_s", "failcnt_tree", "failcnt_tree_per_s" },
		{ NULL } },
	[CSET_LIMITS] = { "limits",
		{ "usage", "limit", "high", "low", "min", "eff_low", "eff_min",
		  "soft", "eff_limit", "swap_limit", "swappiness" },
		{ "usage", "limit", "soft", "excess", "soft_tree_excess",
		  "soft_rank", "soft_pgscan_per_s", "soft_pgsteal_per_s",
		  "swappiness" } },
};

const char *col_set_name(int set)
{
	return set >= 0 && set < CSET_NR ? sets[set].name : NULL;
}

size_t col_set_columns(int set, int version, fieldset given,
		       const struct column **ret, size_t max)
{
	const char *const *keys = version == 1 && sets[set].v1_keys[0] ?
		sets[set].v1_keys : sets[set].keys;
	size_t n = 0;

	for (size_t i = 0; i < 16 && keys[i] && n + 1 < max; i++) {
		const char *key = keys[i] + (keys[i][0] == '?');
		const struct column *c = col_find(key);

		/* "?key": only where the source gives it as it reads. */
		if (c && keys[i][0] == '?' && c->field >= 0 &&
		    !(given & FBIT(c->field)))
			continue;

		if (c && col_on_version(c, version))
			ret[n++] = c;
	}
	ret[n++] = col_find("path");
	return n;
}

struct cval col_value(const struct column *c, const struct mgroup *g)
{
	struct cval v = { CV_NA, 0, 0 };

	/* The path is text, numa an object (out_json); neither a value. */
	if (c->kind == CK_PATH || c->kind == CK_NUMA)
		return v;
	if (c->kind == CK_DEPTH) {
		v.kind = CV_NUM;
		v.u = (uint64_t)g->depth;
		return v;
	}
	if (c->unit == U_RATE && c->field >= 0) {
		if (g->rate_valid & FBIT(c->field)) {
			v.kind = CV_DBL;
			v.d = mgroup_rate(g, (enum field)c->field);
		}
		return v;
	}
	if (c->derived >= 0) {
		if (!mgroup_derived(g, (enum derived)c->derived))
			return v;
		switch (c->derived) {
		case D_EXCESS:
			v.u = g->excess;
			break;
		case D_EFF_LIMIT:
			v.u = g->eff_limit;
			break;
		case D_USE_PCT:
			v.kind = CV_DBL;
			v.d = g->use_pct;
			return v;
		case D_RECLAIM_EFF:
			v.kind = CV_DBL;
			v.d = g->reclaim_eff;
			return v;
		case D_WORKINGSET:
			v.u = g->workingset;
			break;
		case D_SCAN_PRIO:
			v.kind = CV_NUM;
			v.u = (uint64_t)g->scan_prio;
			return v;
		case D_EFF_MIN:
			v.u = g->eff_min;
			break;
		case D_EFF_LOW:
			v.u = g->eff_low;
			break;
		case D_FAILCNT_TREE:
			v.u = g->failcnt_tree;
			break;
		case D_REC_LIMIT:
			v.u = g->rs->rec_limit;
			break;
		case D_REC_HIGH:
			v.u = g->rs->rec_high;
			break;
		case D_REC_LOW:
			v.u = g->rs->rec_low;
			break;
		case D_FAILCNT_TREE_RATE:
			v.kind = CV_DBL;
			v.d = g->failcnt_tree_rate;
			return v;
		}
		v.kind = v.u == VAL_MAX ? CV_MAX : CV_NUM;
		return v;
	}
	if (!sample_has(&g->cur, (enum field)c->field))
		return v;
	v.u = sample_get(&g->cur, (enum field)c->field);
	/* Only a limit or protection can be "max"; elsewhere 2^64-1 is a
	 * number like any other. */
	v.kind = v.u == VAL_MAX && cgfs_field_may_be_max((enum field)c->field) ? CV_MAX :
		CV_NUM;
	return v;
}

/* Rank of a value kind: numbers, then unlimited, then not available. */
static int rank(enum cv_kind k)
{
	return k == CV_NA ? 2 : k == CV_MAX ? 1 : 0;
}

int col_compare(const struct column *c, const struct mgroup *a,
		const struct mgroup *b, int descending)
{
	struct cval va, vb;
	int r = 0;

	if (c->unit == U_PATH) {
		r = strcmp(a->path, b->path);
		return descending ? -r : r;
	}
	va = col_value(c, a);
	vb = col_value(c, b);
	if (va.kind == CV_NA || vb.kind == CV_NA || rank(va.kind) != rank(vb.kind))
		return va.kind == CV_NA || vb.kind == CV_NA ?
			rank(va.kind) - rank(vb.kind) :
			(descending ? rank(vb.kind) - rank(va.kind) :
			 rank(va.kind) - rank(vb.kind));
	if (va.kind == CV_DBL)
		r = va.d < vb.d ? -1 : va.d > vb.d;
	else
		r = va.u < vb.u ? -1 : va.u > vb.u;
	return descending ? -r : r;
}

size_t col_format(const struct column *c, struct cval v, int human,
		  char *buf, size_t len)
{
	if (v.kind == CV_NA || v.kind == CV_MAX) {
		const char *t = v.kind == CV_NA ? "-" : "max";
		size_t l = strlen(t) < len ? strlen(t) : len - 1;

		memcpy(buf, t, l);
		buf[l] = '\0';
		return l;
	}
	/* fmt_u64 and fmt_fixed print what "%" PRIu64 and "%.Nf" would, at
	 * a fraction of the cost: a refresh formats every cell. */
	switch (c->unit) {
	case U_BYTES:
		if (!human)
			return fmt_u64(buf, len, v.u);
		fmt_bytes(buf, len, v.u);
		break;
	case U_COUNT:
		if (!human)
			return fmt_u64(buf, len, v.u);
		fmt_count(buf, len, v.u);
		break;
	case U_RATE:
		if (!human)
			return fmt_fixed(buf, len, v.d, 3);
		fmt_rate(buf, len, v.d);
		break;
	case U_PCT:
		return fmt_fixed(buf, len, v.d, human ? 1 : 2);
	case U_RATIO:
		return fmt_fixed(buf, len, v.d, human ? 2 : 4);
	case U_PSI:
		fmt_hundredths(buf, len, v.u);
		break;
	case U_INT:
	case U_PATH:
		return fmt_u64(buf, len, v.u);
	case U_NUMA:
		snprintf(buf, len, "-");
		break;
	}
	return strlen(buf);
}

int col_parse_list(const char *list, const struct column ***ret_cols,
		   size_t *ret_n, char *err, size_t errlen)
{
	const struct column **cols;
	size_t n = 0, cap = 1;
	const char *p = list;

	for (const char *q = list; *q; q++)
		cap += *q == ',';
	cols = xcalloc(cap, sizeof(*cols));
	while (1) {
		size_t l = strcspn(p, ",");
		char key[64];
		const struct column *c;

		if (l == 0 || l >= sizeof(key)) {
			snprintf(err, errlen, "-c: empty or overlong column "
				 "key in '%s'", list);
			free(cols);
			return -EINVAL;
		}
		memcpy(key, p, l);
		key[l] = '\0';
		c = col_find(key);
		if (!c) {
			snprintf(err, errlen, "unknown column '%s' (memcgtop "
				 "--list-columns shows them)", key);
			free(cols);
			return -EINVAL;
		}
		/* Every format keys its output by column: a second one
		 * would be a second HELP line or a duplicate JSON key. */
		for (size_t j = 0; j < n; j++)
			if (cols[j] == c) {
				snprintf(err, errlen, "-c: column '%s' given "
					 "twice in '%s'", key, list);
				free(cols);
				return -EINVAL;
			}
		cols[n++] = c;
		p += l;
		if (!*p)
			break;
		p++;
	}
	*ret_cols = cols;
	*ret_n = n;
	return 0;
}

int col_sys_has(const struct model *m, int id)
{
	uint64_t ids = sysfig_ids(id);

	return ids && (m->sys.valid & ids) == ids;
}

int col_sys_shown(const struct model *m, int id)
{
	return sysfigs[id].n && (!(sysfigs[id].flags & SF_LOADED) ||
				 col_sys_has(m, id));
}

/* Value f of a row of unit u; human: a size scaled. */
static int sys_value(const struct model *m, enum sysfig_unit u, int f,
		     int human, char *buf, size_t len)
{
	if (!(m->sys.valid & SBIT(f)))
		return 0;
	if (u == SU_BYTES && human)
		fmt_bytes(buf, len, m->sys.v[f]);
	else if (u == SU_PSI)
		fmt_hundredths(buf, len, m->sys.v[f]);
	else
		fmt_u64(buf, len, m->sys.v[f]);
	return 1;
}

int col_sys_format(const struct model *m, int id, int k, int human,
		   char *buf, size_t len)
{
	int f = id + k;

	if (sysfigs[id].unit != SU_COUNTER)
		return sys_value(m, sysfigs[id].unit, f, human, buf, len);
	if (!(m->sys_rate_valid & SBIT(f)))
		return 0;
	if (human)
		fmt_rate(buf, len, m->sys_rate[f]);
	else
		fmt_fixed(buf, len, m->sys_rate[f], 3);
	return 1;
}

int col_sys_value(const struct model *m, int id, int k, char *buf,
		  size_t len)
{
	return sys_value(m, sysfigs[id].unit, id + k, 0, buf, len);
}

/* Appends s to the text in buf, as much as fits. */
static void append(char *buf, size_t len, size_t *o, const char *s)
{
	size_t n = strlen(s);

	if (*o + 1 >= len)
		return;
	if (n > len - 1 - *o)
		n = len - 1 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
	buf[*o] = '\0';
}

/*
 * An array on a header line: the elements that are not 0, as
 * "index:text" ("12:3.2k 3:10"), "none" when all are; "-" when it has
 * none (a counter without rates yet).
 */
static void sys_array(const struct model *m, int id, int human, char *buf,
		      size_t len)
{
	const struct sysfig *r = &sysfigs[id];
	size_t o = 0;
	char v[32], item[48];

	buf[0] = '\0';
	for (int k = 0; k < r->n; k++)
		if (!col_sys_format(m, id, k, human, v, sizeof(v))) {
			append(buf, len, &o, "-");
			return;
		}
	for (int i = 0; i < r->n; i++) {
		int k = r->flags & SF_LAST_FIRST ? r->n - 1 - i : i;
		int f = id + k;

		if (r->unit == SU_COUNTER ? m->sys_rate[f] <= 0 :
		    m->sys.v[f] == 0)
			continue;
		col_sys_format(m, id, k, human, v, sizeof(v));
		snprintf(item, sizeof(item), "%s%d:%s", o ? " " : "", k, v);
		append(buf, len, &o, item);
	}
	if (!o)
		append(buf, len, &o, "none");
}

/*
 * A header's sizes are scaled even under -r, which is for the group
 * columns (a MemTotal of eleven digits helps nobody); its rates follow
 * it, as the group columns' do.
 */
int col_sys_line(const struct model *m, enum sys_at at, int line, int human,
		 char *buf, size_t len)
{
	size_t o = 0;
	int n = 0;

	if (buf && len)
		buf[0] = '\0';
	for (int id = 0; id < SYS_NR; id++) {
		const struct sysfig *r = &sysfigs[id];
		int h = human || r->unit != SU_COUNTER;
		char v[320];

		if (r->at[at].line != line || !col_sys_shown(m, id))
			continue;
		n++;
		if (!buf)
			continue;
		if (r->n > 1)
			sys_array(m, id, h, v, sizeof(v));
		else if (!col_sys_format(m, id, 0, h, v, sizeof(v)))
			snprintf(v, sizeof(v), "-");
		append(buf, len, &o, r->at[at].pre);
		append(buf, len, &o, v);
		append(buf, len, &o, r->at[at].post);
	}
	return n;
}
