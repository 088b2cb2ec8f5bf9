#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# swap-v1.sh - the v1 swap figure and the v1 root's usage on the live host.
#
# Usage (as root):  tests/live/swap-v1.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# v1 swap is memory.memsw.usage_in_bytes - memory.usage_in_bytes, two files
# read one after the other; a group charged or uncharged in between shows
# the difference as swap.  The test makes a group /memcgtop-swap-PID-N with
# two children, each running a shell loop that writes 16 MiB to a file with
# dd and removes it (page cache charged and uncharged all the time), then
# samples it 300 times 0.05 s apart (-F csv -c path,swap), and the hierarchy
# root 300 times (--depth 0), whose figures the kernel makes from global
# page counts that move with every process of the host.
#   - A host without swap (SwapTotal 0 in /proc/meminfo): every swap value
#     is 0.  Before the fix about 1 row in 100 showed a phantom 100K-2M.
#   - A host with swap: every swap value is at most SwapTotal.
# The v1 root's usage (the kernel's global file + anon pages, plus the
# root's kmem counter) is not smaller than any of its children's, in each
# of 5 samples of the top level.
#
# Each check prints "PASS: ..." or "FAIL: ..."; the last line is
# "swap-v1: N passed, M failed"; exit 1 on any failure.  A host that cannot
# run it (not root, no writable v1 memory mount) prints "SKIP: ..." and
# exits 77 (with CI=true: FAIL, exit 1).  The groups, the loops (killed by
# pid) and the temporary directory are removed on exit.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
CGM=/sys/fs/cgroup/memory

NAME="swap v1"
. "$here/lib.sh"
v1_host_ready

T=memcgtop-swap-$$-$RANDOM
TMPD=
pids=()
cleanup() { clean_up "$CGM/$T"; }
trap_cleanup
abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-swap.XXXXXX) || abort "mktemp failed"
[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
total=$(awk '$1 == "SwapTotal:" { print $2 * 1024 }' /proc/meminfo)
[ -n "$total" ] || abort "no SwapTotal in /proc/meminfo"

mkdir -p "$CGM/$T/a" "$CGM/$T/b" || abort "cannot make $CGM/$T"
for c in a b; do
	sh -c 'echo $$ >"$1/cgroup.procs" || exit 1
	       while :; do
	               dd if=/dev/zero of="$2" bs=64k count=256 2>/dev/null
	               rm -f "$2"
	       done' sh "$CGM/$T/$c" "$TMPD/churn.$c" &
	pids+=($!)
done
# Both loops are charging before sampling starts (cgroupfs files have size
# 0: read them).
joined() { grep -q . "$CGM/$T/a/cgroup.procs" && grep -q . "$CGM/$T/b/cgroup.procs"; }
for _ in $(seq 100); do
	joined && break
	sleep 0.1
done
joined || abort "the churn loops did not join their groups"

# check_swap FILE WHAT: the CSV's swap column (time,iteration,path,swap).
check_swap() {
	local rows bad max
	rows=$(tail -n +2 "$1" | wc -l)
	read -r bad max < <(tr -d '\r' <"$1" | awk -F, -v t="$total" '
		NR > 1 && $4 != "" && $4 + 0 > m { m = $4 + 0 }
		NR > 1 && $4 != "" && ((t == 0 && $4 + 0 != 0) || $4 + 0 > t) { n++ }
		END { print n + 0, m + 0 }')
	if [ "$total" = 0 ]; then
		if [ "$rows" -ge "$3" ] && [ "$bad" = 0 ]; then
			pass "$2: no swap on a host without swap ($rows rows, all 0)"
		else
			fail "$2: $bad of $rows rows show swap (up to $max bytes) with SwapTotal 0 (want at least $3 rows, all 0)"
		fi
	elif [ "$rows" -ge "$3" ] && [ "$bad" = 0 ]; then
		pass "$2: swap at most SwapTotal $total ($rows rows, up to $max)"
	else
		fail "$2: $bad of $rows rows above SwapTotal $total (up to $max)"
	fi
}

"$MEMCGTOP" -b -n 300 -d 0.05 -F csv -c path,swap "/$T" >"$TMPD/group.csv" 2>"$TMPD/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$TMPD/err" ] || fail "group run: exit $rc, $(head -c 200 "$TMPD/err")"
check_swap "$TMPD/group.csv" "busy group /$T and its 2 children, 300 samples" 900

"$MEMCGTOP" -b -n 300 -d 0.05 -F csv -c path,swap --depth 0 >"$TMPD/root.csv" 2>"$TMPD/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$TMPD/err" ] || fail "root run: exit $rc, $(head -c 200 "$TMPD/err")"
check_swap "$TMPD/root.csv" "hierarchy root, 300 samples" 300

# The v1 root against its children, iteration by iteration.
"$MEMCGTOP" -b -n 5 -d 0.2 -F csv -c path,depth,usage --depth 1 2>"$TMPD/err" |
	tr -d '\r' >"$TMPD/top.csv"
out=$(awk -F, '
	NR == 1 { next }
	$4 == 0 { root[$2] = $5 }
	$4 == 1 && $5 + 0 > kid[$2] + 0 { kid[$2] = $5; who[$2] = $3 }
	END {
		for (i in root) {
			n++
			if (root[i] + 0 < kid[i] + 0)
				printf "iteration %s: / %s < %s %s\n", i, root[i], who[i], kid[i]
		}
		if (n != 5) print "iterations: " n + 0
	}' "$TMPD/top.csv")
if [ -z "$out" ] && [ ! -s "$TMPD/err" ]; then
	pass "v1 root usage is at least each child's, in 5 samples"
else
	fail "v1 root smaller than a child: $out $(head -c 200 "$TMPD/err")"
fi

summary
