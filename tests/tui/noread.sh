#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# noread.sh - the screen reads the kernel when a view opens, when the
# selection changes and at each refresh, never to draw: keys that only move
# within a view open no file.
#
# Usage (as root):  tests/tui/noread.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# Builds /sys/fs/cgroup/memory/memcgtop-noread-$$-$RANDOM with the group a
# (one sleeping process in it), starts "memcgtop -d 60 /TREE" at 100x30 in a
# private tmux server, selects a, and for each view:
#
#   edit dialog  e; Down Down Up in the knob table; Enter on limit, then
#                the value typed (1 2 M, Backspace, M) in the prompt
#   detail pane  d; J J J K (scroll), then / # (the search line shows
#                that every key before it was taken)
#   process pane p; J K, / #
#
# opens the view, waits for it on the screen, attaches strace (-f -e
# trace=open,openat,openat2,statfs) to the running memcgtop, sends the keys,
# waits for their effect on the screen, detaches and counts the files
# opened (or statfs'd, as asking "is this a live hierarchy" did on every
# frame) in between: it must be 0.  The next refresh is a minute away, so
# nothing else is due.
#
# Each check prints "PASS: ..." or "FAIL: ..." (the opens or the screen
# with it); the last line is "tui-noread: N passed, M failed"; exit 1 on any
# failure.  Without root, a writable v1 memory mount, tmux or strace:
# "SKIP: tui noread: REASON", exit 77 (CI=true: FAIL, exit 1).  The tmux
# server, the sleeper, the group and the temporary folder are removed on
# exit, also on failure or interrupt; only the pids the test started are
# killed.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
CGM=/sys/fs/cgroup/memory
W=100 H=30

NAME="tui noread"
. "$here/../live/lib.sh"
v1_host_ready
for tool in tmux strace; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done

TNAME=memcgtop-noread-$$-$RANDOM
TROOT=$CGM/$TNAME
TMPD=
pids=()
cleaned=
tm() { tmux -S "$TMPD/tmux.sock" -f /dev/null "$@"; }
cleanup() {
	[ -n "$cleaned" ] && return
	cleaned=1
	[ -n "$TMPD" ] && tm kill-server 2>/dev/null
	stop_pids "${pids[@]}"
	remove_tree "$TROOT"
	[ -n "$TMPD" ] && rm -rf "$TMPD"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap 'cleanup; exit 129' HUP
SCREEN=""
fail() {
	echo "FAIL: $*"
	nfail=$((nfail + 1))
	[ -n "$SCREEN" ] && printf "%s\n" "$SCREEN" | sed "s/^/    |/"
}
abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-noread.XXXXXX) || abort "mktemp failed"
mkdir -p "$TMPD/config" "$TMPD/home"
[ -x "$MEMCGTOP" ] || abort "memcgtop binary $MEMCGTOP not found (run make)"
mkdir "$TROOT" "$TROOT/a" || abort "mkdir in $TROOT"
sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' sh "$TROOT/a" &
pids+=("$!")

cap() { tm capture-pane -p -t s 2>/dev/null; }
# wait_for EXTENDED-REGEX: polls up to 10 s until a screen line matches
wait_for() {
	local i
	for ((i = 0; i < 200; i++)); do
		SCREEN=$(cap)
		grep -qE -- "$1" <<<"$SCREEN" && return 0
		sleep 0.05
	done
	return 1
}

tm new-session -d -s s -x "$W" -y "$H" "bash --norc --noprofile -c $(printf %q "cd / && echo \$\$ >$TMPD/pid && exec env XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home TERM=xterm-256color LANG=C.UTF-8 $(printf %q "$MEMCGTOP") -d 60 /$TNAME; exec cat")" ||
	abort "tmux new-session"
wait_for "/$TNAME" || abort "memcgtop did not start"
MPID=$(cat "$TMPD/pid")
[ "$(readlink "/proc/$MPID/exe")" = "$(readlink -f "$MEMCGTOP")" ] ||
	abort "pid $MPID is not memcgtop"
# select a, below the start
tm send-keys -t s Down

# quiet DESC SHOWN-REGEX DONE-REGEX KEYS...: with the view showing
# SHOWN-REGEX, the keys open no file until DONE-REGEX is on the screen.
quiet() {
	local desc=$1 shown=$2 done=$3 spid i n
	shift 3
	wait_for "$shown" || { fail "$desc: the view did not open (/$shown/)"; return; }
	rm -f "$TMPD/trace"
	strace -f -qq -o "$TMPD/trace" -e trace=open,openat,openat2,statfs \
		-p "$MPID" 2>"$TMPD/strace.err" &
	spid=$!
	pids+=("$spid")
	for ((i = 0; i < 200; i++)); do
		[ "$(awk '/^TracerPid:/ { print $2 }' "/proc/$MPID/status")" = "$spid" ] && break
		sleep 0.05
	done
	[ "$i" -lt 200 ] || { fail "$desc: strace did not attach: $(head -n 1 "$TMPD/strace.err")"; return; }
	for k in "$@"; do
		case $k in
		lit:*) tm send-keys -t s -l "${k#lit:}" ;;
		*) tm send-keys -t s "$k" ;;
		esac
	done
	# The keys are taken in order: once the last one shows, all were.
	wait_for "$done" || fail "$desc: the keys had no effect (/$done/)"
	kill -INT "$spid"
	wait "$spid" 2>/dev/null
	n=$(grep -cE '(open(at2?)?|statfs)\(' "$TMPD/trace")
	if [ "$n" = 0 ]; then
		pass "$desc: no file opened"
	else
		SCREEN=''
		fail "$desc: $n files opened or statfs'd: $(grep -E '(open(at2?)?|statfs)\(' "$TMPD/trace" | sed -E 's/^[0-9]+ +//; s/^([a-z0-9]+)\([^"]*"([^"]*)".*/\1 \2/' | sort | uniq -c | sort -rn | head -n 5 | tr -s ' \n' '  ')"
	fi
}

tm send-keys -t s e
quiet "edit dialog: Down Down Up, Enter, typing the value" \
	"^Edit /$TNAME/a " "of /$TNAME/a \(now [^)]*\): 12M" \
	Down Down Up Enter lit:1 lit:2 lit:M BSpace lit:M
tm send-keys -t s Escape
wait_for "^cancelled" || fail "the edit dialog did not close"
# In a pane a search for what no group holds ends the keys: its line shows
# that they were all taken, and it moves no selection.
tm send-keys -t s d
quiet "detail pane: J J J K" "Detail of /$TNAME/a " "^Search: #" \
	J J J K / lit:#
tm send-keys -t s Escape
tm send-keys -t s p
quiet "process pane: J K" "Processes of /$TNAME/a: 1 " "^Search: #" \
	J K / lit:#
tm send-keys -t s Escape

cleanup
summary
