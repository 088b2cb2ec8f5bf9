#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/capture/capture-v2.sh - capture the live cgroup v2 fixture series
# tests/fixtures/v2-live/{cg,proc} in the qemu test VM (tests/vm/vm.sh).
#
#   tests/capture/capture-v2.sh [OUTDIR]     (default tests/fixtures/v2-live)
#
# Environment: SAMPLES (5), SETTLE (seconds of reclaim before sampling, 4),
# CAPTURE_TIMEOUT (VM timeout, 300).  See tests/capture/README.md.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${VM_BUILD:-$ROOT/build/vm}
OUT=${1:-$ROOT/tests/fixtures/v2-live}
SAMPLES=${SAMPLES:-5}
SETTLE=${SETTLE:-4}

t0=$(date +%s.%N)
"$ROOT/tests/vm/vm.sh" prepare
share=$BUILD/capture-share
rm -rf "$share"
mkdir -p "$share"
gcc -O2 -static -o "$share/memload" "$ROOT/tests/load/memload.c"
gcc -O2 -static -o "$share/stamp" "$HERE/stamp.c"
gcc -O2 -static -o "$share/snap" "$HERE/snap.c"

cat > "$share/guest.sh" <<EOF
SAMPLES=$SAMPLES
SETTLE=$SETTLE
EOF
cat >> "$share/guest.sh" <<'EOF'
# runs in the VM (busybox sh), cwd = the 9p share
set -u
H=/mnt/host
CG=/sys/fs/cgroup
F=$CG/fixture
PATH=$H:$PATH
fail() { echo "CAPTURE-FAIL: $*"; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }

# zram0 is the swap (set up by init); zram1 and zram2 are never-written
# block devices whose buffered reads make page cache (one per reading group:
# page cache is charged to the first reader)
w /sys/block/zram1/disksize 96M
w /sys/block/zram2/disksize 448M

# hierarchy: processes only in leaves, +memory in every inner group
w $CG/cgroup.subtree_control +memory
mkdir -p $F/work/reclaim $F/work/cache $F/work/deep/leaf $F/oom \
	$F/protected $F/idle $F/bulk
w $F/cgroup.subtree_control +memory
w $F/work/cgroup.subtree_control +memory
w $F/work/deep/cgroup.subtree_control +memory
# protection must be granted from the top for memory_recursiveprot to pass
# it down to the leaves
w $F/memory.min 32M
w $F/memory.low 128M
w $F/work/memory.max 160M
w $F/work/memory.high 144M
w $F/work/memory.min 8M
w $F/work/memory.low 32M
w $F/work/reclaim/memory.max 48M
w $F/work/reclaim/memory.swap.max max
w $F/work/cache/memory.max 32M
w $F/work/cache/memory.low 8M
w $F/work/deep/leaf/memory.min 4M
w $F/work/deep/leaf/memory.low 16M
w $F/oom/memory.max 24M
w $F/oom/memory.swap.max 0
w $F/protected/memory.low 64M
w $F/protected/memory.min 16M
w $F/protected/memory.high 200M

start() { # GROUP NAME memload-args...
	g=$1 n=$2
	shift 2
	sh -c 'echo $$ > "$0/cgroup.procs" && exec memload "$@"' "$g" "$@" \
		> /tmp/$n.out 2>&1 &
}
start $F/work/reclaim reclaim anon 80
start $F/work/cache cache file /dev/zram1
start $F/work/deep/leaf leaf anon 12
start $F/oom oom anon 64
start $F/protected protected anon 40

waitfor() { # NAME SECS
	i=0
	while ! grep -q ready /tmp/$1.out 2>/dev/null; do
		i=$((i + 1))
		[ $i -le $(($2 * 10)) ] || fail "$1 not ready after $2 s: $(cat /tmp/$1.out)"
		sleep 0.1
	done
	echo "capture: $1 ready"
}
for n in reclaim cache leaf protected; do waitfor $n 120; done
# the global page cache load starts once the others are in place, so that it
# is kswapd (not the loads' own faults) that meets it
start $F/bulk bulk file /dev/zram2
waitfor bulk 120
i=0
until grep -q '^oom_kill 1$' $F/oom/memory.events; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "no OOM kill in fixture/oom: $(cat $F/oom/memory.events)"
	sleep 0.1
done
echo "capture: oom killed: $(tr '\n' ' ' < $F/oom/memory.events)"
sleep $SETTLE

O=/tmp/fx
mkdir -p $O/cg $O/proc
n=0
while [ $n -lt $SAMPLES ]; do
	# samples start 1 s apart (or as soon as the previous one is done)
	sleep 1 &
	tick=$!
	stamp >> $O/cg/timestamps
	snap $CG fixture $O/cg/$n $O/proc/$n || fail "snap $n"
	n=$((n + 1))
	[ $n -lt $SAMPLES ] && wait $tick
done
cp $O/cg/timestamps $O/proc/timestamps
# every load but the OOM victim must still be running at the end
for g in work/reclaim work/cache work/deep/leaf protected bulk; do
	grep -q . $F/$g/cgroup.procs || fail "the load in $g died"
done
# stop the loads, then copy out as one file (9p is slow per file)
for g in work/reclaim work/cache work/deep/leaf protected bulk; do
	echo 1 > $F/$g/cgroup.kill
done
tar -C $O -cf $H/out.tar cg proc || fail "copy out"
sync
echo "capture: done"
EOF

"$ROOT/tests/vm/vm.sh" run "$share" "${CAPTURE_TIMEOUT:-300}" || {
	rc=$?
	echo "capture-v2: FAIL: guest status $rc; $(grep -m1 CAPTURE-FAIL "$share/console.log" || echo "see $share/console.log")" >&2
	exit 1
}
mkdir -p "$share/out"
tar -C "$share/out" -xf "$share/out.tar"
[ -s "$share/out/cg/timestamps" ] || { echo "capture-v2: FAIL: no fixture in $share/out.tar" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
cp -r "$share/out/cg" "$share/out/proc" "$OUT/"
echo "capture-v2: wrote $OUT ($(du -sk --apparent-size "$OUT" | cut -f1) KiB apparent, $(find "$OUT" -type f | wc -l) files) in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

# sanity report from the last sample
last=$(( $(wc -l < "$OUT/cg/timestamps") - 1 ))
S=$OUT/cg/$last
echo "last sample $last ($(sed -n "$((last + 1))p" "$OUT/cg/timestamps")):"
printf '%-22s %10s %10s  %-44s %s\n' group current max events stat
find "$S" -mindepth 1 -type d | sort | while read -r d; do
	g=${d#"$S"/}
	cur=$(cat "$d/memory.current" 2>/dev/null || echo -)
	max=$(cat "$d/memory.max" 2>/dev/null || echo -)
	ev=$(awk '$1 != "oom_group_kill" { printf "%s=%s ", $1, $2 }' "$d/memory.events" 2>/dev/null)
	st=$(awk '$1 ~ /^(pgscan|pgsteal)(_kswapd|_direct)?$/ || $1 ~ /^workingset_refault_/ { sub("workingset_", "", $1); printf "%s=%s ", $1, $2 }' "$d/memory.stat" 2>/dev/null)
	printf '%-22s %10s %10s  %-44s %s\n' "$g" "$cur" "$max" "$ev" "$st"
done
printf '%-22s %s\n' "(root)" "$(awk '$1 ~ /^(pgscan|pgsteal)(_kswapd|_direct)?$/ || $1 ~ /^workingset_refault_/ { sub("workingset_", "", $1); printf "%s=%s ", $1, $2 }' "$S/memory.stat")"
printf '%-22s %s\n' "(vmstat)" "$(awk '$1 ~ /^(pgscan|pgsteal)_(kswapd|direct)$/ || $1 ~ /^(workingset_refault_|oom_kill|pswp)/ { printf "%s=%s ", $1, $2 }' "$OUT/proc/$last/vmstat")"
