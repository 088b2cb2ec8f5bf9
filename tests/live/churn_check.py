#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""churn_check.py - checks of tests/live/churn.sh.

  churn_check.py rss PID OUTFILE
      every 0.5 s until PID is gone: "SECONDS VMRSS_KIB NFDS" to OUTFILE
  churn_check.py batch TNAME OUT ERR RC NITER
      checks memcgtop's JSON output of the churn run
  churn_check.py bound RSSFILE WARMUP_S BOUND_KIB WHAT
      RSS after the first WARMUP_S seconds stays within BOUND_KIB of the
      largest RSS seen during them
  churn_check.py tui SOCK TARGET PID SECONDS TNAME RSSFILE
      watches the interactive screen for SECONDS: header time advances,
      every tree row parses; samples PID's RSS into RSSFILE

Prints PASS:/FAIL: lines (and NOTE: lines that are not counted).
"""
import json
import os
import re
import subprocess
import sys
import time


def out(ok, msg):
    print(("PASS: " if ok else "FAIL: ") + msg, flush=True)


def proc_sample(pid):
    """(VmRSS KiB, number of open descriptors), None when gone."""
    try:
        with open("/proc/%d/status" % pid) as fh:
            rss = None
            for line in fh:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        nfd = len(os.listdir("/proc/%d/fd" % pid))
    except (OSError, ValueError):
        return None
    if rss is None:  # a zombie has no VmRSS
        return None
    return rss, nfd


def rss_mode(pid, outfile):
    pid = int(pid)
    t0 = time.monotonic()
    with open(outfile, "w") as fh:
        while True:
            s = proc_sample(pid)
            if s is None:
                break
            fh.write("%.2f %d %d\n" % (time.monotonic() - t0, s[0], s[1]))
            fh.flush()
            time.sleep(0.5)


def read_rss(rssfile):
    rows = []
    with open(rssfile) as fh:
        for line in fh:
            t, r, f = line.split()
            rows.append((float(t), int(r), int(f)))
    return rows


def bound_mode(rssfile, warmup, bound, what):
    warmup = float(warmup)
    bound = int(bound)
    rows = read_rss(rssfile)
    warm = [r for t, r, f in rows if t < warmup]
    late = [r for t, r, f in rows if t >= warmup]
    if len(warm) < 3 or len(late) < 10:
        out(False, "%s: RSS: too few samples (%d in the first %.0f s, %d "
            "after)" % (what, len(warm), warmup, len(late)))
        return
    base = max(warm)
    peak = max(late)
    out(peak - base <= bound,
        "%s: RSS after %.0f s of warm-up stays within %d KiB of its warm-up "
        "peak (warm-up peak %d KiB, later peak %d KiB, last %d KiB, %d "
        "samples)" % (what, warmup, bound, base, peak, late[-1],
                      len(rows)))


def path_ok(tname, p):
    return re.fullmatch(r"/%s(/static(/x)?|/g[0-9]+(/s(/t)?)?)?"
                        % re.escape(tname), p) is not None


def batch_mode(tname, outf, errf, rcf, niter):
    niter = int(niter)
    rc = open(rcf).read().strip()
    err = open(errf, errors="replace").read()
    out(rc == "0", "batch: memcgtop exits 0 (got %s)" % rc)
    out(err == "", "batch: stderr empty (got %r)" % err[:400])
    docs, bad = [], []
    with open(outf, "rb") as fh:
        data = fh.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    else:
        bad.append("output does not end in a newline")
    for i, raw in enumerate(lines, 1):
        try:
            d = json.loads(raw.decode("utf-8"))
            if not isinstance(d, dict) or not isinstance(d.get("groups"),
                                                         list):
                raise ValueError("not an object with a groups array")
            docs.append(d)
        except ValueError as e:
            bad.append("line %d: %s: %r" % (i, e, raw[:160]))
    out(not bad, "batch: every one of %d output lines is a JSON object with "
        "a groups array%s" % (len(lines), ": " + "; ".join(bad[:3])
                              if bad else ""))
    its = [d.get("iteration") for d in docs]
    out(its == list(range(1, niter + 1)),
        "batch: iterations 1..%d in order (got %d, first bad at %s)"
        % (niter, len(its), next((i for i, (a, b) in enumerate(
            zip(its, range(1, niter + 1))) if a != b), "-")))
    top = "/" + tname
    outside, shape, depth, dup, nostatic = [], [], [], [], []
    seen = set()
    procs_seen = 0
    static = {top, top + "/static", top + "/static/x"}
    for d in docs:
        it = d.get("iteration")
        paths = []
        for r in d["groups"]:
            p = r.get("path")
            paths.append(p)
            if not isinstance(p, str) or not (p == top or
                                              p.startswith(top + "/")):
                outside.append("iteration %s: %r" % (it, p))
                continue
            if not path_ok(tname, p):
                shape.append("iteration %s: %r" % (it, p))
            if r.get("depth") != p.count("/"):
                depth.append("iteration %s: %r depth %r" % (it, p,
                                                             r.get("depth")))
            seen.add(p)
            if "/g" in p and isinstance(r.get("procs"), int) and \
                    r["procs"] > 0:
                procs_seen += 1
        if len(set(paths)) != len(paths):
            dup.append("iteration %s" % it)
        if not static <= set(paths):
            nostatic.append("iteration %s: missing %s"
                            % (it, sorted(static - set(paths))))
    out(not outside, "batch: every row of every iteration belongs to the "
        "subtree %s%s" % (top, ": " + "; ".join(outside[:3])
                          if outside else ""))
    out(not shape and not depth, "batch: every path is one the test made "
        "and has the right depth%s" % (": " + "; ".join((shape + depth)[:3])
                                       if shape or depth else ""))
    out(not dup, "batch: no path twice in an iteration%s"
        % (": " + ", ".join(dup[:5]) if dup else ""))
    out(not nostatic, "batch: the static groups are in every iteration%s"
        % (": " + "; ".join(nostatic[:3]) if nostatic else ""))
    nchurn = len([p for p in seen if "/g" in p])
    out(nchurn >= 300, "batch: memcgtop saw the churn: %d distinct churned "
        "groups in its output (want >= 300)" % nchurn)
    out(procs_seen > 0, "batch: rows of churned groups with the moved "
        "process (procs > 0) seen %d times" % procs_seen)


# --- interactive screen --------------------------------------------------

VAL = r"(?:max|-|[0-9]+(?:\.[0-9]+)?[KMGTPEk]?)"
# "  %6s %6s %6s %6s %5s %6s " then two or three "%7s " then the name:
# the v1 overview set: usage, limit, soft, excess, use%, swap, then
# failcnt/s and OOM kills, with pgscan/s before them where the BPF pass
# gives it
WIDTHS6 = [(2, 6), (9, 6), (16, 6), (23, 6), (30, 5), (36, 6)]


def layout(ntail):
    """The value fields and where the name starts, with ntail 7-wide
    values after the first six."""
    w = WIDTHS6 + [(43 + 8 * k, 7) for k in range(ntail)]
    return w, 43 + 8 * ntail


def row_problem(line, tname):
    """The row's level when the tree row parses, else what is wrong (str)."""
    first = None
    for ntail in (2, 3):
        p = row_layout_problem(line, tname, *layout(ntail))
        if isinstance(p, int):
            return p
        first = first or p
    return first


def row_layout_problem(line, tname, WIDTHS, NAME_AT):
    """row_problem for one layout of the values."""
    if len(line) < NAME_AT + 1:
        return "too short"
    if line[0] != " " or line[1] not in " *+":
        return "bad mark columns"
    for at, w in WIDTHS:
        f = line[at:at + w]
        if not re.fullmatch(r" *" + VAL, f):
            return "value field %r at column %d" % (f, at)
        if at + w < len(line) and line[at + w] != " ":
            return "no blank after the field at column %d" % at
    # indentation, then the glyph of a group with children or two blanks
    m = re.fullmatch(r"( *)(▾ |▸ |\+ |- |  )(\S+)", line[NAME_AT:])
    if not m:
        return "name part %r" % line[NAME_AT:]
    ind, name = len(m.group(1)), m.group(3)
    if ind % 2:
        return "odd indentation"
    level = ind // 2
    want = {0: r"/" + re.escape(tname), 1: r"g[0-9]+|static",
            2: r"s|x", 3: r"t"}.get(level)
    if want is None or not re.fullmatch(want, name):
        return "name %r at level %d" % (name, level)
    return level


def check_screen(screen, tname):
    """(header time or None, list of problems)"""
    lines = screen.rstrip("\n").split("\n")
    probs = []
    m = re.match(r"memcgtop ([0-9]{2}:[0-9]{2}:[0-9]{2})  every 0\.1s  ",
                 lines[0] if lines else "")
    if not m:
        probs.append("header line 1 %r" % (lines[0] if lines else ""))
    if len(lines) < 5:
        return (m.group(1) if m else None), probs + ["short screen"]
    # Then who scanned, cut where the terminal ends.
    if not re.fullmatch(r"Mem \S+ avail \S+  Swap \S+  Scan \S+ Steal \S+ "
                        r"PSI \S+( kswapd \S+ms/s)?(  Scan: kswapd.*)?", lines[1]):
        probs.append("header line 2 %r" % lines[1])
    if not re.fullmatch(r"Columns: overview  Sort: usage desc  Groups: "
                        r"[0-9]+ shown of [0-9]+", lines[2]):
        probs.append("header line 3 %r" % lines[2])
    if not lines[3].startswith("  ▼USAGE  LIMIT   SOFT EXCESS"):
        probs.append("titles %r" % lines[3])
    prev_level = -1
    nrows = 0
    for i, line in enumerate(lines[4:-1], 5):
        if line == "":
            # rows end at the first empty line; the rest must be empty
            if any(x for x in lines[i:-1]):
                probs.append("line %d: text after an empty line" % i)
            break
        p = row_problem(line, tname)
        if isinstance(p, int):
            lvl, p = p, None
            if lvl > prev_level + 1:
                p = "level %d after level %d" % (lvl, prev_level)
            prev_level = lvl
        if p:
            probs.append("line %d: %s: %r" % (i, p, line))
        nrows += 1
    if nrows == 0:
        probs.append("no tree rows")
    return (m.group(1) if m else None), probs


def tui_mode(sock, target, pid, seconds, tname, rssfile):
    pid = int(pid)
    seconds = float(seconds)
    t0 = time.monotonic()
    changes = []        # monotonic times the header time changed
    last = None
    ncap = 0
    persistent = []
    transient = []
    gone = False
    next_rss = 0.0
    maxgroups = nchurn = 0
    fh = open(rssfile, "w")
    while time.monotonic() - t0 < seconds:
        now = time.monotonic()
        if now >= next_rss:
            s = proc_sample(pid)
            if s is None:
                gone = True
                break
            fh.write("%.2f %d %d\n" % (now - t0, s[0], s[1]))
            fh.flush()
            next_rss = now + 0.5
        scr = subprocess.run(["tmux", "-L", sock, "-f", "/dev/null",
                              "capture-pane", "-p", "-t", target],
                             capture_output=True, text=True).stdout
        ncap += 1
        hdr, probs = check_screen(scr, tname)
        m = re.search(r"Groups: ([0-9]+) shown of ([0-9]+)", scr)
        if m:
            maxgroups = max(maxgroups, int(m.group(2)))
        if re.search(r"^ .* g[0-9]+$", scr, re.M):
            nchurn += 1
        if probs:
            # A capture may fall between two writes of one screen update:
            # look again; what is still there is garbage on the screen.
            time.sleep(0.05)
            scr2 = subprocess.run(["tmux", "-L", sock, "-f", "/dev/null",
                                   "capture-pane", "-p", "-t", target],
                                  capture_output=True, text=True).stdout
            _, probs2 = check_screen(scr2, tname)
            same = [p for p in probs if p in probs2]
            if same:
                persistent.append((same, scr2))
            else:
                transient.append(probs)
        if hdr is not None and hdr != last:
            changes.append(now)
            last = hdr
        time.sleep(0.2)
    fh.close()
    el = time.monotonic() - t0
    out(not gone, "tui: memcgtop kept running for the whole %.0f s" % el)
    gaps = [b - a for a, b in zip([t0] + changes, changes +
                                  [time.monotonic()])]
    out(len(changes) >= seconds / 3 and max(gaps) <= 3.5,
        "tui: the header time advanced %d times in %.0f s (%d captures), "
        "longest gap %.1f s (want <= 3.5 s)"
        % (len(changes), el, ncap, max(gaps)))
    out(nchurn >= ncap / 2 and maxgroups > 10,
        "tui: the churn was on the screen: churned rows in %d of %d "
        "captures, up to %d groups" % (nchurn, ncap, maxgroups))
    if persistent:
        probs, scr = persistent[0]
        out(False, "tui: garbage on the screen in %d of %d captures (seen "
            "again 50 ms later): %s" % (len(persistent), ncap,
                                        "; ".join(probs[:3])))
        print("  screen:")
        for line in scr.split("\n"):
            print("    |" + line)
    else:
        out(True, "tui: every tree row of %d captures parses (values, "
            "indentation, a name the test made)" % ncap)
    for probs in transient[:3]:
        print("NOTE: tui: a capture between two writes of an update: %s"
              % "; ".join(probs[:2]))


mode = sys.argv[1]
args = sys.argv[2:]
{"rss": rss_mode, "batch": batch_mode, "bound": bound_mode,
 "tui": tui_mode}[mode](*args)
