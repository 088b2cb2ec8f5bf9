/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_theme.c - theme_parse (theme files).
 *
 * On success: every colour -1..255, only known attribute bits, an empty
 * name, and the theme written back as text parses to the same theme.  On
 * error: ret untouched, err "line N: ..." with N within the file and no
 * control bytes (file text is quoted escaped).  Parsing twice agrees.
 */
#include <errno.h>

#include "fuzz.h"
#include "theme.h"

#define ALL_ATTRS (THEME_BOLD | THEME_DIM | THEME_UNDERLINE | THEME_REVERSE | \
		   THEME_STANDOUT)

static const char *const attr_words[] = {
	"bold", "dim", "underline", "reverse", "standout",
};

static size_t write_theme(const struct theme *t, char *out, size_t cap)
{
	size_t o = 0;

	for (int e = 0; e < TE_NR; e++) {
		const struct theme_style *s = &t->el[e];
		int w;

		w = snprintf(out + o, cap - o, "  %s=", theme_elem_name(e));
		o += (size_t)w;
		if (s->fg < 0)
			w = snprintf(out + o, cap - o, "default\t");
		else
			w = snprintf(out + o, cap - o, "%d ", s->fg);
		o += (size_t)w;
		if (s->bg < 0)
			w = snprintf(out + o, cap - o, "default");
		else
			w = snprintf(out + o, cap - o, "%d", s->bg);
		o += (size_t)w;
		for (int a = 0; a < 5; a++)
			if (s->attrs & (1u << a)) {
				w = snprintf(out + o, cap - o, " %s",
					     attr_words[a]);
				o += (size_t)w;
			}
		w = snprintf(out + o, cap - o, " # %d\n", e);
		o += (size_t)w;
		CHECK(o < cap);
	}
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size), err[1200], err2[1200], tiny[9];
	struct theme t, t2, untouched;
	size_t lines = 0;
	int r;

	memset(&t, 0xA5, sizeof(t));
	memset(&untouched, 0xA5, sizeof(untouched));
	memset(err, 'X', sizeof(err));
	r = theme_parse(buf, size, &t, err, sizeof(err));
	for (size_t i = 0; i < size; i++)
		lines += buf[i] == '\n';
	lines += size && buf[size - 1] != '\n';

	if (r == 0) {
		char text[TE_NR * 96], *copy;
		size_t tl;

		CHECK(t.name[0] == '\0');
		for (int e = 0; e < TE_NR; e++) {
			CHECK(t.el[e].fg >= -1 && t.el[e].fg <= 255);
			CHECK(t.el[e].bg >= -1 && t.el[e].bg <= 255);
			CHECK((t.el[e].attrs & ~ALL_ATTRS) == 0);
		}
		tl = write_theme(&t, text, sizeof(text));
		copy = fuzz_dup((const uint8_t *)text, tl);
		memset(&t2, 0x5A, sizeof(t2));
		CHECK(theme_parse(copy, tl, &t2, err2, sizeof(err2)) == 0);
		CHECK(memcmp(&t, &t2, sizeof(t)) == 0);
		free(copy);
	} else {
		unsigned long ln;

		CHECK(r == -EINVAL);
		CHECK(memcmp(&t, &untouched, sizeof(t)) == 0);
		check_message(err, sizeof(err));
		CHECK(strncmp(err, "line ", 5) == 0);
		ln = strtoul(err + 5, NULL, 10);
		CHECK(ln >= 1 && ln <= lines);
		CHECK(theme_parse(buf, size, &t2, tiny, sizeof(tiny)) == r);
		CHECK(strnlen(tiny, sizeof(tiny)) < sizeof(tiny));
	}
	/* Deterministic: the same text gives the same result. */
	memset(&t2, 0xA5, sizeof(t2));
	CHECK(theme_parse(buf, size, &t2, err2, sizeof(err2)) == r);
	CHECK(memcmp(&t, &t2, sizeof(t)) == 0);
	if (r < 0)
		CHECK(strcmp(err, err2) == 0);
	free(buf);
	return 0;
}
