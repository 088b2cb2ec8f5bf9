/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xalloc.h - allocation that does not fail: out of memory, the program
 * says "memcgtop: out of memory" and exits 1, as tmux and htop do.
 *
 * One policy instead of a -ENOMEM path per caller: no caller can recover
 * from it in a useful way, and every half-handled one is a crash or a
 * silently wrong screen waiting to happen.
 */
#ifndef MEMCGTOP_XALLOC_H
#define MEMCGTOP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
/* realloc of n * size bytes, the product checked for overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* fn runs before the message (the screen puts the terminal back). */
void xalloc_on_failure(void (*fn)(void));

#endif
