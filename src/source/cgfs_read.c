/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_read.c - reading a group by its version's descriptor
 * (cgfs_version.h), whether the directory walk or the BPF pass found it:
 * its directory, its control files parsed into its values, or the values
 * the pass's record carries in place of files; the limit above a start
 * group. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf/bpfcol.h"
#include "cgfs_version.h"
#include "parse.h"
#include "xalloc.h"

/* The directory of the group, opened by path when the caller did not
 * (the BPF pass: only a group with a file to read is opened). */
static int group_dir(struct gread *g)
{
	struct stat st;
	int fd;

	if (g->dirfd >= 0 || g->dir_err)
		return g->dirfd;
	fd = cgfs_open_rel(g->src->rootfd, g->src->rel);
	if (fd < 0) {
		g->dir_err = fd;
		if (cgfs_short_of(fd))
			g->short_of = fd;
		return -1;
	}
	/* The path names another group since the pass saw this one (moved,
	 * or removed and made again): not its files, gone as far as this
	 * refresh goes. */
	if (g->src->ino && fstat(fd, &st) == 0 &&
	    (uint64_t)st.st_ino != g->src->ino) {
		close(fd);
		g->dir_err = -ENODEV;
		return -1;
	}
	g->dirfd = fd;
	g->own_fd = 1;
	return fd;
}

/*
 * A file that cannot be read (ENOENT) may be missing from this group, or
 * the group may have been removed since its directory was opened: kernfs
 * then answers ENOENT for every name in it, and ENODEV for a file of a
 * group being removed.  cgroup.procs exists in every group of both
 * versions, so its absence tells.
 */
static void note_error(struct gread *g, int err)
{
	if (cgfs_short_of(err)) {
		g->short_of = err;
		return;
	}
	if (err == -ENODEV)
		g->stale = 1;
	else if (g->rd->io->kernfs && err == -ENOENT &&
		 faccessat(g->dirfd, "cgroup.procs", F_OK,
			   AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
		g->stale = 1;
}

struct kvctx {
	struct gread *g;
	const struct keymap *map;
	size_t n;
};

static void kv_store(const char *key, size_t keylen, uint64_t val, void *ctx)
{
	struct kvctx *c = ctx;
	struct gread *g = c->g;

	for (size_t i = 0; i < c->n; i++) {
		const struct keymap *m = &c->map[i];

		if (m->len != keylen || memcmp(m->key, key, keylen))
			continue;
		/* A key repeated: the first one counts, even when its value
		 * is out of range (parse_in_range: not a value). */
		if (m->field < 0) {
			if (!(g->seen_extra & (1u << m->x)) &&
			    parse_in_range(val)) {
				g->extra[m->x] = val;
				g->has_extra |= 1u << m->x;
			}
			g->seen_extra |= 1u << m->x;
		} else if (!(g->seen & FBIT(m->field))) {
			g->seen |= FBIT(m->field);
			if (parse_in_range(val))
				gr_set(g, (enum field)m->field, val);
		}
		return;
	}
}

/* A value file.  Only a limit or protection can be unlimited; a usage or
 * a count at v1's "no limit" or beyond is not a value. */
static void take_value(struct gread *g, enum field f, const char *buf,
		       size_t n)
{
	uint64_t v;

	if (parse_value_file(buf, n, &v) == 0 &&
	    (v != VAL_MAX || (FIELDS_MAX & FBIT(f))))
		gr_set(g, f, v);
}

/* Kept whole for the JSON numa object (see snapshot). */
static void take_numa(struct gread *g, enum field f, const char *buf,
		      size_t n)
{
	struct snapshot *snap = g->src->snap;
	void *p = snap->numa_text;

	cgfs_grow(&p, &snap->numa_cap, snap->numa_len + n + 1, 1);
	snap->numa_text = p;
	memcpy(snap->numa_text + snap->numa_len, buf, n);
	snap->numa_text[snap->numa_len + n] = '\0';
	gr_set(g, f, snap->numa_len);
	snap->numa_len += n + 1;
}

/* With PSI disabled (psi=0) the file is missing or reads EOPNOTSUPP: not
 * available, like any unreadable file. */
static void take_psi(struct gread *g, enum cgfile cf, const char *buf,
		     size_t n)
{
	const struct keymap *m = &g->v->keys[g->v->kfirst[cf]];
	struct psi p;

	if (parse_psi(buf, n, &p) < 0)
		return;
	for (size_t i = 0; i < g->v->kcount[cf]; i++, m++) {
		if (m->field < 0)
			continue;
		if (p.has_some && strcmp(m->key, "some") == 0)
			gr_set(g, (enum field)m->field, p.some_avg10);
		if (p.has_full && strcmp(m->key, "full") == 0)
			gr_set(g, (enum field)m->field, p.full_avg10);
	}
}

/* Reads control file cf of the group, once. */
void cgfs_gread_file(struct gread *g, enum cgfile cf)
{
	const struct cgfs_version *v = g->v;
	const char *name = v->name_of[cf];
	int fd, f = v->value_field[cf];
	ssize_t n;

	if ((g->tried & CFBIT(cf)) || !name)
		return;
	g->tried |= CFBIT(cf);
	if (cf == CF_STAT && g->src->stat_text) {
		struct kvctx c = { g, &v->keys[v->kfirst[cf]], v->kcount[cf] };

		parse_keyvals(g->src->stat_text, g->src->stat_len, kv_store, &c);
		if (g->rd->ops->kept)
			cgfs_keep_stat(g, g->src->stat_text, g->src->stat_len,
				       0);
		return;
	}
	fd = group_dir(g);
	if (fd < 0)
		return;
	if (v->kind_of[cf] == FK_PROCS) {
		uint64_t lines;
		int r = g->rd->ops->count_lines(g->rd, fd, name, &lines);

		if (r < 0)
			note_error(g, r);
		else if (f >= 0)
			gr_set(g, (enum field)f, lines);
		return;
	}
	n = g->rd->ops->read(g->rd, fd, name);
	if (n < 0) {
		note_error(g, (int)n);
		return;
	}
	switch (v->kind_of[cf]) {
	case FK_VALUE:
		if (f >= 0)
			take_value(g, (enum field)f, g->rd->io->buf, (size_t)n);
		break;
	case FK_KEYS: {
		struct kvctx c = { g, &v->keys[v->kfirst[cf]], v->kcount[cf] };

		parse_keyvals(g->rd->io->buf, (size_t)n, kv_store, &c);
		if (cf == CF_STAT && g->rd->ops->kept)
			cgfs_keep_stat(g, g->rd->io->buf, (size_t)n, 1);
		break;
	}
	case FK_PSI:
		take_psi(g, cf, g->rd->io->buf, (size_t)n);
		break;
	case FK_NUMA:
		if (f >= 0)
			take_numa(g, (enum field)f, g->rd->io->buf, (size_t)n);
		break;
	case FK_PROCS:
		break;
	}
}

/*
 * The memory.stat values of the fields asked for that the record has
 * (MR_STATS: each slot once its word was proven), and the fields no file
 * has (SLOT); memory.stat counts as given when no field asked of it is
 * left.
 */
static unsigned take_stat(struct gread *g, unsigned files)
{
	const struct cgfs_version *v = g->v;
	const struct bpfcol_rec *r = g->src->pass;
	int missing = 0;

	for (fieldset rest = g->w->fields; rest; rest &= rest - 1) {
		int f = fieldset_first(rest);
		const struct src *s = &v->src[f];
		mr_set bit;

		if ((s->kind == SRC_IN && s->cf != CF_STAT) ||
		    (s->kind != SRC_IN && s->kind != SRC_SLOT))
			continue;
		if (s->slot < 0) {
			missing = 1;	/* a memory.stat key the pass lacks */
			continue;
		}
		bit = MR_SET(s->slot);
		if (r->have & bit) {
			if (parse_in_range(r->v[s->slot]))
				gr_set(g, (enum field)f, r->v[s->slot]);
		} else if (s->kind == SRC_IN) {
			missing = 1;
		}
	}
	/* A root whose usage the version makes of memory.stat (v2: anon +
	 * file + kernel + sock, of which the pass gives a v2 root none)
	 * reads it. */
	if (g->src->is_root && (g->want & CFBIT(CF_USAGE)) &&
	    (v->root_files(CFBIT(CF_USAGE)) & CFBIT(CF_STAT)))
		missing = 1;
	return missing || !(files & CFBIT(CF_STAT)) ? 0 : CFBIT(CF_STAT);
}

/*
 * The files of `files` whose values the group's BPF record gives: each
 * file the pass carries whole whose slots the record has, and each such
 * file this kernel lacks (probed once: the pass has a slot where the file
 * is missing, v1 memsw without swap accounting, v2 memory.peak before
 * 5.19, and then the absence must show, as the files source shows it).
 */
static unsigned take_pass(struct gread *g, unsigned files)
{
	const struct cgfs_version *v = g->v;
	const struct bpfcol_rec *r = g->src->pass;
	unsigned got = take_stat(g, files);

	if (g->src->stat_only)
		return got;
	for (unsigned rest = files & v->pass_files; rest; rest &= rest - 1) {
		int cf = __builtin_ctz(rest);

		if (!(g->src->pass_have & CFBIT(cf))) {
			got |= CFBIT(cf);
			continue;
		}
		if (v->file_slots[cf] & ~r->have)
			continue;
		if (v->kind_of[cf] == FK_NUMA) {
			/* Only as the pass's text, once its lists are
			 * proven (cgfs_pass.c). */
			if (g->src->numa_text && v->value_field[cf] >= 0) {
				take_numa(g, (enum field)v->value_field[cf],
					  g->src->numa_text, g->src->numa_len);
				got |= CFBIT(cf);
			}
			continue;
		}
		got |= CFBIT(cf);
		/* The file's fields only: this runs for every group. */
		for (fieldset in = v->in_fields[cf]; in; in &= in - 1) {
			int f = fieldset_first(in);
			const struct src *s = &v->src[f];
			uint64_t val;

			val = (r->unlimited & MR_SET(s->slot)) ? VAL_MAX :
				r->v[s->slot];
			/* As the file would be parsed. */
			if (s->key ? parse_in_range(val) :
			    val != VAL_MAX || (FIELDS_MAX & FBIT(f)))
				gr_set(g, (enum field)f, val);
		}
	}
	/* A group the pass saw without a task: its cgroup.procs is empty
	 * (memcg_iter.bpf.c), not opened. */
	if ((files & CFBIT(CF_PROCS)) && (r->have & MR_BIT(POPULATED)) &&
	    r->v[MR_POPULATED] == 0 && v->value_field[CF_PROCS] >= 0) {
		gr_set(g, (enum field)v->value_field[CF_PROCS], 0);
		got |= CFBIT(CF_PROCS);
	}
	return got;
}

int cgfs_read_group(const struct cgfs_version *v, struct cgfs_reader *rd,
		    const struct cgfs_want *w, const struct cgfs_group_src *src,
		    struct sample *ret)
{
	struct gread g;
	unsigned files = src->is_root ? w->root_files : w->files;

	g.v = v;
	g.rd = rd;
	g.src = src;
	g.dirfd = src->dirfd;
	g.own_fd = 0;
	g.dir_err = 0;
	g.w = w;
	g.want = w->files;
	g.tried = 0;
	g.stale = 0;
	g.short_of = 0;
	g.seen = 0;
	g.has_extra = g.seen_extra = 0;
	/* Read into room for every field, then kept in ret's slots: what
	 * a version makes of several files may come from fields not kept. */
	memset(g.all, 0, sizeof(g.all));
	g.s = (struct sample){ 0, FIELDS_ALL, g.all };
	g.files = files;
	if (src->pass) {
		unsigned got = take_pass(&g, files);

		if (rd->ops->kept)
			cgfs_keep_pass(&g, got);
		files &= ~got;
		/* The SLOT rows' values when memory.stat is neither read
		 * nor given: kept as its only lines. */
		if (rd->ops->kept && !((files | got) & CFBIT(CF_STAT)))
			cgfs_keep_stat(&g, "", 0, 1);
	}
	for (size_t i = 0; i < v->nfiles; i++)
		if (files & CFBIT(v->files[i].cf))
			cgfs_gread_file(&g, v->files[i].cf);
	v->finish(&g);
	if (g.own_fd)
		close(g.dirfd);
	if (g.short_of)
		return g.short_of;
	if (g.dir_err == -EACCES || g.dir_err == -EPERM) {
		sample_clear(ret);
		return -EACCES;
	}
	if (g.dir_err)
		return -ENODEV;
	sample_copy(ret, &g.s);
	return g.stale ? -ENODEV : 0;
}

uint64_t cgfs_limit_above(const struct cgfs_version *v, struct cgfs_reader *rd,
			  int rootfd, const char *start)
{
	uint64_t lim = VAL_MAX, val;
	size_t len = strlen(start);
	/* "/a/b/c": each ancestor as shown (for the recorder), cut short at
	 * its end; no PATH_MAX, which a deep start group can pass. */
	char *shown = xmalloc(len + 2), *rel, *p;

	shown[0] = '/';
	memcpy(shown + 1, start, len + 1);
	rel = shown + 1;
	/* Every proper prefix "a", "a/b" of "a/b/c" is an ancestor. */
	for (p = strchr(rel, '/'); p; p = strchr(p + 1, '/')) {
		ssize_t n;
		int fd;

		*p = '\0';
		fd = cgfs_open_rel(rootfd, rel);
		if (fd >= 0) {
			rd->ops->group(rd, shown);
			n = rd->ops->read(rd, fd, v->name_of[CF_LIMIT]);
			if (n >= 0 && parse_value_file(rd->io->buf, (size_t)n,
						       &val) == 0 && val < lim)
				lim = val;
			rd->ops->group(rd, NULL);
			close(fd);
		}
		*p = '/';
	}
	free(shown);
	return lim;
}
