/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cgfs_pass.c - the tree of a refresh by the BPF pass (bpf/bpfcol.h): one
 * cgroup-iterator read per refresh gives every group below the start, in
 * pre-order, with its id (the directory's inode), its level, its name and
 * the values of the record's slots: the tree's shape in place of the
 * walk's listings, and the values the pass carries (include/fields.h:
 * PASS), which the group reader (cgfs_read.c) takes from the record in
 * place of opening the files.  A group whose shown columns need other
 * files (memory.stat, PSI) has its directory opened by path below the
 * hierarchy root for them; none is kept across refreshes.  The hierarchy
 * root is read from its files, as the walk reads it: the v1 root's usage
 * is made from statistics, not from its page counter, and the v2 root has
 * no counter files.
 *
 * What it keeps open: what bpfcol keeps (the start group's directory, the
 * program, its link, two mapped maps).  A recording (--record) and a copy
 * or recording below --root are walked (cgfs_walk.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf/bpfcol.h"
#include "cgfs_int.h"
#include "clock.h"
#include "parse.h"
#include "xalloc.h"

struct pass {
	struct cgfs_tree tree;
	struct bpfcol *col;
	char *dir;		/* the start group's directory */
	unsigned have;		/* CFBIT of the pass's files that exist */
	int probed;		/* have is known */
	int *levels;		/* the walk's parents by level (below) */
	size_t levels_cap;
	int err;		/* a group's files could not be read for want
				 * of descriptors or memory (cgfs_short_of) */
	/* memory.stat in the pass (cgfs_prove.c): the start group's file,
	 * read once a refresh that wants a stat slot, before the walk. */
	const struct cgfs_version *ver;
	struct cgfs_prove *pr;
	char *stat;
	size_t stat_len, stat_cap;
	int stat_ok;		/* stat holds this refresh's file */
	mr_set at_root;		/* the slots prove_at_root proved */
	char paths[1024];
	char stat_paths[768];	/* what prove() said of memory.stat */
	int said_unproven;	/* say_unproven said it */
	/* The per-node LRU lists (memcg_rec.h: ST_NODES).  numa_proven:
	 * the pass's lists of the start group equalled its
	 * memory.numa_stat read right after, once (they are then taken
	 * for every group); until then each refresh that wants them reads
	 * the files, and the start's once more to prove them. */
	int numa_proven;
	int numa_use;		/* this refresh's groups take the pass's */
	int numa_tried;		/* refreshes that tried to prove them */
	int nodes_read;		/* the first walk read them */
	char numa_why[160];	/* why not, or the lists' kernel source */
	int said_numa;
	unsigned nodes[MR_NODES];	/* node ids the file lists */
	size_t nnodes;
	char *ntext;		/* one group's text */
	size_t ntext_cap;
	/* v1's soft-limit tree (soft_ranks): each record's excess and
	 * place, this refresh's. */
	struct soft_place *soft;
	size_t soft_cap;
	int soft_use;		/* this refresh's records get them */
};

struct soft_place {
	uint64_t tree;		/* bytes: the largest of its nodes' */
	uint32_t rank;		/* 1 = first; 0 = on no tree */
	uint32_t rec;		/* the record (soft_ranks' sort) */
};

/* Refreshes that may fail to prove the lists per node before the pass
 * no longer offers them to the screen (which then reads the selected
 * group's memory.numa_stat alone); the batch views try at every one. */
#define NUMA_TRIES	3

/* The memory.stat slots (ST_NODES is memory.numa_stat's). */
#define VMSTAT_SLOTS	(MR_STATS & ~MR_BIT(ST_NODES))

/* A group's memory.stat, whole, into *buf (of *cap bytes): its length,
 * or -errno. */
static ssize_t read_stat(const struct cgfs_version *v, int dirfd,
			 char **buf, size_t *cap)
{
	int fd = openat(dirfd, cgfs_file_name(v, CF_STAT),
			O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	for (;;) {
		if (*cap - len < 4096) {
			*cap = *cap ? *cap * 2 : 8192;
			*buf = xreallocarray(*buf, *cap, 1);
		}
		n = read(fd, *buf + len, *cap - len);
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	return n < 0 ? -EIO : (ssize_t)len;
}

/*
 * The start group's memory.stat, whole, into p->stat.  Reading it makes
 * the kernel flush the statistics of the group's subtree when enough
 * updates are pending (64 per online CPU on 6.x; else the periodic flush
 * every 2 s has them): this read is the refresh's one flush, and the
 * walk right after reads what it flushed.
 */
static int read_start_stat(struct pass *p, int dirfd)
{
	ssize_t n = read_stat(p->ver, dirfd, &p->stat, &p->stat_cap);

	p->stat_ok = n >= 0;
	p->stat_len = n >= 0 ? (size_t)n : 0;
	return n < 0 ? (int)n : 0;
}

/*
 * The words a value is at are the kernel's, the same in every group, and
 * the start group cannot prove all of them: a value not proven is
 * one it has at 0, or one that equals another of its values (a group
 * whose page cache was read once has it all on the inactive file list),
 * and v1's pgscan and pgsteal follow from pgfault's word (the events
 * rule), which a start group in which no task faulted cannot prove.  Any
 * such value the start group shows later would be read from every
 * group's file.  So when the pass opens, the words the start did not
 * prove are proven against the hierarchy's root (its file and its
 * arrays, read alone), whose values are its whole host's: up to three
 * times running (a value's word is taken when found twice running), and
 * no third when the second proved nothing.  It costs a flush of the
 * whole hierarchy (the root's file) or three, once a run.  The records
 * are the root's after it: the caller reads the start's.
 */
static void prove_at_root(struct pass *p, int rootfd)
{
	mr_set before = cgfs_prove_proven(p->pr);
	struct memcg_layout lay;
	const int64_t (*raw)[MR_ARR_WORDS];
	char *text = NULL;
	size_t cap = 0;

	for (int k = 0; k < 3 && !cgfs_prove_complete(p->pr); k++) {
		ssize_t n = read_stat(p->ver, rootfd, &text, &cap);

		if (n < 0 || bpfcol_layout_at(p->col, rootfd, &lay, &raw) < 0 ||
		    (!cgfs_prove_update(p->pr, text, (size_t)n, &lay, raw) &&
		     k > 0))
			break;
	}
	free(text);
	p->at_root = cgfs_prove_proven(p->pr) & ~before;
}

/* The proofs on this refresh's file and walk; 1 when the walk must be
 * made again for newly proven words. */
static int prove(struct pass *p)
{
	struct memcg_layout lay;
	const int64_t (*raw)[MR_ARR_WORDS];
	int more;

	if (!p->stat_ok || bpfcol_layout(p->col, &lay, &raw) < 0)
		return 0;
	if (!p->pr)
		p->pr = cgfs_prove_new(p->ver, bpfcol_pagesize(p->col));
	more = cgfs_prove_update(p->pr, p->stat, p->stat_len, &lay, raw);
	bpfcol_select(p->col, cgfs_prove_sels(p->pr), cgfs_prove_zero(p->pr));
	cgfs_prove_describe(p->pr, p->stat_paths, sizeof(p->stat_paths));
	if (p->at_root) {
		size_t o = strlen(p->stat_paths);

		snprintf(p->stat_paths + o, sizeof(p->stat_paths) - o,
			 "; %d of them proven against the hierarchy root's (the start group's values could not prove them)",
			 mr_count(p->at_root));
	}
	if (bpfcol_kfunc(p->col)) {
		size_t o = strlen(p->stat_paths);

		snprintf(p->stat_paths + o, sizeof(p->stat_paths) - o,
			 "; the kernel's memcg kfuncs not used: %s",
			 bpfcol_kfunc(p->col));
	}
	return more;
}

/*
 * Which of the pass's files exist: the same in every group with the
 * memory controller but the root (their cftypes are the hierarchy's), so
 * one such group's directory tells, once.
 */
static void probe(struct pass *p, const struct cgfs_version *v, int fd)
{
	unsigned files = cgfs_pass_files(v);

	p->have = 0;
	for (int cf = 0; cf < CF_NR; cf++)
		if ((files & CFBIT(cf)) &&
		    faccessat(fd, cgfs_file_name(v, (enum cgfile)cf), F_OK,
			      AT_SYMLINK_NOFOLLOW) == 0)
			p->have |= CFBIT(cf);
	p->probed = 1;
}

static size_t numa_text(struct pass *p, size_t i);

/*
 * Reads group idx of the snapshot (record g): from the record, and from
 * its directory, opened by path below rootfd, what the record lacks.
 * Returns 0, or 1 when the group turned out gone (left out) or, with
 * p->err set, when the process ran short (the pass fails).
 */
static int read_one(struct pass *p, struct cgfs *cg, int rootfd,
		    const struct cgfs_want *w, struct snapshot *snap, int idx,
		    const struct bpfcol_rec *g, size_t rec)
{
	struct snap_group *sg = &snap->groups[idx];
	struct cgfs_group_src src = {
		.dirfd = -1, .rootfd = rootfd, .rel = snap_path(snap, sg) + 1,
		/* The root as the walk reads it (a --root mount's top). */
		.is_root = sg->depth == 0, .snap = snap,
		.ino = sg->depth == 0 ? 0 : g->id,
	};
	int r = 0;

	sample_clear(&sg->s);
	sg->ino = g->id;
	/* The record gives values: not the root's; none until a group with
	 * the memory controller told which files exist (v2: a group
	 * without it has no memory files). */
	if (idx == 0 && p->stat_ok) {
		src.stat_text = p->stat;
		src.stat_len = p->stat_len;
	}
	if (p->numa_use && (g->have & MR_BIT(ST_NODES))) {
		src.numa_text = p->ntext;
		src.numa_len = numa_text(p, rec);
	}
	if (src.is_root) {
		/* Its memory.stat values only (v1: its total_* are its
		 * vmstats too); its counters from the files. */
		src.pass = g;
		src.stat_only = 1;
	} else if (p->probed || (g->have & MR_BIT(USAGE))) {
		if (!p->probed) {
			int fd = cgfs_open_rel(rootfd, src.rel);

			if (fd < 0 && cgfs_short_of(fd)) {
				p->err = fd;
				return 1;
			}
			/* Shown, nothing available, as the walk shows a
			 * directory it cannot enter; or gone. */
			if (fd < 0)
				return fd == -EACCES || fd == -EPERM ? 0 : 1;
			probe(p, cg->ver, fd);
			close(fd);
		}
		src.pass = g;
		src.pass_have = p->have;
	}
	cg->rd->ops->group(cg->rd, snap_path(snap, sg));
	/* Removed since the pass, maybe made again: once more. */
	for (int tries = 0; tries < 2; tries++) {
		r = cgfs_read_group(cg->ver, cg->rd, w, &src, &sg->s);
		if (r != -ENODEV)
			break;
	}
	cg->rd->ops->group(cg->rd, NULL);
	if (cgfs_short_of(r)) {
		p->err = r;
		return 1;
	}
	return r == -ENODEV;
}

/*
 * A walk of the pass.  The sample is of its time: a refresh that loads
 * the program again first (the stats map grown, a group renamed) would
 * otherwise date its values to before the load.
 */
static int pass_read(struct pass *p, struct snapshot *snap, size_t *ret_n,
		     struct bpfcol_why *why)
{
	snap->mono = clock_mono();
	return bpfcol_read(p->col, ret_n, why);
}

/* Larger excess first. */
static int by_excess(const void *a, const void *b)
{
	uint64_t x = ((const struct soft_place *)a)->tree;
	uint64_t y = ((const struct soft_place *)b)->tree;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * v1's soft-limit tree, as soft-limit reclaim reads it: one red-black
 * tree a node, of the groups whose excess (usage above the soft limit)
 * was above 0 at their last update, ordered by that excess; reclaim
 * takes the largest first (mem_cgroup_largest_soft_limit_node).  A
 * group's place on a node's tree is 1 + the number of groups on it with
 * a larger excess (equal ones share the place: the kernel's order among
 * them is that of their insertion, which nothing shows); its rank is its
 * best place over the nodes.  The trees hold every group of the
 * hierarchy: the places are known only when the pass walked all of it
 * (the start is the hierarchy's root), else only the excess is given.
 */
static int soft_ranks(struct pass *p, const char *start, size_t n)
{
	struct soft_place *order;
	struct bpfcol_rec g;
	int r;

	p->soft_use = 0;
	if (n > p->soft_cap) {
		p->soft = xreallocarray(p->soft, n, 2 * sizeof(*p->soft));
		p->soft_cap = n;
	}
	order = p->soft + p->soft_cap;
	for (size_t i = 0; i < n; i++) {
		if ((r = bpfcol_record(p->col, i, &g)) != 0)
			return r;
		p->soft[i] = (struct soft_place){ 0, 0, (uint32_t)i };
		for (int k = 0; k < MR_NODES; k++)
			if ((g.have & MR_SET(MR_SOFT_NODE0 + k)) &&
			    g.v[MR_SOFT_NODE0 + k] > p->soft[i].tree)
				p->soft[i].tree = g.v[MR_SOFT_NODE0 + k];
	}
	p->soft_use = 1;
	if (*start)
		return 0;
	/* Node ids past the kernel's nr_node_ids have no tree. */
	for (unsigned k = 0; k < MR_NODES && k < bpfcol_node_ids(p->col); k++) {
		size_t m = 0;

		for (size_t i = 0; i < n; i++) {
			if ((r = bpfcol_record(p->col, i, &g)) != 0)
				return r;
			if ((g.have & MR_SET(MR_SOFT_NODE0 + k)) &&
			    g.v[MR_SOFT_NODE0 + k] > 0)
				order[m++] = (struct soft_place){
					g.v[MR_SOFT_NODE0 + k], 0, (uint32_t)i };
		}
		qsort(order, m, sizeof(*order), by_excess);
		for (size_t j = 0, place = 1; j < m; j++) {
			struct soft_place *sp = &p->soft[order[j].rec];

			if (j > 0 && order[j].tree != order[j - 1].tree)
				place = j + 1;
			if (sp->rank == 0 || place < sp->rank)
				sp->rank = (uint32_t)place;
		}
	}
	return 0;
}

/* Record i's soft-limit tree slots, made by soft_ranks. */
static void soft_put(const struct pass *p, size_t i, struct bpfcol_rec *g)
{
	if (!p->soft_use || !(g->have & MR_SOFT_NODES))
		return;
	g->v[MR_SOFT_TREE] = p->soft[i].tree;
	g->have |= MR_BIT(SOFT_TREE);
	/* 0: on no tree, which the rank does not say. */
	g->v[MR_SOFT_RANK] = p->soft[i].rank;
	if (p->soft[i].rank)
		g->have |= MR_BIT(SOFT_RANK);
}

/*
 * Under --collector bpf, what the pass does not carry of what is shown
 * is said, once a run (auto takes the files for it quietly): the
 * memory.stat values whose words are not proven on this kernel (not
 * those known 0 this refresh).
 */
static void say_unproven(struct pass *p, struct cgfs *cg, mr_set slots)
{
	mr_set left = slots & VMSTAT_SLOTS;
	char keys[200];
	size_t off = 0;

	if (cg->collector != CGFS_COLLECT_BPF || p->said_unproven || !p->pr)
		return;
	left &= ~(cgfs_prove_proven(p->pr) | cgfs_prove_zero(p->pr));
	if (!left)
		return;
	keys[0] = '\0';
	for (mr_set l = left; l && off < sizeof(keys) - 1; l &= l - 1) {
		int n = snprintf(keys + off, sizeof(keys) - off, "%s%s",
				 off ? ", " : "",
				 bpfcol_slot_key((enum mr_slot)mr_first(l)));

		off += n > 0 ? (size_t)n : 0;
	}
	snprintf(cg->note, sizeof(cg->note), "bpf collector: memory.stat's "
		 "%.200s read from the files (not proven in the kernel's "
		 "statistics)", keys);
	cg->note_new = 1;
	p->said_unproven = 1;
}

/* ---- the per-node LRU lists ---- */

/*
 * memory.numa_stat's lines the pass's lists stand for.  v1, in pages:
 * the group's own (lru_zone_size or lrugen) and the hierarchical ones
 * (lruvec_stats), as the kernel prints them.  v2, in bytes: the
 * hierarchical lists (lruvec_stats) under the kernel's keys, then the
 * group's own lists, which v2's file lacks, as own_* lines (the views
 * read them; a recording keeps them).
 */
static const char *const v1_numa_keys[] = {
	"anon", "file", "unevictable", "hierarchical_anon",
	"hierarchical_file", "hierarchical_unevictable",
};
static const char *const v2_numa_keys[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
	"unevictable", "own_inactive_anon", "own_active_anon",
	"own_inactive_file", "own_active_file", "own_unevictable",
};
#define V1_KEYS	6
#define V2_KEYS	10
/* The v2 lines the file has, to prove them. */
#define V2_FILE_KEYS	5

/* Of a node's lists (enum mr_lru), the value of v1 line k (anon, file,
 * unevictable, as the kernel sums them: mem_cgroup_node_nr_lru_pages). */
static int64_t v1_line(const int64_t *l, size_t k)
{
	switch (k % 3) {
	case 0:
		return l[MR_LRU_INACTIVE_ANON] + l[MR_LRU_ACTIVE_ANON];
	case 1:
		return l[MR_LRU_INACTIVE_FILE] + l[MR_LRU_ACTIVE_FILE];
	default:
		return l[MR_LRU_UNEVICTABLE];
	}
}

/* The value of line k (v1_numa_keys or v2_numa_keys) at a node, as the
 * file shows it (below 0: in flight, shown 0). */
static uint64_t numa_value(const struct pass *p, const int64_t *own,
			   const int64_t *hier, size_t k)
{
	int64_t v;

	if (cgfs_version_n(p->ver) == 2)
		v = (k < MR_NLRU ? hier[k] : own[k - MR_NLRU]) *
			(int64_t)bpfcol_pagesize(p->col);
	else
		v = v1_line(k < 3 ? own : hier, k);
	return v > 0 ? (uint64_t)v : 0;
}

static void ntext_add(struct pass *p, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ntext_add(struct pass *p, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(p->ntext + *len, p->ntext_cap - *len, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < p->ntext_cap - *len)
			break;
		p->ntext_cap = (p->ntext_cap + (size_t)n) * 2;
		p->ntext = xreallocarray(p->ntext, p->ntext_cap, 1);
	}
	*len += (size_t)n;
}

/* A line: "key N0=v N1=v" (v2), v1's "key=total N0=v N1=v". */
static void ntext_line(struct pass *p, size_t *len, const char *key,
		       const uint64_t *v)
{
	uint64_t total = 0;

	if (cgfs_version_n(p->ver) == 2) {
		ntext_add(p, len, "%s", key);
	} else {
		for (size_t i = 0; i < p->nnodes; i++)
			total += v[i];
		ntext_add(p, len, "%s=%" PRIu64, key, total);
	}
	for (size_t i = 0; i < p->nnodes; i++)
		ntext_add(p, len, " N%u=%" PRIu64, p->nodes[i], v[i]);
	ntext_add(p, len, "\n");
}

/*
 * Record i's memory.numa_stat, of the lines the views show, in the
 * file's form (what a recording keeps, what replay parses); its length.
 */
static size_t numa_text(struct pass *p, size_t i)
{
	int64_t own[MR_NODES][MR_NLRU], hier[MR_NODES][MR_NLRU];
	uint64_t v[MR_NODES], t[MR_NODES];
	size_t len = 0;

	if (!p->ntext) {
		p->ntext_cap = 1024;
		p->ntext = xmalloc(p->ntext_cap);
	}
	p->ntext[0] = '\0';
	memset(own, 0, sizeof(own));
	memset(hier, 0, sizeof(hier));
	bpfcol_nodes(p->col, i, own, hier);
	if (cgfs_version_n(p->ver) == 2) {
		for (size_t k = 0; k < V2_KEYS; k++) {
			for (size_t n = 0; n < p->nnodes; n++)
				v[n] = numa_value(p, own[p->nodes[n]],
						  hier[p->nodes[n]], k);
			ntext_line(p, &len, v2_numa_keys[k], v);
		}
		return len;
	}
	for (size_t half = 0; half < 2; half++) {
		for (size_t n = 0; n < p->nnodes; n++) {
			t[n] = 0;
			for (size_t k = half * 3; k < half * 3 + 3; k++)
				t[n] += numa_value(p, own[p->nodes[n]],
						   hier[p->nodes[n]], k);
		}
		ntext_line(p, &len, half ? "hierarchical_total" : "total", t);
		for (size_t k = half * 3; k < half * 3 + 3; k++) {
			for (size_t n = 0; n < p->nnodes; n++)
				v[n] = numa_value(p, own[p->nodes[n]],
						  hier[p->nodes[n]], k);
			ntext_line(p, &len, v1_numa_keys[k], v);
		}
	}
	return len;
}

/*
 * Proves the lists against the start group's memory.numa_stat, read
 * right after the pass: every line the file has of them, at every node
 * it lists, equal (v1: the group's own and the hierarchical lists; v2:
 * the hierarchical ones, and, where the start group has no child with
 * the memory controller, its own lists too, which are then the same).
 * The nodes the file lists are the ones the text gives.
 */
static void numa_prove(struct pass *p, int dfd, int leaf)
{
	int v2 = cgfs_version_n(p->ver) == 2;
	const char *const *keys = v2 ? v2_numa_keys : v1_numa_keys;
	size_t nkeys = v2 ? V2_FILE_KEYS : V1_KEYS;
	struct numa_stat *ns;
	int64_t own[MR_NODES][MR_NLRU], hier[MR_NODES][MR_NLRU];
	char buf[16384];
	ssize_t len = -1;
	int fd, ok = 1;

	fd = dfd < 0 ? -1 : openat(dfd, cgfs_file_name(p->ver, CF_NUMA),
				   O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (len <= 0) {
		snprintf(p->numa_why, sizeof(p->numa_why),
			 "the start group's memory.numa_stat cannot be read");
		return;
	}
	if (bpfcol_nodes(p->col, 0, own, hier) < 0) {
		snprintf(p->numa_why, sizeof(p->numa_why),
			 "the kernel's lists were not read");
		return;
	}
	ns = xmalloc(sizeof(*ns));
	parse_numa_stat(buf, (size_t)len, keys, nkeys, ns);
	if (ns->n == 0 || ns->n > MR_NODES) {
		snprintf(p->numa_why, sizeof(p->numa_why),
			 "%zu nodes (the pass reads %d at most)", ns->n,
			 MR_NODES);
		free(ns);
		return;
	}
	for (size_t i = 0; i < ns->n && ok; i++) {
		unsigned nd = ns->node[i];

		if (nd >= MR_NODES || nd >= bpfcol_node_ids(p->col)) {
			ok = 0;
			break;
		}
		for (size_t k = 0; k < nkeys && ok; k++) {
			if (!ns->has[i][k] ||
			    ns->v[i][k] != numa_value(p, own[nd], hier[nd], k))
				ok = 0;
			if (v2 && leaf && ns->has[i][k] && ns->v[i][k] !=
			    numa_value(p, own[nd], hier[nd], k + MR_NLRU))
				ok = 0;
		}
	}
	if (ok) {
		p->nnodes = ns->n;
		for (size_t i = 0; i < ns->n; i++)
			p->nodes[i] = ns->node[i];
		p->numa_proven = 1;
	} else {
		snprintf(p->numa_why, sizeof(p->numa_why),
			 "not proven: the start group's lists differ from its "
			 "memory.numa_stat");
	}
	free(ns);
}

/* The kernel's lists the last walk read (src: MR_NODE_*), into numa_why. */
static void numa_source(struct pass *p, unsigned src)
{
	snprintf(p->numa_why, sizeof(p->numa_why), "%s",
		 (src & MR_NODE_LRUGEN) && (src & MR_NODE_ZONE_SIZE) ?
		 "own lists from lru_zone_size and lrugen (the multi-gen LRU "
		 "on some nodes), with descendants from lruvec_stats" :
		 src & MR_NODE_LRUGEN ? "own lists from lrugen.nr_pages (the "
		 "multi-gen LRU: its youngest two generations active, as the "
		 "kernel counts them), with descendants from lruvec_stats" :
		 "own lists from lru_zone_size, with descendants from "
		 "lruvec_stats");
}

/* The lists of this refresh, proven once (dfd: the start group's
 * directory); p->numa_use says whether the groups take them. */
static void numa_pass(struct pass *p, int dfd, size_t n)
{
	unsigned src = bpfcol_node_src(p->col);
	int leaf = 1;

	p->numa_use = 0;
	if (src & (MR_NODE_NONE | MR_NODE_NO_HIER)) {
		snprintf(p->numa_why, sizeof(p->numa_why),
			 "the kernel's lists were not read");
		return;
	}
	for (size_t i = 1; i < n && leaf; i++) {
		struct bpfcol_rec g;

		if (bpfcol_record(p->col, i, &g) != 0)
			break;	/* the pass fails at the same record */
		leaf = !(g.have & MR_BIT(USAGE));
	}
	if (!p->numa_proven) {
		p->numa_tried++;
		numa_prove(p, dfd, leaf);
	}
	if (!p->numa_proven)
		return;
	p->numa_use = 1;
	numa_source(p, src);
}

/* Under --collector bpf, lists read from the files are said, once. */
static void say_numa(struct pass *p, struct cgfs *cg)
{
	size_t off;

	if (cg->collector != CGFS_COLLECT_BPF || p->said_numa || p->numa_use)
		return;
	off = cg->note_new ? strlen(cg->note) : 0;
	snprintf(cg->note + off, sizeof(cg->note) - off, "%sbpf collector: "
		 "the LRU lists per NUMA node read from memory.numa_stat (%s)",
		 off ? "; " : "", p->numa_why);
	cg->note_new = 1;
	p->said_numa = 1;
}

/* -VV and the pane: which path each family took. */
static void describe(struct pass *p, mr_set slots)
{
	size_t off = 0;

	p->paths[0] = '\0';
	if (slots & VMSTAT_SLOTS)
		off = (size_t)snprintf(p->paths, sizeof(p->paths), "%s",
				       p->stat_paths);
	if (!(slots & MR_BIT(ST_NODES)) || off >= sizeof(p->paths))
		return;
	snprintf(p->paths + off, sizeof(p->paths) - off,
		 "%sLRU lists per NUMA node: %s", off ? "; " : "",
		 p->numa_use ? "from the pass, " : !p->numa_tried ?
		 "the pass reads them once proven against the start group's "
		 "memory.numa_stat (at the first refresh that shows them), " :
		 "from memory.numa_stat, ");
	off = strlen(p->paths);
	snprintf(p->paths + off, sizeof(p->paths) - off, "%s", p->numa_why);
}

/* The inode of the directory at rel below rootfd; 0 when there is none. */
static uint64_t path_ino(int rootfd, const char *rel)
{
	struct stat st;

	return fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		S_ISDIR(st.st_mode) ? (uint64_t)st.st_ino : 0;
}

/*
 * Asks the pass for the slots of this refresh's fields only.  Were the
 * kernel to refuse, the pass would go on reading everything: no harm.
 */
static int pass_walk(struct cgfs_tree *t, struct cgfs *cg, int rootfd,
		     const struct cgfs_want *w, int maxdepth,
		     struct snapshot *snap, char *err, size_t errlen)
{
	struct pass *p = (struct pass *)t;
	/* One record at a time, converted where the kernel's map has it:
	 * no copy of the whole walk. */
	struct bpfcol_rec g;
	struct bpfcol_why why;
	char what[300];
	size_t deepest, n;
	unsigned level0;
	int *lv, r;

	p->err = 0;
	p->stat_ok = 0;
	p->numa_use = 0;
	/* The per-node lists too: their hierarchical ones are the kernel's
	 * statistics, which this read flushes. */
	if (w->pass_slots & MR_STATS) {
		int fd = cgfs_open_rel(rootfd, cg->start);

		if (fd >= 0) {
			read_start_stat(p, fd);
			close(fd);
		}
	} else {
		/* No zeros known without this refresh's file. */
		if (p->pr)
			bpfcol_select(p->col, cgfs_prove_sels(p->pr), 0);
	}
	/* The tree's places are made of every group's nodes' excess. */
	bpfcol_want(p->col, w->pass_slots | ((w->pass_slots & MR_SOFT_MADE) ?
					     MR_SOFT_NODES : 0));
	r = pass_read(p, snap, &n, &why);
	/* The iterator holds the group it was opened on, whatever its name
	 * now: the start path must still name it (renamed away, or another
	 * group made under the name), else the pass follows the path. */
	if (r == 0 && *cg->start) {
		r = bpfcol_record(p->col, 0, &g);
		if (r)
			snprintf(why.text, sizeof(why.text),
				 "cannot map the records: %s", strerror(-r));
		else if (path_ino(rootfd, cg->start) != g.id)
			r = -ENOENT;
	}
	if (r == -ENOENT) {
		/* The start group is gone, moved, or made again: the walk
		 * says the same, or reads the group the path names now. */
		int fd = cgfs_open_rel(rootfd, cg->start);

		if (fd < 0) {
			snprintf(err, errlen, "%s/%s: %s", cg->root, cg->start,
				 strerror(-fd));
			return fd;
		}
		close(fd);
		bpfcol_close(p->col);
		p->col = NULL;
		r = bpfcol_open(p->dir, &p->col, &why);
		if (r == 0) {
			bpfcol_want(p->col, w->pass_slots |
				    ((w->pass_slots & MR_SOFT_MADE) ?
				     MR_SOFT_NODES : 0));
			r = pass_read(p, snap, &n, &why);
		}
	}
	if (r == 0 && (w->pass_slots & VMSTAT_SLOTS) && prove(p))
		r = pass_read(p, snap, &n, &why);
	if (r == 0 && (w->pass_slots & VMSTAT_SLOTS))
		say_unproven(p, cg, w->pass_slots);
	if (r == 0 && (w->pass_slots & MR_BIT(ST_NODES))) {
		int dfd = p->numa_proven ? -1 :
			cgfs_open_rel(rootfd, cg->start);

		numa_pass(p, dfd, n);
		if (dfd >= 0)
			close(dfd);
		say_numa(p, cg);
	}
	if (r == 0)
		describe(p, w->pass_slots);
	if (r < 0) {
		snprintf(err, errlen, "bpf collector: %s", why.text);
		snprintf(t->failed, sizeof(t->failed), "%s", why.text);
		return r;
	}
	p->soft_use = 0;
	if (w->pass_slots & MR_SOFT_MADE)
		r = soft_ranks(p, cg->start, n);
	if (r == 0)
		r = bpfcol_record(p->col, 0, &g);
	if (r)
		goto unmapped;
	cgfs_reserve(snap, n);
	soft_put(p, 0, &g);
	level0 = g.level;
	if (read_one(p, cg, rootfd, w, snap, 0, &g, 0)) {
		if (p->err)
			goto short_of;
		snprintf(err, errlen, "%s/%s: %s", cg->root, cg->start,
			 strerror(ENOENT));
		return -ENOENT;
	}
	if (p->levels_cap == 0) {
		p->levels_cap = 64;
		p->levels = xreallocarray(NULL, p->levels_cap,
					  sizeof(*p->levels));
	}
	lv = p->levels;
	lv[0] = 0;
	deepest = 0;
	for (size_t i = 1; i < n; i++) {
		struct snap_group *sg;
		int parent, idx;
		size_t rel;

		if ((r = bpfcol_record(p->col, i, &g)) != 0)
			goto unmapped;
		soft_put(p, i, &g);
		rel = g.level - level0;
		/* Pre-order: a group comes after its parent, which is the
		 * last group seen one level up. */
		if (g.level <= level0 || (maxdepth >= 0 &&
					  rel > (size_t)maxdepth))
			continue;
		if (rel >= p->levels_cap) {
			p->levels = xreallocarray(p->levels, p->levels_cap * 2,
						  sizeof(*lv));
			p->levels_cap *= 2;
			lv = p->levels;
		}
		/* Every group of an online group's path is online (rmdir
		 * refuses a group with children), so levels never skip one;
		 * were one to, its records are left out, not misplaced. */
		if (rel > deepest + 1)
			continue;
		deepest = rel;
		lv[rel] = -1;
		parent = lv[rel - 1];
		if (parent < 0 || g.name_len == 0)
			continue;	/* under a group left out */
		sg = cgfs_add_group(snap, parent, g.name, g.name_len,
				    snap->groups[parent].depth + 1);
		idx = (int)(sg - snap->groups);
		if (read_one(p, cg, rootfd, w, snap, idx, &g, i)) {
			cgfs_drop_last(snap);
			if (p->err)
				goto short_of;
			continue;
		}
		lv[rel] = idx;
	}
	return 0;
short_of:
	/* Not the whole tree: the pass fails (auto: the walk may do with
	 * fewer descriptors, or says the same). */
	cgfs_short_error(what, sizeof(what), cg->root, cg->start, p->err);
	snprintf(t->failed, sizeof(t->failed), "reading the groups' files: %.*s",
		 (int)sizeof(t->failed) - 32, what);
	snprintf(err, errlen, "bpf collector: %s", t->failed);
	return p->err;
unmapped:
	snprintf(t->failed, sizeof(t->failed), "cannot map the records: %s",
		 strerror(-r));
	snprintf(err, errlen, "bpf collector: %s", t->failed);
	return r;
}

static void pass_free(struct cgfs_tree *t)
{
	struct pass *p = (struct pass *)t;

	bpfcol_close(p->col);
	cgfs_prove_free(p->pr);
	free(p->stat);
	free(p->levels);
	free(p->ntext);
	free(p->soft);
	free(p->dir);
	free(p);
}

static fieldset pass_carried(const struct cgfs_tree *t,
			     const struct cgfs_version *v)
{
	const struct pass *p = (const struct pass *)t;
	mr_set slots = ~MR_STATS;

	/* Offered (the screen's detail pane asks for what is given) until
	 * NUMA_TRIES refreshes failed to prove them. */
	if (p->numa_proven || (p->numa_tried < NUMA_TRIES && p->nodes_read))
		slots |= MR_BIT(ST_NODES);
	if (p->pr)
		slots |= cgfs_prove_proven(p->pr) | cgfs_prove_zero(p->pr);
	return cgfs_pass_fields(v, slots);
}

static const char *pass_paths(const struct cgfs_tree *t)
{
	return ((const struct pass *)t)->paths;
}

static const struct cgfs_tree_ops pass_ops = {
	.name = "bpf",
	.walk = pass_walk,
	.carried = pass_carried,
	.paths = pass_paths,
	.free = pass_free,
};

struct cgfs_tree *cgfs_pass_new(const struct cgfs_version *v, const char *root,
				const char *dir, char *why, size_t whylen)
{
	struct pass *p = xcalloc(1, sizeof(*p));
	struct bpfcol_why w;
	int64_t lists[MR_NODES][MR_NLRU];
	int fd, rootfd;

	p->tree.ops = &pass_ops;
	p->ver = v;
	p->dir = xstrdup(dir);
	/*
	 * A walk right after a read of the start group's memory.stat (the
	 * flush), reading everything, the group's statistics whole among
	 * it: what can be proven is, now, so that the first refresh knows
	 * which values the pass carries (v1's pgscan: no reclaim
	 * tracepoints loaded for it).  Its zeros are not kept: the first
	 * refresh reads the file again.
	 */
	if (bpfcol_open(dir, &p->col, &w) < 0) {
		snprintf(why, whylen, "%s", w.text);
		p->col = NULL;
		pass_free(&p->tree);
		return NULL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* A search proves a word the second time it finds it; a value that
	 * moved between the read and the walk (a flush by another reader)
	 * proves nothing that time: three times at most, and no third
	 * when the second proved nothing. */
	for (int tries = 0; fd >= 0 && tries < 3; tries++) {
		size_t n;
		int more;

		bpfcol_stale(p->col);
		if (read_start_stat(p, fd) < 0 ||
		    bpfcol_read(p->col, &n, &w) < 0)
			break;
		more = prove(p);
		if (cgfs_prove_complete(p->pr) || (tries > 0 && !more))
			break;
	}
	/* The words the start could not prove, at the root; then the
	 * start's records again (and its file: the same flush). */
	rootfd = root && fd >= 0 && p->pr && !cgfs_prove_complete(p->pr) ?
		open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (rootfd >= 0) {
		size_t n;

		prove_at_root(p, rootfd);
		close(rootfd);
		bpfcol_stale(p->col);
		if (read_start_stat(p, fd) == 0 &&
		    bpfcol_read(p->col, &n, &w) == 0)
			prove(p);
	}
	if (fd >= 0)
		close(fd);
	/* The per-node lists are proven at the first refresh that shows
	 * them (memory.numa_stat's read is a stats flush call too); -VV
	 * says where the walk found them. */
	if (bpfcol_node_src(p->col) & (MR_NODE_NONE | MR_NODE_NO_HIER))
		snprintf(p->numa_why, sizeof(p->numa_why),
			 "the kernel's lists were not read");
	else if (p->col)
		numa_source(p, bpfcol_node_src(p->col));
	p->nodes_read = !(bpfcol_node_src(p->col) &
			  (MR_NODE_NONE | MR_NODE_NO_HIER)) &&
		bpfcol_nodes(p->col, 0, lists, NULL) >= 0;
	describe(p, ~(mr_set)0);
	p->stat_ok = 0;
	return &p->tree;
}
