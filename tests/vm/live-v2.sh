#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/live-v2.sh - run memcgtop live against a real cgroup v2 kernel in
# the qemu test VM (tests/vm/vm.sh) and check its JSON output against the
# kernel's own files.
#
#   tests/vm/live-v2.sh
#
# In the guest: a hierarchy below /sys/fs/cgroup/live with memory.max, high,
# low, min and swap.max set; loads that cause limit reclaim with swap-out and
# anon refaults (work/reclaim), limit reclaim of page cache with file
# refaults (work/cache), kswapd reclaim (bulk: page cache filling the VM's
# RAM) and one memcg OOM kill (oom).  While the loads run, the guest reads
# the kernel's reference files of the whole hierarchy ("before"), runs
# `memcgtop -b -F json -n 3 -d 1` (whole hierarchy, live) into the share,
# reads the reference files again ("after"), then runs memcgtop once more as
# an unprivileged user (uid/gid 65534 through busybox su).  The host
# checks the output with python3 (stdlib only).
#
# Output: one "PASS: ..." / "FAIL: ..." line per check, then
# "live-v2: N passed, M failed"; exit 0 when all pass, 1 otherwise.
# Without qemu, the kernel package, a static libc or python3 (and no way to
# get them) it prints "SKIP: live v2: REASON" and exits 77 -- unless CI=true,
# where that is a failure (exit 1).  A VM that does not boot is a failure.
#
# Environment:
#   MEMCGTOP          binary to test (default: REPO/memcgtop, rebuilt with
#                     make first)
#   LIVE_V2_SETTLE    seconds of reclaim after the OOM kill before measuring
#                     (default 3)
#   LIVE_V2_TIMEOUT   VM timeout in seconds (default 240)
#   LIVE_V2_STRICT_EFF=1  fail on any reclaim_eff > 1 (by default a value
#                     above 1 passes when the kernel's counters give
#                     Δpgsteal > Δpgscan by at most 1024 pages in flight)
#   LIVE_V2_KEEP=1    keep the share folder (build/vm/live-v2-share) for
#                     inspection (it is always kept on failure)
#   VM_BUILD, VM_VERBOSE  as for tests/vm/vm.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
SETTLE=${LIVE_V2_SETTLE:-3}
TMO=${LIVE_V2_TIMEOUT:-240}
t0=$(date +%s.%N)

NAME="live v2"
. "$HERE/lib.sh"
vm_host_ready
vm_binary

vm_share live-v2
gcc -O2 -static -o "$share/bin/snap" "$ROOT/tests/capture/snap.c" 2>>"$share/gcc.log" ||
	skip "cannot build a static snap: $(tail -n 1 "$share/gcc.log")"
# statloop: reads the root's memory.stat every 2 ms until STOPFILE exists and
# prints the count and the min and max of anon+file+kernel+sock: the span of
# root usage while memcgtop runs (it moves by megabytes from read to read)
cat > "$share/statloop.c" <<'CEOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	unsigned long long lo = ~0ULL, hi = 0;
	unsigned long n = 0;
	struct timespec ts = { 0, 2000000 };

	if (argc != 3)
		return 2;
	while (access(argv[2], F_OK) != 0) {
		int fd = open(argv[1], O_RDONLY);
		ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		unsigned long long sum = 0;
		int seen = 0;

		if (fd >= 0)
			close(fd);
		if (len <= 0)
			return 1;
		buf[len] = 0;
		for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
			static const char *const k[] = { "anon ", "file ", "kernel ", "sock " };

			for (int i = 0; i < 4; i++)
				if (!(seen & (1 << i)) && strncmp(l, k[i], strlen(k[i])) == 0) {
					sum += strtoull(l + strlen(k[i]), NULL, 10);
					seen |= 1 << i;
				}
		}
		if (seen != 15)
			return 1;
		if (sum < lo)
			lo = sum;
		if (sum > hi)
			hi = sum;
		n++;
		nanosleep(&ts, NULL);
	}
	printf("%lu %llu %llu\n", n, lo, hi);
	return 0;
}
CEOF
gcc -O2 -static -o "$share/bin/statloop" "$share/statloop.c" 2>>"$share/gcc.log" ||
	skip "cannot build a static statloop: $(tail -n 1 "$share/gcc.log")"

# ---------------------------------------------------------------- guest --
cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
SETTLE=$SETTLE
EOF
cat >> "$share/guest.sh" <<'EOF'
# runs in the VM (busybox sh as root), cwd = the 9p share
set -u
H=/mnt/host
CG=/sys/fs/cgroup
L=$CG/live
O=/tmp/o
PATH=$H/bin:$PATH
mkdir -p $O
fail() { echo "GUEST-FAIL: $*"; echo "$*" > $H/out/guest-fail; exit 1; }
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
note() { echo "guest: $*"; }

# zram0 is the swap (set up by init); zram1 and zram2 are never-written
# devices whose buffered reads make page cache, one per reading group
# (page cache is charged to the first reader)
grep -q zram0 /proc/swaps || fail "no zram swap"
w /sys/block/zram1/disksize 96M
w /sys/block/zram2/disksize 448M

# hierarchy: +memory in every inner group, processes only in leaves
w $CG/cgroup.subtree_control +memory
mkdir -p $L/work/reclaim $L/work/cache $L/work/deep/leaf $L/oom \
	$L/protected $L/idle $L/bulk || fail "mkdir"
w $L/cgroup.subtree_control +memory
w $L/work/cgroup.subtree_control +memory
w $L/work/deep/cgroup.subtree_control +memory
# protection is granted from the top (memory_recursiveprot)
w $L/memory.min 32M
w $L/memory.low 128M
w $L/work/memory.max 160M
w $L/work/memory.high 144M
w $L/work/memory.min 8M
w $L/work/memory.low 32M
w $L/work/reclaim/memory.max 48M
w $L/work/reclaim/memory.swap.max 100M
w $L/work/cache/memory.max 32M
w $L/work/cache/memory.low 8M
w $L/work/deep/leaf/memory.min 4M
w $L/work/deep/leaf/memory.low 16M
w $L/oom/memory.max 24M
w $L/oom/memory.swap.max 0
w $L/protected/memory.low 64M
w $L/protected/memory.min 16M
w $L/protected/memory.high 200M

start() { # GROUP NAME memload-args...
	g=$1 n=$2
	shift 2
	sh -c 'echo $$ > "$0/cgroup.procs" && exec memload "$@"' "$g" "$@" \
		> /tmp/$n.out 2>&1 &
}
waitfor() { # NAME SECS
	i=0
	while ! grep -q ready /tmp/$1.out 2>/dev/null; do
		i=$((i + 1))
		[ $i -le $(($2 * 10)) ] || fail "load $1 not ready after $2 s: $(cat /tmp/$1.out)"
		sleep 0.1
	done
	note "$1 ready"
}
start $L/work/reclaim reclaim anon 80
start $L/work/cache cache file /dev/zram1
start $L/work/deep/leaf leaf anon 12
start $L/oom oom anon 64
start $L/protected protected anon 40
for n in reclaim cache leaf protected; do waitfor $n 120; done
# page cache filling RAM starts last, so that kswapd meets it
start $L/bulk bulk file /dev/zram2
waitfor bulk 120
i=0
until grep -q '^oom_kill 1$' $L/oom/memory.events; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "no OOM kill in live/oom: $(tr '\n' ' ' < $L/oom/memory.events)"
	sleep 0.1
done
note "oom: $(tr '\n' ' ' < $L/oom/memory.events)"
sleep $SETTLE

# reference before, memcgtop while the loads run, reference after
snap $CG live $O/before $O/proc-before 2> /tmp/snap.err || fail "snap before: $(cat /tmp/snap.err)"
statloop $CG/memory.stat /tmp/stop-statloop > $O/rootspan 2> /tmp/statloop.err &
sl=$!
# kswapd's threads' stat lines around the run (its CPU time)
cat /proc/[0-9]*/stat 2>/dev/null | grep '^[0-9]* (kswapd[0-9]*) ' > $O/kswapd-before
$MEMCGTOP -b -F json -n 3 -d 1 > $H/out/memcgtop.json 2> $H/out/memcgtop.err
echo $? > $H/out/memcgtop.rc
cat /proc/[0-9]*/stat 2>/dev/null | grep '^[0-9]* (kswapd[0-9]*) ' > $O/kswapd-after
touch /tmp/stop-statloop
wait $sl || fail "statloop failed: $(cat /tmp/statloop.err)"
snap $CG live $O/after $O/proc-after 2> /tmp/snap.err || fail "snap after: $(cat /tmp/snap.err)"
note "memcgtop exited $(cat $H/out/memcgtop.rc)"

# loads still running at the end (the host reports which ones died)
: > $O/alive
for g in work/reclaim work/cache work/deep/leaf protected bulk oom; do
	if grep -q . $L/$g/cgroup.procs; then echo "$g 1"; else echo "$g 0"; fi >> $O/alive
done

# the unprivileged check: the same as nobody (uid/gid 65534) through
# busybox su (its setpriv cannot change ids); the cgroup files are
# world-readable
echo "nobody:x:65534:65534:nobody:/tmp:/bin/sh" >> /etc/passwd
echo "nogroup:x:65534:" >> /etc/group
if [ "$(su -s /bin/sh nobody -c 'id -u' 2>/dev/null)" = 65534 ]; then
	su -s /bin/sh nobody -c "$MEMCGTOP -b -F json -n 1 > /tmp/unpriv.json 2> /tmp/unpriv.err; echo \$? > /tmp/unpriv.rc"
	cp /tmp/unpriv.json /tmp/unpriv.err /tmp/unpriv.rc $O/
else
	echo "busybox su cannot run a command as nobody" > $O/unpriv.skip
fi

for g in work/reclaim work/cache work/deep/leaf protected bulk oom; do
	echo 1 > $L/$g/cgroup.kill 2>/dev/null
done
tar -C $O -cf $H/out/ref.tar . || fail "copy out"
sync
echo "GUEST-OK"
EOF

# ------------------------------------------------------------------ run --
set +e
vm_guest_run "$share" "$TMO"
mkdir -p "$share/out/ref"
tar -C "$share/out/ref" -xf "$share/out/ref.tar" || fail_early "cannot unpack $share/out/ref.tar"

# --------------------------------------------------------------- checks --
set +e
MEMCGTOP_SRC=$ROOT python3 - "$share/out" <<'PYEOF'
import json, os, sys

out = sys.argv[1]
ref = os.path.join(out, "ref")
npass = nfail = 0


def report(ok, what, detail=""):
    global npass, nfail
    if ok:
        npass += 1
        print("PASS: " + what)
    else:
        nfail += 1
        print("FAIL: " + what + (": " + detail if detail else ""))


def finish():
    print("live-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


def rd(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def kv(path):
    """memory.stat / memory.events: first occurrence of a key counts"""
    t = rd(path)
    if t is None:
        return None
    d = {}
    for line in t.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] not in d:
            d[p[0]] = int(p[1])
    return d


def val(path):
    """a value file: int, "max" or None"""
    t = rd(path)
    if t is None:
        return None
    t = t.strip()
    return t if t == "max" else int(t)


def psi(path):
    t = rd(path)
    if t is None:
        return None
    r = {}
    for line in t.splitlines():
        p = line.split()
        if p and p[0] in ("some", "full"):
            for f in p[1:]:
                k, _, v = f.partition("=")
                if k == "avg10":
                    r[p[0]] = float(v)
    return r


def groups(top):
    """kernel reference: {json path: dir} for the whole hierarchy"""
    g = {"/": top}
    for dp, dns, _ in os.walk(os.path.join(top, "live")):
        g["/" + os.path.relpath(dp, top)] = dp
    return g


def snapshot(name):
    top = os.path.join(ref, name)
    s = {}
    for p, d in groups(top).items():
        e = {"stat": kv(os.path.join(d, "memory.stat")),
             "events": kv(os.path.join(d, "memory.events")),
             "pressure": psi(os.path.join(d, "memory.pressure"))}
        for f in ("current", "max", "high", "low", "min", "swap.max",
                  "swap.current"):
            e[f] = val(os.path.join(d, "memory." + f))
        s[p] = e
    return s


def fmt(x):
    return json.dumps(x)


def crashed(t, v, tb):
    import traceback
    traceback.print_exception(t, v, tb)
    report(False, "checker crashed", "%s: %s" % (t.__name__, v))
    print("live-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1)


sys.excepthook = crashed


# ---- the run itself
rc = (rd(os.path.join(out, "memcgtop.rc")) or "").strip()
err = (rd(os.path.join(out, "memcgtop.err")) or "").strip()
report(rc == "0", "memcgtop -b -F json -n 3 -d 1 exits 0 in the guest",
       "status %s, stderr %r" % (rc, err[:300]))
iters = []
bad = []
for i, line in enumerate((rd(os.path.join(out, "memcgtop.json")) or "").splitlines()):
    try:
        iters.append(json.loads(line))
    except ValueError as e:
        bad.append("line %d: %s" % (i + 1, e))
report(len(iters) == 3 and not bad and
       [it.get("iteration") for it in iters] == [1, 2, 3],
       "3 JSON lines, iterations 1..3",
       "%d lines parsed, %s, iterations %s" % (len(iters), bad[:2],
                                                [it.get("iteration") for it in iters]))
if not iters:
    finish()
report(all(it.get("mode") == "v2" and it.get("memcg") == "v2" for it in iters),
       'mode "v2" and memcg "v2" in every iteration',
       fmt([(it.get("mode"), it.get("memcg")) for it in iters]))
report(all(isinstance(it.get("interval_s"), (int, float)) and 0.5 <= it["interval_s"] <= 5
           for it in iters),
       "interval_s about 1 s (-d 1)", fmt([it.get("interval_s") for it in iters]))

before, after = snapshot("before"), snapshot("after")
rows = [{r["path"]: r for r in it.get("groups", [])} for it in iters]

# ---- the whole hierarchy, nothing else
want = sorted(set(before) & set(after))
got = [sorted(r) for r in rows]
report(all(g == want for g in got),
       "groups listed = the kernel's hierarchy (%d groups)" % len(want),
       "kernel %s, memcgtop %s" % (want, got))
alive = dict(l.split() for l in (rd(os.path.join(ref, "alive")) or "").splitlines() if l.strip())
died = [g for g, a in alive.items() if a != "1" and g != "oom"]
report(not died and alive.get("oom") == "0",
       "loads alive while memcgtop ran; the OOM victim gone",
       "died: %s, oom group procs: %s" % (died, alive.get("oom")))


def cell(it, path, key):
    r = rows[it].get(path)
    return None if r is None else r.get(key)


def each(path):
    return [rows[i].get(path) for i in range(len(rows)) if rows[i].get(path)]


def delta(path, sect, key):
    b, a = before[path][sect], after[path][sect]
    if b is None or a is None or key not in b or key not in a:
        return None
    return a[key] - b[key]


# ---- counters read from the right group: within the kernel's before/after
# span, non-decreasing from iteration to iteration
ctr = [("pgscan", "stat", "pgscan"), ("pgsteal", "stat", "pgsteal"),
       ("pgscan_kswapd", "stat", "pgscan_kswapd"),
       ("pgscan_direct", "stat", "pgscan_direct"),
       ("pgsteal_kswapd", "stat", "pgsteal_kswapd"),
       ("pgsteal_direct", "stat", "pgsteal_direct"),
       ("refault_anon", "stat", "workingset_refault_anon"),
       ("refault_file", "stat", "workingset_refault_file"),
       ("pgfault", "stat", "pgfault"), ("pgmajfault", "stat", "pgmajfault"),
       ("ev_low", "events", "low"), ("ev_high", "events", "high"),
       ("ev_max", "events", "max"), ("ev_oom", "events", "oom"),
       ("ev_oom_kill", "events", "oom_kill")]
probs = []
for p in want:
    for key, sect, kk in ctr:
        b, a = before[p][sect], after[p][sect]
        vals = [cell(i, p, key) for i in range(len(rows))]
        if b is None or kk not in (b or {}):
            if any(v is not None for v in vals):
                probs.append("%s %s: %s but no kernel value" % (p, key, vals))
            continue
        lo, hi = b[kk], a[kk]
        if any(v is None for v in vals):
            probs.append("%s %s: null %s (kernel %d..%d)" % (p, key, vals, lo, hi))
            continue
        if not all(lo <= v <= hi for v in vals) or vals != sorted(vals):
            probs.append("%s %s: %s not within kernel %d..%d" % (p, key, vals, lo, hi))
report(not probs, "counters (pgscan.., refault_*, pgfault, ev_*) within the kernel's "
       "before..after values and non-decreasing, %d groups" % len(want), "; ".join(probs[:6]))

# ---- rates = Δcounter / interval_s (iterations 2 and 3, where the previous
# counter is in the output)
probs = []
for p in want:
    for key, _, _ in ctr:
        for i in range(1, len(rows)):
            c0, c1, r = cell(i - 1, p, key), cell(i, p, key), cell(i, p, key + "_per_s")
            if c0 is None or c1 is None:
                continue
            if r is None:
                probs.append("%s %s_per_s null in iteration %d" % (p, key, i + 1))
                continue
            exp = (c1 - c0) / iters[i]["interval_s"]
            # interval_s is printed with 3 decimals
            if abs(r - exp) > 0.0011 + abs(exp) * 0.0011:
                probs.append("%s %s_per_s %s, expected %.3f in iteration %d" % (p, key, r, exp, i + 1))
report(not probs, "*_per_s = Δcounter/interval_s in iterations 2-3", "; ".join(probs[:6]))

# ---- reclaim in the reclaiming groups
for p in ["/live/work/reclaim", "/live/work/cache", "/live/work", "/live"]:
    if p not in before:
        continue
    ds, dt = delta(p, "stat", "pgscan"), delta(p, "stat", "pgsteal")
    sc = [cell(i, p, "pgscan_per_s") for i in range(len(rows))]
    st = [cell(i, p, "pgsteal_per_s") for i in range(len(rows))]
    ok = all(isinstance(x, (int, float)) and x > 0 for x in sc + st)
    report(ok, "%s reclaims: pgscan_per_s and pgsteal_per_s > 0 in every iteration" % p,
           "pgscan_per_s %s pgsteal_per_s %s (kernel Δpgscan %s Δpgsteal %s)" % (sc, st, ds, dt))
p = "/live/bulk"
if p in before:
    dk = delta(p, "stat", "pgscan_kswapd")
    ks = [cell(i, p, "pgscan_kswapd_per_s") for i in range(len(rows))]
    sc = [cell(i, p, "pgscan_per_s") for i in range(len(rows))]
    st = [cell(i, p, "pgsteal_per_s") for i in range(len(rows))]
    # kswapd runs in bursts; one interval with it is enough
    ok = (dk is not None and dk > 0 and any(isinstance(x, (int, float)) and x > 0 for x in ks) and
          any(isinstance(a, (int, float)) and a > 0 and isinstance(b, (int, float)) and b > 0
              for a, b in zip(sc, st)))
    report(ok, "%s: kswapd reclaim seen (pgscan_kswapd_per_s, pgscan/pgsteal_per_s > 0)" % p,
           "kernel Δpgscan_kswapd %s; pgscan_kswapd_per_s %s pgscan_per_s %s pgsteal_per_s %s" % (dk, ks, sc, st))

# the host's kswapd time: the threads' utime + stime (USER_HZ 100 on x86,
# 10 ms a tick) around the run bound what the rates add up to
def kswapd_ms(name):
    t = 0
    for line in (rd(os.path.join(ref, name)) or "").splitlines():
        f = line[line.rindex(")") + 2:].split()
        t += int(f[11]) + int(f[12])
    return t * 10
kb, ka = kswapd_ms("kswapd-before"), kswapd_ms("kswapd-after")
kr = [it.get("system", {}).get("kswapd_ms_per_s") for it in iters]
kiv = [it.get("interval_s") for it in iters]
ok = all(isinstance(x, (int, float)) for x in kr[1:])
report(ok, "system kswapd_ms_per_s in every iteration with an interval", "%s" % kr)
if ok:
    spent = sum(r * iv for r, iv in zip(kr[1:], kiv[1:]))
    # each reading floors to 10 ms: two readings per interval
    ok = -0.5 <= spent <= ka - kb + 20 * len(kr) and (ka - kb < 50 or spent > 0)
    report(ok, "kswapd ms/s x interval summed (%.0f ms) within kswapd's CPU time "
           "around the run (%d ms)" % (spent, ka - kb), "rates %s intervals %s" % (kr, kiv))

# reclaim_eff: 0..1 where not null; null exactly when Δpgscan is 0 or no rate;
# = Δpgsteal/Δpgscan.  The kernel counts pgscan when it isolates a batch of
# pages and pgsteal once it has reclaimed them, so a memory.stat read in the
# middle of a reclaim pass puts the scans in one interval and the steals in
# the next: Δpgsteal > Δpgscan by up to the pages in flight happens on a
# correct kernel.  A value above 1 is accepted (and named in the PASS line)
# when it is Δpgsteal/Δpgscan and the surplus is at most INFLIGHT pages
# (checked on the printed counters in iterations 2-3, on the rates in
# iteration 1, whose earlier sample is not printed); LIVE_V2_STRICT_EFF=1
# fails on any value above 1.
INFLIGHT = 1024
strict_eff = os.environ.get("LIVE_V2_STRICT_EFF", "1") == "1"
probs = []
explained = []
nn = 0
for i in range(len(rows)):
    dts = iters[i]["interval_s"]
    for p, r in rows[i].items():
        e, sc, st = r.get("reclaim_eff"), r.get("pgscan_per_s"), r.get("pgsteal_per_s")
        if e is None:
            if isinstance(sc, (int, float)) and sc > 0:
                probs.append("%s it%d: reclaim_eff null with pgscan_per_s %s" % (p, i + 1, sc))
            continue
        nn += 1
        if not (isinstance(sc, (int, float)) and sc > 0 and isinstance(st, (int, float))):
            probs.append("%s it%d: reclaim_eff %s with pgscan_per_s %s pgsteal_per_s %s" % (p, i + 1, e, sc, st))
            continue
        # The program caps the ratio at 1 (see the man page: the kernel
        # counts a batch's steal after its scan).
        want_e = min(1.0, st / sc)
        if not isinstance(e, (int, float)) or abs(e - want_e) > 0.0002 + 0.002 * e:
            probs.append("%s it%d: reclaim_eff %s != min(1, pgsteal/pgscan rate) %.4f" % (p, i + 1, e, want_e))
            continue
        if 0 <= e <= 1:
            if st > sc:
                explained.append("%s it%d: capped at 1 (pgsteal/pgscan %.4f)" % (p, i + 1, st / sc))
            continue
        q = rows[i - 1].get(p) if i > 0 else None
        if q and all(isinstance(x.get(k), int) for x in (q, r) for k in ("pgscan", "pgsteal")):
            ds, dt = r["pgscan"] - q["pgscan"], r["pgsteal"] - q["pgsteal"]
            src = "counters"
        else:
            ds, dt = round(sc * dts), round(st * dts)
            src = "rates"
        why = "%s it%d: reclaim_eff %s (Δpgscan %s Δpgsteal %s from the %s)" % (p, i + 1, e, ds, dt, src)
        if not strict_eff and ds > 0 and 0 < dt - ds <= INFLIGHT:
            explained.append(why)
        else:
            probs.append(why)
note = ""
if explained:
    note = "; %d where Δpgsteal > Δpgscan (pages in flight): %s" % (
        len(explained), "; ".join(explained[:2]))
report(not probs and nn > 0,
       "reclaim_eff in 0..1 where not null (%d values), = pgsteal/pgscan%s" % (nn, note),
       "; ".join(probs[:6]))

# ---- refaults
for p in want:
    da = delta(p, "stat", "workingset_refault_anon")
    df = delta(p, "stat", "workingset_refault_file")
    if da is None and df is None:
        continue
    ra = [cell(i, p, "refault_anon_per_s") for i in range(len(rows))]
    rf = [cell(i, p, "refault_file_per_s") for i in range(len(rows))]
    pos = any(isinstance(x, (int, float)) and x > 0 for x in ra + rf)
    if (da or 0) + (df or 0) == 0:
        report(all(x == 0 for x in ra + rf),
               "%s: no refaults in the kernel, refault rates 0" % p,
               "refault_anon_per_s %s refault_file_per_s %s" % (ra, rf))
        continue
    # refaults between the before and after reads; they must show in a rate
    # when they happened inside memcgtop's window (the counters it printed
    # moved) or when they are continuous (the designed loads)
    c = [(cell(i, p, "refault_anon") or 0) + (cell(i, p, "refault_file") or 0) for i in range(len(rows))]
    designed = p in ("/live/work/reclaim", "/live/work/cache", "/live/work", "/live")
    if designed or c[-1] > c[0]:
        report(pos, "%s: refaults (kernel Δanon %s Δfile %s) show as refault_anon_per_s or "
               "refault_file_per_s > 0" % (p, da, df),
               "refault_anon_per_s %s refault_file_per_s %s" % (ra, rf))
    else:
        # a few refaults, all outside the intervals memcgtop measured
        report(True, "%s: refaults (kernel Δanon %s Δfile %s) all outside memcgtop's "
               "window (refault counters it printed did not move)" % (p, da, df))
for p, kind in (("/live/work/reclaim", "anon"), ("/live/work/cache", "file")):
    if p in before:
        d = delta(p, "stat", "workingset_refault_" + kind)
        r = [cell(i, p, "refault_%s_per_s" % kind) for i in range(len(rows))]
        report(d is not None and d > 0 and any(isinstance(x, (int, float)) and x > 0 for x in r),
               "%s: %s refaults (kernel Δ %s), refault_%s_per_s > 0" % (p, kind, d, kind), "rates %s" % r)

# ---- swap-out in the group over its limit with swap allowed
p = "/live/work/reclaim"
if p in before:
    sw = [cell(i, p, "swap") for i in range(len(rows))]
    lo = min(before[p]["swap.current"], after[p]["swap.current"])
    hi = max(before[p]["swap.current"], after[p]["swap.current"])
    report(all(isinstance(x, int) and x > 0 for x in sw),
           "%s swaps out: swap > 0 (kernel memory.swap.current %d..%d)" % (p, lo, hi), "swap %s" % sw)

# ---- the OOM kill
p = "/live/oom"
v = [cell(i, p, "ev_oom_kill") for i in range(len(rows))]
report(before.get(p, {}).get("events", {}).get("oom_kill") == 1 and
       after.get(p, {}).get("events", {}).get("oom_kill") == 1 and v == [1, 1, 1],
       "%s: ev_oom_kill == 1 (one memcg OOM kill)" % p,
       "ev_oom_kill %s, kernel before %s after %s" % (v, before.get(p, {}).get("events"),
                                                    after.get(p, {}).get("events")))

# ---- limits and protections exactly as the kernel's files
probs = []
n = 0
for p in want:
    if p == "/":
        continue
    for key, f in (("limit", "max"), ("high", "high"), ("low", "low"), ("min", "min"),
                   ("swap_limit", "swap.max")):
        kb, ka = before[p][f], after[p][f]
        if kb != ka:
            probs.append("%s memory.%s changed %s -> %s" % (p, f, kb, ka))
        for i in range(len(rows)):
            n += 1
            if cell(i, p, key) != kb:
                probs.append("%s %s %s, kernel memory.%s %s" % (p, key, fmt(cell(i, p, key)), f, kb))
report(not probs and n > 0,
       "limit/high/low/min/swap_limit equal memory.max/high/low/min/swap.max (%d values)" % n,
       "; ".join(probs[:6]))
# the explicit settings really are there (guards against a broken setup)
exp = {("/live/work", "limit"): 160 << 20, ("/live/work", "high"): 144 << 20,
       ("/live/work/reclaim", "swap_limit"): 100 << 20, ("/live/oom", "swap_limit"): 0,
       ("/live", "low"): 128 << 20, ("/live/protected", "min"): 16 << 20,
       ("/live/idle", "limit"): "max", ("/live/idle", "swap_limit"): "max"}
probs = ["%s %s %s != %s" % (p, k, fmt(cell(0, p, k)), fmt(v)) for (p, k), v in exp.items()
         if cell(0, p, k) != v]
report(not probs, "the limits set in the guest are reported (160M max, 100M swap.max, max, ...)",
       "; ".join(probs))

# eff_limit = min(memory.max of the group and its ancestors), "max" if none
probs = []
for p in want:
    if p == "/":
        continue
    lim = "max"
    parts = p.strip("/").split("/")
    for k in range(1, len(parts) + 1):
        m = before["/" + "/".join(parts[:k])]["max"]
        if m != "max" and (lim == "max" or m < lim):
            lim = m
    for i in range(len(rows)):
        if cell(i, p, "eff_limit") != lim:
            probs.append("%s eff_limit %s, expected %s" % (p, fmt(cell(i, p, "eff_limit")), fmt(lim)))
report(not probs, "eff_limit = min(memory.max of group and ancestors)", "; ".join(probs[:6]))

# ---- effective protection, and excess = max(0, usage - eff_low), per row:
# computed top-down from each row's usage, min and low by the golden
# checker (tests/golden/verify.py: protection()), with memory_recursiveprot
# on as vm.sh mounts the guest's cgroup2.
sys.path.insert(0, os.path.join(os.environ["MEMCGTOP_SRC"], "tests", "golden"))
import verify
probs = []
n = 0
for i in range(len(rows)):
    gs = {p: {k: r.get(k) for k in ("usage", "min", "low")} for p, r in rows[i].items()}
    verify.protection(False, gs, True)
    for p, r in rows[i].items():
        if p == "/":
            continue
        n += 1
        for k in ("eff_min", "eff_low", "excess"):
            if r.get(k) != gs[p].get(k):
                probs.append("%s it%d: %s %s, expected %s (usage %s min %s low %s)" % (
                    p, i + 1, k, fmt(r.get(k)), fmt(gs[p].get(k)), fmt(r.get("usage")),
                    fmt(r.get("min")), fmt(r.get("low"))))
report(not probs and n > 0, "eff_min, eff_low and excess = max(0, usage - eff_low) as the kernel's "
       "rules give them (memory_recursiveprot) in every non-root row (%d rows)" % n,
       "; ".join(probs[:6]))
# /live/work/deep/leaf has low 16M under deep (low 0): with
# memory_recursiveprot it gets a share of work's unclaimed 32M.
lf = cell(0, "/live/work/deep/leaf", "eff_low")
report(isinstance(lf, int) and lf > 0, "deep/leaf's eff_low under recursiveprot: %s" % fmt(lf), "")

# ---- PSI
probs = []
n = 0
for p in want:
    if before[p]["pressure"] is None:
        continue
    for i in range(len(rows)):
        n += 1
        s, f = cell(i, p, "psi_some_avg10"), cell(i, p, "psi_full_avg10")
        if not isinstance(s, (int, float)) or not 0 <= s <= 100:
            probs.append("%s it%d: psi_some_avg10 %s" % (p, i + 1, fmt(s)))
        if not isinstance(f, (int, float)) or not 0 <= f <= 100 or (isinstance(s, (int, float)) and f > s):
            probs.append("%s it%d: psi_full_avg10 %s (some %s)" % (p, i + 1, fmt(f), fmt(s)))
report(not probs and n > 0,
       "psi_some_avg10/psi_full_avg10 present (0..100, full <= some) for every group "
       "with memory.pressure (%d values)" % n, "; ".join(probs[:6]))
p = "/live/work/reclaim"
s = [cell(i, p, "psi_some_avg10") for i in range(len(rows))]
kb = (before.get(p, {}).get("pressure") or {}).get("some")
ka = (after.get(p, {}).get("pressure") or {}).get("some")
report(any(isinstance(x, (int, float)) and x > 0 for x in s),
       "%s under pressure: psi_some_avg10 > 0" % p, "%s (kernel before %s after %s)" % (s, kb, ka))

# ---- the root row
probs = []
for i in range(len(rows)):
    r = rows[i].get("/")
    if r is None:
        probs.append("it%d: no root row" % (i + 1))
        continue
    for k in ("limit", "high", "low", "min", "swap", "swap_limit", "excess", "eff_limit",
              "use_pct", "ev_low", "ev_high", "ev_max", "ev_oom", "ev_oom_kill"):
        if r.get(k, "missing") is not None:
            probs.append("it%d: root %s = %s" % (i + 1, k, fmt(r.get(k, "missing"))))
    if r.get("depth") != 0:
        probs.append("it%d: root depth %s" % (i + 1, fmt(r.get("depth"))))
report(not probs, "root row /: limit/high/low/min/swap/swap_limit/excess/eff_limit (and "
       "use_pct, ev_*) null, depth 0", "; ".join(probs[:6]))


def rootuse(s):
    st = s["/"]["stat"]
    return st["anon"] + st["file"] + st["kernel"] + st["sock"]


ub, ua = rootuse(before), rootuse(after)
span = (rd(os.path.join(ref, "rootspan")) or "0 0 0").split()
nread, lo, hi = int(span[0]), min(ub, ua, int(span[1]) or ub), max(ub, ua, int(span[2]))
use = [cell(i, "/", "usage") for i in range(len(rows))]
report(nread > 0 and all(isinstance(u, int) and lo <= u <= hi for u in use),
       "root usage within the span of root memory.stat anon+file+kernel+sock read before, "
       "during (%d reads) and after the run (%d..%d)" % (nread, lo, hi),
       "usage %s" % use)
# the same read: usage - (anon + file + kernel) is sock (about 0 in the VM)
sb, sa = before["/"]["stat"]["sock"], after["/"]["stat"]["sock"]
probs = []
for i in range(len(rows)):
    r = rows[i].get("/") or {}
    try:
        s = r["usage"] - r["anon"] - r["file"] - r["kernel"]
    except (KeyError, TypeError):
        probs.append("it%d: %s" % (i + 1, fmt({k: r.get(k) for k in ("usage", "anon", "file", "kernel")})))
        continue
    if not min(sb, sa) <= s <= max(sb, sa):
        probs.append("it%d: usage-anon-file-kernel = %d, kernel sock %d..%d" % (i + 1, s, sb, sa))
report(not probs, "root usage == its own anon+file+kernel + sock (sock %d..%d)" % (min(sb, sa), max(sb, sa)),
       "; ".join(probs[:6]))

# ---- non-root usage = memory.current, in the before..after span of the
# groups whose usage is pinned (idle 0, oom 0 after the kill)
probs = []
for p in ("/live/idle", "/live/oom"):
    lo = min(before[p]["current"], after[p]["current"])
    hi = max(before[p]["current"], after[p]["current"])
    u = [cell(i, p, "usage") for i in range(len(rows))]
    if not all(isinstance(x, int) and lo <= x <= hi for x in u):
        probs.append("%s usage %s, kernel memory.current %d..%d" % (p, u, lo, hi))
report(not probs, "usage of the quiet groups (idle, oom) = memory.current", "; ".join(probs))

# ---- unprivileged
skipped = rd(os.path.join(ref, "unpriv.skip"))
if skipped:
    print("SKIP: unprivileged run: " + skipped.strip())
else:
    urc = (rd(os.path.join(ref, "unpriv.rc")) or "").strip()
    uerr = (rd(os.path.join(ref, "unpriv.err")) or "").strip()
    try:
        u = [json.loads(l) for l in (rd(os.path.join(ref, "unpriv.json")) or "").splitlines()]
    except ValueError as e:
        u = []
        uerr += " (bad JSON: %s)" % e
    ok = (urc == "0" and len(u) == 1 and u[0].get("mode") == "v2" and
          sorted(r["path"] for r in u[0].get("groups", [])) == want)
    report(ok, "unprivileged (uid 65534) memcgtop -b -F json -n 1: exit 0, v2, the same %d groups" % len(want),
           "status %s, %d lines, groups %s, stderr %r" % (
               urc, len(u), sorted(r["path"] for r in u[0].get("groups", [])) if u else None, uerr[:300]))
    if ok:
        probs = []
        for r in u[0]["groups"]:
            p = r["path"]
            if p == "/":
                continue
            for key, f in (("limit", "max"), ("low", "low"), ("swap_limit", "swap.max")):
                if r.get(key) != before[p][f]:
                    probs.append("%s %s %s != %s" % (p, key, fmt(r.get(key)), before[p][f]))
            if before[p]["pressure"] is not None and r.get("psi_some_avg10") is None:
                probs.append("%s psi_some_avg10 null" % p)
            if r.get("pgscan") is None:
                probs.append("%s pgscan null" % p)
        report(not probs, "unprivileged run reads the same files (limits, stat, pressure)",
               "; ".join(probs[:6]))

finish()
PYEOF
prc=$?
echo "live-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s" >&2
if [ "$prc" = 0 ] && [ "${LIVE_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
elif [ "$prc" != 0 ]; then
	echo "live-v2: output kept in $share" >&2
fi
exit "$prc"
