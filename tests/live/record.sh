#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# --record on the live v1 hierarchy and --root replay: the replayed JSON is
# byte for byte what the live run printed; --record-max keeps the newest
# samples; a recording packed with tar replays the same elsewhere.
# --output replaces a file atomically with each iteration.
set -u
cd "$(dirname "$0")/../.."
BIN=${MEMCGTOP:-./memcgtop}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
MNT=/sys/fs/cgroup/memory
pass=0 fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
skip() {
	if [ "${CI:-}" = true ]; then bad "record: $*"; echo "record: $pass passed, $fail failed"; exit 1; fi
	echo "SKIP: record: $*"; exit 77
}
[ "$(id -u)" = 0 ] || skip "not root"
[ -w "$MNT/memory.limit_in_bytes" ] || skip "no writable cgroup v1 memory mount at $MNT"

T=memcgtop-rec-$$-$RANDOM
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	if [ -d "$MNT/$T" ]; then
		find "$MNT/$T" -depth -type d | while read -r d; do
			while read -r p; do echo "$p" >"$MNT/cgroup.procs"; done <"$d/cgroup.procs" 2>/dev/null
			rmdir "$d" 2>/dev/null
		done
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

mkdir -p "$MNT/$T/a/b" "$MNT/$T/c"
echo 64M >"$MNT/$T/a/memory.limit_in_bytes"
echo 30 >"$MNT/$T/c/memory.swappiness"
# A process that touches memory in /a/b, so stats move between samples.
gcc -O2 -static -o "$tmp/memload" tests/load/memload.c || skip "cannot build memload"
sh -c "echo \$\$ >$MNT/$T/a/b/cgroup.procs; exec $tmp/memload anon 16" >"$tmp/load.out" &
pids+=($!)
for _ in $(seq 100); do grep -q ready "$tmp/load.out" && break; sleep 0.1; done

# Every format replays identically; JSON carries every column.
for fmt in json csv text prometheus; do
	rm -rf "$tmp/rec"
	"$BIN" -b -F $fmt -n 4 -d 0.2 --record "$tmp/rec" "/$T" >"$tmp/live.$fmt" 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$tmp/err" ] || { bad "record -F $fmt: exit $rc, $(head -c 200 "$tmp/err")"; continue; }
	"$BIN" -b -F $fmt -n 4 --root "$tmp/rec" "/$T" >"$tmp/replay.$fmt" 2>"$tmp/err"
	if cmp -s "$tmp/live.$fmt" "$tmp/replay.$fmt" && [ ! -s "$tmp/err" ]; then
		ok "replay of a recording prints what the live run printed, byte for byte (-F $fmt, $(wc -c <"$tmp/live.$fmt") bytes)"
	else
		bad "replay -F $fmt differs: $(cmp "$tmp/live.$fmt" "$tmp/replay.$fmt" 2>&1 | head -1) $(head -c 200 "$tmp/err")"
	fi
done
[ "$(wc -l <"$tmp/rec/timestamps")" = 5 ] && [ -d "$tmp/rec/4/$T/a/b" ] && [ -f "$tmp/rec/proc/4/meminfo" ] &&
	grep -qx "mode hybrid\|mode v1\|mode v2" "$tmp/rec/info" \
	&& ok "recording layout: 5 samples (4 iterations), groups, proc files, info" \
	|| bad "recording layout: $(ls "$tmp/rec") $(cat "$tmp/rec/info")"
# Without a CGROUP, replay starts where the recording started (DIR/info
# says where); an explicit CGROUP still wins.
grep -qxF "start /$T" "$tmp/rec/info" && ok "info names the start group /$T" \
	|| bad "info: $(cat "$tmp/rec/info")"
"$BIN" -b -F prometheus -n 4 --root "$tmp/rec" >"$tmp/replay0.prom" 2>"$tmp/err"
cmp -s "$tmp/live.prometheus" "$tmp/replay0.prom" && [ ! -s "$tmp/err" ] \
	&& ok "replay without CGROUP starts at the recorded group, byte for byte" \
	|| bad "replay without CGROUP: $(cmp "$tmp/live.prometheus" "$tmp/replay0.prom" 2>&1 | head -1) $(head -c 200 "$tmp/err")"
"$BIN" -b -F csv -c path,usage -n 1 --root "$tmp/rec" / 2>"$tmp/err" | tr -d '\r' >"$tmp/replay1.csv"
sed -n 2p "$tmp/replay1.csv" | grep -q ',1,/,$' && grep -q ",1,/$T,[0-9]" "$tmp/replay1.csv" \
	&& ok "replay with CGROUP / starts at the root as asked" \
	|| bad "replay with /: $(head -3 "$tmp/replay1.csv") $(head -c 200 "$tmp/err")"
# The kernel's own file and the recorded one are the same bytes.
want=$(cat "$MNT/$T/c/memory.swappiness")
[ "$(cat "$tmp/rec/4/$T/c/memory.swappiness")" = "$want" ] && ok "recorded memory.swappiness is the kernel's ($want)" \
	|| bad "recorded swappiness $(cat "$tmp/rec/4/$T/c/memory.swappiness") kernel $want"

# Packed with tar, unpacked elsewhere: the same output.
tar -C "$tmp" -cf "$tmp/rec.tar" rec && mkdir "$tmp/else" && tar -C "$tmp/else" -xf "$tmp/rec.tar"
"$BIN" -b -F prometheus -n 4 --root "$tmp/else/rec" "/$T" >"$tmp/else.prom" 2>&1
cmp -s "$tmp/live.prometheus" "$tmp/else.prom" && ok "a recording moved with tar replays the same" \
	|| bad "tar-moved recording differs"

# --record-max 3: the newest three samples, in order, replay as the last
# two iterations of the live run.
rm -rf "$tmp/rec"
"$BIN" -b -F json -n 7 -d 0.15 --record "$tmp/rec" --record-max 3 "/$T" >"$tmp/live.json" 2>"$tmp/err"
nd=$(find "$tmp/rec" -mindepth 1 -maxdepth 1 -type d -name '[0-9]*' | wc -l)
[ "$nd" = 3 ] && [ "$(wc -l <"$tmp/rec/timestamps")" = 3 ] && ok "--record-max 3 keeps 3 samples" \
	|| bad "--record-max 3: $nd folders, $(wc -l <"$tmp/rec/timestamps") timestamps"
"$BIN" -b -F json -n 9 --root "$tmp/rec" "/$T" >"$tmp/replay.json"
# Iteration numbers restart in a replay; everything else is identical.
if diff <(tail -n 2 "$tmp/live.json" | sed 's/"iteration":[0-9]*,//') \
	<(sed 's/"iteration":[0-9]*,//' "$tmp/replay.json") >/dev/null; then
	ok "a rotating recording replays the newest samples exactly"
else
	bad "rotating replay differs"
fi

# Bad use: a folder with other files is not taken over; a recording is not
# recorded again.
mkdir -p "$tmp/busy" && echo keep >"$tmp/busy/notes.txt"
"$BIN" -b -n 1 -d 0.1 --record "$tmp/busy" "/$T" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(cat "$tmp/err")" = "memcgtop: --record $tmp/busy: the folder holds other files (give an empty folder or an earlier recording)" ] &&
	[ "$(cat "$tmp/busy/notes.txt")" = keep ] && ok "--record refuses a folder that holds other files" \
	|| bad "--record busy folder: rc $rc '$(cat "$tmp/err")'"
"$BIN" -b -n 1 --root "$tmp/rec" --record "$tmp/rec2" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && grep -q "a recording cannot be recorded again" "$tmp/err" && ok "--record on a replay is refused" \
	|| bad "--record on replay: rc $rc '$(cat "$tmp/err")'"
"$BIN" -b -n 1 --record-max 3 "/$T" >/dev/null 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && [ "$(cat "$tmp/err")" = "memcgtop: --record-max needs --record DIR" ] && ok "--record-max alone is a usage error" \
	|| bad "--record-max alone: rc $rc '$(cat "$tmp/err")'"

# --output: replaced whole at each iteration, never seen half written.
out="$tmp/tf/memcgtop.prom"
mkdir -p "$tmp/tf"
"$BIN" -F prometheus -n 20 -d 0.05 --output "$out" "/$T" 2>"$tmp/err" &
op=$!
pids+=($op)
torn=0 seen=0
while kill -0 $op 2>/dev/null; do
	if [ -f "$out" ]; then
		seen=$((seen + 1))
		# A whole exposition ends with the last family's samples and
		# holds the test group's usage.
		grep -q "^memcgtop_usage_bytes{cgroup=\"/$T\"} [0-9]" "$out" || torn=$((torn + 1))
	fi
done
wait $op; rc=$?
[ $rc = 0 ] && [ $seen -gt 0 ] && [ $torn = 0 ] && [ ! -s "$tmp/err" ] &&
	[ "$(find "$tmp/tf" -type f | wc -l)" = 1 ] && [ "$(stat -c %a "$out")" = 644 ] \
	&& ok "--output: $seen reads during the run, every one a whole exposition; no temporary file left; mode 644" \
	|| bad "--output: rc $rc seen $seen torn $torn files $(ls "$tmp/tf") mode $(stat -c %a "$out" 2>/dev/null)"
promtool check metrics <"$out" >/dev/null 2>&1 && ok "--output file passes promtool check metrics" \
	|| { command -v promtool >/dev/null && bad "--output file fails promtool" || echo "SKIP: promtool not installed"; }

echo "record: $pass passed, $fail failed"
[ $fail = 0 ]
