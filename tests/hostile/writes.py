# SPDX-License-Identifier: GPL-2.0-or-later
# writes.py - helper of tests/security.sh: finds every call in src/**/*.c
# that can write, create, remove or rename a file (or run a program that
# could), and compares them with ALLOWED below.  Prints PASS:/FAIL: lines.
#
#   python3 writes.py SRCDIR          check
#   python3 writes.py SRCDIR --list   print what was found
#
# Found: write-family calls (write, pwrite, writev, fwrite, sendfile, ...),
# file system changes (rename, unlink, mkdir, truncate, chmod, link,
# mkstemp, ...), programs (system, popen, exec*, fork, syscall); open,
# openat and creat with O_WRONLY, O_RDWR, O_CREAT, O_TRUNC or O_APPEND (or
# flags that are not spelled out); fopen, fdopen and freopen with a mode
# holding w, a or +; stream output (fprintf, fputs, fputc, putc, vfprintf,
# fwrite) to any FILE other than stdout and stderr.  Comments and string
# literals are ignored when looking for calls.
import os
import re
import sys

# (file, function, call) -> why it may write.  Every entry must still be
# found: a stale entry is a failure too, so the list stays exact.
ALLOWED = {
    # The one write to a control file: opened below the group's directory
    # (opened component by component with O_NOFOLLOW), no O_CREAT,
    # O_NOFOLLOW, refused under --readonly and for a recording.
    ("source/cgfs_knobs.c", "cgfs_write", "openat"):
        "opens the group's control file O_WRONLY|O_TRUNC|O_NOFOLLOW, no O_CREAT",
    ("source/cgfs_knobs.c", "cgfs_write", "write"):
        "writes the checked value to that control file (one write)",
    # The audit trail.
    ("edit/audit.c", "audit_open", "open"):
        "--audit-log FILE: O_WRONLY|O_APPEND|O_CREAT|O_NOFOLLOW|O_NONBLOCK, mode 0600, a regular file only",
    ("edit/audit.c", "audit_line", "write"):
        "appends one audit line to the --audit-log file",
    # A file replaced whole, for memcgtoprc and --output: the caller's
    # temporary file fsync'd and renamed over the file, removed on failure.
    ("util/atomicfile.c", "atomic_replace", "renameat"):
        "renames the caller's temporary file over memcgtoprc or --output FILE",
    ("util/atomicfile.c", "atomic_replace", "unlinkat"):
        "removes that temporary file when writing or renaming it failed",
    # The same for --output through a stream that keeps its first write's
    # errno (atomic_file): writes only to the caller's temporary file.
    ("util/atomicfile.c", "af_write", "write"):
        "the stream's bytes, to the caller's temporary file (--output)",
    ("util/atomicfile.c", "atomic_file_commit", "renameat"):
        "renames the caller's temporary file over --output FILE",
    ("util/atomicfile.c", "atomic_file_commit", "unlinkat"):
        "removes that temporary file when writing or renaming it failed",
    # memcgtoprc, written only by the setup screen's w key: folders made
    # 0700, a mkstemp file written and renamed over the old one.
    ("tui/config.c", "make_dirs", "mkdir"):
        "mkdir -p of ~/.config/memcgtop (0700)",
    ("tui/config.c", "config_save", "mkstemp"):
        "the new memcgtoprc is written to memcgtoprc.XXXXXX first",
    ("tui/config.c", "config_save", "fdopen"):
        "a FILE for that temporary file (mode w)",
    ("tui/config.c", "config_save", "fprintf"):
        "the settings lines, into that temporary file",
    ("tui/config.c", "config_save", "unlink"):
        "removes the temporary file when no FILE could be made for it",
    # --output FILE: each batch iteration to FILE.XXXXXX (mkstemp, 0644),
    # renamed over FILE; the temporary file is removed on failure.
    ("out/output.c", "output_tmp", "mkstemp"): "--output: FILE.memcgtop-tmp.XXXXXX",
    ("out/output.c", "output_prepare", "unlinkat"): "--output: a killed run's unlocked temporary file",
    ("out/output.c", "output_prepare", "unlink"): "--output: the start's test temporary file",
    ("out/output.c", "output_write", "fchmod"): "--output: mode 0644 for collectors",
    ("out/output.c", "output_write", "unlink"): "--output: removes the temporary file when no FILE could be made for it",
    # --record DIR: a series of what each refresh read, below DIR only:
    # folders made with mkdirat/open_or_make (O_NOFOLLOW), files created
    # O_NOFOLLOW, a reused slot emptied by rm_tree (unlinkat below DIR).
    ("source/record.c", "rm_tree", "unlinkat"): "--record-max: empties a reused slot",
    ("source/record.c", "open_or_make", "mkdirat"): "--record: sample/group folders",
    ("source/record.c", "record_open", "mkdir"): "--record: DIR itself (0755)",
    ("source/record.c", "record_open", "openat"): "--record: DIR/memcgtop.lock (O_NOFOLLOW, no O_TRUNC)",
    ("source/record.c", "write_info", "openat"): "--record: DIR/info.tmp (O_NOFOLLOW)",
    ("source/record.c", "write_info", "fdopen"): "--record: DIR/info.tmp (w)",
    ("source/record.c", "write_info", "fprintf"): "--record: DIR/info's lines",
    ("source/record.c", "write_info", "renameat"): "--record: renamed to DIR/info",
    ("source/record.c", "write_at", "openat"): "--record: one recorded file (O_NOFOLLOW)",
    ("source/record.c", "write_at", "write"): "--record: its content",
    ("source/record.c", "write_stamps", "openat"): "--record: timestamps.tmp (O_NOFOLLOW)",
    ("source/record.c", "write_stamps", "fdopen"): "--record: timestamps.tmp (w)",
    ("source/record.c", "write_stamps", "fprintf"): "--record: the timestamp lines",
    ("source/record.c", "write_stamps", "renameat"): "--record: renamed to timestamps",
    # MEMCGTOP_FRAME_STATS=FILE: one summary line at the end (O_NOFOLLOW).
    ("tui/tui.c", "frames_write", "open"): "MEMCGTOP_FRAME_STATS: FILE (O_NOFOLLOW)",
    ("tui/tui.c", "frames_write", "fdopen"): "MEMCGTOP_FRAME_STATS: FILE (w)",
    ("tui/tui.c", "frames_write", "fprintf"): "MEMCGTOP_FRAME_STATS: the summary line",
    # --list-keys: opts.c calls tui_list_keys(stdout).
    ("tui/keys.c", "tui_list_keys", "fprintf"): "--list-keys to stdout",
    # Batch printers: o->f is stdout (batch.c sets out.f = stdout).
    ("edit/preview_out.c", "edit_preview_json", "fprintf"): "--set --dry-run -F json: the preview to stdout",
    ("edit/preview_out.c", "edit_preview_json", "fputc"): "--set --dry-run -F json: the preview to stdout",
    ("edit/preview_out.c", "edit_preview_json", "fputs"): "--set --dry-run -F json: the preview to stdout",
    ("out/out_openmetrics.c", "cadvisor_labels", "fprintf"): "OpenMetrics labels to the printer's FILE (stdout, --output's, --listen's buffer)",
    ("out/out_openmetrics.c", "cadvisor_labels", "fputc"): "OpenMetrics labels to the printer's FILE (stdout, --output's, --listen's buffer)",
    ("out/out_openmetrics.c", "cadvisor_labels", "fputs"): "OpenMetrics labels to the printer's FILE (stdout, --output's, --listen's buffer)",
    ("out/out_openmetrics.c", "om_label", "fprintf"): "an OpenMetrics label to the printer's FILE",
    ("out/out_openmetrics.c", "om_label", "fputc"): "an OpenMetrics label to the printer's FILE",
    ("out/out_csv.c", "out_csv_header", "fputs"): "CSV header to o->f (stdout)",
    ("out/out_csv.c", "out_csv_header", "fprintf"): "CSV header to o->f (stdout)",
    ("out/out_csv.c", "out_csv", "fprintf"): "CSV rows to o->f (stdout)",
    ("out/out_csv.c", "out_csv", "fputc"): "CSV rows to o->f (stdout)",
    ("out/out_csv.c", "out_csv", "fputs"): "CSV rows to o->f (stdout)",
    ("out/out_json.c", "sys_value", "fprintf"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "sys_value", "fputc"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "sys_value", "fputs"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "sys_object", "fprintf"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "sys_object", "fputc"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "sys_object", "fputs"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "out_json", "fprintf"): "JSON to o->f (stdout)",
    ("out/out_json.c", "out_json", "fputs"): "JSON to o->f (stdout)",
    ("out/out_json.c", "rb_flush", "fwrite_unlocked"): "JSON rows, made in a buffer, to o->f (stdout), under out_json's flockfile",
    ("out/out_json.c", "oom_kills", "fprintf"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "oom_kills", "fputc"): "JSON to the printer's FILE (stdout)",
    ("out/out_json.c", "oom_kills", "fputs"): "JSON to the printer's FILE (stdout)",
    ("out/out_openmetrics.c", "cadvisor_families", "fprintf"): "metrics to o->f (stdout, or --listen's memory stream)",
    ("out/out_openmetrics.c", "family", "fprintf"): "metrics to o->f (stdout)",
    ("out/out_openmetrics.c", "sys_families", "fprintf"): "metrics to o->f (stdout)",
    ("out/out_openmetrics.c", "out_openmetrics", "fprintf"): "metrics to o->f (stdout)",
    ("out/out_openmetrics.c", "out_openmetrics", "fputs"): "metrics to o->f (stdout)",
    ("out/out_openmetrics.c", "out_openmetrics", "fputc"): "metrics to o->f (stdout)",
    ("out/out_text.c", "header", "fprintf"): "text header to o->f (stdout)",
    ("out/out_text.c", "header", "fputc"): "text header to o->f (stdout)",
    ("out/out_text.c", "out_text", "fprintf"): "text rows to o->f (stdout)",
    ("out/out_text.c", "out_text", "fputc"): "text rows to o->f (stdout)",
    ("out/out_text.c", "out_text", "fwrite"): "text rows to o->f (stdout), a line a call",
    ("bpf/bpflib.c", "bpflib_permitted", "syscall"): "capget(2): reads this process's capabilities, writes nothing",
    ("source/cgfs_io.c", "open_beneath", "syscall"): "openat2(2) with O_RDONLY | O_DIRECTORY: opens a group's directory for reading, writes nothing",
    ("out/out_json.c", "numa_object", "fprintf"): "JSON numa objects to o->f (stdout)",
    ("out/out_json.c", "numa_object", "fputc"): "JSON numa objects to o->f (stdout)",
    ("out/out_json.c", "numa_object", "fputs"): "JSON numa objects to o->f (stdout)",
    # The escaping helpers of the printers write to the FILE they are
    # given: always the printer's o->f (stdout).
    ("util/fmt.c", "name_put", "fwrite"): "encoded names to the printer's FILE",
    ("util/fmt.c", "fmt_json_name", "fputc"): "a JSON string's quotes to the printer's FILE",
    ("util/fmt.c", "fmt_csv_name", "fputc"): "a CSV field's quotes to the printer's FILE",
    ("util/fmt.c", "fmt_safe_put", "fwrite"): "escaped messages to msg.c's stdout or stderr",
    # Messages: msg_err to stderr, msg_out to stdout.
    ("util/msg.c", "put", "fputs"): "a message's prefix to stdout or stderr",
    ("util/msg.c", "put", "fputc"): "a message's newline to stdout or stderr",
}

ALWAYS = """write pwrite pwrite64 writev pwritev pwritev2 fwrite_unlocked
rename renameat renameat2 unlink unlinkat remove rmdir mkdir mkdirat mknod
mknodat mkfifo mkfifoat truncate truncate64 ftruncate ftruncate64 creat
creat64 mkstemp mkostemp mkstemps mkostemps mkdtemp tmpfile tmpnam link
linkat symlink symlinkat chmod fchmod fchmodat chown fchown lchown fchownat
utime utimes futimes lutimes futimens utimensat sendfile splice tee vmsplice
copy_file_range dprintf vdprintf system popen execl execlp execle execv
execvp execvpe execve fexecve fork vfork clone posix_spawn posix_spawnp
syscall setxattr lsetxattr fsetxattr removexattr fallocate
posix_fallocate""".split()
OPENS = {"open", "open64", "openat", "openat64", "__open_2"}
FOPENS = {"fopen", "fopen64", "fdopen", "freopen", "freopen64"}
# stream output: (name, index of the FILE argument; -1: the last)
STREAMS = {"fprintf": 0, "vfprintf": 0, "fputs": 1, "fputc": 1, "putc": 1,
           "fwrite": 3, "fputs_unlocked": 1, "fputc_unlocked": 1,
           "putc_unlocked": 1, "fputwc": 1, "fputws": 1, "fwprintf": 0}
WRITE_FLAGS = re.compile(r"\bO_(WRONLY|RDWR|CREAT|TRUNC|APPEND|TMPFILE)\b")
NAMES = set(ALWAYS) | OPENS | FOPENS | set(STREAMS)


def blank(src):
    """(code without comments, the same with string/char literal contents
    blanked); positions and newlines kept"""
    code = list(src)
    nostr = list(src)
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if src[k] != "\n":
                    code[k] = nostr[k] = " "
            i = j
        elif src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                code[k] = nostr[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                if src[k] != "\n":
                    nostr[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(code), "".join(nostr)


def functions(nostr):
    """[(start, end, name)] of the top-level brace blocks that are
    function bodies"""
    res = []
    depth = 0
    last = 0      # end of the previous top-level declaration
    start = None
    name = None
    for i, c in enumerate(nostr):
        if c == "{":
            if depth == 0:
                head = nostr[last:i]
                m = re.findall(r"\b([A-Za-z_]\w*)\s*\(", head)
                is_init = re.search(r"=\s*$", head) is not None
                name = m[0] if m and not is_init else None
                # the declarator: the first "name(" after the return type
                if m and not is_init:
                    mm = re.search(r"([A-Za-z_]\w*)\s*\([^;]*\)\s*$",
                                   re.sub(r"__attribute__\s*\(\(.*?\)\)", "",
                                          head, flags=re.S), re.S)
                    if mm:
                        name = mm.group(1)
                start = i
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                if name:
                    res.append((start, i, name))
                last = i + 1
                name = None
        elif c == ";" and depth == 0:
            last = i + 1
    return res


def args_of(code, nostr, open_paren):
    """the argument texts of the call whose "(" is at open_paren"""
    depth = 0
    parts = []
    cur = open_paren + 1
    for i in range(open_paren, len(nostr)):
        c = nostr[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                parts.append(code[cur:i])
                return [p.strip() for p in parts]
        elif c == "," and depth == 1:
            parts.append(code[cur:i])
            cur = i + 1
    return [p.strip() for p in parts]


def scan(srcdir):
    found = {}
    for dp, _, fs in os.walk(srcdir):
        for f in sorted(fs):
            if not f.endswith(".c"):
                continue
            path = os.path.join(dp, f)
            rel = os.path.relpath(path, srcdir)
            src = open(path, encoding="utf-8", errors="replace").read()
            code, nostr = blank(src)
            funcs = functions(nostr)
            for m in re.finditer(r"(?<![\w.>])([A-Za-z_]\w*)\s*\(", nostr):
                call = m.group(1)
                if call not in NAMES:
                    continue
                pos = m.start(1)
                fn = next((n for s, e, n in funcs if s < pos < e), None)
                if fn is None:
                    continue    # a declaration or a macro, not a call
                line = nostr.count("\n", 0, pos) + 1
                a = args_of(code, nostr, m.end() - 1)
                why = None
                if call in ALWAYS:
                    why = "always"
                elif call in OPENS:
                    flags = " ".join(a[1:3] if call.startswith("openat")
                                     else a[1:2])
                    if WRITE_FLAGS.search(flags):
                        why = "flags " + " ".join(flags.split())
                    elif "O_RDONLY" not in flags:
                        why = "flags not spelled out: " + flags
                elif call in FOPENS:
                    mode = a[1] if len(a) > 1 else ""
                    ms = re.findall(r'"([^"]*)"', mode)
                    if not ms or any(re.search(r"[wa+]", x) for x in ms):
                        why = "mode " + mode
                elif call in STREAMS:
                    k = STREAMS[call]
                    stream = a[k] if k < len(a) else "?"
                    if stream not in ("stdout", "stderr"):
                        why = "stream " + stream
                if why:
                    found.setdefault((rel, fn, call), []).append(
                        "%s:%d (%s)" % (rel, line, why))
    return found


def main():
    srcdir = sys.argv[1]
    found = scan(srcdir)
    if "--list" in sys.argv:
        for k in sorted(found):
            print(k, found[k])
        return 0
    nfail = 0
    for k in sorted(found):
        if k in ALLOWED:
            print("PASS: write path %s:%s %s: allowed: %s (%s)"
                  % (k[0], k[1], k[2], ALLOWED[k], ", ".join(found[k])))
        else:
            nfail += 1
            print("FAIL: write path %s:%s %s is not in the allow-list of "
                  "tests/hostile/writes.py: %s"
                  % (k[0], k[1], k[2], ", ".join(found[k])))
    for k in sorted(ALLOWED):
        if k not in found:
            nfail += 1
            print("FAIL: allow-list entry %s:%s %s (%s) no longer found in "
                  "the sources: remove it" % (k[0], k[1], k[2], ALLOWED[k]))
    # the control-file write: cgfs_write is the only function of the
    # source (cgfs*.c) that opens a file for writing below the hierarchy
    cw = [k for k in found if k[2] in OPENS | {"write"} and
          k[0].startswith("source/cgfs")]
    ok = sorted(cw) == [("source/cgfs_knobs.c", "cgfs_write", "openat"),
                        ("source/cgfs_knobs.c", "cgfs_write", "write")]
    print("%s: cgfs*.c open and write files only in cgfs_write (found %s)"
          % ("PASS" if ok else "FAIL", sorted(cw)))
    nfail += not ok
    return 1 if nfail else 0


sys.exit(main())
