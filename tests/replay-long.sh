#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/replay-long.sh - a recording of any length replays whole: a series of
# 100,001 samples (every line naming the same small slot, so the test stays
# cheap) gives 100,000 iterations, the last with the last sample's wall
# time; a malformed line, wherever it is in the file, is an error naming
# the file and the line, not a silent stop; a series of one sample (also
# a --record stopped after its first) prints that sample, rates not
# available.  The binary is $MEMCGTOP (default ./memcgtop).
set -u
cd "$(dirname "$0")/.."
. tests/count.sh
BIN=${MEMCGTOP:-./memcgtop}
FIX=tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

N=100001
mkdir "$tmp/rec"
cp -r "$FIX/edge-v2/cg/0" "$tmp/rec/0"
awk -v n=$N 'BEGIN { for (i = 0; i < n; i++)
	printf "%d %d 0\n", 100 + i, 1796000000 + i }' >"$tmp/rec/timestamps"

"$BIN" -b -n 0 -F csv -c usage --depth 0 --root "$tmp/rec" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
last=$(tail -n 1 "$tmp/out" | tr -d "\r")
lines=$(wc -l <"$tmp/out")
# Sample k has wall 1796000000 + k; iteration i shows sample i (CSV
# lines end in CRLF).
want_last="$(TZ=UTC date -u -d @$((1796000000 + N - 1)) +%Y-%m-%dT%H:%M:%SZ),$((N - 1)),3490709504"
if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$lines" = $N ] &&
	[ "$last" = "$want_last" ]; then
	pass "$N samples replay whole ($((N - 1)) iterations)"
else
	fail "$N samples: rc $rc, $lines lines, last '$last' (want '$want_last'), stderr: $(head -c 300 "$tmp/err")"
fi

# bad LINENO TEXT WANT: line LINENO of the long series replaced by TEXT
# fails at start-up with WANT, exit 1, before any output.
bad() {
	local n=$1 text=$2 want=$3 out err rc
	cp "$tmp/rec/timestamps" "$tmp/ts.good"
	sed -i "${n}s/.*/$text/" "$tmp/rec/timestamps"
	out=$("$BIN" -b -n 0 --root "$tmp/rec" 2>"$tmp/err")
	rc=$?
	err=$(cat "$tmp/err")
	mv "$tmp/ts.good" "$tmp/rec/timestamps"
	if [ $rc = 1 ] && [ -z "$out" ] && [ "$err" = "$want" ]; then
		pass "line $n '$text': $want"
	else
		fail "line $n '$text': rc $rc, stderr '$err' (want '$want'), $(printf %s "$out" | wc -l) lines out"
	fi
}
bad 99000 "99099 1796098999 x" \
	"memcgtop: $tmp/rec/timestamps: line 99000: malformed sample folder"
# The last line cut off: no newline after it.
cp "$tmp/rec/timestamps" "$tmp/ts.good"
truncate -s -4 "$tmp/rec/timestamps"
out=$("$BIN" -b -n 0 --root "$tmp/rec" 2>"$tmp/err")
rc=$?
want="memcgtop: $tmp/rec/timestamps: line $N: truncated (no newline at its end)"
if [ $rc = 1 ] && [ -z "$out" ] && [ "$(cat "$tmp/err")" = "$want" ]; then
	pass "the last line cut off: $want"
else
	fail "the last line cut off: rc $rc, stderr '$(cat "$tmp/err")' (want '$want')"
fi
mv "$tmp/ts.good" "$tmp/rec/timestamps"
bad 70000 "70099.5 1796069999 0 junk" \
	"memcgtop: $tmp/rec/timestamps: line 70000: malformed sample folder"
bad 50000 "5 1796049999 0" \
	"memcgtop: $tmp/rec/timestamps: line 50000: expected a monotonic time in seconds, increasing"

# ---- a recording of one sample ------------------------------------------------
# A series of N samples prints N - 1 iterations, each with its rates; one
# sample (a --record stopped right after its first) prints that sample
# once, as the screen shows it: rates and the interval not available.
mkdir "$tmp/one"
cp -r "$FIX/edge-v2/cg/0" "$tmp/one/0"
W1=1796000042
printf '100.5 %d 0\n' $W1 >"$tmp/one/timestamps"
T1=$(date -u -d @$W1 +%Y-%m-%dT%H:%M:%SZ)
ua=$(cat "$tmp/one/0/app/memory.current")
uw=$(cat "$tmp/one/0/app/worker/memory.current")
# hum BYTES: the text output's human size (powers of 1024)
hum() {
	awk -v v="$1" 'BEGIN { u = "KMGTPE"; x = v + 0; i = 0
		while (x >= 1024 && i < 6) { x /= 1024; i++ }
		if (i == 0) printf "%d", v
		else if (x < 99.95) printf "%.1f%s", x, substr(u, i, 1)
		else printf "%.0f%s", x, substr(u, i, 1) }'
}
# one NAME WANT ARGS...: the replay of the one-sample series with ARGS
# prints exactly WANT, exit 0, nothing on stderr.
one() {
	local name=$1 want=$2 got rc
	shift 2
	got=$("$BIN" -b --root "$tmp/one" -c usage,pgfault_per_s,path "$@" /app 2>"$tmp/err")
	rc=$?
	if [ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$got" = "$want" ]; then
		pass "one-sample recording, $name: its sample, rates not available"
	else
		fail "one-sample recording, $name: rc $rc, stderr '$(head -c 300 "$tmp/err")', got:"$'\n'"$got"$'\n'"want:"$'\n'"$want"
	fi
}
want_text="memcgtop - $T1  iteration 1  interval -  groups 2
Hierarchy: v2 (memcg v2) $tmp/one
Mem: - total, - available, - free (watermarks low - high -)  Swap: - used of -
Reclaim: pgscan -/s, pgsteal -/s  Pressure: some - full -

$(printf '%6s %7s %s\n' USAGE FLT/s GROUP "$(hum "$ua")" - /app "$(hum "$uw")" - '  worker')"
one "text" "$want_text"
one "text -n 0" "$want_text" -n 0
want_json="{\"time\":\"$T1\",\"iteration\":1,\"interval_s\":null,\"mode\":\"v2\",\"memcg\":\"v2\",\"collector\":\"files\",\"root\":\"$tmp/one\",\"system\":{\"mem_total\":null,\"mem_available\":null,\"mem_free\":null,\"wmark_low\":null,\"wmark_high\":null,\"swap_total\":null,\"swap_free\":null,\"pgscan_per_s\":null,\"pgsteal_per_s\":null,\"psi_some_avg10\":null,\"psi_full_avg10\":null,\"pgscan_kswapd_per_s\":null,\"pgscan_direct_per_s\":null,\"pgscan_khugepaged_per_s\":null,\"pgscan_proactive_per_s\":null,\"pgscan_memcg_per_s\":null,\"oom_kills\":[]},\"groups\":[{\"usage\":$ua,\"pgfault_per_s\":null,\"path\":\"/app\"},{\"usage\":$uw,\"pgfault_per_s\":null,\"path\":\"/app/worker\"}]}"
one "JSON" "$want_json" -F json
one "CSV" "$(printf 'time,iteration,usage,pgfault_per_s,path\r\n%s,1,%s,,/app\r\n%s,1,%s,,/app/worker\r' "$T1" "$ua" "$T1" "$uw")" -F csv
# A --record stopped (SIGTERM) while it waits for its second sample leaves
# a recording of one: its replay prints that sample.
"$BIN" -b -n 0 -d 60 --root "$FIX/edge-v2/cg/0" --record "$tmp/rec1" >/dev/null 2>"$tmp/rec.err" &
p=$!
for i in $(seq 200); do
	[ -s "$tmp/rec1/timestamps" ] && break
	sleep 0.05
done
kill -TERM $p
wait $p
wr=$(awk '{ print $2 }' "$tmp/rec1/timestamps" 2>/dev/null)
Tr=$(date -u -d "@${wr:-0}" +%Y-%m-%dT%H:%M:%SZ)
got=$("$BIN" -b --root "$tmp/rec1" -F csv -c usage,pgfault_per_s,path /app 2>"$tmp/err")
rc=$?
want=$(printf 'time,iteration,usage,pgfault_per_s,path\r\n%s,1,%s,,/app\r\n%s,1,%s,,/app/worker\r' "$Tr" "$ua" "$Tr" "$uw")
if [ "$(wc -l <"$tmp/rec1/timestamps")" = 1 ] && [ $rc = 0 ] && [ ! -s "$tmp/err" ] && [ "$got" = "$want" ]; then
	pass "a --record stopped after its first sample replays that sample"
else
	fail "--record stopped after one sample: $(wc -l <"$tmp/rec1/timestamps") samples recorded, replay rc $rc, stderr '$(head -c 300 "$tmp/err")', got:"$'\n'"$got"$'\n'"want:"$'\n'"$want"
fi

echo "$npass passed, $nfail failed, 0 skipped"
[ $nfail = 0 ]
