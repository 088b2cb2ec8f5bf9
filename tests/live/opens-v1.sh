#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# opens-v1.sh - live cgroup v1: where the BPF pass names a group by its
# path and a file of it must be read (cgroup.procs for the procs column,
# of a group with a task), its directory is opened in one openat2()
# (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), not one component at a time (an
# openat and a close a level: 26 system calls for a group 12 levels down),
# and a group without a task is not opened at all: both were most of
# `-F json`'s cost at 8,192 groups.
#
# A chain T/l1/.../l8 (9 groups, 1 to 9 levels below the hierarchy's
# root), one process in l8.  Under strace -f -e trace=openat,openat2:
#   1  `memcgtop --collector bpf -b -F json -n 3 -d 0.1 -c path,procs /T`
#      exits 0, the JSON has 9 groups, l8's procs 1 and T's 0, each equal
#      to its cgroup.procs' lines;
#   2  no group directory below T is opened by openat (the component
#      walk's); l8's is opened by openat2, once a refresh; l1 to l7, which
#      hold no task, are not opened at all: the pass reads each group's
#      count of populated css_sets (cgroup.nr_populated_csets), and 0
#      means an empty cgroup.procs (cgroup.procs is opened only in l8 and
#      in the start group, whose own files are read);
#   3  a symbolic link planted in place of a group (l4/evil, to l5) is
#      not followed: `-c path,procs /T/l1/l2/l3/l4/evil` exits 1 with
#      "no such group" (openat2's ELOOP, as the walk's O_NOFOLLOW).
# Usage (as root):  tests/live/opens-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live opens (openat2)"
. "$here/lib.sh"
live_tree_start opens
command -v strace >/dev/null 2>&1 || cannot_run "strace not installed"
T=$CGM/$TNAME
d=$T
mkdir "$T" || abort "cannot make $T"
for i in 1 2 3 4 5 6 7 8; do
	d=$d/l$i
	mkdir "$d" || abort "cannot make $d"
done
sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' sh "$d" &
pids+=($!)
for i in $(seq 50); do
	[ -n "$(cat "$d/cgroup.procs")" ] && break	# cgroupfs files have size 0
	sleep 0.1
done
[ -n "$(cat "$d/cgroup.procs")" ] || abort "the sleeper is not in $d"

# LeakSanitizer cannot run under ptrace (an ASan build)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	strace -f -qq -e trace=openat,openat2 -o "$TMPD/st" \
	"$MEMCGTOP" --collector bpf -b -F json -n 3 -d 0.1 -c path,procs "/$TNAME" \
	>"$TMPD/out" 2>"$TMPD/err"
rc=$?
python3 - "$TMPD/out" "$T" "$TNAME" <<'EOF' >"$TMPD/chk"
import json, os, sys
out, top, name = sys.argv[1:4]
lines = [l for l in open(out) if l.strip()]
try:
    last = json.loads(lines[-1])
except Exception as e:
    print("bad", "invalid JSON: %s" % e)
    sys.exit()
groups = {g["path"]: g.get("procs") for g in last.get("groups", [])}
want = {}
p = "/" + name
d = top
want[p] = sum(1 for _ in open(os.path.join(d, "cgroup.procs")))
for i in range(1, 9):
    p += "/l%d" % i
    d = os.path.join(d, "l%d" % i)
    want[p] = sum(1 for _ in open(os.path.join(d, "cgroup.procs")))
print("groups", len(groups), len(lines), last.get("collector"))
print("procs", "ok" if groups == want else "differ: memcgtop %s, files %s" % (groups, want))
EOF
read -r _ ng nit col < <(grep '^groups' "$TMPD/chk")
procs=$(sed -n 's/^procs //p' "$TMPD/chk")
[ "$rc" = 0 ] && [ "${ng:-}" = 9 ] && [ "${nit:-}" = 3 ] && [ "${col:-}" = bpf ] &&
	pass "1: the bpf run under strace: exit 0, 3 refreshes of 9 groups" ||
	fail "1: exit $rc, $(cat "$TMPD/chk" "$TMPD/err" | tr '\n' ' ')"
[ "$procs" = ok ] && pass "1: every group's procs equals its cgroup.procs (l8: 1, the others 0)" ||
	fail "1: procs $procs"

# directory opens of the test's groups by openat, by openat2; cgroup.procs opens
walk=$(grep -E '^[0-9]+ +openat\(' "$TMPD/st" | grep O_DIRECTORY |
	grep -cE "\"(l[1-8]|$TNAME)\"")
l8=$TNAME/l1/l2/l3/l4/l5/l6/l7/l8
o8=$(grep -cE '^[0-9]+ +openat2\(.*"'"$l8"'"' "$TMPD/st")
omid=$(grep -E '^[0-9]+ +openat2\(.*"'"$TNAME"'/' "$TMPD/st" | grep -vcF "\"$l8\"")
procs_opens=$(grep -cE 'openat\(.*"cgroup.procs"' "$TMPD/st")
[ "$walk" = 0 ] && pass "2: no group directory below the start opened by openat one component at a time" ||
	fail "2: $walk directory opens of the test's groups by openat (the component walk): $(grep -E '^[0-9]+ +openat\(' "$TMPD/st" | grep O_DIRECTORY | grep -E "\"(l[1-8]|$TNAME)\"" | head -n 3 | tr '\n' ' ')"
[ "$o8" -ge 3 ] && pass "2: l8, the one group below the start with a task, opened in one openat2 a refresh ($o8 times)" ||
	fail "2: l8 opened by openat2 $o8 times (at least 3)"
[ "$omid" = 0 ] && [ "$procs_opens" -le $((o8 + 4)) ] &&
	pass "2: the groups without a task (l1 to l7) not opened: their cgroup.procs is empty by the pass's count of populated css_sets (cgroup.procs opened $procs_opens times: l8's and the start's)" ||
	fail "2: $omid openat2 opens of l1 to l7 (want 0: no task there), cgroup.procs opened $procs_opens times (want at most $((o8 + 4)): l8's and the start's): $(grep openat2 "$TMPD/st" | grep -vF "\"$l8\"" | sed 's/^[0-9]* *//' | head -n 3 | tr '\n' ' ')"

# 3: a symlink in place of a group
ln -s "$T/l1/l2/l3/l4/l5" "$T/l1/l2/l3/l4/evil" 2>/dev/null
if [ -L "$T/l1/l2/l3/l4/evil" ]; then
	"$MEMCGTOP" --collector bpf -b -F json -n 1 -c path,procs "/$TNAME/l1/l2/l3/l4/evil" \
		>"$TMPD/out3" 2>"$TMPD/err3"
	rc=$?
	[ "$rc" = 1 ] && grep -q "no such group" "$TMPD/err3" &&
		pass "3: a symlink in place of a group is not followed: exit 1, $(head -n 1 "$TMPD/err3")" ||
		fail "3: /…/l4/evil (a symlink): exit $rc, $(head -n 2 "$TMPD/err3" | tr '\n' ' ')"
	rm -f "$T/l1/l2/l3/l4/evil"
else
	echo "INFO: 3: cgroupfs refused the symlink (as kernfs does): nothing to follow"
fi
finish
live_tree_done
