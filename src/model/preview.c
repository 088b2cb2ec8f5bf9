/* SPDX-License-Identifier: GPL-2.0-or-later */
/* preview.c - what a knob's change will make the kernel do (preview.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fmt.h"
#include "model.h"
#include "parse.h"
#include "preview.h"

const char *preview_word(enum preview_outcome o)
{
	static const char *const w[] = {
		[PV_NOTHING] = "nothing", [PV_FITS] = "fits",
		[PV_EBUSY] = "ebusy", [PV_OOM] = "oom",
		[PV_THROTTLE] = "throttle", [PV_EAGAIN] = "eagain",
	};

	return w[o];
}

const char *preview_part_name(enum preview_part p)
{
	static const char *const n[PP_NR] = {
		[PP_INACTIVE_FILE] = "inactive_file",
		[PP_ACTIVE_FILE] = "active_file", [PP_SLAB] = "slab",
		[PP_DIRTY] = "dirty", [PP_ANON] = "anon",
	};

	return n[p];
}

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

int64_t preview_badness(uint64_t rss_pages, uint64_t swap_pages, int oom_adj,
			uint64_t totalpages)
{
	/* oom_badness: adj *= totalpages / 1000, the division first. */
	if (oom_adj <= -1000)
		return -1;
	return (int64_t)(rss_pages + swap_pages) +
		(int64_t)oom_adj * (int64_t)(totalpages / 1000);
}

/*
 * What reclaim can take, split as it takes it: get_scan_count scans file
 * only when the group has no swap room or swappiness 0 (and v1's memsw
 * limit reclaims without swapping, as swapping does not lower memory+swap);
 * shrink_folio_list frees clean cache at once and dirty or writeback cache
 * only after its I/O (it starts the flushers and moves it on); the
 * descendants' memory.min is never taken (mem_cgroup_calculate_protection:
 * the reclaim root's own protection does not count).
 */
static void reclaim_parts(const struct preview_in *in, struct preview *p)
{
	uint64_t dirty = in->dirty + in->writeback;
	uint64_t din = min64(dirty, in->inactive_file);
	uint64_t dact = min64(dirty - din, in->active_file);
	uint64_t total = 0;

	p->part[PP_INACTIVE_FILE] = in->inactive_file - din;
	p->part[PP_ACTIVE_FILE] = in->active_file - dact;
	p->part[PP_DIRTY] = din + dact;
	p->part[PP_SLAB] = in->version == 2 ? in->slab_reclaimable : 0;
	p->part[PP_ANON] = in->knob != PK_MEMSW && in->swappiness > 0 ?
		min64(in->anon_lru, in->swap_room) : 0;
	for (int i = 0; i < PP_NR; i++) {
		total += p->part[i];
		if (PREVIEW_QUICK(i))
			p->quick += p->part[i];
		else
			p->slow += p->part[i];
	}
	p->reclaimable = total > in->protected ? total - in->protected : 0;
	p->shortfall = p->need > p->reclaimable ? p->need - p->reclaimable : 0;
	if (p->need > p->part[PP_INACTIVE_FILE])
		p->active_taken = min64(p->need - p->part[PP_INACTIVE_FILE],
					p->part[PP_ACTIVE_FILE]);
}

/* The new effective protection of the parent's children, before and after
 * the group's setting changes (page_counter.c effective_protection, in
 * pages as the kernel counts; a top-level group has its own setting). */
static void protections(const struct preview_in *in, struct preview *p)
{
	uint64_t page = in->page ? in->page : 4096;
	uint64_t pcmax = (uint64_t)INT64_MAX / page;
	uint64_t sum[2] = { 0, 0 }, set[2];

#define PAGES(v) ((v) == VAL_MAX ? pcmax : (v) / page)
	p->nsib = in->nsib < PREVIEW_SIBLINGS ? in->nsib : PREVIEW_SIBLINGS;
	for (size_t i = 0; i < p->nsib; i++)
		for (int a = 0; a < 2; a++) {
			uint64_t s = a && i == in->self ?
				(in->unlimited ? VAL_MAX : in->value) :
				in->sib_setting[i];

			sum[a] += min64(PAGES(in->sib_usage[i]), PAGES(s));
		}
	for (size_t i = 0; i < p->nsib; i++) {
		uint64_t *out[2] = { &p->eff_before[i], &p->eff_after[i] };

		set[0] = in->sib_setting[i];
		set[1] = i == in->self ? (in->unlimited ? VAL_MAX : in->value) :
			set[0];
		for (int a = 0; a < 2; a++) {
			uint64_t use = PAGES(in->sib_usage[i]), e;

			if (use == 0)
				e = 0;
			else if (in->top_level)
				e = PAGES(set[a]);
			else
				e = model_effective_protection(use,
					PAGES(in->parent_usage), PAGES(set[a]),
					PAGES(in->parent_eff), sum[a],
					in->recursive);
			*out[a] = e >= pcmax ? VAL_MAX : e * page;
		}
	}
#undef PAGES
}

/* v1's soft-limit tree is ordered by excess, the largest reclaimed first
 * (mem_cgroup_largest_soft_limit_node); a group without excess is not in
 * it. */
static void soft(const struct preview_in *in, struct preview *p)
{
	p->soft_excess = !in->unlimited && in->usage > in->value ?
		in->usage - in->value : 0;
	if (!p->soft_excess)
		return;
	p->soft_rank = 1;
	for (size_t i = 0; i < in->ngroups; i++)
		if (i != in->soft_self && in->soft_excess[i] > p->soft_excess)
			p->soft_rank++;
}

void preview_compute(const struct preview_in *in, struct preview *ret)
{
	memset(ret, 0, sizeof(*ret));
	switch (in->knob) {
	case PK_LIMIT:
	case PK_HIGH:
	case PK_MEMSW:
	case PK_RECLAIM:
		if (in->knob == PK_RECLAIM)
			ret->need = in->value;
		else if (!in->unlimited && in->usage > in->value)
			ret->need = in->usage - in->value;
		reclaim_parts(in, ret);
		if (!ret->need)
			ret->outcome = PV_NOTHING;
		else if (!ret->shortfall)
			ret->outcome = PV_FITS;
		else if (in->knob == PK_HIGH)
			ret->outcome = PV_THROTTLE;
		else if (in->knob == PK_RECLAIM)
			ret->outcome = PV_EAGAIN;
		else
			ret->outcome = in->version == 1 ? PV_EBUSY : PV_OOM;
		return;
	case PK_LOW:
	case PK_MIN:
		protections(in, ret);
		return;
	case PK_SOFT:
		soft(in, ret);
		return;
	case PK_OTHER:
		return;
	}
}

void preview_sentence(const struct preview_in *in, const struct preview *p,
		      char *buf, size_t len)
{
	char n[32], r[32], s[32], a[32];

	fmt_bytes(n, sizeof(n), p->need);
	fmt_bytes(r, sizeof(r), p->reclaimable);
	fmt_bytes(s, sizeof(s), p->shortfall);
	fmt_bytes(a, sizeof(a), p->active_taken);
	switch (p->outcome) {
	case PV_FITS:
		snprintf(buf, len, "the kernel reclaims %s, %s%s%s%s", n,
			 p->need <= p->part[PP_INACTIVE_FILE] ?
			 "inactive file cache" : p->need <= p->quick ?
			 "file cache" : "some of it only after I/O (dirty "
			 "cache, anon to swap)",
			 p->active_taken ? "; " : "", p->active_taken ? a : "",
			 p->active_taken ? " from the active file list: "
			 "refaults likely if it is in use" : "");
		return;
	case PV_EBUSY:
		snprintf(buf, len, "reclaim can free %s of the %s needed: the "
			 "write fails with EBUSY and the limit stays", r, n);
		return;
	case PV_OOM:
		if (in->oom_group)
			snprintf(buf, len, "%s beyond what reclaim can free: the "
				 "kernel kills every process of the group "
				 "(memory.oom.group)", s);
		else if (in->victim.pid) {
			char v[32];

			fmt_bytes(v, sizeof(v), in->victim.size);
			snprintf(buf, len, "%s beyond what reclaim can free: the "
				 "kernel OOM-kills in the group, likely pid %d "
				 "(%.60s, %s)", s, in->victim.pid,
				 in->victim.cmd, v);
		} else {
			snprintf(buf, len, "%s beyond what reclaim can free: the "
				 "kernel OOM-kills in the group (no process "
				 "there now)", s);
		}
		return;
	case PV_THROTTLE:
		snprintf(buf, len, "%s beyond what reclaim can free: the kernel "
			 "reclaims what it can and slows the group's "
			 "allocations; it never kills for memory.high", s);
		return;
	case PV_EAGAIN:
		snprintf(buf, len, "reclaim can free %s of the %s asked: the "
			 "write fails with EAGAIN after reclaiming what it can",
			 r, n);
		return;
	case PV_NOTHING:
		break;
	}
	switch (in->knob) {
	case PK_SOFT:
		if (p->soft_excess) {
			fmt_bytes(s, sizeof(s), p->soft_excess);
			snprintf(buf, len, "no reclaim now: under global pressure "
				 "the group's excess %s makes it number %zu of "
				 "the soft-limit tree (1 is reclaimed first)", s,
				 p->soft_rank);
		} else {
			snprintf(buf, len, "no reclaim now: the group is within "
				 "its soft limit and out of the soft-limit tree");
		}
		return;
	case PK_LOW:
	case PK_MIN:
		snprintf(buf, len, "no reclaim now: the group's and its "
			 "siblings' effective %s change as shown",
			 in->knob == PK_LOW ? "low" : "min");
		return;
	case PK_OTHER:
		snprintf(buf, len, "no reclaim now: the change applies at the "
			 "next reclaim or charge");
		return;
	default:
		snprintf(buf, len, "no reclaim now: usage is at or below the "
			 "new value");
		return;
	}
}
