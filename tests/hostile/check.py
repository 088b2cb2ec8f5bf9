# SPDX-License-Identifier: GPL-2.0-or-later
# check.py - helper of tests/live/hostile.sh: makes groups with hostile
# names and checks memcgtop's outputs against the real names (as bytes).
#
#   check.py mk DIR LIST [TEMPLATE]  make the names below DIR (a live
#                      cgroup or a plain folder; with TEMPLATE, copy its
#                      regular files into each new folder, as a fixture);
#                      LIST gets the relative paths made, NUL-separated
#   check.py text|csv|json|openmetrics|prometheus OUT LIST TOP
#                      check one batch output file (-n 1) of the tree
#                      started at /TOP
#   check.py screen CAP RAW LIST TOP [ascii]
#                      CAP: tmux capture-pane -p of the tree; RAW: every
#                      byte memcgtop wrote to the terminal (pipe-pane)
#   check.py set MEMCGTOP ROOT TOP LIST AUDIT [--root R]
#                      --set on several names: only that group's
#                      memory.limit_in_bytes changes; ".." refused
#
# Expected forms follow the man page (NAMES): every format encodes a name
# alike, control bytes, bytes that are not UTF-8, C1 controls and format
# characters as \xHH and "\" as "\\"; CSV quotes that (RFC 4180), JSON and
# OpenMetrics labels escape its "\" and '"' once more.  Prints PASS:/FAIL:
# lines.
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata

# name -> why it is here.  b"/" separates levels (a name cannot hold it).
NAMES = [
    (b"osc\x1b]0;pwned\x07end", "OSC window title escape"),
    (b"csi\x1b[2Jend", "CSI 2 J (clear screen)"),
    (b"nl\nx", "newline"),
    (b"tab\tx", "tab"),
    (b"bad\xff\xfe", "invalid UTF-8"),
    (b"c1\xc2\x9b2Jx", "C1 CSI (U+009B, valid UTF-8)"),
    (b"del\x7fx", "DEL"),
    (b"L" * 255, "255-byte name"),
    (b"-n", "option-like -n"),
    (b"--set", "option-like --set"),
    (b'a,b"c', "CSV comma and quote"),
    (b"x{y}", "braces"),
    (b"}", "closing brace"),
    (b"# EOF", "OpenMetrics # EOF"),
    (b'memcgtop_usage_bytes{cgroup="/"} 1', "a metric line (two levels)"),
    (b"back\\slash", "backslash"),
    (b"..x", "..x (a name, not a parent)"),
    ("café".encode(), "UTF-8 café"),
    (b"p:limit=1M", "':' and '=' as in --set"),
    (b"rlo\xe2\x80\xaeexe.txt", "U+202E right-to-left override"),
    (b"iso\xe2\x81\xa7x\xe2\x81\xa9y", "U+2067 RLI ... U+2069 PDI"),
    (b"zw\xe2\x80\x8bsp\xc2\xad", "U+200B zero width space, U+00AD soft hyphen"),
]


def is_format(ch):
    """a bidi control or other format character (Cf), or a line or
    paragraph separator: invisible, but it changes how the line shows"""
    return unicodedata.category(ch.decode()) in ("Cf", "Zl", "Zp")

npass = nfail = 0


def out(ok, msg):
    global npass, nfail
    if ok:
        npass += 1
    else:
        nfail += 1
    label = os.environ.get("HOSTILE_LABEL")
    if label:
        msg = label + " " + msg
    sys.stdout.write(("PASS: " if ok else "FAIL: ") + msg + "\n")
    sys.stdout.flush()


def r(b):
    """bytes shown in a message"""
    return repr(b)[2:-1] if isinstance(b, bytes) else repr(b)


def chunks(b):
    """(bytes, valid) per UTF-8 character, as fmt_utf8_len splits them"""
    i = 0
    while i < len(b):
        c = b[i]
        n = 1 if c < 0x80 else 2 if 0xC2 <= c <= 0xDF else \
            3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 0
        if n > 1:
            try:
                b[i:i + n].decode("utf-8")
                if len(b[i:i + n]) < n:
                    n = 0
            except UnicodeDecodeError:
                n = 0
        if n == 0:
            yield b[i:i + 1], False
            i += 1
        else:
            yield b[i:i + n], True
            i += n


def esc_text(b, ascii_only=False):
    o = bytearray()
    i = 0
    while i < len(b):
        ch, ok = next(chunks(b[i:]))
        c = ch[0]
        if not ok or c < 0x20 or c == 0x7F or \
                (len(ch) == 2 and c == 0xC2 and ch[1] < 0xA0):
            o += b"\\x%02X" % c
            i += 1
            continue
        if ch == b"\\":
            o += b"\\\\"
        elif (ascii_only and c >= 0x80) or (len(ch) > 1 and is_format(ch)):
            for x in ch:
                o += b"\\x%02X" % x
        else:
            o += ch
        i += len(ch)
    return bytes(o)


def json_expect(b):
    return esc_text(b).decode()


def om_expect(b):
    return esc_text(b).decode()


def load_list(p):
    with open(p, "rb") as f:
        d = f.read()
    return [x for x in d.split(b"\0") if x]


def paths(lst, top):
    """the start group and every group below it: (path, depth, name)"""
    t = b"/" + top
    res = [(t, 0, t)]
    for rel in lst:
        res.append((t + b"/" + rel, rel.count(b"/") + 1, rel.split(b"/")[-1]))
    return res


def mk():
    d, lp = sys.argv[2], sys.argv[3]
    tmpl = sys.argv[4] if len(sys.argv) > 4 else None
    made = []
    for name, why in NAMES:
        parts = name.split(b"/")
        rel = b""
        ok = True
        for p in parts:
            rel = rel + b"/" + p if rel else p
            full = os.fsencode(d) + b"/" + rel
            if os.path.isdir(full):
                continue
            try:
                os.mkdir(full)
            except OSError as e:
                ok = False
                if tmpl is None and b"\n" in p:
                    out(True, "setup: the kernel refuses a group name with "
                        "a newline (%s); the fixture part covers it"
                        % e.strerror)
                else:
                    out(False, "setup: mkdir %s (%s): %s" % (r(rel), why, e))
                break
            if tmpl:
                for f in os.listdir(tmpl):
                    src = os.path.join(tmpl, f)
                    if os.path.isfile(src):
                        shutil.copy(src, os.path.join(os.fsdecode(full), f))
            made.append(rel)
    with open(lp, "wb") as f:
        f.write(b"\0".join(made) + b"\0")
    out(len(made) >= len(NAMES), "setup: %d groups with hostile names made"
        % len(made))


def hostile(b):
    """holds a byte a terminal would interpret: a control, DEL, a C1
    control or a byte that is not UTF-8"""
    return any(not ok or ch[0] < 0x20 or ch[0] == 0x7F or
               (len(ch) == 2 and ch[0] == 0xC2 and ch[1] < 0xA0) or
               (len(ch) > 1 and is_format(ch))
               for ch, ok in chunks(b))


def term_safe(data, what):
    """no byte a terminal interprets; valid UTF-8; no C1 controls"""
    bad = sorted({"0x%02X" % c for c in data if (c < 0x20 and c != 0x0A)
                  or c == 0x7F})
    try:
        s = data.decode("utf-8")
        c1 = sorted({"U+%04X" % ord(c) for c in s if 0x80 <= ord(c) <= 0x9F
                     or unicodedata.category(c) in ("Cf", "Zl", "Zp")})
        utf = True
    except UnicodeDecodeError as e:
        c1 = []
        utf = False
        uerr = str(e)
    out(not bad and utf and not c1, "%s: no control byte, C1 control, "
        "format character or invalid UTF-8 reaches the terminal%s" % (
            what, "" if not bad and utf and not c1 else
            " (controls %s, C1 %s, %s)" % (bad, c1, "UTF-8 ok" if utf else uerr)))


def check_text():
    data = open(sys.argv[2], "rb").read()
    groups = paths(load_list(sys.argv[3]), os.fsencode(sys.argv[4]))
    term_safe(data, "text")
    lines = data.split(b"\n")
    ti = [i for i, l in enumerate(lines) if l.rstrip().endswith(b" GROUP")]
    if not ti:
        out(False, "text: no title line ending in GROUP")
        return
    off = lines[ti[0]].rindex(b"GROUP")
    rows = []
    for l in lines[ti[0] + 1:]:
        if not l:
            break
        rows.append(l[off:])
    want = []
    for p, depth, name in groups:
        want.append(esc_text(p) if depth == 0 else b"  " * depth + esc_text(name))
    out(len(rows) == len(want), "text: one row per group (%d rows, %d groups)"
        % (len(rows), len(want)))
    missing = [r(w) for w in want if rows.count(w) != 1]
    extra = [r(x) for x in rows if x not in want]
    out(not missing and not extra, "text: every group's name escaped "
        "(\\xHH, \\\\) on its own row%s" % (
            "" if not missing and not extra else
            ": missing %s; unexpected rows %s" % (missing, extra)))
    for n, _ in NAMES:
        if n == b"osc\x1b]0;pwned\x07end":
            exp = b"osc\\x1B]0;pwned\\x07end"
            out(any(x.endswith(exp) for x in rows),
                "text: the OSC name shows as %s" % r(exp))


def check_csv():
    data = open(sys.argv[2], "rb").read()
    groups = paths(load_list(sys.argv[3]), os.fsencode(sys.argv[4]))
    s = data.decode("utf-8", "surrogateescape")
    try:
        recs = list(csv.reader(io.StringIO(s, newline=""), strict=True))
    except csv.Error as e:
        out(False, "csv: python csv (strict) cannot parse it: %s" % e)
        return
    out(True, "csv: python's csv module (strict) parses it: %d records"
        % len(recs))
    out(data.endswith(b"\r\n") and data.count(b"\r\n") >= len(recs),
        "csv: records end in CR LF")
    hdr = recs[0]
    bad = [i for i, x in enumerate(recs[1:], 1) if len(x) != len(hdr)]
    out(not bad and len(recs) == len(groups) + 1,
        "csv: %d rows of %d fields each (header %d fields; bad rows %s)"
        % (len(recs) - 1, len(hdr), len(hdr), bad[:5]))
    if "path" not in hdr:
        out(False, "csv: no path column")
        return
    pi = hdr.index("path")
    got = [x[pi].encode("utf-8", "surrogateescape") for x in recs[1:]
           if len(x) > pi]
    want = [esc_text(p) for p, _, _ in groups]
    missing = [r(w) for w in want if got.count(w) != 1]
    extra = [r(g) for g in got if g not in want]
    out(not missing and not extra, "csv: the path fields are the names "
        "encoded (\\xHH, \\\\)%s" % ("" if not missing and not extra else
                                   ": missing %s; unexpected %s" % (missing, extra)))


def check_json():
    data = open(sys.argv[2], "rb").read()
    groups = paths(load_list(sys.argv[3]), os.fsencode(sys.argv[4]))
    lines = [l for l in data.split(b"\n") if l]
    docs = []
    for l in lines:
        try:
            docs.append(json.loads(l))
        except ValueError as e:
            out(False, "json: a line does not parse: %s: %s" % (e, r(l[:200])))
    out(len(docs) == 1 and len(lines) == 1, "json: one line, parsed by "
        "python's json (%d lines)" % len(lines))
    if not docs:
        return
    got = [g.get("path") for g in docs[0]["groups"]]
    want = [json_expect(p) for p, _, _ in groups]
    missing = [repr(w) for w in want if got.count(w) != 1]
    extra = [repr(g) for g in got if g not in want]
    out(not missing and not extra, "json: the paths decode to the names "
        "encoded (\\xHH, \\\\)%s" % (
            "" if not missing and not extra else
            ": missing %s; unexpected %s" % (missing, extra)))
    out(b"bad\\\\xFF\\\\xFE" in data,
        "json: the bytes FF FE are written as \\\\xFF\\\\xFE")


LABEL = r'(?:[^"\\\n]|\\[\\"n])*'
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)\{cgroup="(' + LABEL +
                    r')"\} (\S+)$')


def unescape(s):
    return re.sub(r'\\(.)', lambda m: {"n": "\n"}.get(m.group(1), m.group(1)), s)


def check_metrics(om):
    fmt = "openmetrics" if om else "prometheus"
    data = open(sys.argv[2], "rb").read()
    groups = paths(load_list(sys.argv[3]), os.fsencode(sys.argv[4]))
    try:
        s = data.decode("utf-8")
        out(True, "%s: valid UTF-8" % fmt)
    except UnicodeDecodeError as e:
        out(False, "%s: not UTF-8: %s" % (fmt, e))
        s = data.decode("utf-8", "replace")
    lines = s.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    bad = []
    usage = {}
    for l in lines:
        if l.startswith("# "):
            if not re.match(r"^# (HELP|TYPE|UNIT) [a-zA-Z_:][a-zA-Z0-9_:]* ", l) \
                    and l != "# EOF":
                bad.append(l)
            continue
        m = SAMPLE.match(l)
        # System figures: no label, but the reclaim events' pages scanned
        # per priority (0 to 12), while they are loaded.
        if not m and not re.match(r"^memcgtop_system_[a-z0-9_]+ \S+$", l) and \
                not re.match(r'^memcgtop_system_(?:subtree_|soft_)?scan_by_priority_total'
                             r'\{priority="(?:[0-9]|1[0-2])"\} \S+$', l):
            bad.append(l)
            continue
        if m and m.group(1) == "memcgtop_usage_bytes":
            lab = unescape(m.group(2))
            usage[lab] = usage.get(lab, 0) + 1
    out(not bad, "%s: every line is a comment (HELP/TYPE/UNIT/EOF) or one "
        "sample with a well-formed cgroup label%s" % (
            fmt, "" if not bad else ": " + "; ".join(repr(b) for b in bad[:5])))
    if om:
        eofs = [i for i, l in enumerate(lines) if l == "# EOF"]
        out(eofs == [len(lines) - 1], "openmetrics: one '# EOF' line, the "
            "last one (a group named '# EOF' makes none; at lines %s of %d)"
            % (eofs, len(lines)))
    want = {om_expect(p): 0 for p, _, _ in groups}
    missing = [repr(w) for w in want if usage.get(w) != 1]
    extra = [repr(k) for k in usage if k not in want]
    out(not missing and not extra, "%s: one memcgtop_usage_bytes sample per "
        "group, its cgroup label unescapes to the path encoded (\\xHH, "
        "\\\\)%s" % (fmt, "" if not missing and not extra else
                      ": missing %s; unexpected %s" % (missing, extra)))


def check_screen():
    cap = open(sys.argv[2], "rb").read()
    raw = open(sys.argv[3], "rb").read()
    groups = paths(load_list(sys.argv[4]), os.fsencode(sys.argv[5]))
    asc = len(sys.argv) > 6 and sys.argv[6] == "ascii"
    what = "screen" + (" --ascii" if asc else "")
    lines = cap.decode("utf-8", "replace").split("\n")
    ti = [i for i, l in enumerate(lines) if re.search(r"USAGE .* GROUP\s*$", l)]
    if not ti:
        out(False, "%s: no column title line with GROUP" % what)
        return
    off = lines[ti[0]].rindex("GROUP")
    rows = []
    for l in lines[ti[0] + 1:]:
        if not l.strip():
            break
        f = l[off:].strip()
        # the fold glyph of a group with children (ASCII: "- ", "+ ",
        # matched below since "-n" and "--set" start like one)
        if f[:2] in ("\u25be ", "\u25b8 "):
            f = f[2:]
        rows.append(f.strip())
    want = [esc_text(p if d == 0 else n, asc).decode("utf-8") for p, d, n in groups]
    # names that start like a fold glyph ("-n", "--set") keep theirs
    miss = []
    for w in want:
        hits = [x for x in rows if x == w or x == "- " + w or x == "+ " + w]
        if len(hits) != 1:
            miss.append(w)
    out(len(rows) == len(want), "%s: one row per group (%d rows, %d groups)"
        % (what, len(rows), len(want)))
    out(not miss, "%s: every group's name escaped (\\xHH) on its own row%s"
        % (what, "" if not miss else ": not found once: %s; rows %s"
           % ([repr(m) for m in miss], [repr(x) for x in rows])))
    # the raw bytes memcgtop sent
    out(b"\x07" not in raw, "%s: no BEL byte in what memcgtop wrote (%d bytes)"
        % (what, len(raw)))
    out(b"\x1b]" not in raw, "%s: no OSC (ESC ]) in what memcgtop wrote" % what)
    try:
        s = raw.decode("utf-8")
        c1 = sorted({"U+%04X" % ord(c) for c in s if 0x80 <= ord(c) <= 0x9F
                     or unicodedata.category(c) in ("Cf", "Zl", "Zp")})
        out(not c1, "%s: what memcgtop wrote is valid UTF-8 without C1 "
            "controls or format characters%s"
            % (what, "" if not c1 else ": " + ", ".join(c1)))
    except UnicodeDecodeError as e:
        out(False, "%s: what memcgtop wrote is not UTF-8: %s" % (what, e))
    leaked = []
    for n, why in NAMES:
        for part in n.split(b"/"):
            if hostile(part) and part in raw:
                leaked.append("%s (%s)" % (r(part), why))
    out(not leaked, "%s: no hostile name's raw bytes reach the terminal%s"
        % (what, "" if not leaked else ": " + "; ".join(leaked)))


def snapshot(root, top, lst):
    res = {}
    for rel in [b""] + lst:
        p = os.fsencode(root) + b"/" + top + (b"/" + rel if rel else b"")
        try:
            with open(p + b"/memory.limit_in_bytes", "rb") as f:
                res[rel] = f.read()
        except OSError as e:
            res[rel] = repr(e).encode()
    return res


def run_set():
    mc, root, top, lp, aud = sys.argv[2:7]
    extra = sys.argv[7:]
    top = os.fsencode(top)
    lst = load_list(lp)
    wrap = os.environ.get("HOSTILE_WRAP_SOCK")
    pre = []
    if wrap:
        pre = ["unshare", "-m", "--propagation", "private", "sh", "-c",
               'mount --bind "$0" /dev/log && exec "$@"', wrap]

    def run(spec):
        p = subprocess.run(pre + [mc] + extra + ["--follow", "0", "--set", spec, "--audit-log",
                                                 aud],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=60)
        return p.returncode, p.stdout, p.stderr

    def audit_lines():
        try:
            return open(aud, "rb").read().split(b"\n")[:-1]
        except OSError:
            return []

    targets = lst
    for rel in targets:
        before = snapshot(root, top, lst)
        na = len(audit_lines())
        spec = b"/" + top + b"/" + rel + b":limit=64M"
        rc, so, se = run(spec)
        after = snapshot(root, top, lst)
        changed = sorted(r(k) for k in after if after[k] != before[k])
        ok = rc == 0 and after[rel].strip() == b"67108864" and \
            changed == [r(rel)]
        out(ok, "--set %s: exit %d, %s now holds %s, groups changed: %s%s"
            % (r(spec), rc, r(rel), r(after[rel].strip()), changed,
               "" if rc == 0 else " (stderr %s)" % r(se[:300])))
        if os.environ.get("HOSTILE_SET_WRITES_ONLY"):
            continue
        # what --set prints: no byte a terminal interprets; the path as
        # text output and the audit line show it (a name with no such byte
        # may also be shown as it is)
        shown = b"/" + top + b"/" + esc_text(rel)
        line = so[:-1] if so.endswith(b"\n") else so
        ok = not hostile(line) and b"\n" not in line and (
            line.startswith(shown + b": limit ") or (
                not hostile(rel) and
                line.startswith(b"/" + top + b"/" + rel + b": limit ")))
        out(ok, "--set %s: its output line has no control byte and shows the "
            "path escaped as %s (got %s)" % (r(rel), r(shown), r(so[:200])))
        al = audit_lines()[na:]
        want = b"uid=%d group=%s file=memory.limit_in_bytes old=%s new=67108864 " \
            b"result=ok now=67108864" % (os.getuid(), shown, b"max" if
                                         before[rel].strip() in (
                                             b"9223372036854771712",
                                             b"18446744073709551615") else
                                         before[rel].strip())
        # a fixture's line says so
        if "--root" in extra:
            want += b" fixture=yes"
        out(al == [want], "--set %s: one audit line, path escaped: %s (got %s)"
            % (r(rel), r(want), [r(x) for x in al]))
    # an error naming a hostile path: one line, no byte a terminal
    # interprets (the man page: errors are one line on standard error)
    for rel in [n for n in lst if (hostile(n) or b"\n" in n) and
                not os.environ.get("HOSTILE_SET_WRITES_ONLY")]:
        spec = b"/" + top + b"/" + rel + b":limit=lots"
        before = snapshot(root, top, lst)
        rc, so, se = run(spec)
        body = se[:-1] if se.endswith(b"\n") else se
        out(rc == 2 and snapshot(root, top, lst) == before and
            not hostile(body) and b"\n" not in body,
            "--set %s (a bad value): exit 2, nothing written, the error is "
            "one line without control bytes (exit %d, stderr %s)"
            % (r(spec), rc, r(se[:200])))
    # ".." and "." components: usage error, nothing written
    osc = [n for n in lst if n.startswith(b"osc")][0]
    for spec in [b"/" + top + b"/../" + top + b"/" + osc + b":limit=32M",
                 b"/" + top + b"/..:limit=32M",
                 b"/" + top + b"/" + osc + b"/..:limit=32M",
                 b"/" + top + b"/./" + osc + b":limit=32M",
                 b"/../" + top + b":limit=32M"]:
        before = snapshot(root, top, lst)
        na = len(audit_lines())
        rc, so, se = run(spec)
        after = snapshot(root, top, lst)
        out(rc == 2 and after == before and so == b"" and
            len(audit_lines()) == na,
            "--set %s: refused with exit 2, nothing written, no output, no "
            "audit line (exit %d, stderr %s)" % (r(spec), rc, r(se[:200])))


mode = sys.argv[1]
if mode == "mk":
    mk()
elif mode == "text":
    check_text()
elif mode == "csv":
    check_csv()
elif mode == "json":
    check_json()
elif mode in ("openmetrics", "prometheus"):
    check_metrics(mode == "openmetrics")
elif mode == "screen":
    check_screen()
elif mode == "set":
    run_set()
else:
    sys.exit("unknown mode " + mode)
sys.exit(1 if nfail else 0)
