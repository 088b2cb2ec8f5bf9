/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz.h - helpers shared by the libFuzzer targets in tests/fuzz/.
 *
 * Every target copies the input into a heap buffer of exactly its size, so
 * AddressSanitizer reports any read past the end, and checks invariants
 * with CHECK(), which aborts (a libFuzzer crash) with the failed condition.
 */
#ifndef MEMCGTOP_FUZZ_H
#define MEMCGTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond)) {                                             \
			fprintf(stderr, "%s:%d: invariant failed: %s\n",   \
				__FILE__, __LINE__, #cond);                \
			abort();                                           \
		}                                                          \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input in a heap block of exactly size bytes (no NUL). */
static inline char *fuzz_dup(const uint8_t *data, size_t size)
{
	char *b = malloc(size ? size : 1);

	CHECK(b != NULL);
	if (size)
		memcpy(b, data, size);
	/* A zero-sized input must not be read at all: give a block ASan
	 * will flag on any access. */
	if (!size) {
		free(b);
		b = malloc(0);
		CHECK(b != NULL);
	}
	return b;
}

/* The input plus a NUL, for the functions that take a C string. */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *b = malloc(size + 1);

	CHECK(b != NULL);
	memcpy(b, data, size);
	b[size] = '\0';
	return b;
}

/* A NUL-terminated message of at most cap - 1 bytes, none of them control
 * bytes (error messages quote file text escaped). */
static inline void check_message(const char *err, size_t cap)
{
	size_t n = strnlen(err, cap);

	CHECK(n < cap);
	for (size_t i = 0; i < n; i++)
		CHECK((unsigned char)err[i] >= 0x20 &&
		      (unsigned char)err[i] != 0x7f);
}

/* Reference decimal parser: digits only, no overflow. */
static inline int ref_u64(const char *s, size_t n, uint64_t *ret)
{
	unsigned __int128 v = 0;

	if (n == 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > UINT64_MAX)
			return -2;
	}
	*ret = (uint64_t)v;
	return 0;
}

#endif
