/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hash.h - the one string hash: groups by path in the model and in cgfs. */
#ifndef MEMCGTOP_HASH_H
#define MEMCGTOP_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a, 64 bits: fast on short paths, good enough for open tables. */
static inline uint64_t hash_path(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

#endif
