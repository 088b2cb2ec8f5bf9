/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_escape.c - the escaping writers of fmt.h: fmt_escape (the names'
 * encoding, of group names and paths in every output), fmt_unescape,
 * fmt_safe (messages), fmt_json_name, fmt_csv_name, fmt_om_name, and
 * fmt_utf8_len.
 *
 * fmt_utf8_len is compared with a table-driven UTF-8 decoder (RFC 3629).
 * Each writer's output is checked for its format and decoded back:
 *   fmt_escape: no byte < 0x20, no DEL, no C1 control, valid UTF-8, within
 *     the buffer, cut only between units; unescaped it is a prefix of the
 *     input (all of it when the buffer is large enough, and fmt_unescape
 *     gives it back); the width returned is the number of characters
 *     written.
 *   fmt_safe: the same bytes as fmt_escape but for backslashes, and of
 *     fmt_escape's output, that output unchanged.
 *   JSON: a valid JSON string, with no escape but \\ and \"; decoded it is
 *     the input's encoding (fmt_escape).
 *   CSV: the encoding itself, or an RFC 4180 quoted field that unquotes to
 *     it.
 *   OpenMetrics: only \\ \" escapes, no raw '"' or newline, valid UTF-8;
 *     decoded it is the encoding.
 */
#include "fmt.h"
#include "fuzz.h"

/* Length of the valid UTF-8 sequence at s, 0 if none (RFC 3629 table). */
static size_t ref_utf8(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		len = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		if (c == 0xE0)
			lo = 0xA0;
		if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		if (c == 0xF0)
			lo = 0x90;
		if (c == 0xF4)
			hi = 0x8F;
	} else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

static int valid_utf8(const unsigned char *s, size_t n)
{
	for (size_t i = 0; i < n;) {
		size_t l = ref_utf8(s + i, n - i);

		if (!l)
			return 0;
		i += l;
	}
	return 1;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static char *capture(void (*fn)(FILE *, const char *, size_t),
		     const char *s, size_t n, size_t *ret_len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, ret_len);

	CHECK(f != NULL);
	fn(f, s, n);
	CHECK(fclose(f) == 0);
	return out;
}

static void check_escape(const unsigned char *in, size_t n, size_t cap)
{
	char *out = malloc(cap);
	unsigned char *un = malloc(n + 1);
	size_t width, olen, ul = 0, chars = 0;
	const unsigned char *o;

	CHECK(out && un);
	width = fmt_escape(out, cap, (const char *)in, n);
	olen = strnlen(out, cap);
	CHECK(olen < cap);
	o = (const unsigned char *)out;
	CHECK(valid_utf8(o, olen));
	for (size_t i = 0; i < olen;) {
		size_t l = ref_utf8(o + i, olen - i);

		CHECK(o[i] >= 0x20 && o[i] != 0x7F);
		CHECK(!(l == 2 && o[i] == 0xC2 && o[i + 1] < 0xA0));
		if (o[i] == '\\') {
			CHECK(i + 1 < olen);
			if (o[i + 1] == '\\') {
				un[ul++] = '\\';
				i += 2;
			} else {
				int h, lo;

				CHECK(o[i + 1] == 'x' && i + 3 < olen);
				h = hexval(o[i + 2]);
				lo = hexval(o[i + 3]);
				CHECK(h >= 0 && lo >= 0);
				un[ul++] = (unsigned char)(h * 16 + lo);
				i += 4;
			}
		} else {
			CHECK(ul + l <= n);
			memcpy(un + ul, o + i, l);
			ul += l;
			i += l;
		}
		CHECK(ul <= n);
	}
	for (size_t i = 0; i < olen;)
		i += ref_utf8(o + i, olen - i), chars++;
	CHECK(width == chars);
	CHECK(memcmp(un, in, ul) == 0);
	if (cap > 4 * n)
		CHECK(ul == n);
	else if (ul < n)	/* cut only when the next unit did not fit */
		CHECK(olen + 4 >= cap);
	free(un);
	free(out);
}

/* The input's encoding, whole: 4 bytes a byte at most. */
static char *encoded(const unsigned char *in, size_t n, size_t *ret_len)
{
	char *e = malloc(4 * n + 1);

	CHECK(e != NULL);
	fmt_escape(e, 4 * n + 1, (const char *)in, n);
	*ret_len = strlen(e);
	return e;
}

static void check_roundtrip(const unsigned char *in, size_t n)
{
	size_t el;
	char *e = encoded(in, n, &el), *d = malloc(n + 1), *s = malloc(el + 1);

	CHECK(d && s);
	CHECK(fmt_unescape(d, n + 1, e, el) == (int)n);
	CHECK(memcmp(d, in, n) == 0);
	/* fmt_safe leaves an encoding as it is. */
	fmt_safe(s, el + 1, e, el, 0);
	CHECK(strcmp(s, e) == 0);
	free(s);
	free(d);
	free(e);
}

static void check_safe(const unsigned char *in, size_t n)
{
	char *o = malloc(4 * n + 1);
	size_t ol;

	CHECK(o != NULL);
	fmt_safe(o, 4 * n + 1, (const char *)in, n, 0);
	ol = strlen(o);
	CHECK(valid_utf8((const unsigned char *)o, ol));
	for (size_t i = 0; i < ol;) {
		size_t l = ref_utf8((const unsigned char *)o + i, ol - i);

		CHECK((unsigned char)o[i] >= 0x20 && o[i] != 0x7F);
		CHECK(!(l == 2 && (unsigned char)o[i] == 0xC2 &&
			(unsigned char)o[i + 1] < 0xA0));
		i += l;
	}
	free(o);
}

static void check_json(const unsigned char *in, size_t n)
{
	size_t len, dl = 0, el;
	unsigned char *o = (unsigned char *)capture(fmt_json_name,
						    (const char *)in, n, &len);
	unsigned char *dec = malloc(len + 1);
	char *e = encoded(in, n, &el);

	CHECK(dec != NULL);
	CHECK(len >= 2 && o[0] == '"' && o[len - 1] == '"');
	CHECK(valid_utf8(o, len));
	for (size_t i = 1; i < len - 1;) {
		unsigned char c = o[i];

		CHECK(c >= 0x20 && c != 0x7F && c != '"');
		if (c != '\\') {
			size_t l = ref_utf8(o + i, len - 1 - i);

			CHECK(l > 0);
			memcpy(dec + dl, o + i, l);
			dl += l;
			i += l;
			continue;
		}
		CHECK(i + 1 < len - 1);
		c = o[i + 1];
		CHECK(c == '\\' || c == '"');
		dec[dl++] = c;
		i += 2;
	}
	CHECK(dl == el && memcmp(dec, e, el) == 0);
	free(e);
	free(dec);
	free(o);
}

static void check_csv(const unsigned char *in, size_t n)
{
	size_t len, dl = 0, el;
	char *o = capture(fmt_csv_name, (const char *)in, n, &len);
	char *e = encoded(in, n, &el);
	int special = memchr(in, ',', n) || memchr(in, '"', n);

	CHECK(!memchr(o, '\n', len) && !memchr(o, '\r', len));
	if (!special) {
		CHECK(len == el && memcmp(o, e, el) == 0);
	} else {
		char *dec = malloc(len);

		CHECK(dec && len >= 2 && o[0] == '"' && o[len - 1] == '"');
		for (size_t i = 1; i < len - 1; i++) {
			if (o[i] == '"') {
				CHECK(i + 1 < len - 1 && o[i + 1] == '"');
				i++;
			}
			dec[dl++] = o[i];
		}
		CHECK(dl == el && memcmp(dec, e, el) == 0);
		free(dec);
	}
	free(e);
	free(o);
}

static void check_om(const unsigned char *in, size_t n)
{
	size_t len, dl = 0, el;
	unsigned char *o = (unsigned char *)capture(fmt_om_name,
						    (const char *)in, n, &len);
	unsigned char *dec = malloc(len + 1);
	char *e = encoded(in, n, &el);

	CHECK(dec != NULL);
	CHECK(valid_utf8(o, len));
	for (size_t i = 0; i < len; i++) {
		CHECK(o[i] != '"' && o[i] != '\n');
		if (o[i] == '\\') {
			CHECK(i + 1 < len);
			i++;
			CHECK(o[i] == '\\' || o[i] == '"');
		}
		dec[dl++] = o[i];
	}
	CHECK(dl == el && memcmp(dec, e, el) == 0);
	free(e);
	free(dec);
	free(o);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const unsigned char *in = (const unsigned char *)fuzz_dup(data, size);
	static const size_t caps[] = { 1, 2, 3, 4, 5, 6, 9, 17, 64 };

	for (size_t i = 0; i < size; i++)
		CHECK(fmt_utf8_len(in + i, size - i) == ref_utf8(in + i, size - i));
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++)
		check_escape(in, size, caps[c]);
	check_escape(in, size, 4 * size + 1);
	check_roundtrip(in, size);
	check_safe(in, size);
	check_json(in, size);
	check_csv(in, size);
	check_om(in, size);
	free((void *)in);
	return 0;
}
