#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# verdict-live.sh - the detail pane's verdict on a live v1 host, with the
# collector's figures: a group that reads a file larger than its limit
# (memory and memory+swap 32M) is at or close to its limit, reclaimed by
# its tasks (direct, kswapd 0) and by "its own limit";
# an idle sibling with no limit on its path is "Not reclaimed".
#
# Usage (as root):  tests/tui/verdict-live.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds /sys/fs/cgroup/memory/memcgtop-verdict-$$-$RANDOM with hot and
# idle, runs "memcgtop -d 1 /TREE" at 200x60 in a private tmux server and
# opens the pane of each.  The last line is "tui-verdict-live: N passed, M
# failed"; without root, a writable v1 memory mount or tmux: SKIP, exit 77
# (CI=true: FAIL).  The tmux server, the load (by pid), the group and the
# temporary folder are removed on exit.
NAME="tui verdict live"
TNAME=memcgtop-verdict-$$-$RANDOM
# on disk: the load's file is written with O_DIRECT
TMPBASE=/var/tmp
. "$(dirname "$0")/live.sh"
# A failure shows the detail pane of the screen last read.
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	[ -n "$SCREEN" ] && sed -n '/^Detail of/,$p' <<<"$SCREEN" | head -12 | sed "s/^/    |/"
}
mkdir "$TROOT" "$TROOT/hot" "$TROOT/idle" || abort "mkdir in $TROOT"
echo $((32 << 20)) >"$TROOT/hot/memory.limit_in_bytes" || abort "limit"
echo $((32 << 20)) >"$TROOT/hot/memory.memsw.limit_in_bytes" 2>/dev/null
# A file on disk, written past the page cache, read over and over inside
# hot: its page cache is charged to hot and reclaimed at hot's limit.
dd if=/dev/zero of="$TMPD/big" bs=1M count=96 oflag=direct status=none ||
	abort "dd"
sh -c 'echo $$ >"$1/cgroup.procs" && while :; do cat "$2" >/dev/null; done' \
	sh "$TROOT/hot" "$TMPD/big" &
pids+=($!)

# pane NAME: the detail pane of group NAME, once its reclaim line has a
# rate (two refreshes with the pane open)
pane() {
	local i
	tm send-keys -t s -l "/$1"
	tm send-keys -t s Enter
	tm send-keys -t s -l d
	for ((i = 0; i < 200; i++)); do
		SCREEN=$(cap s)
		grep -qx "Detail of /$TNAME/$1  (J/K scroll, d closes)" <<<"$SCREEN" &&
			grep -qE '^  (Reclaimed,|Not reclaimed)' <<<"$SCREEN" && break
		sleep 0.05
	done
	# one more refresh: the figures the pane added (the kswapd/direct
	# split) have their rates from the second refresh with it open
	sleep 1.5
	SCREEN=$(cap s)
	grep -qE '^  (Reclaimed,|Not reclaimed)' <<<"$SCREEN"
}
# pane_has DESC REGEX: a line of the screen last read matches
pane_has() {
	if grep -qE -- "$2" <<<"$SCREEN"; then
		pass "$1"
	else
		fail "$1: no line matches /$2/"
	fi
}

start 200 60 -- -d 1 "/$TNAME"
sleep 3	# the load reaches the limit
pane hot || fail "hot: no verdict with a reclaim line in 10 s"
N='[0-9.]+[kM]?'
# limit reclaim takes it a little below its limit between two readings
pane_has "hot: at or close to its limit of 32.0M" \
	"^  (At|Close to) its limit: usage [0-9.]+M of 32\.0M \((9[0-9]\.[0-9]|100\.0)%\)\.$"
pane_has "hot: reclaimed by its tasks, not kswapd" \
	"^  Reclaimed, it and its descendants: $N pages/s scanned, $N/s taken \([0-9]+%\); kswapd scanned 0\.0/s, allocating tasks \(direct\) $N/s\.$"
# memory+swap 32M is reached before memory 32M: memory.failcnt stays 0,
# and the verdict shows no hit rate of 0; the host does no global direct
# reclaim (/proc/vmstat pgscan_direct), so the tasks' scans are memcg
# reclaim, by its limit
pane_has "hot: by its own limit" "^  Reclaimed by: its own limit\.$"
# the scan rate is not 0
grep -qE "^  Reclaimed, it and its descendants: 0\.0 pages" <<<"$SCREEN" &&
	fail "hot: 0 pages scanned while reclaimed"
# the history's graphs below: the file read again and again refaults, and
# the refault row has it (the pane asks for the refaults while open)
pane_has "hot: the history's refault/s row has a rate above 0" \
	"^refault/s +[ ▁▂▃▄▅▆▇█]*[▁▂▃▄▅▆▇█] +[1-9][0-9.]*[kM]?$"
tm send-keys -t s -l d
sleep 0.3
pane idle || fail "idle: no verdict with a reclaim line in 10 s"
pane_has "idle: no limit on its path" \
	"^  No limit on its path: only the host's memory bounds it \(usage [0-9.]+[KM]?\)\.$"
pane_has "idle: not reclaimed" \
	"^  Not reclaimed in the interval: 0 pages scanned, it and its descendants\.$"
pane_has "idle: no limit hits claimed" "^  Not reclaimed"
grep -q "^  Reclaimed by" <<<"$(sed -n '/^Verdict/,/^[^ ]/p' <<<"$SCREEN")" &&
	fail "idle: a reclaimer named"
[ -s "$TMPD/err" ] && fail "standard error: $(head -c 300 "$TMPD/err")"
cleanup
[ -e "$TROOT" ] && fail "cleanup: $TROOT still there" || pass "cleanup: the test tree is gone"
summary
