/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * promapi.h - instant queries to a Prometheus HTTP API server
 * (/api/v1/query) at a given evaluation time, for --prometheus alone: libcurl and json-c are opened
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

/* The label --prometheus's rate query gives each rate: the name of the
 * counter it is the rate of (rate() drops __name__). */
#define PROMAPI_RATE_LABEL "memcgtop_rate_of"

/* One sample of the answer: of an instant vector, a series' labels and
 * value; of a range vector (a matrix), one point of a series, the points
 * of a series in a row, series telling them apart.  The strings live
 * until the next query or promapi_free. */
struct prom_sample {
	const char *name;	/* __name__, or the PROMAPI_RATE_LABEL's */
	const char *host;	/* the host label's value, or NULL */
	const char *path;	/* the cgroup label's value, or NULL */
	const char *value;	/* "123", "+Inf", "1.5" */
	double t;		/* its time, Unix seconds */
	size_t series;		/* the index of its series in the answer */
};

/* Loads the libraries: NULL, with a one-line reason in err. */
struct promapi *promapi_new(const char *url, const char *host_label,
			    char *err, size_t errlen);
/*
 * One instant query evaluated at Unix time at (whole seconds): 0 with
 * *ret the vector's series or the matrix's points (*ret_n of them), or -1
 * with a one-line reason in err: the server cannot be reached or timed
 * out, answered an HTTP error or something that is not the API's answer.
 */
int promapi_query(struct promapi *a, const char *query, long long at,
		  const struct prom_sample **ret, size_t *ret_n, char *err,
		  size_t errlen);
void promapi_free(struct promapi *a);

#endif
