#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# lock.sh [SIZE...] - how long other processes' mkdir of a cgroup waits
# while memcgtop reads the tree (make bench).  As root, on the cgroup v1
# memory hierarchy.
#
# Making or removing a cgroup takes the kernel's cgroup_mutex, which the
# bpf collector's cgroup iterator holds while it walks, and which systemd
# and container runtimes wait for.  For each SIZE (default 8192 30000) it
# builds a tree of that many groups (tests/bench/tree.sh), then, for each
# interval D in $DS (default "1 0.05"), runs $REPS rounds (default 3); a
# round runs each case once, in this order, so that the machine's drift
# hits them all alike:
#
#   alone       the prober only ($LOCKPROBE, default build/default/lockprobe,
#               made from tests/bench/lockprobe.c by make bench): for
#               $SECS seconds (default 5), mkdir and rmdir of its own group
#               /TREE/lockprobe at random times, $MEAN_US apart on average
#               (default 1000: a Poisson stream, whose mkdirs meet the lock
#               as often as it is held), each mkdir timed
#   files       the same beside memcgtop -b -n 0 -d D --collector files
#               -c usage,limit /TREE >/dev/null ($MEMCGTOP, default
#               ./memcgtop), started 1.5 s before (its first pass done)
#   bpf         the same with --collector bpf
#   bpf-old     the same with $MEMCGTOP_OLD, when set (a build of an
#               earlier version)
#   bpf:CHUNK   for each CHUNK in $CHUNKS (default none), bpf with
#               MEMCGTOP_BPF_CHUNK=CHUNK (BUDGET_US[,GAP_US]: a chunk's
#               recording time and the pause after it, -1 none, 0
#               sched_yield; see the man page): to compare budgets and gaps
#
# Then one table per SIZE and D: the mkdirs of all rounds pooled, their
# p50, p99 and max in microseconds, p99 and max over alone's, and
# memcgtop's CPU (user + sys from /proc/PID/stat over the probe's seconds)
# in ms per second.  Also the time one pass holds the mutex: bpfdump
# (build/default/bpfdump, $BPFDUMP) in one read and in chunks, its own
# measure (the program's first call to its last, bpfdump's held_us and
# max_held_us).  No timing is judged.  Everything it makes is removed on
# exit, on failure too; only its own processes are ended.
set -u
export LC_ALL=C

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
CGM=${CGM:-/sys/fs/cgroup/memory}
SIZES=${*:-8192 30000}
DS=${DS:-1 0.05}
REPS=${REPS:-3}
SECS=${SECS:-5}
MEAN_US=${MEAN_US:-1000}
CHUNKS=${CHUNKS:-}
MEMCGTOP=${MEMCGTOP:-$TOP/memcgtop}
MEMCGTOP_OLD=${MEMCGTOP_OLD:-}
BPFDUMP=${BPFDUMP:-$TOP/build/default/bpfdump}
NAME=memcgtop-lock-$$
RAW=
mpid=

die() { echo "lock.sh: $*" >&2; exit 1; }

cleanup() {
	if [ -n "$mpid" ]; then
		kill "$mpid" 2>/dev/null
		wait "$mpid" 2>/dev/null
	fi
	rmdir "$CGM/$NAME/lockprobe" 2>/dev/null
	"$HERE/tree.sh" destroy "$NAME" >/dev/null 2>&1
	[ -n "$RAW" ] && rm -rf "$RAW"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

[ "$(id -u)" = 0 ] || die "needs root"
[ -d "$CGM" ] || die "$CGM: no cgroup v1 memory hierarchy"
for b in "$MEMCGTOP" $MEMCGTOP_OLD; do
	[ -x "$b" ] || die "$b: not an executable"
done
PROBE=${LOCKPROBE:-$TOP/${BUILD:-build/default}/lockprobe}
[ -x "$PROBE" ] || die "no $PROBE (make $PROBE)"
# Copied once: a rebuild during the run cannot mix two versions.
RAW=$(mktemp -d /tmp/memcgtop-lock.XXXXXX) || die "mktemp failed"
cp "$MEMCGTOP" "$RAW/new" || die "cannot copy $MEMCGTOP"
NEW=$RAW/new
OLD=
if [ -n "$MEMCGTOP_OLD" ]; then
	cp "$MEMCGTOP_OLD" "$RAW/old" || die "cannot copy $MEMCGTOP_OLD"
	OLD=$RAW/old
fi

cases() {
	echo alone files bpf
	[ -n "$OLD" ] && echo bpf-old
	for c in $CHUNKS; do echo "bpf:$c"; done
}

# cpu_ticks PID: its user + system time in clock ticks.
cpu_ticks() {
	awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

# run CASE D OUT: one probe run, its mkdirs appended to OUT, memcgtop's CPU
# (ms per second) to OUT.cpu.
run() {
	local c=$1 d=$2 out=$3 bin=$NEW coll t0 t1 env=()
	case $c in
	alone) ;;
	files) coll=files ;;
	bpf) coll=bpf ;;
	bpf-old) coll=bpf bin=$OLD ;;
	bpf:*) coll=bpf env=("MEMCGTOP_BPF_CHUNK=${c#bpf:}") ;;
	esac
	if [ "$c" != alone ]; then
		env "${env[@]}" "$bin" -b -n 0 -d "$d" --collector "$coll" \
			-c usage,limit "/$NAME" >/dev/null &
		mpid=$!
		sleep 1.5
		kill -0 "$mpid" 2>/dev/null || die "$c: memcgtop exited"
		t0=$(cpu_ticks "$mpid")
	fi
	"$PROBE" -r -i "$MEAN_US" "$CGM/$NAME/lockprobe" "$SECS" |
		grep -v '^count=' >>"$out" || die "lockprobe failed"
	if [ "$c" != alone ]; then
		t1=$(cpu_ticks "$mpid")
		kill "$mpid" 2>/dev/null
		wait "$mpid" 2>/dev/null
		mpid=
		awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" -v s="$SECS" \
			'BEGIN { printf "%.1f\n", (b - a) * 1000 / hz / s }' >>"$out.cpu"
	fi
}

# table SIZE D: the pooled figures of each case.
table() {
	local size=$1 d=$2 c f
	printf '\n%s groups, -d %s (%s rounds of %s s, mkdirs %s us apart on average)\n' \
		"$size" "$d" "$REPS" "$SECS" "$MEAN_US"
	printf '%-14s %7s %8s %8s %9s %8s %8s %7s\n' case mkdirs p50_us p99_us max_us \
		p99/alone max/alone cpu_ms/s
	for c in $(cases); do
		f=$RAW/$size-$d-$c
		python3 - "$f" "$RAW/$size-$d-alone" "$c" <<'EOF'
import os, statistics, sys
f, alone, case = sys.argv[1:]
def stats(p):
    v = sorted(float(x) for x in open(p))
    q = lambda x: v[min(len(v) - 1, int(x * (len(v) - 1) + 0.5))]
    return len(v), q(0.5), q(0.99), v[-1]
n, p50, p99, mx = stats(f)
_, _, a99, amx = stats(alone)
cpu = "-"
if os.path.exists(f + ".cpu"):
    cpu = "%.1f" % statistics.median(float(x) for x in open(f + ".cpu"))
print("%-14s %7d %8.0f %8.0f %9.0f %8.2f %8.2f %7s"
      % (case, n, p50, p99, mx, p99 / a99, mx / amx, cpu))
EOF
	done
}

# held SIZE: the program's own measure of one pass's time under the mutex.
held() {
	local b
	[ -x "$BPFDUMP" ] || { echo "(no $BPFDUMP: pass times not measured)"; return; }
	printf '\n%s groups, one pass (bpfdump -w usage,max -n 10, its last pass)\n' "$1"
	for b in 0 "" $CHUNKS; do
		printf '  %-16s %s\n' "chunk ${b:-default}" \
			"$(MEMCGTOP_BPF_CHUNK=$b "$BPFDUMP" -w usage,max -q -n 10 \
				"$CGM/$NAME" | sed 's/.*\(chunks=\)/\1/')"
	done
}

for size in $SIZES; do
	"$HERE/tree.sh" create "$NAME" "$size" >/dev/null || die "cannot build the tree"
	for d in $DS; do
		for r in $(seq "$REPS"); do
			for c in $(cases); do
				run "$c" "$d" "$RAW/$size-$d-$c"
			done
		done
		table "$size" "$d"
	done
	held "$size"
	"$HERE/tree.sh" destroy "$NAME" >/dev/null || die "cannot remove the tree"
done
