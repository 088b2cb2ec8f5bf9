#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/replay-long.sh - a recording of any length replays whole: a series of
# 100,001 samples (every line naming the same small slot, so the test stays
# cheap) gives 100,000 iterations, the last with the last sample's wall
# time; a malformed line, wherever it is in the file, is an error naming
# the file and the line, not a silent stop.  The binary is $MEMCGTOP
# (default ./memcgtop).
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

echo "$npass passed, $nfail failed, 0 skipped"
[ $nfail = 0 ]
