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

#include "cgfs.h"
#include "knob.h"

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
/* Why knob k cannot be changed on this group, or NULL if it can. */
const char *edit_disabled(struct cgfs *cg, const char *path,
			  const struct knob *k);

#endif
