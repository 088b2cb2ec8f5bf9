/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fmt.c - human units and the escaping rules of each output format. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fmt.h"

/* Copies the digits tmp[0..n) into buf (len > 0), cut to fit. */
static size_t put_digits(char *buf, size_t len, const char *tmp, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return n;
}

size_t fmt_u64(char *buf, size_t len, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put_digits(buf, len, tmp + n, sizeof(tmp) - n);
}

/*
 * A double is m * 2^e exactly (m < 2^53): the text "%.Nf" gives is that
 * value times 10^N rounded to an integer, halves to even (glibc's printf
 * in the default rounding mode), then cut in two at N digits.  Done here
 * in integers, as a refresh formats tens of thousands of cells and
 * printf's floating-point path is most of its user time.  Outside what
 * the integers hold (negative values keep the sign and use the same path;
 * not finite, or 10^N * x of 2^63 and above), snprintf does it.
 */
size_t fmt_fixed(char *buf, size_t len, double x, int decimals)
{
	static const uint64_t pow10[] = { 1, 10, 100, 1000, 10000 };
	unsigned __int128 num, q, rem, half;
	char tmp[48];
	size_t n = sizeof(tmp), neg = 0;
	int e, s;
	uint64_t m;

	if (decimals < 0 || decimals > 4 || !isfinite(x) ||
	    fabs(x) >= 9.2e18 / (double)pow10[decimals]) {
		int w = snprintf(buf, len, "%.*f", decimals < 0 ? 0 : decimals,
				 x);

		return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
	}
	if (signbit(x)) {
		neg = 1;
		x = -x;
	}
	m = (uint64_t)ldexp(frexp(x, &e), 53);
	s = 53 - e;		/* x = m / 2^s */
	num = (unsigned __int128)m * pow10[decimals];
	if (s <= 0) {
		q = num << -s;
	} else if (s >= 120) {
		q = 0;		/* num < 2^67: below half of 2^s */
	} else {
		q = num >> s;
		rem = num & ((((unsigned __int128)1) << s) - 1);
		half = ((unsigned __int128)1) << (s - 1);
		if (rem > half || (rem == half && (q & 1)))
			q++;
	}
	for (int d = 0; d < decimals; d++) {
		tmp[--n] = (char)('0' + (unsigned)(q % 10));
		q /= 10;
	}
	if (decimals)
		tmp[--n] = '.';
	do {
		tmp[--n] = (char)('0' + (unsigned)(q % 10));
		q /= 10;
	} while (q);
	if (neg)
		tmp[--n] = '-';
	return put_digits(buf, len, tmp + n, sizeof(tmp) - n);
}

/* text and one unit letter. */
static void with_unit(char *buf, size_t len, double x, int decimals, char u)
{
	size_t n = fmt_fixed(buf, len, x, decimals);

	if (n + 1 < len) {
		buf[n] = u;
		buf[n + 1] = '\0';
	}
}

void fmt_bytes(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "KMGTPE";
	double x = (double)v;
	int u = -1;

	if (v < 1024) {
		fmt_u64(buf, len, v);
		return;
	}
	while (x >= 1024 && u < 5) {
		x /= 1024;
		u++;
	}
	/* 1023.6K would print as "1024K": that is 1.0M. */
	if (x >= 1023.5 && u < 5) {
		x /= 1024;
		u++;
	}
	/* "%.1f" of 99.96 is "100.0": decide on the rounded value. */
	with_unit(buf, len, x, x < 99.95 ? 1 : 0, units[u]);
}

static void scaled_1000(char *buf, size_t len, double x)
{
	static const char units[] = "kMGTPE";
	int u = -1;

	while (x >= 999.95 && u < 5) {
		x /= 1000;
		u++;
	}
	if (u < 0)
		fmt_fixed(buf, len, x, 0);
	else
		with_unit(buf, len, x, x < 99.95 ? 1 : 0, units[u]);
}

void fmt_count(char *buf, size_t len, uint64_t v)
{
	if (v < 100000)
		fmt_u64(buf, len, v);
	else
		scaled_1000(buf, len, (double)v);
}

void fmt_rate(char *buf, size_t len, double v)
{
	if (v < 99.95)
		fmt_fixed(buf, len, v, 1);
	else
		scaled_1000(buf, len, v);
}

void fmt_hundredths(char *buf, size_t len, uint64_t v)
{
	size_t n = fmt_u64(buf, len, v / 100);

	if (n + 3 < len) {
		buf[n] = '.';
		buf[n + 1] = (char)('0' + v % 100 / 10);
		buf[n + 2] = (char)('0' + v % 10);
		buf[n + 3] = '\0';
	}
}

void fmt_time_iso(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "%" PRId64, t);
}

size_t fmt_utf8_len(const unsigned char *s, size_t len)
{
	unsigned c, cp;
	size_t n;

	if (len == 0)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
		cp = c & 0x1F;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		cp = c & 0x0F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (len < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are invalid. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return n;
}

/*
 * Unicode's format characters (category Cf, Unicode 15) and the line and
 * paragraph separators: invisible, yet they change how the text around
 * them shows.  U+202E (right-to-left override) prints the rest of a line
 * backwards, U+2066..U+2069 isolate and reorder, U+200B hides a break.
 */
static const struct { uint32_t lo, hi; } format_chars[] = {
	{ 0x00AD, 0x00AD }, { 0x0600, 0x0605 }, { 0x061C, 0x061C },
	{ 0x06DD, 0x06DD }, { 0x070F, 0x070F }, { 0x0890, 0x0891 },
	{ 0x08E2, 0x08E2 }, { 0x180E, 0x180E }, { 0x200B, 0x200F },
	{ 0x2028, 0x202E }, { 0x2060, 0x2064 }, { 0x2066, 0x206F },
	{ 0xFEFF, 0xFEFF }, { 0xFFF9, 0xFFFB }, { 0x110BD, 0x110BD },
	{ 0x110CD, 0x110CD }, { 0x13430, 0x1343F }, { 0x1BCA0, 0x1BCA3 },
	{ 0x1D173, 0x1D17A }, { 0xE0001, 0xE0001 }, { 0xE0020, 0xE007F },
};

/* The code point of a valid UTF-8 sequence of n > 1 bytes. */
static uint32_t utf8_cp(const unsigned char *s, size_t n)
{
	uint32_t cp = s[0] & (0x7F >> n);

	for (size_t i = 1; i < n; i++)
		cp = (cp << 6) | (s[i] & 0x3F);
	return cp;
}

static int is_format_char(uint32_t cp)
{
	for (size_t i = 0; i < sizeof(format_chars) / sizeof(format_chars[0]);
	     i++)
		if (cp >= format_chars[i].lo && cp <= format_chars[i].hi)
			return 1;
	return 0;
}

size_t fmt_escape(char *buf, size_t len, const char *s, size_t slen)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0, width = 0, esc = 0;

	if (len == 0)
		return 0;
	for (size_t i = 0; i < slen;) {
		size_t n = esc ? 1 : fmt_utf8_len(p + i, slen - i);
		char tmp[8];
		size_t tl, w;

		/* A format character's bytes are escaped one by one, as
		 * control bytes are, so that a short buffer cuts between
		 * them like anywhere else. */
		if (!esc && n > 1 && is_format_char(utf8_cp(p + i, n)))
			esc = n;
		/* C1 controls (U+0080..U+009F) are escapes to some terminals. */
		if (esc || n == 0 || p[i] < 0x20 || p[i] == 0x7F ||
		    (n == 2 && p[i] == 0xC2 && p[i + 1] < 0xA0)) {
			snprintf(tmp, sizeof(tmp), "\\x%02X", p[i]);
			tl = w = 4;
			n = 1;
		} else if (p[i] == '\\') {
			memcpy(tmp, "\\\\", 2);
			tl = w = 2;
		} else {
			memcpy(tmp, p + i, n);
			tl = n;
			w = 1;
		}
		if (o + tl >= len)
			break;
		memcpy(buf + o, tmp, tl);
		o += tl;
		width += w;
		i += n;
		if (esc)
			esc--;
	}
	buf[o] = '\0';
	return width;
}

void fmt_json_string(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (size_t i = 0; i < len;) {
		size_t n = fmt_utf8_len(p + i, len - i);

		if (n == 0) {
			fprintf(f, "\\u%04X", p[i]);
			i++;
			continue;
		}
		if (p[i] == '"' || p[i] == '\\') {
			fputc('\\', f);
			fputc(p[i], f);
		} else if (p[i] == '\n') {
			fputs("\\n", f);
		} else if (p[i] == '\t') {
			fputs("\\t", f);
		} else if (p[i] == '\r') {
			fputs("\\r", f);
		} else if (p[i] < 0x20 || p[i] == 0x7F) {
			fprintf(f, "\\u%04X", p[i]);
		} else {
			fwrite(p + i, 1, n, f);
		}
		i += n;
	}
	fputc('"', f);
}

void fmt_csv_field(FILE *f, const char *s, size_t len)
{
	if (!memchr(s, ',', len) && !memchr(s, '"', len) &&
	    !memchr(s, '\n', len) && !memchr(s, '\r', len)) {
		fwrite(s, 1, len, f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

void fmt_om_label(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = fmt_utf8_len(p + i, len - i);

		if (n == 0) {
			fputs("\xEF\xBF\xBD", f);
			i++;
			continue;
		}
		if (p[i] == '\\')
			fputs("\\\\", f);
		else if (p[i] == '"')
			fputs("\\\"", f);
		else if (p[i] == '\n')
			fputs("\\n", f);
		else
			fwrite(p + i, 1, n, f);
		i += n;
	}
}
