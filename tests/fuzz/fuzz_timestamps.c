/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_timestamps.c - parse_timestamps (a series' timestamps file).
 *
 * On success: one sample per line, MONO finite, >= 0 and strictly
 * increasing, every line "MONO", "MONO WALL" or "MONO WALL SLOT" (checked
 * again here with strtod/strtoll/strtol on a NUL-terminated copy), SLOT
 * 0..100000000 and the line's index when not given.  On error: outputs untouched,
 * err "line N: ..." with N within the file, or "no samples".  Error text is
 * checked with a roomy and a tiny buffer.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"
#include "parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	double *mono = (double *)0x1, *m2;
	int64_t *wall = (int64_t *)0x1, *w2;
	long *slot = (long *)0x1, *s2;
	size_t n = 12345, n2, lines = 0;
	char err[128], tiny[6];
	int r, r2;

	memset(err, 'X', sizeof(err));
	r = parse_timestamps(buf, size, &mono, &wall, &slot, &n, err, sizeof(err));
	for (size_t i = 0; i < size; i++)
		lines += buf[i] == '\n';
	lines += size && buf[size - 1] != '\n';

	if (r == 0) {
		const char *p = buf;

		CHECK(n >= 1 && n == lines);
		for (size_t i = 0; i < n; i++) {
			const char *nl = memchr(p, '\n', (size_t)(buf + size - p));
			size_t ll = (size_t)((nl ? nl : buf + size) - p);
			char line[160], *e;
			double m;

			CHECK(isfinite(mono[i]) && mono[i] >= 0 &&
			      mono[i] <= TS_MONO_MAX);
			CHECK(wall[i] >= 0 && wall[i] <= TS_WALL_MAX);
			if (i)
				CHECK(mono[i] > mono[i - 1]);
			CHECK(ll < 128);
			memcpy(line, p, ll);
			line[ll] = '\0';
			m = strtod(line, &e);
			CHECK(e != line && m == mono[i]);
			if (*e) {
				char *e2;
				long long w;

				CHECK(*e == ' ' || *e == '\t');
				w = strtoll(e, &e2, 10);
				CHECK(e2 != e && w == wall[i]);
				if (*e2) {
					char *e3;
					long sl;

					CHECK(*e2 == ' ' || *e2 == '\t');
					sl = strtol(e2, &e3, 10);
					CHECK(e3 != e2 && *e3 == '\0');
					CHECK(sl == slot[i]);
				} else {
					CHECK(slot[i] == (long)i);
				}
			} else {
				CHECK(wall[i] == 0 && slot[i] == (long)i);
			}
			CHECK(slot[i] >= 0 && slot[i] <= 100000000);
			p = nl ? nl + 1 : buf + size;
		}
		free(mono);
		free(wall);
		free(slot);
	} else {
		CHECK(r == -EINVAL || r == -ENOMEM);
		CHECK(mono == (double *)0x1 && wall == (int64_t *)0x1 &&
		      slot == (long *)0x1 && n == 12345);
		check_message(err, sizeof(err));
		if (strncmp(err, "line ", 5) == 0) {
			unsigned long ln = strtoul(err + 5, NULL, 10);

			CHECK(ln >= 1 && ln <= lines);
		} else {
			CHECK(strcmp(err, "no samples") == 0);
			CHECK(size == 0);
		}
		/* A small err buffer is cut, still terminated. */
		r2 = parse_timestamps(buf, size, &m2, &w2, &s2, &n2, tiny,
				      sizeof(tiny));
		CHECK(r2 == r);
		CHECK(memchr(tiny, '\0', sizeof(tiny)) != NULL);
	}
	free(buf);
	return 0;
}
