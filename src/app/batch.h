/* SPDX-License-Identifier: GPL-2.0-or-later */
/* batch.h - batch output: -b, a pipe, --output FILE. */
#ifndef MEMCGTOP_BATCH_H
#define MEMCGTOP_BATCH_H

#include "app/opts.h"
#include "cgfs.h"

/* Batch: o->iterations samples printed (0: until stopped), each with
 * rates over the interval before it. */
int batch_run(struct opts *o, struct cgfs *cg);

/* The stop signal that ended a run writing files (--output, --record), or
 * 0: the caller dies of it (stopsig_die) once the hierarchy is closed. */
int batch_stop_signal(void);

#endif
