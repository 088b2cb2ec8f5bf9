#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/tui/incident.sh - the incident of issue 25, replayed: a v1 group
# "leaky" deep in a tree of other tenants' groups
# (/tenants/initech/batch/jobs/leaky, limit 256M) grows by 32M a second
# until the OOM killer kills its process at sample 8 of 12; the tree has
# 52 other groups, larger ones first: leaky is not on the first screen.  From the screen's start (defaults
# but the size), at most three keys reach the offender's detail pane with
# its OOM kill and its history: } (the last sample: the samples between
# are read, so the OOM pane and the graphs have them), o (the OOM pane,
# its kill on the first row) and Enter (the detail pane of the newest
# kill's group, the folds above it open).
# With the default --history 300 at 100 columns a graph column is 3.75 s:
# samples 0-3, 4-7 and 8-11 are its last three columns, so usage (its
# limit the top) ends "▅█▂" and the OOM kills "▁▁█".
# The binary is $MEMCGTOP (default ./memcgtop).  Without tmux: SKIP, exit
# 77 (CI=true: a failure).
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="tui incident"
. "$here/tmux.sh"
. "$here/series.sh"

M=1048576
rec=$tmp/rec
LEAKY=/tenants/initech/batch/jobs/leaky
OTHERS="acme acme/web acme/web/api acme/web/static acme/db globex
globex/cron globex/etl globex/etl/stage1 globex/etl/stage2 initech
initech/batch initech/batch/jobs initech/batch/jobs/report
initech/batch/jobs/index initech/svc initech/svc/tps umbrella umbrella/lab
umbrella/lab/a umbrella/lab/b hooli $(for i in $(seq 1 30); do echo hooli/s$i; done)"
mkdir -p "$rec"
series_stamps "$rec" 12
for k in $(seq 0 11); do
	series_group "$rec/$k" usage=$((6144 * M))
	series_group "$rec/$k/tenants" usage=$((4096 * M))
	n=1
	for g in $OTHERS; do
		# Steady figures, each group its own; all above leaky's.
		series_group "$rec/$k/tenants/$g" usage=$(((300 + 37 * n) * M)) \
			limit=$((2048 * M))
		n=$((n + 1))
	done
	if [ "$k" -lt 8 ]; then
		use=$(((k + 1) * 32 * M)) kills=0
	else
		use=$((8 * M)) kills=1
	fi
	series_group "$rec/$k$LEAKY" usage=$use limit=$((256 * M)) \
		oom_kill=$kills failcnt=$((k * 100))
done

SCREEN=
settle() { screen_settle s; }
tm new-session -d -s s -x 100 -y 40 "cd $(printf %q "$tmp") && env -u LC_ALL XDG_CONFIG_HOME=$tmp/c HOME=$tmp/h TERM=xterm-256color LANG=C.UTF-8 TZ=UTC $(printf %q "$MEMCGTOP") --root $(printf %q "$rec") 2>$tmp/err; sleep 60"
wait_for s '  sample [12]/12 ' 10
settle
if grep -q 'leaky' <<<"$SCREEN"; then
	fail "leaky is not on the first screen (the test's premise)"
else
	pass "leaky is not on the first screen"
fi

# Key 1: the last sample.
tm send-keys -t s '}'
settle
grep -q 'sample 12 of 12' <<<"$SCREEN" && pass "key 1 (}): the last sample" ||
	fail "key 1 (}): not at the last sample: $(tail -1 <<<"$SCREEN")"
# Key 2: the OOM pane.
tm send-keys -t s o
settle
grep -qE "^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] +- \\? +- +256M $LEAKY\$" <<<"$SCREEN" &&
	pass "key 2 (o): the OOM pane's first row is leaky's kill" ||
	fail "key 2 (o): no kill of leaky: $(sed -n '/^OOM kills seen/,$p' <<<"$SCREEN" | tr '\n' '|')"
# Key 3: its detail.
tm send-keys -t s Enter
settle
pane=$(sed -n '/^Detail of/,$p' <<<"$SCREEN")
grep -qxF "Detail of $LEAKY  (J/K scroll, d closes)" <<<"$pane" &&
	pass "key 3 (Enter): leaky's detail pane" ||
	fail "key 3 (Enter): not leaky's detail pane: $(tr '\n' '|' <<<"$SCREEN")"
grep -qxF "History -5m..now  (scale at right: usage's limit or high, else the peak)" <<<"$pane" &&
	pass "its history is shown" || fail "no history: $(tr '\n' '|' <<<"$pane")"
want=$(printf '%-11s%77s%s %8s' usage "" '▅█▂' 256M)
grep -qxF "$want" <<<"$pane" && pass "usage: up to its 256M limit, then down after the kill" ||
	fail "usage row: want '$want': $(grep '^usage' <<<"$pane")"
want=$(printf '%-11s%77s%s %8s' 'OOM kills' "" '▁▁█' 1)
grep -qxF "$want" <<<"$pane" && pass "the OOM kill in the last column" ||
	fail "OOM kills row: want '$want': $(grep '^OOM' <<<"$pane")"
grep -qE "^ +-5m +-2m30s +now$" <<<"$pane" && pass "the time axis" ||
	fail "no time axis"
# The selection is on leaky in the tree (the folds above it open).
grep -qE '^ .* leaky$' <<<"$SCREEN" && pass "leaky's row is in the tree" ||
	fail "leaky's row is not shown"
tm send-keys -t s q
sleep 0.3
[ -s "$tmp/err" ] && fail "standard error: $(head -c 300 "$tmp/err")" || pass "nothing on standard error"
echo "tui-incident: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]
