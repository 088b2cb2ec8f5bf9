#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# events-v1.sh - memcgtop's own output of the reclaim events (src/source/reclaim.c
# over src/bpf/bpfev.c) on the live cgroup v1 host: pgscan, pgsteal and their
# rates, reclaim_eff and prio_min where v1's memory.stat has none.
#
# Usage (as root):  tests/live/events-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-events-PID-N with busy (a 16M limit), busy's child
# leaf and idle, and runs
#   memcgtop -b -F json -d 0.5 -n 0 -c COLUMNS -f /TREE /
# (the whole hierarchy is read and summed, the tree's groups and their
# ancestors printed), its output in a file, one line per iteration (each
# is flushed).  After line 1 it reads /proc/vmstat (va), writes 200 MB of
# page cache in leaf with dd, waits for the second line after dd ended
# (the first one's sample may be older than dd's end; the second's is
# not), reads /proc/vmstat again (vb), waits for one more line and stops
# memcgtop.  So, with s1 the sample of line 1 and sL that of the last:
#   the load  within  [va, vb]  within  [s1, sL]
# and the checks are:
#   - leaf: pgscan/s and pgsteal/s > 0 in an interval of the load, its
#     reclaim_eff there in [0,1] and prio_min 0-12 in one (and as
#     prio_min_direct: the task at the limit reclaims, kswapd none, its
#     prio_min_kswapd null); no scan and
#     prio_min null in the last interval (it began after dd ended);
#   - idle: pgscan, pgsteal and their rates 0 (numbers, not null) in every
#     line, prio_min null;
#   - hierarchical: busy and the tree's top show leaf's counts;
#   - each line's pgscan_per_s is its pgscan delta over interval_s;
#   - /proc/vmstat (pgscan_anon + pgscan_file): with D_sub the top's pgscan
#     from line 1 to the last and D_all the same of "/" (every group the
#     kernel counted in), D_sub <= vb - va <= D_all; when D_all = D_sub
#     (nothing else reclaimed in [s1, sL]) vb - va = D_sub exactly;
#   - system: the leaf's limit reclaim (D_sub) is in pgscan_memcg_per_s
#     (its rates times the intervals, within 0.5% and 16 pages a line),
#     and when nothing else reclaimed it is all of the host's scans, the
#     other parts (kswapd, direct, khugepaged, proactive) none;
#   - system: scan_by_priority has 13 numbers that are pages per second
#     (their sum over the lines, times the intervals, is about D_all),
#     flushes_per_s, own_flushes_per_s, flush_calls_per_s and
#     own_flush_calls_per_s numbers (tests/live/flushes-v1.sh checks
#     them against perf);
#   - memcgtop's own memory.stat reads (-c anon) count as own flush
#     requests;
#   - loaded only when needed: the v1 default text columns attach no BPF
#     program while memcgtop runs (its fdinfo), JSON's default does;
#   - MEMCGTOP_BPFEV_FAIL=old and =perm: pgscan and pgsteal still numbers
#     (the BPF pass's kernel counters), prio_min null, no scan_by_priority
#     key, exit 0, nothing on standard error; --collector files: pgscan
#     null too.
# PASS:/FAIL: lines, then "live-events-v1: N passed, M failed".  Not root,
# no writable v1 memory mount, or a kernel without the memcg tracepoints:
# SKIP, exit 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live events v1"
. "$here/lib.sh"
live_tree_start events

T=$CGM/$TNAME
mkdir -p "$T/busy/leaf" "$T/idle" || abort "cannot make $T"
echo 16M >"$T/busy/memory.limit_in_bytes" || abort "cannot set busy's limit"

COLS=pgscan,pgscan_per_s,pgsteal,pgsteal_per_s,pgscan_direct,pgsteal_direct,reclaim_eff,prio_min,prio_min_kswapd,prio_min_direct,path
"$MEMCGTOP" -b -F json -n 1 -d 0.1 -c "$COLS" "/$TNAME" >"$TMPD/probe" 2>"$TMPD/probe.err" ||
	abort "memcgtop failed: $(cat "$TMPD/probe.err")"
[ -s "$TMPD/probe.err" ] && fail "probe: standard error: $(cat "$TMPD/probe.err")"
# A kernel without the tracepoint (before 6.13) or its BTF is a skip; one
# with them where the events do not load is a failure.
if ! grep -qa btf_trace_count_memcg_events /sys/kernel/btf/vmlinux 2>/dev/null; then
	cannot_run "the kernel has no memcg:count_memcg_events tracepoint in its BTF (Linux 6.13+)"
fi
grep -q '"scan_by_priority"' "$TMPD/probe" ||
	abort "the reclaim events did not load: $(head -c 400 "$TMPD/probe")"

vm_scan() { awk '$1 == "pgscan_anon" || $1 == "pgscan_file" { s += $2 } END { printf "%.0f\n", s }' /proc/vmstat; }
lines() { wc -l <"$TMPD/out"; }
# wait_lines N: until memcgtop printed N lines (it prints one per 0.5 s).
wait_lines() {
	local i
	for i in $(seq 600); do
		[ "$(lines)" -ge "$1" ] && return 0
		kill -0 "$mpid" 2>/dev/null || abort "memcgtop ended: $(cat "$TMPD/err")"
		sleep 0.05
	done
	abort "memcgtop printed $(lines) lines, not $1, in 30 s"
}

"$MEMCGTOP" -b -F json -d 0.5 -n 0 -c "$COLS" -f "/$TNAME" / >"$TMPD/out" 2>"$TMPD/err" &
mpid=$!
pids+=("$mpid")
wait_lines 1
va=$(vm_scan)
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=200 2>/dev/null' \
	sh "$T/busy/leaf" "$TMPD/file" || abort "dd in $T/busy/leaf failed"
n=$(lines)
# Line n+1 is written after dd ended, but its sample may be older (taken
# while dd ran, written after a slow refresh); memcgtop samples, writes,
# then sleeps, so sample n+2 comes after that write: the last interval,
# n+2 to n+3, lies wholly after the load.
wait_lines $((n + 2))
vb=$(vm_scan)
wait_lines $((n + 3))
L=$((n + 3))
stop_pids "$mpid"
rm -f "$TMPD/file"
[ -s "$TMPD/err" ] && fail "memcgtop: standard error: $(cat "$TMPD/err")"
head -n "$L" "$TMPD/out" >"$TMPD/json"

python3 - "$TMPD/json" "/$TNAME" "$va" "$vb" >"$TMPD/checks" 2>&1 <<'EOF'
import json, sys

path, t, va, vb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
its = [json.loads(l) for l in open(path)]
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
def g(it, p):
    for x in it["groups"]:
        if x["path"] == p:
            return x
    raise SystemExit("FAIL: no group %s in iteration %d" % (p, it["iteration"]))

leaf, busy, idle = t + "/busy/leaf", t + "/busy", t + "/idle"
last = its[-1]
load = [it for it in its if g(it, leaf)["pgscan_per_s"] > 0]
if load and all(g(it, leaf)["pgsteal_per_s"] is not None for it in load) and \
        any(g(it, leaf)["pgsteal_per_s"] > 0 for it in load):
    ok("leaf reclaiming at its limit: pgscan/s %s, pgsteal/s %s" % (
        [g(it, leaf)["pgscan_per_s"] for it in load],
        [g(it, leaf)["pgsteal_per_s"] for it in load]))
else:
    bad("leaf: no interval with pgscan/s and pgsteal/s > 0: %s" % [g(it, leaf) for it in its])
effs = [g(it, leaf)["reclaim_eff"] for it in load]
if effs and all(e is not None and 0 <= e <= 1 for e in effs):
    ok("leaf: reclaim_eff in [0,1] in the load's intervals: %s" % effs)
else:
    bad("leaf: reclaim_eff %s" % effs)
prios = [g(it, leaf)["prio_min"] for it in load]
if any(isinstance(p, int) and 0 <= p <= 12 for p in prios) and \
        all(p is None or (isinstance(p, int) and 0 <= p <= 12) for p in prios):
    ok("leaf: prio_min in the load's intervals: %s" % prios)
else:
    bad("leaf: prio_min %s" % prios)
# leaf is reclaimed by busy's limit, by the writing task itself: its
# priorities are the direct ones; kswapd (the host is far from its
# watermarks) scans none of it.
kp = [g(it, leaf)["prio_min_kswapd"] for it in its]
dp = [g(it, leaf)["prio_min_direct"] for it in its]
if all(k is None for k in kp) and dp == [g(it, leaf)["prio_min"] for it in its]:
    ok("leaf: prio_min_direct is prio_min in every interval (%s), prio_min_kswapd null" % dp)
else:
    bad("leaf: prio_min %s, _direct %s, _kswapd %s" % ([g(it, leaf)["prio_min"] for it in its], dp, kp))
lg = g(last, leaf)
if lg["pgscan_per_s"] == 0 and lg["prio_min"] is None and g(its[0], leaf)["pgscan_per_s"] == 0:
    ok("leaf: no scan and prio_min null in the first and last intervals (around the load)")
else:
    bad("leaf: first %s, last %s" % (g(its[0], leaf), lg))

zero = all(g(it, idle)[k] == 0 and isinstance(g(it, idle)[k], (int, float))
           for it in its for k in ("pgscan", "pgsteal", "pgscan_per_s",
                                   "pgsteal_per_s", "pgscan_direct"))
if zero and all(g(it, idle)["prio_min"] is None and g(it, idle)["reclaim_eff"] is None for it in its):
    ok("idle sibling: pgscan, pgsteal and their rates 0, not null; prio_min null")
else:
    bad("idle: %s" % [g(it, idle) for it in its])

hier = all(g(it, p)[k] == g(it, leaf)[k] for it in its for p in (busy, t)
           for k in ("pgscan", "pgsteal", "pgscan_direct", "pgsteal_direct"))
if hier and g(last, t)["pgscan"] > 0:
    ok("hierarchical: busy and %s show leaf's %d pages scanned, %d reclaimed" % (
        t, g(last, leaf)["pgscan"], g(last, leaf)["pgsteal"]))
else:
    bad("hierarchy: %s" % [(g(last, p)) for p in (t, busy, leaf)])

rates = True
for a, b in zip(its, its[1:]):
    for p in (t, leaf, idle, "/"):
        d = g(b, p)["pgscan"] - g(a, p)["pgscan"]
        r = g(b, p)["pgscan_per_s"]
        want = d / b["interval_s"]
        if abs(r - want) > 0.002 * want + 0.001:
            rates = False
            bad("%s iteration %d: pgscan_per_s %s, delta %d over %s s" % (
                p, b["iteration"], r, d, b["interval_s"]))
if rates:
    ok("pgscan_per_s is each interval's pgscan delta over interval_s")

d_sub = g(last, t)["pgscan"] - g(its[0], t)["pgscan"]
d_all = g(last, "/")["pgscan"] - g(its[0], "/")["pgscan"]
dv = vb - va
if d_sub <= dv <= d_all and d_sub > 0:
    ok("/proc/vmstat moved %d pages between reads around the load; the tree "
       "scanned %d, every group %d in the enclosing samples" % (dv, d_sub, d_all))
else:
    bad("/proc/vmstat %d, tree %d, every group %d (want tree <= vmstat <= all)"
        % (dv, d_sub, d_all))
if d_all == d_sub:
    if dv == d_sub:
        ok("nothing else reclaimed: the tree's pgscan is /proc/vmstat's delta exactly (%d)" % dv)
    else:
        bad("nothing else reclaimed, tree %d, /proc/vmstat %d" % (d_sub, dv))
else:
    print("INFO: other groups reclaimed %d pages meanwhile: exact check left out"
          % (d_all - d_sub))

# Limit reclaim alone is memcg-targeted reclaim in the host's split, not
# missing: /proc/vmstat leaves it out of pgscan_kswapd, _direct,
# _khugepaged and _proactive (up to 7.2), memcgtop's pgscan_memcg_per_s
# is the rest of pgscan_anon + pgscan_file.  Pages from the rates: within
# 0.5% and 16 a line of rounding.
parts = ("kswapd", "direct", "khugepaged", "proactive", "memcg")
host = {k: sum((it["system"]["pgscan_%s_per_s" % k] or 0) * it["interval_s"]
               for it in its[1:]) for k in parts}
tol = 0.005 * d_all + 16 * len(its)
if host["memcg"] + tol >= d_sub > 0:
    ok("the leaf's limit reclaim (%d pages) shows as the host's memcg-targeted "
       "reclaim: %.0f pages (kswapd %.0f, direct %.0f)"
       % (d_sub, host["memcg"], host["kswapd"], host["direct"]))
else:
    bad("the leaf's limit reclaim %d pages, the host's memcg-targeted %.0f (%s)"
        % (d_sub, host["memcg"], host))
if d_all == d_sub:
    rest = sum(host[k] for k in parts[:4])
    if abs(host["memcg"] - d_all) <= tol and rest <= tol:
        ok("nothing else reclaimed: memcg-targeted %.0f pages = every group's %d, "
           "kswapd + direct + khugepaged + proactive %.0f" % (host["memcg"], d_all, rest))
    else:
        bad("nothing else reclaimed: memcg-targeted %.0f, every group %d, the others %.0f"
            % (host["memcg"], d_all, rest))

sysok = True
prio_pages = 0.0
for it in its:
    s = it["system"]
    sp = s.get("scan_by_priority")
    if not (isinstance(sp, list) and len(sp) == 13 and
            all(isinstance(x, (int, float)) and x >= 0 for x in sp) and
            isinstance(s.get("flushes_per_s"), (int, float)) and
            isinstance(s.get("own_flushes_per_s"), (int, float))):
        sysok = False
    else:
        prio_pages += sum(sp) * it["interval_s"]
if sysok and abs(prio_pages - d_all) <= 0.01 * d_all + 64 * len(its):
    ok("system: scan_by_priority 13 rates (about %.0f pages, every group's %d), "
       "flushes_per_s, own_flushes_per_s" % (prio_pages, d_all))
else:
    bad("system: %s (pages by priority %.0f, every group %d)" % (
        [it["system"] for it in its], prio_pages, d_all))
EOF
ret=$?
tally "$TMPD/checks"
[ $ret = 0 ] || fail "the JSON checks ended with status $ret"

# memcgtop's own memory.stat reads are its own flush requests (whether
# the kernel then flushes depends on the updates pending).
"$MEMCGTOP" -b -F json -d 0.3 -n 2 -c anon,prio_min,path "/$TNAME" >"$TMPD/own" 2>&1
own=$(python3 -c '
import json, sys
print(" ".join(str(json.loads(l)["system"]["own_flush_calls_per_s"]) for l in open(sys.argv[1])))' "$TMPD/own" 2>&1)
if python3 -c 'import sys; sys.exit(0 if all(float(x) > 0 for x in sys.argv[1:]) else 1)' $own 2>/dev/null; then
	pass "reading memory.stat of the tree's 4 groups: own_flush_calls_per_s $own"
else
	fail "own flushes with -c anon: '$own' ($(head -c 300 "$TMPD/own"))"
fi

# The first refresh loads the reclaim events' program: the first printed
# interval still spans -d (it starts once the baseline sample is taken).
ivs=$(python3 -c '
import json, sys
print(" ".join(str(json.loads(l)["interval_s"]) for l in open(sys.argv[1])))' "$TMPD/own" 2>&1)
# (The second may be a little shorter: refreshes keep a fixed cadence,
# and the first one's sample was taken late by the load.)
if python3 -c 'import sys; sys.exit(0 if len(sys.argv) == 3 and float(sys.argv[1]) >= 0.3 else 1)' $ivs 2>/dev/null; then
	pass "-d 0.3 -n 2 with prio_min: the first interval_s at least 0.3 s ($ivs)"
else
	fail "-d 0.3 -n 2 with prio_min: interval_s '$ivs', want 2 values, the first at least 0.3"
fi

# progs PID: how many BPF programs the process holds (its fdinfo).
progs() { cat /proc/"$1"/fdinfo/* 2>/dev/null | grep -c '^prog_id:'; }
# loaded WHAT ARGS...: runs memcgtop ARGS (-n 2 -d 2), and after its first
# iteration, while it waits for the next, counts its BPF programs.  The
# files collector, so that the BPF collector's program and link do not
# count.
loaded() {
	local what=$1 pid i
	shift
	"$MEMCGTOP" -b -n 2 -d 2 --collector files "$@" "/$TNAME" >"$TMPD/lo" 2>&1 &
	pid=$!
	pids+=("$pid")
	for i in $(seq 600); do
		[ -s "$TMPD/lo" ] && break
		sleep 0.05
	done
	nprog=$(progs "$pid")
	alive=0
	kill -0 "$pid" 2>/dev/null && alive=1
	wait "$pid"
	[ "$alive" = 1 ] || fail "$what: memcgtop had ended before its programs were counted"
}
loaded "v1 default text columns"
if [ "$nprog" = 0 ] && [ "$alive" = 1 ]; then
	pass "the v1 default text columns load no BPF program"
else
	fail "the v1 default text columns: $nprog BPF programs"
fi
loaded "JSON's default columns" -F json
if [ "$nprog" -ge 3 ]; then
	pass "JSON's default columns (every one) load the reclaim events: $nprog programs"
else
	fail "JSON's default columns: $nprog BPF programs"
fi

# The events not available: the BPF pass still gives pgscan and pgsteal
# (the kernel's counters); what only the events give (prio_min, the
# system's flushes and priorities) is not available, quietly.  With the
# files collector v1 has no pgscan at all.
for why in old perm files; do
	coll=auto
	[ $why = files ] && coll=files
	MEMCGTOP_BPFEV_FAIL=$why "$MEMCGTOP" --collector $coll -b -F json -d 0.2 -n 1 \
		-c "$COLS" "/$TNAME" >"$TMPD/f.out" 2>"$TMPD/f.err"
	rc=$?
	res=$(python3 -c '
import json, sys
it = json.loads(open(sys.argv[1]).read())
counters = sys.argv[2] != "files"
bad = []
for g in it["groups"]:
    for k in ("pgscan", "pgscan_per_s", "pgsteal", "pgsteal_per_s"):
        if (g[k] is None) == counters or (counters and g[k] < 0):
            bad.append((g["path"], k, g[k]))
    if g["prio_min"] is not None:
        bad.append((g["path"], "prio_min", g["prio_min"]))
print("ok" if not bad and "scan_by_priority" not in it["system"] and
      "flushes_per_s" not in it["system"] and len(it["groups"]) == 4 else
      "values %s, system %s" % (bad, it["system"]))' "$TMPD/f.out" $why 2>&1)
	if [ $rc = 0 ] && [ ! -s "$TMPD/f.err" ] && [ "$res" = ok ]; then
		if [ $why = files ]; then
			pass "--collector files: pgscan, pgsteal, prio_min null, no system keys, exit 0"
		else
			pass "MEMCGTOP_BPFEV_FAIL=$why: pgscan and pgsteal from the pass, prio_min null, no system keys, exit 0, nothing on stderr"
		fi
	else
		fail "MEMCGTOP_BPFEV_FAIL=$why: exit $rc, stderr '$(cat "$TMPD/f.err")', $res"
	fi
done

finish
trap - EXIT
if [ -e "$T" ]; then
	fail "cleanup: $T still there"
else
	pass "cleanup: the test tree is gone"
fi
summary
