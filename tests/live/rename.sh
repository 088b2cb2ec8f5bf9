#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# rename.sh - live cgroup v1: the start group is the group its path names.
# While memcgtop runs on T/s (limit 100M, a child c holding 64 MiB), s is
# renamed away and another s is made with a limit of 200M:
#   - batch (CSV, -d 0.2), with either collector: from two refreshes after
#     the rename on, every refresh shows one row, /T/s, with the new
#     group's limit (200M), usage under 1 MiB and anon 0 (no row of the old
#     group, no row mixing its page counter with the new group's
#     memory.stat);
#   - s renamed away with nothing made in its place (columns the BPF pass
#     carries alone): memcgtop exits 1 with the files collector's line,
#     "memcgtop: ROOT/T/s: No such file or directory";
#   - the screen (tmux) shows the new s's limit and no c.
# Usage (as root):  tests/live/rename.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live renamed start"
. "$here/lib.sh"
live_tree_setup rename
command -v tmux >/dev/null 2>&1 || cannot_run "tmux not installed"
. "$here/../lib/tmux.sh"
tmux_private rename
pids=()
finish() {
	tmux_stop
	stop_pids "${pids[@]}"
	live_tree_cleanup
}
trap finish EXIT
abort() { fail "$NAME: $*"; finish; summary; exit 1; }

gcc -O2 -static -o "$TMPD/memload" "$top/tests/load/memload.c" ||
	abort "cannot build memload"
T=$CGM/$TNAME
mkdir "$T" || abort "cannot make $T"

# fresh_start: T/s (limit 100M) with c in it holding 64 MiB; the old
# groups of an earlier round are removed first
fresh_start() {
	stop_pids "${pids[@]}"
	pids=()
	for d in "$T"/*/; do remove_tree "${d%/}"; done
	mkdir "$T/s" "$T/s/c" || abort "cannot make $T/s/c"
	echo 100M >"$T/s/memory.limit_in_bytes" || abort "cannot set the limit"
	start_load "$T/s/c" "$TMPD/memload"
}

# last_iter FILE: the highest iteration number in a CSV output
last_iter() { [ -e "$1" ] || { echo 0; return; }; awk -F, 'NR > 1 { i = $2 + 0 } END { print i + 0 }' "$1"; }
# wait_iter FILE N: until FILE holds iteration N (up to 20 s)
wait_iter() {
	local i
	for ((i = 0; i < 400; i++)); do
		[ "$(last_iter "$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

new_limit=$((200 << 20))
for col in files bpf; do
	fresh_start
	out=$TMPD/$col.csv err=$TMPD/$col.err
	"$MEMCGTOP" -b -n 0 -d 0.2 -F csv --collector "$col" \
		-c path,usage,limit,anon "/$TNAME/s" >"$out" 2>"$err" &
	mc=$!
	pids+=("$mc")
	wait_iter "$out" 2 || abort "$col: no second refresh: $(cat "$err")"
	mv "$T/s" "$T/s-old" && mkdir "$T/s" &&
		echo $new_limit >"$T/s/memory.limit_in_bytes" ||
		abort "cannot rename and make s again"
	i0=$(last_iter "$out")
	wait_iter "$out" $((i0 + 4)) || abort "$col: no refresh after the rename: $(cat "$err")"
	bad=$(awk -F, -v from=$((i0 + 2)) -v p="/$TNAME/s" -v lim=$new_limit '
		{ sub(/\r$/, "") }
		NR > 1 && $2 >= from {
			rows[$2]++
			if ($3 != p || $5 != lim || $4 >= 1048576 || $6 != 0) print
		}
		END { for (i in rows) if (rows[i] != 1) print "iteration " i ": " rows[i] " rows" }' "$out")
	if [ -z "$bad" ]; then
		pass "$col: after the rename every refresh shows the new /$TNAME/s alone, limit 200M, empty"
	else
		fail "$col: after the rename: $(echo "$bad" | head -3 | tr '\n' '|')"
	fi
	# renamed away, nothing in its place: the files collector's error,
	# also where no column needs a file of the group
	stop_pids "$mc"
	fresh_start
	# new files: the last run's would answer wait_iter at once
	out=$TMPD/$col-gone.csv err=$TMPD/$col-gone.err
	"$MEMCGTOP" -b -n 0 -d 0.2 -F csv --collector "$col" \
		-c path,usage,limit "/$TNAME/s" >"$out" 2>"$err" &
	mc=$!
	pids+=("$mc")
	wait_iter "$out" 2 || abort "$col: no second refresh: $(cat "$err")"
	mv "$T/s" "$T/s-gone" || abort "cannot rename s"
	for ((i = 0; i < 100; i++)); do
		kill -0 "$mc" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$mc" 2>/dev/null; then
		fail "$col: s gone: memcgtop still runs"
		stop_pids "$mc"
	else
		wait "$mc"
		rc=$?
		want="memcgtop: $CGM/$TNAME/s: No such file or directory"
		got=$(tail -1 "$err")
		if [ "$rc" = 1 ] && [ "$got" = "$want" ]; then
			pass "$col: s renamed away: exit 1, '$want'"
		else
			fail "$col: s renamed away: exit $rc, '$got' (want 1, '$want')"
		fi
	fi
done

# The screen: LIMIT of the row s (100.0M, then 200.0M), and c's row.
fresh_start
cmd="env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home $(printf %q "$MEMCGTOP") -d 0.2 -c limit,path /$TNAME/s; sleep 600"
tm new-session -d -s scr -x 100 -y 24 "bash --norc --noprofile -c $(printf %q "$cmd")" ||
	abort "cannot start tmux"
# rows: "LIMIT NAME" of the table's rows (s, c)
rows() {
	tm capture-pane -p -t scr |
		awk -v s="/$TNAME/s" '$NF == s || $NF == "c" { printf "%s %s|", $1, ($NF == "c" ? "c" : "s") }'
}
wait_rows() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(rows)" = "$1" ] && return 0
		sleep 0.05
	done
	return 1
}
if wait_rows "100M s|max c|"; then
	pass "screen: s at 100M with c"
else
	fail "screen: before the rename: '$(rows)', want '100M s|max c|'"
fi
mv "$T/s" "$T/s-old" && mkdir "$T/s" &&
	echo $new_limit >"$T/s/memory.limit_in_bytes" || abort "cannot rename and make s again"
if wait_rows "200M s|"; then
	pass "screen: after the rename, the new s at 200M, no c"
else
	fail "screen: after the rename: '$(rows)', want '200M s|'"
fi
tm kill-server 2>/dev/null
stop_pids "${pids[@]}"
pids=()
live_tree_done
