#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/subtree-prio.sh - the scan-by-priority histogram of the shown
# subtree beside the host's (system subtree_scan_by_priority): a group that
# reads a file past its 32M limit is reclaimed; started at the test tree,
# each priority's pages per second of the subtree are at most the host's
# and add up to more than 0; started at its idle sibling they are all 0
# while the host's are not.  OpenMetrics has the family with a priority
# label.  Usage (as root): tests/live/subtree-prio.sh; MEMCGTOP the binary;
# CI=true: a host that cannot run it fails, not skips.
set -u
NAME="live subtree prio"
CGM=/sys/fs/cgroup/memory
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
live_tree_setup subprio
pids=()
abort() { fail "setup: $*"; stop_pids "${pids[@]}"; live_tree_done; exit 1; }
trap 'stop_pids "${pids[@]}"; live_tree_cleanup' EXIT

mkdir "$CGM/$TNAME" "$CGM/$TNAME/hot" "$CGM/$TNAME/idle" || abort "mkdir"
echo $((32 << 20)) >"$CGM/$TNAME/hot/memory.limit_in_bytes" || abort "limit"
echo $((32 << 20)) >"$CGM/$TNAME/hot/memory.memsw.limit_in_bytes" 2>/dev/null
dd if=/dev/zero of="$TMPD/big" bs=1M count=96 oflag=direct status=none || abort "dd"
sh -c 'echo $$ >"$1/cgroup.procs" && while :; do cat "$2" >/dev/null; done' \
	sh "$CGM/$TNAME/hot" "$TMPD/big" &
pids+=($!)
sleep 1

# run START: JSON of 3 refreshes with the reclaim events loaded (prio_min)
run() {
	"$MEMCGTOP" -b -n 3 -d 1 -F json -c path,prio_min "$1" 2>"$TMPD/err"
}
out=$(run "/$TNAME") || fail "run at /$TNAME: $(head -c 200 "$TMPD/err")"
python3 -c '
import json, sys
its = [json.loads(l) for l in sys.stdin.read().splitlines()]
s = its[-1]["system"]
h, t = s.get("scan_by_priority"), s.get("subtree_scan_by_priority")
ok = isinstance(h, list) and isinstance(t, list) and len(h) == len(t) == 13
print("PASS: both histograms, 13 priorities each" if ok else
      "FAIL: histograms %r %r" % (h, t))
if ok:
    # Two reads, the map of the groups and then that of the host: the
    # interval of a subtree is shifted from the one of the host by the
    # gap between them, and under this load its rate can pass the rate
    # of the host by the scans in it (0.07% and 0.38% seen in CI);
    # double counting would be 100%.
    over = [p for p in range(13) if t[p] > h[p] * 1.02 + 0.01]
    print("PASS: the subtree at most the host at every priority (within 2%)" if not over
          else "FAIL: subtree above the host at %s: %r %r" % (over, t, h))
    print("PASS: the subtree scanned (%.0f pages/s)" % sum(t) if sum(t) > 0
          else "FAIL: nothing scanned in the subtree: %r" % t)
' <<<"$out" >"$TMPD/r1"
tally "$TMPD/r1"
out=$(run "/$TNAME/idle") || fail "run at idle: $(head -c 200 "$TMPD/err")"
python3 -c '
import json, sys
its = [json.loads(l) for l in sys.stdin.read().splitlines()]
s = its[-1]["system"]
h, t = s.get("scan_by_priority") or [], s.get("subtree_scan_by_priority")
ok = isinstance(t, list) and all(x == 0 for x in t) and sum(h) > 0
print("PASS: the idle subtree 0 at every priority, the host %.0f pages/s" % sum(h)
      if ok else "FAIL: idle subtree %r, host %r" % (t, h))
' <<<"$out" >"$TMPD/r2"
tally "$TMPD/r2"
om=$("$MEMCGTOP" -b -n 2 -d 0.5 -F openmetrics -c path,prio_min "/$TNAME" 2>"$TMPD/err")
n=$(grep -c '^memcgtop_system_subtree_scan_by_priority_total{priority="[0-9]*"} [0-9]*$' <<<"$om")
[ "$n" = 26 ] && pass "openmetrics: 13 priorities of the subtree family, twice" ||
	fail "openmetrics: $n subtree samples of 26"
stop_pids "${pids[@]}"
pids=()
live_tree_done
