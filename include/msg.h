/* SPDX-License-Identifier: GPL-2.0-or-later */
/* msg.h - what memcgtop says on a terminal that is not a table: errors
 * and warnings on stderr, result lines on stdout.
 *
 * Every message goes out through fmt_safe: a path, a file's content, a
 * kernel's reason or a recording's text quoted in it may hold any byte,
 * and none of them may reach the terminal as a control.
 */
#ifndef MEMCGTOP_MSG_H
#define MEMCGTOP_MSG_H

#include <stdarg.h>

/* "memcgtop: MESSAGE\n" on stderr, one line. */
__attribute__((format(printf, 1, 2)))
void msg_err(const char *fmt, ...);
__attribute__((format(printf, 1, 0)))
void msg_verr(const char *fmt, va_list ap);
/* "MESSAGE\n" on stdout. */
__attribute__((format(printf, 1, 2)))
void msg_out(const char *fmt, ...);

#endif
