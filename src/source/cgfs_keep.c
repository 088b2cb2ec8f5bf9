/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_keep.c - what a recording keeps of a group the BPF pass gave: its
 * values as the text of the files they stand for (replay parses them as
 * it parses the kernel's), and the reclaim events' values as lines. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgfs_version.h"
#include "xalloc.h"

/*
 * "key value" lines of the group's values of key file cf and, for
 * memory.stat, of its SLOT rows (fields.h); with cf CF_NR the SLOT rows'
 * alone (the values the pass gave that no file has).  Appended to buf:
 * the new length.  Only the values the group has; in the fields' order.
 */
static size_t key_lines(const struct gread *g, enum cgfile cf, char *buf,
			size_t cap)
{
	size_t n = 0;

	for (int f = 0; f < FLD_NR; f++) {
		const struct src *s = &g->v->src[f];
		int k;

		if (!s->key || !gr_has(g, (enum field)f) ||
		    !((s->kind == SRC_IN && s->cf == (int)cf) ||
		      (s->kind == SRC_SLOT &&
		       (cf == CF_STAT || cf == CF_NR))))
			continue;
		k = snprintf(buf + n, cap - n, "%s %" PRIu64 "\n", s->key,
			     gr_get(g, (enum field)f));
		if (k < 0 || (size_t)k >= cap - n)
			break;
		n += (size_t)k;
	}
	return n;
}

/*
 * Each file of got (given by the pass, not read) that the group has, kept
 * as its text: a value file's number ("max", or v1's largest page count
 * in bytes, when unlimited), a key file's lines of the values shown.
 * Replay parses them as it parses the kernel's files.
 */
void cgfs_keep_pass(struct gread *g, unsigned got)
{
	const struct cgfs_version *v = g->v;
	char buf[4096];

	for (; got; got &= got - 1) {
		enum cgfile cf = (enum cgfile)__builtin_ctz(got);
		int f = v->value_field[cf], k;
		size_t n;

		if (!v->name_of[cf])
			continue;
		if (v->kind_of[cf] == FK_PROCS) {
			/* No task: an empty cgroup.procs. */
			g->rd->ops->kept(g->rd, v->name_of[cf], "", 0);
			continue;
		}
		if (v->kind_of[cf] == FK_NUMA) {
			/* The lists the pass gave, as the file's text. */
			if (g->src->numa_text)
				g->rd->ops->kept(g->rd, v->name_of[cf],
						 g->src->numa_text,
						 g->src->numa_len);
			continue;
		} else if (v->kind_of[cf] == FK_KEYS) {
			n = key_lines(g, cf, buf, sizeof(buf));
		} else if (v->kind_of[cf] == FK_VALUE && f >= 0 &&
			   gr_has(g, (enum field)f)) {
			uint64_t val = gr_get(g, (enum field)f);
			long ps = sysconf(_SC_PAGESIZE);

			if (val == VAL_MAX && v->n == 2)
				k = snprintf(buf, sizeof(buf), "max\n");
			else
				k = snprintf(buf, sizeof(buf), "%" PRIu64 "\n",
					     val != VAL_MAX ? val : ps > 0 ?
					     (uint64_t)(INT64_MAX / ps) *
					     (uint64_t)ps : (uint64_t)INT64_MAX);
			n = k > 0 ? (size_t)k : 0;
		} else {
			continue;
		}
		if (n > 0)
			g->rd->ops->kept(g->rd, v->name_of[cf], buf, n);
	}
}

/* memory.stat as read, kept with the SLOT rows' lines after the kernel's
 * (recording only; text is what was parsed). */
void cgfs_keep_stat(struct gread *g, const char *text, size_t len,
		    int read)
{
	char lines[1024], *all;
	size_t n = key_lines(g, CF_NR, lines, sizeof(lines));

	/* Read through the recorder: kept as it was, unless lines follow. */
	if (read && n == 0)
		return;
	all = xmalloc(len + n);
	memcpy(all, text, len);
	memcpy(all + len, lines, n);
	g->rd->ops->kept(g->rd, g->v->name_of[CF_STAT], all, len + n);
	free(all);
}

size_t cgfs_event_lines(const struct cgfs_version *v, const struct sample *s,
			char *buf, size_t cap)
{
	size_t n = 0;

	for (int f = 0; f < FLD_NR; f++) {
		const struct src *sr = &v->src[f];
		int k;

		/* The SLOT rows too: the events give v1 pgscan where the
		 * pass does not (the files collector). */
		if ((sr->kind != SRC_EVENTS && sr->kind != SRC_SLOT) ||
		    !sr->key || !sample_has(s, (enum field)f))
			continue;
		k = snprintf(buf + n, cap - n, "%s %" PRIu64 "\n", sr->key,
			     sample_get(s, (enum field)f));
		if (k < 0 || (size_t)k >= cap - n)
			break;
		n += (size_t)k;
	}
	return n;
}
