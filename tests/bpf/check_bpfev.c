/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check_bpfev - bpfev_subtree_sums, the pure part of src/bpf/bpfev.c: the
 * kernel counts each reclaim event in one group, the columns show a
 * group with its descendants.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/bpfev.h"

static void node(struct bpfev_node *n, uint64_t id, uint64_t parent,
		 uint64_t scan, uint64_t steal)
{
	memset(n, 0, sizeof(*n));
	n->id = id;
	n->parent_id = parent;
	n->ev[BPFEV_SCAN_DIRECT] = scan;
	n->ev[BPFEV_STEAL_KSWAPD] = steal;
}

/*
 *   1 (root, parent 0 not in the array)
 *   +- 10
 *   |  +- 100 -- 1000
 *   |  +- 101
 *   +- 11
 */
START_TEST(sums_any_order)
{
	struct bpfev_node n[6];

	/* Children before parents, siblings apart: order must not matter. */
	node(&n[0], 1000, 100, 1, 2);
	node(&n[1], 11, 1, 10, 20);
	node(&n[2], 100, 10, 100, 200);
	node(&n[3], 1, 0, 1000, 2000);
	node(&n[4], 101, 10, 10000, 20000);
	node(&n[5], 10, 1, 100000, 200000);
	ck_assert_int_eq(bpfev_subtree_sums(n, 6), 0);
	ck_assert_uint_eq(n[0].ev[BPFEV_SCAN_DIRECT], 1);
	ck_assert_uint_eq(n[1].ev[BPFEV_SCAN_DIRECT], 10);
	ck_assert_uint_eq(n[2].ev[BPFEV_SCAN_DIRECT], 101);
	ck_assert_uint_eq(n[4].ev[BPFEV_SCAN_DIRECT], 10000);
	ck_assert_uint_eq(n[5].ev[BPFEV_SCAN_DIRECT], 110101);
	ck_assert_uint_eq(n[3].ev[BPFEV_SCAN_DIRECT], 111111);
	ck_assert_uint_eq(n[3].ev[BPFEV_STEAL_KSWAPD], 222222);
	ck_assert_uint_eq(n[5].ev[BPFEV_STEAL_KSWAPD], 220202);
	ck_assert_uint_eq(n[3].ev[BPFEV_SCAN_KSWAPD], 0);
}
END_TEST

START_TEST(sums_forest_and_empty)
{
	struct bpfev_node n[3];

	ck_assert_int_eq(bpfev_subtree_sums(NULL, 0), 0);
	/* Two roots whose parents are not in the array (a start below /). */
	node(&n[0], 5, 4, 1, 0);
	node(&n[1], 6, 4, 2, 0);
	node(&n[2], 7, 6, 4, 0);
	ck_assert_int_eq(bpfev_subtree_sums(n, 3), 0);
	ck_assert_uint_eq(n[0].ev[BPFEV_SCAN_DIRECT], 1);
	ck_assert_uint_eq(n[1].ev[BPFEV_SCAN_DIRECT], 6);
	ck_assert_uint_eq(n[2].ev[BPFEV_SCAN_DIRECT], 4);
}
END_TEST

START_TEST(refuses_duplicates_and_cycles)
{
	struct bpfev_node n[3];

	node(&n[0], 1, 0, 1, 0);
	node(&n[1], 2, 1, 2, 0);
	node(&n[2], 2, 1, 4, 0);
	ck_assert_int_eq(bpfev_subtree_sums(n, 3), -EINVAL);
	ck_assert_uint_eq(n[0].ev[BPFEV_SCAN_DIRECT], 1);
	/* 1 -> 2 -> 3 -> 1: no root. */
	node(&n[0], 1, 3, 1, 0);
	node(&n[1], 2, 1, 2, 0);
	node(&n[2], 3, 2, 4, 0);
	ck_assert_int_eq(bpfev_subtree_sums(n, 3), -EINVAL);
	ck_assert_uint_eq(n[0].ev[BPFEV_SCAN_DIRECT], 1);
	ck_assert_uint_eq(n[1].ev[BPFEV_SCAN_DIRECT], 2);
	ck_assert_uint_eq(n[2].ev[BPFEV_SCAN_DIRECT], 4);
	/* A group its own parent. */
	node(&n[0], 1, 1, 1, 0);
	ck_assert_int_eq(bpfev_subtree_sums(n, 1), -EINVAL);
}
END_TEST

/* A 10,000-deep chain: no recursion, each node holds what is below. */
START_TEST(sums_deep_chain)
{
	enum { N = 10000 };
	struct bpfev_node *n = calloc(N, sizeof(*n));
	size_t i;

	ck_assert_ptr_nonnull(n);
	for (i = 0; i < N; i++)
		node(&n[i], i + 1, i, 1, 0);
	ck_assert_int_eq(bpfev_subtree_sums(n, N), 0);
	for (i = 0; i < N; i++)
		ck_assert_uint_eq(n[i].ev[BPFEV_SCAN_DIRECT], N - i);
	free(n);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bpfev");
	TCase *tc = tcase_create("subtree_sums");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, sums_any_order);
	tcase_add_test(tc, sums_forest_and_empty);
	tcase_add_test(tc, refuses_duplicates_and_cycles);
	tcase_add_test(tc, sums_deep_chain);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
