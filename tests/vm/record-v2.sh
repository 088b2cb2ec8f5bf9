#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/record-v2.sh - --record with the BPF collector on cgroup v2: the
# pass's values kept as their files' text (src/source/cgfs_keep.c
# cgfs_keep_pass, cgfs_keep_stat), DIR/info's "collector bpf", and the replay
# (--root DIR) printing what the live run printed, in the test VM, on
# Debian 12's 6.1 kernel or on a Debian 7.x one (VM_KERNEL=7).  The v2
# counterpart of the BPF section of tests/live/record.sh (v1, host).
#
#   tests/vm/record-v2.sh
#   VM_KERNEL=7 tests/vm/record-v2.sh
#
# In the guest (busybox sh as root; +memory in the subtree_control of the
# root and /rv): /rv with a (memory.low 32M, memory.min 8M, memory.high
# 48M; 24 MiB of anonymous memory held by memload) and b (memory.max 16M,
# memory.swap.max 32M; a 64 MiB zram device read with dd until b's
# memory.stat has pgscan > 0, then read over and over by memload while
# memcgtop records, so that reclaim moves the values between samples).
#
#   1  `memcgtop --collector bpf -b -F json -n 3 -d 0.3 -c COLS --record
#      DIR /rv` (COLS: the limits and protections, swap, the LRU lists,
#      anon, file, shmem, kernel, pgscan and its parts, pgfault,
#      refault_file, memory.events, peak), then `memcgtop -b -F json -n 3
#      -c COLS --root DIR /rv`: exit 0 both, no message but "not proven"
#      (INFO), the two outputs byte for byte the same, DIR/info says
#      "collector bpf", every live and replayed line "collector":"bpf".
#   2  the same for the default view (-b -n 2 -d 0.3, text, no -c).
#   3  the same from the hierarchy root (/) with -c path,usage,active_file,
#      anon: the root's usage (v2: memory.stat anon + file + kernel + sock,
#      src/source/cgfs_v2.c v2_finish) a number in every live and
#      replayed sample, within 10% of what --collector files gives just
#      before and after.  The same (a number, byte for byte) with -c
#      path,usage (no memory.stat column asked) and for the default view
#      from the root (text: the root row's USAGE not "-").  INFO: both
#      -c lists live with the pass but without --record.
#   4  the recorded files of the last sample (its slot: the third field of
#      DIR/timestamps' last line): DIR/SLOT/rv/b/memory.max is the kernel's
#      text of memory.max, DIR/SLOT/rv/a/memory.stat's "anon N" the anon
#      the live run printed for /rv/a in that sample.
#
# Output: PASS/FAIL/INFO lines and "record-v2: N passed, M failed"; SKIP
# (exit 77) without qemu or the kernel, unless CI=true.
#
# Environment:
#   VM_KERNEL          6.1 (default) or 7, as for tests/vm/vm.sh
#   MEMCGTOP           the memcgtop binary to test (default: ./memcgtop of
#                      this tree, made up to date)
#   RECORD_V2_TIMEOUT  the VM's timeout in seconds (default 300)
#   RECORD_V2_KEEP=1   keep the share folder (build/vm*/record-v2-share;
#                      always kept on failure)
#   CI=true            an unusable host is a failure, not a skip
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${RECORD_V2_TIMEOUT:-300}
t0=$(date +%s.%N)

NAME="record v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
vm_share record-v2

COLS=path,usage,limit,high,low,min,swap,swap_limit,active_anon,inactive_anon,active_file,inactive_file,unevictable,anon,file,shmem,kernel,pgscan,pgsteal,pgscan_kswapd,pgscan_direct,pgfault,refault_file,ev_low,ev_high,ev_max,ev_oom,ev_oom_kill,peak
RCOLS=path,usage,active_file,anon

{
	echo "MEMCGTOP=$bin"
	echo "COLS=$COLS"
	echo "RCOLS=$RCOLS"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
T=$CG/rv
O=/tmp/o
mkdir -p $O
uname -r > $O/uname
note() { echo "guest: $(cut -d" " -f1 /proc/uptime) s: $*"; }
# NAME DIR ARGS..: a live run recording into DIR, then its replay
# (REPLAY_ARGS), outputs in NAME.live/.replay(.err, .rc)
rec() {
	local name=$1 dir=$2
	shift 2
	note "$name: memcgtop --collector bpf $* --record $dir"
	rm -rf $dir
	$MEMCGTOP --collector bpf "$@" --record $dir > $O/$name.live 2> $O/$name.live.err
	echo $? > $O/$name.live.rc
}
replay() {
	local name=$1 dir=$2
	shift 2
	note "$name: memcgtop $* --root $dir"
	$MEMCGTOP "$@" --root $dir > $O/$name.replay 2> $O/$name.replay.err
	echo $? > $O/$name.replay.rc
	cp -a $dir $O/$name.rec
}
# the root's memory.stat (and a files run of the root columns) into NAME
rootsnap() {
	$MEMCGTOP --collector files -b -F json -n 1 -c "$RCOLS" --depth 0 / > $O/$1.files.json 2> $O/$1.files.err
	cp $CG/memory.stat $O/$1.root.stat
}

grep -q zram0 /proc/swaps || fail "no zram swap"
w /sys/block/zram1/disksize 64M
w $CG/cgroup.subtree_control +memory
mkdir -p $T/a $T/b || fail "mkdir"
w $T/cgroup.subtree_control +memory
w $T/a/memory.low 32M
w $T/a/memory.min 8M
w $T/a/memory.high 48M
w $T/b/memory.max 16M
w $T/b/memory.swap.max 32M

# a: 24 MiB of anonymous memory, held
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 24' $T/a > /tmp/a.out 2>&1 &
la=$!
wait_for "a ready" 1800 grep -q ready /tmp/a.out
# b: 64 MiB of page cache through memory.max 16M: reclaim
sh -c 'echo $$ > "$0/cgroup.procs" && exec dd if=/dev/zram1 of=/dev/null bs=1M' $T/b > /tmp/dd.out 2>&1 ||
	fail "dd in b: $(cat /tmp/dd.out)"
grep -q '^pgscan [1-9]' $T/b/memory.stat || fail "no reclaim in b: $(grep pgscan $T/b/memory.stat | tr '\n' ' ')"
cp $T/b/memory.stat $O/b.stat.dd
# and over and over while memcgtop records
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload file /dev/zram1' $T/b > /tmp/b.out 2>&1 &
lb=$!
wait_for "b's load ready" 1800 grep -q ready /tmp/b.out
for f in memory.max memory.swap.max; do cat $T/b/$f > $O/b.$f; done
for f in memory.low memory.min memory.high; do cat $T/a/$f > $O/a.$f; done

# 1: many columns, JSON
rec json /tmp/rj -b -F json -n 3 -d 0.3 -c "$COLS" /rv
replay json /tmp/rj -b -F json -n 3 -c "$COLS" /rv
# 2: the default view
rec text /tmp/rd -b -n 2 -d 0.3 /rv
replay text /tmp/rd -b -n 2 /rv
cp $T/b/memory.stat $O/b.stat.end
kill -KILL $lb
wait $lb 2>/dev/null

# 3: from the root
rootsnap before
rec root /tmp/rr -b -F json -n 3 -d 0.3 -c "$RCOLS" /
replay root /tmp/rr -b -F json -n 3 -c "$RCOLS" /
rootsnap after
# usage alone (no memory.stat column) and the default view
rec rootu /tmp/ru -b -F json -n 3 -d 0.3 -c path,usage /
replay rootu /tmp/ru -b -F json -n 3 -c path,usage /
rec rootd /tmp/rdd -b -n 2 -d 0.3 /
replay rootd /tmp/rdd -b -n 2 /
$MEMCGTOP --collector files -b -n 1 / > $O/rootd.files 2>&1
note "root: the pass without --record"
$MEMCGTOP --collector bpf -b -F json -n 3 -d 0.3 -c "$RCOLS" / > $O/rootnorec.json 2> $O/rootnorec.err
echo $? > $O/rootnorec.rc
$MEMCGTOP --collector bpf -b -F json -n 3 -d 0.3 -c path,usage / > $O/rootusage.json 2> $O/rootusage.err
echo $? > $O/rootusage.rc
kill -KILL $la
wait $la 2>/dev/null

note "saving"
tar -cf /tmp/o.tar -C /tmp o && dd if=/tmp/o.tar of=$H/out/o.tar bs=1M 2>/dev/null ||
	fail "cannot archive the outputs into the share"
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"
grep '^guest:' "$share/console.log" | tr -d '\r'
tar -xmf "$share/out/o.tar" -C "$share/out" || fail_early "cannot unpack the guest's outputs"
python3 "$HERE/record_v2_check.py" "$share/out/o" "$COLS" "$RCOLS"
prc=$?
echo "record-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (VM step $vmsecs s)" >&2
if [ "$prc" = 0 ] && [ "${RECORD_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
elif [ "$prc" != 0 ]; then
	echo "record-v2: output kept in $share" >&2
fi
[ "$prc" = 0 ] || [ "$prc" = 1 ] || fail_early "the checker failed (status $prc)"
exit "$prc"
