/* SPDX-License-Identifier: GPL-2.0-or-later */
/* knob.c - the knob table and the checking of new values. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fmt.h"
#include "knob.h"

const struct knob knobs[] = {
	{ "limit", NULL, 1, "memory.limit_in_bytes", KNOB_LIMIT,
	  "hard limit of memory (size or max)" },
	{ "soft", NULL, 1, "memory.soft_limit_in_bytes", KNOB_LIMIT,
	  "soft limit: reclaimed toward it first under global pressure" },
	{ "memsw", NULL, 1, "memory.memsw.limit_in_bytes", KNOB_LIMIT,
	  "limit of memory plus swap (at least the memory limit)" },
	{ "swappiness", NULL, 1, "memory.swappiness", KNOB_SWAPPINESS,
	  "how readily anonymous memory is swapped (0-200)" },
	{ "limit", "max", 2, "memory.max", KNOB_LIMIT,
	  "hard limit: above it the group is reclaimed, then OOM-killed" },
	{ "high", NULL, 2, "memory.high", KNOB_LIMIT,
	  "throttle limit: above it the group is reclaimed and slowed" },
	{ "low", NULL, 2, "memory.low", KNOB_SIZE,
	  "best-effort protection from reclaim" },
	{ "min", NULL, 2, "memory.min", KNOB_SIZE,
	  "hard protection from reclaim" },
	{ "swap.max", NULL, 2, "memory.swap.max", KNOB_LIMIT,
	  "limit of swap use (size or max)" },
	{ "oom.group", NULL, 2, "memory.oom.group", KNOB_BOOL,
	  "1: an OOM kill takes the whole group" },
	{ "reclaim", NULL, 2, "memory.reclaim", KNOB_RECLAIM,
	  "reclaim this much now (size [swappiness=N])" },
};

const size_t nknobs = sizeof(knobs) / sizeof(knobs[0]);

const struct knob *knob_find(int version, const char *name, size_t len)
{
	for (size_t i = 0; i < nknobs; i++) {
		const struct knob *k = &knobs[i];

		if (k->version != version)
			continue;
		if ((strlen(k->name) == len && !memcmp(k->name, name, len)) ||
		    (k->alias && strlen(k->alias) == len &&
		     !memcmp(k->alias, name, len)))
			return k;
	}
	return NULL;
}

/*
 * Sizes: a decimal number (decimals allowed), then an optional unit K, M,
 * G or T (powers of 1024), itself optionally followed by B or iB; any
 * case.  A bare number, or one followed by B, is bytes.  The value must
 * come to a whole number of bytes: 1.5K is 1536 and 0.5M 524288, but 1.5,
 * 0.1K (102.4 bytes) and 1.0000001K are refused (-EDOM) rather than cut to
 * a byte count that was not asked for (0.1 would have written 0).
 */
int knob_parse_size(const char *s, size_t len, uint64_t *ret_bytes)
{
	static const char units[] = "kmgt";
	const char *dec = NULL;
	uint64_t whole = 0, part = 0, mul;
	size_t i = 0, ndec = 0;
	unsigned shift = 0;
	int digits = 0;

	while (i < len && s[i] >= '0' && s[i] <= '9') {
		if (whole > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(s[i++] - '0');
		digits++;
	}
	if (i < len && s[i] == '.') {
		dec = s + ++i;
		while (i < len && s[i] >= '0' && s[i] <= '9') {
			i++;
			digits++;
		}
		ndec = (size_t)(s + i - dec);
		while (ndec && dec[ndec - 1] == '0')
			ndec--;
	}
	if (!digits)
		return -EINVAL;
	if (i < len) {
		const char *u = strchr(units, s[i] | 0x20);

		if (u && s[i] != '\0') {
			shift = 10 * (1 + (unsigned)(u - units));
			i++;
			if (i < len && (s[i] | 0x20) == 'i')
				i++;
		}
		if (i < len && (s[i] | 0x20) == 'b')
			i++;
	}
	if (i != len)
		return -EINVAL;
	mul = 1ULL << shift;
	if (whole > UINT64_MAX / mul)
		return -ERANGE;
	/*
	 * The decimals D (ndec of them, trailing zeros dropped) times 2^shift
	 * over 10^ndec = 2^ndec 5^ndec: whole exactly when ndec <= shift and
	 * 5^ndec divides D.  Then the part is D / 5^ndec (below 2^ndec)
	 * times 2^(shift - ndec), below mul.  5^40 and the long division's
	 * remainders fit in 128 bits; D itself (up to 40 digits) need not.
	 */
	if (ndec) {
		unsigned __int128 five = 1, rem = 0, q = 0;

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
		part = (uint64_t)q << (shift - ndec);
	}
	if (whole * mul > UINT64_MAX - part)
		return -ERANGE;
	*ret_bytes = whole * mul + part;
	return 0;
}

static const char *accepts(const struct knob *k)
{
	switch (k->kind) {
	case KNOB_LIMIT:
		return "a size (bytes, or a number with K, M, G or T, e.g. "
		       "512M or 1.5G), max (also unlimited or -1), or a "
		       "change +SIZE, -SIZE, +N%, -N%";
	case KNOB_SIZE:
		return "a size (bytes, or a number with K, M, G or T, e.g. "
		       "512M or 1.5G), or a change +SIZE, -SIZE, +N%, -N%";
	case KNOB_SWAPPINESS:
		return "a whole number from 0 to 200";
	case KNOB_BOOL:
		return "0 or 1";
	case KNOB_RECLAIM:
		return "a size to reclaim (e.g. 64M), optionally followed by "
		       "swappiness=N (0-200)";
	}
	return "";
}

static int refuse(const struct knob *k, const char *text, char *err,
		  size_t errlen)
{
	char safe[300];

	/* What was typed may hold any byte: shown escaped, on one line. */
	fmt_escape(safe, sizeof(safe), text, strlen(text));
	snprintf(err, errlen, "%s: '%s' is not a value for %s; it takes %s",
		 k->name, safe, k->file, accepts(k));
	return -EINVAL;
}

/* A size that knob_parse_size refused with r: a fraction of a byte is said
 * to be one, as the rest is not a value at all. */
static int refuse_size(const struct knob *k, const char *text, int r,
		       char *err, size_t errlen)
{
	char safe[300];

	if (r != -EDOM)
		return refuse(k, text, err, errlen);
	fmt_escape(safe, sizeof(safe), text, strlen(text));
	snprintf(err, errlen, "%s: '%s' is not a whole number of bytes",
		 k->name, safe);
	return -EINVAL;
}

static int parse_uint(const char *s, unsigned max, unsigned *ret)
{
	uint64_t v;

	if (knob_parse_size(s, strlen(s), &v) < 0 || strpbrk(s, ".kKmMgGtTbB")
	    || v > max)
		return -EINVAL;
	*ret = (unsigned)v;
	return 0;
}

int knob_parse(const struct knob *k, const char *text, uint64_t cur,
	       int has_cur, struct knob_value *ret, char *err, size_t errlen)
{
	struct knob_value v = { 0 };
	size_t len = strlen(text);
	uint64_t amount = 0;
	int r;

	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	while (len && (*text == ' ' || *text == '\t')) {
		text++;
		len--;
	}
	if (len == 0 || len > 64 || memchr(text, '\n', len))
		return refuse(k, text, err, errlen);
	{
		char t[72];

		memcpy(t, text, len);
		t[len] = '\0';

		if (k->kind == KNOB_SWAPPINESS || k->kind == KNOB_BOOL) {
			unsigned n;

			if (parse_uint(t, k->kind == KNOB_BOOL ? 1 : 200,
				       &n) < 0)
				return refuse(k, t, err, errlen);
			v.bytes = n;
			*ret = v;
			return 0;
		}
		if (k->kind == KNOB_RECLAIM) {
			char *sp = strchr(t, ' ');

			if (sp) {
				*sp++ = '\0';
				while (*sp == ' ')
					sp++;
				if (strncmp(sp, "swappiness=", 11) ||
				    parse_uint(sp + 11, 200, &v.swappiness) < 0)
					return refuse(k, text, err, errlen);
				v.has_swappiness = 1;
			}
			r = knob_parse_size(t, strlen(t), &v.bytes);
			if (r == -EDOM)
				return refuse_size(k, t, r, err, errlen);
			if (r < 0 || v.bytes == 0)
				return refuse(k, text, err, errlen);
			*ret = v;
			return 0;
		}
		if (!strcasecmp(t, "max") || !strcasecmp(t, "unlimited") ||
		    !strcmp(t, "-1")) {
			if (k->kind != KNOB_LIMIT)
				return refuse(k, t, err, errlen);
			v.unlimited = 1;
			*ret = v;
			return 0;
		}
		if (t[0] == '+' || t[0] == '-') {
			int pct = t[len - 1] == '%';
			double d = 0;

			/* The change as typed first: one that is malformed is
			 * said to be so, whatever the current value. */
			if (pct) {
				char *e;

				/* A plain decimal percentage, no sign. */
				if (len < 3 || strspn(t + 1, "0123456789.") !=
				    len - 2)
					return refuse(k, t, err, errlen);
				t[len - 1] = '\0';
				d = strtod(t + 1, &e);
				t[len - 1] = '%';
				if (*e != '%' || d > 1000)
					return refuse(k, t, err, errlen);
			} else {
				r = knob_parse_size(t + 1, len - 1, &amount);
				if (r < 0)
					return refuse_size(k, t, r, err, errlen);
			}
			if (!has_cur) {
				snprintf(err, errlen, "%s: a change needs the "
					 "current value, which cannot be read",
					 k->name);
				return -EINVAL;
			}
			if (cur == UINT64_MAX) {
				snprintf(err, errlen, "%s: the current value is "
					 "max: give the new value itself",
					 k->name);
				return -EINVAL;
			}
			if (pct) {
				double x = (double)cur * d / 100.0;

				/* A double beyond 2^63 has no uint64_t to
				 * convert to here. */
				if (!(x < 0x1p63)) {
					snprintf(err, errlen, "%s: %s is too "
						 "large", k->name, t);
					return -ERANGE;
				}
				amount = (uint64_t)x;
			}
			if (t[0] == '-' && amount > cur) {
				snprintf(err, errlen, "%s: %s would take the "
					 "value below 0", k->name, t);
				return -ERANGE;
			}
			if (t[0] == '+' && amount > UINT64_MAX / 2 - cur) {
				snprintf(err, errlen, "%s: %s is too large",
					 k->name, t);
				return -ERANGE;
			}
			v.bytes = t[0] == '+' ? cur + amount : cur - amount;
			*ret = v;
			return 0;
		}
		r = knob_parse_size(t, len, &v.bytes);
		if (r < 0)
			return refuse_size(k, t, r, err, errlen);
		/* The kernel's counters end at LONG_MAX bytes. */
		if (v.bytes > (uint64_t)INT64_MAX) {
			snprintf(err, errlen, "%s: %s is beyond any limit the "
				 "kernel keeps; use max", k->name, t);
			return -ERANGE;
		}
		*ret = v;
		return 0;
	}
}

void knob_format(const struct knob *k, const struct knob_value *v, char *buf,
		 size_t len)
{
	if (v->unlimited) {
		snprintf(buf, len, "%s", k->version == 1 ? "-1" : "max");
		return;
	}
	if (k->kind == KNOB_RECLAIM && v->has_swappiness) {
		snprintf(buf, len, "%" PRIu64 " swappiness=%u", v->bytes,
			 v->swappiness);
		return;
	}
	snprintf(buf, len, "%" PRIu64, v->bytes);
}

const char *knob_explain(const struct knob *k, int err)
{
	switch (err) {
	case EBUSY:
		if (k->version == 1 && k->kind == KNOB_LIMIT)
			return "the kernel could not reclaim the group down to "
			       "the new limit and kept the old one";
		return "the kernel is busy with this group; nothing changed";
	case EINVAL:
		if (k->version == 1 && (!strcmp(k->name, "memsw") ||
					!strcmp(k->name, "limit")))
			return "the kernel refused the value: the memory+swap "
			       "limit must be at least the memory limit";
		return "the kernel refused the value";
	case EAGAIN:
		if (k->kind == KNOB_RECLAIM)
			return "the kernel could not reclaim the whole amount";
		return "try again";
	case EACCES:
	case EPERM:
		return "no permission to change it";
	case ENOENT:
		return "the group or its file no longer exists";
	case EROFS:
		return "the hierarchy is mounted read-only";
	case ELOOP:
		return "the control file is a symbolic link; not followed";
	default:
		return "nothing changed";
	}
}
