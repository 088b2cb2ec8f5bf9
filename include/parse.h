/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h - parsers for the text the kernel and the user give memcgtop.
 *
 * Every parser takes a buffer and its length (the buffer need not be
 * NUL-terminated), never reads past it, and rejects rather than guesses:
 * a value that is not a plain decimal number in range is not a value.
 */
#ifndef MEMCGTOP_PARSE_H
#define MEMCGTOP_PARSE_H

#include <stddef.h>
#include <stdint.h>

/* "No limit", whatever spelling the kernel used for it. */
#define VAL_MAX UINT64_MAX

/*
 * v1 reports "no limit" as PAGE_COUNTER_MAX * PAGE_SIZE, which is
 * LONG_MAX rounded down to the page size: 9223372036854771712 with 4 KiB
 * pages (6.18, x86-64), less with 64 KiB pages.  Anything at or above
 * LONG_MAX rounded down to 1 MiB is that value for every page size Linux
 * has, and far above any real amount of memory.
 */
#define V1_UNLIMITED_MIN 0x7FFFFFFFFFF00000ULL

/*
 * The one rule for numbers the kernel reports: only a limit can be
 * unlimited (VAL_MAX, from parse_value); a usage, size or count at or
 * above V1_UNLIMITED_MIN is out of range, not a value, whichever file it
 * comes from (a value file, memory.stat, memory.events, /proc/meminfo).
 */
static inline int parse_in_range(uint64_t v)
{
	return v < V1_UNLIMITED_MIN;
}

/* A strict unsigned decimal: digits only, no sign, no overflow. */
int parse_u64(const char *s, size_t len, uint64_t *ret_val);

/*
 * One value file such as memory.current or memory.limit_in_bytes: a
 * number or "max" and its newline (a file without one was cut short).
 * Huge v1 values and "max" both give VAL_MAX.
 */
int parse_value_file(const char *buf, size_t len, uint64_t *ret_val);
/* The same for a value already cut from its file (trailing blanks ok). */
int parse_value(const char *s, size_t len, uint64_t *ret_val);

/* Fixed-point decimal "21.44" -> 2144 (hundredths); at most 2 decimals. */
int parse_centi(const char *s, size_t len, uint64_t *ret_val);

/*
 * Key-value files (memory.stat, memory.events, oom_control, vmstat,
 * numa_stat totals): calls fn(key, keylen, value, ctx) for every complete
 * line "KEY VALUE\n" whose value parses.  A last line without its newline
 * was cut short and is ignored.  Returns the number of lines accepted.
 */
typedef void (*parse_kv_fn)(const char *key, size_t keylen, uint64_t val,
			    void *ctx);
int parse_keyvals(const char *buf, size_t len, parse_kv_fn fn, void *ctx);

/* /proc/meminfo: "Key:   123 kB" lines; values given in bytes. */
int parse_meminfo(const char *buf, size_t len, parse_kv_fn fn, void *ctx);

/* One PSI line set (memory.pressure, /proc/pressure/memory). */
struct psi {
	uint64_t some_avg10, full_avg10;	/* hundredths of a percent */
	uint64_t some_total, full_total;	/* microseconds */
	unsigned has_some : 1, has_full : 1;
};
int parse_psi(const char *buf, size_t len, struct psi *ret_psi);

/*
 * A series' timestamps file: lines "MONO [WALL [SLOT]]", MONO seconds
 * increasing (up to TS_MONO_MAX), WALL Unix seconds (0 to TS_WALL_MAX),
 * SLOT the sample's folder (default: the line's index).  Every line ends
 * with a newline, except that a file of one line may lack it.  Fills
 * malloc'd arrays; on error err names the line ("line 3: ...").
 */
/* More than three centuries of CLOCK_MONOTONIC: no uptime, and an
 * interval printed with a dozen digits at most. */
#define TS_MONO_MAX 1e10
/* 9999-12-31T23:59:59Z: the last time ISO 8601 writes with four digits. */
#define TS_WALL_MAX 253402300799LL
int parse_timestamps(const char *buf, size_t len, double **ret_mono,
		     int64_t **ret_wall, long **ret_slot, size_t *ret_n,
		     char *err, size_t errlen);

/*
 * The one grammar for the numbers a person types: every numeric option,
 * --set and the edit dialog, the settings file's interval, the screen's
 * s (the man page's NUMBERS says it once).  The text is the number and
 * nothing else: no blank before or after, no sign (a limit's -1 aside),
 * no hexadecimal, no exponent.
 *  - a count: decimal digits ("0", "42");
 *  - a decimal: digits, then optionally "." and digits ("2", "0.5");
 *  - seconds: a decimal;
 *  - a size: a decimal, then optionally K, M, G or T (powers of 1024),
 *    itself optionally followed by B or iB, or only B; any case; it must
 *    come to a whole number of bytes ("1.5K" is 1536, "1.5" is refused);
 *  - a limit: a size, or max, unlimited or -1 (no limit).
 * Each returns 0, -EINVAL for text that is not of the form, -ERANGE for a
 * number out of range, and parse_size -EDOM for a fraction of a byte.
 */
#define COUNT_FORM "decimal digits only"
#define SECONDS_FORM "decimal, e.g. 2 or 0.5"
int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *ret);
int parse_decimal(const char *s, size_t len, double *ret);
int parse_seconds(const char *s, double min, double max, double *ret);
int parse_size(const char *s, size_t len, uint64_t *ret_bytes);
int parse_limit(const char *s, size_t len, uint64_t *ret_bytes);

/* The refresh interval (-d, the settings, s on the screen): seconds from
 * 0.05 to 86400.  0 or -EINVAL. */
#define INTERVAL_RANGE "a number of seconds from 0.05 to 86400 (" \
	SECONDS_FORM ")"
int parse_interval(const char *s, double *ret);

/* A group path never climbs: no "." or ".." component (CGROUP, --set's
 * PATH).  1 if p has none, else 0. */
int parse_clean_path(const char *p);

/*
 * memory.numa_stat: the value of each of nkeys keys per node, from v2's
 * "key N0=V N1=V" or v1's "key=TOTAL N0=V" lines (values as given: v1
 * counts pages).  Nodes in the order first seen, at most NUMA_MAX_NODES.
 */
#define NUMA_MAX_NODES 64
#define NUMA_MAX_KEYS 16
struct numa_stat {
	size_t n;
	unsigned node[NUMA_MAX_NODES];
	uint64_t v[NUMA_MAX_NODES][NUMA_MAX_KEYS];
	unsigned char has[NUMA_MAX_NODES][NUMA_MAX_KEYS];
};
void parse_numa_stat(const char *buf, size_t len, const char *const *keys,
		     size_t nkeys, struct numa_stat *ret);

/*
 * How memory.numa_stat reads on a version (FLD_NUMA keeps its text): the
 * lists per node to show, the keys that give them, and whether their
 * values are pages (v1) or bytes (v2).  One view for the JSON numa object
 * (names are its keys), one for the detail pane (names are its titles;
 * note follows its title).
 */
struct numa_view {
	const char *const *keys;
	const char *const *names;
	size_t n;
	int pages;
	const char *note;
	/* JSON: the first two names are anon and file, each the sum of two
	 * keys' lists (active + inactive), then the keys from the third */
	int lru_sums;
	/* pane: keys from split on are a second table, the group's own
	 * lists (v2, from the BPF pass); 0: one table */
	size_t split;
};

/* Count of non-empty lines (cgroup.procs). */
uint64_t parse_count_lines(const char *buf, size_t len);

#endif
