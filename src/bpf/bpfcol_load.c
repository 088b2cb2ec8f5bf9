/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfcol_load.c - loads src/bpf/memcg_iter.bpf.c through its skeleton
 * (memcg_iter.skel.h, which bpftool gen skeleton makes at build time: the
 * object's bytes, embedded in the binary, and typed pointers to its maps,
 * program and data), attaches it and sizes its maps to the tree.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <linux/btf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpfcol_int.h"
#include "bpflib.h"
/* The same program built with the kernel's memcg kfuncs: its object is
 * opened through memcg_iter's skeleton, whose sections it shares (the
 * build compares the two skeletons' structs); its own functions are not
 * called. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "memcg_iter_kf.skel.h"
#pragma GCC diagnostic pop

void bpfcol_unload(struct bpfcol *col)
{
	bpfcol_win_close(&col->recs);
	bpfcol_win_close(&col->names);
	bpfcol_win_close(&col->stats);
	memcg_iter__destroy(col->skel);
	col->skel = NULL;
}

/* Maps the first window of each map now, so that a kernel refusing the
 * mapping at all fails the load, not a read. */
int bpfcol_map_windows(struct bpfcol *col)
{
	struct memcg_iter *skel = col->skel;

	col->recs.fd = bpf_map__fd(skel->maps.recs);
	col->stats.fd = bpf_map__fd(skel->maps.stats);
	col->names.fd = bpf_map__fd(skel->maps.names);
	col->recs.size = bpfcol_page_round((size_t)col->rec_cap *
				    sizeof(struct memcg_rec), col->pagesize);
	col->names.size = bpfcol_page_round(col->names_cap, col->pagesize);
	col->stats.size = bpfcol_page_round((size_t)col->stat_cap * bpfcol_stat_size(col),
				     col->pagesize);
	col->map_err = 0;
	if (!bpfcol_win_at(col, &col->recs, 0, 1) || !bpfcol_win_at(col, &col->stats, 0, 1) ||
	    !bpfcol_win_at(col, &col->names, 0, 1))
		return col->map_err;
	return 0;
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
int bpfcol_load(struct bpfcol *col, struct bpfcol_why *w)
{
	union bpf_iter_link_info linfo;
	LIBBPF_OPTS(bpf_iter_attach_opts, aopts, .link_info = &linfo,
		    .link_info_len = sizeof(linfo));
	struct memcg_iter *skel;
	uint64_t maps = (uint64_t)col->rec_cap * sizeof(struct memcg_rec) +
		col->names_cap + (uint64_t)col->stat_cap * bpfcol_stat_size(col);
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
		bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "%s", bpflib_open_error(r));
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
	bpfcol_set_want(col);
	bpfcol_apply_sels(col);
	if ((r = bpf_map__set_max_entries(skel->maps.recs, col->rec_cap)) ||
	    (r = bpf_map__set_max_entries(skel->maps.stats, col->stat_cap)) ||
	    (r = bpf_map__set_value_size(skel->maps.stats,
					 (__u32)bpfcol_stat_size(col))) ||
	    (r = bpf_map__set_value_size(skel->maps.names, col->names_cap))) {
		bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "cannot size the maps: %s",
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
		bpfcol_why_set(w, r == -EPERM ? BPFCOL_NOT_PERMITTED : BPFCOL_LOAD_REFUSED,
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
		bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "cannot attach the cgroup iterator: %s",
		    strerror(-r));
		goto fail;
	}
	if ((r = bpfcol_map_windows(col)) != 0) {
		bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "cannot map the records: %s",
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
	b = bpfcol_page_round(b, col->pagesize);
	*ret_recs = g < BPFCOL_MAX_GROUPS ? (uint32_t)g : BPFCOL_MAX_GROUPS;
	*ret_names = b < BPFCOL_MAX_NAMES ? (uint32_t)b : BPFCOL_MAX_NAMES;
}

void bpfcol_size(struct bpfcol *col, uint64_t groups, uint64_t names)
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

int bpfcol_oversized(const struct bpfcol *col,
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

/*
 * One walk, into maps big enough: when the summary says the walk needed
 * more groups or name bytes than the maps hold, they are made again for
 * that size plus a quarter, and the walk repeats.
 */
int bpfcol_fit(struct bpfcol *col, struct memcg_sum *ret_sum,
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
				bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "reading the cgroup "
				    "iterator: %s (RLIMIT_NOFILE is %llu)",
				    strerror(-r), (unsigned long long)rl.rlim_cur);
			else
				bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "reading the cgroup "
				    "iterator: %s", strerror(-r));
			return r;
		}
		if (ret_sum->flags & MR_SUM_NO_MEMCG) {
			bpfcol_why_set(w, BPFCOL_NO_MEMCG, "the kernel has no memory controller");
			return -EOPNOTSUPP;
		}
		if (ret_sum->groups <= col->rec_cap &&
		    ret_sum->names_used <= col->names_cap)
			return 0;
		if (tries == 2 || ret_sum->groups > BPFCOL_MAX_GROUPS ||
		    ret_sum->names_used > BPFCOL_MAX_NAMES - MR_NAME_MAX) {
			bpfcol_why_set(w, BPFCOL_TOO_MANY,
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
void bpfcol_grow_stats(struct bpfcol *col)
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
	bpfcol_win_drop(&recs);
	bpfcol_win_drop(&stats);
	bpfcol_win_drop(&names);
	memcg_iter__destroy(skel);
	col->open_s = 0;
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
