/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * reclaim.h - the reclaim events (bpfev.h: BPF on the kernel's memcg and
 * vmscan tracepoints, Linux 6.13+) behind a refresh, for either collector.
 *
 * After cgfs_refresh, reclaim_fill puts into each group's sample, by its
 * directory's inode (the cgroup id the kernel counts by):
 *  - on cgroup v1, whose memory.stat has none of them, FLD_PGSCAN,
 *    FLD_PGSTEAL and their kswapd/direct parts: pages since the events were
 *    loaded, the group's with its descendants' (removed ones included),
 *    0 for a group never scanned;
 *  - on both versions FLD_PRIO_MIN (only when the group's own lists were
 *    scanned in the interval) and FLD_FLUSHES (its stats flush requests).
 * v2 keeps memory.stat's pgscan and pgsteal: the events serve it nothing
 * else.  The system figures (pages scanned per priority, flushes, our own
 * flushes) go into the snapshot's (SYS_SCAN_PRIO, SYS_FLUSHES, SYS_OWN_FLUSHES
 * in sample.h), which the model rates as it rates the procfs' figures.
 *
 * The programs cost every page fault a few per cent (the tracepoint fires
 * for each, see the man page), so they are attached only while a caller
 * wants them (reclaim_want) and only on a live host.  A failure to load
 * (not root, a kernel before 6.13, a refusal) is kept, not retried and not
 * logged: the fields stay as without the events, and reclaim_state says
 * why.  The refresh pipeline (pipeline.h) loads them and fills the
 * snapshots; the detail pane asks their state.
 */
#ifndef MEMCGTOP_RECLAIM_H
#define MEMCGTOP_RECLAIM_H

#include <stddef.h>
#include <stdint.h>

#include "cgfs.h"

struct reclaim;

enum reclaim_state {
	RECLAIM_NONE,		/* a copy, a recording, or --record */
	RECLAIM_IDLE,		/* not wanted: nothing loaded */
	RECLAIM_ON,		/* loaded and counting */
	RECLAIM_FAILED,		/* could not be loaded: see the text */
};

/* The fields the events fill on hierarchy version `version` (fields.h:
 * EVENTS, cgfs_version_events). */
fieldset reclaim_fields(int version);

/* The fields reclaim_fill will fill (none while nothing is loaded): a
 * snapshot's more_slots, so that its samples have room for them. */
fieldset reclaim_slots(const struct reclaim *rc);

/*
 * A handle for the hierarchy cg (nothing is loaded yet).  A recording
 * (--record) keeps what the events gave beside the files (the pipeline
 * fills them in before the sample ends), so they load as without it.
 */
struct reclaim *reclaim_new(const struct cgfs *cg);
void reclaim_free(struct reclaim *rc);

/*
 * Loads the programs when want is set and they are not loaded (once: a
 * failure is kept), unloads them when it is not (their counts start
 * again at the next load).  Returns the state.
 */
enum reclaim_state reclaim_want(struct reclaim *rc, int want);

/*
 * Fills snap's groups and system figures from the events (see above); with
 * nothing loaded, nothing: the figures stay not available.  Call after
 * cgfs_refresh, before model_update.
 */
void reclaim_fill(struct reclaim *rc, struct snapshot *snap);

/*
 * reclaim_fill's work on a read of the events (for the unit tests: no BPF
 * needed; the groups sorted by id, as bpfev_read gives them).
 */
struct bpfev_count;
struct bpfev_sys;
void reclaim_fill_from(struct reclaim *rc, struct snapshot *snap,
		       const struct bpfev_count *gs, size_t ngs,
		       const struct bpfev_sys *sys);

/* For the unit tests: a handle as on a live host of version `version`,
 * with the events taken as loaded (reclaim_fill_from gives them). */
struct reclaim *reclaim_new_test(int version);
/* For the unit tests: the ids the last fill dropped from the kernel's map
 * (groups not in the tree: removed, or never in it). */
size_t reclaim_dropped_test(const struct reclaim *rc, const uint64_t **ret_ids);

/*
 * The state, with a one-line text for the detail pane in *ret_text
 * (why they are not loaded or failed) and, when on, since when they
 * count in *ret_since (wall clock); either may be NULL.
 */
enum reclaim_state reclaim_state(const struct reclaim *rc,
				 const char **ret_text, int64_t *ret_since);

#endif
