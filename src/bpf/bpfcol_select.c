/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpfcol_select.c - what the program reads at each group: the slots
 * asked for and the proven words of each statistic (see bpfcol_int.h). */
#include <string.h>

#include "bpfcol_int.h"

/* The slots asked for, as the program reads them: the record's and the
 * stat slots', a __u64 each. */
void bpfcol_set_want(struct bpfcol *col)
{
	col->skel->data_want->want = (__u64)(col->want & (MR_SET(MR_FIRST_STAT) - 1));
	col->skel->data_want->want_stat = mr_stat_bits(col->want);
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
		bpfcol_grow_stats(col);
	if (col->skel)
		bpfcol_set_want(col);
	bpfcol_apply_sels(col);
	return 0;
}

/*
 * The selection the program reads: the slots asked for only, and of each
 * array the words up to their last (a view of the LRU lists reads five
 * words of state[] a group, not every word proven).
 */
void bpfcol_apply_sels(struct bpfcol *col)
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
	bpfcol_apply_sels(col);
}
