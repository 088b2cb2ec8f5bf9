/* SPDX-License-Identifier: GPL-2.0-or-later */
/* setcmd.h - --set PATH:KNOB=VALUE, the program that changes knobs and exits.
 *
 * Every change is checked before the first is written (edit_plan, then
 * edit_apply for each, in an order the kernel accepts), each written
 * change printed as one line and recorded in the audit trail.
 */
#ifndef MEMCGTOP_SETCMD_H
#define MEMCGTOP_SETCMD_H

#include <stddef.h>

#include "cgfs.h"

/*
 * The nsets arguments of --set in sets, on the hierarchy cg; audit_log the
 * --audit-log FILE or NULL.  The exit status: 0, 1 for a failure at run
 * time (a change refused or not recorded, no permission, stdout lost), 2
 * for an argument that is wrong (nothing is written then).
 */
struct setcmd_opts {
	int dry_run;	/* --dry-run: the previews, nothing written */
	int json;	/* -F json (with --dry-run): one object */
	long follow;	/* --follow SECS after each change done (live) */
};

int setcmd_run(struct cgfs *cg, char *const *sets, size_t nsets,
	       const char *audit_log, const struct setcmd_opts *so);

#endif
