/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audit.c - syslog and the optional audit log file. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "audit.h"
#include "fmt.h"

static int log_fd = -1;
static char last_error[300];

const char *audit_error(void)
{
	return last_error;
}

const char *audit_syslog_path(void)
{
	const char *p = secure_getenv("MEMCGTOP_SYSLOG_SOCKET");

	return p && p[0] ? p : "/dev/log";
}

/*
 * A socket connected to the syslog daemon, or -1 when none listens.  Not
 * openlog/syslog(3): they cannot say whether anyone listens, and they
 * always use /dev/log, where a test cannot put a daemon of its own.  Like
 * glibc, a datagram socket, else a stream one.
 */
static int syslog_connect(int *ret_stream)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = audit_syslog_path();
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM };

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (size_t i = 0; i < 2; i++) {
		int fd = socket(AF_UNIX, types[i] | SOCK_CLOEXEC, 0);

		if (fd < 0)
			return -1;
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
			*ret_stream = types[i] == SOCK_STREAM;
			return fd;
		}
		close(fd);
		if (errno != EPROTOTYPE)
			return -1;
	}
	return -1;
}

int audit_syslog_listening(void)
{
	int stream, fd = syslog_connect(&stream);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int audit_has_file(void)
{
	return log_fd >= 0;
}

/* One message as syslog(3) sends it: <PRI>Mmm dd hh:mm:ss memcgtop[PID]: */
static void syslog_send(const char *text)
{
	static const char mon[12][4] = { "Jan", "Feb", "Mar", "Apr", "May",
		"Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	char msg[2048];
	time_t now = time(NULL);
	struct tm tm;
	int stream, fd, n;

	if (!localtime_r(&now, &tm))
		return;
	n = snprintf(msg, sizeof(msg), "<%d>%s %2d %02d:%02d:%02d memcgtop[%d]: "
		     "%s", LOG_AUTHPRIV | LOG_NOTICE, mon[tm.tm_mon % 12],
		     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		     (int)getpid(), text);
	if (n < 0 || (size_t)n >= sizeof(msg))
		return;
	fd = syslog_connect(&stream);
	if (fd < 0)
		return;
	/* A stream daemon reads a NUL as the end of a message. */
	(void)send(fd, msg, (size_t)n + (size_t)stream, MSG_NOSIGNAL);
	close(fd);
}

/* The audit log: a regular file, appended to.  O_NONBLOCK, so that a FIFO
 * does not wait for a reader (and the change with it) forever, and not
 * opened at all when it is plainly something else (a device may act on
 * open); the check after open covers a file replaced meanwhile. */
int audit_open(const char *file, char *err, size_t errlen)
{
	struct stat st;
	int fd, e = 0, fl;

	if (!file)
		return 0;
	if (lstat(file, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISLNK(st.st_mode))
		e = -1;
	fd = e ? -1 : open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
			   O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0600);
	if (!e && fd < 0)
		e = errno == ENXIO || errno == EISDIR ? -1 : errno;
	if (!e && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)))
		e = -1;
	/* Blocking again: a write to a regular file waits for the disk
	 * anyway, and one line is written whole (audit_record). */
	if (!e && ((fl = fcntl(fd, F_GETFL)) < 0 ||
		   fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0))
		e = errno;
	if (e) {
		if (fd >= 0)
			close(fd);
		snprintf(err, errlen, "--audit-log %s: %s", file,
			 e < 0 ? "not a regular file" : strerror(e));
		return e < 0 ? -EINVAL : -e;
	}
	log_fd = fd;
	return 0;
}

void audit_close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

/* One line to syslog (not a fixture's) and to the log file. */
static int audit_line(char *line, int fixture);

int audit_record(const char *path, const char *file, const char *old,
		 const char *new_value, const char *result, const char *now,
		 int fixture)
{
	char safe[1024], line[1600];
	int n;

	/* A group name may hold any byte: escape it for the log. */
	fmt_escape(safe, sizeof(safe), path, strlen(path));
	n = snprintf(line, sizeof(line), "uid=%u group=%s file=%s old=%s "
		     "new=%s result=%s now=%s%s", (unsigned)getuid(), safe,
		     file, old, new_value, result, now,
		     fixture ? " fixture=yes" : "");
	if (n < 0)
		return -EINVAL;
	return audit_line(line, fixture);
}

int audit_note(const char *path, const char *file, const char *what,
	       int fixture)
{
	char safe[1024], line[1600];

	fmt_escape(safe, sizeof(safe), path, strlen(path));
	if (snprintf(line, sizeof(line), "uid=%u group=%s file=%s %s%s",
		     (unsigned)getuid(), safe, file, what,
		     fixture ? " fixture=yes" : "") < 0)
		return -EINVAL;
	return audit_line(line, fixture);
}

static int audit_line(char *line, int fixture)
{
	/* A fixture is no change to the system: not for the system log. */
	if (!fixture)
		syslog_send(line);
	if (log_fd >= 0) {
		size_t len = strlen(line), done = 0;

		line[len++] = '\n';
		/* One write() with O_APPEND: lines of concurrent runs do not
		 * interleave.  Short only when the disk fills up: the rest is
		 * tried, so that the reason (ENOSPC, EDQUOT) is the kernel's. */
		while (done < len) {
			ssize_t w = write(log_fd, line + done, len - done);
			int e = errno;

			if (w < 0 && e == EINTR)
				continue;
			if (w <= 0) {
				snprintf(last_error, sizeof(last_error), "%s",
					 w < 0 ? strerror(e) : "short write");
				return w < 0 ? -e : -EIO;
			}
			done += (size_t)w;
		}
	}
	return 0;
}
