/* SPDX-License-Identifier: GPL-2.0-or-later */
/* columns.h - the one table of every column.
 *
 * Each row is defined once: its stable key (used by -c, -o, CSV and JSON
 * keys and OpenMetrics names), title, width, unit, the raw fields it needs
 * (so a refresh reads only the files that the chosen columns need), help
 * text and how to get its value.  Every output loops over this table.
 */
#ifndef MEMCGTOP_COLUMNS_H
#define MEMCGTOP_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "sysfig.h"

enum unit {
	U_PATH,		/* the group's path */
	U_INT,		/* a plain number (depth, swappiness, procs) */
	U_BYTES,
	U_COUNT,	/* a cumulative event counter */
	U_RATE,		/* events per second */
	U_PCT,		/* percent */
	U_RATIO,	/* 0..1 */
	U_PSI,		/* percent, in hundredths */
	U_NUMA,		/* per NUMA node: JSON only */
};

enum cv_kind { CV_NA, CV_NUM, CV_MAX, CV_DBL };

/* Where a column's value comes from. */
enum col_kind {
	CK_VALUE,	/* a field read (field), its rate or a derived value */
	CK_PATH,	/* the group's path */
	CK_DEPTH,	/* the group's depth in the tree */
	CK_NUMA,	/* memory.numa_stat per node: an object, JSON only */
};

struct cval {
	enum cv_kind kind;
	uint64_t u;
	double d;
};

struct column {
	const char *key;
	const char *title;
	int width;
	enum unit unit;
	int field;		/* enum field read or rated, -1: none */
	int derived;		/* enum derived, -1: none */
	fieldset fields;	/* FBIT mask of fields the value needs */
	const char *help;
	enum col_kind kind;
};

extern const struct column columns[];
extern const size_t ncolumns;

const struct column *col_find(const char *key);
size_t col_index(const struct column *c);

/* Whether column c has a value on cgroup version (1 or 2): its field is
 * kept there (fields.h), or one of the fields it is derived from. */
int col_on_version(const struct column *c, int version);

/*
 * The column sets: the screen's (Tab), and the overview is text output's
 * default too.  Each is a list per version of the columns it has there.
 */
enum col_set {
	CSET_OVERVIEW, CSET_MEMORY, CSET_LRU, CSET_RECLAIM, CSET_EVENTS,
	CSET_LIMITS, CSET_NR
};

const char *col_set_name(int set);
/* The columns of set on version, path last, into ret (room for max):
 * how many.  A set's column marked "?" in its table (v1's overview:
 * pgscan and pgsteal per second) is in only where its field is among
 * GIVEN (cgfs_free_fields: the BPF pass's kernel counters), not where it
 * would load the reclaim events, which cost every page fault. */
size_t col_set_columns(int set, int version, fieldset given,
		       const struct column **ret,
		       size_t max);

struct cval col_value(const struct column *c, const struct mgroup *g);

/* Orders two groups by a column, not available last in either direction. */
int col_compare(const struct column *c, const struct mgroup *a,
		const struct mgroup *b, int descending);

/*
 * Text for a value.  human: scaled units (K/M/G for bytes, k/M for rates)
 * that fit the column; otherwise exact (bytes, counts, rates with three
 * decimals).  Not available is "-" in text; callers of the data formats
 * check kind first.  Returns the length written (buf NUL-ended).
 */
size_t col_format(const struct column *c, struct cval v, int human,
		  char *buf, size_t len);

/*
 * The system figures (sysfig.h), a row id at a time; k is an element of
 * an array (0 for one value).
 *
 * col_sys_has: whether the row has its value (an array: every element).
 * col_sys_shown: whether it is in the outputs at all: a row SF_LOADED
 * only while it has its values.
 */
int col_sys_has(const struct model *m, int id);
int col_sys_shown(const struct model *m, int id);

/*
 * Text for element k of row id as it is shown: a counter's rate per
 * second, another figure's value.  human: scaled units (K/M/G for sizes,
 * k/M for rates); otherwise exact (rates with three decimals).  Returns 0
 * (buf untouched) when there is none.
 */
int col_sys_format(const struct model *m, int id, int k, int human,
		   char *buf, size_t len);

/* The exact value of element k of row id, a counter's count rather than
 * its rate (OpenMetrics); 0 when there is none. */
int col_sys_value(const struct model *m, int id, int k, char *buf,
		  size_t len);

/*
 * Header line `line` (1 to SYS_LINES) of the system figures as placed at
 * `at`: each figure between its words, "-" where it has no text; human
 * as for col_format.  Returns how many figures the line has, 0 for a
 * line to leave out; buf NULL only counts them.
 */
int col_sys_line(const struct model *m, enum sys_at at, int line, int human,
		 char *buf, size_t len);

/* Parses "a,b,c" into column pointers; on error names the bad key. */
int col_parse_list(const char *list, const struct column ***ret_cols,
		   size_t *ret_n, char *err, size_t errlen);

#endif
