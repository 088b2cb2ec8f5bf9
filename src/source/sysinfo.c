/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysinfo.c - system memory, vmstat reclaim counters and PSI. */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <libproc2/meminfo.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "sink.h"
#include "sysinfo.h"
#include "xalloc.h"

struct sysinfo_src {
	char *dir;		/* NULL: live, through libproc2 */
	int series;
	struct meminfo_info *mi;
	struct sink *sink;	/* --record: what is read goes there too */
	int want_lru_gen;
	int no_zoneinfo;
	/* kswapd's threads (live): their pids, found once in /proc and
	 * again when one is gone */
	int kswapd[64];
	int nkswapd;
	char buf[16384];
};

void sysinfo_want_lru_gen(struct sysinfo_src *s, int want)
{
	if (s)
		s->want_lru_gen = want;
}

void sysinfo_want_zoneinfo(struct sysinfo_src *s, int want)
{
	if (s)
		s->no_zoneinfo = !want;
}

void sysinfo_sink(struct sysinfo_src *s, struct sink *sink)
{
	if (s)
		s->sink = sink;
}

int sysinfo_open(const char *procdir, struct sysinfo_src **ret_src)
{
	struct sysinfo_src *s = xcalloc(1, sizeof(*s));
	struct stat st;
	char path[PATH_MAX];

	if (procdir) {
		s->dir = xstrdup(procdir);
		snprintf(path, sizeof(path), "%s/timestamps", procdir);
		s->series = stat(path, &st) == 0;
	} else {
		/* A failure leaves the figures not available, nothing worse. */
		if (procps_meminfo_new(&s->mi) < 0)
			s->mi = NULL;
	}
	*ret_src = s;
	return 0;
}

void sysinfo_close(struct sysinfo_src *s)
{
	if (!s)
		return;
	if (s->mi)
		procps_meminfo_unref(&s->mi);
	free(s->dir);
	free(s);
}

/* name: the file below the procfs ("meminfo"), as it is recorded. */
static ssize_t slurp(struct sysinfo_src *s, const char *path,
		     const char *name)
{
	ssize_t len = 0, n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);

	if (fd < 0)
		return -errno;
	while ((size_t)len < sizeof(s->buf) &&
	       (n = read(fd, s->buf + len, sizeof(s->buf) - (size_t)len)) > 0)
		len += n;
	close(fd);
	if (s->sink)
		s->sink->ops->proc(s->sink, name, s->buf, (size_t)len);
	return len;
}

struct sysctx {
	struct sysinfo *sys;
	uint64_t scan_kd, steal_kd;	/* kswapd + direct */
	uint64_t scan_k, scan_d;	/* pgscan_kswapd, pgscan_direct */
	uint64_t scan_h, scan_p;	/* pgscan_khugepaged, pgscan_proactive */
	uint64_t scan_af, steal_af;	/* anon + file */
	int has_kd, has_af, has_h, has_p;
	int bad_kd, bad_af, bad_hp;	/* a term out of range: no sum */
};

static int keyis(const char *k, size_t kl, const char *want)
{
	return strlen(want) == kl && memcmp(k, want, kl) == 0;
}

/* The reclaim events' figures as a recording keeps them: an array's
 * element k as "key.k". */
static const struct {
	enum sysfield f;
	int n;
	const char *key;
} event_figs[] = {
	{ SYS_SCAN_PRIO, SYS_NPRIO, "scan_by_priority" },
	{ SYS_SUB_SCAN_PRIO, SYS_NPRIO, "subtree_scan_by_priority" },
	{ SYS_SOFT_SCAN_PRIO, SYS_NPRIO, "soft_scan_by_priority" },
	{ SYS_FLUSHES, 1, "flushes" },
	{ SYS_OWN_FLUSHES, 1, "own_flushes" },
	{ SYS_FLUSH_CALLS, 1, "flush_calls" },
	{ SYS_OWN_FLUSH_CALLS, 1, "own_flush_calls" },
	{ SYS_FLUSH_THRESHOLD, 1, "flush_threshold" },
};
#define NEVENT_FIGS (sizeof(event_figs) / sizeof(event_figs[0]))

size_t sysinfo_event_lines(const struct sysinfo *sys, char *buf, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < NEVENT_FIGS; i++)
		for (int k = 0; k < event_figs[i].n; k++) {
			int f = (int)event_figs[i].f + k, w;

			if (!(sys->valid & SBIT(f)))
				continue;
			w = event_figs[i].n > 1 ?
				snprintf(buf + n, cap - n, "%s.%d %" PRIu64 "\n",
					 event_figs[i].key, k, sys->v[f]) :
				snprintf(buf + n, cap - n, "%s %" PRIu64 "\n",
					 event_figs[i].key, sys->v[f]);
			if (w < 0 || (size_t)w >= cap - n)
				return n;
			n += (size_t)w;
		}
	return n;
}

static void event_kv(const char *k, size_t kl, uint64_t v, void *ctx)
{
	struct sysinfo *sys = ctx;
	char key[64];

	for (size_t i = 0; i < NEVENT_FIGS; i++)
		for (int j = 0; j < event_figs[i].n; j++) {
			int f = (int)event_figs[i].f + j;

			if (event_figs[i].n > 1)
				snprintf(key, sizeof(key), "%s.%d",
					 event_figs[i].key, j);
			else
				snprintf(key, sizeof(key), "%s",
					 event_figs[i].key);
			if (keyis(k, kl, key) && parse_in_range(v)) {
				sys->v[f] = v;
				sys->valid |= SBIT(f);
			}
		}
}

/* The figures of meminfo: the file's key, libproc2's item for it. */
static const struct {
	const char *key;
	enum meminfo_item item;
	enum sysfield f;
} meminfo_figs[] = {
	{ "MemTotal", MEMINFO_MEM_TOTAL, SYS_MEM_TOTAL },
	{ "MemAvailable", MEMINFO_MEM_AVAILABLE, SYS_MEM_AVAILABLE },
	{ "MemFree", MEMINFO_MEM_FREE, SYS_MEM_FREE },
	{ "SwapTotal", MEMINFO_SWAP_TOTAL, SYS_SWAP_TOTAL },
	{ "SwapFree", MEMINFO_SWAP_FREE, SYS_SWAP_FREE },
};

#define NMEMINFO (sizeof(meminfo_figs) / sizeof(meminfo_figs[0]))

static void meminfo_kv(const char *k, size_t kl, uint64_t v, void *ctx)
{
	struct sysinfo *sys = ((struct sysctx *)ctx)->sys;

	for (size_t i = 0; i < NMEMINFO; i++)
		if (keyis(k, kl, meminfo_figs[i].key)) {
			if (parse_in_range(v)) {
				sys->v[meminfo_figs[i].f] = v;
				sys->valid |= SBIT(meminfo_figs[i].f);
			}
			return;
		}
}

static void vmstat_kv(const char *k, size_t kl, uint64_t v, void *ctx)
{
	struct sysctx *c = ctx;
	int in = parse_in_range(v);

	if (keyis(k, kl, "pgscan_kswapd") || keyis(k, kl, "pgscan_direct")) {
		if (keyis(k, kl, "pgscan_kswapd"))
			c->scan_k = v;
		else
			c->scan_d = v;
		c->scan_kd += v;
		c->has_kd = 1;
		c->bad_kd |= !in;
	} else if (keyis(k, kl, "pgsteal_kswapd") ||
		   keyis(k, kl, "pgsteal_direct")) {
		c->steal_kd += v;
		c->bad_kd |= !in;
	} else if (keyis(k, kl, "pgscan_anon") || keyis(k, kl, "pgscan_file")) {
		c->scan_af += v;
		c->has_af = 1;
		c->bad_af |= !in;
	} else if (keyis(k, kl, "pgsteal_anon") ||
		   keyis(k, kl, "pgsteal_file")) {
		c->steal_af += v;
		c->bad_af |= !in;
	} else if (keyis(k, kl, "pgscan_khugepaged")) {
		c->scan_h = v;
		c->has_h = 1;
		c->bad_hp |= !in;
	} else if (keyis(k, kl, "pgscan_proactive")) {
		c->scan_p = v;
		c->has_p = 1;
		c->bad_hp |= !in;
	}
}

/*
 * System reclaim: pgscan_anon + pgscan_file where the kernel has them
 * (5.8+), which count every reclaim's scans; the larger of the two sums
 * otherwise covers older kernels, where only kswapd/direct exist.
 *
 * Its parts, which add up to it.  shrink_inactive_list (mm/vmscan.c)
 * counts every scan in PGSCAN_ANON/PGSCAN_FILE, but in the reclaimer's
 * own /proc/vmstat counter only "if (!cgroup_reclaim(sc))", that is for
 * reclaim without a target_mem_cgroup: on 6.1 (PGSCAN_KSWAPD or
 * PGSCAN_DIRECT by current_is_kswapd()) and, measured, on 6.18, whose
 * enum vm_event_item (BTF) also has PGSCAN_KHUGEPAGED and
 * PGSCAN_PROACTIVE (tests/live/events-v1.sh: a group's own limit
 * reclaim counts in pgscan_anon + pgscan_file alone).  Memcg-targeted
 * reclaim (a
 * group's limit or high, v1 soft-limit reclaim, whose
 * mem_cgroup_shrink_node sets target_mem_cgroup, memory.reclaim of a
 * group) is thus the rest of pgscan_anon + pgscan_file.  7.3 counts the
 * four as node stats (mod_lruvec_state, no cgroup_reclaim check): they
 * hold every reclaim there and the rest is 0.  A kernel without
 * pgscan_khugepaged (6.1) counts khugepaged as direct; a counter the
 * kernel lacks is not available and 0 in the sum.  The counters are
 * read one by one as the file is printed: a rest that would be below 0
 * is 0.
 */
static void set_reclaim(struct sysctx *c)
{
	uint64_t parts;

	/* A pair with a term out of range (see parse_in_range) is left
	 * out, as if the kernel had not reported it. */
	if (c->bad_kd) {
		c->has_kd = 0;
		c->scan_kd = c->steal_kd = 0;
	}
	if (c->bad_af) {
		c->has_af = 0;
		c->scan_af = c->steal_af = 0;
	}
	if (c->bad_hp)
		c->has_h = c->has_p = 0, c->scan_h = c->scan_p = 0;
	if (c->has_kd) {
		c->sys->v[SYS_PGSCAN_KSWAPD] = c->scan_k;
		c->sys->v[SYS_PGSCAN_DIRECT] = c->scan_d;
		c->sys->valid |= SBIT(SYS_PGSCAN_KSWAPD) |
			SBIT(SYS_PGSCAN_DIRECT);
	}
	if (c->has_kd && c->has_h) {
		c->sys->v[SYS_PGSCAN_KHUGEPAGED] = c->scan_h;
		c->sys->valid |= SBIT(SYS_PGSCAN_KHUGEPAGED);
	}
	if (c->has_kd && c->has_p) {
		c->sys->v[SYS_PGSCAN_PROACTIVE] = c->scan_p;
		c->sys->valid |= SBIT(SYS_PGSCAN_PROACTIVE);
	}
	if (c->has_kd && c->has_af) {
		parts = c->scan_kd + c->scan_h + c->scan_p;
		c->sys->v[SYS_PGSCAN_MEMCG] = c->scan_af > parts ?
			c->scan_af - parts : 0;
		c->sys->valid |= SBIT(SYS_PGSCAN_MEMCG);
	}
	if (!c->has_kd && !c->has_af)
		return;
	c->sys->v[SYS_PGSCAN] = c->scan_af > c->scan_kd ? c->scan_af :
		c->scan_kd;
	c->sys->v[SYS_PGSTEAL] = c->steal_af > c->steal_kd ? c->steal_af :
		c->steal_kd;
	c->sys->valid |= SBIT(SYS_PGSCAN) | SBIT(SYS_PGSTEAL);
}

static void read_psi(struct sysinfo_src *s, const char *path,
		     struct sysinfo *sys)
{
	ssize_t n = slurp(s, path, "pressure/memory");
	struct psi p;

	if (n < 0 || parse_psi(s->buf, (size_t)n, &p) < 0)
		return;
	if (p.has_some) {
		sys->v[SYS_PSI_SOME10] = p.some_avg10;
		sys->valid |= SBIT(SYS_PSI_SOME10);
	}
	if (p.has_full) {
		sys->v[SYS_PSI_FULL10] = p.full_avg10;
		sys->valid |= SBIT(SYS_PSI_FULL10);
	}
}

/* /proc/vmstat (or a copy's) through vmstat_kv, its figures set. */
static void read_vmstat(struct sysinfo_src *s, const char *path,
			struct sysinfo *sys)
{
	struct sysctx c = { .sys = sys };
	ssize_t n = slurp(s, path, "vmstat");

	if (n < 0)
		return;
	parse_keyvals(s->buf, (size_t)n, vmstat_kv, &c);
	set_reclaim(&c);
}

static void read_live(struct sysinfo_src *s, struct sysinfo *sys)
{
	enum meminfo_item mitems[NMEMINFO];
	struct meminfo_stack *ms;

	for (size_t i = 0; i < NMEMINFO; i++)
		mitems[i] = meminfo_figs[i].item;
	/* The *_select calls re-read the file every time; the *_GET macros
	 * would serve a cached copy up to a second old. */
	if (s->mi && (ms = procps_meminfo_select(s->mi, mitems,
						 (int)NMEMINFO))) {
		for (size_t i = 0; i < NMEMINFO; i++) {
			uint64_t kb = ms->head[i].result.ul_int;
			enum sysfield f = meminfo_figs[i].f;

			/* The same rule as for every kernel number. */
			if (kb > UINT64_MAX / 1024 || !parse_in_range(kb * 1024))
				continue;
			sys->v[f] = kb * 1024;
			sys->valid |= SBIT(f);
		}
	}
	/* The file itself: libproc2 (4.0) has no pgscan_khugepaged or
	 * pgscan_proactive. */
	read_vmstat(s, "/proc/vmstat", sys);
	read_psi(s, "/proc/pressure/memory", sys);
}

/*
 * /sys/kernel/mm/lru_gen/enabled ("0x0007"): non-zero when the multi-gen
 * LRU runs.  It is sysfs, not procfs, but comes with the --proc DIR as
 * DIR/lru_gen/enabled, so that a fixture or a recording can say.  Absent:
 * a kernel built without it, which has only the classic LRU.
 */
static void read_lru_gen(struct sysinfo_src *s, const char *base,
			 struct sysinfo *sys)
{
	char path[PATH_MAX + 32];
	uint64_t v = 0;
	ssize_t n;
	int digits = 0;

	if (!base || strcmp(base, "/proc") == 0)
		snprintf(path, sizeof(path), "/sys/kernel/mm/lru_gen/enabled");
	else
		snprintf(path, sizeof(path), "%s/lru_gen/enabled", base);
	n = slurp(s, path, "lru_gen/enabled");
	if (n < 2 || s->buf[0] != '0' || (s->buf[1] != 'x' && s->buf[1] != 'X'))
		return;
	for (ssize_t i = 2; i < n && s->buf[i] != '\n'; i++) {
		char c = s->buf[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0 || v >> 60)
			return;
		v = v << 4 | (uint64_t)d;
		digits++;
	}
	if (!digits)
		return;
	sys->v[SYS_LRU_GEN] = v;
	sys->valid |= SBIT(SYS_LRU_GEN);
}

/*
 * kswapd's watermarks: the "low" and "high" lines (pages) of every zone
 * of zoneinfo, summed, in bytes.  The per-CPU pagesets' "high:" has a
 * colon and is not one.  Read whole however many CPUs it lists.
 */
static void read_zoneinfo(struct sysinfo_src *s, const char *path,
			  struct sysinfo *sys)
{
	size_t len = 0, cap = 65536;
	char *buf = xmalloc(cap);
	uint64_t low = 0, high = 0, page;
	long ps = sysconf(_SC_PAGESIZE);
	int fd, nzones = 0, ok = 1;
	ssize_t n;

	page = ps > 0 ? (uint64_t)ps : 4096;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		free(buf);
		return;
	}
	while ((n = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap) {
			if (cap >= (64u << 20))
				break;
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
	}
	close(fd);
	if (s->sink)
		s->sink->ops->proc(s->sink, "zoneinfo", buf, len);
	for (size_t i = 0; i < len;) {
		size_t e = i;
		char key[16];
		uint64_t v;
		int k = 0;

		while (e < len && buf[e] != '\n')
			e++;
		while (i < e && buf[i] == ' ')
			i++;
		while (i < e && buf[i] != ' ' && k < (int)sizeof(key) - 1)
			key[k++] = buf[i++];
		key[k] = '\0';
		while (i < e && buf[i] == ' ')
			i++;
		if (!strcmp(key, "low") || !strcmp(key, "high")) {
			if (parse_u64(buf + i, e - i, &v) < 0 ||
			    v > UINT64_MAX / page / 4096)
				ok = 0;
			else if (key[0] == 'l')
				low += v, nzones++;
			else
				high += v;
		}
		i = e + 1;
	}
	free(buf);
	if (!ok || !nzones)
		return;
	sys->v[SYS_WMARK_LOW] = low * page;
	sys->v[SYS_WMARK_HIGH] = high * page;
	sys->valid |= SBIT(SYS_WMARK_LOW) | SBIT(SYS_WMARK_HIGH);
}


/* Whether a /proc/PID/stat line is a kswapd thread's ("(kswapdN)"). */
static int is_kswapd_stat(const char *line, size_t len)
{
	const char *open = memchr(line, '(', len), *close;
	size_t i;

	if (!open)
		return 0;
	close = memchr(open, ')', len - (size_t)(open - line));
	if (!close || close - open < 8 || strncmp(open + 1, "kswapd", 6))
		return 0;
	for (i = 7; open + i < close; i++)
		if (open[i] < '0' || open[i] > '9')
			return 0;
	return 1;
}

/*
 * utime + stime (fields 14 and 15, clock ticks) of a /proc/PID/stat line,
 * counted from after the command's closing parenthesis, which the command
 * itself cannot fake (the last ')' of the line).  -1 if malformed.
 */
static int64_t stat_ticks(const char *line, size_t len)
{
	const char *p = NULL, *end = line + len;
	uint64_t v, sum = 0;
	int field = 2;

	for (const char *c = line; c < end; c++)
		if (*c == ')')
			p = c;
	if (!p)
		return -1;
	for (p++; p < end && field < 15;) {
		const char *w;

		while (p < end && *p == ' ')
			p++;
		w = p;
		while (p < end && *p != ' ' && *p != '\n')
			p++;
		field++;
		if (field >= 14) {
			if (parse_u64(w, (size_t)(p - w), &v) < 0 ||
			    v > UINT64_MAX / 4 - sum)
				return -1;
			sum += v;
		}
	}
	return field == 15 ? (int64_t)sum : -1;
}

/* The kswapd threads in /proc, into s->kswapd. */
static void find_kswapd(struct sysinfo_src *s)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	s->nkswapd = 0;
	if (!d)
		return;
	while ((e = readdir(d)) && s->nkswapd < (int)(sizeof(s->kswapd) /
						      sizeof(s->kswapd[0]))) {
		char path[64], line[512];
		ssize_t n;
		int fd;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.20s/stat", e->d_name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, line, sizeof(line));
		close(fd);
		if (n > 0 && is_kswapd_stat(line, (size_t)n))
			s->kswapd[s->nkswapd++] = atoi(e->d_name);
	}
	closedir(d);
}

/*
 * The CPU time of kswapd's threads, in ms, from their /proc/PID/stat
 * lines in text (live: read here; a copy or a recording: its kswapd_stat
 * file of those lines).
 */
static void kswapd_ms(const char *text, size_t len, struct sysinfo *sys)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t ticks = 0;
	int n = 0;

	if (hz <= 0)
		return;
	for (size_t i = 0; i < len;) {
		size_t e = i;
		int64_t t;

		while (e < len && text[e] != '\n')
			e++;
		if (e > i) {
			if (!is_kswapd_stat(text + i, e - i) ||
			    (t = stat_ticks(text + i, e - i)) < 0)
				return;
			ticks += (uint64_t)t;
			n++;
		}
		i = e + 1;
	}
	if (!n)
		return;
	sys->v[SYS_KSWAPD_MS] = ticks * 1000 / (uint64_t)hz;
	sys->valid |= SBIT(SYS_KSWAPD_MS);
}

static void read_kswapd_live(struct sysinfo_src *s, struct sysinfo *sys)
{
	size_t len = 0;

	for (int tries = 0; tries < 2; tries++) {
		int gone = 0;

		if (!s->nkswapd || tries)
			find_kswapd(s);
		len = 0;
		for (int i = 0; i < s->nkswapd && !gone; i++) {
			char path[64];
			ssize_t n;
			int fd;

			snprintf(path, sizeof(path), "/proc/%d/stat",
				 s->kswapd[i]);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				gone = 1;
				break;
			}
			n = read(fd, s->buf + len, sizeof(s->buf) - len - 1);
			close(fd);
			/* a pid taken by another task since */
			if (n <= 0 || !is_kswapd_stat(s->buf + len, (size_t)n)) {
				gone = 1;
				break;
			}
			len += (size_t)n;
			if (s->buf[len - 1] != '\n')
				s->buf[len++] = '\n';
		}
		if (!gone)
			break;
		len = 0;
	}
	if (!len)
		return;
	if (s->sink)
		s->sink->ops->proc(s->sink, "kswapd_stat", s->buf, len);
	kswapd_ms(s->buf, len, sys);
}

void sysinfo_read(struct sysinfo_src *s, size_t sample, struct sysinfo *sys)
{
	struct sysctx c = { .sys = sys };
	char base[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n;

	memset(sys, 0, sizeof(*sys));
	if (!s)
		return;
	if (!s->dir) {
		read_live(s, sys);
		read_kswapd_live(s, sys);
		if (!s->no_zoneinfo)
			read_zoneinfo(s, "/proc/zoneinfo", sys);
		if (s->want_lru_gen)
			read_lru_gen(s, NULL, sys);
		return;
	}
	if (s->series)
		snprintf(base, sizeof(base), "%s/%zu", s->dir, sample);
	else
		snprintf(base, sizeof(base), "%s", s->dir);
	snprintf(path, sizeof(path), "%s/meminfo", base);
	n = slurp(s, path, "meminfo");
	if (n >= 0)
		parse_meminfo(s->buf, (size_t)n, meminfo_kv, &c);
	snprintf(path, sizeof(path), "%s/vmstat", base);
	read_vmstat(s, path, sys);
	/* The live /proc (a recording reads it as files): its threads'
	 * lines, which the recording keeps as kswapd_stat. */
	if (!s->series && strcmp(s->dir, "/proc") == 0) {
		read_kswapd_live(s, sys);
	} else {
		snprintf(path, sizeof(path), "%s/kswapd_stat", base);
		n = slurp(s, path, "kswapd_stat");
		if (n > 0)
			kswapd_ms(s->buf, (size_t)n, sys);
	}
	snprintf(path, sizeof(path), "%s/pressure/memory", base);
	read_psi(s, path, sys);
	/* A recording's: what its reclaim events gave. */
	if (s->series) {
		snprintf(path, sizeof(path), "%s/memcgtop.events", base);
		n = slurp(s, path, "memcgtop.events");
		if (n > 0)
			parse_keyvals(s->buf, (size_t)n, event_kv, sys);
	}
	if (!s->no_zoneinfo) {
		snprintf(path, sizeof(path), "%s/zoneinfo", base);
		read_zoneinfo(s, path, sys);
	}
	if (s->want_lru_gen)
		read_lru_gen(s, base, sys);
}
