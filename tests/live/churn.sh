#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# churn.sh - memcgtop watching a live cgroup v1 subtree in which ~1000 groups
# are created and removed while it runs.
#
# Usage (as root):  tests/live/churn.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
#
# The test tree /sys/fs/cgroup/memory/memcgtop-churn-$$-$RANDOM holds
# static/x for the whole run; churn_load.py makes and removes units
# gN/s (and gN/s/t for every other unit) below it, each living 0.2-2.5 s,
# and moves a sleep process into the deepest group of every third unit
# (cgroup.procs) and back out to the hierarchy root before removing it.
#
# 1. batch: memcgtop -b -F json -d 0.1 -n 300 /TREE during 1000 groups of
#    churn.  Exit 0, empty stderr, every line a JSON object, iterations
#    1..300, every row below /TREE with a path the test made (no stray or
#    garbled path), no duplicates, the static groups always present, the
#    churn seen.  Open descriptors after the churn equal those before it
#    (descriptors kept for removed groups are closed).
# 2. interactive: memcgtop -d 0.1 /TREE in a private tmux server (100x40)
#    during 20 s of the same churn: the header time keeps advancing (no gap
#    over 3.5 s), every tree row of every capture parses (eight value
#    fields in their columns, indentation, a name the test made; a capture
#    that falls between two writes of one update is looked at again 50 ms
#    later, and only what is still there counts), q exits with status 0,
#    stty sane afterwards.
#
# RSS bound (both parts): VmRSS sampled every 0.5 s; after a warm-up of 6 s
# it must stay within 512 KiB of the warm-up's largest value.  Why 512 KiB:
# at most 40 units (<= 123 groups) are alive at once, so the whole per-group
# working set is a few hundred KiB at most and malloc's high-water mark can
# move by less than that after warm-up (observed: under 100 KiB); a leak of
# the record of each removed group (~800 removed after warm-up, each a path,
# two samples of ~70 values and kept file names: > 640 bytes) or of a few
# KiB per iteration (~240 iterations after warm-up) goes past it.
#
# With an ASan build the RSS bound is skipped (a note line, not counted): ASan's
# quarantine keeps freed memory, so its RSS grows by design.
#
# Each check prints "PASS: ..." or "FAIL: ...", the last line is
# "live-churn: N passed, M failed"; exit 1 on any failure.  A host without
# root, a writable v1 memory mount, python3 or tmux prints "SKIP: ..." and
# exits 77 (with CI=true: FAIL and exit 1).  Everything the test creates
# (groups, processes, the tmux server, the temporary directory) is removed
# on exit, also on failure or interrupt; only the pids the test started are
# killed.
set -u
export LC_ALL=C.UTF-8 TZ=UTC
unset TMUX TMUX_PANE

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
MEMCGTOP=${MEMCGTOP:-$top/memcgtop}
case $MEMCGTOP in /*) ;; *) MEMCGTOP=$top/$MEMCGTOP ;; esac
CGM=/sys/fs/cgroup/memory
NITER=300
BOUND_KIB=512
WARMUP_S=6

NAME="live churn"
. "$here/lib.sh"
v1_host_ready
for tool in python3 tmux; do
	command -v "$tool" >/dev/null 2>&1 || cannot_run "$tool not installed"
done
if [ ! -x "$MEMCGTOP" ]; then
	fail "no binary at $MEMCGTOP (run make)"
	summary
	exit 1
fi

# ---- state and cleanup ------------------------------------------------------
TNAME=memcgtop-churn-$$-$RANDOM
TROOT=$CGM/$TNAME
. "$top/tests/lib/tmux.sh"
tmux_private churn
TMPD=
pids=()


cleanup() {
	[ -n "$TMPD" ] && : >"$TMPD/stop" 2>/dev/null
	clean_up "$TROOT"
}
trap_cleanup

abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TMPD=$(mktemp -d /tmp/memcgtop-churn.XXXXXX) || abort "mktemp failed"
mkdir -p "$TMPD/config" "$TMPD/home"
t_start=$SECONDS

# lines FILE: number of complete lines in FILE
lines() { wc -l <"$1" 2>/dev/null || echo 0; }
# wait_lines FILE N PID SECONDS: until FILE has N lines or PID is gone
wait_lines() {
	local i
	for ((i = 0; i < $4 * 20; i++)); do
		[ "$(lines "$1")" -ge "$2" ] && return 0
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
# nfds PID: number of open descriptors between refreshes: the fewest of 50
# counts 20 ms apart (a refresh holds one or two for a moment: a control
# file's, the BPF iterator's, a group's directory).
nfds() {
	local i n least=''
	for ((i = 0; i < 50; i++)); do
		n=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
		[ -z "$least" ] || [ "$n" -lt "$least" ] && least=$n
		sleep 0.02
	done
	echo "$least"
}

mkdir "$TROOT" "$TROOT/static" "$TROOT/static/x" || abort "mkdir $TROOT"
# The process moved in and out of churned groups.
sleep 600 &
mover=$!
pids+=("$mover")

# churn NAME TOTAL SECONDS: start churn_load.py; its pid in CHURN_PID
churn() {
	rm -f "$TMPD/stop"
	python3 "$here/churn_load.py" "$TROOT" "$2" "$3" "$mover" "$CGM" \
		"$TMPD/stop" >"$TMPD/$1.churn" 2>"$TMPD/$1.churn.err" &
	CHURN_PID=$!
	pids+=("$CHURN_PID")
}
# churn_done NAME: stop the churn (if still running) and check its counts
churn_done() {
	local i rc
	for ((i = 0; i < 200; i++)); do
		kill -0 "$CHURN_PID" 2>/dev/null || break
		sleep 0.05
	done
	: >"$TMPD/stop"
	wait "$CHURN_PID"
	rc=$?
	local counts
	counts=$(cat "$TMPD/$1.churn")
	if [ "$rc" = 0 ] && [[ $counts == *" errors=0" ]] &&
		[ -z "$(find "$TROOT" -mindepth 1 -maxdepth 1 -name 'g*')" ]; then
		pass "$1: churn made and removed every group ($counts)"
	else
		fail "$1: churn: exit $rc, $counts: $(head -c 300 "$TMPD/$1.churn.err")"
	fi
}

# rss_bound WHAT FILE: the RSS check, not for an ASan build (its quarantine
# keeps freed memory, so its RSS grows by design)
asan=''
grep -qa __asan_init "$MEMCGTOP" && asan=1
rss_bound() {
	if [ -n "$asan" ]; then
		echo "  note: $1: no RSS bound for an ASan build (its quarantine holds freed memory); the plain run checks it"
		return
	fi
	python3 "$here/churn_check.py" bound "$2" "$WARMUP_S" "$BOUND_KIB" \
		"$1" >"$2.bound" 2>&1 || fail "$1: RSS checker failed"
	tally "$2.bound"
}

# ---- 1. batch -------------------------------------------------------------------
echo "== batch: -b -F json -d 0.1 -n $NITER during 1000 groups of churn"
t1=$SECONDS
"$MEMCGTOP" -b -F json -d 0.1 -n "$NITER" "/$TNAME" >"$TMPD/b.out" 2>"$TMPD/b.err" &
mp=$!
pids+=("$mp")
python3 "$here/churn_check.py" rss "$mp" "$TMPD/b.rss" &
pids+=($!)
wait_lines "$TMPD/b.out" 2 "$mp" 20 || abort "memcgtop printed no iteration: $(head -c 300 "$TMPD/b.err")"
fd_before=$(nfds "$mp")
churn batch 1000 20
# The churn ends well before iteration 270; else it is stopped there.  Then
# a few iterations of the static tree only, and the descriptors are counted.
wait_lines "$TMPD/b.out" 270 "$mp" 80
churn_done batch
n=$(lines "$TMPD/b.out")
if wait_lines "$TMPD/b.out" $((n + 3)) "$mp" 10; then
	fd_after=$(nfds "$mp")
	if [ "$fd_after" = "$fd_before" ]; then
		pass "batch: open descriptors after the churn equal those before it ($fd_before)"
	else
		fail "batch: open descriptors: $fd_before before the churn, $fd_after after it (same 3 groups)"
	fi
else
	fail "batch: memcgtop ended before the descriptors after the churn could be counted"
fi
for ((i = 0; i < 600; i++)); do
	kill -0 "$mp" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$mp" 2>/dev/null; then
	fail "batch: memcgtop still running after 60 s more"
	kill -KILL "$mp"
fi
wait "$mp"
echo $? >"$TMPD/b.rc"
python3 "$here/churn_check.py" batch "$TNAME" "$TMPD/b.out" "$TMPD/b.err" \
	"$TMPD/b.rc" "$NITER" >"$TMPD/b.chk" 2>&1 || fail "batch: checker failed"
tally "$TMPD/b.chk"
rss_bound batch "$TMPD/b.rss"
echo "batch part: $((SECONDS - t1)) s"

# ---- 2. interactive ----------------------------------------------------------------
echo "== interactive: -d 0.1 in tmux during 20 s of churn"
t2=$SECONDS
PROMPT='churn-test$ '
tm new-session -d -s keeper -x 80 -y 24 'exec cat' || abort "cannot start tmux"
cmd="cd $(printf %q "$TMPD") || exit; env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home $(printf %q "$MEMCGTOP") -d 0.1 /$TNAME"
cmd+="; echo EXIT=\$?; stty -a >$TMPD/stty; exec env PS1=$(printf %q "$PROMPT") bash --norc --noprofile -i"
tm new-session -d -s scr -x 100 -y 40 "bash --norc --noprofile -c $(printf %q "$cmd")" ||
	abort "cannot start the tmux session"
ppid_=$(tm display -p -t scr '#{pane_pid}')
tp=
for ((i = 0; i < 200; i++)); do
	tp=$(pgrep -P "$ppid_" -x memcgtop)
	[ -n "$tp" ] && tm capture-pane -p -t scr | grep -q "^memcgtop [0-9:]*  every 0.1s" && break
	sleep 0.05
done
[ -n "$tp" ] || abort "memcgtop did not start in tmux: $(tm capture-pane -p -t scr | head -5)"
churn tui 1000 18
python3 "$here/churn_check.py" tui "$SOCK" scr "$tp" 20 "$TNAME" "$TMPD/t.rss" \
	>"$TMPD/t.chk" 2>&1 || fail "tui: checker failed"
tally "$TMPD/t.chk"
churn_done tui
tm send-keys -t scr -l q
for ((i = 0; i < 100; i++)); do
	tm capture-pane -p -t scr | grep -q '^EXIT=' && break
	sleep 0.05
done
ex=$(tm capture-pane -p -t scr | grep -m1 '^EXIT=')
if [ "$ex" = EXIT=0 ]; then
	pass "tui: q exits with status 0"
else
	fail "tui: q: expected EXIT=0 within 5 s, got '${ex:-nothing}'"
fi
for ((i = 0; i < 40; i++)); do kill -0 "$tp" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$tp" 2>/dev/null; then fail "tui: memcgtop $tp still there after q"; else pass "tui: the process is gone"; fi
for ((i = 0; i < 40; i++)); do [ -s "$TMPD/stty" ] && break; sleep 0.05; done
if grep -qw echo "$TMPD/stty" && grep -qw icanon "$TMPD/stty" && ! grep -qw -- -echo "$TMPD/stty"; then
	pass "tui: stty shows echo icanon after q"
else
	fail "tui: stty not sane after q: $(tr '\n' ' ' <"$TMPD/stty" 2>/dev/null | head -c 300)"
fi
rss_bound tui "$TMPD/t.rss"
echo "interactive part: $((SECONDS - t2)) s"

# ---- cleanup and its verification ---------------------------------------------------
started=("${pids[@]}")
cleanup
left=()
for p in "${started[@]}"; do
	kill -0 "$p" 2>/dev/null && left+=("$p")
done
if [ ! -e "$TROOT" ] && [ ${#left[@]} = 0 ] && [ ! -e "$TMPD" ] &&
	! tm has-session 2>/dev/null; then
	pass "cleanup: test tree, tmux server, temp dir and all ${#started[@]} started processes gone"
else
	fail "cleanup: left behind: $([ -e "$TROOT" ] && echo "$TROOT ")$([ -e "$TMPD" ] && echo "$TMPD ")pids ${left[*]}"
fi
echo "time: $((SECONDS - t_start)) s"
summary
