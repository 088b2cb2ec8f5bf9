/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.h - writing what a refresh read as a series, for exact replay.
 *
 * A recording is a series (see cgfs.h): DIR/timestamps, one whole tree of
 * the files read per sample in DIR/SLOT/, the procfs files in
 * DIR/proc/SLOT/ with DIR/proc/timestamps, and DIR/info naming the host's
 * mode and root and the start group after a first line
 * "format memcgtop-recording 1".  With a
 * maximum, slots are reused oldest first and timestamps lists the samples
 * in order as "MONO WALL SLOT".
 *
 * DIR/memcgtop.lock is held (flock) while a recording is made.  An earlier
 * recording in DIR stays replayable until the new one has its first
 * sample: new slots are numbered after the old ones, timestamps and info
 * are written beside and renamed over theirs, and only then are the old
 * slots removed.
 */
#ifndef MEMCGTOP_RECORD_H
#define MEMCGTOP_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct recorder;
struct sink;

/* max 0: keep every sample.  Creates DIR (mode 0755) if missing; refuses
 * a DIR inside a cgroup file system, one another process records into
 * (-EBUSY), and one that holds anything but an earlier recording (info
 * with the format line, and only a recording's names) (-EEXIST).  start:
 * the start group, "" for the root, else "a/b"; collector: the tree that
 * reads the live hierarchy ("bpf": memory.stat may hold the pass's SLOT
 * lines, fields.h), said in DIR/info; recursiveprot: v2's
 * memory_recursiveprot (1, 0; -1 not known: no line). */
int record_open(const char *dir, long max, const char *mode,
		const char *collector, int recursiveprot, const char *root,
		const char *start, struct recorder **ret, char *err,
		size_t errlen);
void record_close(struct recorder *r);

/* The recorder as the live source's sink (sink.h): record_begin,
 * record_file of the group it was told, each procfs file ("meminfo",
 * "vmstat", "pressure/memory") into the proc series, record_groups,
 * record_end and record_close. */
struct sink *record_sink(struct recorder *r);

/* A new sample: its slot is made empty. */
int record_begin(struct recorder *r);
/* A control file of the group at path ("/" or "/a/b"), as read. */
void record_file(struct recorder *r, const char *path, const char *name,
		 const void *buf, size_t len);
/* The groups the sample kept (their paths, sorted here in place): the
 * folders of groups read but left out are removed, and a kept group
 * without any file gets its folder, so replay finds exactly these. */
void record_groups(struct recorder *r, char **kept, size_t n);
/* Ends the sample: timestamps of both series rewritten atomically.
 * Returns 0 or a negative errno with the reason in err (the first write
 * that failed during the sample counts too). */
int record_end(struct recorder *r, double mono, int64_t wall, char *err,
	       size_t errlen);

#endif
