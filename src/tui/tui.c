/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tui.c - the console's life: set-up, the refresh loop, the tree shown. */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "stopsig.h"
#include "tui_int.h"
#include "verdict.h"
#include "xalloc.h"
#include "msg.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/*
 * MEMCGTOP_FRAME_STATS=FILE: the CPU time of every frame that follows a
 * refresh (the tree put in order and laid out, then drawn and written to
 * the terminal), summed up in FILE at the end.  make bench reads it.
 */
#define FRAMES_MAX 8192
static struct {
	const char *file;
	double us[FRAMES_MAX];
	size_t n;
	double rebuild_us;	/* of the refresh the next draw follows */
	int pending;
} frames;

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void frames_write(void)
{
	FILE *f;
	size_t n = frames.n;
	int fd;

	if (!frames.file)
		return;
	/* As --record's files: a link planted at the name is not followed. */
	fd = open(frames.file, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		  O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return;
	}
	qsort(frames.us, n, sizeof(frames.us[0]), cmp_double);
	fprintf(f, "frames %zu median_us %.0f p90_us %.0f max_us %.0f\n", n,
		n ? frames.us[n / 2] : 0.0, n ? frames.us[n * 9 / 10] : 0.0,
		n ? frames.us[n - 1] : 0.0);
	fclose(f);
}

void tui_message(struct tui *t, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->status, sizeof(t->status), fmt, ap);
	va_end(ap);
	t->status_error = error;
	t->status_mono = clock_mono();
}

void tui_message_clear(struct tui *t)
{
	t->status[0] = '\0';
	t->status_error = 0;
}

/* The column sets of Tab (columns.c), this version's columns of each, and
 * the custom set. */
static void init_sets(struct tui *t)
{
	for (int s = 0; s < CSET_NR; s++)
		t->setn[s] = col_set_columns(s, t->pl.m.src.version,
					     t->pl.m.src.free_fields, t->set[s],
					     SET_MAX_COLS);
	if (t->o->custom) {
		size_t n = t->o->ncustom < SET_MAX_COLS ? t->o->ncustom :
			SET_MAX_COLS;

		memcpy(t->set[SET_CUSTOM], t->o->custom, n * sizeof(void *));
		t->setn[SET_CUSTOM] = n;
		t->cur_set = SET_CUSTOM;
	} else {
		t->set[SET_CUSTOM][0] = col_find("path");
		t->setn[SET_CUSTOM] = 1;
	}
	for (int s = 0; t->o->set_name && s < SET_NR; s++)
		if (strcmp(t->o->set_name, tui_set_name(s)) == 0)
			t->cur_set = s;
}

/* What the screen needs of a refresh: the set shown, the sort, the
 * detail pane's reclaim events and its verdict's figures, and for the colours the effective limit
 * (near the limit) and the OOM kills (the name's mark), where the
 * collector gives them without opening a file: the screen reads what
 * batch reads for the same columns. */
void tui_want(const struct tui *t, struct pipeline_want *ret)
{
	/* What is not set is off: oom (the OOM kills from the counters only
	 * where they come free or a shown column reads them: no file more
	 * than batch reads) and only_shown (the colours, the detail pane
	 * and its verdict read every derived value). */
	memset(ret, 0, sizeof(*ret));
	ret->cols = t->set[t->cur_set];
	ret->ncols = t->setn[t->cur_set];
	ret->sort = t->sort;
	ret->if_free = FBIT(FLD_LIMIT) | FBIT(FLD_EV_OOM_KILL);
	/* The verdict's figures, where they cost no file. */
	if (t->pane == PANE_DETAIL)
		ret->if_free |= VERDICT_FIELDS;
	ret->events = t->pane == PANE_DETAIL;
	/* The detail pane's lists per NUMA node, where the BPF pass gives
	 * them (v2: the group's own too) */
	if (t->pane == PANE_DETAIL)
		ret->if_free |= FBIT(FLD_NUMA);
}

/* The set or the sort changed: read now what they need beyond the last
 * refresh's fields (what they no longer need is not read from the next
 * refresh on). */
void tui_set_changed(struct tui *t)
{
	struct pipeline_want w;

	tui_want(t, &w);
	if (!(pipeline_fields(&t->pl, &w) & ~t->pl.fields))
		return;
	if (!t->pl.m.refreshes) {
		tui_refresh_now(t);
	} else if (t->pl.m.src.series) {
		/* A recording: the same sample again, with the new fields. */
		tui_reread(t);
	} else if (t->paused) {
		tui_message(t, 0, "paused: new columns fill in when sampling "
			    "resumes (Z)");
	} else {
		/* Live: read now, and again soon so rates of the new columns
		 * do not wait a whole interval. */
		tui_refresh_now(t);
		if (t->delay > 1.0)
			t->next_refresh = clock_mono() + 1.0;
	}
}

static int sort_cmp(const struct mgroup *a, const struct mgroup *b, void *ctx)
{
	const struct tui *t = ctx;

	return col_compare(t->sort, a, b, t->sort_desc);
}

const struct mgroup *tui_selected(const struct tui *t)
{
	if (t->nvis == 0 || t->sel < 0 || (size_t)t->sel >= t->nvis)
		return NULL;
	return t->pl.m.groups[t->vis[t->sel]];
}

static void remember_selection(struct tui *t)
{
	const struct mgroup *g = tui_selected(t);
	char *p;

	if (!g)
		return;
	p = xstrdup(g->path);
	free(t->sel_path);
	t->sel_path = p;
}

/*
 * Puts the selection on `path`, or on its nearest ancestor that is shown:
 * a group that vanished hands the selection to its parent.
 */
void tui_select_path(struct tui *t, const char *path)
{
	char *p = xstrdup(path ? path : "/");
	size_t len;

	for (;;) {
		len = strlen(p);
		for (size_t i = 0; i < t->nvis; i++) {
			const struct mgroup *g = t->pl.m.groups[t->vis[i]];

			if (g->path_len == len && memcmp(g->path, p, len) == 0) {
				t->sel = (int)i;
				free(p);
				remember_selection(t);
				return;
			}
		}
		char *slash = strrchr(p, '/');

		if (!slash || len <= 1)
			break;
		if (slash == p)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(p);
	t->sel = 0;
	remember_selection(t);
}

/* Recomputes the rows shown: tree order, folds, the filter. */
void tui_rebuild(struct tui *t)
{
	size_t n = t->pl.m.n;
	int skip_depth = -1;

	if (n > t->cap) {
		t->order = xreallocarray(t->order, n, sizeof(int));
		t->vis = xreallocarray(t->vis, n, sizeof(int));
		t->match = xreallocarray(t->match, n, 1);
		t->kids = xreallocarray(t->kids, n, 1);
		t->cap = n;
	}
	t->norder = model_order(&t->pl.m, sort_cmp, t, t->order);
	/* In tree order a group's children follow it directly. */
	for (size_t i = 0; i < t->norder; i++)
		t->kids[t->order[i]] = i + 1 < t->norder &&
			t->pl.m.groups[t->order[i + 1]]->depth >
			t->pl.m.groups[t->order[i]]->depth;
	if (t->filter[0])
		model_match(&t->pl.m, t->filter, t->match);
	t->nvis = 0;
	for (size_t i = 0; i < t->norder; i++) {
		const struct mgroup *g = t->pl.m.groups[t->order[i]];

		if (skip_depth >= 0 && g->depth > skip_depth)
			continue;
		skip_depth = -1;
		if (t->filter[0] && !t->match[t->order[i]])
			continue;
		t->vis[t->nvis++] = t->order[i];
		if ((g->view & VIEW_FOLDED) && !t->filter[0])
			skip_depth = g->depth;
	}
	tui_select_path(t, t->sel_path);
}

/* The value of column ctx of g, as a number; NaN for none or no limit. */
static double sort_value(const struct mgroup *g, void *ctx)
{
	struct cval v = col_value(ctx, g);

	if (v.kind == CV_NUM)
		return (double)v.u;
	return v.kind == CV_DBL ? v.d : NAN;
}

/* The history takes the refresh: the selected group first, so that it
 * has one whatever the cap on groups. */
void tui_history_update(struct tui *t)
{
	const struct mgroup *g = tui_selected(t);
	const struct column *c = t->sort && t->sort->unit != U_PATH ?
		t->sort : NULL;

	/* The sort column's values, for the history column (H): another
	 * column's are not its history. */
	if (c != t->hist_sort) {
		history_forget(&t->hist, HF_SORT);
		t->hist_sort = c;
	}
	history_update(&t->hist, &t->pl.m, g ? &g->hash : NULL,
		       c ? sort_value : NULL, (void *)c);
}

void tui_reread(struct tui *t)
{
	struct pipeline_want w;
	char err[512];

	tui_want(t, &w);
	if (pipeline_reread(&t->pl, &w, err, sizeof(err)) < 0) {
		if (t->o->recording)
			t->failed = 1;
		tui_message(t, 1, "%s", err);
		return;
	}
	tui_rebuild(t);
	tui_history_update(t);
}

/*
 * The groups of the OOM kills new since the last refresh get the mark
 * (VIEW_OOM), which stays until the kills are seen (tui_oom_seen): one
 * refresh is easily missed.
 */
static void oom_mark(struct tui *t)
{
	const struct model *m = &t->pl.m;

	for (size_t k = 0; k < m->oom.n; k++) {
		const struct oom_kill *e = oomlog_get(&m->oom, k);

		if (e->seq <= t->oom_marked)
			break;	/* newest first: the rest were marked */
		for (size_t i = 0; e->path && i < m->n; i++)
			if (strcmp(m->groups[i]->path, e->path) == 0)
				m->groups[i]->view |= VIEW_OOM;
	}
	t->oom_marked = m->oom.seen;
}

void tui_oom_seen(struct tui *t)
{
	for (size_t i = 0; i < t->pl.m.n; i++)
		t->pl.m.groups[i]->view &= ~VIEW_OOM;
}

void tui_refresh_now(struct tui *t)
{
	struct pipeline_want w;
	char err[512];
	int r;

	tui_want(t, &w);
	r = pipeline_refresh(&t->pl, &w, err, sizeof(err));
	if (t->pl.m.src.note_new) {
		t->pl.m.src.note_new = 0;
		tui_message(t, 1, "%s", t->pl.m.src.note);
	}
	if (r == -ENODATA) {
		t->paused = 1;
		tui_message(t, 0, "end of the recorded series");
		return;
	}
	if (r < 0) {
		/* As in batch: what --record was asked to keep is missing. */
		if (t->o->recording)
			t->failed = 1;
		tui_message(t, 1, "%s", err);
		/* Kept on the status line until a refresh succeeds: the
		 * screen goes on, and says what stops it. */
		snprintf(t->refresh_err, sizeof(t->refresh_err), "%s", err);
		return;
	}
	t->refresh_err[0] = '\0';
	oom_mark(t);
	if (frames.file) {
		double c = cpu_us();

		tui_rebuild(t);
		tui_history_update(t);
		frames.rebuild_us = cpu_us() - c;
		frames.pending = 1;
		return;
	}
	tui_rebuild(t);
	tui_history_update(t);
}

static short curses_color(short c)
{
	if (c < 0)
		return -1;
	return c < COLORS ? c : (short)(c % 8);
}

static void init_colors(struct tui *t)
{
	static const unsigned amap[][2] = {
		{ THEME_BOLD, A_BOLD }, { THEME_DIM, A_DIM },
		{ THEME_UNDERLINE, A_UNDERLINE }, { THEME_REVERSE, A_REVERSE },
		{ THEME_STANDOUT, A_STANDOUT },
	};

	t->color = !t->o->no_color && has_colors();
	/* A terminal without colour (vt100) gets the attribute-only theme,
	 * whose attributes were chosen to carry the meaning alone. */
	if (!t->color && !t->o->theme)
		theme_mono(&t->theme);
	if (t->color) {
		start_color();
		use_default_colors();
	}
	for (int e = 0; e < TE_NR; e++) {
		const struct theme_style *s = &t->theme.el[e];
		int a = 0;

		for (size_t i = 0; i < sizeof(amap) / sizeof(amap[0]); i++)
			if (s->attrs & amap[i][0])
				a |= (int)amap[i][1];
		if (t->color && e + 1 < COLOR_PAIRS &&
		    init_pair((short)(e + 1), curses_color(s->fg),
			      curses_color(s->bg)) == OK)
			a |= COLOR_PAIR(e + 1);
		t->attr[e] = a;
	}
	/* Without colour the selection must still be visible. */
	if (!t->color)
		t->attr[TE_SELECTED] |= A_REVERSE;
}

static void restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

/*
 * The terminal, set up for the screen: curses, the stop signals (blocked
 * but in the wait for a key, their mask before in ret_waitmask), the
 * colours.  NULL after saying why on stderr.
 */
static SCREEN *term_setup(struct tui *t, sigset_t *ret_waitmask)
{
	sigset_t stopset;
	SCREEN *scr;

	setlocale(LC_ALL, "");
	/* Numbers stay "0.5" whatever the locale: the settings file, a
	 * recording's timestamps and typed intervals are read back by
	 * strtod(), and "0,5" would not be. */
	setlocale(LC_NUMERIC, "C");
	t->utf8 = !t->o->ascii && strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		msg_err("cannot drive terminal '%s'; use -b "
			"for batch output", getenv("TERM") ? getenv("TERM") :
			"(unset)");
		return NULL;
	}
	/* A terminal that cannot place the cursor cannot show a screen. */
	if (!tigetstr("cup") || tigetstr("cup") == (char *)-1) {
		endwin();
		delscreen(scr);
		msg_err("terminal '%s' cannot position the "
			"cursor; use -b for batch output",
			getenv("TERM") ? getenv("TERM") : "(unset)");
		return NULL;
	}
	atexit(restore_terminal);
	/* Out of memory, the terminal is put back before the message. */
	xalloc_on_failure(restore_terminal);
	/* No SA_RESTART: a signal interrupts the wait for a key.  Blocked
	 * but in that wait (ppoll): one that comes during a refresh or a
	 * draw is taken at the next wait, at once, instead of being noticed
	 * only after a whole interval. */
	stopsig_catch(on_signal, 1, &stopset);
	sigprocmask(SIG_BLOCK, &stopset, ret_waitmask);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	init_colors(t);
	return scr;
}

/* The terminal given back; one left by a signal keeps what was drawn. */
static void term_teardown(SCREEN *scr, const sigset_t *waitmask, int sig)
{
	sigprocmask(SIG_SETMASK, waitmask, NULL);
	/* Terminals without an alternate screen keep what was drawn: leave
	 * them empty, the cursor at the top, for the shell. */
	if (!sig) {
		clear();
		refresh();
	}
	endwin();
	delscreen(scr);
}

/* The frame statistics hook: a draw that follows a refresh is timed with
 * that refresh's rebuild (MEMCGTOP_FRAME_STATS). */
static void draw_frame(struct tui *t)
{
	double c;

	if (!frames.pending) {
		tui_draw(t);
		return;
	}
	c = cpu_us();
	tui_draw(t);
	if (frames.n < FRAMES_MAX)
		frames.us[frames.n++] = frames.rebuild_us + cpu_us() - c;
	frames.pending = 0;
}

/*
 * Waits for keys until the next refresh or the status message's end, and
 * takes them.  Our own wait, so that a terminal that went away (POLLHUP,
 * or reads that fail) ends the program instead of spinning.  -1: the
 * screen ends (got_signal says why, 0 for a failed wait).
 */
static int wait_input(struct tui *t, const sigset_t *waitmask,
		      int *eof_reads)
{
	double wait = t->paused ? 1.0 : t->next_refresh - clock_mono();
	struct pollfd pfd;
	struct timespec ts;
	int ch, idle;

	if (t->status[0] && t->status_mono + STATUS_SECONDS - clock_mono() <
	    wait)
		wait = t->status_mono + STATUS_SECONDS - clock_mono();
	/* A change followed is read again on time, keys or not. */
	if (tui_follow_wait(t) < wait)
		wait = tui_follow_wait(t);
	if (wait < 0)
		wait = 0;
	pfd.fd = STDIN_FILENO;
	pfd.events = POLLIN;
	pfd.revents = 0;
	ts.tv_sec = (time_t)wait;
	ts.tv_nsec = (long)((wait - (double)ts.tv_sec) * 1e9) + 1000000;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	if (ppoll(&pfd, 1, &ts, waitmask) < 0) {
		if (errno != EINTR)
			return -1;
		/* SIGWINCH: curses queues KEY_RESIZE. */
		while ((ch = getch()) != ERR)
			tui_key(t, ch);
		return 0;
	}
	if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) {
		got_signal = SIGHUP;
		return -1;
	}
	if (!(pfd.revents & POLLIN))
		return 0;
	idle = 1;
	while ((ch = getch()) != ERR) {
		tui_key(t, ch);
		idle = 0;
	}
	/* Readable yet no key: end of file on the terminal. */
	if (idle && ++*eof_reads > 100) {
		got_signal = SIGHUP;
		return -1;
	}
	if (!idle)
		*eof_reads = 0;
	return 0;
}

int tui_run(const struct tui_opts *o)
{
	struct tui t;
	SCREEN *scr;
	char err[512];
	int sig, eof_reads = 0;
	sigset_t waitmask;

	memset(&t, 0, sizeof(t));
	frames.file = getenv("MEMCGTOP_FRAME_STATS");
	if (frames.file && !*frames.file)
		frames.file = NULL;
	t.o = o;
	t.cg = o->cg;
	t.delay = o->delay;
	t.sort = o->sort;
	t.sort_desc = o->sort_desc;
	if (o->filter)
		snprintf(t.filter, sizeof(t.filter), "%s", o->filter);
	pipeline_init(&t.pl, o->cg, o->maxdepth, o->recording);
	pipeline_for_screen(&t.pl);
	history_init(&t.hist, o->history, HISTORY_GROUPS_MAX);
	t.pl.m.rs_window = o->history;
	t.pl.m.rs_margin = o->rec_margin;
	init_sets(&t);

	if (o->no_color) {
		theme_mono(&t.theme);
	} else if (o->theme) {
		if (theme_load(o->theme, &t.theme, err, sizeof(err)) < 0) {
			msg_err("%s", err);
			pipeline_free(&t.pl);
			return 2;
		}
	} else {
		theme_default(&t.theme);
	}
	scr = term_setup(&t, &waitmask);
	if (!scr) {
		pipeline_free(&t.pl);
		return 1;
	}

	tui_set_changed(&t);	/* reads the first sample */
	for (size_t i = 0; i < t.pl.m.n; i++)
		for (size_t f = 0; f < o->nfolded; f++)
			if (strcmp(t.pl.m.groups[i]->path, o->folded[f]) == 0)
				t.pl.m.groups[i]->view |= VIEW_FOLDED;
	tui_rebuild(&t);
	if (t.pl.m.n)
		tui_select_path(&t, "/");
	/* Rates need a second sample: take it soon, then keep the pace. */
	t.next_refresh = clock_mono() + (t.delay < 1.0 ? t.delay : 1.0);
	nodelay(stdscr, TRUE);
	while (!t.quit && !got_signal) {
		double now = clock_mono();

		if (!t.paused && now >= t.next_refresh) {
			tui_refresh_now(&t);
			/* Fixed cadence; after a long stall, start afresh. */
			t.next_refresh += t.delay;
			if (t.next_refresh < now)
				t.next_refresh = now + t.delay;
		}
		/* The change followed: its time up, its report now. */
		tui_follow_tick(&t);
		/* A message goes after a few seconds, if no key took it. */
		if (t.status[0] && now - t.status_mono >= STATUS_SECONDS)
			tui_message_clear(&t);
		/* The views read the kernel here, when they are new or a
		 * refresh came: drawing reads memory only. */
		tui_pane_load(&t);
		tui_dialog_load(&t);
		draw_frame(&t);
		if (wait_input(&t, &waitmask, &eof_reads) < 0)
			break;
	}
	sig = got_signal;
	/* A change still followed is reported (the audit log's line) at
	 * the time it had. */
	tui_follow_end(&t);
	term_teardown(scr, &waitmask, sig);
	frames_write();
	free(t.order);
	free(t.vis);
	free(t.match);
	free(t.kids);
	tui_pane_free(&t);
	tui_dialog_free(&t);
	tui_follow_free(&t);
	free(t.sel_path);
	history_free(&t.hist);
	pipeline_free(&t.pl);
	/* Die of the signal, as the shell expects, terminal restored. */
	stopsig_die(sig);
	return sig ? 128 + sig : t.failed ? 1 : 0;
}
