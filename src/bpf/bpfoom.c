/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfoom.c - loads src/bpf/oom.bpf.c through its skeleton (oom.skel.h),
 * attaches it to oom:mark_victim and reads its ring buffer.  See bpfoom.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/btf.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfoom.h"
#include "bpflib.h"
#include "xalloc.h"
#include "oom_rec.h"
#include "oom.skel.h"

/*
 * Descriptors left that the load asks for: it holds the BTF and the
 * object's at once, and keeps four (the ring buffer, its epoll, the
 * program and its link); the rest stays for the refreshes (a BPF pass
 * opens its iterator at each chunk, the files collector a group's files),
 * which the OOM kills are not worth running short for (measured under
 * tests/live/fdtiny.sh: 4 left too few at RLIMIT_NOFILE 23).
 */
#define OOM_LOAD_FDS	16

struct bpfoom {
	struct oom *skel;
	struct ring_buffer *ring;
	uint64_t page;		/* bytes a page */
	uint64_t no_limit;	/* PAGE_COUNTER_MAX: LONG_MAX / page */
	int64_t boot_to_wall_ns;	/* at this read: wall - boottime */
	void (*fn)(void *arg, const struct bpfoom_kill *kill);
	void *arg;
	int count;
};

/*
 * Whether the kernel's mark_victim passes the victim's task (6.3+:
 * btf_trace_mark_victim is void (*)(void *, struct task_struct *, uid_t);
 * before, the pid alone).
 */
static int has_task_arg(char *why, size_t whylen)
{
	const struct btf_type *t;
	const struct btf_param *p;
	struct btf *btf;
	int id, ok = 0;

	btf = btf__load_vmlinux_btf();
	if (!btf) {
		snprintf(why, whylen, "%s", bpflib_btf_error(-errno));
		return 0;
	}
	id = btf__find_by_name_kind(btf, "btf_trace_mark_victim",
				    BTF_KIND_TYPEDEF);
	t = id < 0 ? NULL : btf__type_by_id(btf, id);
	t = t ? btf__type_by_id(btf, t->type) : NULL;	/* the pointer */
	t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
	if (t && btf_is_func_proto(t) && btf_vlen(t) >= 2) {
		p = btf_params(t);
		t = btf__type_by_id(btf, p[1].type);
		t = t && btf_is_ptr(t) ? btf__type_by_id(btf, t->type) : NULL;
		ok = t && btf_is_struct(t) &&
			strcmp(btf__name_by_offset(btf, t->name_off),
			       "task_struct") == 0;
	}
	if (!ok)
		snprintf(why, whylen, "%s",
			 id < 0 ? "the kernel has no oom:mark_victim tracepoint" :
			 "the kernel's oom:mark_victim gives no task (Linux 6.3 or later)");
	btf__free(btf);
	return ok;
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct bpfoom *o = ctx;
	const struct oom_rec *r = data;
	struct bpfoom_kill k;

	if (size < sizeof(*r))
		return 0;
	memset(&k, 0, sizeof(k));
	k.wall_ms = ((int64_t)r->boot_ns + o->boot_to_wall_ns) / 1000000;
	k.id = r->id;
	k.pid = (int)r->tgid;
	memcpy(k.comm, r->comm, sizeof(k.comm));
	k.comm[sizeof(k.comm) - 1] = '\0';
	k.has_rss = r->has_mm != 0;
	k.rss = r->rss_pages * o->page;
	k.limit = r->limit_pages >= o->no_limit ? UINT64_MAX :
		r->limit_pages * o->page;
	o->fn(o->arg, &k);
	o->count++;
	return 0;
}

int bpfoom_open(struct bpfoom **ret_oom, char *why, size_t whylen)
{
	const char *f = getenv("MEMCGTOP_BPFOOM_FAIL");
	struct bpfoom *o;
	int r;

	*ret_oom = NULL;
	if (f && *f) {
		snprintf(why, whylen, "MEMCGTOP_BPFOOM_FAIL=%s", f);
		return -EPERM;
	}
	if (!bpflib_permitted()) {
		snprintf(why, whylen,
			 "not permitted: needs root (CAP_BPF and CAP_PERFMON)");
		return -EPERM;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		snprintf(why, whylen,
			 "the kernel has no BTF (/sys/kernel/btf/vmlinux)");
		return -EOPNOTSUPP;
	}
	/* A load that would not fit this process's memory cgroup would
	 * wake the OOM killer itself.  It comes first and is optional: it
	 * leaves room for the collector's load after it (as large). */
	if (bpflib_memcg_short(2 * bpflib_load_bytes(OOM_RING_BYTES), why,
			       whylen))
		return -ENOMEM;
	if (bpflib_fds_short(OOM_LOAD_FDS, why, whylen))
		return -EMFILE;
	bpflib_keep_messages();
	if (!has_task_arg(why, whylen))
		return -EOPNOTSUPP;
	o = xcalloc(1, sizeof(*o));
	o->page = (uint64_t)sysconf(_SC_PAGESIZE);
	o->no_limit = (uint64_t)INT64_MAX / o->page;
	o->skel = oom__open();
	if (!o->skel) {
		r = -errno;
		snprintf(why, whylen, "%s", bpflib_open_error(r));
		goto fail;
	}
	r = oom__load(o->skel);
	bpflib_loaded();
	if (r) {
		snprintf(why, whylen, "%s", bpflib_load_error(r));
		goto fail;
	}
	r = oom__attach(o->skel);
	if (r) {
		snprintf(why, whylen, "cannot attach to mark_victim: %s",
			 strerror(-r));
		goto fail;
	}
	o->ring = ring_buffer__new(bpf_map__fd(o->skel->maps.kills),
				   on_record, o, NULL);
	if (!o->ring) {
		r = -errno;
		snprintf(why, whylen, "cannot read the ring buffer: %s",
			 strerror(-r));
		goto fail;
	}
	*ret_oom = o;
	return 0;
fail:
	bpfoom_close(o);
	return r < 0 ? r : -EINVAL;
}

int bpfoom_read(struct bpfoom *o,
		void (*fn)(void *arg, const struct bpfoom_kill *kill),
		void *arg, uint64_t *ret_lost)
{
	int r;

	o->boot_to_wall_ns = clock_ns(CLOCK_REALTIME) - clock_ns(CLOCK_BOOTTIME);
	o->fn = fn;
	o->arg = arg;
	o->count = 0;
	r = ring_buffer__consume(o->ring);
	if (ret_lost)
		*ret_lost = __atomic_load_n(&o->skel->bss->lost, __ATOMIC_RELAXED);
	return r < 0 ? r : o->count;
}

void bpfoom_close(struct bpfoom *o)
{
	if (!o)
		return;
	ring_buffer__free(o->ring);
	oom__destroy(o->skel);
	free(o);
}
