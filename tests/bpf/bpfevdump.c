/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfevdump - prints the reclaim events' counters (src/bpf/bpfev.c) for the
 * tests (tests/live/reclaim-v1.sh).  After the programs are attached it
 * prints "ready", then for each line read from stdin one report:
 *
 *   items scan_kswapd=1 ... (1: the kernel has the item)
 *   group id=INODE scan_kswapd=P scan_direct=P ... prio_min=N|-
 *       flushes_done=N flushes=N   (flushes: requests; _done: that flushed)
 *   tree id=INODE scan_kswapd=P ... path=RELATIVE   (with -t DIR)
 *   sys scanned=P,P,...(13) shrinks=N attributed=N exact=N flushes=N
 *       flushes_done=N own_flushes=N own_flushes_done=N dropped=N
 *   all scan=P steal=P   (every group the kernel counted in)
 *   end
 *
 * "tree" lines are DIR and each group below it, in pre-order, with its
 * descendants' counts added (bpfev_subtree_sums on the directory tree).
 *
 * A line "stat PATH" on stdin first reads PATH (a memory.stat) in this
 * process, so that its flush counts as memcgtop's own; "forget ID" drops
 * a group's entry.  Only groups whose ids are given with -g are printed
 * (all when none is).
 *
 *   bpfevdump [-g ID]... [-t DIR] [-S]
 *     -S  keep the kernel's BPF run-time statistics on while running
 *         (BPF_ENABLE_STATS: bpftool prog show then has run_time_ns)
 *
 * On failure: "bpfevdump: REASON: text" (perm, btf, old, load), exit 1.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <bpf/bpf.h>

#include "bpf/bpfev.h"

static const char *const item_keys[BPFEV_NITEMS] = {
	"scan_kswapd", "scan_direct", "scan_khugepaged", "scan_proactive",
	"steal_kswapd", "steal_direct", "steal_khugepaged", "steal_proactive",
};

static const char *const reason_keys[] = {
	[BPFEV_OK] = "ok",
	[BPFEV_NOT_PERMITTED] = "perm",
	[BPFEV_NO_BTF] = "btf",
	[BPFEV_TOO_OLD] = "old",
	[BPFEV_LOAD_REFUSED] = "load",
};

#define MAX_IDS 64

static int wanted(const unsigned long long *ids, int nids, unsigned long long id)
{
	int i;

	for (i = 0; i < nids; i++)
		if (ids[i] == id)
			return 1;
	return nids == 0;
}

/* The directory tree below a start, in pre-order. */
struct tree {
	struct bpfev_node *nodes;
	char **paths;
	size_t n, cap;
};

static int tree_add(struct tree *t, const char *path, uint64_t id, uint64_t parent)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct bpfev_node *nn = realloc(t->nodes, cap * sizeof(*nn));
		char **np;

		if (!nn)
			return -ENOMEM;
		t->nodes = nn;
		np = realloc(t->paths, cap * sizeof(*np));
		if (!np)
			return -ENOMEM;
		t->paths = np;
		t->cap = cap;
	}
	memset(&t->nodes[t->n], 0, sizeof(t->nodes[t->n]));
	t->nodes[t->n].id = id;
	t->nodes[t->n].parent_id = parent;
	t->paths[t->n] = strdup(path);
	if (!t->paths[t->n])
		return -ENOMEM;
	t->n++;
	return 0;
}

static int tree_walk(struct tree *t, const char *dir, const char *rel,
		     uint64_t parent)
{
	struct dirent *d;
	struct stat st;
	char sub[4096], subrel[4096];
	DIR *dp;
	int r;

	if (stat(dir, &st) != 0)
		return -errno;
	r = tree_add(t, rel, st.st_ino, parent);
	if (r)
		return r;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		if (d->d_type != DT_DIR || strcmp(d->d_name, ".") == 0 ||
		    strcmp(d->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, d->d_name);
		snprintf(subrel, sizeof(subrel), "%s/%s", rel, d->d_name);
		r = tree_walk(t, sub, subrel, st.st_ino);
		if (r)
			break;
	}
	closedir(dp);
	return r;
}

static int by_group_id(const void *a, const void *b)
{
	const struct bpfev_count *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

static void print_tree(const char *dir, const struct bpfev_count *g, size_t n)
{
	struct tree t = { 0 };
	struct bpfev_count key;
	const struct bpfev_count *f;
	size_t i;
	int k, r;

	r = tree_walk(&t, dir, ".", 0);
	for (i = 0; !r && i < t.n; i++) {
		key.id = t.nodes[i].id;
		f = n ? bsearch(&key, g, n, sizeof(*g), by_group_id) : NULL;
		for (k = 0; f && k < BPFEV_NITEMS; k++)
			t.nodes[i].ev[k] = f->ev[k];
	}
	if (!r)
		r = bpfev_subtree_sums(t.nodes, t.n);
	if (r)
		printf("error tree %s: %s\n", dir, strerror(-r));
	for (i = 0; !r && i < t.n; i++) {
		printf("tree id=%llu", (unsigned long long)t.nodes[i].id);
		for (k = 0; k < BPFEV_NITEMS; k++)
			printf(" %s=%llu", item_keys[k],
			       (unsigned long long)t.nodes[i].ev[k]);
		printf(" path=%s\n", t.paths[i]);
	}
	for (i = 0; i < t.n; i++)
		free(t.paths[i]);
	free(t.paths);
	free(t.nodes);
}

static void report(struct bpfev *ev, const unsigned long long *ids, int nids,
		   const char *dir)
{
	unsigned long long scan = 0, steal = 0;
	const struct bpfev_count *g;
	struct bpfev_sys s;
	size_t n, i;
	int k;

	if (bpfev_read(ev, &g, &n, &s) < 0) {
		printf("error %s\n", strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		for (k = 0; k < BPFEV_NITEMS; k++)
			if (k < BPFEV_STEAL_KSWAPD)
				scan += g[i].ev[k];
			else
				steal += g[i].ev[k];
		if (!wanted(ids, nids, g[i].id))
			continue;
		printf("group id=%llu", (unsigned long long)g[i].id);
		for (k = 0; k < BPFEV_NITEMS; k++)
			printf(" %s=%llu", item_keys[k],
			       (unsigned long long)g[i].ev[k]);
		if (g[i].prio_min < 0)
			printf(" prio_min=-");
		else
			printf(" prio_min=%d", g[i].prio_min);
		printf(" flushes_done=%llu flushes=%llu\n",
		       (unsigned long long)g[i].flushes_done,
		       (unsigned long long)g[i].flushes);
	}
	if (dir)
		print_tree(dir, g, n);
	printf("sys scanned=");
	for (k = 0; k < BPFEV_NPRIO; k++)
		printf("%s%llu", k ? "," : "", (unsigned long long)s.scanned[k]);
	printf(" shrinks=%llu attributed=%llu exact=%llu flushes=%llu"
	       " flushes_done=%llu own_flushes=%llu own_flushes_done=%llu"
	       " dropped=%llu\n",
	       (unsigned long long)s.shrinks, (unsigned long long)s.attributed,
	       (unsigned long long)s.exact, (unsigned long long)s.flushes,
	       (unsigned long long)s.flushes_done,
	       (unsigned long long)s.own_flushes,
	       (unsigned long long)s.own_flushes_done,
	       (unsigned long long)s.dropped);
	printf("all scan=%llu steal=%llu\nend\n", scan, steal);
}

static void read_file(const char *path)
{
	char buf[4096];
	FILE *f = fopen(path, "re");

	if (!f) {
		printf("error %s: %s\n", path, strerror(errno));
		return;
	}
	while (fread(buf, 1, sizeof(buf), f) > 0)
		;
	fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long long ids[MAX_IDS];
	struct bpfev_why w;
	struct bpfev *ev;
	char line[4200];
	const char *dir = NULL;
	int nids = 0, opt, k, stats_fd = -1;

	while ((opt = getopt(argc, argv, "g:t:S")) != -1) {
		if (opt == 'S') {
			stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
			if (stats_fd < 0) {
				fprintf(stderr, "bpfevdump: BPF_ENABLE_STATS: %s\n",
					strerror(errno));
				return 1;
			}
		} else if (opt == 't')
			dir = optarg;
		else if (opt == 'g' && nids < MAX_IDS)
			ids[nids++] = strtoull(optarg, NULL, 10);
		else
			return 2;
	}
	if (optind != argc) {
		fprintf(stderr, "usage: bpfevdump [-g ID]... [-t DIR] [-S]\n");
		return 2;
	}
	if (bpfev_open(&ev, &w) < 0) {
		fprintf(stderr, "bpfevdump: %s: %s\n", reason_keys[w.reason], w.text);
		return 1;
	}
	printf("items");
	for (k = 0; k < BPFEV_NITEMS; k++)
		printf(" %s=%u", item_keys[k], (bpfev_items(ev) >> k) & 1);
	printf("\nready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "stat ", 5) == 0)
			read_file(line + 5);
		else if (strncmp(line, "forget ", 7) == 0)
			bpfev_forget(ev, strtoull(line + 7, NULL, 10));
		else
			report(ev, ids, nids, dir);
		fflush(stdout);
	}
	bpfev_close(ev);
	if (stats_fd >= 0)
		close(stats_fd);
	return 0;
}
