/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_size.c - parse_size, and knob_parse + knob_format for every knob
 * of knobs[] with a few current values.
 *
 * parse_size is compared with a reference that works on the decimal
 * digits as written, as by hand: DIGITS[.DIGITS][K|M|G|T[iB|B]|B], any
 * case (parse.h's grammar); the number is doubled once per bit of the
 * unit, and a decimal left that is not 0 is a fraction of a byte (-EDOM).
 * knob_parse results are checked per kind, and what knob_format writes
 * must parse back to the same value.
 */
#include <errno.h>

#include "fuzz.h"
#include "knob.h"
#include "parse.h"

/* Doubles the decimal number d[0..n) (digits 0-9) in place: one more
 * digit in front when it carries out, then d starts at d - 1. */
static void double_digits(unsigned char **d, size_t *n)
{
	unsigned carry = 0;

	for (size_t i = *n; i-- > 0;) {
		unsigned x = (*d)[i] * 2u + carry;

		(*d)[i] = (unsigned char)(x % 10);
		carry = x / 10;
	}
	if (carry) {
		*(--*d) = (unsigned char)carry;
		(*n)++;
	}
}

static int ref_size(const char *s, size_t n, uint64_t *ret)
{
	unsigned __int128 whole = 0, v = 0;
	size_t i = 0, ws, we, fs = 0, fe = 0, nd, nint;
	unsigned shift = 0;
	unsigned char *buf, *d;
	int digits = 0, big = 0, r = 0;

	ws = i;
	while (i < n && s[i] >= '0' && s[i] <= '9') {
		whole = whole * 10 + (unsigned)(s[i++] - '0');
		if (whole > UINT64_MAX)
			big = 1, whole = (unsigned __int128)UINT64_MAX + 1;
		digits++;
	}
	we = i;
	if (!digits)
		return -EINVAL;
	if (i < n && s[i] == '.') {
		fs = ++i;
		while (i < n && s[i] >= '0' && s[i] <= '9')
			i++;
		fe = i;
		if (fe == fs)
			return -EINVAL;
	}
	if (i < n) {
		const char *u = s[i] ? strchr("kmgt", s[i] | 0x20) : NULL;

		if (u) {
			shift = 10 * (1 + (unsigned)(u - "kmgt"));
			i++;
			if (i + 1 < n && (s[i] | 0x20) == 'i' &&
			    (s[i + 1] | 0x20) == 'b')
				i++;
		}
		if (i < n && (s[i] | 0x20) == 'b')
			i++;
	}
	if (i != n)
		return -EINVAL;
	if (big)	/* a well-formed number that does not fit */
		return -ERANGE;
	if ((whole << shift) > UINT64_MAX)
		return -ERANGE;
	/* The digits, the whole ones then the decimals, with room in front
	 * for what the doublings carry out (2^40 < 10^13). */
	nint = we - ws;
	nd = nint + (fe - fs);
	buf = malloc(nd + 16);
	CHECK(buf != NULL);
	d = buf + 16;
	for (size_t k = 0; k < nint; k++)
		d[k] = (unsigned char)(s[ws + k] - '0');
	for (size_t k = 0; k < fe - fs; k++)
		d[nint + k] = (unsigned char)(s[fs + k] - '0');
	for (unsigned k = 0; k < shift; k++) {
		size_t before = nd;

		double_digits(&d, &nd);
		nint += nd - before;
	}
	for (size_t k = nint; k < nd; k++)
		if (d[k])
			r = -EDOM;
	for (size_t k = 0; k < nint && !r; k++) {
		v = v * 10 + d[k];
		if (v > UINT64_MAX)
			r = -ERANGE;
	}
	free(buf);
	if (r)
		return r;
	*ret = (uint64_t)v;
	return 0;
}

static const uint64_t curs[] = {
	0, 1, 4096, 268435456, 1ULL << 40,
	V1_UNLIMITED_MIN - 1,		/* the largest limit read as a number */
	UINT64_MAX,			/* max */
};

static void check_knob(const struct knob *k, const char *text, uint64_t cur,
		       int has_cur)
{
	struct knob_value v, back;
	char err[512], out[64], out8[8];
	const char *t = text;
	size_t tl = strlen(text);
	int r;

	memset(err, 'X', sizeof(err));
	memset(&v, 0xA5, sizeof(v));
	r = knob_parse(k, text, cur, has_cur, &v, err, sizeof(err));
	if (r < 0) {
		CHECK(r == -EINVAL || r == -ERANGE);
		check_message(err, sizeof(err));	/* typed text escaped */
		CHECK(strncmp(err, k->name, strlen(k->name)) == 0);
		return;
	}
	CHECK(r == 0 && tl > 0 && tl <= 64);
	switch (k->kind) {
	case KNOB_SWAPPINESS:
		CHECK(!v.unlimited && v.bytes <= 200);
		break;
	case KNOB_BOOL:
		CHECK(!v.unlimited && v.bytes <= 1);
		break;
	case KNOB_RECLAIM:
		CHECK(!v.unlimited && v.bytes > 0);
		if (v.has_swappiness)
			CHECK(v.swappiness <= 200);
		break;
	case KNOB_SIZE:
		CHECK(!v.unlimited);
		/* fall through */
	case KNOB_LIMIT:
		if (v.unlimited)
			break;
		CHECK(v.bytes <= (uint64_t)INT64_MAX);
		if (t[0] == '+') {
			CHECK(has_cur && cur != UINT64_MAX && v.bytes >= cur);
		} else if (t[0] == '-') {
			CHECK(has_cur && cur != UINT64_MAX && v.bytes <= cur);
		} else {
			uint64_t want;

			CHECK(ref_size(t, tl, &want) == 0 && want == v.bytes);
		}
		break;
	}

	knob_format(k, &v, out, sizeof(out));
	CHECK(strlen(out) < sizeof(out));
	if (v.unlimited) {
		CHECK(strcmp(out, k->version == 1 ? "-1" : "max") == 0);
	} else {
		uint64_t num;
		const char *sp = strchr(out, ' ');

		CHECK(parse_u64(out, sp ? (size_t)(sp - out) : strlen(out),
				&num) == 0 && num == v.bytes);
		CHECK(!sp == !(k->kind == KNOB_RECLAIM && v.has_swappiness));
	}
	/* What is written reads back as the same value. */
	memset(&back, 0, sizeof(back));
	CHECK(knob_parse(k, out, 0, 0, &back, err, sizeof(err)) == 0);
	CHECK(back.unlimited == v.unlimited);
	if (!v.unlimited)
		CHECK(back.bytes == v.bytes);
	if (k->kind == KNOB_RECLAIM) {
		CHECK(back.has_swappiness == v.has_swappiness);
		if (v.has_swappiness)
			CHECK(back.swappiness == v.swappiness);
	}
	/* A short buffer is cut and terminated. */
	knob_format(k, &v, out8, sizeof(out8));
	CHECK(strnlen(out8, sizeof(out8)) < sizeof(out8));
	CHECK(strncmp(out8, out, strlen(out8)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size), *str;
	uint64_t got = 0x5A5A5A5A5A5A5A5AULL, want;
	int r, rr;

	r = parse_size(buf, size, &got);
	rr = ref_size(buf, size, &want);
	CHECK(r == rr);
	if (r == 0)
		CHECK(got == want);
	else
		CHECK(got == 0x5A5A5A5A5A5A5A5AULL);
	free(buf);

	if (size > 200)	/* knob_parse refuses more than 64 bytes anyway */
		return 0;
	str = fuzz_strdup(data, size);
	for (size_t i = 0; i < nknobs; i++) {
		check_knob(&knobs[i], str, 0, 0);
		for (size_t c = 0; c < sizeof(curs) / sizeof(curs[0]); c++)
			check_knob(&knobs[i], str, curs[c], 1);
	}
	free(str);
	return 0;
}
