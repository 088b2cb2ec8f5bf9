#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# pending-v1.sh - stats_pending (a group's statistics updates not yet
# flushed, as the kernel weighs them against its flush threshold) and the
# header's flush_threshold, against the kernel's own report: the
# memcg:memcg_flush_stats tracepoint gives the group's count at each
# flush request, and reading a group's memory.stat makes one.
#
# Usage (as root):  tests/live/pending-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-pending-PID-N/x and runs
#   memcgtop -b -F json -d 0.05 -c path,stats_pending,prio_min /TREE
# (prio_min loads the reclaim events, which give the threshold); then,
# up to 5 tries (the kernel's periodic flush every 2 s may come between
# the two reads):
#   - x's memory.stat is read (a flush of x if over the threshold), a
#     task in x reads 400 KiB of a sparse file (page cache: counted
#     updates; a write's writeback accounting would flush);
#   - two lines of memcgtop later, under perf record -e
#     memcg:memcg_flush_stats -a, x's memory.stat is read again: the
#     request's stats_updates for x must be x's stats_pending in the
#     line before.
# Then x, idle and flushed by that read: stats_pending 0 two lines later.
# flush_threshold is 64 x the online CPUs.  PASS:/FAIL: lines, then "live-pending-v1: N passed, M failed".
# Not root, no writable v1 memory mount, no perf or the kernel lacks the
# counts (before 6.8): SKIP, exit 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live pending v1"
. "$here/lib.sh"
live_tree_setup pending
mcpid=
finish() {
	[ -n "$mcpid" ] && stop_pids "$mcpid"
	live_tree_cleanup
}
trap finish EXIT
abort() { fail "$NAME: $*"; finish; summary; exit 1; }
command -v perf >/dev/null || cannot_run "no perf (Debian's linux-perf)"
perf list 2>/dev/null | grep -q 'memcg:memcg_flush_stats' ||
	cannot_run "no memcg:memcg_flush_stats tracepoint"
bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
	grep -q "'stats_updates' type_id" ||
	cannot_run "the kernel keeps no stats_updates per group (before 6.8)"

T=$CGM/$TNAME
mkdir -p "$T/x" || abort "cannot make $T"
in_x() { sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$T/x" "$@"; }

truncate -s 64M "$TMPD/sparse" || abort "truncate"
# memcgtop's first refresh loads its BPF programs, whose room check reads
# memory.stat up to the hierarchy's root: everything is flushed then.
"$MEMCGTOP" -b -F json -n 2000 -d 0.05 -c path,stats_pending,prio_min "/$TNAME" \
	>"$TMPD/out.json" 2>"$TMPD/err" &
mcpid=$!
lines() { wc -l <"$TMPD/out.json"; }
wait_lines() { # N: until memcgtop printed N lines
	for _ in $(seq 200); do
		[ "$(lines)" -ge "$1" ] && return 0
		sleep 0.02
	done
	abort "memcgtop stopped printing: $(head -c 300 "$TMPD/err")"
}
wait_lines 3
matched=
for try in 1 2 3 4 5; do
	cat "$T/x/memory.stat" >/dev/null
	# 400 KiB of page cache read in x: updates counted, no writeback
	# (whose accounting would flush).
	in_x dd if="$TMPD/sparse" of=/dev/null bs=4k skip=$((try * 200)) count=100 2>/dev/null ||
		abort "dd in x"
	n=$(lines)
	wait_lines $((n + 2))
	perf record -q -a -o "$TMPD/perf$try.data" -e memcg:memcg_flush_stats -- \
		cat "$T/x/memory.stat" >/dev/null 2>"$TMPD/perf.err" ||
		abort "perf record: $(head -c 300 "$TMPD/perf.err")"
	line=$(sed -n "$((n + 2))p" "$TMPD/out.json")
	perf script -i "$TMPD/perf$try.data" -F comm,trace 2>/dev/null >"$TMPD/perf$try.txt"
	r=$(python3 - "$line" "$TMPD/perf$try.txt" "/$TNAME/x" <<'EOF2'
import json, re, sys
it = json.loads(sys.argv[1])
x = [g for g in it["groups"] if g["path"] == sys.argv[3]][0]
# cat's own request on x: the first one cat made
seen = [int(m.group(1)) for l in open(sys.argv[2]) if l.split()[0] == "cat"
        for m in [re.search(r"stats_updates=(-?\d+)", l)] if m]
print(x["stats_pending"], seen[0] if seen else "none",
      it["system"].get("flush_threshold"))
EOF2
)
	read -r mine kernel thr <<<"$r"
	echo "try $try: memcgtop's stats_pending of x $mine, the kernel's at cat's flush request $kernel"
	if [ "$mine" = "$kernel" ] && [ "$mine" != 0 ]; then
		matched=$try
		break
	fi
done
if [ -n "$matched" ]; then
	pass "x's stats_pending $mine is the kernel's count at the next flush request (try $matched)"
else
	fail "x's stats_pending $mine, the kernel's $kernel in 5 tries"
fi
cpus=$(getconf _NPROCESSORS_ONLN)
[ "$thr" = $((64 * cpus)) ] && pass "flush_threshold $thr = 64 x $cpus online CPUs" ||
	fail "flush_threshold $thr, want $((64 * cpus))"
# x idle and just flushed by cat's read: 0 in the next lines.
n=$(lines)
wait_lines $((n + 2))
after=$(sed -n "$((n + 2))p" "$TMPD/out.json" | python3 -c 'import json,sys; it=json.loads(sys.stdin.readline()); print([g for g in it["groups"] if g["path"]==sys.argv[1]][0]["stats_pending"])' "/$TNAME/x")
[ "$after" = 0 ] && pass "after x's memory.stat was read (flushed), x idle: stats_pending 0" ||
	fail "after the flush: stats_pending $after, want 0"
kill "$mcpid" 2>/dev/null
wait "$mcpid" 2>/dev/null
rm -f "$TMPD"/f*
live_tree_done
