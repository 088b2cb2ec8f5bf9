/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.h - writing what a refresh read as a series, for exact replay.
 *
 * A recording is a series (see cgfs.h): DIR/timestamps, one whole tree of
 * the files read per sample in DIR/SLOT/, the procfs files in
 * DIR/proc/SLOT/ with DIR/proc/timestamps, and DIR/info naming the host's
 * mode and root and the start group.  With a maximum, slots are reused oldest first and
 * timestamps lists the samples in order as "MONO WALL SLOT".
 */
#ifndef MEMCGTOP_RECORD_H
#define MEMCGTOP_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct recorder;

/* max 0: keep every sample.  Creates DIR (mode 0755) if missing; refuses
 * a DIR that holds anything but an earlier recording.  start: the start
 * group, "" for the root, else "a/b". */
int record_open(const char *dir, long max, const char *mode,
		const char *root, const char *start, struct recorder **ret,
		char *err, size_t errlen);
void record_close(struct recorder *r);

/* A new sample: its slot is made empty. */
int record_begin(struct recorder *r);
/* A control file of the group at path ("/" or "/a/b"), as read. */
void record_file(struct recorder *r, const char *path, const char *name,
		 const void *buf, size_t len);
/* A procfs file ("meminfo", "vmstat", "pressure/memory"), as read. */
void record_proc(struct recorder *r, const char *name, const void *buf,
		 size_t len);
/* Ends the sample: timestamps of both series rewritten atomically.
 * Returns 0 or a negative errno with the reason in err (the first write
 * that failed during the sample counts too). */
int record_end(struct recorder *r, double mono, int64_t wall, char *err,
	       size_t errlen);

#endif
