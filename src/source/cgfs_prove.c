/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgfs_prove.c - which words of the kernel's per-memcg statistics are
 * which memory.stat values, proven before the BPF pass reads them.
 *
 * The pass reads memcg->vmstats (bpf/memcg_rec.h): arrays indexed by a
 * position that depends on the kernel's version and configuration (6.1:
 * the enums node_stat_item and vm_event_item; 6.5+ for events and 6.11+
 * for state: the position in the kernel's static tables
 * memcg_vm_event_stat[] and memcg_node_stat_items[], which no BTF
 * describes).  So no index is assumed.  Each refresh that wants a stat
 * slot reads the start group's memory.stat once (the one stats flush of
 * the refresh); the pass gives the start group's arrays whole; a slot is
 * proven when
 *   - by value: exactly one word, times the slot's unit (a page for
 *     sizes), equals the file's value, that value is not 0, and the same
 *     word was the one found the time before too (the LRU lists are the
 *     first five words of state[] on every kernel from 6.1 on: that
 *     word, when it holds the value, is taken at once); never for a sum
 *     (pgscan, pgsteal), which has no word of its own;
 *   - by rule, v1's pgscan and pgsteal, which memory.stat does not show:
 *     the word of PGFAULT proven by value in events[], then the enum's
 *     own index where events[] is indexed by the enum (its length is
 *     NR_VM_EVENT_ITEMS, 6.1), else the kernel's table puts every
 *     PGSCAN_* and then every PGSTEAL_* of the enum (kswapd, direct,
 *     khugepaged, proactive: those the enum has) just before PGFAULT
 *     (6.5 to 6.18), checked by its first two words being memory.stat's
 *     pgpgin and pgpgout.  v2 shows pgscan*: there the rule's words must
 *     also hold the file's values.
 * A word once proven stays proven (a kernel's layout does not change
 * while it runs).  A sum without a rule (7.x, where PGSCAN_* are node
 * items) is taken, for one refresh at a time, as its proven parts' words
 * while the start group's file shows it equal to them (by_parts).  A slot not proven whose value in the start group is 0
 * is 0 in every group below it (every value is a sum over a subtree, and
 * no part is below 0; an own list is within the group's hierarchical
 * one): the pass gives 0 for it without a word.  Any other slot is read
 * from the files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/bpfcol.h"
#include "cgfs_int.h"

_Static_assert(MR_ARR_WORDS == 128, "cgfs_int.h says 128");
#include "parse.h"
#include "xalloc.h"

#define ROWS_MAX	(MR_NSTAT + 4)

struct cgfs_prove {
	const struct cgfs_version *v;
	struct cgfs_stat_row rows[ROWS_MAX];
	size_t nrows;
	struct memcg_sels sels;
	mr_set proven;	/* MR_BIT of the selected slots */
	mr_set by_rule;	/* ... of those, by the events rule */
	mr_set by_kf;		/* ... of those, read through the kernel's
				 * memcg kfuncs (MR_SEL_KF) */
	mr_set zero;		/* 0 in the start group this refresh */
	mr_set cond;		/* sums selected from their parts for this
				 * refresh only (by_parts) */
	unsigned long unit;	/* the page size */
	/* The start group's values this refresh, by slot. */
	uint64_t val[MR_NSLOTS];
	mr_set has;
	uint64_t pgpg[2];	/* v1 total_pgpgin, total_pgpgout */
	int has_pgpg;
	/* The one word a search found last time, by slot: a search proves
	 * a word only when it finds the same one twice running (below). */
	signed char cand_arr[MR_NSLOTS];
	short cand_idx[MR_NSLOTS];
};

static const struct {
	int own, hier;
} own_of[] = {
	{ MR_ST_OWN_INACTIVE_ANON, MR_ST_INACTIVE_ANON },
	{ MR_ST_OWN_ACTIVE_ANON, MR_ST_ACTIVE_ANON },
	{ MR_ST_OWN_INACTIVE_FILE, MR_ST_INACTIVE_FILE },
	{ MR_ST_OWN_ACTIVE_FILE, MR_ST_ACTIVE_FILE },
};

/* The LRU lists: state[lru] on every kernel (enum lru_list's order). */
static int lru_index(int slot)
{
	static const int lru[] = {
		MR_ST_INACTIVE_ANON, MR_ST_ACTIVE_ANON, MR_ST_INACTIVE_FILE,
		MR_ST_ACTIVE_FILE, MR_ST_UNEVICTABLE,
	};

	for (int i = 0; i < 5; i++)
		if (lru[i] == slot)
			return i;
	for (size_t i = 0; i < sizeof(own_of) / sizeof(own_of[0]); i++)
		if (own_of[i].own == slot)
			return lru_index(own_of[i].hier);
	return -1;
}

/* The hierarchical slot that bounds slot (itself when it is one). */
static int hier_of(int slot)
{
	for (size_t i = 0; i < sizeof(own_of) / sizeof(own_of[0]); i++)
		if (own_of[i].own == slot)
			return own_of[i].hier;
	return slot;
}

static int is_own(int slot)
{
	return hier_of(slot) != slot;
}

struct cgfs_prove *cgfs_prove_new(const struct cgfs_version *v,
				  unsigned long pagesize)
{
	struct cgfs_prove *pr = xcalloc(1, sizeof(*pr));

	pr->v = v;
	pr->unit = pagesize;
	memset(pr->cand_arr, -1, sizeof(pr->cand_arr));
	pr->nrows = cgfs_stat_rows(v, pr->rows, ROWS_MAX);
	if (pr->nrows > ROWS_MAX)
		pr->nrows = ROWS_MAX;
	return pr;
}

void cgfs_prove_free(struct cgfs_prove *pr)
{
	free(pr);
}

struct kv {
	struct cgfs_prove *pr;
};

static void take(const char *key, size_t len, uint64_t val, void *ctx)
{
	struct cgfs_prove *pr = ctx;

	for (size_t i = 0; i < pr->nrows; i++) {
		const char *k = pr->rows[i].key;
		mr_set bit = MR_SET(pr->rows[i].slot);

		if (k && strlen(k) == len && memcmp(k, key, len) == 0 &&
		    !(pr->has & bit)) {
			pr->val[pr->rows[i].slot] = val;
			pr->has |= bit;
		}
	}
	if (len == 12 && memcmp(key, "total_pgpgin", 12) == 0) {
		pr->pgpg[0] = val;
		pr->has_pgpg |= 1;
	} else if (len == 13 && memcmp(key, "total_pgpgout", 13) == 0) {
		pr->pgpg[1] = val;
		pr->has_pgpg |= 2;
	}
}

static void select_words(struct cgfs_prove *pr, int slot, int arr,
			 const int *idx, int n)
{
	struct memcg_sel *s = &pr->sels.sel[slot - MR_FIRST_STAT];

	s->arr = (__u8)arr;
	s->n = (__u8)n;
	for (int k = 0; k < n; k++) {
		s->idx[k] = (__u8)idx[k];
		if (pr->sels.words[arr] < (__u32)idx[k] + 1)
			pr->sels.words[arr] = (__u32)idx[k] + 1;
	}
	pr->proven |= MR_SET(slot);
}

/*
 * Whether word i of array arr is another slot's, proven alone: one kernel
 * item a word, so it is not this slot's (a file's pages equal to its
 * inactive list's, while its active list is empty, hold the same value in
 * two words, one of them the list's).  A sum's words (by_parts, by rule)
 * are parts of another item, not counted.
 */
static int word_taken(const struct cgfs_prove *pr, int slot, int arr,
		      unsigned i)
{
	for (int s = MR_FIRST_STAT; s < MR_NSLOTS; s++) {
		const struct memcg_sel *sel = &pr->sels.sel[s - MR_FIRST_STAT];

		if (s != slot && (pr->proven & MR_SET(s)) &&
		    !(pr->cond & MR_SET(s)) && sel->n == 1 &&
		    sel->arr == arr && sel->idx[0] == i)
			return 1;
	}
	return 0;
}

/* By value: the one word of the slot's arrays that holds its value. */
static void by_value(struct cgfs_prove *pr, int slot,
		     const struct memcg_layout *lay,
		     const int64_t (*raw)[MR_ARR_WORDS])
{
	unsigned long unit = bpfcol_slot_unit((enum mr_slot)slot, pr->unit);
	uint64_t val = pr->val[slot];
	int arrs[2], found_arr = -1, found = -1, n = 0, lru;
	int64_t want;

	if (val == 0 || val % unit || val / unit > INT64_MAX)
		return;
	want = (int64_t)(val / unit);
	arrs[0] = is_own(slot) ? MR_ARR_STATE_LOCAL : MR_ARR_STATE;
	arrs[1] = is_own(slot) ? MR_ARR_EVENTS_LOCAL : MR_ARR_EVENTS;
	lru = lru_index(slot);
	if (lru >= 0 && lay->words[arrs[0]] > (unsigned)lru &&
	    raw[arrs[0]][lru] == want) {
		select_words(pr, slot, arrs[0], &lru, 1);
		return;
	}
	/*
	 * A search.  A sum (pgscan: every PGSCAN_* item) has no word of its
	 * own: one of its parts alone may hold the sum (no kswapd yet), and
	 * would be taken for it.  An array longer than the words read may
	 * hold the value's word past them, and a coincidence inside them
	 * would be taken for it.
	 */
	if (slot == MR_ST_PGSCAN || slot == MR_ST_PGSTEAL ||
	    lay->words[arrs[0]] > MR_ARR_WORDS ||
	    lay->words[arrs[1]] > MR_ARR_WORDS)
		return;
	for (int a = 0; a < 2; a++)
		for (unsigned i = 0; i < lay->words[arrs[a]]; i++)
			if (raw[arrs[a]][i] == want &&
			    !word_taken(pr, slot, arrs[a], i)) {
				found_arr = arrs[a];
				found = (int)i;
				n++;
			}
	/*
	 * The value's own word holds it, unless the value moved between the
	 * file's read and the walk (another reader's flush in between):
	 * then a word of another item that happens to hold the old value
	 * would be the one found.  So the same word must be the one found
	 * twice running, at two reads of a moving value or of a value at
	 * rest (which does not move between the read and the walk).
	 */
	if (n == 1 && pr->cand_arr[slot] == found_arr &&
	    pr->cand_idx[slot] == found) {
		select_words(pr, slot, found_arr, &found, 1);
		return;
	}
	pr->cand_arr[slot] = (signed char)(n == 1 ? found_arr : -1);
	pr->cand_idx[slot] = (short)(n == 1 ? found : -1);
}

/*
 * A value that is 0 cannot be proven by value; where its kernel item is
 * next to ones proven, its word is the neighbour's place: an LRU list
 * whose array has another list proven at its own place (state[lru]) with
 * a value that is not 0, the anon refaults just before the file refaults
 * (WORKINGSET_REFAULT_BASE + LRU_ANON, + LRU_FILE, adjacent in every
 * kernel's tables), a group's own list at the index of its hierarchical
 * one (state_local is indexed as state is).  The word must still hold
 * the file's value.
 */
static void by_neighbour(struct cgfs_prove *pr, int slot,
			 const struct memcg_layout *lay,
			 const int64_t (*raw)[MR_ARR_WORDS])
{
	unsigned long unit = bpfcol_slot_unit((enum mr_slot)slot, pr->unit);
	mr_set bit = MR_SET(slot);
	int lru = lru_index(slot), arr = -1, idx = -1;

	if ((pr->proven & bit) || !(pr->has & bit) || pr->val[slot] % unit)
		return;
	if (is_own(slot) && (pr->proven & MR_SET(hier_of(slot)))) {
		/* state_local is indexed as state is (one index table). */
		const struct memcg_sel *h =
			&pr->sels.sel[hier_of(slot) - MR_FIRST_STAT];

		if (h->n == 1 && h->arr == MR_ARR_STATE) {
			arr = MR_ARR_STATE_LOCAL;
			idx = h->idx[0];
		}
	} else if (lru >= 0) {
		arr = is_own(slot) ? MR_ARR_STATE_LOCAL : MR_ARR_STATE;
		for (size_t i = 0; i < pr->nrows && idx < 0; i++) {
			int o = pr->rows[i].slot, k = lru_index(o);
			const struct memcg_sel *s =
				&pr->sels.sel[o - MR_FIRST_STAT];

			if (k >= 0 && o != slot && (pr->proven & MR_SET(o)) &&
			    s->arr == arr && s->n == 1 && s->idx[0] == k &&
			    pr->val[o] != 0)
				idx = lru;
		}
	} else if (slot == MR_ST_REFAULT_ANON &&
		   (pr->proven & MR_BIT(ST_REFAULT_FILE))) {
		const struct memcg_sel *s =
			&pr->sels.sel[MR_ST_REFAULT_FILE - MR_FIRST_STAT];

		if (s->n == 1 && s->idx[0] > 0 && pr->val[MR_ST_REFAULT_FILE]) {
			arr = s->arr;
			idx = s->idx[0] - 1;
		}
	}
	if (idx < 0 || (unsigned)idx >= lay->words[arr] ||
	    raw[arr][idx] != (int64_t)(pr->val[slot] / unit))
		return;
	select_words(pr, slot, arr, &idx, 1);
}

/*
 * The events rule (see the head comment): the words of PGSCAN_* and
 * PGSTEAL_* in events[], kswapd, direct, khugepaged, proactive as the
 * enum has them, -1 where not; 0 or -1 when the rule does not hold.
 */
static int scan_words(const struct cgfs_prove *pr,
		      const struct memcg_layout *lay,
		      const int64_t (*raw)[MR_ARR_WORDS], int ret_scan[4],
		      int ret_steal[4])
{
	const struct memcg_sel *f = &pr->sels.sel[MR_ST_PGFAULT - MR_FIRST_STAT];
	int p, n = 0;

	if (!(pr->proven & MR_BIT(ST_PGFAULT)) || f->arr != MR_ARR_EVENTS ||
	    f->n != 1)
		return -1;
	p = f->idx[0];
	for (int k = 0; k < 4; k++)
		ret_scan[k] = ret_steal[k] = -1;
	if (lay->ev[MR_EV_NR_VM_EVENT_ITEMS] > 0 &&
	    lay->words[MR_ARR_EVENTS] ==
	    (unsigned)lay->ev[MR_EV_NR_VM_EVENT_ITEMS]) {
		/* Indexed by the enum. */
		if (lay->ev[MR_EV_PGFAULT] != p)
			return -1;
		for (int k = 0; k < 4; k++) {
			int sc = lay->ev[MR_EV_PGSCAN_KSWAPD + k];
			int st = lay->ev[MR_EV_PGSTEAL_KSWAPD + k];

			if (sc >= MR_ARR_WORDS || st >= MR_ARR_WORDS)
				return -1;
			ret_scan[k] = sc;
			ret_steal[k] = st;
		}
		return 0;
	}
	for (int k = 0; k < 4; k++)
		if (lay->ev[MR_EV_PGSCAN_KSWAPD + k] >= 0)
			n++;
	/* kswapd and direct at least; the first two words pgpgin and
	 * pgpgout where memory.stat shows them (v1). */
	if (n < 2 || p < 2 * n || lay->ev[MR_EV_PGSCAN_KSWAPD] < 0 ||
	    lay->ev[MR_EV_PGSCAN_DIRECT] < 0)
		return -1;
	if (cgfs_version_n(pr->v) == 1 &&
	    (pr->has_pgpg != 3 || raw[MR_ARR_EVENTS][0] != (int64_t)pr->pgpg[0] ||
	     raw[MR_ARR_EVENTS][1] != (int64_t)pr->pgpg[1]))
		return -1;
	for (int k = 0, i = 0; k < 4; k++) {
		if (lay->ev[MR_EV_PGSCAN_KSWAPD + k] < 0)
			continue;
		ret_scan[k] = p - 2 * n + i;
		ret_steal[k] = p - n + i;
		i++;
	}
	return 0;
}

static void by_rule(struct cgfs_prove *pr, const struct memcg_layout *lay,
		    const int64_t (*raw)[MR_ARR_WORDS])
{
	int scan[4], steal[4], sum_scan[4], sum_steal[4], ns = 0, nt = 0;
	struct {
		int slot, n;
		const int *idx;
	} want[6];

	if (scan_words(pr, lay, raw, scan, steal) < 0)
		return;
	for (int k = 0; k < 4; k++) {
		if (scan[k] >= 0)
			sum_scan[ns++] = scan[k];
		if (steal[k] >= 0)
			sum_steal[nt++] = steal[k];
	}
	want[0].slot = MR_ST_PGSCAN_KSWAPD; want[0].n = 1; want[0].idx = &scan[0];
	want[1].slot = MR_ST_PGSCAN_DIRECT; want[1].n = 1; want[1].idx = &scan[1];
	want[2].slot = MR_ST_PGSTEAL_KSWAPD; want[2].n = 1; want[2].idx = &steal[0];
	want[3].slot = MR_ST_PGSTEAL_DIRECT; want[3].n = 1; want[3].idx = &steal[1];
	want[4].slot = MR_ST_PGSCAN; want[4].n = ns; want[4].idx = sum_scan;
	want[5].slot = MR_ST_PGSTEAL; want[5].n = nt; want[5].idx = sum_steal;
	for (int i = 0; i < 6; i++) {
		mr_set bit = MR_SET(want[i].slot);
		int64_t sum = 0;

		if (pr->proven & bit)
			continue;
		for (int k = 0; k < want[i].n; k++)
			sum += raw[MR_ARR_EVENTS][want[i].idx[k]];
		/* Where the file shows it (v2), it must agree. */
		if ((pr->has & bit) && (pr->val[want[i].slot] == 0 ||
					sum != (int64_t)pr->val[want[i].slot]))
			continue;
		select_words(pr, want[i].slot, MR_ARR_EVENTS, want[i].idx,
			     want[i].n);
		pr->by_rule |= bit;
	}
}

/*
 * A sum (pgscan, pgsteal) from the words of its proven parts (kswapd,
 * direct), for this refresh only: while the start group's memory.stat
 * shows the sum equal to those parts' values, every other part
 * (khugepaged, proactive, or a part not proven yet) is 0 in the start
 * group, so 0 in every group below it, and the parts' words add up to
 * the sum in each.  Checked again at every refresh (cgfs_prove_update
 * drops these selections first).
 */
static void by_parts(struct cgfs_prove *pr, int sum, int part0, int part1)
{
	const int parts[2] = { part0, part1 };
	mr_set bit = MR_SET(sum);
	uint64_t acc = 0;
	int idx[MR_SEL_WORDS], n = 0, arr = -1;

	if ((pr->proven & bit) || !(pr->has & bit) || pr->val[sum] == 0)
		return;
	for (int i = 0; i < 2; i++) {
		int p = parts[i];
		const struct memcg_sel *s = &pr->sels.sel[p - MR_FIRST_STAT];

		if (!(pr->has & MR_SET(p)))
			return;
		if (!(pr->proven & MR_SET(p))) {
			if (pr->val[p] != 0)
				return;
			continue;
		}
		if ((arr >= 0 && s->arr != arr) || n + s->n > MR_SEL_WORDS)
			return;
		arr = s->arr;
		for (int k = 0; k < s->n; k++)
			idx[n++] = s->idx[k];
		acc += pr->val[p];
	}
	if (n == 0 || acc != pr->val[sum])
		return;
	select_words(pr, sum, arr, idx, n);
	pr->cond |= bit;
}

/*
 * The slots the program reads through the kernel's memcg kfuncs
 * (memcg_layout.kf), by the kernel's own enum items: what memory.stat
 * prints from the same counters, so nothing to prove; taken where the
 * start group's file shows the key.  A program without them (loaded again
 * after the one with them was refused) drops them: they are proven anew.
 */
static void by_kfunc(struct cgfs_prove *pr, const struct memcg_layout *lay)
{
	mr_set kf = mr_of_stat_bits(lay->kf);

	for (size_t i = 0; i < pr->nrows; i++) {
		int slot = pr->rows[i].slot;
		mr_set bit = MR_SET(slot);
		struct memcg_sel *s = &pr->sels.sel[slot - MR_FIRST_STAT];

		if ((pr->by_kf & bit) && !(kf & bit)) {
			pr->by_kf &= ~bit;
			pr->proven &= ~bit;
			s->n = 0;
		}
		if (!(kf & bit) || !(pr->has & bit) || (pr->by_kf & bit))
			continue;
		*s = (struct memcg_sel){ .arr = MR_SEL_KF, .n = 1 };
		pr->proven |= bit;
		pr->by_kf |= bit;
		pr->by_rule &= ~bit;
		pr->cond &= ~bit;
	}
}

int cgfs_prove_update(struct cgfs_prove *pr, const char *text, size_t len,
		      const struct memcg_layout *lay,
		      const int64_t (*raw)[MR_ARR_WORDS])
{
	mr_set before;
	struct memcg_sels sels_before = pr->sels;

	/* The sums taken from their parts held for the last refresh only. */
	for (mr_set c = pr->cond; c; c &= c - 1) {
		int slot = (int)mr_first(c);

		pr->proven &= ~MR_SET(slot);
		pr->sels.sel[slot - MR_FIRST_STAT].n = 0;
	}
	before = pr->proven | pr->cond;
	pr->cond = 0;
	pr->has = 0;
	pr->has_pgpg = 0;
	pr->zero = 0;
	parse_keyvals(text, len, take, pr);
	by_kfunc(pr, lay);
	if (!lay->vmstats)
		return pr->proven != before;
	for (size_t i = 0; i < pr->nrows; i++) {
		int slot = pr->rows[i].slot;

		if ((pr->proven & MR_SET(slot)) || !pr->rows[i].key ||
		    !(pr->has & MR_SET(slot)))
			continue;
		by_value(pr, slot, lay, raw);
	}
	for (size_t i = 0; i < pr->nrows; i++)
		by_neighbour(pr, pr->rows[i].slot, lay, raw);
	by_rule(pr, lay, raw);
	by_parts(pr, MR_ST_PGSCAN, MR_ST_PGSCAN_KSWAPD, MR_ST_PGSCAN_DIRECT);
	by_parts(pr, MR_ST_PGSTEAL, MR_ST_PGSTEAL_KSWAPD, MR_ST_PGSTEAL_DIRECT);

	/* Bounded by the start group's 0 (see the head comment). */
	for (size_t i = 0; i < pr->nrows; i++) {
		int slot = pr->rows[i].slot, h = hier_of(slot);

		if (!(pr->proven & MR_SET(slot)) &&
		    (pr->has & MR_SET(h)) && pr->val[h] == 0)
			pr->zero |= MR_SET(slot);
	}
	return pr->proven != before ||
		memcmp(&pr->sels, &sels_before, sizeof(sels_before)) != 0;
}

const struct memcg_sels *cgfs_prove_sels(const struct cgfs_prove *pr)
{
	return &pr->sels;
}

mr_set cgfs_prove_proven(const struct cgfs_prove *pr)
{
	return pr->proven;
}

/* The values a proof waits for: those the start group's file shows, and
 * the events rule's (v1's memory.stat shows no pgscan); a key the file
 * lacks (a kernel without it) proves nothing and is not waited for. */
static mr_set expected(const struct cgfs_prove *pr)
{
	return pr->has | CGFS_RULE_SLOTS;
}

int cgfs_prove_complete(const struct cgfs_prove *pr)
{
	for (size_t i = 0; i < pr->nrows; i++) {
		mr_set bit = MR_SET(pr->rows[i].slot);

		if ((expected(pr) & bit) && !(pr->proven & bit))
			return 0;
	}
	return 1;
}

mr_set cgfs_prove_zero(const struct cgfs_prove *pr)
{
	return pr->zero;
}

void cgfs_prove_describe(const struct cgfs_prove *pr, char *buf, size_t len)
{
	size_t n = 0, m = 0, z = 0, off;
	size_t rule = (size_t)mr_count(pr->by_rule);
	size_t parts = (size_t)mr_count(pr->cond);
	size_t kf = (size_t)mr_count(pr->by_kf);

	/* Of the values expected: those the pass gives, by a word or as the
	 * start group's 0. */
	for (size_t i = 0; i < pr->nrows; i++) {
		mr_set bit = MR_SET(pr->rows[i].slot);

		if (!(expected(pr) & bit))
			continue;
		m++;
		if (pr->proven & bit)
			n++;
		else if (pr->zero & bit)
			z++;
	}
	off = (size_t)snprintf(buf, len,
			       "memory.stat: %zu of %zu values from the pass (%zu through the kernel's memcg kfuncs, by its enum items; memcg->vmstats: %zu words proven against the start group's memory.stat, %zu by the events rule, %zu sums from their parts this refresh; %zu at the start group's 0)",
			       n + z, m, kf, n - kf - rule - parts, rule, parts,
			       z);
	if (off < len && n + z < m)
		snprintf(buf + off, len - off, "; the others from the files");
}
