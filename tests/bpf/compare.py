#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""compare.py - checks bpfdump's records against the cgroup v1 files.

  compare.py compare CGM START BPFDUMP   every group below START, every value
  compare.py churn CGM START BPFDUMP     a group made, renamed and removed
                                         between walks of one loaded program
  compare.py root CGM BPFDUMP            the v1 root: what BPF sees vs files

Prints PASS:/FAIL:/INFO: lines.  Moving values (usage, memsw usage, kmem,
failcnt, the peaks) are bounded by the movement between two reads of every
file, one just before the walk and one just after: the walk's value must
lie in [min(before, after), max(before, after)].  Limits, soft limits and
swappiness must be equal, and equal in both reads.
"""
import os
import re
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
UNLIMITED = (2**63 - 1) // PAGE * PAGE   # PAGE_COUNTER_MAX as v1 prints it

# bpfdump key -> (v1 file, moving?)
V1 = {
    "usage": ("memory.usage_in_bytes", True),
    "max": ("memory.limit_in_bytes", False),
    "soft": ("memory.soft_limit_in_bytes", False),
    "swap_usage": ("memory.memsw.usage_in_bytes", True),
    "swap_max": ("memory.memsw.limit_in_bytes", False),
    "kmem": ("memory.kmem.usage_in_bytes", True),
    "failcnt": ("memory.failcnt", True),
    "peak": ("memory.max_usage_in_bytes", True),
    "swap_peak": ("memory.memsw.max_usage_in_bytes", True),
    "swappiness": ("memory.swappiness", False),
    # memory.oom_control's oom_kill line (memory_events[] on v1).
    "ev_oom_kill": ("memory.oom_control:oom_kill", True),
}
# v2-only values: "-" on v1.
V2_ONLY = ["high", "low", "min", "swap_high", "oom_group", "ev_low",
           "ev_high", "ev_max", "ev_oom", "ev_oom_group_kill",
           "ev_swap_high", "ev_swap_max", "ev_swap_fail"]

npass = nfail = 0


def ok(msg):
    global npass
    npass += 1
    print("PASS: " + msg)


def bad(msg):
    global nfail
    nfail += 1
    print("FAIL: " + msg)


def unescape(s):
    return re.sub(rb"\\x([0-9a-f]{2})",
                  lambda m: bytes([int(m.group(1), 16)]), s.encode())


def parse_dump(lines):
    recs = []
    for line in lines:
        if line.startswith("#") or not line:
            continue
        head, _, name = line.partition(" name=")
        r = dict(kv.split("=", 1) for kv in head.split())
        r["name"] = unescape(name)
        recs.append(r)
    return recs


def read_files(cgm, start):
    """{inode: {rel, name, parent, level, key: value-or-None}}"""
    groups = {}
    cgm_b, start_b = os.fsencode(cgm), os.fsencode(start)
    for d, _, _ in os.walk(start_b):
        st = os.stat(d)
        rel = os.path.relpath(d, cgm_b)
        g = {"rel": rel, "name": os.path.basename(d) if rel != b"." else b"",
             "parent": os.stat(os.path.dirname(d)).st_ino if rel != b"." else 0,
             "level": 0 if rel == b"." else rel.count(b"/") + 1}
        for key, (f, _) in V1.items():
            f, _, k = f.partition(":")
            try:
                with open(os.path.join(d, os.fsencode(f)), "rb") as fh:
                    text = fh.read()
                if k:
                    text = dict(l.split() for l in text.decode().splitlines())[k]
                g[key] = int(text)
            except (OSError, KeyError, ValueError):
                g[key] = None
        groups[st.st_ino] = g
    return groups


def dump(bpfdump, start):
    p = subprocess.run([bpfdump, start], capture_output=True, text=True,
                       errors="surrogateescape")
    if p.returncode != 0:
        bad("bpfdump %s: exit %d: %s" % (start, p.returncode, p.stderr.strip()))
        sys.exit(1)
    return parse_dump(p.stdout.splitlines())


def shown(v):
    return "max" if v == UNLIMITED else str(v)


def check_values(recs, before, after):
    """One PASS or FAIL per value kind, over every group."""
    errs = {k: [] for k in list(V1) + ["v2-only"]}
    counts = {k: 0 for k in V1}
    for r in recs:
        ino = int(r["id"])
        a, b = before.get(ino), after.get(ino)
        if a is None or b is None:
            continue
        where = a["rel"].decode(errors="replace")
        for key, (f, moving) in V1.items():
            got = r[key]
            if a[key] is None and b[key] is None:
                if got != "-":
                    errs[key].append("%s: %s=%s, no %s" % (where, key, got, f))
                continue
            counts[key] += 1
            if not moving:
                if a[key] != b[key]:
                    errs[key].append("%s: %s moved between reads" % (where, f))
                elif got != shown(a[key]):
                    errs[key].append("%s: %s=%s, file %s" % (where, key, got, a[key]))
                continue
            lo, hi = min(a[key], b[key]), max(a[key], b[key])
            if got == "max" or got == "-" or not lo <= int(got) <= hi:
                errs[key].append("%s: %s=%s, file %d before, %d after"
                                 % (where, key, got, a[key], b[key]))
        for key in V2_ONLY:
            if r[key] != "-":
                errs["v2-only"].append("%s: %s=%s" % (where, key, r[key]))
    for key, e in errs.items():
        if key == "v2-only":
            what = "v2-only values are '-' on v1"
        elif V1[key][1]:
            what = "%s within the files' movement (%d groups)" % (key, counts[key])
        else:
            what = "%s equal to %s (%d groups)" % (key, V1[key][0], counts[key])
        if e:
            bad(what + ": " + "; ".join(e[:5]))
        else:
            ok(what)


def check_tree(recs, before, after, start_ino):
    ids = [int(r["id"]) for r in recs]
    if len(set(ids)) != len(ids):
        bad("a group appears twice")
    want = set(before) & set(after)
    if set(ids) == want:
        ok("same %d groups as the directories (inode numbers)" % len(want))
    else:
        bad("groups: bpf only %s, files only %s"
            % (sorted(set(ids) - want), sorted(want - set(ids))))
    if ids and ids[0] == start_ino:
        ok("the first record is the start group")
    else:
        bad("first record %s, start %d" % (ids[:1], start_ino))
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
    for what, n in (("names (bytes)", names), ("parent ids", parents),
                    ("levels", levels)):
        if n:
            bad("%d groups with the wrong %s" % (n, what))
        else:
            ok("%s equal to the directories'" % what)
    if order:
        bad("%d records out of pre-order" % order)
    else:
        ok("records in pre-order (each parent is the last shallower record)")


def cmd_compare(cgm, start, bpfdump):
    before = read_files(cgm, start)
    recs = dump(bpfdump, start)
    after = read_files(cgm, start)
    check_tree(recs, before, after, os.stat(start).st_ino)
    check_values(recs, before, after)


def cmd_churn(cgm, start, bpfdump):
    p = subprocess.Popen([bpfdump, "-r", start], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)

    def walk():
        lines = []
        for line in p.stdout:
            line = line.rstrip("\n")
            if line.startswith("# groups="):
                return {int(r["id"]): r for r in parse_dump(lines)}
            lines.append(line)
        bad("bpfdump -r ended early")
        sys.exit(1)

    def again():
        p.stdin.write("\n")
        p.stdin.flush()
        return walk()

    new, renamed = os.path.join(start, "churn new"), os.path.join(start, "churn-renamed")
    first = walk()
    os.mkdir(new)
    ino = os.stat(new).st_ino
    second = again()
    os.rename(new, renamed)
    third = again()
    os.rmdir(renamed)
    grown = set()
    for i in range(300):
        d = os.path.join(start, "grow-%d" % i)
        os.mkdir(d)
        grown.add(os.stat(d).st_ino)
    fourth = again()
    p.stdin.close()
    p.wait()
    (ok if ino not in first else bad)("a group made after the first walk is not in it")
    r = second.get(ino)
    (ok if r and r["name"] == b"churn new" and int(r["parent"]) == os.stat(start).st_ino
     else bad)("a group made between walks appears in the next one, named, under its parent")
    (ok if len(second) == len(first) + 1 else bad)(
        "the next walk has one group more (%d, %d)" % (len(first), len(second)))
    r = third.get(ino)
    (ok if r and r["name"] == b"churn-renamed" else bad)(
        "a v1 rename between walks shows the new name, same id")
    (ok if ino not in fourth else bad)(
        "a group removed between walks is gone from the next one")
    (ok if grown <= set(fourth) and len(fourth) == len(first) + 300 else bad)(
        "300 groups made between walks (past the maps' size) are in the next one"
        " (%d, %d)" % (len(first), len(fourth)))
    (ok if p.returncode == 0 else bad)("bpfdump -r exits 0 (%s)" % p.returncode)


def vmstat():
    v = {}
    with open("/proc/vmstat") as f:
        for line in f:
            k, n = line.split()
            v[k] = int(n)
    return v


def read_int(path):
    with open(path) as f:
        return int(f.read())


def cmd_root(cgm, bpfdump):
    """The v1 root: its usage file is not its page counter."""
    root = dump(bpfdump, cgm)[0]
    f_usage = read_int(os.path.join(cgm, "memory.usage_in_bytes"))
    (ok if int(root["level"]) == 0 and root["parent"] == "0" and root["name"] == b""
     else bad)("the hierarchy root: level 0, parent 0, empty name")
    print("INFO: v1 root usage: bpf page counter %s, memory.usage_in_bytes %d"
          % (root["usage"], f_usage))
    # The file: global NR_FILE_PAGES + NR_ANON_MAPPED (mem_cgroup_usage()),
    # i.e. /proc/vmstat nr_file_pages + nr_anon_pages.  Both move with the
    # whole host: take a read where the file did not move around vmstat.
    for _ in range(200):
        a = read_int(os.path.join(cgm, "memory.usage_in_bytes"))
        v = vmstat()
        b = read_int(os.path.join(cgm, "memory.usage_in_bytes"))
        if a == b:
            break
    formula = (v["nr_file_pages"] + v["nr_anon_pages"]) * PAGE
    if a != b:
        bad("v1 root: the usage file never held still over 200 reads")
    elif formula == a:
        ok("v1 root usage file = (nr_file_pages + nr_anon_pages) x page size "
           "from /proc/vmstat (%d)" % a)
    else:
        bad("v1 root usage file %d, (nr_file_pages + nr_anon_pages) x page %d"
            % (a, formula))
    for key in ("max", "soft", "swap_max"):
        f = read_int(os.path.join(cgm, V1[key][0]))
        (ok if root[key] == shown(f) else bad)(
            "v1 root %s: bpf %s, %s %d" % (key, root[key], V1[key][0], f))
    sw = read_int(os.path.join(cgm, "memory.swappiness"))
    (ok if root["swappiness"] == str(sw) else bad)(
        "v1 root swappiness (vm.swappiness): bpf %s, file %d" % (root["swappiness"], sw))


def main():
    cmd = sys.argv[1]
    if cmd == "compare":
        cmd_compare(*sys.argv[2:5])
    elif cmd == "churn":
        cmd_churn(*sys.argv[2:5])
    elif cmd == "root":
        cmd_root(*sys.argv[2:4])
    sys.exit(1 if nfail else 0)


main()
