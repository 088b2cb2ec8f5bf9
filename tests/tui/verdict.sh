#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/verdict.sh - the detail pane (d) opens with a verdict on the
# selected group: where it stands against its limit (or the fullest above
# it), its protection, whether and by whom it is reclaimed, the pressure,
# what keeps its anon in memory and its OOM kills.  Runs on the committed
# fixtures in a private tmux server (200x60, wide enough for no line to
# wrap); the lines are computed from the fixture's files by
# verdict_expect.py.  The binary is $MEMCGTOP (default ./memcgtop).
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="tui verdict"
. "$here/tmux.sh"
FIX=$top/tests/fixtures

# pane FIXTURE TABS NAME: the screen of the whole fixture after TABS presses
# of Tab, with the detail pane of the first group whose name holds NAME,
# once the second sample is shown and the pane has stopped changing
pane() {
	local d=$FIX/$1 tabs=$2 name=$3 i prev
	tm kill-session -t s 2>/dev/null
	tm new-session -d -s s -x 200 -y 60 "cd $(printf %q "$tmp") && env -u LC_ALL XDG_CONFIG_HOME=$tmp/c HOME=$tmp/h TERM=xterm-256color LANG=C.UTF-8 $(printf %q "$MEMCGTOP") -d 60 --root $(printf %q "$d/cg") --proc $(printf %q "$d/proc"); sleep 60"
	for ((i = 0; i < 200; i++)); do
		tm capture-pane -p -t s | grep -q '^memcgtop .*  sample 2/' && break
		sleep 0.05
	done
	for ((i = 0; i < tabs; i++)); do
		tm send-keys -t s Tab
	done
	tm send-keys -t s -l "/$name"
	tm send-keys -t s Enter
	tm send-keys -t s -l d
	for ((i = 0; i < 100; i++)); do
		SCREEN=$(tm capture-pane -p -t s)
		grep -q '^Detail of' <<<"$SCREEN" && break
		sleep 0.05
	done
	for ((i = 0; i < 30; i++)); do
		prev=$SCREEN
		sleep 0.1
		SCREEN=$(tm capture-pane -p -t s)
		[ "$SCREEN" = "$prev" ] && break
	done
}

# verdict FIXTURE TABS SET PATH: the pane of PATH in set SET (TABS from
# the overview) opens with exactly the expected verdict
verdict() {
	local fx=$1 tabs=$2 set=$3 path=$4 want got n next
	want=$(python3 "$here/verdict_expect.py" "$fx:$path:$set" "$FIX") || {
		fail "$fx $path: verdict_expect.py failed"; return; }
	n=$(wc -l <<<"$want")
	pane "$fx" "$tabs" "${path##*/}"
	if ! grep -qx "Detail of $path  (J/K scroll, d closes)" <<<"$SCREEN"; then
		fail "$fx $path: no detail pane of it: $(grep '^Detail' <<<"$SCREEN")"
		return
	fi
	got=$(sed -n '/^Verdict/,$p' <<<"$SCREEN" | sed -n "2,$((n + 1))p")
	next=$(sed -n '/^Verdict/,$p' <<<"$SCREEN" | sed -n "$((n + 2))p")
	if [ "$got" = "$want" ]; then
		pass "$fx $path ($set): the verdict's $n lines"
	else
		fail "$fx $path ($set): verdict differs: $(diff <(echo "$want") <(echo "$got") | tr '\n' '|')"
	fi
	# nothing more: the line after is the next section's
	case $next in
	"  effective protection"* | [!\ ]*) pass "$fx $path: no further verdict line" ;;
	*) fail "$fx $path: a further line: '$next'" ;;
	esac
}

# at its limit, reclaimed by it (direct only), with pressure
verdict v2-live 3 reclaim /fixture/work/reclaim
# at its limit and kswapd
verdict v2-live 3 reclaim /fixture/work/cache
# protected by memory.low, not scanned
verdict v2-live 0 overview /fixture/protected
# an OOM kill: the count known, the interval not (files read by the pane)
verdict v2-live 0 overview /fixture/oom
# v1: close to its limit, no pgscan without the events, no swap
verdict v1-live 0 overview /fixture/batch/cache
verdict v1-live 0 overview /fixture/batch/hog
echo "verdict: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
