#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# flushes-v1.sh - the stats flushes memcgtop shows against perf's count of
# the same tracepoint, on the live cgroup v1 host.
#
# Usage (as root):  tests/live/flushes-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# The kernel calls memcg:memcg_flush_stats on every stats flush request
# and flushes only when forced or when the group's pending updates are
# past its threshold (needs_flush); most requests return at once.  The
# test makes /memcgtop-flushes-PID-N with 100 idle groups, reads their
# memory.stat in a loop (requests that do not flush), and runs
#   perf stat -a -e memcg:memcg_flush_stats --filter 'comm != "memcgtop"
#     && (force == 1 || needs_flush == 1)' -e memcg:memcg_flush_stats
#     --filter 'comm != "memcgtop"' -- memcgtop -b -F json -n 6 -d 0.5 /TREE
# perf counts other processes' over memcgtop's whole run; memcgtop's
# figures less its own cover its first sample to its last (the sum of
# rate times interval).  Checks:
#   - every line has flushes_per_s, own_flushes_per_s, flush_calls_per_s
#     and own_flush_calls_per_s, numbers, own <= all, flushes <= calls;
#   - flushes: memcgtop's sum is within perf's filtered count, at most
#     its start and end apart (bounded: 40% + 4);
#   - calls: memcgtop's sum likewise within perf's unfiltered count
#     (20% + 40), and the requests outnumber the flushes ten to one, so
#     a figure that counted requests as flushes fails the first check.
# PASS:/FAIL: lines, then "live-flushes-v1: N passed, M failed".  Not
# root, no writable v1 memory mount, no perf or no memcg tracepoint: SKIP,
# exit 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live flushes v1"
. "$here/lib.sh"
live_tree_start flushes
command -v perf >/dev/null || cannot_run "no perf (Debian's linux-perf)"
perf list 2>/dev/null | grep -q 'memcg:memcg_flush_stats' ||
	cannot_run "no memcg:memcg_flush_stats tracepoint"

T=$CGM/$TNAME
mkdir "$T" || abort "cannot make $T"
for i in $(seq 100); do mkdir "$T/g$i" || abort "mkdir g$i"; done
# Requests on idle groups: few updates pending, so almost none flush.
sh -c 'while :; do for i in $(seq 100); do cat "$1/g$i/memory.stat" >/dev/null; done; done' sh "$T" &
pids+=("$!")

# Other processes' requests: memcgtop's own before its first sample (the
# start group's memory.stat, read to prove the pass's words) would count
# in perf's run and not in memcgtop's samples.
perf stat -a -x, -o "$TMPD/perf" -e memcg:memcg_flush_stats \
	--filter 'comm != "memcgtop" && (force == 1 || needs_flush == 1)' \
	-e memcg:memcg_flush_stats --filter 'comm != "memcgtop"' -- \
	"$MEMCGTOP" -b -F json -n 6 -d 0.5 "/$TNAME" >"$TMPD/out" 2>"$TMPD/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$TMPD/err" ] || abort "memcgtop under perf: exit $rc, $(head -c 300 "$TMPD/err")"
stop_pids "${pids[@]}"
pids=()

python3 - "$TMPD/out" "$TMPD/perf" >"$TMPD/checks" 2>&1 <<'EOF'
import json, sys
out, perf = sys.argv[1:]
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
counts = [int(l.split(",")[0]) for l in open(perf)
          if l.count(",") >= 2 and l.split(",")[2].startswith("memcg:memcg_flush_stats")]
its = [json.loads(l) for l in open(out)]
keys = ("flushes_per_s", "own_flushes_per_s", "flush_calls_per_s", "own_flush_calls_per_s")
if len(counts) != 2 or len(its) != 6:
    bad("perf counts %s, %d JSON lines" % (counts, len(its)))
    sys.exit(0)
p_done, p_calls = counts
shapes = all(all(isinstance(it["system"].get(k), (int, float)) for k in keys) for it in its)
order = shapes and all(
    it["system"]["own_flushes_per_s"] <= it["system"]["flushes_per_s"] <=
    it["system"]["flush_calls_per_s"] and
    it["system"]["own_flush_calls_per_s"] <= it["system"]["flush_calls_per_s"] and
    it["system"]["own_flushes_per_s"] <= it["system"]["own_flush_calls_per_s"]
    for it in its)
if order:
    ok("6 lines with the four flush figures, own <= all, flushes <= requests")
else:
    bad("flush figures: %s" % [{k: it["system"].get(k) for k in keys} for it in its])
    sys.exit(0)
# Other processes' (memcgtop's own apart, as perf counts them).
done = round(sum((it["system"]["flushes_per_s"] - it["system"]["own_flushes_per_s"]) *
                 it["interval_s"] for it in its))
calls = round(sum((it["system"]["flush_calls_per_s"] - it["system"]["own_flush_calls_per_s"]) *
                  it["interval_s"] for it in its))
if done <= p_done + 1 and p_done - done <= 0.4 * p_done + 4:
    ok("other processes' flushes that flushed: memcgtop %d over its samples, perf (force || needs_flush) %d over its run" % (done, p_done))
else:
    bad("flushes: memcgtop %d, perf (force || needs_flush) %d (requests: memcgtop %d, perf %d)" % (done, p_done, calls, p_calls))
if calls <= p_calls + 1 and p_calls - calls <= 0.2 * p_calls + 40:
    ok("other processes' flush requests: memcgtop %d over its samples, perf %d over its run" % (calls, p_calls))
else:
    bad("flush requests: memcgtop %d, perf %d" % (calls, p_calls))
if p_calls >= 10 * max(p_done, 1):
    ok("requests outnumber flushes %d to %d: the two figures differ" % (p_calls, p_done))
else:
    bad("too few requests to tell them from flushes: %d requests, %d flushes" % (p_calls, p_done))
EOF
[ $? = 0 ] || fail "the checks ended with an error"
tally "$TMPD/checks"
live_tree_done
