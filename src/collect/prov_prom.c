// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prov_prom.c - the Prometheus tree provider (--prometheus URL): the
 * groups of every host that a Prometheus server scrapes from memcgtop
 * --listen, read by one instant query a refresh for the whole selection.
 * The hosts (the host label's values) are the top level below the root,
 * each host's groups below it by their cgroup label.  A series is
 * memcgtop_<column key>, with _bytes or _total as out_openmetrics.c names
 * it; only the columns that are a field are read (the model derives the
 * rest).  The tree provider's own begin and end: no hierarchy is opened.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "columns.h"
#include "parse.h"
#include "promapi.h"
#include "provider.h"
#include "xalloc.h"

struct name_field {
	char name[64];
	enum field f;
	int psi;		/* the exporter's hundredths as "12.34" */
};

struct row {
	const char *host, *path;
	enum field f;
	uint64_t v;
};

struct prov_prom {
	struct provider p;
	struct promapi *api;
	char *sel;		/* the selector of every series read */
	struct name_field *map;	/* by name */
	size_t nmap;
	fieldset mapped;	/* the fields a series names */
	fieldset seen;		/* of them, those the server had at start */
	fieldset slots;
	struct row *rows;
	size_t cap;
	size_t *stack;		/* the groups above the one added */
	size_t stack_cap;
	char why[200];
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct name_field *)a)->name,
		      ((const struct name_field *)b)->name);
}

/* The names out_openmetrics gives the columns that are a field. */
static void make_map(struct prov_prom *t)
{
	t->map = xcalloc(ncolumns, sizeof(*t->map));
	for (size_t i = 0; i < ncolumns; i++) {
		const struct column *c = &columns[i];
		struct name_field *nf = &t->map[t->nmap];

		if (c->kind != CK_VALUE || c->unit == U_RATE ||
		    c->derived >= 0 || c->field < 0)
			continue;
		snprintf(nf->name, sizeof(nf->name), "memcgtop_%s%s", c->key,
			 c->unit == U_BYTES ? "_bytes" :
			 c->unit == U_COUNT ? "_total" : "");
		nf->f = (enum field)c->field;
		nf->psi = c->unit == U_PSI;
		t->mapped |= FBIT(c->field);
		t->nmap++;
	}
	qsort(t->map, t->nmap, sizeof(*t->map), by_name);
}

static const struct name_field *find(const struct prov_prom *t,
				     const char *name)
{
	struct name_field key;

	if (!name || strlen(name) >= sizeof(key.name))
		return NULL;
	strcpy(key.name, name);
	return bsearch(&key, t->map, t->nmap, sizeof(*t->map), by_name);
}

/* A sample's text as a field's value: 0, or -1 (none: NaN, negative). */
static int parse_sample(const char *s, int psi, uint64_t *ret)
{
	char *end;
	double d;

	if (!strcmp(s, "+Inf")) {
		*ret = VAL_MAX;
		return 0;
	}
	if (!psi && *s >= '0' && *s <= '9') {
		unsigned long long u = strtoull(s, &end, 10);

		if (!*end) {
			*ret = u;
			return 0;
		}
	}
	d = strtod(s, &end);
	if (*end || !(d >= 0))
		return -1;
	if (psi)
		d *= 100;
	*ret = d >= 18446744073709551615.0 ? VAL_MAX : (uint64_t)llround(d);
	return 0;
}

/* Paths in tree order: '/' before every other byte, so that a group's
 * subgroups follow it before its siblings ("/a", "/a/b", "/a-b"). */
static int path_cmp(const char *a, const char *b)
{
	for (; *a && *a == *b; a++, b++)
		;
	if (*a == *b)
		return 0;
	if (!*a || !*b)
		return *a ? 1 : -1;
	if (*a == '/' || *b == '/')
		return *a == '/' ? -1 : 1;
	return (unsigned char)*a - (unsigned char)*b;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	int r = strcmp(a->host, b->host);

	return r ? r : path_cmp(a->path, b->path);
}

static fieldset prom_gives(const struct provider *p)
{
	return ((const struct prov_prom *)p)->seen;
}

static fieldset prom_ask(struct provider *p, const struct collect_ask *a)
{
	(void)p;
	(void)a;
	return 0;
}

static int prom_begin(struct provider *p, fieldset fields, int maxdepth,
		      struct snapshot *snap, char *err, size_t errlen)
{
	(void)p;
	(void)maxdepth;
	(void)err;
	(void)errlen;
	snap->n = 0;
	snap->paths_len = 0;
	snap->numa_len = 0;
	snap->slots = (fields & ((struct prov_prom *)p)->mapped) |
		snap->more_slots;
	snap->above_limit = VAL_MAX;
	snap->recursiveprot = -1;
	snap->cut_depth1 = 0;
	snap->sys.valid = 0;
	/* The server's values are as of its scrapes, not of this refresh:
	 * the model takes no rates from two of them (dt 0). */
	snap->mono = 0;
	snap->wall = (int64_t)time(NULL);
	cgfs_add_group(snap, -1, "", 0, 0);
	return 0;
}

static int depth_of(const char *path)
{
	int d = 0;

	for (; *path; path++)
		d += *path == '/' && path[1];
	return d;
}

/* Group idx, which holds path, is an ancestor of path q. */
static int above(const struct snapshot *snap, size_t idx, size_t host_len,
		 const char *q)
{
	const struct snap_group *g = &snap->groups[idx];
	size_t n = g->path_len - host_len;

	return !strncmp(snap_path(snap, g) + host_len, q, n) && q[n] == '/';
}

/* The row's group: the host's (path "/") or one added below its nearest
 * ancestor on the stack. */
static size_t add_row_group(struct prov_prom *t, struct snapshot *snap,
			    size_t host, size_t *depth, const char *path)
{
	size_t hlen = snap->groups[host].path_len, parent = host;
	const char *name = path + 1;

	if (!strcmp(path, "/"))
		return host;
	while (*depth && !above(snap, t->stack[*depth - 1], hlen, path))
		(*depth)--;
	if (*depth) {
		parent = t->stack[*depth - 1];
		name = path + snap->groups[parent].path_len - hlen + 1;
	}
	cgfs_add_group(snap, (int)parent, name, strlen(name),
		       1 + depth_of(path));
	if (*depth + 1 > t->stack_cap) {
		t->stack_cap = (*depth + 1) * 2;
		t->stack = xreallocarray(t->stack, t->stack_cap,
					 sizeof(*t->stack));
	}
	t->stack[(*depth)++] = snap->n - 1;
	return snap->n - 1;
}

static int prom_fill(struct provider *p, struct snapshot *snap, char *err,
		     size_t errlen)
{
	struct prov_prom *t = (struct prov_prom *)p;
	const struct prom_sample *s;
	size_t n, k = 0, host = 0, g = 0, depth = 0;

	if (promapi_query(t->api, t->sel, &s, &n, err, errlen) < 0)
		return -1;
	if (n > t->cap) {
		t->cap = n;
		t->rows = xreallocarray(t->rows, n, sizeof(*t->rows));
	}
	for (size_t i = 0; i < n; i++) {
		const struct name_field *nf = find(t, s[i].name);
		struct row *r = &t->rows[k];

		/* the system figures (no cgroup label), the columns the
		 * model derives, a name of a newer exporter */
		if (!nf || !s[i].host || !s[i].path || s[i].path[0] != '/' ||
		    !(snap->slots & FBIT(nf->f)) ||
		    parse_sample(s[i].value, nf->psi, &r->v) < 0)
			continue;
		r->host = s[i].host;
		r->path = s[i].path;
		r->f = nf->f;
		k++;
	}
	qsort(t->rows, k, sizeof(*t->rows), row_cmp);
	for (size_t i = 0; i < k; i++) {
		const struct row *r = &t->rows[i];
		int new_host = !i || strcmp(r->host, t->rows[i - 1].host);

		if (new_host) {
			cgfs_add_group(snap, 0, r->host, strlen(r->host), 1);
			host = snap->n - 1;
			depth = 0;
		}
		if (new_host || strcmp(r->path, t->rows[i - 1].path))
			g = add_row_group(t, snap, host, &depth, r->path);
		sample_set(&snap->groups[g].s, r->f, r->v);
	}
	return 0;
}

static int prom_end(struct provider *p, struct snapshot *snap, char *err,
		    size_t errlen)
{
	(void)p;
	(void)snap;
	(void)err;
	(void)errlen;
	return 0;
}

static void prom_abort(struct provider *p)
{
	(void)p;
}

static const char *prom_why(struct provider *p, enum field f)
{
	struct prov_prom *t = (struct prov_prom *)p;

	if (!(t->mapped & FBIT(f)))
		return "memcgtop --listen exports no series for it";
	if (!(t->seen & FBIT(f)))
		return "no host's series has it (an older memcgtop, or a "
		       "cgroup version without it)";
	return NULL;
}

static void prom_free(struct provider *p)
{
	struct prov_prom *t = (struct prov_prom *)p;

	promapi_free(t->api);
	free(t->sel);
	free(t->map);
	free(t->rows);
	free(t->stack);
	free(t);
}

static const struct provider_ops prom_ops = {
	.name = "prometheus",
	.gives = prom_gives,
	.ask = prom_ask,
	.begin = prom_begin,
	.fill = prom_fill,
	.end = prom_end,
	.abort = prom_abort,
	.why = prom_why,
	.free = prom_free,
};

/* {__name__=~"memcgtop_.+",<match's matchers>} */
static char *selector(const char *match)
{
	static const char head[] = "{__name__=~\"memcgtop_.+\"";
	size_t n = match ? strlen(match) : 0;
	char *s = xmalloc(sizeof(head) + n + 2);

	strcpy(s, head);
	if (n > 2) {
		strcat(s, ",");
		strncat(s, match + 1, n - 2);
	}
	strcat(s, "}");
	return s;
}

/*
 * Which series the server has (one query: their names), and the cgroup
 * version: 2 where a field only v2 keeps has a series, else 1.
 */
static int first_look(struct prov_prom *t, int *ret_version, char *err,
		      size_t errlen)
{
	const struct prom_sample *s;
	size_t n, len = strlen(t->sel) + 32;
	char *q = xmalloc(len);
	fieldset v2 = cgfs_version_fields(2) & ~cgfs_version_fields(1);
	int r;

	snprintf(q, len, "count by (__name__) (%s)", t->sel);
	r = promapi_query(t->api, q, &s, &n, err, errlen);
	free(q);
	if (r < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct name_field *nf = find(t, s[i].name);

		if (nf)
			t->seen |= FBIT(nf->f);
	}
	if (!t->seen) {
		snprintf(err, errlen, "--prometheus: the server has no "
			 "memcgtop --listen series matching %.300s", t->sel);
		return -1;
	}
	*ret_version = t->seen & v2 ? 2 : 1;
	return 0;
}

struct provider *prov_prom_new(const char *url, const char *match,
			       const char *host_label, int *ret_version,
			       char *err, size_t errlen)
{
	struct prov_prom *t = xcalloc(1, sizeof(*t));

	t->p.ops = &prom_ops;
	t->api = promapi_new(url, host_label, err, errlen);
	t->sel = selector(match);
	make_map(t);
	if (!t->api || first_look(t, ret_version, err, errlen) < 0) {
		prom_free(&t->p);
		return NULL;
	}
	return &t->p;
}
