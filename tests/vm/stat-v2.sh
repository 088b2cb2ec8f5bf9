#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/stat-v2.sh - memory.stat in the BPF pass (src/source/cgfs_prove.c,
# src/source/cgfs_pass.c: words of memcg->vmstats proven against the start
# group's memory.stat) against cgroup v2's memory.stat, in the test VM, on
# Debian 12's 6.1 kernel or on a Debian 7.x one (VM_KERNEL=7).
#
#   tests/vm/stat-v2.sh
#   VM_KERNEL=7 tests/vm/stat-v2.sh
#
# Environment:
#   VM_KERNEL          6.1 (default) or 7, as for tests/vm/vm.sh
#   MEMCGTOP           the memcgtop binary to test (default: ./memcgtop of
#                      this tree, made up to date)
#   STAT_V2_ITER       refreshes of the long run (-d 1; default 35 on 6.1,
#                      45 on 7.x, slower under TCG): they must outlast the
#                      loads (about 15) with some to spare at rest
#   STAT_V2_LRU_GEN    written to /sys/kernel/mm/lru_gen/enabled where the
#                      kernel has it: n (default) the classic LRU, y the
#                      multi-gen LRU (Debian 7.x's default), empty: as the
#                      kernel boots.  Under the multi-gen LRU the reclaim of
#                      d's and k's clean page cache steals every page it
#                      scans: scan and steal words of the same value, which
#                      no proof tells apart, so the pass never took pgscan
#                      for one word there and check 1 passed before the
#                      fix too
#   STAT_V2_TIMEOUT    the VM's timeout in seconds (default 300)
#   CI=true            an unusable host is a failure, not a skip
#
# In the guest, /sys/fs/cgroup/bv holds d (memory.max 16M, reading a 64 MiB
# zram device over and over: page cache reclaimed at its limit, direct
# reclaim only), k (reading a 448 MiB zram device, page cache filling most
# of the VM's 512 MiB: kswapd) and a (memory.max 16M, 24 MiB of anonymous
# memory: swapped out).  The regression: memory.stat's pgscan is a SUM
# (kswapd + direct + khugepaged + proactive; 7.x: also anon + file, each a
# word); a sum was "proven" to the one word that held its value at the
# time (6.1: pgscan_direct while only direct reclaim had run; 7.x: the
# file word while only page cache had been reclaimed), so that later the
# pass gave pgscan = that part.
#   1  d runs until /bv's memory.stat has pgscan_direct > 0 (and
#      pgscan_kswapd 0), then stops (SIGSTOP); one long
#      `memcgtop -b -F json -d 1 -n STAT_V2_ITER --collector bpf -c
#      path,pgscan,pgsteal,..._kswapd,..._direct,the LRU lists,anon,file,
#      refault_file,pgfault and memstat.h's newer sizes (file_mapped ... sock) /bv` starts; after two refreshes k starts and
#      runs until its memory.stat has pgscan_kswapd > 0; the loads are
#      killed; three refreshes at rest; a runs until its 24 MiB are in
#      place (2 s more) and is killed.  The long run goes on at rest;
#      every group's memory.stat is copied once memcgtop printed its last
#      but one refresh and again once it exited: each value of each group
#      in the LAST refresh must equal the file's (a key that moved between
#      the two copies is left out, INFO; at least two thirds of the values
#      compared), the run used the bpf collector all along, and the
#      scenario held (/bv: direct reclaim only when the run started,
#      kswapd's too when k stopped; a reclaimed).  pgscan and pgsteal of
#      each group also equal the sum of the file's parts.  INFO: the
#      refreshes in which /bv's pgscan was below its pgscan_kswapd +
#      pgscan_direct (the bug's trace).
#   2  at rest, a fresh `memcgtop --collector bpf -b -F json -n 1` of the
#      LRU view's and the mission view's columns (usage, the LRU lists,
#      pgscan, pgsteal) equal to the files, bracketed the same way.
#   2b the same with MEMCGTOP_BPF_KFUNC=0: the CO-RE reads of
#      memcg->vmstats alone, where 2 took the kernel's memcg kfuncs (7.x).
#   3  `memcgtop -VV /` prints "memory.stat: N of M values from the pass
#      (K through the kernel's memcg kfuncs ...": on 7.x K > 0 (the
#      LRU lists, pgscan and pgsteal among them: check 4 then sees no
#      value read from the files), on 6.1 K = 0 and the reason (the
#      kernel lacks them); with MEMCGTOP_BPF_KFUNC=0 K = 0 and that
#      reason (N, M and K as INFO).
#   4  where the kernel has the memcg:memcg_flush_stats tracepoint (7.x;
#      6.1 has none: INFO), with d's page cache in place before k starts,
#      counted through tracefs (set_event_pid: memcgtop's pid only) over
#      runs of -n 11 and -n 1 (-d 0.05; the difference is 10 refreshes):
#      the LRU view's columns and the mission view's with --collector bpf
#      make at most one stats flush per refresh, unless memcgtop says it
#      reads values it could not prove from the files (then a memory.stat
#      per group, by design: the count is INFO; 7.x's pgscan and pgsteal,
#      sums with no rule there, always are); the files collector's one per
#      group and refresh are seen (at least 40).
#
# Output: PASS/FAIL/INFO lines and "stat-v2: N passed, M failed"; SKIP
# (exit 77) without qemu or the kernel, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
case ${VM_KERNEL:-6.1} in
6.1) ITER=${STAT_V2_ITER:-35} ;;
*) ITER=${STAT_V2_ITER:-45} ;;
esac
TMO=${STAT_V2_TIMEOUT:-300}
t0=$(date +%s.%N)

NAME="stat v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
vm_share stat-v2

COLS=path,pgscan,pgsteal,pgscan_kswapd,pgscan_direct,pgsteal_kswapd,pgsteal_direct,active_anon,inactive_anon,active_file,inactive_file,unevictable,anon,file,refault_file,pgfault,file_mapped,file_dirty,file_writeback,swapcached,anon_thp,file_thp,slab_reclaimable,slab_unreclaimable,kernel_stack,pagetables,sock
# the LRU view's and the mission view's columns a single refresh gives
FRESH=path,usage,active_anon,inactive_anon,active_file,inactive_file,unevictable,pgscan,pgsteal
LRU=path,usage,active_anon,inactive_anon,active_file,inactive_file,unevictable
MISSION=path,usage,soft,excess,active_anon,inactive_anon,active_file,inactive_file,pgscan_per_s,pgsteal_per_s

{
	echo "MEMCGTOP=$bin"
	echo "ITER=$ITER"
	echo "LRU_GEN=${STAT_V2_LRU_GEN-n}"
	echo "COLS=$COLS"
	echo "FRESH=$FRESH"
	echo "LRU=$LRU"
	echo "MISSION=$MISSION"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
T=$CG/bv
O=/tmp/o
TR=/sys/kernel/tracing
mkdir -p $O
uname -r > $O/uname
now() { cut -d" " -f1 /proc/uptime; }
note() { echo "guest: $(now) s: $*"; }
# every group's memory.stat and memory.current, into FILE
statsnap() {
	for g in $T $T/d $T/k $T/a; do
		echo "== ${g#$CG}"
		cat $g/memory.stat
		echo "memory.current $(cat $g/memory.current)"
	done > "$1"
}
lines() { [ -f "$1" ] && wc -l < "$1" || echo 0; }

grep -q zram0 /proc/swaps || fail "no zram swap"
if [ -n "$LRU_GEN" ] && [ -e /sys/kernel/mm/lru_gen/enabled ]; then
	w /sys/kernel/mm/lru_gen/enabled $LRU_GEN
fi
cat /sys/kernel/mm/lru_gen/enabled > $O/lru_gen 2>/dev/null
w /sys/block/zram1/disksize 64M
w /sys/block/zram2/disksize 448M
w $CG/cgroup.subtree_control +memory
mkdir -p $T/d $T/k $T/a || fail "mkdir"
w $T/cgroup.subtree_control +memory
w $T/d/memory.max 16M
w $T/a/memory.max 16M

# d: page cache through memory.max 16M, direct reclaim only
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload file /dev/zram1' $T/d > /tmp/d.out 2>&1 &
ld=$!
wait_for "d ready" 1200 grep -q ready /tmp/d.out
wait_for "pgscan_direct > 0 in bv" 1200 sh -c "! grep -q '^pgscan_direct 0$' $T/memory.stat"
kill -STOP $ld
sleep 1

# 4: stats flushes per refresh, counted through tracefs for memcgtop's pid
[ -d $TR/events ] || mount -t tracefs tracefs $TR 2>/dev/null
# COLLECTOR COLUMNS N ERRFILE: the memcg_flush_stats events of one run
flushes() {
	echo 0 > $TR/tracing_on
	echo > $TR/trace
	echo 1 > $TR/events/memcg/memcg_flush_stats/enable
	echo 1 > $TR/tracing_on
	sh -c 'echo $$ > /sys/kernel/tracing/set_event_pid && exec "$@"' sh \
		$MEMCGTOP --collector $1 -b -n $3 -d 0.05 -c "$2" /bv > /dev/null 2> $4
	echo "rc $?"
	echo 0 > $TR/tracing_on
	echo > $TR/set_event_pid
	echo 0 > $TR/events/memcg/memcg_flush_stats/enable
	grep -c 'memcg_flush_stats:' $TR/trace
	grep -o 'entries-written: [0-9]*/[0-9]*' $TR/trace
}
if [ -d $TR/events/memcg/memcg_flush_stats ]; then
	note "counting stats flushes"
	# the files collector once, to show that the count sees its flushes
	for run in "LRU bpf" "MISSION bpf" "LRU files"; do
		set -- $run
		eval cols=\$$1
		for n in 1 11; do
			echo "$1 $2 $n $(flushes $2 $cols $n $O/flush-$1-$2-$n.err | tr '\n' ' ')"
		done
	done > $O/flush.txt
else
	echo "none: no $TR/events/memcg/memcg_flush_stats" > $O/flush.txt
fi

# 1: the long run, started with direct reclaim only in /bv
statsnap $O/start.stat
note "the long run: $ITER refreshes"
$MEMCGTOP -b -F json -d 1 -n $ITER --collector bpf -c "$COLS" /bv > $O/long.json 2> $O/long.err &
mc=$!
wait_for "two refreshes of the long run" 1200 sh -c "[ \$(wc -l < $O/long.json) -ge 2 ]"
# k: page cache filling most of RAM, kswapd
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload file /dev/zram2' $T/k > /tmp/k.out 2>&1 &
lk=$!
wait_for "pgscan_kswapd > 0 in bv/k" 1800 sh -c "! grep -q '^pgscan_kswapd 0$' $T/k/memory.stat"
sleep 2
kill -KILL $lk $ld
wait $lk $ld 2>/dev/null
statsnap $O/kswapd.stat
# three refreshes at rest (a proof made now holds file reclaim only),
# then a: anonymous memory through memory.max 16M, swapped out
r=$(($(lines $O/long.json) + 3))
wait_for "refresh $r" 1200 sh -c "[ \$(wc -l < $O/long.json) -ge $r ]"
sh -c 'echo $$ > "$0/cgroup.procs" && exec memload anon 24' $T/a > /tmp/a.out 2>&1 &
la=$!
wait_for "a ready" 1800 grep -q ready /tmp/a.out
sleep 2
kill -KILL $la
wait $la 2>/dev/null
statsnap $O/stopped.stat
note "loads stopped at refresh $(lines $O/long.json)"
kill -0 $mc 2>/dev/null && [ "$(lines $O/long.json)" -lt $((ITER - 1)) ] ||
	fail "the long run's $ITER refreshes ended before the loads stopped (raise STAT_V2_ITER)"
# the copies around the last refresh: one once the last but one is out
while [ "$(lines $O/long.json)" -lt $((ITER - 1)) ] && kill -0 $mc 2>/dev/null; do
	sleep 0.1
done
statsnap $O/long-A.stat
echo "$(now) $(lines $O/long.json)" > $O/long-A.when
wait $mc
echo $? > $O/long.rc
statsnap $O/long-B.stat
note "the long run done"

# 2: a fresh run at rest
statsnap $O/fresh-A.stat
$MEMCGTOP --collector bpf -b -F json -n 1 -c "$FRESH" /bv > $O/fresh.json 2> $O/fresh.err
echo $? > $O/fresh.rc
statsnap $O/fresh-B.stat

# 2 again through CO-RE reads of memcg->vmstats only (the kfuncs off)
statsnap $O/core-A.stat
MEMCGTOP_BPF_KFUNC=0 $MEMCGTOP --collector bpf -b -F json -n 1 -c "$FRESH" /bv > $O/core.json 2> $O/core.err
echo $? > $O/core.rc
statsnap $O/core-B.stat

# 3: -VV, with the kfuncs where the kernel has them and without
$MEMCGTOP -VV / > $O/vv.txt 2>&1
echo $? > $O/vv.rc
MEMCGTOP_BPF_KFUNC=0 $MEMCGTOP -VV / > $O/vv-core.txt 2>&1
echo $? > $O/vv-core.rc

note "saving"
tar -cf /tmp/o.tar -C /tmp o && dd if=/tmp/o.tar of=$H/out/o.tar bs=1M 2>/dev/null ||
	fail "cannot archive the outputs into the share"
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO"
tar -xmf "$share/out/o.tar" -C "$share/out" || fail_early "cannot unpack the guest's outputs"
echo "INFO: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s so far (the VM $vmsecs s)"
python3 "$HERE/stat_v2_check.py" "$share/out/o" "$ITER" "$COLS" "$FRESH"
