/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bpfcol_walk.c - one pass of the cgroup iterator over the tree, in
 * chunks, and the read that gives its records (see bpfcol_int.h). */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfcol_int.h"
#include "clock.h"

/*
 * A walk is as fresh as the first refresh needs for this long: cgfs_open
 * and the first refresh follow one another (a one-shot -b pays each walk,
 * some 10 ms at 8,192 groups, on top of loading the program).
 */
#define FRESH_S	0.1

/*
 * Whether the walk's first record, its start, is a memory cgroup's (1)
 * or not (0); -errno with W's reason when it cannot be mapped.
 */
int bpfcol_start_memcg(struct bpfcol *col, struct bpfcol_why *w)
{
	const struct memcg_rec *r = bpfcol_rec_of(col, 0);

	if (!r) {
		bpfcol_why_set(w, BPFCOL_LOAD_REFUSED, "cannot map the records: %s",
		    strerror(-col->map_err));
		return col->map_err;
	}
	return (r->flags & MR_MEMCG) != 0;
}

/* One chunk, one read of a new iterator fd of LINK: returns the summary
 * the program wrote at its end. */
int bpfcol_walk_chunk(int link, struct memcg_sum *ret_sum)
{
	char buf[sizeof(*ret_sum) * 2];
	size_t got = 0;
	ssize_t n;
	int fd, r = 0;

	memset(ret_sum, 0, sizeof(*ret_sum));
	fd = bpf_iter_create(link);
	if (fd < 0)
		return -errno;
	while (got < sizeof(buf) &&
	       (n = read(fd, buf + got, sizeof(buf) - got)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	if (r)
		return r;
	if (got != sizeof(*ret_sum))
		return -EIO;
	memcpy(ret_sum, buf, sizeof(*ret_sum));
	return ret_sum->magic == MR_SUM_MAGIC ? 0 : -EIO;
}

/*
 * A chunk records for this long at most: other processes waiting to make
 * or remove a cgroup (mkdir, rmdir) wait for one chunk, not for the pass.
 * Measured at 30,000 groups, -d 1 (tests/bench/lock.sh, 2-core VM, 6.18):
 * other processes' mkdir p99 2.4 times its own with 1 ms chunks, 1.1 with
 * 250 us, 1.3 with 100 us; each chunk costs some 25 us more (a file
 * handle opened, a link made, an iterator read), 100 us chunks a fifth
 * more CPU per pass than 1 ms ones, 250 us about as much.
 *
 * Between two chunks, sched_yield: a mkdir that waited spins on the
 * mutex on another CPU, or on this one has to be let run, or the next
 * chunk takes the mutex first (a woken waiter can lose it to a newcomer).
 * A sleep of 50 us did as well for the waiters but cost a sixth more CPU
 * per pass (the walk's data gone cold in the CPU's caches).
 */
#define CHUNK_BUDGET_NS	250000ULL

#define CHUNK_GAP_NS	0L

/*
 * A pass begun again (none of the groups where a chunk stopped is left,
 * or the one opened went before the read): after this many, the pass is
 * made from the start in one read, as long as it takes, which nothing
 * can cut short.
 */
#define CHUNK_RESTARTS	4

/*
 * MEMCGTOP_BPF_CHUNK=BUDGET_US[,GAP_US], for tests and benchmarks: a
 * budget of 0 is one read per pass, 0.001 (a nanosecond) one group per
 * chunk; a gap of -1 is none, 0 sched_yield.
 */
static void chunk_setup(struct bpfcol *col)
{
	const char *e = getenv("MEMCGTOP_BPF_CHUNK");
	uint64_t scale = 1000;
	char *end;

	col->chunk_set = true;
	col->budget_ns = CHUNK_BUDGET_NS;
	col->gap_ns = CHUNK_GAP_NS;
	if (!e || !*e)
		return;
	/* Microseconds to the nanosecond, whatever the locale's point. */
	col->budget_ns = strtoull(e, &end, 10) % 1000000000 * 1000;
	if (*end == '.')
		for (end++; *end >= '0' && *end <= '9'; end++)
			if (scale /= 10)
				col->budget_ns += (uint64_t)(*end - '0') * scale;
	if (*end == ',')
		col->gap_ns = strtol(end + 1, NULL, 10) * 1000;
}

/* Lets a process that waited for cgroup_mutex while the chunk held it
 * take it before the next chunk does (a mutex's waiter, woken, can lose
 * it to a newcomer). */
static void chunk_gap(const struct bpfcol *col)
{
	struct timespec ts = { 0, 0 };

	if (col->gap_ns < 0)
		return;
	if (col->gap_ns == 0) {
		sched_yield();
		return;
	}
	ts.tv_nsec = col->gap_ns;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* The directory of the group with kernfs id ID, on the start's file
 * system: a cgroup file handle is its id (FILEID_KERNFS). */
static int open_group(const struct bpfcol *col, uint64_t id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh = { .handle_bytes = sizeof(uint64_t), .handle_type = 0xfe } };

	h.id = id;
	return open_by_handle_at(col->dirfd, &h.fh,
				 O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/*
 * An iterator link at the first group of SUM's chain that still exists,
 * and the chunk that goes on from there; -ENOENT when none is left.
 */
static int chunk_link(struct bpfcol *col, const struct memcg_sum *sum,
		      struct memcg_chunk *ret)
{
	union bpf_iter_link_info linfo;
	LIBBPF_OPTS(bpf_link_create_opts, opts, .iter_info = &linfo,
		    .iter_info_len = sizeof(linfo));
	uint32_t i;
	int fd = -1, link;

	for (i = 0; i < sum->chain_len && i < MR_CHAIN; i++) {
		fd = open_group(col, sum->chain[i].id);
		if (fd >= 0 || (errno != ESTALE && errno != ENOENT))
			break;
	}
	if (fd < 0)
		return i < sum->chain_len ? -errno : -ENOENT;
	memset(&linfo, 0, sizeof(linfo));
	linfo.cgroup.cgroup_fd = (uint32_t)fd;
	linfo.cgroup.order = BPF_CGROUP_ITER_SELF_ONLY;
	link = bpf_link_create(bpf_program__fd(col->skel->progs.memcg_iter), 0,
			       BPF_TRACE_ITER, &opts);
	close(fd);
	if (link < 0)
		return -errno;
	*ret = (struct memcg_chunk){
		.budget_ns = col->budget_ns,
		/* The chain's group before it (removed) and the siblings
		 * made before that one are done; all of the first one's
		 * groups below it are to come. */
		.floor = i ? sum->chain[i - 1].serial : 0,
		.resume = 1,
		.start_level = sum->start_level,
		.base = sum->groups,
		.names_base = sum->names_used,
	};
	return link;
}

/*
 * One pass over the tree, chunk after chunk: returns the last chunk's
 * summary, whose groups and names_used count the whole pass.  Each chunk
 * goes on after the group the one before counted last, at the record
 * after it, so the records stay in pre-order as one read would leave
 * them.  Groups are never moved and siblings keep their order, so what
 * follows that group now is what followed it then and what was made
 * since; a group made where the walk had passed comes in the next pass.
 */
int bpfcol_walk(struct bpfcol *col, struct memcg_sum *ret_sum)
{
	struct memcg_chunk *c;
	struct bpfcol_chunks *st = &col->chunks;
	struct memcg_sum last = { .magic = 0 };
	int r, link, start;

	if (!col->chunk_set)
		chunk_setup(col);
	memset(st, 0, sizeof(*st));
	c = &col->skel->data_chunk->chunk;
	start = bpf_link__fd(col->skel->links.memcg_iter);
	*c = (struct memcg_chunk){ .budget_ns = col->budget_ns };
	link = start;
	for (;;) {
		r = bpfcol_walk_chunk(link, ret_sum);
		if (link != start)
			close(link);
		if (r)
			return r;
		st->chunks++;
		st->steps += ret_sum->steps;
		st->held_ns += ret_sum->held_ns;
		if (ret_sum->held_ns > st->max_held_ns)
			st->max_held_ns = ret_sum->held_ns;
		if (ret_sum->flags & (MR_SUM_DONE | MR_SUM_NO_MEMCG))
			return 0;
		if (ret_sum->flags & MR_SUM_UNENDED)
			return -EIO;
		if (!(ret_sum->flags & MR_SUM_LOST))
			last = *ret_sum;
		if (col->hook)
			col->hook(col->hook_arg, st->chunks);
		else
			chunk_gap(col);
		/* Chunks need the group opened by its id: the file handles
		 * want CAP_DAC_READ_SEARCH.  Without, passes are one read. */
		link = -ENOENT;
		if (st->restarts < CHUNK_RESTARTS)
			link = chunk_link(col, &last, c);
		if (link == -EPERM)
			col->budget_ns = 0;
		if (link < 0) {
			/* Begun again from the start, at last in one read. */
			st->restarts++;
			link = start;
			*c = (struct memcg_chunk){
				.budget_ns = st->restarts < CHUNK_RESTARTS ?
					     col->budget_ns : 0,
			};
		}
	}
}

void bpfcol_stale(struct bpfcol *col)
{
	col->open_s = 0;
}

int bpfcol_read(struct bpfcol *col, size_t *ret_n, struct bpfcol_why *ret_why)
{
	struct memcg_sum sum;
	int r;

	bpfcol_why_set(ret_why, BPFCOL_OK, "%s", "");
	if (col->open_s > 0 && clock_mono() - col->open_s < FRESH_S) {
		sum = col->open_sum;
	} else {
		if (col->skel && col->skel->bss)
			col->skel->bss->node_src = 0;
		r = bpfcol_fit(col, &sum, ret_why);
		if (r)
			return r;
	}
	col->open_s = 0;
	col->nread = 0;
	r = sum.groups == 0 ? 0 : bpfcol_start_memcg(col, ret_why);
	if (r < 0)
		return r;
	if (r == 0) {
		bpfcol_why_set(ret_why, BPFCOL_START,
		    "the start group is gone or not a memory cgroup");
		return -ENOENT;
	}
	col->nread = sum.groups;
	*ret_n = sum.groups;
	return 0;
}

void bpfcol_chunk_hook(struct bpfcol *col,
		       void (*fn)(void *arg, unsigned chunks), void *arg)
{
	col->hook = fn;
	col->hook_arg = arg;
}

void bpfcol_chunks(const struct bpfcol *col, struct bpfcol_chunks *ret)
{
	*ret = col->chunks;
}
