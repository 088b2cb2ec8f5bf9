#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stall-v1.sh - reclaim stalls (reclaim_stall, reclaim_stall_per_s: the
# milliseconds a group's own tasks spend in direct and memcg reclaim)
# against perf's record of the same tracepoints, on the live v1 host.
#
# Usage (as root):  tests/live/stall-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-stall-PID-N with a (an 8M limit) and idle, runs
#   memcgtop -b -F json -n 8 -d 0.5 -c path,reclaim_stall,reclaim_stall_per_s
# and, while it samples, perf record of vmscan:mm_vmscan_{memcg,direct}_
# reclaim_{begin,end} on every CPU; after memcgtop's first line, dd writes
# 128 MiB through a, whose limit makes dd reclaim, and ends before
# memcgtop's last line.  Checks:
#   - a's reclaim_stall grew, from the first line to the last, by what perf
#     gives for dd: the sum of its end - begin times (within 2 ms, one
#     truncated millisecond at each end, plus 2%);
#   - the rate is the counter's delta over the interval in each line;
#   - idle: 0 in every line, not null.
# PASS:/FAIL: lines, then "live-stall-v1: N passed, M failed".  Not root,
# no writable v1 memory mount, no perf or no such tracepoints: SKIP, exit
# 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live stall v1"
. "$here/lib.sh"
live_tree_start stall
command -v perf >/dev/null || cannot_run "no perf (Debian's linux-perf)"
perf list 2>/dev/null | grep -q 'vmscan:mm_vmscan_memcg_reclaim_begin' ||
	cannot_run "no vmscan:mm_vmscan_memcg_reclaim_begin tracepoint"

T=$CGM/$TNAME
mkdir -p "$T/a" "$T/idle" || abort "cannot make $T"
echo 8M >"$T/a/memory.limit_in_bytes" || abort "cannot set a's limit"

perf record -q -a -o "$TMPD/perf.data" \
	-e vmscan:mm_vmscan_memcg_reclaim_begin -e vmscan:mm_vmscan_memcg_reclaim_end \
	-e vmscan:mm_vmscan_direct_reclaim_begin -e vmscan:mm_vmscan_direct_reclaim_end \
	-- sleep 9 >"$TMPD/perf.out" 2>&1 &
perfpid=$!
pids+=("$perfpid")
sleep 1
"$MEMCGTOP" -b -F json -n 8 -d 0.5 -c path,reclaim_stall,reclaim_stall_per_s "/$TNAME" \
	>"$TMPD/out.json" 2>"$TMPD/err" &
mc=$!
pids+=("$mc")
for _ in $(seq 100); do
	[ -s "$TMPD/out.json" ] && break
	sleep 0.05
done
[ -s "$TMPD/out.json" ] || abort "memcgtop printed nothing: $(head -c 300 "$TMPD/err")"
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=128 2>/dev/null' \
	sh "$T/a" "$TMPD/dd.file" &
dd=$!
wait "$dd" || abort "dd in a failed"
rm -f "$TMPD/dd.file"
lines_at_dd_end=$(wc -l <"$TMPD/out.json")
wait "$mc"
rc=$?
wait "$perfpid"
[ $rc = 0 ] && [ ! -s "$TMPD/err" ] || abort "memcgtop: exit $rc, $(head -c 300 "$TMPD/err")"
[ "$lines_at_dd_end" -lt 8 ] || abort "dd ended after memcgtop's last line: no window to compare"
perf script -i "$TMPD/perf.data" -F tid,time,event 2>/dev/null >"$TMPD/perf.txt"

python3 - "$TMPD/out.json" "$TMPD/perf.txt" "$dd" "/$TNAME" >"$TMPD/checks" 2>&1 <<'EOF'
import json, sys
out, perf, dd, top = sys.argv[1:]
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
its = [json.loads(l) for l in open(out)]
def g(it, p):
    return [x for x in it["groups"] if x["path"] == p][0]
a, idle = top + "/a", top + "/idle"
# perf: dd's begin/end pairs, in milliseconds.
total, start = 0.0, None
for l in open(perf):
    f = l.split()
    if len(f) < 3 or f[0] != dd:
        continue
    t = float(f[1].rstrip(":"))
    if f[2].endswith("_begin:"):
        start = t
    elif f[2].endswith("_end:") and start is not None:
        total += (t - start) * 1000
        start = None
grew = g(its[-1], a)["reclaim_stall"] - g(its[0], a)["reclaim_stall"]
if total > 0 and abs(grew - total) <= 2 + 0.02 * total:
    ok("a's reclaim_stall grew %d ms over the run, perf's dd stalls sum to %.1f ms" % (grew, total))
else:
    bad("a's reclaim_stall grew %s ms, perf's dd stalls %.1f ms" % (grew, total))
rates = True
for i in range(1, len(its)):
    d = g(its[i], a)["reclaim_stall"] - g(its[i - 1], a)["reclaim_stall"]
    r = g(its[i], a)["reclaim_stall_per_s"]
    if abs(r - d / its[i]["interval_s"]) > 0.01 * max(1, r) + 0.01:
        rates = False
if rates:
    ok("reclaim_stall_per_s is the delta over interval_s in every line: %s" % [g(it, a)["reclaim_stall_per_s"] for it in its])
else:
    bad("rates %s, stalls %s" % ([g(it, a)["reclaim_stall_per_s"] for it in its], [g(it, a)["reclaim_stall"] for it in its]))
if all(g(it, idle)["reclaim_stall"] == 0 and g(it, idle)["reclaim_stall_per_s"] == 0 for it in its):
    ok("idle: reclaim_stall 0 in every line, not null")
else:
    bad("idle: %s" % [(g(it, idle)["reclaim_stall"], g(it, idle)["reclaim_stall_per_s"]) for it in its])
EOF
[ $? = 0 ] || fail "the checks ended with an error"
tally "$TMPD/checks"
finish
pids=()
live_tree_done
