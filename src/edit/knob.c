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
#include "parse.h"

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

/* A size that parse_size refused with r: a fraction of a byte is said
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

	if (parse_count(s, 0, max, &v) < 0)
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

	/* As typed, nothing around it (parse.h's grammar): " 5M" is no
	 * more a size than "5M " or "0x10". */
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
				if (strncmp(sp, "swappiness=", 11) ||
				    parse_uint(sp + 11, 200, &v.swappiness) < 0)
					return refuse(k, text, err, errlen);
				v.has_swappiness = 1;
			}
			r = parse_size(t, strlen(t), &v.bytes);
			if (r == -EDOM)
				return refuse_size(k, t, r, err, errlen);
			if (r < 0 || v.bytes == 0)
				return refuse(k, text, err, errlen);
			*ret = v;
			return 0;
		}
		if (k->kind == KNOB_LIMIT && parse_limit(t, len, &amount) == 0 &&
		    amount == VAL_MAX) {
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
				/* A plain decimal percentage, no sign. */
				if (parse_decimal(t + 1, len - 2, &d) < 0 ||
				    d > 1000)
					return refuse(k, t, err, errlen);
			} else {
				r = parse_size(t + 1, len - 1, &amount);
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
		r = parse_size(t, len, &v.bytes);
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
