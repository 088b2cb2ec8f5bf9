#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fallback.sh - live cgroup v1: --collector auto is never worse than files.
# Four memcgtops run on a small tree T (batch and screen, auto and bpf);
# then T grows to 17,500 groups with 250-byte names, more name bytes than
# the BPF maps hold (4 MiB), so the pass fails mid-run:
#   - auto, batch: goes on with the files collector, says so once on stderr
#     ("memcgtop: bpf collector: ...: more than the BPF maps hold ...; the
#     files collector from now on") and prints every group (CSV);
#   - auto, screen: the header says "files", the status line the reason, and
#     the clock (the time of the sample shown) goes on;
#   - bpf, batch: exits 1 with the reason;
#   - bpf, screen: does not freeze: the status line keeps the reason (past
#     a message's 5 s) and keys work; the clock stays at the last sample.
# Usage (as root):  tests/live/fallback.sh
#   MEMCGTOP  the binary to test (default: ./memcgtop of this checkout)
#   CI=true   a host that cannot run the test is a failure, not a skip
set -u
here=$(cd "$(dirname "$0")" && pwd)
CGM=/sys/fs/cgroup/memory
NAME="live auto fallback"
. "$here/lib.sh"
live_tree_setup fallback
command -v tmux >/dev/null 2>&1 || cannot_run "tmux not installed"
. "$here/../lib/tmux.sh"
tmux_private fallback
pids=()
N=17500
T=$CGM/$TNAME
# the big tree goes first, by python (a shell loop forks per group)
rm_big() {
	[ -d "$T/big" ] && python3 -c '
import os, sys
d = sys.argv[1]
for n in os.listdir(d):
    p = os.path.join(d, n)
    if os.path.isdir(p):
        os.rmdir(p)
' "$T/big"
}
finish() {
	tmux_stop
	stop_pids "${pids[@]}"
	rm_big
	live_tree_cleanup
}
trap finish EXIT
abort() { fail "$NAME: $*"; finish; summary; exit 1; }

mkdir "$T" "$T/big" || abort "cannot make $T/big"

# batch: CSV of path and usage, every 0.5 s
"$MEMCGTOP" -b -n 0 -d 0.5 -F csv -c path,usage "/$TNAME" \
	>"$TMPD/auto.csv" 2>"$TMPD/auto.err" &
auto=$!
pids+=("$auto")
"$MEMCGTOP" -b -n 0 -d 0.5 -F csv --collector bpf -c path,usage "/$TNAME" \
	>"$TMPD/bpf.csv" 2>"$TMPD/bpf.err" &
bpf=$!
pids+=("$bpf")
for s in auto bpf; do
	cmd="env -u LC_ALL -u LC_CTYPE TERM=xterm-256color LANG=C.UTF-8 XDG_CONFIG_HOME=$TMPD/config HOME=$TMPD/home $(printf %q "$MEMCGTOP") -d 0.5 --collector $s -c usage,path /$TNAME; sleep 600"
	if [ "$s" = auto ]; then
		tm new-session -d -s auto -x 200 -y 10 "bash --norc --noprofile -c $(printf %q "$cmd")"
	else
		tm new-session -d -s bpf -x 200 -y 10 "bash --norc --noprofile -c $(printf %q "$cmd")"
	fi || abort "cannot start tmux"
done
# header WINDOW: the screen's first line
header() { tm capture-pane -p -t "$1" | head -1; }
status() { tm capture-pane -p -t "$1" | tail -1; }
iters() { awk -F, 'NR > 1 { i = $2 + 0 } END { print i + 0 }' "$1" 2>/dev/null; }
for ((i = 0; i < 200; i++)); do
	[ "$(iters "$TMPD/auto.csv")" -ge 2 ] && [ "$(iters "$TMPD/bpf.csv")" -ge 2 ] &&
		[[ $(header auto) == *" bpf "* ]] && [[ $(header bpf) == *" bpf "* ]] && break
	sleep 0.1
done
[[ $(header auto) == *" bpf "* ]] || abort "the auto screen does not use bpf: $(header auto)"
pass "before: all four run with the bpf collector"

python3 -c '
import os, sys
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    os.mkdir(os.path.join(d, ("g%05d" % i).ljust(250, "x")))
' "$T/big" $N || abort "cannot make $N groups"
want=$((N + 2))
# until auto's CSV has an iteration with every group (up to 120 s)
# (the line being written, maybe cut short, left out: a torn iteration
# number once counted another iteration's rows)
rows_of_last() {
	head -n -1 "$1" | awk -F, 'NR > 1 { n[$2 + 0]++; if ($2 + 0 > l) l = $2 + 0 } END { print n[l - 1] + 0 }'
}
reason_re="bpf collector: [0-9]+ memory cgroups with [0-9]+ bytes of names: more than the BPF maps hold \\(65536, [0-9]+\\)"
# the auto screen's status line says why when it switches (a message
# lasts 5 s): watched meanwhile
seen=
for ((i = 0; i < 1200; i++)); do
	if [ -z "$seen" ] && [[ $(status auto) =~ $reason_re ]] &&
	   [[ $(header auto) == *" files "* ]]; then
		seen=$(status auto)
	fi
	[ -n "$seen" ] && [ "$(rows_of_last "$TMPD/auto.csv")" -ge $want ] && break
	kill -0 "$auto" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$auto" 2>/dev/null && [ "$(rows_of_last "$TMPD/auto.csv")" = $want ]; then
	pass "auto, batch: goes on, every one of the $want groups"
else
	fail "auto, batch: $(rows_of_last "$TMPD/auto.csv") rows, not $want; running: $(kill -0 "$auto" 2>/dev/null && echo yes || echo no); stderr: $(head -c 300 "$TMPD/auto.err")"
fi
if [ "$(wc -l <"$TMPD/auto.err")" = 1 ] &&
   grep -Eq "^memcgtop: $reason_re; the files collector from now on\$" "$TMPD/auto.err"; then
	pass "auto, batch: one line on stderr: $(cut -c1-120 "$TMPD/auto.err")..."
else
	fail "auto, batch: stderr is '$(head -c 300 "$TMPD/auto.err")'"
fi
for ((i = 0; i < 300; i++)); do
	kill -0 "$bpf" 2>/dev/null || break
	sleep 0.1
done
if kill -0 "$bpf" 2>/dev/null; then
	fail "bpf, batch: still running"
else
	wait "$bpf"
	rc=$?
	if [ "$rc" = 1 ] && grep -Eq "^memcgtop: $reason_re\$" "$TMPD/bpf.err"; then
		pass "bpf, batch: exit 1, the reason"
	else
		fail "bpf, batch: exit $rc, stderr '$(head -c 300 "$TMPD/bpf.err")'"
	fi
fi
# the screens: the auto one's header twice 3 s apart (the clock moves);
# the bpf one keeps the reason past a message's 5 s and takes keys
h1=$(header auto) t1=$(status bpf)
sleep 6
h2=$(header auto) t2=$(status bpf)
if [[ $h1 == *" files "* ]] && [ -n "$seen" ]; then
	pass "auto, screen: the files collector, the reason on the status line ($seen)"
else
	fail "auto, screen: header '$h1', status never said why"
fi
if [ "${h1:9:8}" != "${h2:9:8}" ] && [[ $h2 == *" files "* ]]; then
	pass "auto, screen: the clock goes on (${h1:9:8}, ${h2:9:8})"
else
	fail "auto, screen: the clock stopped: '$h1' then '$h2'"
fi
if [[ $t1 =~ $reason_re ]] && [[ $t2 =~ $reason_re ]]; then
	pass "bpf, screen: the reason stays on the status line"
else
	fail "bpf, screen: status '$t1' then, 6 s later, '$t2'"
fi
tm send-keys -t bpf -l s
for ((i = 0; i < 50; i++)); do
	[[ $(status bpf) == "Interval in seconds: "* ]] && break
	sleep 0.1
done
if [[ $(status bpf) == "Interval in seconds: "* ]]; then
	pass "bpf, screen: takes keys (s: the interval prompt)"
else
	fail "bpf, screen: s gives '$(status bpf)'"
fi
tm kill-server 2>/dev/null
stop_pids "${pids[@]}"
pids=()
rm_big
live_tree_done
