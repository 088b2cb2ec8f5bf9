/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audit.h - the record of every attempted change.
 *
 * Each write, done or refused, goes to syslog (LOG_AUTHPRIV | LOG_NOTICE,
 * ident memcgtop) and, with --audit-log FILE, as the same line to FILE.
 * A write to a fixture (--root on plain files) goes only to FILE, marked
 * fixture=yes.
 */
#ifndef MEMCGTOP_AUDIT_H
#define MEMCGTOP_AUDIT_H

#include <stddef.h>

/* Opens the log file when file is not NULL (O_APPEND, created 0600).
 * Returns 0 or a negative errno with a reason in err. */
int audit_open(const char *file, char *err, size_t errlen);
void audit_close(void);
/*
 * One line: uid, group, file, old, new, result (ok or the errno's name)
 * and the value held now.  Returns 0, or a negative errno when the audit
 * log file could not take it (audit_error() says why).
 */
int audit_record(const char *path, const char *file, const char *old,
		 const char *new_value, const char *result, const char *now,
		 int fixture);
/* A line more on a change just recorded: what followed it (key=value
 * words in what).  Returns as audit_record. */
int audit_note(const char *path, const char *file, const char *what,
	       int fixture);
const char *audit_error(void);
/* The syslog socket: $MEMCGTOP_SYSLOG_SOCKET, else /dev/log. */
const char *audit_syslog_path(void);
/* 1 when a syslog daemon takes a connection on it now, else 0. */
int audit_syslog_listening(void);
/* 1 when an audit log file is open. */
int audit_has_file(void);

#endif
