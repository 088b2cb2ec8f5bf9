// SPDX-License-Identifier: GPL-2.0-or-later
/* promapi.c - instant queries to a Prometheus HTTP API server: see
 * promapi.h.  The query is POSTed as a form (no URL length limit); the
 * answer is {"status":"success","data":{"resultType":"vector",
 * "result":[{"metric":{...},"value":[time,"text"]},...]}}, or for a range
 * vector "matrix", each series with "values":[[time,"text"],...]. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>
#include <dlfcn.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "promapi.h"
#include "xalloc.h"

#define CURL_LIB "libcurl.so.4"
#define JSON_LIB "libjson-c.so.5"

static struct {
	__typeof__(&curl_easy_init) init;
	__typeof__(&curl_easy_setopt) setopt;
	__typeof__(&curl_easy_perform) perform;
	__typeof__(&curl_easy_getinfo) getinfo;
	__typeof__(&curl_easy_cleanup) cleanup;
	__typeof__(&curl_easy_strerror) strerror;
	__typeof__(&curl_easy_escape) escape;
	__typeof__(&curl_free) free;
} cu;

static struct {
	__typeof__(&json_tokener_parse) parse;
	__typeof__(&json_object_put) put;
	__typeof__(&json_object_object_get_ex) get;
	__typeof__(&json_object_get_type) type;
	__typeof__(&json_object_get_string) string;
	__typeof__(&json_object_array_length) len;
	__typeof__(&json_object_array_get_idx) idx;
	__typeof__(&json_object_get_double) dbl;
} js;

struct promapi {
	char *url;		/* .../api/v1/query */
	char *host_label;
	CURL *h;
	char errbuf[CURL_ERROR_SIZE];
	char *body;		/* the last answer */
	size_t len, cap;
	int too_big;
	json_object *root;	/* the last answer, parsed */
	struct prom_sample *s;
	size_t n, scap;
};

/* dlsym of each name into the table's slots, in order. */
static int load(const char *lib, const char *pkg, const char *const *names,
		void **slots, size_t n, char *err, size_t errlen)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	const char *e;

	if (!h) {
		e = dlerror();
		snprintf(err, errlen, "--prometheus: cannot load %s (Debian: "
			 "%s): %s", lib, pkg, e ? e : "?");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		slots[i] = dlsym(h, names[i]);
		if (!slots[i]) {
			snprintf(err, errlen, "--prometheus: %s has no %s", lib,
				 names[i]);
			return -1;
		}
	}
	return 0;
}

static int libs_open(char *err, size_t errlen)
{
	static const char *const cnames[] = {
		"curl_easy_init", "curl_easy_setopt", "curl_easy_perform",
		"curl_easy_getinfo", "curl_easy_cleanup", "curl_easy_strerror",
		"curl_easy_escape", "curl_free",
	};
	static const char *const jnames[] = {
		"json_tokener_parse", "json_object_put",
		"json_object_object_get_ex", "json_object_get_type",
		"json_object_get_string", "json_object_array_length",
		"json_object_array_get_idx", "json_object_get_double",
	};
	_Static_assert(sizeof(cu) == sizeof(cnames), "curl's table");
	_Static_assert(sizeof(js) == sizeof(jnames), "json-c's table");

	if (cu.init && js.parse)
		return 0;
	if (load(CURL_LIB, "libcurl4", cnames, (void **)&cu,
		 sizeof(cnames) / sizeof(cnames[0]), err, errlen) < 0)
		return -1;
	return load(JSON_LIB, "libjson-c5", jnames, (void **)&js,
		    sizeof(jnames) / sizeof(jnames[0]), err, errlen);
}

static size_t on_data(char *data, size_t size, size_t n, void *ctx)
{
	struct promapi *a = ctx;
	size_t k = size * n;

	if (a->len + k + 1 > PROMAPI_MAX_BYTES) {
		a->too_big = 1;
		return 0;	/* libcurl stops: a write error */
	}
	if (a->len + k + 1 > a->cap) {
		a->cap = (a->len + k + 1) * 2;
		a->body = xreallocarray(a->body, a->cap, 1);
	}
	memcpy(a->body + a->len, data, k);
	a->len += k;
	a->body[a->len] = '\0';
	return k;
}

struct promapi *promapi_new(const char *url, const char *host_label,
			    char *err, size_t errlen)
{
	struct promapi *a;
	size_t n = strlen(url);

	if (libs_open(err, errlen) < 0)
		return NULL;
	a = xcalloc(1, sizeof(*a));
	while (n && url[n - 1] == '/')
		n--;
	a->url = xmalloc(n + sizeof("/api/v1/query"));
	memcpy(a->url, url, n);
	strcpy(a->url + n, "/api/v1/query");
	a->host_label = xstrdup(host_label);
	a->h = cu.init();
	if (!a->h) {
		snprintf(err, errlen, "--prometheus: libcurl cannot start");
		promapi_free(a);
		return NULL;
	}
	cu.setopt(a->h, CURLOPT_URL, a->url);
	cu.setopt(a->h, CURLOPT_ERRORBUFFER, a->errbuf);
	cu.setopt(a->h, CURLOPT_WRITEFUNCTION, on_data);
	cu.setopt(a->h, CURLOPT_WRITEDATA, a);
	cu.setopt(a->h, CURLOPT_TIMEOUT, (long)PROMAPI_TIMEOUT_S);
	cu.setopt(a->h, CURLOPT_NOSIGNAL, 1L);
	cu.setopt(a->h, CURLOPT_PROTOCOLS_STR, "http,https");
	cu.setopt(a->h, CURLOPT_ACCEPT_ENCODING, "");
	return a;
}

static void clear(struct promapi *a)
{
	if (a->root)
		js.put(a->root);
	a->root = NULL;
	a->len = 0;
	if (a->body)
		a->body[0] = '\0';
	a->n = 0;
	a->too_big = 0;
}

void promapi_free(struct promapi *a)
{
	if (!a)
		return;
	clear(a);
	if (a->h)
		cu.cleanup(a->h);
	free(a->body);
	free(a->s);
	free(a->url);
	free(a->host_label);
	free(a);
}

/* Member key of o, a string: its text, or NULL. */
static const char *member(json_object *o, const char *key)
{
	json_object *v;

	if (!js.get(o, key, &v) || js.type(v) != json_type_string)
		return NULL;
	return js.string(v);
}

/* Room in a->s for n more samples. */
static struct prom_sample *room(struct promapi *a, size_t n)
{
	if (a->n + n > a->scap) {
		a->scap = (a->n + n) * 2;
		a->s = xreallocarray(a->s, a->scap, sizeof(*a->s));
	}
	return &a->s[a->n];
}

/* A point [time, "text"] of series i (labels m) into a->s: 0, or -1. */
static int take_point(struct promapi *a, json_object *m, json_object *v,
		      size_t i)
{
	struct prom_sample *s = room(a, 1);
	json_object *t, *x;
	const char *name;

	if (js.type(v) != json_type_array || js.len(v) != 2 ||
	    !(t = js.idx(v, 0)) || (js.type(t) != json_type_double &&
				    js.type(t) != json_type_int) ||
	    !(x = js.idx(v, 1)) || js.type(x) != json_type_string)
		return -1;
	name = member(m, PROMAPI_RATE_LABEL);
	s->name = name ? name : member(m, "__name__");
	s->host = member(m, a->host_label);
	s->path = member(m, "cgroup");
	s->value = js.string(x);
	s->t = js.dbl(t);
	s->series = i;
	a->n++;
	return 0;
}

/* The vector's series, or the matrix's points, into a->s: 0, or -1 when
 * the answer is not one. */
static int take_result(struct promapi *a, char *err, size_t errlen)
{
	json_object *data, *res;
	const char *st, *e, *type;
	int matrix;

	st = member(a->root, "status");
	if (!st) {
		snprintf(err, errlen, "--prometheus %s: not a Prometheus API "
			 "answer (no status)", a->url);
		return -1;
	}
	if (strcmp(st, "success")) {
		e = member(a->root, "error");
		snprintf(err, errlen, "--prometheus %s: the query failed: %.200s",
			 a->url, e ? e : st);
		return -1;
	}
	if (!js.get(a->root, "data", &data) ||
	    !js.get(data, "result", &res) ||
	    js.type(res) != json_type_array) {
		snprintf(err, errlen, "--prometheus %s: not a Prometheus API "
			 "answer (no data.result)", a->url);
		return -1;
	}
	type = member(data, "resultType");
	matrix = type && !strcmp(type, "matrix");
	for (size_t i = 0; i < js.len(res); i++) {
		json_object *it = js.idx(res, i), *m, *v;
		int bad = !js.get(it, "metric", &m) ||
			!js.get(it, matrix ? "values" : "value", &v);

		if (!bad && matrix && js.type(v) == json_type_array)
			for (size_t k = 0; k < js.len(v) && !bad; k++)
				bad = take_point(a, m, js.idx(v, k), i) < 0;
		else
			bad = bad || take_point(a, m, v, i) < 0;
		if (bad) {
			snprintf(err, errlen, "--prometheus %s: not a "
				 "Prometheus API answer (a series without "
				 "metric or value)", a->url);
			return -1;
		}
	}
	return 0;
}

int promapi_query(struct promapi *a, const char *query, long long at,
		  const struct prom_sample **ret, size_t *ret_n, char *err,
		  size_t errlen)
{
	char *q = cu.escape(a->h, query, 0), *form;
	long code = 0;
	CURLcode rc;

	clear(a);
	if (!q) {
		snprintf(err, errlen, "--prometheus: out of memory");
		return -1;
	}
	form = xmalloc(strlen(q) + sizeof("query=&time=") + 24);
	sprintf(form, "query=%s&time=%lld", q, at);
	cu.free(q);
	a->errbuf[0] = '\0';
	cu.setopt(a->h, CURLOPT_POSTFIELDS, form);
	rc = cu.perform(a->h);
	free(form);
	if (rc != CURLE_OK) {
		if (a->too_big)
			snprintf(err, errlen, "--prometheus %s: the answer is "
				 "over %ld MiB", a->url,
				 PROMAPI_MAX_BYTES >> 20);
		else
			snprintf(err, errlen, "--prometheus %s: %s", a->url,
				 a->errbuf[0] ? a->errbuf : cu.strerror(rc));
		return -1;
	}
	cu.getinfo(a->h, CURLINFO_RESPONSE_CODE, &code);
	a->root = a->body ? js.parse(a->body) : NULL;
	if (a->root && js.type(a->root) != json_type_object) {
		js.put(a->root);
		a->root = NULL;
	}
	/* The API's errors (400, 422, 503) have a JSON body saying why. */
	if (code != 200 && !(a->root && member(a->root, "error"))) {
		snprintf(err, errlen, "--prometheus %s: the server answered "
			 "HTTP %ld", a->url, code);
		return -1;
	}
	if (!a->root) {
		snprintf(err, errlen, "--prometheus %s: the answer is not JSON",
			 a->url);
		return -1;
	}
	if (take_result(a, err, errlen) < 0)
		return -1;
	*ret = a->s;
	*ret_n = a->n;
	return 0;
}
