#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# soft-v1.sh - v1 soft-limit reclaim as it is, under real global pressure
# on the live v1 host: soft_tree_excess and soft_rank (the kernel's
# soft-limit tree, from the BPF pass) and soft_pgscan, soft_pgsteal (the
# pages soft-limit reclaim scanned and took) against perf's record of the
# vmscan softlimit_reclaim events and the groups' files.
#
# Usage (as root):  tests/live/soft-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# It makes /memcgtop-soft-PID-N with A (soft limit 0), B (soft limit
# 256M), P and Q (no soft limit) and H.  P and Q read 1 GiB of a file
# each, B 512 MiB; then H holds all but 2.5 GiB of the free memory in
# shared anonymous memory (no swap: it stays), so that more page cache
# means global reclaim (kswapd).  Two cases, each under
#   memcgtop -b -F json -n 12 -d 1 -c path,usage,soft,soft_tree_excess,
#     soft_rank,soft_pgscan,soft_pgsteal,pgscan_kswapd,pgscan_direct /
# and perf record -a of vmscan:mm_vmscan_memcg_softlimit_reclaim_{begin,end}:
#   1. the review's case: A streams 4 GiB of a file with readahead (large
#      folios; the kernel runs no soft-limit reclaim for requests above
#      order 0);
#   2. A reads 4 GiB with readahead off (POSIX_FADV_RANDOM: order-0 pages).
# Checks, each case: the whole host's soft_pgsteal (the root's, counted
# from memcgtop's first line to its last, kswapd quiet by then) equals
# the sum of nr_reclaimed of perf's end events, and its soft_pgscan is 0
# exactly when perf saw no begin event; P, Q and H (never on the tree:
# no soft limit) have soft_pgscan 0 in every line; the tree's group sums
# its children's (hierarchical); soft_pgsteal <= soft_pgscan <= pgscan
# (kswapd + direct) for A; kswapd scanned P's or Q's lists meanwhile.
# Case 2 also: A's soft_pgscan grew.  At rest after case 1: A's and B's
# soft_tree_excess equal their usage minus soft limit within the
# kernel's update batch (1,024 page events a CPU, and a folio of at most
# 512 pages, each CPU); P, Q, H and the tree 0; soft_rank: A 1 + the
# groups with more excess, B one more than A (nothing between them).
# Soft-limit reclaim as its own reclaimer, each case: the system
# soft_scan_by_priority has pages at priority 0 alone, as many as the
# root's soft_pgscan (within rounding of the rates), scan_by_priority[0]
# holds at most a tenth of them; A's prio_min_soft is 0 exactly where
# soft-limit reclaim scanned it, its prio_min, prio_min_kswapd and
# prio_min_direct never 0.  The host's split, each case: kswapd +
# direct + khugepaged + proactive + memcg = pgscan_per_s in every line;
# memcgtop -F openmetrics run (up to 20 times) while A reads, each run
# between two copies of /proc/vmstat made by the test: each of
# kswapd, direct, khugepaged and proactive within its two reads, memcg
# (the rest) and the parts' sum within pgscan_anon + pgscan_file's two
# reads (the tolerance: what vmstat moved between them), and the host
# reclaimed during one of them at least.
# Prints what the kernel did in case 1 (whether soft reclaim ran).
# PASS:/FAIL: lines, then "live-soft-v1: N passed, M failed".  Not root,
# no writable v1 memory mount, no perf or tracepoints, or less than 6 GiB
# free: SKIP, exit 77 (CI=true: FAIL).
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live soft v1"
. "$here/lib.sh"
live_tree_start soft
command -v perf >/dev/null || cannot_run "no perf (Debian's linux-perf)"
perf list 2>/dev/null | grep -q 'vmscan:mm_vmscan_memcg_softlimit_reclaim_begin' ||
	cannot_run "no vmscan:mm_vmscan_memcg_softlimit_reclaim_begin tracepoint"
[ -e /sys/kernel/mm/lru_gen/enabled ] &&
	[ "$(cat /sys/kernel/mm/lru_gen/enabled)" != 0x0000 ] &&
	cannot_run "the multi-gen LRU is on: the kernel keeps no soft-limit tree"
free_kb=$(awk '/^MemFree:/ {print $2}' /proc/meminfo)
[ "$free_kb" -ge $((6 << 20)) ] || cannot_run "less than 6 GiB free ($free_kb kB)"

T=$CGM/$TNAME
mkdir -p "$T/A" "$T/B" "$T/P" "$T/Q" "$T/H" || abort "cannot make $T"
echo 0 >"$T/A/memory.soft_limit_in_bytes" &&
	echo 256M >"$T/B/memory.soft_limit_in_bytes" || abort "cannot set soft limits"
# Sparse files: their holes read as page cache without disk reads.
for f in p q b seq rnd; do truncate -s 8G "$TMPD/$f" || abort "truncate"; done
in_group() { # GROUP COMMAND...: runs COMMAND in the group, waits
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$@"
}
in_group "$T/P" head -c 1G "$TMPD/p" >/dev/null || abort "P's read"
in_group "$T/Q" head -c 1G "$TMPD/q" >/dev/null || abort "Q's read"
in_group "$T/B" head -c 512M "$TMPD/b" >/dev/null || abort "B's read"
cat >"$TMPD/hold.py" <<'EOF'
import mmap, sys, time
n = int(sys.argv[1]) << 20
m = mmap.mmap(-1, max(n, 1 << 20))
chunk = b'\1' * (64 << 20)
for off in range(0, n - len(chunk) + 1, len(chunk)):
    m[off:off + len(chunk)] = chunk
print("held", flush=True)
time.sleep(600)
EOF
cat >"$TMPD/read.py" <<'EOF'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
if sys.argv[2] == "random":
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
off, size = 0, int(sys.argv[3]) << 30
while off < size:
    b = os.pread(fd, 1 << 20, off)
    if not b:
        break
    off += len(b)
EOF
hold_mb=$(( $(awk '/^MemFree:/ {print $2}' /proc/meminfo) / 1024 - 2560 ))
[ "$hold_mb" -gt 0 ] || hold_mb=0
sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 "$2" "$3"' sh "$T/H" \
	"$TMPD/hold.py" "$hold_mb" >"$TMPD/hold.out" &
pids+=("$!")
# Memory this machine kind's hypervisor has not given the guest yet
# costs up to 3 s a GiB at first touch.
for _ in $(seq 3000); do
	grep -q held "$TMPD/hold.out" && break
	sleep 0.1
done
grep -q held "$TMPD/hold.out" || abort "H could not hold $hold_mb MiB"

kswapd_scans() { awk '/^pgscan_kswapd / {print $2}' /proc/vmstat; }

# run_case N MODE: perf and memcgtop around A's read of 4 GiB.
run_case() {
	local n=$1 mode=$2 file mc perfpid last now t0 rc
	file=$TMPD/seq
	[ "$mode" = random ] && file=$TMPD/rnd
	perf record -q -a -o "$TMPD/perf$n.data" \
		-e vmscan:mm_vmscan_memcg_softlimit_reclaim_begin \
		-e vmscan:mm_vmscan_memcg_softlimit_reclaim_end \
		-- sleep 600 >"$TMPD/perf$n.out" 2>&1 &
	perfpid=$!
	pids+=("$perfpid")
	sleep 1
	"$MEMCGTOP" -b -F json -n 200 -d 1 -c path,usage,soft,soft_tree_excess,soft_rank,soft_pgscan,soft_pgsteal,pgscan_kswapd,pgscan_direct,prio_min,prio_min_kswapd,prio_min_direct,prio_min_soft / \
		>"$TMPD/out$n.json" 2>"$TMPD/err$n" &
	mc=$!
	pids+=("$mc")
	for _ in $(seq 100); do
		[ -s "$TMPD/out$n.json" ] && break
		sleep 0.05
	done
	[ -s "$TMPD/out$n.json" ] || abort "memcgtop printed nothing: $(head -c 300 "$TMPD/err$n")"
	t0=$SECONDS
	in_group "$T/A" python3 "$TMPD/read.py" "$file" "$mode" 4 &
	reader=$!
	pids+=("$reader")
	# While A reads: the host's scan split as OpenMetrics counters,
	# each run between two reads of /proc/vmstat by this script.
	k=0
	while kill -0 "$reader" 2>/dev/null && [ $k -lt 20 ]; do
		cp /proc/vmstat "$TMPD/vm$n.$k.a"
		"$MEMCGTOP" -b -n 1 -F openmetrics --collector files -c path / \
			>"$TMPD/om$n.$k" 2>"$TMPD/omerr" ||
			abort "memcgtop -F openmetrics: $(head -c 300 "$TMPD/omerr")"
		[ ! -s "$TMPD/omerr" ] || abort "memcgtop -F openmetrics said: $(head -c 300 "$TMPD/omerr")"
		cp /proc/vmstat "$TMPD/vm$n.$k.b"
		k=$((k + 1))
		# Runs close together: kswapd's reclaim of a streaming read
		# comes in bursts, and one run at least must hold one.
		sleep 0.1
	done
	wait "$reader" || abort "A's $mode read failed"
	# kswapd quiet: its scans unchanged for 2 s; then two more lines,
	# and TERM ends memcgtop between lines.
	last=$(kswapd_scans)
	for _ in $(seq 60); do
		sleep 2
		now=$(kswapd_scans)
		[ "$now" = "$last" ] && break
		last=$now
	done
	[ "$now" = "$last" ] || abort "case $n: kswapd busy for 2 minutes after the read"
	quiet_lines=$(wc -l <"$TMPD/out$n.json")
	for _ in $(seq 100); do
		[ "$(wc -l <"$TMPD/out$n.json")" -ge $((quiet_lines + 2)) ] && break
		sleep 0.1
	done
	# Printing to a pipe or file, memcgtop dies of the TERM (143); a
	# line it was writing is left out below.
	kill -TERM "$mc"
	wait "$mc"
	rc=$?
	[ $rc = 0 ] || [ $rc = 143 ] || abort "memcgtop: exit $rc, $(head -c 300 "$TMPD/err$n")"
	kill -INT "$perfpid"
	wait "$perfpid"
	[ ! -s "$TMPD/err$n" ] || abort "memcgtop said: $(head -c 300 "$TMPD/err$n")"
	echo "case $n: A's $mode read $((SECONDS - t0)) s, kswapd quiet at line $quiet_lines"
	perf script -i "$TMPD/perf$n.data" -F event,trace 2>/dev/null >"$TMPD/perf$n.txt"
}

run_case 1 sequential
# At rest: the files beside the tree, read right after one more line.
"$MEMCGTOP" -b -F json -n 1 -c path,usage,soft,soft_tree_excess,soft_rank / \
	>"$TMPD/rest.json" 2>"$TMPD/err.rest" || abort "memcgtop at rest: $(head -c 300 "$TMPD/err.rest")"
for g in A B P Q H; do
	echo "$g $(cat "$T/$g/memory.usage_in_bytes") $(cat "$T/$g/memory.soft_limit_in_bytes")"
done >"$TMPD/files.txt"
run_case 2 random

python3 - "$TMPD" "/$TNAME" "$(nproc)" >"$TMPD/checks" 2>&1 <<'EOF'
import json, os, re, sys
tmp, top, ncpu = sys.argv[1], sys.argv[2], int(sys.argv[3])
def ok(m): print("PASS: " + m)
def bad(m): print("FAIL: " + m)
def check(c, m):
    (ok if c else bad)(m)
def g(it, p):
    return [x for x in it["groups"] if x["path"] == p][0]
kids = [top + "/" + k for k in "ABPQH"]
for n, mode in ((1, "streaming with readahead"), (2, "readahead off")):
    its = []
    for l in open(os.path.join(tmp, "out%d.json" % n)):
        try:
            its.append(json.loads(l))
        except ValueError:
            break
    begins, reclaimed = 0, 0
    for l in open(os.path.join(tmp, "perf%d.txt" % n)):
        if "softlimit_reclaim_begin" in l:
            begins += 1
        m = re.search(r"softlimit_reclaim_end.*nr_reclaimed=(\d+)", l)
        if m:
            reclaimed += int(m.group(1))
    first, last = its[0], its[-1]
    d = lambda p, k: g(last, p)[k] - g(first, p)[k]
    steal = d("/", "soft_pgsteal")
    scan = d("/", "soft_pgscan")
    print("case %d (%s): perf saw %d soft-limit reclaims taking %d pages; "
          "memcgtop: root soft_pgscan +%d, soft_pgsteal +%d, A +%d/+%d"
          % (n, mode, begins, reclaimed, scan, steal,
             d(top + "/A", "soft_pgscan"), d(top + "/A", "soft_pgsteal")))
    check(steal == reclaimed,
          "case %d: the host's soft_pgsteal grew by %d, perf's end events took %d"
          % (n, steal, reclaimed))
    check((scan == 0) == (begins == 0),
          "case %d: soft_pgscan +%d with %d soft-limit reclaims" % (n, scan, begins))
    still = [p for p in (top + "/P", top + "/Q", top + "/H")
             if any(g(it, p)["soft_pgscan"] != 0 or g(it, p)["soft_pgsteal"] != 0
                    for it in its)]
    check(not still, "case %d: P, Q and H (no soft limit) 0 in every line%s"
          % (n, " but " + str(still) if still else ""))
    hier = all(g(it, top)["soft_pgscan"] == sum(g(it, k)["soft_pgscan"] for k in kids)
               and g(it, top)["soft_pgsteal"] == sum(g(it, k)["soft_pgsteal"] for k in kids)
               for it in its)
    check(hier, "case %d: the tree's soft_pgscan and soft_pgsteal are its children's sums in every line" % n)
    a = top + "/A"
    sa, ta = d(a, "soft_pgsteal"), d(a, "soft_pgscan")
    pa = d(a, "pgscan_kswapd") + d(a, "pgscan_direct")
    check(sa <= ta <= pa, "case %d: A soft_pgsteal %d <= soft_pgscan %d <= pgscan %d"
          % (n, sa, ta, pa))
    pq = d(top + "/P", "pgscan_kswapd") + d(top + "/Q", "pgscan_kswapd")
    check(pq > 0, "case %d: kswapd scanned P's and Q's lists meanwhile: %d pages" % (n, pq))
    if n == 2:
        check(ta > 0, "case 2: A's soft_pgscan grew by %d with readahead off" % ta)
    # Soft-limit reclaim is a reclaimer of its own: its scans in
    # soft_scan_by_priority, all at priority 0 (the kernel's fixed one),
    # as many pages as the root's soft_pgscan; not in scan_by_priority
    # and not in A's prio_min, prio_min_kswapd, prio_min_direct.
    lines = its[1:]
    soft_h = [sum(it["system"]["soft_scan_by_priority"][p] * it["interval_s"]
                  for it in lines) for p in range(13)]
    main0 = sum(it["system"]["scan_by_priority"][0] * it["interval_s"] for it in lines)
    check(all(v == 0 for v in soft_h[1:]),
          "case %d: soft_scan_by_priority has pages at priority 0 alone (%s)"
          % (n, ["%.0f" % v for v in soft_h]))
    check(abs(soft_h[0] - scan) <= 0.005 * scan + 16 * len(lines),
          "case %d: soft_scan_by_priority's %.0f pages are the root's soft_pgscan +%d"
          % (n, soft_h[0], scan))
    if scan > 0:
        check(main0 <= 0.1 * soft_h[0],
              "case %d: scan_by_priority[0] %.0f pages, not soft-limit reclaim's %.0f"
              % (n, main0, soft_h[0]))
    ps = [g(it, a)["prio_min_soft"] for it in its]
    check(all(p in (None, 0) for p in ps) and ((0 in ps) == (ta > 0)),
          "case %d: A's prio_min_soft 0 exactly where soft-limit reclaim scanned it: %s"
          % (n, ps))
    other = [(g(it, a)["prio_min"], g(it, a)["prio_min_kswapd"], g(it, a)["prio_min_direct"])
             for it in its]
    check(all(0 not in t for t in other),
          "case %d: A's prio_min, prio_min_kswapd, prio_min_direct never 0 "
          "(soft-limit reclaim's left out): %s" % (n, other))
    # The host's split adds up in every line (rates of 3 decimals).
    parts = ("pgscan_kswapd_per_s", "pgscan_direct_per_s", "pgscan_khugepaged_per_s",
             "pgscan_proactive_per_s", "pgscan_memcg_per_s")
    sums = [(sum(it["system"][k] for k in parts), it["system"]["pgscan_per_s"]) for it in its]
    check(all(abs(x - y) <= 0.005 for x, y in sums),
          "case %d: kswapd + direct + khugepaged + proactive + memcg = pgscan_per_s "
          "in every line (last %.3f = %.3f)" % (n, sums[-1][0], sums[-1][1]))
    # Against /proc/vmstat read by the test just before and just after
    # each OpenMetrics run: each part within its own two reads, the
    # parts' sum within pgscan_anon + pgscan_file's; the tolerance is
    # what vmstat moved between the two reads.
    k, moved, brackets = 0, 0, []
    while os.path.exists(os.path.join(tmp, "om%d.%d" % (n, k))):
        vm = []
        for e in "ab":
            d = {}
            for l in open(os.path.join(tmp, "vm%d.%d.%s" % (n, k, e))):
                w = l.split()
                d[w[0]] = int(w[1])
            vm.append(d)
        om = {}
        for l in open(os.path.join(tmp, "om%d.%d" % (n, k))):
            m = re.match(r"memcgtop_system_pgscan(_\w+)?_total (\d+)$", l)
            if m:
                om[(m.group(1) or "")[1:]] = int(m.group(2))
        keys = ("kswapd", "direct", "khugepaged", "proactive")
        va, vb = vm
        af = lambda v: v["pgscan_anon"] + v["pgscan_file"]
        rest_lo = af(va) - sum(vb["pgscan_" + x] for x in keys)
        rest_hi = af(vb) - sum(va["pgscan_" + x] for x in keys)
        good = (all(va["pgscan_" + x] <= om.get(x, -1) <= vb["pgscan_" + x] for x in keys)
                and max(rest_lo, 0) <= om.get("memcg", -1) <= rest_hi
                and af(va) <= sum(om.get(x, 0) for x in keys + ("memcg",)) <= af(vb)
                and om.get("", -1) == sum(om.get(x, 0) for x in keys + ("memcg",)))
        brackets.append((good, af(vb) - af(va)))
        moved = max(moved, af(vb) - af(va))
        k += 1
    check(brackets and all(b for b, _ in brackets),
          "case %d: %d OpenMetrics runs while A read: the parts (kswapd %s) lie within "
          "/proc/vmstat's reads around them, their sum within pgscan_anon + pgscan_file "
          "(tolerance: what vmstat moved between the reads, at most %d pages)"
          % (n, len(brackets), om.get("kswapd"), moved))
    check(any(m > 0 for _, m in brackets),
          "case %d: the host reclaimed during the OpenMetrics runs (%s pages)"
          % (n, [m for _, m in brackets]))

rest = json.loads(open(os.path.join(tmp, "rest.json")).readline())
files = {l.split()[0]: [int(x) for x in l.split()[1:]]
         for l in open(os.path.join(tmp, "files.txt"))}
bound = ncpu * (1024 + 512) * 4096
for k in "AB":
    u, s = files[k]
    got = g(rest, top + "/" + k)["soft_tree_excess"]
    # the kernel's excess: usage over the soft limit, else 0 (off the tree)
    check(got is not None and abs(got - max(0, u - s)) <= bound,
          "at rest: %s soft_tree_excess %s, usage - soft from the files %d (bound %d)"
          % (k, got, u - s, bound))
zero = [(p, g(rest, p)["soft_tree_excess"]) for p in
        (top, top + "/P", top + "/Q", top + "/H")]
check(all(v == 0 for _, v in zero), "at rest: the tree, P, Q and H soft_tree_excess 0: %s" % zero)
ea = g(rest, top + "/A")["soft_tree_excess"]
eb = g(rest, top + "/B")["soft_tree_excess"]
more = sum(1 for x in rest["groups"] if (x["soft_tree_excess"] or 0) > ea)
ra, rb = g(rest, top + "/A")["soft_rank"], g(rest, top + "/B")["soft_rank"]
between = sum(1 for x in rest["groups"] if eb < (x["soft_tree_excess"] or 0) < ea)
check(ra == 1 + more, "at rest: A's soft_rank %s, 1 + %d groups with more excess" % (ra, more))
# Global reclaim under H's hold may take B below its soft limit (kswapd
# reclaims every group, not only by soft-limit excess): then it is on no
# tree and has no rank.
if eb:
    check(ea > eb and rb == ra + 1 + between,
          "at rest: B's soft_rank %s (excess %s below A's %s, %d between)" % (rb, eb, ea, between))
else:
    check(rb is None, "at rest: B under its soft limit (files: usage - soft %d): soft_rank %s, want null"
          % (files["B"][0] - files["B"][1], rb))
norank = [p for p in (top, top + "/P", top + "/Q") if g(rest, p)["soft_rank"] is not None]
check(not norank, "at rest: groups on no tree have no soft_rank (null)%s"
      % (": " + str(norank) if norank else ""))
EOF
[ $? = 0 ] || fail "the checks ended with an error"
tally "$TMPD/checks"
finish
pids=()
live_tree_done
