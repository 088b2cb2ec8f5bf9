/* SPDX-License-Identifier: GPL-2.0-or-later */
/* source.h - what differs between the sources behind a cgfs (cgfs.h).
 *
 * The rest of the program calls the cgfs_* functions of cgfs.h; those
 * walk a tree of control files and read it the same way whatever the
 * source, and ask the source's ops only where the sources differ: which
 * tree a sample is read from, when it was taken, which system figures
 * belong to it, and whether its tree outlives the sample (so that
 * directory descriptors and inodes mean something across refreshes).
 * Two implementations: cgfs_live_ops (cgfs_find.c: the mounted hierarchy
 * or a copy below --root, read now) and cgfs_replay_ops (cgfs_replay.c:
 * each sample's slot folder of a recorded series).  cgfs_open picks one
 * (a --root folder with a timestamps file is a recording) and calls its
 * open; everything after goes through the ops.
 *
 * Which groups a sample has and how their values are read is another
 * choice, the tree (cgfs_int.h: the directory walk, or the BPF pass on a
 * live tree), and how the files' bytes are read a third (the plain
 * reader, or the recording one that keeps them).
 */
#ifndef MEMCGTOP_SOURCE_H
#define MEMCGTOP_SOURCE_H

#include <stddef.h>

struct cgfs;
struct cgfs_opts;
struct snapshot;

struct source_ops {
	/* A recorded series: it can seek, and is never written nor
	 * recorded again. */
	int series;
	/* Each sample is a new copy of the tree: no directory descriptor is
	 * kept across refreshes and inodes tell nothing (snap_group.ino 0). */
	int fresh_tree;
	/* Its knobs may be written (cgfs_write; else -EROFS). */
	int writable;
	/* Finds its hierarchy for opts: sets cg->root (and, for a recording
	 * opened without a CGROUP, cg->start), and puts the folder of the
	 * first sample's tree into dir.  0, or -errno with a one-line reason
	 * in err.  cgfs_open then tells the version from that folder. */
	int (*open)(struct cgfs *cg, const struct cgfs_opts *opts, char *dir,
		    size_t dirlen, char *err, size_t errlen);
	/* Frees what open made (cg->root and the rest are cgfs_close's). */
	void (*close)(struct cgfs *cg);
	/* Starts reading the next sample: the folder of its tree into dir,
	 * its times into snap.  -ENODATA: past the last sample. */
	int (*begin)(struct cgfs *cg, char *dir, size_t dirlen,
		     struct snapshot *snap);
	/* The folder of the tree of the sample last read (for the detail,
	 * pids and knobs of a shown group). */
	void (*tree)(const struct cgfs *cg, char *dir, size_t dirlen);
	/* The system figures' slot of the sample last begun (sysinfo_read). */
	size_t (*sys_slot)(const struct cgfs *cg);
	/* The sample the last refresh read (0-based) and how many there
	 * are (cgfs_position); the next refresh reads sample index
	 * (cgfs_seek) or the one just read again (cgfs_reread).  The live
	 * files have one sample, now: 0 of 0, and nothing to seek. */
	size_t (*position)(const struct cgfs *cg, size_t *ret_count);
	void (*seek)(struct cgfs *cg, size_t index);
	void (*reread)(struct cgfs *cg);
	/* Opens cg->sys, the system figures (sysinfo.h), from proc (--proc
	 * DIR, or NULL). */
	void (*open_sys)(struct cgfs *cg, const char *proc);
};

extern const struct source_ops cgfs_live_ops;
extern const struct source_ops cgfs_replay_ops;

#endif
