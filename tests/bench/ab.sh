#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ab.sh OLD NEW [COUNT] - two memcgtop binaries, the same columns, the same
# tree: steady CPU per refresh of each and NEW/OLD.  As root, on the v1
# memory hierarchy.
#
# For a change that should not alter speed (a refactoring): make bench's
# ratios move with the columns a version reads, this holds them equal.
# It builds a COUNT-group tree (default 8192, tests/bench/tree.sh), then for
# $REPS rounds (default 5) runs each binary, alternately, with -n 2 and
# -n 12 at -d 0.05; per refresh = (cpu(12) - cpu(2)) / 10, user + sys of
# the process (wait4), medians over the rounds.  $COLS (default
# path,usage,limit,soft,swap) are the columns both are asked for: pick
# ones both versions know.  No timing is judged; the tree is removed on
# exit.
set -eu

[ $# -ge 2 ] || { echo "usage: ab.sh OLD NEW [COUNT]" >&2; exit 2; }
OLD=$1 NEW=$2 COUNT=${3:-8192}
REPS=${REPS:-5}
COLS=${COLS:-path,usage,limit,soft,swap}
HERE=$(cd "$(dirname "$0")" && pwd)
NAME=memcgtop-ab-$$
RAW=$(mktemp)

cleanup() { "$HERE/tree.sh" destroy "$NAME" >/dev/null 2>&1 || true; rm -f "$RAW"; }
trap cleanup EXIT INT TERM

for b in "$OLD" "$NEW"; do
	[ -x "$b" ] || { echo "ab.sh: $b: not an executable" >&2; exit 2; }
done
"$HERE/tree.sh" create "$NAME" "$COUNT" >/dev/null
# Warm both once (page cache, dentries).
for b in "$OLD" "$NEW"; do "$b" -b -n 1 -c "$COLS" "/$NAME" >/dev/null; done
# CPU of each run: the child's rusage (wait4), user + sys.
python3 - "$RAW" "$REPS" "$COLS" "/$NAME" "$OLD" "$NEW" <<'EOF'
import os, subprocess, sys
raw, reps, cols, tree, old, new = sys.argv[1:]
with open(raw, "w") as out:
    for _ in range(int(reps)):
        for b in (old, new):
            for k in (2, 12):
                p = subprocess.Popen([b, "-b", "-n", str(k), "-d", "0.05",
                                      "-c", cols, tree],
                                     stdout=subprocess.DEVNULL)
                _, status, ru = os.wait4(p.pid, 0)
                if status != 0:
                    sys.exit(f"ab.sh: {b} exited with status {status}")
                print(b, k, ru.ru_utime, ru.ru_stime, file=out)
EOF
python3 - "$RAW" "$OLD" "$NEW" "$COUNT" "$COLS" <<'EOF'
import collections, statistics, sys
raw, old, new, count, cols = sys.argv[1:]
cpu = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(raw):
    b, k, u, s = line.split()
    cpu[b][int(k)].append(float(u) + float(s))
med = {}
for b in (old, new):
    per = [(hi - lo) / 10 * 1000 for lo, hi in zip(cpu[b][2], cpu[b][12])]
    med[b] = statistics.median(per)
    print(f"{b}: steady CPU per refresh {med[b]:.1f} ms "
          f"(rounds: {', '.join(f'{x:.0f}' for x in per)})")
print(f"ratio new/old: {med[new] / med[old]:.2f}  ({count} groups, -c {cols})")
EOF
