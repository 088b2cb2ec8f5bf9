/* SPDX-License-Identifier: GPL-2.0-or-later */
/* preview.c - the edit dialog's preview of a planned change: the group's
 * figures now, the tree as the screen's model holds it (edit_preview). */
#include "edit.h"
#include "preview.h"
#include "tui_int.h"

size_t tui_preview(struct tui *t, const struct edit_plan *p,
		   struct preview *ret, char (*lines)[PREVIEW_LINE],
		   size_t max)
{
	struct preview_in in;

	edit_preview(t->cg, &t->pl.m, p, &in, ret);
	return edit_preview_lines(&in, ret, lines, max);
}
