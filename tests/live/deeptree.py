#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""deeptree.py - makes and removes chains of nested directories of any depth.

  deeptree.py make DIR DEPTH NAME [FILE=VALUE...]
  deeptree.py remove DIR

make: DIR/NAME/NAME/.../NAME, DEPTH levels (DIR exists).  Each level is made
with mkdirat() relative to the previous level's descriptor, so the cost of a
level does not grow with its path, and paths longer than PATH_MAX are no
obstacle.  With FILE=VALUE, every level gets a regular file FILE holding
VALUE with "{d}" replaced by the level (1 for DIR/NAME) and a newline: a
fixture; without, a live cgroup hierarchy brings its own files.

remove: DIR and everything below it, deepest first, without recursion and
without paths: a descriptor of the current directory goes down to the first
subdirectory and back up through "..".  Files are unlinked where that is
allowed (a fixture); cgroupfs' control files go with their directory.
Exit 0, or 1 with a message when something could not be removed.
"""
import errno
import os
import sys

DIRFLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def make(top, depth, name, files):
    fd = os.open(top, DIRFLAGS)
    try:
        for level in range(1, depth + 1):
            os.mkdir(name, dir_fd=fd)
            nfd = os.open(name, DIRFLAGS, dir_fd=fd)
            os.close(fd)
            fd = nfd
            for fname, value in files:
                wfd = os.open(fname, os.O_WRONLY | os.O_CREAT | os.O_EXCL |
                              os.O_CLOEXEC, 0o644, dir_fd=fd)
                os.write(wfd, (value.replace("{d}", str(level)) +
                               "\n").encode())
                os.close(wfd)
    finally:
        os.close(fd)


def first_subdir(fd):
    with os.scandir(fd) as it:
        for e in it:
            if e.is_dir(follow_symlinks=False):
                return e.name
    return None


def remove(top):
    if not os.path.lexists(top):
        return
    names = [os.path.basename(top.rstrip("/"))]
    fd = os.open(top, DIRFLAGS)
    while True:
        sub = first_subdir(fd)
        if sub is not None:
            nfd = os.open(sub, DIRFLAGS, dir_fd=fd)
            os.close(fd)
            fd = nfd
            names.append(sub)
            continue
        with os.scandir(fd) as it:
            plain = [e.name for e in it]
        for f in plain:
            try:
                os.unlink(f, dir_fd=fd)
            except OSError as e:
                if e.errno not in (errno.EPERM, errno.EACCES):
                    raise
        up = os.open("..", DIRFLAGS, dir_fd=fd)
        os.close(fd)
        fd = up
        os.rmdir(names.pop(), dir_fd=fd)
        if not names:
            os.close(fd)
            return


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "make":
        files = [a.split("=", 1) for a in sys.argv[5:]]
        make(sys.argv[2], int(sys.argv[3]), sys.argv[4], files)
    elif len(sys.argv) == 3 and sys.argv[1] == "remove":
        try:
            remove(sys.argv[2])
        except OSError as e:
            print("deeptree.py: remove %s: %s" % (sys.argv[2], e),
                  file=sys.stderr)
            return 1
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
