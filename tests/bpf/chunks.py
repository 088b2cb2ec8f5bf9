#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""chunks.py - the BPF collector's pass in chunks, with groups made and
removed between two chunks (helper of tests/live/chunks.sh).

  chunks.py resume START BPFDUMP    groups removed where a chunk stopped, and
                                    made before and after it
  chunks.py restart START BPFDUMP   every group of where a chunk stopped
                                    removed: the pass begins again
  chunks.py grow START BPFDUMP      more groups than the maps hold made
                                    mid-pass: the maps grow, the pass again

Each runs bpfdump -p -r with MEMCGTOP_BPF_CHUNK=0.001 (a nanosecond's
budget: one group per chunk, so "# chunk N" comes after the Nth group of
the pass) and changes the tree at chosen chunks.  START must be an empty
group; what a command makes below it stays for the caller to remove.
Prints PASS:/FAIL: lines.
"""
import os
import re
import subprocess
import sys

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


def parse_dump(lines):
    """bpfdump's record lines as dicts, names unescaped (bytes)."""
    recs = []
    for line in lines:
        head, _, name = line.partition(" name=")
        r = dict(kv.split("=", 1) for kv in head.split())
        r["name"] = re.sub(rb"\\x([0-9a-f]{2})",
                           lambda m: bytes([int(m.group(1), 16)]), name.encode())
        recs.append(r)
    return recs


class Dump:
    """bpfdump -p -r: one pass at each go(), the tree changed at chunks."""

    def __init__(self, bpfdump, start):
        env = dict(os.environ, MEMCGTOP_BPF_CHUNK="0.001")
        self.start = start
        self.p = subprocess.Popen([bpfdump, "-p", "-r", start], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, errors="replace")
        self.first = self.read({})

    def read(self, actions):
        """Reads one pass; actions[N]() runs when N chunks are read."""
        lines = []
        self.chunks_seen = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            if line.startswith("# chunk "):
                n = int(line.split()[2])
                self.chunks_seen.append(n)
                if n in actions:
                    actions[n]()
                self.send()
            elif line.startswith("# groups="):
                self.summary = dict(kv.split("=", 1) for kv in line[2:].split())
                return parse_dump(lines)
            else:
                lines.append(line)
        bad("bpfdump ended early (exit %s)" % self.p.wait())
        sys.exit(1)

    def send(self):
        self.p.stdin.write("\n")
        self.p.stdin.flush()

    def go(self, actions=None):
        self.send()
        return self.read(actions or {})

    def close(self):
        self.p.stdin.close()
        return self.p.wait()


def paths(recs, start):
    """Each record's path below START, from its level and pre-order (the
    group before it one level up is its parent), and its parent's id."""
    base = int(recs[0]["level"]) if recs else 0
    up = {}
    out = []
    for r in recs:
        rel = int(r["level"]) - base
        name = r["name"].decode(errors="replace")
        p = "." if rel == 0 else os.path.join(up[rel - 1][0], name) if rel > 1 else name
        up[rel] = (p, int(r["id"]))
        out.append((p, int(r["id"]), up[rel - 1][1] if rel > 0 else 0))
    return out


def once(f):
    """f, run at its first call only (a pass begun again pauses again)."""
    done = []

    def g():
        if not done:
            done.append(1)
            f()
    return g


def mk(start, *rel):
    for r in rel:
        os.mkdir(os.path.join(start, r))


def rm(start, *rel):
    for r in rel:
        os.rmdir(os.path.join(start, r))


def ino(start, rel):
    return os.stat(os.path.join(start, rel)).st_ino


def expect(what, recs, start, want):
    got = [p for p, _, _ in paths(recs, start)]
    check(got == want, "%s: the groups in pre-order %s%s"
          % (what, " ".join(want), "" if got == want else ", got " + " ".join(got)))


def parents_are_dirs(what, recs, start, ids):
    """Each record's parent (pre-order) is its directory's parent: ids maps
    the paths still there to their inodes, taken before any removal."""
    wrong = []
    for p, i, parent in paths(recs, start):
        if p == ".":
            continue
        up = os.path.dirname(p) or "."
        if ids.get(p) != i or ids.get(up) != parent:
            wrong.append(p)
    check(not wrong, "%s: every group's id and parent are its directory's and its "
          "parent directory's%s" % (what, "" if not wrong else ": not " + " ".join(wrong)))


def cmd_resume(start, bpfdump):
    tree = ["a", "a/a1", "a/a2", "b", "b/b1", "c", "c/c1", "d"]
    mk(start, *tree)
    ids = {".": os.stat(start).st_ino}
    ids.update((t, ino(start, t)) for t in tree)
    d = Dump(bpfdump, start)
    # The open's pass has no pause; the next ones do.
    recs = d.go()
    expect("a still tree", recs, start, ["."] + tree)
    check(d.summary.get("chunks") == str(len(tree) + 2) and d.chunks_seen ==
          list(range(1, len(tree) + 2)),
          "a still tree of %d groups: %d chunks, one group each, and one that finds the "
          "end (%s)" % (len(tree) + 1, len(tree) + 2, " ".join(
              "%s=%s" % kv for kv in sorted(d.summary.items()))))

    def made(*rel):
        mk(start, *rel)
        ids.update((r, ino(start, r)) for r in rel)

    # Chunk N stops after the Nth group of: . a a1 a2 b b1 c c1 d
    recs = d.go({
        # Where it stopped removed: on from its parent, after it.
        3: lambda: rm(start, "a/a1"),
        # It and its parent removed: on from the start, after a.
        4: lambda: rm(start, "a/a2", "a"),
        # Made below where it stopped and after it: in this pass; before
        # it (a new a, after d) at the end.
        6: lambda: made("b/b1/b1x", "b/bx", "a"),
        # Made in a subtree passed (b/b1: in the next pass), in this
        # pass's future (c/c0, after c1 however named), and one not walked
        # yet removed (d).
        8: lambda: (made("b/b1/late", "c/c0"), rm(start, "d")),
    })
    want = [".", "a", "a/a1", "a/a2", "b", "b/b1", "b/b1/b1x", "b/bx", "c",
            "c/c1", "c/c0", "a"]
    expect("groups removed and made between chunks", recs, start, want)
    old_a, new_a = recs[1]["id"], recs[-1]["id"]
    check(old_a != new_a and int(new_a) == ids["a"],
          "the a made again is a group of its own (ids %s, %s), after its elder siblings"
          % (old_a, new_a))
    check(d.summary.get("restarts") == "0",
          "removed where chunks stopped: no pass begun again (%s)" % d.summary.get("restarts"))
    ids_now = dict(ids)
    ids_now["a"] = int(old_a)
    parents_are_dirs("groups removed and made between chunks",
                     [r for r in recs if r is not recs[-1]], start, ids_now)
    # The next pass: the tree as it is, b/b1/late in its place.
    recs = d.go()
    want = [".", "b", "b/b1", "b/b1/b1x", "b/b1/late", "b/bx", "c", "c/c1", "c/c0", "a"]
    expect("the next pass", recs, start, want)
    parents_are_dirs("the next pass", recs, start, ids)
    check(d.close() == 0, "bpfdump exit 0")


def cmd_restart(start, bpfdump):
    chain = ["/".join("x%d" % j for j in range(1, i + 1)) for i in range(1, 19)]
    mk(start, *chain)
    d = Dump(bpfdump, start)
    # After chunk 19 it stopped at x18, 18 levels below the start: the 16
    # groups it keeps of where it stopped (x18 up to x3) all removed.
    recs = d.go({19: lambda: rm(start, *reversed(chain[2:]))})
    expect("every group kept of where a chunk stopped removed", recs, start,
           [".", "x1", "x1/x2"])
    check(d.summary.get("restarts") == "1" and d.summary.get("groups") == "3",
          "... the pass begun again from the start: restarts=1, groups=3 (%s)"
          % " ".join("%s=%s" % kv for kv in sorted(d.summary.items())))
    check(d.close() == 0, "bpfdump exit 0")


def cmd_grow(start, bpfdump):
    mk(start, "a", "b")
    d = Dump(bpfdump, start)
    cap = int(d.summary["capacity"])
    if cap > 20000:
        print("INFO: grow: the maps hold %d groups (the hierarchy's): not tried" % cap)
        d.close()
        return
    n = cap + 100
    names = ["g%d" % i for i in range(n)]
    # After the start and a: made below a, where the pass goes on.
    recs = d.go({2: once(lambda: mk(start, *("a/" + x for x in names)))})
    want = [".", "a"] + ["a/" + x for x in names] + ["b"]
    got = [p for p, _, _ in paths(recs, start)]
    check(got == want and int(d.summary["capacity"]) > n + 3,
          "%d groups made mid-pass past the maps' %d: they grew (%s) and every group "
          "came once, in order" % (n, cap, d.summary.get("capacity")))
    check(d.close() == 0, "bpfdump exit 0")
    rm(start, *("a/" + x for x in names))


def main():
    cmds = {"resume": cmd_resume, "restart": cmd_restart, "grow": cmd_grow}
    if len(sys.argv) != 4 or sys.argv[1] not in cmds:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    cmds[sys.argv[1]](sys.argv[2], sys.argv[3])
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
