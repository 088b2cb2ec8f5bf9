#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/reclaim-v2.sh - the reclaim events (src/bpf/bpfev.c, through their
# test tool bpfevdump) against cgroup v2's memory.stat, in the test VM.
#
#   VM_KERNEL=7 tests/vm/reclaim-v2.sh     the seed scenario, twice
#   tests/vm/reclaim-v2.sh                 6.1: bpfevdump says "old"
#
# Environment:
#   VM_KERNEL          6.1 (default) or 7, as for tests/vm/vm.sh
#   BPFEVDUMP          the tool (default build/default/bpfevdump, made if
#                      missing)
#   MEMCGTOP           the memcgtop binary put into the guest beside it
#   RECLAIM_V2_TIMEOUT the VM's timeout in seconds (default 240)
#   CI=true            an unusable host is a failure, not a skip
#
# On 6.1 (no memcg tracepoints): bpfevdump exits 1 with exactly one line,
# "bpfevdump: old: the kernel has no count_memcg_events tracepoint (Linux
# 6.13 or later)", and nothing on stdout.
#
# On 7.x, the seed's scenario (VM_MEM=512M): below /sys/fs/cgroup/rcN,
# twenty groups apps/s1..s20 each read 4 MiB of a zram device once (page
# cache, kept by an open fd) and idle, beside big, which reads a 700 MiB
# zram device over and over: global pressure, kswapd.  Once every small
# group has been scanned the load is killed (its page cache goes with its
# fd, so that nothing reclaims any more) and the guest waits until
# /proc/vmstat's pgscan holds still over 1 s; a bpfevdump report then
# closes the interval; after 2.5 s (the kernel's periodic rstat flush runs
# every 2 s and flushes the whole tree) every memory.stat is copied twice
# (bracket: tests/vm/guest-lib.sh) around a last report.  Checks, per run:
#   - each group's pgscan/pgsteal kswapd/direct/khugepaged/proactive, and
#     pgscan and pgsteal, equal to bpfevdump's counts exactly (the groups
#     were made after it started), for the leaves and for apps and rcN
#     (hierarchical in memory.stat, subtree sums in bpfevdump); the two
#     copies of memory.stat equal (quiescent, flushed);
#   - scanning at a priority below 12 (sys scanned by priority);
#   - the shrink events attributed to a group (sys attributed/shrinks) at
#     least 90%: the order the attribution relies on;
#   - a small group's prio_min is at most log2 of its LRU pages (4 MiB:
#     1,024 pages, 10): a list is scanned size >> priority pages;
#   - memcgtop -b -F json's pgscan/pgsteal columns (another bracket, just
#     after) equal to memory.stat (json_check in reclaim_v2_check.py: a
#     bracket of any memcgtop JSON command is checked the same way);
#   - big's prio_min at most the small groups' lowest: kswapd scans every
#     group at each priority it reaches (checked when there was no direct
#     reclaim, whose walks stop early; INFO otherwise).  The seed's expectation, the
#     small groups' prio_min below big's, is printed as INFO with the
#     figures: it cannot hold for kswapd (see above).
# Run 1 is the multi-gen LRU (Debian's default, lru_gen enabled), run 2
# the classic LRU (lru_gen disabled).
#
# Output: PASS/FAIL/INFO lines and "reclaim-v2: N passed, M failed"; SKIP
# (exit 77) without qemu or the kernel, unless CI=true.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
export VM_MEM=512M
TMO=${RECLAIM_V2_TIMEOUT:-240}

NAME="reclaim v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary
kver=$(cat "$BUILD/kernel.version")

vm_tool BPFEVDUMP bpfevdump
vm_share reclaim-v2

{
	echo "MEMCGTOP=$bin"
	echo "BPFEVDUMP=$BPFEVDUMP"
	echo "JSON_COLUMNS=$(python3 "$HERE/reclaim_v2_check.py" --columns)"
	cat "$HERE/guest-lib.sh"
} > "$share/guest.sh"
cat >> "$share/guest.sh" <<'EOF'
uname -r > $H/out/uname
$BPFEVDUMP < /dev/null > $H/out/probe.out 2> $H/out/probe.err
echo $? > $H/out/probe.rc
if grep -q '^bpfevdump: old: ' $H/out/probe.err; then
	echo "GUEST-OK"
	exit 0
fi
w $CG/cgroup.subtree_control +memory
echo 100M > /sys/block/zram1/disksize || fail "zram1"
echo 700M > /sys/block/zram2/disksize || fail "zram2"

# The reporter: a report at each line on fd 9, into /tmp/ev.out.
mkfifo /tmp/ev.in || fail "mkfifo"
$BPFEVDUMP -t $CG < /tmp/ev.in > /tmp/ev.out 2> $H/out/ev.err &
exec 9> /tmp/ev.in
wait_for "bpfevdump ready" 300 grep -q '^ready' /tmp/ev.out
nrep=0
report() {
	echo >&9
	nrep=$((nrep + 1))
	wait_for "report $nrep" 300 sh -c "[ \$(grep -c '^end\$' /tmp/ev.out) -ge $nrep ]"
	echo "$1 $nrep" >> $H/out/reports
}
vmscan() { awk '$1 ~ /^pgscan_(kswapd|direct)$/ { s += $2 } END { printf "%.0f\n", s }' /proc/vmstat; }
quiet() {
	local a b
	a=$(vmscan)
	sleep 1
	b=$(vmscan)
	[ "$a" = "$b" ]
}
all_scanned() {
	local i
	for i in $(seq 20); do
		grep -q '^pgscan [1-9]' $1/apps/s$i/memory.stat || return 1
	done
}

# seed RUN LRU_GEN: the scenario in /sys/fs/cgroup/rcRUN
seed() {
	local T=$CG/rc$1 i pids big
	echo "$2" > /sys/kernel/mm/lru_gen/enabled || fail "lru_gen $2"
	echo "guest: run $1, lru_gen $(cat /sys/kernel/mm/lru_gen/enabled)"
	cat /sys/kernel/mm/lru_gen/enabled > $H/out/lru_gen.$1
	mkdir -p $T/apps $T/big || fail "mkdir $T"
	w $T/cgroup.subtree_control +memory
	w $T/apps/cgroup.subtree_control +memory
	for i in $(seq 20); do mkdir $T/apps/s$i || fail "mkdir s$i"; done
	report start$1
	pids=
	for i in $(seq 20); do
		sh -c 'echo $$ > "$0/cgroup.procs" && exec 3< /dev/zram1 &&
			dd if=/dev/zram1 of=/dev/null bs=64k skip=$(($1 * 64)) count=64 2>/dev/null &&
			touch /tmp/read.$2.$1 && exec sleep 100000' $T/apps/s$i $i $1 &
		pids="$pids $!"
	done
	wait_for "the small groups' reads" 600 sh -c "[ \$(ls /tmp/read.$1.* | wc -l) = 20 ]"
	sh -c 'echo $$ > "$0/cgroup.procs" && exec memload file /dev/zram2' $T/big > /dev/null 2>&1 &
	big=$!
	wait_for "every small group scanned" 900 all_scanned $T
	# Killed, not stopped: its fd on zram2 was the last, so its page cache
	# goes (truncation, not reclaim) and the copies below, which take
	# memory, cannot wake kswapd again.
	kill -KILL $big
	wait $big 2>/dev/null
	wait_for "reclaim to stop" 60 quiet
	report load$1
	sleep 2.5
	bracket stat$1 $T report final$1
	bracket json$1 $T $MEMCGTOP -b -F json -n 1 -c "$JSON_COLUMNS" /rc$1
	kill -KILL $pids 2>/dev/null
	wait $pids 2>/dev/null
	# page cache of the zram devices goes with their last fd
	sleep 1
}
seed 1 y
seed 2 n
exec 9>&-
wait
cp /tmp/ev.out $H/out/ev.out
save_brackets
echo "GUEST-OK"
EOF

set +e
vm_guest_run "$share" "$TMO" "$BPFEVDUMP"
tar -xf "$share/out/br.tar" -C "$share/out" 2>/dev/null
python3 "$HERE/reclaim_v2_check.py" "$share/out" "$kver"
