/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bpfdump - prints the BPF collector's records, one line per memory cgroup
 * in the kernel's pre-order, for the tests (tests/live/bpf-v1.sh):
 *
 *   id=INODE parent=INODE level=N usage=B max=B|max ... name=ESCAPED
 *
 * A value whose file the group lacks prints "-", a limit at the kernel's
 * "no limit" prints "max".  Names escape every byte outside '!'..'~' and
 * the backslash as \xHH.
 *
 *   bpfdump [-n PASSES] [-p] [-q] [-r] [-w KEYS] START
 *     -n  walk PASSES times (one load), print the last walk
 *     -w  after the load, ask the walks for these slots only (bpfcol_want):
 *         a comma-separated list of the slot keys of memcg_rec.h and
 *         "events" (every event slot); "" for none
 *     -p  between two chunks of a pass, print "# chunk N" (N chunks read)
 *         and wait for a line on stdin: a test changes the tree there
 *     -q  print no records, only the "# " summary line
 *     -r  after the first walk, walk again at each line read from stdin
 *
 * The summary line: "# groups=N capacity=N map_bytes=N chunks=N restarts=N
 * steps=N held_us=N max_held_us=N verified=N": the last pass's reads of the
 * iterator (chunks), the times it began again, the program's walk steps,
 * its time with cgroup_mutex held, in all and in its longest chunk, and
 * the instructions the verifier went through to load it (bpfcol_verified).
 *
 * On failure: "bpfdump: REASON: text" (REASON: perm, btf, old, memcg,
 * load, start, toomany), exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdint.h>

#include "bpf/bpfcol.h"

static const char *const reason_keys[] = {
	[BPFCOL_OK] = "ok",
	[BPFCOL_NOT_PERMITTED] = "perm",
	[BPFCOL_NO_BTF] = "btf",
	[BPFCOL_TOO_OLD] = "old",
	[BPFCOL_NO_MEMCG] = "memcg",
	[BPFCOL_LOAD_REFUSED] = "load",
	[BPFCOL_START] = "start",
	[BPFCOL_TOO_MANY] = "toomany",
};

/*
 * The records carry no parent: in pre-order it is the last group one
 * level up (what memcgtop relies on, and what the tests check against the
 * directories); the start's is its directory's parent.
 */
static void print_group(const struct bpfcol_rec *g, uint64_t parent)
{
	size_t i;

	printf("id=%llu parent=%llu level=%u", (unsigned long long)g->id,
	       (unsigned long long)parent, g->level);
	for (i = 0; i < MR_NSLOTS; i++) {
		const char *key = bpfcol_slot_key((enum mr_slot)i);

		if (!(g->have & MR_SET(i)))
			printf(" %s=-", key);
		else if (g->unlimited & MR_SET(i))
			printf(" %s=max", key);
		else
			printf(" %s=%llu", key, (unsigned long long)g->v[i]);
	}
	fputs(" name=", stdout);
	for (i = 0; i < g->name_len; i++) {
		unsigned char c = (unsigned char)g->name[i];

		if (c > ' ' && c < 0x7f && c != '\\')
			putchar(c);
		else
			printf("\\x%02x", c);
	}
	putchar('\n');
}

static int fail(const struct bpfcol_why *w)
{
	fprintf(stderr, "bpfdump: %s: %s\n", reason_keys[w->reason], w->text);
	return 1;
}

/* -w KEYS: the slots (and "events", all of the events') the walks are
 * asked for. */
static int ask(struct bpfcol *col, const char *keys)
{
	char *copy = strdup(keys), *save = NULL, *k;
	mr_set want = 0;
	size_t i;
	int r;

	if (!copy)
		return -ENOMEM;
	for (k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < MR_NSLOTS; i++)
			if (strcmp(k, bpfcol_slot_key((enum mr_slot)i)) == 0)
				break;
		if (i < MR_NSLOTS)
			want |= MR_SET(i);
		else if (strcmp(k, "events") == 0)
			want |= MR_EVENTS;
		else {
			fprintf(stderr, "bpfdump: -w: no value %s\n", k);
			free(copy);
			return -EINVAL;
		}
	}
	free(copy);
	r = bpfcol_want(col, want);
	if (r < 0)
		fprintf(stderr, "bpfdump: -w: %s\n", strerror(-r));
	return r;
}

/* -p: the test changes the tree while bpfdump waits. */
static void between_chunks(void *arg, unsigned chunks)
{
	char line[64];

	(void)arg;
	printf("# chunk %u\n", chunks);
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		exit(1);
}

/* The inode of START's parent directory; 0 for a hierarchy's root. */
static uint64_t start_parent(const char *start, unsigned int level)
{
	char *up;
	struct stat st;
	uint64_t ino = 0;

	if (level == 0 || asprintf(&up, "%s/..", start) < 0)
		return 0;
	if (stat(up, &st) == 0)
		ino = st.st_ino;
	free(up);
	return ino;
}

int main(int argc, char **argv)
{
	struct bpfcol_chunks ch;
	struct bpfcol_rec g;
	struct bpfcol_why w;
	struct bpfcol *col;
	size_t n = 0, i, cap, bytes;
	long passes = 1, p;
	int quiet = 0, repeat = 0, pause = 0, opt;
	const char *want = NULL;
	char line[64];

	while ((opt = getopt(argc, argv, "n:pqrw:")) != -1) {
		switch (opt) {
		case 'p':
			pause = 1;
			break;
		case 'n':
			passes = strtol(optarg, NULL, 10);
			break;
		case 'q':
			quiet = 1;
			break;
		case 'r':
			repeat = 1;
			break;
		case 'w':
			want = optarg;
			break;
		default:
			return 2;
		}
	}
	if (optind != argc - 1 || passes < 1) {
		fprintf(stderr, "usage: bpfdump [-n PASSES] [-p] [-q] [-r] [-w KEYS] START\n");
		return 2;
	}
	if (bpfcol_open(argv[optind], &col, &w) < 0)
		return fail(&w);
	if (pause)
		bpfcol_chunk_hook(col, between_chunks, NULL);
	if (want && ask(col, want) < 0) {
		bpfcol_close(col);
		return 2;
	}
	do {
		for (p = 0; p < passes; p++)
			if (bpfcol_read(col, &n, &w) < 0) {
				bpfcol_close(col);
				return fail(&w);
			}
		if (!quiet && n > 0) {
			uint64_t *up;
			unsigned int l;

			if (bpfcol_record(col, 0, &g) != 0) {
				bpfcol_close(col);
				fprintf(stderr, "bpfdump: cannot map the records\n");
				return 1;
			}
			up = calloc(g.level + 1 + n, sizeof(*up));
			if (!up) {
				bpfcol_close(col);
				return 1;
			}
			up[g.level] = start_parent(argv[optind], g.level);
			for (i = 0; i < n; i++) {
				if (bpfcol_record(col, i, &g) != 0) {
					free(up);
					bpfcol_close(col);
					fprintf(stderr, "bpfdump: cannot map record %zu\n", i);
					return 1;
				}
				l = g.level;
				print_group(&g, up[l]);
				up[l + 1] = g.id;
			}
			free(up);
		}
		bpfcol_capacity(col, &cap, &bytes);
		bpfcol_chunks(col, &ch);
		printf("# groups=%zu capacity=%zu map_bytes=%zu chunks=%u restarts=%u steps=%llu held_us=%llu max_held_us=%llu verified=%u\n",
		       n, cap, bytes, ch.chunks, ch.restarts,
		       (unsigned long long)ch.steps,
		       (unsigned long long)(ch.held_ns / 1000),
		       (unsigned long long)(ch.max_held_ns / 1000),
		       bpfcol_verified(col));
		fflush(stdout);
	} while (repeat && fgets(line, sizeof(line), stdin));
	bpfcol_close(col);
	return 0;
}
