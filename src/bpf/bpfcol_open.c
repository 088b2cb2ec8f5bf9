/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpfcol_open.c - what the host has for the pass (version, mount
 * options, groups, nodes), the collector opened and closed (see
 * bpfcol.h, bpfcol_int.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/btf.h>
#include <linux/magic.h>
#include <bpf/btf.h>

#include "bpfcol_int.h"
#include "bpflib.h"
#include "clock.h"
#include "xalloc.h"

/* Descriptors a load holds at once (measured: BTF, three maps, the data
 * sections, the program, its link, libbpf's probes). */
#define BPFCOL_LOAD_FDS		11

/* The groups the maps start with below a v1 root (then grown). */
#define BPFCOL_V1_FIRST		1024U

__attribute__((format(printf, 3, 4)))
int bpfcol_why_set(struct bpfcol_why *w, enum bpfcol_reason reason,
		   const char *fmt, ...)
{
	va_list ap;

	w->reason = reason;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
	return 0;
}

/* Whether the cgroup2 mount holding FD has the memory_localevents option. */
static bool v2_local_events(int fd)
{
	char line[4096], want[32];
	struct stat st;
	bool found = false;
	FILE *f;

	if (fstat(fd, &st) != 0)
		return false;
	snprintf(want, sizeof(want), " %u:%u ", major(st.st_dev),
		 minor(st.st_dev));
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (strstr(line, want) && strstr(line, " - cgroup2 ") &&
		    strstr(line, "memory_localevents"))
			found = true;
	fclose(f);
	return found;
}

/*
 * Whether v2 groups have memory.swap.peak: the start's own file, or that
 * of its first child with memory files (a v2 root has none of its own).
 */
static bool v2_swap_peak(int fd)
{
	struct dirent *d;
	bool found = false;
	char path[NAME_MAX + 32];
	DIR *dp;
	int dfd;

	if (faccessat(fd, "memory.swap.peak", F_OK, 0) == 0)
		return true;
	dfd = dup(fd);
	if (dfd < 0)
		return false;
	dp = fdopendir(dfd);
	if (!dp) {
		close(dfd);
		return false;
	}
	while (!found && (d = readdir(dp))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/memory.current", d->d_name);
		if (faccessat(fd, path, F_OK, 0) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/memory.swap.peak", d->d_name);
		found = faccessat(fd, path, F_OK, 0) == 0;
		break;
	}
	closedir(dp);
	return found;
}

/* The memory controller's groups on this host, dying ones too (the
 * num_cgroups of /proc/cgroups; on v2 every cgroup), or 0. */
static uint64_t hierarchy_groups(void)
{
	char line[256], name[64];
	unsigned long long n = 0, h, g;
	FILE *f = fopen("/proc/cgroups", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %llu %llu", name, &h, &g) == 3 &&
		    strcmp(name, "memory") == 0) {
			n = g;
			break;
		}
	fclose(f);
	return n < BPFCOL_MAX_GROUPS ? n : BPFCOL_MAX_GROUPS;
}

/*
 * v2: the start and its live descendants (cgroup.stat's nr_descendants,
 * which leaves out the dying ones /proc/cgroups counts), or 0.  Groups
 * without the memory controller are walked too, so all of them count.
 */
static uint64_t v2_groups(int dirfd)
{
	char line[128];
	unsigned long long n;
	uint64_t ret = 0;
	FILE *f;
	int fd = openat(dirfd, "cgroup.stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return 0;
	}
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "nr_descendants %llu", &n) == 1) {
			ret = n + 1;
			break;
		}
	fclose(f);
	return ret < BPFCOL_MAX_GROUPS ? ret : BPFCOL_MAX_GROUPS;
}

/*
 * A load refused: whether the kernel's BTF is usable and has the cgroup
 * iterator is asked only then (it parses the BTF once more).  The reason
 * becomes the BTF's fault, or the iterator's absence; else it stays.
 */
static int why_refused(struct bpfcol_why *w, int r)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int found;

	if (!btf) {
		r = -errno;
		if (r == -EMFILE || r == -ENFILE || r == -ENOMEM)
			return r;	/* the load's own reason stands */
		bpfcol_why_set(w, BPFCOL_NO_BTF, "%s", bpflib_btf_error(r));
		return -EOPNOTSUPP;
	}
	found = btf__find_by_name_kind(btf, "bpf_iter_cgroup", BTF_KIND_FUNC);
	btf__free(btf);
	if (found >= 0)
		return r;
	bpfcol_why_set(w, BPFCOL_TOO_OLD,
	    "the kernel has no cgroup iterator (Linux 6.1 or later)");
	return -EOPNOTSUPP;
}

/* Whether dirfd is its hierarchy's root: on kernfs the root directory's
 * inode number is 1. */
static bool v1_is_root(int dirfd)
{
	struct stat st;

	return fstat(dirfd, &st) == 0 && st.st_ino == 1;
}

/* MEMCGTOP_BPF_FAIL: the failures tests ask for. */
static int bpfcol_injected(struct bpfcol *col, struct bpfcol_why *w)
{
	const char *f = getenv("MEMCGTOP_BPF_FAIL");

	if (!f || !*f)
		return 0;
	if (strcmp(f, "perm") == 0)
		bpfcol_why_set(w, BPFCOL_NOT_PERMITTED,
		    "not permitted: needs root (CAP_BPF and CAP_PERFMON)");
	else if (strcmp(f, "btf") == 0)
		bpfcol_why_set(w, BPFCOL_NO_BTF, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
	else if (strcmp(f, "old") == 0)
		bpfcol_why_set(w, BPFCOL_TOO_OLD, "the kernel has no cgroup iterator (Linux 6.1 or later)");
	else if (strcmp(f, "load") == 0) {
		col->inject_refusal = true;
		return 0;
	} else if (strcmp(f, "unproven") == 0) {
		/* As a kernel whose statistics have no vmstats. */
		col->inject_unproven = true;
		return 0;
	} else if (strcmp(f, "map") == 0) {
		col->inject_unmapped = true;
		return 0;
	} else {
		bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "MEMCGTOP_BPF_FAIL=%s: not perm, btf, old, load, unproven or map", f);
		return -EINVAL;
	}
	return w->reason == BPFCOL_NOT_PERMITTED ? -EPERM : -EOPNOTSUPP;
}

/*
 * The kernel's nr_node_ids: the highest possible node id + 1 (the
 * length of memcg->nodeinfo); 1 where the kernel has no NUMA.
 */
static uint32_t node_ids(void)
{
	FILE *f = fopen("/sys/devices/system/node/possible", "re");
	unsigned long hi = 0;
	char buf[256], *p, *end;

	if (!f)
		return 1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return 1;
	}
	fclose(f);
	/* "0", "0-3", "0,2-5": the last number is the highest. */
	for (p = buf; *p; p = end) {
		unsigned long v;

		if (*p < '0' || *p > '9') {
			end = p + 1;
			continue;
		}
		v = strtoul(p, &end, 10);
		if (v > hi)
			hi = v;
	}
	return hi < 1024 ? (uint32_t)hi + 1 : 1024;
}

/* Whether to try the program with the kernel's memcg kfuncs. */
static void kf_choice(struct bpfcol *col)
{
	const char *e = getenv("MEMCGTOP_BPF_KFUNC");

	if (!col->v2) {
		col->kf = -1;
		snprintf(col->kf_why, sizeof(col->kf_why), "cgroup v1: the "
			 "kfuncs find a group by its id in the v2 hierarchy "
			 "only");
	} else if (e && strcmp(e, "0") == 0) {
		col->kf = -1;
		snprintf(col->kf_why, sizeof(col->kf_why),
			 "MEMCGTOP_BPF_KFUNC=0");
	}
}

const char *bpfcol_kfunc(const struct bpfcol *col)
{
	return col->kf > 0 ? NULL : col->kf_why[0] ? col->kf_why :
		"not loaded yet";
}

int bpfcol_open(const char *start, struct bpfcol **ret_col,
		struct bpfcol_why *ret_why)
{
	struct memcg_sum sum;
	struct bpfcol *col;
	struct statfs sfs;
	uint64_t n;
	int r;

	*ret_col = NULL;
	bpfcol_why_set(ret_why, BPFCOL_OK, "%s", "");
	col = xcalloc(1, sizeof(*col));
	col->dirfd = -1;
	bpfcol_win_close(&col->recs);
	bpfcol_win_close(&col->stats);
	bpfcol_win_close(&col->names);
	col->want = ~(mr_set)0;
	col->stat_cap = 1;
	/* The first walk reads the start group's lists per node (-VV). */
	col->stat_nodes = true;
	col->nodes = node_ids();
	col->pagesize = (unsigned long)sysconf(_SC_PAGESIZE);
	col->win_bytes = bpfcol_win_bytes(col->pagesize);
	col->counter_max = (uint64_t)LONG_MAX / col->pagesize;
	r = bpfcol_injected(col, ret_why);
	if (r)
		goto fail;
	if (!bpflib_permitted()) {
		bpfcol_why_set(ret_why, BPFCOL_NOT_PERMITTED,
		    "not permitted: needs root (CAP_BPF and CAP_PERFMON)");
		r = -EPERM;
		goto fail;
	}
	/* Run short mid-load, libbpf says false things (a map "referenced
	 * but not created"): asked first. */
	if (bpflib_fds_short(BPFCOL_LOAD_FDS, ret_why->text,
			     sizeof(ret_why->text))) {
		ret_why->reason = BPFCOL_LOAD_REFUSED;
		r = -EMFILE;
		goto fail;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		bpfcol_why_set(ret_why, BPFCOL_NO_BTF,
		    "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		r = -EOPNOTSUPP;
		goto fail;
	}
	col->dirfd = open(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (col->dirfd < 0) {
		r = -errno;
		bpfcol_why_set(ret_why, BPFCOL_START, "%s: %s", start, strerror(-r));
		goto fail;
	}
	if (fstatfs(col->dirfd, &sfs) != 0 ||
	    (sfs.f_type != CGROUP_SUPER_MAGIC && sfs.f_type != CGROUP2_SUPER_MAGIC)) {
		bpfcol_why_set(ret_why, BPFCOL_START, "%s: not a cgroup directory", start);
		r = -ENOTDIR;
		goto fail;
	}
	col->v2 = sfs.f_type == CGROUP2_SUPER_MAGIC;
	kf_choice(col);
	col->local_events = col->v2 && v2_local_events(col->dirfd);
	col->v2_swap_peak = col->v2 && v2_swap_peak(col->dirfd);
	/*
	 * The maps start at the group count, so that the first walk fits (a
	 * load and a walk cost about as much as a refresh each): v2 says how
	 * many groups lie below the start; v1 has only the hierarchy's count
	 * in /proc/cgroups.  That counts dying groups too (thousands after a
	 * churn), and the start may be a small part of the hierarchy: when
	 * the walk, which counts past the maps' end, shows that the maps
	 * hold far more than it found (BPFCOL_SLACK), they are made again
	 * for what it found.
	 */
	n = col->v2 ? v2_groups(col->dirfd) : 0;
	if (!n)
		n = hierarchy_groups();
	/* v1 below its root: the hierarchy's count may be all the host's
	 * groups (49,000 on a busy one: 13 MiB of maps, charged to the
	 * caller's memory cgroup) for a start that holds a few.  The maps
	 * start small there and grow to what the walk counted. */
	if (!col->v2 && !v1_is_root(col->dirfd) && n > BPFCOL_V1_FIRST)
		n = BPFCOL_V1_FIRST;
	bpfcol_size(col, n, 0);
	r = bpfcol_load(col, ret_why);
	/* Not when the load was not tried for want of room: the question
	 * parses the BTF as the load would. */
	if (r && r != -ENOMEM && ret_why->reason == BPFCOL_LOAD_REFUSED)
		r = why_refused(ret_why, r);
	if (!r)
		r = bpfcol_fit(col, &sum, ret_why);
	if (!r && bpfcol_oversized(col, &sum)) {
		bpfcol_unload(col);
		bpfcol_size(col, sum.groups, sum.names_used);
		r = bpfcol_load(col, ret_why);
		if (!r)
			r = bpfcol_fit(col, &sum, ret_why);
	}
	/* Groups without a memory controller are walked (v2: a directory
	 * without memory files), but the start must have one. */
	if (!r) {
		r = sum.groups == 0 ? 0 : bpfcol_start_memcg(col, ret_why);
		if (r == 0) {
			bpfcol_why_set(ret_why, BPFCOL_START, "%s: not a memory cgroup",
			    start);
			r = -ENOENT;
		} else if (r > 0) {
			r = 0;
		}
	}
	if (r)
		goto fail;
	col->open_sum = sum;
	col->open_s = clock_mono();
	*ret_col = col;
	return 0;
fail:
	bpfcol_close(col);
	return r;
}

unsigned long bpfcol_pagesize(const struct bpfcol *col)
{
	return col->pagesize;
}

unsigned bpfcol_node_ids(const struct bpfcol *col)
{
	return col->nodes;
}

void bpfcol_close(struct bpfcol *col)
{
	if (!col)
		return;
	bpfcol_unload(col);
	if (col->dirfd >= 0)
		close(col->dirfd);
	free(col);
}
