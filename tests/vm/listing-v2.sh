#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/vm/listing-v2.sh - memcgtop re-lists a live cgroup v2 group only when
# its subgroups may have changed (kernfs link count, a name gone), in the
# qemu test VM (tests/vm/vm.sh: Debian's 6.1 kernel, a pure cgroup v2
# hierarchy).  The v2 counterpart of tests/live/listing.sh (v1, host).
#
#   tests/vm/listing-v2.sh
#
# In the guest (busybox sh as root; +memory in the subtree_control of the
# root, /lst, p and p/a): the tree /lst with p, p/a, p/a/x, p/b, p/c and q.
# `memcgtop -b -F json -c path,limit -d 2 -n 9 /lst` runs; right after its
# k-th line appears, step k changes the tree (each change is done well
# within the 2 s interval), in the ways that keep every link count the same:
#
#   quiet           nothing (twice: from the second refresh on, descriptors
#                   are kept)
#   swap            p/b removed and p/d made (p's count unchanged)
#   anew            p/c removed and made again, memory.max 8388608
#   rename-refused  mv p/d p/e: v2 cannot rename a group, the kernel refuses
#                   (EPERM) and the tree stays as it is
#   deeper          p/a/x removed and p/a/y made, under a group that keeps
#                   its count
#   child           the leaf q gains q/z (+memory in q's subtree_control)
#   limit           p/a's memory.max set to 16777216 in place
#
# After each step the guest dumps the tree it holds (path and memory.max of
# every group below /lst) and logs the step (when line k was seen, when the
# change was done, memcgtop's line count then).  At the end it waits for
# memcgtop to exit and removes the tree, deepest first.
#
# Checks (host, python3): line k+1 shows EXACTLY the groups that exist after
# step k with their limits ("max" or a JSON integer), against a model of the
# tree computed here as tests/live/listing.py does (one line per step); the
# guest's own dumps equal that model; every change was done within 1 s of
# its line and before the next line; memcgtop printed iterations 1..9,
# exited 0 with an empty stderr; the mv was refused (non-zero exit) and
# changed nothing; the tree is gone afterwards.
#
# Run time: ~22 s (VM step ~21 s: boot ~4.5 s, memcgtop ~17 s), on 2 cores
# under TCG.
#
# Output: one "PASS: ..." / "FAIL: ..." line per check, then
# "listing-v2: N passed, M failed"; exit 0 when all pass, 1 otherwise.
# Without qemu, the kernel package or python3 (and no way to get them) it
# prints "SKIP: listing v2: REASON" and exits 77 -- unless CI=true, where
# that is a failure (exit 1).  A VM that does not boot is a failure.
#
# Environment:
#   MEMCGTOP            binary to test (default: REPO/memcgtop, rebuilt with
#                       make first)
#   LISTING_V2_TIMEOUT  VM timeout in seconds (default 120)
#   LISTING_V2_KEEP=1   keep the share folder (build/vm/listing-v2-share) for
#                       inspection (it is always kept on failure)
#   VM_BUILD, VM_VERBOSE  as for tests/vm/vm.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TMO=${LISTING_V2_TIMEOUT:-120}
STEPS="quiet quiet swap anew rename-refused deeper child limit"
t0=$(date +%s.%N)

NAME="listing v2"
. "$HERE/lib.sh"
[ "$(id -u)" = 0 ] || skip "not root (qemu's 9p share with security_model=none)"
vm_host_ready
vm_binary

share=$BUILD/listing-v2-share
rm -rf "$share"
mkdir -p "$share/out"

# ---------------------------------------------------------------- guest --
cat > "$share/guest.sh" <<EOF
MEMCGTOP=$bin
STEPS="$STEPS"
EOF
cat >> "$share/guest.sh" <<'EOF'
# runs in the VM (busybox sh as root), cwd = the 9p share
set -u
H=/mnt/host
CG=/sys/fs/cgroup
S=$CG/lst
O=$H/out
mp=
fail() {
	echo "GUEST-FAIL: $*"
	echo "$*" > $O/guest-fail
	[ -z "$mp" ] || kill -9 $mp 2>/dev/null
	exit 1
}
w() { echo "$2" > "$1" || fail "write $2 > $1"; }
mk() { mkdir $S/$1 || fail "mkdir $1"; }
rd() { rmdir $S/$1 || fail "rmdir $1"; }
note() { echo "guest: $*"; }
# $n: memcgtop's lines so far
count() { n=$(wc -l < $O/out.json 2>/dev/null); n=$((n + 0)); }
# $up: seconds since boot (no fork)
uptime_() { read -r up _ < /proc/uptime; }
# tree K: path (below the cgroup mount) and memory.max of every group
tree() {
	find $S -type d | sort | while read -r d; do
		read -r l < $d/memory.max || l=unreadable
		echo "${d#$CG} $l"
	done > $O/tree.$1
}
# waitline K: until out.json has K lines (memcgtop alive, bounded)
waitline() {
	i=0
	while :; do
		alive=1
		kill -0 $mp 2>/dev/null || alive=0
		count
		[ $n -ge $1 ] && return 0
		[ $alive = 1 ] || fail "memcgtop exited after $n lines, before line $1: $(head -c 300 $O/err)"
		i=$((i + 1))
		[ $i -le 600 ] || fail "line $1 never appeared in out.json ($n lines)"
		sleep 0.05
	done
}

uname -r > $O/uname
w $CG/cgroup.subtree_control +memory
mkdir $S || fail "mkdir $S"
w $S/cgroup.subtree_control +memory
mk p
w $S/p/cgroup.subtree_control +memory
mk p/a
w $S/p/a/cgroup.subtree_control +memory
mk p/a/x
mk p/b
mk p/c
mk q
tree 0

set -- $STEPS
$MEMCGTOP -b -F json -c path,limit -d 2 -n $(($# + 1)) /lst > $O/out.json 2> $O/err &
mp=$!
k=0
for step in $STEPS; do
	k=$((k + 1))
	waitline $k
	uptime_
	seen=$up
	case $step in
	quiet) ;;
	swap) rd p/b; mk p/d ;;
	anew) rd p/c; mk p/c; w $S/p/c/memory.max 8388608 ;;
	rename-refused)
		mv $S/p/d $S/p/e > $O/mv.out 2>&1
		echo $? > $O/mv.rc
		;;
	deeper) rd p/a/x; mk p/a/y ;;
	child) w $S/q/cgroup.subtree_control +memory; mk q/z ;;
	limit) w $S/p/a/memory.max 16777216 ;;
	*) fail "unknown step $step" ;;
	esac
	uptime_
	count
	echo "$k $step $seen $up $n" >> $O/steps.log
	tree $k
done
note "steps done: $(tr '\n' ';' < $O/steps.log)"

i=0
while kill -0 $mp 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 300 ]; then
		echo "memcgtop still running 30 s after the last step: killed" > $O/killed
		kill -9 $mp
		break
	fi
	sleep 0.1
done
wait $mp
echo $? > $O/rc
note "memcgtop exited $(cat $O/rc), $(wc -l < $O/out.json) lines"

# remove the tree, deepest first (once more after a pause if one was busy)
find $S -depth -type d -exec rmdir {} \; 2>/dev/null
if [ -e $S ]; then
	sleep 0.5
	find $S -depth -type d -exec rmdir {} \; 2> $O/rmdir.err
fi
[ -e $S ] && find $S -type d > $O/left
sync
echo "GUEST-OK"
EOF

# ------------------------------------------------------------------ run --
echo "== listing v2: -b -F json -c path,limit -d 2 /lst, steps: $STEPS"
set +e
vm_guest_run "$share" "$TMO"
grep '^guest:' "$share/console.log" | tr -d '\r'

# --------------------------------------------------------------- checks --
python3 - "$share/out" "$STEPS" "$HERE" <<'PYEOF'
import json
import sys

out, steps = sys.argv[1], sys.argv[2].split()
sys.path.insert(0, sys.argv[3])
import vmcheck  # noqa: E402

MIB = 1 << 20
MAX = "max"
c = vmcheck.Checks("listing-v2", out)
report, rd = c.report, c.rd


def diff(got, want):
    return "missing %s, extra %s, wrong %s" % (
        sorted(set(want) - set(got)), sorted(set(got) - set(want)),
        sorted("%s: %r not %r" % (k, got[k], want[k])
               for k in want if k in got and got[k] != want[k]))


def limit_of(s):
    return int(s) if s.isdigit() else s


print("  note: guest kernel %s" % (rd("uname") or "?").strip())

# The model: path -> limit as memcgtop prints it, changed step by step as
# the guest changes the tree.
want = {"/lst": MAX, "/lst/p": MAX, "/lst/p/a": MAX, "/lst/p/a/x": MAX,
        "/lst/p/b": MAX, "/lst/p/c": MAX, "/lst/q": MAX}


def apply(step):
    if step == "swap":
        del want["/lst/p/b"]
        want["/lst/p/d"] = MAX
    elif step == "anew":
        want["/lst/p/c"] = 8 * MIB
    elif step == "deeper":
        del want["/lst/p/a/x"]
        want["/lst/p/a/y"] = MAX
    elif step == "child":
        want["/lst/q/z"] = MAX
    elif step == "limit":
        want["/lst/p/a"] = 16 * MIB
    else:
        assert step in ("quiet", "rename-refused"), step


def tree(k):
    """the guest's dump after step k (0: before the first)"""
    t = rd("tree.%d" % k)
    if t is None:
        return None
    return {l.split()[0]: limit_of(l.split()[1]) for l in t.splitlines() if l.strip()}


docs, bad = [], []
for i, line in enumerate((rd("out.json") or "").splitlines()):
    try:
        docs.append(json.loads(line))
    except ValueError as e:
        bad.append("line %d: %s" % (i + 1, e))
n = len(steps) + 1
report(not bad and [d.get("iteration") for d in docs] == list(range(1, n + 1)),
       "memcgtop printed %d JSON lines, iterations 1..%d" % (n, n),
       "; ".join(bad[:3]) or "iterations %s" % [d.get("iteration") for d in docs])

log = {}
for l in (rd("steps.log") or "").splitlines():
    f = l.split()
    log[int(f[0])] = (f[1], float(f[2]), float(f[3]), int(f[4]))

tree_bad = [] if tree(0) == want else ["before: " + diff(tree(0) or {}, want)]
timing_bad, slowest = [], 0.0
for k, step in enumerate(steps, 1):
    apply(step)
    t = tree(k)
    if t != want:
        tree_bad.append("%s (%d): %s" % (step, k, diff(t or {}, want)))
    name, seen, done, lines = log.get(k, ("?", 0.0, 99.0, -1))
    slowest = max(slowest, done - seen)
    if name != step or lines != k or done - seen >= 1.0:
        timing_bad.append("%s (%d): logged %r, done %.2f s after line %d, "
                          "%d lines then" % (step, k, name, done - seen, k, lines))
    if k >= len(docs):
        report(False, "%s (step %d): sample %d shows exactly the groups and "
               "limits that exist" % (step, k, k + 1), "memcgtop printed only %d lines" % len(docs))
        continue
    got = {g.get("path"): g.get("limit") for g in docs[k].get("groups", [])}
    report(got == want, "%s (step %d): sample %d shows exactly the groups and "
           "limits that exist (%d groups)" % (step, k, docs[k].get("iteration"), len(want)),
           diff(got, want))
    if step == "rename-refused":
        mvrc = (rd("mv.rc") or "").strip()
        report(mvrc not in ("", "0"), "rename-refused: mv p/d p/e exited non-zero (%s: %s)"
               % (mvrc, (rd("mv.out") or "").strip()[:120]),
               "the kernel took the rename (exit %r)" % mvrc)
        report(t is not None and t == tree(k - 1) and "/lst/p/d" in t and "/lst/p/e" not in t,
               "rename-refused: the tree is unchanged (p/d still there, no p/e)",
               diff(t or {}, tree(k - 1) or {}))

report(not tree_bad, "the guest's tree after each step is the model's",
       "; ".join(tree_bad[:4]))
report(not timing_bad, "every change done within 1 s of its line, before the next "
       "(slowest %.2f s)" % slowest, "; ".join(timing_bad[:4]))
rc = (rd("rc") or "").strip()
err = rd("err") or ""
report(rc == "0" and not rd("killed"), "memcgtop exit 0", "exit %r %s" % (rc, (rd("killed") or "").strip()))
report(err == "", "memcgtop stderr empty", repr(err[:300]))
left = rd("left")
report(left is None, "cleanup: the test tree is gone", "left: %s %s" % (
    (left or "").split(), (rd("rmdir.err") or "").strip()[:200]))

c.finish()
PYEOF
prc=$?
echo "listing-v2: run time $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s (VM step $vmsecs s)" >&2
if [ "$prc" = 0 ] && [ "${LISTING_V2_KEEP:-0}" != 1 ]; then
	rm -rf "$share"
elif [ "$prc" != 0 ]; then
	echo "listing-v2: output kept in $share" >&2
fi
[ "$prc" = 0 ] || [ "$prc" = 1 ] || fail_early "the checker failed (status $prc)"
exit "$prc"
