/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_value.c - parse_u64, parse_value, parse_value_file (which needs
 * the file's newline) and parse_centi, each over the whole input and
 * compared with a reference parser. */
#include "fuzz.h"
#include "parse.h"

static int ref_value(const char *s, size_t n, uint64_t *ret)
{
	uint64_t v;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	if (n == 3 && !memcmp(s, "max", 3)) {
		*ret = VAL_MAX;
		return 0;
	}
	if (ref_u64(s, n, &v) < 0)
		return -1;
	*ret = v >= V1_UNLIMITED_MIN ? VAL_MAX : v;
	return 0;
}

static int ref_value_file(const char *s, size_t n, uint64_t *ret)
{
	if (n == 0 || s[n - 1] != '\n')
		return -1;
	return ref_value(s, n - 1, ret);
}

static int ref_centi(const char *s, size_t n, uint64_t *ret)
{
	const char *dot = memchr(s, '.', n);
	size_t wl = dot ? (size_t)(dot - s) : n, fl = dot ? n - wl - 1 : 0;
	uint64_t w, f = 0;
	unsigned __int128 v;

	if (ref_u64(s, wl, &w) < 0)
		return -1;
	if (dot) {
		if (fl == 0 || fl > 2 || ref_u64(dot + 1, fl, &f) < 0)
			return -1;
		if (fl == 1)
			f *= 10;
	}
	v = (unsigned __int128)w * 100 + f;
	if (v > UINT64_MAX)
		return -1;
	*ret = (uint64_t)v;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	const uint64_t poison = 0x5A5A5A5A5A5A5A5AULL;
	uint64_t got, want;
	int r, rr;

	/* parse_u64: same verdict and value; untouched on error. */
	got = poison;
	r = parse_u64(buf, size, &got);
	rr = ref_u64(buf, size, &want);
	CHECK((r == 0) == (rr == 0));
	if (r == 0)
		CHECK(got == want);
	else
		CHECK(got == poison && (r == -22 || r == -34)); /* EINVAL, ERANGE */
	if (rr == -2)
		CHECK(r == -34);

	got = poison;
	r = parse_value(buf, size, &got);
	rr = ref_value(buf, size, &want);
	CHECK((r == 0) == (rr == 0));
	if (r == 0)
		CHECK(got == want && (got == VAL_MAX || got < V1_UNLIMITED_MIN));
	else
		CHECK(got == poison);

	got = poison;
	r = parse_value_file(buf, size, &got);
	rr = ref_value_file(buf, size, &want);
	CHECK((r == 0) == (rr == 0));
	if (r == 0)
		CHECK(got == want && (got == VAL_MAX || got < V1_UNLIMITED_MIN));
	else
		CHECK(got == poison);

	got = poison;
	r = parse_centi(buf, size, &got);
	rr = ref_centi(buf, size, &want);
	CHECK((r == 0) == (rr == 0));
	if (r == 0)
		CHECK(got == want);
	else
		CHECK(got == poison);

	/* A prefix of every length: the parsers use only len, never a NUL. */
	for (size_t n = 0; n < size && n < 24; n++) {
		uint64_t a, b;

		CHECK((parse_u64(buf, n, &a) == 0) == (ref_u64(buf, n, &b) == 0));
		CHECK((parse_centi(buf, n, &a) == 0) ==
		      (ref_centi(buf, n, &b) == 0));
		CHECK((parse_value_file(buf, n, &a) == 0) ==
		      (ref_value_file(buf, n, &b) == 0));
	}
	free(buf);
	return 0;
}
