/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests: the system figures from a --proc DIR, plain and a series. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/sink.h"
#include "source/sysinfo.h"
#include "units.h"

static void put(const char *dir, const char *rel, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void rmtree(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static int has(const struct sysinfo *s, enum sysfield f)
{
	return (s->valid & FBIT(f)) != 0;
}

/* The fixtures' proc series: sample 1 of edge-v2 (see
 * tests/fixtures/README.md). */
START_TEST(series)
{
	struct sysinfo_src *src = NULL;
	struct sysinfo s;

	ck_assert_int_eq(sysinfo_open("tests/fixtures/edge-v2/proc", &src), 0);
	sysinfo_read(src, 1, &s);
	ck_assert_uint_eq(s.v[SYS_MEM_TOTAL], 16ull << 30);
	ck_assert_uint_eq(s.v[SYS_MEM_AVAILABLE], (12ull << 30) - (256ull << 20));
	ck_assert_uint_eq(s.v[SYS_SWAP_TOTAL], 4ull << 30);
	ck_assert_uint_eq(s.v[SYS_SWAP_FREE], 3ull << 30);
	ck_assert_uint_eq(s.v[SYS_PSI_SOME10], 450);
	ck_assert_uint_eq(s.v[SYS_PSI_FULL10], 225);
	ck_assert(has(&s, SYS_PGSCAN) && has(&s, SYS_PGSTEAL));
	/* No lru_gen asked: not read. */
	ck_assert(!has(&s, SYS_LRU_GEN));
	sysinfo_close(src);
}
END_TEST

/* A plain DIR: its files; anon + file against kswapd + direct. */
START_TEST(plain)
{
	char dir[] = "/tmp/memcgtop-proc-XXXXXX", sub[4200];
	struct sysinfo_src *src = NULL;
	struct sysinfo s;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "meminfo", "MemTotal: 1000 kB\nMemFree: 1 kB\n"
	    "MemAvailable: 600 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n");
	put(dir, "vmstat", "pgscan_kswapd 10\npgscan_direct 20\n"
	    "pgsteal_kswapd 5\npgsteal_direct 6\n");
	snprintf(sub, sizeof(sub), "%s/lru_gen", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	put(dir, "lru_gen/enabled", "0x0007\n");
	ck_assert_int_eq(sysinfo_open(dir, &src), 0);
	sysinfo_want_lru_gen(src, 1);
	sysinfo_read(src, 0, &s);
	ck_assert_uint_eq(s.v[SYS_MEM_TOTAL], 1024000);
	ck_assert_uint_eq(s.v[SYS_MEM_AVAILABLE], 614400);
	ck_assert(has(&s, SYS_SWAP_TOTAL) && s.v[SYS_SWAP_TOTAL] == 0);
	/* Only kswapd + direct: their sums. */
	ck_assert_uint_eq(s.v[SYS_PGSCAN], 30);
	ck_assert_uint_eq(s.v[SYS_PGSTEAL], 11);
	ck_assert_uint_eq(s.v[SYS_LRU_GEN], 7);
	/* No pressure file: no PSI, nothing else lost. */
	ck_assert(!has(&s, SYS_PSI_SOME10) && !has(&s, SYS_PSI_FULL10));
	/* anon + file, where larger, win; a term out of range drops its
	 * pair only. */
	put(dir, "vmstat", "pgscan_kswapd 10\npgscan_direct 20\n"
	    "pgsteal_kswapd 5\npgsteal_direct 6\npgscan_anon 40\n"
	    "pgscan_file 50\npgsteal_anon 7\npgsteal_file 8\n");
	sysinfo_read(src, 0, &s);
	ck_assert_uint_eq(s.v[SYS_PGSCAN], 90);
	ck_assert_uint_eq(s.v[SYS_PGSTEAL], 15);
	/* The rest of anon + file is memcg-targeted reclaim's; a kernel
	 * without khugepaged's and proactive's counters has them blank. */
	ck_assert_uint_eq(s.v[SYS_PGSCAN_MEMCG], 60);
	ck_assert(!has(&s, SYS_PGSCAN_KHUGEPAGED));
	ck_assert(!has(&s, SYS_PGSCAN_PROACTIVE));
	/* 6.18's: the five parts add up to anon + file. */
	put(dir, "vmstat", "pgscan_kswapd 10\npgscan_direct 20\n"
	    "pgscan_khugepaged 3\npgscan_proactive 4\npgscan_anon 40\n"
	    "pgscan_file 50\n");
	sysinfo_read(src, 0, &s);
	ck_assert_uint_eq(s.v[SYS_PGSCAN_KHUGEPAGED], 3);
	ck_assert_uint_eq(s.v[SYS_PGSCAN_PROACTIVE], 4);
	ck_assert_uint_eq(s.v[SYS_PGSCAN_MEMCG], 53);
	ck_assert_uint_eq(s.v[SYS_PGSCAN_KSWAPD] + s.v[SYS_PGSCAN_DIRECT] +
			  s.v[SYS_PGSCAN_KHUGEPAGED] +
			  s.v[SYS_PGSCAN_PROACTIVE] + s.v[SYS_PGSCAN_MEMCG],
			  s.v[SYS_PGSCAN]);
	/* Counters read a moment apart: a rest below 0 is 0. */
	put(dir, "vmstat", "pgscan_kswapd 95\npgscan_direct 0\n"
	    "pgscan_anon 40\npgscan_file 50\n");
	sysinfo_read(src, 0, &s);
	ck_assert(has(&s, SYS_PGSCAN_MEMCG));
	ck_assert_uint_eq(s.v[SYS_PGSCAN_MEMCG], 0);
	put(dir, "vmstat", "pgscan_kswapd 10\npgscan_direct 20\n"
	    "pgsteal_kswapd 5\npgsteal_direct 6\npgscan_anon 40\n"
	    "pgscan_file 50\npgsteal_anon 7\npgsteal_file 8\n");
	sysinfo_read(src, 0, &s);
	put(dir, "vmstat", "pgscan_kswapd 10\npgscan_direct 20\n"
	    "pgsteal_kswapd 5\npgsteal_direct 6\npgscan_anon 40\n"
	    "pgscan_file 9223372036854771712\npgsteal_anon 7\n"
	    "pgsteal_file 8\n");
	sysinfo_read(src, 0, &s);
	ck_assert_uint_eq(s.v[SYS_PGSCAN], 30);
	ck_assert_uint_eq(s.v[SYS_PGSTEAL], 11);
	put(dir, "lru_gen/enabled", "0x\n");
	sysinfo_read(src, 0, &s);
	ck_assert(!has(&s, SYS_LRU_GEN));
	/* Global reclaim's own: kswapd and direct as the kernel counts. */
	ck_assert_uint_eq(s.v[SYS_PGSCAN_KSWAPD], 10);
	ck_assert_uint_eq(s.v[SYS_PGSCAN_DIRECT], 20);
	/* No kswapd_stat: no kswapd time (a copy without it). */
	ck_assert(!has(&s, SYS_KSWAPD_MS));
	sysinfo_close(src);
	rmtree(dir);
}
END_TEST

/* kswapd_stat: the kswapd threads' /proc/PID/stat lines; their utime and
 * stime (fields 14 and 15) summed, in ms. */
START_TEST(kswapd)
{
	char dir[] = "/tmp/memcgtop-proc-XXXXXX";
	struct sysinfo_src *src = NULL;
	struct sysinfo s;
	long hz = sysconf(_SC_CLK_TCK);
	/* fields 3..13, then utime 150 and stime 50, then the rest */
	const char *k0 = "97 (kswapd0) S 2 0 0 0 -1 2129984 0 0 0 0 150 50 "
		"0 0 20 0 1 0 300 0 0 18446744073709551615 0 0 0 0 0 0 0 "
		"2147483647 0 1 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	const char *k1 = "98 (kswapd1) S 2 0 0 0 -1 2129984 0 0 0 0 7 3 0 0 "
		"20 0 1 0 300 0 0 18446744073709551615 0 0 0 0 0 0 0 "
		"2147483647 0 1 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
	char both[1024];

	ck_assert_int_gt(hz, 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(both, sizeof(both), "%s%s", k0, k1);
	put(dir, "kswapd_stat", both);
	ck_assert_int_eq(sysinfo_open(dir, &src), 0);
	sysinfo_read(src, 0, &s);
	ck_assert(has(&s, SYS_KSWAPD_MS));
	ck_assert_uint_eq(s.v[SYS_KSWAPD_MS], (150 + 50 + 7 + 3) * 1000 /
			  (uint64_t)hz);
	/* A line of another task, or one cut short: no figure at all. */
	put(dir, "kswapd_stat", "99 (bash) S 1 0 0 0 -1 0 0 0 0 0 1 1\n");
	sysinfo_read(src, 0, &s);
	ck_assert(!has(&s, SYS_KSWAPD_MS));
	put(dir, "kswapd_stat", "97 (kswapd0) S 2 0 0 0 -1 2129984 0 0\n");
	sysinfo_read(src, 0, &s);
	ck_assert(!has(&s, SYS_KSWAPD_MS));
	sysinfo_close(src);
	rmtree(dir);
}
END_TEST

/* A sink that keeps what it is told of the procfs files. */
struct procsink {
	struct sink sink;
	char names[8][32];
	char text[8][256];
	size_t n;
};

static void ps_proc(struct sink *sk, const char *name, const void *buf,
		    size_t len)
{
	struct procsink *p = (struct procsink *)sk;

	ck_assert_uint_lt(p->n, 8);
	ck_assert_uint_lt(len, sizeof(p->text[0]));
	snprintf(p->names[p->n], sizeof(p->names[0]), "%s", name);
	memcpy(p->text[p->n], buf, len);
	p->text[p->n][len] = '\0';
	p->n++;
}

static const struct sink_ops procsink_ops = { .proc = ps_proc };

/* Each procfs file read reaches the sink, by its name below the procfs
 * and with its exact bytes, as a recording keeps it. */
START_TEST(sink)
{
	char dir[] = "/tmp/memcgtop-proc-XXXXXX", sub[4200];
	const char *meminfo = "MemTotal: 1000 kB\nMemAvailable: 600 kB\n";
	const char *psi = "some avg10=1.50 avg60=0.00 avg300=0.00 total=9\n";
	struct procsink p = { .sink = { &procsink_ops } };
	struct sysinfo_src *src = NULL;
	struct sysinfo s;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "meminfo", meminfo);
	put(dir, "vmstat", "pgscan_kswapd 10\n");
	snprintf(sub, sizeof(sub), "%s/pressure", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	put(dir, "pressure/memory", psi);
	ck_assert_int_eq(sysinfo_open(dir, &src), 0);
	sysinfo_sink(src, &p.sink);
	sysinfo_read(src, 0, &s);
	ck_assert_uint_eq(p.n, 3);
	for (size_t i = 0; i < p.n; i++) {
		if (!strcmp(p.names[i], "meminfo"))
			ck_assert_str_eq(p.text[i], meminfo);
		else if (!strcmp(p.names[i], "vmstat"))
			ck_assert_str_eq(p.text[i], "pgscan_kswapd 10\n");
		else if (!strcmp(p.names[i], "pressure/memory"))
			ck_assert_str_eq(p.text[i], psi);
		else
			ck_abort_msg("unexpected file %s", p.names[i]);
	}
	ck_assert_uint_eq(s.v[SYS_PSI_SOME10], 150);
	/* Without a sink nothing more is told. */
	sysinfo_sink(src, NULL);
	sysinfo_read(src, 0, &s);
	ck_assert_uint_eq(p.n, 3);
	sysinfo_close(src);
	rmtree(dir);
}
END_TEST

Suite *sysinfo_suite(void)
{
	Suite *s = suite_create("sysinfo");
	TCase *tc = tcase_create("procdir");

	tcase_add_test(tc, series);
	tcase_add_test(tc, plain);
	tcase_add_test(tc, kswapd);
	tcase_add_test(tc, sink);
	suite_add_tcase(s, tc);
	return s;
}
