/* SPDX-License-Identifier: GPL-2.0-or-later */
/* setcmd.c - --set PATH:KNOB=VALUE: every change checked, then written. */
#include <errno.h>
#include <time.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "cgfs.h"
#include "edit.h"
#include "edit/setcmd.h"
#include "fmt.h"
#include "knob.h"
#include "model.h"
#include "parse.h"
#include "preview.h"
#include "xalloc.h"
#include "msg.h"

/*
 * --set PATH:KNOB=VALUE.  PATH may hold ':' and '=' (a group name may hold
 * any byte but '/'), knob names are fixed: the split is at the rightmost
 * ':' that is followed by a knob name and '='.  PATH is spec's first
 * *ret_plen bytes, however long (its length is edit_plan's to judge).
 */
static int split_set(const char *spec, int version, size_t *ret_plen,
		     const struct knob **ret_k, const char **ret_value)
{
	for (const char *c = strrchr(spec, ':'); c; ) {
		const char *eq = strchr(c + 1, '=');
		const struct knob *k = eq ? knob_find(version, c + 1,
						      (size_t)(eq - c - 1)) : NULL;

		if (k) {
			*ret_plen = (size_t)(c - spec);
			*ret_k = k;
			*ret_value = eq + 1;
			return 0;
		}
		while (--c >= spec && *c != ':')
			;
		if (c < spec)
			break;
	}
	return -EINVAL;
}

/* At most this many bytes of an argument or a path are quoted in a
 * message: a path of 5,000 bytes is not repeated whole. */
#define QUOTED_MAX 100

/* s as messages quote it: escaped, only its first QUOTED_MAX bytes (cut
 * at a character's start) and "..." when it is longer.  buf: 600 bytes. */
static void quote(char *buf, size_t len, const char *s)
{
	size_t n = strlen(s);

	if (n <= QUOTED_MAX) {
		fmt_escape(buf, len, s, n);
		return;
	}
	n = QUOTED_MAX;
	while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	fmt_escape(buf, len - 3, s, n);
	strcat(buf, "...");
}

/*
 * One spelling per group, so that checks keyed by path see the same group
 * as the same: "/g", "g", "/g/", "//g" and "/g//" are all "/g", and "/" and
 * "//" the root.  In place; p starts with '/'.
 */
static void group_key(char *p)
{
	char *w = p;

	for (const char *r = p; *r; r++)
		if (*r != '/' || w == p || w[-1] != '/')
			*w++ = *r;
	if (w > p + 1 && w[-1] == '/')
		w--;
	*w = '\0';
}

static void knob_names(int version, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < nknobs && o < len; i++)
		if (knobs[i].version == version)
			o += (size_t)snprintf(buf + o, len - o, "%s%s",
					      o ? ", " : "", knobs[i].name);
}

/* A plan's value as a number; no limit is VAL_MAX. */
static uint64_t plan_bytes(const char *text)
{
	uint64_t v;

	if (!strcmp(text, "-1") || !strcmp(text, "max") ||
	    parse_value(text, strlen(text), &v) < 0)
		return VAL_MAX;
	return v;
}

/*
 * v1 keeps memory+swap at least memory at all times (EINVAL otherwise):
 * when one run changes both of a group, raising the limit past the old
 * memsw limit needs memsw first, lowering memsw below the old limit needs
 * the limit first.  Says so when it reorders.
 */
static void order_memsw(struct edit_plan *plans, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			struct edit_plan *a = &plans[i], *b = &plans[j];
			struct edit_plan *lim, *sw, tmp;
			char safe[600];

			if (a->k->version != 1 || b->k->version != 1 ||
			    strcmp(a->path, b->path))
				continue;
			if (!strcmp(a->k->name, "limit") &&
			    !strcmp(b->k->name, "memsw")) {
				lim = a;
				sw = b;
			} else if (!strcmp(a->k->name, "memsw") &&
				   !strcmp(b->k->name, "limit")) {
				sw = a;
				lim = b;
			} else {
				continue;
			}
			/* Raising past the old memsw: memsw goes first. */
			if (lim < sw &&
			    plan_bytes(lim->value) > plan_bytes(sw->old)) {
				fmt_escape(safe, sizeof(safe), a->path,
					   strlen(a->path));
				printf("%s: memsw is written before limit: the "
				       "kernel keeps memsw at least limit\n",
				       safe);
			} else if (sw < lim &&
				   plan_bytes(sw->value) < plan_bytes(lim->old)) {
				fmt_escape(safe, sizeof(safe), a->path,
					   strlen(a->path));
				printf("%s: limit is written before memsw: the "
				       "kernel keeps memsw at least limit\n",
				       safe);
			} else {
				continue;
			}
			tmp = *a;
			*a = *b;
			*b = tmp;
		}
	}
}

/* The hierarchy's tree, for the previews: siblings, descendants'
 * protection, every group's soft-limit excess, the system's free swap.
 * 0, or -1 when it cannot be read (the previews then use the group's own
 * figures only). */
static int read_tree(struct cgfs *cg, struct snapshot *snap,
		     struct model *m)
{
	int v = cgfs_version(cg);
	fieldset want = (FBIT(FLD_USAGE) | FBIT(FLD_LOW) | FBIT(FLD_MIN) |
			 FBIT(FLD_SOFT) | FBIT(FLD_LIMIT)) &
		cgfs_version_fields(v);
	char err[512];

	model_init(m, v);
	if (cgfs_refresh(cg, want, -1, snap, err, sizeof(err)) < 0)
		return -1;
	model_update(m, snap);
	return 0;
}

static void print_preview(const struct edit_plan *p,
			  const struct preview_in *in,
			  const struct preview *pv, int json, int first)
{
	char lines[8][PREVIEW_LINE], path[4096];
	size_t n;

	if (json) {
		fputs(first ? "" : ",", stdout);
		fputs("{\"path\":", stdout);
		fmt_json_name(stdout, p->path, strlen(p->path));
		printf(",\"knob\":\"%s\",\"file\":\"%s\",\"old\":\"%s\","
		       "\"new\":\"%s\",\"preview\":", p->k->name, p->k->file,
		       p->old, p->value);
		edit_preview_json(stdout, in, pv);
		fputc('}', stdout);
		return;
	}
	fmt_escape(path, sizeof(path), p->path, strlen(p->path));
	n = edit_preview_lines(in, pv, lines, 8);
	for (size_t i = 0; i < n; i++)
		printf("%s: %s%s\n", path, i ? "  " : "", lines[i]);
}

static void pause_seconds(long secs)
{
	struct timespec ts = { .tv_sec = secs, .tv_nsec = 0 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* One change written, and followed for secs seconds when it was done. */
static int apply_one(struct cgfs *cg, const struct edit_plan *p,
		     const struct preview *pv, long secs)
{
	struct edit_watch before, after;
	struct edit_result res;
	char line[1200], words[1200], path[4096];
	int status = 0, r, follow = secs > 0 && cgfs_is_live(cg);

	if (follow) {
		edit_watch_read(cg, p->path, p->k->version, &before);
		edit_watch_procs(&before);
	}
	r = edit_apply(cg, p, &res);
	if (r < 0 || res.audit_failed)
		status = 1;
	msg_out("%s", res.msg);
	fmt_escape(path, sizeof(path), p->path, strlen(p->path));
	if (r < 0 && follow) {
		msg_out("%s: preview said %s: %s", path,
			preview_word(pv->outcome),
			edit_observed(p, res.err, NULL, NULL) ==
			pv->outcome ? "as predicted" : "not as predicted");
	} else if (follow) {
		fflush(stdout);
		pause_seconds(secs);
		edit_watch_read(cg, p->path, p->k->version, &after);
		edit_follow_report(p, 0, secs, pv, &before, &after, line,
				   sizeof(line), words, sizeof(words));
		msg_out("%s: %s", path, line);
		if (audit_note(p->path, p->k->file, words, 0) < 0)
			status = 1;
		edit_watch_free(&after);
	}
	if (follow)
		edit_watch_free(&before);
	return status;
}

/* Every change is checked before the first is written. */
int setcmd_run(struct cgfs *cg, char *const *sets, size_t nsets,
	       const char *audit_log, const struct setcmd_opts *so)
{
	struct edit_plan *plans = xcalloc(nsets, sizeof(*plans));
	struct preview_in *pin;
	struct preview *pv;
	struct snapshot snap = { 0 };
	struct model m;
	int version = cgfs_version(cg), status = 0;
	char err[600];

	for (size_t i = 0; i < nsets; i++) {
		const struct knob *k;
		const char *value;
		char names[256], spec[600], *path;
		size_t plen;
		int r;

		/* The argument may hold any byte: echoed escaped. */
		quote(spec, sizeof(spec), sets[i]);
		if (split_set(sets[i], version, &plen, &k, &value) < 0) {
			knob_names(version, names, sizeof(names));
			msg_err("--set '%s': expected "
				"PATH:KNOB=VALUE with a cgroup v%d knob (%s)",
				spec, version, names);
			free(plans);
			return 2;
		}
		if (plen == 0) {
			msg_err("--set '%s': no group path "
				"(give / for the root)", spec);
			free(plans);
			return 2;
		}
		/* Paths as memcgtop shows them: below the hierarchy root. */
		path = xmalloc(plen + 2);
		path[0] = '/';
		memcpy(path + 1, sets[i], plen);
		path[plen + 1] = '\0';
		if (!parse_clean_path(path + 1)) {
			char p1[600];

			quote(p1, sizeof(p1), path + 1);
			msg_err("--set '%s': '%s' is not a "
				"group path (no '.' or '..' components)",
				spec, p1);
			free(path);
			free(plans);
			return 2;
		}
		group_key(path);
		for (size_t j = 0; j < i; j++)
			if (plans[j].k == k && !strcmp(plans[j].path, path)) {
				/* Both would be planned against the value
				 * from before the run. */
				char prev[600], gp[600];

				quote(prev, sizeof(prev), sets[j]);
				quote(gp, sizeof(gp), plans[j].path);
				msg_err("--set '%s': %s of %s "
					"is already changed by '%s'", spec,
					k->name, gp, prev);
				free(path);
				free(plans);
				return 2;
			}
		r = edit_plan(cg, path, k, value, &plans[i], err, sizeof(err));
		free(path);
		if (r < 0) {
			msg_err("--set '%s': %s", spec,
				err);
			free(plans);
			return r == -EPERM ? 1 : 2;
		}
	}
	order_memsw(plans, nsets);
	/* Every preview before the first write: each says what its change
	 * does to the hierarchy as it is. */
	pin = xcalloc(nsets, sizeof(*pin));
	pv = xcalloc(nsets, sizeof(*pv));
	{
		int tree = read_tree(cg, &snap, &m);

		for (size_t i = 0; i < nsets; i++)
			edit_preview(cg, tree == 0 ? &m : NULL, &plans[i],
				     &pin[i], &pv[i]);
	}
	if (so->dry_run) {
		if (so->json)
			fputs("{\"dry_run\":true,\"changes\":[", stdout);
		for (size_t i = 0; i < nsets; i++) {
			char path[4096];

			if (!so->json) {
				fmt_escape(path, sizeof(path), plans[i].path,
					   strlen(plans[i].path));
				msg_out("%s: %s (%s): %s -> %s: dry run, not "
					"written", path, plans[i].k->name,
					plans[i].k->file, plans[i].old,
					plans[i].value);
			}
			print_preview(&plans[i], &pin[i], &pv[i], so->json,
				      i == 0);
		}
		if (so->json)
			fputs("]}\n", stdout);
		goto done;
	}
	if (audit_open(audit_log, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		status = 1;
		goto done;
	}
	/* Said once, before the first write: the operator may rely on the
	 * record.  A fixture's changes go to no syslog anyway. */
	if (cgfs_is_live(cg) && !audit_has_file() && !audit_syslog_listening())
		msg_err("no syslog is listening on %s: these "
			"changes are recorded nowhere (give --audit-log FILE, "
			"or start a syslog daemon)", audit_syslog_path());
	for (size_t i = 0; i < nsets; i++) {
		/* --follow 0: the one result line, as before previews. */
		if (cgfs_is_live(cg) && so->follow > 0)
			print_preview(&plans[i], &pin[i], &pv[i], 0, i == 0);
		if (apply_one(cg, &plans[i], &pv[i], so->follow))
			status = 1;
	}
	audit_close();
done:
	model_free(&m);
	snapshot_free(&snap);
	free(pin);
	free(pv);
	free(plans);
	if (fflush(stdout) != 0)
		status = 1;
	return status;
}
