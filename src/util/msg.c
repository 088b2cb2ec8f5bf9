/* SPDX-License-Identifier: GPL-2.0-or-later */
/* msg.c - messages, escaped for the terminal they are printed on. */
#include <stdio.h>
#include <stdlib.h>

#include "fmt.h"
#include "msg.h"
#include "xalloc.h"

/* The message escaped, then a newline, as one write when it fits. */
__attribute__((format(printf, 3, 0)))
static void put(FILE *f, const char *prefix, const char *fmt, va_list ap)
{
	char small[1024], *text = small;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0) {
		va_end(ap2);
		return;
	}
	if ((size_t)n >= sizeof(small)) {
		text = xmalloc((size_t)n + 1);
		vsnprintf(text, (size_t)n + 1, fmt, ap2);
	}
	va_end(ap2);
	fputs(prefix, f);
	fmt_safe_put(f, text, (size_t)n);
	fputc('\n', f);
	if (text != small)
		free(text);
}

void msg_verr(const char *fmt, va_list ap)
{
	put(stderr, "memcgtop: ", fmt, ap);
}

void msg_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	msg_verr(fmt, ap);
	va_end(ap);
}

void msg_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	put(stdout, "", fmt, ap);
	va_end(ap);
}
