/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * promapi.h - instant queries to a Prometheus HTTP API server
 * (/api/v1/query), for --prometheus alone: libcurl and json-c are opened
 * at run time, so the default binary needs neither.
 */
#ifndef MEMCGTOP_PROMAPI_H
#define MEMCGTOP_PROMAPI_H

#include <stddef.h>

/* The whole answer to one query may take this long (libcurl's timeout). */
#define PROMAPI_TIMEOUT_S	10
/* An answer larger than this is refused (100,000 groups' series take
 * some 300 MiB). */
#define PROMAPI_MAX_BYTES	(1024L * 1024 * 1024)

struct promapi;

/* One series of an instant vector: its labels and value, as the answer
 * gave them; the strings live until the next query or promapi_free. */
struct prom_sample {
	const char *name;	/* __name__ */
	const char *host;	/* the host label's value, or NULL */
	const char *path;	/* the cgroup label's value, or NULL */
	const char *value;	/* "123", "+Inf", "1.5" */
};

/* Loads the libraries: NULL, with a one-line reason in err. */
struct promapi *promapi_new(const char *url, const char *host_label,
			    char *err, size_t errlen);
/*
 * One instant query: 0 with *ret the vector's series (*ret_n of them), or
 * -1 with a one-line reason in err: the server cannot be reached or timed
 * out, answered an HTTP error or something that is not the API's answer.
 */
int promapi_query(struct promapi *a, const char *query,
		  const struct prom_sample **ret, size_t *ret_n, char *err,
		  size_t errlen);
void promapi_free(struct promapi *a);

#endif
