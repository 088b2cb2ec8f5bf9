#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# chunks.sh - the bpf collector's pass in chunks (each a read of the cgroup
# iterator, resuming where the one before stopped), on the live v1 host.
#
# Usage (as root):  tests/live/chunks.sh
#   BPFDUMP   the BPF collector's test tool (default: build/default/bpfdump)
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# MEMCGTOP_BPF_CHUNK=0.001 gives a chunk a nanosecond to record: one group
# each, so that every record comes from a chunk of its own and every
# boundary between two groups is one between two chunks.
#
# 1. A tree of 300 groups (limits, soft limits, swappiness, a 12-level
#    chain, 200 siblings): memcgtop -b -F csv -r with --collector bpf, one
#    group per chunk, prints exactly the rows --collector files prints
#    (paths, usage, limits, swappiness); bpfdump's records one group a
#    chunk (chunks > groups) and with the default budget equal those of
#    one read (MEMCGTOP_BPF_CHUNK=0), line for line.
# 2. tests/bpf/chunks.py, bpfdump -p pausing between chunks while the tree
#    changes: the group where a chunk stopped removed (the next goes on
#    from its parent, after it), it and its parent removed, groups made
#    below it, after it and in a subtree already passed, one not walked
#    yet removed: exactly the groups expected, once each, in pre-order,
#    with the right parents; every group kept of where a chunk stopped
#    removed: the pass begins again (restarts=1) and prints the tree once;
#    more groups than the maps hold made mid-pass: they grow, and the
#    pass is made again.
#
# PASS:/FAIL: lines, then "live-chunks: N passed, M failed"; exit 1 on any
# failure.  Not root, no writable v1 memory mount or no python3: SKIP
# (with CI=true: FAIL).  Everything it makes is removed on exit.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BPFDUMP=${BPFDUMP:-$top/build/default/bpfdump}
case $BPFDUMP in /*) ;; *) BPFDUMP=$top/$BPFDUMP ;; esac
CGM=/sys/fs/cgroup/memory
CHUNKS_PY=$top/tests/bpf/chunks.py

NAME="live chunks"
. "$here/lib.sh"
live_tree_setup chunks
[ -x "$BPFDUMP" ] || { fail "no bpfdump at $BPFDUMP (make $BPFDUMP)"; summary; exit 1; }

R=$CGM/$TNAME
COLS=path,usage,limit,soft,swap,kernel,swappiness
chain=$(printf 'c%d/' $(seq 12))
mkdir -p "$R/a/a1" "$R/b" "$R/$chain" "$R/wide" || { fail "cannot make $R"; summary; exit 1; }
for i in $(seq 200); do mkdir "$R/wide/w$i" || break; done
for i in $(seq 80); do mkdir "$R/b/b$i" || break; done
echo 256M >"$R/a/memory.limit_in_bytes" &&
	echo 128M >"$R/a/memory.soft_limit_in_bytes" &&
	echo 17 >"$R/a/a1/memory.swappiness" &&
	echo 64M >"$R/wide/w7/memory.limit_in_bytes" &&
	echo 3 >"$R/${chain}memory.swappiness" ||
	fail "cannot set the limits"
n=$(find "$R" -type d | wc -l)

# 1. The rows, one group a chunk, against the files collector's.
rows() {
	"$MEMCGTOP" -b -n 1 -F csv -r -c "$COLS" --collector "$1" "/$TNAME" 2>&1 |
		cut -d, -f3-
}
same=
for try in 1 2 3; do
	MEMCGTOP_BPF_CHUNK=0.001 rows bpf >"$TMPD/bpf.csv"
	rows files >"$TMPD/files.csv"
	# usage moves when the kernel frees or charges a group's own memory
	# between the two runs: a few tries
	cmp -s "$TMPD/bpf.csv" "$TMPD/files.csv" && { same=1; break; }
done
if [ -n "$same" ] && [ "$(wc -l <"$TMPD/bpf.csv")" = $((n + 1)) ]; then
	pass "--collector bpf one group a chunk: the $n rows of --collector files exactly (-c $COLS)"
else
	fail "bpf one group a chunk against files: $(diff "$TMPD/files.csv" "$TMPD/bpf.csv" | head -5)"
fi
MEMCGTOP_BPF_CHUNK=0.001 "$BPFDUMP" -w max,soft,swap_max,swappiness "$R" >"$TMPD/chunked" 2>&1
MEMCGTOP_BPF_CHUNK=0 "$BPFDUMP" -w max,soft,swap_max,swappiness "$R" >"$TMPD/whole" 2>&1
"$BPFDUMP" -w max,soft,swap_max,swappiness "$R" >"$TMPD/default" 2>&1
chunks=$(sed -n 's/.* chunks=\([0-9]*\).*/\1/p' "$TMPD/chunked")
# usage and the like move: the ids, parents, levels, limits and names.
strip() { grep -v '^#' "$1" | sed 's/ usage=[^ ]*//; s/ swap_usage=[^ ]*//; s/ kmem=[^ ]*//; s/ failcnt=[^ ]*//; s/ peak=[^ ]*//; s/ swap_peak=[^ ]*//'; }
if [ "${chunks:-0}" -gt "$n" ] && [ "$(strip "$TMPD/chunked" | wc -l)" = "$n" ] &&
   [ "$(strip "$TMPD/chunked")" = "$(strip "$TMPD/whole")" ]; then
	pass "bpfdump one group a chunk ($chunks chunks): the $n records of one read, line for line"
else
	fail "bpfdump chunked ($chunks chunks) against one read: $(diff <(strip "$TMPD/whole") <(strip "$TMPD/chunked") | head -5; tail -q -n 1 "$TMPD/chunked" "$TMPD/whole")"
fi
# How many chunks the default budget takes is the machine's speed: not
# judged, only that it gives the same records.
if [ "$(strip "$TMPD/default")" = "$(strip "$TMPD/whole")" ] &&
   grep -q "^# groups=$n .* restarts=0 " "$TMPD/default"; then
	pass "the default budget: the $n records of one read ($(tail -n 1 "$TMPD/default"))"
else
	fail "the default budget on $n groups: $(diff <(strip "$TMPD/whole") <(strip "$TMPD/default") | head -5; tail -n 1 "$TMPD/default")"
fi

# 2. The tree changed between chunks.
for cmd in resume restart grow; do
	mkdir "$R/$cmd" || fail "cannot make $R/$cmd"
	python3 "$CHUNKS_PY" "$cmd" "$R/$cmd" "$BPFDUMP" >"$TMPD/$cmd" 2>&1
	tally "$TMPD/$cmd"
	grep -q '^\(PASS\|FAIL\|INFO\):' "$TMPD/$cmd" || fail "chunks.py $cmd: $(cat "$TMPD/$cmd")"
done

live_tree_done
