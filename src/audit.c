/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audit.c - syslog and the optional audit log file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "audit.h"
#include "fmt.h"

static int log_fd = -1;
static int opened;
static char last_error[300];

const char *audit_error(void)
{
	return last_error;
}

int audit_open(const char *file, char *err, size_t errlen)
{
	if (file) {
		log_fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
			      O_NOFOLLOW, 0600);
		if (log_fd < 0) {
			int e = errno;

			snprintf(err, errlen, "--audit-log %s: %s", file,
				 strerror(e));
			return -e;
		}
	}
	openlog("memcgtop", LOG_PID, LOG_AUTHPRIV);
	opened = 1;
	return 0;
}

void audit_close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
	if (opened)
		closelog();
	opened = 0;
}

int audit_record(const char *path, const char *file, const char *old,
		 const char *new_value, const char *result, const char *now)
{
	char safe[1024], line[1600];
	int n;

	/* A group name may hold any byte: escape it for the log. */
	fmt_escape(safe, sizeof(safe), path, strlen(path));
	n = snprintf(line, sizeof(line), "uid=%u group=%s file=%s old=%s "
		     "new=%s result=%s now=%s", (unsigned)getuid(), safe, file,
		     old, new_value, result, now);
	if (n < 0)
		return -EINVAL;
	if (!opened)
		openlog("memcgtop", LOG_PID, LOG_AUTHPRIV);
	syslog(LOG_AUTHPRIV | LOG_NOTICE, "%s", line);
	if (log_fd >= 0) {
		size_t len = strlen(line);
		ssize_t w;

		line[len] = '\n';
		/* One write() with O_APPEND: lines of concurrent runs do not
		 * interleave. */
		w = write(log_fd, line, len + 1);
		if (w < 0 || (size_t)w != len + 1) {
			snprintf(last_error, sizeof(last_error), "%s",
				 w < 0 ? strerror(errno) : "short write");
			return w < 0 ? -errno : -EIO;
		}
	}
	return 0;
}
