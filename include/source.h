/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source.h - what differs between the sources behind a cgfs (cgfs.h).
 *
 * The rest of the program calls the cgfs_* functions of cgfs.h; those
 * walk a tree of control files and read it the same way whatever the
 * source, and ask the source's ops only where the sources differ: which
 * tree a sample is read from, when it was taken, which system figures
 * belong to it, and whether its tree outlives the sample (so that
 * directory descriptors and inodes mean something across refreshes).
 * Two implementations: cgfs_live_ops (cgfs.c: the mounted hierarchy or a
 * copy below --root, read now) and cgfs_replay_ops (cgfs_replay.c: each
 * sample's slot folder of a recorded series).
 *
 * A BPF source (bpfcol.h) would not be a third set of these ops but sit
 * beside the live ops: it gives the tree's shape and the page counters
 * per group id in one pass, and the live files fill in the rest (see
 * cgfs.h).
 */
#ifndef MEMCGTOP_SOURCE_H
#define MEMCGTOP_SOURCE_H

#include <stddef.h>

struct cgfs;
struct snapshot;

struct source_ops {
	/* Each sample is a new copy of the tree: no directory descriptor is
	 * kept across refreshes and inodes tell nothing (snap_group.ino 0). */
	int fresh_tree;
	/* Starts reading sample `index`: the folder of its tree into dir,
	 * its times into snap.  -ENODATA: past the last sample. */
	int (*begin)(struct cgfs *cg, size_t index, char *dir, size_t dirlen,
		     struct snapshot *snap);
	/* The folder of the tree of the sample last read (for the detail,
	 * pids and knobs of a shown group). */
	void (*tree)(const struct cgfs *cg, char *dir, size_t dirlen);
	/* The system figures' slot of sample `index` (sysinfo_read). */
	size_t (*sys_slot)(const struct cgfs *cg, size_t index);
	/* The sample the last refresh read (0-based) and how many there
	 * are (cgfs_position); the next refresh reads sample index
	 * (cgfs_seek) or the one just read again (cgfs_reread).  The live
	 * files have one sample, now: 0 of 0, and nothing to seek. */
	size_t (*position)(const struct cgfs *cg, size_t *ret_count);
	void (*seek)(struct cgfs *cg, size_t index);
	void (*reread)(struct cgfs *cg);
	/* Its knobs may be written (cgfs_write; else -EROFS). */
	int writable;
	/* Opens cg->sys, the system figures (sysinfo.h), from proc (--proc
	 * DIR, or NULL): 0 or -ENOMEM. */
	int (*open_sys)(struct cgfs *cg, const char *proc);
};

extern const struct source_ops cgfs_live_ops;
extern const struct source_ops cgfs_replay_ops;

#endif
