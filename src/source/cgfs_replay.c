/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_replay.c - the replay source: a recorded series (see record.h and
 * the man page's SERIES), its timestamps and info, and where it is.  The
 * samples themselves are read by the walk of cgfs.c, each from its slot
 * folder. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs_int.h"
#include "fmt.h"
#include "parse.h"
#include "sysinfo.h"
#include "xalloc.h"

/* What the replay source keeps (cg->priv). */
struct replay {
	size_t nsamples;
	size_t next;		/* the sample the next refresh reads */
	double *mono;		/* each sample's times */
	int64_t *wall;
	long *slot;		/* each sample's folder */
};

/* A series: each sample's slot folder, its recorded times and its slot of
 * the system figures (the proc series beside it, or --proc). */
static int replay_begin(struct cgfs *cg, char *dir, size_t dirlen,
			struct snapshot *snap)
{
	struct replay *rp = cg->priv;
	size_t i = rp->next;

	if (i >= rp->nsamples)
		return -ENODATA;
	rp->next++;
	snprintf(dir, dirlen, "%s/%ld", cg->root, rp->slot[i]);
	snap->mono = rp->mono[i];
	snap->wall = rp->wall[i];
	return 0;
}

/* The sample last begun (the first before any). */
static size_t last(const struct replay *rp)
{
	return rp->next ? rp->next - 1 : 0;
}

static void replay_tree(const struct cgfs *cg, char *dir, size_t dirlen)
{
	const struct replay *rp = cg->priv;

	snprintf(dir, dirlen, "%s/%ld", cg->root, rp->slot[last(rp)]);
}

static size_t replay_sys_slot(const struct cgfs *cg)
{
	const struct replay *rp = cg->priv;

	return (size_t)rp->slot[last(rp)];
}

static size_t replay_position(const struct cgfs *cg, size_t *ret_count)
{
	const struct replay *rp = cg->priv;

	*ret_count = rp->nsamples;
	return last(rp);
}

static void replay_seek(struct cgfs *cg, size_t index)
{
	struct replay *rp = cg->priv;

	rp->next = index < rp->nsamples ? index : rp->nsamples - 1;
}

static void replay_reread(struct cgfs *cg)
{
	struct replay *rp = cg->priv;

	if (rp->next > 0)
		rp->next--;
}

/* A series replays the system figures only from its own recording:
 * --proc, or the proc series a recording keeps beside its samples (none:
 * cg->sys stays NULL). */
static void replay_open_sys(struct cgfs *cg, const char *proc)
{
	char path[PATH_MAX + 16];
	struct stat st;

	cg->sys = NULL;
	if (proc) {
		sysinfo_open(proc, &cg->sys);
		return;
	}
	snprintf(path, sizeof(path), "%s/proc/timestamps", cg->root);
	if (stat(path, &st) < 0)
		return;
	snprintf(path, sizeof(path), "%s/proc", cg->root);
	sysinfo_open(path, &cg->sys);
}

/*
 * Reads the "MONO WALL SLOT" lines of a series' timestamps file (see
 * record.h), whole: no size cap, so that a week at one sample a second
 * (604,800 lines, about 17 MiB) replays to its last sample.  A line that
 * does not parse is an error naming the file and the line.
 */
static int load_series(struct replay *rp, const char *path, char *err,
		       size_t errlen)
{
	struct stat st;
	char msg[256];
	char *text = NULL;
	size_t len = 0, cap;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		snprintf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	/* Sized by fstat, one byte more so that the end is seen in one read;
	 * a file that grew meanwhile (a recording going on) grows the
	 * buffer. */
	cap = (size_t)st.st_size + 1;
	text = xmalloc(cap);
	for (;;) {
		ssize_t n;

		if (len == cap) {
			text = xreallocarray(text, cap, 2);
			cap *= 2;
		}
		n = read(fd, text + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			close(fd);
			free(text);
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
			return r;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	r = parse_timestamps(text, len, &rp->mono, &rp->wall, &rp->slot,
			     &rp->nsamples, msg, sizeof(msg));
	free(text);
	if (r < 0)
		snprintf(err, errlen, "%s: %s", path, msg);
	return r;
}

/* A path of DIR/info decoded in place when escaped (fmt.h's encoding,
 * which never lengthens it): 0, or -EINVAL. */
static int unescape(int escaped, char *s)
{
	size_t len = strlen(s);
	int n;

	if (!escaped)
		return 0;
	n = fmt_unescape(s, len + 1, s, len);
	/* A NUL byte names no path. */
	return n < 0 || strlen(s) != (size_t)n ? -EINVAL : 0;
}

/* A recording's DIR/info: the mode and root of the host it was made on,
 * shown on replay as they were shown live, and the group the recording
 * started at, where replay starts unless a CGROUP was given (ret_start,
 * NULL when the info has none). */
static void read_info(struct cgfs *cg, char **ret_start)
{
	char path[PATH_MAX + 8], line[4 * PATH_MAX + 16];
	char *root = NULL, *start = NULL;
	struct stat st;
	int fd, escaped = 0;
	FILE *f;

	*ret_start = NULL;

	/* Only a regular file: O_NONBLOCK, so that a FIFO does not wait
	 * for a writer; a few lines, so that a device does not go on. */
	snprintf(path, sizeof(path), "%s/info", cg->root);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    !(f = fdopen(fd, "r"))) {
		close(fd);
		return;
	}
	for (int i = 0; i < 64 && fgets(line, sizeof(line), f); i++) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "paths escaped"))
			escaped = 1;
		else if (!strncmp(line, "mode ", 5) && !cg->shown_mode &&
			 (!strcmp(line + 5, "v1") || !strcmp(line + 5, "v2") ||
			  !strcmp(line + 5, "hybrid")))
			cg->shown_mode = xstrdup(line + 5);
		else if (!strcmp(line, "collector bpf"))
			cg->replay_bpf = 1;
		else if (!strcmp(line, "memory_recursiveprot 1"))
			cg->recursiveprot = 1;
		else if (!strcmp(line, "memory_recursiveprot 0"))
			cg->recursiveprot = 0;
		else if (!strncmp(line, "root ", 5) && !root)
			root = xstrdup(line + 5);
		else if (!strncmp(line, "start /", 7) && !start)
			start = xstrdup(line + 6);
	}
	fclose(f);
	/* Written by a memcgtop that escapes them (record.c), or as they
	 * were; one that does not decode is not used. */
	if (root && !cg->shown_root && unescape(escaped, root) == 0)
		cg->shown_root = xstrdup(root);
	if (start && (unescape(escaped, start) < 0 ||
		      cgfs_normalise(start, ret_start) < 0))
		*ret_start = NULL;
	free(root);
	free(start);
}

/* opts->root holds a recording (DIR/timestamps): its samples, and the
 * start and host its info names. */
static int replay_open(struct cgfs *cg, const struct cgfs_opts *opts,
		       char *dir, size_t dirlen, char *err, size_t errlen)
{
	struct replay *rp = xcalloc(1, sizeof(*rp));
	char path[PATH_MAX + 16], *start;
	int r;

	cg->priv = rp;
	cg->root = xstrdup(opts->root);
	snprintf(path, sizeof(path), "%s/timestamps", opts->root);
	r = load_series(rp, path, err, errlen);
	if (r < 0)
		return r;
	read_info(cg, &start);
	if (start && !opts->start) {
		free(cg->start);
		cg->start = start;
	} else {
		free(start);
	}
	/* Made with the reclaim events loaded: they load at the first
	 * refresh that wants them, so the first two samples tell. */
	for (size_t i = 0; i < rp->nsamples && i < 2; i++) {
		snprintf(path, sizeof(path), "%s/proc/%ld/%s", opts->root,
			 rp->slot[i], CGFS_RECEV_FILE);
		if (access(path, F_OK) == 0)
			cg->series_events = 1;
	}
	snprintf(dir, dirlen, "%s/%ld", opts->root, rp->slot[0]);
	return 0;
}

static void replay_close(struct cgfs *cg)
{
	struct replay *rp = cg->priv;

	if (!rp)
		return;
	free(rp->mono);
	free(rp->wall);
	free(rp->slot);
	free(rp);
	cg->priv = NULL;
}

const struct source_ops cgfs_replay_ops = {
	.series = 1,
	.fresh_tree = 1,
	.writable = 0,
	.open = replay_open,
	.close = replay_close,
	.begin = replay_begin,
	.tree = replay_tree,
	.sys_slot = replay_sys_slot,
	.position = replay_position,
	.seek = replay_seek,
	.reread = replay_reread,
	.open_sys = replay_open_sys,
};
