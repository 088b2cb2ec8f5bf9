#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# recreate.sh - live cgroup v1: a group removed and made again under the
# same name between two refreshes restarts its rates, even where its new
# counters are above the old ones.
#
# Usage (as root):  tests/live/recreate.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# The screen (tmux, -d 60, refreshed at once by setting the interval again
# with s, so nothing depends on timing) shows T/g with pgfault and pgfault
# per second:
#   1. g empty: pgfault 0, then after a refresh FLT/s 0.0 (a rate exists);
#   2. g removed and made again with a process in it (its exec faults
#      pages: pgfault > 0, above the old 0), a refresh: FLT/s must be "-",
#      not the new faults over the interval;
#   3. another refresh: FLT/s 0.0, the rates run again.
# Everything it makes is removed on exit; only its own pids are killed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live recreate"
. "$here/lib.sh"
live_tree_setup recreate
command -v tmux >/dev/null 2>&1 || cannot_run "tmux not installed"
. "$here/../lib/tmux.sh"
tmux_private recreate
pids=()
finish() {
	tmux_stop
	stop_pids "${pids[@]}"
	live_tree_cleanup
}
trap finish EXIT
abort() { fail "$NAME: $*"; finish; summary; exit 1; }
# refresh: the interval prompt (s, which holds the current value) refreshes
# at once when it is set
refresh() {
	tm send-keys -t scr -l s
	tm send-keys -t scr BSpace BSpace BSpace BSpace BSpace BSpace
	tm send-keys -t scr -l 60
	tm send-keys -t scr Enter
}

T=$CGM/$TNAME
mkdir "$T" "$T/g" || abort "cannot make $T/g"

# cell: "PGFAULT FLT/s" of g's row on the screen
cell() { tm capture-pane -p -t scr | awk '$NF == "g" { print $(NF - 2), $(NF - 1) }'; }
# wait_cell EXTENDED-REGEX: until g's cells match (up to 10 s)
wait_cell() {
	local i
	for ((i = 0; i < 200; i++)); do
		[[ $(cell) =~ $1 ]] && return 0
		sleep 0.05
	done
	return 1
}

cmd="env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home $(printf %q "$MEMCGTOP") -d 60 -c pgfault,pgfault_per_s,path /$TNAME; sleep 600"
tm new-session -d -s scr -x 100 -y 24 "bash --norc --noprofile -c $(printf %q "$cmd")" ||
	abort "cannot start tmux"
wait_cell '^0 (-|0\.0)$' || abort "the screen does not show g with pgfault 0: '$(cell)'"
pass "the screen shows g, pgfault 0"
refresh
if wait_cell '^0 0\.0$'; then
	pass "a refresh: g FLT/s 0.0"
else
	fail "a refresh: g shows '$(cell)', want '0 0.0'"
fi

rmdir "$T/g" && mkdir "$T/g" || abort "cannot make $T/g again"
sh -c 'echo $$ >"$1/cgroup.procs" && exec sleep 600' sh "$T/g" &
pids+=($!)
for ((i = 0; i < 200; i++)); do
	f=$(awk '$1 == "total_pgfault" { print $2 }' "$T/g/memory.stat")
	[ "${f:-0}" -gt 0 ] && break
	sleep 0.05
done
[ "${f:-0}" -gt 0 ] || abort "no page faults in the new $T/g"
refresh
if wait_cell '^[1-9][0-9.]*[kM]? '; then
	got=$(cell)
	if [ "${got#* }" = - ]; then
		pass "made again ($f faults, more than the old 0): FLT/s '-', no rate across the new group"
	else
		fail "made again: g shows '$got', want FLT/s '-' (a rate across two different groups)"
	fi
else
	fail "made again: the screen does not show the new g's faults: '$(cell)'"
fi
refresh
if wait_cell ' [0-9][0-9.]*[kM]?$'; then
	pass "next refresh: rates run again ($(cell))"
else
	fail "next refresh: g shows '$(cell)', want a rate"
fi

tm kill-server 2>/dev/null
stop_pids "${pids[@]}"
pids=()
live_tree_done
