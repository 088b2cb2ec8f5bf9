/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keys.c - the key table (its rows are the help screen) and input lines. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "tui_int.h"

struct binding {
	int keys[4];		/* 0 ends the list */
	const char *names;
	const char *help;
	void (*fn)(struct tui *t);
};

static void move_sel(struct tui *t, long by)
{
	long s = t->sel + by;

	if (s >= (long)t->nvis)
		s = (long)t->nvis - 1;
	if (s < 0)
		s = 0;
	t->sel = (int)s;
	tui_select_path(t, tui_selected(t) ? tui_selected(t)->path : "/");
}

static void k_up(struct tui *t) { move_sel(t, -1); }
static void k_down(struct tui *t) { move_sel(t, 1); }
static void k_pgup(struct tui *t) { move_sel(t, -tui_list_rows(t)); }
static void k_pgdn(struct tui *t) { move_sel(t, tui_list_rows(t)); }
static void k_home(struct tui *t) { move_sel(t, -(long)t->nvis); }
static void k_end(struct tui *t) { move_sel(t, (long)t->nvis); }

static struct mgroup *sel_group(struct tui *t)
{
	return (struct mgroup *)tui_selected(t);
}

static void k_unfold(struct tui *t)
{
	struct mgroup *g = sel_group(t);

	if (g && (g->view & VIEW_FOLDED)) {
		g->view &= ~VIEW_FOLDED;
		tui_rebuild(t);
	}
}

static void k_fold(struct tui *t)
{
	struct mgroup *g = sel_group(t);

	if (!g)
		return;
	/* Left on a leaf or a folded group goes to its parent, as in htop. */
	if ((g->view & VIEW_FOLDED) || t->sel + 1 >= (int)t->nvis ||
	    t->pl.m.groups[t->vis[t->sel + 1]]->depth <= g->depth) {
		if (g->parent >= 0)
			tui_select_path(t, t->pl.m.groups[g->parent]->path);
		return;
	}
	g->view |= VIEW_FOLDED;
	tui_rebuild(t);
}

static void k_fold_all(struct tui *t)
{
	int any_open = 0;

	/* Folds every group below the start if any is open, else opens all. */
	for (size_t i = 1; i < t->pl.m.n; i++)
		if (!(t->pl.m.groups[i]->view & VIEW_FOLDED) &&
		    t->pl.m.groups[i]->parent == 0)
			any_open = 1;
	for (size_t i = 1; i < t->pl.m.n; i++) {
		if (any_open)
			t->pl.m.groups[i]->view |= VIEW_FOLDED;
		else
			t->pl.m.groups[i]->view &= ~VIEW_FOLDED;
	}
	tui_rebuild(t);
	tui_message(t, 0, any_open ? "all groups folded" : "all groups unfolded");
}

static void k_parent(struct tui *t)
{
	const struct mgroup *g = tui_selected(t);

	if (g && g->parent >= 0)
		tui_select_path(t, t->pl.m.groups[g->parent]->path);
}

static void start_input(struct tui *t, enum input_mode m, const char *init)
{
	t->input = m;
	snprintf(t->line, sizeof(t->line), "%s", init);
	t->line_len = strlen(t->line);
}

static void k_search(struct tui *t) { start_input(t, IN_SEARCH, ""); }
static void k_filter(struct tui *t) { start_input(t, IN_FILTER, t->filter); }

static void k_delay(struct tui *t)
{
	char d[32];

	snprintf(d, sizeof(d), "%g", t->delay);
	start_input(t, IN_DELAY, d);
}

/*
 * The next (dir 1) or previous (-1) group whose path holds `what`, in tree
 * order from the selection (inclusive when from_here).  Folded groups are
 * searched too: the folds above a match open.  The filter still hides
 * what it hides.
 */
static int find_match(struct tui *t, const char *what, int dir, int from_here)
{
	const struct mgroup *sel = tui_selected(t);
	long n = (long)t->norder, cur = 0;

	if (!what[0] || n == 0)
		return 0;
	for (long i = 0; sel && i < n; i++)
		if (t->pl.m.groups[t->order[i]] == sel) {
			cur = i;
			break;
		}
	for (long k = from_here ? 0 : 1; k <= n; k++) {
		long i = (cur + dir * k) % n;
		struct mgroup *g;
		int opened = 0;

		if (i < 0)
			i += n;
		g = t->pl.m.groups[t->order[i]];
		if ((t->filter[0] && !t->match[t->order[i]]) ||
		    !strstr(g->path, what))
			continue;
		for (int a = g->parent; a >= 0; a = t->pl.m.groups[a]->parent)
			if (t->pl.m.groups[a]->view & VIEW_FOLDED) {
				t->pl.m.groups[a]->view &= ~VIEW_FOLDED;
				opened = 1;
			}
		if (opened)
			tui_rebuild(t);
		tui_select_path(t, g->path);
		return 1;
	}
	return 0;
}

static void k_next(struct tui *t)
{
	if (!find_match(t, t->search, 1, 0))
		tui_message(t, 1, "no match for '%s'", t->search);
}

static void k_prev(struct tui *t)
{
	if (!find_match(t, t->search, -1, 0))
		tui_message(t, 1, "no match for '%s'", t->search);
}

static void change_set(struct tui *t, int by)
{
	size_t values = 0;

	t->cur_set = (t->cur_set + by + SET_NR) % SET_NR;
	t->hscroll = 0;
	tui_set_changed(t);
	for (size_t i = 0; i < t->setn[t->cur_set]; i++)
		values += t->set[t->cur_set][i]->kind == CK_VALUE;
	if (values == 0)
		tui_message(t, 0, "columns: %s, empty: S (setup) chooses its "
			    "columns", tui_set_name(t->cur_set));
	else
		tui_message(t, 0, "columns: %s", tui_set_name(t->cur_set));
}

static void k_next_set(struct tui *t) { change_set(t, 1); }
static void k_prev_set(struct tui *t) { change_set(t, -1); }

static void sort_by(struct tui *t, const struct column *c, int desc)
{
	t->sort = c;
	t->sort_desc = desc;
	tui_set_changed(t);
	tui_rebuild(t);
	tui_message(t, 0, "sorted by %s, %s", c->key,
		    desc ? "descending" : "ascending");
}

static void sort_step(struct tui *t, int by)
{
	const struct column *const *cols = t->set[t->cur_set];
	long n = (long)t->setn[t->cur_set], i;

	for (i = 0; i < n && cols[i] != t->sort; i++)
		;
	i = i == n ? 0 : (i + by + n) % n;
	sort_by(t, cols[i], cols[i]->unit != U_PATH);
}

static void k_sort_left(struct tui *t) { sort_step(t, -1); }
static void k_sort_right(struct tui *t) { sort_step(t, 1); }
static void k_invert(struct tui *t) { sort_by(t, t->sort, !t->sort_desc); }
static void k_by_usage(struct tui *t) { sort_by(t, col_find("usage"), 1); }
static void k_by_excess(struct tui *t) { sort_by(t, col_find("excess"), 1); }
/*
 * The pages scanned per second wherever the refresh has them: v2's
 * memory.stat, v1's BPF pass (the kernel's counters), or the reclaim
 * events while they are loaded for something else.  Otherwise, on v1,
 * the limit hits per second: sorting by pgscan would load the events,
 * which cost every page fault.
 */
static void k_by_scan(struct tui *t)
{
	const struct model_source *src = &t->pl.m.src;
	fieldset has = ~src->version_events | src->free_fields |
		src->event_slots;

	sort_by(t, col_find(has & FBIT(FLD_PGSCAN) ? "pgscan_per_s" :
			    "failcnt_per_s"), 1);
}

static void k_tag(struct tui *t)
{
	struct mgroup *g = sel_group(t);

	if (!g)
		return;
	g->view ^= VIEW_TAGGED;
	move_sel(t, 1);
}

static void k_untag(struct tui *t)
{
	for (size_t i = 0; i < t->pl.m.n; i++)
		t->pl.m.groups[i]->view &= ~VIEW_TAGGED;
	tui_message(t, 0, "all tags cleared");
}

/*
 * From the OOM pane, the detail pane of the newest kill's group: the
 * folds above it open.  0 when there is none to go to (no kill, or its
 * group is not in the tree shown).
 */
static int oom_detail(struct tui *t)
{
	const struct model *m = &t->pl.m;
	const struct oom_kill *e;

	if (t->pane != PANE_OOM || !m->oom.n)
		return 0;
	e = oomlog_get(&m->oom, 0);
	for (size_t i = 0; e->path && i < m->n; i++) {
		if (strcmp(m->groups[i]->path, e->path))
			continue;
		for (int p = m->groups[i]->parent; p >= 0;
		     p = m->groups[p]->parent)
			m->groups[p]->view &= ~VIEW_FOLDED;
		tui_rebuild(t);
		tui_select_path(t, e->path);
		t->pane = PANE_DETAIL;
		return 1;
	}
	return 0;
}

static void k_detail(struct tui *t)
{
	if (!oom_detail(t))
		t->pane = t->pane == PANE_DETAIL ? PANE_NONE : PANE_DETAIL;
	t->detail_top = t->detail_max_top = 0;
}

static void k_spark(struct tui *t)
{
	char ago[32];

	if (!t->hist.cap) {
		tui_message(t, 1, "no history kept (--history 0)");
		return;
	}
	t->spark = !t->spark;
	snprintf(ago, sizeof(ago), "%g s", t->hist.window);
	if (t->spark)
		tui_message(t, 0, "history column: %s over the last %s (H hides "
			    "it)", t->sort ? t->sort->title : "-", ago);
	else
		tui_message(t, 0, "history column hidden");
}

static void k_procs(struct tui *t)
{
	t->pane = t->pane == PANE_PROCS ? PANE_NONE : PANE_PROCS;
	t->detail_top = t->detail_max_top = 0;
}

/* Opening the OOM pane is seeing the kills: the names' marks go. */
static void k_oom(struct tui *t)
{
	t->pane = t->pane == PANE_OOM ? PANE_NONE : PANE_OOM;
	t->detail_top = t->detail_max_top = 0;
	if (t->pane == PANE_OOM)
		tui_oom_seen(t);
}

static void k_oom_seen(struct tui *t)
{
	tui_oom_seen(t);
	tui_message(t, 0, "OOM kill marks cleared");
}

static void k_pane_down(struct tui *t)
{
	/* Not past the page that ends with the last line. */
	if (t->pane != PANE_NONE && t->detail_top < t->detail_max_top)
		t->detail_top++;
}

static void k_pane_up(struct tui *t)
{
	if (t->pane != PANE_NONE && t->detail_top > 0)
		t->detail_top--;
}

/* By whole columns, until the last one is in view. */
static void k_scroll_left(struct tui *t)
{
	if (t->hscroll > 0)
		t->hscroll--;
}

static void k_scroll_right(struct tui *t)
{
	if (t->hscroll < tui_hscroll_max(t))
		t->hscroll++;
}

static void k_pause(struct tui *t)
{
	t->paused = !t->paused;
	tui_message(t, 0, t->paused ? "paused: sampling stopped (Z resumes)" :
		    "sampling resumed");
}

static void k_redraw(struct tui *t)
{
	(void)t;
	clearok(curscr, TRUE);
}

static void k_help(struct tui *t)
{
	t->help = 1;
	t->help_top = t->help_max_top = 0;
}

static void k_setup(struct tui *t)
{
	t->setup = 1;
	tui_message(t, 0, "setup: Space adds or removes the column, - + "
		    "move it, w saves the settings");
}

static void k_edit(struct tui *t)
{
	tui_dialog_open(t);
}

static void k_undo(struct tui *t)
{
	tui_undo(t);
}

/*
 * Replay: sample k is shown with the rates from k-1 to k, as it was live:
 * read k-1, then k.  Groups keep their folds and tags (same paths).
 */
static void seek(struct tui *t, long k)
{
	size_t n = t->pl.m.src.count, cur = t->pl.m.src.position;

	if (!n) {
		tui_message(t, 1, "stepping needs a recording (--root DIR)");
		return;
	}
	if (k < 0)
		k = 0;
	if ((size_t)k >= n)
		k = (long)n - 1;
	t->paused = 1;
	/* Forward past samples not shown yet: the last of them that the
	 * history holds are read first, as they would have been, so that
	 * the graphs and the OOM pane have them. */
	if (t->hist.cap && (size_t)k > cur + 2) {
		size_t from = (size_t)k > t->hist.cap + 1 ?
			(size_t)k - 1 - t->hist.cap : 0;

		for (size_t i = from > cur ? from : cur + 1; i + 1 < (size_t)k;
		     i++) {
			pipeline_seek(&t->pl, i);
			tui_refresh_now(t);
		}
	}
	/* The sample before gives the rates; the first has none: they show
	 * "-" (going back, the interval would be negative). */
	if (k > 0) {
		pipeline_seek(&t->pl, (size_t)k - 1);
		tui_refresh_now(t);
	}
	pipeline_seek(&t->pl, (size_t)k);
	tui_refresh_now(t);
	tui_message(t, 0, "sample %ld of %zu (paused; %st T step, { } first "
		    "and last)", k + 1, n, k ? "" : "no rates: none before it; ");
}

static void k_step_back(struct tui *t)
{
	size_t cur = t->pl.m.src.position;

	seek(t, (long)cur - 1);
}

static void k_step_fwd(struct tui *t)
{
	size_t cur = t->pl.m.src.position;

	seek(t, (long)cur + 1);
}

static void k_first(struct tui *t) { seek(t, 0); }
static void k_last(struct tui *t) { seek(t, 1L << 30); }

static void k_quit(struct tui *t) { t->quit = 1; }

static const struct binding bindings[] = {
	{ { KEY_UP, 'k' }, "Up k", "select the group above", k_up },
	{ { KEY_DOWN, 'j' }, "Down j", "select the group below", k_down },
	{ { KEY_PPAGE }, "PgUp", "one page up", k_pgup },
	{ { KEY_NPAGE }, "PgDn", "one page down", k_pgdn },
	{ { KEY_HOME }, "Home", "the first group", k_home },
	{ { KEY_END }, "End", "the last group", k_end },
	{ { KEY_RIGHT, '+' }, "Right +", "unfold: show the group's children",
	  k_unfold },
	{ { KEY_LEFT, '-' }, "Left -",
	  "fold: hide the children (the row keeps their totals)", k_fold },
	{ { '*' }, "*", "fold or unfold every group", k_fold_all },
	{ { KEY_BACKSPACE, 127, 8 }, "Backspace", "select the parent group",
	  k_parent },
	{ { '/' }, "/", "search paths as you type (Enter keeps, Esc cancels)",
	  k_search },
	{ { 'n' }, "n", "next match of the search", k_next },
	{ { 'N' }, "N", "previous match of the search", k_prev },
	{ { '\\' }, "\\",
	  "filter: only matching groups and their ancestors (empty: all)",
	  k_filter },
	{ { '\t' }, "Tab", "next column set", k_next_set },
	{ { KEY_BTAB }, "Shift-Tab", "previous column set", k_prev_set },
	{ { '<' }, "<", "sort by the column to the left", k_sort_left },
	{ { '>', KEY_F(6) }, "> F6", "sort by the column to the right",
	  k_sort_right },
	{ { 'I' }, "I", "invert the sort order", k_invert },
	{ { 'M' }, "M", "sort by usage", k_by_usage },
	{ { 'E' }, "E", "sort by excess", k_by_excess },
	{ { 'R' }, "R", "sort by pages scanned/s; v1 without pgscan: by failcnt/s",
	  k_by_scan },
	{ { ' ' }, "Space", "tag or untag the group, then move down", k_tag },
	{ { 'U' }, "U", "untag every group", k_untag },
	{ { KEY_ENTER, '\r', '\n', 'd' }, "Enter d",
	  "detail pane of the selected group (OOM pane: the last kill's)",
	  k_detail },
	{ { 'H' }, "H",
	  "history column: the sort column's last minutes", k_spark },
	{ { 'p' }, "p", "processes of the selected group", k_procs },
	{ { 'o' }, "o",
	  "OOM kills seen during the run (clears the names' OOM marks)",
	  k_oom },
	{ { 'O' }, "O", "clear the names' OOM marks (they stay until seen)",
	  k_oom_seen },
	{ { 'J', KEY_SF }, "J Shift-Down", "scroll the pane down", k_pane_down },
	{ { 'K', KEY_SR }, "K Shift-Up", "scroll the pane up", k_pane_up },
	{ { '[', KEY_SLEFT }, "[ Shift-Left", "scroll the columns left by one",
	  k_scroll_left },
	{ { ']', KEY_SRIGHT }, "] Shift-Right",
	  "scroll the columns right by one, to the last", k_scroll_right },
	{ { 's' }, "s", "change the refresh interval", k_delay },
	{ { 'Z' }, "Z", "pause or resume sampling (the screen stays)", k_pause },
	{ { 't' }, "t", "recording: one sample back (pauses)", k_step_back },
	{ { 'T' }, "T", "recording: one sample forward (pauses)", k_step_fwd },
	{ { '{' }, "{", "recording: the first sample", k_first },
	{ { '}' }, "}", "recording: the last sample", k_last },
	{ { 12 }, "Ctrl-L", "redraw the screen", k_redraw },
	{ { 'h', '?', KEY_F(1) }, "h ? F1", "this help", k_help },
	{ { 'S', KEY_F(2) }, "S F2",
	  "setup: columns of the custom set; save the settings", k_setup },
	{ { 'e', KEY_F(7) }, "e F7",
	  "change a limit or protection (of the tagged groups if any)",
	  k_edit },
	{ { 'u' }, "u", "undo the last change made in this run", k_undo },
	{ { 'q', KEY_F(10) }, "q F10", "quit", k_quit },
};

void tui_help_lines(void (*fn)(const char *keys, const char *help, void *ctx),
		    void *ctx)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		fn(bindings[i].names, bindings[i].help, ctx);
}

void tui_list_keys(FILE *f)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		fprintf(f, "%-16s %s\n", bindings[i].names, bindings[i].help);
}

static void commit_input(struct tui *t)
{
	double d;

	switch (t->input) {
	case IN_SEARCH:
		snprintf(t->search, sizeof(t->search), "%s", t->line);
		break;
	case IN_FILTER:
		snprintf(t->filter, sizeof(t->filter), "%s", t->line);
		tui_rebuild(t);
		if (t->filter[0] && t->nvis == 0)
			tui_message(t, 1, "no group matches '%s'", t->filter);
		else
			tui_message(t, 0, t->filter[0] ? "filter: %s" :
				    "filter cleared%s", t->filter);
		break;
	case IN_DELAY:
		if (parse_interval(t->line, &d) < 0) {
			tui_message(t, 1, "interval: '%s' is not "
				    INTERVAL_RANGE, t->line);
			break;
		}
		t->delay = d;
		t->next_refresh = 0;
		tui_message(t, 0, "refresh every %g s", d);
		break;
	case IN_EDIT:
		tui_dialog_value(t);
		return;
	case IN_NONE:
		break;
	}
	t->input = IN_NONE;
}

static void input_key(struct tui *t, int ch)
{
	switch (ch) {
	case 27:	/* Esc */
		if (t->input == IN_EDIT)
			t->ed.stage = ED_NONE;
		t->input = IN_NONE;
		tui_message(t, 0, "cancelled");
		return;
	case '\r':
	case '\n':
	case KEY_ENTER:
		commit_input(t);
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		if (t->line_len)
			t->line[--t->line_len] = '\0';
		break;
	default:
		if (ch < 0x20 || ch > 0xFF || ch == 0x7F ||
		    t->line_len + 1 >= sizeof(t->line))
			return;
		t->line[t->line_len++] = (char)ch;
		t->line[t->line_len] = '\0';
		break;
	}
	/* Search as you type. */
	if (t->input == IN_SEARCH && t->line[0] &&
	    !find_match(t, t->line, 1, 1))
		tui_message(t, 1, "no match for '%s'", t->line);
}

void tui_key(struct tui *t, int ch)
{
	if (ch == KEY_RESIZE) {
		t->hscroll = 0;
		return;
	}
	/* A message lasts until the next key (or a few seconds): what the
	 * key does may say something new. */
	tui_message_clear(t);
	t->ed.msg[0] = '\0';
	if (t->input != IN_NONE) {
		input_key(t, ch);
		return;
	}
	if (t->setup) {
		tui_setup_key(t, ch);
		return;
	}
	if (t->ed.stage != ED_NONE && t->ed.stage != ED_VALUE) {
		tui_dialog_key(t, ch);
		return;
	}
	if (t->help) {
		if (ch == KEY_DOWN || ch == 'j') {
			if (t->help_top < t->help_max_top)
				t->help_top++;
		} else if ((ch == KEY_UP || ch == 'k') && t->help_top > 0)
			t->help_top--;
		else
			t->help = 0;
		return;
	}
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		for (int k = 0; k < 4 && bindings[i].keys[k]; k++)
			if (bindings[i].keys[k] == ch) {
				bindings[i].fn(t);
				return;
			}
}
