/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_read.c - reading a group's control files (the live files source and
 * a recording's slots alike): the tables of each cgroup version (which
 * files a field needs, one row per file saying how it is read, the keys
 * of the key-value files) and the reads they drive, each file's bytes
 * handed to the sink when there is one. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgfs.h"
#include "cgfs_int.h"
#include "parse.h"
#include "sink.h"
#include "xalloc.h"

/* Which files each field needs, per version.  0: the version has none. */
static const unsigned v1_need[F_NR] = {
	[F_USAGE] = CFBIT(CF_USAGE),
	[F_LIMIT] = CFBIT(CF_LIMIT),
	[F_SOFT] = CFBIT(CF_SOFT),
	[F_SWAP] = CFBIT(CF_USAGE) | CFBIT(CF_MEMSW),
	[F_SWAPPINESS] = CFBIT(CF_SWAPPINESS),
	[F_ANON] = CFBIT(CF_STAT),
	[F_FILE] = CFBIT(CF_STAT),
	[F_SHMEM] = CFBIT(CF_STAT),
	[F_KERNEL] = CFBIT(CF_KMEM),
	[F_ACTIVE_ANON] = CFBIT(CF_STAT),
	[F_INACTIVE_ANON] = CFBIT(CF_STAT),
	[F_ACTIVE_FILE] = CFBIT(CF_STAT),
	[F_INACTIVE_FILE] = CFBIT(CF_STAT),
	[F_UNEVICTABLE] = CFBIT(CF_STAT),
	[F_REFAULT_ANON] = CFBIT(CF_STAT),
	[F_REFAULT_FILE] = CFBIT(CF_STAT),
	[F_PGFAULT] = CFBIT(CF_STAT),
	[F_PGMAJFAULT] = CFBIT(CF_STAT),
	[F_EV_OOM_KILL] = CFBIT(CF_OOMCTL),
	[F_FAILCNT] = CFBIT(CF_FAILCNT),
	[F_PROCS] = CFBIT(CF_PROCS),
	[F_PEAK] = CFBIT(CF_PEAK),
	/* The v1 root's adds kmem, read with its usage (see read_group). */
	[F_USAGE_SWAP] = CFBIT(CF_USAGE) | CFBIT(CF_MEMSW),
	[F_OWN_ACTIVE_ANON] = CFBIT(CF_STAT),
	[F_OWN_INACTIVE_ANON] = CFBIT(CF_STAT),
	[F_OWN_ACTIVE_FILE] = CFBIT(CF_STAT),
	[F_OWN_INACTIVE_FILE] = CFBIT(CF_STAT),
	[F_NUMA] = CFBIT(CF_NUMA),
};

static const unsigned v2_need[F_NR] = {
	[F_USAGE] = CFBIT(CF_USAGE),
	[F_LIMIT] = CFBIT(CF_LIMIT),
	[F_HIGH] = CFBIT(CF_HIGH),
	[F_LOW] = CFBIT(CF_LOW),
	[F_MIN] = CFBIT(CF_MIN),
	[F_SWAP] = CFBIT(CF_SWAPCUR),
	[F_SWAP_LIMIT] = CFBIT(CF_SWAPMAX),
	[F_ANON] = CFBIT(CF_STAT),
	[F_FILE] = CFBIT(CF_STAT),
	[F_SHMEM] = CFBIT(CF_STAT),
	[F_KERNEL] = CFBIT(CF_STAT),
	[F_ACTIVE_ANON] = CFBIT(CF_STAT),
	[F_INACTIVE_ANON] = CFBIT(CF_STAT),
	[F_ACTIVE_FILE] = CFBIT(CF_STAT),
	[F_INACTIVE_FILE] = CFBIT(CF_STAT),
	[F_UNEVICTABLE] = CFBIT(CF_STAT),
	[F_PGSCAN] = CFBIT(CF_STAT),
	[F_PGSTEAL] = CFBIT(CF_STAT),
	[F_PGSCAN_KSWAPD] = CFBIT(CF_STAT),
	[F_PGSCAN_DIRECT] = CFBIT(CF_STAT),
	[F_PGSTEAL_KSWAPD] = CFBIT(CF_STAT),
	[F_PGSTEAL_DIRECT] = CFBIT(CF_STAT),
	[F_REFAULT_ANON] = CFBIT(CF_STAT),
	[F_REFAULT_FILE] = CFBIT(CF_STAT),
	[F_PGFAULT] = CFBIT(CF_STAT),
	[F_PGMAJFAULT] = CFBIT(CF_STAT),
	[F_EV_LOW] = CFBIT(CF_EVENTS),
	[F_EV_HIGH] = CFBIT(CF_EVENTS),
	[F_EV_MAX] = CFBIT(CF_EVENTS),
	[F_EV_OOM] = CFBIT(CF_EVENTS),
	[F_EV_OOM_KILL] = CFBIT(CF_EVENTS),
	[F_PSI_SOME10] = CFBIT(CF_PRESSURE),
	[F_PSI_FULL10] = CFBIT(CF_PRESSURE),
	[F_PROCS] = CFBIT(CF_PROCS),
	[F_PEAK] = CFBIT(CF_PEAK),
	[F_SWAP_PEAK] = CFBIT(CF_SWAPPEAK),
	[F_USAGE_SWAP] = CFBIT(CF_USAGE) | CFBIT(CF_SWAPCUR),
	[F_ZSWAP] = CFBIT(CF_ZSWAP),
	[F_ZSWAPPED] = CFBIT(CF_STAT),
	[F_EVL_LOW] = CFBIT(CF_EVENTS_LOCAL),
	[F_EVL_HIGH] = CFBIT(CF_EVENTS_LOCAL),
	[F_EVL_MAX] = CFBIT(CF_EVENTS_LOCAL),
	[F_EVL_OOM] = CFBIT(CF_EVENTS_LOCAL),
	[F_EVL_OOM_KILL] = CFBIT(CF_EVENTS_LOCAL),
	[F_SWEV_HIGH] = CFBIT(CF_SWAPEVENTS),
	[F_SWEV_MAX] = CFBIT(CF_SWAPEVENTS),
	[F_SWEV_FAIL] = CFBIT(CF_SWAPEVENTS),
	[F_DYING] = CFBIT(CF_CGSTAT),
	[F_SWAP_ROOM] = CFBIT(CF_SWAPCUR) | CFBIT(CF_SWAPMAX),
	[F_NUMA] = CFBIT(CF_NUMA),
};

struct keymap {
	const char *key;
	int field;
	unsigned char len;	/* strlen(key): most keys differ in length */
};

#define K(name, f) { name, f, sizeof(name) - 1 }

/* v1 memory.stat: the hierarchical total_* keys, so v1 reads like v2. */
static const struct keymap v1_stat_keys[] = {
	K("total_rss", F_ANON),
	K("total_cache", F_FILE),
	K("total_shmem", F_SHMEM),
	K("total_active_anon", F_ACTIVE_ANON),
	K("total_inactive_anon", F_INACTIVE_ANON),
	K("total_active_file", F_ACTIVE_FILE),
	K("total_inactive_file", F_INACTIVE_FILE),
	K("total_unevictable", F_UNEVICTABLE),
	K("total_workingset_refault_anon", F_REFAULT_ANON),
	K("total_workingset_refault_file", F_REFAULT_FILE),
	K("total_pgfault", F_PGFAULT),
	K("total_pgmajfault", F_PGMAJFAULT),
	K("total_swap", -1),	/* swap fallback without memsw, see below */
	K("active_anon", F_OWN_ACTIVE_ANON),
	K("inactive_anon", F_OWN_INACTIVE_ANON),
	K("active_file", F_OWN_ACTIVE_FILE),
	K("inactive_file", F_OWN_INACTIVE_FILE),
	{ NULL, 0, 0 }
};

static const struct keymap v2_stat_keys[] = {
	K("anon", F_ANON),
	K("file", F_FILE),
	K("shmem", F_SHMEM),
	K("kernel", F_KERNEL),
	K("active_anon", F_ACTIVE_ANON),
	K("inactive_anon", F_INACTIVE_ANON),
	K("active_file", F_ACTIVE_FILE),
	K("inactive_file", F_INACTIVE_FILE),
	K("unevictable", F_UNEVICTABLE),
	K("pgscan", F_PGSCAN),
	K("pgsteal", F_PGSTEAL),
	K("pgscan_kswapd", F_PGSCAN_KSWAPD),
	K("pgscan_direct", F_PGSCAN_DIRECT),
	K("pgsteal_kswapd", F_PGSTEAL_KSWAPD),
	K("pgsteal_direct", F_PGSTEAL_DIRECT),
	K("workingset_refault_anon", F_REFAULT_ANON),
	K("workingset_refault_file", F_REFAULT_FILE),
	K("pgfault", F_PGFAULT),
	K("pgmajfault", F_PGMAJFAULT),
	K("zswapped", F_ZSWAPPED),
	K("sock", -1),		/* only for the root's usage */
	{ NULL, 0, 0 }
};

static const struct keymap v2_event_keys[] = {
	K("low", F_EV_LOW),
	K("high", F_EV_HIGH),
	K("max", F_EV_MAX),
	K("oom", F_EV_OOM),
	K("oom_kill", F_EV_OOM_KILL),
	{ NULL, 0, 0 }
};

static const struct keymap v2_event_local_keys[] = {
	K("low", F_EVL_LOW),
	K("high", F_EVL_HIGH),
	K("max", F_EVL_MAX),
	K("oom", F_EVL_OOM),
	K("oom_kill", F_EVL_OOM_KILL),
	{ NULL, 0, 0 }
};

static const struct keymap v2_swap_event_keys[] = {
	K("high", F_SWEV_HIGH),
	K("max", F_SWEV_MAX),
	K("fail", F_SWEV_FAIL),
	{ NULL, 0, 0 }
};

static const struct keymap v2_cgstat_keys[] = {
	K("nr_dying_descendants", F_DYING),
	{ NULL, 0, 0 }
};

static const struct keymap v1_oomctl_keys[] = {
	K("oom_kill", F_EV_OOM_KILL),
	{ NULL, 0, 0 }
};

/*
 * The control files of each version, one row each: its name, the field
 * its value gives, whether it may say "max" (a limit or protection:
 * unlimited; in v1, 2^63 rounded down to the page size) and how it is
 * read.  The rows drive read_group (in table order), read_value's range
 * check, cgfs_field_files (the files the column help names) and
 * cgfs_field_may_be_max (the columns' "max").
 */
enum row_kind {
	RK_VALUE,	/* one value: field */
	RK_KEYS,	/* "key value" lines: keys, each to its field */
	RK_PSI,		/* a pressure file: some and full avg10 */
	RK_NUMA,	/* kept whole for the JSON numa object (F_NUMA) */
	RK_PROCS,	/* one pid a line: counted (F_PROCS) */
	RK_OWN,		/* combined with others: read_group's own code */
};

struct cf_row {
	enum cgfile cf;
	const char *name;
	unsigned char kind;
	unsigned char may_max;
	int field;			/* RK_VALUE */
	const struct keymap *keys;	/* RK_KEYS */
};

#define VALUE(cf, name, f, max) { cf, name, RK_VALUE, max, f, NULL }
#define KEYS(cf, name, map) { cf, name, RK_KEYS, 0, -1, map }
#define OTHER(cf, name, kind) { cf, name, kind, 0, -1, NULL }

/* usage and memsw first: v1 swap is their difference, so they are read
 * back to back (read_group); memory.stat's keys are read by read_group
 * too, for the v1 swap fallback and the v2 root's usage. */
static const struct cf_row v1_rows[] = {
	OTHER(CF_USAGE, "memory.usage_in_bytes", RK_OWN),
	OTHER(CF_MEMSW, "memory.memsw.usage_in_bytes", RK_OWN),
	VALUE(CF_LIMIT, "memory.limit_in_bytes", F_LIMIT, 1),
	VALUE(CF_SOFT, "memory.soft_limit_in_bytes", F_SOFT, 1),
	VALUE(CF_PEAK, "memory.max_usage_in_bytes", F_PEAK, 0),
	VALUE(CF_SWAPPINESS, "memory.swappiness", F_SWAPPINESS, 0),
	VALUE(CF_KMEM, "memory.kmem.usage_in_bytes", F_KERNEL, 0),
	VALUE(CF_FAILCNT, "memory.failcnt", F_FAILCNT, 0),
	OTHER(CF_STAT, "memory.stat", RK_OWN),
	OTHER(CF_NUMA, "memory.numa_stat", RK_NUMA),
	KEYS(CF_OOMCTL, "memory.oom_control", v1_oomctl_keys),
	OTHER(CF_PROCS, "cgroup.procs", RK_PROCS),
};

static const struct cf_row v2_rows[] = {
	OTHER(CF_USAGE, "memory.current", RK_OWN),
	VALUE(CF_LIMIT, "memory.max", F_LIMIT, 1),
	VALUE(CF_HIGH, "memory.high", F_HIGH, 1),
	VALUE(CF_LOW, "memory.low", F_LOW, 1),
	VALUE(CF_MIN, "memory.min", F_MIN, 1),
	VALUE(CF_SWAPCUR, "memory.swap.current", F_SWAP, 0),
	VALUE(CF_SWAPMAX, "memory.swap.max", F_SWAP_LIMIT, 1),
	VALUE(CF_PEAK, "memory.peak", F_PEAK, 0),
	VALUE(CF_SWAPPEAK, "memory.swap.peak", F_SWAP_PEAK, 0),
	VALUE(CF_ZSWAP, "memory.zswap.current", F_ZSWAP, 0),
	OTHER(CF_STAT, "memory.stat", RK_OWN),
	OTHER(CF_NUMA, "memory.numa_stat", RK_NUMA),
	KEYS(CF_EVENTS_LOCAL, "memory.events.local", v2_event_local_keys),
	KEYS(CF_SWAPEVENTS, "memory.swap.events", v2_swap_event_keys),
	KEYS(CF_CGSTAT, "cgroup.stat", v2_cgstat_keys),
	KEYS(CF_EVENTS, "memory.events", v2_event_keys),
	OTHER(CF_PRESSURE, "memory.pressure", RK_PSI),
	OTHER(CF_PROCS, "cgroup.procs", RK_PROCS),
};

#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

/*
 * Grows cg->buf, up to 1 MiB: 0 at that size, else 1.  A control file is
 * read whole up to there, and so kept whole by a recording; the largest
 * (memory.stat, a big cgroup.procs) stay far below it.  What a file holds
 * beyond it (a device or a huge file planted below --root) is not read.
 */
static int grow_buf(struct cgfs *cg)
{
	if (cg->bufcap >= (1u << 20))
		return 0;
	cg->buf = xreallocarray(cg->buf, cg->bufcap, 2);
	cg->bufcap *= 2;
	return 1;
}

/* Reads fd from offset 0 to its end into cg->buf; the length or -errno. */
static ssize_t read_whole(struct cgfs *cg, int fd)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (len == cg->bufcap) {
			int g = grow_buf(cg);

			if (g < 0)
				return g;
			if (g == 0)
				break;
		}
		n = pread(fd, cg->buf + len, cg->bufcap - len, (off_t)len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		/* A read that did not fill the buffer reached the end: a
		 * regular file's does, and so does cgroupfs' seq_file, which
		 * fills all it is given before it returns.  That saves the
		 * second call that would read nothing. */
		if (len < cg->bufcap)
			break;
	}
	return (ssize_t)len;
}

static int open_file(int dirfd, const char *name)
{
	/* O_NOFOLLOW: a symlink planted where a control file should be is
	 * not followed out of the hierarchy.  O_NONBLOCK: a FIFO planted in
	 * a fixture does not hang us. */
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
			O_NONBLOCK);

	return fd < 0 ? -errno : fd;
}

/*
 * Opens a file of a group.  A mounted cgroup filesystem has only regular
 * files; a tree given with --root or a recording may hold anything where
 * a control file should be, and what is not a regular file (a device such
 * as /dev/zero, whose reads never end; a FIFO) is not read: -EINVAL.
 */
static int open_cf(const struct cgfs *cg, int dirfd, const char *name)
{
	struct stat st;
	int fd = open_file(dirfd, name);

	if (fd < 0 || cg->kernfs)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		/* A directory says so, as read() on it would. */
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	return fd;
}

/*
 * A file that cannot be opened by name (ENOENT) may be missing from this
 * group, or the group may have been removed since its directory was
 * opened: kernfs then answers ENOENT for every name in it.  cgroup.procs
 * exists in every group of both versions, so its absence tells.
 */
static void note_removed(struct cgfs *cg, int dirfd, int err)
{
	/* kernfs answers ENODEV for a file of a group being removed. */
	if (err == -ENODEV)
		cg->stale = 1;
	else if (cg->kernfs && err == -ENOENT &&
		 faccessat(dirfd, "cgroup.procs", F_OK,
			   AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
		cg->stale = 1;
}

/*
 * Reads a whole small control file into cg->buf.  Returns the length or a
 * negative errno.
 */
ssize_t cgfs_read_small(struct cgfs *cg, int dirfd, const char *name)
{
	int fd = open_cf(cg, dirfd, name);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read_whole(cg, fd);
	close(fd);
	return n;
}

/* The group at path ("/a/b") is read next, or none (NULL): the recorder
 * is told the bytes of its files (see read_cf). */
void cgfs_reading(struct cgfs *cg, const char *path)
{
	if (cg->sink)
		cg->sink->ops->group(cg->sink, path);
}

/* Reads control file f of a group into cg->buf: its length or -errno. */
static ssize_t read_cf(struct cgfs *cg, int dirfd, enum cgfile f)
{
	ssize_t n;
	int fd;

	fd = open_cf(cg, dirfd, cg->file[f]);
	if (fd < 0) {
		note_removed(cg, dirfd, fd);
		return fd;
	}
	n = read_whole(cg, fd);
	if (n == -ENODEV)
		cg->stale = 1;	/* removed between the open and the read */
	close(fd);
	if (n >= 0 && cg->sink)
		cg->sink->ops->file(cg->sink, cg->file[f], cg->buf,
				    (size_t)n);
	return n;
}

static int read_value(struct cgfs *cg, int dirfd, enum cgfile f,
		      uint64_t *ret_val)
{
	ssize_t n;
	int r;

	/* The BPF pass carries it for this group (cgfs_bpf.c). */
	if (cg->bpf_cur && (r = cgfs_bpf_value(cg, f, ret_val)) != 1)
		return r;
	n = read_cf(cg, dirfd, f);
	if (n < 0)
		return (int)n;
	r = parse_value_file(cg->buf, (size_t)n, ret_val);
	/* Only a limit or protection can be unlimited; a usage or a count
	 * at v1's "no limit" or beyond is not a value. */
	if (r == 0 && *ret_val == VAL_MAX && !(cg->may_max & CFBIT(f)))
		r = -ERANGE;
	return r;
}

/* The most of cgroup.procs read: every pid up to the largest pid_max
 * (2^22), 8 bytes a line, is 32 MiB. */
#define PROCS_MAX (64 << 20)

/* cgroup.procs can be long (the root lists every process): count it in
 * passes through the buffer instead of holding it whole. */
static int count_procs(struct cgfs *cg, int dirfd, uint64_t *ret_n)
{
	uint64_t n = 0;
	off_t off = 0;
	int fd, in_line = 0;

	fd = open_cf(cg, dirfd, cg->file[CF_PROCS]);
	if (fd < 0) {
		note_removed(cg, dirfd, fd);
		return fd;
	}
	for (;;) {
		ssize_t r;

		if (off >= PROCS_MAX) {
			close(fd);
			return -EFBIG;
		}
		r = pread(fd, cg->buf, cg->bufcap, off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			close(fd);
			if (e == ENODEV)
				cg->stale = 1;
			return -e;
		}
		if (r == 0)
			break;
		off += r;
		for (ssize_t i = 0; i < r; i++) {
			if (cg->buf[i] == '\n') {
				n += (uint64_t)in_line;
				in_line = 0;
			} else {
				in_line = 1;
			}
		}
	}
	close(fd);
	*ret_n = n + (uint64_t)in_line;
	return 0;
}

struct kvctx {
	const struct keymap *map;
	struct sample *s;
	uint64_t seen;		/* FBIT of the fields whose key came */
	uint64_t extra;		/* the one key mapped to -1 */
	int has_extra, seen_extra;
};

static void kv_store(const char *key, size_t keylen, uint64_t val, void *ctx)
{
	struct kvctx *c = ctx;

	for (const struct keymap *m = c->map; m->key; m++) {
		if (m->len != keylen || memcmp(m->key, key, keylen))
			continue;
		/* A key repeated: the first one counts, even when its value
		 * is out of range (parse_in_range: not a value). */
		if (m->field < 0) {
			if (!c->seen_extra && parse_in_range(val)) {
				c->extra = val;
				c->has_extra = 1;
			}
			c->seen_extra = 1;
		} else if (!(c->seen & FBIT(m->field))) {
			c->seen |= FBIT(m->field);
			if (parse_in_range(val))
				sample_set(c->s, (enum field)m->field, val);
		}
		return;
	}
}

static void read_keys(struct cgfs *cg, int dirfd, const struct cf_row *row,
		      struct sample *s)
{
	struct kvctx c = { .map = row->keys, .s = s };
	ssize_t n = read_cf(cg, dirfd, row->cf);

	if (n >= 0)
		parse_keyvals(cg->buf, (size_t)n, kv_store, &c);
}

/* With PSI disabled (psi=0) the file is missing or reads EOPNOTSUPP: not
 * available, like any unreadable file. */
static void read_psi(struct cgfs *cg, int dirfd, const struct cf_row *row,
		     struct sample *s)
{
	ssize_t n = read_cf(cg, dirfd, row->cf);
	struct psi p;

	if (n >= 0 && parse_psi(cg->buf, (size_t)n, &p) == 0) {
		if (p.has_some)
			sample_set(s, F_PSI_SOME10, p.some_avg10);
		if (p.has_full)
			sample_set(s, F_PSI_FULL10, p.full_avg10);
	}
}

/* Kept whole for the JSON numa object (see snapshot). */
static void read_numa(struct cgfs *cg, int dirfd, const struct cf_row *row,
		      struct sample *s)
{
	ssize_t n = read_cf(cg, dirfd, row->cf);

	if (n >= 0 && cgfs_grow((void **)&cg->numa, &cg->numa_cap,
			   cg->numa_len + (size_t)n + 1, 1) == 0) {
		memcpy(cg->numa + cg->numa_len, cg->buf, (size_t)n);
		cg->numa[cg->numa_len + (size_t)n] = '\0';
		sample_set(s, F_NUMA, cg->numa_len);
		cg->numa_len += (size_t)n + 1;
	}
}

static void read_procs(struct cgfs *cg, int dirfd, const struct cf_row *row,
		       struct sample *s)
{
	uint64_t v = 0;

	if (cg->sink) {
		/* Recorded: read whole (up to 1 MiB) so the file is kept. */
		ssize_t n = read_cf(cg, dirfd, row->cf);

		if (n >= 0)
			sample_set(s, F_PROCS, parse_count_lines(cg->buf,
								 (size_t)n));
	} else if (count_procs(cg, dirfd, &v) == 0) {
		sample_set(s, F_PROCS, v);
	}
}

/*
 * Reads the files a group's fields need, row by row of its version's
 * table; what combines several files (v1 usage, memsw and the root's
 * kmem, memory.stat's figures) is its own code around the rows.  Returns
 * -ENODEV when the group turned out removed (a file answered ENODEV, or
 * every name in the directory is gone; see note_removed()): the caller
 * reopens it by name, in case it was made again, and reads again.  Else 0.
 */
int cgfs_read_group(struct cgfs *cg, int dirfd, int is_root,
		    unsigned files, struct sample *ret)
{
	/* Read into room for every field, then kept in ret's slots: what
	 * is combined (v1 swap, the roots' usage) may come from fields not
	 * kept. */
	uint64_t all[F_NR] = { 0 };
	struct sample full = { 0, FIELDS_ALL, all }, *s = &full;
	unsigned want_usage = files & CFBIT(CF_USAGE);
	struct kvctx stat = { .map = cg->stat_keys, .s = s };
	uint64_t v, memsw = 0;
	int has_memsw = 0, stat_read = 0;
	ssize_t n;

	cg->stale = 0;
	if (cg->version == 2 && is_root) {
		/* The v2 root has only memory.stat, memory.pressure,
		 * memory.numa_stat and memory.reclaim (6.1): its usage comes
		 * from memory.stat, its limits are not applicable. */
		if (files & CFBIT(CF_USAGE))
			files |= CFBIT(CF_STAT);
		files &= CFBIT(CF_STAT) | CFBIT(CF_PRESSURE) | CFBIT(CF_PROCS) |
			CFBIT(CF_CGSTAT) | CFBIT(CF_NUMA);
	}
	if (cg->version == 1 && (files & CFBIT(CF_MEMSW)) &&
	    read_value(cg, dirfd, CF_MEMSW, &memsw) == 0)
		has_memsw = 1;
	/* v1 swap is memsw - usage and the v1 root's usage adds kmem (see
	 * below): the files are read back to back, so that the group moves
	 * as little as possible in between. */
	if ((files & CFBIT(CF_USAGE)) && read_value(cg, dirfd, CF_USAGE, &v) == 0)
		sample_set(s, F_USAGE, v);
	if (cg->version == 1 && is_root && want_usage) {
		if (read_value(cg, dirfd, CF_KMEM, &v) == 0)
			sample_set(s, F_KERNEL, v);
		files &= ~CFBIT(CF_KMEM);
	}
	if (has_memsw && sample_has(s, F_USAGE) && memsw != VAL_MAX)
		sample_set(s, F_SWAP, memsw > sample_get(s, F_USAGE) ?
			   memsw - sample_get(s, F_USAGE) : 0);
	for (size_t i = 0; i < cg->nrows; i++) {
		const struct cf_row *row = &cg->rows[i];

		if (!(files & CFBIT(row->cf)))
			continue;
		switch (row->kind) {
		case RK_VALUE:
			if (read_value(cg, dirfd, row->cf, &v) == 0)
				sample_set(s, (enum field)row->field, v);
			break;
		case RK_KEYS:
			read_keys(cg, dirfd, row, s);
			break;
		case RK_PSI:
			read_psi(cg, dirfd, row, s);
			break;
		case RK_NUMA:
			read_numa(cg, dirfd, row, s);
			break;
		case RK_PROCS:
			read_procs(cg, dirfd, row, s);
			break;
		case RK_OWN:
			if (row->cf != CF_STAT)
				break;	/* usage, memsw: above */
			n = read_cf(cg, dirfd, CF_STAT);
			if (n >= 0)
				parse_keyvals(cg->buf, (size_t)n, kv_store,
					      &stat);
			stat_read = 1;
			break;
		}
	}
	if (sample_has(s, F_SWAP) && sample_has(s, F_SWAP_LIMIT) &&
	    cg->version == 2)
	{
		uint64_t lim = sample_get(s, F_SWAP_LIMIT);
		uint64_t swap = sample_get(s, F_SWAP);

		sample_set(s, F_SWAP_ROOM, lim == VAL_MAX ? VAL_MAX :
			   lim > swap ? lim - swap : 0);
	}
	if (cg->version == 2 && sample_has(s, F_USAGE) &&
	    (files & CFBIT(CF_SWAPCUR)) && sample_has(s, F_SWAP))
		sample_set(s, F_USAGE_SWAP, sample_get(s, F_USAGE) +
			   sample_get(s, F_SWAP));
	if (stat_read && cg->version == 2 && is_root && want_usage) {
		/* v2 root usage: anon + file + kernel + sock. */
		s->valid &= ~FBIT(F_USAGE);
		if (sample_has(s, F_ANON) && sample_has(s, F_FILE) &&
		    sample_has(s, F_KERNEL) && stat.has_extra)
			sample_set(s, F_USAGE, sample_get(s, F_ANON) +
				   sample_get(s, F_FILE) +
				   sample_get(s, F_KERNEL) + stat.extra);
	}
	if (cg->version == 1 && (files & CFBIT(CF_MEMSW)) && !has_memsw) {
		/* Without swap accounting there is no memsw file;
		 * memory.stat's total_swap is then the figure (absent too
		 * when swap accounting is off entirely).  The stat is read
		 * for it only then: it costs the kernel more than three
		 * value files. */
		if (!stat_read) {
			n = read_cf(cg, dirfd, CF_STAT);
			if (n >= 0)
				parse_keyvals(cg->buf, (size_t)n, kv_store,
					      &stat);
		}
		if (stat.has_extra)
			sample_set(s, F_SWAP, stat.extra);
	}
	if (cg->version == 1 && is_root && want_usage &&
	    sample_has(s, F_USAGE)) {
		/* The kernel makes the v1 root's usage from the global file
		 * and anon page counts, leaving out the kernel memory it
		 * charges to the groups below; the root's kmem counter holds
		 * all of that, so with it the root is not smaller than its
		 * children.  Without the kmem file the kernel's figure stays. */
		if (sample_has(s, F_KERNEL))
			sample_set(s, F_USAGE, sample_get(s, F_USAGE) +
				   sample_get(s, F_KERNEL));
	}
	if (cg->version == 1 && has_memsw && memsw != VAL_MAX) {
		/* Like its usage, the v1 root's memsw leaves out the kernel
		 * memory charged below it: the same kmem is added. */
		v = memsw;
		if (is_root && want_usage && sample_has(s, F_KERNEL))
			v += sample_get(s, F_KERNEL);
		sample_set(s, F_USAGE_SWAP, v);
	}
	sample_copy(ret, s);
	return cg->stale ? -ENODEV : 0;
}

unsigned cgfs_files_for(const struct cgfs *cg, uint64_t fields)
{
	unsigned files = 0;

	for (int f = 0; f < F_NR; f++)
		if (fields & FBIT(f))
			files |= cg->need[f];
	return files;
}

uint64_t cgfs_fields_of(const struct cgfs *cg, unsigned files)
{
	uint64_t fields = 0;

	/* The v1 root's usage adds its kmem (read_group). */
	if (cg->version == 1 && (files & CFBIT(CF_USAGE)))
		files |= CFBIT(CF_KMEM);
	for (int f = 0; f < F_NR; f++)
		if (cg->need[f] & files)
			fields |= FBIT(f);
	return fields;
}

int cgfs_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t nc = *cap ? *cap : 64;
	void *np;

	if (need <= *cap)
		return 0;
	while (nc < need)
		nc *= 2;
	np = xreallocarray(*p, nc, elem);
	*p = np;
	*cap = nc;
	return 0;
}

/* The smallest memory limit strictly above the start group. */
uint64_t cgfs_limit_above(struct cgfs *cg, int rootfd)
{
	uint64_t lim = VAL_MAX, v;
	size_t len = strlen(cg->start);
	/* "/a/b/c": each ancestor as shown (for the recorder), cut short at
	 * its end; no PATH_MAX, which a deep start group can pass. */
	char *shown = xmalloc(len + 2), *rel, *p;

	shown[0] = '/';
	memcpy(shown + 1, cg->start, len + 1);
	rel = shown + 1;
	/* Every proper prefix "a", "a/b" of "a/b/c" is an ancestor. */
	for (p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		int fd;

		*p = '\0';
		fd = cgfs_open_rel(rootfd, rel);
		if (fd >= 0) {
			cgfs_reading(cg, shown);
			if (read_value(cg, fd, CF_LIMIT, &v) == 0 && v < lim)
				lim = v;
			cgfs_reading(cg, NULL);
			close(fd);
		}
		*p = '/';
	}
	free(shown);
	return lim;
}

int cgfs_field_may_be_max(enum field f)
{
	for (size_t i = 0; i < NROWS(v1_rows); i++)
		if (v1_rows[i].field == (int)f && v1_rows[i].may_max)
			return 1;
	for (size_t i = 0; i < NROWS(v2_rows); i++)
		if (v2_rows[i].field == (int)f && v2_rows[i].may_max)
			return 1;
	return 0;
}

size_t cgfs_field_files(const struct cgfs *cg, enum field f, int root,
			const char **ret_names, size_t max, int *ret_root_lacks)
{
	unsigned files = cg->need[f];
	size_t n = 0;

	*ret_root_lacks = 0;
	if (cg->version == 2 && root && files) {
		/* As read_group reads the v2 root. */
		if (files & CFBIT(CF_USAGE))
			files |= CFBIT(CF_STAT);
		files &= CFBIT(CF_STAT) | CFBIT(CF_PRESSURE) | CFBIT(CF_PROCS) |
			CFBIT(CF_CGSTAT) | CFBIT(CF_NUMA);
		*ret_root_lacks = files == 0;
	}
	for (int i = 0; i < CF_NR && n < max; i++)
		if (files & CFBIT(i))
			ret_names[n++] = cg->file[i];
	return n;
}

void cgfs_use_tables(struct cgfs *cg)
{
	cg->rows = cg->version == 2 ? v2_rows : v1_rows;
	cg->nrows = cg->version == 2 ? NROWS(v2_rows) : NROWS(v1_rows);
	for (size_t i = 0; i < cg->nrows; i++) {
		cg->file[cg->rows[i].cf] = cg->rows[i].name;
		if (cg->rows[i].may_max)
			cg->may_max |= CFBIT(cg->rows[i].cf);
	}
	cg->need = cg->version == 2 ? v2_need : v1_need;
	cg->stat_keys = cg->version == 2 ? v2_stat_keys : v1_stat_keys;
}
