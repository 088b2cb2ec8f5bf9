#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""churn_load.py - creates and removes cgroup v1 memory groups under a test
group while memcgtop watches it (helper of tests/live/churn.sh).

Usage: churn_load.py ROOT TOTAL SECONDS MOVER-PID PARKING STOPFILE

ROOT      the test group's directory; groups are made below it
TOTAL     how many groups to create (and remove) in all
SECONDS   spread the creations over about this long
MOVER-PID a process (started by the caller) that is moved into some groups
          through cgroup.procs and back to PARKING before they are removed
PARKING   the directory whose cgroup.procs the mover goes back to
STOPFILE  when this file exists, stop early (everything made is removed)

Units of 2 or 3 levels: ROOT/gN/s and, for every other unit, ROOT/gN/s/t.
Each unit lives for 0.2 .. 2.5 s so that memcgtop sees it in a few
iterations; every third unit has the mover moved into its deepest group
for part of its life.  At most ~40 units are alive at once.  Groups are
removed deepest first; an rmdir that fails (EBUSY while a task leaves) is
retried.  Prints one line of counts at the end: "made=N removed=N moves=N
errors=N" (errors: operations that failed for good); exit 0, or 1 when a
group could not be removed.
"""
import os
import random
import sys
import time

root, total, seconds, mover, parking, stopfile = sys.argv[1:7]
total = int(total)
seconds = float(seconds)
rnd = random.Random(int(os.environ.get("CHURN_SEED", "0")) or None)

made = removed = moves = errors = 0
alive = []          # [deadline, [dirs shallow..deep], moved_in]
unit = 0
t0 = time.monotonic()
per_group = seconds / max(total, 1)


def move(pid, d):
    global moves, errors
    try:
        with open(d + "/cgroup.procs", "w") as fh:
            fh.write(str(pid))
        moves += 1
        return True
    except OSError as e:
        errors += 1
        print("move %s to %s: %s" % (pid, d, e), file=sys.stderr)
        return False


def remove(u):
    global removed, errors
    dirs, moved = u[1], u[2]
    if moved:
        move(mover, parking)
    for d in reversed(dirs):
        for i in range(50):
            try:
                os.rmdir(d)
                removed += 1
                break
            except FileNotFoundError:
                break
            except OSError as e:
                if i == 49:
                    errors += 1
                    print("rmdir %s: %s" % (d, e), file=sys.stderr)
                time.sleep(0.01)


def reap(now, everything=False):
    keep = []
    for u in alive:
        if everything or u[0] <= now:
            remove(u)
        else:
            keep.append(u)
    alive[:] = keep


try:
    while made < total and not os.path.exists(stopfile):
        now = time.monotonic()
        reap(now)
        # pace: group number `made` is due at t0 + made * per_group
        due = t0 + made * per_group
        if now < due or len(alive) >= 40:
            time.sleep(min(0.02, max(0.001, due - now)))
            continue
        base = "%s/g%d" % (root, unit)
        dirs = [base, base + "/s"] + ([base + "/s/t"] if unit % 2 else [])
        ok = []
        for d in dirs:
            try:
                os.mkdir(d)
                ok.append(d)
                made += 1
            except OSError as e:
                errors += 1
                print("mkdir %s: %s" % (d, e), file=sys.stderr)
                break
        moved = False
        if ok and unit % 3 == 0:
            moved = move(mover, ok[-1])
        alive.append([now + rnd.uniform(0.2, 2.5), ok, moved])
        unit += 1
    # let the last ones live out their time, unless told to stop
    while alive and not os.path.exists(stopfile):
        reap(time.monotonic())
        time.sleep(0.02)
finally:
    reap(0, everything=True)
    print("made=%d removed=%d moves=%d errors=%d" % (made, removed, moves,
                                                     errors), flush=True)
sys.exit(0 if made == removed else 1)
