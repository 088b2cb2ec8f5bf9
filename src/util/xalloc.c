/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xalloc.c - allocation that does not fail (see xalloc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

static void (*on_failure)(void);

void xalloc_on_failure(void (*fn)(void))
{
	on_failure = fn;
}

static void __attribute__((noreturn)) out_of_memory(void)
{
	if (on_failure)
		on_failure();
	/* stderr is unbuffered: this needs no memory. */
	fputs("memcgtop: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;
	void *np;

	if (size && n > (size_t)-1 / size)
		out_of_memory();
	bytes = n * size;
	np = realloc(p, bytes ? bytes : 1);
	if (!np)
		out_of_memory();
	return np;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		out_of_memory();
	return p;
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		out_of_memory();
	return p;
}
