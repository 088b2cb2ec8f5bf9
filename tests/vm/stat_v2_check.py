#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""stat_v2_check.py - memcgtop's memory.stat values from the BPF pass
against the cgroup v2 files, from what tests/vm/stat-v2.sh's guest left.

  stat_v2_check.py OUT ITER COLS FRESH

ITER is the long run's -n, COLS its -c and FRESH the fresh run's.

OUT holds (see stat-v2.sh for the scenario):
  uname                     the guest's kernel
  start.stat, stopped.stat  the groups' memory.stat (and memory.current)
                            when the long run started, when the loads
                            stopped
  long.json/.err/.rc        the long run (ITER refreshes, -d 1)
  long-A.stat, long-B.stat  the copies around its last refresh
  fresh.json/.err/.rc       the fresh -n 1 run, fresh-A/B.stat around it
  core.json/.err/.rc        the same with MEMCGTOP_BPF_KFUNC=0, core-A/B.stat
  vv.txt, vv.rc             memcgtop -VV /
  vv-core.txt, vv-core.rc   the same with MEMCGTOP_BPF_KFUNC=0
  flush.txt                 "VIEW COLLECTOR N rc RC COUNT entries-written:
                            A/B" per run, or "none: REASON"
A .stat file is "== /path" then memory.stat's lines then
"memory.current N", per group.
"""
import json
import os
import re
import sys

# memcgtop's column -> v2 file key
KEY = {
    "pgscan": "pgscan", "pgsteal": "pgsteal",
    "pgscan_kswapd": "pgscan_kswapd", "pgscan_direct": "pgscan_direct",
    "pgsteal_kswapd": "pgsteal_kswapd", "pgsteal_direct": "pgsteal_direct",
    "active_anon": "active_anon", "inactive_anon": "inactive_anon",
    "active_file": "active_file", "inactive_file": "inactive_file",
    "unevictable": "unevictable", "anon": "anon", "file": "file",
    "shmem": "shmem", "kernel": "kernel",
    "refault_anon": "workingset_refault_anon",
    "refault_file": "workingset_refault_file",
    "pgfault": "pgfault", "pgmajfault": "pgmajfault",
    "usage": "memory.current",
}
# memstat.h's rows whose column is the v2 key
for k in ("file_mapped", "file_dirty", "file_writeback", "swapcached",
          "anon_thp", "file_thp", "slab_reclaimable", "slab_unreclaimable",
          "kernel_stack", "pagetables", "sock"):
    KEY[k] = k
GROUPS = ["/bv", "/bv/d", "/bv/k", "/bv/a"]

npass = nfail = 0


def ok(msg):
    global npass
    npass += 1
    print("PASS: " + msg)


def bad(msg):
    global nfail
    nfail += 1
    print("FAIL: " + msg)


def info(msg):
    print("INFO: " + msg)


def check(cond, msg):
    (ok if cond else bad)(msg)
    return cond


def read(out, name, default=""):
    try:
        with open(os.path.join(out, name)) as f:
            return f.read()
    except OSError:
        return default


def stats(out, name):
    """{path: {key: int}} of a .stat file"""
    d, cur = {}, None
    for line in read(out, name).splitlines():
        if line.startswith("== "):
            cur = d.setdefault(line[3:], {})
        elif cur is not None and line:
            k, _, v = line.partition(" ")
            try:
                cur[k] = int(v)
            except ValueError:
                pass
    return d


def iterations(out, name):
    its = []
    for line in read(out, name).splitlines():
        if line.strip():
            try:
                its.append(json.loads(line))
            except ValueError:
                its.append(None)
    return its


def parts(st, what):
    """The sum of memory.stat's WHAT_* parts (kswapd, direct, and where the
    kernel has them khugepaged and proactive)."""
    return sum(v for k, v in st.items() if k.startswith(what + "_"))


def compare(tag, it, A, B, cols):
    """Every value of every group in one refresh against the two copies:
    equal to the file where the copies agree; a moved key is left out."""
    groups = {g.get("path"): g for g in it.get("groups", [])}
    checked = moved = 0
    wrong = []
    for p in GROUPS:
        g = groups.get(p)
        if g is None or p not in A or p not in B:
            wrong.append("%s: no record or no copy" % p)
            continue
        for col in cols:
            k = KEY[col]
            a, b = A[p].get(k), B[p].get(k)
            if a != b:
                moved += 1
                info("%s: %s %s moved between the two copies (%s, %s); memcgtop %s"
                     % (tag, p, k, a, b, g.get(col)))
                continue
            checked += 1
            if g.get(col) != a:
                wrong.append("%s %s: memcgtop %s, memory.stat %s" % (p, col, g.get(col), a))
    total = len(GROUPS) * len(cols)
    if wrong:
        bad("%s: %d of %d values compared differ from memory.stat: %s"
            % (tag, len(wrong), checked, "; ".join(wrong)))
    elif checked * 3 < total * 2:
        bad("%s: only %d of %d values compared (%d moved between the copies)"
            % (tag, checked, total, moved))
    else:
        ok("%s: %d of %d values of %d groups equal memory.stat (%d moved between the copies)"
           % (tag, checked, total, len(GROUPS), moved))
    return groups


def main():
    out, niter = sys.argv[1], int(sys.argv[2])
    long_cols = [c for c in sys.argv[3].split(",") if c != "path"]
    fresh_cols = [c for c in sys.argv[4].split(",") if c != "path"]
    info("kernel %s, lru_gen %s" % (read(out, "uname").strip(),
                                    read(out, "lru_gen", "(none)\n").strip()))

    # 1: the scenario
    start, kswapd = stats(out, "start.stat"), stats(out, "kswapd.stat")
    stopped = stats(out, "stopped.stat")
    s, e = start.get("/bv", {}), kswapd.get("/bv", {})
    check(s.get("pgscan_direct", 0) > 0 and s.get("pgscan_kswapd") == 0 and
          parts(s, "pgscan") == s.get("pgscan_direct"),
          "1: /bv had direct reclaim only when the long run started (pgscan %s, "
          "pgscan_direct %s, pgscan_kswapd %s)"
          % (s.get("pgscan"), s.get("pgscan_direct"), s.get("pgscan_kswapd")))
    check(e.get("pgscan_kswapd", 0) > 0 and e.get("pgscan_direct", 0) > 0,
          "1: /bv had kswapd reclaim too when k stopped (pgscan %s, "
          "pgscan_direct %s, pgscan_kswapd %s)"
          % (e.get("pgscan"), e.get("pgscan_direct"), e.get("pgscan_kswapd")))
    a0, a1 = kswapd.get("/bv/a", {}), stopped.get("/bv/a", {})
    check(a1.get("pgscan", 0) > a0.get("pgscan", 0) and a1.get("memory.current", 0) > 0,
          "1: then anonymous memory reclaimed in /bv/a (pgscan %s to %s, "
          "pgscan_direct %s to %s)" % (a0.get("pgscan"), a1.get("pgscan"),
                                      a0.get("pgscan_direct"), a1.get("pgscan_direct")))

    # 1: the long run
    its = iterations(out, "long.json")
    rc = read(out, "long.rc").strip()
    err = read(out, "long.err").strip()
    if err:
        info("1: the long run's stderr: %s" % err.replace("\n", " | "))
    good = [it for it in its if it is not None]
    check(rc == "0" and len(its) == niter and len(good) == niter and
          all(it.get("collector") == "bpf" for it in good),
          "1: the long run: exit %s, %d of %d refreshes, collectors %s"
          % (rc, len(good), niter, sorted({str(it.get("collector")) for it in good})))
    when = read(out, "long-A.when").split()
    if when:
        info("1: the first copy at %s s, after refresh %s" % (when[0], when[-1]))
    A, B = stats(out, "long-A.stat"), stats(out, "long-B.stat")
    if not good:
        bad("1: no refresh of the long run to compare")
    else:
        last = compare("1: the long run's last refresh", good[-1], A, B, long_cols)
        # pgscan and pgsteal: the file's sums of their parts
        sums = []
        for p in GROUPS:
            for what in ("pgscan", "pgsteal"):
                a, b = A.get(p, {}), B.get(p, {})
                if a.get(what) != b.get(what) or parts(a, what) != parts(b, what):
                    continue
                sums.append((p, what, last.get(p, {}).get(what), a.get(what), parts(a, what)))
        wrong = [x for x in sums if not (x[2] == x[3] == x[4])]
        check(sums and not wrong,
              "1: pgscan and pgsteal at the end equal memory.stat's sums of their parts "
              "(kswapd + direct + ...): %s" % "; ".join(
                  "%s %s memcgtop %s, file %s, parts %s" % x for x in (wrong or sums)))
        # the bug's trace: /bv's pgscan below its own kswapd + direct
        low = [i + 1 for i, it in enumerate(good)
               for g in it.get("groups", []) if g.get("path") == "/bv" and
               None not in (g.get("pgscan"), g.get("pgscan_kswapd"), g.get("pgscan_direct")) and
               g["pgscan"] < g["pgscan_kswapd"] + g["pgscan_direct"]]
        info("1: /bv's pgscan below its pgscan_kswapd + pgscan_direct in %d of %d refreshes%s"
             % (len(low), len(good), " (from %d on)" % low[0] if low else ""))

    # 2: a fresh run at rest; 2b: the same through the CO-RE reads alone
    for tag, name, what in (("2", "fresh", "the fresh -n 1 run"),
                            ("2b", "core", "the fresh -n 1 run with MEMCGTOP_BPF_KFUNC=0")):
        its = iterations(out, name + ".json")
        rc = read(out, name + ".rc").strip()
        err = read(out, name + ".err").strip()
        if err:
            info("%s: %s: stderr: %s" % (tag, what, err.replace("\n", " | ")))
        if check(rc == "0" and len(its) == 1 and its[0] is not None and its[0].get("collector") == "bpf",
                 "%s: %s: exit %s, %d refreshes, collector %s"
                 % (tag, what, rc, len(its), its[0].get("collector") if its and its[0] else None)):
            compare("%s: %s at rest (the LRU and mission views' columns)" % (tag, what), its[0],
                    stats(out, name + "-A.stat"), stats(out, name + "-B.stat"), fresh_cols)

    # 3: -VV, with and without the kfuncs
    seven = read(out, "uname").startswith("7.")
    for name, kf_on in (("vv", seven), ("vv-core", False)):
        vv = read(out, name + ".txt")
        m = re.search(r"^memory\.stat: ([0-9]+) of ([0-9]+) values from the pass "
                      r"\(([0-9]+) through the kernel's memcg kfuncs.*$", vv, re.M)
        if not check(read(out, name + ".rc").strip() == "0" and m and
                     int(m.group(1)) <= int(m.group(2)) and int(m.group(2)) > 0,
                     "3: %s: memcgtop -VV / prints the memory.stat line: %s"
                     % (name, m.group(0)[:300] if m else repr(vv[-300:]))):
            continue
        info("3: %s: N = %s of M = %s values from the pass, K = %s through the kfuncs"
             % (name, m.group(1), m.group(2), m.group(3)))
        line = m.group(0)
        if kf_on:
            check(int(m.group(3)) > 0 and "kfuncs not used" not in line,
                  "3: %s: on 7.x the pass reads through the kernel's memcg kfuncs (K = %s)"
                  % (name, m.group(3)))
        else:
            why = ("MEMCGTOP_BPF_KFUNC=0" if name == "vv-core" else
                   "the kernel has not every memcg kfunc")
            check(int(m.group(3)) == 0 and ("kfuncs not used: " + why) in line,
                  "3: %s: no value through the kfuncs (K = %s), and why: '%s'"
                  % (name, m.group(3), why))

    # 4: stats flushes per refresh
    fl = read(out, "flush.txt")
    if fl.startswith("none:") or not fl.strip():
        info("4: stats flushes not counted: %s" % (fl.strip()[6:] or "no flush.txt"))
    else:
        runs = {}
        for line in fl.splitlines():
            f = line.split()
            # VIEW COLLECTOR N rc RC COUNT entries-written: A/B
            try:
                view, coll, n, frc, count = f[0], f[1], int(f[2]), f[4], int(f[5])
                inbuf, written = (int(x) for x in f[7].split("/"))
            except (IndexError, ValueError):
                bad("4: flush count line %r" % line)
                continue
            if frc != "0" or inbuf != written:
                bad("4: %s %s -n %d: exit %s, trace entries %d of %d written"
                    % (view, coll, n, frc, inbuf, written))
            runs[(view, coll, n)] = count
        files = None
        if ("LRU", "files", 11) in runs and ("LRU", "files", 1) in runs:
            files = runs[("LRU", "files", 11)] - runs[("LRU", "files", 1)]
            # The -n 11 run alone (12 refreshes, the first the baseline),
            # not the difference: that was once 39 (7.3, CI).  A flush in
            # memcgtop's pid that is no memory.stat read (a refault of its
            # pages under the guest's pressure flushes stats 2 s old) can
            # fall in either run; the -n 11 run holds at least its reads.
            whole = runs[("LRU", "files", 11)]
            check(whole >= 12 * len(GROUPS),
                  "4: the count sees the files collector's flushes: %d in the 12 refreshes "
                  "of -n 11 in the LRU view (%d groups; at least %d; %d more than -n 1)"
                  % (whole, len(GROUPS), 12 * len(GROUPS), files))
        for view in ("LRU", "MISSION"):
            if (view, "bpf", 11) not in runs or (view, "bpf", 1) not in runs:
                bad("4: %s: runs missing: %s" % (view, runs))
                continue
            db = runs[(view, "bpf", 11)] - runs[(view, "bpf", 1)]
            err = read(out, "flush-%s-bpf-11.err" % view).strip()
            m = re.search(r"memory\.stat's (.*) read from the files", err)
            if m and seven:
                # the kfuncs give every value of these views
                bad("4: %s view: on 7.x with the kernel's memcg kfuncs it read %s from the files"
                    % (view, m.group(1)))
            elif m:
                # values the pass could not prove come from each group's
                # memory.stat: a flush per group, by design
                info("4: %s view: %d stats flushes in 10 refreshes with --collector bpf; "
                     "not asserted: it read %s from the files (a memory.stat per group)"
                     % (view, db, m.group(1)))
            else:
                check(db <= 10,
                      "4: %s view: %d stats flushes in 10 refreshes with --collector bpf "
                      "(at most 10; the files collector %s)%s"
                      % (view, db, files, " stderr: " + err if err else ""))

    print("stat-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


main()
