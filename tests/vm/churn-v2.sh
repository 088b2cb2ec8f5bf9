#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/churn-v2.sh - memcgtop watching a live cgroup v2 subtree in which
# several hundred groups are made and removed while it runs, in the qemu
# test VM (tests/vm/vm.sh: Debian's 6.1 kernel, a pure cgroup v2 hierarchy).
#
#   tests/vm/churn-v2.sh
#
# In the guest (busybox sh as root; +memory in the subtree_control of every
# inner group, processes only in leaves):
#   /churn, /churn/static, /churn/static/x  the static groups, for the whole
#        run; a sleep lives in static/x (its procs is 1), another one (the
#        mover) in the hierarchy root.
#   batch pass: `memcgtop -b -F json -d 0.1 -n 150 /churn` runs; after its
#        second iteration churnv2 (a small static C helper built on the host:
#        busybox sh is slow under TCG) makes and removes units gN, gN/s and,
#        for N % 4 in 1..2, gN/s/t below /churn (CHURN_V2_UNITS units, 300
#        by default: 750 groups, started over 9 s, at most 40 alive).  Odd
#        units live 0.2-2.5 s; even ones flash: removed within 20 ms, so
#        that memcgtop at times reads a group while it is removed.  Every
#        fifth gN gets memory.max 64M; the mover is moved into the deepest
#        group of every third unit and back to the root before the unit is
#        removed.  The helper logs every mkdir, rmdir, move and write with
#        its CLOCK_REALTIME time.  memcgtop's VmRSS, RssAnon and open
#        descriptors are sampled every 0.5 s (churnv2 rss); its descriptors
#        are also counted just before the churn and 3 iterations after it.
#   whole pass: `memcgtop -b -F json -d 0.1 -n 10` (the whole hierarchy)
#        during 60 more units of the same churn.
#
# Checks (host, python3 tests/vm/churn_v2_check.py):
#   the churn helper made and removed every group without an error;
#   batch: exit 0, empty stderr, every line a JSON object (mode v2) with a
#   groups array, iterations 1..150 in order; every row inside /churn and
#   the v2 root row "/" never in it; every path a static group or one the
#   helper made, depth = number of "/"; no path twice in an iteration; the
#   static groups in every iteration; every row with the same keys; rows in
#   tree order (each row's parent is the closest row above it one level up,
#   siblings by usage descending, ties by path); no churned row outside its
#   group's lifetime (iteration time vs mkdir/rmdir time, 2 s of slack: the
#   JSON time has whole seconds); the churn seen: at least half of the
#   groups living >= 0.2 s, all three levels; no half-read row (a group
#   removed while memcgtop reads it is left out, not shown with some of
#   its values null: of a v2 non-root row only soft, swappiness, failcnt,
#   reclaim_eff, use_pct, prio_min and rates may be null); procs > 0 (the mover) seen
#   in churned leaves and only in a leaf while the mover was there,
#   static/x always 1, the inner static groups 0; a group seen for the
#   first time has null rates, one seen the iteration before has
#   pgfault_per_s; churned groups show the kernel's defaults (high max,
#   low 0, min 0, swap_limit max) and limit max, or for the 64M units
#   max/64M and 64M once the write is 2 s old, eff_limit to match;
#   descriptors after the churn = those before it; RSS bound (below).
#   whole: exit 0, empty stderr, iterations 1..10, the first row of every
#   iteration is the root "/" at depth 0 with a usage and with limit, high,
#   low, min, soft, excess, eff_limit, use_pct, swap, swap_limit,
#   swappiness, failcnt and ev_* null (man page: THE V2 ROOT); every other
#   row a group of the run with its depth, no path twice, no half-read row,
#   tree order.
#
# RSS bound: after a warm-up of the first 5 s of the churn, VmRSS at the
# end (the last 5 samples, 2.5 s) must be within 512 KiB of the warm-up's
# largest value; a moment's peak above it is a NOTE (a BPF collector that
# loads its program again holds libbpf's parse of the kernel's BTF and new
# maps, 6 to 9 MiB, until the load ends).  Why 512 KiB: at most 40
# units (<= 100 groups; ~30 in practice, half of them flashing) are alive
# at once, so the per-group working set is a few hundred KiB at most,
# reached within the warm-up (units live <= 2.5 s; observed: VmRSS ~4.2
# MiB and RssAnon ~1.25 MiB at the warm-up peak, flat after it); a leak
# of the record of each removed group (~450 removed after warm-up, each a
# path, two samples of ~70 values and kept descriptors: > 640 bytes each)
# or of a few KiB per iteration (~100 iterations after warm-up) goes past
# it.  With an ASan build the bound is skipped (a note line, not counted): ASan's
# quarantine keeps freed memory.
#
# Run time: ~30 s (VM step ~28 s: boot ~4 s, batch pass ~16 s, whole pass
# ~5 s), on 2 busy cores under TCG.
#
# Output: one "PASS: ..." / "FAIL: ..." line per check, then
# "churn-v2: N passed, M failed"; exit 0 when all pass, 1 otherwise.
# Without qemu, the kernel package, gcc with a static libc or python3 (and no
# way to get them) it prints "SKIP: churn v2: REASON" and exits 77 -- unless
# CI=true, where that is a failure (exit 1).  A VM that does not boot is a
# failure.
#
# Environment:
#   MEMCGTOP          binary to test (default: REPO/memcgtop)
#   CHURN_V2_UNITS    units of the batch churn (default 300)
#   CHURN_V2_TIMEOUT  VM timeout in seconds (default 90)
#   CHURN_V2_KEEP=1   keep the share folder (build/vm/churn-v2-share) for
#                     inspection (it is always kept on failure)
#   VM_BUILD, VM_VERBOSE  as for tests/vm/vm.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
UNITS=${CHURN_V2_UNITS:-300}
TMO=${CHURN_V2_TIMEOUT:-90}
NITER=150
WHOLE_NITER=10
BOUND_KIB=512
WARMUP_S=5
t0=$(date +%s.%N)

NAME="churn v2"
. "$HERE/lib.sh"
[ "$(id -u)" = 0 ] || skip "not root (qemu's 9p share with security_model=none)"
vm_host_ready
vm_binary
asan=
grep -qa __asan_init "$bin" && asan=1

share=$BUILD/churn-v2-share
rm -rf "$share"
mkdir -p "$share/bin" "$share/out"

# churnv2: the guest's churn, RSS sampler and waiting, in C (static)
cat > "$share/churnv2.c" <<'CEOF'
/*
 * churnv2 load TROOT CGROOT UNITS SECONDS MAXALIVE MOVERPID LOG
 *     makes UNITS units below TROOT (gN, gN/s, gN/s/t for N % 4 in 1..2),
 *     started evenly over SECONDS, at most MAXALIVE alive, odd N living
 *     0.2-2.5 s, even N under 20 ms (removed within one refresh of
 *     memcgtop, at times while it reads them); N % 5 == 0: memory.max 64M
 *     in gN; N % 3 == 0: MOVERPID moved into
 *     the deepest group, back to CGROOT before removal.  Logs
 *     "mk|rm|in|out|max REALTIME_NS PATH" and "err ..." lines to LOG, a
 *     summary line to stdout; exit 0 when no error.
 * churnv2 rss PID OUT
 *     every 0.5 s until PID is gone: "MONO_S VMRSS_KIB NFDS RSSANON_KIB"
 *     to OUT
 * churnv2 fds PID
 *     prints PID's number of open descriptors between refreshes: the
 *     fewest of 50 counts 20 ms apart (a refresh holds one or two for a
 *     moment: the BPF iterator's, a group's directory)
 * churnv2 wait FILE NLINES SECS PID
 *     until FILE has NLINES lines (exit 0), PID is gone or SECS pass (1)
 * churnv2 mono
 *     prints CLOCK_MONOTONIC and CLOCK_REALTIME in seconds
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long long real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void nap(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static FILE *logf_;
static const char *troot;
static int nerr;

static void logp(const char *what, const char *rel)
{
	fprintf(logf_, "%s %lld %s\n", what, real_ns(), rel);
}

static void err(const char *what, const char *rel)
{
	fprintf(logf_, "err %lld %s %s: %s\n", real_ns(), what, rel,
		strerror(errno));
	nerr++;
}

static int put(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, val, strlen(val));
	close(fd);
	return n == (ssize_t)strlen(val) ? 0 : -1;
}

struct unit {
	int n, deep, moved, alive;
	double end;
};

static void rel_of(char *buf, size_t len, int n, int level)
{
	snprintf(buf, len, "g%d%s", n, level == 1 ? "" :
		 level == 2 ? "/s" : "/s/t");
}

static int make_unit(struct unit *u, const char *mover)
{
	char rel[64], path[512], f[600];

	for (int l = 1; l <= (u->deep ? 3 : 2); l++) {
		rel_of(rel, sizeof(rel), u->n, l);
		snprintf(path, sizeof(path), "%s/%s", troot, rel);
		if (mkdir(path, 0755) < 0) {
			err("mkdir", rel);
			return -1;
		}
		logp("mk", rel);
		if (l == 1 && u->n % 5 == 0) {
			snprintf(f, sizeof(f), "%s/memory.max", path);
			if (put(f, "64M") < 0)
				err("memory.max", rel);
			else
				logp("max", rel);
		}
		if (l < (u->deep ? 3 : 2)) {
			snprintf(f, sizeof(f), "%s/cgroup.subtree_control",
				 path);
			if (put(f, "+memory") < 0)
				err("subtree_control", rel);
		}
	}
	if (u->n % 3 == 0) {
		snprintf(f, sizeof(f), "%s/%s/cgroup.procs", troot, rel);
		if (put(f, mover) < 0) {
			err("move in", rel);
		} else {
			logp("in", rel);
			u->moved = 1;
		}
	}
	return 0;
}

static void remove_unit(struct unit *u, const char *mover, const char *cgroot)
{
	char rel[64], path[512], f[600];

	if (u->moved) {
		rel_of(rel, sizeof(rel), u->n, u->deep ? 3 : 2);
		snprintf(f, sizeof(f), "%s/cgroup.procs", cgroot);
		if (put(f, mover) < 0)
			err("move out", rel);
		else
			logp("out", rel);
		u->moved = 0;
	}
	for (int l = u->deep ? 3 : 2; l >= 1; l--) {
		int i;

		rel_of(rel, sizeof(rel), u->n, l);
		snprintf(path, sizeof(path), "%s/%s", troot, rel);
		for (i = 0; i < 200; i++) {
			if (rmdir(path) == 0 || errno == ENOENT)
				break;
			if (errno != EBUSY)
				break;
			nap(0.01);
		}
		if (access(path, F_OK) == 0)
			err("rmdir", rel);
		else
			logp("rm", rel);
	}
	u->alive = 0;
}

static int load(int argc, char **argv)
{
	const char *cgroot, *mover;
	int units, maxalive, made = 0, nalive = 0, maxseen = 0, groups = 0;
	int removed = 0, moved = 0;
	double secs, t0, step, next, deadline;
	struct unit *u;

	if (argc != 9)
		return 2;
	troot = argv[2];
	cgroot = argv[3];
	units = atoi(argv[4]);
	secs = atof(argv[5]);
	maxalive = atoi(argv[6]);
	mover = argv[7];
	logf_ = fopen(argv[8], "w");
	if (!logf_ || units <= 0 || maxalive <= 0 || secs <= 0)
		return 2;
	setvbuf(logf_, NULL, _IOFBF, 1 << 20);
	u = calloc((size_t)maxalive, sizeof(*u));
	if (!u)
		return 2;
	srand((unsigned)getpid() ^ (unsigned)real_ns());
	t0 = mono();
	step = secs / units;
	next = t0;
	deadline = t0 + secs + 20;
	while (made < units || nalive > 0) {
		double now = mono();

		for (int i = 0; i < maxalive; i++)
			if (u[i].alive && (u[i].end <= now || now > deadline)) {
				remove_unit(&u[i], mover, cgroot);
				removed += u[i].deep ? 3 : 2;
				nalive--;
			}
		if (now > deadline) {
			fprintf(logf_, "err %lld deadline: %d of %d units made\n",
				real_ns(), made, units);
			nerr++;
			break;
		}
		while (made < units && nalive < maxalive && now >= next) {
			int i = 0;

			while (u[i].alive)
				i++;
			u[i].n = made + 1;
			u[i].deep = (made + 1) % 4 == 1 || (made + 1) % 4 == 2;
			u[i].moved = 0;
			u[i].alive = 1;
			/* every other unit flashes: removed within 20 ms,
			 * at times while memcgtop reads it */
			u[i].end = mono() + ((made + 1) % 2 == 0 ?
					     0.02 * (rand() / (RAND_MAX + 1.0)) :
					     0.2 + 2.3 * (rand() / (RAND_MAX + 1.0)));
			made++;
			nalive++;
			groups += u[i].deep ? 3 : 2;
			next += step;
			if (make_unit(&u[i], mover) < 0) {
				/* removes what was made of it */
				u[i].end = 0;
			} else if (u[i].moved) {
				moved++;
			}
			if (nalive > maxseen)
				maxseen = nalive;
		}
		nap(0.005);
	}
	printf("units=%d groups=%d removed=%d moved=%d maxalive=%d secs=%.1f errors=%d\n",
	       made, groups, removed, moved, maxseen, mono() - t0, nerr);
	fclose(logf_);
	return nerr ? 1 : 0;
}

static int count_fds(const char *pid)
{
	char p[64];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(p, sizeof(p), "/proc/%s/fd", pid);
	d = opendir(p);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

/* VmRSS in KiB (-1: gone; a zombie has no VmRSS), RssAnon in *anon */
static long vmrss(const char *pid, long *anon)
{
	char p[64], line[256];
	FILE *f;
	long v = -1;

	snprintf(p, sizeof(p), "/proc/%s/status", pid);
	f = fopen(p, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "VmRSS:", 6) == 0)
			v = atol(line + 6);
		else if (anon && strncmp(line, "RssAnon:", 8) == 0)
			*anon = atol(line + 8);
	fclose(f);
	return v;
}

static int rss(int argc, char **argv)
{
	FILE *out;

	if (argc != 4 || !(out = fopen(argv[3], "w")))
		return 2;
	for (;;) {
		long a = -1, r = vmrss(argv[2], &a);
		int n = count_fds(argv[2]);

		if (r < 0 || n < 0)
			break;
		fprintf(out, "%.3f %ld %d %ld\n", mono(), r, n, a);
		fflush(out);
		nap(0.5);
	}
	fclose(out);
	return 0;
}

static long lines(const char *path)
{
	char buf[65536];
	long n = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < r; i++)
			n += buf[i] == '\n';
	close(fd);
	return n;
}

static int wait_lines(int argc, char **argv)
{
	double end;
	long want;
	pid_t pid;

	if (argc != 6)
		return 2;
	want = atol(argv[3]);
	end = mono() + atof(argv[4]);
	pid = (pid_t)atol(argv[5]);
	while (mono() < end) {
		if (lines(argv[2]) >= want)
			return 0;
		if (kill(pid, 0) < 0 || vmrss(argv[5], NULL) < 0)
			return 1;
		nap(0.02);
	}
	return 1;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "load") == 0)
		return load(argc, argv);
	if (argc >= 2 && strcmp(argv[1], "rss") == 0)
		return rss(argc, argv);
	if (argc == 3 && strcmp(argv[1], "fds") == 0) {
		int least = count_fds(argv[2]);

		for (int i = 1; i < 50 && least >= 0; i++) {
			int n;

			usleep(20000);
			n = count_fds(argv[2]);
			if (n >= 0 && n < least)
				least = n;
		}
		printf("%d\n", least);
		return 0;
	}
	if (argc >= 2 && strcmp(argv[1], "wait") == 0)
		return wait_lines(argc, argv);
	if (argc == 2 && strcmp(argv[1], "mono") == 0) {
		printf("%.3f %.3f\n", mono(), real_ns() / 1e9);
		return 0;
	}
	fprintf(stderr, "usage: churnv2 load|rss|fds|wait|mono ...\n");
	return 2;
}
CEOF
gcc -O2 -Wall -static -o "$share/bin/churnv2" "$share/churnv2.c" 2>"$share/gcc.log" ||
	skip "cannot build the static churnv2 helper (static libc missing?): $(head -n 1 "$share/gcc.log")"

# ---------------------------------------------------------------- guest --
cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
UNITS=$UNITS
NITER=$NITER
WHOLE_NITER=$WHOLE_NITER
EOF
cat >> "$share/guest.sh" <<'EOF'
# runs in the VM (busybox sh as root), cwd = the 9p share
set -u
H=/mnt/host
CG=/sys/fs/cgroup
T=$CG/churn
O=/tmp/o
PATH=$H/bin:$PATH
mkdir -p $O
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $H/out/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
note() { echo "guest: $*"; }
export LC_ALL=C.UTF-8 TZ=UTC

w $CG/cgroup.subtree_control +memory
mkdir -p $T/static/x || fail "mkdir $T/static/x"
w $T/cgroup.subtree_control +memory
w $T/static/cgroup.subtree_control +memory
sh -c 'echo $$ > "$0/cgroup.procs" && exec sleep 1000' $T/static/x &
sleep 1000 &
mover=$!
i=0
until [ "$(cat $T/static/x/cgroup.procs)" != "" ]; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "the static/x sleeper did not start"
	sleep 0.05
done

# ---- batch pass on the subtree
churnv2 mono > $O/clock
$MEMCGTOP -b -F json -d 0.1 -n $NITER /churn > $O/b.out 2> $O/b.err &
mp=$!
churnv2 rss $mp $O/b.rss &
churnv2 wait $O/b.out 2 30 $mp || fail "memcgtop printed no 2 iterations: $(head -c 300 $O/b.err)"
churnv2 fds $mp > $O/fds.before
churnv2 mono > $O/churn1.start
churnv2 load $T $CG $UNITS 9 40 $mover $O/churn1.log > $O/churn1.sum
echo $? > $O/churn1.rc
churnv2 mono > $O/churn1.end
note "churn 1: $(cat $O/churn1.sum)"
n=$(wc -l < $O/b.out)
if churnv2 wait $O/b.out $((n + 3)) 30 $mp; then
	churnv2 fds $mp > $O/fds.after
else
	echo "memcgtop printed only $(wc -l < $O/b.out) lines" > $O/fds.after
fi
i=0
while kill -0 $mp 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ]; then
		echo "memcgtop still running 60 s after the churn: killed" > $O/b.killed
		kill -9 $mp
		break
	fi
	sleep 0.1
done
wait $mp
echo $? > $O/b.rc
churnv2 mono > $O/b.end
note "batch: memcgtop exited $(cat $O/b.rc), $(wc -l < $O/b.out) lines"
ls -d $T/g* > $O/left1 2>/dev/null

# ---- whole hierarchy during more churn
churnv2 load $T $CG 60 3 20 $mover $O/churn2.log > $O/churn2.sum &
cp=$!
$MEMCGTOP -b -F json -d 0.1 -n $WHOLE_NITER > $O/w.out 2> $O/w.err
echo $? > $O/w.rc
wait $cp
echo $? > $O/churn2.rc
note "churn 2: $(cat $O/churn2.sum); whole: memcgtop exited $(cat $O/w.rc)"
ls -d $T/g* > $O/left2 2>/dev/null

tar -C $O -cf $H/out/guest.tar . || fail "copy out"
sync
echo "GUEST-OK"
EOF

# ------------------------------------------------------------------ run --
echo "== churn v2: -b -F json -d 0.1 -n $NITER /churn during $UNITS units of churn; whole hierarchy -n $WHOLE_NITER"
set +e
vm_guest_run "$share" "$TMO"
grep '^guest:' "$share/console.log"
mkdir -p "$share/out/g"
tar -C "$share/out/g" -xf "$share/out/guest.tar" || fail_early "cannot unpack $share/out/guest.tar"

# --------------------------------------------------------------- checks --
python3 "$HERE/churn_v2_check.py" "$share/out/g" "$NITER" "$WHOLE_NITER" \
	"$WARMUP_S" "$BOUND_KIB" "${asan:-0}"
prc=$?
echo "churn-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
if [ "$prc" = 0 ] && [ "${CHURN_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
elif [ "$prc" != 0 ]; then
	echo "churn-v2: output kept in $share" >&2
fi
[ "$prc" = 0 ] || [ "$prc" = 1 ] || fail_early "the checker failed (status $prc)"
exit "$prc"
