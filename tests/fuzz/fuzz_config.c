/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_config.c - config_parse (memcgtoprc).
 *
 * On success: every string terminated inside its array, with no newline,
 * no NUL-less overrun and no blank at either end; the interval 0.05..86400
 * when set; folded paths start with '/'; and the settings written back as
 * "key = value" lines parse to the same configuration.  On error: err
 * "line N: ..." with N within the file and no control bytes.  Nothing leaks
 * (LeakSanitizer) on either path.
 */
#include <errno.h>
#include <math.h>

#include "config.h"
#include "fuzz.h"
#include "rightsize.h"

static void check_str(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	CHECK(n < cap);
	CHECK(memchr(s, '\n', n) == NULL);
	if (n) {
		CHECK(s[0] != ' ' && s[0] != '\t' && s[0] != '\r');
		CHECK(s[n - 1] != ' ' && s[n - 1] != '\t' && s[n - 1] != '\r');
	}
}

static char *write_config(const struct config *c, size_t *ret_len)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	fprintf(f, "# written back by fuzz_config\n\n");
	if (c->has & CONFIG_HAS_DELAY)
		fprintf(f, "interval = %.17g\n", c->delay);
	if (c->has & CONFIG_HAS_SORT)
		fprintf(f, "sort = %s\n", c->sort);
	if (c->has & CONFIG_HAS_SET)
		fprintf(f, "columns=%s\n", c->set);
	if (c->has & CONFIG_HAS_CUSTOM)
		fprintf(f, "\tcustom =%s\r\n", c->custom);
	if (c->has & CONFIG_HAS_THEME)
		fprintf(f, "theme= %s\n", c->theme);
	if (c->has & CONFIG_HAS_COLLECTOR)
		fprintf(f, "collector =%s\n", c->collector);
	if (c->has & CONFIG_HAS_REC_MARGIN)
		fprintf(f, "rec_margin= %d\n", c->rec_margin);
	for (size_t i = 0; i < c->nfolded; i++)
		fprintf(f, "folded = %s\n", c->folded[i]);
	CHECK(fclose(f) == 0);
	*ret_len = len;
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size), err[512], err2[512];
	struct config c, c2, untouched;
	size_t lines = 0;
	int r;

	memset(&c, 0xA5, sizeof(c));
	memset(&untouched, 0xA5, sizeof(untouched));
	memset(err, 'X', sizeof(err));
	r = config_parse(buf, size, &c, err, sizeof(err));
	for (size_t i = 0; i < size; i++)
		lines += buf[i] == '\n';
	lines += size && buf[size - 1] != '\n';

	if (r == 0) {
		char *text, *copy;
		size_t tl;

		CHECK((c.has & ~127u) == 0);
		if (c.has & CONFIG_HAS_DELAY)
			CHECK(isfinite(c.delay) && c.delay >= 0.05 &&
			      c.delay <= 86400);
		if (c.has & CONFIG_HAS_SORT)
			check_str(c.sort, sizeof(c.sort));
		if (c.has & CONFIG_HAS_SET)
			check_str(c.set, sizeof(c.set));
		if (c.has & CONFIG_HAS_CUSTOM)
			check_str(c.custom, sizeof(c.custom));
		if (c.has & CONFIG_HAS_THEME)
			check_str(c.theme, sizeof(c.theme));
		if (c.has & CONFIG_HAS_COLLECTOR)
			CHECK(strcmp(c.collector, "auto") == 0 ||
			      strcmp(c.collector, "bpf") == 0 ||
			      strcmp(c.collector, "files") == 0);
		if (c.has & CONFIG_HAS_REC_MARGIN)
			CHECK(c.rec_margin >= 0 && c.rec_margin <= RS_MARGIN_MAX);
		CHECK(c.nfolded <= lines);
		CHECK(c.nfolded == 0 || c.folded != NULL);
		for (size_t i = 0; i < c.nfolded; i++) {
			CHECK(c.folded[i][0] == '/');
			check_str(c.folded[i], size + 1);
		}

		text = write_config(&c, &tl);
		copy = fuzz_dup((const uint8_t *)text, tl);
		free(text);
		memset(&c2, 0x5A, sizeof(c2));
		CHECK(config_parse(copy, tl, &c2, err2, sizeof(err2)) == 0);
		free(copy);
		CHECK(c2.has == c.has);
		if (c.has & CONFIG_HAS_DELAY)
			CHECK(c2.delay == c.delay);
		if (c.has & CONFIG_HAS_SORT)
			CHECK(strcmp(c2.sort, c.sort) == 0);
		if (c.has & CONFIG_HAS_SET)
			CHECK(strcmp(c2.set, c.set) == 0);
		if (c.has & CONFIG_HAS_CUSTOM)
			CHECK(strcmp(c2.custom, c.custom) == 0);
		if (c.has & CONFIG_HAS_THEME)
			CHECK(strcmp(c2.theme, c.theme) == 0);
		if (c.has & CONFIG_HAS_COLLECTOR)
			CHECK(strcmp(c2.collector, c.collector) == 0);
		if (c.has & CONFIG_HAS_REC_MARGIN)
			CHECK(c2.rec_margin == c.rec_margin);
		CHECK(c2.nfolded == c.nfolded);
		for (size_t i = 0; i < c.nfolded; i++)
			CHECK(strcmp(c2.folded[i], c.folded[i]) == 0);
		config_free(&c2);
		config_free(&c);
		CHECK(c.folded == NULL && c.nfolded == 0);
	} else {
		unsigned long ln;

		CHECK(r == -EINVAL || r == -E2BIG || r == -ENOMEM);
		CHECK(memcmp(&c, &untouched, sizeof(c)) == 0);
		check_message(err, sizeof(err));
		CHECK(strncmp(err, "line ", 5) == 0);
		ln = strtoul(err + 5, NULL, 10);
		CHECK(ln >= 1 && ln <= lines);
	}
	free(buf);
	return 0;
}
