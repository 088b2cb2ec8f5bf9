/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs.c - find, walk and read the memory cgroup hierarchy. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "cgfs.h"
#include "cgfs_int.h"
#include "clock.h"
#include "hash.h"
#include "parse.h"
#include "record.h"
#include "sink.h"
#include "sysinfo.h"
#include "xalloc.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif

/* Descriptors left for libraries, panes, the terminal and the audit log. */
#define FD_RESERVE 128

/*
 * The control files of each version, one row each: its name, the field
 * its value gives, and whether it may say "max" (a limit or protection:
 * unlimited; in v1, 2^63 rounded down to the page size).  The rows drive
 * read_group (a row with a field is one value file, read in table order),
 * read_value's range check, cgfs_field_files (the files the column help
 * names) and cgfs_field_may_be_max (the columns' "max").  field -1: the
 * file holds several values or is combined with others; read_group's own
 * code reads it.
 */
struct cf_row {
	enum cgfile cf;
	const char *name;
	int field;
	unsigned char may_max;
};

/* In the order read_group reads the value files: usage and memsw first
 * and back to back (v1 swap is their difference), then the rest. */
static const struct cf_row v1_rows[] = {
	{ CF_USAGE, "memory.usage_in_bytes", -1, 0 },
	{ CF_MEMSW, "memory.memsw.usage_in_bytes", -1, 0 },
	{ CF_LIMIT, "memory.limit_in_bytes", F_LIMIT, 1 },
	{ CF_SOFT, "memory.soft_limit_in_bytes", F_SOFT, 1 },
	{ CF_PEAK, "memory.max_usage_in_bytes", F_PEAK, 0 },
	{ CF_SWAPPINESS, "memory.swappiness", F_SWAPPINESS, 0 },
	{ CF_KMEM, "memory.kmem.usage_in_bytes", F_KERNEL, 0 },
	{ CF_FAILCNT, "memory.failcnt", F_FAILCNT, 0 },
	{ CF_STAT, "memory.stat", -1, 0 },
	{ CF_NUMA, "memory.numa_stat", -1, 0 },
	{ CF_OOMCTL, "memory.oom_control", -1, 0 },
	{ CF_PROCS, "cgroup.procs", -1, 0 },
};

static const struct cf_row v2_rows[] = {
	{ CF_USAGE, "memory.current", -1, 0 },
	{ CF_LIMIT, "memory.max", F_LIMIT, 1 },
	{ CF_HIGH, "memory.high", F_HIGH, 1 },
	{ CF_LOW, "memory.low", F_LOW, 1 },
	{ CF_MIN, "memory.min", F_MIN, 1 },
	{ CF_SWAPCUR, "memory.swap.current", F_SWAP, 0 },
	{ CF_SWAPMAX, "memory.swap.max", F_SWAP_LIMIT, 1 },
	{ CF_PEAK, "memory.peak", F_PEAK, 0 },
	{ CF_SWAPPEAK, "memory.swap.peak", F_SWAP_PEAK, 0 },
	{ CF_ZSWAP, "memory.zswap.current", F_ZSWAP, 0 },
	{ CF_STAT, "memory.stat", -1, 0 },
	{ CF_NUMA, "memory.numa_stat", -1, 0 },
	{ CF_EVENTS_LOCAL, "memory.events.local", -1, 0 },
	{ CF_SWAPEVENTS, "memory.swap.events", -1, 0 },
	{ CF_CGSTAT, "cgroup.stat", -1, 0 },
	{ CF_EVENTS, "memory.events", -1, 0 },
	{ CF_PRESSURE, "memory.pressure", -1, 0 },
	{ CF_PROCS, "cgroup.procs", -1, 0 },
};

#define NROWS(t) (sizeof(t) / sizeof((t)[0]))

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

int cgfs_version(const struct cgfs *cg)
{
	return cg->version;
}

const char *cgfs_mode(const struct cgfs *cg)
{
	return cg->shown_mode ? cg->shown_mode : cg->mode;
}

const char *cgfs_root(const struct cgfs *cg)
{
	return cg->shown_root ? cg->shown_root : cg->root;
}

/* Asked once, when the hierarchy is opened: callers may ask every frame. */
static int on_cgroupfs(const struct cgfs *cg)
{
	struct statfs sf;

	return !cg->src->fresh_tree && statfs(cg->root, &sf) == 0 &&
		(sf.f_type == CGROUP2_SUPER_MAGIC ||
		 sf.f_type == CGROUP_SUPER_MAGIC);
}

int cgfs_is_live(const struct cgfs *cg)
{
	return cg->kernfs;
}

void cgfs_set_kernfs(struct cgfs *cg, int kernfs)
{
	cg->kernfs = !cg->src->fresh_tree && kernfs;
}

unsigned long cgfs_listings(const struct cgfs *cg)
{
	return cg->listings;
}

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

/* Forgets what is kept for a group: its directory may be a new one. */
static void gh_close(struct cgfs *cg, struct gh *h)
{
	if (h->dirfd >= 0) {
		close(h->dirfd);
		h->dirfd = -1;
		cg->fd_dirs--;
	}
	free(h->sub);
	h->sub = NULL;
	h->sublen = 0;
	h->nsub = -1;
}

/* The group at path ("/a/b") is read next, or none (NULL): the recorder
 * is told the bytes of its files (see read_cf). */
static void reading(struct cgfs *cg, const char *path)
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

static int grow(void **p, size_t *cap, size_t need, size_t elem);

/* v2 key-value files read the same way: each key to its field. */
static const struct {
	enum cgfile f;
	const struct keymap *map;
} v2_kv_files[] = {
	{ CF_EVENTS_LOCAL, v2_event_local_keys },
	{ CF_SWAPEVENTS, v2_swap_event_keys },
	{ CF_CGSTAT, v2_cgstat_keys },
};

/*
 * Reads the files a group's fields need.  Returns -ENODEV when the group
 * turned out removed (a file answered ENODEV, or every name in the
 * directory is gone; see note_removed()): the caller reopens it by name,
 * in case it was made again, and reads again.  Else 0.
 */
int read_group(struct cgfs *cg, int dirfd, int is_root, unsigned files,
	       struct sample *s)
{
	unsigned want_usage = files & CFBIT(CF_USAGE);
	struct kvctx stat = { .map = cg->stat_keys, .s = s };
	uint64_t v, memsw = 0;
	int has_memsw = 0;
	ssize_t n;

	cg->stale = 0;
	memset(s, 0, sizeof(*s));
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
		sample_set(s, F_SWAP, memsw > s->v[F_USAGE] ?
			   memsw - s->v[F_USAGE] : 0);
	/* The value files, one field each, in the table's order. */
	for (size_t i = 0; i < cg->nrows; i++) {
		const struct cf_row *row = &cg->rows[i];

		if (row->field >= 0 && (files & CFBIT(row->cf)) &&
		    read_value(cg, dirfd, row->cf, &v) == 0)
			sample_set(s, (enum field)row->field, v);
	}
	if (sample_has(s, F_SWAP) && sample_has(s, F_SWAP_LIMIT) &&
	    cg->version == 2)
		sample_set(s, F_SWAP_ROOM, s->v[F_SWAP_LIMIT] == VAL_MAX ?
			   VAL_MAX : s->v[F_SWAP_LIMIT] > s->v[F_SWAP] ?
			   s->v[F_SWAP_LIMIT] - s->v[F_SWAP] : 0);
	if (cg->version == 2 && sample_has(s, F_USAGE) &&
	    (files & CFBIT(CF_SWAPCUR)) && sample_has(s, F_SWAP))
		sample_set(s, F_USAGE_SWAP, s->v[F_USAGE] + s->v[F_SWAP]);
	if (files & CFBIT(CF_STAT)) {
		n = read_cf(cg, dirfd, CF_STAT);
		if (n >= 0)
			parse_keyvals(cg->buf, (size_t)n, kv_store, &stat);
		if (cg->version == 2 && is_root && want_usage) {
			/* v2 root usage: anon + file + kernel + sock. */
			s->valid &= ~FBIT(F_USAGE);
			if (sample_has(s, F_ANON) && sample_has(s, F_FILE) &&
			    sample_has(s, F_KERNEL) && stat.has_extra)
				sample_set(s, F_USAGE, s->v[F_ANON] +
					   s->v[F_FILE] + s->v[F_KERNEL] +
					   stat.extra);
		}
	}
	if (cg->version == 1 && (files & CFBIT(CF_MEMSW)) && !has_memsw) {
		/* Without swap accounting there is no memsw file;
		 * memory.stat's total_swap is then the figure (absent too
		 * when swap accounting is off entirely).  The stat is read
		 * for it only then: it costs the kernel more than three
		 * value files. */
		if (!(files & CFBIT(CF_STAT))) {
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
			sample_set(s, F_USAGE, s->v[F_USAGE] + s->v[F_KERNEL]);
	}
	if (cg->version == 1 && has_memsw && memsw != VAL_MAX) {
		/* Like its usage, the v1 root's memsw leaves out the kernel
		 * memory charged below it: the same kmem is added. */
		v = memsw;
		if (is_root && want_usage && sample_has(s, F_KERNEL))
			v += s->v[F_KERNEL];
		sample_set(s, F_USAGE_SWAP, v);
	}
	if (files & CFBIT(CF_NUMA)) {
		/* Kept whole for the JSON numa object (see snapshot). */
		n = read_cf(cg, dirfd, CF_NUMA);
		if (n >= 0 && grow((void **)&cg->numa, &cg->numa_cap,
				   cg->numa_len + (size_t)n + 1, 1) == 0) {
			memcpy(cg->numa + cg->numa_len, cg->buf, (size_t)n);
			cg->numa[cg->numa_len + (size_t)n] = '\0';
			sample_set(s, F_NUMA, cg->numa_len);
			cg->numa_len += (size_t)n + 1;
		}
	}
	for (size_t i = 0; cg->version == 2 &&
	     i < sizeof(v2_kv_files) / sizeof(v2_kv_files[0]); i++) {
		struct kvctx c = { .map = v2_kv_files[i].map, .s = s };

		if (!(files & CFBIT(v2_kv_files[i].f)))
			continue;
		n = read_cf(cg, dirfd, v2_kv_files[i].f);
		if (n >= 0)
			parse_keyvals(cg->buf, (size_t)n, kv_store, &c);
	}
	if (files & (CFBIT(CF_EVENTS) | CFBIT(CF_OOMCTL))) {
		enum cgfile f = cg->version == 2 ? CF_EVENTS : CF_OOMCTL;
		struct kvctx c = {
			.map = cg->version == 2 ? v2_event_keys : v1_oomctl_keys,
			.s = s,
		};

		n = read_cf(cg, dirfd, f);
		if (n >= 0)
			parse_keyvals(cg->buf, (size_t)n, kv_store, &c);
	}
	if (files & CFBIT(CF_PRESSURE)) {
		struct psi p;

		/* With PSI disabled (psi=0) the file is missing or reads
		 * EOPNOTSUPP: not available, like any unreadable file. */
		n = read_cf(cg, dirfd, CF_PRESSURE);
		if (n >= 0 && parse_psi(cg->buf, (size_t)n, &p) == 0) {
			if (p.has_some)
				sample_set(s, F_PSI_SOME10, p.some_avg10);
			if (p.has_full)
				sample_set(s, F_PSI_FULL10, p.full_avg10);
		}
	}
	if ((files & CFBIT(CF_PROCS)) && cg->sink) {
		/* Recorded: read whole (up to 1 MiB) so the file is kept. */
		n = read_cf(cg, dirfd, CF_PROCS);
		if (n >= 0)
			sample_set(s, F_PROCS, parse_count_lines(cg->buf,
								 (size_t)n));
	} else if ((files & CFBIT(CF_PROCS)) &&
		   count_procs(cg, dirfd, &v) == 0) {
		sample_set(s, F_PROCS, v);
	}
	return cg->stale ? -ENODEV : 0;
}

static unsigned files_for(const struct cgfs *cg, uint64_t fields)
{
	unsigned files = 0;

	for (int f = 0; f < F_NR; f++)
		if (fields & FBIT(f))
			files |= cg->need[f];
	return files;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
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

/*
 * Appends a group whose path is its parent's path + "/" + name (the start
 * group: "/" + name, or "/" when name is empty).  Offsets, not pointers:
 * the arena moves when it grows.
 */
int add_group(struct snapshot *snap, int parent, const char *name,
	      size_t nlen, int depth, struct snap_group **ret_g)
{
	size_t plen = 0, poff = 0, len, off;
	struct snap_group *g;
	void *gp = snap->groups, *pp = snap->paths;

	if (parent >= 0 && snap->groups[parent].path_len > 1) {
		plen = snap->groups[parent].path_len;
		poff = snap->groups[parent].path_off;
	}
	len = plen + 1 + nlen;
	if (grow(&gp, &snap->cap, snap->n + 1, sizeof(*snap->groups)) < 0)
		return -ENOMEM;
	snap->groups = gp;
	if (grow(&pp, &snap->paths_cap, snap->paths_len + len + 1, 1) < 0)
		return -ENOMEM;
	snap->paths = pp;
	off = snap->paths_len;
	memcpy(snap->paths + off, snap->paths + poff, plen);
	snap->paths[off + plen] = '/';
	memcpy(snap->paths + off + plen + 1, name, nlen);
	snap->paths[off + len] = '\0';
	snap->paths_len += len + 1;
	g = &snap->groups[snap->n++];
	g->path_off = off;
	g->path_len = len;
	g->depth = depth;
	g->parent = parent;
	*ret_g = g;
	return 0;
}

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int gh_grow(struct cgfs *cg)
{
	size_t cap = cg->gh_cap ? cg->gh_cap * 2 : 1024;
	struct gh **t = xcalloc(cap, sizeof(*t));

	for (size_t i = 0; i < cg->gh_cap; i++) {
		struct gh *h = cg->gh[i], *next;

		for (; h; h = next) {
			size_t b = (size_t)hash_path(h->path, h->len) & (cap - 1);

			next = h->next;
			h->next = t[b];
			t[b] = h;
		}
	}
	free(cg->gh);
	cg->gh = t;
	cg->gh_cap = cap;
	return 0;
}

/* The kept descriptors of a group by path; NULL when none are kept
 * (a series, no budget, no memory). */
static struct gh *gh_get(struct cgfs *cg, const char *path, size_t len)
{
	struct gh *h;
	size_t b;

	if (cg->src->fresh_tree || cg->fd_budget <= 0)
		return NULL;
	if (cg->gh_n >= cg->gh_cap && gh_grow(cg) < 0)
		return NULL;
	b = (size_t)hash_path(path, len) & (cg->gh_cap - 1);
	for (h = cg->gh[b]; h; h = h->next)
		if (h->len == len && memcmp(h->path, path, len) == 0)
			goto found;
	h = xcalloc(1, sizeof(*h));
	h->path = xstrndup(path, len);
	h->len = len;
	h->dirfd = -1;
	h->nsub = -1;
	h->next = cg->gh[b];
	cg->gh[b] = h;
	cg->gh_n++;
found:
	h->gen = cg->gen;
	return h;
}

/* Closes the descriptors of groups this refresh did not walk. */
static void gh_sweep(struct cgfs *cg, int all)
{
	for (size_t i = 0; i < cg->gh_cap; i++) {
		struct gh **pp = &cg->gh[i];

		while (*pp) {
			struct gh *h = *pp;

			if (!all && h->gen == cg->gen) {
				pp = &h->next;
				continue;
			}
			*pp = h->next;
			gh_close(cg, h);
			free(h->path);
			free(h);
			cg->gh_n--;
		}
	}
}

/* Keeps fd as the group's directory, with what it is (see walk_sub). */
static int keep_dir(struct cgfs *cg, struct gh *h, int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	h->dirfd = fd;
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	cg->fd_dirs++;
	return 0;
}

/*
 * The inode of a group's directory, which tells a group removed and made
 * again under its name (kernfs never reuses one).  0 in a series, whose
 * every sample is a new copy of the tree.
 */
static uint64_t dir_ino(const struct cgfs *cg, int fd, const struct gh *h,
			int kept)
{
	struct stat st;

	if (cg->src->fresh_tree)
		return 0;
	if (kept && h)
		return (uint64_t)h->ino;
	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
}

/* A directory descriptor, kept for the group when the budget allows. */
static int group_dirfd(struct cgfs *cg, int parentfd, const char *name,
		       struct gh *h, int *ret_kept)
{
	int fd;

	*ret_kept = 0;
	if (h && h->dirfd >= 0) {
		*ret_kept = 1;
		return h->dirfd;
	}
	fd = openat(parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (h && cg->fd_dirs < cg->fd_budget &&
	    keep_dir(cg, h, fd) == 0)
		*ret_kept = 1;
	return fd;
}

/*
 * kernfs refuses to create a group whose name is taken by a control file,
 * so a directory named like one (seen only in damaged or hand-made trees)
 * is not a group.
 */
static int is_control_name(const struct cgfs *cg, const char *name)
{
	for (int f = 0; f < CF_NR; f++)
		if (cg->file[f] && strcmp(cg->file[f], name) == 0)
			return 1;
	return 0;
}

/*
 * Lists the subgroup names of a directory into a new NUL-separated buffer;
 * *ret_ndirs counts every subdirectory seen, as kernfs' link count does.
 */
static int list_sub(struct cgfs *cg, int dirfd, char **ret_names,
		    size_t *ret_len, long *ret_ndirs)
{
	char *names = NULL;
	size_t nlen = 0, ncap = 0;
	long ndirs = 0;
	int eof = 0;

	cg->listings++;
	/* A kept directory descriptor is read again from its start. */
	if (lseek(dirfd, 0, SEEK_SET) < 0)
		return -errno;
	while (!eof) {
		ssize_t n = getdents64(dirfd, cg->dents, cg->dentscap);

		if (n < 0) {
			int e = errno;

			free(names);
			return -e;
		}
		if (n == 0)
			break;
		/* getdents64 fills what it is given; room left for a
		 * longest entry means the directory ended. */
		if ((size_t)n + 300 < cg->dentscap)
			eof = 1;
		for (ssize_t pos = 0; pos < n;) {
			struct linux_dirent64 *d = (void *)(cg->dents + pos);
			size_t l;

			pos += d->d_reclen;
			/* Most entries are control files: the type rules them
			 * out before any name is looked at. */
			if (d->d_type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(dirfd, d->d_name, &st,
					    AT_SYMLINK_NOFOLLOW) < 0 ||
				    !S_ISDIR(st.st_mode))
					continue;
			} else if (d->d_type != DT_DIR) {
				continue;
			}
			l = strlen(d->d_name);
			if (d->d_name[0] == '.' && (l == 1 ||
			    (l == 2 && d->d_name[1] == '.')))
				continue;
			ndirs++;
			if (is_control_name(cg, d->d_name))
				continue;
			if (grow((void **)&names, &ncap, nlen + l + 1, 1) < 0) {
				free(names);
				return -ENOMEM;
			}
			memcpy(names + nlen, d->d_name, l + 1);
			nlen += l + 1;
		}
	}
	*ret_names = names;
	*ret_len = nlen;
	*ret_ndirs = ndirs;
	return 0;
}

/* Drops the group just appended, and its path, from the snapshot. */
static void drop_last(struct snapshot *snap, int child)
{
	snap->n--;
	snap->paths_len = snap->groups[child].path_off;
}

/* A subgroup walk_sub() added: its directory, to be walked below. */
struct wchild {
	int idx;		/* in the snapshot */
	int fd;			/* -1: not to be entered (permissions) */
	int kept;		/* fd is h's kept descriptor */
	struct gh *h;
	int have_st;		/* st is the directory's fresh stat */
	struct stat st;
};

/*
 * Adds subgroup name of group idx (directory dirfd) and reads it.  Returns
 * 1 when it turned out to be gone (left out), 0 when it is in the snapshot
 * (ret: its directory, for walk() to walk below it), -ENOMEM.
 */
static int walk_sub(struct cgfs *cg, int dirfd, int idx, const char *name,
		    unsigned files, struct snapshot *snap, struct wchild *ret)
{
	struct snap_group *g;
	struct gh *h;
	struct stat st;
	int fd, child, kept, r, have_st = 0;

	r = add_group(snap, idx, name, strlen(name),
		      snap->groups[idx].depth + 1, &g);
	if (r < 0)
		return r;
	child = (int)(g - snap->groups);
	h = gh_get(cg, snap_path(snap, g), g->path_len);
	/* v1 can rename a group (v2 cannot): a kept directory's name must
	 * still lead to it, or the listing kept for its parent is out of
	 * date.  The one lookup also catches a group removed and made again
	 * under its name, and gives walk() the link count it needs. */
	if (h && h->dirfd >= 0 && cg->kernfs && cg->version == 1) {
		if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_ino == h->ino && st.st_dev == h->dev)
			have_st = 1;
		else
			gh_close(cg, h);
	}
	fd = group_dirfd(cg, dirfd, name, h, &kept);
	if (fd < 0 && fd != -EACCES && fd != -EPERM) {
		/* Removed while we walked (ENOENT, ENODEV, ENOTDIR, or
		 * whatever a group half torn down answers): not shown. */
		drop_last(snap, child);
		return 1;
	}
	ret->idx = child;
	ret->fd = -1;
	if (fd < 0) {
		/* Cannot enter it (permissions): shown, nothing available. */
		memset(&g->s, 0, sizeof(g->s));
		g->ino = 0;
		return 0;
	}
	reading(cg, snap_path(snap, g));
	g->ino = dir_ino(cg, fd, h, kept);
	if (read_group(cg, fd, 0, files, &g->s) == -ENODEV) {
		/* Removed since its directory was opened, and maybe made
		 * again under the same name: open it anew, or leave it out. */
		if (!kept)
			close(fd);
		if (h)
			gh_close(cg, h);
		have_st = 0;	/* that stat was of the directory just gone */
		fd = group_dirfd(cg, dirfd, name, h, &kept);
		if (fd < 0) {
			drop_last(snap, child);
			return 1;
		}
		reading(cg, snap_path(snap, &snap->groups[child]));
		snap->groups[child].ino = dir_ino(cg, fd, h, kept);
		if (read_group(cg, fd, 0, files,
			       &snap->groups[child].s) == -ENODEV) {
			/* Still going away: leave it out. */
			if (!kept)
				close(fd);
			if (h)
				gh_close(cg, h);
			drop_last(snap, child);
			return 1;
		}
	}
	/* Nothing could be read and the name is gone from its parent:
	 * removed in between, whatever the files answered. */
	if (files && !snap->groups[child].s.valid &&
	    faccessat(dirfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT) {
		if (!kept)
			close(fd);
		if (h)
			gh_close(cg, h);
		drop_last(snap, child);
		return 1;
	}
	ret->fd = fd;
	ret->kept = kept;
	ret->h = h;
	ret->have_st = have_st;
	if (have_st)
		ret->st = st;
	return 0;
}

/* Whether subgroup name of the group at path ppath was walked already in
 * this refresh.  Paths have no length limit: a nesting of long names
 * goes past PATH_MAX. */
static int walked(struct cgfs *cg, const char *ppath, size_t plen,
		  const char *name)
{
	size_t nlen = strlen(name), len;
	struct gh *h;
	char *path;
	int r = 0;

	if (!cg->gh_cap)
		return 0;
	if (plen <= 1)
		plen = 0;	/* the root's children: "/name" */
	len = plen + 1 + nlen;
	path = xmalloc(len + 1);
	memcpy(path, ppath, plen);
	path[plen] = '/';
	memcpy(path + plen + 1, name, nlen + 1);
	h = cg->gh[(size_t)hash_path(path, len) & (cg->gh_cap - 1)];
	for (; h; h = h->next)
		if (h->len == len && memcmp(h->path, path, len) == 0) {
			r = h->gen == cg->gen;
			break;
		}
	free(path);
	return r;
}

/*
 * A group whose subgroups walk() is going through: one frame of its own
 * stack.  The walk does not recurse: whoever may make groups (a delegated
 * subtree, a container) can nest them deeper than any process stack.
 */
struct wframe {
	int dirfd;		/* -1: shed (see walk_shed) */
	int own_fd;		/* opened for the walk: closed when done */
	dev_t dev;		/* what a shed dirfd was */
	ino_t ino;
	struct gh *h;		/* kept descriptors, or NULL */
	int idx;		/* the group in the snapshot */
	int reldepth;		/* levels below the start group */
	char *names;		/* subgroup names, NUL-separated */
	size_t nlen, pos;	/* their length; the next one */
	int own_names;		/* names is ours to free (else h->sub) */
	int cached;		/* names is the last refresh's listing */
	int relisted;		/* names is the listing made after a gone name */
	int gone;		/* names of a cached listing found gone */
};

static void walk_end(struct wframe *f)
{
	if (f->own_names)
		free(f->names);
	if (f->own_fd && f->dirfd >= 0)
		close(f->dirfd);
}

/*
 * Directory descriptors of groups being walked that are not kept (beyond
 * the budget, or a recording) stay open while the walk is below them: as
 * many as the chain is deep.  Past WALK_FDS of them they are closed, all
 * at once, and each is opened again through ".." of its child when the
 * walk comes back up to it (walk_unshed), so a chain deeper than
 * RLIMIT_NOFILE is walked whole, and the reserve of descriptors is left
 * for the files read.
 */
#define WALK_FDS 32

static void walk_shed(struct wframe *stack, size_t sp, size_t *nown)
{
	for (size_t i = 0; i < sp; i++) {
		struct wframe *f = &stack[i];
		struct stat st;

		if (!f->own_fd || f->dirfd < 0 || fstat(f->dirfd, &st) < 0)
			continue;
		close(f->dirfd);
		f->dirfd = -1;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		(*nown)--;
	}
}

/* Whether fd is the directory a shed frame had; closes it if not. */
static int same_dir(const struct wframe *f, int fd)
{
	struct stat st;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino)
		return 1;
	close(fd);
	return 0;
}

/*
 * Opens shed frame f again: as ".." of its child's directory childfd (v1
 * renames a group only within its parent, v2 not at all), else (the child
 * went away) by its path below the hierarchy root rootfd.  If neither is
 * the directory f had, f went away itself: its dirfd stays -1.
 */
static void walk_unshed(struct wframe *f, int childfd, int rootfd,
			const struct snapshot *snap, size_t *nown)
{
	const char *path = snap_path(snap, &snap->groups[f->idx]);
	int fd = childfd < 0 ? -1 :
		openat(childfd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (!same_dir(f, fd)) {
		fd = open_rel(rootfd, path + 1);
		if (!same_dir(f, fd))
			return;
	}
	f->dirfd = fd;
	(*nown)++;
}

/*
 * Finds the names to walk below frame f's group (st: its directory's fresh
 * stat, or NULL).  Returns 1 when there are none to walk, 0, or -errno.
 *
 * On kernfs a directory's link count is 2 + its subdirectories, current at
 * every fstat.  A group without subgroups (most of a big tree) needs no
 * listing of its thirty-odd control files; and a group whose count equals
 * its last listing's needs none either, as long as every name of that
 * listing is still there: the walk finds out, by reading each.  If one is
 * gone, another may have come under the same count, so the group is
 * listed again and the newcomers walked (see walk_next).
 */
static int walk_begin(struct cgfs *cg, struct wframe *f, const struct stat *st,
		      unsigned files, int maxdepth)
{
	struct gh *h = f->h;
	struct stat own;
	long nsub = -1, ndirs;
	int r;

	if (maxdepth >= 0 && f->reldepth >= maxdepth)
		return 1;
	if (cg->kernfs) {
		if (!st && fstat(f->dirfd, &own) == 0)
			st = &own;
		if (st) {
			if (st->st_nlink == 2)
				return 1;
			nsub = (long)st->st_nlink - 2;
		}
	}
	/* Without files to read, a gone name would go unnoticed. */
	if (h && h->sub && files && nsub >= 0 && h->nsub == nsub) {
		f->names = h->sub;
		f->nlen = h->sublen;
		f->cached = 1;
		return 0;
	}
	r = list_sub(cg, f->dirfd, &f->names, &f->nlen, &ndirs);
	if (r < 0)
		return r;
	if (h && cg->kernfs) {
		free(h->sub);
		h->sub = f->names;
		h->sublen = f->nlen;
		h->nsub = ndirs;
	} else {
		f->own_names = 1;
	}
	return 0;
}

/* The next subgroup name of frame f to walk, or NULL when its group is
 * done (*ret_r: 0, or the -errno of a listing that failed). */
static const char *walk_next(struct cgfs *cg, struct wframe *f,
			     const struct snapshot *snap, int *ret_r)
{
	*ret_r = 0;
	for (;;) {
		while (f->pos < f->nlen) {
			const struct snap_group *pg = &snap->groups[f->idx];
			const char *name = f->names + f->pos;

			f->pos += strlen(name) + 1;
			if (f->relisted && walked(cg, snap_path(snap, pg),
						  pg->path_len, name))
				continue;
			return name;
		}
		if (!f->cached || !f->gone || f->relisted)
			return NULL;
		/* A name of the kept listing was gone: list anew, and walk
		 * what this refresh has not walked yet. */
		*ret_r = list_sub(cg, f->dirfd, &f->names, &f->nlen,
				  &f->h->nsub);
		if (*ret_r < 0)
			return NULL;
		free(f->h->sub);
		f->h->sub = f->names;
		f->h->sublen = f->nlen;
		f->pos = 0;
		f->relisted = 1;
	}
}

/* Pushes a frame for group idx (directory fd) onto the walk's stack; a
 * group with nothing to walk below it is done at once.  1: pushed, 0: done
 * at once, or -ENOMEM. */
static int walk_push(struct cgfs *cg, struct wframe **stack, size_t *sp,
		     size_t *cap, int fd, int own_fd, struct gh *h,
		     const struct stat *st, int idx, int reldepth,
		     unsigned files, int maxdepth)
{
	void *p = *stack;
	struct wframe *f;
	int r;

	if (grow(&p, cap, *sp + 1, sizeof(**stack)) < 0) {
		if (own_fd)
			close(fd);
		return -ENOMEM;
	}
	*stack = p;
	f = &(*stack)[*sp];
	memset(f, 0, sizeof(*f));
	f->dirfd = fd;
	f->own_fd = own_fd;
	f->h = h;
	f->idx = idx;
	f->reldepth = reldepth;
	r = walk_begin(cg, f, st, files, maxdepth);
	if (r != 0) {
		/* A leaf, or a directory that cannot be listed (gone in
		 * between): its group stays as read. */
		walk_end(f);
		return r == -ENOMEM ? r : 0;
	}
	(*sp)++;
	return 1;
}

/*
 * Walks the groups below the start group, index 0, whose directory is dirfd
 * (h: its kept descriptors, when the directory descriptor is kept, else
 * NULL; st: the directory's fresh stat, or NULL; rootfd: the hierarchy
 * root's), depth first in listing order, with a stack of its own.
 * Returns 0 or -ENOMEM.
 */
static int walk(struct cgfs *cg, int rootfd, int dirfd, struct gh *h,
		const struct stat *st, unsigned files, int maxdepth,
		struct snapshot *snap)
{
	struct wframe *stack = NULL;
	size_t sp = 0, cap = 0, nown = 0;
	int r;

	r = walk_push(cg, &stack, &sp, &cap, dirfd, 0, h, st, 0, 0, files,
		      maxdepth);
	if (r > 0)
		r = 0;
	while (r == 0 && sp) {
		struct wframe *f = &stack[sp - 1];
		const char *name = f->dirfd < 0 ? NULL :
			walk_next(cg, f, snap, &r);
		struct wchild c;

		if (!name) {
			/* Done with it (or gone while shed); a listing that
			 * failed leaves the group's subgroups out, not the
			 * rest. */
			if (sp > 1 && f[-1].dirfd < 0)
				walk_unshed(&f[-1], f->dirfd, rootfd, snap,
					    &nown);
			if (f->own_fd && f->dirfd >= 0)
				nown--;
			walk_end(f);
			sp--;
			if (r != -ENOMEM)
				r = 0;
			continue;
		}
		r = walk_sub(cg, f->dirfd, f->idx, name, files, snap, &c);
		if (r == 1) {
			f->gone++;
			r = 0;
		} else if (r == 0 && c.fd >= 0) {
			if (!c.kept)
				nown++;
			r = walk_push(cg, &stack, &sp, &cap, c.fd, !c.kept,
				      c.kept ? c.h : NULL,
				      c.have_st ? &c.st : NULL, c.idx,
				      f->reldepth + 1, files, maxdepth);
			/* Done at once (a leaf): its descriptor is closed. */
			if (!c.kept && r <= 0)
				nown--;
			if (r > 0) {
				r = 0;
				/* All but the new group's own. */
				if (nown > WALK_FDS)
					walk_shed(stack, sp - 1, &nown);
			}
		}
	}
	while (sp)
		walk_end(&stack[--sp]);
	free(stack);
	return r;
}

/* Opens "a/b/c" below dirfd one component at a time, following no link. */
int open_rel(int dirfd, const char *rel)
{
	char comp[NAME_MAX + 1];
	int fd = dup(dirfd);

	if (fd < 0)
		return -errno;
	while (*rel) {
		size_t l = strcspn(rel, "/");
		int nfd;

		if (l > NAME_MAX) {
			close(fd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, rel, l);
		comp[l] = '\0';
		rel += l;
		rel += strspn(rel, "/");
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return -errno;
		fd = nfd;
	}
	return fd;
}

/* The smallest memory limit strictly above the start group. */
static uint64_t limit_above(struct cgfs *cg, int rootfd)
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
		fd = open_rel(rootfd, rel);
		if (fd >= 0) {
			reading(cg, shown);
			if (read_value(cg, fd, CF_LIMIT, &v) == 0 && v < lim)
				lim = v;
			reading(cg, NULL);
			close(fd);
		}
		*p = '/';
	}
	free(shown);
	return lim;
}

/*
 * No group holds more swap than the host has, and none at all where the
 * host has no swap.  v1's swap is memsw - usage, two files read one after
 * the other: a group that is charged or uncharged in between shows the
 * difference as swap (measured: 100K on the v1 root of a swapless host).
 */
static void clamp_swap(struct snapshot *snap)
{
	uint64_t total = snap->sys.v[S_SWAP_TOTAL];

	if (!(snap->sys.valid & FBIT(S_SWAP_TOTAL)))
		return;
	for (size_t i = 0; i < snap->n; i++) {
		struct sample *s = &snap->groups[i].s;

		if (sample_has(s, F_SWAP) && s->v[F_SWAP] > total)
			s->v[F_SWAP] = total;
	}
}

/* The live files: the one tree, read now. */
static int live_begin(struct cgfs *cg, size_t index, char *dir,
		      size_t dirlen, struct snapshot *snap)
{
	(void)index;
	snprintf(dir, dirlen, "%s", cg->root);
	snap->mono = clock_mono();
	snap->wall = (int64_t)time(NULL);
	return 0;
}

static void live_tree(const struct cgfs *cg, char *dir, size_t dirlen)
{
	snprintf(dir, dirlen, "%s", cg->root);
}

static size_t live_sys_slot(const struct cgfs *cg, size_t index)
{
	(void)cg;
	(void)index;
	return 0;
}

static size_t live_position(const struct cgfs *cg, size_t *ret_count)
{
	(void)cg;
	*ret_count = 0;
	return 0;
}

static void live_seek(struct cgfs *cg, size_t index)
{
	(void)cg;
	(void)index;
}

static void live_reread(struct cgfs *cg)
{
	(void)cg;
}

static int live_open_sys(struct cgfs *cg, const char *proc)
{
	return sysinfo_open(proc, &cg->sys);
}

const struct source_ops cgfs_live_ops = {
	.fresh_tree = 0,
	.begin = live_begin,
	.tree = live_tree,
	.sys_slot = live_sys_slot,
	.position = live_position,
	.seek = live_seek,
	.reread = live_reread,
	.writable = 1,
	.open_sys = live_open_sys,
};

/* Tells the recorder which groups the sample kept: one read but then left
 * out (gone meanwhile) must not come back on replay. */
static void record_kept(struct cgfs *cg, const struct snapshot *snap)
{
	char **paths = xreallocarray(NULL, snap->n ? snap->n : 1,
				     sizeof(*paths));

	for (size_t i = 0; i < snap->n; i++)
		paths[i] = snap->paths + snap->groups[i].path_off;
	cg->sink->ops->groups(cg->sink, paths, snap->n);
	free(paths);
}

int cgfs_refresh(struct cgfs *cg, uint64_t fields, int maxdepth,
		       struct snapshot *snap, char *err, size_t errlen)
{
	unsigned files = files_for(cg, fields);
	char dir[PATH_MAX];
	struct snap_group *g;
	struct gh *h;
	struct stat st;
	int rootfd, fd, depth = 0, r, kept = 0, have_st = 0;
	size_t sample = cg->next;

	r = cg->src->begin(cg, sample, dir, sizeof(dir), snap);
	if (r < 0)
		return r;
	cg->next++;
	cg->numa_len = 0;
	snap->n = 0;
	snap->paths_len = 0;
	snap->above_limit = VAL_MAX;

	cg->gen++;
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-r));
		return r;
	}
	if (cg->sink) {
		r = cg->sink->ops->begin(cg->sink);
		if (r == 0) {
			/* What tells the version on replay, whatever the
			 * start group. */
			ssize_t n = cgfs_read_small(cg, rootfd, cg->version == 2 ?
					       "cgroup.controllers" :
					       "memory.limit_in_bytes");

			if (n >= 0) {
				reading(cg, "/");
				cg->sink->ops->file(cg->sink,
						    cg->version == 2 ?
						    "cgroup.controllers" :
						    "memory.limit_in_bytes",
						    cg->buf, (size_t)n);
				reading(cg, NULL);
			}
		}
	}
	for (const char *p = cg->start; *p; p++)
		if (*p == '/')
			depth++;
	if (*cg->start)
		depth++;
	snap->cut_depth1 = maxdepth >= 0 ? depth + maxdepth + 1 : 0;
	r = add_group(snap, -1, cg->start, strlen(cg->start), depth, &g);
	if (r < 0) {
		close(rootfd);
		snprintf(err, errlen, "%s", strerror(-r));
		return r;
	}
	if (cg->bpf) {
		/* The BPF pass gives the tree (cgfs_bpf.c). */
		r = cgfs_bpf_walk(cg, rootfd, files, maxdepth, snap, err,
				  errlen);
		if (r == 0 && *cg->start && (fields & FBIT(F_LIMIT)))
			snap->above_limit = limit_above(cg, rootfd);
		close(rootfd);
		if (r < 0)
			return r;
		goto walked;
	}
	h = gh_get(cg, snap_path(snap, g), g->path_len);
	reading(cg, snap_path(snap, g));
	/* The start group's kept directory must still be the one its path
	 * leads to (see walk_sub). */
	if (h && h->dirfd >= 0 && cg->kernfs) {
		if (fstatat(rootfd, *cg->start ? cg->start : ".", &st,
			    AT_SYMLINK_NOFOLLOW) == 0 && st.st_ino == h->ino &&
		    st.st_dev == h->dev)
			have_st = 1;
		else
			gh_close(cg, h);
	}
	if (h && h->dirfd >= 0) {
		fd = h->dirfd;
		kept = 1;
	} else {
		fd = open_rel(rootfd, cg->start);
		if (fd >= 0 && h && cg->fd_dirs < cg->fd_budget &&
		    keep_dir(cg, h, fd) == 0)
			kept = 1;
	}
	if (fd < 0) {
		r = fd;
		snprintf(err, errlen, "%s/%s: %s", dir, cg->start,
			 strerror(-r));
		close(rootfd);
		return r;
	}
	g->ino = dir_ino(cg, fd, h, kept);
	if (read_group(cg, fd, *cg->start == '\0', files, &g->s) ==
	    -ENODEV && h) {
		/* The start group itself was made again: reopen it. */
		gh_close(cg, h);
		kept = 0;
		have_st = 0;
		fd = open_rel(rootfd, cg->start);
		if (fd < 0) {
			r = fd;
			snprintf(err, errlen, "%s/%s: %s", dir, cg->start,
				 strerror(-r));
			close(rootfd);
			return r;
		}
		g->ino = dir_ino(cg, fd, NULL, 0);
		read_group(cg, fd, *cg->start == '\0', files, &g->s);
	}
	if (*cg->start && (fields & FBIT(F_LIMIT)))
		snap->above_limit = limit_above(cg, rootfd);
	r = walk(cg, rootfd, fd, kept ? h : NULL, have_st ? &st : NULL, files,
		 maxdepth, snap);
	if (!kept)
		close(fd);
	close(rootfd);
	gh_sweep(cg, 0);
	reading(cg, NULL);
	if (r < 0) {
		snprintf(err, errlen, "%s", strerror(-r));
		return r;
	}
	if (cg->sink)
		record_kept(cg, snap);
walked:
	snap->numa_text = cg->numa;
	/* Only scan_prio asks for the own LRU lists. */
	sysinfo_want_lru_gen(cg->sys, (fields & FBIT(F_OWN_INACTIVE_FILE)) != 0);
	sysinfo_read(cg->sys, cg->src->sys_slot(cg, sample), &snap->sys);
	clamp_swap(snap);
	if (cg->sink) {
		r = cg->sink->ops->end(cg->sink, snap->mono, snap->wall, err,
				       errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

int cgfs_record(struct cgfs *cg, const char *dir, long max, char *err,
		size_t errlen)
{
	struct recorder *rec;
	int r;

	if (cg->series) {
		snprintf(err, errlen, "--record: a recording cannot be "
			 "recorded again; record the live hierarchy");
		return -EINVAL;
	}
	r = record_open(dir, max, cgfs_mode(cg), cgfs_root(cg), cg->start,
			&rec, err, errlen);
	if (r < 0)
		return r;
	/* A recording keeps the files' bytes: they are read. */
	cgfs_bpf_close(cg, "--record reads the files");
	cg->sink = record_sink(rec);
	/* The system figures come from the files themselves while recording
	 * (not through libproc2), so that the very bytes are kept. */
	if (!cg->proc_given) {
		sysinfo_close(cg->sys);
		cg->sys = NULL;
		if (sysinfo_open("/proc", &cg->sys) < 0)
			return -ENOMEM;
	}
	sysinfo_record(cg->sys, rec);
	return 0;
}

void snapshot_free(struct snapshot *snap)
{
	if (!snap)
		return;
	free(snap->groups);
	free(snap->paths);
	memset(snap, 0, sizeof(*snap));
}

static int file_exists_at(int dirfd, const char *name)
{
	struct stat st;

	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
}

/* "memory" among the words of a v2 group's cgroup.controllers. */
static int has_memory_controller(struct cgfs *cg, int dirfd)
{
	ssize_t n = cgfs_read_small(cg, dirfd, "cgroup.controllers");
	const char *p, *end;

	if (n < 0)
		return 0;
	p = cg->buf;
	end = cg->buf + n;
	while (p < end) {
		const char *w = p;

		while (p < end && *p != ' ' && *p != '\n')
			p++;
		if (p - w == 6 && memcmp(w, "memory", 6) == 0)
			return 1;
		p++;
	}
	return 0;
}

/* Decides v1 or v2 from the files present in the root directory. */
static int detect_version(struct cgfs *cg, const char *dir, char *err,
			  size_t errlen)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;

	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", dir, strerror(-r));
		return r;
	}
	if (file_exists_at(fd, "cgroup.controllers")) {
		if (!has_memory_controller(cg, fd)) {
			snprintf(err, errlen, "%s: the memory controller is "
				 "not enabled in this cgroup v2 hierarchy", dir);
			r = -ENOENT;
		}
		cg->version = 2;
	} else if (file_exists_at(fd, "memory.usage_in_bytes") ||
		   file_exists_at(fd, "memory.limit_in_bytes")) {
		cg->version = 1;
	} else {
		snprintf(err, errlen, "%s: not a memory cgroup hierarchy "
			 "(no cgroup.controllers or memory.usage_in_bytes)",
			 dir);
		r = -ENOENT;
	}
	close(fd);
	return r;
}

/*
 * The memory hierarchy of the live host.  libcgroup reads /proc/cgroups
 * and /proc/mounts; where it cannot initialise (no /proc/cgroups, an odd
 * container), /proc/self/mountinfo is read instead.
 */
static char *find_live_root(void)
{
	char *mnt = NULL, line[4096];
	FILE *f;

	if (cgroup_init() == 0 &&
	    cgroup_get_subsys_mount_point("memory", &mnt) == 0 && mnt)
		return mnt;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return NULL;
	while (!mnt && fgets(line, sizeof(line), f)) {
		char point[PATH_MAX], fstype[64], opts[1024];
		const char *sep = strstr(line, " - ");

		/* id parent maj:min root point opts [tags] - fstype src sopts */
		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1 ||
		    sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2)
			continue;
		if (strcmp(fstype, "cgroup2") == 0) {
			char ctl[PATH_MAX + 32];
			FILE *c;

			snprintf(ctl, sizeof(ctl), "%s/cgroup.controllers",
				 point);
			c = fopen(ctl, "re");
			if (c) {
				char words[512];

				if (fgets(words, sizeof(words), c) &&
				    strstr(words, "memory"))
					mnt = xstrdup(point);
				fclose(c);
			}
		} else if (strcmp(fstype, "cgroup") == 0) {
			for (char *o = strtok(opts, ","); o; o = strtok(NULL, ","))
				if (strcmp(o, "memory") == 0)
					mnt = xstrdup(point);
		}
	}
	fclose(f);
	return mnt;
}

static const char *live_mode(const char *mnt)
{
	struct statfs sf;

	if (statfs(mnt, &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC)
		return "v2";
	/* A v1 memory mount beside a cgroup2 mount is a hybrid host. */
	if (statfs("/sys/fs/cgroup/unified", &sf) == 0 &&
	    sf.f_type == CGROUP2_SUPER_MAGIC)
		return "hybrid";
	return "v1";
}

/* "/a//b/" -> "a/b"; refuses ".." and "." components. */
int cgfs_normalise(const char *in, char **ret)
{
	char *out = xmalloc(strlen(in) + 1), *o = out;

	while (*in) {
		size_t l;

		in += strspn(in, "/");
		l = strcspn(in, "/");
		if (l == 0)
			break;
		if ((l == 1 && in[0] == '.') ||
		    (l == 2 && in[0] == '.' && in[1] == '.')) {
			free(out);
			return -EINVAL;
		}
		if (o != out)
			*o++ = '/';
		memcpy(o, in, l);
		o += l;
		in += l;
	}
	*o = '\0';
	*ret = out;
	return 0;
}

int cgfs_open(const struct cgfs_opts *opts, struct cgfs **ret_cg,
	      char *err, size_t errlen)
{
	struct cgfs *cg = xcalloc(1, sizeof(*cg));
	char path[PATH_MAX], *start;
	struct stat st;
	int r;

	cg->src = &cgfs_live_ops;
	cg->bufcap = 65536;
	cg->buf = xmalloc(cg->bufcap);
	cg->dentscap = 32768;
	cg->dents = xmalloc(cg->dentscap);
	r = cgfs_normalise(opts->start ? opts->start : "", &cg->start);
	if (r < 0) {
		snprintf(err, errlen, "%s: not a cgroup path (no '.' or '..' "
			 "components)", opts->start);
		cgfs_close(cg);
		return r;
	}
	if (opts->root) {
		cg->root = xstrdup(opts->root);
		snprintf(path, sizeof(path), "%s/timestamps", opts->root);
		if (stat(path, &st) == 0) {
			cg->series = 1;
			cg->src = &cgfs_replay_ops;
			r = cgfs_load_series(cg, path, err, errlen);
			if (r < 0) {
				cgfs_close(cg);
				return r;
			}
			cgfs_read_info(cg, &start);
			if (start && !opts->start) {
				free(cg->start);
				cg->start = start;
			} else {
				free(start);
			}
			snprintf(path, sizeof(path), "%s/%ld", opts->root,
				 cg->slot[0]);
		} else {
			snprintf(path, sizeof(path), "%s", opts->root);
		}
	} else {
		cg->root = find_live_root();
		if (!cg->root) {
			snprintf(err, errlen, "no memory cgroup hierarchy found "
				 "(neither a cgroup v1 memory mount nor cgroup2 "
				 "with the memory controller)");
			cgfs_close(cg);
			return -ENOENT;
		}
		snprintf(path, sizeof(path), "%s", cg->root);
	}
	r = detect_version(cg, path, err, errlen);
	if (r < 0) {
		cgfs_close(cg);
		return r;
	}
	/* Hybrid is a property of the host: only its own hierarchy (no
	 * --root) can be one. */
	cg->mode = !opts->root ? live_mode(cg->root) :
		(cg->version == 2 ? "v2" : "v1");
	cg->rows = cg->version == 2 ? v2_rows : v1_rows;
	cg->nrows = cg->version == 2 ? NROWS(v2_rows) : NROWS(v1_rows);
	for (size_t i = 0; i < cg->nrows; i++) {
		cg->file[cg->rows[i].cf] = cg->rows[i].name;
		if (cg->rows[i].may_max)
			cg->may_max |= CFBIT(cg->rows[i].cf);
	}
	cg->need = cg->version == 2 ? v2_need : v1_need;
	cg->stat_keys = cg->version == 2 ? v2_stat_keys : v1_stat_keys;
	if (*cg->start) {
		int rootfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		int fd = rootfd < 0 ? -errno : open_rel(rootfd, cg->start);

		if (rootfd >= 0)
			close(rootfd);
		if (fd < 0) {
			snprintf(err, errlen, "/%s: no such group under %s: %s",
				 cg->start, cg->root, strerror(-fd));
			cgfs_close(cg);
			return fd;
		}
		close(fd);
	}
	cg->kernfs = on_cgroupfs(cg);
	/* Descriptors kept across refreshes (a live tree only): all the
	 * process may have, less a reserve for everything else. */
	if (!cg->src->fresh_tree) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
			if (rl.rlim_cur < rl.rlim_max) {
				rl.rlim_cur = rl.rlim_max;
				setrlimit(RLIMIT_NOFILE, &rl);
				getrlimit(RLIMIT_NOFILE, &rl);
			}
			cg->fd_budget = rl.rlim_cur == RLIM_INFINITY ? 65536 :
				(long)rl.rlim_cur - FD_RESERVE;
		}
	}
	cg->proc_given = opts->proc != NULL;
	if (cg->src->open_sys(cg, opts->proc) < 0) {
		cgfs_close(cg);
		return -ENOMEM;
	}
	r = cgfs_bpf_open(cg, opts->collector, err, errlen);
	if (r < 0) {
		cgfs_close(cg);
		return r;
	}
	*ret_cg = cg;
	return 0;
}

void cgfs_close(struct cgfs *cg)
{
	if (!cg)
		return;
	cgfs_bpf_close(cg, NULL);
	gh_sweep(cg, 1);
	free(cg->gh);
	if (cg->sink)
		cg->sink->ops->close(cg->sink);
	free(cg->slot);
	free(cg->shown_mode);
	free(cg->shown_root);
	sysinfo_close(cg->sys);
	free(cg->root);
	free(cg->start);
	free(cg->mono);
	free(cg->wall);
	free(cg->buf);
	free(cg->dents);
	free(cg->numa);
	free(cg);
}

static const char *const v1_detail[] = {
	"memory.usage_in_bytes", "memory.max_usage_in_bytes",
	"memory.limit_in_bytes", "memory.soft_limit_in_bytes",
	"memory.memsw.usage_in_bytes", "memory.memsw.limit_in_bytes",
	"memory.kmem.usage_in_bytes", "memory.swappiness", "memory.failcnt",
	"memory.use_hierarchy", "memory.oom_control", "memory.stat",
	"memory.numa_stat", NULL
};

static const char *const v2_detail[] = {
	"memory.current", "memory.peak", "memory.max", "memory.high",
	"memory.low", "memory.min", "memory.swap.current", "memory.swap.max",
	"memory.swap.high", "memory.zswap.current", "memory.zswap.max",
	"memory.oom.group", "memory.events", "memory.events.local",
	"memory.pressure", "memory.stat", "memory.numa_stat", NULL
};

/* Opens the directory of a shown path in the current sample. */
int cgfs_open_group(struct cgfs *cg, const char *path)
{
	char dir[PATH_MAX];
	int rootfd, fd;

	cg->src->tree(cg, dir, sizeof(dir));
	rootfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rootfd < 0)
		return -errno;
	while (*path == '/')
		path++;
	/* Shown paths never hold "." or ".." components: they come from
	 * directory entries, which cgfs_refresh has walked. */
	fd = open_rel(rootfd, path);
	close(rootfd);
	return fd;
}

int cgfs_detail(struct cgfs *cg, const char *path, struct cg_detail *ret)
{
	const char *const *names = cg->version == 2 ? v2_detail : v1_detail;
	int fd = cgfs_open_group(cg, path);

	memset(ret, 0, sizeof(*ret));
	if (fd < 0)
		return fd;
	for (size_t i = 0; names[i] && ret->n < DETAIL_MAX_FILES; i++) {
		ssize_t n = cgfs_read_small(cg, fd, names[i]);

		if (n == -ENOENT)
			continue;	/* this kernel or group lacks it */
		ret->file[ret->n].name = names[i];
		if (n < 0) {
			ret->file[ret->n].err = (int)-n;
		} else {
			ret->file[ret->n].text = xstrndup(cg->buf, (size_t)n);
		}
		ret->n++;
	}
	close(fd);
	return 0;
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

void cgfs_detail_free(struct cg_detail *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		free(d->file[i].text);
	d->n = 0;
}

int cgfs_pids(struct cgfs *cg, const char *path, int **ret_pids, size_t *ret_n)
{
	int fd = cgfs_open_group(cg, path), *pids = NULL;
	size_t n = 0, cap = 0;
	ssize_t len;
	const char *p, *end;

	if (fd < 0)
		return fd;
	len = cgfs_read_small(cg, fd, cg->file[CF_PROCS]);
	close(fd);
	if (len < 0)
		return (int)len;
	p = cg->buf;
	end = cg->buf + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		uint64_t v;

		if (!nl)
			break;
		if (parse_u64(p, (size_t)(nl - p), &v) == 0 && v <= INT_MAX) {
			if (n == cap) {
				void *np = pids;

				if (grow(&np, &cap, n + 1, sizeof(int)) < 0) {
					free(pids);
					return -ENOMEM;
				}
				pids = np;
			}
			pids[n++] = (int)v;
		}
		p = nl + 1;
	}
	*ret_pids = pids;
	*ret_n = n;
	return 0;
}

