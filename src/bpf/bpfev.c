/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfev.c - loads src/bpf/reclaim.bpf.c through its skeleton (reclaim.skel.h,
 * which bpftool gen skeleton makes at build time: the object's bytes,
 * embedded in the binary, and typed pointers to its maps, programs and
 * data), attaches its three tracepoint programs and reads their maps.
 * See bpfev.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/btf.h>
#include <linux/capability.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfev.h"
#include "bpflib.h"
#include "xalloc.h"
#include "reclaim_rec.h"
/* After reclaim_rec.h: the skeleton's .rodata is a struct reclaim_cfg,
 * whose size its _Static_assert checks against the object's BTF. */
#include "reclaim.skel.h"

/*
 * Valgrind (3.19) does not know bpf()'s batch lookup: what the kernel
 * wrote would be taken as never written.  Said to it where its header is;
 * nothing otherwise.
 */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define KERNEL_WROTE(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#endif
#endif
#ifndef KERNEL_WROTE
#define KERNEL_WROTE(p, n) ((void)0)
#endif

/* The kernel's names of enum bpfev_item, in its order. */
#define ITEM_NAME(slot, name, kind) #name,
static const char *const item_names[BPFEV_NITEMS] = {
	RECLAIM_ITEMS(ITEM_NAME)
};
#undef ITEM_NAME

/*
 * The tracepoints every kernel needs (6.13+), found by their BTF typedefs
 * (btf_trace_NAME); mod_memcg_lruvec_state only where the items are node
 * stats (7.3+): its program, lruvec_state, is then loaded instead of
 * count_event.
 */
static const char *const tp_names[] = {
	"count_memcg_events", "mm_vmscan_lru_shrink_inactive", "memcg_flush_stats",
};
#define NTPS (sizeof(tp_names) / sizeof(tp_names[0]))

/* What reclaim stalls need; without them the stall figures are not
 * available and the rest loads. */
static const char *const stall_tps[] = {
	"mm_vmscan_direct_reclaim_begin", "mm_vmscan_direct_reclaim_end",
	"mm_vmscan_memcg_reclaim_begin", "mm_vmscan_memcg_reclaim_end",
};
#define NSTALL_TPS (sizeof(stall_tps) / sizeof(stall_tps[0]))

/* What soft-limit reclaim's figures need (optional likewise). */
static const char *const soft_tps[] = {
	"mm_vmscan_memcg_softlimit_reclaim_begin",
	"mm_vmscan_memcg_softlimit_reclaim_end",
};
#define NSOFT_TPS (sizeof(soft_tps) / sizeof(soft_tps[0]))

struct bpfev {
	struct reclaim *skel;	/* the object, its maps, programs and links */
	int groups_fd;
	int sys_fd;
	uint64_t epoch;		/* the prio_min interval now counting */
	uint32_t items;		/* bits of enum bpfev_item the kernel has */
	bool node_items;	/* they are enum node_stat_item (7.3+) */
	bool stalls;		/* the vmscan reclaim begin/end tracepoints */
	bool soft;		/* the softlimit_reclaim begin/end ones */
	int ncpus;
	struct reclaim_sys *percpu;	/* one lookup of the per-CPU "sys" */
	struct bpfev_count *groups;
	size_t groups_cap;
	uint64_t *keys;			/* one batch lookup of "groups" */
	struct reclaim_val *vals;
	size_t batch_cap;
};

__attribute__((format(printf, 3, 4)))
static void why(struct bpfev_why *w, enum bpfev_reason reason,
		const char *fmt, ...)
{
	va_list ap;

	w->reason = reason;
	va_start(ap, fmt);
	vsnprintf(w->text, sizeof(w->text), fmt, ap);
	va_end(ap);
}

/*
 * The running kernel's numbers of the counted items (enum vm_event_item,
 * which differs between versions and configurations) as cfg->slot_of[];
 * sets ev->items.  -ENOENT: the kernel has none of them.
 */
static int resolve_items(struct bpfev *ev, const struct btf *btf,
			 struct reclaim_cfg *cfg, struct bpfev_why *w)
{
	long num[BPFEV_NITEMS];
	long lo = -1, hi = -1;
	const struct btf_type *t;
	const struct btf_enum *e;
	unsigned int i, k, vlen;
	int id, pass;

	/* Events up to 7.2; node stats (counted per lruvec) since 7.3. */
	for (pass = 0; pass < 2 && lo < 0; pass++) {
		id = btf__find_by_name_kind(btf, pass ? "node_stat_item" : "vm_event_item",
					    BTF_KIND_ENUM);
		if (id < 0) {
			if (pass)
				break;
			why(w, BPFEV_TOO_OLD, "the kernel's BTF has no enum vm_event_item");
			return -ENOENT;
		}
		ev->node_items = pass == 1;
		t = btf__type_by_id(btf, id);
		e = btf_enum(t);
		vlen = btf_vlen(t);
		for (k = 0; k < BPFEV_NITEMS; k++) {
			num[k] = -1;
			for (i = 0; i < vlen; i++)
				if (strcmp(btf__name_by_offset(btf, e[i].name_off),
					   item_names[k]) == 0 && e[i].val >= 0) {
					num[k] = e[i].val;
					break;
				}
			if (num[k] < 0)
				continue;
			if (lo < 0 || num[k] < lo)
				lo = num[k];
			if (num[k] > hi)
				hi = num[k];
		}
	}
	if (lo < 0) {
		why(w, BPFEV_TOO_OLD, "the kernel counts no PGSCAN or PGSTEAL events");
		return -ENOENT;
	}
	if (hi - lo >= RE_ITEM_SPAN) {
		why(w, BPFEV_LOAD_REFUSED,
		    "the kernel's PGSCAN and PGSTEAL items are %ld apart, more than %d",
		    hi - lo, RE_ITEM_SPAN);
		return -ERANGE;
	}
	memset(cfg->slot_of, 0, sizeof(cfg->slot_of));
	cfg->item_lo = (uint32_t)lo;
	ev->items = 0;
	for (k = 0; k < BPFEV_NITEMS; k++)
		if (num[k] >= 0) {
			cfg->slot_of[num[k] - lo] = (uint8_t)(k + 1);
			ev->items |= 1U << k;
		}
	return 0;
}

/* The maps at the load: the groups' hash allocates as groups reclaim,
 * the per-CPU arrays are a few pages. */
#define BPFEV_MAPS_BYTES	(1U << 20)

/* The kernel's BTF: the tracepoints (6.13+) and the item numbers. */
static int inspect_kernel(struct bpfev *ev, struct reclaim_cfg *cfg,
			  struct bpfev_why *w)
{
	char name[64];
	struct btf *btf;
	unsigned int i;
	int r;

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		r = -errno;
		why(w, BPFEV_NO_BTF, "%s", bpflib_btf_error(r));
		return r;
	}
	for (i = 0; i < NTPS; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", tp_names[i]);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) < 0) {
			why(w, BPFEV_TOO_OLD,
			    "the kernel has no %s tracepoint (Linux 6.13 or later)",
			    tp_names[i]);
			btf__free(btf);
			return -EOPNOTSUPP;
		}
	}
	/* Reclaim stalls where the kernel has all four (optional). */
	ev->stalls = true;
	for (i = 0; i < NSTALL_TPS; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", stall_tps[i]);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) < 0)
			ev->stalls = false;
	}
	ev->soft = true;
	for (i = 0; i < NSOFT_TPS; i++) {
		snprintf(name, sizeof(name), "btf_trace_%s", soft_tps[i]);
		if (btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) < 0)
			ev->soft = false;
	}
	r = resolve_items(ev, btf, cfg, w);
	if (!r && ev->node_items &&
	    btf__find_by_name_kind(btf, "btf_trace_mod_memcg_lruvec_state",
				   BTF_KIND_TYPEDEF) < 0) {
		why(w, BPFEV_TOO_OLD,
		    "the kernel counts PGSCAN and PGSTEAL as node stats but has no mod_memcg_lruvec_state tracepoint");
		r = -EOPNOTSUPP;
	}
	btf__free(btf);
	return r;
}

/* MEMCGTOP_BPFEV_FAIL: the failures tests ask for. */
static int injected(struct reclaim_cfg *cfg, struct bpfev_why *w)
{
	const char *f = getenv("MEMCGTOP_BPFEV_FAIL");

	if (!f || !*f)
		return 0;
	if (strcmp(f, "perm") == 0) {
		why(w, BPFEV_NOT_PERMITTED,
		    "not permitted: needs root (CAP_BPF and CAP_PERFMON)");
		return -EPERM;
	}
	if (strcmp(f, "btf") == 0)
		why(w, BPFEV_NO_BTF, "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
	else if (strcmp(f, "old") == 0)
		why(w, BPFEV_TOO_OLD,
		    "the kernel has no count_memcg_events tracepoint (Linux 6.13 or later)");
	else if (strcmp(f, "load") == 0) {
		cfg->inject_refusal = 1;
		return 0;
	} else {
		why(w, BPFEV_LOAD_REFUSED,
		    "MEMCGTOP_BPFEV_FAIL=%s: not perm, btf, old or load", f);
		return -EINVAL;
	}
	return -EOPNOTSUPP;
}

/*
 * The tracepoint of the first loaded program without a link: the one
 * reclaim__attach stopped at.  A tp_btf/NAME program attaches to NAME.
 */
static const char *unattached(const struct reclaim *skel)
{
	const struct bpf_object_skeleton *s = skel->skeleton;
	const char *sec, *slash;
	int i;

	for (i = 0; i < s->prog_cnt; i++) {
		if (!bpf_program__autoload(*s->progs[i].prog) || *s->progs[i].link)
			continue;
		sec = bpf_program__section_name(*s->progs[i].prog);
		slash = strchr(sec, '/');
		return slash ? slash + 1 : sec;
	}
	return "its tracepoint";
}

static int load(struct bpfev *ev, const struct reclaim_cfg *cfg,
		struct bpfev_why *w)
{
	struct reclaim *skel;
	int r;

	bpflib_keep_messages();
	skel = ev->skel = reclaim__open();
	if (!skel) {
		r = -errno;
		why(w, BPFEV_LOAD_REFUSED, "%s", bpflib_open_error(r));
		return r;
	}
	/* Until the load, rodata and bss are libbpf's copies of the
	 * sections' initial values; the load hands them to the kernel. */
	skel->rodata->cfg = *cfg;
	skel->bss->epoch = ev->epoch;
	/* One of count_event and lruvec_state, as the kernel counts. */
	bpf_program__set_autoload(skel->progs.count_event, !ev->node_items);
	bpf_program__set_autoload(skel->progs.lruvec_state, ev->node_items);
	bpf_program__set_autoload(skel->progs.direct_begin, ev->stalls);
	bpf_program__set_autoload(skel->progs.direct_end, ev->stalls);
	bpf_program__set_autoload(skel->progs.memcg_begin, ev->stalls);
	bpf_program__set_autoload(skel->progs.memcg_end, ev->stalls);
	bpf_program__set_autoload(skel->progs.soft_begin, ev->soft);
	bpf_program__set_autoload(skel->progs.soft_end, ev->soft);
	r = reclaim__load(skel);
	bpflib_loaded();
	if (r) {
		why(w, r == -EPERM ? BPFEV_NOT_PERMITTED : BPFEV_LOAD_REFUSED,
		    "%s", bpflib_load_error(r));
		return r;
	}
	/* Every loaded program (reclaim__attach passes over the other). */
	r = reclaim__attach(skel);
	if (r) {
		why(w, BPFEV_LOAD_REFUSED, "cannot attach to %s: %s",
		    unattached(skel), strerror(-r));
		return r;
	}
	ev->groups_fd = bpf_map__fd(skel->maps.groups);
	ev->sys_fd = bpf_map__fd(skel->maps.sys);
	return 0;
}

int bpfev_open(struct bpfev **ret_ev, struct bpfev_why *ret_why)
{
	struct reclaim_cfg cfg;
	struct bpfev *ev;
	int r;

	*ret_ev = NULL;
	why(ret_why, BPFEV_OK, "%s", "");
	memset(&cfg, 0, sizeof(cfg));
	ev = xcalloc(1, sizeof(*ev));
	/* Epoch 0 is what a fresh entry's zeroed prio[] says: never used. */
	ev->epoch = 1;
	r = injected(&cfg, ret_why);
	if (r)
		goto fail;
	if (!bpflib_permitted()) {
		why(ret_why, BPFEV_NOT_PERMITTED,
		    "not permitted: needs root (CAP_BPF and CAP_PERFMON)");
		r = -EPERM;
		goto fail;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		why(ret_why, BPFEV_NO_BTF,
		    "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		r = -EOPNOTSUPP;
		goto fail;
	}
	if (bpflib_memcg_short(bpflib_load_bytes(BPFEV_MAPS_BYTES),
			       ret_why->text, sizeof(ret_why->text))) {
		ret_why->reason = BPFEV_LOAD_REFUSED;
		r = -ENOMEM;
		goto fail;
	}
	bpflib_keep_messages();
	r = inspect_kernel(ev, &cfg, ret_why);
	if (r)
		goto fail;
	cfg.own_tgid = (uint32_t)getpid();
	ev->ncpus = libbpf_num_possible_cpus();
	if (ev->ncpus <= 0) {
		r = ev->ncpus < 0 ? ev->ncpus : -EINVAL;
		why(ret_why, BPFEV_LOAD_REFUSED, "cannot count the CPUs: %s",
		    strerror(-r));
		goto fail;
	}
	ev->percpu = xcalloc((size_t)ev->ncpus, sizeof(*ev->percpu));
	r = load(ev, &cfg, ret_why);
	if (r)
		goto fail;
	*ret_ev = ev;
	return 0;
fail:
	bpfev_close(ev);
	return r;
}

uint32_t bpfev_items(const struct bpfev *ev)
{
	return ev->items;
}

int bpfev_stalls(const struct bpfev *ev)
{
	return ev->stalls;
}

int bpfev_soft(const struct bpfev *ev)
{
	return ev->soft;
}

static int by_id(const void *a, const void *b)
{
	const struct bpfev_count *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The per-CPU system figures, summed. */
static int read_sys(struct bpfev *ev, struct bpfev_sys *s)
{
	uint32_t zero = 0;
	int c, i;

	/* Per-CPU values are 8-byte aligned; struct reclaim_sys is u64s. */
	if (bpf_map_lookup_elem(ev->sys_fd, &zero, ev->percpu) != 0)
		return -errno;
	memset(s, 0, sizeof(*s));
	for (c = 0; c < ev->ncpus; c++) {
		const struct reclaim_sys *p = &ev->percpu[c];

		for (i = 0; i < BPFEV_NPRIO; i++) {
			s->scanned[i] += p->scanned[i];
			s->soft_scanned[i] += p->soft_scanned[i];
		}
		s->shrinks += p->shrinks;
		s->attributed += p->attributed;
		s->exact += p->exact;
		s->flushes += p->flushes;
		s->flushes_done += p->flushes_done;
		s->own_flushes += p->own_flushes;
		s->own_flushes_done += p->own_flushes_done;
		s->dropped += p->dropped;
	}
	return 0;
}

/* Room for at least WANT more entries after GOT in keys and vals. */
static void batch_room(struct bpfev *ev, size_t got, size_t want)
{
	size_t cap = ev->batch_cap ? ev->batch_cap : 256;

	while (cap - got < want)
		cap *= 2;
	if (cap == ev->batch_cap)
		return;
	ev->keys = xreallocarray(ev->keys, cap, sizeof(*ev->keys));
	ev->vals = xreallocarray(ev->vals, cap, sizeof(*ev->vals));
	ev->batch_cap = cap;
}

/*
 * The whole hash map in a few bpf() calls (batch lookups, Linux 5.6+;
 * the tracepoints need 6.13): every group memcgtop reads memory.stat of
 * has an entry, for its flush count.
 */
static int read_groups(struct bpfev *ev, size_t *ret_got)
{
	uint64_t token = 0;	/* the kernel's cursor: a bucket number */
	size_t got = 0, want = 256;
	bool first = true;
	__u32 count;
	int r;

	for (;;) {
		batch_room(ev, got, want);
		count = (__u32)(ev->batch_cap - got);
		r = bpf_map_lookup_batch(ev->groups_fd, first ? NULL : &token,
					 &token, ev->keys + got, ev->vals + got,
					 &count, NULL);
		KERNEL_WROTE(&token, sizeof(token));
		KERNEL_WROTE(&count, sizeof(count));
		KERNEL_WROTE(ev->keys + got, count * sizeof(*ev->keys));
		KERNEL_WROTE(ev->vals + got, count * sizeof(*ev->vals));
		/* ENOSPC: one bucket holds more than the room left. */
		if (r == -ENOSPC && want < 2 * RE_MAX_GROUPS) {
			want *= 2;
			continue;
		}
		if (r && r != -ENOENT)
			return r;
		got += count;
		first = false;
		if (r == -ENOENT) {
			*ret_got = got;
			return 0;
		}
	}
}

/* The lowest priority of interval e in a prio[] pair; -1: none. */
static int prio_in(const __u64 *slots, uint64_t e)
{
	return slots[e & 1] >> 8 == e ? (int)(slots[e & 1] & 0xff) : -1;
}

int bpfev_read(struct bpfev *ev, const struct bpfev_count **ret_groups,
	       size_t *ret_n, struct bpfev_sys *ret_sys)
{
	uint64_t e = ev->epoch;
	size_t n = 0, i;
	int r, k;

	/*
	 * The programs count the next interval's priorities in the other
	 * prio[] slot from now on; this one is read below.  An event that
	 * read the epoch just before the switch may land in it after the
	 * read: it shows in no interval.  The skeleton's bss is the .bss
	 * map, which libbpf mapped at the load (Linux 5.5+): the programs
	 * read the store at their next event.
	 */
	__atomic_store_n(&ev->skel->bss->epoch, e + 1, __ATOMIC_RELAXED);
	ev->epoch++;
	/*
	 * The host's counts right after the groups': the events between the
	 * two reads count in the host's and not in a group's, so a subtree's
	 * interval can outgrow the host's by what the gap held at its start
	 * less what it held at its end.  Right after, the gap is the two map
	 * reads alone, not the groups' conversion and sort.
	 */
	r = read_groups(ev, &n);
	if (!r)
		r = read_sys(ev, ret_sys);
	if (r)
		return r;
	if (n > ev->groups_cap) {
		ev->groups = xreallocarray(ev->groups, n, sizeof(*ev->groups));
		ev->groups_cap = n;
	}
	for (i = 0; i < n; i++) {
		const struct reclaim_val *v = &ev->vals[i];
		struct bpfev_count *g = &ev->groups[i];

		g->id = ev->keys[i];
		for (k = 0; k < BPFEV_NITEMS; k++)
			g->ev[k] = v->ev[k];
		for (k = 0; k < BPFEV_NPRIO; k++)
			g->ev[BPFEV_SCANNED + k] = v->scanned[k];
		g->ev[BPFEV_SOFT_SCAN] = v->soft_scan;
		g->ev[BPFEV_SOFT_STEAL] = v->soft_steal;
		g->flushes = v->flushes;
		g->flushes_done = v->flushes_done;
		g->stall_ns = v->stall_ns;
		g->prio_min = prio_in(v->prio, e);
		g->prio_min_kswapd = prio_in(v->prio_kswapd, e);
		g->prio_min_direct = prio_in(v->prio_direct, e);
		g->prio_min_proactive = prio_in(v->prio_proactive, e);
		g->prio_min_soft = prio_in(v->prio_soft, e);
	}
	if (n)
		qsort(ev->groups, n, sizeof(*ev->groups), by_id);
	*ret_groups = ev->groups;
	*ret_n = n;
	return 0;
}

int bpfev_forget(struct bpfev *ev, uint64_t id)
{
	return bpf_map_delete_elem(ev->groups_fd, &id) == 0 ? 0 : -errno;
}

void bpfev_close(struct bpfev *ev)
{
	if (!ev)
		return;
	reclaim__destroy(ev->skel);
	free(ev->percpu);
	free(ev->groups);
	free(ev->keys);
	free(ev->vals);
	free(ev);
}

struct id_index {
	uint64_t id;
	size_t i;
};

static int by_id_index(const void *a, const void *b)
{
	const struct id_index *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_depth_desc(const void *a, const void *b, void *depth)
{
	const size_t *d = depth;
	size_t x = d[*(const size_t *)a], y = d[*(const size_t *)b];

	return x > y ? -1 : x < y;
}

int bpfev_subtree_sums(struct bpfev_node *nodes, size_t n)
{
	struct id_index *ids = NULL, key, *f;
	size_t *parent = NULL, *depth = NULL, *order = NULL, *path = NULL;
	size_t i, j, len, none = (size_t)-1;
	int r, k;

	if (n == 0)
		return 0;
	ids = xcalloc(n, sizeof(*ids));
	parent = xcalloc(n, sizeof(*parent));
	depth = xcalloc(n, sizeof(*depth));
	order = xcalloc(n, sizeof(*order));
	path = xcalloc(n, sizeof(*path));
	for (i = 0; i < n; i++) {
		ids[i].id = nodes[i].id;
		ids[i].i = i;
	}
	qsort(ids, n, sizeof(*ids), by_id_index);
	r = -EINVAL;
	for (i = 1; i < n; i++)
		if (ids[i].id == ids[i - 1].id)
			goto out;
	for (i = 0; i < n; i++) {
		key.id = nodes[i].parent_id;
		f = bsearch(&key, ids, n, sizeof(*ids), by_id_index);
		parent[i] = f ? f->i : none;
		depth[i] = none;
	}
	/* Depths by walking up to a node whose depth is known; > n: a cycle. */
	for (i = 0; i < n; i++) {
		for (len = 0, j = i; j != none && depth[j] == none; j = parent[j]) {
			if (len == n)
				goto out;
			path[len++] = j;
		}
		while (len--) {
			size_t p = parent[path[len]];

			depth[path[len]] = p == none ? 0 : depth[p] + 1;
		}
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_depth_desc, depth);
	/* Deepest first: a node holds its whole subtree when it is added up. */
	for (i = 0; i < n; i++) {
		size_t c = order[i], p = parent[c];

		if (p != none)
			for (k = 0; k < BPFEV_NSUM; k++)
				nodes[p].ev[k] += nodes[c].ev[k];
	}
	r = 0;
out:
	free(ids);
	free(parent);
	free(depth);
	free(order);
	free(path);
	return r;
}
