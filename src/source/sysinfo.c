/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sysinfo.c - system memory, vmstat reclaim counters and PSI. */
#include <errno.h>
#include <fcntl.h>
#include <libproc2/meminfo.h>
#include <libproc2/vmstat.h>
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
	struct vmstat_info *vm;
	struct sink *sink;	/* --record: what is read goes there too */
	int want_lru_gen;
	int no_zoneinfo;
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
		if (procps_vmstat_new(&s->vm) < 0)
			s->vm = NULL;
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
	if (s->vm)
		procps_vmstat_unref(&s->vm);
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
	uint64_t scan_af, steal_af;	/* anon + file */
	int has_kd, has_af;
	int bad_kd, bad_af;		/* a term out of range: no sum */
};

static int keyis(const char *k, size_t kl, const char *want)
{
	return strlen(want) == kl && memcmp(k, want, kl) == 0;
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
				sys->valid |= FBIT(meminfo_figs[i].f);
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
	}
}

/*
 * System reclaim: pgscan_anon + pgscan_file where the kernel has them
 * (5.8+), since memcg-limit reclaim on 6.18 shows up there but not in
 * pgscan_kswapd / pgscan_direct; the larger of the two sums otherwise
 * covers older kernels, where only kswapd/direct exist.
 */
static void set_reclaim(struct sysctx *c)
{
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
	if (c->has_kd) {
		c->sys->v[SYS_PGSCAN_KSWAPD] = c->scan_k;
		c->sys->v[SYS_PGSCAN_DIRECT] = c->scan_d;
		c->sys->valid |= FBIT(SYS_PGSCAN_KSWAPD) |
			FBIT(SYS_PGSCAN_DIRECT);
	}
	if (!c->has_kd && !c->has_af)
		return;
	c->sys->v[SYS_PGSCAN] = c->scan_af > c->scan_kd ? c->scan_af :
		c->scan_kd;
	c->sys->v[SYS_PGSTEAL] = c->steal_af > c->steal_kd ? c->steal_af :
		c->steal_kd;
	c->sys->valid |= FBIT(SYS_PGSCAN) | FBIT(SYS_PGSTEAL);
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
		sys->valid |= FBIT(SYS_PSI_SOME10);
	}
	if (p.has_full) {
		sys->v[SYS_PSI_FULL10] = p.full_avg10;
		sys->valid |= FBIT(SYS_PSI_FULL10);
	}
}

static void read_live(struct sysinfo_src *s, struct sysinfo *sys)
{
	static enum vmstat_item vitems[] = {
		VMSTAT_PGSCAN_KSWAPD, VMSTAT_PGSCAN_DIRECT,
		VMSTAT_PGSTEAL_KSWAPD, VMSTAT_PGSTEAL_DIRECT,
		VMSTAT_PGSCAN_ANON, VMSTAT_PGSCAN_FILE,
		VMSTAT_PGSTEAL_ANON, VMSTAT_PGSTEAL_FILE,
	};
	enum meminfo_item mitems[NMEMINFO];
	struct sysctx c = { .sys = sys };
	struct meminfo_stack *ms;
	struct vmstat_stack *vs;

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
			sys->valid |= FBIT(f);
		}
	}
	if (s->vm && (vs = procps_vmstat_select(s->vm, vitems, 8))) {
		for (int i = 0; i < 8; i++)
			if (!parse_in_range(vs->head[i].result.ul_int)) {
				if (i < 4)
					c.bad_kd = 1;
				else
					c.bad_af = 1;
			}
		c.scan_k = vs->head[0].result.ul_int;
		c.scan_d = vs->head[1].result.ul_int;
		c.scan_kd = c.scan_k + c.scan_d;
		c.steal_kd = vs->head[2].result.ul_int +
			vs->head[3].result.ul_int;
		c.scan_af = vs->head[4].result.ul_int +
			vs->head[5].result.ul_int;
		c.steal_af = vs->head[6].result.ul_int +
			vs->head[7].result.ul_int;
		c.has_kd = c.has_af = 1;
		set_reclaim(&c);
	}
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
	sys->valid |= FBIT(SYS_LRU_GEN);
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
	sys->valid |= FBIT(SYS_WMARK_LOW) | FBIT(SYS_WMARK_HIGH);
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
	n = slurp(s, path, "vmstat");
	if (n >= 0) {
		parse_keyvals(s->buf, (size_t)n, vmstat_kv, &c);
		set_reclaim(&c);
	}
	snprintf(path, sizeof(path), "%s/pressure/memory", base);
	read_psi(s, path, sys);
	if (!s->no_zoneinfo) {
		snprintf(path, sizeof(path), "%s/zoneinfo", base);
		read_zoneinfo(s, path, sys);
	}
	if (s->want_lru_gen)
		read_lru_gen(s, base, sys);
}
