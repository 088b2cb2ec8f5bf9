#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# oom-v1.sh - system.oom_kills (the OOM kills seen during the run) against
# a real OOM kill in a test group, on the live v1 host.
#
# Usage (as root):  tests/live/oom-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-oom-PID-N with victim (memory and memory+swap limits
# 32M, so that nothing escapes to swap), bystander (idle) and, for the
# second and third runs, victim2 and victim3 (the same limits).  Each run is
#   memcgtop -b -F json -n 8 -d 0.5 -c path,usage --collector C /memcgtop-oom-...
# and after its first line python3 in the victim group allocates and
# touches 1 MiB at a time, saying each MiB in a file, until the OOM killer
# kills it.  Checks:
#   - C=bpf (oom:mark_victim): from the first line after the kill on, exactly
#     one entry: path the victim group, pid python3's, comm "python3", limit
#     33554432, rss between the MiB it said it had allocated and that plus
#     what it mapped before allocating plus 4 MiB (rss counts anon, file and
#     shmem pages, as the kernel's "Killed process" line), time within the
#     run; no entry before the kill;
#   - C=files (the counters, memory.oom_control oom_kill): exactly one entry,
#     path victim2, pid, comm and rss null, limit 33554432;
#   - C=bpf with MEMCGTOP_BPFOOM_FAIL=1 (the OOM program not loaded: the
#     counters, which the BPF pass carries): the same for victim3;
#   - the victims' exit status is 137 (SIGKILL), memory.oom_control oom_kill 1.
# PASS:/FAIL: lines, then "live-oom-v1: N passed, M failed".  Not root, no
# writable v1 memory mount, no python3: SKIP, exit 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live oom v1"
. "$here/lib.sh"
live_tree_start oom

T=$CGM/$TNAME
for g in victim victim2 victim3; do
	mkdir -p "$T/$g" || abort "cannot make $T/$g"
	echo 32M >"$T/$g/memory.limit_in_bytes" || abort "cannot set $g's limit"
	echo 32M >"$T/$g/memory.memsw.limit_in_bytes" ||
		abort "cannot set $g's memory+swap limit"
done
mkdir -p "$T/bystander" || abort "cannot make $T/bystander"

# run COLLECTOR GROUP TAG: memcgtop's JSON in $TMPD/TAG.json, the victim's
# pid, its status and what it said in $TMPD/TAG.{pid,rc,said}.
run() {
	local c=$1 g=$2 tag=$3 mc vp i
	"$MEMCGTOP" -b -F json -n 8 -d 0.5 -c path,usage --collector "$c" "/$TNAME" \
		>"$TMPD/$tag.json" 2>"$TMPD/$tag.err" &
	mc=$!
	pids+=("$mc")
	for i in $(seq 100); do
		[ -s "$TMPD/$tag.json" ] && break
		sleep 0.05
	done
	[ -s "$TMPD/$tag.json" ] || abort "$tag: memcgtop printed nothing: $(head -c 300 "$TMPD/$tag.err")"
	date +%s >"$TMPD/$tag.t0"
	sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "$2" "$3"' sh "$T/$g" '
import sys
out = open(sys.argv[1], "w")
def status(key):
    for l in open("/proc/self/status"):
        if l.startswith(key + ":"):
            return int(l.split()[1]) * 1024
out.write("before %d\n" % (status("RssAnon") + status("RssFile") + status("RssShmem")))
out.flush()
chunks = []
while True:
    b = bytearray(1 << 20)
    for i in range(0, 1 << 20, 4096):
        b[i] = 1
    chunks.append(b)
    out.write("allocated %d\n" % (len(chunks) << 20))
    out.flush()
' "$TMPD/$tag.said" &
	vp=$!
	echo "$vp" >"$TMPD/$tag.pid"
	wait "$vp" 2>/dev/null
	echo $? >"$TMPD/$tag.rc"
	wait "$mc"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$TMPD/$tag.err" ] || abort "$tag: memcgtop: exit $rc, $(head -c 300 "$TMPD/$tag.err")"
	date +%s >"$TMPD/$tag.t1"
	read -r _ k _ < <(grep '^oom_kill ' "$T/$g/memory.oom_control")
	if [ "$(cat "$TMPD/$tag.rc")" = 137 ] && [ "$k" = 1 ]; then
		pass "$tag: python3 in $g was killed (status 137, oom_kill 1)"
	else
		fail "$tag: python3 in $g: status $(cat "$TMPD/$tag.rc"), oom_kill $k (want 137 and 1)"
	fi
}
run bpf victim bpf
run files victim2 files
MEMCGTOP_BPFOOM_FAIL=1 run bpf victim3 nooom

python3 - "$TMPD" "/$TNAME" >"$TMPD/checks" 2>&1 <<'PY'
import json, sys, calendar, time
tmpd, top = sys.argv[1:]
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
def check(c, m): ok(m) if c else bad(m)
def lines(tag):
    return [json.loads(l) for l in open("%s/%s.json" % (tmpd, tag))]
def said(tag):
    d = {}
    for l in open("%s/%s.said" % (tmpd, tag)):
        k, v = l.split()
        d[k] = int(v)
    return d
def epoch(t):
    return calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%SZ"))
MiB = 1 << 20

its = lines("bpf")
check(its[0]["collector"] == "bpf", "bpf: the run's collector is bpf (%s)" % its[0]["collector"])
check(its[0]["system"].get("oom_kills") == [], "bpf: no entry before the kill")
last = its[-1]["system"].get("oom_kills") or []
check(len(last) == 1, "bpf: exactly one entry after the kill (%d)" % len(last))
if last:
    e = last[0]
    pid = int(open(tmpd + "/bpf.pid").read())
    s = said("bpf")
    t0, t1 = int(open(tmpd + "/bpf.t0").read()), int(open(tmpd + "/bpf.t1").read())
    check(e["path"] == top + "/victim", "bpf: path %s (want %s/victim)" % (e["path"], top))
    check(e["pid"] == pid, "bpf: pid %s is python3's (%d)" % (e["pid"], pid))
    check(e["comm"] == "python3", "bpf: comm %r" % e["comm"])
    check(e["limit"] == 32 * MiB, "bpf: limit %s (want %d)" % (e["limit"], 32 * MiB))
    lo, hi = s["allocated"], s["allocated"] + s["before"] + 4 * MiB
    check(isinstance(e["rss"], int) and lo <= e["rss"] <= hi,
          "bpf: rss %s within [%d, %d]: the %d MiB it allocated, plus %d "
          "bytes it mapped before, plus 4 MiB" % (e["rss"], lo, hi,
                                                   s["allocated"] // MiB, s["before"]))
    check(t0 <= epoch(e["time"]) <= t1,
          "bpf: time %s within the run [%d, %d]" % (e["time"], t0, t1))
    same = all(it["system"].get("oom_kills") in ([], last) for it in its)
    check(same, "bpf: every line has no entry or the same one (it stays)")

for tag, coll, g in (("files", "files", "victim2"), ("nooom", "bpf", "victim3")):
    its = lines(tag)
    check(its[0]["collector"] == coll, "%s: the run's collector is %s (%s)"
          % (tag, coll, its[0]["collector"]))
    last = its[-1]["system"].get("oom_kills") or []
    check(len(last) == 1, "%s: exactly one entry after the kill (%d)" % (tag, len(last)))
    if last:
        e = last[0]
        check(e["path"] == top + "/" + g, "%s: path %s (want %s/%s)" % (tag, e["path"], top, g))
        check(e["pid"] is None and e["comm"] is None and e["rss"] is None,
              "%s: pid, comm and rss null (the counter has no process): %s %s %s"
              % (tag, e["pid"], e["comm"], e["rss"]))
        check(e["limit"] == 32 * MiB, "%s: limit %s (want %d)" % (tag, e["limit"], 32 * MiB))
PY
pyrc=$?
tally "$TMPD/checks"
[ $pyrc = 0 ] || fail "the checks stopped (python3 status $pyrc): $(tail -1 "$TMPD/checks")"
finish
trap - EXIT
if [ -e "$T" ]; then fail "cleanup: $T still there"; else pass "cleanup: the test tree is gone"; fi
summary
