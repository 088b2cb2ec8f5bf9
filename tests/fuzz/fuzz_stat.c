/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_stat.c - parse_keyvals (memory.stat, memory.events,
 * memory.oom_control, /proc/vmstat) and parse_count_lines.
 *
 * The callback checks that every key lies inside the buffer, is not empty
 * and holds no space or newline; the calls are compared one by one with a
 * reference parser written from parse.h's contract.
 */
#include "fuzz.h"
#include "parse.h"

struct kv_ctx {
	const char *buf;
	size_t len;
	const char *end;	/* of the reference's scan */
	const char *pos;
	int calls;
};

/* The next line the reference accepts: complete, "KEY VALUE" split at the
 * first space, KEY not empty, VALUE a strict decimal. */
static int ref_next(struct kv_ctx *c, const char **ret_key, size_t *ret_kl,
		    uint64_t *ret_v)
{
	while (c->pos < c->end) {
		const char *line = c->pos, *nl, *sp;

		nl = memchr(line, '\n', (size_t)(c->end - line));
		if (!nl)
			return 0;
		c->pos = nl + 1;
		sp = memchr(line, ' ', (size_t)(nl - line));
		if (!sp || sp == line)
			continue;
		if (ref_u64(sp + 1, (size_t)(nl - sp - 1), ret_v) < 0)
			continue;
		*ret_key = line;
		*ret_kl = (size_t)(sp - line);
		return 1;
	}
	return 0;
}

static void on_kv(const char *key, size_t keylen, uint64_t val, void *p)
{
	struct kv_ctx *c = p;
	const char *rk;
	size_t rkl;
	uint64_t rv;

	CHECK(key >= c->buf && keylen > 0 && keylen < c->len);
	CHECK(key + keylen < c->buf + c->len);	/* the value follows it */
	CHECK(memchr(key, ' ', keylen) == NULL);
	CHECK(memchr(key, '\n', keylen) == NULL);
	CHECK(key[keylen] == ' ');
	CHECK(ref_next(c, &rk, &rkl, &rv) == 1);
	CHECK(rk == key && rkl == keylen && rv == val);
	c->calls++;
}

static uint64_t ref_count_lines(const char *b, size_t n)
{
	uint64_t lines = 0;
	size_t start = 0;

	for (size_t i = 0; i <= n; i++)
		if (i == n || b[i] == '\n') {
			lines += i > start;
			start = i + 1;
		}
	return lines;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	struct kv_ctx c = { buf, size, buf + size, buf, 0 };
	const char *rk;
	size_t rkl, newlines = 0;
	uint64_t rv;
	int n;

	n = parse_keyvals(buf, size, on_kv, &c);
	CHECK(n == c.calls);
	CHECK(ref_next(&c, &rk, &rkl, &rv) == 0);	/* none missed */
	for (size_t i = 0; i < size; i++)
		newlines += buf[i] == '\n';
	CHECK((size_t)n <= newlines);
	/* The same buffer gives the same answer. */
	c.pos = buf;
	c.calls = 0;
	CHECK(parse_keyvals(buf, size, on_kv, &c) == n);

	CHECK(parse_count_lines(buf, size) == ref_count_lines(buf, size));
	free(buf);
	return 0;
}
