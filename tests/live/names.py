# SPDX-License-Identifier: GPL-2.0-or-later
# names.py - helper of tests/live/names.sh: names that collided before
# the names' encoding, made as real groups, and each format's exact text.
#
#   names.py live MEMCGTOP CGM TNAME TMPD     groups below CGM/TNAME
#   names.py fixture MEMCGTOP TEMPLATE TMPD   a start group with a newline
#
# Prints PASS:/FAIL: lines; exit 1 on any failure.
import json
import os
import re
import subprocess
import sys
import time

# (the directory's bytes, as text, CSV and the screen show it, as it stands
# inside a JSON string or an OpenMetrics label).  Each pair of the first
# four, and a\x41 with aA, printed alike before.
NAMES = [
    (b"inv\xff\xfeutf", r"inv\xFF\xFEutf", r"inv\\xFF\\xFEutf"),
    ("invÿþutf".encode(), "invÿþutf", "invÿþutf"),
    (b"inv\xfe\xffutf", r"inv\xFE\xFFutf", r"inv\\xFE\\xFFutf"),
    (b"inv\xc0\xc1utf", r"inv\xC0\xC1utf", r"inv\\xC0\\xC1utf"),
    (b"a\\x41", r"a\\x41", r"a\\\\x41"),
    (b"aA", "aA", "aA"),
]

npass = nfail = 0


def out(ok, msg):
    global npass, nfail
    if ok:
        npass += 1
    else:
        nfail += 1
    sys.stdout.write(("PASS: " if ok else "FAIL: ") + msg + "\n")
    sys.stdout.flush()


def run(args, what):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL, timeout=120)
    if p.returncode != 0 or p.stderr:
        out(False, "%s: exit %d, stderr %r" % (what, p.returncode,
                                                p.stderr[:300]))
    return p.stdout


def decode(s):
    """the man page's decoding: \\xHH is the byte HH, \\\\ a backslash"""
    o = bytearray()
    b = s.encode()
    i = 0
    while i < len(b):
        if b[i:i + 1] == b"\\":
            if b[i + 1:i + 2] == b"\\":
                o += b"\\"
                i += 2
                continue
            m = re.match(rb"x([0-9A-F]{2})", b[i + 1:i + 4])
            if not m:
                raise ValueError("bad escape at %d in %r" % (i, s))
            o.append(int(m.group(1), 16))
            i += 4
            continue
        o += b[i:i + 1]
        i += 1
    return bytes(o)


def check_paths(fmt, got, top):
    """7 printed paths, all different, each decoding to a directory"""
    want = sorted([b"/" + top] + [b"/" + top + b"/" + n for n, _, _ in NAMES])
    try:
        dec = sorted(decode(g) for g in got)
    except ValueError as e:
        dec = str(e)
    out(len(got) == 7 and len(set(got)) == 7 and dec == want,
        "%s: 7 paths printed, all different, each decoding to its "
        "directory's bytes (got %r)" % (fmt, got))


def live(mc, cgm, tname, tmpd):
    top = tname.encode()
    base = os.fsencode(cgm) + b"/" + top
    for n, _, _ in NAMES:
        os.mkdir(base + b"/" + n)
    order = sorted(NAMES, key=lambda x: x[0])
    common = [mc, "-b", "-n", "1", "-d", "0.2", "-o", "+path"]

    # text: the tree, each name as it is encoded
    o = run(common + ["-c", "path", "/" + tname], "text")
    text = o.decode("utf-8", "surrogateescape")
    want = "GROUP\n/%s\n" % tname + "".join("  %s\n" % t for _, t, _ in order)
    got = text[text.find("\nGROUP\n") + 1:]
    out(got == want, "text: the tree is exactly %r (got %r)" % (want, got))

    # JSON: the groups array, byte for byte, and the paths it decodes to
    o = run(common + ["-F", "json", "-c", "path", "/" + tname], "json")
    line = o.decode("utf-8", "surrogateescape")
    want = '"groups":[{"path":"/%s"}' % tname + "".join(
        ',{"path":"/%s/%s"}' % (tname, j) for _, _, j in order) + "]}\n"
    got = line[line.find('"groups":'):]
    out(got == want, "json: the groups array is exactly %r (got %r)"
        % (want, got))
    try:
        paths = [g["path"] for g in json.loads(line)["groups"]]
    except ValueError as e:
        paths = []
        out(False, "json: does not parse: %s" % e)
    check_paths("json", paths, top)

    # CSV: the path fields
    o = run(common + ["-F", "csv", "-c", "path", "/" + tname], "csv")
    rows = o.decode("utf-8", "surrogateescape").split("\r\n")
    got = [r.split(",", 2)[2] for r in rows[1:] if r]
    want = ["/" + tname] + ["/%s/%s" % (tname, t) for _, t, _ in order]
    out(got == want and rows[0] == "time,iteration,path",
        "csv: the path fields are exactly %r (got %r)" % (want, got))
    check_paths("csv", got, top)

    # OpenMetrics and Prometheus: the cgroup labels of memcgtop_usage_bytes
    for fmt in ("openmetrics", "prometheus"):
        o = run(common + ["-F", fmt, "-c", "usage", "/" + tname], fmt)
        s = o.decode("utf-8", "surrogateescape")
        labels = re.findall(r'^memcgtop_usage_bytes\{cgroup="(.*)"\} \S+$', s,
                            re.M)
        want = ["/" + tname] + ["/%s/%s" % (tname, j) for _, _, j in order]
        out(labels == want, "%s: the cgroup labels are exactly %r (got %r)"
            % (fmt, want, labels))
        # OpenMetrics' own escapes undone first: \\ and \"
        check_paths(fmt, [re.sub(r'\\(.)', r'\1', x) for x in labels], top)
        try:
            s.encode("utf-8")
            out("\ufffd" not in s and "\udcff" not in s,
                "%s: valid UTF-8, no U+FFFD" % fmt)
        except UnicodeEncodeError as e:
            out(False, "%s: not UTF-8: %s" % (fmt, e))

    # a recording holds the directories' bytes and replays the same text
    rec = tmpd + "/rec"
    for fmt, cols in (("json", "path"), ("csv", "path"),
                      ("openmetrics", "usage"), ("text", "path")):
        subprocess.run(["rm", "-rf", rec])
        live_out = run([mc, "-b", "-n", "2", "-d", "0.2", "-o", "+path",
                        "-F", fmt, "-c", cols, "--record", rec, "/" + tname],
                       "record -F " + fmt)
        rep = run([mc, "-b", "-n", "2", "-o", "+path", "-F", fmt, "-c", cols,
                   "--root", rec], "replay -F " + fmt)
        out(rep == live_out and len(live_out) > 0,
            "recording: the replay without CGROUP prints what the live run "
            "printed, byte for byte (-F %s, %d bytes)" % (fmt, len(live_out)))
    slots = sorted(x for x in os.listdir(rec) if x.isdigit())
    kept = sorted(x for x in os.listdir(os.fsencode(rec) + b"/" +
                                        slots[-1].encode() + b"/" + top)
                  if os.path.isdir(os.fsencode(rec) + b"/" +
                                   slots[-1].encode() + b"/" + top + b"/" + x))
    out(kept == sorted(n for n, _, _ in NAMES),
        "recording: its folders are the groups' names, byte for byte "
        "(got %r)" % kept)
    # started at a name of invalid bytes: replay starts there too
    subprocess.run(["rm", "-rf", rec])
    start = os.fsdecode(b"/" + top + b"/" + NAMES[0][0])
    live_out = run([mc, "-b", "-n", "2", "-d", "0.2", "-F", "json", "-c",
                    "path", "--record", rec, start], "record at inv\\xFF")
    rep = run([mc, "-b", "-n", "2", "-F", "json", "-c", "path", "--root",
               rec], "replay at inv\\xFF")
    out(rep == live_out and b'"path":"/%s/inv\\\\xFF\\\\xFEutf"' % top in rep,
        "recording: started at /%s/inv\\xFF\\xFEutf, the replay starts "
        "there (got %r)" % (tname, rep[-120:]))

    screen(mc, tname, tmpd, order)


def screen(mc, tname, tmpd, order):
    sock = "memcgtop-names-%d" % os.getpid()
    tm = ["tmux", "-u", "-L", sock, "-f", "/dev/null"]
    cmd = ("env LANG=C.UTF-8 LC_ALL=C.UTF-8 XDG_CONFIG_HOME=%s/cfg HOME=%s "
           "%s -d 0.5 -o +path /%s; exec sleep 600" % (tmpd, tmpd, mc, tname))
    try:
        subprocess.run(tm + ["new-session", "-d", "-s", "n", "-x", "200",
                             "-y", "40", cmd], check=True)
        cap = ""
        for _ in range(200):
            cap = subprocess.run(tm + ["capture-pane", "-p", "-t", "n"],
                                 stdout=subprocess.PIPE).stdout.decode(
                                     "utf-8", "replace")
            if "Groups: 7 shown" in cap:
                break
            time.sleep(0.05)
        lines = cap.split("\n")
        # the title line ends in GROUP, after the sort column's mark
        ti = [i for i, l in enumerate(lines) if re.search(r"GROUP\s*$", l)]
        rows = []
        if ti:
            off = lines[ti[0]].rindex("GROUP") - 1
            for l in lines[ti[0] + 1:]:
                if not l.strip():
                    break
                rows.append(l[off:].strip())
        # the start group has the fold glyph of a group with children
        want = ["\u25be /" + tname] + [t for _, t, _ in order]
        out(rows == want, "screen: the tree's names are exactly %r (got %r)"
            % (want, rows) + ("" if rows == want else "; screen:\n" + cap))
        subprocess.run(tm + ["send-keys", "-t", "n", "q"])
    finally:
        subprocess.run(tm + ["kill-server"], stderr=subprocess.DEVNULL)


def fixture(mc, tmpl, tmpd):
    """a start group whose name holds a newline (only a plain folder can
    have one): the recording's info keeps it, replay starts there"""
    fx = tmpd + "/fx"
    nl = fx + "/nl\nx"
    os.makedirs(nl)
    for d in (fx, nl):
        for f in os.listdir(tmpl):
            src = os.path.join(tmpl, f)
            if os.path.isfile(src):
                with open(src, "rb") as a, open(os.path.join(d, f), "wb") as b:
                    b.write(a.read())
    rec = tmpd + "/fxrec"
    live_out = run([mc, "-b", "-n", "2", "-d", "0.1", "-F", "json", "-c",
                    "path", "--root", fx, "--record", rec, "/nl\nx"],
                   "fixture record")
    rep = run([mc, "-b", "-n", "2", "-F", "json", "-c", "path", "--root",
               rec], "fixture replay")
    out(rep == live_out and b'"groups":[{"path":"/nl\\\\x0Ax"}]' in rep,
        "recording: started at /nl\\x0Ax (a newline), the replay starts "
        "there (live %r, replay %r)" % (live_out[-60:], rep[-60:]))


mode = sys.argv[1]
if mode == "live":
    live(*sys.argv[2:6])
elif mode == "fixture":
    fixture(*sys.argv[2:5])
else:
    sys.exit("unknown mode " + mode)
sys.exit(1 if nfail else 0)
