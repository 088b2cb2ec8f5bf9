#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# capture-v1.sh - capture the v1-live fixture from this host's cgroup v1
# memory controller.
#
# Usage (as root, from anywhere):  tests/capture/capture-v1.sh [OUTDIR]
#   OUTDIR defaults to tests/fixtures/v1-live of this checkout.
#
# Builds a test tree /sys/fs/cgroup/memory/memcgtop-cap-$$ with known loads,
# waits until they are in place, takes five samples about one second apart
# and stores them as OUTDIR/cg/{0..4,timestamps} and OUTDIR/proc/{0..4,
# timestamps}, with the test tree renamed to /fixture.  The tree:
#
#   /fixture                      no settings
#   /fixture/web                  limit 256M, soft limit 128M
#   /fixture/web/frontend         anon 40M, soft limit 16M, swappiness 30
#   /fixture/web/backend          anon 60M
#   /fixture/batch                no settings
#   /fixture/batch/cache          limit 32M, rereads a 128 MiB file: limit
#                                 reclaim all the time, failcnt climbs
#   /fixture/batch/hog            limit 24M, anon 64M, no swap: memcg OOM kill
#   /fixture/batch/deep           no settings
#   /fixture/batch/deep/leaf      anon 8M, swappiness 100
#   /fixture/idle                 nothing, all defaults (unlimited)
#
# Everything it creates (groups, temporary directory, processes) is removed
# on exit, also on failure or interrupt.  It kills only the pids it started.
# Exit status 0 only when the sanity checks pass: failcnt of batch/cache
# grows between every two samples and oom_kill of batch/hog is 1.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${1:-$top/tests/fixtures/v1-live}
mnt=/sys/fs/cgroup/memory
name=memcgtop-cap-$$
base=$mnt/$name
nsamples=5

die() { echo "capture-v1: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "must run as root"
[ -f $mnt/memory.usage_in_bytes ] || die "no cgroup v1 memory controller at $mnt"

tmp=$(mktemp -d /var/tmp/memcgtop-cap.XXXXXX) || die "mktemp failed"
pids=()
groups=()   # created groups, parents first

cleanup() {
	local p g i
	for p in "${pids[@]}"; do
		kill -KILL "$p" 2>/dev/null
	done
	for p in "${pids[@]}"; do
		wait "$p" 2>/dev/null
	done
	# Deepest first; a group whose last task just died may need a moment.
	for ((i = ${#groups[@]} - 1; i >= 0; i--)); do
		g=${groups[i]}
		[ -d "$g" ] || continue
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			rmdir "$g" 2>/dev/null && break
			sleep 0.2
		done
		[ -d "$g" ] && echo "capture-v1: could not remove $g" >&2
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

mkgroup() {  # mkgroup REL: create $base/REL
	mkdir "$base/$1" || die "mkdir $base/$1 failed"
	groups+=("$base/$1")
}

setval() {  # setval REL FILE VALUE
	local f=$base/$1/memory.$2
	echo "$3" >"$f" || die "write $3 to $f failed"
}

# start REL TAG ARGS...: run memload ARGS in group REL from its first
# instruction on (the shell moves itself, then execs), stdout to TAG.out.
start() {
	local rel=$1 tag=$2
	shift 2
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh \
		"$base/$rel" "$tmp/memload" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err" &
	pids+=($!)
}

wait_ready() {  # wait_ready TAG...: every TAG.out says "ready" (60 s max)
	local t ok
	for _ in $(seq 600); do
		ok=1
		for t in "$@"; do
			grep -q '^ready$' "$tmp/$t.out" 2>/dev/null || ok=0
		done
		[ $ok = 1 ] && return 0
		sleep 0.1
	done
	die "loads not ready: $* (see $tmp)"
}

oom_kill() {  # oom_kill DIR: the oom_kill count of memory.oom_control
	awk '$1 == "oom_kill" { print $2 }' "$1/memory.oom_control"
}

# --- helpers ---------------------------------------------------------------
gcc -O2 -static -o "$tmp/memload" "$top/tests/load/memload.c" ||
	die "cannot build memload"
gcc -O2 -o "$tmp/stamp" "$here/stamp.c" || die "cannot build stamp.c"
gcc -O2 -o "$tmp/v1copy" "$here/v1copy.c" || die "cannot build v1copy"

# The file for batch/cache, written with O_DIRECT so that none of it sits in
# the page cache charged to our own (root) group: a page already cached is
# not charged again to the group that reads it, and then the cache group
# would never reach its limit.
dd if=/dev/zero of="$tmp/data" bs=1M count=128 oflag=direct status=none ||
	die "cannot write $tmp/data"
dd of="$tmp/data" oflag=nocache conv=notrunc,fdatasync count=0 status=none

# --- the tree --------------------------------------------------------------
mkdir "$base" || die "mkdir $base failed"
groups+=("$base")
for g in web web/frontend web/backend batch batch/cache batch/hog \
	batch/deep batch/deep/leaf idle; do
	mkgroup $g
done
setval web limit_in_bytes 256M
setval web soft_limit_in_bytes 128M
setval web/frontend soft_limit_in_bytes 16M
setval web/frontend swappiness 30
setval batch/cache limit_in_bytes 32M
setval batch/hog limit_in_bytes 24M
setval batch/deep/leaf swappiness 100

start web/frontend frontend anon 40
start web/backend backend anon 60
start batch/cache cache file "$tmp/data"
start batch/deep/leaf leaf anon 8
start batch/hog hog anon 64   # bash reports it "Killed": that is expected
wait_ready frontend backend cache leaf

# batch/hog never says ready: it is OOM-killed while touching its pages.
for _ in $(seq 100); do
	[ "$(oom_kill "$base/batch/hog")" = 1 ] && break
	sleep 0.1
done
[ "$(oom_kill "$base/batch/hog")" = 1 ] || die "batch/hog was not OOM-killed"

sleep 2   # settle

# --- sampling --------------------------------------------------------------
stage=$tmp/stage
mkdir -p "$stage/cg" "$stage/proc"
: >"$stage/cg/timestamps"
rels=()
while IFS= read -r d; do
	rels+=("${d#"$base"}")
done < <(find "$base" -type d | sort)

next=
for ((s = 0; s < nsamples; s++)); do
	if [ -n "$next" ]; then
		# Start each sample one second after the previous one started.
		now=$("$tmp/stamp" | cut -d' ' -f1)
		sleep "$(awk -v n="$now" -v t="$next" \
			'BEGIN { d = t - n; printf "%.3f", (d > 0 ? d : 0) }')"
	fi
	ts=$("$tmp/stamp")
	next=$(awk -v t="${ts%% *}" 'BEGIN { printf "%.9f", t + 1 }')
	args=(-d "$mnt" "$stage/cg/$s")
	mkdir -p "$stage/cg/$s" "$stage/proc/$s/pressure"
	for r in "${rels[@]}"; do
		mkdir -p "$stage/cg/$s/fixture$r"
		args+=(-d "$base$r" "$stage/cg/$s/fixture$r")
	done
	args+=(-f /proc/meminfo "$stage/proc/$s/meminfo"
	       -f /proc/vmstat "$stage/proc/$s/vmstat"
	       -f /proc/pressure/memory "$stage/proc/$s/pressure/memory")
	"$tmp/v1copy" "${args[@]}" || die "sample $s failed"
	echo "$ts" >>"$stage/cg/timestamps"
	# The root's cgroup.procs lists every pid of the host: keep it empty.
	: >"$stage/cg/$s/cgroup.procs"
	[ -s "$stage/proc/$s/pressure/memory" ] || rmdir "$stage/proc/$s/pressure"
done
cp "$stage/cg/timestamps" "$stage/proc/timestamps"

# --- summary and checks ----------------------------------------------------
val() {  # val SAMPLE REL FILE [STATKEY]
	local f=$stage/cg/$1/fixture$2/$3
	if [ $# -ge 4 ]; then
		awk -v k="$4" '$1 == k { print $2 }' "$f" 2>/dev/null
	else
		cat "$f" 2>/dev/null
	fi
}
last=$((nsamples - 1))
printf '%-24s %10s %20s %20s %7s %4s %10s %10s  %s\n' group usage limit soft \
	failcnt oom total_rss total_cache "failcnt 0..$last"
for r in "${rels[@]}"; do
	fc=
	for ((s = 0; s < nsamples; s++)); do
		fc+="$(val $s "$r" memory.failcnt) "
	done
	printf '%-24s %10s %20s %20s %7s %4s %10s %10s  %s\n' "/fixture$r" \
		"$(val $last "$r" memory.usage_in_bytes)" \
		"$(val $last "$r" memory.limit_in_bytes)" \
		"$(val $last "$r" memory.soft_limit_in_bytes)" \
		"$(val $last "$r" memory.failcnt)" \
		"$(val $last "$r" memory.oom_control oom_kill)" \
		"$(val $last "$r" memory.stat total_rss)" \
		"$(val $last "$r" memory.stat total_cache)" "$fc"
done
awk '{ print "timestamp", NR - 1, $0 }' "$stage/cg/timestamps"

ok=1
prev=
for ((s = 0; s < nsamples; s++)); do
	cur=$(val $s /batch/cache memory.failcnt)
	if [ -n "$prev" ] && ! [ "$cur" -gt "$prev" ]; then
		echo "check failed: batch/cache failcnt did not grow in sample $s ($prev -> $cur)" >&2
		ok=0
	fi
	prev=$cur
done
for ((s = 0; s < nsamples; s++)); do
	k=$(val $s /batch/hog memory.oom_control oom_kill)
	if [ "$k" != 1 ]; then
		echo "check failed: batch/hog oom_kill is '$k' in sample $s" >&2
		ok=0
	fi
done
# Content bytes (what git stores), not 4 KiB blocks per small file.
size=$(du -sk --apparent-size "$stage" | cut -f1)
echo "fixture size: ${size} KiB in $(find "$stage" -type f | wc -l) files"
[ "$size" -lt 1024 ] || { echo "check failed: fixture is not < 1 MB" >&2; ok=0; }
[ $ok = 1 ] || die "sanity checks failed; $out left unchanged"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
cp -r "$stage" "$out" || die "cannot write $out"
echo "capture-v1: wrote $out"
