/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the parsers of kernel text. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "units.h"

#define S(lit) lit, sizeof(lit) - 1

START_TEST(u64_strict)
{
	uint64_t v = 7;

	ck_assert_int_eq(parse_u64(S("0"), &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse_u64(S("18446744073709551615"), &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(parse_u64(S("18446744073709551616"), &v), -ERANGE);
	ck_assert_int_eq(parse_u64(S("99999999999999999999"), &v), -ERANGE);
	ck_assert_int_eq(parse_u64(S("12abc"), &v), -EINVAL);
	ck_assert_int_eq(parse_u64(S("-1"), &v), -EINVAL);
	ck_assert_int_eq(parse_u64(S("+1"), &v), -EINVAL);
	ck_assert_int_eq(parse_u64(S(""), &v), -EINVAL);
	ck_assert_int_eq(parse_u64(S(" 1"), &v), -EINVAL);
	/* The length bounds the read: "12" of "123". */
	ck_assert_int_eq(parse_u64("123", 2, &v), 0);
	ck_assert_uint_eq(v, 12);
}
END_TEST

START_TEST(value_files)
{
	uint64_t v;

	ck_assert_int_eq(parse_value_file(S("4096\n"), &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(parse_value_file(S("max\n"), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
	/* v1 "no limit" with 4 KiB pages (6.18, x86-64). */
	ck_assert_int_eq(parse_value_file(S("9223372036854771712\n"), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
	/* ... and with 64 KiB pages: LONG_MAX rounded down to 64 KiB. */
	ck_assert_int_eq(parse_value_file(S("9223372036854710272\n"), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
	/* 8 EiB - 2 MiB is still a number. */
	ck_assert_int_eq(parse_value_file(S("9223372036852678656\n"), &v), 0);
	ck_assert_uint_eq(v, 9223372036852678656ULL);
	ck_assert_int_eq(parse_value_file(S("\n"), &v), -EINVAL);
	ck_assert_int_eq(parse_value_file(S(""), &v), -EINVAL);
	ck_assert_int_eq(parse_value_file(S("maximum\n"), &v), -EINVAL);
	ck_assert_int_eq(parse_value_file(S("1 2\n"), &v), -EINVAL);
	/* Cut before its newline: not trusted. */
	ck_assert_int_eq(parse_value_file(S("12345"), &v), -EINVAL);
	ck_assert_int_eq(parse_value(S("12345"), &v), 0);
	ck_assert_uint_eq(v, 12345);
	ck_assert_int_eq(parse_value(S("max "), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
}
END_TEST

START_TEST(centi)
{
	uint64_t v;

	ck_assert_int_eq(parse_centi(S("21.44"), &v), 0);
	ck_assert_uint_eq(v, 2144);
	ck_assert_int_eq(parse_centi(S("0.5"), &v), 0);
	ck_assert_uint_eq(v, 50);
	ck_assert_int_eq(parse_centi(S("100"), &v), 0);
	ck_assert_uint_eq(v, 10000);
	ck_assert_int_eq(parse_centi(S("1.234"), &v), -EINVAL);
	ck_assert_int_eq(parse_centi(S("1."), &v), -EINVAL);
	ck_assert_int_eq(parse_centi(S(".5"), &v), -EINVAL);
}
END_TEST

struct kvlog {
	char keys[16][32];
	uint64_t vals[16];
	int n;
};

static void log_kv(const char *k, size_t kl, uint64_t v, void *ctx)
{
	struct kvlog *l = ctx;

	if (l->n < 16 && kl < 32) {
		memcpy(l->keys[l->n], k, kl);
		l->keys[l->n][kl] = '\0';
		l->vals[l->n++] = v;
	}
}

START_TEST(keyvals)
{
	static const char stat[] =
		"anon 1000\nfile 2000\nbogus x\n\nnovalue\n big 5\n"
		"huge 99999999999999999999\nnew_key_2030 7\ncut 12";
	struct kvlog l = { 0 };

	ck_assert_int_eq(parse_keyvals(stat, sizeof(stat) - 1, log_kv, &l), 3);
	ck_assert_int_eq(l.n, 3);
	ck_assert_str_eq(l.keys[0], "anon");
	ck_assert_uint_eq(l.vals[0], 1000);
	ck_assert_str_eq(l.keys[1], "file");
	ck_assert_uint_eq(l.vals[1], 2000);
	/* Unknown keys are passed on, never rejected. */
	ck_assert_str_eq(l.keys[2], "new_key_2030");
	ck_assert_uint_eq(l.vals[2], 7);
}
END_TEST

START_TEST(meminfo)
{
	static const char mi[] =
		"MemTotal:       24683648 kB\nMemFree:   100 kB\n"
		"HugePages_Total:       0\nBad: x kB\n";
	struct kvlog l = { 0 };

	ck_assert_int_eq(parse_meminfo(mi, sizeof(mi) - 1, log_kv, &l), 3);
	ck_assert_str_eq(l.keys[0], "MemTotal");
	ck_assert_uint_eq(l.vals[0], 24683648ULL * 1024);
	ck_assert_uint_eq(l.vals[1], 102400);
	ck_assert_str_eq(l.keys[2], "HugePages_Total");
	ck_assert_uint_eq(l.vals[2], 0);
}
END_TEST

START_TEST(psi)
{
	static const char p6[] =
		"some avg10=21.44 avg60=4.54 avg300=0.97 total=3011622\n"
		"full avg10=1.05 avg60=0.50 avg300=0.10 total=12345\n";
	static const char only_some[] =
		"some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n";
	static const char garbage[] = "some avg10=x avg60=0 total=1\n";
	struct psi p;

	ck_assert_int_eq(parse_psi(p6, sizeof(p6) - 1, &p), 0);
	ck_assert(p.has_some && p.has_full);
	ck_assert_uint_eq(p.some_avg10, 2144);
	ck_assert_uint_eq(p.some_total, 3011622);
	ck_assert_uint_eq(p.full_avg10, 105);
	ck_assert_uint_eq(p.full_total, 12345);
	ck_assert_int_eq(parse_psi(only_some, sizeof(only_some) - 1, &p), 0);
	ck_assert(p.has_some && !p.has_full);
	ck_assert_int_eq(parse_psi(garbage, sizeof(garbage) - 1, &p), -EINVAL);
	ck_assert_int_eq(parse_psi("", 0, &p), -EINVAL);
	/* Cut before its newline: not trusted. */
	ck_assert_int_eq(parse_psi(p6, 40, &p), -EINVAL);
}
END_TEST

START_TEST(numa_stat)
{
	static const char *const keys[] = { "anon", "file" };
	static const char v2[] = "anon N0=100 N1=200\nkernel N0=5\n"
		"file N1=7 N0=9 Nx=3 N2 N3=-1\nanon N0=999\nfile N2=4";
	static const char v1[] = "total=30 N0=10 N1=20\nfile=3 N0=1 N1=2\n"
		"anon=27 N0=9 N1=18\n";
	struct numa_stat ns;

	parse_numa_stat(v2, sizeof(v2) - 1, keys, 2, &ns);
	ck_assert_uint_eq(ns.n, 2);
	ck_assert_uint_eq(ns.node[0], 0);
	ck_assert_uint_eq(ns.node[1], 1);
	ck_assert_uint_eq(ns.v[0][0], 100);	/* the first anon line wins */
	ck_assert_uint_eq(ns.v[1][0], 200);
	ck_assert_uint_eq(ns.v[0][1], 9);
	ck_assert_uint_eq(ns.v[1][1], 7);
	/* the last line has no newline: cut off, N2 not seen */
	parse_numa_stat(v1, sizeof(v1) - 1, keys, 2, &ns);
	ck_assert_uint_eq(ns.n, 2);
	ck_assert_uint_eq(ns.v[0][0], 9);
	ck_assert_uint_eq(ns.v[1][0], 18);
	ck_assert_uint_eq(ns.v[0][1], 1);
	ck_assert(ns.has[1][1] && ns.v[1][1] == 2);
	parse_numa_stat("", 0, keys, 2, &ns);
	ck_assert_uint_eq(ns.n, 0);
	/* a key the view names twice fills both places */
	{
		static const char *const twice[] = { "anon", "file", "anon" };

		parse_numa_stat(v1, sizeof(v1) - 1, twice, 3, &ns);
		ck_assert(ns.has[0][2] && ns.v[0][2] == 9);
		ck_assert(ns.has[1][2] && ns.v[1][2] == 18);
		ck_assert_uint_eq(ns.v[1][0], 18);
	}
}
END_TEST

START_TEST(count_lines)
{
	ck_assert_uint_eq(parse_count_lines(S("1\n22\n333\n")), 3);
	ck_assert_uint_eq(parse_count_lines(S("")), 0);
	ck_assert_uint_eq(parse_count_lines(S("\n\n")), 0);
	ck_assert_uint_eq(parse_count_lines(S("5")), 1);
}
END_TEST

START_TEST(timestamps)
{
	static const char good[] = "100.5 1796000000\n101.25\t1796000001\n102\n";
	double *m = NULL;
	int64_t *w = NULL;
	long *sl = NULL;
	size_t n = 0;
	char err[128];

	ck_assert_int_eq(parse_timestamps(good, sizeof(good) - 1, &m, &w, &sl, &n,
					  err, sizeof(err)), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_double_eq(m[0], 100.5);
	ck_assert_double_eq(m[1], 101.25);
	ck_assert_int_eq(w[1], 1796000001);
	ck_assert_int_eq(w[2], 0);
	ck_assert_int_eq(sl[2], 2);
	free(m);
	free(w);
	free(sl);
	/* A rotating recording names each sample's folder. */
	ck_assert_int_eq(parse_timestamps(S("7 1796000000 3\n8 1796000001 0\n"),
					  &m, &w, &sl, &n, err, sizeof(err)), 0);
	ck_assert_int_eq(sl[0], 3);
	ck_assert_int_eq(sl[1], 0);
	free(m);
	free(w);
	free(sl);
	ck_assert_int_eq(parse_timestamps(S("7 1 x\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 1: malformed sample folder");
	/* No newline at the end: the last line counts (a plain text file). */
	ck_assert_int_eq(parse_timestamps("5 1", 3, &m, &w, &sl, &n, err,
					  sizeof(err)), 0);
	ck_assert_uint_eq(n, 1);
	free(m);
	free(w);
	free(sl);
	/* After lines that end, one that does not was cut off. */
	ck_assert_int_eq(parse_timestamps(S("5 1 0\n6 17"), &m, &w, &sl, &n,
					  err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 2: truncated (no newline at its end)");
	ck_assert_int_eq(parse_timestamps(S("2\n1\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 2: expected a monotonic time in seconds, "
			 "increasing");
	ck_assert_int_eq(parse_timestamps(S("inf\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_int_eq(parse_timestamps(S("-1\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_int_eq(parse_timestamps(S("1 x\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 1: malformed wall clock time");
	ck_assert_int_eq(parse_timestamps(S("1 99999999999999999999\n"), &m,
					  &w, &sl, &n, err, sizeof(err)), -EINVAL);
	/* Within what a clock gives, refused beyond. */
	ck_assert_int_eq(parse_timestamps(S("1 100\n1e308 101\n"), &m, &w, &sl,
					  &n, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 2: monotonic time out of range (at most "
			 "10000000000 seconds)");
	ck_assert_int_eq(parse_timestamps(S("10000000000.001\n"), &m, &w, &sl,
					  &n, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(parse_timestamps(S("1 -9223372036854775808\n"), &m, &w,
					  &sl, &n, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "line 1: wall clock time out of range (0 to "
			 "253402300799, the end of the year 9999)");
	ck_assert_int_eq(parse_timestamps(S("1 -1\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_int_eq(parse_timestamps(S("1 253402300800\n"), &m, &w, &sl,
					  &n, err, sizeof(err)), -EINVAL);
	ck_assert_int_eq(parse_timestamps(S("10000000000 253402300799\n"), &m,
					  &w, &sl, &n, err, sizeof(err)), 0);
	ck_assert_double_eq(m[0], 1e10);
	ck_assert_int_eq(w[0], 253402300799LL);
	free(m);
	free(w);
	free(sl);
	ck_assert_int_eq(parse_timestamps(S("1\0\n"), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_int_eq(parse_timestamps(S(""), &m, &w, &sl, &n, err,
					  sizeof(err)), -EINVAL);
	ck_assert_str_eq(err, "no samples");
}
END_TEST

/* parse.h's grammar for typed numbers: counts, decimals and seconds,
 * sizes and limits; nothing around them, no sign, no hex, no exponent. */
START_TEST(grammar_count)
{
	uint64_t v = 7;

	ck_assert_int_eq(parse_count("0", 0, 10, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(parse_count("007", 0, 10, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(parse_count("2147483647", 0, 2147483647, &v), 0);
	ck_assert_uint_eq(v, 2147483647);
	ck_assert_int_eq(parse_count("2147483648", 0, 2147483647, &v), -ERANGE);
	ck_assert_int_eq(parse_count("0", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(parse_count("18446744073709551616", 0, UINT64_MAX, &v),
			 -ERANGE);
	v = 7;
	ck_assert_int_eq(parse_count(" 5", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(parse_count("5 ", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(parse_count("+5", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(parse_count("-0", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(parse_count("0x1", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(parse_count("1e1", 0, 100, &v), -EINVAL);
	ck_assert_int_eq(parse_count("5.0", 0, 10, &v), -EINVAL);
	ck_assert_int_eq(parse_count("", 0, 10, &v), -EINVAL);
	ck_assert_uint_eq(v, 7);	/* a refusal leaves it */
}
END_TEST

START_TEST(grammar_seconds)
{
	double d = -1;

	ck_assert_int_eq(parse_seconds("2", 0.05, 86400, &d), 0);
	ck_assert(d == 2.0);
	ck_assert_int_eq(parse_seconds("0.05", 0.05, 86400, &d), 0);
	ck_assert(d == 0.05);
	ck_assert_int_eq(parse_seconds("86400.000", 0.05, 86400, &d), 0);
	ck_assert(d == 86400.0);
	ck_assert_int_eq(parse_seconds("86400.001", 0.05, 86400, &d), -ERANGE);
	ck_assert_int_eq(parse_seconds("0.04", 0.05, 86400, &d), -ERANGE);
	d = -1;
	ck_assert_int_eq(parse_seconds("0x1", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("1e1", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds(" 1", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("1 ", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("+1", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds(".5", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("5.", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("1.2.3", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("inf", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("nan", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("1,5", 0.05, 86400, &d), -EINVAL);
	ck_assert_int_eq(parse_seconds("", 0.05, 86400, &d), -EINVAL);
	ck_assert(d == -1);
	/* A decimal's length bounds the read. */
	ck_assert_int_eq(parse_decimal("12.5%", 4, &d), 0);
	ck_assert(d == 12.5);
	ck_assert_int_eq(parse_interval("0x1", &d), -EINVAL);
	ck_assert_int_eq(parse_interval("0.5", &d), 0);
	ck_assert(d == 0.5);
}
END_TEST

START_TEST(grammar_size)
{
	uint64_t v = 7;

	ck_assert_int_eq(parse_size(S("5M"), &v), 0);
	ck_assert_uint_eq(v, 5242880);
	ck_assert_int_eq(parse_size(S("5mib"), &v), 0);
	ck_assert_uint_eq(v, 5242880);
	ck_assert_int_eq(parse_size(S("5MB"), &v), 0);
	ck_assert_uint_eq(v, 5242880);
	ck_assert_int_eq(parse_size(S("1.5k"), &v), 0);
	ck_assert_uint_eq(v, 1536);
	ck_assert_int_eq(parse_size(S("4096"), &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(parse_size(S("4096b"), &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(parse_size(S("1.0"), &v), 0);
	ck_assert_uint_eq(v, 1);
	ck_assert_int_eq(parse_size(S("16777215T"), &v), 0);
	ck_assert_uint_eq(v, 16777215ULL << 40);
	v = 7;
	ck_assert_int_eq(parse_size(S(" 5M"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("5M "), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("0x10"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("1e3"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("+5M"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("-1"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S(".5K"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("5.K"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("5Ki"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("5iB"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("5KBB"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("5P"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("max"), &v), -EINVAL);
	ck_assert_int_eq(parse_size(S("1.5"), &v), -EDOM);
	ck_assert_int_eq(parse_size(S("0.1K"), &v), -EDOM);
	ck_assert_int_eq(parse_size(S("16777216T"), &v), -ERANGE);
	ck_assert_int_eq(parse_size(S("18446744073709551616"), &v), -ERANGE);
	ck_assert_uint_eq(v, 7);
	/* A limit: a size, or no limit as max, unlimited or -1. */
	ck_assert_int_eq(parse_limit(S("max"), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
	ck_assert_int_eq(parse_limit(S("Unlimited"), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
	ck_assert_int_eq(parse_limit(S("-1"), &v), 0);
	ck_assert_uint_eq(v, VAL_MAX);
	ck_assert_int_eq(parse_limit(S("2G"), &v), 0);
	ck_assert_uint_eq(v, 2ULL << 30);
	ck_assert_int_eq(parse_limit(S("-2"), &v), -EINVAL);
	ck_assert_int_eq(parse_limit(S(" max"), &v), -EINVAL);
	ck_assert_int_eq(parse_limit(S("-1 "), &v), -EINVAL);
	ck_assert_int_eq(parse_limit(S("maxi"), &v), -EINVAL);
}
END_TEST

Suite *parse_suite(void)
{
	Suite *s = suite_create("parse");
	TCase *t = tcase_create("core");

	tcase_add_test(t, u64_strict);
	tcase_add_test(t, value_files);
	tcase_add_test(t, centi);
	tcase_add_test(t, keyvals);
	tcase_add_test(t, meminfo);
	tcase_add_test(t, psi);
	tcase_add_test(t, count_lines);
	tcase_add_test(t, numa_stat);
	tcase_add_test(t, timestamps);
	tcase_add_test(t, grammar_count);
	tcase_add_test(t, grammar_seconds);
	tcase_add_test(t, grammar_size);
	suite_add_tcase(s, t);
	return s;
}
