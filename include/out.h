/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out.h - batch printers: text, CSV, JSON and OpenMetrics.
 *
 * They read the model through the column table and never touch a file
 * other than the stream they are given.
 */
#ifndef MEMCGTOP_OUT_H
#define MEMCGTOP_OUT_H

#include <stdio.h>

#include "columns.h"
#include "model.h"

enum out_format { FMT_TEXT, FMT_CSV, FMT_JSON, FMT_OPENMETRICS,
		  FMT_PROMETHEUS };

struct out_ctx {
	FILE *f;
	enum out_format fmt;
	const struct column **cols;
	size_t ncols;
	int human;		/* text: scaled units (not -r) */
	const char *mode;	/* "v1" "v2" "hybrid" */
	const char *root;
	const char *collector;	/* "bpf" or "files" (cgfs_collector) */
	int version;
	unsigned iteration;	/* 1, 2, ... */
	const struct model *m;
	const int *rows;	/* model group indices to print, in order */
	size_t nrows;
	int start_depth;	/* depth of the start group (text indent) */
	int flat;		/* text: full paths, no indentation */
	int cadvisor;		/* openmetrics: cAdvisor's names too */
};

int out_format_parse(const char *name, enum out_format *ret_fmt);

/* Before the first iteration (the CSV header). */
void out_begin(struct out_ctx *o);
void out_iteration(struct out_ctx *o);

void out_text(struct out_ctx *o);
void out_csv(struct out_ctx *o);
void out_json(struct out_ctx *o);
void out_openmetrics(struct out_ctx *o);
void out_csv_header(struct out_ctx *o);

/* Called by a printer at row r: asks the CPU for the rows it reads next.
 * Rows come in the tree's order, not in the order the groups lie in
 * memory, and 32,768 groups' model does not fit the CPU's caches. */
void out_rows_ahead(const struct out_ctx *o, size_t r);

/* Shared by the printers: the sample's wall-clock time in UTC, as
 * "2026-11-30T01:02:03Z" (whole seconds), written into buf; returns buf. */
const char *out_time(const struct model *m, char *buf, size_t len);

#endif
