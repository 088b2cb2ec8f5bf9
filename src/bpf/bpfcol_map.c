/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpfcol_map.c - windows onto the pass's maps (see bpfcol_int.h). */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bpfcol_int.h"

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
size_t bpfcol_win_bytes(unsigned long pagesize)
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

size_t bpfcol_page_round(size_t n, unsigned long pagesize)
{
	return (n + pagesize - 1) / pagesize * pagesize;
}

/* A stats map value's size (and stride: a multiple of 8). */
size_t bpfcol_stat_size(const struct bpfcol *col)
{
	return col->stat_nodes ? MR_STAT_SIZE : MR_STAT_SHORT;
}

void bpfcol_win_drop(struct mapwin *w)
{
	if (w->at)
		munmap((void *)w->at, w->len);
	w->at = NULL;
	w->off = w->len = 0;
}

void bpfcol_win_close(struct mapwin *w)
{
	bpfcol_win_drop(w);
	w->fd = -1;
	w->size = 0;
}

/*
 * The bytes [POS, POS + NEED) of W's map, mapped: the window moves to
 * the page holding POS when they are not in it.  NULL and col->map_err
 * set when the kernel refuses the mapping (or the bytes lie past the
 * map's end: never, the caller checks its index).
 */
const void *bpfcol_win_at(struct bpfcol *col, struct mapwin *w, size_t pos,
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
	bpfcol_win_drop(w);
	if (col->inject_unmapped && col->nread > 0) {
		col->map_err = -ENOMEM;
		return NULL;
	}
	off = pos / col->pagesize * col->pagesize;
	len = bpfcol_page_round(pos + need, col->pagesize) - off;
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

/* Record i of the maps, NULL when it cannot be mapped (col->map_err). */
const struct memcg_rec *bpfcol_rec_of(struct bpfcol *col, size_t i)
{
	return bpfcol_win_at(col, &col->recs, i * sizeof(struct memcg_rec),
			     sizeof(struct memcg_rec));
}

/* Group i's entry of the stats map; NULL when it cannot be mapped
 * (col->map_err). */
const struct memcg_stat *bpfcol_stat_of(struct bpfcol *col, size_t i)
{
	return bpfcol_win_at(col, &col->stats, i * bpfcol_stat_size(col),
			     bpfcol_stat_size(col));
}

void bpfcol_capacity(const struct bpfcol *col, size_t *ret_groups,
		     size_t *ret_map_bytes)
{
	*ret_groups = col->rec_cap;
	*ret_map_bytes = col->recs.size + col->names.size;
}
