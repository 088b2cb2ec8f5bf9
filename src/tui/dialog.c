/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dialog.c - the edit dialog: pick a knob, type a value, confirm, report.
 *
 * Changes go through edit.c, as --set does: the same checks, the same
 * write, the same audit record.  Tagged groups are changed together, each
 * checked and reported on its own.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit.h"
#include "edit.h"
#include "fmt.h"
#include "parse.h"
#include "tui_int.h"
#include "xalloc.h"

static void clear_plans(struct tui *t)
{
	free(t->ed.plans);
	free(t->ed.pvs);
	t->ed.plans = NULL;
	t->ed.pvs = NULL;
	t->ed.nplans = 0;
	t->ed.nlines = 0;
}

void tui_dialog_free(struct tui *t)
{
	clear_plans(t);
	for (size_t i = 0; i < t->ed.npaths; i++)
		free(t->ed.paths[i]);
	free(t->ed.paths);
	t->ed.paths = NULL;
	t->ed.npaths = 0;
	free(t->ed.lines);
	t->ed.lines = NULL;
	free(t->undo);
	t->undo = NULL;
	t->nundo = 0;
}

static void dialog_say(struct tui *t, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A message of the edit in the box, under the prompt, where the eye is:
 * not on the status line at the other end of the screen. */
static void dialog_say(struct tui *t, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->ed.msg, sizeof(t->ed.msg), fmt, ap);
	va_end(ap);
	t->ed.msg_error = error;
}

static void add_line(struct tui *t, int attr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_line(struct tui *t, int attr, const char *fmt, ...)
{
	struct dialog_line *l;
	va_list ap;

	if (t->ed.nlines == t->ed.caplines) {
		t->ed.caplines = t->ed.caplines ? t->ed.caplines * 2 : 16;
		t->ed.lines = xreallocarray(t->ed.lines, t->ed.caplines,
					    sizeof(*t->ed.lines));
	}
	l = &t->ed.lines[t->ed.nlines++];
	l->attr = attr;
	va_start(ap, fmt);
	vsnprintf(l->text, sizeof(l->text), fmt, ap);
	va_end(ap);
}

/* A knob's value as the dialog shows it: "max" for no limit, a size in
 * human units with its exact bytes in brackets, anything else as it is. */
static void show_value(const struct knob *k, const char *text, char *buf,
		       size_t len)
{
	uint64_t v;
	char h[32];

	if (parse_value(text, strlen(text), &v) < 0 ||
	    (k->kind != KNOB_LIMIT && k->kind != KNOB_SIZE &&
	     k->kind != KNOB_RECLAIM)) {
		snprintf(buf, len, "%s", text);
	} else if (v == VAL_MAX) {
		snprintf(buf, len, "max");
	} else if (v < 1024) {
		snprintf(buf, len, "%s", text);
	} else {
		fmt_bytes(h, sizeof(h), v);
		snprintf(buf, len, "%s [%.30s]", h, text);
	}
}

/* The groups a change applies to: the tagged ones, else the selection. */
static int take_targets(struct tui *t)
{
	const struct mgroup *sel = tui_selected(t);
	size_t n = 0;

	for (size_t i = 0; i < t->ed.npaths; i++)
		free(t->ed.paths[i]);
	free(t->ed.paths);
	t->ed.paths = NULL;
	t->ed.npaths = 0;
	for (size_t i = 0; i < t->pl.m.n; i++)
		n += (t->pl.m.groups[i]->view & VIEW_TAGGED) != 0;
	t->ed.paths = xcalloc(n ? n : 1, sizeof(char *));
	/* In the order of the tree on the screen. */
	for (size_t i = 0; i < t->norder && n; i++)
		if (t->pl.m.groups[t->order[i]]->view & VIEW_TAGGED)
			t->ed.paths[t->ed.npaths++] =
				xstrdup(t->pl.m.groups[t->order[i]]->path);
	if (!n && sel)
		t->ed.paths[t->ed.npaths++] = xstrdup(sel->path);
	return t->ed.npaths ? 0 : -1;
}

void tui_dialog_open(struct tui *t)
{
	int v = t->pl.m.src.version;

	if (t->pl.m.src.readonly) {
		tui_message(t, 1, "editing is disabled: --readonly");
		return;
	}
	if (t->pl.m.src.series) {
		tui_message(t, 1, "editing is disabled: a recording cannot be "
			    "changed");
		return;
	}
	if (take_targets(t) < 0) {
		tui_message(t, 1, "no group to edit");
		return;
	}
	t->ed.nknobs = 0;
	for (size_t i = 0; i < nknobs && t->ed.nknobs < DIALOG_MAX_KNOBS; i++)
		if (knobs[i].version == v)
			t->ed.knobs[t->ed.nknobs++] = &knobs[i];
	t->ed.sel = 0;
	t->ed.undo = 0;
	clear_plans(t);
	t->ed.stage = ED_PICK;
	t->ed.msg[0] = '\0';
	t->ed.loaded = 0;
	tui_dialog_load(t);
}

/* Reads what the knob table and the prompt show: once when the dialog
 * opens, then once per refresh. */
void tui_dialog_load(struct tui *t)
{
	if (t->ed.stage != ED_PICK && t->ed.stage != ED_VALUE)
		return;
	if (t->ed.loaded && t->ed.loaded_refresh == t->pl.m.refreshes)
		return;
	for (size_t i = 0; i < t->ed.nknobs; i++) {
		const struct knob *k = t->ed.knobs[i];

		t->ed.why[i] = edit_disabled(t->cg, t->ed.paths[0], k);
		t->ed.now_ok[i] = k->kind != KNOB_RECLAIM &&
			edit_now(t->cg, t->ed.paths[0], k, t->ed.now[i],
				 sizeof(t->ed.now[i])) == 0;
		if (!t->ed.now_ok[i])
			snprintf(t->ed.now[i], sizeof(t->ed.now[i]), "-");
	}
	t->ed.loaded = 1;
	t->ed.loaded_refresh = t->pl.m.refreshes;
}

/* Plans the change for every target; problems are listed, not fatal. */
static void plan_all(struct tui *t, const struct knob *k, const char **texts)
{
	char err[600], old[80], new[80];

	clear_plans(t);
	t->ed.plans = xcalloc(t->ed.npaths, sizeof(*t->ed.plans));
	t->ed.pvs = xcalloc(t->ed.npaths, sizeof(*t->ed.pvs));
	add_line(t, t->attr[TE_HEADER], "Change %s (%s)%s", k->name, k->file,
		 t->ed.undo ? ": undo" : "");
	for (size_t i = 0; i < t->ed.npaths; i++) {
		struct edit_plan *p = &t->ed.plans[t->ed.nplans];

		if (edit_plan(t->cg, t->ed.paths[i], k, texts ? texts[i] :
			      t->line, p, err, sizeof(err)) < 0) {
			add_line(t, t->attr[TE_ERROR], "  %s: not changed: %s",
				 t->ed.paths[i], err);
			continue;
		}
		t->ed.nplans++;
		show_value(k, p->old, old, sizeof(old));
		if (!strcmp(p->shown, "max"))
			snprintf(new, sizeof(new), "max");
		else
			show_value(k, p->value, new, sizeof(new));
		add_line(t, A_NORMAL, "  %s: %s -> %s", p->path, old, new);
		if (p->warn[0])
			add_line(t, t->attr[TE_NEAR_LIMIT], "      %s", p->warn);
		{
			char pl[6][PREVIEW_LINE];
			size_t n = tui_preview(t, p,
					       &t->ed.pvs[t->ed.nplans - 1],
					       pl, 6);

			for (size_t j = 0; j < n; j++)
				add_line(t, j ? A_NORMAL : A_BOLD, "      %s",
					 pl[j]);
		}
	}
	if (t->ed.nplans && t->pl.m.src.live && !audit_has_file() &&
	    !audit_syslog_listening())
		add_line(t, t->attr[TE_NEAR_LIMIT], "No syslog is listening on "
			 "%s: this change is recorded nowhere (--audit-log FILE "
			 "or a syslog daemon keeps it)", audit_syslog_path());
	if (t->ed.nplans)
		add_line(t, A_BOLD, "Apply %s %zu group%s? y applies, any other "
			 "key cancels", t->ed.nplans == 1 ? "to" : "to these",
			 t->ed.nplans, t->ed.nplans == 1 ? "" : "s");
	else
		add_line(t, A_BOLD, "Nothing to change; any key returns");
	t->ed.stage = ED_CONFIRM;
}

static void apply_all(struct tui *t)
{
	size_t done = 0, refused = 0, nu = 0;
	struct undo *u;

	t->ed.nlines = 0;
	add_line(t, t->attr[TE_HEADER], "Changed %s (%s)", t->ed.k->name,
		 t->ed.k->file);
	u = xcalloc(t->ed.nplans, sizeof(*u));
	tui_follow_begin(t, t->ed.k, t->ed.nplans);
	for (size_t i = 0; i < t->ed.nplans; i++) {
		struct edit_plan *p = &t->ed.plans[i];
		struct edit_result r;

		if (tui_follow_write(t, p, &t->ed.pvs[i], &r) == 0) {
			done++;
			/* memory.reclaim holds no value to show. */
			add_line(t, A_NORMAL, "  %s: done%s%s%s", p->path,
				 p->k->kind == KNOB_RECLAIM ? "" :
				 ", the kernel holds ",
				 p->k->kind == KNOB_RECLAIM ? "" : r.now,
				 r.audit_failed ?
				 " (not recorded in the audit log)" : "");
			if (p->k->kind != KNOB_RECLAIM &&
			    strcmp(p->old, "-")) {
				struct undo *x = &u[nu++];

				x->k = p->k;
				snprintf(x->path, sizeof(x->path), "%s", p->path);
				snprintf(x->old, sizeof(x->old), "%s", p->old);
			}
		} else {
			refused++;
			add_line(t, t->attr[TE_ERROR], "  %s: refused: %s: %s",
				 p->path, strerror(r.err),
				 edit_explain(p, r.err));
		}
	}
	/* The last change that did something is what u undoes; a change
	 * refused everywhere keeps the one before it undoable.  An undo
	 * itself is not undone. */
	if (t->ed.undo) {
		t->nundo = 0;
		free(u);
	} else if (nu) {
		free(t->undo);
		t->undo = u;
		t->nundo = nu;
	} else {
		free(u);
	}
	/* u on this screen undoes this change: offered only when it
	 * changed something. */
	t->ed.offer_undo = nu && !t->ed.undo;
	add_line(t, A_BOLD, "%zu done, %zu refused; any key returns%s", done,
		 refused, t->ed.offer_undo ? " (u undoes)" : "");
	tui_message(t, refused != 0, "%s %s: %zu done, %zu refused",
		    t->ed.undo ? "undo" : "change", t->ed.k->name, done,
		    refused);
	t->ed.stage = ED_RESULT;
	/* Show the new values at once. */
	t->next_refresh = 0;
}

void tui_undo(struct tui *t)
{
	const char **texts;

	if (!t->nundo) {
		tui_message(t, 1, "nothing to undo");
		return;
	}
	if (t->pl.m.src.readonly)
		return;
	for (size_t i = 0; i < t->ed.npaths; i++)
		free(t->ed.paths[i]);
	free(t->ed.paths);
	t->ed.paths = xcalloc(t->nundo, sizeof(char *));
	texts = xcalloc(t->nundo, sizeof(char *));
	t->ed.npaths = 0;
	for (size_t i = 0; i < t->nundo; i++) {
		t->ed.paths[t->ed.npaths] = xstrdup(t->undo[i].path);
		texts[t->ed.npaths++] = t->undo[i].old;
	}
	t->ed.k = t->undo[0].k;
	t->ed.undo = 1;
	plan_all(t, t->ed.k, texts);
	free(texts);
}

void tui_dialog_key(struct tui *t, int ch)
{
	switch (t->ed.stage) {
	case ED_PICK:
		if ((ch == KEY_UP || ch == 'k') && t->ed.sel > 0)
			t->ed.sel--;
		else if ((ch == KEY_DOWN || ch == 'j') &&
			 (size_t)t->ed.sel + 1 < t->ed.nknobs)
			t->ed.sel++;
		else if (ch == '\r' || ch == '\n' || ch == KEY_ENTER) {
			const struct knob *k = t->ed.knobs[t->ed.sel];
			const char *why = t->ed.why[t->ed.sel];

			if (why && t->ed.npaths == 1) {
				dialog_say(t, 1, "%s: %s", k->name, why);
				break;
			}
			t->ed.k = k;
			t->ed.stage = ED_VALUE;
			t->input = IN_EDIT;
			t->status_error = 0;
			t->line[0] = '\0';
			t->line_len = 0;
		} else if (ch == 27 || ch == 'q') {
			t->ed.stage = ED_NONE;
			tui_message(t, 0, "edit cancelled");
		}
		return;
	case ED_CONFIRM:
		if (ch == 'y' && t->ed.nplans) {
			apply_all(t);
		} else {
			t->ed.stage = ED_NONE;
			tui_message(t, 0, "nothing changed");
		}
		return;
	case ED_RESULT:
		t->ed.stage = ED_NONE;
		if (ch == 'u' && t->ed.offer_undo)
			tui_undo(t);
		return;
	default:
		return;
	}
}

/* Enter in the value line: plan, then confirm. */
void tui_dialog_value(struct tui *t)
{
	char err[600], first[600] = "";
	struct edit_plan probe;
	size_t bad = 0, l = strspn(t->line, " \t");

	/* Nothing typed: the value stays, said in the box, which stays open
	 * on the knob list for another knob or Esc. */
	if (!t->line[l]) {
		t->input = IN_NONE;
		t->ed.stage = ED_PICK;
		dialog_say(t, 0, "nothing changed: %s stays as it is",
			   t->ed.k->name);
		return;
	}
	/* A value refused for every group alike (malformed, say) is refused
	 * at once, said once, the line kept for fixing.  Reasons that differ
	 * between groups are listed per group in the confirmation. */
	for (size_t i = 0; i < t->ed.npaths; i++) {
		if (edit_plan(t->cg, t->ed.paths[i], t->ed.k, t->line, &probe,
			      err, sizeof(err)) == 0)
			break;
		if (i == 0)
			snprintf(first, sizeof(first), "%s", err);
		else if (strcmp(first, err))
			break;
		bad++;
	}
	if (bad == t->ed.npaths) {
		dialog_say(t, 1, "%s", first);
		t->input = IN_EDIT;
		return;
	}
	t->input = IN_NONE;
	t->status_error = 0;
	t->status[0] = '\0';
	plan_all(t, t->ed.k, NULL);
}

static const char *dialog_prompt(const struct tui *t, char *buf, size_t len)
{
	char now[64] = "?";
	size_t i = 0;

	while (i < t->ed.nknobs && t->ed.knobs[i] != t->ed.k)
		i++;
	if (t->ed.k->kind == KNOB_RECLAIM)
		snprintf(now, sizeof(now), "write-only");
	else if (i < t->ed.nknobs && t->ed.now_ok[i])
		show_value(t->ed.k, t->ed.now[i], now, sizeof(now));
	{
		char safe[600];

		fmt_escape(safe, sizeof(safe), t->ed.paths[0],
			   strlen(t->ed.paths[0]));
		snprintf(buf, len, "%s of %s%s (now %s): ", t->ed.k->name,
			 safe, t->ed.npaths > 1 ? " and the tagged" : "", now);
	}
	return buf;
}

/* The box's lines: UTF-8 box drawing, or ASCII. */
struct frame {
	const char *h, *v, *tl, *tr, *ml, *mr, *bl, *br;
};

static const struct frame frame_utf8 = {
	"\xE2\x94\x80", "\xE2\x94\x82", "\xE2\x94\x8C", "\xE2\x94\x90",
	"\xE2\x94\x9C", "\xE2\x94\xA4", "\xE2\x94\x94", "\xE2\x94\x98",
};
static const struct frame frame_ascii = {
	"-", "|", "+", "+", "+", "+", "+", "+",
};

/* A border line of the box: left corner, title (may be NULL), line, right
 * corner. */
static void box_rule(const struct tui *t, const struct frame *f, int y,
		     const char *l, const char *title, const char *r)
{
	int x = 1;

	tui_put(t, y, 0, l, 1, A_NORMAL);
	if (title) {
		x += tui_put(t, y, x, " ", 1, A_NORMAL);
		x += tui_put(t, y, x, title, COLS - 4, t->attr[TE_HEADER]);
		x += tui_put(t, y, x, " ", 1, A_NORMAL);
	}
	for (; x < COLS - 1; x++)
		tui_put(t, y, x, f->h, 1, A_NORMAL);
	tui_put(t, y, COLS - 1, r, 1, A_NORMAL);
}

/* A line inside the box: the borders, and text from column 2 (one blank
 * after the border) to one blank before the right border. */
static int box_text(const struct tui *t, const struct frame *f, int y,
		    const char *text, int len, int attr)
{
	char part[1200];
	int w;

	snprintf(part, sizeof(part), "%.*s", len, text);
	tui_put(t, y, 0, f->v, 1, A_NORMAL);
	w = tui_put(t, y, 2, part, COLS - 4, attr);
	tui_put(t, y, COLS - 1, f->v, 1, A_NORMAL);
	return w;
}

/* Without UTF-8 on the terminal a byte past ASCII is shown as '?'. */
static void ascii_only(const struct tui *t, char *s)
{
	if (!t->utf8)
		for (; *s; s++)
			if ((unsigned char)*s >= 0x80)
				*s = '?';
}

/* Lines of text wrapped at cols: the number of lines. */
static int wrapped_lines(const char *s, int cols)
{
	const char *next;
	int n = 0;

	for (; *s; s = next, n++)
		tui_wrap(s, cols, &next);
	return n;
}

/* One knob's row of the list, as wide as the box's inside. */
static void knob_row(struct tui *t, const struct frame *f, int y, size_t i)
{
	const struct knob *k = t->ed.knobs[i];
	const char *why = t->ed.why[i], *help = k->help;
	const struct sysinfo *sys = &t->pl.m.sys;
	char now[64], line[400], safe[800];
	int attr;

	/* Swappiness weighs anon against file pages: with no swap anon
	 * cannot go, whatever it says. */
	if (k->kind == KNOB_SWAPPINESS && (sys->valid & SBIT(SYS_SWAP_TOTAL)) &&
	    sys->v[SYS_SWAP_TOTAL] == 0)
		help = "the host has no swap: a new value changes nothing "
			"until swap exists";
	show_value(k, t->ed.now[i], now, sizeof(now));
	snprintf(line, sizeof(line), "%-11s %-28s %-20s %s", k->name, k->file,
		 now, why ? why : help);
	fmt_safe(safe, sizeof(safe), line, strlen(line), !t->utf8);
	attr = (int)i == t->ed.sel ? t->attr[TE_SELECTED] :
		why ? t->attr[TE_DIM] : (int)A_NORMAL;
	tui_put(t, y, 0, f->v, 1, A_NORMAL);
	attrset(attr);
	mvhline(y, 1, ' ', COLS - 2);
	tui_put(t, y, 2, safe, COLS - 4, attr);
	tui_put(t, y, COLS - 1, f->v, 1, A_NORMAL);
}

/*
 * How much of the box fits in avail lines (the frame takes 3): *nk knob
 * rows, np prompt lines, *nm message lines.  The list is cut first (to one
 * row), then the message, then the list altogether; returns how many of
 * the prompt's first lines go (0: none).
 */
static int box_fit(int avail, int *nk, int np, int *nm)
{
	if (3 + *nk + np + *nm > avail)
		*nk = *nk > 0 ? (avail - 3 - np - *nm > 1 ?
				 avail - 3 - np - *nm : 1) : 0;
	if (3 + *nk + np + *nm > avail)
		*nm = avail - 3 - *nk - np > 0 ? avail - 3 - *nk - np : 0;
	if (3 + *nk + np + *nm > avail)
		*nk = 0;
	return 3 + *nk + np + *nm > avail ? 3 + *nk + np + *nm - avail : 0;
}

/*
 * The knob list in a box, and under it, inside the box, the prompt with
 * the typed text and the edit's message:
 *
 *   +- Edit PATH  (Up/Down choose, Enter edits, Esc cancels) -----+
 *   | KNOB        FILE                         VALUE  HELP         |
 *   +-------------------------------------------------------------+
 *   | KNOB of PATH (now X): TYPED                                  |
 *   | MESSAGE (wrapped)                                            |
 *   +-------------------------------------------------------------+
 *
 * The box is as tall as it needs, up to the status line.  When it does
 * not fit, the list is cut first (to the selected knob and those before
 * it that fit), then the message, then the prompt's first lines (a
 * narrow screen wraps it): its last line, with the typed text and the
 * cursor, stays.
 */
static void draw_box(struct tui *t)
{
	const struct frame *f = t->utf8 ? &frame_utf8 : &frame_ascii;
	char title[300], stitle[600], prompt[2000], typed[900], msg[1200];
	int avail = LINES - 1, inner = COLS - 4, nk, np = 0, nm, y = 0;
	int first = 0, skip;
	const char *c, *next, *end;

	snprintf(title, sizeof(title), "Edit %s%s  (Up/Down choose, Enter "
		 "edits, Esc cancels)", t->ed.paths[0], t->ed.npaths > 1 ?
		 " and the other tagged groups" : "");
	fmt_escape(stitle, sizeof(stitle), title, strlen(title));
	ascii_only(t, stitle);
	prompt[0] = '\0';
	if (t->ed.stage == ED_VALUE) {
		char p[700];

		/* Typed text may hold any byte: none may reach the terminal
		 * as a control. */
		snprintf(typed, sizeof(typed), "%s%s",
			 dialog_prompt(t, p, sizeof(p)), t->line);
		fmt_safe(prompt, sizeof(prompt), typed, strlen(typed), 0);
		ascii_only(t, prompt);
		np = wrapped_lines(prompt, inner);
		if (np == 0)
			np = 1;
	}
	fmt_safe(msg, sizeof(msg), t->ed.msg, strlen(t->ed.msg), !t->utf8);
	nm = wrapped_lines(msg, inner);
	/* One line under the list at the least: where the prompt comes. */
	if (np + nm == 0)
		nm = 1;
	nk = (int)t->ed.nknobs;
	skip = box_fit(LINES - 1, &nk, np, &nm);
	if (t->ed.sel >= nk)
		first = t->ed.sel - nk + 1;

	box_rule(t, f, y++, f->tl, stitle, f->tr);
	for (int i = 0; i < nk && y < avail; i++)
		knob_row(t, f, y++, (size_t)(first + i));
	if (y < avail)
		box_rule(t, f, y++, f->ml, NULL, f->mr);
	t->ed.cur_y = y;
	t->ed.cur_x = 2;
	for (c = prompt; *c && y < avail && np > 0; c = next, np--) {
		end = tui_wrap(c, inner, &next);
		if (skip-- > 0)
			continue;
		t->ed.cur_y = y;
		t->ed.cur_x = 2 + box_text(t, f, y++, c, (int)(end - c),
					   A_NORMAL);
	}
	/* The cursor after the typed text; on the border it would hide it. */
	if (t->ed.cur_x > COLS - 2)
		t->ed.cur_x = COLS - 2;
	for (c = msg; *c && y < avail && nm > 0; c = next, nm--) {
		end = tui_wrap(c, inner, &next);
		box_text(t, f, y++, c, (int)(end - c), t->ed.msg_error ?
			 t->attr[TE_ERROR] : (int)A_NORMAL);
	}
	for (; nm > 0 && y < avail; nm--)
		box_text(t, f, y++, "", 0, A_NORMAL);
	if (y < avail)
		box_rule(t, f, y, f->bl, NULL, f->br);
}

/* A line of the confirmation or the result from line y, wrapped: a
 * refusal's meaning is read to its end.  Returns the line after it. */
static int result_line(int y, const char *text, int attr)
{
	char safe[4200];
	const char *c;

	if (y >= LINES - 1)
		return y;
	fmt_escape(safe, sizeof(safe), text, strlen(text));
	attrset(attr);
	for (c = safe; y < LINES - 1;) {
		const char *next, *end = tui_wrap(c, COLS, &next);

		mvhline(y, 0, ' ', COLS);
		mvaddnstr(y++, 0, c, (int)(end - c));
		if (!*next)
			break;
		c = next;
	}
	attrset(A_NORMAL);
	return y;
}

void tui_draw_dialog(struct tui *t)
{
	int y = 0;

	if (t->ed.stage == ED_PICK || t->ed.stage == ED_VALUE) {
		draw_box(t);
		return;
	}
	for (size_t i = 0; i < t->ed.nlines; i++)
		y = result_line(y, t->ed.lines[i].text, t->ed.lines[i].attr);
	/* Under them, the follow-up of the change they report. */
	if (t->ed.stage == ED_RESULT) {
		const char *l;
		int attr;

		for (size_t i = 0; (l = tui_follow_line(t, i, &attr)); i++)
			y = result_line(y, l, attr);
	}
}
