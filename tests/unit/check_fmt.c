/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: human units and the escaping of each output format. */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"
#include "units.h"

static const char *bytes(uint64_t v)
{
	static char buf[32];

	fmt_bytes(buf, sizeof(buf), v);
	return buf;
}

static const char *count(uint64_t v)
{
	static char buf[32];

	fmt_count(buf, sizeof(buf), v);
	return buf;
}

static const char *rate(double v)
{
	static char buf[32];

	fmt_rate(buf, sizeof(buf), v);
	return buf;
}

START_TEST(human_bytes)
{
	ck_assert_str_eq(bytes(0), "0");
	ck_assert_str_eq(bytes(1023), "1023");
	ck_assert_str_eq(bytes(1024), "1.0K");
	ck_assert_str_eq(bytes(1536), "1.5K");
	/* 1023.99K rounds to the next unit, not to "1024K". */
	ck_assert_str_eq(bytes(1048575), "1.0M");
	ck_assert_str_eq(bytes(33554432), "32.0M");
	/* 99.96 MiB would print "100.0M" with one decimal: no decimal then. */
	ck_assert_str_eq(bytes(104815985), "100M");
	ck_assert_str_eq(bytes(104857600), "100M");
	ck_assert_str_eq(bytes(3221225472ULL), "3.0G");
	ck_assert_str_eq(bytes(1099511627776ULL), "1.0T");
	ck_assert_str_eq(bytes(UINT64_MAX - 1), "16.0E");
}
END_TEST

START_TEST(human_counts_and_rates)
{
	ck_assert_str_eq(count(0), "0");
	ck_assert_str_eq(count(99999), "99999");
	ck_assert_str_eq(count(100000), "100k");
	ck_assert_str_eq(count(1234567), "1.2M");
	ck_assert_str_eq(rate(0), "0.0");
	ck_assert_str_eq(rate(12.345), "12.3");
	ck_assert_str_eq(rate(99.96), "100");
	ck_assert_str_eq(rate(1500), "1.5k");
	ck_assert_str_eq(rate(379123.0), "379k");
}
END_TEST

START_TEST(iso_time)
{
	char buf[32];

	fmt_time_iso(buf, sizeof(buf), 0);
	ck_assert_str_eq(buf, "1970-01-01T00:00:00Z");
	fmt_time_iso(buf, sizeof(buf), 1796000280);
	ck_assert_str_eq(buf, "2026-11-30T00:58:00Z");
}
END_TEST

static const char *esc(const char *s)
{
	static char buf[256];

	fmt_escape(buf, sizeof(buf), s, strlen(s));
	return buf;
}

START_TEST(escape_for_terminal)
{
	char small[5];
	size_t w;

	ck_assert_str_eq(esc("plain"), "plain");
	ck_assert_str_eq(esc("caf\xC3\xA9"), "caf\xC3\xA9");
	ck_assert_str_eq(esc("a\x1B]0;pwned\x07"), "a\\x1B]0;pwned\\x07");
	ck_assert_str_eq(esc("new\nline\ttab"), "new\\x0Aline\\x09tab");
	ck_assert_str_eq(esc("\x7F"), "\\x7F");
	/* C1 CSI encoded as UTF-8 is a control to some terminals. */
	ck_assert_str_eq(esc("\xC2\x9B" "2J"), "\\xC2\\x9B2J");
	ck_assert_str_eq(esc("bad\xFF\xC3"), "bad\\xFF\\xC3");
	ck_assert_str_eq(esc("back\\slash"), "back\\\\slash");
	/* Never more than the buffer, never half an escape. */
	w = fmt_escape(small, sizeof(small), "ab\x1B" "cdef", 7);
	ck_assert_str_eq(small, "ab");
	ck_assert_uint_eq(w, 2);
	ck_assert_uint_eq(fmt_escape(small, sizeof(small), "\xC3\xA9", 2), 1);
}
END_TEST

START_TEST(escape_format_characters)
{
	char small[10], big[20];

	/* U+202E right-to-left override would print the rest backwards. */
	ck_assert_str_eq(esc("evil\xE2\x80\xAE" "fdp.exe"),
			 "evil\\xE2\\x80\\xAEfdp.exe");
	/* The isolates, LRM, zero width space, BOM, soft hyphen, the line
	 * separator, a tag character (4 bytes). */
	ck_assert_str_eq(esc("\xE2\x81\xA6" "a\xE2\x81\xA9"),
			 "\\xE2\\x81\\xA6a\\xE2\\x81\\xA9");
	ck_assert_str_eq(esc("\xE2\x80\x8E\xE2\x80\x8B\xEF\xBB\xBF\xC2\xAD"),
			 "\\xE2\\x80\\x8E\\xE2\\x80\\x8B\\xEF\\xBB\\xBF\\xC2\\xAD");
	ck_assert_str_eq(esc("\xE2\x80\xA8"), "\\xE2\\x80\\xA8");
	ck_assert_str_eq(esc("\xF3\xA0\x80\x81"),
			 "\\xF3\\xA0\\x80\\x81");
	/* Their neighbours are printable and stay as they are: U+2010
	 * hyphen, U+2030 per mille, U+2065 (unassigned), U+00AC not sign. */
	ck_assert_str_eq(esc("\xE2\x80\x90\xE2\x80\xB0\xE2\x81\xA5\xC2\xAC"),
			 "\xE2\x80\x90\xE2\x80\xB0\xE2\x81\xA5\xC2\xAC");
	/* Each escaped byte is 4 columns and a unit of its own, as a
	 * control byte is: a short buffer cuts between two escapes, never
	 * inside one. */
	ck_assert_uint_eq(fmt_escape(small, sizeof(small), "a\xE2\x80\xAE",
				     4), 9);
	ck_assert_str_eq(small, "a\\xE2\\x80");
	ck_assert_uint_eq(fmt_escape(big, sizeof(big), "\xE2\x80\xAE", 3), 12);
	ck_assert_str_eq(big, "\\xE2\\x80\\xAE");
}
END_TEST

static char *capture(void (*fn)(FILE *, const char *, size_t), const char *s)
{
	static char out[256];
	FILE *f = fmemopen(out, sizeof(out), "w");

	fn(f, s, strlen(s));
	fclose(f);
	return out;
}

/* The encoding inside each format's quoting: \xHH and \\ are the same
 * text everywhere, each format escaping its own characters over it. */
START_TEST(json_names)
{
	ck_assert_str_eq(capture(fmt_json_name, "/a/b"), "\"/a/b\"");
	ck_assert_str_eq(capture(fmt_json_name, "q\"b\\n\n\x1B"),
			 "\"q\\\"b\\\\\\\\n\\\\x0A\\\\x1B\"");
	/* Invalid bytes are \xHH, not \u00HH: "\xFF" and "\xC3\xBF"
	 * (U+00FF) stay apart. */
	ck_assert_str_eq(capture(fmt_json_name, "inv\xFF\xFEutf"),
			 "\"inv\\\\xFF\\\\xFEutf\"");
	ck_assert_str_eq(capture(fmt_json_name, "inv\xC3\xBF\xC3\xBEutf"),
			 "\"inv\xC3\xBF\xC3\xBEutf\"");
	ck_assert_str_eq(capture(fmt_json_name, "a\\x41"),
			 "\"a\\\\\\\\x41\"");
	ck_assert_str_eq(capture(fmt_json_name, "aA"), "\"aA\"");
	ck_assert_str_eq(capture(fmt_json_name, "rlo\xE2\x80\xAE"),
			 "\"rlo\\\\xE2\\\\x80\\\\xAE\"");
}
END_TEST

/* The buffer form writes what the FILE form does, for every byte alone,
 * the examples above and random strings, within FMT_JSON_NAME_ROOM. */
static void same_json(const char *s, size_t len)
{
	static char want[4096], got[4096];
	FILE *f = fmemopen(want, sizeof(want), "w");
	size_t n;

	ck_assert_uint_le(FMT_JSON_NAME_ROOM(len), sizeof(got));
	fmt_json_name(f, s, len);
	fclose(f);
	memset(got, 0x5A, sizeof(got));
	n = fmt_json_name_buf(got, s, len);
	ck_assert_uint_le(n, FMT_JSON_NAME_ROOM(len));
	ck_assert_uint_eq(n, strlen(want));
	ck_assert_mem_eq(got, want, n);
	/* Nothing past what it returned. */
	ck_assert_int_eq(got[n], 0x5A);
}

START_TEST(json_names_buf)
{
	static const char *ex[] = {
		"/a/b", "q\"b\\n\n\x1B", "inv\xFF\xFEutf",
		"inv\xC3\xBF\xC3\xBEutf", "a\\x41", "rlo\xE2\x80\xAE",
		"\xC2\x85\x63\x31", "x\xE2\x80\xAE\"\\y", "",
	};
	unsigned seed = 12345;
	char s[256];

	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++)
		same_json(ex[i], strlen(ex[i]));
	for (int c = 0; c < 256; c++) {
		s[0] = (char)c;
		same_json(s, 1);
	}
	/* The worst case, every byte escaped and quoted: 5 bytes each. */
	memset(s, 0x80, 200);
	same_json(s, 200);
	memset(s, '\\', 200);
	same_json(s, 200);
	for (int k = 0; k < 2000; k++) {
		size_t len = (size_t)(rand_r(&seed) % 64);

		/* Mostly printable ASCII, with the bytes that escape. */
		for (size_t i = 0; i < len; i++) {
			int r = rand_r(&seed) % 8;

			s[i] = (char)(r < 5 ? 0x20 + rand_r(&seed) % 95 :
				      r == 5 ? "\"\\"[rand_r(&seed) % 2] :
				      rand_r(&seed) % 256);
		}
		same_json(s, len);
	}
}
END_TEST

START_TEST(csv_names)
{
	ck_assert_str_eq(capture(fmt_csv_name, "/plain"), "/plain");
	ck_assert_str_eq(capture(fmt_csv_name, "/a,b"), "\"/a,b\"");
	ck_assert_str_eq(capture(fmt_csv_name, "/q\"t"), "\"/q\"\"t\"");
	/* No line break is left to quote. */
	ck_assert_str_eq(capture(fmt_csv_name, "/n\nl\r"), "/n\\x0Al\\x0D");
	ck_assert_str_eq(capture(fmt_csv_name, "/x\xC0\xC1,\\"),
			 "\"/x\\xC0\\xC1,\\\\\"");
}
END_TEST

START_TEST(openmetrics_names)
{
	ck_assert_str_eq(capture(fmt_om_name, "/a\"b\\c\nd"),
			 "/a\\\"b\\\\\\\\c\\\\x0Ad");
	/* Three invalid names, three labels (no U+FFFD for all). */
	ck_assert_str_eq(capture(fmt_om_name, "inv\xFF\xFEutf"),
			 "inv\\\\xFF\\\\xFEutf");
	ck_assert_str_eq(capture(fmt_om_name, "inv\xFE\xFFutf"),
			 "inv\\\\xFE\\\\xFFutf");
	ck_assert_str_eq(capture(fmt_om_name, "inv\xC0\xC1utf"),
			 "inv\\\\xC0\\\\xC1utf");
}
END_TEST

START_TEST(text_names)
{
	ck_assert_str_eq(capture(fmt_text_name, "/x\x1B[2J\x1B]0;T\x07"),
			 "/x\\x1B[2J\\x1B]0;T\\x07");
	ck_assert_str_eq(capture(fmt_text_name, "a\\x41"), "a\\\\x41");
}
END_TEST

static const char *unesc(const char *s)
{
	static char buf[64];
	int n = fmt_unescape(buf, sizeof(buf), s, strlen(s));

	return n < 0 ? (n == -EINVAL ? "EINVAL" : "E2BIG") : buf;
}

START_TEST(unescape_reverses)
{
	static const char *const names[] = {
		"inv\xFF\xFEutf", "inv\xC3\xBF\xC3\xBEutf", "a\\x41", "aA",
		"nl\nx", "back\\\\", "rlo\xE2\x80\xAE", "\xC2\x9B", "",
	};
	char enc[256], dec[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fmt_escape(enc, sizeof(enc), names[i], strlen(names[i]));
		ck_assert_int_eq(fmt_unescape(dec, sizeof(dec), enc,
					      strlen(enc)),
				 (int)strlen(names[i]));
		ck_assert_str_eq(dec, names[i]);
	}
	ck_assert_str_eq(unesc("a\\\\x41"), "a\\x41");
	ck_assert_str_eq(unesc("\\x1b"), "EINVAL");	/* upper case only */
	ck_assert_str_eq(unesc("a\\"), "EINVAL");
	ck_assert_str_eq(unesc("a\\x4"), "EINVAL");
	ck_assert_str_eq(unesc("a\\n"), "EINVAL");
	ck_assert_int_eq(fmt_unescape(dec, 3, "abc", 3), -E2BIG);
}
END_TEST

/* Messages: escaped as names are, but a backslash (maybe of a name
 * escaped already) stays, so that nothing is escaped twice. */
START_TEST(safe_messages)
{
	char buf[64];

	ck_assert_uint_eq(fmt_safe(buf, sizeof(buf), "x\\x1B \x1B\xFF\\", 9,
				   0), 15);
	ck_assert_str_eq(buf, "x\\x1B \\x1B\\xFF\\");
	fmt_safe(buf, sizeof(buf), "caf\xC3\xA9", 5, 1);
	ck_assert_str_eq(buf, "caf\\xC3\\xA9");
	fmt_safe(buf, sizeof(buf), "caf\xC3\xA9", 5, 0);
	ck_assert_str_eq(buf, "caf\xC3\xA9");
}
END_TEST

START_TEST(utf8_validation)
{
	ck_assert_uint_eq(fmt_utf8_len((const unsigned char *)"a", 1), 1);
	ck_assert_uint_eq(fmt_utf8_len((const unsigned char *)"\xC3\xA9", 2), 2);
	/* Overlong "/" and a UTF-16 surrogate are not UTF-8. */
	ck_assert_uint_eq(fmt_utf8_len((const unsigned char *)"\xC0\xAF", 2), 0);
	ck_assert_uint_eq(fmt_utf8_len((const unsigned char *)"\xED\xA0\x80", 3), 0);
	/* A sequence cut by the end of the buffer. */
	ck_assert_uint_eq(fmt_utf8_len((const unsigned char *)"\xE2\x82", 2), 0);
	ck_assert_uint_eq(fmt_utf8_len((const unsigned char *)"\xF0\x9F\x98\x80", 4), 4);
}
END_TEST

/* The screen's line breaking (src/tui/draw.c), pure string work. */
const char *tui_wrap(const char *s, int cols, const char **ret_next);

START_TEST(wrapping)
{
	const char *s = "kept the old one", *next, *end;

	end = tui_wrap(s, 10, &next);
	ck_assert_int_eq((int)(end - s), 8);		/* "kept the" */
	ck_assert_str_eq(next, "old one");
	end = tui_wrap(next, 10, &next);
	ck_assert_str_eq(end, "");
	ck_assert_str_eq(next, "");
	/* A break exactly at a space. */
	s = "abcd efgh";
	end = tui_wrap(s, 4, &next);
	ck_assert_int_eq((int)(end - s), 4);
	ck_assert_str_eq(next, "efgh");
	/* No space to break at: hard break; UTF-8 counts characters. */
	s = "caf\xC3\xA9" "caf\xC3\xA9";
	end = tui_wrap(s, 4, &next);
	ck_assert_int_eq((int)(end - s), 5);
	ck_assert_str_eq(next, "caf\xC3\xA9");
}
END_TEST

/* xorshift64*: the same numbers every run. */
static uint64_t rnd(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 2685821657736338717ull;
}

static void same_fixed(double x, int d)
{
	char want[512], got[512];
	size_t n = fmt_fixed(got, sizeof(got), x, d);

	snprintf(want, sizeof(want), "%.*f", d, x);
	ck_assert_msg(!strcmp(got, want), "%.17g %%.%df: %s, printf %s", x, d,
		      got, want);
	ck_assert_uint_eq(n, strlen(want));
}

/* fmt_fixed and fmt_u64 print the bytes printf does: halves to even,
 * both signs, the edges of the integer path, random bits and values. */
START_TEST(fixed_as_printf)
{
	static const double edge[] = {
		0, 0.05, 0.25, 0.125, 0.375, 2.5, 3.5, 0.45, 0.55, 99.95,
		99.949999999999, 1023.5, 0.0005, 0.00005, 1e-300, 5e-324,
		4.9406564584124654e-324, 2.2250738585072014e-308,
		9007199254740993.0, 9.1e17, 9.2e17, 9.2e18, 1e19, 1.8e19,
		1e300, INFINITY, NAN, 0.995, 0.9995, 1.0 / 3,
	};
	uint64_t st = 0x9e3779b97f4a7c15ull;
	char buf[32], want[32];

	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		for (int d = 0; d <= 4; d++) {
			same_fixed(edge[i], d);
			same_fixed(-edge[i], d);
		}
	/* Every exact half at each precision, up to 2^20 in it. */
	for (int d = 0; d <= 4; d++)
		for (int k = 0; k < 4096; k++)
			same_fixed(ldexp((double)k, -(d + 3)) , d);
	for (int i = 0; i < 200000; i++) {
		uint64_t bits = rnd(&st);
		double x;

		memcpy(&x, &bits, sizeof(x));
		same_fixed(x, (int)(bits % 5));
		/* Values of the sizes the columns show. */
		x = (double)(rnd(&st) % 100000000) / (double)(1 + rnd(&st) % 1000);
		same_fixed(x, (int)(bits % 5));
	}
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rnd(&st) >> (rnd(&st) % 64);

		fmt_u64(buf, sizeof(buf), v);
		snprintf(want, sizeof(want), "%" PRIu64, v);
		ck_assert_str_eq(buf, want);
	}
	fmt_u64(buf, sizeof(buf), UINT64_MAX);
	ck_assert_str_eq(buf, "18446744073709551615");
	/* Cut to fit, as snprintf. */
	ck_assert_uint_eq(fmt_u64(buf, 4, 123456), 3);
	ck_assert_str_eq(buf, "123");
	ck_assert_uint_eq(fmt_fixed(buf, 4, 12.5, 1), 3);
	ck_assert_str_eq(buf, "12.");
}
END_TEST

Suite *fmt_suite(void)
{
	Suite *s = suite_create("fmt");
	TCase *t = tcase_create("core");

	tcase_add_test(t, fixed_as_printf);
	tcase_add_test(t, human_bytes);
	tcase_add_test(t, human_counts_and_rates);
	tcase_add_test(t, iso_time);
	tcase_add_test(t, escape_for_terminal);
	tcase_add_test(t, escape_format_characters);
	tcase_add_test(t, json_names);
	tcase_add_test(t, json_names_buf);
	tcase_add_test(t, csv_names);
	tcase_add_test(t, openmetrics_names);
	tcase_add_test(t, text_names);
	tcase_add_test(t, unescape_reverses);
	tcase_add_test(t, safe_messages);
	tcase_add_test(t, utf8_validation);
	tcase_add_test(t, wrapping);
	suite_add_tcase(s, t);
	return s;
}
