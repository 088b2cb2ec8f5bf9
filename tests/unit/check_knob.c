/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: knob values, checked before anything is written. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "cgfs.h"
#include "knob.h"
#include "parse.h"
#include "units.h"

static const struct knob *k(int v, const char *name)
{
	const struct knob *r = knob_find(v, name, strlen(name));

	ck_assert_ptr_nonnull(r);
	return r;
}

static uint64_t size(const char *s)
{
	uint64_t v = 0;

	ck_assert_int_eq(parse_size(s, strlen(s), &v), 0);
	return v;
}

START_TEST(sizes)
{
	uint64_t v;

	ck_assert_uint_eq(size("0"), 0);
	ck_assert_uint_eq(size("1536"), 1536);
	ck_assert_uint_eq(size("1536B"), 1536);
	ck_assert_uint_eq(size("1K"), 1024);
	ck_assert_uint_eq(size("1.5k"), 1536);
	ck_assert_uint_eq(size("512M"), 512ULL << 20);
	ck_assert_uint_eq(size("512mb"), 512ULL << 20);
	ck_assert_uint_eq(size("2GiB"), 2ULL << 30);
	ck_assert_uint_eq(size("1.5G"), 3ULL << 29);
	ck_assert_uint_eq(size("1T"), 1ULL << 40);
	ck_assert_uint_eq(size("0.5M"), 524288);
	ck_assert_uint_eq(size("0.25k"), 256);
	ck_assert_uint_eq(size("1.0"), 1);
	ck_assert_uint_eq(size("1.500K"), 1536);
	ck_assert_uint_eq(size("1.5T"), 1649267441664ULL);
	/* Every decimal counts: 2^-10 K is one byte, 2^-40 T too (40
	 * decimals, beyond 2^128 as one number). */
	ck_assert_uint_eq(size("0.0009765625K"), 1);
	ck_assert_uint_eq(size("0.0000000000009094947017729282379150390625T"),
			  1);
	ck_assert_uint_eq(size("16777215.99999999999909050529822707176"
			       "20849609375T"), UINT64_MAX);
	/* Not a whole number of bytes: refused, not cut. */
	ck_assert_int_eq(parse_size("0.1", 3, &v), -EDOM);
	ck_assert_int_eq(parse_size("1.5", 3, &v), -EDOM);
	ck_assert_int_eq(parse_size("1.5B", 4, &v), -EDOM);
	ck_assert_int_eq(parse_size("0.1K", 4, &v), -EDOM);
	ck_assert_int_eq(parse_size("0.0000001K", 10, &v), -EDOM);
	ck_assert_int_eq(parse_size("1.0000001K", 10, &v), -EDOM);
	ck_assert_int_eq(parse_size("0.00048828125K", 14, &v), -EDOM);
	ck_assert_int_eq(parse_size("0.999999999T", 12, &v), -EDOM);
	ck_assert_int_eq(parse_size(
		"0.00000000000090949470177292823791503906251T", 44, &v), -EDOM);
	ck_assert_int_eq(parse_size("16777215.5T", 11, &v), 0);
	ck_assert_int_eq(parse_size("16777216.5T", 11, &v), -ERANGE);
	ck_assert_int_eq(parse_size("", 0, &v), -EINVAL);
	ck_assert_int_eq(parse_size("M", 1, &v), -EINVAL);
	ck_assert_int_eq(parse_size("1X", 2, &v), -EINVAL);
	ck_assert_int_eq(parse_size("1KK", 3, &v), -EINVAL);
	ck_assert_int_eq(parse_size("1 G", 3, &v), -EINVAL);
	ck_assert_int_eq(parse_size("-1", 2, &v), -EINVAL);
	ck_assert_int_eq(parse_size("1.2.3", 5, &v), -EINVAL);
	ck_assert_int_eq(parse_size("99999999999999999999", 20, &v),
			 -ERANGE);
	ck_assert_int_eq(parse_size("16777216T", 9, &v), -ERANGE);
}
END_TEST

static int parse(const struct knob *kn, const char *text, uint64_t cur,
		 struct knob_value *v, char *err)
{
	return knob_parse(kn, text, cur, 1, v, err, 512);
}

START_TEST(values)
{
	struct knob_value v;
	char err[512], out[64];

	ck_assert_int_eq(parse(k(2, "max"), "max", 0, &v, err), 0);
	ck_assert(v.unlimited);
	knob_format(k(2, "limit"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "max");
	ck_assert_int_eq(parse(k(1, "limit"), "unlimited", 0, &v, err), 0);
	knob_format(k(1, "limit"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "-1");
	ck_assert_int_eq(parse(k(1, "soft"), "-1", 0, &v, err), 0);
	ck_assert(v.unlimited);
	/* Nothing around the value: blanks are refused as any other text. */
	ck_assert_int_eq(parse(k(2, "high"), " 1.5G", 0, &v, err), -EINVAL);
	ck_assert_str_eq(err, "high: ' 1.5G' is not a value for memory.high; "
			 "it takes a size (bytes, or a number with K, M, G or "
			 "T, e.g. 512M or 1.5G), max (also unlimited or -1), "
			 "or a change +SIZE, -SIZE, +N%, -N%");
	ck_assert_int_eq(parse(k(2, "high"), "1.5G ", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "high"), "0x10", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(1, "swappiness"), " 30", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(1, "swappiness"), "+30", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "reclaim"), "1G  swappiness=10", 0, &v, err),
			 -EINVAL);
	ck_assert_int_eq(parse(k(2, "reclaim"), "1G swappiness= 10", 0, &v, err),
			 -EINVAL);
	ck_assert_int_eq(parse(k(2, "reclaim"), "1G swappiness=10", 0, &v, err),
			 0);
	ck_assert_uint_eq(v.swappiness, 10);
	ck_assert_int_eq(parse(k(2, "limit"), "+.5%", 1000, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "MAX", 0, &v, err), 0);
	ck_assert(v.unlimited);
	ck_assert_int_eq(parse(k(2, "high"), "1.5G", 0, &v, err), 0);
	knob_format(k(2, "high"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "1610612736");
	/* Relative changes. */
	ck_assert_int_eq(parse(k(2, "limit"), "+256M", 1ULL << 30, &v, err), 0);
	ck_assert_uint_eq(v.bytes, (1ULL << 30) + (256ULL << 20));
	ck_assert_int_eq(parse(k(2, "limit"), "-10%", 1000, &v, err), 0);
	ck_assert_uint_eq(v.bytes, 900);
	ck_assert_int_eq(parse(k(2, "limit"), "+12.5%", 1000, &v, err), 0);
	ck_assert_uint_eq(v.bytes, 1125);
	ck_assert_int_eq(parse(k(2, "low"), "-1G", 1ULL << 20, &v, err),
			 -ERANGE);
	ck_assert_str_eq(err, "low: -1G would take the value below 0");
	ck_assert_int_eq(parse(k(2, "limit"), "+1G", UINT64_MAX, &v, err),
			 -EINVAL);
	ck_assert_str_eq(err, "limit: the current value is max: give the new "
			 "value itself");
	ck_assert_int_eq(knob_parse(k(2, "limit"), "+1G", 0, 0, &v, err, 512),
			 -EINVAL);
	/* A size must be whole bytes, also in a change or a reclaim. */
	ck_assert_int_eq(parse(k(1, "soft"), "0.1", 0, &v, err), -EINVAL);
	ck_assert_str_eq(err, "soft: '0.1' is not a whole number of bytes");
	ck_assert_int_eq(parse(k(1, "limit"), "0.0000001K", 0, &v, err),
			 -EINVAL);
	ck_assert_str_eq(err, "limit: '0.0000001K' is not a whole number of "
			 "bytes");
	ck_assert_int_eq(parse(k(2, "limit"), "+0.5", 4096, &v, err), -EINVAL);
	ck_assert_str_eq(err, "limit: '+0.5' is not a whole number of bytes");
	ck_assert_int_eq(parse(k(2, "reclaim"), "1.5 swappiness=10", 0, &v,
			       err), -EINVAL);
	ck_assert_str_eq(err, "reclaim: '1.5' is not a whole number of bytes");
	ck_assert_int_eq(parse(k(2, "reclaim"), "1.5K swappiness=10", 0, &v,
			       err), 0);
	ck_assert_uint_eq(v.bytes, 1536);
	ck_assert_int_eq(parse(k(1, "soft"), "1.5K", 0, &v, err), 0);
	ck_assert_uint_eq(v.bytes, 1536);
	/* A malformed change is said to be one whatever the current value:
	 * max, or none to read. */
	ck_assert_int_eq(parse(k(1, "limit"), "-1x", UINT64_MAX, &v, err),
			 -EINVAL);
	ck_assert_str_eq(err, "limit: '-1x' is not a value for "
			 "memory.limit_in_bytes; it takes a size (bytes, or a "
			 "number with K, M, G or T, e.g. 512M or 1.5G), max "
			 "(also unlimited or -1), or a change +SIZE, -SIZE, "
			 "+N%, -N%");
	ck_assert_int_eq(knob_parse(k(1, "limit"), "+5x%", 0, 0, &v, err, 512),
			 -EINVAL);
	ck_assert(strstr(err, "limit: '+5x%' is not a value for ") == err);
	ck_assert_int_eq(parse(k(1, "limit"), "-1M", UINT64_MAX, &v, err),
			 -EINVAL);
	ck_assert_str_eq(err, "limit: the current value is max: give the new "
			 "value itself");
	/* Protections take no "max". */
	ck_assert_int_eq(parse(k(2, "min"), "max", 0, &v, err), -EINVAL);
	ck_assert_str_eq(err, "min: 'max' is not a value for memory.min; it "
			 "takes a size (bytes, or a number with K, M, G or T, "
			 "e.g. 512M or 1.5G), or a change +SIZE, -SIZE, +N%, "
			 "-N%");
	ck_assert_int_eq(parse(k(2, "limit"), "12abc", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "   ", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "1.5.5G", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "10Q", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "max junk", 0, &v, err), -EINVAL);
	/* "-5" is a change of the current value: below 0 here. */
	ck_assert_int_eq(parse(k(2, "limit"), "-5", 0, &v, err), -ERANGE);
	ck_assert_int_eq(parse(k(2, "limit"), "8E", 0, &v, err), -EINVAL);
	/* Beyond 2^63 bytes: no kernel keeps it. */
	ck_assert_int_eq(parse(k(2, "limit"), "8388608T", 0, &v, err), -ERANGE);
	ck_assert_str_eq(err, "limit: 8388608T is beyond any limit the kernel "
			 "keeps; use max");
	/* A typed newline is refused, and shown escaped on one line. */
	ck_assert_int_eq(parse(k(2, "limit"), "1M\n-1", 0, &v, err), -EINVAL);
	ck_assert(strchr(err, '\n') == NULL);
	ck_assert_int_eq(parse(k(2, "limit"), "", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "1\n2", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "9E", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "limit"), "9000000T", 0, &v, err), -ERANGE);
	/* Swappiness 0..200, oom.group 0/1. */
	ck_assert_int_eq(parse(k(1, "swappiness"), "200", 0, &v, err), 0);
	ck_assert_uint_eq(v.bytes, 200);
	ck_assert_int_eq(parse(k(1, "swappiness"), "201", 0, &v, err), -EINVAL);
	ck_assert_str_eq(err, "swappiness: '201' is not a value for "
			 "memory.swappiness; it takes a whole number from 0 to "
			 "200");
	ck_assert_int_eq(parse(k(1, "swappiness"), "1K", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(1, "swappiness"), "-1", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "oom.group"), "1", 0, &v, err), 0);
	ck_assert_int_eq(parse(k(2, "oom.group"), "2", 0, &v, err), -EINVAL);
	/* memory.reclaim: a size and maybe swappiness=N. */
	ck_assert_int_eq(parse(k(2, "reclaim"), "64M swappiness=10", 0, &v,
			       err), 0);
	knob_format(k(2, "reclaim"), &v, out, sizeof(out));
	ck_assert_str_eq(out, "67108864 swappiness=10");
	ck_assert_int_eq(parse(k(2, "reclaim"), "64M swappiness=300", 0, &v,
			       err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "reclaim"), "0", 0, &v, err), -EINVAL);
	ck_assert_int_eq(parse(k(2, "reclaim"), "max", 0, &v, err), -EINVAL);
}
END_TEST

START_TEST(table)
{
	ck_assert_ptr_null(knob_find(1, "high", 4));
	ck_assert_ptr_null(knob_find(2, "soft", 4));
	ck_assert_str_eq(k(2, "max")->file, "memory.max");
	ck_assert_str_eq(k(2, "swap.max")->file, "memory.swap.max");
	ck_assert_str_eq(k(1, "memsw")->file, "memory.memsw.limit_in_bytes");
	ck_assert_str_eq(knob_explain(k(1, "limit"), EBUSY),
			 "the kernel could not reclaim the group down to the "
			 "new limit and kept the old one");
	for (size_t i = 0; i < nknobs; i++) {
		ck_assert(strncmp(knobs[i].file, "memory.", 7) == 0);
		ck_assert(!strchr(knobs[i].file, '/'));
	}
}
END_TEST

/* A knob that changes a value memcgtop reads writes the file the value
 * is read from (fields.h): the two tables cannot name two files. */
START_TEST(files_as_read)
{
	static const struct {
		int version;
		const char *knob;
		enum field f;
	} same[] = {
		{ 1, "limit", FLD_LIMIT }, { 1, "soft", FLD_SOFT },
		{ 1, "swappiness", FLD_SWAPPINESS }, { 2, "limit", FLD_LIMIT },
		{ 2, "high", FLD_HIGH }, { 2, "low", FLD_LOW },
		{ 2, "min", FLD_MIN }, { 2, "swap.max", FLD_SWAP_LIMIT },
	};

	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		const char *file, *key;

		ck_assert(cgfs_field_source(same[i].version, same[i].f, &file,
					    &key));
		ck_assert_ptr_null(key);
		ck_assert_str_eq(k(same[i].version, same[i].knob)->file, file);
	}
}
END_TEST

Suite *knob_suite(void)
{
	Suite *s = suite_create("knob");
	TCase *t = tcase_create("core");

	tcase_add_test(t, sizes);
	tcase_add_test(t, values);
	tcase_add_test(t, table);
	tcase_add_test(t, files_as_read);
	suite_add_tcase(s, t);
	return s;
}
