#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/protect-v2.sh - effective protection (eff_min, eff_low and v2's
# excess = usage - eff_low; src/model/model.c protection_all) against the
# kernel under real GLOBAL reclaim, in the test VM (512 MiB, zram swap,
# cgroup2 mounted with memory_recursiveprot by tests/vm/vm.sh), on Debian
# 12's 6.1 kernel or on a Debian 7.x one (VM_KERNEL=7).
#
#   tests/vm/protect-v2.sh
#   VM_KERNEL=7 tests/vm/protect-v2.sh
#
# In the guest: /pv (memory.low 96M) with a (low 64M; 60 MiB of anonymous
# memory, memload anon), b (low 64M; 60 MiB of page cache, a 60 MiB zram
# device read over and over) and c (low 0) whose child c/x has low 32M
# (24 MiB of page cache, a 24 MiB zram device).  a and b claim 120 MiB of
# /pv's 96: each one's eff_low is a share.  /hog, a top-level sibling of
# /pv with no protection and no limit anywhere, reads a 1 GiB zram device
# over and over: page cache far beyond the VM's RAM, global reclaim (the
# reclaim root is the hierarchy root, as memcgtop's eff values assume).
#
#   phase 0  at rest, a, b and c/x in place: `memcgtop -b -F json -n 2 -d 1
#            -c path,usage,low,min,eff_low,eff_min,excess,ev_low /`
#   phase 1  the hog runs until /proc/vmstat's pgscan_* grew by 80 MiB;
#            then the same with -n 10 while it goes on
#   phase 2  a's load is killed (a+b claim less than /pv's 96M: c gets
#            the unclaimed rest); -n 5 while the hog goes on
#   phase 3  the hog's load is killed and its page cache reclaimed (its
#            memory.reclaim), swap off (swapoff /dev/zram0); the hog maps
#            MemAvailable - /pv's usage - 16 MiB of anonymous memory, then
#            16 MiB more at a time until /pv's memory.events has low
#            events (at most MemAvailable + 64 MiB): memory that can only
#            come from the protected page cache of b and c/x, so reclaim
#            breaches their protection; it holds it (and b and c/x read on)
#            while memcgtop -n 8 runs
# Around each memcgtop run every group's memory.events, .events.local,
# memory.stat, memory.current, memory.low, memory.min and memory.max are
# copied, and
# /proc/vmstat.  tests/vm/protect_v2_check.py checks (see there):
#   a  eff_min, eff_low and excess of every row = tests/golden/verify.py's
#      protection(recursive=True) of the same rows
#   b  global reclaim ran during phases 1 to 3 (vmstat pgscan/pgsteal);
#      a group memcgtop never saw protected in a phase (usage > eff_low, or
#      eff_low 0, in every sample) got no memory.events.local low in that
#      phase; at least one group was protected in some sample; which groups
#      got low events (INFO, with numbers)
#   c  c/x's eff_low > 0 in phase 2 (memory_recursiveprot; without it 0)
#   d  under global reclaim (phases 1 and 2) the kernel's stored
#      protections of the top-level groups, eff_low_last and eff_min_last,
#      are their own memory.low and memory.min exactly (the kernel gives
#      a child of the reclaim root its settings); the root has none;
#      below, eff_low_last = eff_low within 2 MiB + 3 % (what usage moved
#      between the kernel's reclaim and memcgtop's read) in the last
#      sample of phases 1 and 2 (phase 3's: INFO); stats_pending has a
#      value for every group (the root too) on 6.8+ and none on 6.1
#   phase 3: low events in memory.events.local (which groups: in the PASS
#      line), and (b) for them too
#
# Output: PASS/FAIL/INFO lines and "protect-v2: N passed, M failed"; SKIP
# (exit 77) without qemu or the kernel, unless CI=true.
#
# Environment:
#   VM_KERNEL           6.1 (default) or 7, as for tests/vm/vm.sh
#   MEMCGTOP            the memcgtop binary to test (default: ./memcgtop of
#                       this tree, made up to date)
#   PROTECT_V2_LRU_GEN  written to /sys/kernel/mm/lru_gen/enabled where the
#                       kernel has it (y, n); empty (default): as the kernel
#                       boots (6.1: the classic LRU, 7.x: the multi-gen one)
#   PROTECT_V2_TIMEOUT  the VM's timeout in seconds (default 600)
#   PROTECT_V2_KEEP=1   keep the share folder (build/vm*/protect-v2-share;
#                       always kept on failure)
#   CI=true             an unusable host is a failure, not a skip
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${PROTECT_V2_TIMEOUT:-600}
t0=$(date +%s.%N)

NAME="protect v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
vm_share protect-v2

COLS=path,usage,low,min,eff_low,eff_min,excess,ev_low,eff_low_last,eff_min_last,stats_pending

{
	echo "MEMCGTOP=$bin"
	echo "COLS=$COLS"
	echo "LRU_GEN=${PROTECT_V2_LRU_GEN:-}"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
T=$CG/pv
O=/tmp/o
GROUPS="pv pv/a pv/b pv/c pv/c/x hog"
mkdir -p $O
uname -r > $O/uname
note() { echo "guest: $(cut -d" " -f1 /proc/uptime) s: $*"; }
# start NAME GROUP CMD..: CMD in GROUP, in the background, output in
# /tmp/NAME.out
start() {
	local name=$1 g=$2
	shift 2
	sh -c 'cg=$1; shift; echo $$ > "$cg/cgroup.procs" && exec "$@"' sh $CG/$g "$@" \
		> /tmp/$name.out 2>&1 &
}
# snapshot NAME: every group's files and /proc/vmstat into $O/NAME
snapshot() {
	local g d
	for g in $GROUPS; do
		d=$O/$1/$(echo $g | tr / _)
		mkdir -p $d
		for f in memory.events memory.events.local memory.stat memory.current \
			 memory.low memory.min memory.max; do
			cat $CG/$g/$f > $d/$f
		done
	done
	cat /proc/vmstat > $O/$1/vmstat
	cat /proc/meminfo > $O/$1/meminfo
}
# run NAME N: memcgtop -n N -d 1 from the root, between snapshots
# NAME.before and NAME.after
run() {
	snapshot $1.before
	note "$1: memcgtop -b -F json -n $2 -d 1 -c $COLS /"
	$MEMCGTOP -b -F json -n $2 -d 1 -c "$COLS" / > $O/$1.json 2> $O/$1.err
	echo $? > $O/$1.rc
	snapshot $1.after
}
scanned() { awk '/^pgscan_/ { s += $2 } END { printf "%.0f\n", s }' /proc/vmstat; }
reclaimed() { [ $(($(scanned) - base)) -gt $((80 * 256)) ]; }
small() { [ "$(cat $T/a/memory.current)" -lt $((2 << 20)) ]; }

grep -q zram0 /proc/swaps || fail "no zram swap"
grep cgroup2 /proc/mounts > $O/mounts
grep -q memory_recursiveprot $O/mounts || fail "cgroup2 not mounted with memory_recursiveprot: $(cat $O/mounts)"
if [ -n "$LRU_GEN" ] && [ -e /sys/kernel/mm/lru_gen/enabled ]; then
	w /sys/kernel/mm/lru_gen/enabled $LRU_GEN
fi
cat /sys/kernel/mm/lru_gen/enabled > $O/lru_gen 2>/dev/null
w /sys/block/zram1/disksize 1G
w /sys/block/zram2/disksize 60M
w /sys/block/zram3/disksize 24M
w $CG/cgroup.subtree_control +memory
mkdir -p $T/a $T/b $T/c/x $CG/hog || fail "mkdir"
w $T/cgroup.subtree_control +memory
w $T/c/cgroup.subtree_control +memory
w $T/memory.low 96M
w $T/a/memory.low 64M
w $T/b/memory.low 64M
w $T/c/x/memory.low 32M

start a pv/a memload anon 60
la=$!
start b pv/b memload file /dev/zram2
lb=$!
start x pv/c/x memload file /dev/zram3
lx=$!
wait_for "a ready" 1800 grep -q ready /tmp/a.out
wait_for "b ready" 1800 grep -q ready /tmp/b.out
wait_for "x ready" 1800 grep -q ready /tmp/x.out
sleep 1

# phase 0: at rest
run p0 2

# phase 1: global reclaim, the hog's page cache
base=$(scanned)
start hog hog memload file /dev/zram1
lh=$!
wait_for "global reclaim (80 MiB scanned)" 3000 reclaimed
run p1 10

# phase 2: a's load gone, c gets /pv's unclaimed protection
kill -KILL $la
wait $la 2>/dev/null
wait_for "a's memory freed" 600 small
run p2 5

# phase 3: breach.  The hog's page cache reclaimed (memory.reclaim: its
# own reclaim root), no swap: the hog's anonymous memory, once it is
# more than what is free, can only come from the protected page cache of
# b and c/x
kill -KILL $lh
wait $lh 2>/dev/null
echo 1G > $CG/hog/memory.reclaim 2>/dev/null
swapoff /dev/zram0 || fail "swapoff"
sleep 1
avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
prot=$(($(cat $T/memory.current) >> 20))
lowev() { awk '$1 == "low" { print $2 }' $T/memory.events; }
ev0=$(lowev)
snapshot p3.before
# MemAvailable less /pv's usage less 16 MiB, then 16 MiB more at a time
# until /pv has low events (MemAvailable is an estimate) or the hog holds
# MemAvailable + 64 MiB
chunk=$((avail - prot - 16))
note "p3: MemAvailable $avail MiB, /pv $prot MiB: the hog maps $chunk MiB, then 16 MiB at a time"
hogs=
i=0
total=0
while :; do
	start hog3.$i hog memload anon $chunk
	pid=$!
	hogs="$hogs $pid"
	total=$((total + chunk))
	wait_for "hog's chunk $i ($chunk MiB, $total in all)" 1800 \
		sh -c 'grep -q ready "$0" || ! kill -0 "$1"' /tmp/hog3.$i.out $pid
	sleep 1
	[ "$(lowev)" -gt "$ev0" ] && break
	i=$((i + 1))
	[ $total -lt $((avail + 64)) ] || break
	chunk=16
done
echo "$avail $prot $total $((i + 1))" > $O/p3.sizes
alive=0
for p in $hogs; do kill -0 $p 2>/dev/null && alive=$((alive + 1)); done
echo "$alive" > $O/p3.hogalive
note "p3: the hog holds $total MiB in $((i + 1)) chunks ($alive alive)"
note "p3: memcgtop -b -F json -n 8 -d 1 -c $COLS /"
$MEMCGTOP -b -F json -n 8 -d 1 -c "$COLS" / > $O/p3.json 2> $O/p3.err
echo $? > $O/p3.rc
snapshot p3.after
dmesg | grep -i -E 'out of memory|killed process' > $O/p3.oom

kill -KILL $hogs $lb $lx
wait 2>/dev/null
for n in a b x hog; do cp /tmp/$n.out $O/$n.out; done
note "saving"
tar -cf /tmp/o.tar -C /tmp o && dd if=/tmp/o.tar of=$H/out/o.tar bs=1M 2>/dev/null ||
	fail "cannot archive the outputs into the share"
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"
grep '^guest:' "$share/console.log" | tr -d '\r'
tar -xmf "$share/out/o.tar" -C "$share/out" || fail_early "cannot unpack the guest's outputs"
python3 "$HERE/protect_v2_check.py" "$share/out/o" "$ROOT/tests/golden"
prc=$?
echo "protect-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (VM step $vmsecs s)" >&2
if [ "$prc" = 0 ] && [ "${PROTECT_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
elif [ "$prc" != 0 ]; then
	echo "protect-v2: output kept in $share" >&2
fi
[ "$prc" = 0 ] || [ "$prc" = 1 ] || fail_early "the checker failed (status $prc)"
exit "$prc"
