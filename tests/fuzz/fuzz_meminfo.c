/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz_meminfo.c - parse_meminfo (/proc/meminfo), compared call by call
 * with a reference parser: "KEY:<spaces>VALUE[ kB]\n", KEY up to the first
 * ':' and not empty, kB values times 1024 without overflow. */
#include "fuzz.h"
#include "parse.h"

struct mi_ctx {
	const char *buf, *end, *pos;
	size_t len;
	int calls;
};

static int ref_next(struct mi_ctx *c, const char **ret_key, size_t *ret_kl,
		    uint64_t *ret_v)
{
	while (c->pos < c->end) {
		const char *line = c->pos, *nl, *colon, *v;
		size_t vlen;
		uint64_t val, mul = 1;

		nl = memchr(line, '\n', (size_t)(c->end - line));
		if (!nl)
			return 0;
		c->pos = nl + 1;
		colon = memchr(line, ':', (size_t)(nl - line));
		if (!colon || colon == line)
			continue;
		v = colon + 1;
		while (v < nl && *v == ' ')
			v++;
		vlen = (size_t)(nl - v);
		if (vlen > 3 && memcmp(nl - 3, " kB", 3) == 0) {
			vlen -= 3;
			mul = 1024;
		}
		if (ref_u64(v, vlen, &val) < 0 ||
		    (unsigned __int128)val * mul > UINT64_MAX)
			continue;
		*ret_key = line;
		*ret_kl = (size_t)(colon - line);
		*ret_v = val * mul;
		return 1;
	}
	return 0;
}

static void on_kv(const char *key, size_t keylen, uint64_t val, void *p)
{
	struct mi_ctx *c = p;
	const char *rk;
	size_t rkl;
	uint64_t rv;

	CHECK(key >= c->buf && keylen > 0 && key + keylen < c->end);
	CHECK(key[keylen] == ':');
	CHECK(memchr(key, ':', keylen) == NULL);
	CHECK(memchr(key, '\n', keylen) == NULL);
	CHECK(ref_next(c, &rk, &rkl, &rv) == 1);
	CHECK(rk == key && rkl == keylen && rv == val);
	c->calls++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_dup(data, size);
	struct mi_ctx c = { buf, buf + size, buf, size, 0 };
	const char *rk;
	size_t rkl;
	uint64_t rv;
	int n;

	n = parse_meminfo(buf, size, on_kv, &c);
	CHECK(n == c.calls);
	CHECK(ref_next(&c, &rk, &rkl, &rv) == 0);
	free(buf);
	return 0;
}
