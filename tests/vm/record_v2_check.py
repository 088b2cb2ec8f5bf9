#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""record_v2_check.py - a recording made with the BPF collector on cgroup
v2 against its live run, from what tests/vm/record-v2.sh's guest left.

  record_v2_check.py OUT COLS RCOLS

COLS is the JSON run's -c, RCOLS the root run's.  OUT holds (see
record-v2.sh for the scenario):
  uname                          the guest's kernel
  NAME.live, NAME.replay         the outputs (NAME: json, text, root),
  (.err, .rc)                    their stderr and exit status
  NAME.rec/                      the recording (DIR)
  b.memory.max, b.memory.swap.max, a.memory.low, a.memory.min,
  a.memory.high                  the kernel's text of those files
  b.stat.dd, b.stat.end          b's memory.stat after dd, at the end
  before/after.files.json        --collector files -n 1 of the root
  before/after.root.stat         the root's memory.stat
  rootu.*, rootd.*               as NAME.*: -c path,usage and the default
                                 view, from the root
  rootd.files                    the default view of --collector files
  rootnorec.json, rootusage.json the pass without --record (RCOLS), and
  (.err, .rc)                    with -c path,usage
"""
import json
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vmcheck  # noqa: E402

# What --collector bpf may say on stderr by design (a value not proven
# yet is read from the file, and recorded as read).
PROVEN = re.compile(r"^memcgtop: bpf collector: memory\.stat's .* read from "
                    r"the files \(not proven in the kernel's statistics\)$")

out = sys.argv[1]
cols = [x for x in sys.argv[2].split(",") if x != "path"]
rcols = [x for x in sys.argv[3].split(",") if x != "path"]
c = vmcheck.Checks("record-v2", out)
report, rd = c.report, c.rd


def info(msg):
    print("INFO: " + msg)


def rdb(name):
    try:
        with open(os.path.join(out, name), "rb") as f:
            return f.read()
    except OSError:
        return None


def docs(text):
    its = []
    for line in (text or "").splitlines():
        try:
            its.append(json.loads(line))
        except ValueError:
            its.append(None)
    return its


def groups(it):
    return {g.get("path"): g for g in (it or {}).get("groups", [])}


def errors(name):
    """stderr of a run without the by-design "not proven" lines"""
    lines = (rd(name) or "").splitlines()
    for l in lines:
        if PROVEN.match(l):
            info("%s: %s" % (name, l))
    return [l for l in lines if not PROVEN.match(l)]


def first_diff(a, b):
    """where two outputs part: the byte, the line, and for JSON lines the
    fields that differ"""
    a, b = a or b"", b or b""
    i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    la, lb = a.split(b"\n"), b.split(b"\n")
    ln = a[:i].count(b"\n")
    s = "%d and %d bytes, first difference at byte %d (line %d): live %r, replay %r" % (
        len(a), len(b), i, ln + 1, a[max(0, i - 30):i + 40], b[max(0, i - 30):i + 40])
    fields = []
    for n, (x, y) in enumerate(zip(la, lb)):
        if x == y:
            continue
        try:
            jx, jy = json.loads(x), json.loads(y)
        except ValueError:
            continue
        for k in sorted(set(jx) | set(jy)):
            if k != "groups" and jx.get(k) != jy.get(k):
                fields.append("line %d %s: %r / %r" % (n + 1, k, jx.get(k), jy.get(k)))
        gx, gy = groups(jx), groups(jy)
        for p in sorted(set(gx) | set(gy), key=str):
            if p not in gx or p not in gy:
                fields.append("line %d %s: only %s" % (n + 1, p, "live" if p in gx else "replay"))
                continue
            for k in sorted(set(gx[p]) | set(gy[p])):
                if gx[p].get(k) != gy[p].get(k):
                    fields.append("line %d %s %s: live %r, replay %r"
                                  % (n + 1, p, k, gx[p].get(k), gy[p].get(k)))
    if fields:
        s += "; fields: " + "; ".join(fields[:12])
    return s


def same_run(name, what, n, json_out):
    """the live run and its replay: statuses, stderr, bytes, info"""
    lrc, rrc = (rd(name + ".live.rc") or "").strip(), (rd(name + ".replay.rc") or "").strip()
    lerr, rerr = errors(name + ".live.err"), errors(name + ".replay.err")
    report(lrc == "0" and rrc == "0" and not lerr and not rerr,
           "%s: live and replay exit 0, no message" % what,
           "exit %r and %r, stderr %r / %r" % (lrc, rrc, lerr[:3], rerr[:3]))
    live, replay = rdb(name + ".live"), rdb(name + ".replay")
    lines = (live or b"").count(b"\n")
    report(live and (n is None or lines == n) and live == replay,
           "%s: the replay prints what the live run printed, byte for byte "
           "(%d lines, %d bytes)" % (what, lines, len(live or b"")),
           first_diff(live, replay))
    inf = rd(name + ".rec/info") or ""
    report("collector bpf" in inf.splitlines(), "%s: DIR/info says collector bpf" % what,
           "info: %r" % inf)
    if json_out:
        li, ri = docs(rd(name + ".live")), docs(rd(name + ".replay"))
        lc = [(it or {}).get("collector") for it in li]
        rc = [(it or {}).get("collector") for it in ri]
        report(lc and rc and all(x == "bpf" for x in lc + rc),
               "%s: every live and replayed sample says \"collector\":\"bpf\"" % what,
               "live %s, replay %s" % (lc, rc))
        return li, ri
    return None, None


def stat(name):
    st = {}
    for line in (rd(name) or "").splitlines():
        k, _, v = line.partition(" ")
        if v.strip().isdigit():
            st[k] = int(v)
    return st


info("kernel %s" % (rd("uname") or "?").strip())

# the scenario
dd, end = stat("b.stat.dd"), stat("b.stat.end")
report(dd.get("pgscan", 0) > 0 and end.get("pgscan", 0) >= dd.get("pgscan", 0),
       "scenario: reclaim in /rv/b (pgscan %s after dd, %s at the end)"
       % (dd.get("pgscan"), end.get("pgscan")))

# 1: many columns, JSON
li, ri = same_run("json", "1 (-F json, %d columns, /rv)" % len(cols), 3, True)
nulls = sorted({"%s %s" % (p, k) for it in li if it for p, g in groups(it).items()
                for k, v in g.items() if v is None})
if nulls:
    info("1: null in the live run: %s" % ", ".join(nulls))
last = groups(li[-1]) if li and li[-1] else {}
a = last.get("/rv/a", {})
report(isinstance(a.get("anon"), int) and a["anon"] >= 20 << 20,
       "scenario: /rv/a holds its 24 MiB (anon %s in the last sample)" % a.get("anon"))

# 2: the default view
same_run("text", "2 (the default view, text, /rv)", None, False)

# 3: from the root
li3, ri3 = same_run("root", "3 (-c %s, /)" % ",".join(["path"] + rcols), 3, True)


def root_usage(its):
    return [groups(it).get("/", {}).get("usage", "no /") if it else "unparsed" for it in its]


lu, ru = root_usage(li3 or []), root_usage(ri3 or [])
report(lu and ru and all(isinstance(x, int) for x in lu + ru),
       "3: the root's usage is a number in every live and replayed sample "
       "(live %s, replay %s)" % (lu, ru), "live %s, replay %s" % (lu, ru))
fb = [groups(it).get("/", {}).get("usage") for it in docs(rd("before.files.json")) if it]
fa = [groups(it).get("/", {}).get("usage") for it in docs(rd("after.files.json")) if it]
fu = [x for x in fb + fa if isinstance(x, int)]
for tag in ("before", "after"):
    st = stat(tag + ".root.stat")
    info("3: the root's memory.stat %s: anon + file + kernel + sock = %s; "
         "--collector files: %s" % (tag, sum(st.get(k, 0) for k in ("anon", "file", "kernel", "sock")),
                                    fb if tag == "before" else fa))
if len(fu) == 2 and lu and all(isinstance(x, int) for x in lu):
    lo, hi = min(fu) * 0.9, max(fu) * 1.1
    report(all(lo <= x <= hi for x in lu),
           "3: the live root usage %s within 10%% of --collector files' before "
           "and after (%d, %d)" % (lu, fu[0], fu[1]))
else:
    report(False, "3: the live root usage against --collector files",
           "live %s, files before %s, after %s (%s)" % (
               lu, fb, fa, (rd("before.files.err") or "").strip()[:200]))
# usage alone: the root's from memory.stat all the same
li3, ri3 = same_run("rootu", "3 (-c path,usage, /)", 3, True)
lu, ru = root_usage(li3 or []), root_usage(ri3 or [])
report(lu and ru and all(isinstance(x, int) for x in lu + ru),
       "3: -c path,usage: the root's usage is a number in every live and replayed "
       "sample (live %s, replay %s)" % (lu, ru), "live %s, replay %s" % (lu, ru))
# the default view from the root
same_run("rootd", "3 (the default view, text, /)", None, False)


def root_rows(text):
    """the root row's USAGE of each iteration of a text output"""
    return [l.split()[0] for l in (text or "").splitlines()
            if l.split() and l.split()[-1] == "/" and not l.startswith("Hierarchy")]


lr, rr, fr = root_rows(rd("rootd.live")), root_rows(rd("rootd.replay")), root_rows(rd("rootd.files"))
report(lr and rr and "-" not in lr + rr,
       "3: the default view from /: the root's USAGE shown in every live and replayed "
       "iteration (live %s, replay %s; --collector files %s)" % (lr, rr, fr),
       "live %s, replay %s; --collector files %s" % (lr, rr, fr))
for name in ("rootnorec", "rootusage"):
    its = docs(rd(name + ".json"))
    info("3: without --record (%s): exit %s, the root's usage %s, stderr %r" % (
        "-c " + ",".join(["path"] + rcols) if name == "rootnorec" else "-c path,usage",
        (rd(name + ".rc") or "").strip(), root_usage(its),
        (rd(name + ".err") or "")[:300]))
# the root's recorded memory.stat in the last sample
ts = (rd("root.rec/timestamps") or "").splitlines()
if ts:
    rslot = ts[-1].split()[2]
    info("3: the root's recorded memory.stat (slot %s): %s" % (
        rslot, " | ".join((rd("root.rec/%s/memory.stat" % rslot) or "(none)").splitlines()[:12])))

# 4: the recorded files of the last sample
ts = (rd("json.rec/timestamps") or "").splitlines()
slot = ts[-1].split()[2] if ts and len(ts[-1].split()) >= 3 else None
# -n 3: the first sample, the rates' base, and the three printed
report(slot is not None and len(ts) == 4, "4: DIR/timestamps holds 4 samples, the last in slot %s" % slot,
       "timestamps %r" % ts)
if slot is not None:
    for g, f in (("b", "memory.max"), ("b", "memory.swap.max"), ("a", "memory.low"),
                 ("a", "memory.min"), ("a", "memory.high")):
        got, want = rd("json.rec/%s/rv/%s/%s" % (slot, g, f)), rd("%s.%s" % (g, f))
        report(got is not None and got == want,
               "4: DIR/%s/rv/%s/%s is the kernel's text %r" % (slot, g, f, want),
               "recorded %r, kernel %r" % (got, want))
    st = stat("json.rec/%s/rv/a/memory.stat" % slot)
    report("anon" in st and st["anon"] == a.get("anon"),
           "4: DIR/%s/rv/a/memory.stat has anon %s, the anon printed for /rv/a "
           "in that sample" % (slot, st.get("anon")),
           "recorded anon %s, printed %s; recorded %s" % (st.get("anon"), a.get("anon"), st))
    # every value printed for /rv/a and /rv/b from memory.stat's keys
    keys = [k for k in ("active_anon", "inactive_anon", "active_file", "inactive_file",
                        "unevictable", "anon", "file", "shmem", "kernel", "pgscan",
                        "pgsteal", "pgscan_kswapd", "pgscan_direct", "pgfault")
            if k in cols]
    wrong = []
    for p in ("/rv/a", "/rv/b"):
        st = stat("json.rec/%s%s/memory.stat" % (slot, p))
        for k in keys:
            if st.get(k) != last.get(p, {}).get(k):
                wrong.append("%s %s: recorded %s, printed %s" % (p, k, st.get(k), last.get(p, {}).get(k)))
    report(not wrong, "4: the recorded memory.stat of /rv/a and /rv/b holds the %d "
           "values printed from it in that sample" % len(keys), "; ".join(wrong[:8]))

c.finish()
