/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tui_int.h - the console's state, shared by its source files. */
#ifndef MEMCGTOP_TUI_INT_H
#define MEMCGTOP_TUI_INT_H

#include <stddef.h>
#include <stdint.h>

#include "edit.h"
#include "columns.h"
#include "history.h"
#include "model.h"
#include "pipeline.h"
#include "theme.h"
#include "tui.h"

/* The sets of columns.c, then the custom one. */
enum colset {
	SET_OVERVIEW = CSET_OVERVIEW,
	SET_CUSTOM = CSET_NR,
	SET_NR
};

#define SET_MAX_COLS 64

enum input_mode { IN_NONE, IN_SEARCH, IN_FILTER, IN_DELAY, IN_EDIT };
enum dialog_stage { ED_NONE, ED_PICK, ED_VALUE, ED_CONFIRM, ED_RESULT };

#define DIALOG_MAX_KNOBS 16

/* How long a message stays on the status line when no key comes. */
#define STATUS_SECONDS 5.0

struct knob;
struct edit_plan;

struct dialog_line {
	int attr;
	char text[600];
};

/* The last change made in this run, for u. */
struct undo {
	const struct knob *k;
	char path[4096];
	char old[64];
};

struct dialog {
	enum dialog_stage stage;
	char **paths;		/* the groups being changed */
	size_t npaths;
	const struct knob *knobs[DIALOG_MAX_KNOBS];
	size_t nknobs;
	int sel;
	const struct knob *k;
	struct edit_plan *plans;
	struct preview *pvs;	/* each plan's preview, as confirmed */
	size_t nplans;
	struct dialog_line *lines;
	size_t nlines, caplines;
	int undo;		/* this dialog undoes the last change */
	int offer_undo;		/* the result screen offers u */
	/* What the knob table and the prompt show of paths[0]: per knob its
	 * value as read (now_ok 0: unread, "-") and why it cannot be changed
	 * (NULL: it can).  Read when the dialog opens and at each refresh,
	 * never to draw. */
	char now[DIALOG_MAX_KNOBS][64];
	int now_ok[DIALOG_MAX_KNOBS];
	const char *why[DIALOG_MAX_KNOBS];
	int loaded;
	unsigned loaded_refresh;
	/* The box's message line: what the last key in it did (a refused
	 * value, a knob that cannot be changed, a value kept).  Lasts until
	 * the next key. */
	char msg[600];
	int msg_error;
	int cur_y, cur_x;	/* where the typed text ends, for the cursor */
};
enum pane { PANE_NONE, PANE_DETAIL, PANE_PROCS, PANE_OOM };

/* One group of the change being followed (follow.c). */
struct follow_item {
	struct edit_plan plan;		/* as written, with its preview */
	struct preview pv;
	struct edit_watch before;
	int err;			/* the write's errno, or 0 */
	char now[64];			/* the value the kernel held after it */
	char line[1400];		/* the report, "" while following */
};

/* The last change made on the screen, followed --follow seconds: read
 * before each write, again when the time is up (tui_follow_tick), then
 * its report shown until the next change replaces it. */
struct follow {
	struct follow_item *items;
	size_t n;
	const struct knob *k;
	double start, due;		/* clock_mono(); due 0: not following */
	long secs;			/* how long it was followed, once done */
};

struct statkv {
	char key[48];
	uint64_t val;
};

struct tui {
	const struct tui_opts *o;
	struct cgfs *cg;
	struct pipeline pl;	/* the refreshes, the model (pl.m) */
	struct history hist;	/* the shown groups' recent figures */
	const struct column *hist_sort;	/* the column its HF_SORT holds */
	int spark;		/* the history column is shown (H) */

	const struct column *set[SET_NR][SET_MAX_COLS];
	size_t setn[SET_NR];
	int cur_set;
	const struct column *sort;
	int sort_desc;

	double delay, next_refresh;
	int paused;
	int failed;		/* a sample was not recorded: exit 1 */

	int *order;		/* model_order() result */
	size_t norder;
	int *vis;		/* rows shown: folded and filtered out removed */
	size_t nvis, cap;
	int sel, top;
	int hscroll;		/* value columns scrolled off on the left */
	char *sel_path;		/* the selection follows this group */

	enum input_mode input;
	char line[128];		/* what is being typed */
	size_t line_len;
	char search[128];
	char filter[128];
	unsigned char *match;	/* filter: 1 for a shown group (by index) */

	enum pane pane;
	int help;		/* the help screen is up */
	int setup;		/* the setup screen is up */
	int setup_sel;		/* its selected column */
	int help_top, help_max_top;	/* scroll, and its end at the last draw */
	int detail_top, detail_max_top;
	unsigned oom_marked;	/* the OOM kills (model.oom.seen) marked */

	/* The detail pane's data (the collector's read: model.focus): the
	 * group it is for, rates between the last two reads of the same
	 * group's memory.stat. */
	char *detail_path;
	struct statkv *stat_cur, *stat_prev;
	size_t nstat_cur, nstat_prev;
	double stat_cur_mono, stat_prev_mono;
	/* The verdict's figures as the detail files give them (FBIT(field)
	 * in have), this refresh's and the one before (same group). */
	struct {
		fieldset have;
		uint64_t v[FLD_NR];
		double mono;
	} vfile_cur, vfile_prev;
	char *kids;		/* by group index: it has children */

	struct dialog ed;
	struct follow fw;
	struct undo *undo;
	size_t nundo;

	char status[256];
	int status_error;
	double status_mono;	/* when the message was set */
	char refresh_err[512];	/* the last refresh failed: why ("": it
				 * did not) */

	int utf8, color;
	struct theme theme;
	int attr[TE_NR];	/* curses attribute per theme element */

	int quit;
};

/* keys.c */
void tui_key(struct tui *t, int ch);
void tui_help_lines(void (*fn)(const char *keys, const char *help, void *ctx),
		    void *ctx);

/* tui.c */
void tui_message(struct tui *t, int error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tui_message_clear(struct tui *t);
void tui_rebuild(struct tui *t);
void tui_select_path(struct tui *t, const char *path);
void tui_set_changed(struct tui *t);
void tui_refresh_now(struct tui *t);
void tui_want(const struct tui *t, struct pipeline_want *ret);
void tui_reread(struct tui *t);
void tui_oom_seen(struct tui *t);
void tui_history_update(struct tui *t);
const struct mgroup *tui_selected(const struct tui *t);

/* pane.c (each pane's lines: pane.h) */
void tui_pane_load(struct tui *t);
void tui_draw_pane(struct tui *t, int y0, int rows);
void tui_pane_free(struct tui *t);
/* pane_detail.c: the history graphs' glyphs, the H column's too */
const char *tui_graph_glyph(const struct tui *t, double v, double top);

/* dialog.c */
void tui_dialog_open(struct tui *t);
void tui_dialog_load(struct tui *t);
void tui_dialog_key(struct tui *t, int ch);
void tui_dialog_value(struct tui *t);
/* The preview of plan p (in ret) as lines (preview.c; PREVIEW_LINE,
 * edit.h). */
size_t tui_preview(struct tui *t, const struct edit_plan *p,
		   struct preview *ret, char (*lines)[PREVIEW_LINE],
		   size_t max);
void tui_draw_dialog(struct tui *t);
void tui_dialog_free(struct tui *t);
void tui_undo(struct tui *t);

/* follow.c: a change followed after it is written.  tui_follow_begin
 * ends the one before (its report then, at the time it had) and takes n
 * groups; tui_follow_write reads a group, writes plan p and says what
 * the kernel did in ret (edit_apply). */
void tui_follow_begin(struct tui *t, const struct knob *k, size_t n);
int tui_follow_write(struct tui *t, const struct edit_plan *p,
		     const struct preview *pv, struct edit_result *ret);
/* The time up: the groups read again, the report made and recorded. */
void tui_follow_tick(struct tui *t);
/* Seconds until the time is up (a large number when nothing is
 * followed), for the wait for keys. */
double tui_follow_wait(const struct tui *t);
/* Ends it now (quitting): the report at the time it had. */
void tui_follow_end(struct tui *t);
void tui_follow_free(struct tui *t);
/* The report's lines: the result screen's, under its own (i from 0,
 * NULL past the last), and the detail pane's of group g. */
const char *tui_follow_line(const struct tui *t, size_t i, int *attr);
struct pane_out;
void tui_follow_pane(struct pane_out *p, const struct mgroup *g);

/* setup.c */
void tui_setup_key(struct tui *t, int ch);
void tui_draw_setup(struct tui *t);

/* draw.c */
const char *tui_wrap(const char *s, int cols, const char **ret_next);
int tui_put(const struct tui *t, int y, int x, const char *s, int maxw,
	    int attr);
void tui_draw(struct tui *t);
int tui_list_rows(const struct tui *t);
int tui_hscroll_max(const struct tui *t);
const char *tui_set_name(int set);

#endif
