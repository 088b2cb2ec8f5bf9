/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edit.h - one change to one group: plan, confirm, write, verify, record.
 *
 * Shared by --set and the screen's edit dialog, so both make the same
 * checks and the same audit records.
 */
#ifndef MEMCGTOP_EDIT_H
#define MEMCGTOP_EDIT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cgfs.h"
#include "knob.h"
#include "preview.h"

struct edit_plan {
	const struct knob *k;
	char path[PATH_MAX];	/* at most PATH_MAX - 1 bytes (edit_plan) */
	char old[64];		/* the value now, "max", or "-" (write-only) */
	char value[96];		/* what will be written */
	char shown[128];	/* the new value as shown to the operator */
	char warn[256];		/* what the kernel will do, or "" */
	char text[96];		/* as typed: computed again at the write */
};

struct edit_result {
	int err;		/* 0 or the kernel's errno */
	int audit_failed;	/* the audit log could not be written */
	char old[64];		/* the value the write replaced */
	char value[96];		/* what was written */
	char now[64];		/* the value the kernel holds afterwards */
	char msg[4800];		/* one line for the operator */
};

/*
 * Checks a change of knob k of the group at path to `text` without writing
 * anything.  Returns 0, or a negative errno with a one-line reason in err.
 */
int edit_plan(struct cgfs *cg, const char *path, const struct knob *k,
	      const char *text, struct edit_plan *ret, char *err,
	      size_t errlen);
/*
 * Under the group's lock (cgfs_lock_group): reads the value again, computes
 * a relative change from it, writes, reads back what the kernel holds and
 * records it (marked fixture=yes, and not in syslog, off a live hierarchy).
 * 0 if done.
 */
int edit_apply(struct cgfs *cg, const struct edit_plan *p,
	       struct edit_result *ret);
/* What the kernel's refusal (errno) means for this change in particular. */
const char *edit_explain(const struct edit_plan *p, int err);
/* The value knob k of the group at path holds now, trimmed into buf (what
 * the dialog shows beside it).  Returns 0 or a negative errno. */
int edit_now(struct cgfs *cg, const char *path, const struct knob *k,
	     char *buf, size_t len);

struct model;
/*
 * What the kernel will do when plan p is written (preview.h): the group's
 * figures read now, the tree's (siblings, descendants' protection, the
 * processes, the soft-limit excesses) from model m, whose groups are the
 * hierarchy's (NULL: the group's own figures only).
 */
void edit_preview(struct cgfs *cg, const struct model *m,
		  const struct edit_plan *p, struct preview_in *in,
		  struct preview *ret);
/* Field f of the group, read from its file now (a keyed file's line);
 * *ok (may be NULL) 0 when the file or the line is missing. */
uint64_t edit_field(struct cgfs *cg, const char *path, int version,
		    enum field f, int *ok);
/* The preview as lines for the operator (at most max, PREVIEW_LINE bytes
 * each): the outcome and its sentence, need and the parts, the likely
 * victim, the siblings' new effective protection.  Returns how many. */
#define PREVIEW_LINE 400
size_t edit_preview_lines(const struct preview_in *in,
			  const struct preview *pv, char (*lines)[PREVIEW_LINE],
			  size_t max);
/* The preview as one JSON object. */
void edit_preview_json(FILE *f, const struct preview_in *in,
		       const struct preview *pv);
/* What a change did: the group's figures read before and after it
 * (W_STALL_US and W_AVG10: memory.pressure's some total, in microseconds,
 * and avg10, in hundredths of a per cent). */
enum { W_USAGE, W_PGSTEAL, W_OOM_KILL, W_REFAULT_FILE, W_REFAULT_ANON,
       W_EV_HIGH, W_EV_MAX, W_FAILCNT, W_STALL_US, W_AVG10, W_NR };
struct proc_row;
struct edit_watch {
	uint64_t v[W_NR];
	unsigned has;			/* 1u << W_*: read */
	int *pids;			/* the group's own processes */
	size_t npids;
	struct proc_row *rows;		/* their commands (edit_watch_procs) */
	size_t nrows;
};
void edit_watch_read(struct cgfs *cg, const char *path, int version,
		     struct edit_watch *w);
/* The commands of w's processes, to name the ones an OOM kill took. */
void edit_watch_procs(struct edit_watch *w);
void edit_watch_free(struct edit_watch *w);
/* The outcome the figures show; err: the write's errno or 0. */
enum preview_outcome edit_observed(const struct edit_plan *p, int err,
				   const struct edit_watch *before,
				   const struct edit_watch *after);
/* The line for the operator and the audit log's words: observed against
 * predicted, secs after the change. */
void edit_follow_report(const struct edit_plan *p, int err, long secs,
			const struct preview *pv,
			const struct edit_watch *before,
			const struct edit_watch *after, char *line, size_t len,
			char *audit, size_t alen);
/* Why knob k cannot be changed on this group, or NULL if it can. */
const char *edit_disabled(struct cgfs *cg, const char *path,
			  const struct knob *k);

#endif
