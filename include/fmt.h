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
 * The names' encoding, the same in every output: control bytes, DEL, C1
 * controls and bytes that are not valid UTF-8 become \xHH (two upper-case
 * hex digits), a backslash \\; so do the bytes of a format character
 * (bidi controls such as U+202E, U+200B, U+FEFF; Unicode's Cf) and of
 * U+2028, U+2029.  Every other valid UTF-8 character is kept.  Reversible
 * (fmt_unescape), so two names never encode alike.
 *
 * fmt_escape writes at most len-1 bytes, whole escapes only; returns the
 * display width (columns) written.
 */
size_t fmt_escape(char *buf, size_t len, const char *s, size_t slen);
/* The encoding read back (buf may be s: it is never longer); the length,
 * -EINVAL for a "\" that starts no \\ or \xHH, -E2BIG when buf
 * (NUL-ended) is too short. */
int fmt_unescape(char *buf, size_t len, const char *s, size_t slen);

/*
 * Text for a terminal that is not a name (a message, typed text, a
 * kernel's reason): escaped as fmt_escape does, but a backslash stays as
 * it is, so that text holding an escaped name is not escaped twice; with
 * ascii, every byte >= 0x80 is \xHH too.  Returns the columns written.
 */
size_t fmt_safe(char *buf, size_t len, const char *s, size_t slen,
		int ascii);
void fmt_safe_put(FILE *f, const char *s, size_t slen);

/* A name encoded, then in each format's quoting: as it is (text); a JSON
 * string, quotes included; an RFC 4180 field, quoted when it holds , or ";
 * an OpenMetrics label value (\\ and \" escaped). */
void fmt_text_name(FILE *f, const char *s, size_t len);
void fmt_json_name(FILE *f, const char *s, size_t len);
/* The same string into out, which has room for FMT_JSON_NAME_ROOM(len)
 * bytes (a byte's encoding is at most 4, each quoted at most twice, and
 * the two quotes); the length written, not NUL-ended. */
#define FMT_JSON_NAME_ROOM(len) (8 * (size_t)(len) + 2)
size_t fmt_json_name_buf(char *out, const char *s, size_t len);
void fmt_csv_name(FILE *f, const char *s, size_t len);
void fmt_om_name(FILE *f, const char *s, size_t len);

/* Length of the valid UTF-8 sequence at s (1-4), 0 if invalid. */
size_t fmt_utf8_len(const unsigned char *s, size_t len);

#endif
