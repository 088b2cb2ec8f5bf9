/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fmt.c - human units and the escaping rules of each output format. */
#include <errno.h>
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

/*
 * The encoding, one step at a time.  A step is what stands for one byte
 * (an escape, \xHH) or one character (a backslash doubled, a printable
 * character as it is).  A format character's bytes are escaped one by
 * one, as control bytes are, so that a short buffer cuts between them
 * like anywhere else; pending counts the bytes of one still to escape.
 */
struct esc {
	const unsigned char *p;
	size_t len, i, pending;
	unsigned flags;
};

#define ESC_KEEP_BACKSLASH 1u	/* messages: "\" stays as it is */
#define ESC_ASCII 2u		/* every byte >= 0x80 as \xHH too */

/* The next step into out (up to 5 bytes, not NUL-ended): its length and
 * its columns in *ret_w; 0 at the end. */
static size_t esc_next(struct esc *e, char out[8], size_t *ret_w)
{
	const unsigned char *p = e->p + e->i;
	size_t n;

	if (e->i >= e->len)
		return 0;
	n = e->pending ? 1 : fmt_utf8_len(p, e->len - e->i);
	if (!e->pending && n > 1 &&
	    ((e->flags & ESC_ASCII) || is_format_char(utf8_cp(p, n))))
		e->pending = n;
	/* C1 controls (U+0080..U+009F) are escapes to some terminals. */
	if (e->pending || n == 0 || p[0] < 0x20 || p[0] == 0x7F ||
	    (n == 2 && p[0] == 0xC2 && p[1] < 0xA0)) {
		static const char hex[] = "0123456789ABCDEF";

		out[0] = '\\';
		out[1] = 'x';
		out[2] = hex[p[0] >> 4];
		out[3] = hex[p[0] & 15];
		e->i++;
		if (e->pending)
			e->pending--;
		*ret_w = 4;
		return 4;
	}
	if (p[0] == '\\' && !(e->flags & ESC_KEEP_BACKSLASH)) {
		out[0] = out[1] = '\\';
		e->i++;
		*ret_w = 2;
		return 2;
	}
	memcpy(out, p, n);
	e->i += n;
	*ret_w = 1;
	return n;
}

/* A byte esc_next gives as itself, one column (printable ASCII but a
 * backslash, which is escaped unless kept): copied without its call, as a
 * refresh escapes every name. */
static int esc_plain(const struct esc *e, unsigned char c)
{
	return !e->pending && c >= 0x20 && c < 0x7F &&
		(c != '\\' || (e->flags & ESC_KEEP_BACKSLASH));
}

/* Writes whole steps into buf (len > 0), NUL-ended; returns the columns. */
static size_t esc_buf(char *buf, size_t len, const char *s, size_t slen,
		      unsigned flags)
{
	struct esc e = { (const unsigned char *)s, slen, 0, 0, flags };
	size_t o = 0, width = 0, n, w;
	char tmp[8];

	if (len == 0)
		return 0;
	while (e.i < slen) {
		unsigned char c = e.p[e.i];

		if (esc_plain(&e, c)) {
			if (o + 1 >= len)
				break;
			buf[o++] = (char)c;
			e.i++;
			width++;
			continue;
		}
		n = esc_next(&e, tmp, &w);
		if (n == 0 || o + n >= len)
			break;
		memcpy(buf + o, tmp, n);
		o += n;
		width += w;
	}
	buf[o] = '\0';
	return width;
}

size_t fmt_escape(char *buf, size_t len, const char *s, size_t slen)
{
	return esc_buf(buf, len, s, slen, 0);
}

size_t fmt_safe(char *buf, size_t len, const char *s, size_t slen,
		int ascii)
{
	return esc_buf(buf, len, s, slen, ESC_KEEP_BACKSLASH |
		       (ascii ? ESC_ASCII : 0));
}

void fmt_safe_put(FILE *f, const char *s, size_t slen)
{
	struct esc e = { (const unsigned char *)s, slen, 0, 0,
			 ESC_KEEP_BACKSLASH };
	size_t n, w;
	char tmp[8];

	while ((n = esc_next(&e, tmp, &w)) > 0)
		fwrite(tmp, 1, n, f);
}

/*
 * A name's encoding, then the format's own quoting over it.  The encoding
 * leaves no control byte and no line break, so the format has only its
 * quote and escape characters to care for: JSON and OpenMetrics escape
 * "\" and '"' with a backslash, CSV doubles '"' (in a quoted field).
 */
enum quote { Q_NONE, Q_BACKSLASH, Q_CSV };

/* A step's n bytes into out with the format's quoting (room for 2n). */
static size_t quote_step(char *out, const char *tmp, size_t n, enum quote q)
{
	size_t o = 0;

	for (size_t k = 0; k < n; k++) {
		if (q == Q_BACKSLASH && (tmp[k] == '\\' || tmp[k] == '"'))
			out[o++] = '\\';
		else if (q == Q_CSV && tmp[k] == '"')
			out[o++] = '"';
		out[o++] = tmp[k];
	}
	return o;
}

static void name_put(FILE *f, const char *s, size_t slen, enum quote q)
{
	struct esc e = { (const unsigned char *)s, slen, 0, 0, 0 };
	char tmp[8], out[256];
	size_t n, w, o = 0;

	/* Gathered in out, a few writes a name: a refresh writes tens of
	 * thousands of them. */
	while ((n = esc_next(&e, tmp, &w)) > 0) {
		if (o + 2 * n > sizeof(out)) {
			fwrite(out, 1, o, f);
			o = 0;
		}
		o += quote_step(out + o, tmp, n, q);
	}
	fwrite(out, 1, o, f);
}

size_t fmt_json_name_buf(char *out, const char *s, size_t slen)
{
	struct esc e = { (const unsigned char *)s, slen, 0, 0, 0 };
	size_t o = 0, n, w;
	char tmp[8];

	out[o++] = '"';
	while (e.i < slen) {
		unsigned char c = (unsigned char)s[e.i];

		/* JSON quotes '"' too. */
		if (esc_plain(&e, c) && c != '"') {
			out[o++] = (char)c;
			e.i++;
			continue;
		}
		n = esc_next(&e, tmp, &w);
		if (n == 0)
			break;
		o += quote_step(out + o, tmp, n, Q_BACKSLASH);
	}
	out[o++] = '"';
	return o;
}

void fmt_text_name(FILE *f, const char *s, size_t len)
{
	name_put(f, s, len, Q_NONE);
}

void fmt_json_name(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	name_put(f, s, len, Q_BACKSLASH);
	fputc('"', f);
}

void fmt_csv_name(FILE *f, const char *s, size_t len)
{
	/* The encoding keeps ',' and '"' and leaves no CR or LF. */
	int quote = memchr(s, ',', len) || memchr(s, '"', len);

	if (quote)
		fputc('"', f);
	name_put(f, s, len, Q_CSV);
	if (quote)
		fputc('"', f);
}

void fmt_om_name(FILE *f, const char *s, size_t len)
{
	name_put(f, s, len, Q_BACKSLASH);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int fmt_unescape(char *buf, size_t len, const char *s, size_t slen)
{
	size_t o = 0;

	for (size_t i = 0; i < slen; i++) {
		char c = s[i];

		if (c == '\\') {
			int hi, lo;

			if (i + 1 < slen && s[i + 1] == '\\') {
				i++;
			} else if (i + 3 < slen && s[i + 1] == 'x' &&
				   (hi = hex_digit(s[i + 2])) >= 0 &&
				   (lo = hex_digit(s[i + 3])) >= 0) {
				c = (char)(hi << 4 | lo);
				i += 3;
			} else {
				return -EINVAL;
			}
		}
		if (o + 1 >= len)
			return -E2BIG;
		buf[o++] = c;
	}
	if (len == 0)
		return -E2BIG;
	buf[o] = '\0';
	return (int)o;
}
