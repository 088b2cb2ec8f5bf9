/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysinfo.h - system-wide memory figures for the header (cgfs's helper).
 *
 * On a live host they come from libproc2 (meminfo), /proc/vmstat and
 * /proc/pressure/memory; with --proc DIR from DIR's files, which may be a
 * recorded series (DIR/timestamps, DIR/N/meminfo ...).
 */
#ifndef MEMCGTOP_SYSINFO_H
#define MEMCGTOP_SYSINFO_H

#include <stddef.h>

#include "sample.h"

struct sysinfo_src;

/* procdir NULL: the live /proc. */
int sysinfo_open(const char *procdir, struct sysinfo_src **ret_src);
void sysinfo_close(struct sysinfo_src *src);
struct sink;
/* Every file read from now on also goes to the sink (sink.h: proc). */
void sysinfo_sink(struct sysinfo_src *src, struct sink *sink);

/* Whether sysinfo_read also reads whether the multi-gen LRU runs
 * (SYS_LRU_GEN; only the scan_prio column needs it). */
void sysinfo_want_lru_gen(struct sysinfo_src *src, int want);
/* Whether /proc/zoneinfo (the watermarks) is read: by default yes; the
 * screen, whose header has no room for them, says no. */
void sysinfo_want_zoneinfo(struct sysinfo_src *src, int want);

/* "key value" lines of the figures in sys that the reclaim events gave
 * (SYS_SCAN_PRIO on), as a recording keeps them in its procfs folder's
 * memcgtop.events, where sysinfo_read reads them back: the length put
 * in buf. */
size_t sysinfo_event_lines(const struct sysinfo *sys, char *buf, size_t cap);

/* Reads the sample in folder `sample` of a series, or the current
 * figures. */
void sysinfo_read(struct sysinfo_src *src, size_t sample,
		  struct sysinfo *ret_sys);

#endif
