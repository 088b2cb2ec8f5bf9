/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch.c - batch output: the refresh loop and the printers (-b, a pipe,
 * --output). */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app/batch.h"
#include "app/opts.h"
#include "cgfs.h"
#include "clock.h"
#include "columns.h"
#include "model.h"
#include "out.h"
#include "out/output.h"
#include "pipeline.h"
#include "rightsize.h"
#include "reclaim.h"
#include "stopsig.h"
#include "xalloc.h"
#include "msg.h"

/* The default columns: the overview for text (columns.c: this version's),
 * all of them for the data formats; prio_min (and its kswapd, direct,
 * proactive and soft-limit parts), the reclaim stalls and soft-limit
 * reclaim's scans and steals only where the reclaim events can be (events):
 * live, or a recording made with them, which kept what they gave (its replay
 * prints what the live run printed); a copy has none. */
void batch_default_columns(struct opts *o, int version, int events,
			   fieldset given)
{
	static const char *const rightsize[] = {
		"usage", "limit", "rec_limit", "high", "rec_high", "low",
		"rec_low", "path"
	};

	if (o->cols)
		return;
	o->cols = xcalloc(ncolumns, sizeof(*o->cols));
	if (o->rightsize) {
		o->ncols = 0;
		for (size_t i = 0; i < sizeof(rightsize) / sizeof(*rightsize);
		     i++)
			if (col_on_version(col_find(rightsize[i]), version))
				o->cols[o->ncols++] = col_find(rightsize[i]);
		return;
	}
	if (o->fmt == FMT_TEXT) {
		o->ncols = col_set_columns(CSET_OVERVIEW, version, given,
					   o->cols, ncolumns);
		return;
	}
	/* Every column but numa, which is asked for by name, and the
	 * recommendations, which rest on the run's window rather than on
	 * the refresh (-c or --rightsize asks for them). */
	o->ncols = 0;
	for (size_t i = 0; i < ncolumns; i++)
		if (columns[i].unit != U_NUMA &&
		    (columns[i].fields & RS_FIELDS) != RS_FIELDS &&
		    (events || (columns[i].field != FLD_PRIO_MIN &&
				columns[i].field != FLD_PRIO_MIN_KSWAPD &&
				columns[i].field != FLD_PRIO_MIN_DIRECT &&
				columns[i].field != FLD_PRIO_MIN_PROACTIVE &&
				columns[i].field != FLD_PRIO_MIN_SOFT &&
				columns[i].field != FLD_STALL &&
				columns[i].field != FLD_SOFT_PGSCAN &&
				columns[i].field != FLD_SOFT_PGSTEAL)))
			o->cols[o->ncols++] = &columns[i];
}

static int sort_cmp(const struct mgroup *a, const struct mgroup *b, void *ctx)
{
	const struct opts *o = ctx;

	return col_compare(o->sort, a, b, o->sort_desc);
}

/* --flat: the rows by the sort column across the tree, ties by path. */
static const struct opts *flat_o;
static const struct model *flat_m;

static int flat_cmp(const void *a, const void *b)
{
	const struct mgroup *ga = flat_m->groups[*(const int *)a];
	const struct mgroup *gb = flat_m->groups[*(const int *)b];
	int r = col_compare(flat_o->sort, ga, gb, flat_o->sort_desc);

	return r ? r : strcmp(ga->path, gb->path);
}

size_t batch_rows(struct batch_rows *br, const struct opts *o,
		  const struct model *m)
{
	size_t n, k = 0;

	if (m->n > br->cap) {
		free(br->order);
		free(br->rows);
		free(br->match);
		br->order = xreallocarray(NULL, m->n, sizeof(*br->order));
		br->rows = xreallocarray(NULL, m->n, sizeof(*br->rows));
		br->match = xmalloc(m->n);
		br->cap = m->n;
	}
	n = model_order(m, sort_cmp, (void *)o, br->order);
	if (o->filter)
		model_match(m, o->filter, br->match);
	for (size_t i = 0; i < n; i++) {
		if (o->filter && !br->match[br->order[i]])
			continue;
		br->rows[k++] = br->order[i];
	}
	if (o->flat) {
		flat_o = o;
		flat_m = m;
		qsort(br->rows, k, sizeof(*br->rows), flat_cmp);
		if (o->top && (size_t)o->top < k)
			k = (size_t)o->top;
	}
	return k;
}

void batch_rows_free(struct batch_rows *br)
{
	free(br->order);
	free(br->rows);
	free(br->match);
	memset(br, 0, sizeof(*br));
}

/* Batch runs that write files (--output, --record) stop between
 * iterations on SIGINT, SIGTERM or SIGHUP, so nothing is left half
 * written; then they die of the signal, as the shell expects. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void sleep_until(double deadline)
{
	struct timespec ts;

	ts.tv_sec = (time_t)deadline;
	ts.tv_nsec = (long)((deadline - (double)ts.tv_sec) * 1e9);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR && !stop_signal)
		;
}

/* A recorded series of a single sample. */
static int single_sample(const struct cgfs *cg)
{
	size_t n = 0;

	if (!cg || !cgfs_is_series(cg))
		return 0;
	cgfs_position(cg, &n);
	return n == 1;
}

int batch_stop_signal(void)
{
	return stop_signal;
}

/* One iteration printed: to stdout, or replacing --output's file.
 * Returns 0, or -1 when it could not be written (said on stderr). */
static int print_iteration(const struct opts *o, struct batch_rows *br,
			   struct out_ctx *out, const struct model *m, long it)
{
	char err[512];
	size_t k = batch_rows(br, o, m);

	out->rows = br->rows;
	out->nrows = k;
	out->start_depth = m->n ? m->groups[0]->depth : 0;
	out->iteration = it ? (unsigned)it : 1;
	if (o->output) {
		if (output_write(out, o->output, err, sizeof(err)) < 0) {
			msg_err("%s", err);
			return -1;
		}
		return 0;
	}
	out_iteration(out);
	return ferror(stdout) ? -1 : 0;
}

int batch_run(struct opts *o, struct cgfs *cg, struct provider *tree,
	      int version)
{
	struct pipeline pl;
	struct pipeline_want want = { 0 };
	const struct model *m = &pl.m;
	struct out_ctx out = { 0 };
	struct batch_rows br = { 0 };
	char err[512];
	double next;
	int r, status = 0, pending = 0;
	long last = 1;

	if (tree) {
		pipeline_init_tree(&pl, tree, version, o->maxdepth);
		batch_default_columns(o, version, 1, 0);	/* its series carry them */
	} else {
		pipeline_init(&pl, cg, o->maxdepth, o->record != NULL);
		version = cgfs_version(cg);
		batch_default_columns(o, version,
			reclaim_state(pl.rc, NULL, NULL) != RECLAIM_NONE ||
			cgfs_series_events(cg),
			cgfs_free_fields(cg));
	}
	pl.m.rs_margin = o->rec_margin;
	want.cols = o->cols;
	want.ncols = o->ncols;
	want.sort = o->sort;
	want.oom = o->fmt == FMT_JSON;
	want.only_shown = 1;
	out.f = stdout;
	out.fmt = o->fmt;
	out.cols = o->cols;
	out.ncols = o->ncols;
	out.human = !o->raw;
	out.mode = cg ? cgfs_mode(cg) : "prometheus";
	out.root = cg ? cgfs_root(cg) : o->prometheus;
	out.collector = cg ? cgfs_collector(cg) : "prometheus";
	out.version = version;
	out.m = m;
	out.flat = o->flat;
	out.cadvisor = o->cadvisor;

	/* Every printed iteration has rates: the first one comes from two
	 * samples one interval apart.  The reclaim events (which cost every
	 * page fault, and are loaded only for a column or the sort that
	 * needs them, as the data formats' default of every column does)
	 * load before the first sample, whose counts are then the baseline
	 * of the first printed interval. */
	next = clock_mono();
	if (o->output || o->record || o->rightsize)
		stopsig_catch(on_stop, 0, NULL);
	for (long it = 0; o->iterations == 0 || it <= o->iterations; it++) {
		/* The next sample is taken -d after the last one was: a
		 * late wake-up or a slow refresh (a stopped process, a
		 * loaded machine) makes that interval longer, never the
		 * next one shorter, so every printed rate spans at least
		 * -d, as top's do. */
		if (it > 0 && !(cg && cgfs_is_series(cg)))
			sleep_until(next + o->delay);
		if (stop_signal)
			break;
		r = pipeline_refresh(&pl, &want, err, sizeof(err));
		if (pl.m.src.note_new) {
			pl.m.src.note_new = 0;
			msg_err("%s", pl.m.src.note);
			out.collector = pl.m.src.collector;
		}
		if (r == -ENODATA)
			break;	/* a recorded series ends here */
		if (r < 0) {
			msg_err("%s", err);
			status = 1;
			break;
		}
		/* A source with no clock of its own (a Prometheus server's
		 * values are as of its scrapes: mono 0) is sampled now. */
		next = pl.m.mono > 0 ? pl.m.mono : clock_mono();
		if (it == 0) {
			/* The first interval starts when the baseline sample
			 * has been taken, not before: that refresh may load
			 * the reclaim events' program (0.7 s under ASan in a
			 * VM), and the first rates would span less than -d. */
			next = clock_mono();
			if (!o->output)
				out_begin(&out);
			/* A recording of one sample (a --record stopped
			 * right after its first) has no second to take rates
			 * from: its sample is printed as the screen shows it,
			 * rates not available. */
			if (!single_sample(cg))
				continue;
		}
		/* --rightsize: the window's end only, once. */
		pending = o->rightsize;
		last = it;
		if (pending && (o->iterations == 0 || it < o->iterations))
			continue;
		pending = 0;
		if (print_iteration(o, &br, &out, m, it) < 0) {
			status = 1;
			break;
		}
	}
	if (pending && !status && print_iteration(o, &br, &out, m, last) < 0)
		status = 1;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "memcgtop: writing output: %s\n",
			strerror(errno ? errno : EIO));
		status = 1;
	}
	batch_rows_free(&br);
	pipeline_free(&pl);
	return status;
}
