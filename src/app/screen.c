/* SPDX-License-Identifier: GPL-2.0-or-later */
/* screen.c - the interactive screen's start: the audit log and the
 * settings file, then tui_run. */
#include <stdio.h>

#include "app/opts.h"
#include "app/screen.h"
#include "audit.h"
#include "cgfs.h"
#include "config.h"
#include "tui.h"
#include "msg.h"

int screen_run(struct opts *o, struct cgfs *cg)
{
	struct config cfg;
	struct tui_opts to;
	char err[512];
	int status;

	/* The audit log is opened where a change can be made: the screen,
	 * without --readonly (--set opens it itself). */
	if (o->audit_log && !o->readonly &&
	    audit_open(o->audit_log, err, sizeof(err)) < 0) {
		msg_err("%s", err);
		return 1;
	}
	if (opts_apply_config(o, &cfg) < 0)
		return 2;
	to = (struct tui_opts){
		.cg = cg, .delay = o->delay, .sort = o->sort,
		.sort_desc = o->sort_desc,
		.custom = o->cols_arg ? o->cols : NULL,
		.ncustom = o->ncols, .maxdepth = o->maxdepth,
		.filter = o->filter, .ascii = o->ascii,
		.history = (double)o->history,
		.rec_margin = o->rec_margin,
		.no_color = o->no_color, .theme = o->theme,
		.set_name = (cfg.has & CONFIG_HAS_SET) ? cfg.set : NULL,
		.folded = cfg.folded, .nfolded = cfg.nfolded,
		.recording = o->record != NULL, .follow = o->follow,
	};
	status = tui_run(&to);
	config_free(&cfg);
	return status;
}
