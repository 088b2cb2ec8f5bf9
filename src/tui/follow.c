/* SPDX-License-Identifier: GPL-2.0-or-later */
/* follow.c - the screen's follow-up of a change, as --set's: each group
 * read before its write and again --follow seconds after, without
 * holding up the refreshes or the keys (the main loop asks when the time
 * is up), then the report against the preview, on the result screen, in
 * the detail pane and in the audit log. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "clock.h"
#include "edit.h"
#include "pane.h"
#include "tui_int.h"
#include "xalloc.h"

void tui_follow_free(struct tui *t)
{
	for (size_t i = 0; i < t->fw.n; i++)
		edit_watch_free(&t->fw.items[i].before);
	free(t->fw.items);
	memset(&t->fw, 0, sizeof(t->fw));
}

void tui_follow_begin(struct tui *t, const struct knob *k, size_t n)
{
	tui_follow_end(t);
	tui_follow_free(t);
	/* As --set: a fixture is no system to watch; 0 seconds, nothing. */
	if (t->o->follow <= 0 || !t->pl.m.src.live || !n)
		return;
	t->fw.items = xcalloc(n, sizeof(*t->fw.items));
	t->fw.k = k;
}

int tui_follow_write(struct tui *t, const struct edit_plan *p,
		     const struct preview *pv, struct edit_result *ret)
{
	struct follow_item *it;
	int r;

	if (!t->fw.items)
		return edit_apply(t->cg, p, ret);
	it = &t->fw.items[t->fw.n++];
	it->plan = *p;
	it->pv = *pv;
	edit_watch_read(t->cg, p->path, p->k->version, &it->before);
	edit_watch_procs(&it->before);
	r = edit_apply(t->cg, p, ret);
	/* The seconds count from the last write (it may have waited for
	 * the group's lock). */
	t->fw.start = clock_mono();
	t->fw.due = t->fw.start + (double)t->o->follow;
	it->err = ret->err;
	snprintf(it->now, sizeof(it->now), "%s", ret->now);
	return r;
}

/* The groups read again secs after their writes, each one's report made
 * and recorded; the status line sums them up. */
static void report(struct tui *t, long secs)
{
	size_t as = 0;

	for (size_t i = 0; i < t->fw.n; i++) {
		struct follow_item *it = &t->fw.items[i];
		struct edit_watch after;
		char words[1200];
		size_t l;

		edit_watch_read(t->cg, it->plan.path, it->plan.k->version,
				&after);
		edit_follow_report(&it->plan, it->err, secs, &it->pv,
				   &it->before, &after, it->line,
				   sizeof(it->line), words, sizeof(words));
		as += edit_observed(&it->plan, it->err, &it->before, &after) ==
			it->pv.outcome;
		edit_watch_free(&after);
		l = strlen(it->line);
		/* A refused write keeps the old value: said with it. */
		if (it->err)
			snprintf(it->line + l, sizeof(it->line) - l,
				 "; refused, %s stays %s", it->plan.k->name,
				 it->now);
		if (audit_note(it->plan.path, it->plan.k->file, words, 0) < 0) {
			l = strlen(it->line);
			snprintf(it->line + l, sizeof(it->line) - l,
				 " (not recorded in the audit log: %s)",
				 audit_error());
		}
	}
	t->fw.secs = secs;
	t->fw.due = 0;
	tui_message(t, as != t->fw.n, "change %s followed %lds: %zu as "
		    "predicted, %zu not", t->fw.k->name, secs, as,
		    t->fw.n - as);
}

void tui_follow_tick(struct tui *t)
{
	if (t->fw.due > 0 && clock_mono() >= t->fw.due)
		report(t, t->o->follow);
}

double tui_follow_wait(const struct tui *t)
{
	return t->fw.due > 0 ? t->fw.due - clock_mono() : 1e9;
}

void tui_follow_end(struct tui *t)
{
	if (t->fw.due > 0)
		report(t, (long)(clock_mono() - t->fw.start));
}

/* Whether the report of item it says the preview was right. */
static int as_predicted(const struct follow_item *it)
{
	return strstr(it->line, ", as predicted") != NULL;
}

const char *tui_follow_line(const struct tui *t, size_t i, int *attr)
{
	static char buf[4200];
	const struct follow_item *it;

	if (!t->fw.n || (t->fw.due > 0 && i > 0) || i > t->fw.n)
		return NULL;
	*attr = A_BOLD;
	if (i == 0 && t->fw.due > 0) {
		snprintf(buf, sizeof(buf), "Following the change %lds: the "
			 "report comes here and in the detail pane (d)",
			 t->o->follow);
	} else if (i == 0) {
		snprintf(buf, sizeof(buf), "Followed %lds after the change:",
			 t->fw.secs);
	} else {
		it = &t->fw.items[i - 1];
		*attr = as_predicted(it) ? (int)A_NORMAL :
			t->attr[TE_NEAR_LIMIT];
		snprintf(buf, sizeof(buf), "  %.2500s: %s", it->plan.path,
			 it->line);
	}
	return buf;
}

void tui_follow_pane(struct pane_out *p, const struct mgroup *g)
{
	const struct tui *t = p->t;

	for (size_t i = 0; i < t->fw.n; i++) {
		const struct follow_item *it = &t->fw.items[i];

		if (strcmp(it->plan.path, g->path))
			continue;
		pline(p, A_BOLD, "Last change: %s (%s) %s -> %s, %s",
		      it->plan.k->name, it->plan.k->file, it->plan.old,
		      it->plan.value, t->fw.due > 0 ? "following" :
		      it->err ? "refused" : "done");
		if (t->fw.due == 0)
			pline(p, as_predicted(it) ? (int)A_NORMAL :
			      t->attr[TE_NEAR_LIMIT], "  %.500s", it->line);
		return;
	}
}
