/* SPDX-License-Identifier: GPL-2.0-or-later */
/* output.h - --output FILE: each batch iteration replaces FILE whole.
 *
 * The batch printers' file sink: a printer writes one iteration to a
 * temporary file beside FILE, which is then renamed over it.  Both calls
 * return 0, or -errno with the line to say in err ("--output FILE: ...").
 */
#ifndef MEMCGTOP_OUTPUT_H
#define MEMCGTOP_OUTPUT_H

#include <stddef.h>

#include "out.h"

/*
 * At start: removes the temporary files of FILE that a killed run left
 * (ours by name and owner, and locked by no one), and finds out at once
 * whether the folder takes one.
 */
int output_prepare(const char *file, char *err, size_t errlen);

/*
 * --output FILE: the iteration goes to a temporary file in FILE's folder,
 * then is renamed over FILE, so a reader (node_exporter's textfile
 * collector) sees the last whole iteration, never half of one.  out->f is
 * stdout again afterwards.
 */
int output_write(struct out_ctx *out, const char *file, char *err,
		 size_t errlen);

#endif
