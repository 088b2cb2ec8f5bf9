/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audit.h - the record of every attempted change.
 *
 * Each write, done or refused, goes to syslog (LOG_AUTHPRIV | LOG_NOTICE,
 * ident memcgtop) and, with --audit-log FILE, as the same line to FILE.
 */
#ifndef MEMCGTOP_AUDIT_H
#define MEMCGTOP_AUDIT_H

#include <stddef.h>

/* Opens syslog and, when file is not NULL, the log file (O_APPEND,
 * created 0600).  Returns 0 or a negative errno with a reason in err. */
int audit_open(const char *file, char *err, size_t errlen);
void audit_close(void);
/*
 * One line: uid, group, file, old, new, result (ok or the errno's name)
 * and the value held now.  Returns 0, or a negative errno when the audit
 * log file could not take it (audit_error() says why).
 */
int audit_record(const char *path, const char *file, const char *old,
		 const char *new_value, const char *result, const char *now);
const char *audit_error(void);

#endif
