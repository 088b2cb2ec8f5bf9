/* SPDX-License-Identifier: GPL-2.0-or-later */
/* setup.c - the setup screen: the custom column set, saving settings. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tui_int.h"
#include "xalloc.h"

static int position(const struct tui *t, const struct column *c)
{
	for (size_t i = 0; i < t->setn[SET_CUSTOM]; i++)
		if (t->set[SET_CUSTOM][i] == c)
			return (int)i;
	return -1;
}

static void toggle(struct tui *t, const struct column *c)
{
	const struct column **set = t->set[SET_CUSTOM];
	int pos = position(t, c);

	if (c->unit == U_NUMA) {
		tui_message(t, 1, "%s is only in JSON output (-b -F json)",
			    c->key);
		return;
	}
	if (pos >= 0) {
		if (t->setn[SET_CUSTOM] == 1) {
			tui_message(t, 1, "the custom set needs a column");
			return;
		}
		memmove(&set[pos], &set[pos + 1],
			(t->setn[SET_CUSTOM] - (size_t)pos - 1) * sizeof(*set));
		t->setn[SET_CUSTOM]--;
	} else if (t->setn[SET_CUSTOM] < SET_MAX_COLS) {
		set[t->setn[SET_CUSTOM]++] = c;
	}
}

static void move_col(struct tui *t, const struct column *c, int by)
{
	const struct column **set = t->set[SET_CUSTOM];
	int pos = position(t, c), to = pos + by;

	if (pos < 0 || to < 0 || to >= (int)t->setn[SET_CUSTOM])
		return;
	set[pos] = set[to];
	set[to] = c;
}

/* Writes what the screen shows now as the start-up settings. */
static void save(struct tui *t)
{
	struct config c = { 0 }, old;
	char err[600];
	size_t o = 0;
	int r;

	c.has = CONFIG_HAS_DELAY | CONFIG_HAS_SORT | CONFIG_HAS_SET |
		CONFIG_HAS_CUSTOM;
	c.delay = t->delay;
	snprintf(c.sort, sizeof(c.sort), "%c%s", t->sort_desc ? '-' : '+',
		 t->sort->key);
	snprintf(c.set, sizeof(c.set), "%s", tui_set_name(t->cur_set));
	for (size_t i = 0; i < t->setn[SET_CUSTOM] && o < sizeof(c.custom);
	     i++)
		o += (size_t)snprintf(c.custom + o, sizeof(c.custom) - o,
				      "%s%s", i ? "," : "",
				      t->set[SET_CUSTOM][i]->key);
	if (t->theme.name[0]) {
		snprintf(c.theme, sizeof(c.theme), "%s", t->o->theme ?
			 t->o->theme : t->theme.name);
		c.has |= CONFIG_HAS_THEME;
	}
	for (size_t i = 0; i < t->pl.m.n; i++) {
		if (!(t->pl.m.groups[i]->view & VIEW_FOLDED))
			continue;
		c.folded = xreallocarray(c.folded, c.nfolded + 1,
					 sizeof(*c.folded));
		c.folded[c.nfolded++] = xstrdup(t->pl.m.groups[i]->path);
	}
	/* The collector and the margin are not set on the screen: the
	 * file's stay. */
	if (config_load(&old, err, sizeof(err)) == 0) {
		if (old.has & CONFIG_HAS_COLLECTOR) {
			memcpy(c.collector, old.collector, sizeof(c.collector));
			c.has |= CONFIG_HAS_COLLECTOR;
		}
		c.rec_margin = old.rec_margin;
		c.has |= old.has & CONFIG_HAS_REC_MARGIN;
		config_free(&old);
	}
	r = config_save(&c, err, sizeof(err));
	config_free(&c);
	if (r < 0) {
		tui_message(t, 1, "settings not saved: %s", err);
	} else {
		char path[512];

		config_path(path, sizeof(path));
		tui_message(t, 0, "settings saved to %s", path);
	}
}

void tui_setup_key(struct tui *t, int ch)
{
	const struct column *c = &columns[t->setup_sel];

	switch (ch) {
	case KEY_UP:
	case 'k':
		if (t->setup_sel > 0)
			t->setup_sel--;
		break;
	case KEY_DOWN:
	case 'j':
		if ((size_t)t->setup_sel + 1 < ncolumns)
			t->setup_sel++;
		break;
	case KEY_HOME:
		t->setup_sel = 0;
		break;
	case KEY_END:
		t->setup_sel = (int)ncolumns - 1;
		break;
	case ' ':
		toggle(t, c);
		break;
	case '-':
		move_col(t, c, -1);
		break;
	case '+':
		move_col(t, c, 1);
		break;
	case 'w':
		if (t->pl.m.src.readonly)
			tui_message(t, 1, "--readonly: settings not saved");
		else
			save(t);
		break;
	case 27:
	case 'q':
	case 'S':
	case KEY_F(2):
	case KEY_F(10):
		t->setup = 0;
		t->cur_set = SET_CUSTOM;
		t->hscroll = 0;
		tui_set_changed(t);
		tui_message(t, 0, "columns: custom");
		break;
	default:
		break;
	}
}

void tui_draw_setup(struct tui *t)
{
	int rows = LINES - 3, top;

	attrset(t->attr[TE_HEADER]);
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 0, "Setup: columns of the custom set  (Space add/remove, "
		  "- + move, w save settings, Esc done)", COLS);
	attrset(t->attr[TE_COLHEAD]);
	mvhline(1, 0, ' ', COLS);
	mvaddnstr(1, 0, " POS KEY                    TITLE    MEANING", COLS);
	attrset(A_NORMAL);
	top = t->setup_sel >= rows ? t->setup_sel - rows + 1 : 0;
	for (int y = 0; y < rows && (size_t)(top + y) < ncolumns; y++) {
		const struct column *c = &columns[top + y];
		int pos = position(t, c);
		char line[512], num[8] = "   ";

		if (pos >= 0)
			snprintf(num, sizeof(num), "%3d", pos + 1);
		snprintf(line, sizeof(line), " %s %-22s %-8s %s", num, c->key,
			 c->title, c->help);
		attrset(top + y == t->setup_sel ? t->attr[TE_SELECTED] :
			pos >= 0 ? t->attr[TE_TAGGED] : (int)A_NORMAL);
		mvhline(2 + y, 0, ' ', COLS);
		mvaddnstr(2 + y, 0, line, COLS);
		attrset(A_NORMAL);
	}
}
