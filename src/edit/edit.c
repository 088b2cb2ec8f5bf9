/* SPDX-License-Identifier: GPL-2.0-or-later */
/* edit.c - checking, writing, verifying and recording one change. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "audit.h"
#include "edit.h"
#include "fmt.h"
#include "parse.h"

/* "max" for no limit in either version's spelling, else the text. */
static void normalise(const char *text, char *buf, size_t len)
{
	uint64_t v;

	if (parse_value(text, strlen(text), &v) == 0 && v == VAL_MAX)
		snprintf(buf, len, "max");
	else
		snprintf(buf, len, "%s", text);
}

static void human(const char *text, char *buf, size_t len)
{
	uint64_t v;

	buf[0] = '\0';
	if (parse_value(text, strlen(text), &v) == 0 && v != VAL_MAX &&
	    v >= 1024) {
		char h[32];

		fmt_bytes(h, sizeof(h), v);
		snprintf(buf, len, " (%.16s)", h);
	}
}

int edit_now(struct cgfs *cg, const char *path, const struct knob *k,
	     char *buf, size_t len)
{
	return cgfs_read_knob(cg, path, k->file, buf, len);
}

const char *edit_disabled(struct cgfs *cg, const char *path,
			  const struct knob *k)
{
	int r;

	if (cgfs_readonly(cg))
		return "--readonly: no changes";
	if (cgfs_is_series(cg))
		return "a recording cannot be changed";
	if (!cgfs_group_exists(cg, path))
		return "no such group";
	r = cgfs_can_write(cg, path, k->file);
	if (r == -ENOENT)
		return path[0] == '/' && path[1] == '\0' ?
			"the root group has no such file" :
			"this group has no such file (not this kernel, or "
			"swap accounting is off)";
	if (r == -EACCES || r == -EPERM)
		return "no permission to write it";
	if (r < 0)
		return strerror(-r);
	return NULL;
}

static void warn_for(struct cgfs *cg, const char *path, struct edit_plan *p,
		     uint64_t newv, int unlimited)
{
	const struct knob *k = p->k;
	const char *file, *key;
	char buf[64], u[32];
	uint64_t usage;

	p->warn[0] = '\0';
	/* v1 keeps the memory+swap limit at least the memory limit and
	 * refuses a change that would break that. */
	if (k->version == 1 && (!strcmp(k->name, "memsw") ||
				!strcmp(k->name, "limit"))) {
		int memsw = !strcmp(k->name, "memsw");
		const char *oname = memsw ? "limit" : "memsw";
		/* The other of the two, whose file the knob table names. */
		const struct knob *o = knob_find(1, oname, strlen(oname));
		uint64_t other;

		if (o && cgfs_read_knob(cg, path, o->file, buf,
					sizeof(buf)) == 0 &&
		    parse_value(buf, strlen(buf), &other) == 0 &&
		    other != VAL_MAX &&
		    (memsw ? unlimited == 0 && newv < other :
		     unlimited || newv > other)) {
			fmt_bytes(u, sizeof(u), other);
			snprintf(p->warn, sizeof(p->warn), memsw ?
				 "the memory limit %s is above it: the kernel "
				 "refuses the change (EINVAL); lower limit "
				 "first" : "the memory+swap limit %s is below "
				 "it: the kernel refuses the change (EINVAL); "
				 "raise memsw first", u);
			return;
		}
	}
	if (k->kind == KNOB_RECLAIM) {
		snprintf(p->warn, sizeof(p->warn), "the kernel reclaims this "
			 "much from the group now");
		return;
	}
	if (unlimited || (strcmp(k->name, "limit") && strcmp(k->name, "high")))
		return;
	if (!cgfs_field_source(k->version, FLD_USAGE, &file, &key) ||
	    cgfs_read_knob(cg, path, file, buf, sizeof(buf)) < 0 ||
	    parse_value(buf, strlen(buf), &usage) < 0 || usage <= newv)
		return;
	fmt_bytes(u, sizeof(u), usage);
	if (k->version == 1)
		snprintf(p->warn, sizeof(p->warn), "usage %s is above it: the "
			 "kernel reclaims now, and refuses the change (EBUSY) "
			 "if it cannot get below", u);
	else if (!strcmp(k->name, "limit"))
		snprintf(p->warn, sizeof(p->warn), "usage %s is above it: the "
			 "kernel reclaims now and may OOM-kill processes of the "
			 "group if it cannot get below", u);
	else
		snprintf(p->warn, sizeof(p->warn), "usage %s is above it: the "
			 "kernel reclaims now and throttles the group", u);
}

int edit_plan(struct cgfs *cg, const char *path, const struct knob *k,
	      const char *text, struct edit_plan *ret, char *err,
	      size_t errlen)
{
	struct knob_value v;
	const char *why;
	uint64_t cur = 0;
	int has_cur = 0, r;
	char h[32];

	memset(ret, 0, sizeof(*ret));
	ret->k = k;
	/* A path is one system call's argument (openat2 below the
	 * hierarchy's root): PATH_MAX with its NUL, as the kernel takes it,
	 * never cut to another group's path. */
	if (strlen(path) >= sizeof(ret->path)) {
		snprintf(err, errlen, "path too long: %zu bytes, at most %zu "
			 "(PATH_MAX %d with its NUL)", strlen(path),
			 sizeof(ret->path) - 1, PATH_MAX);
		return -ENAMETOOLONG;
	}
	snprintf(ret->path, sizeof(ret->path), "%s", path);
	why = edit_disabled(cg, path, k);
	if (why) {
		snprintf(err, errlen, "%s: %s", k->name, why);
		return -EPERM;
	}
	snprintf(ret->old, sizeof(ret->old), "-");
	if (k->kind != KNOB_RECLAIM) {
		char raw[64];

		r = cgfs_read_knob(cg, path, k->file, raw, sizeof(raw));
		if (r == 0) {
			normalise(raw, ret->old, sizeof(ret->old));
			has_cur = parse_value(raw, strlen(raw), &cur) == 0;
		}
	}
	r = knob_parse(k, text, cur, has_cur, &v, err, errlen);
	if (r < 0)
		return r;
	if (strlen(text) >= sizeof(ret->text)) {
		snprintf(err, errlen, "%s: the value is too long", k->name);
		return -EINVAL;
	}
	snprintf(ret->text, sizeof(ret->text), "%s", text);
	knob_format(k, &v, ret->value, sizeof(ret->value));
	if (v.unlimited)
		snprintf(ret->shown, sizeof(ret->shown), "max");
	else
		snprintf(ret->shown, sizeof(ret->shown), "%s", ret->value);
	human(ret->shown, h, sizeof(h));
	strncat(ret->shown, h, sizeof(ret->shown) - strlen(ret->shown) - 1);
	warn_for(cg, path, ret, v.bytes, v.unlimited);
	return 0;
}

const char *edit_explain(const struct edit_plan *p, int err)
{
	if (err == EINVAL && p->path[0] == '/' && p->path[1] == '\0')
		return "the root group takes no limit";
	if (err == EINVAL && p->k->kind == KNOB_RECLAIM &&
	    strstr(p->value, "swappiness="))
		return "this kernel's memory.reclaim takes no swappiness=";
	return knob_explain(p->k, err);
}

/*
 * Under the group's lock: the value the kernel holds now, and the value to
 * write computed from it again (a relative change adds to what another
 * run may have written since the plan).  0, or a negative errno with the
 * reason in err.
 */
static int replan(struct cgfs *cg, const struct edit_plan *p, char *old,
		  size_t oldlen, char *value, size_t valuelen, char *err,
		  size_t errlen)
{
	struct knob_value v;
	uint64_t cur = 0;
	int has_cur = 0, r;
	char raw[64];

	snprintf(old, oldlen, "-");
	if (p->k->kind != KNOB_RECLAIM &&
	    cgfs_read_knob(cg, p->path, p->k->file, raw, sizeof(raw)) == 0) {
		normalise(raw, old, oldlen);
		has_cur = parse_value(raw, strlen(raw), &cur) == 0;
	}
	r = knob_parse(p->k, p->text, cur, has_cur, &v, err, errlen);
	if (r < 0)
		return r;
	knob_format(p->k, &v, value, valuelen);
	return 0;
}

int edit_apply(struct cgfs *cg, const struct edit_plan *p,
	       struct edit_result *ret)
{
	const struct knob *k = p->k;
	char raw[64], h[32], path[4096], err[600];
	int r, lockfd = -1, fixture = !cgfs_is_live(cg);

	memset(ret, 0, sizeof(*ret));
	snprintf(ret->now, sizeof(ret->now), "-");
	snprintf(ret->old, sizeof(ret->old), "%s", p->old);
	snprintf(ret->value, sizeof(ret->value), "%s", p->value);
	/* A group name may hold any byte: the line shows it escaped. */
	fmt_escape(path, sizeof(path), p->path, strlen(p->path));
	/* Read, compute, write and read back under the group's lock: the
	 * old value in the audit line is the one the write replaced. */
	r = cgfs_lock_group(cg, p->path, &lockfd);
	if (r == 0 && replan(cg, p, ret->old, sizeof(ret->old), ret->value,
			     sizeof(ret->value), err, sizeof(err)) < 0) {
		/* Nothing reached the kernel: no audit line. */
		cgfs_unlock_group(lockfd);
		ret->err = EINVAL;
		snprintf(ret->msg, sizeof(ret->msg), "%s: %s (%s): not "
			 "written: %s", path, k->name, k->file, err);
		return -EINVAL;
	}
	if (r == 0)
		r = cgfs_write(cg, p->path, k->file, ret->value);
	ret->err = r < 0 ? -r : 0;
	/* Show what the kernel holds, whatever happened: it rounds down to
	 * pages, and a refused change leaves the old value. */
	if (k->kind != KNOB_RECLAIM &&
	    cgfs_read_knob(cg, p->path, k->file, raw, sizeof(raw)) == 0)
		normalise(raw, ret->now, sizeof(ret->now));
	cgfs_unlock_group(lockfd);
	human(ret->now, h, sizeof(h));
	if (r == 0)
		snprintf(ret->msg, sizeof(ret->msg), "%s: %s (%s): %s -> %s: "
			 "done%s%s%s", path, k->name, k->file, ret->old,
			 ret->value, k->kind == KNOB_RECLAIM ? "" :
			 ", the kernel holds ", k->kind == KNOB_RECLAIM ? "" :
			 ret->now, h);
	else
		snprintf(ret->msg, sizeof(ret->msg), "%s: %s (%s): %s -> %s: "
			 "refused: %s: %s", path, k->name, k->file, ret->old,
			 ret->value, strerror(-r), cgfs_readonly(cg) ?
			 "--readonly" : edit_explain(p, -r));
	/* The errno's name keeps the audit line key=value. */
	if (audit_record(p->path, k->file, ret->old, ret->value,
			 r == 0 ? "ok" : strerrorname_np(-r) ?
			 strerrorname_np(-r) : "error", ret->now, fixture) < 0) {
		size_t l = strlen(ret->msg);

		snprintf(ret->msg + l, sizeof(ret->msg) - l,
			 " (not recorded in the audit log: %s)",
			 audit_error());
		ret->audit_failed = 1;
	}
	return r;
}
