/* SPDX-License-Identifier: GPL-2.0-or-later */
/* listen.h - --listen [ADDR:]PORT: GET /metrics over HTTP for Prometheus. */
#ifndef MEMCGTOP_LISTEN_H
#define MEMCGTOP_LISTEN_H

#include "app/opts.h"
#include "cgfs.h"

/* Serves o->listen until SIGINT, SIGTERM or SIGHUP: 0 then; 1 if the
 * address cannot be listened on or the first refresh fails (said on
 * stderr). */
int listen_run(struct opts *o, struct cgfs *cg);

/* The descriptors it keeps open at most: its connections, the listening
 * socket and libmicrohttpd's own (the hierarchy's walk leaves them). */
unsigned listen_fds(void);

#endif
