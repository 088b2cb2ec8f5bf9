#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""churn_v2_check.py - the host's checks of tests/vm/churn-v2.sh.

  churn_v2_check.py DIR NITER WHOLE_NITER WARMUP_S BOUND_KIB ASAN

DIR holds what the guest wrote (see churn-v2.sh): b.out/b.err/b.rc (the
batch pass on /churn), w.out/w.err/w.rc (the whole hierarchy), churn1.log,
churn2.log (the helper's mk/rm/in/out/max/err lines with CLOCK_REALTIME
nanoseconds), churn*.sum/.rc, b.rss ("MONO VMRSS_KIB NFDS RSSANON_KIB" every 0.5 s),
churn1.start/.end ("MONO REAL"), fds.before/.after, left1/left2.

Prints PASS:/FAIL:/SKIP: lines (NOTE: lines are not counted), then
"churn-v2: N passed, M failed"; exit 1 on any failure.
"""
import calendar
import json
import os
import sys
import time
import traceback

TOP = "/churn"
STATIC = [TOP, TOP + "/static", TOP + "/static/x"]
M64 = 64 << 20
SLACK = 2.0         # s; the JSON time has whole seconds
npass = nfail = 0


def out(ok, msg, detail=""):
    global npass, nfail
    if ok:
        npass += 1
        print("PASS: " + msg, flush=True)
    else:
        nfail += 1
        print("FAIL: " + msg + (": " + detail if detail else ""), flush=True)


def finish():
    print("churn-v2: %d passed, %d failed" % (npass, nfail))
    sys.exit(1 if nfail else 0)


def crashed(t, v, tb):
    out(False, "checker crashed", "".join(traceback.format_exception(t, v, tb))[-800:])
    finish()


sys.excepthook = crashed


def rd(d, name, default=None):
    try:
        with open(os.path.join(d, name), errors="replace") as f:
            return f.read()
    except OSError:
        return default


def first(lst, n=3):
    return "; ".join(str(x) for x in lst[:n]) + (" (%d in all)" % len(lst) if len(lst) > n else "")


class Churn:
    """What a churn helper run did, by path as memcgtop shows it."""

    def __init__(self, text):
        self.mk, self.rm, self.ins, self.outs, self.max = {}, {}, {}, {}, {}
        self.errs = []
        for line in (text or "").splitlines():
            p = line.split(" ", 2)
            if p[0] == "err" or len(p) != 3:
                self.errs.append(line)
                continue
            what, ns, rel = p
            t = int(ns) / 1e9
            path = TOP + "/" + rel
            {"mk": self.mk, "rm": self.rm, "in": self.ins, "out": self.outs,
             "max": self.max}[what][path] = t


def parse_lines(data, what):
    """(list of docs, list of problems) of a JSON-lines output"""
    docs, bad = [], []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif data:
        bad.append("output does not end in a newline")
    for i, raw in enumerate(lines, 1):
        try:
            d = json.loads(raw.decode("utf-8"))
            if not isinstance(d, dict) or not isinstance(d.get("groups"), list):
                raise ValueError("not an object with a groups array")
            if d.get("mode") != "v2":
                raise ValueError("mode %r" % d.get("mode"))
            d["_t"] = calendar.timegm(time.strptime(d["time"], "%Y-%m-%dT%H:%M:%SZ"))
            docs.append(d)
        except (ValueError, KeyError, TypeError) as e:
            bad.append("line %d: %s: %r" % (i, e, raw[:160]))
    return docs, bad, len(lines)


def check_run(what, d, prefix, niter):
    """exit status, stderr, JSON lines, iterations; returns the docs"""
    rc = (rd(d, prefix + ".rc") or "").strip()
    err = rd(d, prefix + ".err", "")
    killed = rd(d, prefix + ".killed")
    out(rc == "0" and not killed, "%s: memcgtop exits 0" % what,
        "status %s%s" % (rc, "; " + killed.strip() if killed else ""))
    out(err == "", "%s: stderr empty" % what, repr(err[:400]))
    with open(os.path.join(d, prefix + ".out"), "rb") as f:
        data = f.read()
    docs, bad, n = parse_lines(data, what)
    out(not bad and n > 0, "%s: every one of %d output lines is a JSON object (mode v2) "
        "with a groups array" % (what, n), first(bad))
    its = [x.get("iteration") for x in docs]
    want = list(range(1, niter + 1))
    out(its == want, "%s: iterations 1..%d in order" % (what, niter),
        "got %d, first bad at index %s" % (len(its), next(
            (i for i, (a, b) in enumerate(zip(its, want)) if a != b),
            min(len(its), len(want)))))
    return docs


def sort_key(r):
    u = r.get("usage")
    return (1, 0, r["path"]) if not isinstance(u, int) else (0, -u, r["path"])


def tree_problems(docs, top):
    """rows in tree order, siblings by usage descending (ties: path)"""
    probs = []
    for x in docs:
        it = x["iteration"]
        rows = x["groups"]
        if not rows or rows[0].get("path") != top:
            probs.append("it%d: first row %r, not %r" % (it, rows[0].get("path") if rows else None, top))
            continue
        stack = [rows[0]["path"]]   # the path of the last row at each level
        kids = {rows[0]["path"]: []}
        d0 = rows[0].get("depth")
        for r in rows[1:]:
            p, dep = r.get("path"), r.get("depth")
            if not isinstance(p, str) or not isinstance(dep, int):
                continue
            lvl = dep - d0
            if lvl < 1 or lvl > len(stack):
                probs.append("it%d: %s at level %d after level %d" % (it, p, lvl, len(stack) - 1))
                continue
            parent = stack[lvl - 1]
            want_parent = "/" if p.count("/") == 1 else p.rsplit("/", 1)[0]
            if parent != want_parent:
                probs.append("it%d: %s below %s" % (it, p, parent))
            del stack[lvl:]
            stack.append(p)
            kids.setdefault(parent, []).append(r)
            kids.setdefault(p, [])
        for parent, ch in kids.items():
            if [c["path"] for c in ch] != [c["path"] for c in sorted(ch, key=sort_key)]:
                probs.append("it%d: children of %s not by usage descending: %s" % (
                    it, parent, [(c["path"], c.get("usage")) for c in ch][:6]))
    return probs


def half_read(docs, flash):
    """Rows missing a value a v2 non-root group always has: only the
    v1-only columns, reclaim_eff, use_pct and rates may be null.  A group
    removed while memcgtop reads it must be left out, not shown half read."""
    # swap_peak: memory.swap.peak is 6.5+; scan_prio: null where a group's
    # own evictable lists are empty; prio_min and its kswapd, direct, soft
    # and proactive parts: null where its own lists were not scanned in the interval (or
    # without the reclaim events), as reclaim_stall is without them;
    # failcnt_tree and the soft-limit tree and reclaim: v1's;
    # stats_pending: 6.8+; eff_min_last and eff_low_last: the BPF pass's
    # alone (the files collector has none).
    maybe_null = {"soft", "swappiness", "failcnt", "failcnt_tree",
                  "reclaim_eff", "use_pct", "swap_peak", "scan_prio",
                  "prio_min", "prio_min_kswapd", "prio_min_direct",
                  "prio_min_soft", "prio_min_proactive", "reclaim_stall", "soft_tree_excess", "soft_rank",
                  "soft_pgscan", "soft_pgsteal", "stats_pending",
                  "eff_min_last", "eff_low_last"}
    half, keys = [], set()
    for x in docs:
        for r in x["groups"]:
            p = r.get("path")
            if p == "/":
                continue
            nn = sorted(k for k, v in r.items()
                        if v is None and k not in maybe_null and not k.endswith("_per_s"))
            if nn:
                keys.add((x["iteration"], p))
                avail = [k for k, v in r.items() if v is not None and k not in ("path", "depth")]
                half.append("it%d: %s%s: null %s; %s" % (
                    x["iteration"], p, " (flash)" if p in flash else "",
                    ",".join(nn[:6]),
                    "only " + ",".join(avail[:6]) + (",..." if len(avail) > 6 else "")
                    if avail else "nothing but path and depth"))
    return half, keys


def main():
    d, niter, wniter, warmup, bound, asan = sys.argv[1:7]
    niter, wniter, warmup, bound = int(niter), int(wniter), float(warmup), int(bound)

    # ---- the churn itself
    c1 = Churn(rd(d, "churn1.log"))
    c2 = Churn(rd(d, "churn2.log"))
    for name, c, left in (("batch", c1, "left1"), ("whole", c2, "left2")):
        sm = (rd(d, name == "batch" and "churn1.sum" or "churn2.sum") or "").strip()
        rc = (rd(d, name == "batch" and "churn1.rc" or "churn2.rc") or "").strip()
        lf = (rd(d, left) or "").split()
        notrm = sorted(set(c.mk) - set(c.rm))
        out(rc == "0" and not c.errs and not notrm and not lf and len(c.mk) > 0,
            "%s: the churn helper made and removed %d groups (%s)" % (name, len(c.mk), sm),
            "status %s, errors %s, not removed %s, left in /churn %s" % (
                rc, first(c.errs), first(notrm), lf))

    # ---- batch pass
    docs = check_run("batch", d, "b", niter)
    made = set(c1.mk)
    outside, shape, depth, dup, nostatic, root = [], [], [], [], [], 0
    keyset = None
    keys_bad = []
    seen = {}
    for x in docs:
        it = x["iteration"]
        paths = []
        for r in x["groups"]:
            if keyset is None:
                keyset = set(r)
            elif set(r) != keyset:
                keys_bad.append("it%d %s: %s" % (it, r.get("path"), sorted(set(r) ^ keyset)))
            p = r.get("path")
            paths.append(p)
            if p == "/":
                root += 1
            if not isinstance(p, str) or not (p == TOP or p.startswith(TOP + "/")):
                outside.append("it%d: %r" % (it, p))
                continue
            if p not in STATIC and p not in made:
                shape.append("it%d: %r" % (it, p))
            if r.get("depth") != p.count("/"):
                depth.append("it%d: %r depth %r" % (it, p, r.get("depth")))
            seen.setdefault(p, []).append((x, r))
        if len(set(paths)) != len(paths):
            dup.append("it%d: %s" % (it, sorted(p for p in set(paths) if paths.count(p) > 1)[:3]))
        miss = [p for p in STATIC if p not in paths]
        if miss:
            nostatic.append("it%d: missing %s" % (it, miss))
    out(not outside, "batch: every row of every iteration is inside the subtree %s" % TOP, first(outside))
    out(root == 0, "batch: the v2 root row / is not in the run on %s" % TOP, "%d root rows" % root)
    out(not shape and not depth, "batch: every path is a static group or one the churn made, "
        "depth = number of '/'", first(shape + depth))
    out(not dup, "batch: no path twice in an iteration", first(dup))
    out(not nostatic, "batch: the static groups are in every iteration", first(nostatic))
    out(not keys_bad and keyset is not None and "path" in keyset,
        "batch: every row has the same %d keys" % len(keyset or ()), first(keys_bad))
    tp = tree_problems(docs, TOP)
    out(not tp, "batch: rows in tree order (parent above its children, siblings by usage "
        "descending, ties by path)", first(tp))

    # lifetimes: no row of a group before its mkdir or after its rmdir
    stale = []
    for p, lst in seen.items():
        if p in STATIC:
            continue
        mk, rm = c1.mk.get(p), c1.rm.get(p)
        for x, r in lst:
            t = x["_t"]
            if (mk is not None and mk > t + 1 + SLACK) or (rm is not None and rm < t - SLACK):
                stale.append("it%d at %s: %s made %.2f removed %.2f (%+.1f s)" % (
                    x["iteration"], x["time"], p, mk or 0, rm or 0,
                    t - rm if rm is not None and rm < t else t - mk))
    out(not stale, "batch: no churned row outside its group's lifetime (+-%.0f s)" % SLACK, first(stale))

    # units with an even N live under 20 ms (flash); the others 0.2-2.5 s
    churned = [p for p in seen if p not in STATIC]
    flash = set(p for p in made if int(p.split("/")[2][1:]) % 2 == 0)
    lv = {n: len([p for p in churned if p.count("/") == n]) for n in (2, 3, 4)}
    mlv = {n: len([p for p in made if p.count("/") == n]) for n in (2, 3, 4)}
    slow = made - flash
    frac = len(set(churned) & slow) / max(1, len(slow))
    out(frac >= 0.5 and all(lv[n] > 0 for n in lv),
        "batch: memcgtop saw the churn: %d of %d groups made, %.0f%% of those living >= 0.2 s "
        "(want >= 50%%), %d of %d flash groups; by level gN/s/t %d/%d/%d of %d/%d/%d"
        % (len(churned), len(made), 100 * frac, len(set(churned) & flash), len(flash),
           lv[2], lv[3], lv[4], mlv[2], mlv[3], mlv[4]))

    half, halfset = half_read(docs, flash)
    out(not half, "batch: no half-read row: every row has all its v2 values (usage, limits, "
        "stat, events, pressure, procs; a group removed while memcgtop reads it is left out)",
        first(half))
    hnote = " (%d half-read rows left out)" % len(halfset) if halfset else ""

    # the mover and the static sleeper
    pbad, pin = [], 0
    for p, lst in seen.items():
        for x, r in lst:
            if (x["iteration"], p) in halfset:
                continue
            n = r.get("procs")
            t = x["_t"]
            if p == TOP + "/static/x":
                if n != 1:
                    pbad.append("it%d: %s procs %r (want 1)" % (x["iteration"], p, n))
            elif p in STATIC:
                if n != 0:
                    pbad.append("it%d: %s procs %r (want 0)" % (x["iteration"], p, n))
            elif not isinstance(n, int):
                pbad.append("it%d: %s procs %r" % (x["iteration"], p, n))
            elif n > 0:
                ti, to = c1.ins.get(p), c1.outs.get(p)
                if ti is None or ti > t + 1 + SLACK or (to is not None and to < t - SLACK) or n != 1:
                    pbad.append("it%d: %s procs %d (mover in %s out %s)" % (x["iteration"], p, n, ti, to))
                else:
                    pin += 1
    out(not pbad and pin > 0, "batch: procs: the mover seen in churned leaves %d times and only "
        "while it was there, static/x always 1, /churn and /churn/static 0 (%d moves)%s"
        % (pin, len(c1.ins), hnote), first(pbad))

    # rates: a group seen for the first time has none; later it has them
    rbad = []
    nfirst = nlater = 0
    prev = set()
    for x in docs:
        cur = set(r["path"] for r in x["groups"] if isinstance(r.get("path"), str))
        if x["iteration"] >= 2:
            for r in x["groups"]:
                p = r.get("path")
                if p in prev:
                    nlater += 1
                    if r.get("pgfault_per_s") is None and r.get("pgfault") is not None:
                        rbad.append("it%d: %s seen before, pgfault_per_s null" % (x["iteration"], p))
                else:
                    nfirst += 1
                    nn = [k for k, v in r.items() if k.endswith("_per_s") and v is not None]
                    if nn:
                        rbad.append("it%d: %s first seen, rates %s" % (x["iteration"], p, nn[:4]))
        prev = cur
    out(not rbad and nfirst > 0, "batch: rates null in a group's first row (%d rows), pgfault_per_s "
        "present once it was seen before (%d rows)" % (nfirst, nlater), first(rbad))

    # limits and protections of churned groups: the kernel's defaults, or
    # the 64M that every fifth gN gets just after its mkdir
    lbad = []
    for p, lst in seen.items():
        parts = p.split("/")
        g = "/".join(parts[:3]) if p not in STATIC else None
        tmax = c1.max.get(g) if g else None
        for x, r in lst:
            # a row below a half-read one may lack its eff_limit too
            if any((x["iteration"], "/".join(parts[:k])) in halfset
                   for k in range(3, len(parts) + 1)):
                continue
            t = x["_t"]
            lim = r.get("limit")
            ok_vals = ("max", M64) if (tmax is not None and p == g) else ("max",)
            eff_vals = ("max", M64) if tmax is not None else ("max",)
            if lim not in ok_vals or (p == g and tmax is not None and t >= tmax + SLACK and lim != M64):
                lbad.append("it%d: %s limit %r" % (x["iteration"], p, lim))
            e = r.get("eff_limit")
            if e not in eff_vals or (tmax is not None and t >= tmax + SLACK and e != M64):
                lbad.append("it%d: %s eff_limit %r" % (x["iteration"], p, e))
            for k, v in (("high", "max"), ("low", 0), ("min", 0), ("swap_limit", "max")):
                if r.get(k) != v:
                    lbad.append("it%d: %s %s %r (want %r)" % (x["iteration"], p, k, r.get(k), v))
    n64 = len([p for p in c1.max if p in seen])
    out(not lbad, "batch: limits: max, or 64M (and eff_limit 64M below it) for the %d 64M groups "
        "seen; high max, low 0, min 0, swap_limit max%s" % (n64, hnote), first(lbad))

    # descriptors before and after the churn
    fb = (rd(d, "fds.before") or "").strip()
    fa = (rd(d, "fds.after") or "").strip()
    out(fb.isdigit() and fa == fb, "batch: open descriptors after the churn equal those before it "
        "(%s; the same 3 groups)" % fb, "before %s, after %s" % (fb, fa))

    # RSS
    try:
        start = float(rd(d, "churn1.start").split()[0])
        rows = [tuple(float(v) for v in line.split()) for line in rd(d, "b.rss").splitlines()]
    except (AttributeError, ValueError, IndexError) as e:
        rows, start = [], 0
        out(False, "batch: RSS samples", str(e))
    if asan == "1":
        print("  note: batch: no RSS bound for an ASan build (its quarantine holds freed memory); the plain run checks it")
    elif rows:
        warm = [r[1] for r in rows if start <= r[0] < start + warmup]
        late = [r[1] for r in rows if r[0] >= start + warmup]
        pre = [r[1] for r in rows if r[0] < start]
        anon = [(r[0], r[3]) for r in rows]
        if len(warm) < 3 or len(late) < 10:
            out(False, "batch: RSS: too few samples", "%d in the warm-up, %d after" % (len(warm), len(late)))
        else:
            base, peak, settled = max(warm), max(late), max(late[-5:])
            # What stays: the last 5 samples (2.5 s).  A moment's peak
            # may pass it: a BPF collector that loads its program again
            # (maps made again) holds libbpf's parse of the kernel's BTF
            # and new maps until the load ends: 6 to 9 MiB, then freed.
            out(settled - base <= bound,
                "batch: RSS at the end of the churn (%.0f s after the warm-up) stays within %d KiB "
                "of its warm-up peak (before the churn %s KiB, warm-up peak %d KiB, later peak %d "
                "KiB, last 5 samples up to %d KiB, %d samples)" % (
                    warmup, bound, max(pre) if pre else "-", base, peak, settled, len(rows)))
            if peak - base > bound:
                print("NOTE: batch: RSS peaked %d KiB above the warm-up peak for a moment (a "
                      "program reload: descriptors per sample %s)" % (
                          peak - base, " ".join("%d" % r[2] for r in rows)))
            print("NOTE: batch: RssAnon KiB before the churn %s, warm-up peak %s, later peak %s, last %s"
                  % (max([a for t, a in anon if t < start] or ["-"]),
                     max([a for t, a in anon if start <= t < start + warmup] or ["-"]),
                     max([a for t, a in anon if t >= start + warmup] or ["-"]), anon[-1][1]))
    if docs:
        ivs = [x.get("interval_s") or 0 for x in docs]
        try:
            e1 = float(rd(d, "churn1.end").split()[0])
        except (AttributeError, ValueError, IndexError):
            e1 = 0
        print("NOTE: batch: interval_s median %.3f max %.3f; churn %.1f s of the run"
              % (sorted(ivs)[len(ivs) // 2], max(ivs), e1 - start))

    # ---- whole hierarchy
    wdocs = check_run("whole", d, "w", wniter)
    made2 = set(c1.mk) | set(c2.mk)
    rbad, pbad, dup = [], [], []
    nullkeys = ("limit", "high", "low", "min", "soft", "excess", "eff_limit", "use_pct",
                "swap", "swap_limit", "swappiness", "ev_low", "ev_high", "ev_max", "ev_oom",
                "ev_oom_kill", "failcnt")
    nroot = 0
    for x in wdocs:
        it = x["iteration"]
        rows = x["groups"]
        r = rows[0] if rows else {}
        if r.get("path") != "/":
            rbad.append("it%d: first row %r" % (it, r.get("path")))
        else:
            nroot += 1
            nn = [k for k in nullkeys if r.get(k, "missing") is not None]
            if nn:
                rbad.append("it%d: root %s" % (it, ", ".join("%s=%s" % (k, json.dumps(r.get(k, "missing")))
                                                           for k in nn)))
            if r.get("depth") != 0 or not isinstance(r.get("usage"), int) or r["usage"] <= 0:
                rbad.append("it%d: root depth %r usage %r" % (it, r.get("depth"), r.get("usage")))
        paths = [g.get("path") for g in rows]
        if paths.count("/") != 1:
            rbad.append("it%d: %d root rows" % (it, paths.count("/")))
        for g in rows[1:]:
            p = g.get("path")
            if not isinstance(p, str) or (p not in STATIC and p not in made2):
                pbad.append("it%d: %r" % (it, p))
            elif g.get("depth") != p.count("/"):
                pbad.append("it%d: %r depth %r" % (it, p, g.get("depth")))
        if len(set(paths)) != len(paths):
            dup.append("it%d" % it)
    out(not rbad and nroot == len(wdocs) and nroot > 0,
        "whole: the first row of every iteration is the root / (depth 0, a usage), its limits, "
        "protections, excess, eff_limit, use_pct, swap and events null (man page: THE V2 ROOT)",
        first(rbad))
    wch = len([p for x in wdocs for p in (g.get("path") for g in x["groups"])
               if isinstance(p, str) and p in made2 and p not in STATIC])
    out(not pbad and not dup and wch > 0,
        "whole: every other row is a group of the run with its depth (%d churned rows), "
        "no path twice" % wch, first(pbad + dup))
    flash2 = set(p for p in made2 if int(p.split("/")[2][1:]) % 2 == 0)
    half, _ = half_read(wdocs, flash2)
    out(not half, "whole: no half-read row", first(half))
    tp = tree_problems(wdocs, "/")
    out(not tp, "whole: rows in tree order, siblings by usage descending", first(tp))
    finish()


main()
