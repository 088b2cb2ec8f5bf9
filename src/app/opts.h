/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opts.h - the command line and the screen's settings file under it.
 *
 * One struct opts for the four programs main.c picks from (--set,
 * --listen, batch and the screen).  A usage error says its line and exits 2; --help,
 * --list-columns, --list-keys and -V print and exit 0.
 */
#ifndef MEMCGTOP_OPTS_H
#define MEMCGTOP_OPTS_H

#include <stddef.h>

#include "cgfs.h"
#include "columns.h"
#include "config.h"
#include "edit/probe.h"
#include "out.h"

struct opts {
	int batch;
	long iterations;	/* -1: default */
	double delay;
	const struct column *sort;
	int sort_desc;
	const struct column **cols;
	size_t ncols;
	enum out_format fmt;
	int maxdepth;
	const char *filter;
	int flat;		/* --flat: every group, sorted globally */
	int cadvisor;		/* --compat cadvisor */
	long top;		/* --top N: the first N of them; 0: all */
	int raw;
	const char *theme;
	int no_color, ascii;
	long history;		/* --history: seconds of figures kept, 0 off */
	int rec_margin;		/* --rec-margin: percent */
	int rec_margin_given;
	int rightsize;		/* --rightsize: only the window's last figures */
	const char *cols_arg;
	int delay_given, sort_given;
	int readonly;
	const char *audit_log;
	const char *record;
	long record_max;
	const char *output;
	const char *listen;	/* --listen [ADDR:]PORT */
	const char *prometheus;	/* --prometheus URL */
	const char *match;	/* --match {SELECTOR}, or NULL */
	const char *host_label;	/* --host-label (default instance) */
	int batch_given, fmt_given, no_color_given;
	char **sets;
	size_t nsets;
	int dry_run;		/* --set --dry-run: preview, no write */
	long follow;		/* --follow SECS after a change (default 5) */
	const char *probe;	/* --probe PATH, with "/" before it */
	struct probe_opts probe_o;
	const char *probe_opt;	/* a --probe-* option given, or NULL */
	int collector_given;
	int version;		/* -V given: 1, -VV: 2 */
	struct cgfs_opts cg;
};

/*
 * Parses the command line into o, with what follows from it: batch when
 * stdout is not a terminal (unless --set), numa only in JSON batch output,
 * the iterations' default (batch 1, the screen 0).
 */
void opts_parse(int argc, char **argv, struct opts *o);
void opts_free(struct opts *o);

/*
 * -VV: the version, and the collector --collector auto would use on this
 * host's hierarchy (or the one given), with the reason when not bpf.
 */
int opts_version_verbose(struct opts *o);

/* The screen's settings file may choose the collector, which is needed
 * before the hierarchy is opened; its errors are told by opts_apply_config. */
void opts_config_collector(struct opts *o);

/*
 * The screen's start-up settings; the command line wins over them.  A bad
 * setting is a usage error naming the file, the line and the setting.
 */
int opts_apply_config(struct opts *o, struct config *cfg);

#endif
