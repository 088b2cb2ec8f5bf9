#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fdlimit.sh - memcgtop keeps each group's directory open between refreshes,
# within RLIMIT_NOFILE (less 128 for everything else).  A tree with more
# groups than that must still be read whole and exactly: the directories
# beyond the budget are opened by path each refresh.
#
# The test tree /sys/fs/cgroup/memory/memcgtop-fdlimit-$$-$RANDOM: 12 groups
# m0..m11, each with 25 leaves l0..l24 (313 groups with the tree itself);
# leaf l7 of every group has memory.limit_in_bytes 64M, m3 has 32M.  memcgtop
# -b -F json -c path,limit -d 0.2 -n 4 runs under hard limits of 1024 (all
# kept), 200 (72 kept), 129 (1 kept) and 64 (no budget at all); every
# iteration must list exactly the 313 groups with their limits, nothing on
# stderr, exit 0.  Between iterations 2 and 3 a group (m5/l3) is removed and
# another (m5/new) made, so a swap under a parent whose directory may or may
# not be kept shows up at once.
#
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="live fdlimit"
CGM=/sys/fs/cgroup/memory
. "$here/lib.sh"
live_tree_setup fdlimit
T=$CGM/$TNAME

# mk: the tree as described above.
mk() {
	local m l
	[ -d "$T" ] && find "$T" -depth -type d -exec rmdir {} + 2>/dev/null
	mkdir "$T" || return 1
	for m in $(seq 0 11); do
		mkdir "$T/m$m" || return 1
		for l in $(seq 0 24); do
			mkdir "$T/m$m/l$l" || return 1
		done
		echo 64M >"$T/m$m/l7/memory.limit_in_bytes" || return 1
	done
	echo 32M >"$T/m3/memory.limit_in_bytes"
}

# The checker: reads memcgtop's JSON lines as they come, swaps m5/l3 for
# m5/new after the second, and checks every line against the tree.
cat >"$TMPD/check.py" <<'EOF'
import json, os, subprocess, sys

mc, base, tree, hard = sys.argv[1:5]
MAX = "max"
want = {"/" + tree: MAX}
for m in range(12):
    want["/%s/m%d" % (tree, m)] = 32 << 20 if m == 3 else MAX
    for l in range(25):
        want["/%s/m%d/l%d" % (tree, m, l)] = 64 << 20 if l == 7 else MAX
cmd = "ulimit -n %s && exec %s -b -F json -c path,limit -d 0.2 -n 4 /%s" % (
    hard, mc, tree)
p = subprocess.Popen(["bash", "-c", cmd], stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
ok = True
for it in range(1, 5):
    line = p.stdout.readline()
    if not line:
        print("FAIL: hard limit %s: memcgtop ended before iteration %d: %s"
              % (hard, it, p.stderr.read().strip()[:300]))
        ok = False
        break
    got = {g["path"]: g.get("limit") for g in json.loads(line)["groups"]}
    if got != want:
        print("FAIL: hard limit %s: iteration %d: missing %s, extra %s, "
              "wrong %s" % (hard, it, sorted(set(want) - set(got))[:5],
                            sorted(set(got) - set(want))[:5],
                            [k for k in want if k in got and got[k] != want[k]][:5]))
        ok = False
    if it == 2:
        os.rmdir(os.path.join(base, tree, "m5/l3"))
        os.mkdir(os.path.join(base, tree, "m5/new"))
        del want["/%s/m5/l3" % tree]
        want["/%s/m5/new" % tree] = MAX
if ok:
    print("PASS: hard limit %s: 4 iterations list exactly the %d groups and "
          "their limits (a swap between iterations 2 and 3 included)"
          % (hard, len(want)))
rc = p.wait(timeout=30)
err = p.stderr.read()
print(("PASS" if rc == 0 and err == "" else "FAIL") +
      ": hard limit %s: exit 0, nothing on stderr (exit %d, stderr %r)"
      % (hard, rc, err[:200]))
EOF

for hard in 1024 200 129 64; do
	mk || { fail "cannot make the test tree $T"; break; }
	python3 "$TMPD/check.py" "$MEMCGTOP" "$CGM" "$TNAME" "$hard" >"$TMPD/out" 2>&1
	tally "$TMPD/out"
done
live_tree_done
