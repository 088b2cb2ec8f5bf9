/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_psi.c - parse_psi (memory.pressure, /proc/pressure/memory) against
 * a reference: complete lines "some ..." / "full ..." of space-separated
 * tokens; the line counts when avg10=CENTI and total=U64 are both there
 * and every avg10= and total= in it parses.  The last such line of each
 * kind gives the values; a rejected line changes nothing. */
#include "fuzz.h"
#include "parse.h"

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

static int ref_line(const char *s, size_t n, uint64_t *ret_avg,
		    uint64_t *ret_total)
{
	uint64_t avg = 0, total = 0;
	int have = 0;
	size_t i = 0;

	while (i < n) {
		size_t t = i, te, kl;
		const char *eq;

		while (i < n && s[i] != ' ')
			i++;
		te = i;
		while (i < n && s[i] == ' ')
			i++;
		eq = memchr(s + t, '=', te - t);
		if (!eq)
			continue;
		kl = (size_t)(eq - (s + t));
		if (kl == 5 && !memcmp(s + t, "avg10", 5)) {
			if (ref_centi(eq + 1, te - kl - t - 1, &avg) < 0)
				return -1;
			have |= 1;
		} else if (kl == 5 && !memcmp(s + t, "total", 5)) {
			if (ref_u64(eq + 1, te - kl - t - 1, &total) < 0)
				return -1;
			have |= 2;
		}
	}
	if (have != 3)
		return -1;
	*ret_avg = avg;
	*ret_total = total;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	struct psi got, want = { 0 };
	const char *p = buf, *end = buf + size, *nl;
	int r;

	memset(&got, 0xA5, sizeof(got));
	r = parse_psi(buf, size, &got);

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p)))) {
		size_t ll = (size_t)(nl - p);
		uint64_t a, t;

		if (ll > 5 && !memcmp(p, "some ", 5) &&
		    ref_line(p + 5, ll - 5, &a, &t) == 0) {
			want.some_avg10 = a;
			want.some_total = t;
			want.has_some = 1;
		} else if (ll > 5 && !memcmp(p, "full ", 5) &&
			   ref_line(p + 5, ll - 5, &a, &t) == 0) {
			want.full_avg10 = a;
			want.full_total = t;
			want.has_full = 1;
		}
		p = nl + 1;
	}
	CHECK(r == 0 || r < 0);
	CHECK((r == 0) == (want.has_some || want.has_full));
	CHECK(got.has_some == want.has_some);
	CHECK(got.has_full == want.has_full);
	if (want.has_some) {
		CHECK(got.some_avg10 == want.some_avg10);
		CHECK(got.some_total == want.some_total);
	}
	if (want.has_full) {
		CHECK(got.full_avg10 == want.full_avg10);
		CHECK(got.full_total == want.full_total);
	}
	free(buf);
	return 0;
}
