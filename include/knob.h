/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knob.h - what an operator can change, and the values it accepts.
 *
 * One table of knobs per cgroup version, each with its control file, the
 * kind of value it takes and its help.  Parsing and checking are pure: a
 * value is refused here, before anything is written.
 */
#ifndef MEMCGTOP_KNOB_H
#define MEMCGTOP_KNOB_H

#include <stddef.h>
#include <stdint.h>

enum knob_kind {
	KNOB_LIMIT,		/* a size or "max" */
	KNOB_SIZE,		/* a size ("max" refused) */
	KNOB_SWAPPINESS,	/* 0..200 */
	KNOB_BOOL,		/* 0 or 1 */
	KNOB_RECLAIM,		/* a size [swappiness=N]; write-only */
};

struct knob {
	const char *name;	/* used by --set and shown in the dialog */
	const char *alias;	/* another name, or NULL */
	int version;		/* 1 or 2 */
	const char *file;
	enum knob_kind kind;
	const char *help;
};

extern const struct knob knobs[];
extern const size_t nknobs;

const struct knob *knob_find(int version, const char *name, size_t len);

/* A new value: absolute or relative to the current one. */
struct knob_value {
	int unlimited;		/* "max", "unlimited", "-1" */
	uint64_t bytes;		/* or the number (swappiness, 0/1) */
	int has_swappiness;	/* reclaim: "swappiness=N" given */
	unsigned swappiness;
};

/*
 * Parses what the operator typed for knob k.  cur is the current value
 * (UINT64_MAX for "max"; has_cur 0 when it cannot be read), needed for
 * relative changes: +256M, -1G, +10%, -10%.  On error err says what the
 * knob accepts, or that a size is not a whole number of bytes.
 */
int knob_parse(const struct knob *k, const char *text, uint64_t cur,
	       int has_cur, struct knob_value *ret, char *err, size_t errlen);

/* The text to write: v1 spells no limit "-1", v2 "max". */
void knob_format(const struct knob *k, const struct knob_value *v, char *buf,
		 size_t len);

/* What an errno from writing knob k means here, in a few words. */
const char *knob_explain(const struct knob *k, int err);

#endif
