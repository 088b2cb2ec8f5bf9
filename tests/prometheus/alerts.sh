#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# alerts.sh - contrib/memcgtop-alerts.yml: promtool check rules accepts it
# as it is, and promtool test rules proves each alert on the /metrics that
# memcgtop --listen served in real runs.
#
# Usage (as root):  tests/prometheus/alerts.sh
#   MEMCGTOP   the binary to test (default: ./memcgtop of this checkout)
#   PORT_BASE  its ports: PORT_BASE + 1 and + 2 (default 19800)
#   CI=true    a host that cannot run the test is a failure, not a skip
#
# The live v1 run: /memcgtop-alerts-PID-N with thrash (limit 16M, soft 8M,
# rereads a 128 MiB file from 3 s before the first scrape: at its limit,
# refaulting, stalling in reclaim, over its soft limit), hog (limit 24M,
# asks for 64M of anonymous memory after the tenth scrape: OOM-killed) and
# idle; memcgtop --listen on it, /metrics scraped 18 times 5 s apart.  The
# v2 run: memcgtop --listen over each sample of the v2-live fixture.
# tests/prometheus/alerts_tests.py checks that the runs did what the
# expectations rest on and turns the scrapes into one promtool test per
# alert: a case where it fires (exactly its groups, labels and
# annotations) and one where it is silent; each test's copy that expects
# silence where the alert fires must fail.  The soft-limit alert's firing
# case has a soft_pgscan series the test makes (see alerts_tests.py).
# PASS:/FAIL: lines, then "prometheus-alerts: N passed, M failed"; SKIP
# (exit 77; CI=true: FAIL) when the host cannot run it.  Every process it
# starts is stopped by its pid; the groups and the temporary directory
# are removed on exit, also on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
NAME="prometheus alerts" DEFAULT_PORT_BASE=19800
. "$here/lib.sh"
RULES=$top/contrib/memcgtop-alerts.yml
prom_start alerts promtool python3 curl cc
python3 -c 'import yaml' 2>/dev/null || cannot_run "python3-yaml not installed"
P1=$((B + 1)) P2=$((B + 2))

out=$(promtool check rules "$RULES" 2>&1)
rc=$?
if [ $rc = 0 ] && printf '%s\n' "$out" | grep -qx '  SUCCESS: 5 rules found'; then
	pass "promtool check rules: 5 rules"
else
	fail "promtool check rules: exit $rc: $out"
fi

cc -O2 -o "$TMPD/memload" "$top/tests/load/memload.c" || cannot_run "cannot build memload"
dd if=/dev/urandom of="$TMPD/file" bs=1M count=128 oflag=direct status=none ||
	cannot_run "cannot write $TMPD/file"
mkdir "$CGM/$G" "$CGM/$G/thrash" "$CGM/$G/hog" "$CGM/$G/idle" ||
	cannot_run "cannot create $CGM/$G"
echo 16M >"$CGM/$G/thrash/memory.limit_in_bytes"
echo 8M >"$CGM/$G/thrash/memory.soft_limit_in_bytes"
echo 24M >"$CGM/$G/hog/memory.limit_in_bytes"

"$MEMCGTOP" --listen "127.0.0.1:$P1" "/$G" >"$TMPD/listen.log" 2>&1 &
pids+=($!)
for i in $(seq 100); do
	curl -sf "http://127.0.0.1:$P1/metrics" >/dev/null && break
	sleep 0.1
done
mkdir "$TMPD/v1" "$TMPD/v2" "$TMPD/tests"
# thrash at its limit before the first scrape: every alert's condition
# then holds from the first rate on, so that one held for its "for".
sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" file "$3" 150' sh \
	"$CGM/$G/thrash" "$TMPD/memload" "$TMPD/file" >"$TMPD/thrash.out" 2>&1 &
pids+=($!)
sleep 3
for i in $(seq 0 17); do
	[ "$i" = 0 ] || sleep 5
	curl -sf "http://127.0.0.1:$P1/metrics" >"$TMPD/v1/$i" ||
		fail "scrape $i of http://127.0.0.1:$P1/metrics: $(tail -1 "$TMPD/listen.log")"
	if [ "$i" = 9 ]; then
		sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" anon 64' sh \
			"$CGM/$G/hog" "$TMPD/memload" >"$TMPD/hog.out" 2>&1 &
		pids+=($!)
	fi
done

FIX=$top/tests/fixtures/v2-live
for k in 0 1 2 3 4; do
	"$MEMCGTOP" --listen "127.0.0.1:$P2" --root "$FIX/cg/$k" --proc "$FIX/proc/$k" \
		>"$TMPD/listen2.log" 2>&1 &
	p=$!
	for i in $(seq 100); do
		curl -sf "http://127.0.0.1:$P2/metrics" >"$TMPD/v2/$k" && break
		sleep 0.1
	done
	stop_pids "$p"
done

python3 "$here/alerts_tests.py" "$RULES" "$TMPD/tests" "/$G" "$TMPD/v1" "$TMPD/v2" \
	>"$TMPD/premises" 2>&1
tally "$TMPD/premises"
for t in "$TMPD"/tests/*-wrong.yml; do
	a=$(basename "$t" -wrong.yml)
	right=$TMPD/tests/$a.yml
	out=$(cd "$TMPD/tests" && promtool test rules "$right" 2>&1)
	if [ $? = 0 ]; then
		pass "promtool test rules: $a fires where it should, silent where it should"
	else
		fail "promtool test rules: $a: $out"
	fi
	out=$(cd "$TMPD/tests" && promtool test rules "$t" 2>&1)
	if [ $? = 1 ] && printf '%s\n' "$out" | grep -q "alertname: $a, "; then
		pass "promtool test rules: $a expected silent where it fires: rejected"
	else
		fail "promtool test rules: $a's wrong expectation not rejected: $out"
	fi
done
[ -e "$TMPD/tests/MemcgOOMKill.yml" ] || fail "no promtool tests written"
summary
