/* SPDX-License-Identifier: GPL-2.0-or-later */
/* out_json.c - one JSON object per iteration, one line each. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fmt.h"
#include "out.h"
#include "parse.h"
#include "xalloc.h"

/*
 * A system figure (sysfig.h): a counter per second, the rest as they are,
 * an array as one; null when it has none (an array: when any element has
 * none).
 */
static void sys_value(FILE *f, const struct model *m, int id)
{
	int n = sysfigs[id].n;
	char v[32];

	for (int k = 0; k < n; k++)
		if (!col_sys_format(m, id, k, 0, v, sizeof(v))) {
			fputs("null", f);
			return;
		}
	if (n > 1)
		fputc('[', f);
	for (int k = 0; k < n; k++) {
		col_sys_format(m, id, k, 0, v, sizeof(v));
		fprintf(f, "%s%s", k ? "," : "", v);
	}
	if (n > 1)
		fputc(']', f);
}

/*
 * "oom_kills": the kills seen during the run (oomlog.h), newest first;
 * pid, comm and rss null where only a counter told of the kill.
 */
static void oom_kills(FILE *f, const struct model *m, const char *sep)
{
	char t[32];

	fprintf(f, "%s\"oom_kills\":[", sep);
	for (size_t k = 0; k < m->oom.n; k++) {
		const struct oom_kill *e = oomlog_get(&m->oom, k);

		fmt_time_iso(t, sizeof(t), e->wall_ms / 1000);
		fprintf(f, "%s{\"time\":\"%s\",\"path\":", k ? "," : "", t);
		if (e->path)
			fmt_json_name(f, e->path, strlen(e->path));
		else
			fputs("null", f);
		if (e->pid >= 0) {
			fprintf(f, ",\"pid\":%d,\"comm\":", e->pid);
			fmt_json_name(f, e->comm, strnlen(e->comm, sizeof(e->comm)));
		} else {
			fputs(",\"pid\":null,\"comm\":null", f);
		}
		if (e->has_rss)
			fprintf(f, ",\"rss\":%" PRIu64, e->rss);
		else
			fputs(",\"rss\":null", f);
		if (!e->has_limit)
			fputs(",\"limit\":null", f);
		else if (e->limit == VAL_MAX)
			fputs(",\"limit\":\"max\"", f);
		else
			fprintf(f, ",\"limit\":%" PRIu64, e->limit);
		fputc('}', f);
	}
	fputc(']', f);
}

/* The "system" object: the table's figures that have a JSON key, and the
 * OOM kills. */
static void sys_object(FILE *f, const struct model *m)
{
	const char *sep = "";

	fputs(",\"system\":{", f);
	for (int id = 0; id < SYS_NR; id++) {
		if (!sysfigs[id].json || !col_sys_shown(m, id))
			continue;
		fprintf(f, "%s\"%s\":", sep, sysfigs[id].json);
		sys_value(f, m, id);
		sep = ",";
	}
	oom_kills(f, m, sep);
	fputc('}', f);
}

/* The numa column: {"N0":{"anon":B,...},...}, or null. */
static void numa_object(FILE *f, const struct model *m,
			const struct mgroup *g)
{
	const struct numa_view *nv = cgfs_numa_view(m->version,
						    CGFS_NUMA_JSON);
	static struct numa_stat ns;
	uint64_t unit = nv->pages ? (uint64_t)sysconf(_SC_PAGESIZE) : 1;
	const char *text;

	if (!sample_has(&g->cur, FLD_NUMA) || !m->numa_text) {
		fputs("null", f);
		return;
	}
	text = m->numa_text + sample_get(&g->cur, FLD_NUMA);
	parse_numa_stat(text, strlen(text), nv->keys, nv->n, &ns);
	fputc('{', f);
	for (size_t i = 0; i < ns.n; i++) {
		int first = 1;
		size_t k = 0, name = 0;

		fprintf(f, "%s\"N%u\":{", i ? "," : "", ns.node[i]);
		/* anon and file: keys 0 + 1 and 2 + 3 */
		for (; nv->lru_sums && k < 4; k += 2, name++) {
			if (!ns.has[i][k] || !ns.has[i][k + 1])
				continue;
			fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",",
				nv->names[name],
				(ns.v[i][k] + ns.v[i][k + 1]) * unit);
			first = 0;
		}
		for (; k < nv->n; k++, name++) {
			if (!ns.has[i][k])
				continue;
			fprintf(f, "%s\"%s\":%" PRIu64, first ? "" : ",",
				nv->names[name], ns.v[i][k] * unit);
			first = 0;
		}
		fputc('}', f);
	}
	fputc('}', f);
}

/*
 * The columns' `,"key":` one after the other; (*ret_off)[i] where column
 * i's starts, (*ret_off)[ncols] the end.  The first column's is written
 * without its comma.
 */
static char *key_prefixes(const struct out_ctx *o, size_t **ret_off)
{
	size_t len = 1, *off = xcalloc(o->ncols + 1, sizeof(*off));
	char *keys;

	for (size_t i = 0; i < o->ncols; i++)
		len += strlen(o->cols[i]->key) + 4;
	keys = xmalloc(len);
	for (size_t i = 0, at = 0; i < o->ncols; i++) {
		off[i] = at;
		at += (size_t)snprintf(keys + at, len - at, ",\"%s\":",
				       o->cols[i]->key);
		off[i + 1] = at;
	}
	*ret_off = off;
	return keys;
}

/* The rows' text, written to the FILE a block at a time. */
struct rowbuf {
	char *p;
	size_t len, cap;
};

/* Room for n more bytes at the end. */
static char *rb_room(struct rowbuf *b, size_t n)
{
	if (b->len + n > b->cap) {
		while (b->len + n > b->cap)
			b->cap = b->cap ? 2 * b->cap : 65536;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	return b->p + b->len;
}

static void rb_put(struct rowbuf *b, const char *s, size_t n)
{
	memcpy(rb_room(b, n), s, n);
	b->len += n;
}

static void rb_flush(struct rowbuf *b, FILE *f)
{
	if (b->len)
		fwrite_unlocked(b->p, 1, b->len, f);
	b->len = 0;
}

void out_json(struct out_ctx *o)
{
	const struct model *m = o->m;
	char t[32], dt[32] = "null";
	struct rowbuf b = { NULL, 0, 0 };
	size_t *klen;
	char *keys;

	/* No interval before a second sample (a one-sample recording). */
	if (m->dt > 0)
		snprintf(dt, sizeof(dt), "%.3f", m->dt);
	fprintf(o->f, "{\"time\":\"%s\",\"iteration\":%u,\"interval_s\":%s,"
		"\"mode\":\"%s\",\"memcg\":\"v%d\",\"collector\":\"%s\","
		"\"root\":", out_time(m, t, sizeof(t)), o->iteration, dt,
		o->mode, o->version, o->collector);
	fmt_json_name(o->f, o->root, strlen(o->root));
	sys_object(o->f, m);
	fputs(",\"groups\":[", o->f);
	/*
	 * Each column's `,"key":` made once, and the rows made in one buffer,
	 * written 64 KiB at a time under one lock: a refresh at 8,192 groups
	 * writes about 900,000 values (15 MB of JSON with every column), and
	 * a stdio call for each key and value was a fifth of its CPU.
	 */
	keys = key_prefixes(o, &klen);
	flockfile(o->f);
	for (size_t r = 0; r < o->nrows; r++) {
		const struct mgroup *g = m->groups[o->rows[r]];

		out_rows_ahead(o, r);
		rb_put(&b, r ? ",{" : "{", r ? 2 : 1);
		for (size_t i = 0; i < o->ncols; i++) {
			const struct column *c = o->cols[i];
			struct cval v;

			rb_put(&b, keys + klen[i] + (i ? 0 : 1),
			       klen[i + 1] - klen[i] - (i ? 0 : 1));
			if (c->unit == U_PATH) {
				b.len += fmt_json_name_buf(rb_room(&b,
					FMT_JSON_NAME_ROOM(g->path_len)),
					g->path, g->path_len);
				continue;
			}
			if (c->kind == CK_NUMA) {
				rb_flush(&b, o->f);
				numa_object(o->f, m, g);
				continue;
			}
			v = col_value(c, g);
			if (v.kind == CV_NA)
				rb_put(&b, "null", 4);
			else if (v.kind == CV_MAX)
				rb_put(&b, "\"max\"", 5);
			else
				b.len += col_format(c, v, 0, rb_room(&b, 64),
						    64);
		}
		rb_put(&b, "}", 1);
		if (b.len >= 65536)
			rb_flush(&b, o->f);
	}
	rb_flush(&b, o->f);
	funlockfile(o->f);
	fputs("]}\n", o->f);
	free(b.p);
	free(keys);
	free(klen);
}
