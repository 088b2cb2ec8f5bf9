#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""reclaim_v2_check.py - bpfevdump's reports against memory.stat, from
what tests/vm/reclaim-v2.sh's guest left in OUT.

  reclaim_v2_check.py OUT KERNEL
  reclaim_v2_check.py --columns   the memcgtop -c list json_check knows

OUT/ev.out holds bpfevdump's reports in order, OUT/reports their names
("start1 1", "load1 2", ...); OUT/br/statN.{before,after} two copies of
rcN's files around report finalN (tests/vm/guest-lib.sh's bracket).
"""
import math
import os
import sys

ITEMS = ["scan_kswapd", "scan_direct", "scan_khugepaged", "scan_proactive",
         "steal_kswapd", "steal_direct", "steal_khugepaged", "steal_proactive"]
SMALL = 20
OLD = "bpfevdump: old: the kernel has no count_memcg_events tracepoint (Linux 6.13 or later)"

npass = nfail = 0


def ok(msg):
    global npass
    npass += 1
    print("PASS: " + msg)


def bad(msg):
    global nfail
    nfail += 1
    print("FAIL: " + msg)


def check(cond, msg):
    (ok if cond else bad)(msg)
    return cond


def kv(fields):
    return dict(f.split("=", 1) for f in fields if "=" in f)


def parse_reports(path):
    reps, cur = [], None
    for line in open(path, errors="surrogateescape"):
        w = line.split()
        if not w or w[0] in ("items", "ready"):
            continue
        if cur is None:
            cur = {"group": {}, "tree": {}, "sys": {}, "all": {}}
        if w[0] == "end":
            reps.append(cur)
            cur = None
        elif w[0] in ("group", "tree"):
            d = kv(w[1:])
            cur[w[0]][int(d["id"])] = d
        elif w[0] in ("sys", "all"):
            cur[w[0]] = kv(w[1:])
    return reps


def read_stat(path):
    try:
        with open(path) as f:
            return {k: int(v) for k, v in (line.split() for line in f if line.strip())}
    except OSError:
        return None


def snapshot(out, name, which):
    """{path relative to /sys/fs/cgroup: (inode, memory.stat dict)}"""
    base = os.path.join(out, "br", "%s.%s" % (name, which))
    top = open(os.path.join(out, "br", name + ".dir")).read().strip()
    res = {}
    for line in open(base + ".ids"):
        ino, _, p = line.rstrip("\n").partition(" ")
        if p == top or p.startswith(top + "/"):
            copy = os.path.join(base, os.path.basename(top), os.path.relpath(p, top))
            res[os.path.relpath(p, "/sys/fs/cgroup")] = (int(ino), read_stat(
                os.path.join(copy, "memory.stat")))
    return res


def bpf_of(tree_line, key):
    """memory.stat KEY from bpfevdump's subtree sums (0 without a line)."""
    t = tree_line or {}
    get = lambda k: int(t.get(k, 0))
    if key == "pgscan":
        return sum(get(k) for k in ITEMS[:4])
    if key == "pgsteal":
        return sum(get(k) for k in ITEMS[4:])
    return get(key.replace("pgscan_", "scan_").replace("pgsteal_", "steal_"))


def sysd(rep, key):
    return int(rep["sys"][key]) if key != "scanned" else \
        [int(x) for x in rep["sys"]["scanned"].split(",")]


# memcgtop -F json column keys that are memory.stat keys
JSON_COLUMNS = ["pgscan", "pgsteal", "pgscan_kswapd", "pgscan_direct",
                "pgsteal_kswapd", "pgsteal_direct"]


def json_check(out, name, what):
    """The bracket NAME of memcgtop -b -F json: every group's JSON_COLUMNS
    equal to its memory.stat, which did not move between the copies."""
    import json
    br = os.path.join(out, "br", name)
    rc = open(br + ".rc").read().strip()
    err = open(br + ".err", errors="replace").read().strip()
    lines = open(br + ".out").read().splitlines()
    check(rc == "0" and not err and lines, "%s: memcgtop -b -F json exits 0, nothing on stderr "
          "(%s%s)" % (what, rc, ", " + err[:200] if err else ""))
    doc = json.loads(lines[-1]) if lines else {"groups": []}
    before, after = snapshot(out, name, "before"), snapshot(out, name, "after")
    groups = {g["path"].lstrip("/"): g for g in doc["groups"]}
    check(set(groups) == set(after), "%s: memcgtop shows the %d groups" % (what, len(after)))
    errs = []
    for p, g in sorted(groups.items()):
        if p not in after:
            continue
        for k in JSON_COLUMNS:
            a, b = before[p][1].get(k), after[p][1].get(k)
            if a != b or g.get(k) != b:
                errs.append("%s %s: JSON %s, memory.stat %s/%s" % (p, k, g.get(k), a, b))
    check(not errs, "%s: memcgtop's %s equal to memory.stat%s" % (
        what, "/".join(JSON_COLUMNS), ": " + "; ".join(errs[:4]) if errs else ""))


def run(out, reps, names, r):
    lru = open(os.path.join(out, "lru_gen.%d" % r)).read().strip()
    what = "run %d (lru_gen %s: %s LRU)" % (r, lru, "classic" if lru == "0x0000" else "multi-gen")
    start, load, final = (reps[names["%s%d" % (n, r)] - 1] for n in ("start", "load", "final"))
    before, after = snapshot(out, "stat%d" % r, "before"), snapshot(out, "stat%d" % r, "after")
    keys = [k for k in ("pgscan", "pgsteal", "pgscan_kswapd", "pgscan_direct",
                        "pgscan_khugepaged", "pgscan_proactive", "pgsteal_kswapd",
                        "pgsteal_direct", "pgsteal_khugepaged", "pgsteal_proactive")
            if k in (before.get("rc%d" % r, (0, {}))[1] or {})]
    check(len(before) == SMALL + 3 and before.keys() == after.keys(),
          "%s: %d groups copied twice" % (what, len(before)))
    moved = [p for p in before if before[p][1] != after[p][1] and
             any(before[p][1].get(k) != after[p][1].get(k) for k in keys)]
    check(not moved, "%s: quiescent: memory.stat's %d reclaim keys equal in both copies (%s)"
          % (what, len(keys), ", ".join(moved[:3]) or "all %d groups" % len(before)))
    for level, paths in (("leaves", [p for p in before if p.count("/") == 2 or p.endswith("/big")]),
                         ("inner (hierarchical)", ["rc%d" % r, "rc%d/apps" % r])):
        errs = []
        for p in sorted(paths):
            ino, st = after[p]
            for k in keys:
                got = bpf_of(final["tree"].get(ino), k)
                if got != st.get(k):
                    errs.append("%s %s: bpf %d, memory.stat %s" % (p, k, got, st.get(k)))
        tot = sum(after["rc%d" % r][1].get(k, 0) for k in ("pgscan",))
        check(not errs, "%s: %s: %s equal to memory.stat exactly (%d groups; rc%d pgscan %d)%s"
              % (what, level, "/".join(keys[:2]) + " and the kswapd/direct/... split", len(paths),
                 r, tot, ": " + "; ".join(errs[:4]) if errs else ""))
    # bpf itself held still from the load's end to the copies
    still = [p for p, (ino, _) in after.items()
             if any(bpf_of(load["tree"].get(ino), k) != bpf_of(final["tree"].get(ino), k)
                    for k in keys)]
    check(not still, "%s: bpfevdump's counts of the tree did not move after the load stopped%s"
          % (what, ": " + ", ".join(still[:3]) if still else ""))

    sc = [b - a for a, b in zip(sysd(start, "scanned"), sysd(load, "scanned"))]
    shr = sysd(load, "shrinks") - sysd(start, "shrinks")
    att = sysd(load, "attributed") - sysd(start, "attributed")
    ex = sysd(load, "exact") - sysd(start, "exact")
    print("INFO: %s: pages scanned by priority 0..12: %s" % (what, ",".join(map(str, sc))))
    check(sum(sc[:12]) > 0, "%s: scanning at priorities below 12: %d pages (of %d)"
          % (what, sum(sc[:12]), sum(sc)))
    check(shr > 0 and att * 10 >= shr * 9,
          "%s: ordering: %d of %d shrink events attributed (the same task's PGSCAN/PGSTEAL "
          "just before on the same CPU: %.1f%%), %d exact (PGSCAN and PGSTEAL values = the event's)"
          % (what, att, shr, 100.0 * att / shr if shr else 0, ex))
    prio = {}
    for p, (ino, st) in after.items():
        g = load["group"].get(ino, {})
        prio[p] = g.get("prio_min", "-")
    small = {p: v for p, v in prio.items() if "/apps/s" in p}
    bigp = prio["rc%d/big" % r]
    print("INFO: %s: prio_min big %s; small groups %s" % (what, bigp, " ".join(
        "%s=%s" % (p.rsplit("/", 1)[1], v) for p, v in sorted(small.items(),
                                                               key=lambda x: int(x[0].rsplit("s", 1)[1])))))
    # 4 MiB = 1,024 pages: scanned lru_size >> priority, so priority <= 10
    limit = int(math.log2(4 << 20 >> 12))
    badp = {p: v for p, v in small.items() if v == "-" or int(v) > limit}
    check(not badp, "%s: every small group's prio_min is at most %d (log2 of its 1,024 pages)%s"
          % (what, limit, ": " + str(badp) if badp else ""))
    nums = [int(v) for v in small.values() if v != "-"]
    # Direct reclaimers walk the groups partially (they stop once they
    # have enough): only kswapd's full walks bind big's prio_min.
    top = after["rc%d" % r][0]
    direct = bpf_of(load["tree"].get(top), "pgscan_direct") - \
        bpf_of(start["tree"].get(top), "pgscan_direct")
    rel = "big's prio_min %s <= the small groups' lowest %s" % (bigp, min(nums) if nums else "-")
    if direct:
        print("INFO: %s: %s; not checked: %d pages of direct reclaim (partial walks)"
              % (what, rel, direct))
    else:
        check(bigp != "-" and nums and int(bigp) <= min(nums),
              "%s: %s: kswapd (no direct reclaim) scans every group at each priority it reaches"
              % (what, rel))
    json_check(out, "json%d" % r, what)
    if nums and bigp != "-" and not max(nums) < int(bigp):
        print("INFO: %s: the seed's expectation (the small groups' prio_min below big's) does not "
              "hold: kswapd walks every memcg at each priority (shrink_node_memcgs), so big is "
              "scanned at the lowest priority reached as well" % what)


def main():
    if sys.argv[1:] == ["--columns"]:
        print(",".join(["path"] + JSON_COLUMNS))
        return
    out, kernel = sys.argv[1:3]
    uname = open(os.path.join(out, "uname")).read().strip()
    check(uname == kernel, "the guest runs kernel %s (%s)" % (kernel, uname))
    rc = open(os.path.join(out, "probe.rc")).read().strip()
    err = open(os.path.join(out, "probe.err")).read()
    pout = open(os.path.join(out, "probe.out")).read()
    if kernel.startswith("6.1."):
        check(rc == "1" and err == OLD + "\n" and pout == "",
              "6.1: bpfevdump exits 1 with one line, %r, nothing else (%s, %r, %r)"
              % (OLD, rc, err, pout[:100]))
    else:
        items = [l for l in pout.splitlines() if l.startswith("items ")]
        check(rc == "0" and not err and items and all(
            kv(items[0].split()[1:]).get(k) == "1" for k in ITEMS[:2] + ITEMS[4:6]),
              "bpfevdump loads on %s, the kernel has the kswapd and direct items (%s)"
              % (uname, items[0] if items else err.strip()))
        check(open(os.path.join(out, "ev.err")).read() == "", "bpfevdump printed nothing on stderr")
        reps = parse_reports(os.path.join(out, "ev.out"))
        names = {}
        for line in open(os.path.join(out, "reports")):
            n, i = line.split()
            names[n] = int(i)
        check(len(reps) == len(names), "%d reports read" % len(reps))
        for r in (1, 2):
            run(out, reps, names, r)
    print("reclaim-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


main()
