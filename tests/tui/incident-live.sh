#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/incident-live.sh - the incident of issue 25 recorded on a live
# v1 host, then replayed: a tree of other tenants' groups with "leaky" deep
# inside (/TREE/tenants/initech/batch/jobs/leaky, memory and memory+swap
# limits 256M; three other tenants hold 32 MiB each, so that they come
# first in the tree), where python3 grows by 32 MiB a step to 192 MiB and then
# asks for 400 MiB at once: the OOM killer kills it.  memcgtop -b -n 0
# -d 0.5 --record DIR records the tree meanwhile and 2 s after.  The
# replay (memcgtop --root DIR, at 140x40 in a private tmux server, from
# the recording's start group) must reach leaky's detail pane with its
# OOM kill and its history in three keys: } (the last sample, the samples
# between read), o (the OOM pane: leaky's kill on its first row), Enter
# (leaky's detail: the History heading, usage near its 256M limit at
# some time, an OOM kill in the OOM kills row, the time axis).
#
# Usage (as root):  tests/tui/incident-live.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
# Without root, a writable v1 memory mount, python3 or tmux: "SKIP: ...",
# exit 77.  The tree, the tmux server and the temporary folder are removed
# on exit; only the pids the test started are stopped.
set -u
LC_ALL=C.UTF-8
export -n LC_ALL
export TZ=UTC
unset TMUX TMUX_PANE
CGM=/sys/fs/cgroup/memory
NAME="tui incident live"
. "$(dirname "$0")/../live/lib.sh"
command -v tmux >/dev/null 2>&1 || cannot_run "tmux not installed"
live_tree_setup incident
pids=()
. "$(dirname "$0")/../lib/tmux.sh"
tmux_private -S "$TMPD/tmux.sock"
cleanup() { clean_up "$CGM/$TNAME"; }
trap_cleanup
abort() {
	fail "setup: $*"
	cleanup
	summary
	exit 1
}

TREE=$CGM/$TNAME
LEAKY=/$TNAME/tenants/initech/batch/jobs/leaky
for g in acme/web/api acme/web/static acme/db globex/cron globex/etl/a \
	globex/etl/b initech/svc/tps initech/batch/jobs/report \
	initech/batch/jobs/index umbrella/lab/a umbrella/lab/b \
	$(for i in $(seq 1 30); do echo hooli/s$i; done); do
	mkdir -p "$TREE/tenants/$g" || abort "mkdir $g"
done
mkdir -p "$CGM$LEAKY" || abort "mkdir leaky"
echo 256M >"$CGM$LEAKY/memory.limit_in_bytes" || abort "leaky's limit"
if [ -e "$CGM$LEAKY/memory.memsw.limit_in_bytes" ]; then
	echo 256M >"$CGM$LEAKY/memory.memsw.limit_in_bytes" ||
		abort "leaky's memory+swap limit"
fi

# Other tenants' processes, holding 32 MiB each: their groups come first
# in the tree's order (by usage), leaky's below the first screen.
for g in hooli/s1 acme/web/api globex/etl/a; do
	sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "
import time
b = bytearray(32 << 20)
time.sleep(120)
"' sh "$TREE/tenants/$g" 2>/dev/null &
	pids+=("$!")
done
sleep 1

rec=$TMPD/rec
"$MEMCGTOP" -b -n 0 -d 0.5 --record "$rec" "/$TNAME" >/dev/null 2>"$TMPD/rec.err" &
recpid=$!
pids+=("$recpid")
sleep 2
sh -c 'echo $$ >"$1/cgroup.procs" && exec python3 -c "
import time
b = []
for _ in range(6):
    b.append(bytearray(32 << 20))
    time.sleep(0.5)
b.append(bytearray(400 << 20))
"' sh "$CGM$LEAKY" 2>/dev/null &
vp=$!
pids+=("$vp")
wait "$vp" 2>/dev/null
[ $? = 137 ] || abort "python3 in leaky was not OOM-killed"
sleep 2
kill -TERM "$recpid"
wait "$recpid" 2>/dev/null
[ -s "$TMPD/rec.err" ] && abort "--record: $(head -c 300 "$TMPD/rec.err")"
n=$(wc -l <"$rec/timestamps")
[ "$n" -ge 8 ] && pass "recorded $n samples" || abort "only $n samples recorded"

SCREEN=
settle() { screen_settle s; }
tm new-session -d -s s -x 140 -y 40 "cd $(printf %q "$TMPD") && env XDG_CONFIG_HOME=$TMPD/c HOME=$TMPD/h TERM=xterm-256color LANG=C.UTF-8 $(printf %q "$MEMCGTOP") --root $(printf %q "$rec") 2>$TMPD/err; exec cat" ||
	abort "tmux new-session"
wait_for s "  sample [12]/$n " 10
settle
grep -q 'leaky' <<<"$SCREEN" && fail "leaky is on the first screen (the test's premise)" ||
	pass "leaky is not on the first screen"
tm send-keys -t s '}'
settle
grep -q "sample $n of $n" <<<"$SCREEN" && pass "key 1 (}): the last sample" ||
	fail "key 1 (}): $(tail -1 <<<"$SCREEN")"
tm send-keys -t s o
settle
grep -A1 '^TIME' <<<"$SCREEN" | tail -1 | grep -qE " 256M $LEAKY\$" &&
	pass "key 2 (o): the OOM pane's first row is leaky's kill, at its 256M limit" ||
	fail "key 2 (o): $(sed -n '/^OOM kills seen/,$p' <<<"$SCREEN" | head -4 | tr '\n' '|')"
tm send-keys -t s Enter
settle
pane=$(sed -n '/^Detail of/,$p' <<<"$SCREEN")
grep -qxF "Detail of $LEAKY  (J/K scroll, d closes)" <<<"$pane" &&
	pass "key 3 (Enter): leaky's detail pane" ||
	fail "key 3 (Enter): $(head -2 <<<"$pane" | tr '\n' '|')"
grep -q '^History -5m\.\.now' <<<"$pane" && pass "its history heading" ||
	fail "no history heading: $(tr '\n' '|' <<<"$pane")"
grep -qE '^usage +.*[▆▇█].* +256M$' <<<"$pane" &&
	pass "usage reached near its 256M limit: $(grep '^usage' <<<"$pane" | tr -s ' ')" ||
	fail "usage row: $(grep '^usage' <<<"$pane")"
grep -qE '^OOM kills +[▁ ]*█[▁ ]* +1$' <<<"$pane" &&
	pass "one OOM kill in its history" ||
	fail "OOM kills row: $(grep '^OOM kills' <<<"$pane")"
grep -qE '^ +-5m +-2m30s +now$' <<<"$pane" && pass "the time axis" ||
	fail "no time axis"
tm send-keys -t s q
sleep 0.5
[ -s "$TMPD/err" ] && fail "standard error: $(head -c 300 "$TMPD/err")" ||
	pass "nothing on standard error"
stop_pids "${pids[@]}"
pids=()
tm kill-server 2>/dev/null
live_tree_done
