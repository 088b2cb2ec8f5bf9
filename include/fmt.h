/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fmt.h - number formatting and escaping for every output. */
#ifndef MEMCGTOP_FMT_H
#define MEMCGTOP_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* v in decimal, as "%" PRIu64 prints it; the length written (buf cut to
 * fit, len > 0). */
size_t fmt_u64(char *buf, size_t len, uint64_t v);
/* x as "%.*f" prints it with decimals (0 to 4) digits, the same bytes;
 * the length written (buf cut to fit, len > 0). */
size_t fmt_fixed(char *buf, size_t len, double x, int decimals);
/* 1536 -> "1.5K", 3221225472 -> "3.0G" (powers of 1024). */
void fmt_bytes(char *buf, size_t len, uint64_t v);
/* 12345 -> "12.3k" (powers of 1000), small counts exact. */
void fmt_count(char *buf, size_t len, uint64_t v);
void fmt_rate(char *buf, size_t len, double v);
/* Hundredths: 1234 -> "12.34" (PSI averages are kept so). */
void fmt_hundredths(char *buf, size_t len, uint64_t v);
/* Unix time -> "2026-11-30T01:02:03Z". */
void fmt_time_iso(char *buf, size_t len, int64_t t);

/*
 * A group name as a terminal may show it: control bytes, DEL, C1 controls
 * and bytes that are not valid UTF-8 become \xHH, a backslash \\; so do
 * the bytes of a format character (bidi controls such as U+202E, U+200B,
 * U+FEFF; Unicode's Cf) and of U+2028, U+2029.  Writes at most len-1
 * bytes; returns the display width (columns) written.
 */
size_t fmt_escape(char *buf, size_t len, const char *s, size_t slen);

/* A JSON string, quotes included; bytes that are not UTF-8 are \u00HH. */
void fmt_json_string(FILE *f, const char *s, size_t len);
/* An RFC 4180 field, quoted when it holds , " CR or LF. */
void fmt_csv_field(FILE *f, const char *s, size_t len);
/* An OpenMetrics label value: \\ \" \n escaped; bad UTF-8 -> U+FFFD. */
void fmt_om_label(FILE *f, const char *s, size_t len);

/* Length of the valid UTF-8 sequence at s (1-4), 0 if invalid. */
size_t fmt_utf8_len(const unsigned char *s, size_t len);

#endif
