/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpfcol_convert.c - a record of the pass as the cgroup files show it
 * (see bpfcol_int.h). */
#include <stdio.h>
#include <string.h>

#include "bpfcol_int.h"

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
	const struct memcg_rec *r = bpfcol_rec_of(col, i);
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
		const char *name = bpfcol_win_at(col, &col->names,
							 r->name_off, r->name_len);

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
	if (i < col->stat_cap && !(st = bpfcol_stat_of(col, i)))
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
	st = bpfcol_stat_of(col, i);
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
