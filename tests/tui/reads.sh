#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# reads.sh - the screen reads the files batch output reads for the same
# columns, and no more once a view that needed more is gone.
#
# Usage (as root):  tests/tui/reads.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds /sys/fs/cgroup/memory/memcgtop-reads-$$-$RANDOM with 8 groups of 3
# children each, then for each collector (the default, which is bpf as
# root on Linux 6.1+, and the files with MEMCGTOP_BPF_FAIL=perm):
#
#   batch       strace -f -e openat over "memcgtop -b -n 3 -d 0.3 /TREE"
#               (the overview, text's default): the control files it opens
#               in the tree's groups, by name;
#   screen      "memcgtop -d 0.3 /TREE" in a private tmux server, strace
#               attached for 1.5 s (about five refreshes): the same names,
#               and no others;
#   LRU, left   Tab Tab to the LRU set (memory.stat of every group opened),
#               then Shift-Tab Shift-Tab back to the overview: again the
#               batch names, and no memory.stat below the start group;
#   pane, shut  d on the first group, then d again: the batch names.
#
# A name is counted when it is opened in a group of the tree (strace -y
# names each descriptor's path; the files outside the tree, /proc and the
# terminal are not asked about), but the start group's memory.stat: the bpf
# collector reads it at start to prove its statistics' words (batch's
# trace has the start, the screen's not) and, where the columns need
# memory.stat values, once a refresh (the one stats flush).  Each check
# prints "PASS: ..." or "FAIL: ..."; the last line is "tui-reads: N
# passed, M failed"; exit 1 on any failure.  Without root, a writable v1
# memory mount, tmux or strace: "SKIP: tui reads: REASON", exit 77
# (CI=true: FAIL, exit 1).  The tmux server, the groups and the temporary
# folder are removed on exit, also on failure or interrupt; only the pids
# the test started are killed.
NAME="tui reads"
TNAME=memcgtop-reads-$$-$RANDOM
TOOLS=strace
. "$(dirname "$0")/live.sh"
W=120 H=40

mkdir "$TROOT" || abort "mkdir $TROOT"
for i in 0 1 2 3 4 5 6 7; do
	mkdir "$TROOT/g$i" "$TROOT/g$i/c0" "$TROOT/g$i/c1" "$TROOT/g$i/c2" ||
		abort "mkdir in $TROOT"
done

# names TRACE: the control files opened in the tree's groups, by name,
# sorted, one line (the descriptor an openat is relative to is a group's
# directory of the tree, strace -y says).
names() {
	grep -F "$TNAME" "$1" | grep -vF "$TNAME>, \"memory.stat\"" |
		sed -nE 's/.*openat\([^"]*"([^"]*)".*/\1/p' |
		grep -E '(^|/)(memory|cgroup)\.[a-z_.]+$' | sed 's|.*/||' |
		LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//'
}

# trace_for SECONDS OUT: the opens of the screen's memcgtop for that long.
trace_for() {
	trace_start "$2" openat || return 1
	sleep "$1"
	trace_stop
}

# same DESC TRACE: the screen opened what batch opened.
same() {
	local got
	got=$(names "$2")
	if [ "$got" = "$want" ]; then
		pass "$lab: $1: the files batch opens ('$got')"
	else
		SCREEN=''
		fail "$lab: $1: opened '$got', batch opens '$want'"
	fi
}

for lab in default files; do
	env=()
	[ "$lab" = files ] && env=(MEMCGTOP_BPF_FAIL=perm)
	# LeakSanitizer (an ASan build) refuses to run under ptrace: the
	# traced batch run checks opens, the other suites leaks.
	(cd / && env "${env[@]}" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		XDG_CONFIG_HOME="$TMPD/config" HOME="$TMPD/home" \
		strace -f -qq -y -o "$TMPD/batch" -e trace=openat \
		"$MEMCGTOP" -b -n 3 -d 0.3 "/$TNAME" >"$TMPD/batch.out" 2>&1) ||
		{ fail "$lab: batch run failed: $(head -n 3 "$TMPD/batch.out")"; continue; }
	want=$(names "$TMPD/batch")

	start "$W" "$H" "${env[@]}" -- -d 0.3 "/$TNAME"
	screen_wait s "g7" || { fail "$lab: memcgtop did not start"; continue; }
	[ "$(readlink "/proc/$MPID/exe")" = "$(readlink -f "$MEMCGTOP")" ] ||
		abort "pid $MPID is not memcgtop"
	screen_wait s "^Columns: overview" || fail "$lab: not on the overview"
	trace_for 1.5 "$TMPD/t1" && same "the overview" "$TMPD/t1"
	# The watermarks are the text header's, not the screen's: batch reads
	# /proc/zoneinfo each refresh, the screen never.
	if [ -s "$TMPD/t1" ]; then
		nb=$(grep -c 'zoneinfo' "$TMPD/batch")
		ns=$(grep -c 'zoneinfo' "$TMPD/t1")
		[ "$nb" -ge 3 ] && [ "$ns" = 0 ] &&
			pass "$lab: zoneinfo read by batch ($nb times), not by the screen" ||
			fail "$lab: zoneinfo: batch $nb, screen $ns"
	fi

	tm send-keys -t s Tab Tab
	if screen_wait s "^Columns: LRU"; then
		sleep 0.8
		tm send-keys -t s BTab BTab
		screen_wait s "^Columns: overview" || fail "$lab: not back on the overview"
		# The refresh the keys asked for goes first.
		sleep 0.6
		if trace_for 1.5 "$TMPD/t2"; then
			# The start's is the overview's one flush where the
			# pass gives v1 pgscan (SCAN/s).
			n=$(grep '"memory\.stat"' "$TMPD/t2" |
			    grep -vcF "$TNAME>, \"memory.stat\"")
			[ "$n" = 0 ] && pass "$lab: the LRU set left: no group's memory.stat opened but the start's" ||
				fail "$lab: the LRU set left: memory.stat opened $n times below the start"
			same "the LRU set left" "$TMPD/t2"
		fi
	else
		fail "$lab: Tab Tab did not show the LRU set"
	fi

	tm send-keys -t s Down d
	if screen_wait s "Detail of /$TNAME/"; then
		sleep 0.6
		tm send-keys -t s d
		for ((i = 0; i < 200; i++)); do
			SCREEN=$(cap s)
			grep -q "Detail of" <<<"$SCREEN" || break
			sleep 0.05
		done
		[ "$i" -lt 200 ] || fail "$lab: d did not shut the pane"
		sleep 0.6
		trace_for 1.5 "$TMPD/t3" && same "the detail pane shut" "$TMPD/t3"
	else
		fail "$lab: d did not open the detail pane"
	fi
	tm send-keys -t s q
done

cleanup
summary
