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
#   edit dialog  e; Down Down Up in the knob table; Enter on soft, then
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
# nothing else is due (the keys begin after the second refresh, which
# comes a second after the start).
#
# Each check prints "PASS: ..." or "FAIL: ..." (the opens or the screen
# with it); the last line is "tui-noread: N passed, M failed"; exit 1 on any
# failure.  Without root, a writable v1 memory mount, tmux or strace:
# "SKIP: tui noread: REASON", exit 77 (CI=true: FAIL, exit 1).  The tmux
# server, the sleeper, the group and the temporary folder are removed on
# exit, also on failure or interrupt; only the pids the test started are
# killed.
NAME="tui noread"
TNAME=memcgtop-noread-$$-$RANDOM
TOOLS=strace
. "$(dirname "$0")/live.sh"
W=100 H=30

mkdir "$TROOT" "$TROOT/a" || abort "mkdir in $TROOT"
sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' sh "$TROOT/a" &
pids+=("$!")

start "$W" "$H" -- -d 60 "/$TNAME"
screen_wait s "/$TNAME" || abort "memcgtop did not start"
[ "$(readlink "/proc/$MPID/exe")" = "$(readlink -f "$MEMCGTOP")" ] ||
	abort "pid $MPID is not memcgtop"
# The second refresh, a second after the start (rates need two), is
# the last before the minute's: the keys below must not meet it.
screen_wait s "^Mem .* Scan [0-9][0-9.]*[kMG]?/s Steal" ||
	abort "no second refresh (the host's scan rate never shown)"
# select a, below the start
tm send-keys -t s Down

# quiet DESC SHOWN-REGEX DONE-REGEX KEYS...: with the view showing
# SHOWN-REGEX, the keys open no file until DONE-REGEX is on the screen.
quiet() {
	local desc=$1 shown=$2 done=$3 n
	shift 3
	screen_wait s "$shown" || { fail "$desc: the view did not open (/$shown/)"; return; }
	trace_start "$TMPD/trace" open,openat,openat2,statfs || return
	for k in "$@"; do
		case $k in
		lit:*) tm send-keys -t s -l "${k#lit:}" ;;
		*) tm send-keys -t s "$k" ;;
		esac
	done
	# The keys are taken in order: once the last one shows, all were.
	screen_wait s "$done" || fail "$desc: the keys had no effect (/$done/)"
	trace_stop
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
	"^┌ Edit /$TNAME/a " "^│ soft of /$TNAME/a \(now [^)]*\): 12M +│\$" \
	Down Down Up Enter lit:1 lit:2 lit:M BSpace lit:M
tm send-keys -t s Escape
screen_wait s "^cancelled" || fail "the edit dialog did not close"
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
