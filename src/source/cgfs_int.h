/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cgfs_int.h - what the parts of the cgfs source share (not for other
 * modules, which see cgfs.h only).  From the bottom up, each part calling
 * only parts above it in this list:
 *
 * src/source/cgfs_io.c     reading one file of a group's directory: the
 *                          buffer, opening without links, the plain
 *                          reader and the recording one (a sink's tee);
 * src/source/cgfs_snap.c   a snapshot being built: groups, paths, values;
 * src/source/cgfs_v1.c,    each version's control files and keys, its
 *   cgfs_v2.c              root's, what it makes of them;
 * src/source/cgfs_version.c where each version keeps each field (from
 *                          include/fields.h), the maps that implies, what
 *                          it says of files, fields and the pass's slots
 *                          (cgfs_version.h: what these four share);
 * src/source/cgfs_keep.c   what a recording keeps of the pass's values;
 * src/source/cgfs_read.c   the values of a group: the reads its version
 *                          drives, or the pass's record in their place;
 * src/source/cgfs_find.c   finding the hierarchy: the live host's memory
 *                          mount or a --root copy, its version, the mode;
 * src/source/cgfs_walk.c   the tree by a directory walk, with the
 *                          directories it keeps (the files collector);
 * src/source/cgfs_pass.c   the tree by the BPF pass (bpf/bpfcol.h), whose
 *                          records give the values they carry;
 * src/source/cgfs_prove.c  which words of the kernel's statistics the pass
 *                          reads for which memory.stat values, proven;
 * src/source/cgfs_replay.c a recorded series: its timestamps, info and
 *                          seeking, and its source ops (source.h);
 * src/source/cgfs_group.c  a shown group of either source: detail, pids;
 * src/source/cgfs_knobs.c  the knobs of one group: read, checked, the one
 *                          write, the lock;
 * src/source/cgfs.c        opening a hierarchy through its source ops and
 *                          its tree, and the refresh that joins them.
 */
#ifndef MEMCGTOP_CGFS_INT_H
#define MEMCGTOP_CGFS_INT_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "bpf/memcg_rec.h"
#include "cgfs.h"
#include "source.h"

/* The control files a group may be read from; each version names its
 * own (cgfs_v1.c, cgfs_v2.c), or has none. */
enum cgfile {
	CF_USAGE,
	CF_LIMIT,
	CF_HIGH,
	CF_LOW,
	CF_MIN,
	CF_SOFT,
	CF_MEMSW,
	CF_SWAPCUR,
	CF_SWAPMAX,
	CF_SWAPPINESS,
	CF_KMEM,
	CF_STAT,
	CF_EVENTS,
	CF_OOMCTL,
	CF_FAILCNT,
	CF_PRESSURE,
	CF_PROCS,
	CF_PEAK,
	CF_SWAPPEAK,
	CF_EVENTS_LOCAL,
	CF_SWAPEVENTS,
	CF_ZSWAP,
	CF_CGSTAT,
	CF_NUMA,
	/* a recording's own: what the reclaim events gave (no kernel
	 * file; the live versions' fields never name it) */
	CF_RECEV,
	CF_NR
};

#define CGFS_RECEV_FILE "memcgtop.events"

#define CFBIT(f) (1u << (f))

struct bpfcol_rec;
struct cgfs_version;
struct sink;
struct sysinfo_src;

/* ---- cgfs_io.c ---- */

/* The buffer files are read into, and whether they are kernfs' (then
 * every name is a regular file and nothing is checked). */
struct cgfs_io {
	char *buf;
	size_t cap;
	int kernfs;
};

void cgfs_io_init(struct cgfs_io *io);
void cgfs_io_free(struct cgfs_io *io);
/* Reads a whole small file of a directory into io->buf: its length or
 * -errno (-EINVAL: not a regular file, below --root). */
ssize_t cgfs_read_small(struct cgfs_io *io, int dirfd, const char *name);
/* Counts the lines of a file too long to hold (cgroup.procs). */
int cgfs_count_lines(struct cgfs_io *io, int dirfd, const char *name,
		     uint64_t *ret_n);

/*
 * How a sample's files are read.  The plain reader reads them; the
 * recording reader (cgfs_tee_reader) reads through it and hands every
 * file's bytes, the groups kept and the sample's times to a sink (sink.h,
 * --record).  Those who read (the walk, the pass, the group reader) call
 * it the same way whichever it is.
 */
struct cgfs_reader;

struct cgfs_reader_ops {
	/* A sample begins; version_file (below rootfd) tells its version
	 * on replay. */
	void (*begin)(struct cgfs_reader *rd, int rootfd,
		      const char *version_file);
	/* The files read next are the group's at path ("/a/b"), or none's. */
	void (*group)(struct cgfs_reader *rd, const char *path);
	/* A file of the group, into rd->io->buf: its length or -errno. */
	ssize_t (*read)(struct cgfs_reader *rd, int dirfd, const char *name);
	/* What the BPF pass gave in place of the group's file name, as
	 * that file's text (the values shown, in its form), to be kept;
	 * NULL: nothing is kept (no recording), the text is not made. */
	void (*kept)(struct cgfs_reader *rd, const char *name,
		     const char *text, size_t len);
	/* The lines of cgroup.procs: streamed, or read whole to be kept. */
	int (*count_lines)(struct cgfs_reader *rd, int dirfd, const char *name,
			   uint64_t *ret_n);
	/* The sample ends with these groups: 0 or -errno (reason in err). */
	int (*end)(struct cgfs_reader *rd, const struct snapshot *snap,
		   char *err, size_t errlen);
	void (*free)(struct cgfs_reader *rd);
};

struct cgfs_reader {
	const struct cgfs_reader_ops *ops;
	struct cgfs_io *io;
};

struct cgfs_reader *cgfs_plain_reader(struct cgfs_io *io);
/* Reads through inner and tells sink; owns both (free frees them). */
struct cgfs_reader *cgfs_tee_reader(struct cgfs_reader *inner,
				    struct sink *sink);

/* "/a//b/" -> "a/b" (malloc'd); -EINVAL for "." and ".." components. */
int cgfs_normalise(const char *in, char **ret);
/* Opens the directory "a/b/c" below dirfd, following no link and not
 * leaving dirfd: in one openat2() where the kernel has it, else (or for a
 * path beyond PATH_MAX) one component at a time; the fd or -errno. */
int cgfs_open_rel(int dirfd, const char *rel);
/* Grows *p (elem-sized items, *cap of them) to hold need (out of memory
 * ends the program, xalloc.h). */
void cgfs_grow(void **p, size_t *cap, size_t need, size_t elem);

/* ---- cgfs_snap.c ---- */

/* Drops the group last added (and its path) from the snapshot. */
void cgfs_drop_last(struct snapshot *snap);
/* Room for that many groups in all (their samples of snap->slots), their
 * arrays grown to it at once. */
void cgfs_reserve(struct snapshot *snap, size_t groups);

/* ---- cgfs_version.c, cgfs_read.c, cgfs_keep.c ---- */

/* The descriptor of cgroup version n (1 or 2). */
const struct cgfs_version *cgfs_version_of(int n);
/* The same, as a recording is read: a SLOT row's value is memory.stat's
 * line of its key (what the recorder kept of the pass, fields.h). */
const struct cgfs_version *cgfs_version_replay(int n);
/* Whether v1 can rename a group (v2 cannot): a kept directory's name
 * must be checked to still lead to it. */
int cgfs_version_renames(const struct cgfs_version *v);
/* Its name of control file f, NULL when it has none. */
const char *cgfs_file_name(const struct cgfs_version *v, enum cgfile f);
/* Whether name is one of its control files (a directory named like one
 * is not a group: kernfs refuses to make it). */
int cgfs_is_control_name(const struct cgfs_version *v, const char *name);
/* The file that tells the version of a recording's tree. */
const char *cgfs_version_file(const struct cgfs_version *v);

/*
 * What a refresh reads of each group, from the fields asked for: the
 * files, and the slots the BPF pass should carry (MR_BIT).  The root's
 * files differ (the v2 root has few, the v1 root's usage and memsw add
 * its kmem).
 */
struct cgfs_want {
	fieldset fields;	/* asked, with what MADE fields are made of */
	unsigned files;		/* read for them */
	unsigned root_files;	/* the hierarchy root's */
	mr_set pass_slots;	/* the BPF pass's slots for them */
	/* The most swap a group can hold, VAL_MAX: not known.  v1's swap
	 * is memsw - usage, two files read one after the other: a group
	 * charged or uncharged in between shows the difference as swap
	 * (measured: 100K on the v1 root of a swapless host); no group
	 * holds more than its host's SwapTotal.  Known only where the
	 * system figures are the tree's own host's. */
	uint64_t swap_ceiling;
};

void cgfs_want_for(const struct cgfs_version *v, fieldset fields,
		   struct cgfs_want *ret);
/* The fields that reading `files` can set (FBIT mask): a sample with
 * these slots keeps all that was read. */
fieldset cgfs_fields_of(const struct cgfs_version *v, unsigned files);
/* "key value" lines of the values of s that the reclaim events gave
 * (fields.h EVENTS), as a recording keeps them: the length put in buf. */
size_t cgfs_event_lines(const struct cgfs_version *v, const struct sample *s,
			char *buf, size_t cap);
/* The files whose every field on v the pass carries (each row of the file
 * has a slot), so that a group whose record has those slots needs none of
 * them read; the fields the pass carries; a file's slots. */
unsigned cgfs_pass_files(const struct cgfs_version *v);
/* The fields whose slot is in `slots` (MR_BIT): what the pass carries
 * when those slots are read (memory.stat's: once proven). */
fieldset cgfs_pass_fields(const struct cgfs_version *v, mr_set slots);

/* The fields version v keeps somewhere (a file, the pass, the events):
 * the others are never read, and a sample has no room for them. */
fieldset cgfs_kept_fields(const struct cgfs_version *v);

/* A memory.stat value the pass can carry: its slot, its key in the
 * version's memory.stat (NULL: none, v1 pgscan), and the field. */
struct cgfs_stat_row {
	int slot;		/* enum mr_slot */
	const char *key;
	int field;		/* enum field */
};
/* The version's rows, at most max; returns how many there are. */
size_t cgfs_stat_rows(const struct cgfs_version *v, struct cgfs_stat_row *ret,
		      size_t max);
int cgfs_version_n(const struct cgfs_version *v);
mr_set cgfs_file_slots(const struct cgfs_version *v, enum cgfile f);

/*
 * Reads one group into s (its slots): the files w asks for, but those
 * whose values the BPF record `pass` carries (NULL: none; present: the
 * files of `pass_have` exist here, probed once).  The directory is dirfd,
 * or, when dirfd is -1, opened by path rel below rootfd only if a file
 * must be read.  Returns 0; -ENODEV when the group turned out removed (a
 * file answered ENODEV, or every name of its directory is gone): the
 * caller opens it again by name, in case it was made again, and reads
 * again; -EACCES when its directory cannot be entered; the error of
 * cgfs_short_of when a file could not be read for want of descriptors or
 * memory (the tree is then not whole).
 */
struct cgfs_group_src {
	int dirfd;		/* -1: open rel below rootfd when needed */
	int rootfd;
	const char *rel;
	int is_root;
	const struct bpfcol_rec *pass;
	unsigned pass_have;	/* CFBIT of the pass's files that exist */
	uint64_t ino;		/* rel opened must be this directory (the
				 * pass's group); 0: any */
	struct snapshot *snap;	/* memory.numa_stat texts go to its
				 * numa_text (FLD_NUMA: the offset) */
	/* memory.stat as read already this refresh (the pass's one read
	 * of its start group), parsed in place of reading it; NULL: none */
	const char *stat_text;
	size_t stat_len;
	/* memory.numa_stat's lists as the pass gave them (its own and
	 * hierarchical lists per node, cgfs_pass.c), in the file's form:
	 * taken in place of reading it; NULL: none */
	const char *numa_text;
	size_t numa_len;
	int stat_only;		/* of pass, the memory.stat slots only (a
				 * hierarchy root, whose counters the files
				 * give) */
};

/* Errors that say the process ran short (descriptors, memory), not that a
 * group or file is missing: a tree read with one is not whole. */
static inline int cgfs_short_of(int err)
{
	return err == -EMFILE || err == -ENFILE || err == -ENOMEM;
}

/* "ROOT/REL: strerror(-e)", and for EMFILE the limit it met. */
void cgfs_short_error(char *err, size_t errlen, const char *root,
		      const char *rel, int e);

int cgfs_read_group(const struct cgfs_version *v, struct cgfs_reader *rd,
		    const struct cgfs_want *w, const struct cgfs_group_src *src,
		    struct sample *s);
/* The smallest memory limit strictly above the start group "a/b/c". */
uint64_t cgfs_limit_above(const struct cgfs_version *v, struct cgfs_reader *rd,
			  int rootfd, const char *start);
/* The detail pane's files of a group, NULL-terminated. */
const char *const *cgfs_detail_files(const struct cgfs_version *v);

/* ---- the tree: cgfs_walk.c (files) and cgfs_pass.c (bpf) ---- */

/*
 * Where a refresh's groups come from: a walk of the directories, or the
 * BPF pass.  walk fills snap below its first group (the start, already
 * added) with the groups and their values; 0, or -errno with a reason in
 * err when the start group cannot be read.
 */
struct cgfs_tree;

struct cgfs_tree_ops {
	const char *name;	/* "files", "bpf" (cgfs_collector) */
	int (*walk)(struct cgfs_tree *t, struct cgfs *cg, int rootfd,
		    const struct cgfs_want *w, int maxdepth,
		    struct snapshot *snap, char *err, size_t errlen);
	/* The fields it gives every group but the hierarchy root without
	 * a file opened (cgfs_free_fields). */
	fieldset (*carried)(const struct cgfs_tree *t,
			    const struct cgfs_version *v);
	/* Where the values came from (cgfs_tree_paths); NULL: "" */
	const char *(*paths)(const struct cgfs_tree *t);
	void (*free)(struct cgfs_tree *t);
};

struct cgfs_tree {
	const struct cgfs_tree_ops *ops;
	/* Set by a walk that failed for a reason of its own (the BPF pass:
	 * its maps, memory, descriptors, the verifier), not because the
	 * start group cannot be read: the walk of the files may do. */
	char failed[300];
};

/* The directory walk; fresh_tree: every sample is a new copy (a
 * series), so no directory is kept across refreshes; fd_keep: the
 * descriptors its budget leaves to the caller (cgfs_opts). */
struct cgfs_tree *cgfs_walk_new(int fresh_tree, int kernfs, unsigned fd_keep);
/* For the unit tests (cgfs_set_kernfs, cgfs_listings). */
void cgfs_walk_set_kernfs(struct cgfs_tree *t, int kernfs);
unsigned long cgfs_walk_listings(const struct cgfs_tree *t);

/* The BPF pass below dir (the start group's directory) of a version v
 * hierarchy whose root is root (NULL: dir is the root): NULL with the
 * reason in why (one line) when it cannot load. */
struct cgfs_tree *cgfs_pass_new(const struct cgfs_version *v, const char *root,
				const char *dir, char *why, size_t whylen);
/* What the pass said of where each kind of value came from (one line),
 * "" for the walk. */
const char *cgfs_tree_paths(const struct cgfs_tree *t);

/* ---- cgfs_prove.c: the words of memory.stat in the pass ---- */
struct cgfs_prove;
struct memcg_layout;

struct cgfs_prove *cgfs_prove_new(const struct cgfs_version *v,
				  unsigned long pagesize);
void cgfs_prove_free(struct cgfs_prove *pr);
/*
 * The start group's memory.stat TEXT, read just before the walk that
 * gave RAW (its vmstats arrays) under the layout LAY: the slots it proves
 * are selected, and those 0 in TEXT known 0.  Returns 1 when a slot was
 * proven (the walk's other records lack it: walk again), else 0.
 */
int cgfs_prove_update(struct cgfs_prove *pr, const char *text, size_t len,
		      const struct memcg_layout *lay,
		      const int64_t (*raw)[128]);
const struct memcg_sels *cgfs_prove_sels(const struct cgfs_prove *pr);
mr_set cgfs_prove_proven(const struct cgfs_prove *pr);
mr_set cgfs_prove_zero(const struct cgfs_prove *pr);
/* Whether every slot of the version's rows is proven. */
int cgfs_prove_complete(const struct cgfs_prove *pr);
/* The rule's slots. */
#define CGFS_RULE_SLOTS	(MR_BIT(ST_PGSCAN) | MR_BIT(ST_PGSTEAL) |	\
			 MR_BIT(ST_PGSCAN_KSWAPD) | MR_BIT(ST_PGSCAN_DIRECT) | \
			 MR_BIT(ST_PGSTEAL_KSWAPD) | MR_BIT(ST_PGSTEAL_DIRECT))
/* One line: how many memory.stat values the pass gives, and how proven. */
void cgfs_prove_describe(const struct cgfs_prove *pr, char *buf, size_t len);

/* ---- cgfs.c ---- */

struct cgfs {
	int version;
	const struct cgfs_version *ver;	/* its files, keys and rules */
	const char *mode;
	char *root;		/* hierarchy root (series: the series folder) */
	char *start;		/* "" for the root, else "a/b" */
	int readonly;
	const struct source_ops *src;	/* live files or a series */
	void *priv;			/* the source's own (a series') */
	char *shown_mode, *shown_root;	/* a recording's DIR/info */
	int replay_bpf;			/* its "collector bpf" */
	/* v2's memory_recursiveprot: 1, 0, -1 not known (taken as 0) */
	int recursiveprot;
	int screen;		/* cgfs_for_screen: no watermarks read */
	int proc_given;		/* --proc */
	int sys_is_trees;	/* the system figures are the tree's host's */
	struct sysinfo_src *sys;
	struct cgfs_io io;
	struct cgfs_reader *rd;	/* plain, or recording (--record) */
	struct cgfs_tree *tree;	/* the walk or the BPF pass */
	/* The tree is a mounted cgroup filesystem (kernfs), so its pids
	 * are this host's: what cgfs_is_live() answers.  Its link counts
	 * are then trusted to tell a changed listing (cgfs_walk.c). */
	int kernfs;
	char bpf_why[300];	/* why not bpf; "" when in use */
	enum cgfs_collector collector;	/* asked (--collector) */
	unsigned fd_keep;	/* cgfs_opts' */
	char note[400];		/* said once: cgfs_take_note */
	int note_new;
	/* The refresh under way, from cgfs_begin to cgfs_end: what it was
	 * asked for and the hierarchy root it reads below (-1: none). */
	struct {
		fieldset fields;
		int maxdepth;
		struct cgfs_want want;
		char dir[PATH_MAX];
		int rootfd;
	} ask;
	struct sink *sink;	/* --record's, or NULL */
	int series_events;	/* a recording that kept the events' */
};

/* cgfs_find.c: the live files source's open (source.h), the version of
 * the tree in dir (cg->version; 0 or -errno with a reason in err), the
 * host's mode for its memory mount ("v1" "v2" "hybrid") and whether dir
 * is on a mounted cgroup filesystem. */
int cgfs_live_open(struct cgfs *cg, const struct cgfs_opts *opts, char *dir,
		   size_t dirlen, char *err, size_t errlen);
int cgfs_find_version(struct cgfs *cg, const char *dir, char *err,
		      size_t errlen);
const char *cgfs_host_mode(const char *mnt);
int cgfs_on_cgroupfs(const char *dir);
int cgfs_recursiveprot(const char *path, const char *at);

/* cgfs_group.c: opens the directory of a shown path ("/a/b") in the
 * current sample: the fd or -errno. */
int cgfs_open_group(struct cgfs *cg, const char *path);

#endif
