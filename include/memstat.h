/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memstat.h - every memory.stat value memcgtop reads, one row each.
 *
 * A row says all there is to say of a value: its field (FLD_NAME of
 * fields.h) and BPF slot (MR_ST_NAME of bpf/memcg_rec.h); where each cgroup
 * version shows it; the unit of the kernel's counter; the kernel item the
 * BPF pass reads through the memcg kfuncs; and its column (columns.c).
 * Everything else is made from the rows: the slot list, the kernel's enum
 * items the program names (bpf/kernel_types.h), the program's kfunc reads
 * and the slots they can give (memcg_iter.bpf.c), the loader's units
 * (bpfcol_convert.c), the proof's units (cgfs_prove.c), the fields and the columns.
 * A value the kernel has in memory.stat is a row here and its tests.
 *
 * MEMSTATS(X, SIZE, COUNT, OWN) calls SIZE, COUNT or OWN for each row, by
 * its kind, with X, the caller's, first:
 *   SIZE(X, NAME, v1, v1key, v2, v2key, unit, kf, item, key, title, width,
 *        help)
 *   COUNT(X, NAME, v1, v1key, v2, v2key, kf, item, key, title, width, help,
 *         rate_title, rate_help)
 *                 a cumulative counter: the model rates it, and its rate is
 *                 the column KEY_per_s
 *   OWN(X, NAME, v1, v1key, v2, v2key, unit, slotkey)
 *                 a group's own value, without its descendants', which no
 *                 column shows as it is (derived columns read it)
 * where a version shows it (v1 the memory controller's memory.stat):
 *   STAT, "key"   memory.stat's line key; the pass carries it once its word
 *                 is proven against that line (cgfs_prove.c)
 *   SLOT, "key"   no line of the file: the pass carries it (v1 pgscan), else
 *                 the reclaim events; a recording keeps it as the line key
 *   KMEM, NULL    v1's memory.kmem.usage_in_bytes, the record's slot KMEM
 *   NONE, NULL    not available on that version
 * the unit the kernel counts it in (what a word of its statistics holds):
 *   PG pages, KB KiB, B bytes (sizes, shown in bytes); counters count
 * kf, item: what the memcg kfuncs (Linux 7.0+, v2) read it by:
 *   NODE, NR_x    bpf_mem_cgroup_page_state() of enum node_stat_item NR_x
 *   MEMCG, M_x    ... of enum memcg_stat_item M_x
 *   EVENT, E_x    bpf_mem_cgroup_vm_events() of enum vm_event_item E_x
 *   RECLAIM, P_x  a reclaim count: a vm event (7.0) or a node item (7.1+)
 *   RSUM, P       P's four parts summed, as memory.stat sums them:
 *                 P_KSWAPD + P_DIRECT + P_KHUGEPAGED + P_PROACTIVE
 *   NOKF, 0       not read through them (the kfuncs read no own values)
 * The slot's name for the tests (bpfdump) is v2key, or slotkey.
 *
 * Each list is one block of columns, in the order the column table shows
 * them; the slots follow the same order.
 */
#ifndef MEMCGTOP_MEMSTAT_H
#define MEMCGTOP_MEMSTAT_H

/* What the group is made of, and its LRU lists. */
#define MEMSTAT_SIZES(X, SIZE, COUNT, OWN)					\
	SIZE(X, ANON, STAT, "total_rss", STAT, "anon", PG, NODE, NR_ANON_MAPPED, \
	     "anon", "ANON", 6, "anonymous memory: v1 total_rss, v2 anon") \
	SIZE(X, FILE, STAT, "total_cache", STAT, "file", PG, NODE, NR_FILE_PAGES, \
	     "file", "FILE", 6, "page cache: v1 total_cache, v2 file")	\
	SIZE(X, SHMEM, STAT, "total_shmem", STAT, "shmem", PG, NODE, NR_SHMEM, \
	     "shmem", "SHMEM", 6,					\
	     "shared memory and tmpfs: v1 total_shmem, v2 shmem")	\
	SIZE(X, KERNEL, KMEM, NULL, STAT, "kernel", PG, MEMCG, MEMCG_KMEM,	\
	     "kernel", "KERNEL", 6,					\
	     "kernel memory: v1 memory.kmem.usage_in_bytes, v2 memory.stat " \
	     "kernel")							\
	SIZE(X, ACTIVE_ANON, STAT, "total_active_anon", STAT, "active_anon", PG, \
	     NODE, NR_ACTIVE_ANON, "active_anon", "A-ANON", 6,		\
	     "active anonymous LRU list: v1 memory.stat total_active_anon, " \
	     "v2 active_anon")						\
	SIZE(X, INACTIVE_ANON, STAT, "total_inactive_anon", STAT,		\
	     "inactive_anon", PG, NODE, NR_INACTIVE_ANON, "inactive_anon", \
	     "I-ANON", 6,						\
	     "inactive anonymous LRU list: v1 memory.stat "		\
	     "total_inactive_anon, v2 inactive_anon")			\
	SIZE(X, ACTIVE_FILE, STAT, "total_active_file", STAT, "active_file", PG, \
	     NODE, NR_ACTIVE_FILE, "active_file", "A-FILE", 6,		\
	     "active file LRU list: v1 memory.stat total_active_file, "	\
	     "v2 active_file")						\
	SIZE(X, INACTIVE_FILE, STAT, "total_inactive_file", STAT,		\
	     "inactive_file", PG, NODE, NR_INACTIVE_FILE, "inactive_file", \
	     "I-FILE", 6,						\
	     "inactive file LRU list: v1 memory.stat total_inactive_file, " \
	     "v2 inactive_file")					\
	SIZE(X, UNEVICTABLE, STAT, "total_unevictable", STAT, "unevictable", PG, \
	     NODE, NR_UNEVICTABLE, "unevictable", "UNEVIC", 6,		\
	     "unevictable LRU list (mlocked, ramfs): v1 memory.stat "	\
	     "total_unevictable, v2 unevictable")			\
	SIZE(X, FILE_MAPPED, STAT, "total_mapped_file", STAT, "file_mapped", PG, \
	     NODE, NR_FILE_MAPPED, "file_mapped", "MAPPED", 6,		\
	     "page cache mapped into processes (mmap): reclaim must unmap " \
	     "it first; v1 memory.stat total_mapped_file, v2 file_mapped") \
	SIZE(X, FILE_DIRTY, STAT, "total_dirty", STAT, "file_dirty", PG,	\
	     NODE, NR_FILE_DIRTY, "file_dirty", "DIRTY", 6,		\
	     "page cache modified and not yet written: reclaim frees it only " \
	     "after writeback; v1 memory.stat total_dirty, v2 file_dirty") \
	SIZE(X, FILE_WRITEBACK, STAT, "total_writeback", STAT,		\
	     "file_writeback", PG, NODE, NR_WRITEBACK, "file_writeback",	\
	     "WRBACK", 6,						\
	     "page cache being written: free once the I/O ends; v1 "	\
	     "memory.stat total_writeback, v2 file_writeback")		\
	SIZE(X, SWAPCACHED, STAT, "total_swapcached", STAT, "swapcached", PG, \
	     NODE, NR_SWAPCACHE, "swapcached", "SWCACH", 6,		\
	     "pages in swap and in memory at once (the swap cache): v1 "	\
	     "memory.stat total_swapcached (6.1+), v2 swapcached")	\
	SIZE(X, ANON_THP, STAT, "total_rss_huge", STAT, "anon_thp", PG,	\
	     NODE, NR_ANON_THPS, "anon_thp", "ANONTHP", 7,		\
	     "anonymous memory in transparent huge pages: v1 memory.stat " \
	     "total_rss_huge, v2 anon_thp")				\
	SIZE(X, FILE_THP, NONE, NULL, STAT, "file_thp", PG, NODE, NR_FILE_THPS, \
	     "file_thp", "FILETHP", 7,					\
	     "page cache in transparent huge pages: v2 memory.stat file_thp " \
	     "(v1's memory.stat has none)")				\
	SIZE(X, SLAB_RECLAIMABLE, NONE, NULL, STAT, "slab_reclaimable", B,	\
	     NODE, NR_SLAB_RECLAIMABLE_B, "slab_reclaimable", "SLAB-R", 6, \
	     "slab memory the kernel can free under pressure (dentries, "	\
	     "inodes): v2 memory.stat slab_reclaimable (v1's memory.stat has " \
	     "none)")							\
	SIZE(X, SLAB_UNRECLAIMABLE, NONE, NULL, STAT, "slab_unreclaimable", B, \
	     NODE, NR_SLAB_UNRECLAIMABLE_B, "slab_unreclaimable", "SLAB-U", 6, \
	     "slab memory reclaim cannot free: v2 memory.stat "		\
	     "slab_unreclaimable (v1's memory.stat has none)")		\
	SIZE(X, KERNEL_STACK, NONE, NULL, STAT, "kernel_stack", KB,	\
	     NODE, NR_KERNEL_STACK_KB, "kernel_stack", "KSTACK", 6,	\
	     "kernel stacks of the group's tasks, never reclaimed: v2 "	\
	     "memory.stat kernel_stack (v1's memory.stat has none)")	\
	SIZE(X, PAGETABLES, NONE, NULL, STAT, "pagetables", PG,		\
	     NODE, NR_PAGETABLE, "pagetables", "PGTBL", 6,		\
	     "page tables of the group's processes, freed only with their " \
	     "mappings: v2 memory.stat pagetables (v1's memory.stat has none)") \
	SIZE(X, SOCK, NONE, NULL, STAT, "sock", PG, MEMCG, MEMCG_SOCK,	\
	     "sock", "SOCK", 6,						\
	     "network socket buffers, never reclaimed: v2 memory.stat sock " \
	     "(v1's memory.stat has none)")				\
	OWN(X, OWN_INACTIVE_ANON, STAT, "inactive_anon", NONE, NULL, PG,	\
	    "own_inactive_anon")					\
	OWN(X, OWN_ACTIVE_ANON, STAT, "active_anon", NONE, NULL, PG,	\
	    "own_active_anon")						\
	OWN(X, OWN_INACTIVE_FILE, STAT, "inactive_file", NONE, NULL, PG,	\
	    "own_inactive_file")					\
	OWN(X, OWN_ACTIVE_FILE, STAT, "active_file", NONE, NULL, PG,	\
	    "own_active_file")

/* Reclaim's counts: pages scanned and reclaimed, in all and by who. */
#define MEMSTAT_SCAN(X, SIZE, COUNT, OWN)					\
	COUNT(X, PGSCAN, SLOT, "total_pgscan", STAT, "pgscan", RSUM, PGSCAN, \
	      "pgscan", "PGSCAN", 8,					\
	      "pages scanned by reclaim, the group's and its descendants', " \
	      "since the group was made: v2 memory.stat pgscan; v1 (whose " \
	      "memory.stat has none) the kernel's own per-group counters, " \
	      "read by the BPF pass (bpf collector); else its "		\
	      "count_memcg_events events (BPF, Linux 6.13+, root) since "	\
	      "memcgtop loaded them",					\
	      "SCAN/s", "pages scanned per second")			\
	COUNT(X, PGSTEAL, SLOT, "total_pgsteal", STAT, "pgsteal", RSUM, PGSTEAL, \
	      "pgsteal", "PGSTEAL", 8,					\
	      "pages reclaimed, the group's and its descendants': v2 "	\
	      "memory.stat pgsteal; v1 the kernel's counters or events, as " \
	      "pgscan",							\
	      "STEAL/s", "pages reclaimed per second")			\
	COUNT(X, PGSCAN_KSWAPD, SLOT, "total_pgscan_kswapd", STAT,		\
	      "pgscan_kswapd", RECLAIM, PGSCAN_KSWAPD, "pgscan_kswapd",	\
	      "SCANKSW", 8,						\
	      "pages scanned by kswapd (v2 memory.stat pgscan_kswapd; v1 the " \
	      "kernel's counters or events, as pgscan)",		\
	      "SCNK/s", "pages scanned by kswapd per second")		\
	COUNT(X, PGSCAN_DIRECT, SLOT, "total_pgscan_direct", STAT,		\
	      "pgscan_direct", RECLAIM, PGSCAN_DIRECT, "pgscan_direct",	\
	      "SCANDIR", 8,						\
	      "pages scanned by direct reclaim (v2 memory.stat "	\
	      "pgscan_direct; v1 the kernel's counters or events, as pgscan)", \
	      "SCND/s", "pages scanned by direct reclaim per second")	\
	COUNT(X, PGSTEAL_KSWAPD, SLOT, "total_pgsteal_kswapd", STAT,	\
	      "pgsteal_kswapd", RECLAIM, PGSTEAL_KSWAPD, "pgsteal_kswapd", \
	      "STLKSW", 8,						\
	      "pages reclaimed by kswapd (v2 memory.stat pgsteal_kswapd; v1 " \
	      "the kernel's counters or events, as pgscan)",		\
	      "STLK/s", "pages reclaimed by kswapd per second")	\
	COUNT(X, PGSTEAL_DIRECT, SLOT, "total_pgsteal_direct", STAT,	\
	      "pgsteal_direct", RECLAIM, PGSTEAL_DIRECT, "pgsteal_direct", \
	      "STLDIR", 8,						\
	      "pages reclaimed by direct reclaim (v2 memory.stat "	\
	      "pgsteal_direct; v1 the kernel's counters or events, as "	\
	      "pgscan)",						\
	      "STLD/s", "pages reclaimed by direct reclaim per second")

/* Refaults and page faults. */
#define MEMSTAT_FAULTS(X, SIZE, COUNT, OWN)				\
	COUNT(X, REFAULT_ANON, STAT, "total_workingset_refault_anon", STAT,	\
	      "workingset_refault_anon", NODE, WORKINGSET_REFAULT_ANON,	\
	      "refault_anon", "RFLTA", 8,				\
	      "anonymous pages refaulted after eviction (v1 memory.stat " \
	      "total_workingset_refault_anon, v2 workingset_refault_anon)", \
	      "RFA/s", "anonymous refaults per second")			\
	COUNT(X, REFAULT_FILE, STAT, "total_workingset_refault_file", STAT,	\
	      "workingset_refault_file", NODE, WORKINGSET_REFAULT_FILE,	\
	      "refault_file", "RFLTF", 8,				\
	      "file pages refaulted after eviction (v1 memory.stat "	\
	      "total_workingset_refault_file, v2 workingset_refault_file)", \
	      "RFF/s", "file refaults per second")			\
	COUNT(X, PGFAULT, STAT, "total_pgfault", STAT, "pgfault", EVENT, PGFAULT, \
	      "pgfault", "PGFAULT", 8,					\
	      "page faults (v1 memory.stat total_pgfault, v2 pgfault)",	\
	      "FLT/s", "page faults per second")			\
	COUNT(X, PGMAJFAULT, STAT, "total_pgmajfault", STAT, "pgmajfault",	\
	      EVENT, PGMAJFAULT, "pgmajfault", "MAJFLT", 8,		\
	      "major page faults, needing I/O (v1 memory.stat "		\
	      "total_pgmajfault, v2 pgmajfault)",			\
	      "MAJ/s", "major page faults per second")

/* zswap (v2). */
#define MEMSTAT_ZSWAP(X, SIZE, COUNT, OWN)					\
	SIZE(X, ZSWAPPED, NONE, NULL, STAT, "zswapped", PG, MEMCG, MEMCG_ZSWAPPED, \
	     "zswapped", "ZSWPD", 6,					\
	     "memory stored in zswap before compression: v2 memory.stat " \
	     "zswapped")

#define MEMSTATS(X, SIZE, COUNT, OWN)					\
	MEMSTAT_SIZES(X, SIZE, COUNT, OWN)					\
	MEMSTAT_SCAN(X, SIZE, COUNT, OWN)					\
	MEMSTAT_FAULTS(X, SIZE, COUNT, OWN)				\
	MEMSTAT_ZSWAP(X, SIZE, COUNT, OWN)

#endif
