/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sink.h - where what the live source reads is kept.
 *
 * The recording reader (cgfs_tee_reader, cgfs_int.h) tells a sink what it
 * reads: a sample begins, a group is read, each of its control files (their
 * exact bytes), the groups the sample kept, the sample ends; and
 * sysinfo.c tells it the system figures' procfs files (sysinfo_sink).
 * The recorder (record.h, --record) is the one sink today (record_sink).
 */
#ifndef MEMCGTOP_SINK_H
#define MEMCGTOP_SINK_H

#include <stddef.h>
#include <stdint.h>

struct sink;

struct sink_ops {
	/* A new sample: 0 or -errno (the sample's files are then not
	 * kept, and end reports it). */
	int (*begin)(struct sink *s);
	/* The files read next are of the group at path ("/" or "/a/b"),
	 * copied here as a snapshot's path arena moves when a group is
	 * added; NULL: of none (what is read then is not the sample's). */
	void (*group)(struct sink *s, const char *path);
	/* A control file of that group, as read (none: not kept). */
	void (*file)(struct sink *s, const char *name, const void *buf,
		     size_t len);
	/* A file of the system figures, below the procfs ("meminfo",
	 * "pressure/memory"), as read (sysinfo.h). */
	void (*proc)(struct sink *s, const char *name, const void *buf,
		     size_t len);
	/* The groups the sample kept (their paths, may be sorted in
	 * place). */
	void (*groups)(struct sink *s, char **kept, size_t n);
	/* The sample ends, taken at these times: 0 or -errno with the
	 * reason in err. */
	int (*end)(struct sink *s, double mono, int64_t wall, char *err,
		   size_t errlen);
	void (*close)(struct sink *s);
};

/* Embedded first in an implementation's own struct. */
struct sink {
	const struct sink_ops *ops;
};

#endif
