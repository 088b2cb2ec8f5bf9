/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysfig.h - the one table of the system figures (the header's).
 *
 * Each figure of struct sysinfo (sample.h) has its row at its enum
 * sysfield index: how it is shown, its JSON key, its OpenMetrics family
 * and HELP text, and where it stands in the text header and the screen's.
 * The model rates the counters among them; every output loops over this
 * table, in its order.  Its OpenMetrics type follows from the unit, as a
 * column's does: a counter is a counter, the rest are gauges, and a size
 * has the unit bytes.
 */
#ifndef MEMCGTOP_SYSFIG_H
#define MEMCGTOP_SYSFIG_H

#include <stdint.h>

#include "sample.h"

enum sysfig_unit {
	SU_BYTES,	/* a size: a gauge */
	SU_COUNTER,	/* a count that only grows: shown per second,
			 * exported as it is */
	SU_PSI,		/* a pressure average in hundredths of a percent */
	SU_FLAG,	/* a word of flags, read by the model and the pane */
	SU_NUMBER,	/* a number: a gauge */
};

/* Left out of every output while it has no value, rather than shown as
 * "-" or null: the reclaim events', which a host, a copy or a recording
 * without them never had, so that those print what they always did. */
#define SF_LOADED	1u
/* An array is listed from its last element down in OpenMetrics and on a
 * header line (priority 12 is where reclaim starts); JSON's array is in
 * index order. */
#define SF_LAST_FIRST	2u

/* Where a figure stands in a header: its line (1 the first, 0 none) and
 * the words before and after its text. */
struct sys_place {
	int line;
	const char *pre, *post;
};

enum sys_at {
	SYS_AT_TEXT,	/* the text format's header (out_text) */
	SYS_AT_SCREEN,	/* the screen's (tui/draw) */
	SYS_AT_NR
};

/* The most lines a header's system figures take. */
#define SYS_LINES 2

struct sysfig {
	enum sysfig_unit unit;
	int n;			/* its values: 1, or an array's length (the
				 * ids from its own on); 0 for the later ids
				 * of an array, which have no row */
	unsigned flags;		/* SF_* */
	const char *json;	/* key in the JSON "system" object; NULL:
				 * not in JSON */
	const char *om;		/* OpenMetrics family; NULL: not exported */
	const char *label;	/* an array's OpenMetrics label, whose value
				 * is the index */
	const char *help;	/* OpenMetrics HELP */
	struct sys_place at[SYS_AT_NR];
};

extern const struct sysfig sysfigs[SYS_NR];

/* The ids of row id's values: SBIT(id) for one, a run for an array. */
uint64_t sysfig_ids(int id);

/* Every counter row's ids: the figures the model rates. */
uint64_t sysfig_counters(void);

#endif
