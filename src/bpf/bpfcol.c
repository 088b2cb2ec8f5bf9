/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfcol.c - loads src/bpf/memcg_iter.bpf.c through its skeleton
 * (memcg_iter.skel.h, which bpftool gen skeleton makes at build time: the
 * object's bytes, embedded in the binary, and typed pointers to its maps,
 * program and data), runs one cgroup-iterator walk per read and turns its
 * records into bytes, as the cgroup files show them.  See bpfcol.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/btf.h>
#include <linux/magic.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfcol.h"
#include "bpflib.h"
#include "clock.h"
#include "xalloc.h"
/* The skeleton's .rodata is a struct memcg_cfg (memcg_rec.h, through
 * bpfcol.h), whose size its _Static_assert checks against the object's
 * BTF. */
#include "memcg_iter.skel.h"
/* The same program built with the kernel's memcg kfuncs: its object is
 * opened through memcg_iter's skeleton, whose sections it shares (the
 * build compares the two skeletons' structs); its own functions are not
 * called. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "memcg_iter_kf.skel.h"
#pragma GCC diagnostic pop

/*
 * The kernel's memcg ids are 16 bits (MEM_CGROUP_ID_MAX, 65,535 live and
 * dying groups); an array map's one value may not pass KMALLOC_MAX_SIZE
 * (4 MiB on x86-64), which bounds the packed names.
 */
#define BPFCOL_MAX_GROUPS	65536U
#define BPFCOL_MAX_NAMES	(4U << 20)
/* Descriptors a load holds at once (measured: BTF, three maps, the data
 * sections, the program, its link, libbpf's probes). */
#define BPFCOL_LOAD_FDS		11
/* The groups the maps start with below a v1 root (then grown). */
#define BPFCOL_V1_FIRST		1024U

/*
 * A window onto one of the pass's maps: a read maps the part it touches,
 * WIN_BYTES at a time, not the whole map, whose pages would count in
 * memcgtop's RSS as long as they are mapped (22 MiB at 32,768 groups,
 * more than the model's heap).  The reads of a refresh go in the records'
 * order, so each window is mapped once a pass: 66 mmap calls a refresh
 * of the default view at 32,768 groups.
 */
#define WIN_BYTES	(256U << 10)

/* MEMCGTOP_BPF_WIN=BYTES, for tests: a window's least size (a page at
 * least), so that a small tree moves them too. */
static size_t win_bytes(unsigned long pagesize)
{
	const char *e = getenv("MEMCGTOP_BPF_WIN");
	unsigned long long b;
	char *end;

	if (!e || !*e)
		return WIN_BYTES;
	errno = 0;
	b = strtoull(e, &end, 10);
	if (errno || *end || b > (1ULL << 30))
		return WIN_BYTES;
	return b < pagesize ? pagesize : (size_t)b;
}

struct mapwin {
	int fd;			/* the map's; -1: none loaded */
	size_t size;		/* its mappable bytes, page-rounded */
	const char *at;		/* the window mapped read-only, or NULL */
	size_t off, len;	/* its bytes in the map */
};

struct bpfcol {
	int dirfd;		/* the start group: the iterator's start */
	bool v2;
	bool v2_swap_peak;	/* the kernel has memory.swap.peak (6.5+) */
	bool local_events;
	bool inject_refusal;
	bool inject_unproven;	/* tests: no word is proven */
	bool inject_unmapped;	/* tests: no window maps after the load */
	/* The program with the kernel's memcg kfuncs (v2): 1 loaded, 0 not
	 * tried yet, -1 not to be (kf_why says why). */
	int kf;
	char kf_why[160];
	unsigned long pagesize;
	uint64_t counter_max;	/* PAGE_COUNTER_MAX: "no limit" */
	uint32_t rec_cap;
	uint32_t names_cap;
	struct memcg_iter *skel;	/* the object, its maps, program, link */
	mr_set want;			/* MR_BIT of the slots asked for */
	struct mapwin recs;
	/* The stats map: one entry until a stat slot is asked for, then
	 * as many as recs (a load again). */
	uint32_t stat_cap;
	struct mapwin stats;
	struct memcg_sels sels;		/* the proven words */
	mr_set zero;			/* stat slots 0 in every group */
	bool stats_refused;		/* the map could not grow: not again */
	uint32_t nodes;			/* the kernel's nr_node_ids */
	bool stat_nodes;		/* the stats map has the lists per node */
	struct mapwin names;
	int map_err;			/* -errno of a window the last
					 * bpfcol_record could not map */
	size_t win_bytes;		/* a window's least size */
	size_t nread;			/* records of the last bpfcol_read */
	/* The walk bpfcol_open made to size the maps, given to the first
	 * bpfcol_read when it comes soon enough (see FRESH_S). */
	struct memcg_sum open_sum;
	double open_s;		/* clock_mono() of that walk; 0: none */
	struct bpfcol_chunks chunks;	/* of the last pass */
	uint64_t budget_ns;	/* a chunk's recording time; 0: no chunks */
	long gap_ns;		/* between chunks: -1 none, 0 sched_yield */
	bool chunk_set;		/* budget_ns and gap_ns read */
	void (*hook)(void *arg, unsigned chunks);	/* tests: in the gap */
	void *hook_arg;
};

/*
 * A walk is as fresh as the first refresh needs for this long: cgfs_open
 * and the first refresh follow one another (a one-shot -b pays each walk,
 * some 10 ms at 8,192 groups, on top of loading the program).
 */
#define FRESH_S	0.1

__attribute__((format(printf, 3, 4)))
static int why(struct bpfcol_why *w, enum bpfcol_reason reason,
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

static size_t page_round(size_t n, unsigned long pagesize)
{
	return (n + pagesize - 1) / pagesize * pagesize;
}

/* A stats map value's size (and stride: a multiple of 8). */
static size_t stat_size(const struct bpfcol *col)
{
	return col->stat_nodes ? MR_STAT_SIZE : MR_STAT_SHORT;
}

static void win_drop(struct mapwin *w)
{
	if (w->at)
		munmap((void *)w->at, w->len);
	w->at = NULL;
	w->off = w->len = 0;
}

static void win_close(struct mapwin *w)
{
	win_drop(w);
	w->fd = -1;
	w->size = 0;
}

/*
 * The bytes [POS, POS + NEED) of W's map, mapped: the window moves to
 * the page holding POS when they are not in it.  NULL and col->map_err
 * set when the kernel refuses the mapping (or the bytes lie past the
 * map's end: never, the caller checks its index).
 */
static const void *win_at(struct bpfcol *col, struct mapwin *w, size_t pos,
			  size_t need)
{
	size_t off, len;
	void *p;

	if (w->at && pos >= w->off && pos + need <= w->off + w->len)
		return w->at + (pos - w->off);
	if (w->fd < 0 || pos + need > w->size) {
		col->map_err = -EINVAL;
		return NULL;
	}
	win_drop(w);
	if (col->inject_unmapped && col->nread > 0) {
		col->map_err = -ENOMEM;
		return NULL;
	}
	off = pos / col->pagesize * col->pagesize;
	len = page_round(pos + need, col->pagesize) - off;
	if (len < col->win_bytes)
		len = col->win_bytes;
	if (len > w->size - off)
		len = w->size - off;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, w->fd, (off_t)off);
	if (p == MAP_FAILED) {
		col->map_err = -errno;
		return NULL;
	}
	w->at = p;
	w->off = off;
	w->len = len;
	return w->at + (pos - off);
}

static void bpfcol_unload(struct bpfcol *col)
{
	win_close(&col->recs);
	win_close(&col->names);
	win_close(&col->stats);
	memcg_iter__destroy(col->skel);
	col->skel = NULL;
}

/* Record i of the maps, NULL when it cannot be mapped (col->map_err). */
static const struct memcg_rec *rec_of(struct bpfcol *col, size_t i)
{
	return win_at(col, &col->recs, i * sizeof(struct memcg_rec),
		      sizeof(struct memcg_rec));
}

/*
 * Whether the walk's first record, its start, is a memory cgroup's (1)
 * or not (0); -errno with W's reason when it cannot be mapped.
 */
static int start_memcg(struct bpfcol *col, struct bpfcol_why *w)
{
	const struct memcg_rec *r = rec_of(col, 0);

	if (!r) {
		why(w, BPFCOL_LOAD_REFUSED, "cannot map the records: %s",
		    strerror(-col->map_err));
		return col->map_err;
	}
	return (r->flags & MR_MEMCG) != 0;
}

/* Maps the first window of each map now, so that a kernel refusing the
 * mapping at all fails the load, not a read. */
static int map_windows(struct bpfcol *col)
{
	struct memcg_iter *skel = col->skel;

	col->recs.fd = bpf_map__fd(skel->maps.recs);
	col->stats.fd = bpf_map__fd(skel->maps.stats);
	col->names.fd = bpf_map__fd(skel->maps.names);
	col->recs.size = page_round((size_t)col->rec_cap *
				    sizeof(struct memcg_rec), col->pagesize);
	col->names.size = page_round(col->names_cap, col->pagesize);
	col->stats.size = page_round((size_t)col->stat_cap * stat_size(col),
				     col->pagesize);
	col->map_err = 0;
	if (!win_at(col, &col->recs, 0, 1) || !win_at(col, &col->stats, 0, 1) ||
	    !win_at(col, &col->names, 0, 1))
		return col->map_err;
	return 0;
}

static void apply_sels(struct bpfcol *col);

/* The slots asked for, as the program reads them: the record's and the
 * stat slots', a __u64 each. */
static void set_want(struct bpfcol *col)
{
	col->skel->data_want->want = (__u64)(col->want & (MR_SET(MR_FIRST_STAT) - 1));
	col->skel->data_want->want_stat = mr_stat_bits(col->want);
}

/* Group i's entry of the stats map; NULL when it cannot be mapped
 * (col->map_err). */
static const struct memcg_stat *stat_of(struct bpfcol *col, size_t i)
{
	return win_at(col, &col->stats, i * stat_size(col), stat_size(col));
}

/*
 * Whether the kernel's BTF has every kfunc memcg_iter_kf calls: asked
 * only when its load failed (libbpf 1.1 says only that the load failed;
 * a parse of the BTF costs about 9 ms).
 */
static bool kf_in_btf(void)
{
	static const char *const names[] = {
		"bpf_cgroup_from_id", "bpf_cgroup_release",
		"bpf_get_mem_cgroup", "bpf_put_mem_cgroup",
		"bpf_mem_cgroup_page_state", "bpf_mem_cgroup_vm_events",
	};
	struct btf *btf = btf__load_vmlinux_btf();
	bool all = btf != NULL;

	for (size_t i = 0; all && i < sizeof(names) / sizeof(names[0]); i++)
		all = btf__find_by_name_kind(btf, names[i], BTF_KIND_FUNC) >= 0;
	btf__free(btf);
	return all;
}

/*
 * memcg_iter's skeleton over its own object, or over memcg_iter_kf's
 * (kf): the programs differ, their maps and data sections do not.
 */
static struct memcg_iter *open_iter(bool kf)
{
	struct memcg_iter *o;
	int r;

	if (!kf)
		return memcg_iter__open();
	o = calloc(1, sizeof(*o));
	if (!o) {
		errno = ENOMEM;
		return NULL;
	}
	r = memcg_iter__create_skeleton(o);
	if (r == 0) {
		o->skeleton->data =
			(void *)memcg_iter_kf__elf_bytes(&o->skeleton->data_sz);
		r = bpf_object__open_skeleton(o->skeleton, NULL);
	}
	if (r) {
		memcg_iter__destroy(o);
		errno = -r;
		return NULL;
	}
	return o;
}

/* Opens the object with the current capacities, loads and attaches it;
 * on failure nothing of it is left (col->skel NULL). */
static int bpfcol_load(struct bpfcol *col, struct bpfcol_why *w)
{
	union bpf_iter_link_info linfo;
	LIBBPF_OPTS(bpf_iter_attach_opts, aopts, .link_info = &linfo,
		    .link_info_len = sizeof(linfo));
	struct memcg_iter *skel;
	uint64_t maps = (uint64_t)col->rec_cap * sizeof(struct memcg_rec) +
		col->names_cap + (uint64_t)col->stat_cap * stat_size(col);
	int r;

	/* Charged to this process's memory cgroup as it goes: where that
	 * has too little room, the OOM killer would end the load. */
	if (bpflib_memcg_short(bpflib_load_bytes(maps), w->text,
			       sizeof(w->text))) {
		w->reason = BPFCOL_LOAD_REFUSED;
		return -ENOMEM;
	}
	bpflib_keep_messages();
	skel = col->skel = open_iter(col->kf >= 0 && col->v2);
	if (!skel) {
		r = -errno;
		why(w, BPFCOL_LOAD_REFUSED, "%s", bpflib_open_error(r));
		return r;
	}
	/* Until the load, rodata and data_want are libbpf's copies of the
	 * sections' initial values; the load hands them to the kernel. */
	skel->rodata->cfg = (struct memcg_cfg){
		.rec_cap = col->rec_cap,
		.names_size = col->names_cap,
		.v2 = col->v2,
		.local_events = col->local_events,
		.inject_refusal = col->inject_refusal,
		.stat_cap = col->stat_cap,
		.nodes = col->nodes,
		.page_size = (__u32)col->pagesize,
		.stat_nodes = col->stat_nodes,
	};
	set_want(col);
	apply_sels(col);
	if ((r = bpf_map__set_max_entries(skel->maps.recs, col->rec_cap)) ||
	    (r = bpf_map__set_max_entries(skel->maps.stats, col->stat_cap)) ||
	    (r = bpf_map__set_value_size(skel->maps.stats,
					 (__u32)stat_size(col))) ||
	    (r = bpf_map__set_value_size(skel->maps.names, col->names_cap))) {
		why(w, BPFCOL_LOAD_REFUSED, "cannot size the maps: %s",
		    strerror(-r));
		goto fail;
	}
	r = memcg_iter__load(skel);
	bpflib_loaded();
	if (r && col->kf >= 0 && col->v2) {
		/* The kernel lacks a kfunc, or refused the program with
		 * them: the one without, and not this one again. */
		snprintf(col->kf_why, sizeof(col->kf_why), "%s",
			 !kf_in_btf() ? "the kernel has not every memcg kfunc "
			 "the program calls (Linux 7.0+)" :
			 bpflib_load_error(r));
		col->kf = -1;
		bpfcol_unload(col);
		return bpfcol_load(col, w);
	}
	if (r) {
		why(w, r == -EPERM ? BPFCOL_NOT_PERMITTED : BPFCOL_LOAD_REFUSED,
		    "%s", bpflib_load_error(r));
		goto fail;
	}
	if (col->kf >= 0 && col->v2)
		col->kf = 1;
	/*
	 * Not memcg_iter__attach: an iterator attaches with its start
	 * group's fd and the walk's order.  The link kept in the skeleton
	 * goes with memcg_iter__destroy.
	 */
	memset(&linfo, 0, sizeof(linfo));
	linfo.cgroup.cgroup_fd = col->dirfd;
	/* The program walks the groups below itself (memcg_iter.bpf.c). */
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	skel->links.memcg_iter = bpf_program__attach_iter(skel->progs.memcg_iter,
							  &aopts);
	if (!skel->links.memcg_iter) {
		r = -errno;
		why(w, BPFCOL_LOAD_REFUSED, "cannot attach the cgroup iterator: %s",
		    strerror(-r));
		goto fail;
	}
	if ((r = map_windows(col)) != 0) {
		why(w, BPFCOL_LOAD_REFUSED, "cannot map the records: %s",
		    strerror(-r));
		goto fail;
	}
	return 0;
fail:
	/* Nothing half loaded is left: the next read loads anew. */
	bpfcol_unload(col);
	return r;
}

/* Capacities for N groups: a quarter more, for groups made meanwhile. */
static void caps_for(const struct bpfcol *col, uint64_t groups, uint64_t names,
		     uint32_t *ret_recs, uint32_t *ret_names)
{
	uint64_t g = groups + groups / 4 + 64;
	uint64_t b = names + names / 4 + 64 * 32;

	if (b < g * 32)
		b = g * 32;
	b = page_round(b, col->pagesize);
	*ret_recs = g < BPFCOL_MAX_GROUPS ? (uint32_t)g : BPFCOL_MAX_GROUPS;
	*ret_names = b < BPFCOL_MAX_NAMES ? (uint32_t)b : BPFCOL_MAX_NAMES;
}

static void bpfcol_size(struct bpfcol *col, uint64_t groups, uint64_t names)
{
	caps_for(col, groups, names, &col->rec_cap, &col->names_cap);
	if (col->stat_cap > 1)
		col->stat_cap = col->rec_cap;
}

/*
 * Maps sized from /proc/cgroups are made again for what the first walk
 * found only when that frees more kernel memory than this: a second load
 * costs as much CPU as the first (the kernel's BTF parsed, the program
 * verified: some 30 ms), which a one-shot run or a start below the root
 * would pay each time, while this bounds what it keeps for nothing.
 */
#define BPFCOL_SLACK	(2U << 20)

static int bpfcol_oversized(const struct bpfcol *col,
			    const struct memcg_sum *sum)
{
	uint32_t recs, names;
	uint64_t now, fit;

	caps_for(col, sum->groups, sum->names_used, &recs, &names);
	now = (uint64_t)col->rec_cap * sizeof(struct memcg_rec) +
	      col->names_cap;
	fit = (uint64_t)recs * sizeof(struct memcg_rec) + names;
	return now > fit + BPFCOL_SLACK;
}

static int bpfcol_fit(struct bpfcol *col, struct memcg_sum *ret_sum,
		      struct bpfcol_why *w);

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
		why(w, BPFCOL_NO_BTF, "%s", bpflib_btf_error(r));
		return -EOPNOTSUPP;
	}
	found = btf__find_by_name_kind(btf, "bpf_iter_cgroup", BTF_KIND_FUNC);
	btf__free(btf);
	if (found >= 0)
		return r;
	why(w, BPFCOL_TOO_OLD,
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
		why(w, BPFCOL_NOT_PERMITTED,
		    "not permitted: needs root (CAP_BPF and CAP_PERFMON)");
	else if (strcmp(f, "btf") == 0)
		why(w, BPFCOL_NO_BTF, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
	else if (strcmp(f, "old") == 0)
		why(w, BPFCOL_TOO_OLD, "the kernel has no cgroup iterator (Linux 6.1 or later)");
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
		why(w, BPFCOL_LOAD_REFUSED, "MEMCGTOP_BPF_FAIL=%s: not perm, btf, old, load, unproven or map", f);
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
	why(ret_why, BPFCOL_OK, "%s", "");
	col = xcalloc(1, sizeof(*col));
	col->dirfd = -1;
	win_close(&col->recs);
	win_close(&col->stats);
	win_close(&col->names);
	col->want = ~(mr_set)0;
	col->stat_cap = 1;
	/* The first walk reads the start group's lists per node (-VV). */
	col->stat_nodes = true;
	col->nodes = node_ids();
	col->pagesize = (unsigned long)sysconf(_SC_PAGESIZE);
	col->win_bytes = win_bytes(col->pagesize);
	col->counter_max = (uint64_t)LONG_MAX / col->pagesize;
	r = bpfcol_injected(col, ret_why);
	if (r)
		goto fail;
	if (!bpflib_permitted()) {
		why(ret_why, BPFCOL_NOT_PERMITTED,
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
		why(ret_why, BPFCOL_NO_BTF,
		    "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		r = -EOPNOTSUPP;
		goto fail;
	}
	col->dirfd = open(start, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (col->dirfd < 0) {
		r = -errno;
		why(ret_why, BPFCOL_START, "%s: %s", start, strerror(-r));
		goto fail;
	}
	if (fstatfs(col->dirfd, &sfs) != 0 ||
	    (sfs.f_type != CGROUP_SUPER_MAGIC && sfs.f_type != CGROUP2_SUPER_MAGIC)) {
		why(ret_why, BPFCOL_START, "%s: not a cgroup directory", start);
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
		r = sum.groups == 0 ? 0 : start_memcg(col, ret_why);
		if (r == 0) {
			why(ret_why, BPFCOL_START, "%s: not a memory cgroup",
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

/* One chunk, one read of a new iterator fd of LINK: returns the summary
 * the program wrote at its end. */
static int walk_chunk(int link, struct memcg_sum *ret_sum)
{
	char buf[sizeof(*ret_sum) * 2];
	size_t got = 0;
	ssize_t n;
	int fd, r = 0;

	memset(ret_sum, 0, sizeof(*ret_sum));
	fd = bpf_iter_create(link);
	if (fd < 0)
		return -errno;
	while (got < sizeof(buf) &&
	       (n = read(fd, buf + got, sizeof(buf) - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (r)
		return r;
	if (got != sizeof(*ret_sum))
		return -EIO;
	memcpy(ret_sum, buf, sizeof(*ret_sum));
	return ret_sum->magic == MR_SUM_MAGIC ? 0 : -EIO;
}

/*
 * A chunk records for this long at most: other processes waiting to make
 * or remove a cgroup (mkdir, rmdir) wait for one chunk, not for the pass.
 * Measured at 30,000 groups, -d 1 (tests/bench/lock.sh, 2-core VM, 6.18):
 * other processes' mkdir p99 2.4 times its own with 1 ms chunks, 1.1 with
 * 250 us, 1.3 with 100 us; each chunk costs some 25 us more (a file
 * handle opened, a link made, an iterator read), 100 us chunks a fifth
 * more CPU per pass than 1 ms ones, 250 us about as much.
 *
 * Between two chunks, sched_yield: a mkdir that waited spins on the
 * mutex on another CPU, or on this one has to be let run, or the next
 * chunk takes the mutex first (a woken waiter can lose it to a newcomer).
 * A sleep of 50 us did as well for the waiters but cost a sixth more CPU
 * per pass (the walk's data gone cold in the CPU's caches).
 */
#define CHUNK_BUDGET_NS	250000ULL
#define CHUNK_GAP_NS	0L
/*
 * A pass begun again (none of the groups where a chunk stopped is left,
 * or the one opened went before the read): after this many, the pass is
 * made from the start in one read, as long as it takes, which nothing
 * can cut short.
 */
#define CHUNK_RESTARTS	4

/*
 * MEMCGTOP_BPF_CHUNK=BUDGET_US[,GAP_US], for tests and benchmarks: a
 * budget of 0 is one read per pass, 0.001 (a nanosecond) one group per
 * chunk; a gap of -1 is none, 0 sched_yield.
 */
static void chunk_setup(struct bpfcol *col)
{
	const char *e = getenv("MEMCGTOP_BPF_CHUNK");
	uint64_t scale = 1000;
	char *end;

	col->chunk_set = true;
	col->budget_ns = CHUNK_BUDGET_NS;
	col->gap_ns = CHUNK_GAP_NS;
	if (!e || !*e)
		return;
	/* Microseconds to the nanosecond, whatever the locale's point. */
	col->budget_ns = strtoull(e, &end, 10) % 1000000000 * 1000;
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++)
			if (scale /= 10)
				col->budget_ns += (uint64_t)(*end - '0') * scale;
	if (*end == ',')
		col->gap_ns = strtol(end + 1, NULL, 10) * 1000;
}

/* Lets a process that waited for cgroup_mutex while the chunk held it
 * take it before the next chunk does (a mutex's waiter, woken, can lose
 * it to a newcomer). */
static void chunk_gap(const struct bpfcol *col)
{
	struct timespec ts = { 0, 0 };

	if (col->gap_ns < 0)
		return;
	if (col->gap_ns == 0) {
		sched_yield();
		return;
	}
	ts.tv_nsec = col->gap_ns;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The directory of the group with kernfs id ID, on the start's file
 * system: a cgroup file handle is its id (FILEID_KERNFS). */
static int open_group(const struct bpfcol *col, uint64_t id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh = { .handle_bytes = sizeof(uint64_t), .handle_type = 0xfe } };

	h.id = id;
	return open_by_handle_at(col->dirfd, &h.fh,
				 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/*
 * An iterator link at the first group of SUM's chain that still exists,
 * and the chunk that goes on from there; -ENOENT when none is left.
 */
static int chunk_link(struct bpfcol *col, const struct memcg_sum *sum,
		      struct memcg_chunk *ret)
{
	union bpf_iter_link_info linfo;
	LIBBPF_OPTS(bpf_link_create_opts, opts, .iter_info = &linfo,
		    .iter_info_len = sizeof(linfo));
	uint32_t i;
	int fd = -1, link;

	for (i = 0; i < sum->chain_len && i < MR_CHAIN; i++) {
		fd = open_group(col, sum->chain[i].id);
		if (fd >= 0 || (errno != ESTALE && errno != ENOENT))
			break;
	}
	if (fd < 0)
		return i < sum->chain_len ? -errno : -ENOENT;
	memset(&linfo, 0, sizeof(linfo));
	linfo.cgroup.cgroup_fd = (uint32_t)fd;
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	link = bpf_link_create(bpf_program__fd(col->skel->progs.memcg_iter), 0,
			       BPF_TRACE_ITER, &opts);
	close(fd);
	if (link < 0)
		return -errno;
	*ret = (struct memcg_chunk){
		.budget_ns = col->budget_ns,
		/* The chain's group before it (removed) and the siblings
		 * made before that one are done; all of the first one's
		 * groups below it are to come. */
		.floor = i ? sum->chain[i - 1].serial : 0,
		.resume = 1,
		.start_level = sum->start_level,
		.base = sum->groups,
		.names_base = sum->names_used,
	};
	return link;
}

/*
 * One pass over the tree, chunk after chunk: returns the last chunk's
 * summary, whose groups and names_used count the whole pass.  Each chunk
 * goes on after the group the one before counted last, at the record
 * after it, so the records stay in pre-order as one read would leave
 * them.  Groups are never moved and siblings keep their order, so what
 * follows that group now is what followed it then and what was made
 * since; a group made where the walk had passed comes in the next pass.
 */
static int bpfcol_walk(struct bpfcol *col, struct memcg_sum *ret_sum)
{
	struct memcg_chunk *c;
	struct bpfcol_chunks *st = &col->chunks;
	struct memcg_sum last = { .magic = 0 };
	int r, link, start;

	if (!col->chunk_set)
		chunk_setup(col);
	memset(st, 0, sizeof(*st));
	c = &col->skel->data_chunk->chunk;
	start = bpf_link__fd(col->skel->links.memcg_iter);
	*c = (struct memcg_chunk){ .budget_ns = col->budget_ns };
	link = start;
	for (;;) {
		r = walk_chunk(link, ret_sum);
		if (link != start)
			close(link);
		if (r)
			return r;
		st->chunks++;
		st->steps += ret_sum->steps;
		st->held_ns += ret_sum->held_ns;
		if (ret_sum->held_ns > st->max_held_ns)
			st->max_held_ns = ret_sum->held_ns;
		if (ret_sum->flags & (MR_SUM_DONE | MR_SUM_NO_MEMCG))
			return 0;
		if (ret_sum->flags & MR_SUM_UNENDED)
			return -EIO;
		if (!(ret_sum->flags & MR_SUM_LOST))
			last = *ret_sum;
		if (col->hook)
			col->hook(col->hook_arg, st->chunks);
		else
			chunk_gap(col);
		/* Chunks need the group opened by its id: the file handles
		 * want CAP_DAC_READ_SEARCH.  Without, passes are one read. */
		link = -ENOENT;
		if (st->restarts < CHUNK_RESTARTS)
			link = chunk_link(col, &last, c);
		if (link == -EPERM)
			col->budget_ns = 0;
		if (link < 0) {
			/* Begun again from the start, at last in one read. */
			st->restarts++;
			link = start;
			*c = (struct memcg_chunk){
				.budget_ns = st->restarts < CHUNK_RESTARTS ?
					     col->budget_ns : 0,
			};
		}
	}
}

static const struct {
	const char *key;
	unsigned flags;
} slots[MR_NSLOTS] = {
#define MR_ROW(slot, key, flags) [MR_##slot] = { key, flags },
	MR_ALL_SLOTS
#undef MR_ROW
};

unsigned long bpfcol_slot_unit(enum mr_slot slot, unsigned long pagesize)
{
	unsigned flags = bpfcol_slot_flags(slot);

	return (flags & MR_PAGES) ? pagesize : (flags & MR_KB) ? 1024 : 1;
}

unsigned bpfcol_slot_flags(enum mr_slot slot)
{
	return slot < MR_NSLOTS ? slots[slot].flags : 0;
}

const char *bpfcol_slot_key(enum mr_slot slot)
{
	return slot < MR_NSLOTS ? slots[slot].key : "";
}

/* v1 root: memory.swappiness shows vm.swappiness, not the memcg's field. */
static int vm_swappiness(void)
{
	int v = -1;
	FILE *f = fopen("/proc/sys/vm/swappiness", "re");

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * One record as the files show it, each slot by its flags: pages in
 * bytes, a limit at PAGE_COUNTER_MAX "max".  v1 groups and the v1 root
 * have the v1 files (the program reads only those); a v2 root has no
 * counter files at all (its record gives only its pending statistics
 * updates, which no file shows), and memory.swap.peak came after the
 * swap counter's watermark (6.5).
 */
static int bpfcol_convert(struct bpfcol *col, size_t i, struct bpfcol_rec *g)
{
	const struct memcg_rec *r = rec_of(col, i);
	const struct memcg_stat *st;
	mr_set have;

	memset(g, 0, sizeof(*g));
	g->name = "";
	if (!r)
		return col->map_err;
	g->id = r->id;
	g->level = r->level;
	if ((r->flags & MR_NAME) &&
	    r->name_off + (size_t)r->name_len < col->names_cap) {
		const char *name = win_at(col, &col->names, r->name_off,
					  r->name_len);

		if (!name)
			return col->map_err;
		g->name = name;
		g->name_len = r->name_len;
	}
	if (!(r->flags & MR_MEMCG))
		return 0;
	have = r->have;
	if (col->v2 && !col->v2_swap_peak)
		have &= ~MR_BIT(SWAP_PEAK);
	have &= ~MR_STATS;
	/* A v2 root: of its record only what no file has (its statistics
	 * come from its memory.stat). */
	if (col->v2 && r->level == 0)
		have &= MR_BIT(STATS_PENDING);
	g->have = have;
	for (; have; have &= have - 1) {
		unsigned k = mr_first(have);
		uint64_t v = r->v[k];

		if ((slots[k].flags & MR_LIMIT) && v >= col->counter_max)
			g->unlimited |= MR_SET(k);
		g->v[k] = v * bpfcol_slot_unit((enum mr_slot)k, col->pagesize);
	}
	if (!(col->want & MR_STATS) || (col->v2 && r->level == 0))
		return 0;
	st = NULL;
	if (i < col->stat_cap && !(st = stat_of(col, i)))
		return col->map_err;
	/* memory.stat shows a sum below 0 (per-CPU deltas not yet folded
	 * in) as 0. */
	have = mr_of_stat_bits(st ? st->have : 0) & col->want & MR_STATS;
	g->have |= (col->zero & col->want) | have;
	for (mr_set z = col->zero & col->want & ~have; z; z &= z - 1)
		g->v[mr_first(z)] = 0;
	for (; have; have &= have - 1) {
		unsigned k = mr_first(have);
		int64_t v = st->v[k - MR_FIRST_STAT];

		g->v[k] = v < 0 ? 0 : (uint64_t)v *
			bpfcol_slot_unit((enum mr_slot)k, col->pagesize);
	}
	return 0;
}

/*
 * One walk, into maps big enough: when the summary says the walk needed
 * more groups or name bytes than the maps hold, they are made again for
 * that size plus a quarter, and the walk repeats.
 */
static int bpfcol_fit(struct bpfcol *col, struct memcg_sum *ret_sum,
		      struct bpfcol_why *w)
{
	int r, tries;

	/* A reload that failed at the last read left no program: load it
	 * again, or say again why not. */
	if (!col->skel && (r = bpfcol_load(col, w)) != 0)
		return r;
	for (tries = 0;; tries++) {
		r = bpfcol_walk(col, ret_sum);
		if (r) {
			struct rlimit rl;

			/* each chunk opens the iterator anew: a descriptor */
			if (r == -EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
				why(w, BPFCOL_LOAD_REFUSED, "reading the cgroup "
				    "iterator: %s (RLIMIT_NOFILE is %llu)",
				    strerror(-r), (unsigned long long)rl.rlim_cur);
			else
				why(w, BPFCOL_LOAD_REFUSED, "reading the cgroup "
				    "iterator: %s", strerror(-r));
			return r;
		}
		if (ret_sum->flags & MR_SUM_NO_MEMCG) {
			why(w, BPFCOL_NO_MEMCG, "the kernel has no memory controller");
			return -EOPNOTSUPP;
		}
		if (ret_sum->groups <= col->rec_cap &&
		    ret_sum->names_used <= col->names_cap)
			return 0;
		if (tries == 2 || ret_sum->groups > BPFCOL_MAX_GROUPS ||
		    ret_sum->names_used > BPFCOL_MAX_NAMES - MR_NAME_MAX) {
			why(w, BPFCOL_TOO_MANY,
			    "%u memory cgroups with %u bytes of names: more than the BPF maps hold (%u, %u)",
			    ret_sum->groups, ret_sum->names_used,
			    BPFCOL_MAX_GROUPS, BPFCOL_MAX_NAMES - MR_NAME_MAX);
			return -E2BIG;
		}
		bpfcol_unload(col);
		bpfcol_size(col, ret_sum->groups, ret_sum->names_used);
		r = bpfcol_load(col, w);
		if (r)
			return r;
	}
}

/*
 * The stats map with room for every group: the program loaded again,
 * beside the one loaded, which stays when the new one cannot load (no
 * room in memcgtop's memory cgroup for a second load, too few
 * descriptors): the stat slots are then not read past the first group,
 * and the caller reads their files, for the rest of the run.  Done when
 * asked for, not in the next read, whose walk's time is its sample's.
 */
static void grow_stats(struct bpfcol *col)
{
	struct memcg_iter *skel = col->skel;
	struct mapwin recs = col->recs, stats = col->stats,
		      names = col->names;
	uint32_t stat_cap = col->stat_cap;
	bool stat_nodes = col->stat_nodes;
	struct bpfcol_why w;

	/* The windows stay mapped, in recs, stats and names, until the new
	 * program is loaded or kept. */
	col->skel = NULL;
	col->recs = col->stats = col->names = (struct mapwin){ .fd = -1 };
	/* The lists per node when asked for; kept once the map holds
	 * every group (no load again when they are no longer asked for). */
	col->stat_nodes = (col->want & MR_BIT(ST_NODES)) ||
		(col->stat_nodes && stat_cap > 1);
	col->stat_cap = col->rec_cap;
	if (bpfcol_load(col, &w) < 0) {
		col->skel = skel;
		col->recs = recs;
		col->stats = stats;
		col->names = names;
		col->stat_cap = stat_cap;
		col->stat_nodes = stat_nodes;
		col->stats_refused = true;
		return;
	}
	win_drop(&recs);
	win_drop(&stats);
	win_drop(&names);
	memcg_iter__destroy(skel);
	col->open_s = 0;
}

/*
 * The program reads want at each group; the skeleton's data_want is the
 * section's map, mapped by libbpf at the load (.data.* maps are mmap-able
 * since Linux 5.5): a store is what the next walk sees.  A load that
 * failed in bpfcol_fit may have left no skeleton: col->want is given to
 * the next one.
 */
int bpfcol_want(struct bpfcol *col, mr_set want)
{
	col->want = want;
	/* Made again for every group, and with the lists per node once
	 * they are asked for. */
	if ((want & MR_STATS) && !col->stats_refused && col->skel &&
	    (col->stat_cap < col->rec_cap ||
	     ((want & MR_BIT(ST_NODES)) && !col->stat_nodes)))
		grow_stats(col);
	if (col->skel)
		set_want(col);
	apply_sels(col);
	return 0;
}

void bpfcol_stale(struct bpfcol *col)
{
	col->open_s = 0;
}

/*
 * The selection the program reads: the slots asked for only, and of each
 * array the words up to their last (a view of the LRU lists reads five
 * words of state[] a group, not every word proven).
 */
static void apply_sels(struct bpfcol *col)
{
	struct memcg_sels *to;

	if (!col->skel)
		return;
	to = &col->skel->data_want->sels;
	memset(to->words, 0, sizeof(to->words));
	for (unsigned k = 0; k < MR_NSTAT; k++) {
		const struct memcg_sel *s = &col->sels.sel[k];

		to->sel[k] = *s;
		if (!(col->want & MR_SET(k + MR_FIRST_STAT))) {
			to->sel[k].n = 0;
			continue;
		}
		for (unsigned i = 0; i < s->n && s->arr < MR_NARR; i++)
			if (to->words[s->arr] < (__u32)s->idx[i] + 1)
				to->words[s->arr] = (__u32)s->idx[i] + 1;
	}
}

void bpfcol_select(struct bpfcol *col, const struct memcg_sels *sels,
		   mr_set zero)
{
	col->sels = *sels;
	col->zero = zero & MR_STATS;
	apply_sels(col);
}

int bpfcol_layout(const struct bpfcol *col, struct memcg_layout *ret_layout,
		  const int64_t (**ret_raw)[MR_ARR_WORDS])
{
	if (!col->skel || !col->skel->bss)
		return -ENOENT;
	*ret_layout = col->skel->bss->layout;
	if (col->inject_unproven)
		ret_layout->vmstats = 0;
	*ret_raw = (const int64_t (*)[MR_ARR_WORDS])col->skel->bss->raw;
	return 0;
}

int bpfcol_layout_at(struct bpfcol *col, int dirfd,
		     struct memcg_layout *ret_layout,
		     const int64_t (**ret_raw)[MR_ARR_WORDS])
{
	union bpf_iter_link_info linfo;
	LIBBPF_OPTS(bpf_link_create_opts, opts, .iter_info = &linfo,
		    .iter_info_len = sizeof(linfo));
	struct memcg_sum sum;
	struct bpfcol_why w;
	int link, r;

	if (!col->skel || !col->skel->bss || dirfd < 0)
		return -ENOENT;
	memset(&linfo, 0, sizeof(linfo));
	linfo.cgroup.cgroup_fd = (uint32_t)dirfd;
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	link = bpf_link_create(bpf_program__fd(col->skel->progs.memcg_iter), 0,
			       BPF_TRACE_ITER, &opts);
	if (link < 0)
		return -errno;
	/* bpfcol_walk sets the chunk afresh before every pass. */
	col->skel->data_chunk->chunk = (struct memcg_chunk){ .self_only = 1 };
	r = walk_chunk(link, &sum);
	close(link);
	/* The records are this group's now: none is the start's. */
	col->nread = 0;
	col->open_s = 0;
	if (r)
		return r;
	if (sum.groups != 1)
		return -ENOENT;
	r = start_memcg(col, &w);
	if (r <= 0)
		return r < 0 ? r : -ENOENT;
	return bpfcol_layout(col, ret_layout, ret_raw);
}

unsigned long bpfcol_pagesize(const struct bpfcol *col)
{
	return col->pagesize;
}

int bpfcol_read(struct bpfcol *col, size_t *ret_n, struct bpfcol_why *ret_why)
{
	struct memcg_sum sum;
	int r;

	why(ret_why, BPFCOL_OK, "%s", "");
	if (col->open_s > 0 && clock_mono() - col->open_s < FRESH_S) {
		sum = col->open_sum;
	} else {
		if (col->skel && col->skel->bss)
			col->skel->bss->node_src = 0;
		r = bpfcol_fit(col, &sum, ret_why);
		if (r)
			return r;
	}
	col->open_s = 0;
	col->nread = 0;
	r = sum.groups == 0 ? 0 : start_memcg(col, ret_why);
	if (r < 0)
		return r;
	if (r == 0) {
		why(ret_why, BPFCOL_START,
		    "the start group is gone or not a memory cgroup");
		return -ENOENT;
	}
	col->nread = sum.groups;
	*ret_n = sum.groups;
	return 0;
}

int bpfcol_record(struct bpfcol *col, size_t i, struct bpfcol_rec *ret)
{
	int r;

	if (i >= col->nread) {
		memset(ret, 0, sizeof(*ret));
		ret->name = "";
		return 0;
	}
	r = bpfcol_convert(col, i, ret);
	if (r)
		return r;
	if (!col->v2 && ret->level == 0 && (ret->have & MR_BIT(SWAPPINESS)))
		ret->v[MR_SWAPPINESS] = (uint64_t)vm_swappiness();
	return 0;
}

int bpfcol_nodes(struct bpfcol *col, size_t i,
		 int64_t (*ret)[MR_NLRU], int64_t (*ret_hier)[MR_NLRU])
{
	const struct memcg_stat *st;
	uint64_t n;

	if (i >= col->nread || i >= col->stat_cap ||
	    !(col->want & MR_BIT(ST_NODES)))
		return -1;
	if (!col->stat_nodes)
		return -1;
	st = stat_of(col, i);
	if (!st || !(st->have & MS_BIT(ST_NODES)))
		return -1;
	n = (uint64_t)st->v[MR_ST_NODES - MR_FIRST_STAT];
	if (n > MR_NODES)
		n = MR_NODES;
	memcpy(ret, st->node, n * sizeof(st->node[0]));
	if (ret_hier)
		memcpy(ret_hier, st->hnode, n * sizeof(st->hnode[0]));
	return (int)n;
}

unsigned bpfcol_node_src(const struct bpfcol *col)
{
	return col->skel && col->skel->bss ? col->skel->bss->node_src : 0;
}

unsigned bpfcol_node_ids(const struct bpfcol *col)
{
	return col->nodes;
}

void bpfcol_capacity(const struct bpfcol *col, size_t *ret_groups,
		     size_t *ret_map_bytes)
{
	*ret_groups = col->rec_cap;
	*ret_map_bytes = col->recs.size + col->names.size;
}

void bpfcol_chunk_hook(struct bpfcol *col,
		       void (*fn)(void *arg, unsigned chunks), void *arg)
{
	col->hook = fn;
	col->hook_arg = arg;
}

void bpfcol_chunks(const struct bpfcol *col, struct bpfcol_chunks *ret)
{
	*ret = col->chunks;
}

uint32_t bpfcol_verified(const struct bpfcol *col)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	if (!col->skel)
		return 0;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(col->skel->progs.memcg_iter),
				   &info, &len) < 0)
		return 0;
	return info.verified_insns;
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
