#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/kswapd.sh - the host's kswapd time (system kswapd_ms): the
# OpenMetrics counter memcgtop_system_kswapd_cpu_total lies between the sum
# of the kswapd threads' utime + stime (/proc/PID/stat, in ms) read just
# before and just after memcgtop; a recording keeps the threads' lines
# (proc/N/kswapd_stat) and its replay shows the same counter and the text
# header's "kswapd N ms/s".
# Usage (as root): tests/live/kswapd.sh; MEMCGTOP the binary (default
# ./memcgtop); CI=true: a host without kswapd threads fails, not skips.
set -u
NAME="live kswapd"
CGM=/sys/fs/cgroup/memory
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
live_tree_setup kswapd

# the kswapd threads' CPU time, ms, as memcgtop computes it
kswapd_ms() {
	local hz sum=0 p t
	hz=$(getconf CLK_TCK)
	for p in $(pgrep -x 'kswapd[0-9]+'); do
		# fields after the command's ')': state is 3, utime 14, stime 15
		t=$(sed 's/.*) //' "/proc/$p/stat" | awk '{ printf "%.0f\n", $12 + $13 }') || return 1
		sum=$((sum + t))
	done
	echo $((sum * 1000 / hz))
}
[ -n "$(pgrep -x 'kswapd[0-9]+')" ] || cannot_run "no kswapd thread"
before=$(kswapd_ms)
om=$("$MEMCGTOP" -b -n 1 -F openmetrics -c path / 2>"$TMPD/err")
rc=$?
after=$(kswapd_ms)
got=$(awk '$1 == "memcgtop_system_kswapd_cpu_total" { print $2 }' <<<"$om")
[ "$rc" = 0 ] && [ ! -s "$TMPD/err" ] && pass "openmetrics run: exit 0, nothing on stderr" ||
	fail "openmetrics run: rc $rc, stderr $(head -c 200 "$TMPD/err")"
if [ -n "$got" ] && [ "$got" -ge "$before" ] && [ "$got" -le "$after" ]; then
	pass "kswapd_ms_total $got within [$before, $after] from /proc/PID/stat"
else
	fail "kswapd_ms_total '$got' not within [$before, $after]"
fi
grep -q '^# TYPE memcgtop_system_kswapd_cpu counter$' <<<"$om" &&
	pass "a counter family" || fail "no counter family memcgtop_system_kswapd_cpu"

# A recording keeps the lines; the replay gives the same counter.
"$MEMCGTOP" -b -n 2 -d 0.2 -F openmetrics -c path --record "$TMPD/rec" / >"$TMPD/live.om" 2>"$TMPD/err" ||
	fail "record: $(head -c 200 "$TMPD/err")"
n=$(ls "$TMPD/rec/proc/0/kswapd_stat" "$TMPD/rec/proc/1/kswapd_stat" 2>/dev/null | wc -l)
[ "$n" = 2 ] && pass "the recording keeps proc/N/kswapd_stat of both samples" ||
	fail "recording: $n kswapd_stat files of 2"
if [ -f "$TMPD/rec/proc/0/kswapd_stat" ] &&
	awk '$2 !~ /^\(kswapd[0-9]+\)$/ { bad = 1 } END { exit bad }' "$TMPD/rec/proc/0/kswapd_stat"; then
	pass "kswapd_stat holds kswapd threads' stat lines only"
else
	fail "kswapd_stat: $(head -c 200 "$TMPD/rec/proc/0/kswapd_stat" 2>/dev/null)"
fi
"$MEMCGTOP" -b -F openmetrics -c path --root "$TMPD/rec" >"$TMPD/replay.om" 2>"$TMPD/err" ||
	fail "replay: $(head -c 200 "$TMPD/err")"
# the replay prints the recording's last sample
l=$(grep '^memcgtop_system_kswapd_cpu_total ' "$TMPD/live.om" | tail -1)
r=$(grep '^memcgtop_system_kswapd_cpu_total ' "$TMPD/replay.om" | tail -1)
[ -n "$l" ] && [ "$l" = "$r" ] && pass "replay: the same counter ($r)" ||
	fail "replay counter '$r', live '$l'"
"$MEMCGTOP" -b -c path --root "$TMPD/rec" 2>&1 | grep -qE '^Reclaim: .*  kswapd [0-9.]+ ms/s$' &&
	pass "replay: the text header's kswapd ms/s" || fail "replay: no kswapd in the text header"
live_tree_done
