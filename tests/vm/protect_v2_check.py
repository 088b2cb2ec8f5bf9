#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""protect_v2_check.py - effective protection in memcgtop's output against
the kernel under global reclaim, from what tests/vm/protect-v2.sh's guest
left (see there for the scenario).

  protect_v2_check.py OUT GOLDEN_DIR

GOLDEN_DIR holds tests/golden/verify.py (its protection() is the
reference computation).  OUT holds:
  uname, mounts, lru_gen            the guest's kernel, its cgroup2 mount,
                                    /sys/kernel/mm/lru_gen/enabled
  pN.json (.err, .rc)               memcgtop's run of phase N (0 to 3)
  pN.before/, pN.after/             around it: GROUP/memory.* (GROUP: the
                                    path with / as _, e.g. pv_c_x),
                                    vmstat, meminfo
  p3.sizes                          MemAvailable and /pv's usage before
                                    phase 3, the hog's anonymous memory
                                    (MiB) and its number of chunks
  p3.hogalive, p3.oom               the chunks alive, the OOM killer's
                                    lines of dmesg

The kernel's low event (mm/vmscan.c shrink_node_memcgs; under the
multi-gen LRU shrink_one) fires only for a group reclaimed while
mem_cgroup_below_low(): elow >= usage.  memory.events counts it in the
group and every ancestor; memory.events.local in the group only, so the
per-group assertion uses .local.
"""
import json
import re
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmcheck  # noqa: E402

out, golden = sys.argv[1], sys.argv[2]
sys.path.insert(0, golden)
import verify  # noqa: E402

c = vmcheck.Checks("protect-v2", out)
MIB = 1 << 20
GROUPS = ["/pv", "/pv/a", "/pv/b", "/pv/c", "/pv/c/x", "/hog"]
LOW = {"/pv": 96 * MIB, "/pv/a": 64 * MIB, "/pv/b": 64 * MIB, "/pv/c": 0,
       "/pv/c/x": 32 * MIB, "/hog": 0}
PHASES = {"p0": 2, "p1": 10, "p2": 5, "p3": 8}


def info(msg):
    print("INFO: " + msg)


def mib(v):
    if isinstance(v, int) and not isinstance(v, bool):
        return "%.1fM" % (v / MIB)
    return json.dumps(v)


def kv(name):
    t = c.rd(name)
    if t is None:
        return None
    d = {}
    for line in t.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] not in d:
            d[p[0]] = int(p[1])
    return d


def gfile(snap, g, f):
    return os.path.join(snap, g[1:].replace("/", "_"), f)


def event(snap, g, local=False):
    e = kv(gfile(snap, g, "memory.events.local" if local else "memory.events"))
    return None if e is None else e.get("low")


def stat(snap, g, key):
    s = kv(gfile(snap, g, "memory.stat"))
    return None if s is None else s.get(key)


def vmstat_sum(snap, prefix):
    v = kv(os.path.join(snap, "vmstat")) or {}
    return sum(n for k, n in v.items() if k.startswith(prefix))


info("kernel %s, %s, lru_gen %s" % ((c.rd("uname") or "?").strip(),
                                    (c.rd("mounts") or "?").strip(),
                                    (c.rd("lru_gen") or "none").strip()))

rows = {}
for ph, n in PHASES.items():
    rc = (c.rd(ph + ".rc") or "").strip()
    err = (c.rd(ph + ".err") or "").strip()
    its, bad = [], []
    for i, line in enumerate((c.rd(ph + ".json") or "").splitlines()):
        try:
            its.append(json.loads(line))
        except ValueError as e:
            bad.append("line %d: %s" % (i + 1, e))
    c.report(rc == "0" and not err and not bad and len(its) == n and
             all(it.get("mode") == "v2" for it in its),
             "%s: memcgtop -b -F json -n %d -d 1 / exits 0, %d v2 JSON lines, no message" % (ph, n, n),
             "status %s, stderr %r, %d lines, %s" % (rc, err[:300], len(its), bad[:2]))
    rows[ph] = [{r["path"]: r for r in it.get("groups", [])} for it in its]

allrows = [(ph, i, r) for ph in PHASES for i, r in enumerate(rows[ph])]
if not allrows:
    c.finish()

# ---- the settings as written, and every group listed
probs = []
for ph, i, r in allrows:
    for g in GROUPS:
        if g not in r:
            probs.append("%s it%d: %s missing" % (ph, i + 1, g))
        elif r[g].get("low") != LOW[g] or r[g].get("min") != 0:
            probs.append("%s it%d: %s low %s min %s" % (ph, i + 1, g, r[g].get("low"), r[g].get("min")))
c.report(not probs, "every sample lists /pv, a, b, c, c/x and /hog with the memory.low and memory.min written",
         "; ".join(probs[:6]))

# ---- (a) eff_min, eff_low, excess = verify.py's protection(recursive=True)
for ph in PHASES:
    probs, n = [], 0
    for i, r in enumerate(rows[ph]):
        gs = {p: {k: x.get(k) for k in ("usage", "min", "low")} for p, x in r.items()}
        verify.protection(False, gs, True)
        for p, x in r.items():
            if p == "/":
                continue
            n += 1
            for k in ("eff_min", "eff_low", "excess"):
                if x.get(k) != gs[p].get(k):
                    probs.append("%s it%d: %s %s %s, expected %s (usage %s min %s low %s)" % (
                        ph, i + 1, p, k, json.dumps(x.get(k)), json.dumps(gs[p].get(k)),
                        x.get("usage"), x.get("min"), x.get("low")))
    c.report(not probs and n > 0,
             "%s: eff_min, eff_low and excess = verify.py protection(recursive=True) of the same rows (%d rows)"
             % (ph, n), "; ".join(probs[:6]))

# the values, per phase: usage and eff_low, first and last sample
for ph in PHASES:
    for g in GROUPS:
        seq = [(r[g].get("usage"), r[g].get("eff_low"), r[g].get("eff_min")) for r in rows[ph] if g in r]
        if seq:
            info("%s %-8s usage %s eff_low %s eff_min %s (first sample) -> usage %s eff_low %s eff_min %s (last)"
                 % (ph, g, mib(seq[0][0]), mib(seq[0][1]), mib(seq[0][2]),
                    mib(seq[-1][0]), mib(seq[-1][1]), mib(seq[-1][2])))

# ---- (b) the kernel: global reclaim, and the low events
for ph in ("p1", "p2", "p3"):
    b, a = os.path.join(ph + ".before"), os.path.join(ph + ".after")
    ds = vmstat_sum(a, "pgscan_") - vmstat_sum(b, "pgscan_")
    dt = vmstat_sum(a, "pgsteal_") - vmstat_sum(b, "pgsteal_")
    hog = [r["/hog"].get("usage") for r in rows[ph] if "/hog" in r]
    lims = {g: (c.rd(gfile(b, g, "memory.max")) or "?").strip() for g in GROUPS}
    c.report(ds > 0 and dt > 0 and all(v == "max" for v in lims.values()),
             "%s: global reclaim while memcgtop ran (/proc/vmstat: %d pages scanned, %d stolen; "
             "no memory.max set; /hog's usage %s..%s)" % (ph, ds, dt, mib(min(hog or [0])), mib(max(hog or [0]))),
             "pgscan delta %d, pgsteal delta %d, memory.max %s" % (ds, dt, lims))
    info("%s: kswapd scanned %d, direct %d pages" % (
        ph, vmstat_sum(a, "pgscan_kswapd") - vmstat_sum(b, "pgscan_kswapd"),
        vmstat_sum(a, "pgscan_direct") - vmstat_sum(b, "pgscan_direct")))

protected_any = []
lows = {}
for ph in ("p1", "p2", "p3"):
    b, a = ph + ".before", ph + ".after"
    never, probs, got = [], [], []
    for g in GROUPS:
        samples = [r[g] for r in rows[ph] if g in r]
        ok = [s for s in samples if isinstance(s.get("eff_low"), int) and isinstance(s.get("usage"), int)]
        prot = [s for s in ok if s["eff_low"] > 0 and s["usage"] <= s["eff_low"]]
        if prot:
            protected_any.append("%s %s (%d of %d samples)" % (ph, g, len(prot), len(samples)))
        el = [event(x, g, True) for x in (b, a)]
        eh = [event(x, g) for x in (b, a)]
        sc = [stat(x, g, "pgscan") for x in (b, a)]
        dl = None if None in el else el[1] - el[0]
        dh = None if None in eh else eh[1] - eh[0]
        dsc = None if None in sc else sc[1] - sc[0]
        us = [s["usage"] for s in ok]
        mg = [s["usage"] - s["eff_low"] for s in ok]
        info("%s %-8s low events: local +%s, hierarchical +%s; pgscan +%s; protected in %d of %d samples; "
             "usage - eff_low %s..%s" % (ph, g, dl, dh, dsc, len(prot), len(samples),
                                         mib(min(mg)) if mg else "-", mib(max(mg)) if mg else "-"))
        if dl:
            got.append("%s +%d" % (g, dl))
        if len(ok) == len(samples) and samples and not prot:
            never.append(g)
            if dl is None or dl != 0:
                probs.append("%s: never protected (usage %s..%s, eff_low %s..%s) but memory.events.local low +%s"
                             % (g, mib(min(us)), mib(max(us)), mib(min(s["eff_low"] for s in ok)),
                                mib(max(s["eff_low"] for s in ok)), dl))
    c.report(not probs and "/hog" in never,
             "%s: no low event in the groups memcgtop never saw protected (%s)" % (ph, ", ".join(never)),
             "; ".join(probs))
    info("%s: groups with memory.events.local low events: %s" % (ph, ", ".join(got) or "none"))
    lows[ph] = got
c.report(bool(protected_any), "a group protected (0 < eff_low, usage <= eff_low) in some sample under reclaim: "
         + "; ".join(protected_any), "none")

# ---- phase 3: protection breached (no swap, the hog's anonymous memory
# can only come from b's and c/x's protected page cache): low events, and
# only in groups memcgtop saw protected
sz = (c.rd("p3.sizes") or "").split()
info("p3: MemAvailable %s MiB, /pv %s MiB, the hog's anon %s MiB in %s chunks (%s alive); OOM: %s" % (
    tuple(sz + ["?"] * 4)[:4] + ((c.rd("p3.hogalive") or "?").strip(),
                                 " | ".join((c.rd("p3.oom") or "").strip().splitlines()[:3]) or "none")))
for g in ("/pv/b", "/pv/c/x"):
    u = [r[g].get("usage") for r in rows["p3"] if g in r]
    e = [r[g].get("eff_low") for r in rows["p3"] if g in r]
    info("p3 %s usage %s; eff_low %s" % (g, " ".join(mib(v) for v in u), " ".join(mib(v) for v in e)))
c.report(bool(lows.get("p3")), "p3: the kernel breached protection: memory.events.local low in %s"
         % ", ".join(lows.get("p3") or ["none"]), "no low event; see the INFO lines")

# ---- (c) memory_recursiveprot: c/x's share of c's unclaimed protection
x = [r["/pv/c/x"].get("eff_low") for r in rows["p2"] if "/pv/c/x" in r]
c.report(bool(x) and all(isinstance(v, int) and v > 0 for v in x),
         "p2: c/x's eff_low > 0 in every sample (memory_recursiveprot; c's own low is 0): %s"
         % ", ".join(mib(v) for v in x), "")
# without memory_recursiveprot the same rows give 0
if rows["p2"]:
    r = rows["p2"][-1]
    gs = {p: {k: v.get(k) for k in ("usage", "min", "low")} for p, v in r.items()}
    verify.protection(False, gs, False)
    info("p2 last sample: c/x's eff_low %s; %s without memory_recursiveprot; c's %s"
         % (mib(r["/pv/c/x"].get("eff_low")), mib(gs["/pv/c/x"].get("eff_low")), mib(r["/pv/c"].get("eff_low"))))
# ---- (d) what the kernel stored at its last reclaim of each group
probs, n = [], 0
for ph in ("p1", "p2"):
    for i, r in enumerate(rows[ph]):
        for g in ("/pv", "/hog"):
            if g not in r:
                continue
            n += 1
            x = r[g]
            if x.get("eff_low_last") != LOW[g] or x.get("eff_min_last") != 0:
                probs.append("%s it%d: %s eff_low_last %s eff_min_last %s, memory.low %s"
                             % (ph, i + 1, g, x.get("eff_low_last"), x.get("eff_min_last"), LOW[g]))
        if "/" in r and (r["/"].get("eff_low_last") is not None or
                         r["/"].get("eff_min_last") is not None):
            probs.append("%s it%d: the root has eff_low_last %s" % (ph, i + 1, r["/"].get("eff_low_last")))
c.report(not probs and n > 0,
         "p1, p2: /pv's and /hog's eff_low_last and eff_min_last are their memory.low and memory.min "
         "(a child of the reclaim root gets its settings), the root has none (%d rows)" % n,
         "; ".join(probs[:6]))
# Below the top level the kernel shares protection by the usages of its
# last reclaim, memcgtop by those it read: the same rules, so the same
# values but for what usage moved between (at most 2 MiB + 3 % here)
# while global reclaim goes on steadily (phases 1 and 2).  In phase 3
# the hog's allocations breach the protection: the last reclaim may have
# seen b's and c/x's cache nearly gone, which their readers then read
# back (7.3: b 0.7M stored, 60.5M now), so it is shown, not checked.
for ph in ("p3",):
    if rows[ph]:
        r = rows[ph][-1]
        info("%s last sample, eff_low_last/eff_low: %s" % (ph, ", ".join(
            "%s %s/%s" % (g, mib(r[g].get("eff_low_last")), mib(r[g].get("eff_low")))
            for g in ("/pv/a", "/pv/b", "/pv/c", "/pv/c/x") if g in r)))
probs, seen = [], []
for ph in ("p1", "p2"):
    if not rows[ph]:
        continue
    r = rows[ph][-1]
    for g in ("/pv/a", "/pv/b", "/pv/c", "/pv/c/x"):
        if g not in r:
            continue
        last, now = r[g].get("eff_low_last"), r[g].get("eff_low")
        seen.append("%s %s %s/%s" % (ph, g, mib(last), mib(now)))
        if not isinstance(last, int) or not isinstance(now, int) or \
           abs(last - now) > 2 * MIB + 0.03 * max(last, now):
            probs.append("%s %s: eff_low_last %s, eff_low %s" % (ph, g, last, now))
c.report(not probs and bool(seen),
         "under steady global reclaim the kernel's stored elow is memcgtop's eff_low (last "
         "sample of phases 1 and 2, eff_low_last/eff_low): " + ", ".join(seen), "; ".join(probs[:6]))
kver = (c.rd("uname") or "0.0").strip().split(".")
new = (int(kver[0]), int(re.match(r"\d+", kver[1]).group())) >= (6, 8)
pend = [(ph, p, x.get("stats_pending")) for ph, i, r in allrows for p, x in r.items()]
badp = [t for t in pend if (t[2] is None) == new or (new and not isinstance(t[2], int))]
c.report(not badp, "stats_pending %s for every group on %s" % (
    "an integer" if new else "null (no per-group count before 6.8)", ".".join(kver[:2])),
    "; ".join("%s %s %s" % t for t in badp[:6]))
x0 = [r["/pv/c/x"].get("eff_low") for r in rows["p0"] if "/pv/c/x" in r]
info("p0 (a and b claim more than /pv's 96M, c gets none): c/x's eff_low %s" % ", ".join(mib(v) for v in x0))
c.finish()
