#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# stat-v1.sh - memory.stat inside the BPF pass (src/source/cgfs_prove.c,
# src/bpf/memcg_iter.bpf.c) on the live cgroup v1 host.
#
# Usage (as root):  tests/live/stat-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-stat-PID-N with a/x (a process holding 24 MiB of
# anonymous memory and a file of 16 MiB in its page cache, on /dev/shm as
# shmem and on disk), b (16M limit, 64 MiB written through it with dd:
# reclaimed), c (idle) and d (8M limit, a process that asks for 64 MiB:
# OOM-killed) and s (16 MiB of shmem written by dd), then checks:
#   - at rest, every memory.stat column of every group from the pass
#     (--collector bpf) equals the group's memory.stat read just before and
#     just after memcgtop (a key that moved between the two is left out
#     with an INFO line): the LRU lists, anon, file, shmem, refaults,
#     pgfault, pgmajfault; scan_prio (made from the group's own lists, v1's
#     keys without total_) equal to the files collector's;
#   - memcgtop -VV: every memory.stat value the pass can carry is proven on
#     this kernel (the line "memory.stat: N of N values from the pass");
#   - nothing proven (MEMCGTOP_BPF_FAIL=unproven): the values from the
#     files, auto silent, --collector bpf saying once which it read so,
#     -VV "0 of N";
#   - v1 pgscan and pgsteal, which v1's memory.stat lacks, from the
#     kernel's counters: b's > 0, pgsteal <= pgscan, kswapd + direct <=
#     pgscan, the top's equal to the sum of its children's, the same in
#     two separate -n 1 runs (cumulative, not since memcgtop started),
#     memcgtop_pgscan_total in OpenMetrics equal to JSON's pgscan; the
#     root's (every group's) equal to /proc/vmstat's pgscan_anon +
#     pgscan_file (and pgsteal's) at rest;
#   - d's ev_oom_kill from the pass equal to its memory.oom_control's
#     oom_kill (1);
#   - the LRU view and the mission view (usage, soft, excess, four LRU
#     lists, pgscan/s, pgsteal/s) attach the iterator (and the OOM program, which runs only on a kill; no
#     reclaim tracepoint) and make at most one stats flush call per refresh
#     (perf stat -e memcg:memcg_flush_stats, (n=11 - n=1) / 10), where the
#     files collector makes one per group;
#   - c as the start group (no task ever ran in it: pgfault 0, which
#     proves no word): the same, the rule's words proven once against the
#     hierarchy root's memory.stat (-VV "N of N", "... proven against the
#     hierarchy root's"), pgscan and pgsteal 0 from the pass;
#   - s (16 MiB of shmem alone: its file and shmem values equal, which
#     proves neither word) as the start group: every value proven, at the
#     root for those, --collector bpf silent with every column, s's file,
#     shmem and anon lists equal to its memory.stat's around the run.
# PASS:/FAIL: lines, then "live-stat-v1: N passed, M failed".  Not root, no
# writable v1 memory mount, no perf: SKIP, exit 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live stat v1"
. "$here/lib.sh"
live_tree_setup stat
command -v perf >/dev/null || cannot_run "no perf (Debian's linux-perf)"
pids=()
finish() {
	stop_pids "${pids[@]}"
	live_tree_cleanup
}
trap finish EXIT
abort() { fail "$NAME: $*"; finish; summary; exit 1; }

T=$CGM/$TNAME
mkdir -p "$T/a/x" "$T/b" "$T/c" "$T/d" "$T/s" || abort "cannot make $T"
echo 16M >"$T/b/memory.limit_in_bytes" || abort "cannot set b's limit"
echo 8M >"$T/d/memory.limit_in_bytes" || abort "cannot set d's limit"

# a/x: anonymous memory, a shmem file and a disk file in the page cache,
# held while the test runs.
SHM=$(mktemp /dev/shm/memcgtop-stat.XXXXXX)
DISK=$TMPD/disk
SHM2=$(mktemp /dev/shm/memcgtop-stat-s.XXXXXX)
trap 'rm -f "$SHM" "$SHM2"; finish' EXIT
sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "
import mmap, sys, time
a = bytearray(b\"x\" * (24 << 20))
for p in sys.argv[1:]:
    with open(p, \"wb\") as f:
        f.write(b\"y\" * (16 << 20))
    with open(p, \"rb\") as f:
        f.read()
# 6 MiB of the disk file mapped (file_mapped), and 14 MiB of anonymous
# memory asked for in huge pages (anon_thp, 12 or 14 MiB where THP is not
# never): sizes no other value of the group has (16 MiB is its shmem), or
# two words would hold one value and prove neither.
f = open(sys.argv[2], \"rb\")
m = mmap.mmap(f.fileno(), 6 << 20, prot=mmap.PROT_READ)
s = sum(m[i] for i in range(0, len(m), 4096))
h = mmap.mmap(-1, 14 << 20, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
try:
    h.madvise(mmap.MADV_HUGEPAGE)
except (AttributeError, OSError):
    pass
for i in range(0, len(h), 4096):
    h[i] = 1
print(\"ready\", flush=True)
time.sleep(3600)
" "$2" "$3"' sh "$T/a/x" "$SHM" "$DISK" >"$TMPD/x.out" 2>&1 &
pids+=("$!")
for i in $(seq 300); do
	grep -q ready "$TMPD/x.out" && break
	sleep 0.1
done
grep -q ready "$TMPD/x.out" || abort "a/x's load not ready: $(cat "$TMPD/x.out")"
# b: reclaimed at its limit.
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=64 2>/dev/null' \
	sh "$T/b" "$TMPD/b.file" || abort "dd in b failed"
rm -f "$TMPD/b.file"
# s: 16 MiB of shmem alone, left by dd: its file pages are its shmem, a
# value two words hold, which its memory.stat cannot prove.
sh -c 'echo $$ >"$1/cgroup.procs" && exec dd if=/dev/zero of="$2" bs=1M count=16 2>/dev/null' \
	sh "$T/s" "$SHM2" || abort "dd in s failed"
# d: an OOM kill (the host has no swap: anonymous memory cannot go).
sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "a = bytearray(b\"x\" * (64 << 20))"' \
	sh "$T/d" >/dev/null 2>&1
sync
sleep 1

STATCOLS=active_anon,inactive_anon,active_file,inactive_file,unevictable,anon,file,shmem,refault_anon,refault_file,pgfault,pgmajfault,file_mapped,file_dirty,file_writeback,swapcached,anon_thp
snap_files() {
	local d
	for d in "" /a /a/x /b /c /d; do
		echo "== /$TNAME$d"
		cat "$T$d/memory.stat"
		grep '^oom_kill ' "$T$d/memory.oom_control"
	done
}
for try in 1 2 3; do
	snap_files >"$TMPD/A"
	"$MEMCGTOP" --collector bpf -b -F json -n 1 -d 0.2 \
		-c "path,$STATCOLS,scan_prio,ev_oom_kill" "/$TNAME" >"$TMPD/bpf.json" 2>"$TMPD/bpf.err" ||
		abort "memcgtop --collector bpf failed: $(cat "$TMPD/bpf.err")"
	"$MEMCGTOP" --collector files -b -F json -n 1 -d 0.2 -c path,scan_prio "/$TNAME" \
		>"$TMPD/files.json" 2>&1 || abort "memcgtop --collector files failed"
	snap_files >"$TMPD/B"
	cmp -s "$TMPD/A" "$TMPD/B" && break
done

python3 - "$TMPD/A" "$TMPD/B" "$TMPD/bpf.json" "$TMPD/files.json" "$STATCOLS" \
	>"$TMPD/checks1" 2>&1 <<'EOF'
import json, sys
a_path, b_path, bpf_path, files_path, cols = sys.argv[1:]
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
def info(m): print("INFO: " + m)
def snaps(path):
    out, cur = {}, None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("== "):
            cur = out.setdefault(line[3:], {})
        else:
            k, v = line.split()
            cur[k] = int(v)
    return out
A, B = snaps(a_path), snaps(b_path)
# The column and its v1 key (hierarchical: total_*).
key = {"active_anon": "total_active_anon", "inactive_anon": "total_inactive_anon",
       "active_file": "total_active_file", "inactive_file": "total_inactive_file",
       "unevictable": "total_unevictable", "anon": "total_rss",
       "file": "total_cache", "shmem": "total_shmem",
       "refault_anon": "total_workingset_refault_anon",
       "refault_file": "total_workingset_refault_file",
       "pgfault": "total_pgfault", "pgmajfault": "total_pgmajfault",
       "file_mapped": "total_mapped_file", "file_dirty": "total_dirty",
       "file_writeback": "total_writeback",
       "swapcached": "total_swapcached", "anon_thp": "total_rss_huge"}
it = json.load(open(bpf_path))
groups = {g["path"]: g for g in it["groups"]}
if it["collector"] != "bpf":
    bad("the run used the %s collector" % it["collector"])
checked = moved = 0
wrong = []
for path, fa in A.items():
    g = groups.get(path)
    if g is None:
        wrong.append((path, "missing"))
        continue
    for col in cols.split(","):
        k = key[col]
        if fa.get(k) != B[path].get(k):
            moved += 1
            info("%s %s moved between the two reads (%s, %s)" % (path, k, fa.get(k), B[path].get(k)))
            continue
        checked += 1
        if g[col] != fa[k]:
            wrong.append((path, col, g[col], fa[k]))
if wrong:
    bad("pass values against memory.stat: %s" % wrong)
elif checked < 6 * len(cols.split(",")) - 6:
    bad("only %d values at rest (%d moved)" % (checked, moved))
else:
    ok("%d memory.stat values of 6 groups from the pass equal the files at rest (%d moved)" % (checked, moved))
x = groups[[p for p in groups if p.endswith("/a/x")][0]]
if x["anon"] >= 24 << 20 and x["shmem"] >= 16 << 20 and x["file"] >= 32 << 20:
    ok("a/x's load shows: anon %d, shmem %d, file %d" % (x["anon"], x["shmem"], x["file"]))
else:
    bad("a/x's load: anon %s, shmem %s, file %s" % (x["anon"], x["shmem"], x["file"]))
# The mapped disk file and the huge pages asked for (none where THP is
# never, or no huge page could be had: then 0, as the file says).
thp = open("/sys/kernel/mm/transparent_hugepage/enabled").read()
if x["file_mapped"] >= 6 << 20 and (x["anon_thp"] >= 2 << 20 or "[never]" in thp):
    ok("a/x's mapped file and huge pages show: file_mapped %d, anon_thp %d" % (x["file_mapped"], x["anon_thp"]))
else:
    bad("a/x's file_mapped %s (6 MiB mapped), anon_thp %s (THP: %s)" % (x["file_mapped"], x["anon_thp"], thp.strip()))
d = groups[[p for p in groups if p.endswith("/d")][0]]
dpath = [p for p in groups if p.endswith("/d")][0]
if d["ev_oom_kill"] == A[dpath]["oom_kill"] == 1:
    ok("d's ev_oom_kill from the pass: 1, as memory.oom_control says")
else:
    bad("d's ev_oom_kill %s, memory.oom_control %s" % (d["ev_oom_kill"], A[dpath]["oom_kill"]))
# scan_prio from the snapshot: floor(log2) of the group's largest own list
# in pages, at most 12; anon lists only where the host has swap.  Only
# where the lists did not move between the snapshots around both runs.
swap = any(l.split()[1] != "0" for l in open("/proc/meminfo") if l.startswith("SwapTotal:"))
lists = (["active_anon", "inactive_anon"] if swap else []) + ["active_file", "inactive_file"]
want = {}
for path, fa in A.items():
    if any(fa[k] != B[path][k] for k in lists):
        continue
    pages = max(fa[k] for k in lists) // 4096
    want[path] = min(pages.bit_length() - 1, 12) if pages else None
fg = {p: g["scan_prio"] for p, g in ((g["path"], g) for g in json.load(open(files_path))["groups"]) if p in want}
bg = {p: g["scan_prio"] for p, g in groups.items() if p in want}
if len(want) < 4:
    bad("scan_prio: the own lists of %d groups moved during the runs" % (6 - len(want)))
elif fg == bg == want and any(v is not None for v in want.values()):
    ok("scan_prio (the group's own lists) of %d groups as the snapshot gives, with both collectors: %s"
       % (len(want), sorted(want.values(), key=str)))
else:
    bad("scan_prio: snapshot %s, bpf %s, files %s" % (want, bg, fg))
EOF
[ $? = 0 ] || fail "the value checks ended with an error"
tally "$TMPD/checks1"

# Every value the pass can carry is proven on this kernel.
line=$("$MEMCGTOP" -VV / 2>&1 | grep '^memory.stat:')
if [[ $line =~ ^memory.stat:\ ([0-9]+)\ of\ ([0-9]+)\ values ]] &&
   [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" -ge 20 ]; then
	pass "-VV: $line"
else
	fail "-VV: '$line'"
fi

# Nothing proven (MEMCGTOP_BPF_FAIL=unproven: as a kernel without
# vmstats): the files give the values; auto says nothing, bpf says which
# values it read from the files, once.
for c in auto bpf; do
	MEMCGTOP_BPF_FAIL=unproven "$MEMCGTOP" --collector $c -b -F json -n 2 -d 0.2 \
		-c path,anon,active_file "/$TNAME" >"$TMPD/un.json" 2>"$TMPD/un.err"
	rc=$?
	err=$(cat "$TMPD/un.err")
	want=
	[ $c = bpf ] && want="memcgtop: bpf collector: memory.stat's anon, active_file read from the files (not proven in the kernel's statistics)"
	same=$(python3 -c '
import json, sys
its = [json.loads(l) for l in open(sys.argv[1])]
g = {x["path"]: x for x in its[-1]["groups"]}
x = [p for p in g if p.endswith("/a/x")][0]
stat = dict(l.split() for l in open(sys.argv[2]))
print("ok" if its[-1]["collector"] == "bpf" and g[x]["anon"] == int(stat["total_rss"]) else
      "%s %s" % (g[x]["anon"], stat["total_rss"]))' "$TMPD/un.json" "$T/a/x/memory.stat" 2>&1)
	if [ $rc = 0 ] && [ "$err" = "$want" ] && [ "$same" = ok ]; then
		pass "nothing proven, --collector $c: a/x's anon from its memory.stat, stderr '${err:-}'"
	else
		fail "nothing proven, --collector $c: exit $rc, stderr '$err', anon: $same"
	fi
done
line=$(MEMCGTOP_BPF_FAIL=unproven "$MEMCGTOP" -VV / 2>&1 | grep '^memory.stat:')
case $line in
"memory.stat: 0 of "*) pass "nothing proven, -VV: ${line:0:60}..." ;;
*) fail "nothing proven, -VV: '$line'" ;;
esac

# v1 pgscan and pgsteal: the kernel's counters.
SCOLS=path,pgscan,pgsteal,pgscan_kswapd,pgscan_direct,pgsteal_kswapd,pgsteal_direct
for n in 1 2; do
	"$MEMCGTOP" -b -F json -n 1 -d 0.2 -c "$SCOLS" "/$TNAME" >"$TMPD/scan$n.json" 2>&1 ||
		abort "memcgtop -c $SCOLS failed: $(cat "$TMPD/scan$n.json")"
	sleep 0.5
done
"$MEMCGTOP" -b -F openmetrics -n 1 -d 0.2 -c "$SCOLS" "/$TNAME" >"$TMPD/scan.om" 2>&1 ||
	abort "memcgtop -F openmetrics failed"
python3 - "$TMPD/scan1.json" "$TMPD/scan2.json" "$TMPD/scan.om" "/$TNAME" \
	>"$TMPD/checks2" 2>&1 <<'EOF'
import json, re, sys
p1, p2, om, top = sys.argv[1:]
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
g1 = {g["path"]: g for g in json.load(open(p1))["groups"]}
g2 = {g["path"]: g for g in json.load(open(p2))["groups"]}
b = g1[top + "/b"]
if b["pgscan"] > 0 and 0 < b["pgsteal"] <= b["pgscan"] and \
   b["pgscan_kswapd"] + b["pgscan_direct"] <= b["pgscan"] and \
   b["pgsteal_kswapd"] + b["pgsteal_direct"] <= b["pgsteal"]:
    ok("b reclaimed: pgscan %d, pgsteal %d (kswapd %d + direct %d scanned)" %
       (b["pgscan"], b["pgsteal"], b["pgscan_kswapd"], b["pgscan_direct"]))
else:
    bad("b: %s" % b)
kids = [top + s for s in ("/a", "/b", "/c", "/d")]
for k in ("pgscan", "pgsteal"):
    s = sum(g1[p][k] for p in kids)
    if g1[top][k] == s:
        ok("the top's %s (%d) is its children's sum" % (k, s))
    else:
        bad("the top's %s %d, its children's %d" % (k, g1[top][k], s))
same = all(g1[p]["pgscan"] == g2[p]["pgscan"] for p in g1)
if same and b["pgscan"] > 0:
    ok("two -n 1 runs give the same cumulative pgscan")
else:
    bad("two -n 1 runs: %s / %s" % ({p: g1[p]["pgscan"] for p in g1}, {p: g2[p]["pgscan"] for p in g2}))
m = re.search(r'^memcgtop_pgscan_total\{cgroup="%s/b"\} (\d+)' % re.escape(top), open(om).read(), re.M)
if m and int(m.group(1)) == b["pgscan"]:
    ok("OpenMetrics memcgtop_pgscan_total of b: %s" % m.group(1))
else:
    bad("OpenMetrics memcgtop_pgscan_total of b: %s, JSON %d" % (m and m.group(1), b["pgscan"]))
EOF
[ $? = 0 ] || fail "the pgscan checks ended with an error"
tally "$TMPD/checks2"

# The events rule against the kernel's own global counters: the root's
# hierarchical pgscan and pgsteal are every group's, which is what
# /proc/vmstat counts (each reclaim counts both).  After the periodic
# flush (2 s) at rest they are equal; /proc/vmstat is read around the run.
# (pgscan_anon + pgscan_file: its pgscan_kswapd and _direct count global
# reclaim only, not a group's limit reclaim.)
vm_sum() { awk -v p="$1" '$1 == p "_anon" || $1 == p "_file" { s += $2 }
	END { printf "%.0f\n", s }' /proc/vmstat; }
sleep 2.5
sa=$(vm_sum pgscan) ta=$(vm_sum pgsteal)
"$MEMCGTOP" -b -F json -n 1 -d 0.2 --depth 0 -c path,pgscan,pgsteal / >"$TMPD/root.json" 2>&1
sb=$(vm_sum pgscan) tb=$(vm_sum pgsteal)
read -r rs rt < <(python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
print(g["pgscan"], g["pgsteal"])' "$TMPD/root.json")
if [ "$sa" = "$sb" ] && [ "$ta" = "$tb" ]; then
	if [ "$rs" = "$sa" ] && [ "$rt" = "$ta" ]; then
		pass "the root's pgscan $rs and pgsteal $rt equal /proc/vmstat's sums"
	else
		fail "the root's pgscan $rs and pgsteal $rt, /proc/vmstat's $sa and $ta"
	fi
else
	echo "INFO: the host reclaimed during the check (/proc/vmstat pgscan $sa..$sb): root $rs"
	[ "$rs" -le "$sb" ] && [ "$rt" -le "$tb" ] && pass "the root's pgscan $rs <= /proc/vmstat's $sb" ||
		fail "the root's pgscan $rs above /proc/vmstat's $sb"
fi

# The LRU and mission views: one program, at most one flush a refresh.
# Its distinct programs (a program's fd and its link's both name it).
# progs PID: the names of the BPF programs the process holds, sorted
progs() {
	local id
	for id in $(cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '$1 == "prog_id:" { print $2 }' | sort -u); do
		bpftool prog show id "$id" 2>/dev/null | head -n 1 | awk '{ print $4 }'
	done | sort | tr '\n' ' ' | sed 's/ $//'
}
LRU=path,usage,active_anon,inactive_anon,active_file,inactive_file,unevictable
MISSION=path,usage,soft,excess,active_anon,inactive_anon,active_file,inactive_file,pgscan_per_s,pgsteal_per_s
flushes() {	# COLLECTOR COLUMNS N: memcg_flush_stats events of the run
	perf stat -x, -e memcg:memcg_flush_stats -o "$TMPD/perf" -- \
		"$MEMCGTOP" --collector "$1" -b -n "$3" -d 0.05 -c "$2" "/$TNAME" >/dev/null 2>&1
	awk -F, '/memcg:memcg_flush_stats/ { print $1 }' "$TMPD/perf"
}
# only_iter WHAT COLUMNS START: a run of the view holds the iterator
# (memcg_iter, the collector's) and the OOM program (mark_victim, which
# runs only on a kill), no reclaim tracepoint
only_iter() {
	local pid np
	"$MEMCGTOP" -b -n 2 -d 2 -c "$2" "$3" >"$TMPD/lo" 2>&1 &
	pid=$!
	pids+=("$pid")
	for i in $(seq 600); do
		[ -s "$TMPD/lo" ] && break
		sleep 0.05
	done
	np=$(progs "$pid")
	# Read again while it still runs if that read found none (a CI run
	# found none twice here, in the empty start group only).
	for i in 1 2 3 4 5; do
		[ -n "$np" ] || ! kill -0 "$pid" 2>/dev/null && break
		sleep 0.2
		np=$(progs "$pid")
	done
	alive=$(kill -0 "$pid" 2>/dev/null && echo running || echo gone)
	wait "$pid"
	if [ "$np" = "mark_victim memcg_iter" ] || [ "$np" = memcg_iter ]; then
		pass "$1: the iterator and the OOM program only ($np), no reclaim tracepoint"
	else
		fail "$1: BPF programs '$np' (memcgtop $alive; it printed: $(head -c 200 "$TMPD/lo" | tr '\n' '|'))"
	fi
}
for view in LRU MISSION; do
	cols=${!view}
	only_iter "$view view" "$cols" "/$TNAME"
	f1=$(flushes bpf "$cols" 1) f11=$(flushes bpf "$cols" 11)
	g1=$(flushes files "$cols" 1) g11=$(flushes files "$cols" 11)
	if [[ $f1 =~ ^[0-9]+$ && $f11 =~ ^[0-9]+$ && $g1 =~ ^[0-9]+$ && $g11 =~ ^[0-9]+$ ]] &&
	   [ $((f11 - f1)) -le 10 ] && [ $((g11 - g1)) -ge 60 ]; then
		pass "$view view: $((f11 - f1)) stats flush calls in 10 refreshes with the pass, $((g11 - g1)) with the files (6 groups)"
	else
		fail "$view view: flush calls bpf n=1 '$f1' n=11 '$f11', files n=1 '$g1' n=11 '$g11'"
	fi
done

# all_at_root LABEL ARGS...: memcgtop -VV with ARGS says every memory.stat
# value comes from the pass ("N of N"), some proven against the hierarchy
# root's.
all_at_root() {
	local label=$1 vv nn
	shift
	vv=$("$MEMCGTOP" -VV -b -n 1 "$@" 2>/dev/null |
	     grep -o 'memory.stat: [0-9]* of [0-9]* values from the pass\|[0-9]* of them proven against the hierarchy root.s')
	nn=$(echo "$vv" | sed -n 's/memory.stat: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p')
	if [ -n "$nn" ] && [ "${nn% *}" = "${nn#* }" ] &&
	   echo "$vv" | grep -q 'of them proven against the hierarchy root'; then
		pass "$label: -VV '$(echo $vv)'"
	else
		fail "$label: -VV '$(echo $vv)'"
	fi
}

# c: no task ever ran in it, so its pgfault is 0 and proves no word: the
# events rule's words (pgscan, pgsteal) are proven once against the
# hierarchy root's memory.stat when the pass opens, and no reclaim
# tracepoint is loaded for the columns.
cfault=$(awk '$1 == "total_pgfault" { print $2 }' "$T/c/memory.stat")
if [ "$cfault" = 0 ]; then
	only_iter "empty start group c" "$MISSION" "/$TNAME/c"
	all_at_root "empty start group c" -c "$MISSION" "/$TNAME/c"
	"$MEMCGTOP" --collector bpf -b -F json -n 1 -c path,pgscan,pgsteal,pgfault "/$TNAME/c" \
		>"$TMPD/c.json" 2>"$TMPD/c.err"
	cv=$(python3 -c 'import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
print(g["pgscan"], g["pgsteal"], g["pgfault"])' "$TMPD/c.json" 2>&1)
	if [ "$cv" = "0 0 0" ] && [ ! -s "$TMPD/c.err" ]; then
		pass "empty start group c: pgscan, pgsteal, pgfault '$cv' from the pass, --collector bpf silent"
	else
		fail "empty start group c: pgscan, pgsteal, pgfault '$cv', stderr '$(cat "$TMPD/c.err")'"
	fi
else
	fail "c's total_pgfault is '$cfault', not 0: no empty start group to test"
fi

# s as the start group: its file pages are all shmem (two words hold the
# value), which its memory.stat cannot prove, and those are proven by the
# hierarchy root's memory.stat when the pass opens: every value from the
# pass (-VV "N of N"), --collector bpf silent on every column, s's file,
# shmem and anon lists those of its memory.stat around the run.
all_at_root "start group s (its file all shmem)" "/$TNAME/s"
cp "$T/s/memory.stat" "$TMPD/s.before"
"$MEMCGTOP" --collector bpf -b -F json -n 1 "/$TNAME/s" >"$TMPD/s.json" 2>"$TMPD/s.err"
cp "$T/s/memory.stat" "$TMPD/s.after"
sv=$(python3 - "$TMPD/s.json" "$TMPD/s.before" "$TMPD/s.after" <<'PY' 2>&1
import json, sys
g = json.load(open(sys.argv[1]))["groups"][0]
def stat(p):
    return {k: int(v) for k, v in (l.split() for l in open(p))}
b, a = stat(sys.argv[2]), stat(sys.argv[3])
bad = []
for col, key in (("file", "total_cache"), ("shmem", "total_shmem"),
                 ("inactive_anon", "total_inactive_anon"),
                 ("active_anon", "total_active_anon")):
    lo, hi = sorted((b[key], a[key]))
    if not lo <= g.get(col, -1) <= hi:
        bad.append("%s %s not in [%d, %d]" % (col, g.get(col), lo, hi))
if g.get("shmem") != 16 << 20:
    bad.append("shmem %s, not 16 MiB" % g.get("shmem"))
print("; ".join(bad) or "ok %d %d %d %d" % (g["file"], g["shmem"], g["inactive_anon"], g["active_anon"]))
PY
)
if [ "${sv%% *}" = ok ] && [ ! -s "$TMPD/s.err" ]; then
	pass "start group s: file, shmem, inactive_anon, active_anon from the pass as its memory.stat (${sv#ok }), --collector bpf silent"
else
	fail "start group s: $sv; stderr '$(cat "$TMPD/s.err")'"
fi

# a/x as the start group, the memory.stat values a limit change depends
# on: every one from the pass (-VV "N of N": proven against a/x's file, or
# 0 as it is there), and those v1's memory.stat has no line for not
# available (null) with either collector.
vv=$("$MEMCGTOP" -VV -b -n 3 -d 0.2 --collector bpf \
	-c path,file_mapped,file_dirty,file_writeback,swapcached,anon_thp \
	"/$TNAME/a/x" 2>/dev/null | grep -o 'memory.stat: [0-9]* of [0-9]* values from the pass' | tail -n 1)
nn=$(echo "$vv" | sed -n 's/memory.stat: \([0-9]*\) of \([0-9]*\) .*/\1 \2/p')
if [ -n "$nn" ] && [ "${nn% *}" = "${nn#* }" ]; then
	pass "start group a/x, file_mapped ... anon_thp: -VV '$vv'"
else
	fail "start group a/x, file_mapped ... anon_thp: -VV '$vv'"
fi
V2ONLY=file_thp,slab_reclaimable,slab_unreclaimable,kernel_stack,pagetables,sock
for c in bpf files; do
	nulls=$("$MEMCGTOP" --collector $c -b -F json -n 1 -c "path,$V2ONLY" "/$TNAME" 2>&1 |
		python3 -c '
import json, sys
cols = sys.argv[1].split(",")
gs = json.load(sys.stdin)["groups"]
print(sum(1 for g in gs for k in cols if g[k] is None), len(gs) * len(cols))' "$V2ONLY" 2>&1)
	if [ "${nulls% *}" = "${nulls#* }" ] && [ "${nulls% *}" -gt 0 ]; then
		pass "--collector $c: $V2ONLY not available on v1 ($nulls values null)"
	else
		fail "--collector $c: $V2ONLY on v1: '$nulls' (null of all)"
	fi
done

stop_pids "${pids[@]}"
pids=()
rm -f "$SHM" "$SHM2"
trap - EXIT
live_tree_done
