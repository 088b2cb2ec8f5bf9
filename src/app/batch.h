/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch.h - batch output: -b, a pipe, --output FILE. */
#ifndef MEMCGTOP_BATCH_H
#define MEMCGTOP_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "app/opts.h"
#include "cgfs.h"
#include "model.h"

struct provider;

/* Batch: o->iterations samples printed (0: until stopped), each with
 * rates over the interval before it.  Over the hierarchy cg, or (cg NULL)
 * over tree, a source that is not a host's (--prometheus: of cgroup
 * version), which it frees. */
int batch_run(struct opts *o, struct cgfs *cg, struct provider *tree,
	      int version);

/* The data formats' default columns (every one but numa; the reclaim
 * events' only where events can be loaded), or text's overview for
 * version, unless o has columns already. */
void batch_default_columns(struct opts *o, int version, int events,
			   fieldset given);

/* The rows one iteration prints: the tree in o's sort order, filtered,
 * --flat and --top applied.  Reused from one iteration to the next. */
struct batch_rows {
	int *order, *rows;
	unsigned char *match;
	size_t cap;
};

/* Fills br->rows for m; returns how many. */
size_t batch_rows(struct batch_rows *br, const struct opts *o,
		  const struct model *m);
void batch_rows_free(struct batch_rows *br);

/* The stop signal that ended a run writing files (--output, --record), or
 * 0: the caller dies of it (stopsig_die) once the hierarchy is closed. */
int batch_stop_signal(void);

#endif
