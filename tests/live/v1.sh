#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# v1.sh - live test of memcgtop against this host's cgroup v1 memory controller.
#
# Usage (as root):  tests/live/v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds a uniquely named tree /sys/fs/cgroup/memory/memcgtop-live-$$-$RANDOM
# (12 groups, up to 5 levels deep) with limits, soft limits and swappiness,
# puts memload loads into some groups and compares memcgtop's JSON output
# with the kernel's files:
#
#   T                  limit 1G
#   T/a                limit 256M, soft 64M, swappiness 10
#   T/a/anon1          anon 64M; limit 128M, soft 32M (excess > 0), swp 0
#   T/a/anon2          anon 32M; no limit, swappiness 100
#   T/a/idle           empty; limit 64M, soft 1M
#   T/b                limit 512M, soft 256M, swappiness 30
#   T/b/cache          rereads a 64 MiB file (fits): steady page cache
#   T/b/tight          limit 32M, rereads a 96 MiB file: limit reclaim all
#                      the time, failcnt climbs; swappiness 200
#   T/b/deep           limit 300M, soft 100M
#   T/b/deep/x y       limit 100M (name with a space)
#   T/b/deep/x y/z     limit 1G (> ancestors: eff_limit 100M), soft 12345
#   T/c                empty; swappiness 100
#
# Moving values (usage, LRU sizes, rss, cache) must lie within what a sampler
# thread read from the kernel files before, during (every ~3 ms) and after
# the memcgtop run; values that did not move are thus checked exactly.  Only
# for b/tight and its ancestors (constant limit reclaim) a value that moved
# gets a margin of max(1 MiB, range seen), and tight's usage never above its
# limit.
#
# Parts: the main comparison (-n 4 -d 0.5), churn (groups created and removed
# while memcgtop -n 10 -d 0.3 runs), an unprivileged run (as nobody, with
# some files of the test groups made unreadable: those values must be null,
# not 0), and --root on an empty directory (exit 1, one error line).
#
# Each check prints "PASS: ..." or "FAIL: ...", the last line is
# "live-v1: N passed, M failed"; exit 1 on any failure.  A host without root
# or a writable v1 memory mount prints "SKIP: live v1: REASON" and exits 77
# (with CI=true: FAIL and exit 1).  Everything the test creates (groups,
# processes, the temporary directory) is removed on exit, also on failure
# or interrupt; only the pids the test started are killed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
CGM=/sys/fs/cgroup/memory

NAME="live v1"
. "$here/lib.sh"
v1_host_ready
for tool in python3 gcc setpriv; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null 2>&1 ||
	cannot_run "no user nobody / group nogroup"

# ---- state and cleanup ------------------------------------------------------
TNAME=memcgtop-live-$$-$RANDOM
TROOT=$CGM/$TNAME
TMPD=
pids=()

# Kill what we started (by pid), move any task left in the test tree to the
# hierarchy root, remove the groups deepest first, remove the temp dir.
cleanup() {
	local p
	if [ -n "$TMPD" ] && [ -f "$TMPD/pids" ]; then
		while read -r p; do
			[ -n "$p" ] && pids+=("$p")
		done <"$TMPD/pids"
	fi
	clean_up "$TROOT"
}
trap_cleanup

abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-live.XXXXXX) || abort "mktemp failed"
chmod 755 "$TMPD"
: >"$TMPD/pids"

[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
MEMCGTOP=$(cd "$(dirname "$MEMCGTOP")" && pwd)/$(basename "$MEMCGTOP")

gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"

# ---- the tree -----------------------------------------------------------------
groups=()
volatile=()  # groups whose usage moves all the time (tight and its ancestors)

# mkgroup REL LIMIT SOFT SWAPPINESS  ("-" keeps the default)
mkgroup() {
	local rel=$1 d=$TROOT${1:+/$1}
	mkdir "$d" || abort "mkdir $d"
	groups+=("$rel")
	[ "$2" = - ] || printf '%s' "$2" >"$d/memory.limit_in_bytes" ||
		abort "limit $2 for $rel"
	[ "$3" = - ] || printf '%s' "$3" >"$d/memory.soft_limit_in_bytes" ||
		abort "soft limit $3 for $rel"
	[ "$4" = - ] || printf '%s' "$4" >"$d/memory.swappiness" ||
		abort "swappiness $4 for $rel"
}

mkgroup "" 1G - -
mkgroup a 256M 64M 10
mkgroup a/anon1 128M 32M 0
mkgroup a/anon2 -1 - 100
mkgroup a/idle 64M 1M -
mkgroup b 512M 256M 30
mkgroup b/cache - 16M -
mkgroup b/tight 32M - 200
mkgroup b/deep 300M 100M -
mkgroup "b/deep/x y" 100M - -
mkgroup "b/deep/x y/z" 1G 12345 -
mkgroup c - - 100
volatile=("" b b/tight)

# Files for the page cache loads: written, then dropped from the cache so
# that the reads charge them to the reading group, not to us.
dd if=/dev/zero of="$TMPD/cache.dat" bs=1M count=64 status=none &&
	dd if=/dev/zero of="$TMPD/tight.dat" bs=1M count=96 status=none ||
	abort "cannot write load files"
python3 - "$TMPD/cache.dat" "$TMPD/tight.dat" <<'EOF' || abort "cannot drop the load files from the page cache"
import os, sys
for p in sys.argv[1:]:
    fd = os.open(p, os.O_RDONLY)
    os.fsync(fd)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)
EOF

# startload REL ARGS...: run memload ARGS inside group REL.
startload() {
	local rel=$1 out
	shift
	out=$TMPD/load.${#pids[@]}
	sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" "$3" "$4"' sh \
		"$TROOT/$rel" "$TMPD/memload" "$@" >"$out" 2>&1 &
	pids+=($!)
	echo "$! $out $rel" >>"$TMPD/loads"
}
startload b/tight file "$TMPD/tight.dat"
startload a/anon1 anon 64
startload a/anon2 anon 32
startload b/cache file "$TMPD/cache.dat"

while read -r p out rel; do
	for i in $(seq 300); do
		grep -q '^ready' "$out" && break
		kill -0 "$p" 2>/dev/null || abort "memload in $rel died: $(cat "$out")"
		sleep 0.1
	done
	grep -q '^ready' "$out" || abort "memload in $rel not ready after 30 s"
done <"$TMPD/loads"
pass "setup: $TNAME with ${#groups[@]} groups, 4 loads ready"

# ---- the checks (python) --------------------------------------------------------
cat >"$TMPD/check.py" <<'PYEOF'
import ctypes, json, os, signal, subprocess, sys, threading, time

CGM = os.environ["CGM"]
TNAME = os.environ["TNAME"]
MEMCGTOP = os.environ["MEMCGTOP"]
PIDFILE = os.environ["PIDFILE"]
GROUPS = os.environ["TGROUPS"].split("\n")
VOLATILE = set(os.environ["VOLATILE"].split("\n"))
TIGHT = os.environ["TIGHT"]
MAXV = 0x7FFFFFFFFFF00000
MIB = 1 << 20
# A value of a volatile group (the one in constant limit reclaim and its
# ancestors) that moved during the run may have been somewhere else when
# memcgtop read it than at the nearest sampler read: it gets a margin of the
# range seen, at least SLACK.  Values that did not move are checked exactly.
SLACK = 1 * MIB

LRU = ["active_anon", "inactive_anon", "active_file", "inactive_file",
       "unevictable"]
SPAN_KEYS = ["usage"] + LRU + ["anon", "file"]
STATKEY = {k: "total_" + k for k in LRU}
STATKEY.update(anon="total_rss", file="total_cache")


def out(ok, msg):
    print(("PASS: " if ok else "FAIL: ") + msg, flush=True)


def gpath(rel):
    return "/" + TNAME + ("/" + rel if rel else "")


def gdir(rel):
    return CGM + gpath(rel)


def conv(v):
    return "max" if v >= MAXV else v


def readint(rel, f):
    with open(gdir(rel) + "/" + f) as fh:
        return int(fh.read())


def readstat(rel):
    st = {}
    with open(gdir(rel) + "/memory.stat") as fh:
        for line in fh:
            k, v = line.split()
            st.setdefault(k, int(v))
    return st


def snapshot(rel):
    st = readstat(rel)
    s = {"usage": readint(rel, "memory.usage_in_bytes")}
    for k, sk in STATKEY.items():
        s[k] = st[sk]
    return s


def static(rel):
    st = readstat(rel)
    with open(gdir(rel) + "/cgroup.procs") as fh:
        procs = len(fh.read().split())
    return {"limit": conv(readint(rel, "memory.limit_in_bytes")),
            "soft": conv(readint(rel, "memory.soft_limit_in_bytes")),
            "swappiness": readint(rel, "memory.swappiness"),
            "eff_limit": conv(st["hierarchical_memory_limit"]),
            "failcnt": readint(rel, "memory.failcnt"),
            "procs": procs}


def start(args, **kw):
    def child():
        # die with the checker
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)
    p = subprocess.Popen(args, preexec_fn=child, **kw)
    with open(PIDFILE, "a") as fh:
        fh.write("%d\n" % p.pid)
    return p


def parse_lines(text, what):
    docs = []
    bad = []
    for i, line in enumerate(text.splitlines(), 1):
        try:
            d = json.loads(line)
            if not isinstance(d, dict) or not isinstance(d.get("groups"), list):
                raise ValueError("no groups array")
            docs.append(d)
        except ValueError as e:
            bad.append("line %d: %s: %r" % (i, e, line[:120]))
    out(not bad, "%s: every output line is a JSON object with groups%s"
        % (what, "" if not bad else ": " + "; ".join(bad[:3])))
    return docs


def settle():
    """Wait until the steady groups stop moving (at most 10 s)."""
    steady = [g for g in GROUPS if g not in VOLATILE]
    prev = None
    t0 = time.monotonic()
    while time.monotonic() - t0 < 10:
        cur = [snapshot(g) for g in steady]
        if cur == prev:
            return time.monotonic() - t0
        prev = cur
        time.sleep(0.3)
    return None


def main_run():
    t = settle()
    out(t is not None, "settle: steady groups stopped moving%s"
        % (" after %.1f s" % t if t is not None else " (not within 10 s)"))
    sanity = snapshot("a/anon1")["anon"] >= 64 * MIB and \
        snapshot("b/cache")["file"] >= 60 * MIB
    out(sanity, "setup: loads charged to their groups (a/anon1 rss >= 64M, "
        "b/cache cache >= 60M)")

    before_static = {g: static(g) for g in GROUPS}
    spans = {g: {k: [v, v] for k, v in snapshot(g).items()} for g in GROUPS}
    lock = threading.Lock()
    stop = threading.Event()
    nsamples = [0]

    def widen(g, s):
        for k, v in s.items():
            sp = spans[g][k]
            if v < sp[0]:
                sp[0] = v
            if v > sp[1]:
                sp[1] = v

    def sampler():
        while not stop.is_set():
            for g in GROUPS:
                s = snapshot(g)
                with lock:
                    widen(g, s)
            nsamples[0] += 1
            time.sleep(0.003)

    args = [MEMCGTOP, "-b", "-F", "json", "-n", "4", "-d", "0.5",
            gpath("")]
    t0 = time.monotonic()
    p = start(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
              text=True)
    th = threading.Thread(target=sampler)
    th.start()
    try:
        so, se = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        so, se = p.communicate()
        out(False, "main: memcgtop did not finish within 60 s")
    el = time.monotonic() - t0
    stop.set()
    th.join()
    for g in GROUPS:
        widen(g, snapshot(g))
    after_static = {g: static(g) for g in GROUPS}

    cmd = " ".join(args[1:])
    out(p.returncode == 0, "main: memcgtop %s exits 0 (got %s, %.2f s, "
        "%d sampler rounds)" % (cmd, p.returncode, el, nsamples[0]))
    out(se == "", "main: stderr empty (got %r)" % se[:300])
    docs = parse_lines(so, "main")
    its = [d.get("iteration") for d in docs]
    out(its == [1, 2, 3, 4], "main: iterations 1..4 (got %s)" % its)
    if not docs:
        return

    want = {gpath(g) for g in GROUPS}
    bad = []
    for d in docs:
        got = [r.get("path") for r in d["groups"]]
        if set(got) != want or len(got) != len(want):
            bad.append("iteration %s: missing %s, extra %s, %d rows"
                       % (d.get("iteration"), sorted(want - set(got)),
                          sorted(set(got) - want), len(got)))
    out(not bad, "main: path set equals the created tree (%d groups) in "
        "every iteration%s" % (len(want), ": " + "; ".join(bad) if bad else ""))

    def rows(g):
        for d in docs:
            for r in d["groups"]:
                if r.get("path") == gpath(g):
                    yield d.get("iteration"), r
                    break
            else:
                yield d.get("iteration"), None

    for g in GROUPS:
        name = gpath(g)
        depth = name.count("/")
        missing = [it for it, r in rows(g) if r is None]
        bad = ["iteration %s: %r" % (it, r.get("depth"))
               for it, r in rows(g) if r is not None and r.get("depth") != depth]
        out(not missing and not bad,
            "%s: present with depth %d in every iteration%s%s"
            % (name, depth, " (missing in %s)" % missing if missing else "",
               " (got " + ", ".join(bad) + ")" if bad else ""))
        if missing:
            continue
        b, a = before_static[g], after_static[g]
        # exact keys: the kernel files do not change during the run
        for k in ["limit", "soft", "swappiness", "eff_limit", "procs"]:
            if b[k] != a[k]:
                out(False, "%s %s: kernel value changed during the run "
                    "(%r -> %r)" % (name, k, b[k], a[k]))
                continue
            bad = ["iteration %s: %r" % (it, r.get(k))
                   for it, r in rows(g) if r.get(k) != b[k]]
            out(not bad, "%s %s: equals the kernel's %r%s"
                % (name, k, b[k], " (got " + ", ".join(bad) + ")" if bad else ""))
        # values that move: inside what the sampler saw during the run
        vol = g in VOLATILE
        for k in SPAN_KEYS:
            lo, hi = spans[g][k]
            slack = max(SLACK, hi - lo) if vol and hi > lo else 0
            slo, shi = max(0, lo - slack), hi + slack
            if slack and k == "usage" and b["limit"] != "max":
                shi = min(shi, b["limit"])
            bad = []
            worst = 0
            for it, r in rows(g):
                v = r.get(k)
                if not isinstance(v, int) or isinstance(v, bool) or \
                        not slo <= v <= shi:
                    bad.append("iteration %s: %r" % (it, v))
                else:
                    worst = max(worst, lo - v, v - hi)
            out(not bad, "%s %s: within kernel span [%d, %d]%s%s"
                % (name, k, slo, shi,
                   " (sampled %d..%d, +-%d moving, worst %d outside)"
                   % (lo, hi, slack, worst) if slack else "",
                   " (got " + ", ".join(bad) + ")" if bad else ""))
        # excess from the same row
        bad = []
        for it, r in rows(g):
            u, s = r.get("usage"), r.get("soft")
            exp = 0 if s == "max" else (max(0, u - s)
                                        if isinstance(u, int) and isinstance(s, int)
                                        else None)
            if r.get("excess") != exp:
                bad.append("iteration %s: expected %r got %r"
                           % (it, exp, r.get("excess")))
        out(not bad, "%s excess: max(0, usage - soft) of the same row%s"
            % (name, " (" + "; ".join(bad) + ")" if bad else ""))
        # failcnt: counter between before and after; rate > 0 only for tight
        bad = ["iteration %s: %r" % (it, r.get("failcnt")) for it, r in rows(g)
               if not isinstance(r.get("failcnt"), int)
               or not b["failcnt"] <= r.get("failcnt") <= a["failcnt"]]
        out(not bad, "%s failcnt: within kernel span [%d, %d]%s"
            % (name, b["failcnt"], a["failcnt"],
               " (got " + ", ".join(bad) + ")" if bad else ""))
        rates = [(it, r.get("failcnt_per_s")) for it, r in rows(g)]
        if g == TIGHT:
            ok = all(isinstance(v, (int, float)) and v > 0 for _, v in rates)
            out(ok, "%s failcnt_per_s: > 0 in every iteration (got %s)"
                % (name, [v for _, v in rates]))
        elif b["failcnt"] == a["failcnt"]:
            ok = all(v == 0 for _, v in rates)
            out(ok, "%s failcnt_per_s: 0 in every iteration (kernel failcnt "
                "stayed %d; got %s)" % (name, b["failcnt"], [v for _, v in rates]))


def rowmap(d):
    return {r.get("path"): r for r in d["groups"]}


def churn_run():
    T = gdir("")
    static_paths = {gpath(g) for g in GROUPS}
    vanish = ["churn-vanish-%d" % i for i in range(3)]
    appear = ["churn-appear-%d" % i for i in range(3)]
    for v in vanish:
        os.mkdir(T + "/" + v)
        os.mkdir(T + "/" + v + "/sub")
    stop = threading.Event()
    flick = {"made": 0, "names": set()}

    def flicker():
        parents = ["", "a", "b/deep/x y", "c"]
        i = 0
        while not stop.is_set():
            par = parents[i % len(parents)]
            base = gdir(par) + "/flick-%d" % (i % 5)
            chain = [base, base + "/s", base + "/s/t"]
            made = []
            try:
                for c in chain:
                    os.mkdir(c)
                    made.append(c)
                flick["made"] += 1
                time.sleep(0.002 * (i % 3))
            except OSError:
                pass
            for c in reversed(made):
                try:
                    os.rmdir(c)
                except OSError:
                    pass
            i += 1
            time.sleep(0.001)

    errf = open(os.environ["TMPD"] + "/churn.err", "w+")
    args = [MEMCGTOP, "-b", "-F", "json", "-n", "10", "-d", "0.3", gpath("")]
    p = start(args, stdout=subprocess.PIPE, stderr=errf, text=True)
    th = threading.Thread(target=flicker)
    th.start()
    lines = []
    k0 = None
    running = False
    switch_s = None
    deadline = time.monotonic() + 60
    try:
        for line in p.stdout:
            lines.append(line)
            if k0 is None:
                k0 = len(lines)
                running = p.poll() is None
                t = time.monotonic()
                for v in vanish:
                    os.rmdir(T + "/" + v + "/sub")
                    os.rmdir(T + "/" + v)
                for a in appear:
                    os.mkdir(T + "/" + a)
                    os.mkdir(T + "/" + a + "/sub")
                switch_s = time.monotonic() - t
            if time.monotonic() > deadline:
                break
        p.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        out(False, "churn: memcgtop did not finish within 60 s")
    stop.set()
    th.join()
    errf.seek(0)
    err = errf.read()
    out(p.returncode == 0, "churn: memcgtop %s exits 0 (got %s; %d flicker "
        "groups made and removed)" % (" ".join(args[1:]), p.returncode,
                                      flick["made"]))
    out(err == "", "churn: stderr empty (got %r)" % err[:300])
    docs = parse_lines("".join(lines), "churn")
    out(len(docs) == 10 and [d.get("iteration") for d in docs] ==
        list(range(1, 11)), "churn: 10 iterations (got %d lines)" % len(lines))
    if not docs:
        return
    maps = [rowmap(d) for d in docs]
    bad = ["iteration %d: missing %s" % (i, sorted(static_paths - set(m)))
           for i, m in enumerate(maps, 1) if not static_paths <= set(m)]
    out(not bad, "churn: the static groups are present in every iteration%s"
        % (": " + "; ".join(bad) if bad else ""))
    bad = []
    nflick = 0
    for i, m in enumerate(maps, 1):
        for path, r in m.items():
            if path != gpath("") and not path.startswith(gpath("") + "/"):
                bad.append("iteration %d: %r outside the start group" % (i, path))
            elif r.get("depth") != path.count("/"):
                bad.append("iteration %d: %r depth %r" % (i, path, r.get("depth")))
            if "/flick-" in path:
                nflick += 1
        if len(m) != len(docs[i - 1]["groups"]):
            bad.append("iteration %d: duplicate paths" % i)
    out(not bad, "churn: every row is below the start group with the right "
        "depth, no duplicates (%d flicker rows seen)%s"
        % (nflick, ": " + "; ".join(bad[:5]) if bad else ""))

    vpaths = [gpath(v) for v in vanish] + [gpath(v + "/sub") for v in vanish]
    apaths = [gpath(a) for a in appear] + [gpath(a + "/sub") for a in appear]
    pre = maps[:k0]
    post = maps[k0 + 1:]   # iteration k0+1 may have sampled during the switch
    out(len(post) >= 3 and running, "churn: groups switched after iteration "
        "%d in %.3f s while memcgtop ran (%s), %d iterations after it"
        % (k0, switch_s, "yes" if running else
           "no: its first line came only after it exited, output not flushed "
           "per iteration?", len(post)))
    bad = ["iteration %d: %s" % (i, sorted(set(vpaths) - set(m)))
           for i, m in enumerate(pre, 1) if not set(vpaths) <= set(m)]
    bad += ["iteration %d: %s still shown" % (i, sorted(set(vpaths) & set(m)))
            for i, m in enumerate(post, k0 + 2) if set(vpaths) & set(m)]
    out(not bad, "churn: removed groups shown before and gone after removal%s"
        % (": " + "; ".join(bad) if bad else ""))
    bad = ["iteration %d: %s shown early" % (i, sorted(set(apaths) & set(m)))
           for i, m in enumerate(pre, 1) if set(apaths) & set(m)]
    bad += ["iteration %d: missing %s" % (i, sorted(set(apaths) - set(m)))
            for i, m in enumerate(post, k0 + 2) if not set(apaths) <= set(m)]
    out(not bad, "churn: created groups absent before and shown after "
        "creation%s" % (": " + "; ".join(bad) if bad else ""))
    # a group absent in the previous sample has no rates
    bad = []
    for ap in apaths:
        for i in range(1, len(maps)):
            if ap in maps[i] and ap not in maps[i - 1]:
                r = maps[i][ap]
                nn = [k for k in r if k.endswith("_per_s") and r[k] is not None]
                if nn:
                    bad.append("%s iteration %d: %s" % (ap, i + 1, nn))
                break
    out(not bad, "churn: new groups have null rates in their first iteration%s"
        % (" (not null: " + "; ".join(bad) + ")" if bad else ""))
    for a in appear:
        os.rmdir(T + "/" + a + "/sub")
        os.rmdir(T + "/" + a)


# keys whose value comes from one file (v1)
KEYFILES = {
    "usage": ["memory.usage_in_bytes"],
    "limit": ["memory.limit_in_bytes"],
    "soft": ["memory.soft_limit_in_bytes"],
    "swappiness": ["memory.swappiness"],
    "failcnt": ["memory.failcnt"],
    "failcnt_per_s": ["memory.failcnt"],
    "kernel": ["memory.kmem.usage_in_bytes"],
    "ev_oom_kill": ["memory.oom_control"],
    "procs": ["cgroup.procs"],
    "excess": ["memory.usage_in_bytes", "memory.soft_limit_in_bytes"],
}
for k in ["anon", "file", "shmem", "refault_anon", "refault_file", "pgfault",
          "pgmajfault"] + LRU:
    KEYFILES[k] = ["memory.stat"]
for k in ["refault_anon", "refault_file", "pgfault", "pgmajfault"]:
    KEYFILES[k + "_per_s"] = ["memory.stat"]


def unpriv_check():
    outp, errp, rcp, readp = sys.argv[2:6]
    rc = int(open(rcp).read())
    so = open(outp).read()
    se = open(errp).read()
    out(rc == 0, "unprivileged: memcgtop as nobody exits 0 (got %d; stderr %r)"
        % (rc, se[:300]))
    docs = parse_lines(so, "unprivileged")
    out(len(docs) == 1, "unprivileged: one iteration (got %d)" % len(docs))
    if not docs:
        return
    readable = {}
    for line in open(readp):
        ok, path = line.rstrip("\n").split(" ", 1)
        readable[path] = ok == "1"
    m = rowmap(docs[0])
    want = {gpath(g) for g in GROUPS}
    out(set(m) == want, "unprivileged: path set equals the created tree "
        "(missing %s, extra %s)" % (sorted(want - set(m)), sorted(set(m) - want)))
    nnull = 0
    for g in GROUPS:
        r = m.get(gpath(g))
        if r is None:
            continue
        bad = []
        for k, files in KEYFILES.items():
            unread = [f for f in files if not readable.get(gdir(g) + "/" + f, False)]
            v = r.get(k)
            if unread:
                nnull += 1
                if v is not None:
                    bad.append("%s=%r but %s unreadable (expected null)"
                               % (k, v, ",".join(unread)))
            elif v is None:
                bad.append("%s is null but readable" % k)
        st_ok = readable.get(gdir(g) + "/memory.stat", False)
        if not st_ok:
            # eff_limit: null, or min(limit) of self and ancestors (spec fallback)
            chain = []
            parts = g.split("/") if g else []
            for n in range(len(parts), -1, -1):
                chain.append("/".join(parts[:n]))
            lim = conv(min(readint(c, "memory.limit_in_bytes") for c in chain))
            v = r.get("eff_limit")
            if v is not None and v != lim:
                bad.append("eff_limit=%r (stat unreadable: expected null or %r)"
                           % (v, lim))
        st = static(g)
        for k in ["limit", "soft", "swappiness"]:
            if readable.get(gdir(g) + "/" + KEYFILES[k][0]) and r.get(k) != st[k]:
                bad.append("%s: expected %r got %r" % (k, st[k], r.get(k)))
        out(not bad, "unprivileged %s: unreadable files give null, readable "
            "ones values%s" % (gpath(g), ": " + "; ".join(bad) if bad else ""))
    out(nnull > 0, "unprivileged: %d key(s) of the test tree unreadable for "
        "nobody were checked for null" % nnull)


mode = sys.argv[1]
{"main": main_run, "churn": churn_run, "unpriv": unpriv_check}[mode]()
PYEOF

export CGM TNAME MEMCGTOP TMPD
export PIDFILE=$TMPD/pids
TGROUPS=$(printf '%s\n' "${groups[@]}")
TGROUPS=${TGROUPS%$'\n'}
VOLATILE=$(printf '%s\n' "${volatile[@]}")
export TGROUPS VOLATILE TIGHT=b/tight

# run_py OUTFILE ARGS...: run the checker in the background (so that signals
# reach our traps at once), then count its results.
run_py() {
	local o=$1 p
	shift
	python3 "$TMPD/check.py" "$@" >"$o" 2>&1 &
	p=$!
	pids+=("$p")
	wait "$p" || fail "checker $1 exited with status $? (see the lines above)"
	tally "$o"
}

# ---- 1. main comparison ------------------------------------------------------
run_py "$TMPD/main.out" main

# ---- 2. churn ---------------------------------------------------------------------
run_py "$TMPD/churn.out" churn

# ---- 3. unprivileged ------------------------------------------------------------------
nb=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
ubin=$MEMCGTOP
if ! "${nb[@]}" test -x "$ubin"; then
	mkdir -p "$TMPD/bin" && chmod 755 "$TMPD/bin" &&
		cp "$MEMCGTOP" "$TMPD/bin/memcgtop" && chmod 755 "$TMPD/bin/memcgtop" ||
		abort "cannot copy memcgtop for nobody"
	ubin=$TMPD/bin/memcgtop
fi
# make some files of the test tree unreadable for nobody
chmod 0600 "$TROOT/c/memory.stat" "$TROOT/c/memory.failcnt" \
	"$TROOT/a/idle/memory.usage_in_bytes" || abort "chmod of cgroup files"
files=()
for g in "${groups[@]}"; do
	for f in memory.usage_in_bytes memory.limit_in_bytes \
		memory.soft_limit_in_bytes memory.swappiness memory.failcnt \
		memory.kmem.usage_in_bytes memory.oom_control cgroup.procs memory.stat; do
		files+=("$TROOT${g:+/$g}/$f")
	done
done
"${nb[@]}" sh -c 'for f do
	if cat -- "$f" >/dev/null 2>&1; then echo "1 $f"; else echo "0 $f"; fi
done' sh "${files[@]}" >"$TMPD/readable"
if grep -q "^0 $TROOT/c/memory.stat\$" "$TMPD/readable" &&
	grep -q "^1 $TROOT/c/memory.limit_in_bytes\$" "$TMPD/readable"; then
	pass "unprivileged: nobody cannot read the chmod 0600 files, can read the others"
else
	fail "unprivileged: readability for nobody not as set up: $(grep -c '^0' "$TMPD/readable") unreadable"
fi
(cd / && "${nb[@]}" "$ubin" -b -F json -n 1 -d 0.2 "/$TNAME") \
	>"$TMPD/unpriv.out" 2>"$TMPD/unpriv.err"
echo $? >"$TMPD/unpriv.rc"
run_py "$TMPD/unpriv.chk" unpriv "$TMPD/unpriv.out" "$TMPD/unpriv.err" \
	"$TMPD/unpriv.rc" "$TMPD/readable"

# ---- 4. no memory hierarchy ------------------------------------------------------------
mkdir "$TMPD/empty-dir"
"$MEMCGTOP" --root "$TMPD/empty-dir" -b >"$TMPD/empty.out" 2>"$TMPD/empty.err"
rc=$?
nl=$(wc -l <"$TMPD/empty.err")
first=$(head -n 1 "$TMPD/empty.err")
if [ "$rc" = 1 ] && [ "$nl" = 1 ] && [ "$(wc -c <"$TMPD/empty.err")" -gt 0 ] &&
	[ "${first#memcgtop: }" != "$first" ] &&
	[ "$(tail -c 1 "$TMPD/empty.err" | od -An -c | tr -d ' ')" = '\n' ]; then
	pass "no hierarchy: --root on an empty dir exits 1 with one error line: $first"
else
	fail "no hierarchy: --root on an empty dir: expected exit 1 and one line 'memcgtop: ...' on stderr, got exit $rc and: $(head -c 300 "$TMPD/empty.err")"
fi
if [ ! -s "$TMPD/empty.out" ]; then
	pass "no hierarchy: nothing on stdout"
else
	fail "no hierarchy: stdout not empty: $(head -c 200 "$TMPD/empty.out")"
fi

# ---- cleanup and its verification ---------------------------------------------------------
started=("${pids[@]}")
while read -r p; do started+=("$p"); done <"$TMPD/pids"
cleanup
left=()
for p in "${started[@]}"; do
	kill -0 "$p" 2>/dev/null && left+=("$p")
done
if [ ! -e "$TROOT" ] && [ ${#left[@]} = 0 ] && [ ! -e "$TMPD" ]; then
	pass "cleanup: test tree, temp dir and all ${#started[@]} started processes gone"
else
	fail "cleanup: left behind: $([ -e "$TROOT" ] && echo "$TROOT ")$([ -e "$TMPD" ] && echo "$TMPD ")pids ${left[*]}"
fi
summary
