/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reclaim_items.h - the kernel's reclaim event items that the reclaim
 * events count, each once: the program's slots (reclaim_rec.h RE_*), the
 * loader's counts (bpfev.h BPFEV_*), the names it finds in the kernel's
 * BTF, and which items a sum takes (pgscan is the four PGSCAN_* items,
 * pgsteal the four PGSTEAL_*).  Read by the BPF program too: no user
 * space header here.
 *
 * X(SLOT, kernel name, kind): kind RI_SCAN or RI_STEAL.  The PGSCAN
 * items come first, then the PGSTEAL items in the same order: the program
 * and the loader take "slot < the first steal" for a scan.
 */
#ifndef MEMCGTOP_RECLAIM_ITEMS_H
#define MEMCGTOP_RECLAIM_ITEMS_H

#define RECLAIM_ITEMS(X)					\
	X(SCAN_KSWAPD, PGSCAN_KSWAPD, RI_SCAN)			\
	X(SCAN_DIRECT, PGSCAN_DIRECT, RI_SCAN)			\
	X(SCAN_KHUGEPAGED, PGSCAN_KHUGEPAGED, RI_SCAN)		\
	X(SCAN_PROACTIVE, PGSCAN_PROACTIVE, RI_SCAN)		\
	X(STEAL_KSWAPD, PGSTEAL_KSWAPD, RI_STEAL)		\
	X(STEAL_DIRECT, PGSTEAL_DIRECT, RI_STEAL)		\
	X(STEAL_KHUGEPAGED, PGSTEAL_KHUGEPAGED, RI_STEAL)	\
	X(STEAL_PROACTIVE, PGSTEAL_PROACTIVE, RI_STEAL)

enum reclaim_item_kind { RI_SCAN, RI_STEAL };

#endif
