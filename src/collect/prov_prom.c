// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prov_prom.c - the Prometheus tree provider (--prometheus URL): the
 * groups of every host that a Prometheus server scrapes from memcgtop
 * --listen, read by two instant queries a refresh for the whole selection,
 * both evaluated at the refresh's whole second: the series' values, and
 * the counters' rates, rate() over a window of 4 scrape intervals (the
 * longest of the hosts', measured once, at the first refresh that finds
 * two scrapes of a host: the median spacing of each host's samples of
 * memcgtop_usage_bytes{cgroup="/"} over the 5 minutes before).
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

#include "clock.h"
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
	int rate;		/* d is the counter's rate, not v its value */
	uint64_t v;
	double d;
	size_t hoff, poff;	/* a rate's host and path in prov_prom.pool */
};

/* A group's rate, until the groups are all added (snapshot.rates). */
struct given {
	size_t g;
	enum field f;
	double d;
};

struct prov_prom {
	struct provider p;
	struct promapi *api;
	char *match;		/* --match's matchers, "" none */
	char *sel;		/* the selector of every series read */
	long long at;		/* this refresh's evaluation time */
	long window_ms;		/* the rates' window, 0 not known yet */
	char *rq;		/* the rate query of rq_fields */
	fieldset rq_fields;
	struct given *given;
	size_t ngiven, given_cap;
	/* The rates' labels, copied: the next query's answer replaces the
	 * strings of this one. */
	char *pool;
	size_t pool_len, pool_cap;
	struct name_field *map;	/* by name */
	size_t nmap;
	fieldset mapped;	/* the fields a series names */
	fieldset seen;		/* of them, those the server had at start */
	fieldset slots;
	struct row *rows;
	size_t nrows, cap;
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

/* A rate's text: 0, or -1 (NaN, negative, not a number). */
static int parse_rate(const char *s, double *ret)
{
	char *end;

	*ret = strtod(s, &end);
	return *end || !(*ret >= 0) ? -1 : 0;
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
	struct prov_prom *t = (struct prov_prom *)p;

	(void)maxdepth;
	(void)err;
	(void)errlen;
	snap->n = 0;
	snap->paths_len = 0;
	snap->numa_len = 0;
	snap->slots = (fields & t->mapped) |
		snap->more_slots;
	snap->above_limit = VAL_MAX;
	snap->recursiveprot = -1;
	snap->cut_depth1 = 0;
	snap->sys.valid = 0;
	/* The server's values are as of its scrapes: the rates are its
	 * own (rate() over the window), none the model's. */
	snap->mono = clock_mono();
	t->at = (long long)time(NULL);
	snap->wall = (int64_t)t->at;
	snap->rates_given = 1;
	snap->rate_window = (double)t->window_ms / 1000;
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

/* A copy of str in the pool: its offset. */
static size_t keep(struct prov_prom *t, const char *str)
{
	size_t n = strlen(str) + 1, off = t->pool_len;

	if (off + n > t->pool_cap) {
		t->pool_cap = (off + n) * 2;
		t->pool = xreallocarray(t->pool, t->pool_cap, 1);
	}
	memcpy(t->pool + off, str, n);
	t->pool_len += n;
	return off;
}

/* The answer's samples of the fields asked into rows: their values, or
 * (rate) the counters' rates, whose labels are kept in the pool. */
static void take_rows(struct prov_prom *t, const struct snapshot *snap,
		      const struct prom_sample *s, size_t n, int rate)
{
	if (t->nrows + n > t->cap) {
		t->cap = (t->nrows + n) * 2;
		t->rows = xreallocarray(t->rows, t->cap, sizeof(*t->rows));
	}
	for (size_t i = 0; i < n; i++) {
		const struct name_field *nf = find(t, s[i].name);
		struct row *r = &t->rows[t->nrows];

		/* the system figures (no cgroup label), the columns the
		 * model derives, a name of a newer exporter */
		if (!nf || !s[i].host || !s[i].path || s[i].path[0] != '/' ||
		    !(snap->slots & FBIT(nf->f)))
			continue;
		if (rate ? parse_rate(s[i].value, &r->d) < 0 :
		    parse_sample(s[i].value, nf->psi, &r->v) < 0)
			continue;
		r->host = s[i].host;
		r->path = s[i].path;
		if (rate) {
			r->hoff = keep(t, s[i].host);
			r->poff = keep(t, s[i].path);
		}
		r->f = nf->f;
		r->rate = rate;
		t->nrows++;
	}
	for (size_t i = 0; rate && i < t->nrows; i++) {
		t->rows[i].host = t->pool + t->rows[i].hoff;
		t->rows[i].path = t->pool + t->rows[i].poff;
	}
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/*
 * The scrape interval, in ms: the median spacing of each host's samples
 * of its root's usage over the last 5 minutes, the longest of the hosts';
 * 0 when no host has two yet.
 */
static int scrape_interval(struct prov_prom *t, long *ret, char *err,
			   size_t errlen)
{
	const struct prom_sample *s;
	size_t n, len = strlen(t->match) + 64, i = 0;
	char *q = xmalloc(len);
	long *gap, worst = 0;
	int r;

	snprintf(q, len, "memcgtop_usage_bytes{cgroup=\"/\"%s%s}[5m]",
		 *t->match ? "," : "", t->match);
	r = promapi_query(t->api, q, t->at, &s, &n, err, errlen);
	free(q);
	if (r < 0)
		return -1;
	gap = xcalloc(n + 1, sizeof(*gap));
	while (i < n) {
		size_t k = 0, j = i + 1;

		for (; j < n && s[j].series == s[i].series; j++)
			gap[k++] = lround((s[j].t - s[j - 1].t) * 1000);
		if (k) {
			qsort(gap, k, sizeof(*gap), cmp_long);
			if (gap[k / 2] > worst)
				worst = gap[k / 2];
		}
		i = j;
	}
	free(gap);
	*ret = worst;
	return 0;
}

/* label_replace(rate(NAME{MATCH}[Wms]),"LABEL","NAME","","") or ...: the
 * rate of every counter asked that the server has, in one query. */
static const char *rate_query(struct prov_prom *t, fieldset fields)
{
	size_t len = 1;

	if (t->rq && fields == t->rq_fields)
		return t->rq;
	free(t->rq);
	for (size_t i = 0; i < t->nmap; i++)
		len += 2 * strlen(t->map[i].name) + strlen(t->match) + 96;
	t->rq = xmalloc(len);
	t->rq[0] = '\0';
	t->rq_fields = fields;
	for (size_t i = 0; i < t->nmap; i++) {
		const char *name = t->map[i].name;

		if (!(fields & FBIT(t->map[i].f)))
			continue;
		snprintf(t->rq + strlen(t->rq), len - strlen(t->rq),
			 "%slabel_replace(rate(%s{%s}[%ldms]),\"%s\",\"%s\","
			 "\"\",\"\")", *t->rq ? " or " : "", name, t->match,
			 t->window_ms, PROMAPI_RATE_LABEL, name);
	}
	return t->rq;
}

/* The rates once the window is known (their labels kept), then the
 * values, whose strings stay the answer's. */
static int prom_query(struct prov_prom *t, struct snapshot *snap, char *err,
		      size_t errlen)
{
	fieldset counters = snap->slots & t->seen & FIELDS_COUNTER;
	const struct prom_sample *s;
	size_t n;

	t->nrows = 0;
	t->pool_len = 0;
	if (counters && !t->window_ms) {
		long iv;

		if (scrape_interval(t, &iv, err, errlen) < 0)
			return -1;
		t->window_ms = 4 * iv;
		snap->rate_window = (double)t->window_ms / 1000;
	}
	if (counters && t->window_ms) {
		if (promapi_query(t->api, rate_query(t, counters), t->at, &s,
				  &n, err, errlen) < 0)
			return -1;
		take_rows(t, snap, s, n, 1);
	}
	if (promapi_query(t->api, t->sel, t->at, &s, &n, err, errlen) < 0)
		return -1;
	take_rows(t, snap, s, n, 0);
	return 0;
}

/* Group g's rate of f, kept until the groups are all added. */
static void give(struct prov_prom *t, size_t g, const struct row *r)
{
	if (t->ngiven == t->given_cap) {
		t->given_cap = t->given_cap ? t->given_cap * 2 : 256;
		t->given = xreallocarray(t->given, t->given_cap,
					 sizeof(*t->given));
	}
	t->given[t->ngiven++] = (struct given){ g, r->f, r->d };
}

/* Every group's rates (snapshot.rates), NaN where none was given. */
static void put_rates(struct prov_prom *t, struct snapshot *snap)
{
	fieldset c = snap->slots & FIELDS_COUNTER;
	size_t k = sample_nslots(c), need = snap->n * k;

	if (need > snap->rates_cap) {
		snap->rates_cap = need;
		snap->rates = xreallocarray(snap->rates, need,
					    sizeof(*snap->rates));
	}
	for (size_t i = 0; i < need; i++)
		snap->rates[i] = NAN;
	for (size_t i = 0; i < t->ngiven; i++)
		snap->rates[t->given[i].g * k +
			    sample_slot(c, t->given[i].f)] = t->given[i].d;
}

static int prom_fill(struct provider *p, struct snapshot *snap, char *err,
		     size_t errlen)
{
	struct prov_prom *t = (struct prov_prom *)p;
	size_t host = 0, g = 0, depth = 0;

	if (prom_query(t, snap, err, errlen) < 0)
		return -1;
	qsort(t->rows, t->nrows, sizeof(*t->rows), row_cmp);
	t->ngiven = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct row *r = &t->rows[i];
		int new_host = !i || strcmp(r->host, t->rows[i - 1].host);

		if (new_host) {
			cgfs_add_group(snap, 0, r->host, strlen(r->host), 1);
			host = snap->n - 1;
			depth = 0;
		}
		if (new_host || strcmp(r->path, t->rows[i - 1].path))
			g = add_row_group(t, snap, host, &depth, r->path);
		if (r->rate)
			give(t, g, r);
		else
			sample_set(&snap->groups[g].s, r->f, r->v);
	}
	put_rates(t, snap);
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
	free(t->match);
	free(t->sel);
	free(t->rq);
	free(t->given);
	free(t->pool);
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
	size_t n = strlen(match) + 32;
	char *s = xmalloc(n);

	snprintf(s, n, "{__name__=~\"memcgtop_.+\"%s%s}", *match ? "," : "",
		 match);
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
	r = promapi_query(t->api, q, (long long)time(NULL), &s, &n, err,
			  errlen);
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
	/* {a="b",c="d"}: a="b",c="d" */
	t->match = xstrdup(match && strlen(match) > 2 ? match + 1 : "");
	if (*t->match)
		t->match[strlen(t->match) - 1] = '\0';
	t->sel = selector(t->match);
	make_map(t);
	if (!t->api || first_look(t, ret_version, err, errlen) < 0) {
		prom_free(&t->p);
		return NULL;
	}
	return &t->p;
}
