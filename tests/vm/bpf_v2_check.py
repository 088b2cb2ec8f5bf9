#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bpf_v2_check.py - bpfdump's records against the cgroup v2 files, from
the brackets tests/vm/bpf-v2.sh's guest left (tests/vm/guest-lib.sh).

  bpf_v2_check.py OUT BPFDUMP KERNEL
  bpf_v2_check.py --columns      the memcgtop -c list check_json knows

A bracket NAME is OUT/br/NAME.{dir,out,err,rc} and two copies of the tree,
NAME.before/ and NAME.after/, each with its .ids (inode number and path of
every directory).  snapshot() reads one copy; anything that compares a
command's output with the files takes the two copies and that output:

  before, after = snapshot(out, NAME, "before"), snapshot(out, NAME, "after")

Kinds of value: "limit" must equal the file, which must not move between
the copies; "mono" (events, peaks) and "move" (usage) must lie between the
two copies' values; "move" values of the groups a load runs in are left out
while it runs (they go up and down; checked with the load stopped).
"""
import hashlib
import os
import re
import sys

CG = b"/sys/fs/cgroup"

# bpfdump key -> (v2 file, kind)
V2 = {
    "usage": ("memory.current", "move"),
    "max": ("memory.max", "limit"),
    "high": ("memory.high", "limit"),
    "low": ("memory.low", "limit"),
    "min": ("memory.min", "limit"),
    "swap_usage": ("memory.swap.current", "move"),
    "swap_max": ("memory.swap.max", "limit"),
    "swap_high": ("memory.swap.high", "limit"),
    "peak": ("memory.peak", "mono"),
    "swap_peak": ("memory.swap.peak", "mono"),
    "oom_group": ("memory.oom.group", "limit"),
}
# bpfdump key -> (v2 flat-keyed file, key)
EVENTS = {
    "ev_low": ("memory.events", "low"),
    "ev_high": ("memory.events", "high"),
    "ev_max": ("memory.events", "max"),
    "ev_oom": ("memory.events", "oom"),
    "ev_oom_kill": ("memory.events", "oom_kill"),
    "ev_oom_group_kill": ("memory.events", "oom_group_kill"),
    "ev_swap_high": ("memory.swap.events", "high"),
    "ev_swap_max": ("memory.swap.events", "max"),
    "ev_swap_fail": ("memory.swap.events", "fail"),
}
V1_ONLY = ["soft", "kmem", "failcnt", "swappiness"]

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


def unescape(s):
    return re.sub(rb"\\x([0-9a-f]{2})",
                  lambda m: bytes([int(m.group(1), 16)]), s.encode())


def decode_name(s):
    """A path as memcgtop's outputs write it (\\xHH for a byte that is not
    printable UTF-8, \\\\ for a backslash) back to the directory's bytes."""
    return re.sub(rb"\\\\|\\x([0-9A-Fa-f]{2})",
                  lambda m: bytes([int(m.group(1), 16)]) if m.group(1) else b"\\",
                  s.encode())


def parse_dump(text):
    recs = []
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        head, _, name = line.partition(" name=")
        r = dict(kv.split("=", 1) for kv in head.split())
        r["name"] = unescape(name)
        recs.append(r)
    return recs


def read_value(path):
    """A single-value file: int, "max", or None when it is not there."""
    try:
        with open(path, "rb") as f:
            t = f.read().strip()
    except OSError:
        return None
    return "max" if t == b"max" else int(t)


def read_keyed(path):
    try:
        with open(path, "rb") as f:
            return {k.decode(): int(v) for k, v in
                    (line.split() for line in f.read().splitlines() if line)}
    except OSError:
        return None


def snapshot(out, name, which):
    """{inode: {"path": bytes from the hierarchy's root, "name", "parent",
    "level", "memcg": has memory files, "dir": the copy's folder}}"""
    top = open(os.path.join(out, "br", name + ".dir"), "rb").read().strip()
    base = os.path.join(os.fsencode(out), b"br", (name + "." + which).encode())
    paths = {}
    with open(base + b".ids", "rb") as f:
        for line in f.read().splitlines():
            ino, _, p = line.partition(b" ")
            paths[p] = int(ino)
    groups = {}
    for p, ino in paths.items():
        rel = os.path.relpath(p, CG)
        rel = b"" if rel == b"." else rel
        if p == CG:
            copy = os.path.join(base, os.path.basename(top)) if top == CG else None
        elif p == top or p.startswith(top + b"/"):
            copy = os.path.join(base, os.path.basename(top), os.path.relpath(p, top))
        else:
            copy = None
        g = {"path": rel, "name": os.path.basename(rel),
             "parent": paths.get(os.path.dirname(p), 0) if p != CG else 0,
             "level": rel.count(b"/") + 1 if rel else 0, "dir": copy,
             "memcg": p == CG or (copy is not None and
                                  os.path.exists(os.path.join(copy, b"memory.current")))}
        if copy is not None:
            for key, (f, _) in V2.items():
                g[key] = read_value(os.path.join(copy, f.encode()))
            for key, (f, k) in EVENTS.items():
                ev = read_keyed(os.path.join(copy, f.encode()))
                g[key] = None if ev is None else ev.get(k)
        groups[ino] = g
    return groups


def bracket(out, name):
    """(records, before, after) of bracket NAME; fails when CMD did."""
    br = os.path.join(out, "br", name)
    rc = open(br + ".rc").read().strip()
    text = open(br + ".out", errors="surrogateescape").read()
    err = open(br + ".err", errors="replace").read().strip()
    check(rc == "0" and not err, "%s: bpfdump exits 0 with nothing on stderr (%s%s)"
          % (name, rc, ", " + err[:200] if err else ""))
    return parse_dump(text), snapshot(out, name, "before"), snapshot(out, name, "after")


def check_tree(name, recs, before, after, start):
    ids = [int(r["id"]) for r in recs]
    want = {i for i, g in before.items() if g["memcg"] and
            (g["path"] == start or g["path"].startswith(start + b"/") or start == b"")}
    check(len(set(ids)) == len(ids), "%s: no group twice" % name)
    check(set(ids) == want, "%s: the same %d groups as the directories with memory files "
          "(bpf only %s, files only %s)" % (name, len(want), sorted(set(ids) - want)[:5],
                                             [before[i]["path"] for i in sorted(want - set(ids))][:5]))
    check(ids[:1] == [i for i, g in before.items() if g["path"] == start],
          "%s: the first record is the start group" % name)
    names = parents = levels = order = 0
    stack = []
    for r in recs:
        f = before.get(int(r["id"]))
        lvl = int(r["level"])
        while stack and stack[-1][1] >= lvl:
            stack.pop()
        if stack and int(r["parent"]) != stack[-1][0]:
            order += 1
        stack.append((int(r["id"]), lvl))
        if f is None:
            continue
        names += r["name"] != f["name"]
        parents += int(r["parent"]) != f["parent"]
        levels += lvl != f["level"]
    for what, n in (("names (bytes)", names), ("parent ids", parents), ("levels", levels)):
        check(n == 0, "%s: %s equal to the directories' (%d wrong)" % (name, what, n))
    check(order == 0, "%s: records in pre-order (%d out of order)" % (name, order))


def shown(v):
    return "-" if v is None else str(v)


def check_values(name, recs, before, after, skip_moving=()):
    keys = list(V2) + list(EVENTS)
    errs = {k: [] for k in keys + ["v1-only"]}
    counts = {k: 0 for k in keys}
    for r in recs:
        ino = int(r["id"])
        a, b = before.get(ino), after.get(ino)
        if a is None or b is None or a["dir"] is None:
            continue
        where = a["path"].decode(errors="replace") or "/"
        for key in keys:
            kind = V2[key][1] if key in V2 else "mono"
            got, fa, fb = r[key], a[key], b[key]
            if fa is None and fb is None:
                if got != "-":
                    errs[key].append("%s: %s=%s, no file" % (where, key, got))
                continue
            if kind == "move" and a["path"] in skip_moving:
                continue
            counts[key] += 1
            if kind == "limit":
                if fa != fb:
                    errs[key].append("%s: the file moved (%s, %s)" % (where, fa, fb))
                elif got != shown(fa):
                    errs[key].append("%s: %s=%s, file %s" % (where, key, got, fa))
                continue
            if fa is None or fb is None or got in ("-", "max") or \
               not min(fa, fb) <= int(got) <= max(fa, fb):
                errs[key].append("%s: %s=%s, file %s before, %s after" % (where, key, got, fa, fb))
        for key in V1_ONLY:
            if r[key] != "-":
                errs["v1-only"].append("%s: %s=%s" % (where, key, r[key]))
    for key, e in errs.items():
        if key == "v1-only":
            what = "v1-only values (soft, kmem, failcnt, swappiness) are '-'"
        elif key in EVENTS:
            what = "%s between the copies of %s %s (%d groups)" % (key, EVENTS[key][0], EVENTS[key][1], counts[key])
        elif V2[key][1] == "limit":
            what = "%s equal to %s (%d groups)" % (key, V2[key][0], counts[key])
        else:
            what = "%s between the copies of %s (%d groups)" % (key, V2[key][0], counts[key])
        check(not e, "%s: %s%s" % (name, what, ": " + "; ".join(e[:4]) if e else ""))


# memcgtop -F json column key -> (v2 file, kind) or (flat-keyed file, key,
# "mono"), for check_json
JSON_FILES = {
    "usage": ("memory.current", "move"), "limit": ("memory.max", "limit"),
    "high": ("memory.high", "limit"), "low": ("memory.low", "limit"),
    "min": ("memory.min", "limit"), "swap": ("memory.swap.current", "move"),
    "swap_limit": ("memory.swap.max", "limit"), "peak": ("memory.peak", "mono"),
    "swap_peak": ("memory.swap.peak", "mono"),
}
JSON_EVENTS = {
    "ev_low": "ev_low", "ev_high": "ev_high", "ev_max": "ev_max", "ev_oom": "ev_oom",
    "ev_oom_kill": "ev_oom_kill", "swap_ev_high": "ev_swap_high",
    "swap_ev_max": "ev_swap_max", "swap_ev_fail": "ev_swap_fail",
}
JSON_COLUMNS = ",".join(["path"] + list(JSON_FILES) + list(JSON_EVENTS))


def json_bracket(out, name):
    """(groups by path bytes, document, before, after) of a bracket whose
    command printed memcgtop -b -F json -n 1 (its last line)."""
    import json
    br = os.path.join(out, "br", name)
    rc = open(br + ".rc").read().strip()
    err = open(br + ".err", errors="replace").read().strip()
    lines = open(br + ".out", encoding="utf-8").read().splitlines()
    check(rc == "0" and not err and lines, "%s: the command exits 0 with JSON and nothing on "
          "stderr (%s%s)" % (name, rc, ", " + err[:200] if err else ""))
    doc = json.loads(lines[-1]) if lines else {"groups": []}
    groups = {decode_name(g["path"]).lstrip(b"/"): g for g in doc["groups"]}
    return groups, doc, snapshot(out, name, "before"), snapshot(out, name, "after")


def check_json(name, groups, before, after, start, skip_moving=()):
    """memcgtop's groups against the files: the same groups (paths), and
    each JSON_FILES/JSON_EVENTS column the JSON has, as check_values
    does (null where the group has no such file)."""
    want = {g["path"]: g for g in before.values() if g["memcg"] and g["dir"] is not None and
            (g["path"] == start or g["path"].startswith(start + b"/"))}
    check(set(groups) == set(want), "%s: the same %d groups as the directories (JSON only %s, "
          "files only %s)" % (name, len(want), sorted(set(groups) - set(want))[:3],
                              sorted(set(want) - set(groups))[:3]))
    byp = {g["path"]: (ino, g) for ino, g in before.items()}
    cols = [k for k in list(JSON_FILES) + list(JSON_EVENTS)
            if any(k in g for g in groups.values())]
    for col in cols:
        key = JSON_EVENTS.get(col)
        kind = "mono" if key else JSON_FILES[col][1]
        fkey = key or next(k for k, (f, _) in V2.items() if f == JSON_FILES[col][0])
        errs, n = [], 0
        for path, g in groups.items():
            if path not in byp or path in skip_moving and kind == "move":
                continue
            ino, a = byp[path]
            b = after.get(ino, a)
            got, fa, fb = g.get(col), a[fkey], b[fkey]
            n += 1
            if fa is None and fb is None:
                if got is not None:
                    errs.append("%s: %s, no file" % (path.decode(errors="replace"), got))
            elif kind == "limit":
                if fa != fb or got != fa:
                    errs.append("%s: %s, file %s/%s" % (path.decode(errors="replace"), got, fa, fb))
            elif not isinstance(got, int) or "max" in (fa, fb) or not \
                    min(fa, fb) <= got <= max(fa, fb):
                errs.append("%s: %s, file %s before, %s after" % (path.decode(errors="replace"),
                                                                 got, fa, fb))
        check(not errs, "%s: JSON %s against %s (%d groups)%s" % (
            name, col, JSON_FILES[col][0] if col in JSON_FILES else EVENTS[key][0] + " " + EVENTS[key][1],
            n, ": " + "; ".join(errs[:4]) if errs else ""))


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    if sys.argv[1:] == ["--columns"]:
        print(JSON_COLUMNS)
        return
    out, bpfdump, kernel = sys.argv[1:4]
    uname = open(os.path.join(out, "uname")).read().strip()
    check(uname == kernel, "the guest runs kernel %s (%s)" % (kernel, uname))
    # CO-RE: this binary, with this object in it, on this kernel
    obj = os.path.join(os.path.dirname(bpfdump), "bpf", "memcg_iter.bpf.o")
    objbytes = open(obj, "rb").read() if os.path.exists(obj) else b""
    check(objbytes and objbytes in open(bpfdump, "rb").read(),
          "bpfdump (sha256 %s) embeds %s (sha256 %s)"
          % (sha(bpfdump)[:16], obj, objbytes and hashlib.sha256(objbytes).hexdigest()[:16]))

    recs, before, after = bracket(out, "A")
    check(len(recs) > 0, "A: load stopped: bpfdump loaded its object and walked %d groups on %s"
          % (len(recs), uname))
    check_tree("A", recs, before, after, b"bv")
    check_values("A", recs, before, after)
    # v2 sizes the maps from the start's cgroup.stat (its live groups), not
    # from /proc/cgroups (the whole hierarchy, dying groups too): room for
    # exactly those and a quarter more, plus 64, with no second load.
    summary = [l for l in open(os.path.join(out, "br", "A.out"), errors="replace")
               if l.startswith("# groups=")]
    cap = dict(kv.split("=", 1) for kv in summary[-1][2:].split()) if summary else {}
    g = len(recs)
    v = int(cap.get("verified", "0") or 0)
    check(0 < v <= 100000,
          "A: the verifier accepted the iterator in %d instructions (at most 100,000 of its "
          "1,000,000) on %s" % (v, uname))
    check(cap.get("capacity") == str(g + g // 4 + 64),
          "A: the maps hold %d groups: the start's %d live groups (cgroup.stat) and a quarter "
          "more, plus 64 (%s)" % (g + g // 4 + 64, g, summary[-1].strip() if summary else "no summary"))
    rid = {before[int(r["id"])]["path"]: r for r in recs if int(r["id"]) in before}
    h, m = rid.get(b"bv/load/h", {}), rid.get(b"bv/load/m", {})
    check(h.get("ev_high") not in (None, "-", "0") and m.get("ev_max") not in (None, "-", "0")
          and h.get("swap_usage") not in (None, "-", "0") and m.get("swap_usage") not in (None, "-", "0"),
          "A: the loads reached memory.high (load/h: ev_high %s) and memory.max (load/m: "
          "ev_max %s) and swapped (%s, %s bytes)" % (h.get("ev_high"), m.get("ev_max"),
                                                     h.get("swap_usage"), m.get("swap_usage")))

    # memcgtop's own output, the same way, with each collector
    for name, collector in (("M", "files"), ("MB", "bpf")):
        groups, doc, before, after = json_bracket(out, name)
        check_json(name, groups, before, after, b"bv")
        check(doc.get("collector") == collector,
              "%s: memcgtop says it used the %s collector (JSON collector %r)"
              % (name, collector, doc.get("collector")))

    recs, before, after = bracket(out, "B")
    check_tree("B", recs, before, after, b"bv")
    check_values("B", recs, before, after, skip_moving=(b"bv", b"bv/load", b"bv/load/h", b"bv/load/m"))
    print("INFO: B: usage and swap usage of bv, bv/load and its two loaded groups (moving) left out")

    recs, before, after = bracket(out, "R")
    check_tree("R", recs, before, after, b"")
    check_values("R", recs, before, after)
    root = recs[0] if recs else {}
    check(root.get("level") == "0" and root.get("parent") == "0" and root.get("name") == b""
          and all(root.get(k) == "-" for k in list(V2) + list(EVENTS) + V1_ONLY),
          "R: the v2 root: level 0, parent 0, empty name, no values (it has no memory files)")
    print("bpf-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


main()
