/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpflib.h - what the BPF loaders (bpfcol, bpfev) share: whether this
 * process may load BPF programs, and libbpf's messages kept rather than
 * printed, so that a caller can say in one line why a load failed (and
 * "auto" can fall back silently).
 */
#ifndef MEMCGTOP_BPFLIB_H
#define MEMCGTOP_BPFLIB_H

#include <stdbool.h>

/* CAP_BPF and CAP_PERFMON (5.8+), or CAP_SYS_ADMIN, in the effective set. */
bool bpflib_permitted(void);

/* From now on libbpf's messages are kept, not printed; forgets the ones
 * kept before (call before each open or load). */
void bpflib_keep_messages(void);

/* The first message kept ("" if none). */
const char *bpflib_first(void);

/* The verifier's own complaint from the last load log ("" if none). */
const char *bpflib_verifier(void);

#endif
