/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.c - bounded, strict parsers for kernel and user text. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"
#include "xalloc.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int parse_u64(const char *s, size_t len, uint64_t *ret_val)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*ret_val = v;
	return 0;
}

int parse_value(const char *s, size_t len, uint64_t *ret_val)
{
	uint64_t v;
	int r;

	while (len > 0 && is_space(s[len - 1]))
		len--;
	if (len == 3 && memcmp(s, "max", 3) == 0) {
		*ret_val = VAL_MAX;
		return 0;
	}
	r = parse_u64(s, len, &v);
	if (r < 0)
		return r;
	*ret_val = v >= V1_UNLIMITED_MIN ? VAL_MAX : v;
	return 0;
}

int parse_value_file(const char *buf, size_t len, uint64_t *ret_val)
{
	/* The kernel ends the value with a newline: without it the file was
	 * cut short and the number may be too. */
	if (len == 0 || buf[len - 1] != '\n')
		return -EINVAL;
	return parse_value(buf, len - 1, ret_val);
}

int parse_centi(const char *s, size_t len, uint64_t *ret_val)
{
	const char *dot = memchr(s, '.', len);
	uint64_t whole, frac = 0;
	size_t wlen = dot ? (size_t)(dot - s) : len;
	int r;

	r = parse_u64(s, wlen, &whole);
	if (r < 0)
		return r;
	if (dot) {
		size_t flen = len - wlen - 1;

		if (flen == 0 || flen > 2)
			return -EINVAL;
		r = parse_u64(dot + 1, flen, &frac);
		if (r < 0)
			return r;
		if (flen == 1)
			frac *= 10;
	}
	if (whole > (UINT64_MAX - frac) / 100)
		return -ERANGE;
	*ret_val = whole * 100 + frac;
	return 0;
}

/*
 * Calls line(start, len) for each newline-terminated line.  The kernel ends
 * every line with '\n'; a last line without one was cut short (a truncated
 * file, or a buffer too small) and its value cannot be trusted.
 */
static const char *next_line(const char **pos, const char *end, size_t *ret_len)
{
	const char *s = *pos, *nl;

	if (s >= end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl)
		return NULL;
	*ret_len = (size_t)(nl - s);
	*pos = nl + 1;
	return s;
}

int parse_keyvals(const char *buf, size_t len, parse_kv_fn fn, void *ctx)
{
	const char *pos = buf, *end = buf + len, *line;
	size_t llen;
	int n = 0;

	while ((line = next_line(&pos, end, &llen))) {
		const char *sp = memchr(line, ' ', llen);
		uint64_t v;

		if (!sp || sp == line)
			continue;
		if (parse_u64(sp + 1, llen - (size_t)(sp + 1 - line), &v) < 0)
			continue;
		fn(line, (size_t)(sp - line), v, ctx);
		n++;
	}
	return n;
}

/* A line's N<node>=<value> words (from q to le) as key k's. */
static void numa_words(struct numa_stat *ret, const char *q, const char *le,
		       size_t k)
{
	while (q < le) {
		const char *w = q, *eq;
		size_t wl = 0, i;
		uint64_t node, v;

		while (w < le && *w == ' ')
			w++;
		while (w + wl < le && w[wl] != ' ')
			wl++;
		q = w + wl;
		eq = memchr(w, '=', wl);
		if (wl < 3 || *w != 'N' || !eq ||
		    parse_u64(w + 1, (size_t)(eq - w - 1), &node) < 0 ||
		    node > UINT32_MAX ||
		    parse_u64(eq + 1, (size_t)(w + wl - eq - 1), &v) < 0)
			continue;
		for (i = 0; i < ret->n && ret->node[i] != node; i++)
			;
		if (i == ret->n) {
			if (ret->n == NUMA_MAX_NODES)
				continue;
			ret->node[ret->n++] = (unsigned)node;
		}
		if (!ret->has[i][k]) {
			ret->v[i][k] = v;
			ret->has[i][k] = 1;
		}
	}
}

void parse_numa_stat(const char *buf, size_t len, const char *const *keys,
		     size_t nkeys, struct numa_stat *ret)
{
	const char *pos = buf, *end = buf + len, *line;
	size_t llen;

	memset(ret, 0, sizeof(*ret));
	if (nkeys > NUMA_MAX_KEYS)
		nkeys = NUMA_MAX_KEYS;
	while ((line = next_line(&pos, end, &llen))) {
		size_t kl = 0;

		while (kl < llen && line[kl] != ' ' && line[kl] != '=')
			kl++;
		/* A key the view names twice fills both. */
		for (size_t k = 0; k < nkeys; k++)
			if (strlen(keys[k]) == kl && !memcmp(line, keys[k], kl))
				numa_words(ret, line + kl, line + llen, k);
	}
}

int parse_meminfo(const char *buf, size_t len, parse_kv_fn fn, void *ctx)
{
	const char *pos = buf, *end = buf + len, *line;
	size_t llen;
	int n = 0;

	while ((line = next_line(&pos, end, &llen))) {
		const char *colon = memchr(line, ':', llen);
		const char *v, *le = line + llen;
		uint64_t val, mul = 1;
		size_t vlen;

		if (!colon || colon == line)
			continue;
		v = colon + 1;
		while (v < le && *v == ' ')
			v++;
		vlen = (size_t)(le - v);
		if (vlen > 3 && memcmp(le - 3, " kB", 3) == 0) {
			vlen -= 3;
			mul = 1024;
		}
		if (parse_u64(v, vlen, &val) < 0 || val > UINT64_MAX / mul)
			continue;
		fn(line, (size_t)(colon - line), val * mul, ctx);
		n++;
	}
	return n;
}

/* "some avg10=0.00 avg60=0.00 avg300=0.00 total=0" */
static int psi_line(const char *line, size_t len, uint64_t *ret_avg10,
		    uint64_t *ret_total)
{
	const char *p = line, *end = line + len;
	int have = 0;

	while (p < end) {
		const char *tok = p, *te, *eq;

		while (p < end && *p != ' ')
			p++;
		te = p;
		while (p < end && *p == ' ')
			p++;
		eq = memchr(tok, '=', (size_t)(te - tok));
		if (!eq)
			continue;
		if (eq - tok == 5 && memcmp(tok, "avg10", 5) == 0) {
			if (parse_centi(eq + 1, (size_t)(te - eq - 1),
					ret_avg10) < 0)
				return -EINVAL;
			have |= 1;
		} else if (eq - tok == 5 && memcmp(tok, "total", 5) == 0) {
			if (parse_u64(eq + 1, (size_t)(te - eq - 1),
				      ret_total) < 0)
				return -EINVAL;
			have |= 2;
		}
	}
	return have == 3 ? 0 : -EINVAL;
}

int parse_psi(const char *buf, size_t len, struct psi *ret_psi)
{
	const char *pos = buf, *end = buf + len, *line;
	struct psi p = { 0 };
	size_t llen;

	while ((line = next_line(&pos, end, &llen))) {
		uint64_t avg10 = 0, total = 0;

		/* Into locals first: a line that is refused changes nothing. */
		if (llen > 5 && memcmp(line, "some ", 5) == 0) {
			if (psi_line(line + 5, llen - 5, &avg10, &total) == 0) {
				p.some_avg10 = avg10;
				p.some_total = total;
				p.has_some = 1;
			}
		} else if (llen > 5 && memcmp(line, "full ", 5) == 0) {
			if (psi_line(line + 5, llen - 5, &avg10, &total) == 0) {
				p.full_avg10 = avg10;
				p.full_total = total;
				p.has_full = 1;
			}
		}
	}
	*ret_psi = p;
	return p.has_some || p.has_full ? 0 : -EINVAL;
}

uint64_t parse_count_lines(const char *buf, size_t len)
{
	uint64_t n = 0;
	int in_line = 0;

	for (size_t i = 0; i < len; i++) {
		if (buf[i] == '\n') {
			n += in_line;
			in_line = 0;
		} else {
			in_line = 1;
		}
	}
	return n + (uint64_t)in_line;
}

int parse_timestamps(const char *buf, size_t len, double **ret_mono,
		     int64_t **ret_wall, long **ret_slot, size_t *ret_n,
		     char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len;
	double *mono = NULL;
	int64_t *wall = NULL;
	long *slot = NULL;
	size_t n = 0, cap = 0;
	unsigned lineno = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = (size_t)((nl ? nl : end) - p);
		char line[128], *e, *e2;
		double m;
		long long w = 0;
		long sl = (long)n;

		lineno++;
		/* The recorder ends every line; a last line without its
		 * newline, after others that have one, was cut off (a copy
		 * that stopped short).  A one-line file may lack it. */
		if (!nl && lineno > 1) {
			snprintf(err, errlen, "line %u: truncated (no newline "
				 "at its end)", lineno);
			goto fail;
		}
		if (ll >= sizeof(line) || memchr(p, '\0', ll)) {
			snprintf(err, errlen, "line %u: malformed line", lineno);
			goto fail;
		}
		memcpy(line, p, ll);
		line[ll] = '\0';
		p = nl ? nl + 1 : end;
		errno = 0;
		m = strtod(line, &e);
		if (e == line || errno || !isfinite(m) || m < 0 ||
		    (n && m <= mono[n - 1]) || (*e && *e != ' ' && *e != '\t')) {
			snprintf(err, errlen, "line %u: expected a monotonic time "
				 "in seconds, increasing", lineno);
			goto fail;
		}
		if (m > TS_MONO_MAX) {
			snprintf(err, errlen, "line %u: monotonic time out of "
				 "range (at most %.0f seconds)", lineno,
				 TS_MONO_MAX);
			goto fail;
		}
		if (*e) {
			errno = 0;
			w = strtoll(e, &e2, 10);
			if (e2 == e || errno || (*e2 && *e2 != ' ' &&
						 *e2 != '\t')) {
				snprintf(err, errlen, "line %u: malformed wall "
					 "clock time", lineno);
				goto fail;
			}
			if (w < 0 || w > TS_WALL_MAX) {
				snprintf(err, errlen, "line %u: wall clock time "
					 "out of range (0 to %lld, the end of the "
					 "year 9999)", lineno, TS_WALL_MAX);
				goto fail;
			}
			if (*e2) {
				char *e3;

				errno = 0;
				sl = strtol(e2, &e3, 10);
				if (e3 == e2 || errno || *e3 || sl < 0 ||
				    sl > 100000000) {
					snprintf(err, errlen, "line %u: "
						 "malformed sample folder",
						 lineno);
					goto fail;
				}
			}
		}
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 16;

			mono = xreallocarray(mono, nc, sizeof(*mono));
			wall = xreallocarray(wall, nc, sizeof(*wall));
			slot = xreallocarray(slot, nc, sizeof(*slot));
			cap = nc;
		}
		mono[n] = m;
		wall[n] = (int64_t)w;
		slot[n] = sl;
		n++;
	}
	if (n == 0) {
		snprintf(err, errlen, "no samples");
		goto fail;
	}
	*ret_mono = mono;
	*ret_wall = wall;
	*ret_slot = slot;
	*ret_n = n;
	return 0;
fail:
	free(mono);
	free(wall);
	free(slot);
	return -EINVAL;
}

int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	uint64_t v;
	int r = parse_u64(s, strlen(s), &v);

	if (r < 0)
		return r;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* The digits at s + *i: how many, *i moved past them. */
static size_t digits_at(const char *s, size_t len, size_t *i)
{
	size_t start = *i;

	while (*i < len && s[*i] >= '0' && s[*i] <= '9')
		(*i)++;
	return *i - start;
}

/* DIGITS [. DIGITS] at the start of s: its length, 0 if s starts with
 * none; *ret_dot the place of the ".", 0 without one. */
static size_t decimal_len(const char *s, size_t len, size_t *ret_dot)
{
	size_t i = 0, dot;

	*ret_dot = 0;
	if (!digits_at(s, len, &i))
		return 0;
	if (i < len && s[i] == '.') {
		dot = i++;
		if (!digits_at(s, len, &i))
			return 0;
		*ret_dot = dot;
	}
	return i;
}

int parse_decimal(const char *s, size_t len, double *ret)
{
	char buf[64];
	size_t dot;

	if (!len || len >= sizeof(buf) || decimal_len(s, len, &dot) != len)
		return -EINVAL;
	/* Plain decimal digits, checked: strtod reads them as such ("." is
	 * the decimal point: the screen keeps LC_NUMERIC at C). */
	memcpy(buf, s, len);
	buf[len] = '\0';
	*ret = strtod(buf, NULL);
	return 0;
}

int parse_seconds(const char *s, double min, double max, double *ret)
{
	double v;
	int r = parse_decimal(s, strlen(s), &v);

	if (r < 0)
		return r;
	if (!(v >= min && v <= max))
		return -ERANGE;
	*ret = v;
	return 0;
}

int parse_interval(const char *s, double *ret)
{
	return parse_seconds(s, 0.05, 86400, ret) < 0 ? -EINVAL : 0;
}

/*
 * The decimals D (ndec of them) times 2^shift over 10^ndec = 2^ndec 5^ndec,
 * trailing zeros dropped: whole exactly when ndec <= shift and 5^ndec
 * divides D.  Then the part is D / 5^ndec (below 2^ndec) times
 * 2^(shift - ndec), below 2^shift.  5^40 and the long division's
 * remainders fit in 128 bits; D itself (up to 40 digits) need not.
 */
static int size_fraction(const char *dec, size_t ndec, unsigned shift,
			 uint64_t *ret_part)
{
	unsigned __int128 five = 1, rem = 0, q = 0;

	while (ndec && dec[ndec - 1] == '0')
		ndec--;
	*ret_part = 0;
	if (!ndec)
		return 0;
	if (ndec > shift)
		return -EDOM;
	for (size_t k = 0; k < ndec; k++)
		five *= 5;
	for (size_t k = 0; k < ndec; k++) {
		rem = rem * 10 + (unsigned)(dec[k] - '0');
		q = q * 10 + rem / five;
		rem %= five;
	}
	if (rem)
		return -EDOM;
	*ret_part = (uint64_t)q << (shift - ndec);
	return 0;
}

/*
 * A fraction that is not a whole number of bytes (0.1K is 102.4) is
 * refused (-EDOM) rather than cut to a byte count that was not asked for
 * (0.1 would have written 0).
 */
int parse_size(const char *s, size_t len, uint64_t *ret_bytes)
{
	static const char units[] = "kmgt";
	size_t dot, n = decimal_len(s, len, &dot), i = n;
	const char *u;
	uint64_t whole, part, mul;
	unsigned shift = 0;
	int r;

	if (!n)
		return -EINVAL;
	if (i < len && s[i] && (u = strchr(units, s[i] | 0x20))) {
		shift = 10 * (1 + (unsigned)(u - units));
		i++;
		/* KiB, MiB: the i only with its B. */
		if (i + 1 < len && (s[i] | 0x20) == 'i' &&
		    (s[i + 1] | 0x20) == 'b')
			i++;
	}
	if (i < len && (s[i] | 0x20) == 'b')
		i++;
	if (i != len)
		return -EINVAL;
	r = parse_u64(s, dot ? dot : n, &whole);
	if (r < 0)
		return r;
	mul = 1ULL << shift;
	if (whole > UINT64_MAX / mul)
		return -ERANGE;
	r = size_fraction(s + dot + 1, dot ? n - dot - 1 : 0, shift, &part);
	if (r < 0)
		return r;
	if (whole * mul > UINT64_MAX - part)
		return -ERANGE;
	*ret_bytes = whole * mul + part;
	return 0;
}

int parse_limit(const char *s, size_t len, uint64_t *ret_bytes)
{
	if ((len == 3 && !strncasecmp(s, "max", 3)) ||
	    (len == 9 && !strncasecmp(s, "unlimited", 9)) ||
	    (len == 2 && !memcmp(s, "-1", 2))) {
		*ret_bytes = VAL_MAX;
		return 0;
	}
	return parse_size(s, len, ret_bytes);
}

int parse_clean_path(const char *p)
{
	for (const char *q = p; *q; q += strcspn(q, "/"), q += *q == '/')
		if ((q[0] == '.' && (q[1] == '/' || !q[1])) ||
		    (q[0] == '.' && q[1] == '.' && (q[2] == '/' || !q[2])))
			return 0;
	return 1;
}
