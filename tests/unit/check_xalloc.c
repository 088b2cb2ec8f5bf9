/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for xalloc.c: the one out-of-memory policy. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "units.h"
#include "xalloc.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* Runs fn in a child whose stderr is a pipe: its exit status (-1 when it
 * did not exit) and what it wrote there. */
static int in_child(void (*fn)(void), char *err, size_t errlen)
{
	int fds[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], 2);
		fn();
		_exit(0);
	}
	close(fds[1]);
	while (got + 1 < errlen &&
	       (n = read(fds[0], err + got, errlen - 1 - got)) > 0)
		got += (size_t)n;
	err[got] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void hook(void)
{
	fputs("hook ran\n", stderr);
}

static void overflow(void)
{
	/* n * size does not fit a size_t: refused before any realloc. */
	xreallocarray(NULL, SIZE_MAX / 2 + 1, 2);
}

static void overflow_hooked(void)
{
	xalloc_on_failure(hook);
	overflow();
}

START_TEST(test_overflow_exits_1)
{
	char err[256];

	ck_assert_int_eq(in_child(overflow, err, sizeof(err)), 1);
	ck_assert_str_eq(err, "memcgtop: out of memory\n");
}
END_TEST

START_TEST(test_hook_runs_first)
{
	char err[256];

	ck_assert_int_eq(in_child(overflow_hooked, err, sizeof(err)), 1);
	ck_assert_str_eq(err, "hook ran\nmemcgtop: out of memory\n");
}
END_TEST

/* AddressSanitizer reports an allocation this large as an error of its
 * own (allocator_may_return_null is off by default): not under it. */
#ifndef UNDER_ASAN
static void too_big(void)
{
	volatile size_t huge = SIZE_MAX - 4096;

	/* More than malloc can give (above PTRDIFF_MAX): NULL. */
	xmalloc(huge);
}

static void too_many(void)
{
	volatile size_t n = SIZE_MAX / 16;

	xcalloc(n, 64);
}

START_TEST(test_malloc_null_exits_1)
{
	char err[256];

	ck_assert_int_eq(in_child(too_big, err, sizeof(err)), 1);
	ck_assert_str_eq(err, "memcgtop: out of memory\n");
	ck_assert_int_eq(in_child(too_many, err, sizeof(err)), 1);
	ck_assert_str_eq(err, "memcgtop: out of memory\n");
}
END_TEST
#endif

START_TEST(test_success)
{
	char *s = xstrndup("memcgtop", 3), *d = xstrdup("");
	int *a = xcalloc(0, sizeof(int));
	unsigned char *p = xmalloc(0);

	ck_assert_str_eq(s, "mem");
	ck_assert_str_eq(d, "");
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(p);
	a = xreallocarray(a, 1000, sizeof(int));
	a[999] = 7;
	ck_assert_int_eq(a[999], 7);
	free(s);
	free(d);
	free(a);
	free(p);
}
END_TEST

Suite *xalloc_suite(void)
{
	Suite *s = suite_create("xalloc");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_overflow_exits_1);
	tcase_add_test(tc, test_hook_runs_first);
#ifndef UNDER_ASAN
	tcase_add_test(tc, test_malloc_null_exits_1);
#endif
	tcase_add_test(tc, test_success);
	suite_add_tcase(s, tc);
	return s;
}
