/* SPDX-License-Identifier: GPL-2.0-or-later */
/* screen.h - the interactive screen as a program of its own. */
#ifndef MEMCGTOP_SCREEN_H
#define MEMCGTOP_SCREEN_H

#include "app/opts.h"
#include "cgfs.h"

/* The screen, with the settings file under the command line. */
int screen_run(struct opts *o, struct cgfs *cg);

#endif
