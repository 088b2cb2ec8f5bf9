#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""listing.py - tests/live/listing.sh's driver.

  listing.py MEMCGTOP MOUNT TREE

On a live cgroup v1 hierarchy, memcgtop re-lists a group's directory only
when its link count (2 + subdirectories) differs from its last listing or a
name of that listing has gone.  This changes the tree between two samples of
one batch run in the ways that keep every count the same, and checks that
the very next sample shows exactly the groups (and limits) that exist:

  swap        one subgroup removed and another made under the same parent
  anew        a subgroup removed and made again under the same name, with
              a different limit
  rename      a subgroup renamed (v1 allows it within its parent)
  deeper      a swap one level down, under a group that keeps its count
  child       a leaf gains a subgroup
  rename-tree a group with a subgroup renamed: both paths change
  limit       a limit changed in place (no listing involved)
  long        a swap at the bottom of 16 levels of 255-character names:
              paths beyond PATH_MAX, where a group of the listing made
              anew must still be known as walked (once shown twice)

TREE (made by the caller, removed by it) is empty when this starts.  Prints
PASS:/FAIL: lines; exit 0.
"""
import json
import os
import subprocess
import sys

import deeptree

MIB = 1 << 20
MAX = "max"


def out(ok, msg):
    print(("PASS: " if ok else "FAIL: ") + msg, flush=True)


def main():
    mc, mnt, tree = sys.argv[1:4]
    base = os.path.join(mnt, tree)

    def mk(rel):
        os.mkdir(os.path.join(base, rel))

    def rm(rel):
        os.rmdir(os.path.join(base, rel))

    def limit(rel, val):
        with open(os.path.join(base, rel, "memory.limit_in_bytes"), "w") as fh:
            fh.write(str(val))

    for rel in ("p", "p/a", "p/a/x", "p/b", "p/c", "q"):
        mk(rel)
    # expected: path below the tree -> limit as memcgtop prints it
    want = {"": MAX, "/p": MAX, "/p/a": MAX, "/p/a/x": MAX, "/p/b": MAX,
            "/p/c": MAX, "/q": MAX}

    # 16 levels of 255-character names, made and changed through
    # descriptors: their paths are longer than PATH_MAX.
    names = ["%02d" % i + "l" * 253 for i in range(16)]

    def bottom():
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
        for n in names:
            nfd = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = nfd
        return fd

    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    rel = ""
    for n in names:
        os.mkdir(n, dir_fd=fd)
        nfd = os.open(n, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = nfd
        rel += "/" + n
        want[rel] = MAX
    for n in ("x", "y"):
        os.mkdir(n, dir_fd=fd)
        want[rel + "/" + n] = MAX
    os.close(fd)
    longest = rel

    def swap():
        rm("p/b")
        mk("p/d")
        del want["/p/b"]
        want["/p/d"] = MAX

    def anew():
        rm("p/c")
        mk("p/c")
        limit("p/c", 8 * MIB)
        want["/p/c"] = 8 * MIB

    def rename():
        os.rename(os.path.join(base, "p/d"), os.path.join(base, "p/e"))
        del want["/p/d"]
        want["/p/e"] = MAX

    def deeper():
        rm("p/a/x")
        mk("p/a/y")
        del want["/p/a/x"]
        want["/p/a/y"] = MAX

    def child():
        mk("q/z")
        want["/q/z"] = MAX

    def rename_tree():
        os.rename(os.path.join(base, "q"), os.path.join(base, "r"))
        del want["/q"], want["/q/z"]
        want["/r"] = MAX
        want["/r/z"] = MAX

    def limit_in_place():
        limit("p/a", 16 * MIB)
        want["/p/a"] = 16 * MIB

    def long_swap():
        fd = bottom()
        os.rmdir("y", dir_fd=fd)
        os.mkdir("z", dir_fd=fd)
        os.close(fd)
        del want[longest + "/y"]
        want[longest + "/z"] = MAX

    # Two quiet samples first: from the second refresh on, control file
    # descriptors are kept too.
    steps = [("quiet", None), ("quiet", None), ("swap", swap),
             ("anew", anew), ("rename", rename), ("deeper", deeper),
             ("child", child), ("rename-tree", rename_tree),
             ("limit", limit_in_place), ("long", long_swap)]
    proc = subprocess.Popen([mc, "-b", "-F", "json", "-c", "path,limit",
                             "-d", "1", "-n", str(len(steps) + 1), "/" + tree],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    prefix = "/" + tree
    rows = 0
    try:
        line = proc.stdout.readline()
        for name, change in steps:
            if change:
                change()
            expect = {prefix + k: v for k, v in want.items()}
            line = proc.stdout.readline()
            if not line:
                out(False, "%s: memcgtop ended early: %s" %
                    (name, proc.stderr.read().strip()[:300]))
                return
            doc = json.loads(line)
            got = {g["path"]: g.get("limit") for g in doc["groups"]}
            rows = len(doc["groups"])
            out(got == expect and rows == len(expect),
                "%s: sample %d shows exactly the groups and limits that exist"
                % (name, doc["iteration"]) +
                ("" if got == expect else
                 " (missing %s, extra %s, wrong %s)" % (
                     sorted(set(expect) - set(got)),
                     sorted(set(got) - set(expect)),
                     sorted(k for k in expect if k in got and
                            got[k] != expect[k]))) +
                ("" if rows == len(expect) else
                 " (%d rows, %d groups)" % (rows, len(expect))))
        rc = proc.wait(timeout=30)
        err = proc.stderr.read()
        out(rc == 0 and err == "", "memcgtop exit 0, nothing on stderr "
            "(rc %d, stderr %r)" % (rc, err[:200]))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        # The shell's cleanup goes by path, too long for these.
        deeptree.remove(os.path.join(base, names[0]))


if __name__ == "__main__":
    main()
