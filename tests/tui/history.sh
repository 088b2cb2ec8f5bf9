#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/history.sh - the detail pane's history graphs on a recording
# of a known series, written by hand (series.sh): 8 samples 1 s apart of
# /app, limit 256M, usage 32M, 64M ... 256M; total_pgscan 100*k*k (so
# 100, 300 ... 1300 pages/s), total_pgsteal half of it, file refaults 10/s
# and one OOM kill at sample 6.  With --history 60 at 80 columns a graph is
# 60 columns of 1 s: the 8 samples are its last 8 columns.  The levels:
# a value v of a row whose top is T is block 1 + floor(6 v / T) (0 is the
# lowest block, no value a blank), so usage k+1 eighths of the limit is
# "▂▃▄▅▅▆▇█", and --ascii draws the same levels with "_.:-=+*#".
# Then t (one sample back): the graphs end at the sample shown.  H shows
# the history column of the sort column (usage), and of no other.  The
# binary is $MEMCGTOP (default ./memcgtop).  Without tmux: SKIP, exit 77
# (CI=true: a failure).
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="tui history"
. "$here/tmux.sh"
. "$here/series.sh"

M=1048576
rec=$tmp/rec
mkdir -p "$rec"
series_stamps "$rec" 8
for k in 0 1 2 3 4 5 6 7; do
	series_group "$rec/$k" usage=$((512 * M))
	series_group "$rec/$k/app" usage=$(((k + 1) * 32 * M)) \
		limit=$((256 * M)) pgscan=$((100 * k * k)) \
		pgsteal=$((50 * k * k)) refault=$((10 * k)) \
		oom_kill=$((k >= 6 ? 1 : 0))
done

SCREEN=
# start ARGS...: the recording at 80x40, played to its end (-d 0.2), /app
# selected and its detail pane open, once the screen stops changing
start() {
	local i prev
	tm kill-session -t s 2>/dev/null
	tm new-session -d -s s -x 80 -y 40 "cd $(printf %q "$tmp") && env -u LC_ALL XDG_CONFIG_HOME=$tmp/c HOME=$tmp/h TERM=xterm-256color LANG=C.UTF-8 $(printf %q "$MEMCGTOP") -d 0.2 --history 60 -c usage,limit,pgscan_per_s,pgsteal_per_s,ev_oom_kill,refault_file_per_s $* --root $(printf %q "$rec") 2>$tmp/err; sleep 60"
	for ((i = 0; i < 200; i++)); do
		tm capture-pane -p -t s | grep -q 'sample 8/8' && break
		sleep 0.05
	done
	tm send-keys -t s j
	tm send-keys -t s d
	settle
}
settle() {
	local i prev
	for ((i = 0; i < 30; i++)); do
		prev=$SCREEN
		sleep 0.15
		SCREEN=$(tm capture-pane -p -t s)
		[ "$SCREEN" = "$prev" ] && break
	done
}
# row DESC WANT: the screen has the line WANT exactly
row() {
	if grep -qxF -- "$2" <<<"$SCREEN"; then
		pass "$1"
	else
		fail "$1: no line '$2'; the pane: $(sed -n '/^Detail/,$p' <<<"$SCREEN" | tr '\n' '|')"
	fi
}
# graph LABEL CELLS TOP: label in 11 columns, 52 blanks, the 8 cells of
# the samples, the top in 9 columns
graph() {
	printf '%-11s%52s%s %8s' "$1" "" "$2" "$3"
}
gap() {	# the same, the graph shifted right by one (one sample back)
	printf '%-11s%53s%s %8s' "$1" "" "$2" "$3"
}
axis=$(printf '%11s-60s%24s-30s%25snow' "" "" "")

start
row "title" "Detail of /app  (J/K scroll, d closes)"
row "heading: the window, the scale" "History -60s..now  (scale at right: usage's limit or high, else the peak)"
row "usage against its limit, 256M" "$(graph usage '▂▃▄▅▅▆▇█' 256M)"
row "scan/s: none for the first sample, up to 1.3k" "$(graph scan/s ' ▂▃▄▅▆▇█' 1.3k)"
row "steal/s: the same shape, 650 at the top" "$(graph steal/s ' ▂▃▄▅▆▇█' 650)"
row "refault/s: steady 10/s" "$(graph refault/s ' ███████' 10.0)"
row "stall: no value at all" "stall ms/s not available in the window"
row "OOM kills: one at sample 6" "$(graph 'OOM kills' ' ▁▁▁▁▁█▁' 1)"
row "time axis" "$axis"
tm send-keys -t s t
settle
row "stepped back: usage ends at the sample shown" "$(gap usage '▂▃▄▅▅▆▇' 256M)"
row "stepped back: the kill is the last column" "$(gap 'OOM kills' ' ▁▁▁▁▁█' 1)"
tm send-keys -t s T
settle
row "forward again: all 8" "$(graph usage '▂▃▄▅▅▆▇█' 256M)"
tm send-keys -t s q
sleep 0.3
[ -s "$tmp/err" ] && fail "standard error: $(head -c 300 "$tmp/err")" || pass "nothing on standard error"

start --ascii
row "ascii: usage" "$(graph usage '.:-==+*#' 256M)"
row "ascii: scan/s" "$(graph scan/s ' .:-=+*#' 1.3k)"
row "ascii: OOM kills" "$(graph 'OOM kills' ' _____#_' 1)"
row "ascii: time axis" "$axis"

# The history column (H): usage, the sort column, over --history 10 in
# its 10 cells of 1 s: the 8 samples in the last 8, against the peak.
start --history 10
tm send-keys -t s d H
settle
row "H: the history column's title" "  ▼USAGE  LIMIT  SCAN/s STEAL/s OOMKILL   RFF/s    HISTORY GROUP"
row "H: /, steady at 512M" "    512M    max     0.0     0.0       0     0.0   ████████ ▾ /"
row "H: /app's usage, 32M to 256M" "    256M   256M    1.3k     650       1    10.0   ▂▃▄▅▅▆▇█     app"
tm send-keys -t s '>'
settle
row "H: another sort column: its values are not usage's" "    256M   256M    1.3k     650       1    10.0                app"

start --history 0
if grep -q '^History' <<<"$SCREEN"; then
	fail "--history 0: no graphs"
else
	grep -q '^Verdict' <<<"$SCREEN" && pass "--history 0: no graphs, the verdict first" ||
		fail "--history 0: no detail pane: $(tr '\n' '|' <<<"$SCREEN")"
fi
echo "tui-history: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
